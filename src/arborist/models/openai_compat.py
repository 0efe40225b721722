"""Any OpenAI-compatible `/chat/completions` server (llama.cpp server, vLLM, Ollama, hosted).

Uses the standard library (http.client) so the HTTP provider adds no dependency.
Transient failures (429, 5xx, refused/dropped connections, timeouts) are
retried a bounded number of times with exponential backoff; anything else, and
the last transient failure, comes back as a Completion with `error` set, so a
flaky server shows up in the answer record instead of crashing a batch.

`timeout` is a deadline for the whole request (connect, headers, body), not
the socket's per-read timeout: a server that drips one byte every half second
never lets a per-read timeout fire. A watchdog shuts the socket down when the
deadline passes, which ends any blocked read, whatever the server's pace.
A user name and password in the base URL are sent as HTTP Basic credentials
and never shown (errors, model ids and records name the URL without them).

Whatever a server sends is treated as untrusted: only http(s) base URLs are
accepted, redirects are not followed, at most `MAX_RESPONSE_BYTES` are read
(a longer body is cut there and the call recorded as failed, saying so), and
a body nested deeper than `MAX_RESPONSE_DEPTH` or holding wrong types where
the chat-completion shape names them is a recorded failure, never a crash.
"""

from __future__ import annotations

import base64
import contextlib
import http.client
import json
import math
import os
import socket
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arborist.errors import ArboristError
from arborist.models.base import (
    Completion,
    GenerationSettings,
    Message,
    chat_request,
    scrub_surrogates,
)

DEFAULT_TIMEOUT = 120.0
DEFAULT_RETRIES = 3
# One call's overall deadline: every retry and, over a fleet, every move to another server. Above what the
# default timeout and retries can take on one server (4 x 120 s and the backoff), so it bounds a fleet's failover
# without cutting a slow server's retries short.
DEFAULT_DEADLINE = 600.0
BACKOFF_BASE = 0.5
MAX_RETRY_AFTER = 30.0
MAX_RESPONSE_BYTES = 4 * 1024 * 1024  # max_tokens <= 32,768 fits many times over, JSON escapes included
MAX_ERROR_BYTES = 4096
MAX_RESPONSE_DEPTH = 64
_READ_PIECE = 64 * 1024


@dataclass(frozen=True)
class _Failure:
    """Why one attempt failed, and whether trying again could help."""

    message: str
    retryable: bool
    retry_after: float | None = None


def _one_line(text: str, limit: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _retry_after(value: str | None) -> float | None:
    try:
        seconds = float(value) if value else None
    except ValueError:
        return None  # an HTTP date; fall back to our own backoff
    if seconds is None or not math.isfinite(seconds):
        return None
    return min(max(seconds, 0.0), MAX_RETRY_AFTER)


def check_base_url(base_url: str, what: str = "--base-url") -> str:
    """Only http(s) URLs with a host: `file:`, `ftp:` and friends are refused before any call.

    `what` names where the URL came from (an option, a line of a servers file). The messages show the URL
    with any password masked: a refused URL is still a secret's carrier.
    """
    try:
        parts = urllib.parse.urlsplit(base_url.strip())
    except ValueError as exc:  # "http://[::1/v1": an unclosed IPv6 bracket
        raise ArboristError(f"{what} '{redact_url(base_url)}' is not a valid URL ({exc}); "
                            "give one like http://127.0.0.1:8000/v1") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise ArboristError(
            f"{what} '{redact_url(base_url)}' is not an http(s) URL of a server; "
            "give one like http://127.0.0.1:8000/v1"
        )
    try:
        parts.port  # noqa: B018 -- urllib checks the port only when it is read
    except ValueError:
        raise ArboristError(
            f"{what} '{redact_url(base_url)}' has no valid port (0 to 65535); "
            "give one like http://127.0.0.1:8000/v1"
        ) from None
    return base_url.strip()


MASK = "***"


def redact_url(url: str) -> str:
    """`url` with the password of any `user:password@`, every value of its query and every bare query token
    (`?TOKEN`) replaced by `***` (the user name and the keys of `key=value` pieces stay: they help tell servers apart and are no secret; a query may carry an
    API key). A URL without either comes back unchanged."""
    try:
        parts = urllib.parse.urlsplit(url.strip())
    except ValueError:
        return url if "@" not in url and "?" not in url else "<unparseable URL>"
    netloc, query = parts.netloc, parts.query
    if "@" in netloc:
        userinfo, _, hostport = netloc.rpartition("@")
        user, colon, _ = userinfo.partition(":")
        netloc = f"{user}:{MASK}@{hostport}" if colon else (f"{user}@{hostport}" if user else hostport)
    if query:
        # A piece with no `=` is a bare token (`?SECRET`): all of it is masked, never kept as a key.
        query = "&".join(f"{piece.split('=', 1)[0]}={MASK}" if "=" in piece else MASK
                         for piece in query.split("&") if piece)
    if (netloc, query) == (parts.netloc, parts.query):
        return url
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc, query=query))


def holds_secret(url: str) -> bool:
    """Whether `url` carries a password or a query (what `redact_url` masks)."""
    return redact_url(url) != url


def has_mask(url: str) -> bool:
    """Whether `url` carries a masked password or query value (one read back from a run directory): sending it
    would send `***` as the secret."""
    try:
        parts = urllib.parse.urlsplit(url.strip())
    except ValueError:
        return False
    values = [v for _, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)]
    return parts.password == MASK or MASK in values or MASK in parts.query.split("&")


def server_label(base_url: str) -> str:
    """The server part of a model's identity: scheme, host, port and path, never a user name or password
    (nor a query) that the URL may carry, since identities are recorded and hashed."""
    parts = urllib.parse.urlsplit(check_base_url(base_url))
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    port = f":{parts.port}" if parts.port is not None else ""
    return f"{parts.scheme.lower()}://{host}{port}{parts.path.rstrip('/')}"


class _Watchdog:
    """Shuts a connection's socket down when the deadline passes: a blocked read then returns,
    however slowly the server sends. `fired` says whether it did."""

    def __init__(self, conn: http.client.HTTPConnection, seconds: float) -> None:
        self._conn = conn
        self.fired = threading.Event()
        self._timer = threading.Timer(max(seconds, 0.0), self._fire)
        self._timer.daemon = True

    def _fire(self) -> None:
        self.fired.set()
        sock = self._conn.sock
        if sock is not None:
            with contextlib.suppress(OSError):  # already closed
                sock.shutdown(socket.SHUT_RDWR)

    def __enter__(self) -> _Watchdog:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()


def _read_capped(resp: http.client.HTTPResponse, limit: int) -> tuple[bytes, bool]:
    """At most `limit` bytes of the body (and whether there was more)."""
    pieces: list[bytes] = []
    size = 0
    while size <= limit:
        piece = resp.read(min(_READ_PIECE, limit + 1 - size))
        if not piece:
            return b"".join(pieces), False
        pieces.append(piece)
        size += len(piece)
    return b"".join(pieces)[:limit], True


def _depth(obj: Any, limit: int) -> int:
    """Nesting depth of parsed JSON, counted without recursion and stopping past `limit`."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(obj, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            deepest = max(deepest, depth)
            if depth > limit:
                return depth
            stack.extend((child, depth + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


class OpenAIProvider:
    """POSTs chat requests to `{base_url}/chat/completions`; never raises on a failed call."""

    name = "openai"

    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        api_key_env: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        retries: int = DEFAULT_RETRIES,
        backoff: float = BACKOFF_BASE,
        sleep: Callable[[float], object] | None = None,
        deadline: float = DEFAULT_DEADLINE,
    ) -> None:
        if not model:
            raise ArboristError("the HTTP provider needs a model name (--model) for the server")
        if retries < 0:
            raise ArboristError(f"retries must be 0 or more, not {retries}")
        self.model = model  # the name the server knows it by
        # Its identity names the server too: the answer cache, completion replay and policy hash key on it, so two
        # servers that serve different weights under one name never share an answer.
        self.model_id = f"{model}@{server_label(base_url)}"
        parts = urllib.parse.urlsplit(check_base_url(base_url))
        if has_mask(base_url):
            raise ArboristError(f"the base URL '{redact_url(base_url)}' holds a masked password or query value "
                                f"('{MASK}'), not the secret itself; give the URL with it (--base-url)")
        # What errors show: the URL without credentials (they go in a header) or a query (it may hold a key).
        self.server = server_label(base_url)
        self.url = self.server + "/chat/completions"
        self._target = urllib.parse.urlunsplit(("", "", parts.path.rstrip("/") + "/chat/completions",
                                                parts.query, ""))
        self._https = parts.scheme.lower() == "https"
        self._host, self._port = parts.hostname or "", parts.port
        self._basic_auth: str | None = None
        if parts.username is not None or parts.password is not None:
            pair = f"{urllib.parse.unquote(parts.username or '')}:{urllib.parse.unquote(parts.password or '')}"
            self._basic_auth = "Basic " + base64.b64encode(pair.encode("utf-8")).decode("ascii")
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.deadline = deadline
        self._aborted = threading.Event()
        self._sleep = self._aborted.wait if sleep is None else sleep  # a backoff that `abort` ends
        self._live: set[http.client.HTTPConnection] = set()  # connections of the calls in flight
        self._live_lock = threading.Lock()
        self._api_key: str | None = None
        if api_key_env:
            self._api_key = os.environ.get(api_key_env)
            if not self._api_key:
                raise ArboristError(f"environment variable {api_key_env} (the API key) is not set")

    def _body(
        self, messages: list[Message], settings: GenerationSettings, json_schema: dict[str, Any] | None
    ) -> bytes:
        body = {"model": self.model, **chat_request(messages, settings, json_schema)}
        return json.dumps(body).encode("utf-8")

    def abort(self) -> None:
        """End every call in flight and refuse new ones (a stopped run): their sockets are shut down, so a
        call waiting on a slow server returns now, as a failure no retry follows."""
        self._aborted.set()
        with self._live_lock:
            live = list(self._live)
        for conn in live:
            if conn.sock is not None:
                with contextlib.suppress(OSError):
                    conn.sock.shutdown(socket.SHUT_RDWR)

    def _post(self, data: bytes, timeout: float | None = None) -> tuple[dict[str, Any] | None, _Failure | None]:
        """One request, given up after `timeout` seconds (default: the provider's)."""
        limit = self.timeout if timeout is None else max(timeout, 0.001)
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        elif self._basic_auth:
            headers["Authorization"] = self._basic_auth
        conn_type = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
        conn = conn_type(self._host, self._port, timeout=limit)
        timed_out = _Failure(f"timed out after {limit:.3g} s", True)
        watchdog = _Watchdog(conn, limit)
        payload, cut, short, detail, after = b"", False, 0, "", None
        with self._live_lock:
            if self._aborted.is_set():
                return None, _Failure("cancelled: the run was stopped", False)
            self._live.add(conn)
        try:
            with watchdog:
                try:
                    conn.connect()
                except OSError as exc:  # refused, unreachable, no such host: nothing was sent
                    if isinstance(exc, TimeoutError) or watchdog.fired.is_set():
                        return None, timed_out
                    return None, _Failure(f"connection failed ({_one_line(str(exc))})", True)
                conn.request("POST", self._target, body=data, headers=headers)
                resp = conn.getresponse()
                status = resp.status
                if status >= 300:
                    detail = _one_line(resp.read(MAX_ERROR_BYTES).decode("utf-8", "replace"))
                    after = _retry_after(resp.getheader("Retry-After"))
                else:
                    payload, cut = _read_capped(resp, MAX_RESPONSE_BYTES)
                    short = 0 if cut or resp.length is None else resp.length  # bytes the server said it would send
            if watchdog.fired.is_set():
                return None, timed_out  # what was read may be cut short by the shutdown
        except TimeoutError:  # socket.timeout is an alias
            return None, timed_out
        except (http.client.HTTPException, ConnectionError) as exc:
            if watchdog.fired.is_set():
                return None, timed_out
            return None, _Failure(f"connection dropped ({type(exc).__name__})", True)
        except OSError as exc:
            if watchdog.fired.is_set():
                return None, timed_out
            return None, _Failure(f"connection failed ({_one_line(str(exc))})", True)
        finally:
            conn.close()
            with self._live_lock:
                self._live.discard(conn)
        if short:  # the connection closed inside the body: a dropped connection, whatever the status said
            return None, _Failure(f"connection dropped (the body ended {short:,} bytes short of its "
                                  "Content-Length)", True)
        if 300 <= status < 400:
            return None, _Failure(f"HTTP {status} redirect (not followed: a chat endpoint does not move)", False)
        if status >= 400:
            retryable = status == 429 or status >= 500
            return None, _Failure(f"HTTP {status}" + (f" ({detail})" if detail else ""), retryable, after)
        if cut:
            return None, _Failure(
                f"response body larger than {MAX_RESPONSE_BYTES:,} bytes: cut there and not kept "
                f"(began {_one_line(payload[:80].decode('utf-8', 'replace'), 80)!r})", False)
        try:
            parsed = json.loads(payload)
        except (ValueError, RecursionError) as exc:
            why = "nested too deeply to parse" if isinstance(exc, RecursionError) else "not JSON"
            return None, _Failure(f"malformed response: {why} ({_one_line(payload[:200].decode('utf-8', 'replace'), 80)})", False)
        if not isinstance(parsed, dict):
            return None, _Failure("malformed response: not a JSON object", False)
        if _depth(parsed, MAX_RESPONSE_DEPTH) > MAX_RESPONSE_DEPTH:
            return None, _Failure(f"malformed response: JSON nested deeper than {MAX_RESPONSE_DEPTH} levels", False)
        return scrub_surrogates(parsed), None

    def complete(
        self,
        messages: list[Message],
        settings: GenerationSettings,
        json_schema: dict[str, Any] | None = None,
    ) -> Completion:
        return self.complete_by(messages, settings, json_schema, time.monotonic() + self.deadline)

    def complete_by(self, messages: list[Message], settings: GenerationSettings,
                    json_schema: dict[str, Any] | None, end: float) -> Completion:
        """`complete`, given up at `end` (a `time.monotonic()` value; a fleet passes its call's own): no request
        outlives it and no retry starts after it."""
        data = self._body(messages, settings, json_schema)
        started = time.monotonic()
        attempt = 0
        while True:
            attempt += 1
            t0 = time.monotonic()
            parsed, failure = self._post(data, min(self.timeout, end - t0))
            timings = {"request_s": time.monotonic() - t0, "total_s": time.monotonic() - started}
            if failure is None and parsed is not None:
                return self._completion(parsed, attempt, timings)
            assert failure is not None
            delay = self.backoff * 2 ** (attempt - 1)
            if failure.retry_after is not None:
                delay = max(delay, failure.retry_after)
            late = time.monotonic() + delay >= end
            if not failure.retryable or attempt > self.retries or late or self._aborted.is_set():
                why = "cancelled: the run was stopped" if self._aborted.is_set() else failure.message
                if late and failure.retryable and attempt <= self.retries and not self._aborted.is_set():
                    why += f"; the call's deadline ({end - started:.3g} s) left no time to try again"
                return Completion(
                    model_id=self.model_id,
                    provider=self.name,
                    error=f"POST {self.url} failed: {why} after {attempt} attempt{'s' if attempt > 1 else ''}",
                    attempts=attempt,
                    timings=timings,
                    server=self.server,
                )
            self._sleep(delay)

    def _completion(self, body: dict[str, Any], attempts: int, timings: dict[str, float]) -> Completion:
        def failed(why: str) -> Completion:
            return Completion(
                model_id=self.model_id,
                provider=self.name,
                error=f"POST {self.url} failed: malformed response: {why}",
                attempts=attempts,
                timings=timings,
                raw=body,
                server=self.server,
            )

        choices = body.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            return failed("no choices[0] object")
        choice = choices[0]
        message = choice.get("message")
        if not isinstance(message, dict):
            return failed("no choices[0].message object")
        text = message.get("content")
        if text is not None and not isinstance(text, str):
            return failed(f"choices[0].message.content is {type(text).__name__}, not a string")
        finish = choice.get("finish_reason")
        if finish is not None and not isinstance(finish, str):
            return failed(f"choices[0].finish_reason is {type(finish).__name__}, not a string")
        usage: dict[str, Any] = body["usage"] if isinstance(body.get("usage"), dict) else {}
        return Completion(
            text=text or "",
            model_id=self.model_id,
            provider=self.name,
            prompt_tokens=_int_or_none(usage.get("prompt_tokens")),
            completion_tokens=_int_or_none(usage.get("completion_tokens")),
            timings=timings,
            finish_reason=finish,
            attempts=attempts,
            raw=body,
            server=self.server,
        )


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
