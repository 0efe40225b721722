"""Units and rates (`arborist.verify.units`): UNIT_MISMATCH."""

from __future__ import annotations

import pytest
from pairs import lattice, reasons

from arborist.verify import Label, Reason


@pytest.mark.parametrize(
    ("claim", "support", "found"),
    [
        ("The half-life of the drug is about 6 days.", "The half-life of the drug is about 6 hours.", True),
        ("The bridge is 1.2 kilometres long.", "The bridge is 1.2 miles long.", True),
        ("The bridge is 1.2 km long.", "The bridge is 1.2 kilometres long.", False),  # one unit, two names
        ("The trial ran for 6 months.", "The 6 patients were followed for 6 months.", False),  # one 6 says months
        ("The bridge is 1.2 km long.", "The bridge, 1.2 in total, is long.", False),  # no unit to compare
    ],
)
def test_a_number_must_measure_the_same_unit(claim: str, support: str, found: bool) -> None:
    assert (Reason.UNIT_MISMATCH in reasons(claim, support)) is found


def test_a_frequency_after_a_is_a_unit() -> None:
    assert Reason.UNIT_MISMATCH in reasons("Water the cuttings twice a day in summer.",
                                           "Water the cuttings twice a week in summer.")
    assert Reason.UNIT_MISMATCH not in reasons("Water the cuttings twice a day.", "Water the cuttings twice a day in summer.")


@pytest.mark.parametrize(
    ("claim", "quote", "strict"),
    [
        ("The bakery sold two dozen loaves.", "The bakery sold a dozen loaves.", False),
        ("Each tablet holds 20mg of the drug.", "Each tablet holds 10 mg of the drug.", False),
        ("The regulator fined the bank £4.5m.", "The regulator fined the bank 4.5 million pounds.", True),
    ],
)
def test_numbers_glued_to_units_and_dozens_are_read(claim: str, quote: str, strict: bool) -> None:
    v, _ = lattice(claim, quote)
    assert (v.label is Label.STRICT) is strict


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("It will pass within 1.2 million miles of Earth.", "It will pass within 1.2 million kilometres of Earth.",
         Reason.UNIT_MISMATCH),
        ("Each key may make up to 100 requests per hour.", "Each key may make up to 100 requests per minute.",
         Reason.UNIT_MISMATCH),
        ("The contract is worth $2.3 billion over four years.", "The contract is worth $2.3 million over four years.",
         Reason.UNIT_MISMATCH),
        ("Bake the loaf for 15 minutes per kilogram.", "Bake the loaf for 15 minutes per 250 grams.", Reason.UNIT_MISMATCH),
        ("Give 2 micrograms per kilogram of body weight.", "Give 2 milligrams per kilogram of body weight.",
         Reason.UNIT_MISMATCH),
        # a review of (11)-(17): a rate on one side only is still read against the other's unit
        ("The train travels 60 per hour.", "The train is 60 miles long.", Reason.UNIT_MISMATCH),
        ("Inflation rose 0.4 percent in March.", "Inflation rose 0.4 percentage points in March.", Reason.UNIT_MISMATCH),
        ("Inflation rose 0.4% in March.", "Inflation rose 0.4 percentage points in March.", Reason.UNIT_MISMATCH),
        ("The striker got a three-week suspension.", "The striker got a three-game suspension.", Reason.UNIT_MISMATCH),
        ("A full course of the drug costs 40 dollars.", "The drug costs 40 dollars per tablet, and a course is "
         "three tablets.", Reason.UNIT_MISMATCH),
    ],
)
def test_found(claim: str, support: str, reason: Reason) -> None:
    """Pairs written for this rule's findings (dev sets): each finds its reason."""
    assert reason in reasons(claim, support)
