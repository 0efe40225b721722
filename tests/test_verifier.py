"""The deterministic verifier: each check both ways, label aggregation, Rules 8 and 9, ceilings, policy hash."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from arborist.errors import InputError
from arborist.policy.canonical import canonical_json
from arborist.verify import (
    REASONS,
    AuditMode,
    Evidence,
    Label,
    PolicyError,
    Reason,
    Verdict,
    Verification,
    VerifierPolicy,
    VerifyInputError,
    load_policy,
    verifier_policy_hash,
    verify_answer,
)
from arborist.verify.judge import JudgeSpec
from arborist.verify.slots import asked_part
from judges import PairJudge

LIGHTHOUSE = (
    "The Faro di Portonovo lighthouse was built in 1862 on a limestone cliff above the harbour. "
    "Its lamp can be seen from 1,200 metres out at sea on a clear night. "
    "Visitors pay $29 for a guided climb to the lantern room \u2014 the \u201cbest view on the coast\u201d, "
    "according to the local tourist office. The keeper, Aldo Ricci, retired in 1974. "
    "Fishermen said the light was never dark during the storms of that winter."
)
Q = "When was the Portonovo lighthouse built?"


def ev(text: str = LIGHTHOUSE, title: str = "Portonovo lighthouse", id: str = "E1") -> dict[str, str]:
    return {"id": id, "title": title, "text": text}


def pointer(*claims: tuple[str, list[str]], abstained: list[str] | None = None) -> dict:
    return {"claims": [{"text": t, "evidence_ids": ids} for t, ids in claims], "abstained_requests": abstained or []}


def one(text: str, evidence: list[dict] | None = None, ids: list[str] | None = None, **kw):
    v = verify_answer(Q, "claim_lattice_pointer", evidence or [ev()], pointer((text, ids or ["E1"])), **kw)
    return v, v.claims[0]


# ------------------------------------------------------------------ quote check


def test_quote_mode_verbatim_quote_is_verified_quote_and_strict() -> None:
    answer = {"quotes": [{"evidence_id": "E1", "text": "built in 1862 on a limestone cliff"}], "abstained_requests": []}
    v = verify_answer(Q, "quote", [ev()], answer)
    assert v.claims[0].verdict is Verdict.VERIFIED_QUOTE
    assert v.claims[0].checks.quote.passed and v.claims[0].checks.quote.evidence_id == "E1"
    assert v.label is Label.STRICT and v.audit_mode is AuditMode.WARRANTED
    assert (v.n_verified, v.n_claims) == (1, 1)


def test_quote_not_in_chunk_is_quote_not_found() -> None:
    answer = {"quotes": [{"evidence_id": "E1", "text": "painted red and white in 1990 by volunteers"}]}
    v = verify_answer(Q, "quote", [ev()], answer)
    c = v.claims[0]
    assert c.checks.quote.passed is False
    assert Reason.QUOTE_NOT_FOUND in c.reasons
    assert c.verdict is Verdict.UNSUPPORTED and v.label is Label.UNGROUNDED


@pytest.mark.parametrize(
    "quote",
    [
        'to the lantern room - the "best view on the coast"',  # straight quotes, hyphen for em dash
        "to the lantern room \u2013 the \u201cbest view on the coast\u201d",  # en dash
        "TO THE   LANTERN\n room \u2014 the \u2018\u2018best view on the coast\u2019\u2019".replace("\u2018\u2018", "\u201c").replace("\u2019\u2019", "\u201d"),
        "\u201cto the lantern room \u2014 the \u201cbest view on the coast\u201d.\u201d",  # wrapped in quotes, trailing dot
    ],
)
def test_quote_normalisation_claims_dashes_whitespace_case(quote: str) -> None:
    v = verify_answer(Q, "quote", [ev()], {"quotes": [{"evidence_id": "E1", "text": quote}]})
    assert v.claims[0].checks.quote.passed, v.claims[0].checks.quote.detail


def test_quote_normalisation_works_when_the_evidence_is_the_straight_one() -> None:
    text = 'She called it "the best view on the coast" - twice.'
    quote = "\u201cthe best view on the coast\u201d \u2014 twice"
    v = verify_answer(Q, "quote", [ev(text)], {"quotes": [{"evidence_id": "E1", "text": quote}]})
    assert v.claims[0].checks.quote.passed


def test_quote_with_ellipsis_needs_fragments_in_order() -> None:
    ok = "The Faro di Portonovo lighthouse ... on a limestone cliff"
    bad = "on a limestone cliff ... The Faro di Portonovo lighthouse"
    v = verify_answer(Q, "quote", [ev()], {"quotes": [{"evidence_id": "E1", "text": ok}, {"evidence_id": "E1", "text": bad}]})
    assert v.claims[0].checks.quote.passed
    assert v.claims[1].checks.quote.passed is False


def test_quote_without_content_tokens_does_not_count() -> None:
    v = verify_answer(Q, "quote", [ev()], {"quotes": [{"evidence_id": "E1", "text": "the"}]})
    assert v.claims[0].checks.quote.passed is False
    assert Reason.NO_CONTENT_TOKENS in v.claims[0].reasons


def test_claim_lattice_quote_must_be_in_the_cited_chunk_not_another() -> None:
    other = ev("Nothing about lighthouses here.", "Portonovo beach", "E2")
    answer = {"claims": [{"text": "It was built in 1862.", "evidence_ids": ["E2"], "quote": "built in 1862"}]}
    v = verify_answer(Q, "claim_lattice", [ev(), other], answer, VerifierPolicy(reanchor_quotes=False))
    assert v.claims[0].checks.quote.passed is False
    assert Reason.QUOTE_NOT_FOUND in v.claims[0].reasons


def test_claim_lattice_true_quote_cannot_carry_an_unrelated_claim() -> None:
    answer = {"claims": [{
        "text": "Portonovo exports olive oil and wine to Germany.",
        "evidence_ids": ["E1"],
        "quote": "built in 1862 on a limestone cliff",
    }]}
    v = verify_answer(Q, "claim_lattice", [ev()], answer)
    c = v.claims[0]
    assert c.checks.quote.passed
    assert c.verdict is not Verdict.VERIFIED_QUOTE
    assert Reason.LOW_OVERLAP in c.reasons and Reason.ENTITY_MISSING in c.reasons


def test_claim_lattice_missing_quote_is_reported_but_span_can_still_verify() -> None:
    answer = {"claims": [{"text": "The lighthouse was built in 1862.", "evidence_ids": ["E1"]}]}
    v = verify_answer(Q, "claim_lattice", [ev()], answer)
    c = v.claims[0]
    assert c.checks.quote.passed is False and c.checks.quote.detail == "no quote given"
    assert c.verdict is Verdict.VERIFIED_SPAN


def test_pointer_mode_has_no_quote_check() -> None:
    _, c = one("The lighthouse was built in 1862.")
    assert c.checks.quote is None


# ------------------------------------------------------------------ span check


def test_span_check_reordered_words_within_one_window() -> None:
    _, c = one("In 1862 the lighthouse was built.")
    assert c.checks.span.passed, c.checks.span.detail
    assert c.verdict is Verdict.VERIFIED_SPAN
    assert "1862" in c.checks.span.detail


def test_span_check_substring_rule() -> None:
    _, c = one("the keeper, Aldo Ricci, retired in 1974")
    assert c.checks.span.passed and "verbatim" in c.checks.span.detail


def test_span_check_fails_when_words_are_spread_over_the_chunk() -> None:
    # every word is in the chunk, but "cliff" and "storms" are sentences apart
    _, c = one("The cliff storms.")
    assert c.checks.span.passed is False
    assert Reason.SPAN_NOT_FOUND in c.reasons
    assert "limit" in c.checks.span.detail


def test_span_check_fails_when_a_content_word_is_absent() -> None:
    _, c = one("The lighthouse was built in 1862 by Venetian engineers.")
    assert c.checks.span.passed is False
    assert "venetian" in c.checks.span.missing


def test_negated_claim_is_not_verified_by_the_positive_sentence() -> None:
    _, c = one("The keeper Aldo Ricci did not retire in 1974.")
    assert c.verdict not in (Verdict.VERIFIED_SPAN, Verdict.VERIFIED_QUOTE)
    assert Reason.NEGATION_MISMATCH in c.reasons


def test_claim_with_matching_negation_is_verified() -> None:
    _, c = one("Fishermen said the light was never dark during the storms.")
    assert c.verdict is Verdict.VERIFIED_SPAN, c.checks.span.detail
    _, c = one("Fishermen said the light was dark during the storms.")
    assert c.verdict is not Verdict.VERIFIED_SPAN and Reason.NEGATION_MISMATCH in c.reasons


def test_negation_leaking_from_the_next_sentence_does_not_verify() -> None:
    answer = {"claims": [{
        "text": "The keeper Aldo Ricci did not retire in 1974.",
        "evidence_ids": ["E1"],
        "quote": "The keeper, Aldo Ricci, retired in 1974.",
    }]}
    v = verify_answer(Q, "claim_lattice", [ev()], answer)
    assert v.claims[0].checks.quote.passed
    assert v.claims[0].verdict is not Verdict.VERIFIED_QUOTE
    assert Reason.NEGATION_MISMATCH in v.claims[0].reasons


# ------------------------------------------------------------------ entity / number check


@pytest.mark.parametrize(
    ("claim", "evidence_text"),
    [
        ("The lamp is visible from 1200 metres.", "The lamp is visible from 1,200 metres."),
        ("The lamp is visible from 1,200 metres.", "The lamp is visible from 1200 metres."),
        ("A guided climb costs 29 dollars.", "A guided climb costs $29 per person."),
        ("The keeper retired in 1974.", "The keeper retired in 1974."),
    ],
)
def test_numbers_compare_by_value(claim: str, evidence_text: str) -> None:
    _, c = one(claim, [ev(evidence_text)])
    assert c.checks.entities.passed, c.checks.entities.detail


def test_wrong_number_is_number_missing() -> None:
    _, c = one("The lighthouse was built in 1863 on a limestone cliff.")
    assert c.checks.entities.passed is False
    assert c.checks.entities.missing == ["1863"]
    assert Reason.NUMBER_MISSING in c.reasons
    assert c.verdict is not Verdict.VERIFIED_SPAN


def test_wrong_name_is_entity_missing() -> None:
    _, c = one("The keeper, Aldo Rossi, retired in 1974.")
    assert c.checks.entities.missing == ["Rossi"]
    assert Reason.ENTITY_MISSING in c.reasons
    assert c.verdict is Verdict.PARTIAL  # the paraphrase still ties it to the chunk


def test_names_may_come_from_the_title() -> None:
    _, c = one("Portonovo has a lamp visible from 1,200 metres out at sea.", [ev(title="Portonovo")])
    assert c.checks.entities.passed


def test_lone_sentence_initial_word_is_not_a_name_but_mid_sentence_names_are() -> None:
    _, c = one("Notably, the keeper Aldo Ricci retired in 1974.")
    assert c.checks.entities.passed  # "Notably" is not taken for a name
    _, c = one("The keeper retired in Ravenna in 1974.")
    assert c.checks.entities.missing == ["Ravenna"]


# ------------------------------------------------------------------ paraphrase check


PARAPHRASE = "Visitors pay $29 to climb to the lantern room and enjoy the panorama."


def test_paraphrase_passes_above_threshold_and_fails_below() -> None:
    claim = PARAPHRASE
    _, c = one(claim)
    assert c.checks.paraphrase.passed, c.checks.paraphrase.detail
    assert 0.6 <= c.checks.paraphrase.score < 1.0
    _, strict = one(claim, policy=VerifierPolicy(paraphrase_threshold=0.95))
    assert strict.checks.paraphrase.passed is False
    assert Reason.LOW_OVERLAP in strict.reasons


def test_paraphrase_only_support_is_partial() -> None:
    _, c = one(PARAPHRASE)
    assert c.checks.span.passed is False and c.checks.paraphrase.passed
    assert c.verdict is Verdict.PARTIAL


def test_unrelated_claim_is_low_overlap_and_unsupported() -> None:
    v, c = one("Olive groves cover the southern hills of the region.")
    assert c.checks.paraphrase.passed is False and Reason.LOW_OVERLAP in c.reasons
    assert c.verdict is Verdict.UNSUPPORTED and v.label is Label.UNGROUNDED
    assert v.audit_mode is AuditMode.LINKED


# ------------------------------------------------------------------ label aggregation


GOOD = "The lighthouse was built in 1862."
BAD = "The lighthouse was painted blue by Venetian sailors."


def test_label_strict_hybrid_ungrounded() -> None:
    strict = verify_answer(Q, "claim_lattice_pointer", [ev()], pointer((GOOD, ["E1"]), ("Aldo Ricci retired in 1974.", ["E1"])))
    hybrid = verify_answer(Q, "claim_lattice_pointer", [ev()], pointer((GOOD, ["E1"]), (BAD, ["E1"])))
    ungrounded = verify_answer(Q, "claim_lattice_pointer", [ev()], pointer((BAD, ["E1"])))
    assert (strict.label, strict.n_verified, strict.n_claims) == (Label.STRICT, 2, 2)
    assert (hybrid.label, hybrid.n_verified, hybrid.n_claims) == (Label.HYBRID, 1, 2)
    assert (ungrounded.label, ungrounded.n_verified) == (Label.UNGROUNDED, 0)
    assert strict.audit_mode is AuditMode.WARRANTED
    assert hybrid.audit_mode is AuditMode.LINKED and ungrounded.audit_mode is AuditMode.LINKED


def test_full_abstention_is_abstained_not_strict() -> None:
    v = verify_answer(Q, "claim_lattice", [ev()], {"claims": [], "abstained_requests": ["the architect's name"]})
    assert v.label is Label.ABSTAINED and v.audit_mode is AuditMode.ABSTENTION
    assert v.abstained_requests == ["the architect's name"]
    assert Reason.ABSTAINED in v.reasons and (v.n_verified, v.n_claims) == (0, 0)


def test_partial_abstention_keeps_the_claims_label_and_lists_requests() -> None:
    v = verify_answer(Q, "claim_lattice_pointer", [ev()], pointer((GOOD, ["E1"]), abstained=["who designed it"]))
    assert v.label is Label.STRICT
    assert v.abstained_requests == ["who designed it"]
    assert Reason.PARTIAL_ABSTENTION in v.reasons


def test_empty_answer_is_ungrounded() -> None:
    v = verify_answer(Q, "quote", [ev()], {"quotes": []})
    assert v.label is Label.UNGROUNDED and Reason.NO_CLAIMS in v.reasons
    assert v.audit_mode is AuditMode.ABSTENTION


# ------------------------------------------------------------------ Rules 8 and 9


def test_rule8_a_chunk_unrelated_to_the_question_demotes_strict_to_hybrid() -> None:
    chunk = ev(title="Adriatic coastal walks")
    elsewhere = "When was the Ancona beacon raised?"  # shares nothing with the chunk's title or text
    v = verify_answer(elsewhere, "claim_lattice_pointer", [chunk], pointer((GOOD, ["E1"])))
    assert v.claims[0].verdict is Verdict.VERIFIED_SPAN
    assert v.label is Label.HYBRID
    assert Reason.TITLE_IRRELEVANT in v.reasons and Reason.TITLE_IRRELEVANT in v.claims[0].reasons
    assert v.audit_mode is AuditMode.LINKED
    off = verify_answer(elsewhere, "claim_lattice_pointer", [chunk], pointer((GOOD, ["E1"])),
                        VerifierPolicy(title_relevance=False, topic_check=False, question_terms_check=False))
    # (Rules 11 and 12 would demote it too: the claim shares no word with the question, nor the chunk "Ancona")
    assert off.label is Label.STRICT and Reason.TITLE_IRRELEVANT not in off.reasons
    # a paragraph of a long article rarely repeats the article's title: its text speaking of the question is enough
    kept = verify_answer(Q, "claim_lattice_pointer", [chunk], pointer((GOOD, ["E1"])))
    assert kept.label is Label.STRICT and Reason.TITLE_IRRELEVANT not in kept.reasons


def test_rule8_relevant_title_by_stem_keeps_strict() -> None:
    v = verify_answer(Q, "claim_lattice_pointer", [ev(title="Lighthouses of the Marche")], pointer((GOOD, ["E1"])))
    assert v.label is Label.STRICT and Reason.TITLE_IRRELEVANT not in v.reasons


def test_rule8_never_promotes_and_ignores_uncited_chunks() -> None:
    chunks = [ev(), ev("Unrelated.", "Olive oil", "E2")]
    v = verify_answer(Q, "claim_lattice_pointer", chunks, pointer((GOOD, ["E1"]), (BAD, ["E1"])))
    assert v.label is Label.HYBRID and Reason.TITLE_IRRELEVANT not in v.reasons


def test_rule9_subject_absent_from_cited_evidence() -> None:
    chunk = ev("The bakery opened in 1862 on the main square.", "Bakery")
    v = verify_answer(Q, "claim_lattice_pointer", [chunk], pointer(("The bakery opened in 1862.", ["E1"])))
    assert Reason.SUBJECT_ABSENT in v.reasons
    present = verify_answer(Q, "claim_lattice_pointer", [ev()], pointer((GOOD, ["E1"])))
    assert Reason.SUBJECT_ABSENT not in present.reasons


# ------------------------------------------------------------------ claim ceiling and warrants


def _many(n: int) -> list[dict[str, str]]:
    return [ev(id=f"E{i}") for i in range(1, n + 1)]


def test_too_many_evidence_ids_caps_a_verified_claim() -> None:
    ids = ["E1", "E2", "E3", "E4"]
    v = verify_answer(Q, "claim_lattice_pointer", _many(4), pointer((GOOD, ids)))
    c = v.claims[0]
    assert Reason.TOO_MANY_EVIDENCE_IDS in c.reasons
    assert c.verdict is Verdict.PARTIAL and v.label is Label.UNGROUNDED
    roomy = verify_answer(Q, "claim_lattice_pointer", _many(4), pointer((GOOD, ids)), VerifierPolicy(max_evidence_ids=4))
    assert roomy.claims[0].verdict is Verdict.VERIFIED_SPAN and roomy.label is Label.STRICT


def test_duplicate_ids_count_once_towards_the_ceiling() -> None:
    v = verify_answer(Q, "claim_lattice_pointer", [ev()], pointer((GOOD, ["E1"] * 5)))
    assert Reason.TOO_MANY_EVIDENCE_IDS not in v.claims[0].reasons


def test_claim_citing_nothing_is_warrant_missing_and_unlinked() -> None:
    v = verify_answer(Q, "claim_lattice_pointer", [ev()], pointer((GOOD, [])))
    c = v.claims[0]
    assert c.verdict is Verdict.UNSUPPORTED and c.reasons == [Reason.WARRANT_MISSING]
    assert v.label is Label.UNGROUNDED and v.audit_mode is AuditMode.UNLINKED


def test_claim_citing_an_unknown_id_is_warrant_missing() -> None:
    v = verify_answer(Q, "claim_lattice_pointer", [ev()], pointer((GOOD, ["E7"])))
    assert v.claims[0].verdict is Verdict.UNSUPPORTED
    assert Reason.WARRANT_MISSING in v.claims[0].reasons and "E7" in v.claims[0].notes[0]
    mixed = verify_answer(Q, "claim_lattice_pointer", [ev()], pointer((GOOD, ["E1", "E7"])))
    assert mixed.claims[0].verdict is Verdict.PARTIAL  # verified against E1, capped by the invented id
    assert Reason.WARRANT_MISSING in mixed.claims[0].reasons


def test_quote_mode_unknown_evidence_id() -> None:
    v = verify_answer(Q, "quote", [ev()], {"quotes": [{"evidence_id": "E3", "text": "built in 1862"}]})
    assert v.claims[0].verdict is Verdict.UNSUPPORTED and Reason.WARRANT_MISSING in v.claims[0].reasons


# ------------------------------------------------------------------ input shape


@pytest.mark.parametrize(
    ("mode", "answer", "field"),
    [
        ("claims", {"claims": []}, "mode"),
        ("claim_lattice", {"quotes": []}, "answer.claims"),
        ("quote", {"claims": []}, "answer.quotes"),
        ("claim_lattice", {"claims": "x"}, "answer.claims"),
        ("claim_lattice", {"claims": [{"text": "x"}]}, "answer.claims[0].evidence_ids"),
        ("claim_lattice", {"claims": [{"text": "x", "evidence_ids": "E1"}]}, "answer.claims[0].evidence_ids"),
        ("claim_lattice", {"claims": [{"text": 3, "evidence_ids": []}]}, "answer.claims[0].text"),
        ("claim_lattice", {"claims": [{"text": "x", "evidence_ids": [], "quote": 5}]}, "answer.claims[0].quote"),
        ("quote", {"quotes": [{"text": "x"}]}, "answer.quotes[0].evidence_id"),
        ("quote", {"quotes": [], "abstained_requests": "none"}, "answer.abstained_requests"),
        ("quote", [], "answer"),
    ],
)
def test_out_of_shape_answers_raise_naming_the_field(mode: str, answer: object, field: str) -> None:
    with pytest.raises(VerifyInputError) as info:
        verify_answer(Q, mode, [ev()], answer)  # type: ignore[arg-type]
    assert info.value.field == field
    assert str(info.value).startswith(field + ":") and "\n" not in str(info.value)
    assert isinstance(info.value, InputError) and isinstance(info.value, ValueError)


def test_bad_evidence_raises_naming_the_field() -> None:
    with pytest.raises(VerifyInputError, match=r"^evidence\[1\]\.id: duplicate"):
        verify_answer(Q, "quote", [ev(), ev()], {"quotes": []})
    with pytest.raises(VerifyInputError, match=r"^evidence\[0\]\.title: missing"):
        verify_answer(Q, "quote", [{"id": "E1", "text": "x"}], {"quotes": []})
    with pytest.raises(VerifyInputError, match=r"^question:"):
        verify_answer(None, "quote", [ev()], {"quotes": []})  # type: ignore[arg-type]


def test_evidence_objects_and_extra_fields_are_accepted() -> None:
    chunk = Evidence(id="E1", title="Portonovo lighthouse", text=LIGHTHOUSE)
    extra = {**ev(), "score": 0.7, "chunk_id": "doc#chunk-0"}
    a = verify_answer(Q, "claim_lattice_pointer", [chunk], pointer((GOOD, ["E1"])))
    b = verify_answer(Q, "claim_lattice_pointer", [extra], pointer((GOOD, ["E1"])))
    assert a.model_dump() == b.model_dump()


def test_verification_is_deterministic_and_json_serialisable() -> None:
    args = (Q, "claim_lattice_pointer", [ev()], pointer((GOOD, ["E1"]), (BAD, ["E1"])))
    a, b = verify_answer(*args), verify_answer(*args)
    assert a.model_dump_json() == b.model_dump_json()
    data = json.loads(a.model_dump_json())
    assert set(data["claims"][0]["checks"]) == {"quote", "span", "entities", "paraphrase"}
    assert data["label"] == "HYBRID"


# ------------------------------------------------------------------ policy and hash


def test_policy_hash_format_and_default() -> None:
    h = verifier_policy_hash(VerifierPolicy())
    assert h.startswith("sha256:") and len(h) == len("sha256:") + 64
    assert verifier_policy_hash() == h
    v = verify_answer(Q, "claim_lattice_pointer", [ev()], pointer((GOOD, ["E1"])))
    assert v.verifier_policy_hash == h


@pytest.mark.parametrize(
    "change",
    [
        {"paraphrase_threshold": 0.7},
        {"max_evidence_ids": 4},
        {"span_window_factor": 2.0},
        {"paraphrase_window_factor": 3.0},
        {"title_relevance": False},
        {"guard_proximity_runes": 100},
    ],
)
def test_policy_hash_changes_when_a_knob_changes(change: dict) -> None:
    assert verifier_policy_hash(VerifierPolicy(**change)) != verifier_policy_hash(VerifierPolicy())


def test_policy_hash_ignores_field_order_and_defaults_spelled_out() -> None:
    fields = {"paraphrase_threshold": 0.7, "max_evidence_ids": 2, "title_relevance": False}
    forward = load_policy(dict(fields))
    backward = load_policy(dict(reversed(list(fields.items()))))
    assert verifier_policy_hash(forward) == verifier_policy_hash(backward)
    spelled = VerifierPolicy(**VerifierPolicy().model_dump())
    assert verifier_policy_hash(spelled) == verifier_policy_hash(VerifierPolicy())


def test_canonical_json_is_sorted_compact_and_order_free() -> None:
    a = canonical_json({"b": 1, "a": [1.5, "x"], "c": {"z": True, "y": None}})
    b = canonical_json({"c": {"y": None, "z": True}, "a": [1.5, "x"], "b": 1})
    assert a == b == '{"a":[1.5,"x"],"b":1,"c":{"y":null,"z":true}}'


def test_policy_hash_is_the_same_in_another_process() -> None:
    code = (
        "from arborist.verify import VerifierPolicy, verifier_policy_hash;"
        "print(verifier_policy_hash(VerifierPolicy(paraphrase_threshold=0.7)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == verifier_policy_hash(VerifierPolicy(paraphrase_threshold=0.7))


def test_unknown_policy_field_is_one_line_listing_valid_fields() -> None:
    with pytest.raises(PolicyError) as info:
        VerifierPolicy(paraphrase_treshold=0.5)
    msg = str(info.value)
    assert "\n" not in msg and "paraphrase_treshold" in msg
    for name in ("paraphrase_threshold", "max_evidence_ids", "title_relevance", "answerability", "version"):
        assert name in msg
    with pytest.raises(PolicyError, match="valid fields"):
        load_policy({"bogus": 1})
    with pytest.raises(PolicyError, match="valid: 1"):
        load_policy({"version": 2})
    with pytest.raises(PolicyError, match="paraphrase_threshold"):
        load_policy({"paraphrase_threshold": 1.5})


def test_policy_is_frozen() -> None:
    policy = VerifierPolicy()
    with pytest.raises(Exception):  # noqa: B017 - pydantic's frozen-instance error
        policy.max_evidence_ids = 9  # type: ignore[misc]


# ------------------------------------------------------------------ registry and layering


def test_every_reason_code_has_a_one_line_meaning() -> None:
    assert set(REASONS) == set(Reason)
    assert all(meaning and "\n" not in meaning for meaning in REASONS.values())


def test_verifier_imports_no_model_provider_and_no_cli() -> None:
    code = (
        "import sys, arborist.verify;"
        "bad = [m for m in sys.modules if m.startswith(('arborist.models', 'arborist.cli'))];"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


# --- a genuine quote must back its own claim (claim_lattice) -----------------------------------

JOURNAL = (
    "The Journal of Quiet Studies is a peer-reviewed journal published by the Society for Calm. "
    "Its editor-in-chief is Mara Lind (University of Oslo)."
)
JOURNAL_QUOTE = "The Journal of Quiet Studies is a peer-reviewed journal published by the Society for Calm."


def test_a_true_quote_cannot_carry_a_claim_it_does_not_make() -> None:
    # Seen on MuSiQue: the quote is verbatim, the claim's words are scattered over
    # the chunk, but the quote says nothing about who was president.
    claim = {"text": "The first president of the Society for Calm was Mara Lind.", "evidence_ids": ["E1"],
             "quote": JOURNAL_QUOTE}
    v = verify_answer("Who was the first president of the Society for Calm?", "claim_lattice",
                      [ev(JOURNAL, title="Journal of Quiet Studies")], {"claims": [claim], "abstained_requests": []})
    (c,) = v.claims
    assert c.checks.quote is not None and c.checks.quote.passed
    assert c.verdict is not Verdict.VERIFIED_QUOTE
    assert Reason.QUOTE_MISMATCH in c.reasons
    assert v.label is not Label.STRICT


def test_a_quote_that_states_the_claim_verifies() -> None:
    claim = {"text": "The Journal of Quiet Studies is published by the Society for Calm.", "evidence_ids": ["E1"],
             "quote": JOURNAL_QUOTE}
    v = verify_answer("Who publishes the Journal of Quiet Studies?", "claim_lattice",
                      [ev(JOURNAL, title="Journal of Quiet Studies")], {"claims": [claim], "abstained_requests": []})
    assert v.claims[0].verdict is Verdict.VERIFIED_QUOTE and v.label is Label.STRICT


HARBOUR = ev("The harbour office opens at 8 a.m. every weekday.", title="Harbour office", id="E2")
MISCITED = {"text": "The lighthouse was built in 1862.", "evidence_ids": ["E2"],
            "quote": "The Faro di Portonovo lighthouse was built in 1862"}


def test_a_miscited_quote_is_named_but_never_promoted_without_reanchoring() -> None:
    v = verify_answer(Q, "claim_lattice", [ev(), HARBOUR], {"claims": [MISCITED], "abstained_requests": []},
                      VerifierPolicy(reanchor_quotes=False))
    (c,) = v.claims
    assert Reason.QUOTE_IN_UNCITED_EVIDENCE in c.reasons
    assert any("E1" in note for note in c.notes)
    assert c.reanchored_from == [] and c.evidence_ids == ["E2"]
    assert c.verdict not in (Verdict.VERIFIED_QUOTE, Verdict.VERIFIED_SPAN) and v.label is Label.UNGROUNDED


def test_a_miscited_verbatim_quote_is_judged_against_the_block_that_holds_it() -> None:
    v = verify_answer(Q, "claim_lattice", [ev(), HARBOUR], {"claims": [MISCITED], "abstained_requests": []})
    (c,) = v.claims
    assert c.evidence_ids == ["E1"] and c.reanchored_from == ["E2"]
    assert any("re-anchored" in note and "E2" in note for note in c.notes)
    assert c.verdict is Verdict.VERIFIED_QUOTE and v.label is Label.STRICT
    assert v.verifier_policy_hash != verifier_policy_hash(VerifierPolicy(reanchor_quotes=False))


@pytest.mark.parametrize(
    ("claim", "evidence_ids"),
    [
        ("The lighthouse was built in 1870.", ["E2"]),  # the quote does not back the claim, wherever it is
        ("The lighthouse was not built in 1862.", ["E2"]),  # nor a reversed one
        ("The lighthouse was built in 1862.", ["E2", "E9"]),  # an id outside the evidence: no repair
        ("The lighthouse was built in 1862.", []),  # no citation at all: no repair
    ],
)
def test_reanchoring_never_verifies_what_the_quote_or_citation_does_not_carry(
    claim: str, evidence_ids: list[str]
) -> None:
    item = {**MISCITED, "text": claim, "evidence_ids": evidence_ids}
    v = verify_answer(Q, "claim_lattice", [ev(), HARBOUR], {"claims": [item], "abstained_requests": []})
    assert v.claims[0].verdict not in (Verdict.VERIFIED_QUOTE, Verdict.VERIFIED_SPAN)
    assert v.label is not Label.STRICT


def test_a_claim_citing_every_block_is_narrowed_to_the_one_that_holds_its_quote() -> None:
    blocks = [ev(), HARBOUR, ev("The museum shows nets.", "Museum", "E3"), ev("Boats sail at dawn.", "Boats", "E4")]
    item = {**MISCITED, "evidence_ids": ["E2", "E3", "E4", "E1"]}
    v = verify_answer(Q, "claim_lattice", blocks, {"claims": [item], "abstained_requests": []})
    assert v.claims[0].evidence_ids == ["E1"] and v.claims[0].reanchored_from == ["E2", "E3", "E4", "E1"]
    assert v.label is Label.STRICT
    off = verify_answer(Q, "claim_lattice", blocks, {"claims": [item], "abstained_requests": []},
                        VerifierPolicy(reanchor_quotes=False))
    assert Reason.TOO_MANY_EVIDENCE_IDS in off.claims[0].reasons and off.label is not Label.STRICT


def test_reanchoring_only_adds_a_verification_never_takes_one_away() -> None:
    # the claim is carried by a span of the block it cites; its quote is another block's sentence
    item = {"text": "The harbour office opens at 8 a.m.", "evidence_ids": ["E2"],
            "quote": "The Faro di Portonovo lighthouse was built in 1862"}
    for policy in (VerifierPolicy(), VerifierPolicy(reanchor_quotes=False)):
        v = verify_answer("When does the harbour office open?", "claim_lattice", [ev(), HARBOUR],
                          {"claims": [item], "abstained_requests": []}, policy)
        assert v.claims[0].verdict is Verdict.VERIFIED_SPAN and v.claims[0].evidence_ids == ["E2"]
        assert v.claims[0].reanchored_from == []


def test_a_quote_in_no_block_is_not_reanchored() -> None:
    item = {**MISCITED, "quote": "The lighthouse was finished in 1862"}
    v = verify_answer(Q, "claim_lattice", [ev(), HARBOUR], {"claims": [item], "abstained_requests": []})
    assert v.claims[0].evidence_ids == ["E2"] and v.claims[0].reanchored_from == []
    assert v.label is Label.UNGROUNDED


def test_quote_mode_reanchors_a_miscited_quote_too() -> None:
    quotes = [{"evidence_id": "E2", "text": "The Faro di Portonovo lighthouse was built in 1862"}]
    v = verify_answer(Q, "quote", [ev(), HARBOUR], {"quotes": quotes})
    assert v.claims[0].evidence_ids == ["E1"] and v.claims[0].reanchored_from == ["E2"]
    assert v.claims[0].checks.quote.passed


# --- quotes as a reader reads them; a claim's numbers in its own quote or span ---------------------------------


@pytest.mark.parametrize(
    "quote",
    [
        "to the lantern room the best view on the coast according to the local tourist office",  # marks dropped
        "Visitors pay $29 for a guided climb \u2026 according to the local tourist office",  # unicode ellipsis
        "Visitors pay $29 for a guided climb . . . according to the local tourist office",  # spaced ellipsis
        "Visitors pay $29 for a guided climb (...) the \u201cbest view on the coast\u201d",
    ],
)
def test_quote_differing_only_typographically_is_found(quote: str) -> None:
    v = verify_answer(Q, "quote", [ev()], {"quotes": [{"evidence_id": "E1", "text": quote}]})
    assert v.claims[0].checks.quote.passed, v.claims[0].checks.quote.detail


def test_quote_with_other_words_is_still_not_found() -> None:
    quote = "to the lantern room the finest view on the coast"
    v = verify_answer(Q, "quote", [ev()], {"quotes": [{"evidence_id": "E1", "text": quote}]})
    assert v.claims[0].checks.quote.passed is False


SURVEY = "The survey ran from 2000 to 2005 in twelve towns. In 2004 the funding doubled."


def test_a_claim_number_found_elsewhere_in_the_chunk_does_not_verify_it() -> None:
    claim = {"text": "The survey ran from 2004 to 2005.", "evidence_ids": ["E1"], "quote": "The survey ran from 2000 to 2005"}
    v = verify_answer("When did the survey run?", "claim_lattice", [ev(SURVEY, title="Town survey")],
                      {"claims": [claim], "abstained_requests": []})
    (c,) = v.claims
    assert c.checks.quote.passed
    assert c.verdict not in (Verdict.VERIFIED_QUOTE, Verdict.VERIFIED_SPAN) and v.label is not Label.STRICT
    pointer_answer = pointer(("The survey ran from 2004 to 2005.", ["E1"]))
    p = verify_answer("When did the survey run?", "claim_lattice_pointer", [ev(SURVEY, title="Town survey")], pointer_answer)
    assert p.claims[0].verdict is not Verdict.VERIFIED_SPAN  # the window would cross a sentence end


# --- Rule 10: the question's slot ------------------------------------------------------------------------------


def test_when_question_answered_without_a_date_is_not_strict() -> None:
    v = verify_answer(Q, "claim_lattice_pointer", [ev()], pointer(("The lighthouse was built on a limestone cliff.", ["E1"])))
    assert v.claims[0].verdict is Verdict.VERIFIED_SPAN
    assert v.label is Label.HYBRID and Reason.SLOT_UNFILLED in v.reasons
    dated = verify_answer(Q, "claim_lattice_pointer", [ev()], pointer((GOOD, ["E1"])))
    assert dated.label is Label.STRICT and Reason.SLOT_UNFILLED not in dated.reasons
    off = verify_answer(Q, "claim_lattice_pointer", [ev()], pointer(("The lighthouse was built on a limestone cliff.", ["E1"])),
                        VerifierPolicy(slot_check=False))
    assert off.label is Label.STRICT


def test_a_question_that_ends_in_when_wants_a_date_too() -> None:
    # MuSiQue asks in statement order: "... another sport that was started when?"
    q = "The Portonovo lighthouse on the limestone cliff was built when?"
    v = verify_answer(q, "claim_lattice_pointer", [ev()], pointer(("The lighthouse was built on a limestone cliff.", ["E1"])))
    assert v.label is Label.HYBRID and Reason.SLOT_UNFILLED in v.reasons
    assert verify_answer(q, "claim_lattice_pointer", [ev()], pointer((GOOD, ["E1"]))).label is Label.STRICT
    what = verify_answer("What was built on the cliff when the port opened?", "claim_lattice_pointer", [ev()],
                         pointer(("The lighthouse was built on a limestone cliff.", ["E1"])))
    assert Reason.SLOT_UNFILLED not in what.reasons  # "when" inside a question that asks "what"


def test_how_many_wants_a_number_not_in_the_question() -> None:
    q = "How many metres out at sea can the lamp be seen?"
    v = verify_answer(q, "claim_lattice_pointer", [ev()], pointer(("The lamp can be seen from 1,200 metres out at sea.", ["E1"])))
    assert Reason.SLOT_UNFILLED not in v.reasons
    w = verify_answer(q, "claim_lattice_pointer", [ev()], pointer(("The lamp can be seen out at sea on a clear night.", ["E1"])))
    assert Reason.SLOT_UNFILLED in w.reasons and w.label is not Label.STRICT


def test_where_wants_a_place_a_name_or_a_bare_answer() -> None:
    text = "In American schools the paddle is applied to the seat of the trousers, privately in the principal's office."
    evidence = [{"id": "E1", "title": "Corporal punishment", "text": text}]
    q = "Where is corporal punishment usually performed these days?"

    def claim(said: str, quote: str) -> Verification:
        return verify_answer(q, "claim_lattice", evidence, {"claims": [{"text": said, "evidence_ids": ["E1"], "quote": quote}],
                                                            "abstained_requests": []})

    nearby = claim("the paddle is applied to the seat of the trousers", "the paddle is applied to the seat of the trousers")
    assert Reason.SLOT_UNFILLED in nearby.reasons and nearby.label is not Label.STRICT
    placed = claim("It is performed privately in the principal's office.", "privately in the principal's office")
    assert Reason.SLOT_UNFILLED not in placed.reasons
    bare = claim("the principal's office", "privately in the principal's office")
    assert Reason.SLOT_UNFILLED not in bare.reasons
    dated = claim("It was performed in 1950.", "In American schools the paddle is applied")
    assert Reason.SLOT_UNFILLED in dated.reasons


# --- the unverifiable answer ---------------------------------------------------------------------------------


def test_unverifiable_verification_is_built_in_verify() -> None:
    from arborist.verify import Verification

    v = Verification.unverifiable(Q, "claim_lattice", "contract PARSE_FAILURE: nothing to verify")
    assert v.label is Label.UNGROUNDED and v.audit_mode is AuditMode.UNLINKED
    assert (v.n_verified, v.n_claims, v.claims) == (0, 0, [])
    assert v.verifier_policy_hash == verifier_policy_hash() and v.notes == ["contract PARSE_FAILURE: nothing to verify"]
    old = json.loads(v.model_dump_json())
    old["n_quotes"] = old.pop("n_claims")  # a record stored before the rename still loads
    assert Verification.model_validate(old).n_claims == 0


def test_rule_8_reads_an_abbreviation_the_chunk_defines_in_either_form() -> None:
    text = "The American Broadcasting Company (ABC) is headquartered in Manhattan."
    answer = {"claims": [{"text": "ABC is headquartered in Manhattan.", "evidence_ids": ["E1"],
                          "quote": "The American Broadcasting Company (ABC) is headquartered in Manhattan"}],
              "abstained_requests": []}
    ev = [{"id": "E1", "title": "American_Broadcasting_Company", "text": text}]
    v = verify_answer("In what borough is ABC headquartered?", "claim_lattice", ev, answer)
    assert v.label is Label.STRICT and Reason.TITLE_IRRELEVANT not in v.reasons
    short = [{"id": "E1", "title": "ABC", "text": text}]
    v = verify_answer("Where is the American Broadcasting Company headquartered?", "claim_lattice", short, answer)
    assert Reason.TITLE_IRRELEVANT not in v.reasons
    defined = [{"id": "E1", "title": "American_Broadcasting_Company", "text": "Its offices are in Manhattan."}]
    said = {"claims": [{"text": "Its offices are in Manhattan.", "evidence_ids": ["E1"],
                        "quote": "Its offices are in Manhattan"}], "abstained_requests": []}
    v = verify_answer("Where does the American Broadcasting Company (ABC) sit?", "claim_lattice", defined, said)
    assert Reason.TITLE_IRRELEVANT not in v.reasons  # the question defines ABC; the title holds its long form
    v = verify_answer("Where does ABC sit?", "claim_lattice", defined, said)
    assert Reason.TITLE_IRRELEVANT in v.reasons  # an abbreviation nobody defines is not read into the title


def test_a_title_never_stands_in_for_the_name_its_quote_states() -> None:
    quote = "In 1934, Mutual filed a complaint with the Federal Communications Commission (FCC)"
    ev = [{"id": "E1", "title": "American_Broadcasting_Company", "text": quote + " about new stations."}]
    swapped = {"claims": [{"text": "American Broadcasting Company filed a complaint with the FCC in 1934.",
                           "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    v = verify_answer("Who filed a complaint with the FCC in 1934?", "claim_lattice", ev, swapped)
    assert v.label is not Label.STRICT
    it = [{"id": "E1", "title": "Mutual Broadcasting System", "text": "In 1934, it filed a complaint with the FCC."}]
    named = {"claims": [{"text": "Mutual filed a complaint with the FCC in 1934.", "evidence_ids": ["E1"],
                         "quote": "In 1934, it filed a complaint with the FCC."}], "abstained_requests": []}
    v = verify_answer("Who filed a complaint with the FCC in 1934?", "claim_lattice", it, named)
    assert v.claims[0].verdict is Verdict.VERIFIED_QUOTE  # the title names what the quote calls "it"


def test_a_title_adds_no_name_to_a_quote_that_refers_to_nothing() -> None:
    # SciFact-like: the paper's title names ATF4; its sentence about ER stress never refers to it
    quote = "General endoplasmic reticulum stress markers rise in beta cells."
    ev = [{"id": "E1", "title": "ATF4 in beta cells", "text": quote}]
    claim = "The protein ATF4 is a general endoplasmic reticulum stress marker."
    said = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    v = verify_answer(claim, "claim_lattice", ev, said)
    assert v.claims[0].verdict is not Verdict.VERIFIED_QUOTE
    assert v.label is not Label.STRICT
    assert verifier_policy_hash(VerifierPolicy(anaphor_words=())) != verifier_policy_hash()
    referring = "It is induced by ER stress in beta cells."
    ev = [{"id": "E1", "title": "ATF4 in beta cells", "text": referring}]
    said = {"claims": [{"text": "ATF4 is induced by ER stress in beta cells.", "evidence_ids": ["E1"],
                        "quote": referring}], "abstained_requests": []}
    v = verify_answer("What induces ATF4 in beta cells?", "claim_lattice", ev, said)
    assert v.claims[0].verdict is Verdict.VERIFIED_QUOTE  # "it" is what the title names


def test_a_bare_answer_needs_a_quote_that_holds_it_and_speaks_of_the_question() -> None:
    text = ("ABC is owned by The Walt Disney Company. In the 1980s the network's parent merged with "
            "Capital Cities Communications.")
    ev = [{"id": "E1", "title": "ABC network", "text": text}]
    question = "What company did the network's parent merge with in the 1980s?"

    def answer(claim: str, quote: str) -> dict[str, object]:
        return {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}

    wrong = verify_answer(question, "claim_lattice", ev, answer("The Walt Disney Company", "ABC is owned by The Walt Disney Company"))
    assert wrong.label is not Label.STRICT and Reason.BARE_ANSWER in wrong.claims[0].reasons
    spanned = verify_answer(question, "claim_lattice", ev, answer("The Walt Disney Company", ""))
    assert spanned.claims[0].verdict is not Verdict.VERIFIED_SPAN
    right = verify_answer(question, "claim_lattice", ev, answer(
        "Capital Cities Communications", "In the 1980s the network's parent merged with Capital Cities Communications"))
    assert right.label is Label.STRICT, right.reasons


def test_a_bare_answer_is_read_with_the_sentence_its_quote_refers_back_to() -> None:
    text = ("Five launches of boilerplate CSMs went into orbit in 1964 and 1965. The last three of these also "
            "carried Pegasus satellites. Engineers measured micrometeorite impacts.")
    ev = [{"id": "E1", "title": "Apollo program", "text": text}]
    question = "What did the last few of the boilerplate CSM launches carry?"

    def answer(quote: str) -> dict[str, object]:
        return {"claims": [{"text": "Pegasus satellites", "evidence_ids": ["E1"], "quote": quote}],
                "abstained_requests": []}

    referring = verify_answer(question, "claim_lattice", ev, answer("The last three of these also carried Pegasus satellites"))
    assert referring.label is Label.STRICT, referring.claims[0].reasons
    alone = verify_answer(question, "claim_lattice", [{"id": "E1", "title": "Apollo program", "text": (
        "Five launches of boilerplate CSMs went into orbit in 1964 and 1965. Later rockets carried Pegasus satellites.")}],
        answer("Later rockets carried Pegasus satellites"))
    assert alone.label is not Label.STRICT and Reason.BARE_ANSWER in alone.claims[0].reasons


def _restating(question: str, claim: str, quote: str) -> Verification:
    judge = PairJudge(JudgeSpec(kind="local", model="table", sha256="1" * 64, threshold=0.85), {}, 0.0)
    ev = [{"id": "E1", "title": "Help centre", "text": f"Admins manage the workspace. {quote} Ask support."}]
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    return verify_answer(question, "claim_lattice", ev, answer, judge=judge)


TRASH = "Deleted documents stay in the trash for 21 days, during which any admin can restore them."


def test_an_answer_restating_its_question_is_read_as_the_question_s_premise() -> None:
    echoed = _restating("How long is the refund window for annual plans?", "The refund window for annual plans is 30 days.",
                        "A new annual subscription on the Team plan can be refunded in full if the customer asks "
                        "within 30 days of the start of the annual term.")
    assert echoed.label is Label.STRICT and echoed.basis == "quoted", echoed.claims[0].reasons
    assert "the claim's 'window' is the question's word" in echoed.claims[0].notes[-1]
    # a verb of the question's description may be the question's
    described = _restating("Which company sponsored a contest called Big Game?",
                           "QuickBooks sponsored a contest called Big Game.",
                           "QuickBooks sponsored a Big Game contest for small firms.")
    assert described.label is Label.STRICT, described.claims[0].reasons


@pytest.mark.parametrize(
    ("question", "claim", "quote"),
    [
        # a yes/no question asks about its words: they are not given
        ("Is the refund window for annual plans 30 days?", "The refund window for annual plans is 30 days.",
         "Annual plans can be refunded in full within 30 days."),
        # a word that narrows another may pick another thing than the quote's, even where it picks the same one
        ("How long do deleted documents stay in the workspace trash?",
         "Deleted documents stay in the workspace trash for 21 days.", TRASH),
        ("How tall is the north tower?", "The north tower is 90 meters tall.", "The tower is 90 meters tall."),
        ("How many stolen cars did police recover?", "Police recovered 300 stolen cars.", "Police recovered 300 cars."),
        ("What is the maximum daily dose?", "The maximum daily dose is 4 grams.", "The daily dose is 4 grams."),
        # the verb the claim asserts, even after a participle ("the upgraded reactor")
        ("Which company supplies the upgraded reactor?", "The firm supplies the upgraded reactor.",
         "The upgraded reactor is inspected by the firm."),
        # a clause about something else, in a one-sentence quote
        ("Which patients does the clinic treat?", "The clinic treats children with asthma.",
         "The clinic, which opened near the old mill after years of delays, treats adults, while the new hospital "
         "across the river treats children with asthma."),
        # a word standing where the quote has another, after it or before it
        ("What does the red light on the router mean?", "The red light on the router means the link failed.",
         "A blinking light on the router means the link failed."),
        ("How long is the refund window for annual plans?", "The refund window for annual plans is 60 days.",
         "The refund window for annual subscriptions is 60 days."),
        # the verb the claim asserts: the relation asked is the quote's to state
        ("Who played the singer in the film?", "Joaquin Phoenix played the singer in the film.",
         "The singer's songs in the film were recorded by Joaquin Phoenix."),
        # a name's words, past a hyphen too
        ("Who is the wife of Kim Jong-chul?", "Kim Jong-suk is the wife of Kim Jong-chul.",
         "Kim Jong-suk is the wife of Kim Jong-il."),
        ("Who is the wife of Kim Jong-chul?", "Kim Jong-suk is the wife of Kim Jong-chul.", "Kim Jong-suk was the first wife."),
        # a part of the claim made of the question's words alone
        ("How many deaths did the vaccine prevent in children?", "The vaccine prevented 300 deaths in children.",
         "The vaccine prevented 300 deaths in adults."),
        # a quote on another topic: it must hold half of the question's content words
        ("How long do deleted documents stay in the workspace trash?",
         "Deleted documents stay in the workspace trash for 21 days.",
         "Archived files stay for 21 days, during which any admin can restore them."),
    ],
)
def test_what_a_question_never_supplies_to_its_answer(question: str, claim: str, quote: str) -> None:
    assert _restating(question, claim, quote).label is not Label.STRICT


def test_rule_11_an_answer_about_something_else_is_not_strict() -> None:
    text = ("The Greek economy is classified as advanced and high-income. Greece adopted the euro in 2001. "
            "The rapper Signmark is from Greece.")
    ev = [{"id": "E1", "title": "Greece", "text": text}]

    def answer(claim: str, quote: str) -> dict[str, object]:
        return {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}

    question = "What currency predated the euro in the country Signmark is from?"
    off = verify_answer(question, "claim_lattice", ev, answer(
        "The Greek economy is classified as advanced and high-income.",
        "The Greek economy is classified as advanced and high-income"))
    assert off.claims[0].verdict is Verdict.VERIFIED_QUOTE and off.label is Label.HYBRID
    assert Reason.OFF_TOPIC in off.reasons
    on = verify_answer(question, "claim_lattice", ev, answer("Greece adopted the euro in 2001.",
                                                             "Greece adopted the euro in 2001"))
    assert Reason.OFF_TOPIC not in on.reasons
    # (it never says where Signmark is from: Rule 12 keeps it from STRICT; with the bridge it is STRICT)
    assert on.label is Label.HYBRID and Reason.QUESTION_TERMS_ABSENT in on.reasons
    bridged = verify_answer(question, "claim_lattice", ev, {"claims": [
        {"text": "The rapper Signmark is from Greece.", "evidence_ids": ["E1"],
         "quote": "The rapper Signmark is from Greece"},
        {"text": "Greece adopted the euro in 2001.", "evidence_ids": ["E1"], "quote": "Greece adopted the euro in 2001"},
    ], "abstained_requests": []})
    assert bridged.label is Label.STRICT
    unchecked = verify_answer(question, "claim_lattice", ev, answer(
        "The Greek economy is classified as advanced and high-income.",
        "The Greek economy is classified as advanced and high-income"),
        VerifierPolicy(topic_check=False, question_terms_check=False))
    assert unchecked.label is Label.STRICT


def test_rule_11_a_claim_that_states_only_the_clause_describing_the_subject_is_not_strict() -> None:
    """A multi-hop question names its subject through another fact; stating that fact answers the description
    ("which country?"), not the question ("which bridge?")."""
    text = ("The Mura River flows through Slovenia. The Puch Bridge crosses the Mura at Ptuj. "
            "Ljubljana is the capital of Slovenia.")
    ev = [{"id": "E1", "title": "Mura", "text": text}]

    def answer(claim: str) -> dict[str, object]:
        return {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": claim.rstrip(".")}],
                "abstained_requests": []}

    question = "What is the oldest bridge in the country where the Mura River flows?"
    hop = verify_answer(question, "claim_lattice", ev, answer("The Mura River flows through Slovenia."))
    assert hop.claims[0].verdict is Verdict.VERIFIED_QUOTE and hop.label is Label.HYBRID
    assert Reason.OFF_TOPIC in hop.reasons and any("bridg" in n for n in hop.notes)
    # the same claim answers a question that describes nothing, and a claim about what is asked stays STRICT
    plain = verify_answer("Where does the Mura River flow?", "claim_lattice", ev,
                          answer("The Mura River flows through Slovenia."))
    assert Reason.OFF_TOPIC not in plain.reasons
    asked = verify_answer(question, "claim_lattice", ev, answer("The Puch Bridge crosses the Mura at Ptuj."))
    assert Reason.OFF_TOPIC not in asked.reasons


@pytest.mark.parametrize(("question", "asked"), [
    ("What is the name of the waterfall in the country where the river is found?",
     "What is the name of the waterfall in the country "),
    ("What is the limit of the continent with the lowest temperature?", "What is the limit of the continent "),
    ("Who was the king who ordered the tower?", "Who was the king "),
    ("What network showed a Doctor Who film?", "What network showed a Doctor Who film?"),  # a name, not a clause
    ("Who did Jamukha support?", "Who did Jamukha support?"),
])
def test_asked_part_leaves_out_the_clause_that_describes_the_subject(question: str, asked: str) -> None:
    assert asked_part(question) == asked


def test_rule_12_the_questions_names_and_years_must_be_in_the_cited_evidence() -> None:
    text = "Tesla demonstrated alternating current to the American Institute of Electrical Engineers in New York."
    ev = [{"id": "E1", "title": "Nikola Tesla", "text": text}]
    claim = "Tesla demonstrated alternating current to the American Institute of Electrical Engineers."
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": text}], "abstained_requests": []}
    v = verify_answer("To what Philadelphia institution did Tesla demonstrate alternating current?",
                      "claim_lattice", ev, answer)
    assert v.label is Label.HYBRID and Reason.QUESTION_TERMS_ABSENT in v.reasons
    assert any("Philadelphia" in n for n in v.notes)
    v = verify_answer("What did Tesla demonstrate in 1888?", "claim_lattice", ev, answer)
    assert Reason.QUESTION_TERMS_ABSENT in v.reasons  # a year the evidence never states
    v = verify_answer("To what New York institution did Tesla demonstrate alternating current?",
                      "claim_lattice", ev, answer)
    assert v.label is Label.STRICT
    v = verify_answer("A customer paid $4,000. What did Tesla demonstrate?", "claim_lattice", ev, answer)
    assert Reason.QUESTION_TERMS_ABSENT not in v.reasons  # the asker's own amounts are not looked up


def test_rule_12_a_decade_of_the_question_is_stated_by_itself_or_a_year_in_it() -> None:
    text = ("In 1984 the network bought a majority stake in the sports channel ESPN. "
            "In 1995 it launched a cable news service.")
    ev = [{"id": "E1", "title": "Broadcasting history", "text": text}]

    def answer(claim: str, quote: str) -> dict[str, object]:
        return {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}

    question = "In the 1980s, what cable channel did the network buy?"
    outside = verify_answer(question, "claim_lattice", ev, answer(
        "The network launched a cable news service in 1995.", "In 1995 it launched a cable news service"))
    assert outside.claims[0].verdict is Verdict.VERIFIED_QUOTE  # a true claim, but of another decade
    assert outside.label is Label.HYBRID and Reason.QUESTION_TERMS_ABSENT in outside.reasons
    assert any("1980s" in n for n in outside.notes)
    inside = verify_answer(question, "claim_lattice", ev, answer(
        "In 1984 the network bought a stake in the sports channel ESPN.",
        "In 1984 the network bought a majority stake in the sports channel ESPN"))
    assert inside.label is Label.STRICT
    named = verify_answer("What cable channel did the network buy in the 1990s?", "claim_lattice",
                          [{"id": "E1", "title": "t", "text": "During the 1990s the network bought ESPN."}],
                          answer("The network bought ESPN in the 1990s.", "During the 1990s the network bought ESPN"))
    assert named.label is Label.STRICT
    century = verify_answer("What did the network buy in the 1800s?", "claim_lattice",
                            [{"id": "E1", "title": "t", "text": "In 1856 the network bought a telegraph line."}],
                            answer("The network bought a telegraph line in 1856.",
                                   "In 1856 the network bought a telegraph line"))
    assert century.label is Label.STRICT  # "the 1800s" read as the century holds 1856
    apostrophe = verify_answer("In the 1980's, what cable channel did the network buy?", "claim_lattice", ev, answer(
        "In 1984 the network bought a stake in the sports channel ESPN.",
        "In 1984 the network bought a majority stake in the sports channel ESPN"))
    assert apostrophe.label is Label.STRICT  # "1980's" is the decade, not the year 1980
    assert verify_answer("In the 1980\u2019s, what cable channel did the network buy?", "claim_lattice", ev, answer(
        "The network launched a cable news service in 1995.", "In 1995 it launched a cable news service",
    )).label is Label.HYBRID
    count = verify_answer("How did 1000s of workers travel?", "claim_lattice",
                          [{"id": "E1", "title": "t", "text": "Workers travelled by the night train."}],
                          answer("Workers travelled by the night train.", "Workers travelled by the night train"))
    assert Reason.QUESTION_TERMS_ABSENT not in count.reasons  # "1000s" counts thousands, not a time


def test_rule_12_a_name_elsewhere_in_the_quoted_chunk_does_not_count() -> None:
    # The chunk mentions Philadelphia, but the quote backing the answer speaks of New York.
    quote = "Tesla demonstrated alternating current to the American Institute of Electrical Engineers in New York."
    text = f"{quote} Years later he lectured at the Franklin Institute in Philadelphia on high-frequency lighting."
    ev = [{"id": "E1", "title": "Nikola Tesla", "text": text}]
    claim = "Tesla demonstrated alternating current to the American Institute of Electrical Engineers."
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    question = "To what Philadelphia institution did Tesla demonstrate alternating current?"
    v = verify_answer(question, "claim_lattice", ev, answer)
    assert v.label is Label.HYBRID and Reason.QUESTION_TERMS_ABSENT in v.reasons
    # quoting the sentence that names the place is enough
    right = {"claims": [{"text": "Tesla lectured at the Franklin Institute.", "evidence_ids": ["E1"],
                         "quote": "he lectured at the Franklin Institute in Philadelphia"}], "abstained_requests": []}
    assert verify_answer(question, "claim_lattice", ev, right).label is Label.STRICT
    # a pointer-mode answer quotes nothing: the chunk it cites is what it rests on
    assert verify_answer(question, "claim_lattice_pointer", ev, pointer((claim, ["E1"]))).label is Label.STRICT


def test_a_superlative_or_exclusive_word_the_quote_lacks_is_never_verified() -> None:
    text = ("The United Methodist Church is the largest denomination within the wider Methodist movement. "
            "Barratt's Chapel in Delaware is the oldest Methodist church in continuous use in the United States.")
    ev = [{"id": "E1", "title": "United Methodist Church", "text": text}]
    quote = "The United Methodist Church is the largest denomination within the wider Methodist movement"

    def claim(words: str, q: str = quote) -> Verification:
        answer = {"claims": [{"text": words, "evidence_ids": ["E1"], "quote": q}], "abstained_requests": []}
        return verify_answer("Which Methodist church is the oldest in the United States?", "claim_lattice", ev, answer)

    v = claim("The United Methodist Church is the oldest denomination within the Methodist movement.")
    assert v.claims[0].verdict is not Verdict.VERIFIED_QUOTE and v.label is not Label.STRICT and Reason.QUALIFIER_UNSTATED in v.claims[0].reasons
    assert any("oldest" in n for n in v.claims[0].notes)
    assert claim("The United Methodist Church is the only denomination within the Methodist movement.").label \
        is not Label.STRICT
    assert claim("The United Methodist Church is the largest denomination within the Methodist movement.") \
        .claims[0].verdict is Verdict.VERIFIED_QUOTE
    # the list is a policy value: emptied, the same claim is judged on its other words only
    off = verify_answer("Which Methodist church is the oldest in the United States?", "claim_lattice", ev,
                        {"claims": [{"text": "The United Methodist Church is the only denomination within the "
                                     "Methodist movement.", "evidence_ids": ["E1"], "quote": quote}],
                         "abstained_requests": []}, VerifierPolicy(qualifier_words=()))
    assert off.claims[0].verdict is Verdict.VERIFIED_QUOTE
    assert verifier_policy_hash(VerifierPolicy(qualifier_words=())) != verifier_policy_hash()


# --- Rule 13: the evidence does not speak of the question ------------------------------------------

SAXBY = "At the 2011 census, what was the population of the city where Kerry Saxby-Junna was born?"
NEARBY = [
    {"id": "E1", "title": "Wagga Wagga", "text": "Wagga Wagga is a city in New South Wales. At the 2011 census "
     "the city had a population of 46,913."},
    {"id": "E2", "title": "Race walking", "text": "Race walking is a long-distance discipline of athletics."},
]
GUESS = {"claims": [{"text": "The population of the city where Kerry Saxby-Junna was born was 141.",
                     "evidence_ids": ["E1"], "quote": "the city had a population of 46,913"}],
         "abstained_requests": []}
# the corpus's inverse document frequencies: the walker's name is rare, "city" and "population" are common
WEIGHTS = {"2011": 1.0, "census": 1.0, "popul": 0.3, "citi": 0.2, "kerri": 4.0, "saxbi": 4.0, "junna": 4.0,
           "born": 0.5}


def test_an_answer_over_evidence_that_never_speaks_of_the_question_is_withheld() -> None:
    v = verify_answer(SAXBY, "claim_lattice", NEARBY, GUESS, VerifierPolicy(), WEIGHTS)
    assert v.label is Label.ABSTAINED and Reason.EVIDENCE_DOES_NOT_ANSWER in v.reasons
    assert v.audit_mode is AuditMode.ABSTENTION
    assert v.claims and v.claims[0].text.startswith("The population")  # the draft is kept, unverified
    assert v.answerability is not None and v.answerability.evidence_id == "E1"
    assert v.answerability.coverage < 0.4 and v.answerability.missing[:3] == ["junna", "kerri", "saxbi"]
    assert any(n.startswith("Rule 13") for n in v.notes)
    # no corpus weights (a bare `arborist verify`): the rule does not run; switched off: neither
    assert verify_answer(SAXBY, "claim_lattice", NEARBY, GUESS).label is Label.UNGROUNDED
    off = VerifierPolicy(answerability_threshold=0)
    assert verify_answer(SAXBY, "claim_lattice", NEARBY, GUESS, off, WEIGHTS).label is Label.UNGROUNDED
    assert verifier_policy_hash(off) != verifier_policy_hash()


def test_rule_13_weighs_rare_words_and_reads_the_title() -> None:
    # the same evidence with the walker's page: its sentence says "she", its title names her
    walker = {"id": "E3", "title": "Kerry Saxby-Junna", "text": "She was born in Ballina in 1961."}
    v = verify_answer(SAXBY, "claim_lattice", [*NEARBY, walker], GUESS, VerifierPolicy(), WEIGHTS)
    assert v.label is Label.UNGROUNDED and v.answerability is not None
    assert v.answerability.evidence_id == "E3" and v.answerability.answers
    # unweighted, the census sentence holds 4 of 8 words and would pass; weighted, it holds little
    words_only = VerifierPolicy(answerability_names=False)  # the weights alone, not the name nobody states
    flat = dict.fromkeys(WEIGHTS, 1.0)
    assert verify_answer(SAXBY, "claim_lattice", NEARBY, GUESS, words_only, flat).label is Label.UNGROUNDED
    assert verify_answer(SAXBY, "claim_lattice", NEARBY, GUESS, words_only, WEIGHTS).label is Label.ABSTAINED
    # a word the weights do not know weighs as much as the heaviest one they give
    partial = {k: w for k, w in WEIGHTS.items() if k != "kerri"}
    v = verify_answer(SAXBY, "claim_lattice", NEARBY, GUESS, words_only, partial)
    assert v.label is Label.ABSTAINED


def test_rule_13_withholds_an_answer_when_no_block_names_what_the_question_asks_about() -> None:
    question = "Which German city hosted the 2011 census of Wagga Wagga?"
    ev = [{"id": "E1", "title": "Wagga Wagga", "text": "Wagga Wagga is a city in New South Wales. At the 2011 "
           "census the city had a population of 46,913, many of them born in Germany."}]
    said = {"claims": [{"text": "Berlin hosted the census.", "evidence_ids": ["E1"], "quote": "the census"}],
            "abstained_requests": []}
    flat = {"german": 1.0, "citi": 1.0, "host": 1.0, "2011": 1.0, "census": 1.0, "wagga": 1.0}
    v = verify_answer(question, "claim_lattice", ev, said, VerifierPolicy(), flat)
    assert v.answerability is not None and v.answerability.coverage >= 0.4
    assert v.answerability.absent_terms == [] and v.label is Label.UNGROUNDED  # "German" is read in "Germany"
    asked = question.replace("2011", "1878")  # a year no block states
    v = verify_answer(asked, "claim_lattice", ev, said, VerifierPolicy(), {**flat, "1878": 1.0})
    assert v.answerability is not None and v.answerability.absent_terms == ["1878"]
    assert v.label is Label.ABSTAINED and "names the question's 1878" in " ".join(v.notes)
    off = VerifierPolicy(answerability_names=False)
    assert verify_answer(asked, "claim_lattice", ev, said, off, {**flat, "1878": 1.0}).label is Label.UNGROUNDED


def test_rule_13_never_withholds_a_strict_answer() -> None:
    said = {"claims": [{"text": "At the 2011 census the city had a population of 46,913.", "evidence_ids": ["E1"],
                        "quote": "At the 2011 census the city had a population of 46,913."}],
            "abstained_requests": []}
    v = verify_answer(SAXBY, "claim_lattice", NEARBY, said, VerifierPolicy(question_terms_check=False), WEIGHTS)
    assert v.label is Label.STRICT and v.answerability is not None and not v.answerability.answers


def test_an_irregular_verb_form_is_its_verb() -> None:
    text = "Manning finished the year throwing for 2,249 yards and nine touchdowns."
    ev = [{"id": "E1", "title": "Peyton Manning", "text": text}]

    def label(claim: str) -> Label:
        answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": text}], "abstained_requests": []}
        return _restating_judge_label(ev, answer)

    assert label("Manning threw for 2,249 yards.") is Label.STRICT  # "threw" is "throw", as "throwing" is
    assert label("Manning founded 2,249 yards.") is not Label.STRICT  # "founded" is not "found" (find)


def _restating_judge_label(ev: list[dict[str, str]], answer: dict[str, object]) -> Label:
    judge = PairJudge(JudgeSpec(kind="local", model="table", sha256="1" * 64, threshold=0.85), {}, 0.0)
    return verify_answer("How many yards did Manning throw?", "claim_lattice", ev, answer, judge=judge).label


def test_a_claim_longer_than_the_verifier_reads_restates_nothing_from_its_question() -> None:
    from arborist.verify.reading import MAX_TOKENS

    claim = "The refund window for annual plans is 30 days " + "and more words here " * (MAX_TOKENS // 4 + 5)
    quote = "A new annual subscription can be refunded within 30 days."
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    judge = PairJudge(JudgeSpec(kind="local", model="table", sha256="1" * 64, threshold=0.85), {}, 0.0)
    v = verify_answer("How long is the refund window for annual plans?", "claim_lattice",
                      [{"id": "E1", "title": "Refunds", "text": quote}], answer, judge=judge)
    assert v.label is not Label.STRICT
