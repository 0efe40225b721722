"""How a claim or support is read (`arborist.verify.reading`): verbs, sentence starts, lead-ins, linear time."""

from __future__ import annotations

import pytest
from pairs import LEX, label_and_reasons, lattice, reasons

from arborist.verify import Label, Reason, verify_answer
from arborist.verify.vetoes import compare


def test_claims_and_quotes_with_repeated_words_line_up_in_parallel() -> None:
    text = "The role may be filled by a friend, who may hold any office, from Elder to Bishop, or no office at all."
    assert reasons(text, text) == set()


def test_a_base_form_verb_after_a_plural_subject_is_read_as_a_verb() -> None:
    assert Reason.CERTAINTY_UNSTATED in reasons("Low vitamin D levels cause depression.",
                                                "Low vitamin D levels have been linked to depression.")
    assert Reason.ROLES_SWAPPED in reasons("Elk prey on wolves in the northern range.",
                                           "Wolves prey on elk in the northern range.")
    assert not reasons("Wolves prey on elk in the northern range.", "Wolves prey on elk in the northern range.")


def test_short_words_ending_in_ed_are_no_verbs() -> None:
    assert not reasons("The referee showed the defender a red card in the 80th minute.",
                       "The defender was shown a red card by the referee in the 80th minute.")


def test_a_long_support_is_read_in_linear_time() -> None:
    support = "x" * 200_000 + " " + "if " * 999
    assert isinstance(compare("The drug works if taken.", support, LEX), list)  # no quadratic scan of the text


@pytest.mark.parametrize(
    "passage",
    [
        "Some parents wrongly believe that fluoride causes asthma. Reviews found no link.",
        "It is a popular myth that fluoride causes asthma. Reviews found no link.",
        "No study has shown that fluoride causes asthma.",
        "A blogger falsely claimed that fluoride causes asthma, and later retracted it.",
    ],
)
def test_a_quote_is_read_with_the_start_of_its_sentence(passage: str) -> None:
    label, why = label_and_reasons("Fluoride causes asthma.", "fluoride causes asthma", passage)
    assert label is not Label.STRICT and why


def test_a_quote_that_starts_its_sentence_reads_as_before() -> None:
    assert label_and_reasons("Fluoride strengthens tooth enamel.", "Fluoride strengthens tooth enamel",
                "Fluoride strengthens tooth enamel. It is added to tap water.")[0] is Label.STRICT


def test_a_short_statement_is_no_bare_answer() -> None:
    # a verb between two words states something, verified as any claim is; a short name is still a bare answer
    assert label_and_reasons("Caffeine blocks adenosine receptors.", "Caffeine blocks adenosine receptors.",
                "Caffeine blocks adenosine receptors. It is found in coffee.")[0] is Label.STRICT
    label, why = label_and_reasons("14 days", "The warranty covers returns for 14 days.",
                      "The warranty covers returns for 14 days. Refunds take a week.")
    assert Reason.BARE_ANSWER in why and label is not Label.STRICT


def test_a_second_cited_chunk_does_not_drop_the_quotes_lead_in() -> None:
    quote = "fluoride in tap water causes asthma in young children"
    evidence = [{"id": "E1", "title": "Myths", "text": f"It is a myth that {quote}."},
                {"id": "E2", "title": "Water", "text": "Tap water is treated at the plant."}]
    answer = {"claims": [{"text": "Fluoride in tap water causes asthma in young children.", "evidence_ids": ["E1", "E2"],
                          "quote": quote}], "abstained_requests": []}
    v = verify_answer("Does fluoride cause asthma?", "claim_lattice", evidence, answer)
    assert v.label is not Label.STRICT and Reason.CERTAINTY_UNSTATED in v.claims[0].reasons


def test_the_lead_in_never_hides_what_the_quote_itself_says() -> None:
    quote = "in humans the drug decreased appetite"
    v, c = lattice("The drug increased appetite.", quote,
                   text=f"Although the drug increased appetite in rats, {quote}.")
    assert v.label is not Label.STRICT and Reason.DIRECTION_MISMATCH in c.reasons


def test_a_sentence_is_compared_with_the_claim_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The span check reads every window of a sentence that holds the claim's words; in a long repetitive
    sentence there are hundreds of them, and comparing the sentence anew for each took minutes."""
    from arborist.verify import verifier

    calls: list[str] = []

    def counted(claim: str, support: str, lex: object, scoped: bool = True) -> list[object]:
        calls.append(support)
        return compare(claim, support, LEX, scoped)

    monkeypatch.setattr(verifier, "compare", counted)
    sentence = "Elk hunt wolves and " * 40 + "elk hunt wolves."  # 81 windows hold "wolves hunt elk"
    v, claim = lattice("Wolves hunt elk.", sentence, "Some context. " + sentence + " More.")
    assert calls, "the claim was never compared with its support"
    assert len(calls) == len(set(calls))
    assert Reason.ROLES_SWAPPED in claim.reasons and v.label is not Label.STRICT
