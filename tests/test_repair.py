"""Answer repairs (`arborist.answer.repair`): quotes snapped, claims re-attributed, one revision turn.

The scripted provider plays the model, so each test says exactly what the model answered first and what it
answered when shown the verifier's findings; the verifier runs for real (rules only: no judge model here).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arborist import engine
from arborist.answer.record import AnswerRecord
from arborist.answer.repair import choose_sample, findings, snap_quote
from arborist.corpus import ChunkingSettings, CorpusStore, open_store
from arborist.governance.audit import verify_chain
from arborist.ingest import ingest_paths
from arborist.models.base import Completion, GenerationSettings
from arborist.models.scripted import ScriptedProvider
from arborist.policy.answer import AnswerPolicy, build_policy, governance_policy_hash
from arborist.retrieval.search import SearchSettings
from arborist.verify import Label, Reason, VerifierPolicy, verify_answer

DEMO = Path(__file__).resolve().parents[1] / "src" / "arborist" / "demo"
QUESTION = "How long is the refund window for annual plans?"
IN_FORCE = ("A new annual subscription on the Starter, Team, or Business plan can be refunded in full if the "
            "customer asks within 30 days of the start of the annual term.")
RULES = VerifierPolicy()  # entailment none: the rules alone


@pytest.fixture
def store(tmp_path: Path) -> Iterator[CorpusStore]:
    db = tmp_path / "demo.db"
    ingest_paths(db, [DEMO / "corpus"], ChunkingSettings(), embed=False)
    with open_store(db, write=True) as s:
        yield s


def policy(repair: str) -> AnswerPolicy:
    return build_policy(model_id="scripted:scripted", search=SearchSettings(routes=("bm25", "title")), repair=repair)


def claim(text: str, quote: str, *eids: str) -> dict[str, object]:
    return {"text": text, "evidence_ids": list(eids), "quote": quote}


def answer(*claims: dict[str, object], abstained: tuple[str, ...] = ()) -> str:
    return json.dumps({"claims": list(claims), "abstained_requests": list(abstained)})


def evidence_id_of(store: CorpusStore, pol: AnswerPolicy, text: str) -> str:
    """The evidence id (E1...) the answer path gives the block holding `text` for QUESTION."""
    probe = engine.query(store, QUESTION, pol.model_copy(update={"repair": "none"}),
                         ScriptedProvider(answer()), RULES, burn=True)
    return next(e.evidence_id for e in probe.evidence if text in e.text)


def test_snap_finds_the_closest_span_within_the_budget_and_never_invents() -> None:
    blocks = [("E1", "Intro text. " + IN_FORCE + " After 30 days, annual fees are not refunded."), ("E2", "Other.")]
    snap = snap_quote("A new annual subscription on the Starter, Team or Business plan may be refunded fully if the "
                      "customer asks within 30 days of the start of the annual term", blocks)
    assert snap is not None and snap.evidence_id == "E1" and snap.span in blocks[0][1]
    assert snap.span.startswith("A new annual subscription") and snap.distance > 0
    assert snap_quote("the moon is made of green cheese and always has been", blocks) is None


def test_a_snap_never_changes_a_figure_or_a_name() -> None:
    """Two edits away, but another fact: the superseded price is never the span a misquote snaps to."""
    blocks = [("E1", "In 2023 pricing, the Team plan cost $22 per seat per month billed monthly."),
              ("E2", "The Team plan costs $29 per seat per month when billed monthly, or $24 when billed annually.")]
    snap = snap_quote("The Team plan costs $29 per seat per month billed monthly.", blocks)
    assert snap is not None and snap.evidence_id == "E2" and "$29" in snap.span
    assert snap_quote("The Team plan costs $22 per seat per month billed annually.", blocks[1:]) is None
    assert snap_quote("Marta Feld approves refunds for the Team plan.",
                      [("E1", "Marcus Feld approves refunds for the Team plan.")]) is None
    # a capital that opens the quote's sentence is the same name as in the evidence's list item
    glossary = [("E1", "- **Quire**: our internal name for a workspace. Old tools still say quire.")]
    snapped = snap_quote("Quire is our internal name for a workspace.", glossary)
    assert snapped is not None and snapped.span == "Quire**: our internal name for a workspace."


def test_a_misquote_is_snapped_to_the_evidence_recorded_and_audited(store: CorpusStore) -> None:
    """The model cites the wrong block and misquotes: the quote snaps to the span it meant, in the block that holds
    it, and the claim is then verified against that span."""
    pol = policy("snap")
    eid = evidence_id_of(store, pol, IN_FORCE)
    other = evidence_id_of(store, pol, "Refund requests are filed in the `billing-general` queue.")
    assert other != eid
    misquote = IN_FORCE.replace("can be refunded in full", "may be refunded fully").replace("Team, or", "Team or")
    first = answer(claim("An annual subscription can be refunded in full if the customer asks within 30 days.",
                         misquote, other))
    record = engine.query(store, QUESTION, pol, ScriptedProvider(first), RULES, burn=True)
    (snapped,) = [r for r in record.repairs if r.kind == "snapped"]
    assert snapped.quote_before == misquote and snapped.quote_after == IN_FORCE
    assert snapped.evidence_before == [other] and snapped.evidence_after == [eid]
    assert any(snapped.quote_after in e.text for e in record.evidence)  # a verbatim span of admitted evidence
    assert snapped.distance is not None and snapped.distance > 0
    assert record.contract.answer is not None and record.contract.answer["claims"][0]["quote"] == snapped.quote_after
    assert record.verification is not None and record.verification.label is Label.STRICT
    event = store.db.execute("SELECT body FROM audit_events ORDER BY seq DESC LIMIT 1").fetchone()[0]
    assert json.loads(event)["repairs"] == [{"kind": "snapped", "claim": 0}]
    assert verify_chain(store.db).ok


def test_a_snap_never_hides_a_wrong_number(store: CorpusStore) -> None:
    """The model's quote says 60 where the evidence says 30: one edit away, but a snap never changes a figure, so
    the quote stays as the model wrote it and the claim's 60 stays unverified."""
    pol = policy("snap")
    eid = evidence_id_of(store, pol, IN_FORCE)
    wrong = IN_FORCE.replace("within 30 days", "within 60 days")
    record = engine.query(store, QUESTION, pol, ScriptedProvider(answer(claim(
        "An annual subscription can be refunded in full if the customer asks within 60 days.", wrong, eid))),
        RULES, burn=True)
    assert record.repairs == []
    assert record.contract.answer is not None and record.contract.answer["claims"][0]["quote"] == wrong
    v = record.verification
    assert v is not None and v.label is not Label.STRICT
    assert {Reason.QUOTE_NOT_FOUND, Reason.NUMBER_MISSING} <= set(v.claims[0].reasons)


def test_a_claim_whose_quote_lacks_its_number_is_reattributed(store: CorpusStore) -> None:
    pol = policy("snap")
    eid = evidence_id_of(store, pol, IN_FORCE)
    unrelated = "Refund requests are filed in the `billing-general` queue."
    other = evidence_id_of(store, pol, unrelated)
    record = engine.query(store, QUESTION, pol, ScriptedProvider(answer(claim(
        "A new annual subscription can be refunded in full if the customer asks within 30 days of the start of "
        "the annual term.", unrelated, other))), RULES, burn=True)
    (moved,) = [r for r in record.repairs if r.kind == "reattributed"]
    assert moved.quote_after == IN_FORCE and moved.evidence_after == [eid] and moved.evidence_before == [other]
    assert record.verification is not None and record.verification.label is Label.STRICT


def test_a_claim_that_contradicts_its_own_quote_is_not_reattributed(store: CorpusStore) -> None:
    """The model quoted the 30-day sentence and wrote 14 days: another sentence holds 14 (monthly plans), but the
    claim is wrong, not mis-attributed; it is left to the revision, whose findings name the quote's 30."""
    question = "How long does a customer have to ask for a full refund of a new annual Team subscription?"
    pol = policy("snap")
    probe = engine.query(store, question, pol.model_copy(update={"repair": "none"}), ScriptedProvider(answer()),
                         RULES, burn=True)
    eid = next(e.evidence_id for e in probe.evidence if IN_FORCE in e.text)
    assert any("within 14 days" in e.text for e in probe.evidence)  # the sentence a search would have found
    record = engine.query(store, question, pol, ScriptedProvider(answer(claim("14 days", IN_FORCE, eid))), RULES,
                          burn=True)
    assert record.repairs == [] and record.verification is not None
    assert record.verification.claims[0].verdict.value == "PARTIAL"


def test_a_claim_citing_the_other_of_two_figures_moves_to_the_sentence_that_states_it(tmp_path: Path) -> None:
    """Two documents give the figure differently, each sentence answering the question as fully: the claim
    quoting the one whose figure it does not state moves to the one it does (a wrong sentence, not a wrong claim)."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "economy.md").write_text(
        "# Economy of Kenya\n\nGrowth was broad. The services sector now contributes 62% of GDP after a decade "
        "of expansion in telecommunication.\n", encoding="utf-8")
    (tmp_path / "docs" / "tourism.md").write_text(
        "# Tourism in Kenya\n\nKenya's services sector, which contributes 61% of GDP, is dominated by tourism.\n",
        encoding="utf-8")
    ingest_paths(tmp_path / "k.db", [tmp_path / "docs"], ChunkingSettings(), embed=False)
    question = "How much does the services sector contribute to GDP?"
    with open_store(tmp_path / "k.db") as kenya:
        probe = engine.query(kenya, question, policy("none"), ScriptedProvider(answer()), RULES, burn=True)
        ids = {("62%" in e.text): e.evidence_id for e in probe.evidence}
        quote = "The services sector now contributes 62% of GDP after a decade of expansion in telecommunication."
        record = engine.query(kenya, question, policy("snap"), ScriptedProvider(answer(
            claim("The services sector contributes 61% of GDP.", quote, ids[True]))), RULES, burn=True)
    assert [(r.kind, r.evidence_after) for r in record.repairs] == [("reattributed", [ids[False]])]
    assert record.verification is not None and record.verification.label is Label.STRICT


def test_a_revision_fed_the_findings_replaces_a_worse_answer_and_both_are_kept(store: CorpusStore) -> None:
    pol = policy("revise")
    eid = evidence_id_of(store, pol, IN_FORCE)
    first = answer(claim("The refund window for annual plans is 30 to 60 days.", IN_FORCE, eid))
    second = answer(claim("A new annual subscription can be refunded in full if the customer asks within 30 days "
                          "of the start of the annual term.", IN_FORCE, eid))
    provider = ScriptedProvider(first, revisions=(second,))
    record = engine.query(store, QUESTION, pol, provider, RULES, burn=True)
    assert len(provider.history) == 1 and len(provider.revision_history) == 1
    sent = provider.revision_history[0].messages
    assert sent[: len(record.prompt.messages)] == record.prompt.messages  # the same conversation, continued
    assert sent[-2].role == "assistant" and sent[-2].content == first
    assert "its quote has no 60; it has 30" in sent[-1].content
    assert record.verification is not None and record.verification.label is Label.STRICT
    assert [a.kind for a in record.attempts] == ["first", "revision"] and record.attempts[1].kept
    assert record.attempts[0].label == "UNGROUNDED" and record.completion.text == second
    assert [r.kind for r in record.repairs] == ["revised"]
    body = json.loads(store.db.execute("SELECT body FROM audit_events ORDER BY seq DESC LIMIT 1").fetchone()[0])
    assert [(a["kind"], a["kept"]) for a in body["attempts"]] == [("first", False), ("revision", True)]


def test_a_revision_no_better_keeps_the_first(store: CorpusStore) -> None:
    pol = policy("revise")
    eid = evidence_id_of(store, pol, IN_FORCE)
    first = answer(claim("The refund window for annual plans is 30 to 60 days.", IN_FORCE, eid))
    record = engine.query(store, QUESTION, pol, ScriptedProvider(first, revisions=(first,)), RULES, burn=True)
    assert record.completion.text == first and [r.kind for r in record.repairs] == ["kept_first"]
    assert [a.kept for a in record.attempts] == [True, False]


def test_a_revision_never_buys_its_label_with_an_abstention(store: CorpusStore) -> None:
    """ABSTAINED outranks UNGROUNDED, but an abstention never replaces an answer with claims: not one merely
    unverified (a quote not found), nor one whose quote states another figure (its UNGROUNDED says so already)."""
    pol = policy("revise")
    eid = evidence_id_of(store, pol, IN_FORCE)
    abstain = answer(abstained=(QUESTION,))
    unverified = answer(claim("Annual plans can be refunded within 30 days.",
                              "Annual plans are refundable for thirty days after purchase, no questions asked.", eid))
    record = engine.query(store, QUESTION, pol, ScriptedProvider(unverified, revisions=(abstain,)), RULES, burn=True)
    assert record.completion.text == unverified and [r.kind for r in record.repairs] == ["kept_first"]
    refuted = answer(claim("The refund window for annual plans is 30 to 60 days.", IN_FORCE, eid))
    record = engine.query(store, QUESTION, pol, ScriptedProvider(refuted, revisions=(abstain,)), RULES, burn=True)
    assert record.verification is not None and record.verification.label is Label.UNGROUNDED
    assert record.completion.text == refuted and [r.kind for r in record.repairs] == ["kept_first"]


@pytest.mark.parametrize(("revision", "why"), [
    ("{not json", "broke the answer contract (PARSE_FAILURE)"),
    (Completion(model_id="scripted", provider="scripted", error="connection refused by 127.0.0.1:9"),
     "server call failed (connection refused"),
    (answer(abstained=("A checker compared your answer with the evidence",)), "abstained from a request the "
     "question does not make"),
])
def test_a_failed_revision_keeps_the_first_answer_with_a_note(store: CorpusStore, revision: str | Completion,
                                                               why: str) -> None:
    pol = policy("revise")
    eid = evidence_id_of(store, pol, IN_FORCE)
    first = answer(claim("The refund window for annual plans is 30 to 60 days.", IN_FORCE, eid))
    record = engine.query(store, QUESTION, pol, ScriptedProvider(first, revisions=(revision,)), RULES, burn=True)
    assert record.completion.text == first and record.contract.valid
    (failed,) = record.repairs
    assert failed.kind == "revision_failed" and why in failed.detail
    assert [a.kept for a in record.attempts] == [True, False]
    assert verify_chain(store.db).ok


def test_a_strict_or_abstained_answer_is_never_revised(store: CorpusStore) -> None:
    pol = policy("all")
    provider = ScriptedProvider(answer(abstained=("How long is the refund window for annual plans?",)))
    record = engine.query(store, QUESTION, pol, provider, RULES, burn=True)
    assert not provider.revision_history and record.repairs == [] and record.attempts == []


def test_the_repair_policy_is_in_the_hash_and_the_cache_key(store: CorpusStore) -> None:
    hashes = {governance_policy_hash(policy(r)) for r in ("none", "snap", "revise", "all")}
    assert len(hashes) == 4
    eid = evidence_id_of(store, policy("none"), IN_FORCE)
    first = answer(claim("The refund window for annual plans is 30 to 60 days.", IN_FORCE, eid))
    engine.query(store, QUESTION, policy("none"), ScriptedProvider(first), RULES)
    again = ScriptedProvider(first, revisions=(first,))
    record = engine.query(store, QUESTION, policy("revise"), again, RULES)
    assert not record.cache_hit and len(again.history) == 1  # never served the answer made under "none"
    served = engine.query(store, QUESTION, policy("revise"), ScriptedProvider(), RULES)
    assert served.cache_hit and served.repairs == record.repairs


def test_findings_say_what_the_quote_lacks_in_plain_words(store: CorpusStore) -> None:
    pol = policy("none")
    eid = evidence_id_of(store, pol, IN_FORCE)
    record = engine.query(store, QUESTION, pol, ScriptedProvider(answer(
        claim("The refund window for annual plans is 30 to 60 days.", IN_FORCE, eid),
        claim("Refunds take 10 business days.", "Refunds are fast and painless for everyone involved.", eid))),
        RULES, burn=True)
    assert record.verification is not None
    blocks = [(e.evidence_id, e.text) for e in record.evidence]
    lines = findings(record.verification, record.contract.answer, blocks)
    assert lines[0] == ('Claim 1 says "The refund window for annual plans is 30 to 60 days.", but its quote has '
                        'no 60; it has 30.')
    assert lines[1] == ('Claim 2 says "Refunds take 10 business days.", but its quote is not copied word for word '
                        f'from {eid}; and its quote has no 10.')


def test_a_miscited_quote_is_told_the_block_that_holds_it(store: CorpusStore) -> None:
    pol = policy("none")
    eid = evidence_id_of(store, pol, IN_FORCE)
    other = evidence_id_of(store, pol, "Refund requests are filed in the `billing-general` queue.")
    record = engine.query(store, QUESTION, pol, ScriptedProvider(answer(
        claim("Annual plans are refundable for 45 days.", IN_FORCE, other))), RULES, burn=True)
    assert record.verification is not None
    lines = findings(record.verification, record.contract.answer, [(e.evidence_id, e.text) for e in record.evidence])
    assert lines == [f'Claim 1 says "Annual plans are refundable for 45 days.", but its quote is not in {other}, '
                     f'the block it cites; it is in {eid}; and its quote has no 45; it has 30.']


def samples(store: CorpusStore, *replies: str) -> list[AnswerRecord]:
    pol = policy("none").model_copy(update={"generation": GenerationSettings(temperature=0.7)})
    provider = ScriptedProvider(*replies)
    return [engine.query(store, QUESTION, pol, provider, RULES, burn=True, sample_index=i) for i in range(len(replies))]


def test_the_verified_choice_prefers_a_better_label(store: CorpusStore) -> None:
    eid = evidence_id_of(store, policy("none"), IN_FORCE)
    wrong = answer(claim("The refund window for annual plans is 30 to 60 days.", IN_FORCE, eid))
    right = answer(claim(IN_FORCE, IN_FORCE, eid))
    index, why = choose_sample(samples(store, wrong, right, right))
    assert index == 1 and why.startswith("sample 2 is STRICT (1/1), better than sample 1's UNGROUNDED (0/1)")


def test_the_verified_choice_never_buys_a_label_with_an_emptier_answer(store: CorpusStore) -> None:
    """Sample 1 is HYBRID: a verified claim and one the evidence does not state; sample 2 keeps only the verified
    claim and is STRICT. It claims less, so sample 1 stands, unless sample 1's extra claim is refuted (a number
    its quote lacks): then the shorter STRICT answer wins."""
    eid = evidence_id_of(store, policy("none"), IN_FORCE)
    fewer = answer(claim(IN_FORCE, IN_FORCE, eid))
    unstated = answer(claim(IN_FORCE, IN_FORCE, eid), claim("Refund requests are always welcome.", IN_FORCE, eid))
    records = samples(store, unstated, fewer)
    assert [r.verification.label for r in records if r.verification] == [Label.HYBRID, Label.STRICT]
    assert choose_sample(records)[0] == 0
    refuted = answer(claim(IN_FORCE, IN_FORCE, eid), claim("Annual refunds take 45 days.", IN_FORCE, eid))
    index, why = choose_sample(samples(store, refuted, fewer))
    assert index == 1 and why.endswith("but sample 1's claims are refuted")
    abstains = answer(abstained=("How long is the refund window for annual plans?",))
    assert choose_sample(samples(store, fewer, abstains))[0] == 0  # never an abstention over a STRICT answer


def test_samples_at_temperature_zero_are_refused(run_cli: Any, demo_db: Path) -> None:
    result = run_cli("query", QUESTION, "--db", demo_db, "--model", "scripted", "--samples", "3")
    assert result.exit_code != 0 and "--samples 3 needs --temperature above 0" in result.output


def test_a_server_that_dies_during_the_revision_keeps_the_first_answer(store: CorpusStore) -> None:
    """A real HTTP server answers the first call, then drops every connection (a killed server): the revision
    fails, the first answer stands with a note, and it is cached and audited as usual."""
    from arborist.models.openai_compat import OpenAIProvider
    from fault_server import FaultServer

    eid = evidence_id_of(store, policy("none"), IN_FORCE)
    first = answer(claim("The refund window for annual plans is 30 to 60 days.", IN_FORCE, eid))
    server = FaultServer(reply=first).start()
    try:
        server.queue("ok", "drop", "drop")
        provider = OpenAIProvider("fault", server.base_url, retries=1, timeout=5, sleep=lambda _s: None)
        pol = policy("revise").model_copy(update={"model_id": f"openai:{provider.model_id}"})
        record = engine.query(store, QUESTION, pol, provider, RULES, burn=True)
    finally:
        server.stop()
    assert len(server.requests) == 3  # the first answer, the revision and its one retry
    assert record.completion.text == first and record.contract.valid
    (failed,) = record.repairs
    assert failed.kind == "revision_failed" and failed.detail.startswith("the revision's server call failed")
    assert [a.kept for a in record.attempts] == [True, False] and record.attempts[1].completion.error
    served = engine.query(store, QUESTION, pol, provider, RULES)  # cached: the dead server is not asked again
    assert served.cache_hit and served.record_id == record.record_id
    assert verify_chain(store.db).ok


def test_a_miscited_claim_that_adds_to_its_quote_is_recited_and_told_the_words_it_adds(store: CorpusStore) -> None:
    """The quote is word for word in another admitted block: the citation moves there (a snap of distance 0, no
    model call), and what still keeps the claim unverified is named: the words it adds to its quote."""
    pol = policy("snap")
    eid = evidence_id_of(store, pol, IN_FORCE)
    other = evidence_id_of(store, pol, "Refund requests are filed in the `billing-general` queue.")
    record = engine.query(store, QUESTION, pol, ScriptedProvider(answer(
        claim("Annual plans bought by phone are refunded within 30 days by the finance director.", IN_FORCE, other))),
        RULES, burn=True)
    assert record.verification is not None and record.verification.label is not Label.STRICT
    assert [(r.kind, r.distance, r.evidence_before, r.evidence_after) for r in record.repairs] == [
        ("snapped", 0, [other], [eid])]
    assert record.contract.answer is not None and record.contract.answer["claims"][0]["evidence_ids"] == [eid]
    lines = findings(record.verification, record.contract.answer, [(e.evidence_id, e.text) for e in record.evidence])
    assert lines == ['Claim 1 says "Annual plans bought by phone are refunded within 30 days by the finance director.", '
                     'but its quote does not say "bought", "phone", "finance", "director".']


def test_a_repaired_answer_is_not_served_under_another_verifier_policy(store: CorpusStore) -> None:
    """Which attempt won was the verifier's decision: under another verifier policy the cached repaired answer is
    made afresh (the revision asked again), under the same one it is served."""
    pol = policy("revise")
    eid = evidence_id_of(store, pol, IN_FORCE)
    first = answer(claim("The refund window for annual plans is 30 to 60 days.", IN_FORCE, eid))
    second = answer(claim("A new annual subscription can be refunded in full if the customer asks within 30 days "
                          "of the start of the annual term.", IN_FORCE, eid))
    made = engine.query(store, QUESTION, pol, ScriptedProvider(first, revisions=(second,)), RULES)
    assert [r.kind for r in made.repairs] == ["revised"] and not made.cache_hit
    assert engine.query(store, QUESTION, pol, ScriptedProvider(), RULES).cache_hit
    provider = ScriptedProvider(first, revisions=(second,))
    other = engine.query(store, QUESTION, pol, provider, RULES.model_copy(update={"question_terms_check": False}))
    assert not other.cache_hit and other.cache_rejected is not None and "another verifier policy" in other.cache_rejected
    assert len(provider.history) == 1 and len(provider.revision_history) == 1


def test_a_bare_answer_is_told_its_quote_does_not_say_what_was_asked() -> None:
    text = "The company's founder retired in 1990. Harlow Bridge was closed for repairs in 2019."
    said = {"claims": [{"text": "Harlow Bridge", "evidence_ids": ["E1"], "quote": "Harlow Bridge was closed for repairs"}],
            "abstained_requests": []}
    v = verify_answer("Which bridge did the company's founder design before he retired?", "claim_lattice",
                      [{"id": "E1", "title": "History", "text": text}], said)
    assert Reason.BARE_ANSWER in v.claims[0].reasons
    assert findings(v, said, [("E1", text)]) == [
        'Claim 1 says "Harlow Bridge", but it is a bare answer, and its quote does not say what the question asks '
        "about: quote the sentence that answers the question."]
