"""`arborist lab eval-retrieval`: measure retrieval against an evaluation file."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from arborist.cli.lab_options import evaluation_option
from arborist.cli.options import db_option, json_option, print_json
from arborist.cli.policy_options import search_options
from arborist.corpus.store import open_store
from arborist.evaluation.format import load_evaluation
from arborist.evaluation.retrieval_eval import MetricRow, evaluate_retrieval
from arborist.retrieval.search import Fusion, SearchSettings, parse_routes


def _table(title: str, rows: list[MetricRow], k: int) -> Table:
    table = Table(title=title)
    for col in ("list", "n", "MRR", f"Recall@{k}", f"nDCG@{k}", f"hit@{k}"):
        table.add_column(col, justify="left" if col == "list" else "right")
    for r in rows:
        table.add_row(r.list, str(r.n), f"{r.mrr:.3f}", f"{r.recall:.3f}", f"{r.ndcg:.3f}", f"{r.hit:.3f}")
    return table


@click.command("eval-retrieval")
@db_option
@evaluation_option("evaluation_path", required=True)
@click.option("--cutoff", "k", default=10, show_default=True, type=click.IntRange(1, 1000),
              help="Metric cutoff N of Recall@N, nDCG@N and hit@N (MRR is uncut).")
@search_options
@click.option("--per-query", type=click.Path(path_type=Path, dir_okay=False),
              help="Write one JSON line of scores per measured question here.")
@json_option
def retrieval(db: Path, evaluation_path: Path, k: int, routes: str, title_filter: bool, fusion: Fusion,
              per_query: Path | None, as_json: bool) -> None:
    """MRR, Recall@N, nDCG@N and hit rate@N of the fused list and of each route alone.

    Documents (source ids) are ranked by their best chunk; metrics are
    computed on the ranked list before any evidence cutoff.
    """
    evaluation = load_evaluation(evaluation_path)
    settings = SearchSettings(routes=parse_routes(routes), title_filter=title_filter, fusion=fusion)
    console = Console(stderr=True)
    with open_store(db) as store, Progress(
        TextColumn("searching"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=console, disable=not console.is_terminal or as_json, transient=True,
    ) as bar:
        task = bar.add_task("eval", total=len(evaluation.questions))
        report, rows = evaluate_retrieval(
            store, evaluation, settings, k=k, evaluation_path=evaluation_path,
            progress=lambda n: bar.advance(task, n),
        )
    if per_query is not None:
        with per_query.open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(row.model_dump_json() + "\n")
    for name, reason in report.unavailable_routes.items():
        click.echo(f"Warning: route '{name}' unavailable: {reason}", err=True)
    if as_json:
        print_json(report.model_dump())
        return
    out = Console()
    out.print(_table(f"retrieval @ {k}: {report.measured} questions measured", report.rows, k))
    for kind, kind_rows in report.by_kind.items():
        out.print(_table(f"{kind} questions", kind_rows, k))
    if report.unmeasured:
        click.echo(f"not measured ({len(report.unmeasured)}):")
        for u in report.unmeasured:
            click.echo(f"  {u.id}: {u.reason}")
