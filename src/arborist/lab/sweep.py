"""Sweeps: one answer-quality run per value of one knob, under one sweep directory, with a table and a plot per metric.

    <run root>/<UTC time>-sweep-<family>-<hash>/
        sweep.json     family, values, the shared run options, each cell's run directory and state, metrics
        runs/          one ordinary answer-quality run directory per cell (status, config, resume as any run)
        plots/<metric>.png, plots/diagnosis.png
        summary.md     one table of metrics per cell, where each cell's answers lost the gold, the plots

Cells share the lab's cache directory: one store per corpus and chunking
(so only a chunking sweep builds new indexes) and the answer cache inside
it (keyed by the governance hash, so a cell whose policy an earlier run
already answered costs no provider call, and a second run of a sweep is
served from the cache).

A sweep stops at the first cell that does not complete (interrupted, out of
budget, failed) and says so; `--continue-from SWEEP_DIR` continues the same
sweep directory: finished cells are kept, an unfinished cell is continued
with the run's own --continue-from logic (a new run directory reusing its
finished rows), cells never started are run. The generation budget is the
sweep's, spent across its cells.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from arborist.corpus.chunking import ChunkingSettings
from arborist.errors import InputError
from arborist.lab import rundir
from arborist.lab.compare import DEFAULT_FLOOR, compare_runs
from arborist.lab.executors import Executor
from arborist.lab.judge import Judge
from arborist.lab.metrics.answers import diagnosis_counts
from arborist.lab.metrics.headline import METRICS, measure, per_question
from arborist.lab.plots import plot_boundaries, plot_metric
from arborist.lab.report import load_rows
from arborist.lab.rundir import State, utc_now, write_json
from arborist.lab.runfiles import BOUNDARIES, BOUNDARY_MEANING, SWEEP_JSON, process_alive
from arborist.lab.runner import (
    COMPLETE_WITH_FAILURES,
    EXIT_CODES,
    Plan,
    RunRequest,
    default_cache_directory,
    execute,
    plan_run,
)
from arborist.lab.stats import SIGNAL_ALPHA, Interval, bootstrap_mean
from arborist.models.base import Provider
from arborist.policy.answer import AnswerPolicy
from arborist.policy.canonical import tagged_digest
from arborist.progress import Reporter
from arborist.prompting.modes import BASELINE_PROMPT, prompt_names

SWEEP_FORMAT: Literal["arborist-lab-sweep/1"] = "arborist-lab-sweep/1"
SWEEP_SUMMARY = "summary.md"
RUNS = "runs"
PLOTS = "plots"
DIAGNOSIS = "diagnosis"
DIAGNOSIS_TITLE = "where answers lost the gold answer's support"
CellState = Literal["pending", "running", "complete", "failed", "interrupted", "budget_exhausted"]


# -- families -------------------------------------------------------------------


def _whole(name: str, text: str, example: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InputError(f"sweep value '{text}' of {name} is not a whole number; e.g. --family {name}={example}") from None


@dataclass(frozen=True)
class Family:
    """One knob a sweep varies: the run options (RunRequest fields or policy options) one value sets."""

    name: str
    options: tuple[str, ...]
    example: str
    default: str  # the value a run gets without this option, read off the policy models

    def parse(self, text: str) -> dict[str, Any]:
        if self.options == ("chunk_runes", "overlap_runes"):
            size, sep, overlap = text.partition("/")
            if not sep:
                raise InputError(f"sweep value '{text}' of {self.name} is not CHUNK/OVERLAP runes; "
                                 f"e.g. --family {self.name}={self.example}")
            return {"chunk_runes": _whole(self.name, size, self.example),
                    "overlap_runes": _whole(self.name, overlap, self.example)}
        if self.options in (("evidence_k",), ("context_runes",)):
            return {self.options[0]: _whole(self.name, text, self.example)}
        return {self.options[0]: text}


def _policy_default(name: str) -> str:
    return str(AnswerPolicy.model_fields[name].default)


_CHUNKING = ChunkingSettings()
FAMILIES: dict[str, Family] = {f.name: f for f in (
    Family("evidence-k", ("evidence_k",), "1,3,5,8,12", _policy_default("evidence_k")),
    Family("context-runes", ("context_runes",), "1500,3000,6000,24000,40000", _policy_default("context_runes")),
    Family("chunking", ("chunk_runes", "overlap_runes"), "600/60,1200/120,2400/240",
           f"{_CHUNKING.chunk_runes}/{_CHUNKING.overlap_runes}"),
    Family("prompt", ("prompt",), "baseline,multipart", BASELINE_PROMPT),
    Family("layout", ("layout",), "tail,bookend,per_chunk", _policy_default("layout")),
    Family("repair", ("repair",), "none,all", _policy_default("repair")),
)}


def valid_families() -> str:
    return ", ".join(f"{f.name}={f.example}" for f in FAMILIES.values())


def parse_family(spec: str) -> tuple[Family, list[str]]:
    """`evidence-k=1,3,5` -> (the family, its values as written); a one-line error for anything else."""
    name, sep, rest = spec.partition("=")
    family = FAMILIES.get(name.strip())
    if family is None:
        raise InputError(f"unknown sweep family '{name.strip()}'; valid families: {valid_families()}")
    values = [v.strip() for v in rest.split(",") if v.strip()]
    if not sep or not values:
        raise InputError(f"give the values of {family.name}: --family {family.name}={family.example}")
    dupes = sorted({v for v in values if values.count(v) > 1})
    if dupes:
        raise InputError(f"sweep value(s) {', '.join(dupes)} of {family.name} given twice; give each value once")
    for v in values:
        family.parse(v)
    return family, values


def cell_request(base: RunRequest, options: dict[str, Any], run_root: Path) -> RunRequest:
    """The base request with one cell's values: RunRequest fields directly, anything else as a policy option."""
    fields = {f.name for f in dataclasses.fields(RunRequest)}
    direct = {k: v for k, v in options.items() if k in fields}
    policy = {k: v for k, v in options.items() if k not in fields}
    return dataclasses.replace(base, run_root=run_root, policy_values={**base.policy_values, **policy}, **direct)


# -- the sweep record -------------------------------------------------------------

_REQUEST = TypeAdapter(RunRequest)


def stored_request(data: dict[str, Any]) -> RunRequest:
    """A sweep record's shared run request. One written before requests carried the whole verifier policy
    holds its one verifier knob, `demote_missed_answer`, on its own: kept, not silently dropped."""
    if "demote_missed_answer" in data:
        data = dict(data)
        data["verifier"] = {"answerability": {"demote_missed_answer": data.pop("demote_missed_answer")}}
    return _REQUEST.validate_python(data)


class CellMetric(BaseModel):
    value: float | None
    rows_covered: int
    rows_not_measured: int
    low: float | None = Field(description="95% bootstrap interval over questions (seeded)")
    high: float | None


class CellDiagnosis(BaseModel):
    """The run summary's diagnosis table for one cell and arm: rows per boundary (see `runfiles.BOUNDARIES`)."""

    counts: dict[str, int]
    not_measured: int = Field(description="rows with no relevant ids or no gold answer")


class PairedDelta(BaseModel):
    """`lab compare REFERENCE CELL --metric M` in brief."""

    delta: float | None
    low: float | None
    high: float | None
    p_value: float | None = Field(description="McNemar's exact p (binary metrics)")
    questions: int
    verdict: str


class Cell(BaseModel):
    value: str
    options: dict[str, Any]
    run_dir: str | None = Field(default=None, description="relative to the sweep directory")
    previous_run_dirs: list[str] = Field(default_factory=list, description="unfinished runs this cell continued")
    state: CellState = "pending"
    output_digest: str | None = None
    provider_calls: int = 0
    cache_hits: int = 0
    reused_rows: int = 0
    metrics: dict[str, dict[str, CellMetric]] = Field(default_factory=dict, description="arm -> metric -> value")
    diagnosis: dict[str, CellDiagnosis] = Field(
        default_factory=dict, description="arm -> where its rows lost the gold answer's support")
    paired: dict[str, dict[str, PairedDelta]] = Field(
        default_factory=dict, description="arm -> metric -> this cell against the reference cell, paired per question")


class SweepRecord(BaseModel):
    format: Literal["arborist-lab-sweep/1"] = SWEEP_FORMAT
    sweep_id: str
    created_at: str
    family: str
    values: list[str]
    request: dict[str, Any] = Field(description="the run options every cell shares (the family's own aside)")
    cells: list[Cell]
    state: State = "running"
    started_at: str
    ended_at: str | None = None
    exit_code: int | None = None
    message: str = ""
    pid: int = Field(default_factory=os.getpid)
    continued_at: list[str] = Field(default_factory=list)
    plots: dict[str, str] = Field(default_factory=dict, description="metric -> PNG, relative to the sweep directory")
    reference: str | None = Field(default=None, description="the value every other cell is paired against: the "
                                  "family's default when swept, else the first value")


def load_sweep(sweep_dir: Path) -> SweepRecord:
    return rundir.read_record(sweep_dir, SWEEP_JSON, SweepRecord, "sweep")


# -- planning -----------------------------------------------------------------------


@dataclass
class SweepPlan:
    record: SweepRecord
    run_root: Path
    sweep_dir: Path | None
    budget: int | None = None  # provider calls for the whole sweep (this invocation)
    plans: list[Plan | None] = dataclasses.field(default_factory=list)  # None: the cell is finished


def _absolute(req: RunRequest) -> RunRequest:
    """Paths made absolute, the cache directory resolved: a continued sweep must not depend on the cwd."""
    def resolved(p: Path | None) -> Path | None:
        return p.resolve() if p is not None else None

    return dataclasses.replace(
        req, corpus=resolved(req.corpus), evaluation=resolved(req.evaluation),
        question_ids=resolved(req.question_ids), run_root=resolved(req.run_root),
        cache_directory=(req.cache_directory or default_cache_directory()).resolve(),
        prompt=_absolute_prompt(req.prompt),
    )


def _absolute_prompt(value: str | None) -> str | None:
    """A prompt file's absolute path; a shipped prompt's name (or nothing) as it is."""
    if value is None or value in prompt_names() or not Path(value).is_file():
        return value
    return str(Path(value).resolve())


def plan_sweep(base: RunRequest, family_spec: str, provider: Provider) -> SweepPlan:
    """Check the family, its values and every cell's run (nothing is written, no provider call)."""
    if base.run_root is None:
        raise InputError("give --out DIR: where the sweep directory goes")
    if base.continue_from is not None:
        raise InputError("a new sweep cannot --continue-from a run; continue a sweep with --continue-from SWEEP_DIR")
    family, values = parse_family(family_spec)
    base = _absolute(base)
    placeholder = base.run_root or Path(".")
    cells = [Cell(value=v, options=family.parse(v)) for v in values]
    for cell in cells:
        if "prompt" in cell.options:
            cell.options["prompt"] = _absolute_prompt(cell.options["prompt"])
    plans: list[Plan | None] = [plan_run(cell_request(base, c.options, placeholder), provider) for c in cells]
    digests = [p.config.output_digest for p in plans if p is not None]
    now = utc_now()
    record = SweepRecord(
        sweep_id=tagged_digest(SWEEP_FORMAT, {"family": family.name, "values": values, "cells": digests}),
        created_at=now, family=family.name, values=values,
        request=_REQUEST.dump_python(dataclasses.replace(base, run_root=None), mode="json"), cells=cells,
        started_at=now,
    )
    return SweepPlan(record=record, run_root=placeholder, sweep_dir=None, budget=base.generation_budget, plans=plans)


def plan_continue(sweep_dir: Path, provider: Provider, generation_budget: int | None = None, **fresh: Any) -> SweepPlan:
    """Continue a sweep in its own directory, with its own settings.

    `generation_budget` is this continuation's (none unless given, as for a
    continued run); `fresh` may change the other options that do not change
    rows (generation_workers, burn).
    """
    fresh["generation_budget"] = generation_budget
    record = load_sweep(sweep_dir)
    if record.state == "running" and record.pid != os.getpid() and process_alive(record.pid):
        raise InputError(f"sweep '{sweep_dir}' is still running (pid {record.pid}); stop it before continuing it")
    try:
        base = dataclasses.replace(stored_request(record.request), **fresh)
    except ValidationError as exc:
        raise InputError(f"'{sweep_dir / SWEEP_JSON}' holds run options this arborist cannot read: "
                         f"{exc.errors()[0]['msg']}") from None
    runs = sweep_dir / RUNS
    plans: list[Plan | None] = []
    for cell in record.cells:
        if cell.run_dir is None:
            plans.append(plan_run(cell_request(base, cell.options, runs), provider))
            continue
        run_dir = sweep_dir / cell.run_dir
        if rundir.load_status(run_dir).state == "complete":
            plans.append(None)
            continue
        plans.append(plan_run(dataclasses.replace(
            base, run_root=runs, continue_from=run_dir, corpus=None, evaluation=None, question_ids=None,
            limit=None, arms=(), policy_values={}, prompt=None), provider))
    return SweepPlan(record=record, run_root=sweep_dir.parent, sweep_dir=sweep_dir, budget=base.generation_budget,
                     plans=plans)


# -- execution ----------------------------------------------------------------------


@dataclass
class SweepOutcome:
    sweep_dir: Path
    record: SweepRecord


def _new_sweep_dir(root: Path, record: SweepRecord) -> Path:
    stamp = datetime.fromisoformat(record.created_at).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    base = f"{stamp}-sweep-{record.family}-{record.sweep_id.removeprefix('sha256:')[:8]}"
    return rundir.create_fresh_dir(root, base, (RUNS, PLOTS), "sweep")


def execute_sweep(
    plan: SweepPlan, provider: Provider, progress: Reporter | None = None,
    announce: Callable[[int, Cell], None] | None = None, judge: Judge | None = None,
    executor: Executor | None = None,
) -> SweepOutcome:
    record = plan.record
    if plan.sweep_dir is None:
        sweep_dir = _new_sweep_dir(plan.run_root.resolve(), record)
    else:
        sweep_dir = plan.sweep_dir.resolve()
        record.continued_at.append(utc_now())
    record.state, record.pid, record.ended_at, record.exit_code, record.message = "running", os.getpid(), None, None, ""
    spent = 0

    def save() -> None:
        write_json(sweep_dir / SWEEP_JSON, record.model_dump(mode="json"))

    save()
    state: State = "complete"
    message = ""
    partial: list[str] = []  # complete cells with failed rows or judge calls
    try:
        for i, (cell, cell_plan) in enumerate(zip(record.cells, plan.plans, strict=True)):
            if cell_plan is None:
                cell.state = "complete"
                continue
            if announce is not None:
                announce(i, cell)
            cell_plan.run_root = sweep_dir / RUNS
            remaining = None if plan.budget is None else max(0, plan.budget - spent)
            cell_plan.config = cell_plan.config.model_copy(update={"generation_budget": remaining})

            def started(run_dir: Path, cell: Cell = cell) -> None:
                if cell.run_dir is not None:
                    cell.previous_run_dirs.append(cell.run_dir)
                cell.run_dir = str(run_dir.resolve().relative_to(sweep_dir.resolve()))
                cell.state = "running"
                save()

            outcome = execute(cell_plan, provider, progress, started=started, judge=judge, executor=executor)
            status = outcome.status
            cell.state, cell.output_digest = status.state, cell_plan.config.output_digest
            spent += status.provider_calls
            save()
            if status.state == "complete" and status.exit_code == COMPLETE_WITH_FAILURES:
                partial.append(f"cell {record.family}={cell.value}: {status.message}")
            if status.state != "complete":
                state = status.state
                why = f": {status.message}" if status.state == "failed" else ""
                message = (f"cell {record.family}={cell.value} stopped ({status.state}{why}); "
                           f"continue the sweep with --continue-from {sweep_dir}")
                break
    except KeyboardInterrupt:
        state, message = "interrupted", f"interrupted; continue the sweep with --continue-from {sweep_dir}"
    finally:
        summarise(sweep_dir, record)
        record.state, record.message, record.ended_at = state, message, utc_now()
        record.exit_code = EXIT_CODES[state]
        if state == "complete" and partial:
            record.message, record.exit_code = "; ".join(partial), COMPLETE_WITH_FAILURES
        save()
        (sweep_dir / SWEEP_SUMMARY).write_text(render_summary(sweep_dir, record), encoding="utf-8")
    return SweepOutcome(sweep_dir=sweep_dir, record=record)


# -- summaries ----------------------------------------------------------------------


def _cell_metrics(run_dir: Path, arms: list[str]) -> dict[str, dict[str, CellMetric]]:
    raw, _bad = rundir.read_rows(run_dir / rundir.ROWS)
    out: dict[str, dict[str, CellMetric]] = {}
    for arm in arms:
        rows = [r for r in raw if r.get("arm") == arm]
        out[arm] = {}
        for name, metric in METRICS.items():
            m = measure(rows, metric)
            iv = bootstrap_mean(list(per_question(rows, metric).values()))
            out[arm][name] = CellMetric(value=m.value, rows_covered=m.rows_covered,
                                        rows_not_measured=len(m.rows_not_measured),
                                        low=iv.low if iv else None, high=iv.high if iv else None)
    return out


def _cell_diagnosis(run_dir: Path, arms: list[str]) -> dict[str, CellDiagnosis]:
    rows, _bad = load_rows(run_dir)
    out: dict[str, CellDiagnosis] = {}
    for arm in arms:
        counts = diagnosis_counts([r for r in rows if r.arm == arm])
        out[arm] = CellDiagnosis(counts=dict(counts.counts), not_measured=len(counts.rows_not_measured))
    return out


def summarise(sweep_dir: Path, record: SweepRecord) -> None:
    """Per-cell metrics from each cell's rows on disk (into the record) and one PNG per metric."""
    arms: list[str] = []
    for cell in record.cells:
        if cell.run_dir is None:
            continue
        run_dir = sweep_dir / cell.run_dir
        cfg = rundir.load_config(run_dir)
        names = [a.name for a in cfg.arms]
        arms += [a for a in names if a not in arms]
        cell.metrics = _cell_metrics(run_dir, names)
        cell.diagnosis = _cell_diagnosis(run_dir, names)
        try:
            status = rundir.load_status(run_dir)
            cell.provider_calls, cell.cache_hits, cell.reused_rows = (
                status.provider_calls, status.cache_hits, status.rows_reused)
        except InputError:
            pass
    _pair_cells(sweep_dir, record)
    record.plots = {}
    (sweep_dir / PLOTS).mkdir(exist_ok=True)
    for name, metric in METRICS.items():
        measured = any(m[name].rows_covered for c in record.cells for m in c.metrics.values())
        if not measured:
            continue
        series: dict[str, list[float | None]] = {}
        intervals: dict[str, list[Interval | None]] = {}
        counts: dict[str, list[int]] = {}
        for arm in arms:
            cms = [c.metrics.get(arm, {}).get(name) for c in record.cells]
            series[arm] = [cm.value if cm else None for cm in cms]
            intervals[arm] = [Interval(low=cm.low, high=cm.high, confidence=0.95)
                              if cm and cm.low is not None and cm.high is not None else None for cm in cms]
            counts[arm] = [cm.rows_covered if cm else 0 for cm in cms]
        rel = f"{PLOTS}/{name}.png"
        plot_metric(sweep_dir / rel, family=record.family, values=record.values, title=metric.title,
                    series=series, intervals=intervals, counts=counts,
                    subtitle="mean per cell, 95% bootstrap interval over questions",
                    share=metric.unit_scale)
        record.plots[name] = rel
    if any(sum(d.counts.values()) for c in record.cells for d in c.diagnosis.values()):
        rel = f"{PLOTS}/{DIAGNOSIS}.png"
        plot_boundaries(sweep_dir / rel, family=record.family, values=record.values, boundaries=list(BOUNDARIES),
                        title=DIAGNOSIS_TITLE,
                        counts={arm: [c.diagnosis[arm].counts if arm in c.diagnosis else None for c in record.cells]
                                for arm in arms})
        record.plots[DIAGNOSIS] = rel


PAIRED_METRICS = ("gold", "strict", "completeness")


def _swept_default(record: SweepRecord) -> str | None:
    """The family's default value, when the sweep has a cell for it."""
    family = FAMILIES.get(record.family)
    return family.default if family and family.default in record.values else None


def _pair_cells(sweep_dir: Path, record: SweepRecord) -> None:
    """Each cell against the reference cell, per arm and metric, as `lab compare` pairs them."""
    record.reference = _swept_default(record) or (record.values[0] if record.values else None)
    ref = next((c for c in record.cells if c.value == record.reference and c.run_dir), None)
    for cell in record.cells:
        cell.paired = {}
        if ref is None or cell is ref or cell.run_dir is None:
            continue
        for arm in cell.metrics:
            if arm not in ref.metrics:
                continue
            cell.paired[arm] = {}
            for metric in PAIRED_METRICS:
                try:
                    c = compare_runs(sweep_dir / str(ref.run_dir), sweep_dir / cell.run_dir, metric=metric,
                                     arm_a=arm, arm_b=arm)
                except InputError:
                    continue
                cell.paired[arm][metric] = PairedDelta(
                    delta=c.delta, low=c.interval.low if c.interval else None,
                    high=c.interval.high if c.interval else None,
                    p_value=c.mcnemar.p_value if c.mcnemar else None, questions=c.questions_paired,
                    verdict=c.verdict)


def _cell_text(cm: CellMetric | None, digits: int) -> str:
    if cm is None or cm.value is None:
        return "n/a"
    return f"{cm.value:.{digits}f} (n={cm.rows_covered})"


def render_summary(sweep_dir: Path, record: SweepRecord) -> str:
    req = record.request
    out = [f"# sweep {record.family}: {', '.join(record.values)}", "",
           (f"State `{record.state}`; {len(record.cells)} cells, each an answer-quality run under `{RUNS}/`; "
            f"corpus `{req.get('corpus')}`, evaluation `{req.get('evaluation')}`, limit {req.get('limit')}, "
            f"samples {req.get('samples')}."), ""]
    if record.message:
        out += [f"> {record.message}", ""]
    names = list(METRICS)
    out += [f"| {record.family} | arm | state | " + " | ".join(METRICS[n].title for n in names)
            + " | provider calls | cache hits | run |",
            "|---|---|---|" + "---|" * len(names) + "---|---|---|"]
    for cell in record.cells:
        arms = list(cell.metrics) or ["—"]
        for arm in arms:
            ms = cell.metrics.get(arm, {})
            cells = [_cell_text(ms.get(n), 1 if n == "answer_runes" else 3) for n in names]
            out.append(f"| {cell.value} | {arm} | {cell.state} | " + " | ".join(cells)
                       + f" | {cell.provider_calls} | {cell.cache_hits} | `{cell.run_dir or '—'}` |")
    out += ["", "Each figure is a mean over the cell's rows with n = rows measured. `gold` and `STRICT` count a row "
            "without a usable answer as a miss; answer length is measured on usable answers; request "
            "completeness only on rows that carry it. 95% bootstrap intervals over questions (seeded) are in "
            f"`{SWEEP_JSON}` and drawn as error bars. Compare two cells with "
            "`arborist lab compare RUN_A RUN_B`.", ""]
    out += _paired_table(record)
    out += _diagnosis_table(record)
    if record.plots:
        out += ["## Plots", ""]
        out += [f"![{METRICS[m].title if m in METRICS else DIAGNOSIS_TITLE}]({p})" for m, p in record.plots.items()]
    return "\n".join(out) + "\n"


def _diagnosis_table(record: SweepRecord) -> list[str]:
    """Rows per boundary for each cell: how the place where answers lose the gold moves with the varied value."""
    if not any(c.diagnosis for c in record.cells):
        return []
    out = ["## Where answers lost the gold answer's support", "",
           "Rows per boundary in each cell (the first boundary at which a needed source was lost; "
           "`none`: admitted and answered with the gold). " + "; ".join(
               f"`{b}`: {BOUNDARY_MEANING[b]}" for b in BOUNDARIES if b != "none") + ".", "",
           f"| {record.family} | arm | " + " | ".join(BOUNDARIES) + " | not measured |",
           "|---|---|" + "---|" * (len(BOUNDARIES) + 1)]
    for cell in record.cells:
        for arm, d in cell.diagnosis.items():
            measured = sum(d.counts.values())
            shown = [f"{d.counts.get(b, 0)} ({d.counts.get(b, 0) / measured:.0%})" if measured else "0"
                     for b in BOUNDARIES]
            out.append(f"| {cell.value} | {arm} | " + " | ".join(shown) + f" | {d.not_measured} |")
    return [*out, ""]


def _paired_table(record: SweepRecord) -> list[str]:
    """Every cell against the reference, paired per question, with the verdict of `lab compare`."""
    if not any(c.paired for c in record.cells):
        return []
    why = "the default" if _swept_default(record) == record.reference else "the first value"
    out = [f"## Paired against {record.family}={record.reference} ({why})", "",
           "Cell - reference per question, seeded 95% bootstrap interval; McNemar's exact p on the binary metrics; "
           f"`signal` only when the interval excludes 0, |delta| >= {DEFAULT_FLOOR:g} and (binary) p < {SIGNAL_ALPHA:g} "
           "(`lab compare` with its defaults).", "",
           f"| {record.family} | arm | " + " | ".join(PAIRED_METRICS) + " |", "|---|---|" + "---|" * len(PAIRED_METRICS)]
    for cell in record.cells:
        for arm, metrics in cell.paired.items():
            shown = []
            for m in PAIRED_METRICS:
                d = metrics.get(m)
                if d is None or d.delta is None:
                    shown.append("n/a")
                    continue
                ci = f" [{d.low:+.2f}, {d.high:+.2f}]" if d.low is not None and d.high is not None else ""
                p = f", p={d.p_value:.3g}" if d.p_value is not None else ""
                shown.append(f"{d.delta:+.3f}{ci}{p} **{d.verdict}**")
            out.append(f"| {cell.value} | {arm} | " + " | ".join(shown) + " |")
    return [*out, ""]
