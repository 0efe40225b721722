"""Every STRICT says what it rests on: a quote the rules verified, or a paraphrase the entailment judge accepted.

The judge here is a table (tests/judges.py), put where the engine looks a judge up for its spec, so these tests
are about the surfaces that carry the basis, not about any model.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from arborist import engine
from arborist.cli.answer_cmd import render
from arborist.corpus import ChunkingSettings, CorpusStore, open_store
from arborist.entailment import factory
from arborist.ingest import ingest_paths
from arborist.lab.metrics.headline import METRICS
from arborist.models.scripted import ScriptedProvider
from arborist.policy.answer import build_policy
from arborist.retrieval.search import SearchSettings
from arborist.verify import Label, Reason, VerifierPolicy, verifier_policy_hash, verify_answer
from judges import TableJudge

DEMO = Path(__file__).resolve().parents[1] / "src" / "arborist" / "demo"
QUESTION = "How long is the refund window for annual plans?"
QUOTE = ("A new annual subscription on the Starter, Team, or Business plan can be refunded in full if the customer "
         "asks within 30 days of the start of the annual term.")
PARAPHRASE = "A new annual subscription can get a full refund when the customer asks within 30 days of the start of the term."
EVIDENCE = [{"id": "E1", "title": "Refund Policy", "text": QUOTE}]


def answer(*claims: tuple[str, str]) -> dict[str, object]:
    return {"claims": [{"text": t, "evidence_ids": ["E1"], "quote": q} for t, q in claims], "abstained_requests": []}


@pytest.fixture
def judge() -> TableJudge:
    return TableJudge({PARAPHRASE: 0.95})


def strict_judged(judge: TableJudge) -> VerifierPolicy:
    """`judged_claims strict`: a judged claim may carry an answer to STRICT (the default holds it to HYBRID)."""
    return VerifierPolicy(entailment=judge.spec, judged_claims="strict")


def test_a_judged_claim_and_a_quoted_one_say_so(judge: TableJudge) -> None:
    v = verify_answer(QUESTION, "claim_lattice", EVIDENCE, answer((PARAPHRASE, QUOTE)), strict_judged(judge),
                      judge=judge)
    assert v.label is Label.STRICT and v.basis == "judged" and v.claims[0].basis == "judged"
    assert v.label_text == "STRICT (1 of 1 claims judged)" and v.claims[0].entailment == 0.95
    quoted = verify_answer(QUESTION, "claim_lattice", EVIDENCE, answer((QUOTE, QUOTE)), judge=judge)
    assert quoted.label is Label.STRICT and quoted.basis == "quoted" and quoted.label_text == "STRICT"
    by_default = verify_answer(QUESTION, "claim_lattice", EVIDENCE, answer((PARAPHRASE, QUOTE)), judge=judge)
    assert by_default.label is Label.HYBRID and Reason.JUDGED_SUPPORT in by_default.reasons
    dumped = v.model_dump(mode="json")
    assert dumped["basis"] == "judged" and dumped["claims"][0]["basis"] == "judged"


def test_the_policy_decides_how_far_a_judged_claim_carries(judge: TableJudge) -> None:
    hybrid = verify_answer(QUESTION, "claim_lattice", EVIDENCE, answer((PARAPHRASE, QUOTE)),
                           VerifierPolicy(entailment=judge.spec, judged_claims="hybrid"), judge=judge)
    assert hybrid.label is Label.HYBRID and Reason.JUDGED_SUPPORT in hybrid.reasons
    none = verify_answer(QUESTION, "claim_lattice", EVIDENCE, answer((PARAPHRASE, QUOTE)),
                         VerifierPolicy(entailment=judge.spec, judged_claims="none"), judge=judge)
    assert none.label is Label.UNGROUNDED and none.claims[0].basis is None
    assert Reason.JUDGED_SUPPORT in none.claims[0].reasons
    quoted = verify_answer(QUESTION, "claim_lattice", EVIDENCE, answer((QUOTE, QUOTE)),
                           VerifierPolicy(entailment=judge.spec, judged_claims="none"), judge=judge)
    assert quoted.label is Label.STRICT  # the policy touches judged claims only
    hashes = {verifier_policy_hash(VerifierPolicy(judged_claims=j)) for j in ("strict", "hybrid", "none")}
    assert len(hashes) == 3


@pytest.fixture
def store(tmp_path: Path, judge: TableJudge, monkeypatch: pytest.MonkeyPatch) -> Iterator[CorpusStore]:
    monkeypatch.setitem(factory._JUDGES, judge.spec, judge)  # the engine's judge for this spec
    db = tmp_path / "demo.db"
    ingest_paths(db, [DEMO / "corpus"], ChunkingSettings(), embed=False)
    with open_store(db, write=True) as s:
        yield s


def test_the_record_the_audit_and_query_show_the_basis(store: CorpusStore, judge: TableJudge,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    policy = build_policy(model_id="scripted:scripted", search=SearchSettings(routes=("bm25", "title")),
                          repair="none")
    probe = engine.query(store, QUESTION, policy, ScriptedProvider("{}"), VerifierPolicy(), burn=True)
    eid = next(e.evidence_id for e in probe.evidence if QUOTE in e.text)
    reply = json.dumps({"claims": [{"text": PARAPHRASE, "evidence_ids": [eid], "quote": QUOTE}],
                        "abstained_requests": []})
    record = engine.query(store, QUESTION, policy, ScriptedProvider(reply), strict_judged(judge), burn=True)
    assert record.verification is not None and record.verification.basis == "judged"
    body = json.loads(store.db.execute("SELECT body FROM audit_events ORDER BY seq DESC LIMIT 1").fetchone()[0])
    assert (body["label"], body["basis"], body["n_judged"]) == ("STRICT", "judged", 1)
    assert json.loads(record.model_dump_json())["verification"]["basis"] == "judged"  # what --json prints
    render(record, show_prompt=False)
    out = capsys.readouterr().out
    assert out.startswith("label: STRICT (1/1 verified, 1 of 1 claims judged) |")
    assert "VERIFIED_ENTAILED (judge 0.95)" in out


def test_lab_metrics_split_strict_by_basis() -> None:
    judged = {"contract": {"valid": True}, "verifier": {"label": "STRICT", "basis": "judged"}}
    quoted = {"contract": {"valid": True}, "verifier": {"label": "STRICT", "basis": "quoted"}}
    older = {"contract": {"valid": True}, "verifier": {"label": "STRICT"}}  # a row from before the basis
    strict, strict_quoted = METRICS["strict"].read, METRICS["strict_quoted"].read
    assert [strict(r) for r in (judged, quoted, older)] == [1.0, 1.0, 1.0]
    assert [strict_quoted(r) for r in (judged, quoted, older)] == [0.0, 1.0, 1.0]


def test_a_lab_run_carries_the_basis_to_its_rows_summary_and_compare(
    tmp_path: Path, judge: TableJudge, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from arborist.corpus.documents import corpus_digest
    from arborist.corpus.loaders import load_documents
    from arborist.lab import rundir
    from arborist.lab.compare import compare_runs
    from arborist.lab.runner import RunRequest, execute, plan_run

    monkeypatch.setitem(factory._JUDGES, judge.spec, judge)
    corpus = tmp_path / "corpus.json"
    corpus.write_text(json.dumps([{"id": "refunds", "title": "Refund Policy", "text": QUOTE}]), encoding="utf-8")
    evaluation = tmp_path / "evaluation.json"
    evaluation.write_text(json.dumps({
        "format": "arborist-evaluation/1", "corpus_digest": corpus_digest(load_documents([corpus])),
        "questions": [{"id": "q1", "question": QUESTION, "answers": ["30 days"], "relevant_source_ids": ["refunds"]}],
    }), encoding="utf-8")

    def run(text: str) -> Path:  # a cache each: the two runs ask the same question under the same policy
        req = RunRequest(run_root=tmp_path / "runs", corpus=corpus, evaluation=evaluation,
                         cache_directory=tmp_path / f"cache-{len(text)}", policy_values={"routes": "bm25,title", "repair": "none"},
                         verifier=strict_judged(judge))
        provider = ScriptedProvider(json.dumps(answer((text, QUOTE))))
        return execute(plan_run(req, provider), provider).run_dir

    judged, quoted = run(PARAPHRASE), run(QUOTE)
    (row,) = [json.loads(line) for line in (judged / rundir.ROWS).read_text().splitlines()]
    assert (row["verifier"]["label"], row["verifier"]["basis"], row["verifier"]["n_judged"]) == ("STRICT", "judged", 1)
    summary = (judged / "summary.md").read_text()
    assert "| label STRICT (any) (with the gold answer / measured) | 1 (1/1) |" in summary
    assert "| label STRICT (quoted: no claim judged) | 0 (0/0) |" in summary
    c = compare_runs(judged, quoted, metric="strict_quoted")
    assert c.metric == "strict_quoted" and c.delta == 1.0 and c.questions_paired == 1


def test_a_claim_held_back_for_resting_on_the_judge_is_asked_for_its_quotes_words(
    store: CorpusStore, judge: TableJudge,
) -> None:
    """By default a judged claim keeps its answer HYBRID; the revision is told so, and a revision that restates
    the quote is STRICT on a quote."""
    policy = build_policy(model_id="scripted:scripted", search=SearchSettings(routes=("bm25", "title")),
                          repair="revise")
    probe = engine.query(store, QUESTION, policy.model_copy(update={"repair": "none"}), ScriptedProvider("{}"),
                         VerifierPolicy(), burn=True)
    eid = next(e.evidence_id for e in probe.evidence if QUOTE in e.text)

    def reply(text: str) -> str:
        return json.dumps({"claims": [{"text": text, "evidence_ids": [eid], "quote": QUOTE}], "abstained_requests": []})

    provider = ScriptedProvider(reply(PARAPHRASE), revisions=[reply(QUOTE)])
    record = engine.query(store, QUESTION, policy, provider, VerifierPolicy(entailment=judge.spec), burn=True)
    (call,) = provider.revision_history
    assert (f'Claim 1 says "{PARAPHRASE}", which its quote says only in other words: write the claim in the words '
            "of its quote.") in call.messages[-1].content
    assert record.verification is not None
    assert (record.verification.label, record.verification.basis) == (Label.STRICT, "quoted")
    assert [a.label for a in record.attempts] == ["HYBRID", "STRICT"]
