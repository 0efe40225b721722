"""Treatments after admission: evidence order, withheld evidence, planted falsehoods, as twin arms of a run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arborist.evaluation.format import Question
from arborist.evidence.admission import EvidenceChunk, admit
from arborist.lab.checks import validate_run
from arborist.lab.treatments import (
    PlantPool,
    apply,
    outcome,
    parse_evidence_order,
    treatment_names,
    value_kind,
)
from arborist.policy.answer import build_policy
from test_lab import claim, do_run, inputs, request, rows_of  # noqa: F401  (inputs is a fixture)

CHUNKS = [
    EvidenceChunk(chunk_id="a#chunk-0", source_id="a", title="A", text="Paris is the capital of France. paris!"),
    EvidenceChunk(chunk_id="b#chunk-0", source_id="b", title="B", text="Berlin is the capital of Germany."),
    EvidenceChunk(chunk_id="c#chunk-0", source_id="c", title="C", text="Rome is the capital of Italy."),
]
Q = Question(id="q1", question="What is the capital of France?", answers=["Paris"], relevant_source_ids=["a"])
OTHERS = [Q, Question(id="q2", question="?", answers=["Madrid"]), Question(id="q3", question="?", answers=["1969"])]
POLICY = build_policy(model_id="scripted:scripted")


def test_option_values_name_the_treatments() -> None:
    assert parse_evidence_order("original") == []
    assert parse_evidence_order("shuffle:3") == ["shuffle-1", "shuffle-2", "shuffle-3"]
    assert treatment_names("reversed", withhold=True, plant=True) == ["reversed", "withheld", "planted"]
    for bad in ("backwards", "shuffle:0", "shuffle:x"):
        with pytest.raises(ValueError, match="original, reversed, shuffle:N"):
            parse_evidence_order(bad)
    assert [value_kind(v) for v in ("1969", "$29", "42%", "Paris", "blue whale")] == [
        "year", "number", "number", "name", "text"]


def test_order_treatments_permute_the_same_admitted_chunks() -> None:
    admission = admit(CHUNKS, 5, 12_000)
    rev, part = apply("reversed", Q, CHUNKS, admission, POLICY, PlantPool.of(OTHERS))
    assert rev.admitted_chunk_ids == ["c#chunk-0", "b#chunk-0", "a#chunk-0"] and part.applied
    one, _ = apply("shuffle-1", Q, CHUNKS, admission, POLICY, PlantPool.of(OTHERS))
    again, _ = apply("shuffle-1", Q, CHUNKS, admission, POLICY, PlantPool.of(OTHERS))
    assert one.admitted_chunk_ids == again.admitted_chunk_ids  # seeded
    assert sorted(one.admitted_chunk_ids) == sorted(admission.admitted_chunk_ids)


def test_planting_replaces_whole_words_and_every_alias_title_included() -> None:
    chunk = EvidenceChunk(chunk_id="u#chunk-0", source_id="u", title="United States team",
                          text="In 2010, 10 teams met. The USA (United States) won.")
    q = Question(id="q1", question="Who won?", answers=["United States", "USA"], relevant_source_ids=["u"])
    other = Question(id="q2", question="?", answers=["France"])
    treated, part = apply("planted", q, [chunk], admit([chunk], 5, 12_000), POLICY, PlantPool.of([q, other]))
    assert part.applied and part.planted_value == "France"
    assert treated.admitted[0].text == "In 2010, 10 teams met. The France (France) won."
    assert treated.admitted[0].title == "France team"
    ten = Question(id="q3", question="How many?", answers=["10"], relevant_source_ids=["u"])
    seven = Question(id="q4", question="?", answers=["7"])
    treated, _ = apply("planted", ten, [chunk], admit([chunk], 5, 12_000), POLICY, PlantPool.of([ten, seven]))
    assert treated.admitted[0].text.startswith("In 2010, 7 teams met.")


def test_withholding_removes_relevant_chunks_before_admission() -> None:
    admission = admit(CHUNKS, 2, 12_000)
    treated, part = apply("withheld", Q, CHUNKS, admission, POLICY, PlantPool.of(OTHERS))
    assert treated.admitted_chunk_ids == ["b#chunk-0", "c#chunk-0"]  # the budget filled from what is left
    assert part.applied and part.withheld_chunk_ids == ["a#chunk-0"]
    assert outcome(part, "", abstained=True) == "abstained" and outcome(part, "Berlin.", abstained=False) == "answered"
    not_admitted = admit(CHUNKS, 1, 12_000)  # only Paris's chunk is admitted; withhold a question about Rome
    rome = Question(id="q5", question="?", answers=["Rome"], relevant_source_ids=["c"])
    _, nothing = apply("withheld", rome, CHUNKS, admit(CHUNKS[:1], 1, 12_000), POLICY, PlantPool.of(OTHERS))
    assert not nothing.applied and outcome(nothing, "Rome.", abstained=False) is None
    assert not_admitted.admitted_chunk_ids == ["a#chunk-0"]


def test_planting_replaces_every_gold_string_with_a_value_of_its_kind() -> None:
    admission = admit(CHUNKS, 5, 12_000)
    treated, part = apply("planted", Q, CHUNKS, admission, POLICY, PlantPool.of(OTHERS))
    assert part.applied and part.true_value == "Paris" and part.planted_value == "Madrid"  # a name, not the year
    assert treated.admitted[0].text == "Madrid is the capital of France. Madrid!"
    assert treated.admitted[1:] == admission.admitted[1:]
    assert outcome(part, "Madrid is the capital of France.", False) == "repeated_planted"
    assert outcome(part, "Paris is the capital of France.", False) == "kept_true"
    assert outcome(part, "The evidence says Madrid, which seems to be an error.", False) == "objected"
    assert outcome(part, None, False) is None
    assert outcome(part, "The Reign of Terror began in Paris.", False) == "kept_true"  # "terror" is no "error"
    lonely = Question(id="q9", question="?", answers=["Paris"], relevant_source_ids=["a"])
    _, none = apply("planted", lonely, CHUNKS, admission, POLICY, PlantPool.of([lonely]))
    assert not none.applied and "no other question" in none.detail


def test_a_run_answers_treated_twins_and_reports_them(tmp_path: Path, inputs: tuple[Path, Path]) -> None:  # noqa: F811
    abstain = json.dumps({"claims": [], "abstained_requests": ["the whole question"]})
    answers = []
    for text in ("Paris is the capital of France.", "The Tiber flows through Rome.", "Madrid is the capital."):
        answers += [claim(text), claim(text), abstain, claim(text)]  # control, reversed, withheld, planted
    answers.append(claim("Nobody knows."))  # q4 ranks nothing: its treated twins send the control's prompt again
    req = request(tmp_path, inputs, treatments=("reversed", "withheld", "planted"))
    run_dir, status, provider = do_run(req, *answers)
    assert status.state == "complete" and status.rows_done == 16 and provider.pending == 0
    assert (status.provider_calls, status.cache_hits) == (13, 3)
    rows = {(r["query_id"], r["arm"]): r for r in rows_of(run_dir)}
    assert rows[("q1", "claim_lattice")]["treatment"] is None
    rev = rows[("q1", "claim_lattice+reversed")]
    control = rows[("q1", "claim_lattice")]
    assert rev["context"]["admitted_chunk_ids"] == control["context"]["admitted_chunk_ids"][::-1]
    assert rev["retrieval"]["ranked_chunk_ids"] == control["retrieval"]["ranked_chunk_ids"]
    withheld = rows[("q1", "claim_lattice+withheld")]
    assert not any(c.startswith(control["context"]["admitted_chunk_ids"][0].split("#")[0])
                   for c in withheld["context"]["admitted_chunk_ids"])
    assert withheld["treatment"]["outcome"] == "abstained"
    assert rows[("q1", "claim_lattice+planted")]["treatment"]["outcome"] == "kept_true"
    summary = json.loads((run_dir / "results" / "answer-contract-summary.json").read_text())
    by_arm = {t["arm"]: t for t in summary["treatments"]}
    assert by_arm["claim_lattice+withheld"]["outcomes"]["abstained"] == 3  # q4 has no relevant source to withhold
    valid = sum(rows[(q, a)]["contract"]["valid"] and rows[(q, "claim_lattice")]["contract"]["valid"]
                for q, a in rows if a == "claim_lattice+reversed")
    assert by_arm["claim_lattice+reversed"]["pairs"] == valid >= 3
    assert by_arm["claim_lattice+reversed"]["gold_changed"] == 0
    assert "## Treatments" in (run_dir / "summary.md").read_text()
    assert all(c.ok for c in validate_run(run_dir)), [c for c in validate_run(run_dir) if not c.ok]
    # a repeated run is served from the cache, treated twins included (each in its own slot)
    _, status2, provider2 = do_run(req)
    assert status2.state == "complete" and status2.cache_hits == 16 and not provider2.history


def test_cli_treatment_options(tmp_path: Path, inputs: tuple[Path, Path], run_cli) -> None:  # noqa: F811
    base = ("lab", "run", "--corpus", inputs[0], "--evaluation", inputs[1],
            "--out", tmp_path / "runs", "--model", "scripted", "--routes", "bm25",
            "--cache-directory", tmp_path / "c", "--limit", "1", "--json")
    bad = run_cli(*base, "--evidence-order", "backwards")
    assert bad.exit_code == 2 and "original, reversed, shuffle:N" in bad.stderr
    ok = run_cli(*base, "--evidence-order", "shuffle:2", "--withhold-relevant")
    assert ok.exit_code == 1 and "every row failed" in ok.stderr  # nothing queued: the options are what is tested
    config = json.loads((Path(json.loads(ok.stdout)["run_dir"]) / "config.json").read_text())
    assert [(a["name"], a["treatment"]) for a in config["arms"]] == [
        ("claim_lattice", "none"), ("claim_lattice+shuffle-1", "shuffle-1"), ("claim_lattice+shuffle-2", "shuffle-2"),
        ("claim_lattice+withheld", "withheld")]
    again = run_cli("lab", "run", "--continue-from", json.loads(ok.stdout)["run_dir"],
                    "--withhold-relevant")
    assert again.exit_code == 1 and "drop --withhold-relevant" in again.stderr
