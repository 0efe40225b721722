"""Request-level completeness: which requests an answer answered, and whether it cited their own evidence."""

from __future__ import annotations

import json
from pathlib import Path

from arborist.evaluation.format import Question, Request
from arborist.lab.completeness import measure_completeness
from arborist.lab.metrics.headline import METRICS
from test_lab import claim, do_run, inputs, request, rows_of  # noqa: F401  (inputs is a fixture)

TWO_HOP = Question(
    id="q", question="Where was the author of Dune born?", answers=["Tacoma"], relevant_source_ids=["dune", "herbert"],
    requests=[
        Request(id="q#1", text="author of Dune", answers=["Frank Herbert"], supporting_source_ids=["dune"]),
        Request(id="q#2", text="birthplace of #1", answers=["Tacoma"], supporting_source_ids=["herbert"]),
        Request(id="q#3", text="no gold", answers=[], supporting_source_ids=["herbert"]),
    ],
)


def test_each_request_gets_one_of_the_four_cases() -> None:
    c = measure_completeness(TWO_HOP, "Frank Herbert was born in Tacoma.", ["dune", "herbert"], ["herbert"])
    cases = {r.id: r.case for r in c.requests}
    assert cases == {"q#1": "answered_unsupported", "q#2": "answered_supported", "q#3": None}
    assert (c.total, c.answered, c.supported, c.answered_rate, c.supported_rate) == (2, 2, 1, 1.0, 0.5)
    assert c.requests[2].unmeasured == "the request has no gold answers"

    missed = measure_completeness(TWO_HOP, "Frank Herbert wrote Dune.", ["dune"], ["dune"])
    assert {r.id: r.case for r in missed.requests}["q#2"] == "not_answerable"
    missed = measure_completeness(TWO_HOP, "Frank Herbert wrote Dune.", ["dune", "herbert"], ["dune"])
    assert {r.id: r.case for r in missed.requests}["q#2"] == "missed_with_evidence"
    assert missed.answered_rate == 0.5


def test_an_unusable_answer_measures_nothing_and_a_question_without_requests_is_its_own() -> None:
    c = measure_completeness(TWO_HOP, None, ["dune"], [])
    assert c.total == 0 and c.answered_rate is None and c.unmeasured
    single = Question(id="s", question="Capital of France?", answers=["Paris"], relevant_source_ids=["paris"])
    c = measure_completeness(single, "Paris.", ["paris"], ["paris"])
    assert [(r.id, r.case) for r in c.requests] == [("s", "answered_supported")]


def test_run_rows_and_summaries_carry_completeness(tmp_path: Path, inputs: tuple[Path, Path]) -> None:  # noqa: F811
    run_dir, status, _ = do_run(request(tmp_path, inputs),
                                claim("Paris is the capital of France.", quote="Paris is the capital of France"),
                                claim("The Tiber flows through Rome."), claim("Spain's capital is Barcelona."),
                                claim("Nobody knows."))
    assert status.state == "complete"
    rows = {r["query_id"]: r for r in rows_of(run_dir)}
    assert rows["q1"]["completeness"]["requests"][0]["case"] == "answered_supported"
    assert rows["q3"]["completeness"]["requests"][0]["case"] in ("missed_with_evidence", "not_answerable")
    assert METRICS["completeness"].read(rows["q1"]) == 1.0
    assert METRICS["completeness"].read(rows["q3"]) == 0.0
    summary = json.loads((run_dir / "results" / "answer-contract-summary.json").read_text())
    comp = next(iter(summary["arms"].values()))["completeness"]
    assert comp["answered"] >= 2 and comp["rows_covered"] + len(comp["rows_not_measured"]) == 4
    assert "## Request completeness" in (run_dir / "summary.md").read_text()


def test_a_quote_miscited_to_another_block_still_counts_for_the_block_it_is_in(
    tmp_path: Path, inputs: tuple[Path, Path]  # noqa: F811
) -> None:
    run_dir, status, _ = do_run(request(tmp_path, inputs, limit=1),
                                claim("Paris is the capital of France.", eid="E3", quote="Paris is the capital of France"))
    assert status.state == "complete"
    (row,) = rows_of(run_dir)
    assert row["trace"]["evidence"][0]["chunk_id"].split("#")[0] != row["trace"]["evidence"][2]["chunk_id"].split("#")[0]
    assert row["trace"]["citation_chunk_ids"] == [row["trace"]["evidence"][2]["chunk_id"]]  # what the model cited
    (cl,) = row["trace"]["claims"]
    assert cl["reanchored_from"] == ["E3"] and cl["evidence_ids"] == ["E1"]
    assert row["completeness"]["requests"][0]["case"] == "answered_supported"
