"""`arborist lab run|sweep|compare|list|status|validate`: answer-quality runs and what reads them (thin over
arborist.lab)."""

from __future__ import annotations

import importlib.util
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

import click
from click.core import ParameterSource

from arborist.cli.answer_options import (
    MODEL_OPTION_NAMES,
    apply_options,
    make_provider_from,
    recipe_from,
    run_options,
    verifier_from,
)
from arborist.cli.lab_options import (
    cache_directory_option,
    continue_option,
    corpus_option,
    evaluation_option,
    executor_options,
    floor_option,
    limit_option,
    metric_option,
    question_ids_option,
    workers_for,
    workers_option,
)
from arborist.cli.options import json_option, out_option, print_json, samples_option
from arborist.errors import InputError
from arborist.governance.options import OPTIONS_BY_NAME
from arborist.lab import rundir
from arborist.lab.checks import list_runs, run_state, validate_run
from arborist.lab.compare import compare_runs
from arborist.lab.compare import render as render_comparison
from arborist.lab.config import JudgeSpec, ModelSpec
from arborist.lab.executors import Executor, InProcess
from arborist.lab.judge import Judge
from arborist.lab.runner import RunRequest, execute, plan_run
from arborist.lab.stats import DEFAULT_RESAMPLES, DEFAULT_SEED
from arborist.lab.sweep import (
    SWEEP_SUMMARY,
    Cell,
    execute_sweep,
    load_sweep,
    parse_family,
    plan_continue,
    plan_sweep,
    valid_families,
)
from arborist.lab.treatments import parse_evidence_order, treatment_names
from arborist.models.base import Provider
from arborist.models.openai_compat import has_mask, redact_url, server_label
from arborist.models.registry import ProviderRecipe
from arborist.progress import Reporter
from arborist.prompting.modes import prompt_names

F = TypeVar("F", bound=Callable[..., Any])

# Options that change a run's rows: a continued run takes them from the run it continues.
_OUTPUT_OPTIONS = ("corpus", "evaluation", "question_ids", "limit", "arms", "prompt", "samples", "evidence_order",
                   "withhold_relevant", "plant_falsehood",
                   *OPTIONS_BY_NAME, *MODEL_OPTION_NAMES)

# What a continuation may not be given: all of them but --base-url, which gives again the secrets config.json
# does not keep (`continued_base_url` holds it to the same server).
_CONTINUE_REFUSES = tuple(n for n in _OUTPUT_OPTIONS if n != "base_url")


def _sigterm(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _check_order(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    try:
        parse_evidence_order(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc).removeprefix(f"--evidence-order '{value}' ")) from None
    return value


def run_request_options(fn: F) -> F:
    """Every option of `lab run` but --continue-from, in one list: `lab sweep` takes the
    same list, so an option added here reaches both commands (turned into a RunRequest by request_from_options)."""
    return apply_options(fn, [
        corpus_option,
        evaluation_option(),
        out_option("run_root", required=False),
        question_ids_option,
        limit_option,
        click.option("--arms", help="Comma-separated answer modes to run every question under (default: --mode)."),
        click.option("--prompt", metavar="NAME|FILE",
                     help=f"The system prompt: a shipped one ({', '.join(prompt_names())}; default baseline, each "
                     "mode's own file) or a prompt file (copied to inputs/prompt.txt)."),
        run_options,
        click.option("--evidence-order", default="original", show_default=True, callback=_check_order,
                     metavar="original|reversed|shuffle:N",
                     help="Also answer every question with its admitted evidence reversed, or shuffled N ways "
                     "(seeded): treated twins of every arm, paired with it in the summary."),
        click.option("--withhold-relevant", is_flag=True,
                     help="Also answer with every chunk of a relevant source removed before admission (a twin arm "
                     "'+withheld'): the right outcome is an abstention."),
        click.option("--plant-falsehood", is_flag=True,
                     help="Also answer with the gold answer in the admitted supporting chunks replaced by a wrong "
                     "value of the same kind from another question (a twin arm '+planted')."),
        click.option("--judge", is_flag=True,
                     help="After a complete run, a model judges each usable answer: atomic statements, then a "
                     "verdict on each against the evidence as sent (results/judge-per-query.jsonl, judge-summary.json)."),
        click.option("--judge-statements-model", metavar="MODEL",
                     help="The model that extracts statements (default: the answer model; on --base-url, a model "
                     "name of that server)."),
        click.option("--judge-verdicts-model", metavar="MODEL",
                     help="The model that gives verdicts (default: the answer model)."),
        click.option("--judge-budget", type=click.IntRange(0),
                     help="At most N judge calls per run (later rows: budget_exhausted)."),
        samples_option,
        workers_option,
        *executor_options,
        click.option("--generation-budget", type=click.IntRange(0),
                     help="At most N provider calls (a sweep's across its cells); the run then stops with status "
                     "budget_exhausted (exit 5)."),
        cache_directory_option,
        json_option,
    ])


def request_from_options(opts: dict[str, Any], continue_from: Path | None = None,
                         model: ModelSpec | None = None) -> tuple[RunRequest, Provider, Executor]:
    """The run request, provider and executor the options of run_request_options describe.

    `model` (a continued run's or sweep's own) replaces the model options.
    """
    o = dict(opts)
    if model is not None:
        o.update(model=model.model, base_url=continued_base_url(model.base_url, o["base_url"]),
                 api_key_env=model.api_key_env,
                 timeout=model.timeout or o["timeout"],
                 retries=model.retries if model.retries is not None else o["retries"])
        if model.servers and not o["servers"] and o["servers_file"] is None:  # the fleet it ran on, unless told
            o.update(servers=tuple(model.servers), per_server=model.per_server or o["per_server"])
    executor = _executor(o, recipe_from(o))  # refused before any model is loaded
    provider = make_provider_from(o)
    if model is None:
        # A password or query in the URL is never written into a run directory (ModelSpec masks it).
        model = ModelSpec(model=o["model"], base_url=o["base_url"],
                          api_key_env=o["api_key_env"],
                          timeout=o["timeout"], retries=o["retries"], provider=provider.name,
                          model_id=f"{provider.name}:{provider.model_id}")
    arms = o["arms"]
    request = RunRequest(
        run_root=o["run_root"], corpus=o["corpus"], evaluation=o["evaluation"], question_ids=o["question_ids"],
        limit=o["limit"], arms=tuple(a.strip() for a in arms.split(",") if a.strip()) if arms else (),
        policy_values={n: o[n] for n in OPTIONS_BY_NAME}, verifier=verifier_from(o),
        prompt=o["prompt"], samples=o["samples"], model=model,
        generation_workers=workers_for(o["generation_workers"], provider), generation_budget=o["generation_budget"],
        cache_directory=o["cache_directory"], burn=o["burn"], continue_from=continue_from,
        treatments=tuple(treatment_names(o["evidence_order"], o["withhold_relevant"], o["plant_falsehood"])),
    )
    return request, provider, executor


def continued_base_url(recorded: str | None, given: str | None) -> str | None:
    """The server a continued run answers on: the run's own (config.json's), whose password or query, never
    written there, --base-url gives again. Never a masked value: that would send `***` as the secret."""
    if given is None:
        if recorded is not None and has_mask(recorded):
            raise InputError(f"the run answered on '{recorded}', whose password or query value config.json does not "
                             "keep; give --base-url again with it (the same server)")
        return recorded
    if recorded is None:
        raise InputError("--base-url: the continued run did not answer on a served model; drop --base-url")
    if server_label(given) != server_label(recorded):
        raise InputError(f"--base-url '{redact_url(given)}' is not the server the run answered on ('{recorded}'); "
                         "a continued run answers on the same server")
    return given


def _executor(opts: dict[str, Any], recipe: ProviderRecipe) -> Executor:
    """--executor and --ray-address: Ray is imported only when asked for."""
    if opts["executor"] != "ray":
        if opts["ray_address"]:
            raise InputError("--ray-address needs --executor ray")
        return InProcess()
    if importlib.util.find_spec("ray") is None:
        raise InputError("--executor ray needs the ray package: pip install 'arborist[ray]'")
    from arborist.lab.ray_executor import RayExecutor

    return RayExecutor(recipe, address=opts["ray_address"], connect_timeout=opts["ray_connect_timeout"])


def _given(ctx: click.Context, names: tuple[str, ...]) -> list[str]:
    """The options among `names` the user gave (command line or environment), as their flags."""
    flags = {p.name: max(p.opts, key=len) for p in ctx.command.params}
    return [flags.get(n, "--" + n.replace("_", "-")) for n in names
            if ctx.get_parameter_source(n) in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)]


@contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    previous = signal.signal(signal.SIGTERM, _sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _judge(opts: dict[str, Any], provider: Provider, cache_directory: str) -> Judge | None:
    """The judge the --judge options describe: its models on the answer model's server (or locally)."""
    if not opts["judge"]:
        given = [f for f, n in (("--judge-statements-model", "judge_statements_model"),
                                ("--judge-verdicts-model", "judge_verdicts_model"),
                                ("--judge-budget", "judge_budget")) if opts[n] is not None]
        if given:
            raise InputError(f"{', '.join(given)} need --judge")
        return None

    def make(name: str | None) -> Provider:
        return provider if name is None else make_provider_from(opts, name)

    statements, verdicts = make(opts["judge_statements_model"]), make(opts["judge_verdicts_model"])
    spec = JudgeSpec(statements_model_id=f"{statements.name}:{statements.model_id}",
                     verdicts_model_id=f"{verdicts.name}:{verdicts.model_id}", budget=opts["judge_budget"])
    return Judge(spec, statements, verdicts, Path(cache_directory) / "judge")


@click.command("run")
@run_request_options
@continue_option
@click.pass_context
def run(ctx: click.Context, /, continue_from: Path | None, as_json: bool, **kwargs: Any) -> None:
    """Answer every selected question, write a new run directory under --out, summarise it.

    \b
    --continue-from RUN_DIR continues a run: its finished rows are reused,
    only the rest are answered, into a new run directory (beside the old
    one unless --out says otherwise).
    Each row of results/per-query.jsonl keeps the ranked, selected, admitted
    and cited ids, the answer, its contract and label, and a diagnosis: the
    first boundary where support for the gold answer disappeared. summary.md
    leads with the count per boundary.

    Exit status: 0 complete; 6 complete, but some rows have no answer (the
    provider call failed) or the judge failed on some rows (a warning says
    which; counts in status.json and summary.md); 5 stopped at
    --generation-budget; 130 interrupted (continue either with
    --continue-from); 1 failed (every row failed, among other causes).
    """
    model: ModelSpec | None = None
    if continue_from is not None:
        given = _given(ctx, _CONTINUE_REFUSES)
        if given:
            raise InputError(f"--continue-from answers with the continued run's own settings; drop {', '.join(given)}")
        model = rundir.load_config(continue_from).model
    elif kwargs["corpus"] is None or kwargs["evaluation"] is None or kwargs["run_root"] is None:
        raise InputError("give --corpus FILE, --evaluation FILE and --out DIR (or --continue-from RUN_DIR)")
    request, provider, executor = request_from_options(kwargs, continue_from, model)
    plan = plan_run(request, provider)
    judge = _judge(kwargs, provider, plan.config.cache_directory)
    with _sigterm_interrupts(), Reporter() as progress, closing(executor):
        outcome = execute(plan, provider, progress, judge=judge, executor=executor)
    status = outcome.status
    run_dir = outcome.run_dir.resolve()
    if as_json:
        print_json({"run_dir": str(run_dir), "status": status.model_dump()})
    else:
        click.echo(f"run: {run_dir}")
        click.echo(f"state: {status.state} · rows {status.rows_done}/{status.rows_total} "
                   f"(reused {status.rows_reused}, provider calls {status.provider_calls}, "
                   f"cache hits {status.cache_hits})")
        click.echo(f"summary: {run_dir / rundir.SUMMARY_MD}")
    _finish("run", status.state, status.message, status.exit_code)


def _finish(what: str, state: str, message: str, exit_code: int | None) -> None:
    """The last line of a run or sweep on stderr when it did not complete, and its exit status."""
    if state == "failed":
        click.echo(f"Error: the {what} failed: {message}", err=True)
    elif state == "complete" and exit_code:
        click.echo(f"Warning: the {what} is complete, but {message}", err=True)
    elif state != "complete":
        click.echo(f"Stopped: {message}", err=True)
    if exit_code:
        sys.exit(exit_code)


@click.command("sweep")
@click.option("--family", metavar="NAME=V1,V2,...",
              help=f"The knob to vary and its values, one run per value. Families: {valid_families()}.")
@run_request_options
@continue_option
@click.pass_context
def sweep(ctx: click.Context, /, family: str | None, continue_from: Path | None, as_json: bool,
          **kwargs: Any) -> None:
    """Run one answer-quality run per value of one knob; a table and a plot per metric against the value.

    \b
    Takes every option of `lab run` (shared by all cells) and writes
    OUT/<UTC time>-sweep-<family>-<hash>/ with runs/ (one run directory per
    cell), sweep.json, summary.md and plots/<metric>.png. Cells share the
    answer cache and indexes, so a repeated sweep is served from the cache.
    --continue-from SWEEP_DIR continues a sweep in place: finished cells are
    kept, an unfinished cell's run is continued, the rest are run.
    Exit status as `lab run`.
    """
    if continue_from is not None:
        given = _given(ctx, (*_CONTINUE_REFUSES, "family", "run_root", "cache_directory"))
        if given:
            raise InputError(f"--continue-from continues the sweep with its own settings; drop {', '.join(given)}")
        record = load_sweep(continue_from)
        model = ModelSpec.model_validate(record.request.get("model") or {})
        _, provider, executor = request_from_options(kwargs, model=model)
        plan = plan_continue(continue_from, provider,
                             generation_workers=workers_for(kwargs["generation_workers"], provider),
                             generation_budget=kwargs["generation_budget"], burn=kwargs["burn"])
    else:
        if family is None:
            raise InputError(f"give --family NAME=V1,V2,... (valid families: {valid_families()})")
        fam, _values = parse_family(family)
        given = _given(ctx, fam.options)
        if given:
            raise InputError(f"the sweep sets {', '.join(given)} per cell from --family {fam.name}; drop {', '.join(given)}")
        if kwargs["corpus"] is None or kwargs["evaluation"] is None or kwargs["run_root"] is None:
            raise InputError("give --corpus FILE, --evaluation FILE and --out DIR (or --continue-from SWEEP_DIR)")
        request, provider, executor = request_from_options(kwargs)
        plan = plan_sweep(request, family, provider)
    cells = len(plan.record.cells)

    def announce(i: int, cell: Cell) -> None:
        click.echo(f"cell {i + 1}/{cells}: {plan.record.family}={cell.value}", err=True)

    caches = [p.config.cache_directory for p in plan.plans if p is not None]
    judge = _judge(kwargs, provider, caches[0]) if caches else None
    with _sigterm_interrupts(), Reporter() as progress, closing(executor):
        outcome = execute_sweep(plan, provider, progress, announce, judge=judge, executor=executor)
    record = outcome.record
    sweep_dir = outcome.sweep_dir.resolve()  # every path printed is absolute: pasted into `compare` from anywhere
    run_dirs = {c.value: str(sweep_dir / c.run_dir) if c.run_dir else None for c in record.cells}
    if as_json:
        print_json({"sweep_dir": str(sweep_dir), "run_dirs": run_dirs, "sweep": record.model_dump(mode="json")})
    else:
        click.echo(f"sweep: {sweep_dir}")
        for cell in record.cells:
            click.echo(f"  {record.family}={cell.value}: {cell.state} · provider calls {cell.provider_calls}, "
                       f"cache hits {cell.cache_hits} · {run_dirs[cell.value] or '-'}")
        click.echo(f"state: {record.state}")
        click.echo(f"summary: {sweep_dir / SWEEP_SUMMARY}")
        for metric, path in record.plots.items():
            click.echo(f"plot {metric}: {sweep_dir / path}")
    _finish("sweep", record.state, record.message, record.exit_code)


@click.command("compare")
@click.argument("run_a", type=click.Path(path_type=Path, file_okay=False))
@click.argument("run_b", type=click.Path(path_type=Path, file_okay=False))
@metric_option
@floor_option
@click.option("--bootstrap-seed", "seed", default=DEFAULT_SEED, show_default=True, type=int,
              help="Seed of the bootstrap resampling.")
@click.option("--resamples", default=DEFAULT_RESAMPLES, show_default=True, type=click.IntRange(100, 1_000_000),
              help="Bootstrap resamples.")
@click.option("--arm", "arm_a", help="The arm of RUN_A (default: its only arm).")
@click.option("--arm-b", help="The arm of RUN_B (default: --arm if RUN_B has it, else its only arm).")
@click.option("--also", nargs=2, multiple=True, metavar="RUN_A RUN_B",
              type=click.Path(path_type=Path, file_okay=False),
              help="Another pair of runs making the same change over another evaluation; the verdict pools every "
              "pair's questions (each pair's own figures are shown too). Repeatable.")
@json_option
def compare(run_a: Path, run_b: Path, metric: str, floor: float, seed: int, resamples: int, arm_a: str | None,
            arm_b: str | None, also: tuple[tuple[Path, Path], ...], as_json: bool) -> None:
    """Compare two runs over the same evaluation, paired per question and sample: B - A with a verdict.

    \b
    Delta is B - A with a seeded 95% bootstrap interval over questions and,
    for binary metrics, McNemar's exact p on the discordant pairs. The
    verdict is `signal` only when the interval excludes 0, |delta| is at
    least --floor and (binary metrics) McNemar's p < 0.05; `noise`
    otherwise. Runs over different evaluations are
    refused. Two arms of one run: RUN RUN --arm X --arm-b Y. A default chosen
    on several evaluations: RUN_A RUN_B --also RUN_A2 RUN_B2 (the same two
    settings in every pair) pools their questions into one verdict.
    """
    result = compare_runs(run_a, run_b, metric=metric, floor=floor, seed=seed, arm_a=arm_a, arm_b=arm_b,
                          resamples=resamples, also=also)
    if as_json:
        print_json(result.model_dump(mode="json"))
    else:
        click.echo(render_comparison(result))


@click.command("validate")
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


@click.command("status")
@click.argument("run_dir", type=click.Path(path_type=Path, file_okay=False))
@json_option
def status_command(run_dir: Path, as_json: bool) -> None:
    """One run's state and counts; a run whose process is gone reads `dead`, with the command that continues it."""
    st = run_state(run_dir)
    if as_json:
        print_json(st.model_dump())
        return
    click.echo(f"run: {st.run_dir}")
    recorded = f" (status.json says {st.recorded_state}; its process, pid {st.pid}, is gone)" \
        if st.state != st.recorded_state else ""
    click.echo(f"state: {st.state}{recorded}" + (f" · exit code {st.exit_code}" if st.exit_code is not None else ""))
    click.echo(f"rows {st.rows_done}/{st.rows_total} · reused {st.rows_reused} · failed {st.rows_failed} · "
               f"provider calls {st.provider_calls} · cache hits {st.cache_hits} · judge failed {st.judge_failed}")
    click.echo(f"started {st.started_at}" + (f" · ended {st.ended_at}" if st.ended_at else ""))
    if st.rows_by_server:
        click.echo("rows by server: " + " · ".join(f"{k} {v}" for k, v in sorted(st.rows_by_server.items())))
    if st.rows_by_worker:
        click.echo("rows by worker: " + " · ".join(f"{k} {v}" for k, v in sorted(st.rows_by_worker.items())))
    if st.message:
        click.echo(f"message: {st.message}")
    if st.continue_command:
        click.echo(f"continue: {st.continue_command}")


@click.command("list")
@click.argument("run_root", type=click.Path(path_type=Path, file_okay=False))
@json_option
def list_command(run_root: Path, as_json: bool) -> None:
    """Runs under RUN_ROOT with state, output digest, rows and headline metrics.

    RUN_ROOT is the --out folder of `lab run`.
    """
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
        if r.continue_command:
            click.echo(f"    continue: {r.continue_command}")
