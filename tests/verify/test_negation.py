"""Negation (`arborist.verify.negation`): NEGATION_MISMATCH, NEGATION_UNSTATED."""

from __future__ import annotations

import pytest
from pairs import lattice, reasons

from arborist.verify import Label, Reason


def test_more_adept_at_suppressing_against_unable_to_suppress_is_a_negation_mismatch() -> None:
    v, c = lattice(
        "Treg cells lacking integrin avb8 are more adept at suppressing pathogenic T cell responses.",
        "Treg cells lacking expression of integrin avb8 were unable to suppress pathogenic T cell responses.",
    )
    assert Reason.NEGATION_MISMATCH in c.reasons and v.label is not Label.STRICT


def test_incapable_negates_what_follows() -> None:
    assert Reason.NEGATION_MISMATCH in reasons(
        "Mice are incapable of producing neutralizing antibodies to the virus.",
        "A single dose of the virus produced neutralizing antibodies in mice.",
    )


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The participants developed antibodies to the vaccine vector.",
         "None of the 40 participants developed antibodies to the vaccine vector."),
        ("The company disclosed the breach to regulators.",
         "At no point did the company disclose the breach to regulators."),
        ("Patients in the placebo arm responded to treatment.",
         "Not a single patient in the placebo arm responded to treatment."),
        ("The mayor approved the plan.", "Neither the mayor nor the council approved the plan."),
    ],
)
def test_a_negator_of_the_whole_clause_denies_what_the_claim_repeats(claim: str, support: str) -> None:
    assert Reason.NEGATION_MISMATCH in reasons(claim, support)
    v, _ = lattice(claim, support, text=f"Background first. {support} More follows.")
    assert v.label is not Label.STRICT


def test_a_clause_denied_the_same_way_agrees() -> None:
    assert reasons("The plan was approved by neither the mayor nor the council.",
                   "Neither the mayor nor the council approved the plan.") == set()
    assert reasons("None of the patients relapsed.", "None of the 40 patients relapsed within a year.") == set()


def test_a_claim_found_verbatim_inside_a_denial_is_not_verified() -> None:
    support = "No evidence was found that the compound binds to the estrogen receptor."
    v, c = lattice("The compound binds to the estrogen receptor.", support,
                   text=f"Binding assays were run. {support} Weak binding to the androgen receptor was seen.")
    assert c.checks.span.passed is False and v.label is not Label.STRICT


def test_a_clause_denied_as_a_whole_agrees_with_one_denied_another_way() -> None:
    assert reasons("There were no survivors found at the crash site.", "No survivors were found at the crash site.") == set()
    assert reasons("Patients had no side effects.", "No patients had side effects.") == set()
    assert Reason.NEGATION_MISMATCH in reasons("The patients developed antibodies.", "No patients developed antibodies.")


def test_rarely_and_seldom_deny_what_follows() -> None:
    v, c = lattice("Mutations in the gene lead to symptomatic disease.",
                   "Mutations in the gene rarely lead to symptomatic disease.")
    assert Reason.NEGATION_MISMATCH in c.reasons and v.label is not Label.STRICT
    assert lattice("Mutations in the gene seldom cause disease.",
                   "Mutations in the gene rarely cause disease.")[0].label is Label.STRICT


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("The tenants did not receive any compensation for the damage.",
         "The tenants received no compensation for the damage."),
        ("The trial showed no effect on mortality.", "The trial did not show any effect on mortality."),
        ("No participant reported serious side effects.", "None of the participants reported serious side effects."),
    ],
)
def test_a_negation_said_another_way_agrees(claim: str, quote: str) -> None:
    v, c = lattice(claim, quote)
    assert v.label is Label.STRICT, c.reasons


def test_a_denied_object_still_disagrees_with_a_plain_claim() -> None:
    assert Reason.NEGATION_MISMATCH in reasons("The tenants received compensation for the damage.",
                                               "The tenants received no compensation for the damage.")
    assert Reason.NEGATION_MISMATCH in reasons("The trial showed an effect on mortality.",
                                               "The trial did not show any effect on mortality.")


def test_stopping_a_thing_denies_nothing() -> None:
    assert reasons("The keeper stopped two penalties.", "The keeper saved two penalties.") == set()


def test_a_difference_that_is_not_significant_is_still_denied() -> None:
    assert Reason.NEGATION_MISMATCH in reasons("The difference was significant.", "The difference was not significant.")


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("The vaccine does not cause fever in young children.", "The vaccine rarely causes fever in young children.",
         Reason.NEGATION_MISMATCH),
        ("The vaccine has been approved.", "The vaccine has yet to be approved.", Reason.NEGATION_MISMATCH),
        ("The verdict was announced.", "The verdict is yet to be announced.", Reason.NEGATION_MISMATCH),
        ("At no time has the club sold its ground.", "The club sold its ground in 1990.", Reason.NEGATION_MISMATCH),
        ("The grant pays for travel but not meals.", "The grant pays for travel and meals.", Reason.NEGATION_MISMATCH),
        # a closing "not" denies its clause's subject
        ("Rent is covered by the grant, although heating is not.", "The grant covers rent and heating.",
         Reason.NEGATION_MISMATCH),
    ],
)
def test_found(claim: str, support: str, reason: Reason) -> None:
    """Pairs written for this rule's findings (dev sets): each finds its reason."""
    assert reason in reasons(claim, support)
