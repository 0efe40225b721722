"""A misbehaving OpenAI-compatible server on 127.0.0.1, for testing the HTTP provider.

Each request takes the next queued behaviour (default "ok"):
  ok          200 with a canned chat completion (`reply` text)
  slow        sleep `slow_seconds` before answering (longer than the client timeout)
  drip        the whole response (status line, headers, body), one byte every `drip_seconds`:
              each read gets a byte in time, so only a deadline for the whole request ends it
  500 / 503   server error;  429: rate limited (with Retry-After if `retry_after` is set)
  400         client error (must not be retried)
  malformed   200 with a body that is not JSON
  no_choices  200 with JSON lacking `choices`
  drop        close the connection without any response
  truncated   200 whose body stops halfway through its Content-Length, then the connection closes
  redirect    302 to a file: URL (a client must not follow it)
  bytes       any queued bytes object is sent as a 200 body, as is (hostile shapes, huge bodies)
Requests are recorded (path, headers, JSON body) so tests can check what was sent; `on_request`, if set,
runs before each reply (e.g. to fill a disk while the "model" is busy). `latency_seconds` delays every reply
(a model's fixed answer time), `reply_for` makes the "ok" reply from the request body, and `most_in_flight`
is the largest number of requests the server was handling at once.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class FaultServer:
    reply: str = '{"answer": "42"}'
    slow_seconds: float = 2.0
    drip_seconds: float = 0.5
    on_request: Callable[[], None] | None = None
    retry_after: str | None = None
    latency_seconds: float = 0.0
    reply_for: Callable[[Any], str] | None = None
    in_flight: int = 0
    most_in_flight: int = 0
    requests: list[Received] = field(default_factory=list)
    _queue: deque[str | bytes] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stop: threading.Event = field(default_factory=threading.Event)
    _httpd: ThreadingHTTPServer | None = None

    def queue(self, *behaviours: str | bytes) -> None:
        with self._lock:
            self._queue.extend(behaviours)

    def _next(self) -> str | bytes:
        with self._lock:
            return self._queue.popleft() if self._queue else "ok"

    @property
    def base_url(self) -> str:
        assert self._httpd is not None
        host, port = self._httpd.server_address[:2]
        assert isinstance(host, str)
        return f"http://{host}:{port}/v1"

    def completion_body(self, request: Any = None) -> dict[str, Any]:
        reply = self.reply if self.reply_for is None else self.reply_for(request)
        return {
            "id": "chatcmpl-fault",
            "object": "chat.completion",
            "model": "fault",
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}
            ],
            "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
        }

    def start(self) -> FaultServer:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # quiet tests
                pass

            def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    for key, value in (headers or {}).items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (e.g. after its timeout)

            def do_POST(self) -> None:  # http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body: Any = json.loads(raw)
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                with server._lock:
                    server.requests.append(Received(self.path, dict(self.headers), body))
                    server.in_flight += 1
                    server.most_in_flight = max(server.most_in_flight, server.in_flight)
                try:
                    self._reply(body)
                finally:
                    with server._lock:
                        server.in_flight -= 1

            def _reply(self, body: Any) -> None:
                behaviour = server._next()
                if server.on_request is not None:
                    server.on_request()
                if server.latency_seconds and server._stop.wait(server.latency_seconds):
                    self.close_connection = True  # stopped: answer nothing, as a killed server
                    return
                ok = json.dumps(server.completion_body(body)).encode()
                if isinstance(behaviour, bytes):
                    self._send(200, behaviour)
                elif behaviour == "redirect":
                    self._send(302, b"", {"Location": "file:///etc/hostname"})
                elif behaviour == "ok":
                    self._send(200, ok)
                elif behaviour == "drip":
                    head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(ok)}\r\n\r\n"
                    for i in range(len(head) + len(ok)):
                        if server._stop.wait(server.drip_seconds):
                            return
                        try:
                            self.wfile.write((head.encode() + ok)[i : i + 1])
                            self.wfile.flush()
                        except OSError:
                            return  # the client gave up
                elif behaviour == "slow":
                    server._stop.wait(server.slow_seconds)
                    self._send(200, ok)
                elif behaviour in {"500", "503", "400"}:
                    self._send(int(behaviour), b'{"error": {"message": "injected failure\\nsecond line"}}')
                elif behaviour == "429":
                    extra = {"Retry-After": server.retry_after} if server.retry_after else None
                    self._send(429, b'{"error": {"message": "slow down"}}', extra)
                elif behaviour == "malformed":
                    self._send(200, b"<html>not json at all")
                elif behaviour == "no_choices":
                    self._send(200, b'{"object": "chat.completion", "usage": {}}')
                elif behaviour == "drop":
                    self.close_connection = True  # answer nothing; the socket just closes
                elif behaviour == "truncated":
                    head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(ok)}\r\n\r\n"
                    self.wfile.write(head.encode() + ok[: len(ok) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                else:
                    raise AssertionError(f"unknown behaviour {behaviour!r}")

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        threading.Thread(target=self._httpd.serve_forever, args=(0.05,), name="fault-server", daemon=True).start()
        return self

    def stop(self) -> None:
        self._stop.set()  # wake any "slow" handler
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
