"""A change read as a value (`arborist.verify.changes`): CHANGE_DROPPED."""

from __future__ import annotations

import pytest
from pairs import reasons

from arborist.verify import Reason


@pytest.mark.parametrize(
    ("claim", "support", "found"),
    [
        ("The refund window for annual plans is 30 to 60 days.",
         "Extend the refund window for annual plans from 30 to 60 days.", True),
        ("Unemployment was 5% to 7% last year.", "Last year unemployment rose from 5% to 7%.", True),
        ("The fee is 10 to 20 dollars.", "The board cut the fee from 20 to 10 dollars.", True),
        # the claim states the change itself
        ("The proposal would extend the refund window from 30 to 60 days.",
         "Extend the refund window for annual plans from 30 to 60 days.", False),
        # a range, not a change: no change word governs it
        ("The camp takes children aged 5 to 12.", "The camp takes children aged from 5 to 12.", False),
        # the claim states one of the numbers only
        ("The refund window was 30 days.", "Extend the refund window from 30 to 60 days.", False),
    ],
)
def test_a_change_is_not_a_value(claim: str, support: str, found: bool) -> None:
    assert (Reason.CHANGE_DROPPED in reasons(claim, support)) is found
