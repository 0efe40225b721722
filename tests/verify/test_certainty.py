"""Certainty (`arborist.verify.certainty`): CERTAINTY_UNSTATED."""

from __future__ import annotations

import pytest
from pairs import lattice, reasons

from arborist.verify import Label, Reason, verify_answer


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The drug slows cognitive decline.", "Preliminary data indicate that the drug may slow cognitive decline."),
        ("The painting was painted by Vermeer.", "The painting is believed to have been painted by Vermeer."),
        ("The patch fixes the memory leak.", "The patch is expected to fix the memory leak."),
        ("The protein plays a role in neuronal migration.",
         "The results suggest that the protein might play a role in neuronal migration."),
        ("Regular flossing prevents cardiac events.", "Regular flossing was associated with fewer cardiac events."),
        ("Higher screen time causes poorer sleep quality among adolescents.",
         "Higher screen time was correlated with poorer sleep quality among adolescents."),
    ],
)
def test_a_hedged_or_correlational_support_does_not_back_a_plain_claim(claim: str, support: str) -> None:
    assert Reason.CERTAINTY_UNSTATED in reasons(claim, support)
    v, c = lattice(claim, support, text=f"Background first. {support} More follows.")
    assert v.label is not Label.STRICT and Reason.CERTAINTY_UNSTATED in c.reasons


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The drug may slow cognitive decline.", "Preliminary data indicate that the drug may slow cognitive decline."),
        ("Coffee consumption is associated with a lower risk of Parkinson's disease.",
         "Coffee consumption was associated with a lower risk of Parkinson's disease."),
        ("Carriers of the allele have increased risk of dementia.",  # "increased" describes: no cause claimed
         "Carriers of the allele were associated with an increased risk of dementia."),
        ("The film premiered on CITV.", "The film premiered on 12 May 1996 on CITV in Edmonton."),  # the month
        ("The enzyme cleaves the substrate.", "The enzyme cleaves the substrate, possibly because of its charge."),
        ("Embryonic stem cells can form all three germ layers.",
         "Embryonic stem cells have the developmental potential to form all three germ layers."),
        ("FADD and RIPK3 prevented epithelial cell death.",  # a protein's name, not an association
         "Combined deficiency of Fas-associated death domain protein (FADD) and RIPK3 prevented epithelial cell death."),
    ],
)
def test_a_plain_or_equally_hedged_support_is_not_a_supposition(claim: str, support: str) -> None:
    assert Reason.CERTAINTY_UNSTATED not in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The agency ignored early warnings about the dam.",
         "Critics allege that the agency ignored early warnings about the dam."),
        ("The mayor built a new tram line to the airport.", "The mayor plans to build a new tram line to the airport."),
        ("The car was stolen the night before the crash.",
         "According to the defendant, the car was stolen the night before the crash."),
        ("The council installed speed bumps on Elm Street.",
         "Residents have requested that the council install speed bumps on Elm Street."),
    ],
)
def test_a_reported_plan_or_allegation_is_not_a_fact(claim: str, support: str) -> None:
    assert Reason.CERTAINTY_UNSTATED in reasons(claim, support)


def test_a_noun_that_can_report_reports_only_before_to_or_that() -> None:
    assert not reasons("A new subscription on a monthly plan can be refunded in full.",
                       "A new subscription on a monthly plan can be refunded in full.")
    assert Reason.CERTAINTY_UNSTATED not in reasons("Insurance claims rose by a third after the flood.",
                                                    "After the flood, insurance claims rose by a third.")


@pytest.mark.parametrize(
    "support",
    [
        "There is no evidence that the MMR vaccine causes autism in young children.",
        "Researchers found little evidence that the MMR vaccine causes autism in young children.",
        "It is unproven that the MMR vaccine causes autism in young children.",
    ],
)
def test_no_evidence_that_a_thing_is_so_does_not_state_it(support: str) -> None:
    assert Reason.CERTAINTY_UNSTATED in reasons("The MMR vaccine causes autism in young children.", support)


def test_evidence_that_a_thing_is_so_and_a_claim_that_denies_evidence_agree() -> None:
    assert not reasons("The MMR vaccine protects young children from measles.",
                       "Strong evidence shows that the MMR vaccine protects young children from measles.")
    assert not reasons("There is no evidence that the vaccine causes autism.",
                       "There is no evidence that the vaccine causes autism.")


def test_held_reports_only_before_that() -> None:
    assert not reasons("Morning sessions took place in the main hall.", "The club held morning sessions in the main hall.")
    assert Reason.CERTAINTY_UNSTATED in reasons("The contract is void.", "The company held that the contract is void.")


@pytest.mark.parametrize(
    ("claim", "quote", "strict"),
    [
        ("The finance ministry predicts that inflation will fall below 3 percent.",
         "Economists at the central bank predict that inflation will fall below 3 percent.", False),
        ("Economists predict that inflation will fall below 3 percent.",
         "Economists at the central bank predict that inflation will fall below 3 percent.", True),
        ("The bank's economists predict that inflation will ease.",
         "Economists at the bank predict that inflation will ease.", True),
    ],
)
def test_a_report_given_to_someone_the_quote_never_names_is_the_claims_own(
        claim: str, quote: str, strict: bool) -> None:
    evidence = [{"id": "E1", "title": "Notes", "text": quote}]
    v = verify_answer(claim, "claim_lattice", evidence,
                      {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []})
    assert (v.label is Label.STRICT) is strict, v.claims[0].reasons


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("Coffee consumption lowered the risk of gallstones in the cohort.",
         "Coffee consumption was linked to a lower risk of gallstones in the cohort.", Reason.CERTAINTY_UNSTATED),
        ("The defendant forged the signatures.", "Prosecutors said the defendant forged the signatures.",
         Reason.CERTAINTY_UNSTATED),
        ("The museum's new wing opened in May.", "The board is proposing to open the museum's new wing in May.",
         Reason.CERTAINTY_UNSTATED),
        ("The report was a forgery.", "The ambassador described the report as a forgery.", Reason.CERTAINTY_UNSTATED),
        ("The quake destroyed 4,000 homes.", "The quake destroyed 4,000 homes, officials estimate.",
         Reason.CERTAINTY_UNSTATED),
        ("Twelve miners died in the blast.", "Twelve miners are feared to have died in the blast.",
         Reason.CERTAINTY_UNSTATED),
        # advised, not done
        ("The boiler is serviced every year.", "The boiler should be serviced every year.", Reason.CERTAINTY_UNSTATED),
        ("Walking daily lowers the risk of heart disease.",
         "People who walked daily had a lower risk of heart disease.", Reason.CERTAINTY_UNSTATED),
        ("Composting reduces waste collections in towns.",
         "Towns that composted reported fewer waste collections.", Reason.CERTAINTY_UNSTATED),
        ("The new pump uses 20 percent less power.", "The maker claims it uses 20 percent less power.",
         Reason.CERTAINTY_UNSTATED),
        ("The road was closed by the council.", "Residents asked the council to close the road.",
         Reason.CERTAINTY_UNSTATED),
        ("The driver was sober that night.", "The driver maintains that he was sober that night.",
         Reason.CERTAINTY_UNSTATED),
        ("The tools were made by early farmers.", "The finds hint that the tools were made by early farmers.",
         Reason.CERTAINTY_UNSTATED),
        ("The vendor says the patch fixes the leak.", "The vendor says the patch should fix the leak.",
         Reason.CERTAINTY_UNSTATED),
        ("Banning phones improved grades at the schools.", "Schools that banned phones saw better grades.",
         Reason.CERTAINTY_UNSTATED),
    ],
)
def test_found(claim: str, support: str, reason: Reason) -> None:
    """Pairs written for this rule's findings (dev sets): each finds its reason."""
    assert reason in reasons(claim, support)
