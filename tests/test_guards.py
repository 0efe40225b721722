"""The missed-answer guard: fires on the Ballestrini fixture, stays silent on genuine absence, never promotes."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from arborist.verify import AuditMode, Label, Reason, VerifierPolicy, find_denials, verify_answer

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "verify"
SONGS = ["Vento di Sale", "Notte Chiara", "Il Faro"]


def load(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def run(case: dict, **policy: object):
    return verify_answer(case["question"], case["mode"], case["evidence"], case["answer"], VerifierPolicy(**policy))


@pytest.fixture
def missed() -> dict:
    return load("ballestrini_missed.json")


@pytest.fixture
def absent() -> dict:
    return load("ballestrini_absent.json")


def test_ballestrini_fires_with_the_three_song_spans(missed: dict) -> None:
    v = run(missed)
    g = v.guard
    assert g.answerability_warning
    assert [text for _, _, text in g.missed_answer_candidate_spans] == SONGS
    text = missed["evidence"][0]["text"]
    for eid, offset, span in g.missed_answer_candidate_spans:
        assert eid == "E1" and text[offset : offset + len(span)] == span
    assert g.denials == ["abstained_requests[0]: 'does not mention'"]
    assert Reason.MISSED_ANSWER_SUSPECTED in v.reasons


def test_genuine_absence_stays_silent(absent: dict) -> None:
    v = run(absent)
    assert v.guard.answerability_warning is False
    assert v.guard.missed_answer_candidate_spans == []
    assert v.guard.denials  # the denial was seen; there is just nothing it missed
    assert Reason.MISSED_ANSWER_SUSPECTED not in v.reasons
    assert run(absent, demote_missed_answer=True).audit_mode is AuditMode.WARRANTED


@pytest.mark.parametrize("question", ["what songs did marta ballestrini record", "Songs by Marta Ballestrini",
                                      "List all songs by Marta Ballestrini"])
def test_question_variants_fire_and_stay_silent_alike(missed: dict, absent: dict, question: str) -> None:
    missed["question"] = absent["question"] = question
    assert [t for _, _, t in run(missed).guard.missed_answer_candidate_spans] == SONGS
    assert run(absent).guard.answerability_warning is False


def test_full_abstention_fires_and_keeps_label_abstained(missed: dict) -> None:
    missed["answer"]["claims"] = []
    v = run(missed)
    assert v.label is Label.ABSTAINED and v.guard.answerability_warning
    demoted = run(missed, demote_missed_answer=True)
    assert demoted.label is Label.ABSTAINED
    assert demoted.audit_mode is AuditMode.MISSED_PARTIAL


def test_denial_inside_a_claim_fires(missed: dict) -> None:
    missed["answer"] = {
        "claims": [{"text": "The provided evidence does not say which songs she recorded.", "evidence_ids": ["E1"],
                    "quote": ""}],
        "abstained_requests": [],
    }
    v = run(missed)
    assert v.guard.answerability_warning and v.guard.denials[0].startswith("claims[0].text")
    assert v.label is Label.UNGROUNDED


def test_yes_no_question_stays_silent(missed: dict) -> None:
    missed["question"] = "Is Marta Ballestrini Italian?"
    v = run(missed)
    assert not v.guard.answerability_warning and "yes/no" in v.guard.detail


def test_no_denial_stays_silent(missed: dict) -> None:
    missed["answer"]["abstained_requests"] = []
    v = run(missed)
    assert not v.guard.answerability_warning and v.guard.denials == []


def test_candidates_must_be_near_a_subject_token(missed: dict) -> None:
    filler = " The weather was mild and the sea was calm for many weeks." * 6
    missed["evidence"][0]["text"] = (
        "Marta Ballestrini (born 1971) is an Italian singer from Ancona." + filler
        + ' Her singles include "Vento di Sale", "Notte Chiara" and "Il Faro".'
    )
    assert not run(missed).guard.answerability_warning
    assert run(missed, guard_proximity_runes=1000).guard.answerability_warning


def test_candidates_the_answer_already_states_do_not_count(missed: dict) -> None:
    missed["answer"]["claims"] = [
        {"text": f"She recorded {song}.", "evidence_ids": ["E1"], "quote": ""} for song in SONGS
    ]
    v = run(missed)
    assert not v.guard.answerability_warning and "already stated" in v.guard.detail


def test_unquoted_title_case_list_fires(missed: dict) -> None:
    missed["evidence"][0]["text"] = (
        "Marta Ballestrini is an Italian singer. Her albums are Mare Aperto, Luna Nuova and Porto Antico."
    )
    missed["question"] = "What albums did Marta Ballestrini release?"
    spans = [t for _, _, t in run(missed).guard.missed_answer_candidate_spans]
    assert spans == ["Mare Aperto", "Luna Nuova", "Porto Antico"]


def test_name_in_a_sentence_with_the_question_predicate_fires() -> None:
    evidence = [{"id": "E1", "title": "Il Faro (song)",
                 "text": "Il Faro is a ballad by Marta Ballestrini. The song was composed by Bruno Ferretti in 1998."}]
    answer = {"claims": [], "abstained_requests": ["The evidence does not name who composed Il Faro."]}
    v = verify_answer("Who composed Il Faro?", "claim_lattice", evidence, answer)
    assert v.guard.answerability_warning
    assert [t for _, _, t in v.guard.missed_answer_candidate_spans] == ["Bruno Ferretti"]


def test_demote_knob_changes_only_the_audit_mode_and_never_promotes(missed: dict) -> None:
    answers = [
        missed["answer"],  # STRICT + partial abstention
        {"claims": [], "abstained_requests": ["No information about her songs is provided."]},  # ABSTAINED
        {"claims": [{"text": "No specific songs are mentioned.", "evidence_ids": ["E1"]}]},  # UNGROUNDED
        {"claims": [{"text": "No specific songs are mentioned.", "evidence_ids": ["E9"]}]},  # UNGROUNDED, unlinked
    ]
    for answer in answers:
        case = {**copy.deepcopy(missed), "answer": answer}
        off, on = run(case), run(case, demote_missed_answer=True)
        assert off.guard.answerability_warning and on.guard.answerability_warning
        assert on.label is off.label
        assert off.audit_mode is not AuditMode.MISSED_PARTIAL
        assert on.audit_mode is AuditMode.MISSED_PARTIAL
        assert on.guard == off.guard and on.claims == off.claims
    assert run(missed).label is Label.STRICT
    assert run(missed, demote_missed_answer=True).label is Label.STRICT


def test_knob_on_without_a_warning_changes_nothing(absent: dict) -> None:
    off, on = run(absent), run(absent, demote_missed_answer=True)
    assert (on.label, on.audit_mode) == (off.label, off.audit_mode)


@pytest.mark.parametrize(
    "text",
    [
        "The songs are not mentioned.",
        "Her songs are not provided in the evidence.",
        "The evidence does not say which songs she recorded.",
        "No specific songs are listed.",
        "I cannot determine from the provided evidence which songs she recorded.",
        "The context doesn't mention her songs.",
        "There is no information about her recordings.",
        "It can't be determined from the passages.",
        "The passages lack information on her discography.",
        "Song titles are not specified.",
    ],
)
def test_denial_patterns(text: str) -> None:
    assert find_denials([("x", text)])


@pytest.mark.parametrize(
    "text",
    [
        "She did not record an album in 2004.",
        "The light was never dark during the storms.",
        "Her singles include Vento di Sale.",
        "No one recorded it before 1990.",
    ],
)
def test_non_denials(text: str) -> None:
    assert find_denials([("x", text)]) == []
