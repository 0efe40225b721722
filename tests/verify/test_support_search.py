"""Support search and parts the judge reads: where a genuine quote alone cannot carry its claim's names, or
states a part of the claim in other words, the entailment judge reads more, and every veto still applies."""

from __future__ import annotations

from typing import Any

from arborist.verify import Label, Reason, Verdict, verify_answer
from arborist.verify.judge import JudgeSpec

PASSAGE = ("Trial of drug ZX-41. Drug ZX-41 was given to 400 patients with heart failure in 2015. "
           "It halved deaths within a year. Side effects were mild. The trial was run in Oslo.")
QUOTE = "It halved deaths within a year."
CLAIM = "ZX-41 cut deaths among patients with heart failure by half."


class Judge:
    """A judge for the code around it: one score for everything, and a record of what it read."""

    def __init__(self, score: float, support_sentences: int = 3) -> None:
        self.spec = JudgeSpec(kind="local", model="fixed", sha256="2" * 64, threshold=0.7,
                              support_sentences=support_sentences)
        self.value = score
        self.asked: list[tuple[str, str]] = []

    def score(self, premise: str, hypothesis: str) -> float:
        self.asked.append((premise, hypothesis))
        return self.value


def verify(claim: str, quote: str, judge: Judge | None, passage: str = PASSAGE) -> Any:
    evidence = [{"id": "E1", "title": "Heart failure trial", "text": passage}]
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    return verify_answer("Did ZX-41 reduce deaths in heart failure?", "claim_lattice", evidence, answer, judge=judge)


def test_a_quote_that_lacks_the_claims_name_is_read_with_the_sentence_that_names_it() -> None:
    assert verify(CLAIM, QUOTE, None).claims[0].decided_by == "names"  # the rules alone: the quote never names it
    judge = Judge(0.9)
    v = verify(CLAIM, QUOTE, judge)
    claim = v.claims[0]
    assert v.label is Label.STRICT and claim.verdict is Verdict.VERIFIED_ENTAILED and claim.decided_by == "judge"
    # the nearest sentence that names the drug (not the title-like first one), before the quote, in the text's
    # order, after the block's title (the quote refers by a pronoun)
    premise = ("Heart failure trial: Drug ZX-41 was given to 400 patients with heart failure in 2015. It halved "
               "deaths within a year.")
    assert judge.asked == [(premise, CLAIM)]
    assert any(n.startswith("support search") for n in claim.notes)


def test_sentences_apart_are_joined_by_an_ellipsis() -> None:
    claim = "ZX-41 halved deaths in a trial run in Oslo."
    judge = Judge(0.9)
    verify(claim, QUOTE, judge)
    assert judge.asked[0][0] == ("Heart failure trial: Drug ZX-41 was given to 400 patients with heart failure in 2015. It halved deaths "
                                 "within a year. ... The trial was run in Oslo.")


def test_no_search_beyond_the_sentence_limit_nor_when_it_is_off() -> None:
    claim = "ZX-41 halved deaths in a trial run in Oslo."
    for limit in (0, 2):  # the quote and the drug's sentence are two; Oslo's would be a third
        judge = Judge(0.9, support_sentences=limit)
        v = verify(claim, QUOTE, judge)
        assert judge.asked == [] and v.claims[0].decided_by == "names"


def test_a_name_the_block_never_states_is_not_searched_for() -> None:
    judge = Judge(0.9)
    v = verify("ZX-42 cut deaths among patients with heart failure by half.", QUOTE, judge)
    assert judge.asked == [] and v.label is not Label.STRICT and v.claims[0].decided_by == "names"


def test_a_veto_on_the_sentences_searched_still_wins() -> None:
    passage = "Drug ZX-41 was given to 400 patients with heart failure. It did not reduce deaths within a year."
    judge = Judge(0.99)
    v = verify("ZX-41 reduced deaths among patients with heart failure.", "It did not reduce deaths within a year.",
               judge, passage)
    assert v.label is not Label.STRICT and v.claims[0].decided_by == "veto"


def test_a_low_score_on_the_sentences_searched_says_why() -> None:
    v = verify(CLAIM, QUOTE, Judge(0.1))
    assert v.label is not Label.STRICT and Reason.NOT_ENTAILED in v.claims[0].reasons
    assert v.claims[0].decided_by == "support"


PART_PASSAGE = "The drug lowers blood pressure and cuts LDL levels."
PART_CLAIM = "The drug lowers blood pressure and reduces cholesterol."
PART_QUOTE = PART_PASSAGE


def test_a_part_the_quote_states_in_other_words_is_the_judges_to_read() -> None:
    rules = verify(PART_CLAIM, PART_QUOTE, None, PART_PASSAGE).claims[0]
    assert Reason.PART_UNSTATED in rules.reasons  # the rules alone: "reduces cholesterol" is no word of the quote
    judge = Judge(0.9)
    v = verify(PART_CLAIM, PART_QUOTE, judge, PART_PASSAGE)
    assert v.claims[0].verdict is Verdict.VERIFIED_ENTAILED and judge.asked == [(PART_QUOTE, PART_CLAIM)]
    refused = verify(PART_CLAIM, PART_QUOTE, Judge(0.2), PART_PASSAGE).claims[0]
    assert {Reason.PART_UNSTATED, Reason.NOT_ENTAILED} <= set(refused.reasons) and refused.decided_by == "support"
