"""The word-swap slot rule (`arborist.verify.swaps`): another thing in the quote's slot."""

from __future__ import annotations

import pytest
from pairs import lattice

from arborist.verify import Label, Reason, verify_answer


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("Walmart acquired Whole Foods in 2017.", "Amazon acquired Whole Foods in 2017."),
        ("Rosuvastatin reduced major cardiovascular events by 22%.",
         "Atorvastatin reduced major cardiovascular events by 22%."),
    ],
)
def test_another_name_in_the_quotes_first_slot_is_not_verified(claim: str, quote: str) -> None:
    v, c = lattice(claim, quote, text=f"Background first. {quote} Rosuvastatin and Walmart are named here too.")
    assert v.label is not Label.STRICT and Reason.ENTITY_MISSING in c.reasons
    assert any("stands where its quote says" in n for n in c.notes)


def test_a_discourse_word_or_a_shared_first_word_is_no_replaced_name() -> None:
    v, _ = lattice("Pyridostatin reduces proliferation of the cells.", "Remarkably, pyridostatin reduces proliferation of the cells.")
    assert v.label is Label.STRICT
    v, _ = lattice("Aspirin reduced fever in children.", "Aspirin reduced fever in children within an hour.")
    assert v.label is Label.STRICT


def test_plural_first_words_are_not_replaced_names() -> None:
    v, _ = lattice("Researchers found that the gene regulates growth.", "Scientists found that the gene regulates growth.")
    assert not any("stands where its quote says" in n for n in v.claims[0].notes)


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("corporal punishment is usually performed in schools in the United States, the UK and Ireland",
         "Currently detention is one of the most common punishments in schools in the United States, the UK and "
         "Ireland."),
        ("Rats developed tumours after six months of exposure.", "Mice developed tumours after six months of exposure."),
    ],
)
def test_another_thing_in_the_quotes_subject_is_not_verified(claim: str, quote: str) -> None:
    v, c = lattice(claim, quote)
    assert v.label is not Label.STRICT and Reason.ENTITY_MISSING in c.reasons
    assert any("is not its quote's" in n for n in c.notes)


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("The researchers identified three new mutations in the gene.",
         "They identified three new mutations in the gene."),  # the quote's subject refers: no subject of its own
        ("About 50 percent of the registered voters backed the plan.",
         "About half of the registered voters backed the plan."),  # numbers are compared by the number checks
        ("Whole Foods was acquired by Amazon in 2017.", "Amazon acquired Whole Foods in 2017."),
        ("The European Central Bank kept its deposit rate unchanged in June.",
         "The ECB kept its deposit rate unchanged in June."),
    ],
)
def test_a_subject_the_quote_states_or_refers_to_is_no_swap(claim: str, quote: str) -> None:
    _, c = lattice(claim, quote, text=f"The European Central Bank (ECB) met. {quote}")
    assert not any("is not its quote's" in n for n in c.notes)


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("The outbreak was traced to contaminated spinach from a single farm.",
         "The outbreak was traced to contaminated lettuce from a single farm."),
        ("The crew shut down the right engine after a fire warning.", "The crew shut down the left engine after a fire warning."),
        ("Critics gave the opera a warm reception at the premiere.", "Critics gave the opera a hostile reception at the premiere."),
        ("The toxin accumulates mainly in the kidneys of exposed fish.",
         "The toxin accumulates mainly in the liver of exposed fish."),
        ("The school replaced suspensions with restorative meetings.",
         "The school replaced detentions with restorative meetings."),
    ],
)
def test_another_word_between_the_same_words_is_not_verified(claim: str, quote: str) -> None:
    v, c = lattice(claim, quote)
    assert v.label is not Label.STRICT and Reason.ENTITY_MISSING in c.reasons
    assert any("between the same words" in n for n in c.notes)


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("The firm bought a stake in the mining company.", "The firm purchased a stake in the mining company."),
        ("Inflation did not rise during the second quarter.", "Inflation did not increase during the second quarter."),
        ("This update resolves a crash that happened when opening large files.",
         "This update fixes a crash that occurred when opening large files."),
        ("Planners recommend a second crossing to ease congestion on the bridge.",
         "Planners recommend a second crossing to relieve congestion on the bridge."),
        ("The new line is 12 km long and has nine stations.", "The new line is 12 kilometres long and has nine stations."),
        ("The medicine is frequently used to treat migraines.", "The medicine is commonly used to treat migraines."),
    ],
)
def test_a_verb_manner_or_unit_in_the_same_slot_is_no_swap(claim: str, quote: str) -> None:
    _, c = lattice(claim, quote)
    assert not any("between the same words" in n for n in c.notes)


def test_a_swapped_last_word_and_a_spelling_variant() -> None:
    v, c = lattice("The patient was given warfarin.", "The patient was given heparin.")
    assert v.label is not Label.STRICT and any("between the same words" in n for n in c.notes)
    _, c = lattice("The drug slowed the growth of tumors.", "The drug slowed the growth of tumours.")
    assert not any("between the same words" in n for n in c.notes)


def test_an_act_of_two_words_is_no_thing_swapped() -> None:
    """"begun sowing" for "started planting" is an act said another way, not another thing in its slot."""
    claim, quote = ("Growers have begun sowing hardy barley in place of wheat.",
                    "Growers have started planting hardy barley instead of wheat.")
    evidence = [{"id": "E1", "title": "Notes", "text": quote}]
    v = verify_answer(claim, "claim_lattice", evidence,
                      {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []})
    assert not any("where its quote says" in note for note in v.claims[0].notes)
