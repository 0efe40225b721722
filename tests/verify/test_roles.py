"""Roles (`arborist.verify.roles`): ROLES_SWAPPED."""

from __future__ import annotations

import pytest
from pairs import LEX, lattice, reasons

from arborist.verify import Label, Reason
from arborist.verify.vetoes import compare


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("Pixar acquired Disney in 2006.", "Disney acquired Pixar in 2006."),
        ("The Netherlands defeated Spain in the 2010 World Cup final.",
         "Spain defeated the Netherlands in the 2010 World Cup final."),
        ("LinkedIn bought Microsoft for $26.2 billion.", "Microsoft bought LinkedIn for $26.2 billion."),
        ("Breast cancer increases the risk of mutations in BRCA1.",
         "Mutations in BRCA1 increase the risk of breast cancer."),
        ("Plato was taught by Aristotle.", "Aristotle was taught by Plato."),
        ("Disney was acquired by Pixar in 2006.", "Disney acquired Pixar in 2006."),  # a passive on one side only
        ("The Danube flows into the Inn at Passau.", "The Inn flows into the Danube at Passau."),
    ],
)
def test_swapped_roles_are_found_and_never_verified(claim: str, support: str) -> None:
    assert Reason.ROLES_SWAPPED in reasons(claim, support)
    v, c = lattice(claim, support, text=f"Background first. {support} More follows.")
    assert v.label is not Label.STRICT and Reason.ROLES_SWAPPED in c.reasons
    assert any(n.startswith("quote: roles:") for n in c.notes)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("Pixar was acquired by Disney in 2006.", "Disney acquired Pixar in 2006."),
        ("In 2006, Disney acquired Pixar.", "Disney acquired Pixar in 2006."),
        ("Aspirin reduces fever in children.", "In children, fever is reduced by aspirin."),
        ("Vitamin D deficiency is linked to depression in older adults.",  # a symmetric relation
         "Depression in older adults is linked to vitamin D deficiency."),
        ("The protein interacts with actin filaments.", "Actin filaments interact with the protein."),
        ("Glucose uptake in muscle increases after insulin treatment.",  # intransitive: no object to swap
         "Insulin treatment increases glucose uptake in muscle."),
        ("Caffeine improves alertness in sleep-deprived adults.",  # "improved" describes, it takes no subject
         "Sleep-deprived adults showed improved alertness after caffeine."),
        ("Amazon bought Whole Foods for $13.7 billion.", "Whole Foods was bought by Amazon for $13.7 billion."),
    ],
)
def test_the_same_roles_said_another_way_are_not_swapped(claim: str, support: str) -> None:
    assert Reason.ROLES_SWAPPED not in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("Protein Y cleaves protein X.", "Protein X cleaves protein Y."),  # one-letter names
        ("The Hanseatic traders sold timber to the Danish crown.", "The Danish crown sold timber to the Hanseatic traders."),
        ("Barn owls hunt on field voles in winter.", "Field voles hunt on barn owls in winter."),
        ("The title passed from Lord Avery to Margaret.", "The title passed from Margaret to Lord Avery."),
        ("Revenue rose in Paris and fell in Lyon.", "Revenue rose in Lyon and fell in Paris."),
        ("The Leeds branch sold 900 policies in May, against 400 sold by the York branch.",
         "The York branch sold 900 policies in May, against 400 sold by the Leeds branch."),
        ("Ferry fares rose by 12% in Oban and by 3% in Mallaig.", "Ferry fares rose by 12% in Mallaig and by 3% in Oban."),
        ("The Orwell reservoir holds three times as much water as the Stour reservoir.",
         "The Stour reservoir holds three times as much water as the Orwell reservoir."),
    ],
)
def test_two_terms_exchanged_around_the_same_middle_are_swapped_roles(claim: str, support: str) -> None:
    assert Reason.ROLES_SWAPPED in reasons(claim, support)
    v, c = lattice(claim, support, text=f"Background first. {support} More follows.")
    assert v.label is not Label.STRICT and Reason.ROLES_SWAPPED in c.reasons


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("When the cache is full, the server drops the oldest entry.",  # a clause moved, nothing exchanged
         "The server drops the oldest entry when the cache is full."),
        ("Oats contain more fibre than white bread.", "White bread contains less fibre than oats."),  # converse
        ("Hector married Irene in 1952.", "Irene married Hector in 1952."),  # symmetric
        ("Oslo and Bergen signed the pact.", "Bergen and Oslo signed the pact."),  # the middle has no content word
        ("The north tower is as tall as the south tower.", "The south tower is as tall as the north tower."),
        ("Copper and tin were traded for grain, and grain for copper.",  # the support says it both ways
         "Copper and tin were traded for grain, and grain for copper."),
        ("The flag is blue, white and red.", "The flag is red, white and blue."),  # list items reordered
        ("The park has oak trees, beech trees and pine trees.", "The park has pine trees, beech trees and oak trees."),
        ("Fares rose by 3% in Oban and by 12% in Mallaig.", "Fares rose by 12% in Mallaig and by 3% in Oban."),
        ("Jones scored in the second half and Smith scored in the first half.",  # clauses reordered
         "Smith scored in the first half and Jones scored in the second half."),
        ("Oslo got 20 cm of snow while Bergen got 5 cm.", "Bergen got 5 cm of snow while Oslo got 20 cm."),
        ("York sold 400 policies, against 900 sold by Leeds.",  # both pairs exchanged: the same comparison
         "Leeds sold 900 policies, against 400 sold by York."),
        ("Salt together with pepper is added at the end.", "Pepper together with salt is added at the end."),
        ("Haydn was a contemporary of Mozart.", "Mozart was a contemporary of Haydn."),
        ("Kiel is twinned with Brest.", "Brest is twinned with Kiel."),
        ("Spain has the same number of seats as Italy.", "Italy has the same number of seats as Spain."),
    ],
)
def test_exchanges_that_keep_the_meaning_are_not_swapped_roles(claim: str, support: str) -> None:
    assert Reason.ROLES_SWAPPED not in reasons(claim, support)


def test_a_passive_with_its_agent_far_from_the_verb_keeps_its_roles() -> None:
    support = "Photosynthesis converts light energy into chemical energy."
    assert Reason.ROLES_SWAPPED not in reasons("Light energy is converted into chemical energy by photosynthesis.",
                                               support)


def test_converse_and_named_sides_are_read_once_per_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every verb of a long claim against every use of its converse in a long support: the named sides are
    read once per token, not once per pair (which took 11-16 s on these texts)."""
    from arborist.verify import roles

    calls: list[int] = []
    real = roles.named_sides

    def counted(text: object, i: int, names: set[int]) -> tuple[frozenset[str], frozenset[str]]:
        calls.append(i)
        return real(text, i, names)  # type: ignore[arg-type]

    monkeypatch.setattr(roles, "named_sides", counted)
    claim, support = "Ruiz defeated Keller " * 250, "Keller lost to Ruiz " * 250
    compare(claim, support, LEX)
    assert len(calls) <= 2 * (len(claim.split()) + len(support.split()))


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("Rome conquered Carthage, which had a shorter history than Rome.",
         "Carthage conquered Rome, which had a longer history than Carthage.", Reason.ROLES_SWAPPED),
        ("President Lincoln freed the enslaved people of the South.",
         "The enslaved people of the South freed President Lincoln.", Reason.ROLES_SWAPPED),
        ("In 1803 France bought Louisiana from the United States.",
         "In 1803 the United States purchased Louisiana from France.", Reason.ROLES_SWAPPED),
        # names read across their clause, and set off by commas
        ("Orvane sold its 12 percent holding in the airport to the insurer Belmark.",
         "The insurer Belmark sold its 12 percent holding in the airport to the fund Orvane.", Reason.ROLES_SWAPPED),
        ("Kestrel Labs sued its former partner Arnow over the patent.",
         "The chip maker Arnow sued its former partner, Kestrel Labs, over the patent.", Reason.ROLES_SWAPPED),
        ("The Tessel library was forked from Brindle in 2016.",
         "The Brindle library was forked from the older Tessel project in 2016.", Reason.ROLES_SWAPPED),
        # a contest said from its two ends
        ("Senator Ana Vidal defeated Marco Reyes in the primary.",
         "In the primary, the senator, Ana Vidal, lost to Marco Reyes.", Reason.ROLES_SWAPPED),
        # a review's reversed pairs against these rules
        ("Orvane sold its stake in the port to Belmark.", "Belmark, a Dutch fund, sold its stake in the port to Orvane.",
         Reason.ROLES_SWAPPED),
        ("The grant was given to Rosa by her uncle Pablo.", "Pablo was given a grant by his niece Rosa.",
         Reason.ROLES_SWAPPED),
        ("In 2020 the firm moved its head office from Leeds to Dublin.",
         "The firm moved its head office from Dublin to Leeds in 2020.", Reason.ROLES_SWAPPED),
    ],
)
def test_found(claim: str, support: str, reason: Reason) -> None:
    """Pairs written for this rule's findings (dev sets): each finds its reason."""
    assert reason in reasons(claim, support)
