"""Scope and time (`arborist.verify.scope`, `arborist.verify.tense`): SCOPE_DROPPED."""

from __future__ import annotations

import pytest
from pairs import lattice, reasons

from arborist.verify import Label, Reason, verify_answer


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The compound prevented weight gain.", "In mice fed a high-fat diet, the compound prevented weight gain."),
        ("Among adults, daily walking was linked to lower blood pressure.",
         "Among men over 60, daily walking was linked to lower blood pressure."),
        ("The medication is considered safe during pregnancy.",
         "The medication is considered safe during pregnancy only if taken after the first trimester."),
        ("The fungicide loses its effectiveness.", "When the soil is waterlogged, the fungicide loses its effectiveness."),
        ("The function raises a KeyError.", "The function raises a KeyError unless a default is given."),
        # a condition with a number the claim does not state is still dropped
        ("Annual fees are refunded in full.", "Annual fees are refunded in full if the customer asks within 30 days."),
    ],
)
def test_a_restriction_the_claim_drops_is_found(claim: str, support: str) -> None:
    assert Reason.SCOPE_DROPPED in reasons(claim, support)
    v, c = lattice(claim, support)
    assert v.label is not Label.STRICT and any("scope" in n for n in c.notes)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("Metformin lowered HbA1c in patients with diabetes.", "In patients with diabetes, metformin lowered HbA1c."),
        ("The plant opened a second line.", "In 2010, the plant opened a second line."),
        ("The drug reduced mortality.", "In this study, the drug reduced mortality."),
        ("Sales rose sharply.", "For example, sales rose sharply."),
        ("The vaccine provided complete protection.", "The vaccine provided complete protection in two trials."),
        ("The index works even if the disk is slow.", "The index works even if the disk is slow."),
        ("Prices rose in March.", "In March, prices rose."),
        # a condition whose numbers the claim states is what the claim is about
        ("The refund window for annual plans is 30 days.",
         "A new annual subscription can be refunded in full if the customer asks within 30 days of the start of "
         "the annual term."),
    ],
)
def test_framing_times_and_kept_restrictions_are_no_dropped_scope(claim: str, support: str) -> None:
    assert Reason.SCOPE_DROPPED not in reasons(claim, support)


def test_a_bare_answer_takes_its_scope_from_the_question() -> None:
    quote = "A new subscription can be refunded in full if the customer asks within 14 days of the first charge."
    evidence = [{"id": "E1", "title": "Refunds", "text": quote}]
    answer = {"claims": [{"text": "14 days", "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    v = verify_answer("Within how many days of the first charge can a new subscription be refunded in full?",
                      "claim_lattice", evidence, answer)
    assert v.label is Label.STRICT, v.claims[0].notes


def test_once_as_when_is_no_former_state() -> None:
    assert not reasons("The lake is the largest reservoir in Europe.",
                       "The lake is the largest reservoir in Europe once the dam is finished.")


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("Rents fell across the city last year.", "Rents fell in the harbour district last year."),
        ("The disease is now found worldwide.", "The disease is now found in West Africa."),
    ],
)
def test_a_claim_over_the_whole_is_not_verified_by_a_part(claim: str, quote: str) -> None:
    v, c = lattice(claim, quote)
    assert Reason.QUALIFIER_UNSTATED in c.reasons and v.label is not Label.STRICT


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The valley's economy depends on wool.", "During the 1890s, the valley's economy depended on wool."),
        ("The league has twelve clubs.", "In 1998, the league had twelve clubs."),
    ],
)
def test_a_past_its_support_dates_is_not_stated_now(claim: str, support: str) -> None:
    assert Reason.SCOPE_DROPPED in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The museum houses 3,000 fossils.", "The museum, which opened in 1902, houses 3,000 fossils."),
        ("The league had twelve clubs in 1998.", "In 1998, the league had twelve clubs."),
        ("The league had twelve clubs.", "In 1998, the league had twelve clubs."),
    ],
)
def test_a_date_of_something_else_or_a_past_claim_is_no_dated_past(claim: str, support: str) -> None:
    assert Reason.SCOPE_DROPPED not in reasons(claim, support)


def test_a_range_with_an_en_dash_ends_a_period() -> None:
    assert Reason.SCOPE_DROPPED in reasons("He has coached the team since 2012.", "He coached the team 2012\u20132016.")


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("Schools in the district have not replaced detention.",
         "Not a single school in the district has replaced detention."),
        ("The 5.0 release still supports Python 3.8.", "Support for Python 3.8 has not ended with the 5.0 release."),
    ],
)
def test_forms_that_keep_their_scope_agree(claim: str, support: str) -> None:
    assert Reason.SCOPE_DROPPED not in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("Metformin lowered the HbA1c level of adults.", "In those with diabetes, metformin lowered the HbA1c level "
         "of adults.", Reason.SCOPE_DROPPED),
        ("Pasta needs three extra minutes of boiling.", "At high altitude, pasta needs three extra minutes of boiling.",
         Reason.SCOPE_DROPPED),
        # still, over a support that ended it
        ("The app still supports Android 9.", "Support for Android 9 ended with version 4 of the app.",
         Reason.SCOPE_DROPPED),
        ("The course still includes a field trip to the coast.",
         "Until 2018, the course included a field trip to the coast.", Reason.SCOPE_DROPPED),
        ("The mill is owned by the Hale family.", "Until 2016, the mill was owned by the Hale family.",
         Reason.SCOPE_DROPPED),
        ("Libraries in the county have dropped late fees.", "One library in the county has dropped late fees.",
         Reason.SCOPE_DROPPED),
        # a sentence before an "Until ..." past does not hide it
        ("Fishermen catch cod near the harbour.", "Whitby is a port. Until 1990, fishermen caught cod near the harbour.",
         Reason.SCOPE_DROPPED),
        ("The station's old cables were damaged in the flood.",
         "Some of the station's old cables were damaged in the flood.", Reason.SCOPE_DROPPED),
        ("The 1880 town register was lost in the fire.", "Part of the 1880 town register was lost in the fire.",
         Reason.SCOPE_DROPPED),
        ("Halden is the busiest port on the coast.", "Halden is among the busiest ports on the coast.",
         Reason.SCOPE_DROPPED),
    ],
)
def test_found(claim: str, support: str, reason: Reason) -> None:
    """Pairs written for this rule's findings (dev sets): each finds its reason."""
    assert reason in reasons(claim, support)
