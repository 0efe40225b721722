"""`arborist experiments ...`: answer-quality runs, their validation and listing (thin over arborist.lab)."""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any, Self

import click
from click.core import ParameterSource
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)

from arborist.cli.answer_options import (
    MODEL_OPTION_NAMES,
    make_provider_from,
    pop_options,
    run_options,
)
from arborist.cli.options import json_option, print_json
from arborist.errors import InputError
from arborist.governance.options import OPTIONS_BY_NAME
from arborist.lab import rundir
from arborist.lab.checks import list_runs, validate_run
from arborist.lab.config import ModelSpec
from arborist.lab.rows import Row
from arborist.lab.runner import RunRequest, execute, plan_run

# Options that change a run's rows: a continued run takes them from the run it continues.
_OUTPUT_OPTIONS = ("corpus", "evaluation", "question_ids", "limit", "arms", "prompt", "samples",
                   *OPTIONS_BY_NAME, *MODEL_OPTION_NAMES)


@click.group("experiments")
def experiments() -> None:
    """The lab: answer-quality runs in self-contained run directories."""


@experiments.group("answer-quality")
def answer_quality() -> None:
    """Answer an evaluation's questions and locate where each answer lost its evidence."""


class _Bar:
    """A rich progress bar on a terminal; a line every 10 rows otherwise (logs)."""

    def __init__(self, quiet: bool) -> None:
        self.console = Console(stderr=True)
        self.live = self.console.is_terminal and not quiet
        self.quiet = quiet
        self.progress = Progress(
            TextColumn("answering"), BarColumn(), MofNCompleteColumn(),
            TextColumn("cache hits {task.fields[hits]} · calls {task.fields[calls]}"), TimeRemainingColumn(),
            console=self.console, disable=not self.live, transient=True,
        )
        self.task: TaskID | None = None
        self.done = self.hits = self.calls = self.total = 0
        self.t0 = time.monotonic()

    def __enter__(self) -> Self:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(None, None, None)

    def start(self, total: int, done: int) -> None:
        self.total, self.done = total, done
        self.task = self.progress.add_task("run", total=total, completed=done, hits=0, calls=0)
        self.t0 = time.monotonic()
        self.start_done = done

    def advance(self, row: Row) -> None:
        self.done += 1
        self.hits += row.source == "cache"
        self.calls += row.source == "provider"
        if self.task is not None:
            self.progress.update(self.task, advance=1, hits=self.hits, calls=self.calls)
        if not self.live and not self.quiet and self.task is not None and (self.done % 10 == 0 or self.done == self.total):
            elapsed = time.monotonic() - self.t0
            rate = (self.done - self.start_done) / elapsed if elapsed > 0 else 0.0
            eta = f"{(self.total - self.done) / rate:.0f} s" if rate > 0 else "?"
            click.echo(f"rows {self.done}/{self.total} · cache hits {self.hits} · calls {self.calls} · "
                       f"{elapsed:.0f} s elapsed · ETA {eta}", err=True)


def _sigterm(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@answer_quality.command("run")
@click.option("--corpus", type=click.Path(path_type=Path, dir_okay=False),
              help="The corpus file (JSON list or JSONL of {id?, title, text}) the evaluation was made for.")
@click.option("--evaluation", type=click.Path(path_type=Path, dir_okay=False),
              help="An arborist-evaluation/1 file (see `arborist datasets import`).")
@click.option("--run-root", type=click.Path(path_type=Path, file_okay=False),
              help="Where the new run directory goes (default with --continue-from: beside the old run).")
@click.option("--question-ids", type=click.Path(path_type=Path, dir_okay=False),
              help="Answer only these questions: a file with one evaluation question id per line.")
@click.option("--limit", type=click.IntRange(1), help="Answer only the first N (selected) questions.")
@click.option("--arms", help="Comma-separated answer modes to run every question under (default: --mode).")
@click.option("--prompt", type=click.Path(path_type=Path, dir_okay=False),
              help="A system prompt file to use instead of the shipped one (copied to inputs/prompt.txt).")
@run_options
@click.option("--samples", default=1, show_default=True, type=click.IntRange(1, 100),
              help="Answers per question (needs --temperature > 0); the samples share one evaluated prompt.")
@click.option("--generation-workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Parallel provider calls (a local model serves one call at a time; use it for servers).")
@click.option("--generation-budget", type=click.IntRange(0),
              help="At most N provider calls; the run then stops with status budget_exhausted (exit 5).")
@click.option("--cache-directory", type=click.Path(path_type=Path, file_okay=False),
              help="Where indexes and the answer cache live (default $ARBORIST_CACHE/lab).")
@click.option("--continue-from", type=click.Path(path_type=Path, file_okay=False),
              help="A run to continue: its finished rows are reused, only the rest are answered, into a new run.")
@json_option
@click.pass_context
def run(ctx: click.Context, /, corpus: Path | None, evaluation: Path | None, run_root: Path | None,
        question_ids: Path | None, limit: int | None, arms: str | None, prompt: Path | None, samples: int,
        generation_workers: int, generation_budget: int | None, cache_directory: Path | None,
        continue_from: Path | None, as_json: bool, **kwargs: Any) -> None:
    """Answer every selected question, write a new run directory under --run-root, summarise it.

    \b
    Each row of results/per-query.jsonl keeps the ranked, selected, admitted
    and cited ids, the answer, its contract and label, and a diagnosis: the
    first boundary where support for the gold answer disappeared. summary.md
    leads with the count per boundary.

    Exit status: 0 complete; 5 stopped at --generation-budget; 130
    interrupted (continue either with --continue-from); 1 failed.
    """
    opts = pop_options(kwargs, tuple(kwargs))
    model: ModelSpec | None = None
    if continue_from is not None:
        given = [n for n in _OUTPUT_OPTIONS
                 if ctx.get_parameter_source(n) in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)]
        if given:
            flags = ", ".join("--" + g.replace("_", "-") for g in given)
            raise InputError(f"--continue-from answers with the continued run's own settings; drop {flags}")
        old = rundir.load_config(continue_from)
        model = old.model
        opts.update(model=model.model, base_url=model.base_url, api_key_env=model.api_key_env,
                    timeout=model.timeout or opts["timeout"], retries=model.retries if model.retries is not None
                    else opts["retries"])
    else:
        if corpus is None or evaluation is None or run_root is None:
            raise InputError("give --corpus FILE, --evaluation FILE and --run-root DIR (or --continue-from RUN_DIR)")
    provider = make_provider_from(opts)
    if model is None:
        model = ModelSpec(model=opts["model"], base_url=opts["base_url"], api_key_env=opts["api_key_env"],
                          timeout=opts["timeout"], retries=opts["retries"], provider=provider.name,
                          model_id=f"{provider.name}:{provider.model_id}")
    request = RunRequest(
        run_root=run_root, corpus=corpus, evaluation=evaluation, question_ids=question_ids, limit=limit,
        arms=tuple(a.strip() for a in arms.split(",") if a.strip()) if arms else (),
        policy_values={n: opts[n] for n in OPTIONS_BY_NAME}, demote_missed_answer=opts["demote_missed_answer"],
        prompt=prompt, samples=samples, model=model,
        generation_workers=generation_workers, generation_budget=generation_budget,
        cache_directory=cache_directory, burn=opts["burn"], continue_from=continue_from,
    )
    plan = plan_run(request, provider)
    previous = signal.signal(signal.SIGTERM, _sigterm)
    try:
        with _Bar(quiet=as_json) as bar:
            outcome = execute(plan, provider, bar)
    finally:
        signal.signal(signal.SIGTERM, previous)
    status = outcome.status
    if as_json:
        print_json({"run_dir": str(outcome.run_dir), "status": status.model_dump()})
    else:
        click.echo(f"run: {outcome.run_dir}")
        click.echo(f"state: {status.state} · rows {status.rows_done}/{status.rows_total} "
                   f"(reused {status.rows_reused}, provider calls {status.provider_calls}, "
                   f"cache hits {status.cache_hits})")
        click.echo(f"summary: {outcome.run_dir / rundir.SUMMARY_MD}")
    if status.state == "failed":
        click.echo(f"Error: the run failed: {status.message}", err=True)
    elif status.state != "complete":
        click.echo(f"Stopped: {status.message}", err=True)
    if status.exit_code:
        sys.exit(status.exit_code)


@experiments.command("validate")
@click.argument("run_dir", type=click.Path(path_type=Path, file_okay=False))
@json_option
def validate(run_dir: Path, as_json: bool) -> None:
    """Check a run directory: complete, exit 0, every row once, totals agree, model and policy as configured."""
    checks = validate_run(run_dir)
    if as_json:
        print_json({"run_dir": str(run_dir), "ok": all(c.ok for c in checks),
                    "checks": [c.model_dump() for c in checks]})
    else:
        for c in checks:
            click.echo(f"{'ok  ' if c.ok else 'FAIL'} {c.name}: {c.detail}")
    if not all(c.ok for c in checks):
        sys.exit(1)


@experiments.command("list")
@click.option("--run-root", required=True, type=click.Path(path_type=Path, file_okay=False),
              help="The folder holding run directories.")
@json_option
def list_command(run_root: Path, as_json: bool) -> None:
    """Runs under --run-root with state, output digest, rows and headline metrics."""
    runs = list_runs(run_root)
    if as_json:
        print_json([r.model_dump() for r in runs])
        return
    if not runs:
        click.echo(f"no runs under '{run_root}'")
        return

    def pct(v: float | None) -> str:
        return "—" if v is None else f"{v:.0%}"

    for r in runs:
        diag = ", ".join(f"{k} {v}" for k, v in r.diagnosis.items() if v)
        click.echo(f"{r.run_dir}  {r.state:<16} {r.output_digest[7:19]}  rows {r.rows_done}/{r.rows_total}  "
                   f"valid {pct(r.valid_rate)}  gold {pct(r.gold_rate)}  recall@10 "
                   f"{'—' if r.recall_at_10 is None else f'{r.recall_at_10:.3f}'}  [{diag}]")
