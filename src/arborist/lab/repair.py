"""`lab repair`: prove a run's diagnosis. Each lost question is re-run alone under single-setting changes drawn
from the boundary it was lost at (the map and ladders are data: `lab.repair_ladders`), and gets a verdict.

    <out>/<UTC time>-repair-<hash>/
        repair.json    the source run, every question taken with its attempts and verdict, the cells, the
                       whole-run check, state (what `--json`, the summary and the viewer are made from)
        questions/     one question-ids file per cell
        runs/          one ordinary answer-quality run per cell (status, config, validate, continue as any run)
        plots/recoveries.png
        summary.md

Questions: every row of the run's arm whose diagnosis names a lost boundary, and every row that holds the gold
answer but is not STRICT (`not_strict`, when the answer policy has repair policies). A *cell* is one setting at
one value over the questions that need it: round r runs each setting's r-th value for the questions it has not
recovered yet, so a setting's ladder stops at its first recovering value and every cell runs once. Each cell is
a run of the run's own policy with that one setting changed (same model, prompt, seed, verifier, temperature 0)
through the ordinary runner, sharing the run's cache directory: a repeated repair is served from the answer cache.

Verdicts: `recovered` (by every SETTING=VALUE that did, with gold and STRICT recorded), `not recovered by one
setting` (every value of every mapped setting tried), or `unmeasured` (no gold answer, no value left to try, the
provider failed, or the budget ran out first). Then the whole-run check: the setting that recovers the most, at
its value (an ordered ladder's largest recovering value, else its most frequent), over every question of the run,
paired against the run by `lab compare` (gains, losses, interval).

Continuing (`--continue-from REPAIR_DIR`) walks the same rounds again: a complete cell is read from disk, an
unfinished one is continued as `lab run --continue-from` continues a run (its finished rows reused), the rest run.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from arborist.errors import ArboristError, InputError
from arborist.lab import repair_ladders as rl
from arborist.lab import rundir
from arborist.lab.compare import compare_runs
from arborist.lab.config import RunConfig
from arborist.lab.executors import Executor
from arborist.lab.plots import plot_recoveries
from arborist.lab.report import load_rows
from arborist.lab.rows import Row
from arborist.lab.rundir import State, utc_now, write_json
from arborist.lab.runfiles import REPAIR_JSON, live_state, process_alive
from arborist.lab.runner import (
    COMPLETE_WITH_FAILURES,
    EXIT_CODES,
    PROVIDER_ERROR,
    RunRequest,
    execute,
    plan_run,
)
from arborist.models.base import Provider
from arborist.policy.canonical import tagged_digest
from arborist.progress import Reporter
from arborist.prompting.modes import BASELINE_PROMPT

REPAIR_FORMAT: Literal["arborist-lab-repair/1"] = "arborist-lab-repair/1"
REPAIR_SUMMARY = "summary.md"
RUNS = "runs"
QUESTIONS = "questions"
PLOTS = "plots"
RECOVERIES_PNG = "plots/recoveries.png"
WHOLE_RUN = "whole-run"
LOST = ("retrieval", "evidence_k", "context_admission", "generation", "contract")
Verdict = Literal["recovered", "not recovered by one setting", "unmeasured"]
VERDICTS: tuple[Verdict, ...] = ("recovered", "not recovered by one setting", "unmeasured")
Outcome = Literal["recovered", "not recovered", "unmeasured"]
CellState = Literal["pending", "running", "complete", "failed", "interrupted", "budget_exhausted"]
GOAL_MEANING: dict[str, str] = {
    "gold": "the answer states the gold answer",
    "support": "the gold answer with every needed source admitted (the run's answer held the gold from memory)",
    "strict": "the gold answer, labelled STRICT",
}


class Attempt(BaseModel):
    """One re-run of one question under one setting value."""

    setting: str
    value: rl.Value
    cell: str
    outcome: Outcome
    gold: bool | None = Field(description="the re-run's answer states the gold answer")
    strict: bool | None = Field(description="the re-run's answer is labelled STRICT")
    boundary: str | None = Field(description="the re-run's diagnosis")
    why: str = ""


class QuestionRepair(BaseModel):
    id: str
    question: str
    boundary: str = Field(description="where the run lost it (a diagnosis boundary), or not_strict")
    goal: rl.Goal | None = Field(description="what a re-run must show to recover it; None: cannot be measured")
    gold: bool | None = Field(description="the run's answer stated the gold answer")
    label: str | None = Field(description="the run's verifier label")
    ladders: dict[str, list[rl.Value]] = Field(description="setting -> the values to try, in order")
    attempts: list[Attempt] = Field(default_factory=list)
    verdict: Verdict = "unmeasured"
    why: str = Field(default="", description="why unmeasured, or why nothing was tried")

    def recovered_by(self) -> list[Attempt]:
        return [a for a in self.attempts if a.outcome == "recovered"]


class RepairCell(BaseModel):
    """One setting at one value, over the questions that need it: one ordinary run under runs/."""

    key: str
    setting: str
    value: rl.Value
    round: int
    question_ids: list[str]
    run_dir: str | None = Field(default=None, description="relative to the repair directory")
    previous_run_dirs: list[str] = Field(default_factory=list, description="unfinished runs this cell continued")
    state: CellState = "pending"
    provider_calls: int = 0
    cache_hits: int = 0
    reused_rows: int = 0
    message: str = ""


class Paired(BaseModel):
    """The whole run against the source run on one metric, as `lab compare` pairs them."""

    metric: str
    gained: int = Field(description="questions right in the whole run only")
    lost: int = Field(description="questions right in the source run only")
    delta: float | None
    interval: list[float] | None = Field(description="95% bootstrap interval of the delta over questions")
    p_value: float | None
    questions: int
    verdict: str


class WholeRun(BaseModel):
    setting: str
    value: rl.Value
    recovered: int = Field(description="questions this setting recovered in the repair")
    cell: RepairCell
    gold: Paired | None = None
    strict: Paired | None = None
    note: str = ""


class Invocation(BaseModel):
    started_at: str
    seconds: float = 0.0
    provider_calls: int = 0
    cache_hits: int = 0
    burn: bool = False
    max_calls: int | None = None


class SettingRow(BaseModel):
    setting: str
    value: rl.Value
    tried: int
    recovered: int


class RepairRecord(BaseModel):
    format: Literal["arborist-lab-repair/1"] = REPAIR_FORMAT
    repair_id: str
    created_at: str
    run: str = Field(description="the source run directory")
    arm: str
    model_id: str
    prompt: str
    corpus: str
    evaluation: str
    cache_directory: str
    notes: list[str] = Field(default_factory=list)
    questions: list[QuestionRepair] = Field(default_factory=list)
    cells: list[RepairCell] = Field(default_factory=list)
    whole_run: WholeRun | None = None
    state: State = "running"
    started_at: str
    ended_at: str | None = None
    exit_code: int | None = None
    message: str = ""
    pid: int = Field(default_factory=os.getpid)
    invocations: list[Invocation] = Field(default_factory=list)
    plots: dict[str, str] = Field(default_factory=dict)
    settings: list[SettingRow] = Field(default_factory=list, description="per setting and value: questions re-run "
                                       "at it and those it recovered (written when the repair stops)")


def load_repair(repair_dir: Path) -> RepairRecord:
    return rundir.read_record(repair_dir, REPAIR_JSON, RepairRecord, "repair")


# -- which questions, and what each re-run must show -----------------------------------------------------------


def _gold(row: Row) -> bool:
    return row.contract.valid and bool(row.diagnosis.gold_in_answer)


def reached(goal: rl.Goal, row: Row) -> bool:
    """Whether a re-run's row shows what recovering its question takes."""
    if goal == "support":
        return _gold(row) and row.diagnosis.boundary == "none"
    if goal == "strict":
        return _gold(row) and row.verifier.label == "STRICT"
    return _gold(row)


def classify(row: Row) -> tuple[str, rl.Goal | None, str] | None:
    """(boundary or class, goal, why unmeasured) for a row a repair takes; None for a row it leaves alone."""
    boundary = row.diagnosis.boundary
    if boundary in LOST:
        if row.contract.reason == PROVIDER_ERROR:
            return boundary, None, "the provider call failed in the run: there is no answer to repair"
        if not row.gold_answers:
            return boundary, None, "no gold answer"
        return boundary, "support" if _gold(row) else "gold", ""
    if boundary == "none" and _gold(row) and row.verifier.label != "STRICT":
        return rl.NOT_STRICT, "strict", ""
    return None


def _questions(rows: list[Row], ctx: rl.Context) -> tuple[list[QuestionRepair], list[str]]:
    out: list[QuestionRepair] = []
    for row in rows:
        kind = classify(row)
        if kind is None:
            continue
        boundary, goal, why = kind
        ladders = {s: list(v) for s, v in rl.ladders(ctx, boundary).items()}
        if goal is not None and not any(ladders.values()):
            goal, why = None, "no value left to try: the run is already at the end of every ladder of its boundary"
        out.append(QuestionRepair(id=row.query_id, question=row.question, boundary=boundary, goal=goal,
                                  gold=_gold(row) if row.gold_answers else None, label=row.verifier.label,
                                  ladders=ladders, why=why))
    return out, []


# -- planning (nothing is written) ---------------------------------------------------------------------------------


@dataclass
class RepairPlan:
    record: RepairRecord
    out: Path
    repair_dir: Path | None
    config: RunConfig
    ctx: rl.Context
    max_calls: int | None = None
    generation_workers: int = 1
    burn: bool = False


def _input(run_dir: Path, original: str, copy: str, sha256: str | None = None) -> Path:
    """The run's input file where it was, if it is still there (and the same bytes, when a digest is known);
    else the run's own copy."""
    path = Path(original)
    if path.is_file() and (sha256 is None or "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest() == sha256):
        return path
    return run_dir / copy


def _source(run_dir: Path) -> tuple[RunConfig, str, list[Row]]:
    """The run's config, the arm a repair works on and its rows; a one-line error for a run it cannot repair."""
    cfg = rundir.load_config(run_dir)
    status = rundir.load_status(run_dir)
    state = live_state(status.model_dump())
    if state != "complete":
        raise InputError(f"run '{run_dir}' is {state}; repair reads a complete run: finish it with "
                         f"`arborist lab run --continue-from {run_dir.resolve()}`")
    arms = [a for a in cfg.arms if a.treatment == "none"]
    if len(arms) != 1:
        raise InputError(f"run '{run_dir}' has arms {', '.join(a.name for a in arms)}; repair works on a run with "
                         "one answer mode (make one with --mode)")
    arm = arms[0]
    if cfg.samples != 1 or arm.policy.generation.temperature != 0:
        raise InputError(f"run '{run_dir}' samples at temperature {arm.policy.generation.temperature} "
                         f"({cfg.samples} sample(s)); repair compares single-setting changes at temperature 0: "
                         "repair a run made with --temperature 0")
    rows = [r for r in load_rows(run_dir)[0] if r.arm == arm.name and r.sample == 0]
    return cfg, arm.name, rows


def _context(cfg: RunConfig, arm: str) -> rl.Context:
    return rl.Context(policy=cfg.arm(arm).policy, prompt=cfg.prompt or BASELINE_PROMPT)


def plan_repair(run_dir: Path, provider: Provider, out: Path | None = None, max_calls: int | None = None,
                generation_workers: int = 1, cache_directory: Path | None = None, burn: bool = False) -> RepairPlan:
    """Check the run, take its questions and their ladders (nothing is written, no provider call)."""
    run_dir = run_dir.resolve()
    cfg, arm, rows = _source(run_dir)
    model_id = f"{provider.name}:{provider.model_id}"
    if model_id != cfg.model.model_id:
        raise InputError(f"run '{run_dir}' answered with {cfg.model.model_id}, not {model_id}")
    ctx = _context(cfg, arm)
    questions, notes = _questions(rows, ctx)
    for q in questions:  # every candidate is a valid policy, or the repair is refused now
        for setting, values in q.ladders.items():
            for v in values:
                rl.apply(ctx, setting, v)
    corpus = _input(run_dir, cfg.corpus_path, "inputs/corpus.json")
    evaluation = _input(run_dir, cfg.evaluation_path, "inputs/evaluation.json", cfg.evaluation_sha256)
    cache = (cache_directory or Path(cfg.cache_directory)).resolve()
    # The inputs as a cell reads them: the corpus bound to the evaluation, the policy the model's (raises here).
    plan_run(RunRequest(run_root=run_dir.parent, corpus=corpus, evaluation=evaluation, policies=(ctx.policy,),
                        prompt=ctx.prompt, verifier=cfg.verifier_policy, model=cfg.model, cache_directory=cache),
             provider)
    now = utc_now()
    record = RepairRecord(
        repair_id=tagged_digest(REPAIR_FORMAT, {"run": cfg.output_digest, "arm": arm}), created_at=now,
        run=str(run_dir), arm=arm, model_id=cfg.model.model_id, prompt=ctx.prompt, corpus=str(corpus.resolve()),
        evaluation=str(evaluation.resolve()), cache_directory=str(cache), notes=notes, questions=questions,
        started_at=now)
    return RepairPlan(record=record, out=(out or run_dir.parent).resolve(), repair_dir=None, config=cfg, ctx=ctx,
                      max_calls=max_calls, generation_workers=generation_workers, burn=burn)


def plan_continue(repair_dir: Path, provider: Provider, max_calls: int | None = None, generation_workers: int = 1,
                  burn: bool = False) -> RepairPlan:
    """Continue a repair in its own directory, with its own settings (the budget and --burn are this call's)."""
    repair_dir = repair_dir.resolve()
    record = load_repair(repair_dir)
    if record.state == "running" and record.pid != os.getpid() and process_alive(record.pid):
        raise InputError(f"repair '{repair_dir}' is still running (pid {record.pid}); stop it before continuing it")
    run_dir = Path(record.run)
    cfg, arm, rows = _source(run_dir)
    if arm != record.arm:
        raise InputError(f"run '{run_dir}' is not the run repair '{repair_dir}' was made from")
    model_id = f"{provider.name}:{provider.model_id}"
    if model_id != record.model_id:
        raise InputError(f"repair '{repair_dir}' answers with {record.model_id}, not {model_id}")
    ctx = _context(cfg, arm)
    questions, notes = _questions(rows, ctx)
    record = record.model_copy(update={"questions": questions, "notes": notes})
    return RepairPlan(record=record, out=repair_dir.parent, repair_dir=repair_dir, config=cfg, ctx=ctx,
                      max_calls=max_calls, generation_workers=generation_workers, burn=burn)


# -- execution ---------------------------------------------------------------------------------------------------


def cell_key(setting: str, value: rl.Value) -> str:
    return f"{setting}={value}"


def next_value(q: QuestionRepair, setting: str) -> rl.Value | None:
    """The next value of `setting` to try on `q`: None once a value recovered it, failed to measure, or the
    ladder is done."""
    tried = [a for a in q.attempts if a.setting == setting]
    if any(a.outcome != "not recovered" for a in tried):
        return None
    ladder = q.ladders.get(setting, [])
    return ladder[len(tried)] if len(tried) < len(ladder) else None


def wanted(questions: list[QuestionRepair]) -> dict[str, tuple[str, rl.Value, list[str]]]:
    """This round's cells: key -> (setting, value, question ids), settings in table order."""
    out: dict[str, tuple[str, rl.Value, list[str]]] = {}
    for setting in rl.SETTINGS:
        for q in questions:
            if q.goal is None or setting not in q.ladders:
                continue
            value = next_value(q, setting)
            if value is not None:
                out.setdefault(cell_key(setting, value), (setting, value, []))[2].append(q.id)
    return out


@dataclass
class _Exec:
    plan: RepairPlan
    repair_dir: Path
    provider: Provider
    progress: Reporter | None
    executor: Executor | None
    save: Callable[[], None]
    invocation: Invocation
    spent: int = 0

    @property
    def remaining(self) -> int | None:
        return None if self.plan.max_calls is None else max(0, self.plan.max_calls - self.spent)


def _ids_file(repair_dir: Path, key: str, ids: list[str]) -> Path:
    path = repair_dir / QUESTIONS / (key.replace("/", "_") + ".txt")
    if not path.exists():
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text("".join(f"{i}\n" for i in ids), encoding="utf-8")
        os.replace(tmp, path)
    return path


def _run_cell(ex: _Exec, cell: RepairCell) -> None:
    """Run the cell, or continue its unfinished run; a complete one is left as it is."""
    plan, runs = ex.plan, ex.repair_dir / RUNS
    if cell.run_dir is not None:
        try:
            if rundir.load_status(ex.repair_dir / cell.run_dir).state == "complete":
                cell.state = "complete"
                return
        except InputError:
            pass
    if cell.run_dir is not None:
        request = RunRequest(run_root=runs, continue_from=ex.repair_dir / cell.run_dir,
                             generation_workers=plan.generation_workers, generation_budget=ex.remaining,
                             burn=plan.burn)
    else:
        record, cfg = plan.record, plan.config
        policy, prompt = rl.apply(plan.ctx, cell.setting, cell.value)
        request = RunRequest(
            run_root=runs, corpus=Path(record.corpus), evaluation=Path(record.evaluation),
            question_ids=_ids_file(ex.repair_dir, cell.key, cell.question_ids), policies=(policy,), prompt=prompt,
            verifier=cfg.verifier_policy, samples=1, model=cfg.model, generation_workers=plan.generation_workers,
            generation_budget=ex.remaining, cache_directory=Path(record.cache_directory), burn=plan.burn)
    run_plan = plan_run(request, ex.provider)
    run_plan.run_root = runs

    def started(run_dir: Path) -> None:
        if cell.run_dir is not None:
            cell.previous_run_dirs.append(cell.run_dir)
        cell.run_dir = str(run_dir.resolve().relative_to(ex.repair_dir))
        cell.state = "running"
        ex.save()

    outcome = execute(run_plan, ex.provider, ex.progress, started=started, executor=ex.executor)
    status = outcome.status
    cell.state, cell.message = status.state, status.message
    ex.spent += status.provider_calls
    ex.invocation.provider_calls += status.provider_calls
    ex.invocation.cache_hits += status.cache_hits
    ex.save()


def _guarded(ex: _Exec, cell: RepairCell) -> None:
    """Run a cell; one that cannot run (its store cannot be prepared, every call failed) is `failed`, and the
    repair goes on without it (a continued repair tries it again)."""
    try:
        _run_cell(ex, cell)
    except ArboristError as exc:
        cell.state, cell.message = "failed", str(exc)
        ex.save()


def _cell_rows(repair_dir: Path, cell: RepairCell) -> dict[str, Row]:
    if cell.run_dir is None:
        return {}
    rows, _bad = load_rows(repair_dir / cell.run_dir)
    return {r.query_id: r for r in rows if r.sample == 0 and "+" not in r.arm}


def _score(repair_dir: Path, cell: RepairCell, questions: dict[str, QuestionRepair]) -> None:
    """Each question of the cell gets the attempt its row shows (a question without a row gets none yet)."""
    rows = _cell_rows(repair_dir, cell)
    for qid in cell.question_ids:
        row, q = rows.get(qid), questions[qid]
        if q.goal is None:
            continue
        if row is None:
            if cell.state == "failed":
                q.attempts.append(Attempt(setting=cell.setting, value=cell.value, cell=cell.key, outcome="unmeasured",
                                          gold=None, strict=None, boundary=None,
                                          why=f"cell {cell.key} failed: {cell.message}"))
            continue
        gold, strict = _gold(row), row.verifier.label == "STRICT"
        if row.contract.reason == PROVIDER_ERROR:
            outcome: Outcome = "unmeasured"
            why = f"the provider call failed ({row.contract.detail})"
        else:
            outcome, why = ("recovered" if reached(q.goal, row) else "not recovered"), ""
        q.attempts.append(Attempt(setting=cell.setting, value=cell.value, cell=cell.key, outcome=outcome,
                                  gold=gold, strict=strict, boundary=row.diagnosis.boundary, why=why))


def _verdicts(questions: list[QuestionRepair], stopped: str) -> None:
    for q in questions:
        if q.goal is None:
            q.verdict = "unmeasured"
            continue
        q.why = ""
        if q.recovered_by():
            q.verdict = "recovered"
        elif any(a.outcome == "unmeasured" for a in q.attempts):
            q.verdict, q.why = "unmeasured", next(a.why for a in q.attempts if a.outcome == "unmeasured")
        elif any(next_value(q, s) is not None for s in q.ladders):
            q.verdict, q.why = "unmeasured", stopped or "not every value was tried"
        else:
            q.verdict = "not recovered by one setting"


def best_setting(questions: list[QuestionRepair]) -> tuple[str, rl.Value, int] | None:
    """(setting, value, questions it recovered) for the setting that recovers the most (ties: table order).

    The value: an ordered ladder's largest recovering value (it admits what the smaller ones did), else the
    value that recovered most often (ties: the first tried)."""
    found: dict[str, list[rl.Value]] = {}
    for q in questions:
        for a in q.recovered_by():
            found.setdefault(a.setting, []).append(a.value)
    if not found:
        return None
    order = list(rl.SETTINGS)
    setting = max(found, key=lambda s: (len(found[s]), -order.index(s)))
    values = found[setting]
    if rl.SETTINGS[setting].ordered:
        value: rl.Value = max(int(v) for v in values)
    else:
        value = Counter(values).most_common(1)[0][0]
    return setting, value, len(values)


def _paired(source: Path, whole: Path, arm_a: str, arm_b: str, metric: str) -> Paired:
    c = compare_runs(source, whole, metric=metric, arm_a=arm_a, arm_b=arm_b)
    return Paired(metric=metric, gained=c.mcnemar.only_b if c.mcnemar else 0,
                  lost=c.mcnemar.only_a if c.mcnemar else 0, delta=c.delta,
                  interval=[c.interval.low, c.interval.high] if c.interval else None,
                  p_value=c.mcnemar.p_value if c.mcnemar else None, questions=c.questions_paired, verdict=c.verdict)


def _whole_run(ex: _Exec, record: RepairRecord) -> CellState | None:
    """Run the whole evaluation under the best setting and pair it with the source run; its state if it stopped."""
    best = best_setting(record.questions)
    if best is None:
        record.whole_run = None
        return None
    setting, value, count = best
    cell = record.whole_run.cell if record.whole_run is not None else None
    if cell is not None and (cell.setting, cell.value) != (setting, value):
        raise InputError(f"repair '{ex.repair_dir}' ran its whole-run check under {cell_key(cell.setting, cell.value)}"
                         f", and now finds {cell_key(setting, value)}; start a new repair")
    cell = cell or RepairCell(key=WHOLE_RUN, setting=setting, value=value, round=-1,
                              question_ids=list(ex.plan.config.question_ids))
    record.whole_run = WholeRun(setting=setting, value=value, recovered=count, cell=cell)
    _guarded(ex, cell)
    if cell.state != "complete":
        record.whole_run.note = f"the whole run stopped ({cell.state}): {cell.message}"
        return None if cell.state == "failed" else cell.state
    whole_dir = ex.repair_dir / str(cell.run_dir)
    arm_b = rl.apply(ex.plan.ctx, setting, value)[0].mode
    record.whole_run.gold = _paired(Path(record.run), whole_dir, record.arm, arm_b, "gold")
    record.whole_run.strict = _paired(Path(record.run), whole_dir, record.arm, arm_b, "strict")
    return None


def _stopped(cell_state: CellState) -> State:
    """The repair's state when a cell ends in `cell_state` (a cell never started is a failure)."""
    return "failed" if cell_state in ("pending", "running") else cell_state  # type: ignore[return-value]


@dataclass
class RepairOutcome:
    repair_dir: Path
    record: RepairRecord


def execute_repair(plan: RepairPlan, provider: Provider, progress: Reporter | None = None,
                   announce: Callable[[str], None] | None = None, executor: Executor | None = None) -> RepairOutcome:
    """Run the rounds and the whole-run check; write repair.json, summary.md and the plot."""
    record = plan.record
    if plan.repair_dir is None:
        stamp = datetime.fromisoformat(record.created_at).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
        base = f"{stamp}-repair-{record.repair_id.removeprefix('sha256:')[:8]}"
        repair_dir = rundir.create_fresh_dir(plan.out, base, (RUNS, QUESTIONS, PLOTS), "repair")
    else:
        repair_dir = plan.repair_dir
    invocation = Invocation(started_at=utc_now(), burn=plan.burn, max_calls=plan.max_calls)
    record.invocations.append(invocation)
    record.state, record.pid, record.ended_at, record.exit_code, record.message = "running", os.getpid(), None, None, ""
    t0 = time.monotonic()

    def save() -> None:
        invocation.seconds = round(time.monotonic() - t0, 3)
        write_json(repair_dir / REPAIR_JSON, record.model_dump(mode="json"))

    ex = _Exec(plan=plan, repair_dir=repair_dir, provider=provider, progress=progress, executor=executor, save=save,
               invocation=invocation)
    save()
    state: State = "complete"
    message = ""
    by_id = {q.id: q for q in record.questions}
    known = {c.key: c for c in record.cells}
    try:
        for rnd in range(10_000):
            cells = wanted(record.questions)
            if not cells:
                break
            for key, (setting, value, ids) in cells.items():
                cell = known.get(key)
                if cell is None:
                    cell = RepairCell(key=key, setting=setting, value=value, round=rnd, question_ids=ids)
                    record.cells.append(cell)
                    known[key] = cell
                elif cell.question_ids != ids:
                    raise InputError(f"repair '{repair_dir}' ran cell {key} over other questions than this arborist "
                                     "would; start a new repair")
                if cell.state != "complete" or cell.run_dir is None:
                    if announce is not None:
                        announce(f"round {rnd + 1} · {key}: {len(ids)} question(s)")
                    _guarded(ex, cell)
                _score(repair_dir, cell, by_id)
                if cell.state not in ("complete", "failed"):  # a failed cell leaves its questions unmeasured
                    state = _stopped(cell.state)
                    message = f"cell {key} stopped ({cell.state}{': ' + cell.message if cell.message else ''})"
                    break
            if state != "complete":
                break
        if state == "complete":
            _verdicts(record.questions, "")
            best = best_setting(record.questions)
            if best is not None and announce is not None:
                announce(f"whole-run check · {cell_key(best[0], best[1])}: "
                         f"{len(plan.config.question_ids)} question(s)")
            stopped = _whole_run(ex, record)
            if stopped is not None:
                state = _stopped(stopped)
                message = f"the whole-run check stopped ({stopped})"
    except KeyboardInterrupt:
        state, message = "interrupted", "interrupted"
    except ArboristError as exc:
        state, message = "failed", str(exc)
    finally:
        if state != "complete":
            why = {"budget_exhausted": f"the budget ran out (--max-calls {plan.max_calls})",
                   "interrupted": "the repair was interrupted"}.get(state, f"the repair stopped ({state})")
            message = f"{message}; continue with `arborist lab repair --continue-from {repair_dir}`"
            _verdicts(record.questions, why)
        _cell_counts(repair_dir, record)
        failed = [c for c in (*record.cells, *([record.whole_run.cell] if record.whole_run else []))
                  if c.state == "failed"]
        if state == "complete" and failed:
            message = "; ".join(f"cell {c.key} failed: {c.message}" for c in failed) + (
                f"; its questions are unmeasured there; `arborist lab repair --continue-from {repair_dir}` tries "
                "again")
        record.state, record.message, record.ended_at = state, message, utc_now()
        record.exit_code = COMPLETE_WITH_FAILURES if state == "complete" and failed else EXIT_CODES[state]
        record.plots = {}
        record.settings = _settings_table(record)
        if record.settings:
            plot_recoveries(repair_dir / RECOVERIES_PNG, record.settings)
            record.plots["recoveries"] = RECOVERIES_PNG
        save()
        (repair_dir / REPAIR_SUMMARY).write_text(render_summary(repair_dir, record), encoding="utf-8")
    return RepairOutcome(repair_dir=repair_dir, record=record)


def _cell_counts(repair_dir: Path, record: RepairRecord) -> None:
    """Provider calls, cache hits and reused rows of each cell, over every run it took (from their status files)."""
    cells = [*record.cells, *([record.whole_run.cell] if record.whole_run else [])]
    for cell in cells:
        cell.provider_calls = cell.cache_hits = cell.reused_rows = 0
        for rel in [*cell.previous_run_dirs, *([cell.run_dir] if cell.run_dir else [])]:
            try:
                status = rundir.load_status(repair_dir / rel)
            except InputError:
                continue
            cell.provider_calls += status.provider_calls
            cell.cache_hits += status.cache_hits
            cell.reused_rows += status.rows_reused


# -- what it reports ---------------------------------------------------------------------------------------------


def _settings_table(record: RepairRecord) -> list[SettingRow]:
    """Per setting and value (in the order they ran): the questions re-run at it and those it recovered."""
    rows: dict[str, SettingRow] = {}
    for cell in record.cells:
        rows.setdefault(cell.key, SettingRow(setting=cell.setting, value=cell.value, tried=0, recovered=0))
    for q in record.questions:
        for a in q.attempts:
            row = rows.setdefault(a.cell, SettingRow(setting=a.setting, value=a.value, tried=0, recovered=0))
            row.tried += 1
            row.recovered += a.outcome == "recovered"
    order = list(rl.SETTINGS)
    return sorted((r for r in rows.values() if r.tried), key=lambda r: order.index(r.setting))


def repair_json(record: RepairRecord) -> dict[str, Any]:
    """`lab repair --json`: exactly the shape documented in docs/lab.md."""
    whole = record.whole_run
    return {
        "run": record.run,
        "questions": [{"id": q.id, "boundary": q.boundary, "verdict": q.verdict,
                       "recovered_by": [{"setting": a.setting, "value": a.value, "gold": a.gold, "strict": a.strict}
                                        for a in q.recovered_by()],
                       "tried": len(q.attempts)} for q in record.questions],
        "settings": [r.model_dump() for r in _settings_table(record)],
        "whole_run": None if whole is None else {
            "setting": whole.setting, "value": whole.value,
            "gained": whole.gold.gained if whole.gold else None, "lost": whole.gold.lost if whole.gold else None,
            "interval": whole.gold.interval if whole.gold else None},
    }


def _yes(v: bool | None) -> str:
    return "—" if v is None else ("yes" if v else "no")


def render_summary(repair_dir: Path, record: RepairRecord) -> str:
    counts = Counter(q.verdict for q in record.questions)
    by_boundary = Counter(q.boundary for q in record.questions)
    calls = sum(c.provider_calls for c in record.cells) + (record.whole_run.cell.provider_calls
                                                            if record.whole_run else 0)
    hits = sum(c.cache_hits for c in record.cells) + (record.whole_run.cell.cache_hits if record.whole_run else 0)
    out = [f"# repair of {Path(record.run).name}", "",
           (f"State `{record.state}`. Source run `{record.run}` (arm `{record.arm}`, model `{record.model_id}`, "
            f"prompt `{record.prompt}`); {len(record.questions)} question(s) taken: "
            + ", ".join(f"{b} {n}" for b, n in by_boundary.items()) + f". {len(record.cells)} cell(s) under "
            f"`{RUNS}/`, each an ordinary run of one setting at one value over the questions that need it; "
            f"provider calls {calls}, cache hits {hits}."), ""]
    if record.message:
        out += [f"> {record.message}", ""]
    out += [f"> Note: {n}" for n in record.notes]
    if record.notes:
        out.append("")
    out += ["## Verdicts", "", "| verdict | questions |", "|---|---|"]
    out += [f"| {v} | {counts.get(v, 0)} |" for v in VERDICTS]
    out += ["", "`recovered`: a re-run under one SETTING=VALUE showed its goal (" + "; ".join(
        f"`{g}`: {m}" for g, m in GOAL_MEANING.items()) + "); each setting's ladder stops at its first recovering "
        "value. `not recovered by one setting`: every value of every mapped setting was tried. `unmeasured`: "
        "no gold answer, no value left to try, a failed provider call, or the budget ran out.", ""]
    out += _whole_lines(record)
    table = _settings_table(record)
    if table:
        out += ["## Recoveries per setting", "", "| setting | value | tried | recovered |", "|---|---|---|---|"]
        out += [f"| {r.setting} | {r.value} | {r.tried} | {r.recovered} |" for r in table]
        out.append("")
    out += ["## Questions", "", "`lost elsewhere`: a value that moved the loss to another boundary without recovering "
            "the question.", "", "| question | lost at | verdict | recovered by (gold, STRICT) | tried | note |",
            "|---|---|---|---|---|---|"]
    for q in sorted(record.questions, key=lambda q: (VERDICTS.index(q.verdict), q.id)):
        by = "; ".join(f"{a.setting}={a.value} ({_yes(a.gold)}, {_yes(a.strict)})" for a in q.recovered_by())
        moved = [f"{a.setting}={a.value} -> {a.boundary}" for a in q.attempts
                 if a.outcome == "not recovered" and a.boundary not in (q.boundary, None)]
        note = "; ".join(x for x in (q.why, "lost elsewhere: " + ", ".join(moved) if moved else "") if x)
        out.append(f"| {q.id} | {q.boundary} | {q.verdict} | {by or '—'} | {len(q.attempts)} | {note} |")
    out += ["", "## The map", "", "Each boundary's settings, tried in this order (`lab.repair_ladders`).", "",
            "| lost at | settings |", "|---|---|"]
    out += [f"| {b} | {', '.join(s)} |" for b, s in rl.BOUNDARY_SETTINGS.items()]
    out.append("")
    if record.plots:
        out += ["## Plot", "", *[f"![{k}]({p})" for k, p in record.plots.items()], ""]
    out += [f"View the questions by verdict, with the funnel before and after: `arborist lab view {repair_dir} "
            "--output repair.html`.", ""]
    return "\n".join(out)


def _whole_lines(record: RepairRecord) -> list[str]:
    whole = record.whole_run
    if whole is None:
        return ["## Whole-run check", "", "No setting recovered a question: nothing to check on the whole run.", ""]
    out = [f"## Whole-run check: {whole.setting}={whole.value}", "",
           (f"{whole.setting} recovered {whole.recovered} question(s); the whole run under {whole.setting}="
            f"{whole.value} (`{whole.cell.run_dir or '—'}`, {whole.cell.state}) paired with the source run per "
            "question, as `lab compare` pairs them:"), "",
           "| metric | gained | lost | delta | 95% interval | McNemar p | verdict |", "|---|---|---|---|---|---|---|"]
    for p in (whole.gold, whole.strict):
        if p is None:
            continue
        iv = f"[{p.interval[0]:+.3f}, {p.interval[1]:+.3f}]" if p.interval else "—"
        delta = "n/a" if p.delta is None else f"{p.delta:+.3f}"
        pv = "—" if p.p_value is None else f"{p.p_value:.3g}"
        out.append(f"| {p.metric} | {p.gained} | {p.lost} | {delta} | {iv} | {pv} | {p.verdict} |")
    return [*out, ""]
