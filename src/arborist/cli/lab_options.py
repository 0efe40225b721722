"""Options shared by the `arborist lab` commands, each defined once (the product commands never import this:
it brings in the lab)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from arborist.cli.options import F
from arborist.lab.compare import DEFAULT_FLOOR
from arborist.lab.executors import EXECUTOR_KINDS, RAY_CONNECT_TIMEOUT
from arborist.lab.metrics.headline import COMPARABLE
from arborist.models.base import Provider
from arborist.models.fleet import ServerFleet


def evaluation_option(dest: str = "evaluation", required: bool = False) -> Callable[[F], F]:
    return click.option("--evaluation", dest, required=required, type=click.Path(path_type=Path, dir_okay=False),
                        help="An arborist-evaluation/1 file bound to its corpus by digest (`arborist lab "
                        "import-dataset` writes one); `lab layout-bench` also reads a question fixture (.txt).")


corpus_option = click.option(
    "--corpus", type=click.Path(path_type=Path, dir_okay=False),
    help="A corpus file: a JSON list, or JSONL, of {id?, title, text} (the one the evaluation was made for).")
limit_option = click.option("--limit", type=click.IntRange(1), help="Only the first N selected questions.")
question_ids_option = click.option(
    "--question-ids", type=click.Path(path_type=Path, dir_okay=False),
    help="Only these questions: a file with one evaluation question id per line.")
workers_option = click.option(
    "--generation-workers", type=click.IntRange(1, 256),
    help="Provider calls in flight, over all servers (default 1; with --server, the fleet's capacity: servers x "
    "--per-server). A local model serves one call at a time.")


def workers_for(given: int | None, provider: Provider) -> int:
    """--generation-workers as given, else what keeps every server busy (a fleet) or 1 (one model)."""
    if given is not None:
        return given
    return provider.capacity if isinstance(provider, ServerFleet) else 1
executor_options = [
    click.option("--executor", type=click.Choice(EXECUTOR_KINDS), default="inprocess", show_default=True,
                 help="Where answers are generated and verified: threads of this process, or Ray tasks (the "
                 "`ray` extra); retrieval, the cache, the audit log and the rows stay here either way."),
    click.option("--ray-address", metavar="ADDR",
                 help="With --executor ray: the cluster to join, e.g. 10.0.0.5:6379 (default: start a local one)."),
    click.option("--ray-connect-timeout", type=click.FloatRange(0.1), default=RAY_CONNECT_TIMEOUT, show_default=True,
                 metavar="SECONDS", help="With --ray-address: how long joining the cluster may take before the run "
                 "gives up."),
]
cache_directory_option = click.option(
    "--cache-directory", type=click.Path(path_type=Path, file_okay=False),
    help="Where indexes and the answer cache live (default $ARBORIST_CACHE/lab).")
floor_option = click.option("--floor", default=DEFAULT_FLOOR, show_default=True, type=click.FloatRange(0.0),
                            help="Smallest |delta| a paired verdict counts as a signal.")
metric_option = click.option(
    "--metric", type=click.Choice(COMPARABLE), default="gold", show_default=True,
    help="The paired metric. valid: contract-valid; gold: gold answer in a usable answer; strict: labelled "
    "STRICT; completeness: share of a question's requests answered (rows that carry it).")
continue_option = click.option(
    "--continue-from", type=click.Path(path_type=Path, file_okay=False),
    help="A run (for `lab run`), sweep directory (for `lab sweep`) or repair directory (for `lab repair`) to "
    "continue: finished work is reused, only the rest is answered.")
