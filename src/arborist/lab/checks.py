"""`lab validate` (the post-run checklist) and `lab list` (runs under a root).

Validation reads only the run directory: a run another machine made can be
checked here, and a check that fails names what disagreed. Nothing derived is
taken on trust: inputs are checked against config.json's digests, rows are
re-derived from their raw answers over the run's own corpus copy, summaries
are recomputed from the rows (see `lab.recheck`).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from arborist.errors import InputError
from arborist.lab import recheck, rundir, runfiles
from arborist.lab.report import load_rows


class Check(BaseModel):
    name: str
    ok: bool
    detail: str


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except json.JSONDecodeError:
        return None


def validate_run(run_dir: Path) -> list[Check]:
    cfg = rundir.load_config(run_dir)
    checks: list[Check] = []

    def check(name: str, ok: bool, detail: str) -> None:
        checks.append(Check(name=name, ok=ok, detail=detail))

    missing = [p for p in (rundir.STATUS, "inputs/corpus.json", "inputs/evaluation.json", "inputs/prompt.txt",
                           "preparation/chunks.json", "preparation/representations.json", rundir.ROWS,
                           rundir.ANSWERS, rundir.CONTRACT_SUMMARY, rundir.RETRIEVAL_SUMMARY, rundir.SUMMARY_MD)
               if not (run_dir / p).is_file()]
    check("layout", not missing, "every file present" if not missing else f"missing: {', '.join(missing)}")
    rows, bad = load_rows(run_dir)
    try:
        status = rundir.load_status(run_dir)
        counts = recheck.status_problems(status, rows)
        state = runfiles.live_state(status.model_dump())
        detail = f"state {state}, exit code {status.exit_code}" + "".join(f"; {p}" for p in counts)
        if state == runfiles.DEAD:
            detail = (f"state dead: status.json says running, but its process (pid {status.pid}) is gone; continue "
                      f"with `{runfiles.continue_command(run_dir)}`")
        check("status", state == "complete" and status.exit_code == 0 and not counts, detail)
    except InputError as exc:
        check("status", False, str(exc))
    check("rows readable", not bad, "every line is a row" if not bad else f"unreadable lines: {bad[:10]}")
    expected = cfg.rows_total
    check("row count", len(rows) == expected,
          f"{len(rows)} rows; the evaluation selection needs {len(cfg.question_ids)} questions x {len(cfg.arms)} "
          f"arm(s) x {cfg.samples} sample(s) = {expected}")
    keys = Counter(r.key for r in rows)
    dupes = [k for k, n in keys.items() if n > 1]
    wanted = {(q, a.name, s) for q in cfg.question_ids for a in cfg.arms for s in range(cfg.samples)}
    stray = [k for k in keys if k not in wanted]
    lost = sorted(wanted - set(keys))
    check("rows unique and complete", not dupes and not stray and not lost,
          f"{len(dupes)} duplicated, {len(stray)} not in the config, {len(lost)} missing"
          + (f" (e.g. {lost[0]})" if lost else "") + (f" (e.g. {dupes[0]})" if dupes else ""))
    failed = [r for r in rows if r.contract.reason == "PROVIDER_ERROR"]
    check("provider errors", not failed,
          "none" if not failed else f"{len(failed)} rows have no answer (e.g. {failed[0].query_id}: "
          f"{failed[0].contract.detail}); --continue-from retries them")
    retrieval = _read_json(run_dir / rundir.RETRIEVAL_SUMMARY) or {}
    contract = _read_json(run_dir / rundir.CONTRACT_SUMMARY) or {}
    for arm in cfg.arms:
        firsts = sum(1 for r in rows if r.arm == arm.name and r.sample == 0)
        arm_rows = sum(1 for r in rows if r.arm == arm.name)
        rs = (retrieval.get("arms") or {}).get(arm.name)
        cs = (((contract.get("arms") or {}).get(arm.name) or {}).get("contract") or None)
        if rs is None or cs is None:
            check(f"totals agree [{arm.name}]", False,
                  f"no {'retrieval' if rs is None else 'contract'} summary for this arm: a run writes its summaries "
                  f"when it stops, and this one never did ({firsts} questions, {arm_rows} rows on disk)")
        else:
            mrr = (rs.get("metrics") or {}).get("mrr") or {}
            covered = int(mrr.get("rows_covered", 0)) + len(mrr.get("rows_not_measured", []))
            total = cs.get("total")
            check(f"totals agree [{arm.name}]",
                  covered == firsts and total == arm_rows and rs.get("rows") == firsts,
                  f"retrieval covers {covered} of {firsts} questions (measured + not measured); "
                  f"contract total {total} of {arm_rows} rows")
        wrong_model = [r for r in rows if r.arm == arm.name and r.model_id != arm.policy.model_id]
        wrong_policy = [r for r in rows if r.arm == arm.name and
                        (r.governance_policy_hash != arm.governance_policy_hash or r.mode != arm.policy.mode)]
        check(f"model and policy match the config [{arm.name}]", not wrong_model and not wrong_policy,
              f"model {arm.policy.model_id}, mode {arm.policy.mode}: {len(wrong_model)} rows with another model, "
              f"{len(wrong_policy)} with another policy")
    inputs = recheck.read_inputs(run_dir, cfg)
    check("inputs match config.json", not inputs.problems, _named(inputs.problems, "corpus and evaluation digests agree"))
    if inputs.documents is not None:
        with recheck.rebuilt_stores(inputs.documents, cfg) as stores:
            prepared = recheck.preparation_problems(run_dir, stores, cfg)
            check("chunks and indexes", not prepared, _named(prepared, "the corpus chunked as configured"))
            if inputs.questions is not None:
                derived, n = recheck.rows_problems(rows, inputs, stores, cfg)
                check("rows re-derived", not derived, _named(
                    derived, f"{n} rows: contract, label, answer text and diagnosis re-derived from the raw "
                    "answer, the run's corpus and evaluation"))
    summaries = recheck.summary_problems(run_dir, cfg)
    check("summaries agree with the rows", not summaries, _named(summaries, "every summary recomputed from the rows"))
    return checks


def _named(problems: list[str], fine: str) -> str:
    if not problems:
        return fine
    more = f" (and {len(problems) - recheck.MAX_NAMED} more)" if len(problems) > recheck.MAX_NAMED else ""
    return "; ".join(problems[: recheck.MAX_NAMED]) + more


class RunListing(BaseModel):
    run_dir: str
    state: str = Field(description="as status.json says, but `dead` for a running run whose process is gone")
    created_at: str
    output_digest: str
    rows_done: int
    rows_total: int
    valid_rate: float | None
    gold_rate: float | None
    recall_at_10: float | None
    diagnosis: dict[str, int]
    continue_command: str | None = Field(default=None, description="for a run that stopped before it finished")


# States a run can be continued from (`--continue-from` reuses its finished rows).
_UNFINISHED = (runfiles.DEAD, "interrupted", "budget_exhausted", "failed")


def _rows_on_disk(run_dir: Path) -> int:
    """Whole rows in per-query.jsonl: what a run that has not finished has done (status.json may lag)."""
    return len(runfiles.read_rows(run_dir / rundir.ROWS)[0])


class RunState(BaseModel):
    """One run's state and counts (`lab status RUN`)."""

    run_dir: str
    state: str = Field(description="status.json's state, but `dead` for a running run whose process is gone")
    recorded_state: str
    rows_done: int = Field(description="whole rows on disk")
    rows_total: int
    rows_reused: int
    rows_failed: int
    provider_calls: int
    cache_hits: int
    judge_failed: int
    rows_by_server: dict[str, int] = Field(default_factory=dict, description="status.json's rows by fleet server")
    rows_by_worker: dict[str, int] = Field(default_factory=dict, description="status.json's rows by Ray worker")
    exit_code: int | None
    message: str
    pid: int
    started_at: str
    ended_at: str | None
    continue_command: str | None


def run_state(run_dir: Path) -> RunState:
    cfg = rundir.load_config(run_dir)
    status = rundir.load_status(run_dir)
    state = runfiles.live_state(status.model_dump())
    unfinished = state in _UNFINISHED or status.rows_failed > 0
    return RunState(
        run_dir=str(run_dir.resolve()), state=state, recorded_state=status.state, rows_done=_rows_on_disk(run_dir),
        rows_total=cfg.rows_total, rows_reused=status.rows_reused, rows_failed=status.rows_failed,
        provider_calls=status.provider_calls, cache_hits=status.cache_hits, judge_failed=status.judge_failed,
        rows_by_server=status.rows_by_server, rows_by_worker=status.rows_by_worker, exit_code=status.exit_code, message=status.message, pid=status.pid, started_at=status.started_at,
        ended_at=status.ended_at, continue_command=runfiles.continue_command(run_dir) if unfinished else None,
    )


def list_runs(root: Path) -> list[RunListing]:
    out = []
    for run_dir in rundir.find_runs(root):
        try:
            cfg = rundir.load_config(run_dir)
        except InputError:
            continue
        status = _read_json(run_dir / rundir.STATUS) or {}
        contract = (_read_json(run_dir / rundir.CONTRACT_SUMMARY) or {}).get("arms") or {}
        retrieval = (_read_json(run_dir / rundir.RETRIEVAL_SUMMARY) or {}).get("arms") or {}
        first = cfg.arms[0].name
        a = contract.get(first) or {}
        c = a.get("contract") or {}
        total = c.get("total") or 0
        recall = ((retrieval.get(first) or {}).get("metrics") or {}).get("recall") or {}
        state = runfiles.live_state(status)
        done = int(status.get("rows_done", 0)) if state == "complete" else _rows_on_disk(run_dir)
        out.append(RunListing(
            run_dir=run_dir.name, state=state, created_at=cfg.created_at,
            output_digest=cfg.output_digest, rows_done=done, rows_total=cfg.rows_total,
            continue_command=runfiles.continue_command(run_dir) if state in _UNFINISHED else None,
            valid_rate=(c.get("valid", 0) / total) if total else None,
            gold_rate=(a.get("gold_in_answer") or {}).get("value"),
            recall_at_10=recall.get("value"),
            diagnosis=(a.get("diagnosis") or {}).get("counts") or {},
        ))
    return out
