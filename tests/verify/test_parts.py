"""A claim's parts, each of which its quote must state (`arborist.verify.parts`)."""

from __future__ import annotations

import pytest
from pairs import lattice

from arborist.verify import Label, Reason, Verdict, verify_answer
from judges import TableJudge


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("Vitamin C deficiency causes scurvy and rickets.", "Vitamin C deficiency causes scurvy."),
        ("Napoleon was exiled to Elba in 1814, where he died.", "Napoleon was exiled to Elba in 1814."),
        ("The patch fixes a buffer overflow in the parser, which was exploited in the wild.",
         "The patch fixes a buffer overflow in the parser."),
        ("The drug lowers blood pressure and reduces cholesterol.", "The drug lowers blood pressure."),
        # /26: a word the claim also says elsewhere does not state a part; nor does a conjunct's other words
        # state a conjunct that names another thing; "to a ..." is a part of its own
        ("The poet wrote the play in a cottage in Kent, where she also wrote her letters.",
         "The poet wrote the play in a cottage in Kent."),
        ("Lead builds up in the bones and the teeth of exposed workers.", "Lead builds up in the bones of exposed workers."),
        ("The choir sang the mass at the cathedral's Easter service to a packed congregation.",
         "The choir sang the mass at the cathedral's Easter service."),
    ],
)
def test_a_part_its_quote_never_states_is_not_verified(claim: str, quote: str) -> None:
    v, c = lattice(claim, quote)
    assert Reason.PART_UNSTATED in c.reasons and v.label is not Label.STRICT
    assert any("adds" in n for n in c.notes)


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("However, the drug lowers blood pressure in adults.", "The drug lowers blood pressure in adults."),
        ("Receptor-interacting protein (RIP) kinase activity drives cell death.",
         "Receptor-interacting protein kinase activity drives cell death."),
        ("The drug, taken daily, lowers blood pressure.", "Taken daily, the drug lowers blood pressure."),
        ("Cerebrospinal fluid (CSF) levels of orexin rose and stayed high.",
         "CSF levels of orexin rose and then stayed high."),
        # the long form of a name in brackets its quote uses
        ("Sites where Rad51 binds (Rad51 sites) slow replication.", "Rad51 sites slow replication."),
        ("The algorithm is fast and needs little memory.", "The algorithm is quick and uses little memory."),
    ],
)
def test_connectives_abbreviations_and_reordered_parts_are_stated(claim: str, quote: str) -> None:
    v, c = lattice(claim, quote)
    assert Reason.PART_UNSTATED not in c.reasons and v.label is Label.STRICT, c.notes


def test_a_phrase_after_a_preposition_is_a_part_of_its_own() -> None:
    v, c = lattice("The vaccine elicited neutralizing antibodies in nonhuman primates.",
                   "The vaccine elicited neutralizing antibodies in two mouse models.")
    assert Reason.PART_UNSTATED in c.reasons and v.label is not Label.STRICT
    assert any("in nonhuman primates" in n for n in c.notes)
    assert lattice("The vaccine elicited antibodies in mice.",
                   "In mice, the vaccine elicited neutralizing antibodies.")[0].label is Label.STRICT


@pytest.mark.parametrize(
    ("claim", "quote", "added"),
    [
        ("The site was offline for 20 minutes on Monday because of a broken cable.",
         "The site was offline for 20 minutes on Monday.", "of a broken cable"),
        ("Snow cover on the northern plains was 15 percent below normal in April.",  # ("across": QUALIFIER_UNSTATED)
         "Snow cover in the alpine regions was 15 percent below normal in April.", "on the northern plains"),
    ],
)
def test_causes_and_phrases_are_parts(claim: str, quote: str, added: str) -> None:
    v, c = lattice(claim, quote)
    assert Reason.PART_UNSTATED in c.reasons and v.label is not Label.STRICT
    assert any(added in n for n in c.notes)


def test_compared_with_states_nothing_itself() -> None:
    assert lattice("Compared with the old scanner, the new scanner reads barcodes faster.",
                   "The new scanner reads barcodes faster than the old scanner.")[0].label is Label.STRICT


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("The moth lives on both the northern and southern slopes of the ridge.",
         "The moth lives only on the northern slopes of the ridge."),
        ("Records fell in the junior and senior 100 metres.", "Records fell in the junior 100 metres."),
        ("The drug consistently outperformed aspirin in the trials.", "In two of the trials, the drug outperformed aspirin."),
        ("The geyser routinely erupts twice an hour.", "The geyser can erupt twice an hour."),
    ],
)
def test_a_coordinate_or_a_frequency_the_quote_lacks_is_said_by_the_claim_alone(claim: str, quote: str) -> None:
    v, _ = lattice(claim, quote)
    assert v.label is not Label.STRICT


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("The moth lives on both the northern and southern slopes of the ridge.",
         "The moth lives on the northern and southern slopes of the ridge."),
        ("The moth lives on the southern and northern slopes of the ridge.",
         "The moth lives on the northern and southern slopes of the ridge."),
        ("Records fell in the junior and senior 100 metres.", "In the senior and the junior 100 metres, records fell."),
        ("The drug consistently outperformed aspirin in the trials.",
         "The drug consistently outperformed aspirin in the trials, the authors reported."),
    ],
)
def test_coordinates_and_frequencies_the_quote_states_are_verified(claim: str, quote: str) -> None:
    v, c = lattice(claim, quote)
    assert v.label is Label.STRICT, c.reasons


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("The team consistently won at home.", "The team always won at home."),
        ("The northern and southern provinces were flooded.",
         "The northern provinces were flooded, as were those in the south."),
    ],
)
def test_a_frequency_or_a_coordinate_said_in_another_form_is_stated(claim: str, quote: str) -> None:
    _, c = lattice(claim, quote)
    assert not {Reason.QUALIFIER_UNSTATED, Reason.PART_UNSTATED} & set(c.reasons)


@pytest.mark.parametrize(
    ("claim", "quote", "strict"),
    [
        ("The painter died in her early fifties.", "The painter died in her early forties.", False),
        ("The painter died in her early fifties.", "The painter died, aged 52, in her early fifties.", True),
        ("Within 48 hours of starting the antibiotic, the fever subsided.", "The fever subsided within 48 hours.", False),
        ("In his lab he also ran a series of tests on the coil.", "He ran a series of tests on the coil.", False),
        ("The council voted in favour of banning cars from the old town.",
         "The council voted to ban cars from the old town.", True),
    ],
)
def test_decades_of_a_life_and_gerund_and_fronted_parts(claim: str, quote: str, strict: bool) -> None:
    evidence = [{"id": "E1", "title": "Notes", "text": quote}]
    v = verify_answer(claim, "claim_lattice", evidence,
                      {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []})
    assert (v.label is Label.STRICT) is strict, v.claims[0].reasons


def test_a_part_its_quote_may_state_in_other_words_is_the_judges_to_read() -> None:
    # restating a claim is every part of it, so a part the quote states in other words ("cuts LDL levels" for
    # "reduces cholesterol") fails lexical restatement; with a judge, that is the judge's question (stage 3)
    quote = "The drug lowers blood pressure and cuts LDL levels."
    claim = "The drug lowers blood pressure and reduces cholesterol."
    evidence = [{"id": "E1", "title": "Trial", "text": quote}]
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    assert Reason.PART_UNSTATED in verify_answer(claim, "claim_lattice", evidence, answer).claims[0].reasons
    judge = TableJudge({claim: 0.9})
    accepted = verify_answer(claim, "claim_lattice", evidence, answer, judge=judge)
    assert accepted.claims[0].verdict is Verdict.VERIFIED_ENTAILED and judge.asked == [(quote, claim)]
    refused = verify_answer(claim, "claim_lattice", evidence, answer, judge=TableJudge({claim: 0.2})).claims[0]
    assert {Reason.PART_UNSTATED, Reason.NOT_ENTAILED} <= set(refused.reasons) and refused.decided_by == "support"
    assert "the claim adds 'reduces cholesterol'; its quote states none of its words" in refused.notes
