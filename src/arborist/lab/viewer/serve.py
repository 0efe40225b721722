"""`--serve`: the viewer's pages over HTTP on 127.0.0.1 only, with the list of runs under a run root.

Routes: `/` lists the runs and sweeps under the root; `/run?path=NAME`,
`/sweep?path=NAME`, `/repair?path=NAME` and `/compare?a=NAME&b=NAME` render the same
self-contained pages `--output` writes. Paths are names under the root: one
that leaves it is refused (404), so the server shows nothing else on disk.
"""

from __future__ import annotations

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


def _inside(root: Path, rel: str) -> Path | None:
    target = (root / rel).resolve()
    return target if target.is_relative_to(root) and target != root else None


def render_path(root: Path, url: str, comparer: Comparer) -> tuple[int, str]:
    """(HTTP status, HTML) for one request path under `root`."""
    parts = urlsplit(url)
    q = {k: v[0] for k, v in parse_qs(parts.query).items()}
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
            return 200, repair_page(load_repair_dir(repair))
        if parts.path == "/compare":
            a, b = _inside(root, q.get("a", "")), _inside(root, q.get("b", ""))
            if a is None or b is None or not is_run_dir(a) or not is_run_dir(b):
                return 404, "give ?a=RUN&b=RUN, two runs under the root"
            comparison, why = comparer(a, b)
            return 200, compare_page(load_run(a), load_run(b), comparison, why)
    except ViewerError as exc:
        return 400, f"Error: {exc}"
    return 404, "not found"


def serve(root: Path, port: int, comparer: Comparer, announce: Callable[[str], None]) -> None:
    """Serve until interrupted; the socket listens on 127.0.0.1 only."""
    root = root.resolve()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            status, body = render_path(root, self.path, comparer)
            data = body.encode("utf-8")
            self.send_response(status)
            kind = "text/html" if status == 200 else "text/plain"
            self.send_header("Content-Type", f"{kind}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            return  # quiet: the command prints its own line

    with ThreadingHTTPServer((HOST, port), Handler) as httpd:
        announce(f"http://{HOST}:{httpd.server_address[1]}/")
        httpd.serve_forever()
