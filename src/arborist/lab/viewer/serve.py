"""`--serve`: the viewer's pages over HTTP on 127.0.0.1 only, with the list of runs under a run root.

Routes: `/` lists the runs and sweeps under the root; `/run?path=NAME`,
`/sweep?path=NAME`, `/repair?path=NAME` and `/compare?a=NAME&b=NAME` render the same
self-contained pages `--output` writes. Paths are names under the root: one
that leaves it is refused (404), so the server shows nothing else on disk;
every file a page embeds is resolved, links included, and must stay inside
its run or sweep directory (`load.inside`).

A request whose Host header is not the address the server is bound to
(127.0.0.1 or localhost, with its port) is refused (421): a web page that
points a name of its own at 127.0.0.1 (DNS rebinding) reads nothing. A bad
request or a damaged run is a 4xx whose body is one line saying why; nothing
the server is asked prints a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from arborist.lab.viewer.load import (
    ViewerError,
    is_bench_dir,
    is_ladder_dir,
    is_repair_dir,
    is_run_dir,
    is_sweep_dir,
    list_root,
    load_doc,
    load_repair_dir,
    load_run,
    load_sweep_dir,
)
from arborist.lab.viewer.page import compare_page, doc_page, index_page, repair_page, run_page, sweep_page

HOST = "127.0.0.1"
# (run A, run B) -> (comparison as JSON data, or None and why not)
Comparer = Callable[[Path, Path], tuple[dict[str, Any] | None, str | None]]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _inside(root: Path, rel: str) -> Path | None:
    """The directory `rel` names under `root`, links followed, or None when it leaves the root or is no
    name at all (a NUL byte, a name too long, a link loop)."""
    if not rel:
        return None
    try:
        target = (root / rel).resolve()
        target.is_dir()  # a name the system refuses (too long) raises here, not later
    except (OSError, ValueError, RuntimeError):
        return None
    return target if target.is_relative_to(root) and target != root else None


def render_path(root: Path, url: str, comparer: Comparer) -> tuple[int, str]:
    """(HTTP status, HTML or a one-line reason) for one request path under `root`."""
    root = root.resolve()
    parts = urlsplit(url)
    q = {k: v[0] for k, v in parse_qs(parts.query, errors="replace").items()}
    try:
        if parts.path == "/":
            return 200, index_page(list_root(root))
        if parts.path == "/run":
            run = _inside(root, q.get("path", ""))
            if run is not None and (is_ladder_dir(run) or is_bench_dir(run)):
                return 200, doc_page(load_doc(run))
            if run is None or not is_run_dir(run):
                return 404, "no such run"
            return 200, run_page(load_run(run), {"index": "/"})
        if parts.path == "/sweep":
            sweep = _inside(root, q.get("path", ""))
            if sweep is None or not is_sweep_dir(sweep):
                return 404, "no such sweep"
            prefix = str(sweep.relative_to(root)) + "/"
            return 200, sweep_page(load_sweep_dir(sweep), {"index": "/", "run_base": "/run?path=" + prefix,
                                                           "prefix": prefix, "compare": "/compare"})
        if parts.path == "/repair":
            repair = _inside(root, q.get("path", ""))
            if repair is None or not is_repair_dir(repair):
                return 404, "no such repair"
            return 200, repair_page(load_repair_dir(repair, root))
        if parts.path == "/compare":
            a, b = _inside(root, q.get("a", "")), _inside(root, q.get("b", ""))
            if a is None or b is None or not is_run_dir(a) or not is_run_dir(b):
                return 404, "give ?a=RUN&b=RUN, two runs under the root"
            run_a, run_b = load_run(a), load_run(b)  # each file checked before anything else reads the runs
            comparison, why = comparer(a, b)
            return 200, compare_page(run_a, run_b, comparison, why)
    except ViewerError as exc:
        return 400, _one_line(f"Error: {exc}")
    except OSError as exc:
        return 400, _one_line(f"Error: the path cannot be read ({exc.strerror or type(exc).__name__})")
    return 404, "not found"


def allowed_hosts(host: str, port: int) -> set[str]:
    """The Host headers a server bound to `host`:`port` answers: its address, and localhost for a loopback one,
    with the port or without it."""
    names = {host, "localhost"} if host in ("127.0.0.1", "localhost", "::1") else {host}
    return {f"{n}:{port}" for n in names} | names


def make_server(root: Path, port: int, comparer: Comparer, host: str = HOST) -> ThreadingHTTPServer:
    """The viewer's server on `host`:`port` (0: any free port), not yet serving."""
    root = root.resolve()

    bound: list[int] = []  # the port, once bound (0 asks for any free one)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            given = (self.headers.get("Host") or "").strip().lower()
            if given not in allowed_hosts(host, bound[0]):
                self._send(421, f"Error: Host '{_one_line(given)}' is not this server's address; open "
                                f"http://{host}:{bound[0]}/")
                return
            try:
                status, body = render_path(root, self.path, comparer)
            except Exception as exc:  # noqa: BLE001 - a damage nothing above foresaw: one line, no traceback
                status, body = 500, _one_line(f"Error: unexpected {type(exc).__name__}: {exc}")
                print(body, file=sys.stderr)
            self._send(status, body)

        def _send(self, status: int, body: str) -> None:
            data = body.encode("utf-8", "replace")
            self.send_response(status)
            kind = "text/html" if status == 200 else "text/plain"
            self.send_header("Content-Type", f"{kind}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            return  # quiet: the command prints its own line

    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request: Any, client_address: Any) -> None:
            """A client that went away is no error; anything else is one line on stderr, not a traceback."""
            exc = sys.exc_info()[1]
            if exc is not None and not isinstance(exc, ConnectionError | TimeoutError):
                print(_one_line(f"Error: a request failed: {type(exc).__name__}: {exc}"), file=sys.stderr)

    server = Server((host, port), Handler)
    bound.append(server.server_port)
    return server


def serve(root: Path, port: int, comparer: Comparer, announce: Callable[[str], None]) -> None:
    """Serve until interrupted; the socket listens on 127.0.0.1 only."""
    with make_server(root, port, comparer) as httpd:
        announce(f"http://{HOST}:{httpd.server_address[1]}/")
        httpd.serve_forever()
