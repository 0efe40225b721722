"""`lab repair`: each lost question re-run under single-setting changes from its boundary, with a verdict.

The planted-cause checks make a run with one cause planted (evidence-k 1, a rune budget too small for the gold
chunk, a retrieve-k of 1, a model that answers only when the question comes first) and check that the repair
recovers those questions by the setting of that cause, and by no unrelated setting. The model reads its prompt
(tests/reading_model.py): it states the sentence holding the gold answer when that sentence was admitted.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from arborist.corpus.documents import corpus_digest
from arborist.corpus.loaders import load_documents
from arborist.errors import InputError
from arborist.lab import repair_ladders as rl
from arborist.lab import rundir
from arborist.lab.checks import validate_run
from arborist.lab.repair import (
    LOST,
    RepairRecord,
    _questions,
    execute_repair,
    load_repair,
    plan_continue,
    plan_repair,
    repair_json,
)
from arborist.lab.report import load_rows
from arborist.lab.runner import RunRequest, execute, plan_run
from arborist.lab.viewer import load_repair_dir, repair_page
from arborist.lab.viewer.serve import render_path
from arborist.policy.answer import AnswerPolicy
from crash_harness import KILLED, count_statements, problems
from crash_harness import run as run_killable
from fault_server import FaultServer
from reading_model import Reader, ReadingProvider

Run = Callable[..., Result]
FILLER = " ".join(f"Archive note {i} records routine maintenance of the municipal buildings." for i in range(12))
DOCS = [
    {"id": "seine", "title": "Seine", "text": "The Seine is a river of France. Paris lies on the Seine."},
    {"id": "rivers", "title": "Rivers of Europe",
     "text": "Which river flows through which capital is a common quiz question. Rivers flow through many capitals."},
    {"id": "tiber", "title": "Tiber", "text": "The Tiber flows through Rome. It is the third-longest river of Italy."},
    {"id": "capitals", "title": "Capitals",
     "text": "Every capital has a river. The capital of Spain and the capital of Norway are capitals too."},
    {"id": "madrid", "title": "Madrid", "text": FILLER + " Madrid is the capital of Spain."},  # 1,000 runes
    {"id": "oslo", "title": "Oslo", "text": "Oslo is the capital of Norway. The Akerselva runs through Oslo."},
]
QUESTIONS = [
    {"id": "q1", "question": "Which river flows through Rome?", "answers": ["Tiber"], "relevant_source_ids": ["tiber"]},
    {"id": "q2", "question": "What is the capital of Spain?", "answers": ["Madrid"], "relevant_source_ids": ["madrid"]},
    {"id": "q3", "question": "Which river runs through Oslo?", "answers": ["Akerselva"],
     "relevant_source_ids": ["oslo"]},
    {"id": "q4", "question": "On which river does Paris lie?", "answers": ["Seine"], "relevant_source_ids": ["seine"]},
]
GOLDS = {q["question"]: q["answers"][0] for q in QUESTIONS}
LEXICAL = {"routes": "bm25,title"}
JSON_KEYS = {"run", "questions", "settings", "whole_run"}


@pytest.fixture
def inputs(tmp_path: Path) -> tuple[Path, Path]:
    corpus = tmp_path / "corpus.json"
    corpus.write_text(json.dumps(DOCS), encoding="utf-8")
    evaluation = tmp_path / "evaluation.json"
    evaluation.write_text(json.dumps({"format": "arborist-evaluation/1", "questions": QUESTIONS,
                                      "corpus_digest": corpus_digest(load_documents([corpus]))}), encoding="utf-8")
    return corpus, evaluation


def make_run(tmp_path: Path, inputs: tuple[Path, Path], reader: Reader, **values: Any) -> Path:
    provider = ReadingProvider(reader)
    req = RunRequest(run_root=tmp_path / "runs", corpus=inputs[0], evaluation=inputs[1],
                     cache_directory=tmp_path / "cache", policy_values={**LEXICAL, **values})
    outcome = execute(plan_run(req, provider), provider)
    assert outcome.status.state == "complete"
    return outcome.run_dir


def repair(run_dir: Path, reader: Reader, out: Path, **kw: Any) -> tuple[Path, RepairRecord]:
    provider = ReadingProvider(reader)
    outcome = execute_repair(plan_repair(run_dir, provider, out=out, **kw), provider)
    return outcome.repair_dir, outcome.record


def cell_runs(repair_dir: Path, record: RepairRecord) -> list[Path]:
    cells = [*record.cells, *([record.whole_run.cell] if record.whole_run else [])]
    return [repair_dir / c.run_dir for c in cells if c.run_dir]


# -- the table ---------------------------------------------------------------------------------------------------


def test_every_lost_boundary_maps_to_settings_of_the_one_table() -> None:
    assert set(rl.BOUNDARY_SETTINGS) == {*LOST, rl.NOT_STRICT}
    assert {s for names in rl.BOUNDARY_SETTINGS.values() for s in names} == set(rl.SETTINGS)
    ctx = rl.Context(policy=AnswerPolicy(model_id="scripted:scripted", evidence_k=1, context_runes=500),
                     prompt="baseline")
    ladders = {b: rl.ladders(ctx, b) for b in LOST}
    assert ladders["evidence_k"] == {"evidence-k": (3, 5, 8, 12, 20)}
    assert ladders["context_admission"] == {"context-runes": (3000, 6000, 12000, 24000, 40000)}
    assert ladders["generation"] == {"layout": ("bookend", "per_chunk", "auto"), "prompt": ("multipart",),
                                     "mode": ("quote", "claim_lattice_pointer")}
    assert ladders["retrieval"]["fusion"] == ("rrf",) and ladders["retrieval"]["routes"] == ("bm25,title,phrase,dense,"
                                                                                             "bridge,keyword",)
    for boundary in LOST:  # every value is a valid policy that differs from the run's in that setting alone
        for setting, values in ladders[boundary].items():
            for value in values:
                policy, _prompt = rl.apply(ctx, setting, value)
                changed = {k for k, v in policy.model_dump().items() if v != ctx.policy.model_dump()[k]}
                assert len(changed) == 1, (setting, value, changed)


def test_a_mode_change_keeps_a_shipped_prompt_in_the_new_modes_words() -> None:
    from arborist.prompting.modes import system_prompt

    base = AnswerPolicy(model_id="m:m", system_prompt=system_prompt("claim_lattice", name="multipart"))
    policy, prompt = rl.apply(rl.Context(policy=base, prompt="multipart"), "mode", "quote")
    assert prompt == "multipart" and policy.system_prompt == system_prompt("quote", name="multipart")
    policy, prompt = rl.apply(rl.Context(policy=base, prompt="multipart"), "prompt", "baseline")
    assert prompt == "baseline" and policy.system_prompt is None


def test_repair_policies_are_read_from_the_policy_model() -> None:
    ctx = rl.Context(policy=AnswerPolicy(model_id="m:m", repair="snap"), prompt="baseline")
    assert rl.ladders(ctx, rl.NOT_STRICT) == {"repair": ("revise", "all")}
    policy, _ = rl.apply(ctx, "repair", "all")
    assert policy.repair == "all"
    assert rl.ladders(rl.Context(policy=policy, prompt="baseline"), rl.NOT_STRICT) == {"repair": ()}
    assert rl.ladders(rl.Context(policy=policy.model_copy(update={"repair": "revise"}), prompt="baseline"),
                      rl.NOT_STRICT) == {"repair": ("snap", "all")}


def test_right_but_not_strict_answers_get_the_repair_ladder_when_the_policy_has_one(
    tmp_path: Path, inputs: tuple[Path, Path],
) -> None:
    run_dir = make_run(tmp_path, inputs, Reader(GOLDS))
    rows = load_rows(run_dir)[0]
    (hybrid,) = [r for r in rows if r.diagnosis.boundary == "none" and r.verifier.label != "STRICT"]
    policy = rundir.load_config(run_dir).arms[0].policy.model_copy(update={"repair": "none"})
    ctx = rl.Context(policy=policy, prompt="baseline")
    questions, notes = _questions(rows, ctx)
    (q,) = questions
    assert (q.id, q.boundary, q.goal, q.ladders) == (hybrid.query_id, rl.NOT_STRICT, "strict",
                                                     {"repair": ["snap", "revise", "all"]})
    assert notes == []


def test_right_but_not_strict_answers_are_re_run_under_the_repair_policies(
    tmp_path: Path, inputs: tuple[Path, Path],
) -> None:
    reader = Reader(GOLDS)
    run_dir = make_run(tmp_path, inputs, reader, repair="none")
    _repair_dir, record = repair(run_dir, reader, tmp_path / "repairs")
    (q,) = [q for q in record.questions if q.boundary == rl.NOT_STRICT]
    assert q.attempts and {a.setting for a in q.attempts} == {"repair"} and not record.notes
    # after the default `all` no repair policy takes a step the run did not: nothing is re-run for it
    run_dir = make_run(tmp_path / "all", inputs, reader)
    _repair_dir, record = repair(run_dir, reader, tmp_path / "all" / "repairs")
    (q,) = [q for q in record.questions if q.boundary == rl.NOT_STRICT]
    assert not q.attempts and q.verdict == "unmeasured"


# -- planted causes ------------------------------------------------------------------------------------------------

PLANTS: dict[str, tuple[dict[str, Any], frozenset[str], str, set[str]]] = {
    # cause: (run options, questions answered only with the question first, boundary, the settings that may recover)
    "evidence-k 1": ({"evidence_k": 1}, frozenset(), "evidence_k", {"evidence-k"}),
    "a rune budget too small for the gold chunk": ({"context_runes": 300}, frozenset(), "context_admission",
                                                   {"context-runes"}),
    "retrieve-k 1": ({"retrieve_k": 1}, frozenset(), "retrieval", {"retrieve-k", "routes", "fusion"}),
    "a model that reads only what follows the question": ({}, frozenset({QUESTIONS[0]["question"]}), "generation",
                                                          {"layout"}),
}


@pytest.mark.parametrize("cause", list(PLANTS))
def test_a_planted_cause_is_recovered_by_its_own_setting(tmp_path: Path, inputs: tuple[Path, Path],
                                                         cause: str) -> None:
    values, question_first, boundary, allowed = PLANTS[cause]
    reader = Reader(GOLDS, question_first=question_first)
    run_dir = make_run(tmp_path, inputs, reader, **values)
    repair_dir, record = repair(run_dir, reader, tmp_path / "repairs")
    lost = [q for q in record.questions if q.boundary in LOST]
    assert lost and {q.boundary for q in lost} == {boundary}
    first = {"evidence_k": "evidence-k", "context_admission": "context-runes", "retrieval": "retrieve-k",
             "generation": "layout"}[boundary]
    for q in lost:
        assert q.verdict == "recovered", q
        by = q.recovered_by()
        assert first in {a.setting for a in by} and {a.setting for a in by} <= allowed, (q.id, by)
        assert all(a.gold for a in by)
        # no unrelated setting was tried first: every attempt is of a setting mapped to the boundary
        assert {a.setting for a in q.attempts} <= set(rl.BOUNDARY_SETTINGS[boundary])
    assert record.whole_run is not None and record.whole_run.setting == first
    assert record.whole_run.gold is not None and record.whole_run.gold.gained == len(lost)
    assert record.whole_run.gold.lost == 0
    for run in cell_runs(repair_dir, record):
        assert all(c.ok for c in validate_run(run)), [c for c in validate_run(run) if not c.ok]
    if boundary == "generation":
        (q,) = lost
        assert [(a.setting, a.value) for a in q.recovered_by()] == [("layout", "bookend")]
        assert {(a.setting, a.value, a.outcome) for a in q.attempts if a.setting != "layout"} == {
            ("prompt", "multipart", "not recovered"), ("mode", "quote", "not recovered"),
            ("mode", "claim_lattice_pointer", "not recovered")}


def test_the_ladder_stops_at_the_first_recovering_value_and_each_cell_runs_once(
    tmp_path: Path, inputs: tuple[Path, Path],
) -> None:
    reader = Reader(GOLDS)
    run_dir = make_run(tmp_path, inputs, reader, retrieve_k=1)
    repair_dir, record = repair(run_dir, reader, tmp_path / "repairs")
    keys = [c.key for c in record.cells]
    assert len(keys) == len(set(keys))
    for q in record.questions:
        for setting in q.ladders:
            tried = [a for a in q.attempts if a.setting == setting]
            recovered = [i for i, a in enumerate(tried) if a.outcome == "recovered"]
            assert recovered in ([], [len(tried) - 1])  # nothing after the first recovering value
            assert [a.value for a in tried] == q.ladders[setting][:len(tried)]
    per_cell = {c.key: len(c.question_ids) for c in record.cells}
    assert {f"{s.setting}={s.value}": s.tried for s in record.settings} == per_cell
    summary = (repair_dir / "summary.md").read_text()
    assert "## Whole-run check: retrieve-k=40" in summary and "| gold | 3 | 0 |" in summary
    assert (repair_dir / "plots" / "recoveries.png").stat().st_size > 1000


def test_a_second_repair_is_served_from_the_cache(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    reader = Reader(GOLDS)
    run_dir = make_run(tmp_path, inputs, reader, evidence_k=1)
    _first_dir, first = repair(run_dir, reader, tmp_path / "repairs")
    asked = len(reader.calls)
    _second_dir, second = repair(run_dir, reader, tmp_path / "repairs")
    assert first.invocations[0].provider_calls > 0
    assert second.invocations[0].provider_calls == 0 and len(reader.calls) == asked
    assert second.invocations[0].cache_hits == sum(len(c.question_ids) for c in second.cells) + len(
        second.whole_run.cell.question_ids if second.whole_run else [])
    assert repair_json(first)["questions"] == repair_json(second)["questions"]


def test_burn_asks_the_model_again(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    reader = Reader(GOLDS)
    run_dir = make_run(tmp_path, inputs, reader, evidence_k=1)
    _d, first = repair(run_dir, reader, tmp_path / "repairs")
    _d, burnt = repair(run_dir, reader, tmp_path / "repairs", burn=True)
    assert burnt.invocations[0].cache_hits == 0 and burnt.invocations[0].provider_calls > 0
    assert repair_json(first)["questions"] == repair_json(burnt)["questions"]


def test_a_budget_leaves_the_rest_unmeasured_and_a_continuation_finishes(
    tmp_path: Path, inputs: tuple[Path, Path],
) -> None:
    reader = Reader(GOLDS)
    run_dir = make_run(tmp_path, inputs, reader, retrieve_k=1)
    repair_dir, stopped = repair(run_dir, reader, tmp_path / "repairs", max_calls=2)
    assert stopped.state == "budget_exhausted" and stopped.exit_code == 5
    assert "--continue-from" in stopped.message
    assert any(q.verdict == "unmeasured" and "budget ran out" in q.why for q in stopped.questions)
    provider = ReadingProvider(reader)
    done = execute_repair(plan_continue(repair_dir, provider), provider).record
    assert done.state == "complete" and all(q.verdict == "recovered" for q in done.questions)
    assert len(done.invocations) == 2
    _fresh_dir, fresh = repair(run_dir, reader, tmp_path / "fresh")
    assert repair_json(done)["questions"] == repair_json(fresh)["questions"]
    assert repair_json(done)["settings"] == repair_json(fresh)["settings"]
    for run in cell_runs(repair_dir, done):
        assert all(c.ok for c in validate_run(run))


def test_a_run_repair_cannot_read_is_refused_before_anything_is_written(
    tmp_path: Path, inputs: tuple[Path, Path],
) -> None:
    reader = Reader(GOLDS)
    provider = ReadingProvider(reader)
    hot = make_run(tmp_path, inputs, reader, temperature=0.7)
    with pytest.raises(InputError, match="repair a run made with --temperature 0"):
        plan_repair(hot, provider, out=tmp_path / "repairs")
    req = RunRequest(run_root=tmp_path / "runs", corpus=inputs[0], evaluation=inputs[1], arms=("quote", "claim_lattice"),
                     cache_directory=tmp_path / "cache", policy_values=LEXICAL)
    two = execute(plan_run(req, provider), provider).run_dir
    with pytest.raises(InputError, match="one answer mode"):
        plan_repair(two, provider, out=tmp_path / "repairs")
    stopped = execute(plan_run(RunRequest(run_root=tmp_path / "runs", corpus=inputs[0], evaluation=inputs[1],
                                          cache_directory=tmp_path / "c2", generation_budget=1,
                                          policy_values=LEXICAL), provider), provider).run_dir
    with pytest.raises(InputError, match="is budget_exhausted; repair reads a complete run"):
        plan_repair(stopped, provider, out=tmp_path / "repairs")
    assert not (tmp_path / "repairs").exists()


def test_the_repair_page_lists_questions_by_verdict_with_the_funnel_before_and_after(
    tmp_path: Path, inputs: tuple[Path, Path], run_cli: Run,
) -> None:
    reader = Reader(GOLDS)
    run_dir = make_run(tmp_path, inputs, reader, evidence_k=1)
    repair_dir, _record = repair(run_dir, reader, tmp_path / "repairs")
    data = load_repair_dir(repair_dir, tmp_path)  # the folder holding both the run and the repair
    assert [q["verdict"] for q in data["questions"]] == ["recovered"] * 3
    q = data["questions"][0]
    assert q["before"]["retrieval"]["evidence_k"] == 1 and q["before"]["diagnosis"]["boundary"] == "evidence_k"
    (after,) = q["after"]
    assert (after["setting"], after["value"]) == ("evidence-k", 3)
    assert after["row"]["retrieval"]["evidence_k"] == 3 and after["row"]["diagnosis"]["boundary"] == "none"
    assert data["needed"][q["id"]] and all(c in data["chunks"] for c in after["row"]["selected_chunk_ids"])
    assert data["plots"]["recoveries"].startswith("data:image/png;base64,")
    assert '"kind":"repair"' in repair_page(data)
    shown = run_cli("lab", "view", repair_dir, "--output", tmp_path / "repair.html")
    assert shown.exit_code == 0, shown.stderr
    assert "renderRepair" in (tmp_path / "repair.html").read_text()
    status, html = render_path(repair_dir.parent, f"/repair?path={repair_dir.name}", lambda a, b: (None, "no"))
    assert status == 200 and '"kind":"repair"' in html
    assert render_path(repair_dir.parent, "/repair?path=../..", lambda a, b: (None, "no"))[0] == 404


# -- the CLI: --json, kill and continue --------------------------------------------------------------------------


@pytest.fixture
def reading_server() -> Iterator[FaultServer]:
    srv = FaultServer(reply_for=Reader(GOLDS).reply_for).start()
    yield srv
    srv.stop()


def cli_run(run_cli: Run, tmp_path: Path, inputs: tuple[Path, Path], server: FaultServer, *extra: str) -> Path:
    made = run_cli("lab", "run", "--corpus", inputs[0], "--evaluation", inputs[1], "--out", tmp_path / "runs",
                   "--cache-directory", tmp_path / "cache", "--routes", "bm25,title", "--model", "m",
                   "--base-url", server.base_url, "--retries", "0", "--json", *extra)
    assert made.exit_code == 0, made.stderr
    return Path(json.loads(made.stdout)["run_dir"])


def test_cli_json_prints_exactly_the_documented_shape(tmp_path: Path, inputs: tuple[Path, Path], run_cli: Run,
                                                      reading_server: FaultServer) -> None:
    run_dir = cli_run(run_cli, tmp_path, inputs, reading_server, "--evidence-k", "1")
    out = run_cli("lab", "repair", run_dir, "-o", tmp_path / "repairs", "--json")
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == JSON_KEYS and data["run"] == str(run_dir.resolve())
    for q in data["questions"]:
        assert set(q) == {"id", "boundary", "verdict", "recovered_by", "tried"}
        assert q["verdict"] in ("recovered", "not recovered by one setting", "unmeasured")
        assert all(set(a) == {"setting", "value", "gold", "strict"} for a in q["recovered_by"])
    assert [q["recovered_by"] for q in data["questions"]] == [
        [{"setting": "evidence-k", "value": 3, "gold": True, "strict": s}] for s in (True, True, False)]
    assert all(set(s) == {"setting", "value", "tried", "recovered"} for s in data["settings"])
    assert data["settings"] == [{"setting": "evidence-k", "value": 3, "tried": 3, "recovered": 3}]
    assert set(data["whole_run"]) == {"setting", "value", "gained", "lost", "interval"}
    assert (data["whole_run"]["gained"], data["whole_run"]["lost"]) == (3, 0)
    assert "provider calls" in out.stderr and "repair:" in out.stderr
    again = run_cli("lab", "repair", run_dir, "-o", tmp_path / "repairs", "--json")
    assert again.exit_code == 0 and json.loads(again.stdout)["questions"] == data["questions"]
    assert "provider calls 0," in again.stderr
    text = run_cli("lab", "repair", run_dir, "-o", tmp_path / "repairs")
    assert "questions 3: recovered 3" in text.stdout and "gold gained 3, lost 0" in text.stdout


def test_cli_errors_are_one_line(tmp_path: Path, run_cli: Run) -> None:
    bare = run_cli("lab", "repair")
    assert bare.exit_code == 1 and "give RUN_DIR" in bare.stderr
    missing = run_cli("lab", "repair", tmp_path / "nope")
    assert missing.exit_code == 1 and "does not exist" in missing.stderr
    both = run_cli("lab", "repair", tmp_path, "--continue-from", tmp_path)
    assert both.exit_code == 1 and "drop RUN_DIR" in both.stderr


def repair_args(run_dir: Path, out: Path) -> list[str | Path]:
    return ["lab", "repair", run_dir, "-o", out]


@pytest.mark.parametrize("kill", [
    {"kill_match": r"INTO answer_cache", "nth": 2},  # inside the first cell, one row on disk
    {"kill_match": r"INTO answer_cache", "nth": 4},  # the first cell done, in the whole-run check
    "random",
])
def test_a_repair_killed_anywhere_continues_without_a_row_lost_or_twice(
    tmp_path: Path, inputs: tuple[Path, Path], run_cli: Run, reading_server: FaultServer, kill: Any,
) -> None:
    run_dir = cli_run(run_cli, tmp_path, inputs, reading_server, "--evidence-k", "1")
    out = tmp_path / "repairs"
    if kill == "random":  # a seeded statement of the whole repair (counted on a repair made elsewhere)
        probe_run = cli_run(run_cli, tmp_path / "probe", inputs, reading_server, "--evidence-k", "1")
        total = count_statements(repair_args(probe_run, tmp_path / "probe-repairs"), tmp_path)
        kill = {"kill_at": random.Random(48).randint(1, total)}
    killed = run_killable(repair_args(run_dir, out), kill)
    assert killed.returncode == KILLED, killed.stderr
    for store in (tmp_path / "cache" / "stores").glob("*.db"):
        assert problems(store) == []
    (repair_dir,) = list(out.iterdir())
    if (repair_dir / "repair.json").exists():
        assert load_repair(repair_dir).state == "running"
        done = run_cli("lab", "repair", "--continue-from", repair_dir, "--json")
    else:  # killed before the repair directory had its record: nothing to continue, start again
        done = run_cli("lab", "repair", run_dir, "-o", out, "--json")
        repair_dir = max(out.iterdir(), key=lambda p: (p / "repair.json").exists())
    assert done.exit_code == 0, done.stderr
    record = load_repair(repair_dir)
    assert record.state == "complete" and [q.verdict for q in record.questions] == ["recovered"] * 3
    cells = [*record.cells, *([record.whole_run.cell] if record.whole_run else [])]
    for cell in cells:
        assert cell.state == "complete" and cell.run_dir is not None
        run = repair_dir / cell.run_dir
        checked = run_cli("lab", "validate", run)
        assert checked.exit_code == 0, checked.stdout
        ids = [r["query_id"] for r in rundir.read_rows(run / rundir.ROWS)[0]]
        assert sorted(ids) == sorted(cell.question_ids)  # every row once
        for previous in cell.previous_run_dirs:  # what the killed run finished was reused, not asked again
            kept = {r["query_id"] for r in rundir.read_rows(repair_dir / previous / rundir.ROWS)[0]}
            reused = {r["query_id"] for r in rundir.read_rows(run / rundir.ROWS)[0] if r["source"] == "reused"}
            assert kept == reused
    continued = [c.key for c in cells if c.previous_run_dirs]
    if "nth" in kill:  # the cell that was killed was continued, its finished row reused
        assert continued == [{2: "evidence-k=3", 4: "whole-run"}[kill["nth"]]]
    fresh = run_cli("lab", "repair", run_dir, "-o", tmp_path / "fresh", "--json")
    assert json.loads(done.stdout) == json.loads(fresh.stdout)



def test_the_repair_page_never_reads_a_run_outside_the_folder_it_was_given(
    tmp_path: Path, inputs: tuple[Path, Path],
) -> None:
    reader = Reader(GOLDS)
    run_dir = make_run(tmp_path, inputs, reader, evidence_k=1)
    repair_dir, _record = repair(run_dir, reader, tmp_path / "repairs")
    data = load_repair_dir(repair_dir)  # the run is in tmp/runs, not beside the repair in tmp/repairs
    assert data["source_missing"] and "outside" in data["source_missing"]
    assert all(q["before"] is None for q in data["questions"])
    record = json.loads((repair_dir / "repair.json").read_text())
    (repair_dir / "repair.json").write_text(json.dumps({**record, "run": "/etc"}))
    assert "outside" in load_repair_dir(repair_dir, tmp_path)["source_missing"]
