"""`arborist lab repair`: re-run each lost question under single-setting changes from its boundary (thin over
arborist.lab.repair)."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import click

from arborist.cli.answer_options import burn_option
from arborist.cli.lab_cmd import _finish, _sigterm_interrupts
from arborist.cli.lab_options import cache_directory_option, continue_option, workers_for, workers_option
from arborist.cli.options import json_option, out_option, print_json
from arborist.errors import InputError
from arborist.lab import rundir
from arborist.lab.config import ModelSpec
from arborist.lab.executors import InProcess
from arborist.lab.repair import (
    REPAIR_SUMMARY,
    RepairPlan,
    execute_repair,
    load_repair,
    plan_continue,
    plan_repair,
    repair_json,
)
from arborist.models.base import Provider
from arborist.models.fleet import DEFAULT_PER_SERVER
from arborist.models.openai_compat import DEFAULT_RETRIES, DEFAULT_TIMEOUT
from arborist.models.registry import ProviderRecipe
from arborist.progress import Reporter


def provider_for(model: ModelSpec) -> Provider:
    """The model a run answered with, built again from its config (a URL's password is never recorded: an API key
    comes from the variable it names)."""
    return ProviderRecipe(model.model, base_url=model.base_url, api_key_env=model.api_key_env,
                          timeout=model.timeout or DEFAULT_TIMEOUT,
                          retries=model.retries if model.retries is not None else DEFAULT_RETRIES,
                          servers=tuple(model.servers or ()), per_server=model.per_server or DEFAULT_PER_SERVER).build()


@click.command("repair")
@click.argument("run_dir", required=False, type=click.Path(path_type=Path, file_okay=False))
@out_option("out", required=False)
@click.option("--max-calls", type=click.IntRange(0),
              help="At most N provider calls over the whole repair; it then stops with status budget_exhausted "
              "(exit 5) and the questions not yet decided are unmeasured.")
@workers_option
@cache_directory_option
@burn_option
@continue_option
@json_option
def repair(run_dir: Path | None, out: Path | None, max_calls: int | None, generation_workers: int | None,
           cache_directory: Path | None, burn: bool, continue_from: Path | None, as_json: bool) -> None:
    """Re-run each lost question alone under single-setting changes from its boundary; say which setting recovers it.

    \b
    Takes every row of RUN_DIR whose diagnosis names a lost boundary (and
    every right answer not labelled STRICT, when the answer policy has
    repair policies), re-runs it under the settings its boundary maps to
    (retrieval: retrieve-k, routes, fusion; evidence_k: evidence-k;
    context_admission: context-runes; generation and contract: layout,
    prompt, mode), each setting's ladder of values in turn, stopping at the
    first value that recovers it; everything else as in the run. Each
    re-run is an ordinary run under OUT/<UTC time>-repair-<hash>/runs/
    (default OUT: beside RUN_DIR), sharing the run's answer cache. Then the
    setting that recovers the most runs the whole evaluation, paired with
    the run as `lab compare` pairs them. Writes repair.json, summary.md and
    plots/recoveries.png; `lab view` shows the questions by verdict.
    --continue-from REPAIR_DIR continues a repair in place.
    Exit status: 0 complete; 6 complete, but a cell failed (its questions
    are unmeasured there); 5 stopped at --max-calls; 130 interrupted; 1 failed.
    """
    if continue_from is not None:
        given = [f for f, v in (("RUN_DIR", run_dir), ("--out", out), ("--cache-directory", cache_directory)) if v]
        if given:
            raise InputError(f"--continue-from continues the repair with its own settings; drop {', '.join(given)}")
        record = load_repair(continue_from)
        provider = provider_for(rundir.load_config(Path(record.run)).model)
        plan: RepairPlan = plan_continue(continue_from, provider, max_calls=max_calls,
                                         generation_workers=workers_for(generation_workers, provider), burn=burn)
    elif run_dir is None:
        raise InputError("give RUN_DIR, the run to repair (or --continue-from REPAIR_DIR)")
    else:
        provider = provider_for(rundir.load_config(run_dir).model)
        plan = plan_repair(run_dir, provider, out=out, max_calls=max_calls,
                           generation_workers=workers_for(generation_workers, provider),
                           cache_directory=cache_directory, burn=burn)

    def announce(line: str) -> None:
        click.echo(line, err=True)

    with _sigterm_interrupts(), Reporter() as progress, closing(InProcess()) as executor:
        outcome = execute_repair(plan, provider, progress, announce, executor=executor)
    record, where = outcome.record, outcome.repair_dir
    last = record.invocations[-1]
    click.echo(f"repair: {where} · provider calls {last.provider_calls}, cache hits {last.cache_hits}, "
               f"{last.seconds:.1f} s", err=True)
    for note in record.notes:
        click.echo(f"Note: {note}", err=True)
    if as_json:
        print_json(repair_json(record))
    else:
        counts = {v: sum(q.verdict == v for q in record.questions) for v in
                  ("recovered", "not recovered by one setting", "unmeasured")}
        click.echo(f"questions {len(record.questions)}: " + ", ".join(f"{k} {n}" for k, n in counts.items()))
        if record.whole_run is not None and record.whole_run.gold is not None:
            g = record.whole_run.gold
            iv = f" [{g.interval[0]:+.3f}, {g.interval[1]:+.3f}]" if g.interval else ""
            click.echo(f"whole run under {record.whole_run.setting}={record.whole_run.value}: gold gained "
                       f"{g.gained}, lost {g.lost}, delta {g.delta:+.3f}{iv} ({g.verdict})")
        click.echo(f"summary: {where / REPAIR_SUMMARY}")
    _finish("repair", record.state, record.message, record.exit_code)
