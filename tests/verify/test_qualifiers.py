"""Qualifiers a claim may state only when its quote does (QUALIFIER_UNSTATED)."""

from __future__ import annotations

import pytest
from pairs import lattice

from arborist.verify import Label, Reason


@pytest.mark.parametrize("quote", ["Far from all patients responded to the drug.",
                                   "By no means all patients responded to the drug.",
                                   "Not all patients responded to the drug."])
def test_a_denied_all_does_not_state_all(quote: str) -> None:
    v, _ = lattice("All patients responded to the drug.", quote)
    assert v.label is not Label.STRICT


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("The tenants did not receive any compensation.", "The tenants received no compensation."),
        ("The drug lowers both blood pressure and cholesterol.", "The drug lowers blood pressure and cholesterol."),
        ("Rents fell across the city last year.", "Last year rents fell across the city."),
    ],
)
def test_any_both_and_a_stated_across_are_no_overstatement(claim: str, quote: str) -> None:
    _, c = lattice(claim, quote)
    assert Reason.QUALIFIER_UNSTATED not in c.reasons


@pytest.mark.parametrize(
    ("claim", "quote", "strict"),
    [
        ("Not all patients responded to the drug.", "Not all patients responded to the drug.", True),
        ("Nearly all of the lakes froze that winter.", "Nearly all of the lakes froze that winter.", True),
        ("All of the lakes froze that winter.", "Nearly all of the lakes froze that winter.", False),
        ("The envoy flew to Lima to sign a trade deal.", "The envoy flew to Lima.", False),
    ],
)
def test_a_limited_qualifier_a_habit_and_a_purpose_must_be_the_quotes(claim: str, quote: str, strict: bool) -> None:
    v, c = lattice(claim, quote)
    assert (v.label is Label.STRICT) is strict, c.reasons
