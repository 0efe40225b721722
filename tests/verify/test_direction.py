"""Direction and comparison (`arborist.verify.direction`): DIRECTION_MISMATCH, DIRECTION_UNSTATED, COMPARISON_MISMATCH."""

from __future__ import annotations

import pytest
from pairs import lattice, reasons

from arborist.verify import Label, Reason, Verdict, verify_answer


def test_reduces_against_induced_is_a_direction_mismatch() -> None:
    v, c = lattice(
        "PD-1 triggering on monocytes reduces IL-10 production by monocytes.",
        "Triggering of PD-1 expressed on monocytes by PD-L1 induced IL-10 production by monocytes.",
    )
    assert c.checks.quote is not None and c.checks.quote.passed
    assert Reason.DIRECTION_MISMATCH in c.reasons
    assert c.verdict not in (Verdict.VERIFIED_QUOTE, Verdict.VERIFIED_SPAN) and v.label is not Label.STRICT
    assert any("reduces" in n and "induced" in n for n in c.notes)


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("Ca2+ cycling is a UCP1-dependent thermogenic mechanism.",
         "We report a UCP1-independent thermogenic mechanism that involves ATP-dependent Ca2+ cycling.",
         Reason.NEGATION_MISMATCH),
        ("Pioglitazone use is not associated with an increased risk of prostate cancer.",
         "There was no association with 8 other cancers; use of pioglitazone was associated with increased risk "
         "of prostate cancer.", Reason.NEGATION_MISMATCH),
        ("Birth weight is negatively associated with breast cancer.",
         "Birth weight was positively associated with breast cancer risk.", Reason.DIRECTION_MISMATCH),
        ("Pyridostatin decreases telomere fragility in BRCA2-deficient cells.",
         "Treatment with pyridostatin increases telomere fragility in BRCA2-deficient cells.",
         Reason.DIRECTION_MISMATCH),
        ("Consumption of whole fruits increases the risk of type 2 diabetes.",
         "Greater consumption of whole fruits is associated with a lower risk of type 2 diabetes, whereas greater "
         "consumption of fruit juice is associated with a higher risk.", Reason.DIRECTION_MISMATCH),
        ("Converting apoE4 to apoE3 worsens the pathology in neurons.",
         "Converting apoE4 to apoE3 rescued the pathology in neurons.", Reason.DIRECTION_MISMATCH),
        ("The toxin was detected before the onset of symptoms.",
         "The toxin was detected after the onset of symptoms.", Reason.DIRECTION_MISMATCH),
        ("Bariatric surgery reduces colorectal cancer.",
         "No association was detected between bariatric surgery and colorectal cancer.", Reason.DIRECTION_UNSTATED),
        ("Metformin does not cause weight loss in older adults.",
         "Metformin was associated with weight loss in older adults.", Reason.NEGATION_UNSTATED),
        ("The protease deactivates the receptor on platelets.",
         "The protease is expressed in platelets and activates the receptor.", Reason.DIRECTION_MISMATCH),
        ("Mice lacking Sirt1 in neurons are immune to dietary obesity.",
         "Mice lacking SIRT1 in neurons are hypersensitive to dietary obesity.", Reason.DIRECTION_MISMATCH),
        ("The innate immune response struggles to remove the parasites.",
         "The innate immune response can remove the parasites.", Reason.NEGATION_MISMATCH),
        ("Ibuprofen is more effective than paracetamol at lowering fever.",
         "Paracetamol was more effective than ibuprofen at lowering fever.", Reason.COMPARISON_MISMATCH),
    ],
)
def test_opposites_are_found(claim: str, support: str, reason: Reason) -> None:
    assert reason in reasons(claim, support)
    _, c = lattice(claim, support)
    assert c.verdict not in (Verdict.VERIFIED_QUOTE, Verdict.VERIFIED_SPAN)


def test_span_that_states_the_opposite_does_not_verify() -> None:
    text = "In the trial, the vaccine reduced fever but increased antibody titres in older adults. It was safe."
    answer = {"claims": [{"text": "The vaccine reduced antibody titres in older adults.", "evidence_ids": ["E1"]}]}
    v = verify_answer("What did the vaccine do?", "claim_lattice_pointer", [{"id": "E1", "title": "Vaccine trial", "text": text}], answer)
    (c,) = v.claims
    assert c.verdict is not Verdict.VERIFIED_SPAN
    assert Reason.DIRECTION_MISMATCH in c.reasons
    same = {"claims": [{"text": "The vaccine increased antibody titres in older adults.", "evidence_ids": ["E1"]}]}
    ok = verify_answer("What did the vaccine do?", "claim_lattice_pointer",
                       [{"id": "E1", "title": "Vaccine trial", "text": text}], same)
    assert ok.claims[0].verdict is Verdict.VERIFIED_SPAN


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The Sahara contracted during the 1970s.", "The Sahara expanded southward during the 1970s."),
        ("Exercise up-regulated inflammatory markers in the cohort.",
         "Exercise down-regulated inflammatory markers in the cohort."),
        ("The ResNet model underperformed the baseline.", "The ResNet model outperformed the baseline."),
        ("The setting is disabled by default.", "The setting is enabled by default."),
        ("The defendant was convicted of fraud.", "The defendant was acquitted of fraud."),
        ("The region has a wet climate.", "The region has a dry climate."),
        ("Online gambling is legal in the state.", "Online gambling is illegal in the state."),
        ("The board rejected the proposal.", "The board approved the proposal."),
        ("The cathedral is younger than the castle.", "The cathedral is older than the castle."),
        ("Light travels faster in water than in air.", "Light travels more slowly in water than in air."),
        ("Revenue rose sharply in the fourth quarter.", "Revenue declined sharply in the fourth quarter."),
    ],
)
def test_more_opposites_are_direction_mismatches(claim: str, support: str) -> None:
    assert Reason.DIRECTION_MISMATCH in reasons(claim, support)


def test_give_rise_to_is_no_direction() -> None:
    assert reasons("Stem cells give rise to all three germ layers.",
                   "Stem cells form derivatives of all three germ layers.") == set()


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The southern runway is shorter than the northern runway.",
         "The northern runway is longer than the southern runway."),
        ("Its predecessor consumes more fuel than the new model.", "The new model consumes less fuel than its predecessor."),
        ("In every quarter, the Hawks scored fewer points than the Tigers.",
         "The Tigers scored more points than the Hawks in every quarter."),
    ],
)
def test_a_comparison_restated_from_its_other_side_agrees(claim: str, support: str) -> None:
    assert not reasons(claim, support)


def test_a_comparison_with_one_side_turned_still_disagrees() -> None:
    assert Reason.DIRECTION_MISMATCH in reasons("The southern runway is longer than the northern runway.",
                                                "The southern runway is shorter than the northern runway.")
    assert Reason.COMPARISON_MISMATCH in reasons("The northern runway is shorter than the southern runway.",
                                                 "The southern runway is shorter than the northern runway.")


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        # the terms are the subject and the phrase after "than", past the verb and the shared words
        ("Oat milk contains more added sugar than soy milk per glass.",
         "Soy milk contains more added sugar than oat milk per glass."),
        ("Teachers in the district earned 9 percent less than nurses in comparable posts.",
         "Nurses in the district earned 9 percent less than teachers in comparable posts."),
        # the terms in the phrases after the comparative and after "than"
        ("Pollen counts were four times higher in the valley than on the ridge.",
         "Pollen counts were four times higher on the ridge than in the valley."),
        ("Relapse was more common among vegetarians than among meat eaters.",
         "Relapse was more common among meat eaters than among vegetarians."),
    ],
)
def test_compared_terms_swapped_are_a_comparison_mismatch(claim: str, support: str) -> None:
    assert Reason.COMPARISON_MISMATCH in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("Imports from Chile were smaller than imports from Peru in May.",
         "Imports from Peru were larger than imports from Chile in May."),
        # the verb before a comparison restated from its other side agrees with it
        ("The Owls have won more away games than the Foxes this year.",
         "The Foxes have won fewer away games than the Owls this year."),
        # a number is no term: "than 2.7 are" holds no word of the claim's other side
        ("Firmware releases older than 2.7 are not supported by the dock.",
         "The dock does not support firmware releases older than 2.7."),
        # a word after "than" compares nothing itself
        ("Sales of heat pumps rose faster than sales of boilers.", "Sales of heat pumps rose faster than sales of boilers last year."),
    ],
)
def test_comparisons_read_as_terms_still_agree(claim: str, support: str) -> None:
    assert Reason.COMPARISON_MISMATCH not in reasons(claim, support)
    assert Reason.DIRECTION_MISMATCH not in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The mountain pass remains closed throughout the winter.", "The mountain pass remains open throughout the winter."),
        ("The central bank loosened monetary policy.", "The central bank tightened monetary policy."),
        ("Trade between the two ports dwindled after the canal opened.",
         "Trade between the two ports intensified after the canal opened."),
        ("The company formerly operated three plants.", "The company still operates three plants."),
        ("The ban has remained in force since 2015.", "The ban remained in force until 2015."),
        ("Many residents attended the hearing.", "Few residents attended the hearing."),
        ("Employees must complete the training.", "Employees should complete the training."),
        ("The second edition is superior to the first.", "The second edition is inferior to the first."),
        ("The country exports most of its grain.", "The country imports most of its grain."),
    ],
)
def test_more_opposites_disagree(claim: str, support: str) -> None:
    assert Reason.DIRECTION_MISMATCH in reasons(claim, support)


def test_the_most_common_is_not_a_frequency_word_of_its_own() -> None:
    assert Reason.DIRECTION_UNSTATED in reasons("The most prevalent adverse events are cardiovascular.",
                                                "Gastrointestinal events were most common.")


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("Women in the survey were three times as likely as men to cycle to work.",
         "Men in the survey were three times as likely as women to cycle to work."),
        ("The older bridge is not as wide as the new bridge.", "The new bridge is not as wide as the older bridge."),
        ("Snowfall is heavier in January than in March.", "Snowfall is heavier in March than in January."),
        ("The router sends more packets to the spare link than to the main link.",
         "The router sends more packets to the main link than to the spare link."),
        ("Fares for the night bus are 20 percent higher than for the day bus.",
         "Fares for the day bus are 20 percent higher than for the night bus."),
        ("Firmware 2.1 boots faster than firmware 3.0 on older boards.",
         "Firmware 3.0 boots faster than firmware 2.1 on older boards."),
        ("Riders who paid by app waited longer than riders who paid in cash.",
         "Riders who paid in cash waited longer than riders who paid by app."),
    ],
)
def test_swapped_terms_are_a_comparison_mismatch(claim: str, support: str) -> None:
    assert Reason.COMPARISON_MISMATCH in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        # a bare "as ... as" states an equality: either way round
        ("The ferry is as fast as the train.", "The train is as fast as the ferry."),
        # the words of a comparison restated from its other side turn with it
        ("Fatigue was less common with the short course than with the long course.",
         "Fatigue was more common with the long course than with the short course."),
        # two comparatives no pair relates are not read as the same one
        ("The old engine is louder at idle than the new engine.", "The new engine is quieter at idle than the old engine."),
    ],
)
def test_comparisons_that_agree(claim: str, support: str) -> None:
    assert Reason.COMPARISON_MISMATCH not in reasons(claim, support)
    assert Reason.DIRECTION_MISMATCH not in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The council backed the plan for a new bus depot.", "The council rejected the plan for a new bus depot."),
        ("Most residents opposed the new curfew.", "Most residents supported the new curfew."),
        ("All three climbers survived the avalanche.", "All three climbers died in the avalanche."),
        ("The exam was easy for most candidates.", "The exam was difficult for most candidates."),
        ("The alloy is a good conductor of electricity.", "The alloy is a poor conductor of electricity."),
        ("The vaccine was poorly tolerated by older adults.", "The vaccine was well tolerated by older adults."),
        ("The clinic serves mainly rural patients.", "The clinic serves mainly urban patients."),
        ("The hospital is privately run.", "The hospital is publicly run, not private."),
        ("The fault affects only models newer than 2019.", "The fault affects only models older than 2019."),
        ("The striker joined the club in 2015.", "The striker quit the club in 2015."),
        ("The board agreed with the auditors' findings.", "The board disagreed with the auditors' findings."),
    ],
)
def test_opposites_of_stance_life_ease_quality_and_place_are_found(claim: str, support: str) -> None:
    assert Reason.DIRECTION_MISMATCH in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("Critics faulted its pacing but praised its score.", "Critics praised it for its score but faulted its pacing."),
        ("The harbour lies 30 km north of the reef.", "The reef lies 30 km south of the harbour."),
        ("She left the company in 2010.", "She left the company in 2010 to found a charity."),
        ("The drug works well in children.", "The drug works well in children and adults."),
        ("The castle is older than the abbey.", "The abbey is newer than the castle."),
        ("Patients on the drug reported fewer side effects.", "Patients on the drug reported fewer side effects."),
    ],
)
def test_opposites_said_from_the_other_side_or_as_plain_words_agree(claim: str, support: str) -> None:
    assert Reason.DIRECTION_MISMATCH not in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("Serum IL-6 levels doubled in treated mice.", "Serum IL-6 levels decreased twofold in treated mice.",
         Reason.DIRECTION_MISMATCH),
        ("The Nile River is not shorter than the Amazon River.", "The Amazon River is longer than the Nile River.",
         Reason.DIRECTION_MISMATCH),
        ("The old castle is still a fortress.", "The old castle was once a fortress.", Reason.DIRECTION_MISMATCH),
        ("The modified alloy is denser than standard aluminium.", "The modified alloy is less dense than standard "
         "aluminium.", Reason.DIRECTION_MISMATCH),
        ("Store-brand oil was dearer than the leading label.", "Store-brand oil was cheaper than the leading label.",
         Reason.DIRECTION_MISMATCH),
        ("Students are required to submit a draft.", "Students are encouraged to submit a draft.",
         Reason.DIRECTION_MISMATCH),
        ("Buses on the route usually run late.", "Buses on the route sometimes run late.", Reason.DIRECTION_MISMATCH),
        ("The regulator lifted the cap on fees to 4 percent.", "The regulator trimmed the cap on fees to 4 percent.",
         Reason.DIRECTION_MISMATCH),
        ("The critics censured the staging of the opera.", "The critics praised the staging of the opera.",
         Reason.DIRECTION_MISMATCH),
        ("The tribunal found the clause void.", "The tribunal found the clause binding.", Reason.DIRECTION_MISMATCH),
        ("The gecko is nocturnal and hunts insects.", "The gecko is diurnal and hunts insects.", Reason.DIRECTION_MISMATCH),
        ("The minister conceded that the figures were wrong.", "The minister denied that the figures were wrong.",
         Reason.DIRECTION_MISMATCH),
        ("Once opened, the jar has to be kept in a fridge.", "Once opened, the jar can be kept in a fridge.",
         Reason.DIRECTION_MISMATCH),
        ("The MP voted against the bill.", "The MP voted in favour of the bill.", Reason.DIRECTION_MISMATCH),
        ("Sugar is sweet enough to eat on its own.", "The berry is too bitter to eat on its own.", Reason.DIRECTION_MISMATCH),
        ("Ridership went up by 12 percent.", "Ridership fell by 12 percent.", Reason.DIRECTION_MISMATCH),
        ("The senate rejected the treaty.", "The senate ratified the treaty.", Reason.DIRECTION_MISMATCH),
        ("Bonds outpaced equities last year.", "Bonds lagged equities last year.", Reason.DIRECTION_MISMATCH),
        ("The glacier's retreat has been speeding up.", "The glacier's retreat has been slowing.",
         Reason.DIRECTION_MISMATCH),
        ("The dam burst after the rain began.", "The dam had already burst when the rain began.",
         Reason.DIRECTION_MISMATCH),
        ("Sales picked up once the new store opened in the town.",
         "Sales had already picked up before the new store opened in the town.", Reason.DIRECTION_MISMATCH),
        ("The critics panned the new production of the opera.",
         "The critics praised the new production of the opera.", Reason.DIRECTION_MISMATCH),
        ("The lake is shallow near the northern shore.", "The lake is deep near the northern shore.",
         Reason.DIRECTION_MISMATCH),
    ],
)
def test_found(claim: str, support: str, reason: Reason) -> None:
    """Pairs written for this rule's findings (dev sets): each finds its reason."""
    assert reason in reasons(claim, support)
