"""`arborist lab view`: a run, a comparison or a sweep as one HTML page, or served on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from arborist.cli.lab_options import floor_option, metric_option
from arborist.cli.options import output_option
from arborist.errors import ArboristError, InputError
from arborist.lab.compare import compare_runs
from arborist.lab.viewer import (
    ViewerError,
    compare_page,
    load_repair_dir,
    load_run,
    load_sweep_dir,
    repair_page,
    run_page,
    sweep_page,
)
from arborist.lab.viewer.load import (
    is_bench_dir,
    is_ladder_dir,
    is_repair_dir,
    is_run_dir,
    is_sweep_dir,
    load_doc,
)
from arborist.lab.viewer.page import doc_page
from arborist.lab.viewer.serve import Comparer, serve

DEFAULT_PORT = 8765


def _comparer(metric: str, floor: float) -> Comparer:
    """The compare page's verdict, by `lab compare` itself; its refusal becomes the page's note."""
    def compare(a: Path, b: Path) -> tuple[dict[str, Any] | None, str | None]:
        try:
            return compare_runs(a, b, metric=metric, floor=floor).model_dump(mode="json"), None
        except ArboristError as exc:
            return None, str(exc)
    return compare


@click.command("view")
@click.argument("path", type=click.Path(path_type=Path, file_okay=False))
@output_option("out", required=False)
@click.option("--serve", "serve_", is_flag=True,
              help="Serve the page, and the runs and sweeps beside it, on 127.0.0.1 until Ctrl-C.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535),
              help="Port for --serve (0: any free port).")
@click.option("--compare", "run_b", type=click.Path(path_type=Path, file_okay=False),
              help="A second run over the same evaluation: a compare page (PATH is run A).")
@metric_option
@floor_option
def view(path: Path, out: Path | None, serve_: bool, port: int, run_b: Path | None, metric: str,
         floor: float) -> None:
    """Show a run directory in the browser: diagnosis first, each question's journey, prompt to label.

    \b
    --output writes one self-contained HTML file (no network needed to open
    it); --serve serves the pages on 127.0.0.1. --metric and --floor set the
    compare page's paired verdict, as in `arborist lab compare`.
    PATH is a run directory (run page; with --compare RUN_B, a compare
    page naming the settings that differ), a sweep directory (its cells and
    plots), a repair directory (its questions by verdict, each recovered
    one's funnel before and after), a sentinel ladder or a layout bench
    directory (their tables),
    or, with --serve, a run root (the list of the runs under it). The page reads only the run
    directory's files, shows every document and answer as text, and pages
    long runs (100 questions a page).
    """
    if out is None and not serve_:
        raise InputError("give --output FILE.html to write the page, or --serve to serve it on 127.0.0.1")
    if not path.is_dir():
        raise InputError(f"'{path}' does not exist or is not a directory; give a run directory, a sweep "
                         "directory or (with --serve) a run root")
    comparer = _comparer(metric, floor)
    if out is not None:
        try:
            if run_b is not None:
                if not is_run_dir(path) or not is_run_dir(run_b):
                    raise InputError("--compare needs two run directories (each with a config.json)")
                run_a, run_b_data = load_run(path), load_run(run_b)  # a damaged file is named before comparing
                comparison, why = comparer(path, run_b)
                if comparison is None:
                    raise InputError(f"cannot compare: {why}")
                html = compare_page(run_a, run_b_data, comparison)
            elif is_ladder_dir(path) or is_bench_dir(path):
                html = doc_page(load_doc(path))
            elif is_run_dir(path):
                html = run_page(load_run(path))
            elif is_sweep_dir(path):
                html = sweep_page(load_sweep_dir(path))
            elif is_repair_dir(path):
                html = repair_page(load_repair_dir(path))
            else:
                raise InputError(f"'{path}' is neither a run directory (config.json), a sweep directory "
                                 "(sweep.json), a repair directory (repair.json), a sentinel ladder nor a layout "
                                 "bench (bench.json); a run root is listed only with --serve")
        except ViewerError as exc:
            raise InputError(str(exc)) from None
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(html, encoding="utf-8")
        tmp.replace(out)
        click.echo(f"wrote {out} ({len(html.encode('utf-8')) / 1e6:.1f} MB)")
    if serve_:
        is_page = is_run_dir(path) or is_sweep_dir(path) or is_repair_dir(path)
        root = path.parent if is_page else path
        if is_page:
            kind = "run" if is_run_dir(path) else "sweep" if is_sweep_dir(path) else "repair"
            first = f"{kind}?path={path.name}"
            if run_b is not None:
                if not run_b.resolve().is_relative_to(root.resolve()) or not is_run_dir(run_b):
                    raise InputError(f"--compare '{run_b}' is not a run directory under the run root '{root}' "
                                     "that --serve serves; put both runs under one root, or write the page with "
                                     "--output")
                first = f"compare?a={path.name}&b={run_b.resolve().relative_to(root.resolve())}"
        else:
            first = ""

        def announce(url: str) -> None:
            click.echo(f"serving {root} at {url}{first} (Ctrl-C stops)")

        try:
            serve(root, port, comparer, announce)
        except OSError as exc:
            raise InputError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror}; pick another --port") from None
