"""Polarity, direction and comparison: a claim is never verified by support that says the opposite."""

from __future__ import annotations

import pytest

from arborist.verify import (
    Label,
    Reason,
    Verdict,
    VerifierPolicy,
    verifier_policy_hash,
    verify_answer,
)
from arborist.verify.vetoes import compare

LEX = VerifierPolicy().lexicon()


def lattice(claim: str, quote: str, text: str | None = None, question: str | None = None):
    evidence = [{"id": "E1", "title": claim, "text": text or quote}]
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    v = verify_answer(question or claim, "claim_lattice", evidence, answer)
    return v, v.claims[0]


def untitled(claim: str, quote: str):
    """The claim over its quote under a title that holds none of the claim's words (`lattice` titles the
    evidence with the claim, which states its numbers)."""
    evidence = [{"id": "E1", "title": "Report", "text": quote}]
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    return verify_answer(claim, "claim_lattice", evidence, answer)


def reasons(claim: str, support: str) -> set[Reason]:
    return {f.reason for f in compare(claim, support, LEX)}


# --- the two reversed claims of the issue, and their kin -------------------------------------------------


def test_reduces_against_induced_is_a_direction_mismatch() -> None:
    v, c = lattice(
        "PD-1 triggering on monocytes reduces IL-10 production by monocytes.",
        "Triggering of PD-1 expressed on monocytes by PD-L1 induced IL-10 production by monocytes.",
    )
    assert c.checks.quote is not None and c.checks.quote.passed
    assert Reason.DIRECTION_MISMATCH in c.reasons
    assert c.verdict not in (Verdict.VERIFIED_QUOTE, Verdict.VERIFIED_SPAN) and v.label is not Label.STRICT
    assert any("reduces" in n and "induced" in n for n in c.notes)


def test_more_adept_at_suppressing_against_unable_to_suppress_is_a_negation_mismatch() -> None:
    v, c = lattice(
        "Treg cells lacking integrin avb8 are more adept at suppressing pathogenic T cell responses.",
        "Treg cells lacking expression of integrin avb8 were unable to suppress pathogenic T cell responses.",
    )
    assert Reason.NEGATION_MISMATCH in c.reasons and v.label is not Label.STRICT


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


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("Aspirin reduces the risk of colorectal cancer.", "Aspirin use decreased the risk of colorectal cancer."),
        ("Caspase-11 is not required for caspase-1 activation.",
         "Caspase-11 was dispensable for caspase-1 activation."),
        ("Statin use is not associated with hip fracture.", "Statin use was not significantly associated with hip fracture."),
        ("Mice lacking Sirt1 are hypersensitive to dietary obesity.",
         "Mice lacking SIRT1 in SF1 neurons are hypersensitive to dietary obesity."),
        ("Genetic deficiency of mast cells leads to decreased weight gain in mice.",
         "Genetic deficiency of mast cells reduces body weight gain in mice."),
        ("Not only the liver but also the kidney is affected.", "The liver and the kidney are affected."),
        ("Statins do not reduce mortality.", "Statins did not reduce mortality in the trial."),
        ("Caspase-11 is not required for activation.", "Caspase-11 was not required for activation of caspase-1."),
    ],
)
def test_agreeing_paraphrases_have_no_findings(claim: str, support: str) -> None:
    assert reasons(claim, support) == set()


def test_agreeing_quote_verifies() -> None:
    v, c = lattice("Aspirin reduces the risk of colorectal cancer.", "Aspirin use decreased the risk of colorectal cancer.")
    assert c.verdict is Verdict.VERIFIED_QUOTE and v.label is Label.STRICT


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


# --- policy -------------------------------------------------------------------------------------------------


def test_word_lists_are_policy_values_in_the_hash() -> None:
    base = verifier_policy_hash(VerifierPolicy())
    assert verifier_policy_hash(VerifierPolicy(negation_words=("not",))) != base
    assert verifier_policy_hash(VerifierPolicy(negative_prefixes=("un",))) != base
    pairs = dict(VerifierPolicy().direction_pairs)
    pairs.pop("order")
    assert verifier_policy_hash(VerifierPolicy(direction_pairs=pairs)) != base
    assert verifier_policy_hash(VerifierPolicy(polarity_checks=False)) != base


def test_policy_lists_drive_the_check() -> None:
    claim, quote = "The toxin was detected before the onset.", "The toxin was detected after the onset."
    pairs = dict(VerifierPolicy().direction_pairs)
    pairs.pop("order")
    evidence = [{"id": "E1", "title": "Toxin", "text": quote}]
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}]}
    strict = verify_answer(claim, "claim_lattice", evidence, answer)
    lax = verify_answer(claim, "claim_lattice", evidence, answer, VerifierPolicy(direction_pairs=pairs))
    off = verify_answer(claim, "claim_lattice", evidence, answer, VerifierPolicy(polarity_checks=False))
    assert Reason.DIRECTION_MISMATCH in strict.claims[0].reasons
    assert Reason.DIRECTION_MISMATCH not in lax.claims[0].reasons
    assert Reason.DIRECTION_MISMATCH not in off.claims[0].reasons


# --- abbreviations ---------------------------------------------------------------------------------------------


def test_abbreviation_defined_in_the_evidence_counts_in_either_form() -> None:
    from arborist.verify.abbreviations import definitions, expand

    text = "Panic-prone rats had high levels of orexin in the cerebrospinal fluid (CSF). CSF orexin rose with panic."
    defs = definitions(text)
    assert defs == {"CSF": "cerebrospinal fluid"}
    assert expand("orexin in CSF", defs) == expand("orexin in cerebrospinal fluid", defs) == (
        "orexin in cerebrospinal fluid (CSF)")
    quote = "CSF orexin rose with panic."
    _, c = lattice("Cerebrospinal fluid orexin rose with panic.", quote, text=text)
    assert c.verdict is Verdict.VERIFIED_QUOTE, c.reasons


def test_a_word_in_parentheses_that_spells_nothing_is_no_definition() -> None:
    from arborist.verify.abbreviations import definitions

    assert definitions("The trial enrolled adults (NOTE) over ten years.") == {}
    assert definitions("prion protein (PrP) and glucagon-like peptide 1 (GLP-1)") == {
        "PrP": "prion protein", "GLP-1": "glucagon-like peptide 1"}


def test_incapable_negates_what_follows() -> None:
    assert Reason.NEGATION_MISMATCH in reasons(
        "Mice are incapable of producing neutralizing antibodies to the virus.",
        "A single dose of the virus produced neutralizing antibodies in mice.",
    )


# --- invariants on real text ---------------------------------------------------------------------------------


@pytest.mark.data
def test_no_real_sentence_disagrees_with_itself(shared_data) -> None:  # type: ignore[no-untyped-def]
    """A claim that is its own quote has nothing to disagree with, however many times its words repeat."""
    import json

    from arborist.text import sentences

    squad = json.loads((shared_data / "squad-single-hop" / "dev-v1.1-13-articles.json").read_text(encoding="utf-8"))
    texts = [s for a in squad["data"] for p in a["paragraphs"] for s in sentences(p["context"])]
    assert len(texts) > 3000
    disagreeing = [s for s in texts if compare(s, s, LEX)]
    assert disagreeing == []


def test_claims_and_quotes_with_repeated_words_line_up_in_parallel() -> None:
    text = "The role may be filled by a friend, who may hold any office, from Elder to Bishop, or no office at all."
    assert reasons(text, text) == set()


# --- roles: the same words, the verb's two sides swapped ------------------------------------------------


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


# --- two terms exchanged around a middle both keep ------------------------------------------------------


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


def test_symmetric_words_are_a_policy_value() -> None:
    claim, support = "Depression is linked to obesity.", "Obesity is linked to depression."
    assert Reason.ROLES_SWAPPED not in reasons(claim, support)
    strict = VerifierPolicy(symmetric_words=())
    assert Reason.ROLES_SWAPPED in {f.reason for f in compare(claim, support, strict.lexicon())}
    assert verifier_policy_hash(strict) != verifier_policy_hash(VerifierPolicy())


# --- certainty: a supposition or a correlation stated as fact or cause --------------------------------------


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


# --- a negator that denies its whole clause ---------------------------------------------------------------


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


def test_a_passive_with_its_agent_far_from_the_verb_keeps_its_roles() -> None:
    support = "Photosynthesis converts light energy into chemical energy."
    assert Reason.ROLES_SWAPPED not in reasons("Light energy is converted into chemical energy by photosynthesis.",
                                               support)


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


def test_counts_written_as_words_and_ordinals_are_numbers() -> None:
    v, _ = lattice("Federer won 8 Wimbledon singles titles.", "Roger Federer won eight Wimbledon singles titles.")
    assert v.label is Label.STRICT
    v, _ = lattice("The battle took place in the 16th century.", "The battle took place in the 15th century.")
    assert v.label is not Label.STRICT
    v, _ = lattice("The city grew to three million people.", "The city grew to two million people.")
    assert v.label is not Label.STRICT


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


@pytest.mark.parametrize(
    ("claim", "support", "expected"),
    [  # from a review of the rules above: each was wrong before its fix
        ("No patients in the trial developed antibodies after the second dose.",
         "Patients in the trial who did not receive the vaccine developed antibodies after the second dose.",
         {Reason.NEGATION_MISMATCH}),
        ("None of the patients in the trial developed antibodies.", "No patient in the trial developed antibodies.",
         set()),
        ("The vaccine protects children from measles.",
         "The vaccine is not an option for adults but protects children from measles.", set()),
        ("Smoking causes lung cancer in adults.", "Smoking causes lung cancer in adults and is associated with stroke.",
         set()),
        ("The drug slows decline in patients with dementia.",
         "The trial ended early. Perhaps the drug slows decline in patients with dementia.",
         {Reason.CERTAINTY_UNSTATED}),
        ("The car reached 60 per hour.", "The car reached 60 miles per hour.", set()),
    ],
)
def test_reviewed_edges(claim: str, support: str, expected: set[Reason]) -> None:
    assert reasons(claim, support) == expected


def test_a_spelled_compound_count_is_no_pair_of_numbers() -> None:
    v, c = lattice("The ward had twenty-five patients.", "The ward had twenty-five patients in 2019.")
    assert v.label is Label.STRICT and Reason.NUMBER_MISSING not in c.reasons


def test_plural_first_words_are_not_replaced_names() -> None:
    v, _ = lattice("Researchers found that the gene regulates growth.", "Scientists found that the gene regulates growth.")
    assert not any("stands where its quote says" in n for n in v.claims[0].notes)


# --- a claim's parts, ordinals and multiples, "once daily", rare negators, base-form verbs ---------------------


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


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("She finished third in the 400 metres.", "She finished second in the 400 metres."),
        ("The city's population tripled between 1950 and 1980.", "The city's population doubled between 1950 and 1980."),
        ("The drug is taken once daily with food.", "The drug is taken twice daily with food."),
        ("Output rose fourfold after the upgrade.", "Output rose threefold after the upgrade."),
    ],
)
def test_ordinals_multiples_and_frequencies_are_numbers(claim: str, quote: str) -> None:
    evidence = [{"id": "E1", "title": "Report", "text": quote}]
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    v = verify_answer(claim, "claim_lattice", evidence, answer)
    assert Reason.NUMBER_MISSING in v.claims[0].reasons and v.label is not Label.STRICT


def test_a_multiple_said_as_a_count_and_once_as_formerly() -> None:
    assert lattice("Messi scored two goals in the final.", "Messi scored twice in the final.")[0].label is Label.STRICT
    v, c = lattice("The mill was once the largest employer in town.", "The mill was once the largest employer in town.")
    assert v.label is Label.STRICT and Reason.NUMBER_MISSING not in c.reasons


def test_rarely_and_seldom_deny_what_follows() -> None:
    v, c = lattice("Mutations in the gene lead to symptomatic disease.",
                   "Mutations in the gene rarely lead to symptomatic disease.")
    assert Reason.NEGATION_MISMATCH in c.reasons and v.label is not Label.STRICT
    assert lattice("Mutations in the gene seldom cause disease.",
                   "Mutations in the gene rarely cause disease.")[0].label is Label.STRICT


def test_a_base_form_verb_after_a_plural_subject_is_read_as_a_verb() -> None:
    assert Reason.CERTAINTY_UNSTATED in reasons("Low vitamin D levels cause depression.",
                                                "Low vitamin D levels have been linked to depression.")
    assert Reason.ROLES_SWAPPED in reasons("Elk prey on wolves in the northern range.",
                                           "Wolves prey on elk in the northern range.")
    assert not reasons("Wolves prey on elk in the northern range.", "Wolves prey on elk in the northern range.")


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
    ("claim", "support"),
    [
        ("The compound prevented weight gain.", "In mice fed a high-fat diet, the compound prevented weight gain."),
        ("Among adults, daily walking was linked to lower blood pressure.",
         "Among men over 60, daily walking was linked to lower blood pressure."),
        ("The medication is considered safe during pregnancy.",
         "The medication is considered safe during pregnancy only if taken after the first trimester."),
        ("The fungicide loses its effectiveness.", "When the soil is waterlogged, the fungicide loses its effectiveness."),
        ("The function raises a KeyError.", "The function raises a KeyError unless a default is given."),
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


def test_a_phrase_after_a_preposition_is_a_part_of_its_own() -> None:
    v, c = lattice("The vaccine elicited neutralizing antibodies in nonhuman primates.",
                   "The vaccine elicited neutralizing antibodies in two mouse models.")
    assert Reason.PART_UNSTATED in c.reasons and v.label is not Label.STRICT
    assert any("in nonhuman primates" in n for n in c.notes)
    assert lattice("The vaccine elicited antibodies in mice.",
                   "In mice, the vaccine elicited neutralizing antibodies.")[0].label is Label.STRICT


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


def test_short_words_ending_in_ed_are_no_verbs() -> None:
    assert not reasons("The referee showed the defender a red card in the 80th minute.",
                       "The defender was shown a red card by the referee in the 80th minute.")


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


def test_decades_and_halves_are_numbers_the_support_must_state() -> None:
    evidence = [{"id": "E1", "title": "Report", "text": "The policy was widely adopted in the 1970s. About a third "
                 "of the respondents had never used it."}]
    for claim, quote in [("The policy was widely adopted in the 1960s.", "The policy was widely adopted in the 1970s."),
                         ("About half of the respondents had never used it.",
                          "About a third of the respondents had never used it.")]:
        answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
        v = verify_answer(claim, "claim_lattice", evidence, answer)
        assert Reason.NUMBER_MISSING in v.claims[0].reasons and v.label is not Label.STRICT


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


# --- review of the /19-/20 rules -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("Serum IL-6 levels doubled in treated mice.", "Serum IL-6 levels decreased twofold in treated mice.",
         Reason.DIRECTION_MISMATCH),
        ("The vaccine does not cause fever in young children.", "The vaccine rarely causes fever in young children.",
         Reason.NEGATION_MISMATCH),
        ("Rome conquered Carthage, which had a shorter history than Rome.",
         "Carthage conquered Rome, which had a longer history than Carthage.", Reason.ROLES_SWAPPED),
        ("The Nile River is not shorter than the Amazon River.", "The Amazon River is longer than the Nile River.",
         Reason.DIRECTION_MISMATCH),
        ("President Lincoln freed the enslaved people of the South.",
         "The enslaved people of the South freed President Lincoln.", Reason.ROLES_SWAPPED),
        ("Metformin lowered the HbA1c level of adults.", "In those with diabetes, metformin lowered the HbA1c level "
         "of adults.", Reason.SCOPE_DROPPED),
        ("The old castle is still a fortress.", "The old castle was once a fortress.", Reason.DIRECTION_MISMATCH),
    ],
)
def test_reviewed_rules_still_find(claim: str, support: str, reason: Reason) -> None:
    assert reason in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The drug reduced pain in adults over six weeks.",
         "The drug may cause nausea, but it reduced pain in adults over six weeks."),
        ("The club won the league title.", "The club claimed the league title."),
        ("Patients took the recommended dose twice a day.", "Patients took the recommended dose twice a day."),
        ("Transforming growth factor beta suppressed T cell proliferation.",
         "T cell proliferation was suppressed after exposure to transforming growth factor beta."),
        ("The drug works in mice and in humans.", "The drug works not only in mice but also in humans."),
        ("Prices rose.", "In the late 1990s, prices rose."),
        ("The function returns None.", "Unless otherwise stated, the function returns None."),
        ("Species diversity declined in the lake.", "Species diversity declined in the lake."),
    ],
)
def test_reviewed_paraphrases_agree(claim: str, support: str) -> None:
    assert not reasons(claim, support)


def test_reviewed_numbers() -> None:
    def label(claim: str, quote: str) -> Label:
        evidence = [{"id": "E1", "title": "Report", "text": quote}]
        answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
        return verify_answer(claim, "claim_lattice", evidence, answer).label

    assert label("About half of the voters backed the plan.", "About 50% of the voters backed the plan.") is Label.STRICT
    assert label("About 50 percent of the registered voters in the county backed the plan.",
                 "About half of the registered voters in the county backed the plan.") is Label.STRICT
    for claim, quote in [
        ("The half-life of caffeine in adults is 50 hours.", "The half-life of caffeine in adults is 5 hours."),
        ("In the first half of the season, the club won 50 matches.",
         "In the first half of the season, the club won 15 matches."),
        ("Exactly 3 of the 30 patients relapsed within a year.", "A third of the 30 patients relapsed within a year."),
    ]:
        assert label(claim, quote) is not Label.STRICT, claim
    assert label("In addition, the drug lowered blood pressure.", "The drug lowered blood pressure.") is Label.STRICT
    assert label("Second, the drug lowered blood pressure.", "The drug lowered blood pressure.") is Label.STRICT


def test_a_long_support_is_read_in_linear_time() -> None:
    support = "x" * 200_000 + " " + "if " * 999
    assert isinstance(compare("The drug works if taken.", support, LEX), list)  # no quadratic scan of the text


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("The modified alloy is denser than standard aluminium.", "The modified alloy is less dense than standard "
         "aluminium.", Reason.DIRECTION_MISMATCH),
        ("Store-brand oil was dearer than the leading label.", "Store-brand oil was cheaper than the leading label.",
         Reason.DIRECTION_MISMATCH),
        ("It will pass within 1.2 million miles of Earth.", "It will pass within 1.2 million kilometres of Earth.",
         Reason.UNIT_MISMATCH),
        ("Each key may make up to 100 requests per hour.", "Each key may make up to 100 requests per minute.",
         Reason.UNIT_MISMATCH),
        ("The contract is worth $2.3 billion over four years.", "The contract is worth $2.3 million over four years.",
         Reason.UNIT_MISMATCH),
        ("Coffee consumption lowered the risk of gallstones in the cohort.",
         "Coffee consumption was linked to a lower risk of gallstones in the cohort.", Reason.CERTAINTY_UNSTATED),
        ("The defendant forged the signatures.", "Prosecutors said the defendant forged the signatures.",
         Reason.CERTAINTY_UNSTATED),
        ("Students are required to submit a draft.", "Students are encouraged to submit a draft.",
         Reason.DIRECTION_MISMATCH),
        ("Buses on the route usually run late.", "Buses on the route sometimes run late.", Reason.DIRECTION_MISMATCH),
        ("Pasta needs three extra minutes of boiling.", "At high altitude, pasta needs three extra minutes of boiling.",
         Reason.SCOPE_DROPPED),
    ],
)
def test_held_out_three_classes_are_found(claim: str, support: str, reason: Reason) -> None:
    assert reason in reasons(claim, support)


def test_a_name_with_a_capital_inside_must_be_stated() -> None:
    evidence = [{"id": "E1", "title": "Release notes", "text": "The bug was fixed in the Android app in version 8.1."}]
    claim = "The bug was fixed in the iOS app in version 8.1."
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": evidence[0]["text"]}],
              "abstained_requests": []}
    v = verify_answer(claim, "claim_lattice", evidence, answer)
    assert Reason.ENTITY_MISSING in v.claims[0].reasons and v.label is not Label.STRICT


def test_the_most_common_is_not_a_frequency_word_of_its_own() -> None:
    assert Reason.DIRECTION_UNSTATED in reasons("The most prevalent adverse events are cardiovascular.",
                                                "Gastrointestinal events were most common.")


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("The council will plant two thousand trees.", ["2000"]),
        ("The ward had twenty-five patients.", ["25"]),
        ("It took one hundred and twenty days.", ["120"]),
        ("Two hundred and fifty-three votes were cast.", ["253"]),
        ("Thousands of people marched.", []),
        ("Five million people live there.", ["5"]),
        ("Ten twenty-minute sessions were held.", ["10", "20"]),
    ],
)
def test_count_words_joined_into_one_number_are_that_number(text: str, numbers: list[str]) -> None:
    from arborist.verify.normalize import tokenise

    assert [t.norm for t in tokenise(text) if t.number] == numbers


def test_a_number_written_in_words_states_its_digits() -> None:
    evidence = [{"id": "E1", "title": "Trees", "text": "The council will plant two thousand trees this winter."}]
    claim = "The council will plant 2,000 trees this winter."
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": evidence[0]["text"]}],
              "abstained_requests": []}
    assert verify_answer(claim, "claim_lattice", evidence, answer).label is Label.STRICT


# --- policy /24: terms of a comparison, equatives, fractions, frequencies, parts ----------------------------


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
def test_policy_24_swapped_terms_are_a_comparison_mismatch(claim: str, support: str) -> None:
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
def test_policy_24_comparisons_that_agree(claim: str, support: str) -> None:
    assert Reason.COMPARISON_MISMATCH not in reasons(claim, support)
    assert Reason.DIRECTION_MISMATCH not in reasons(claim, support)


def test_policy_24_frequency_after_a_is_a_unit() -> None:
    assert Reason.UNIT_MISMATCH in reasons("Water the cuttings twice a day in summer.",
                                           "Water the cuttings twice a week in summer.")
    assert Reason.UNIT_MISMATCH not in reasons("Water the cuttings twice a day.", "Water the cuttings twice a day in summer.")


def test_policy_24_fractions_are_numbers_and_shares() -> None:
    def label(claim: str, quote: str) -> tuple[Label, list[Reason]]:
        evidence = [{"id": "E1", "title": "Report", "text": quote}]
        answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
        v = verify_answer(claim, "claim_lattice", evidence, answer)
        return v.label, v.claims[0].reasons

    lab, why = label("About a quarter of the flats are social housing.", "About a third of the flats are social housing.")
    assert Reason.NUMBER_MISSING in why and lab is not Label.STRICT
    assert label("Two thirds of members voted in favour.", "Two thirds of members voted in favour of the plan.")[0] \
        is Label.STRICT
    # a share stated as a fraction or as a percentage is the same share
    assert label("Sales in May were a fifth below their 2019 level.",
                 "Sales in May were 20 percent below their 2019 level.")[0] is Label.STRICT
    lab, why = label("Sales in May were a fifth below their 2019 level.",
                     "Sales in May were 25 percent below their 2019 level.")
    assert Reason.NUMBER_MISSING in why and lab is not Label.STRICT


@pytest.mark.parametrize(
    ("claim", "quote", "added"),
    [
        ("The site was offline for 20 minutes on Monday because of a broken cable.",
         "The site was offline for 20 minutes on Monday.", "of a broken cable"),
        ("Snow cover on the northern plains was 15 percent below normal in April.",  # ("across": QUALIFIER_UNSTATED)
         "Snow cover in the alpine regions was 15 percent below normal in April.", "on the northern plains"),
    ],
)
def test_policy_24_causes_and_phrases_are_parts(claim: str, quote: str, added: str) -> None:
    v, c = lattice(claim, quote)
    assert Reason.PART_UNSTATED in c.reasons and v.label is not Label.STRICT
    assert any(added in n for n in c.notes)


def test_policy_24_compared_with_states_nothing_itself() -> None:
    assert lattice("Compared with the old scanner, the new scanner reads barcodes faster.",
                   "The new scanner reads barcodes faster than the old scanner.")[0].label is Label.STRICT


@pytest.mark.parametrize(
    ("claim", "quote", "reason"),
    [
        # a past state stated now
        ("The quarry is the main source of slate in the county.",
         "The quarry was once the main source of slate in the county.", Reason.SCOPE_DROPPED),
        # refusing is not doing
        ("The council refused to publish the audit before the election.",
         "The council published the audit before the election.", Reason.NEGATION_MISMATCH),
        # "not all" states no "all"
        ("All tenants in the block received the rent rebate.",
         "Not all tenants in the block received the rent rebate.", Reason.QUALIFIER_UNSTATED),
        ("Ticket sales slumped after the review appeared in March.",
         "Ticket sales surged after the review appeared in March.", Reason.DIRECTION_MISMATCH),
        # reported, recommended or held by tradition, not done
        ("The herbicide has been banned on school grounds.",
         "A health panel has recommended banning the herbicide on school grounds.", Reason.CERTAINTY_UNSTATED),
        ("The kettle boils a litre in 90 seconds.", "The maker claims the kettle boils a litre in 90 seconds.",
         Reason.CERTAINTY_UNSTATED),
        ("The bridge was built by Roman soldiers in the second century.",
         "Local legend holds that the bridge was built by Roman soldiers in the second century.",
         Reason.CERTAINTY_UNSTATED),
        ("The fare rise caused a fall in weekend ridership.", "The fare rise coincided with a fall in weekend ridership.",
         Reason.CERTAINTY_UNSTATED),
        # "can" is not "will"
        ("Heavy rain on the ridge will trigger floods in the lower town.",
         "Heavy rain on the ridge can trigger floods in the lower town.", Reason.CERTAINTY_UNSTATED),
        # a restriction's numbers are part of it
        ("The vitamin improved bone density in women over two years.",
         "For women aged 50 to 65, the vitamin improved bone density over two years.", Reason.SCOPE_DROPPED),
    ],
)
def test_policy_24_time_refusal_quantifier_report_and_modality(claim: str, quote: str, reason: Reason) -> None:
    v, c = lattice(claim, quote)
    assert reason in c.reasons and v.label is not Label.STRICT


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("The quarry was the main source of slate in the county.",
         "The quarry was once the main source of slate in the county."),
        ("The council did not publish the audit before the election.",
         "The council refused to publish the audit before the election."),
        ("The champion claimed the title in 2014.", "The champion claimed the title in Paris in 2014."),
        ("Heavy rain on the ridge can trigger floods.", "Heavy rain on the ridge can trigger floods in the lower town."),
        ("The vitamin improved bone density in women aged 50 to 65.",
         "For women aged 50 to 65, the vitamin improved bone density over two years."),
    ],
)
def test_policy_24_faithful_restatements_still_pass(claim: str, quote: str) -> None:
    assert lattice(claim, quote)[0].label is Label.STRICT


def _one(claim: str, quote: str, passage: str) -> tuple[Label, list[Reason]]:
    evidence = [{"id": "E1", "title": "Notes", "text": passage}]
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    v = verify_answer(claim, "claim_lattice", evidence, answer)
    return v.label, v.claims[0].reasons


@pytest.mark.parametrize(
    "passage",
    [
        "Some parents wrongly believe that fluoride causes asthma. Reviews found no link.",
        "It is a popular myth that fluoride causes asthma. Reviews found no link.",
        "No study has shown that fluoride causes asthma.",
        "A blogger falsely claimed that fluoride causes asthma, and later retracted it.",
    ],
)
def test_a_quote_is_read_with_the_start_of_its_sentence(passage: str) -> None:
    label, why = _one("Fluoride causes asthma.", "fluoride causes asthma", passage)
    assert label is not Label.STRICT and why


def test_a_quote_that_starts_its_sentence_reads_as_before() -> None:
    assert _one("Fluoride strengthens tooth enamel.", "Fluoride strengthens tooth enamel",
                "Fluoride strengthens tooth enamel. It is added to tap water.")[0] is Label.STRICT


def test_a_short_statement_is_no_bare_answer() -> None:
    # a verb between two words states something, verified as any claim is; a short name is still a bare answer
    assert _one("Caffeine blocks adenosine receptors.", "Caffeine blocks adenosine receptors.",
                "Caffeine blocks adenosine receptors. It is found in coffee.")[0] is Label.STRICT
    label, why = _one("14 days", "The warranty covers returns for 14 days.",
                      "The warranty covers returns for 14 days. Refunds take a week.")
    assert Reason.BARE_ANSWER in why and label is not Label.STRICT


@pytest.mark.parametrize(
    ("claim", "quote", "reason"),
    [
        ("Each of the club's coaches holds a national licence.", "Most of the club's coaches hold a national licence.",
         Reason.QUALIFIER_UNSTATED),
        ("The board unanimously approved the merger.", "A majority of the board approved the merger.",
         Reason.QUALIFIER_UNSTATED),
        ("The old login page has been retired in release 9.", "The old login page will be retired in release 9.",
         Reason.CERTAINTY_UNSTATED),
    ],
)
def test_policy_24_each_unanimous_and_future(claim: str, quote: str, reason: Reason) -> None:
    v, c = lattice(claim, quote)
    assert reason in c.reasons and v.label is not Label.STRICT


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("Each of the club's coaches holds a national licence.", "All of the club's coaches hold a national licence."),
        ("The old login page will be retired in release 9.", "The old login page will be retired in release 9 of the app."),
    ],
)
def test_policy_24_each_and_future_restated_pass(claim: str, quote: str) -> None:
    assert lattice(claim, quote)[0].label is Label.STRICT


def test_a_capital_that_only_opens_the_sentence_is_matched_by_its_stem() -> None:
    # "Inhibiting" is a word, capitalised because it starts the sentence before the name "TRPV1"
    assert _one("Inhibiting TRPV1 reduces pain in mice with arthritis.",
                "Inhibition of TRPV1 reduced pain in mice with arthritis.",
                "Inhibition of TRPV1 reduced pain in mice with arthritis. The effect lasted a day.")[0] is Label.STRICT
    # a name is still a name: "Novartis" is stated nowhere
    label, why = _one("Novartis Pharma acquired the start-up in 2019.", "Roche Pharma acquired the start-up in 2019.",
                      "Roche Pharma acquired the start-up in 2019. The price was not disclosed.")
    assert Reason.ENTITY_MISSING in why and label is not Label.STRICT


# --- another thing in the quote's subject --------------------------------------------------------------------


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


# --- from a review of /25 --------------------------------------------------------------------------------------


def test_a_second_cited_chunk_does_not_drop_the_quotes_lead_in() -> None:
    quote = "fluoride in tap water causes asthma in young children"
    evidence = [{"id": "E1", "title": "Myths", "text": f"It is a myth that {quote}."},
                {"id": "E2", "title": "Water", "text": "Tap water is treated at the plant."}]
    answer = {"claims": [{"text": "Fluoride in tap water causes asthma in young children.", "evidence_ids": ["E1", "E2"],
                          "quote": quote}], "abstained_requests": []}
    v = verify_answer("Does fluoride cause asthma?", "claim_lattice", evidence, answer)
    assert v.label is not Label.STRICT and Reason.CERTAINTY_UNSTATED in v.claims[0].reasons


def test_the_lead_in_never_hides_what_the_quote_itself_says() -> None:
    quote = "in humans the drug decreased appetite"
    v, c = lattice("The drug increased appetite.", quote,
                   text=f"Although the drug increased appetite in rats, {quote}.")
    assert v.label is not Label.STRICT and Reason.DIRECTION_MISMATCH in c.reasons


@pytest.mark.parametrize(
    ("claim", "quote", "strict"),
    [
        ("50.4% of the registered voters took part.", "Half of the registered voters took part.", False),
        ("33.4% of the registered voters took part.", "A third of the registered voters took part.", False),
        ("33.3% of the registered voters took part.", "A third of the registered voters took part.", True),
        ("50% of the registered voters took part.", "Half of the registered voters took part.", True),
    ],
)
def test_a_percentage_equals_a_fraction_only_to_its_own_precision(claim: str, quote: str, strict: bool) -> None:
    v, _ = lattice(claim, quote)
    assert (v.label is Label.STRICT) is strict


@pytest.mark.parametrize(
    ("claim", "support", "found"),
    [
        ("Large earthquakes will also produce landslides in mountain regions.",
         "Large earthquakes can also produce landslides in mountain regions.", Reason.CERTAINTY_UNSTATED),
        ("Fluoride held in reservoirs causes asthma in children.",
         "It is a myth that fluoride held in reservoirs causes asthma in children.", Reason.CERTAINTY_UNSTATED),
        ("The mine is the largest source of tin in Europe.",
         "Formerly, the mine was the largest source of tin in Europe.", Reason.SCOPE_DROPPED),
        ("The mine is the largest source of tin in Europe.",
         "The mine was once the largest source of tin in Europe.", Reason.SCOPE_DROPPED),
    ],
)
def test_reviewed_25_rules_find(claim: str, support: str, found: Reason) -> None:
    assert found in reasons(claim, support)


def test_once_as_when_is_no_former_state() -> None:
    assert not reasons("The lake is the largest reservoir in Europe.",
                       "The lake is the largest reservoir in Europe once the dam is finished.")


def test_a_swapped_last_word_and_a_spelling_variant() -> None:
    v, c = lattice("The patient was given warfarin.", "The patient was given heparin.")
    assert v.label is not Label.STRICT and any("between the same words" in n for n in c.notes)
    _, c = lattice("The drug slowed the growth of tumors.", "The drug slowed the growth of tumours.")
    assert not any("between the same words" in n for n in c.notes)


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


@pytest.mark.parametrize("quote", ["Far from all patients responded to the drug.",
                                   "By no means all patients responded to the drug.",
                                   "Not all patients responded to the drug."])
def test_a_denied_all_does_not_state_all(quote: str) -> None:
    v, _ = lattice("All patients responded to the drug.", quote)
    assert v.label is not Label.STRICT


# --- /26: reports, opposites, cessation, ended pasts, irregular forms -------------------------------------


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("The goalkeeper has signed for Benfica.", "Agents say the goalkeeper has signed for Benfica.",
         Reason.CERTAINTY_UNSTATED),
        ("A cracked seal caused the leak.", "Engineers suspect that a cracked seal caused the leak.",
         Reason.CERTAINTY_UNSTATED),
        ("The abbey was founded by Cistercian monks.", "Some scholars believe the abbey was founded by Cistercian monks.",
         Reason.CERTAINTY_UNSTATED),
        ("The painter burned his early canvases.", "It was rumoured that the painter burned his early canvases.",
         Reason.CERTAINTY_UNSTATED),
        ("The probe landed on the comet in June.", "The probe was scheduled to land on the comet in June.",
         Reason.CERTAINTY_UNSTATED),
        ("The ceasefire is permanent.", "The ceasefire is temporary.", Reason.DIRECTION_MISMATCH),
        ("The train arrived at Lyon an hour late.", "The train departed from Lyon an hour late.",
         Reason.DIRECTION_MISMATCH),
        ("The appeals court upheld the fine.", "The appeals court overturned the fine.", Reason.DIRECTION_MISMATCH),
        ("The mill produces woollen cloth.", "The mill stopped producing woollen cloth in 1931.",
         Reason.NEGATION_MISMATCH),
        ("Shepherds graze sheep on the island.", "Shepherds used to graze sheep on the island.", Reason.SCOPE_DROPPED),
        ("The bridge carries the main road.", "The bridge carried the main road until the bypass opened.",
         Reason.SCOPE_DROPPED),
        ("The survey has begun in the north.", "The survey will begin in the north in May.", Reason.CERTAINTY_UNSTATED),
        ("Ravens were beaten by Hawks in the final.", "Ravens beat Hawks in the final.", Reason.ROLES_SWAPPED),
    ],
)
def test_reports_opposites_and_ended_pasts_are_found(claim: str, support: str, reason: Reason) -> None:
    assert reason in reasons(claim, support)
    v, _ = lattice(claim, support, text=f"Background first. {support} More follows.")
    assert v.label is not Label.STRICT


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The ointment is commonly used to treat burns.", "The ointment is often used to treat burns."),
        ("The pass is valid for students.", "The pass is valid for students until June."),
        ("Shepherds grazed sheep on the island.", "Shepherds used to graze sheep on the island."),
        ("The bridge carried the main road.", "The bridge carried the main road until 1990."),
        ("Hawks beat Ravens in the final.", "Ravens were beaten by Hawks in the final."),
        ("The survey will begin in the north in May.", "The survey will begin in the north in May."),
        # the reviewer's false alarms: reduced relatives, "until" in a present clause, a past claim, nouns
        ("Chloroquine is used to treat malaria.", "Chloroquine is a drug used to treat malaria."),
        ("Honey is used to treat burns.", "Honey, used to treat burns since ancient times, contains peroxide."),
        ("The museum is open until 6 pm.", "The museum, which was founded in 1900, is open until 6 pm."),
        ("She sat on the board until 1990.", "She sat on the board until she retired in 1990."),
        ("Miners dug tin here in the 1800s.", "Miners used to dig tin here in the 1800s."),
        ("Corporal punishment is now banned in most schools.",
         "Corporal punishment was common until the 1980s, but is now banned in most schools."),
        ("The castle is a museum.", "The castle used to be a prison; today the castle is a museum."),
        ("Police arrested three people after the robbery.", "Police arrested three suspects after the robbery."),
        ("Air France operates flights to 20 cities.", "Air France operates scheduled flights to 20 cities."),
        ("A merger was announced on Monday.", "A long-rumoured merger was announced on Monday."),
        ("The firm built the first bridge.", "The firm built the first bridge and will build the second."),
        ("Route 9 serves the hospital.", "Route 9 has a stop serving the hospital."),
    ],
)
def test_the_same_past_or_roles_said_another_way_agree(claim: str, support: str) -> None:
    assert reasons(claim, support) == set()


def test_stopping_a_thing_denies_nothing() -> None:
    assert reasons("The keeper stopped two penalties.", "The keeper saved two penalties.") == set()


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


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("The river level stayed below the flood mark all week.", "The river level stayed above the flood mark all week.",
         Reason.DIRECTION_MISMATCH),
        ("The club moved down to the third tier in 2011.", "The club moved up to the third tier in 2011.",
         Reason.DIRECTION_MISMATCH),
        ("The tribunal ruled on the complaint.", "The tribunal declined to rule on the complaint.",
         Reason.NEGATION_MISMATCH),
        ("The firm filed its accounts on time.", "The firm neglected to file its accounts on time.",
         Reason.NEGATION_MISMATCH),
        ("The company reported its losses in Ireland.", "The company avoided reporting its losses in Ireland.",
         Reason.NEGATION_MISMATCH),
        ("The dockers walked out over the new rota.", "The dockers threatened to walk out over the new rota.",
         Reason.CERTAINTY_UNSTATED),
    ],
)
def test_levels_refusals_and_threats_are_found(claim: str, support: str, reason: Reason) -> None:
    assert reason in reasons(claim, support)
    v, _ = lattice(claim, support, text=f"Background first. {support} More follows.")
    assert v.label is not Label.STRICT


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("Prices declined in March.", "Prices declined in March."),
        ("Sales declined by 4% to 20 million units.", "Sales declined by 4% to 20 million units last year."),
        ("The frog is a threatened species of the cloud forest.", "The frog is a threatened species of the cloud forest."),
        ("The plant was shut down in 2009.", "The plant was shut down in 2009 after a fire."),
        ("The ship can carry up to 900 passengers.", "The ship carries up to 900 passengers."),
    ],
)
def test_a_decline_a_threatened_species_and_a_shut_down_plant_are_plain_words(claim: str, support: str) -> None:
    assert reasons(claim, support) == set()


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
    ("claim", "support", "reason"),
    [
        ("In the semi-final he beat the defending champion.", "In the semi-final he was beaten by the defending champion.",
         Reason.ROLES_SWAPPED),
        ("The bank lent the city 2 million pounds.", "The bank borrowed 2 million pounds from the city.",
         Reason.ROLES_SWAPPED),
        ("Ostrow Mining bought the smelter from Kessel Steel.", "Ostrow Mining sold the smelter to Kessel Steel.",
         Reason.ROLES_SWAPPED),
        ("The judge has sat on the tribunal since 1998.", "The judge sat on the tribunal from 1998 to 2006.",
         Reason.SCOPE_DROPPED),
        ("The lab has developed a vaccine against the virus.", "The lab is developing a vaccine against the virus.",
         Reason.CERTAINTY_UNSTATED),
        ("The crew built a replica of the ship.", "The crew is still building a replica of the ship.",
         Reason.CERTAINTY_UNSTATED),
        ("The band split up after the tour ended.", "The band had split up by the time the tour ended.",
         Reason.DIRECTION_MISMATCH),
    ],
)
def test_converse_verbs_ended_periods_and_work_in_progress_are_found(claim: str, support: str, reason: Reason) -> None:
    assert reason in reasons(claim, support)
    v, _ = lattice(claim, support, text=f"Background first. {support} More follows.")
    assert v.label is not Label.STRICT


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("A Dutch surgeon first described the syndrome in 1871.", "The syndrome was first described by a Dutch surgeon in 1871."),
        ("The regulator fined the bank 40 million euros.", "The bank was fined 40 million euros by the regulator."),
        ("Ostrow Mining bought the smelter from Kessel Steel.", "Kessel Steel sold the smelter to Ostrow Mining."),
        ("Ostrow Mining bought the smelter from Kessel Steel.", "The smelter was sold to Ostrow Mining by Kessel Steel."),
        ("The city borrowed 2 million pounds from the bank.", "The bank lent the city 2 million pounds."),
        ("The judge sat on the tribunal from 1998 to 2006.", "The judge sat on the tribunal from 1998 to 2006."),
        ("The judge has sat on the tribunal since 1998.", "Since 1998 the judge has sat on the tribunal, and from 2001 to 2004 chaired it."),
        ("The crew built a replica of the ship.", "The crew built a replica of the ship and is building another."),
        ("The band split up before the tour ended.", "The band had split up by the time the tour ended."),
        ("More than 3,000 coins are held in the collection.", "The collection includes over 3,000 coins."),
        ("Survival did not differ between the two arms.", "There was no significant difference in survival between the two arms."),
    ],
)
def test_passives_converses_bounds_and_degrees_said_another_way_agree(claim: str, support: str) -> None:
    assert reasons(claim, support) == set()


def test_a_difference_that_is_not_significant_is_still_denied() -> None:
    assert Reason.NEGATION_MISMATCH in reasons("The difference was significant.", "The difference was not significant.")


@pytest.mark.parametrize(
    ("claim", "quote", "strict"),
    [
        ("The bank raised its rate by 0.25 percentage points.", "The bank raised its rate by a quarter of a point.", True),
        ("The bank raised its rate by 0.26 percentage points.", "The bank raised its rate by a quarter of a point.", False),
        ("The port handles 2,000,000 containers a year.", "The port handles 2 million containers a year.", True),
        ("The port handles 3,000,000 containers a year.", "The port handles 2 million containers a year.", False),
        ("The comet returns every 500,000 years.", "The comet returns every half a million years.", True),
        ("Large impacts occur once every 500,000 years.", "Large impacts occur once every half a million years.", True),
    ],
)
def test_one_figure_written_two_ways_is_one_number(claim: str, quote: str, strict: bool) -> None:
    evidence = [{"id": "E1", "title": "Rates", "text": quote}]
    v = verify_answer(claim, "claim_lattice", evidence,
                      {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []})
    assert (Reason.NUMBER_MISSING not in v.claims[0].reasons) is strict


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
        ("The committee has approved the new budget.", "The committee is debating the new budget.",
         Reason.CERTAINTY_UNSTATED),
        ("Fares rose in the weeks after the election.", "Fares rose in the run-up to the election.",
         Reason.DIRECTION_MISMATCH),
        ("The storm destroyed 300 homes.", "Officials estimate that the storm destroyed 300 homes.",
         Reason.CERTAINTY_UNSTATED),
        ("The dam will fail in a major flood.", "Engineers fear that the dam will fail in a major flood.",
         Reason.CERTAINTY_UNSTATED),
        ("The reform has cut waiting times.", "The minister expects the reform to cut waiting times.",
         Reason.CERTAINTY_UNSTATED),
        ("The new vaccine has caused the rise in cases.", "The rise in cases is associated with the new vaccine.",
         Reason.CERTAINTY_UNSTATED),
        ("The two clans were allies for a century.", "The two clans were rivals for a century.",
         Reason.DIRECTION_MISMATCH),
        ("The trial confirmed the earlier finding.", "The trial refuted the earlier finding.", Reason.DIRECTION_MISMATCH),
        ("The treaty included a clause on fishing.", "The treaty omitted a clause on fishing.",
         Reason.DIRECTION_MISMATCH),
        ("The verdict strengthened the court's authority.", "The verdict undermined the court's authority.",
         Reason.DIRECTION_MISMATCH),
    ],
)
def test_work_under_way_estimates_fears_designs_and_more_opposites_are_found(
        claim: str, support: str, reason: Reason) -> None:
    assert reason in reasons(claim, support)
    v, _ = lattice(claim, support, text=f"Background first. {support} More follows.")
    assert v.label is not Label.STRICT


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The company has not yet turned a profit.", "The company has yet to turn a profit."),
        ("Among adults, the drug cut admissions by 30 percent, researchers found.",
         "Researchers found that the drug cut admissions by 30 percent among adults."),
        ("About a third of the ice has melted since 1900, the researchers estimate.",
         "The researchers estimate that a third of the ice has melted since 1900."),
        ("The council voted in favour of the plan.", "The council voted to back the plan."),
        ("About 40,000 people attended the march.", "An estimated 40,000 people attended the march."),
        ("The hall was built in 1890.", "The hall was built in 1890 for the city's orchestra."),
        ("The incident was not reported to regulators by the hospital.",
         "The hospital did not report the incident to regulators."),
        ("The team is negotiating the contract.", "The team is still negotiating the contract."),
        ("The team has been negotiating the contract.", "The team is negotiating the contract."),
    ],
)
def test_moved_phrases_estimates_and_work_in_progress_said_another_way_agree(claim: str, support: str) -> None:
    assert reasons(claim, support) == set()


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


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        # a review's false alarms against this session's rules: converse verbs said both ways or in a passive
        ("She sold the house in 2005, having bought it in 1990.", "She bought the house in 1990 and sold it in 2005."),
        ("The winner received a trophy and gave a speech.", "The winner gave a speech and received a trophy."),
        ("Patients in the trial received the drug daily.", "Patients in the trial were given the drug daily."),
        ("The bank borrowed heavily and lent the money to developers.",
         "The bank borrowed heavily and lent the money to developers."),
        # a past in progress is a past; a claim in progress itself
        ("In 1914 she worked as a nurse in France.", "In 1914 she was working as a nurse in France."),
        ("The firm that built the first bridge is now building a second one.",
         "The firm, which constructed the first bridge, is now building a second one."),
        # "since" kept open, two years that are no range, a range of the claim's own
        ("She has lived in Paris since 2004.", "She has lived in Paris since 2004, and from 2004 to 2010 she taught."),
        ("She has been mayor since 2019.", "She has been mayor since 2019, winning elections in 2019 and 2023."),
        ("He has played for the club since the 2004-2005 season.",
         "He has played for the club since the 2004-2005 season."),
        # a fall to a level, a passive's purpose, an avoidance said the other way round
        ("The birth rate fell to a record low in 2023.", "The birth rate declined to a record low in 2023."),
        ("To save space, the chapter was omitted.", "The chapter was omitted to save space."),
        ("Flooding was avoided in the town.", "The town avoided flooding."),
        ("Smith was not cleared of murder.", "The jury did not clear Smith of murder."),
        ("The drug had no measurable effect on blood pressure.",
         "The drug did not have a measurable effect on blood pressure."),
        # opposite things both texts name
        ("The private sector funded much of the public health campaign.",
         "Much of the public health campaign was funded by the private sector."),
        ("Poor families as well as rich ones received the grant.", "Both rich and poor families received the grant."),
        ("The survivors buried the dead.", "The dead were buried by the survivors."),
        ("Men outnumber women in the city.", "Women are outnumbered by men in the city."),
        ("The judge agreed with the defence and disagreed with the prosecution.",
         "The judge disagreed with the prosecution but agreed with the defence."),
        ("The police arrived after the thief had fled.", "By the time the police arrived, the thief had fled."),
        ("The union threatened strike action.", "The union threatened to take strike action."),
    ],
)
def test_the_reviews_faithful_pairs_against_the_new_rules_agree(claim: str, support: str) -> None:
    assert reasons(claim, support) == set()


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


def test_a_range_with_an_en_dash_ends_a_period() -> None:
    assert Reason.SCOPE_DROPPED in reasons("He has coached the team since 2012.", "He coached the team 2012\u20132016.")


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("The regulator lifted the cap on fees to 4 percent.", "The regulator trimmed the cap on fees to 4 percent.",
         Reason.DIRECTION_MISMATCH),
        ("The critics censured the staging of the opera.", "The critics praised the staging of the opera.",
         Reason.DIRECTION_MISMATCH),
        ("The tribunal found the clause void.", "The tribunal found the clause binding.", Reason.DIRECTION_MISMATCH),
        ("The gecko is nocturnal and hunts insects.", "The gecko is diurnal and hunts insects.", Reason.DIRECTION_MISMATCH),
        ("The minister conceded that the figures were wrong.", "The minister denied that the figures were wrong.",
         Reason.DIRECTION_MISMATCH),
        ("The museum's new wing opened in May.", "The board is proposing to open the museum's new wing in May.",
         Reason.CERTAINTY_UNSTATED),
        ("The report was a forgery.", "The ambassador described the report as a forgery.", Reason.CERTAINTY_UNSTATED),
        ("Once opened, the jar has to be kept in a fridge.", "Once opened, the jar can be kept in a fridge.",
         Reason.DIRECTION_MISMATCH),
        ("In 1803 France bought Louisiana from the United States.",
         "In 1803 the United States purchased Louisiana from France.", Reason.ROLES_SWAPPED),
    ],
)
def test_dev_10_classes_are_found(claim: str, support: str, reason: Reason) -> None:
    assert reason in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The United States purchased Louisiana from France in 1803.", "In 1803 France sold Louisiana to the United States."),
        ("In 1803 the United States bought Louisiana from France.",
         "In 1803 the United States purchased Louisiana from France."),
        ("The bank has to report large transfers.", "The bank must report large transfers."),
        ("About half of the revenue comes from subscriptions.", "About 50 percent of the revenue comes from subscriptions."),
        ("The species was described as new in 1901.", "The species was described as new in 1901."),
    ],
)
def test_dev_10_forms_said_another_way_agree(claim: str, support: str) -> None:
    assert reasons(claim, support) == set()


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


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        # a second review's false alarms: feats, methods, converse places, frequencies, purposes, perfects
        ("Rescuers reached the trapped miners on Tuesday.", "Rescuers were able to reach the trapped miners on Tuesday."),
        ("Mice lacking the gene developed tumours.", "Mice engineered to lack the gene developed tumours."),
        ("The dam is upstream of the town.", "The town is downstream of the dam."),
        ("All flights were grounded almost immediately.", "Almost immediately, all flights were grounded."),
        ("The regulator has yet to approve the merger.", "The merger has yet to be approved by the regulator."),
        ("The species is no longer endangered.", "The species is no longer classed as endangered."),
        ("The policy has resulted in lower emissions.",
         "The policy has cut emissions, and lower emissions are associated with better health."),
        ("The bank has raised rates twice this year.", "The bank is fighting inflation and has raised rates twice this year."),
        ("The company has launched an investigation into the leak.", "The company is investigating the leak."),
        ("Residents worry that the river will flood.", "Residents fear that the river will flood."),
        ("Mount Kenya is lower than Mount Kilimanjaro.", "Mount Kilimanjaro is higher than Mount Kenya."),
        ("The ferry to Long Island runs hourly.", "The ferry to Long Island runs hourly, even in winter."),
    ],
)
def test_the_second_reviews_faithful_pairs_agree(claim: str, support: str) -> None:
    assert reasons(claim, support) == set()


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("The quake destroyed 4,000 homes.", "The quake destroyed 4,000 homes, officials estimate.",
         Reason.CERTAINTY_UNSTATED),
        ("Twelve miners died in the blast.", "Twelve miners are feared to have died in the blast.",
         Reason.CERTAINTY_UNSTATED),
        ("The vaccine has been approved.", "The vaccine has yet to be approved.", Reason.NEGATION_MISMATCH),
        ("The verdict was announced.", "The verdict is yet to be announced.", Reason.NEGATION_MISMATCH),
        ("The MP voted against the bill.", "The MP voted in favour of the bill.", Reason.DIRECTION_MISMATCH),
    ],
)
def test_the_second_reviews_reversed_pairs_are_found(claim: str, support: str, reason: Reason) -> None:
    assert reason in reasons(claim, support)


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


def test_a_sentence_is_compared_with_the_claim_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The span check reads every window of a sentence that holds the claim's words; in a long repetitive
    sentence there are hundreds of them, and comparing the sentence anew for each took minutes."""
    from arborist.verify import verifier

    calls: list[str] = []

    def counted(claim: str, support: str, lex: object, scoped: bool = True) -> list[object]:
        calls.append(support)
        return compare(claim, support, LEX, scoped)

    monkeypatch.setattr(verifier, "compare", counted)
    sentence = "Elk hunt wolves and " * 40 + "elk hunt wolves."  # 81 windows hold "wolves hunt elk"
    v, claim = lattice("Wolves hunt elk.", sentence, "Some context. " + sentence + " More.")
    assert calls, "the claim was never compared with its support"
    assert len(calls) == len(set(calls))
    assert Reason.ROLES_SWAPPED in claim.reasons and v.label is not Label.STRICT


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
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
        # advised, not done
        ("The boiler is serviced every year.", "The boiler should be serviced every year.", Reason.CERTAINTY_UNSTATED),
        # still, over a support that ended it
        ("The app still supports Android 9.", "Support for Android 9 ended with version 4 of the app.",
         Reason.SCOPE_DROPPED),
        ("The course still includes a field trip to the coast.",
         "Until 2018, the course included a field trip to the coast.", Reason.SCOPE_DROPPED),
        # a review's reversed pairs against these rules
        ("Orvane sold its stake in the port to Belmark.", "Belmark, a Dutch fund, sold its stake in the port to Orvane.",
         Reason.ROLES_SWAPPED),
        ("The grant was given to Rosa by her uncle Pablo.", "Pablo was given a grant by his niece Rosa.",
         Reason.ROLES_SWAPPED),
        ("The mill is owned by the Hale family.", "Until 2016, the mill was owned by the Hale family.",
         Reason.SCOPE_DROPPED),
        ("At no time has the club sold its ground.", "The club sold its ground in 1990.", Reason.NEGATION_MISMATCH),
        ("The grant pays for travel but not meals.", "The grant pays for travel and meals.", Reason.NEGATION_MISMATCH),
        # a closing "not" denies its clause's subject
        ("Rent is covered by the grant, although heating is not.", "The grant covers rent and heating.",
         Reason.NEGATION_MISMATCH),
    ],
)
def test_held_out_9_classes_are_found(claim: str, support: str, reason: Reason) -> None:
    assert reason in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("Orvane bought the stake from Belmark.", "Belmark sold the stake to Orvane."),
        ("The editor runs on Linux, macOS and Windows.", "The editor runs on Windows, macOS and Linux."),
        ("Peanuts should not be given to infants under one.", "Infants under one should not be given peanuts."),
        ("Wind generated less than a fifth of the power last year.",
         "Wind's share of the power fell below 20 percent last year."),
        ("The appeal was rejected because there was not enough evidence.", "The appeal was rejected for lack of evidence."),
        # a review's faithful pairs against these rules
        ("If the dam fails, the valley floods within hours.", "Should the dam fail, the valley floods within hours."),
        ("The plant closed in 1998.", "It should be noted that the plant closed in 1998."),
        ("The gallery is currently open on Mondays.", "The repair of the gallery ended in 2020. It is open on Mondays."),
        ("Rates remain at 3 percent.", "The bank ended its bond sales in May and kept rates at 3 percent."),
        ("The app still supports Android 12.", "Support for Android 11 ended with version 6; the app supports Android 12."),
        ("Turin hosts the final, Milan the semi-finals.", "Milan hosts the semi-finals and Turin the final."),
        ("In Oslo, the firm opened its third office in June.", "In June, the company opened its third office in Oslo."),
        ("Vidal beat Reyes in 2022.", "In 2022 Vidal, who had lost to Reyes in 2018, won the rematch."),
        ("Halden Mills is based in Derby.", "Until 2012, Halden Mills was based in Leeds before moving to Derby."),
        ("The grant pays for travel, although meals are not.", "The grant pays for travel but not meals."),
        ("At no time has the club sold its ground.", "The club has never sold its ground."),
        ("The roof was damaged, though not destroyed, in the 1987 storm.",
         "The roof was damaged but not destroyed in the 1987 storm."),
    ],
)
def test_held_out_9_forms_said_another_way_agree(claim: str, support: str) -> None:
    assert reasons(claim, support) == set()


@pytest.mark.parametrize(
    ("claim", "quote", "text", "strict"),
    [
        # the span's own sentence must say the claim's qualifier, not a neighbour ("the most common side effect")
        ("Most patients in the trial reported less pain.", "In the trial, 9 of the 40 patients reported less pain.",
         "In the trial, 9 of the 40 patients reported less pain. The most common side effect was nausea.", False),
        # a part of direction words alone restates its quote's pair
        ("Rents in the suburbs are lower than in the centre.", "Rents in the centre are higher than in the suburbs.",
         None, True),
        ("The patient's LDL dropped from 190 to 120.", "The patient's low-density lipoprotein (LDL) fell from 190 to 120.",
         None, True),
        # but a word of the pair's other side names no comparison: "Presently" is not "the previous year"
        ("Presently, sales are up from $699 million the previous year.",
         "In 2006 sales were $803 million, up from $699 million the previous year.", None, False),
    ],
)
def test_held_out_9_quote_and_span(claim: str, quote: str, text: str | None, strict: bool) -> None:
    v, c = lattice(claim, quote, text)
    assert (v.label is Label.STRICT) is strict, (c.reasons, c.notes)


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("Bake the loaf for 15 minutes per kilogram.", "Bake the loaf for 15 minutes per 250 grams.", Reason.UNIT_MISMATCH),
        ("Sugar is sweet enough to eat on its own.", "The berry is too bitter to eat on its own.", Reason.DIRECTION_MISMATCH),
        ("Walking daily lowers the risk of heart disease.",
         "People who walked daily had a lower risk of heart disease.", Reason.CERTAINTY_UNSTATED),
        ("Composting reduces waste collections in towns.",
         "Towns that composted reported fewer waste collections.", Reason.CERTAINTY_UNSTATED),
        ("Libraries in the county have dropped late fees.", "One library in the county has dropped late fees.",
         Reason.SCOPE_DROPPED),
    ],
)
def test_held_out_9_units_tastes_groups_and_one_made_many(claim: str, support: str, reason: Reason) -> None:
    assert reason in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("Bake the loaf for 15 minutes per kg.", "Bake the loaf for 15 minutes per kilogram."),
        ("Walking daily lowers the risk of heart disease.", "Walking daily lowers the risk of heart disease, "
         "and people who walked daily had a lower risk in the trial."),
        ("Two libraries in the county have dropped late fees.", "Two libraries in the county have dropped late fees."),
        ("The sauce is sweet and sour.", "The sauce is sweet and sour."),
    ],
)
def test_held_out_9_units_tastes_groups_said_the_same(claim: str, support: str) -> None:
    assert reasons(claim, support) == set()


@pytest.mark.parametrize(
    ("claim", "quote", "strict"),
    [
        ("The soil fungus produces vitamin D.", "The soil fungus produces vitamin K2.", False),
        ("The soil fungus produces vitamin D.", "The soil fungus produces vitamin D.", True),
        ("Wax is taken from the hives of the bumblebee in spring.",
         "Wax is taken from the hives of the carpenter bee in spring.", False),
        ("The team found two novel proteins in the sample.", "The team found two previously unknown proteins in the sample.",
         True),
    ],
)
def test_held_out_9_letter_names_and_one_word_for_two(claim: str, quote: str, strict: bool) -> None:
    evidence = [{"id": "E1", "title": "Field notes", "text": quote}]
    v = verify_answer(claim, "claim_lattice", evidence,
                      {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []})
    assert (v.label is Label.STRICT) is strict, (v.claims[0].reasons, v.claims[0].notes)


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("Give 2 micrograms per kilogram of body weight.", "Give 2 milligrams per kilogram of body weight.",
         Reason.UNIT_MISMATCH),
        ("Ridership went up by 12 percent.", "Ridership fell by 12 percent.", Reason.DIRECTION_MISMATCH),
        ("The senate rejected the treaty.", "The senate ratified the treaty.", Reason.DIRECTION_MISMATCH),
        ("Bonds outpaced equities last year.", "Bonds lagged equities last year.", Reason.DIRECTION_MISMATCH),
        ("The new pump uses 20 percent less power.", "The maker claims it uses 20 percent less power.",
         Reason.CERTAINTY_UNSTATED),
    ],
)
def test_held_out_10_classes_are_found(claim: str, support: str, reason: Reason) -> None:
    assert reason in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The car does 60 per hour.", "The car does 60 miles per hour."),
        ("Ridership went up by 12 percent.", "Ridership rose by 12 percent."),
        ("Ashgate won against Riverton in the final.", "Riverton lost to Ashgate in the final."),
        ("The race was won from pole position by Lena Ortiz.", "Lena Ortiz won the race from pole position."),
        ("The club claimed the cup in 1998.", "The club claimed it in 1998 after a replay."),
    ],
)
def test_held_out_10_forms_said_another_way_agree(claim: str, support: str) -> None:
    assert reasons(claim, support) == set()


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("The app will end support for iOS 15 in March.", "The app's support for iOS 15 ended in March.",
         Reason.CERTAINTY_UNSTATED),
        ("The steel stays ductile in deep cold.", "The steel is brittle in deep cold.", Reason.NEGATION_MISMATCH),
    ],
)
def test_held_out_11_classes_are_found(claim: str, support: str, reason: Reason) -> None:
    found = reasons(claim, support)
    assert found and (reason in found or Reason.DIRECTION_MISMATCH in found)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The board delayed its ruling until May.", "The board postponed its ruling until May."),
        ("Trials point to a possible fall in relapses with the drug.", "Trials suggest the drug might reduce relapses."),
        ("The council will vote on the plan next week.",
         "The council voted last year to delay the plan; it will vote again next week."),
    ],
)
def test_held_out_11_forms_said_another_way_agree(claim: str, support: str) -> None:
    assert reasons(claim, support) == set()


@pytest.mark.parametrize(
    ("claim", "quote", "strict"),
    [
        ("Adding potassium nitrate turned the flame purple.", "Adding copper sulfate turned the flame purple.", False),
        ("Chemical fertiliser has not been used in the vineyard at any point.",
         "The vineyard has never used chemical fertiliser.", True),
        ("Customers can cancel at any time.", "Customers can cancel within 30 days.", False),
    ],
)
def test_held_out_11_two_word_things_and_never(claim: str, quote: str, strict: bool) -> None:
    evidence = [{"id": "E1", "title": "Notes", "text": quote}]
    v = verify_answer(claim, "claim_lattice", evidence,
                      {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []})
    assert (v.label is Label.STRICT) is strict, (v.claims[0].reasons, v.claims[0].notes)


def test_an_act_of_two_words_is_no_thing_swapped() -> None:
    """"begun sowing" for "started planting" is an act said another way, not another thing in its slot."""
    claim, quote = ("Growers have begun sowing hardy barley in place of wheat.",
                    "Growers have started planting hardy barley instead of wheat.")
    evidence = [{"id": "E1", "title": "Notes", "text": quote}]
    v = verify_answer(claim, "claim_lattice", evidence,
                      {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []})
    assert not any("where its quote says" in note for note in v.claims[0].notes)


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        # a review of (11)-(17): a rate on one side only is still read against the other's unit
        ("The train travels 60 per hour.", "The train is 60 miles long.", Reason.UNIT_MISMATCH),
        # a sentence before an "Until ..." past does not hide it
        ("Fishermen catch cod near the harbour.", "Whitby is a port. Until 1990, fishermen caught cod near the harbour.",
         Reason.SCOPE_DROPPED),
    ],
)
def test_review_of_27_classes_are_found(claim: str, support: str, reason: Reason) -> None:
    assert reason in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("Schools in the district have not replaced detention.",
         "Not a single school in the district has replaced detention."),
        ("The 5.0 release still supports Python 3.8.", "Support for Python 3.8 has not ended with the 5.0 release."),
    ],
)
def test_review_of_27_forms_agree(claim: str, support: str) -> None:
    assert Reason.SCOPE_DROPPED not in reasons(claim, support)


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
        ("Inflation rose 0.4 percent in March.", "Inflation rose 0.4 percentage points in March.", Reason.UNIT_MISMATCH),
        ("Inflation rose 0.4% in March.", "Inflation rose 0.4 percentage points in March.", Reason.UNIT_MISMATCH),
        ("The striker got a three-week suspension.", "The striker got a three-game suspension.", Reason.UNIT_MISMATCH),
        ("The road was closed by the council.", "Residents asked the council to close the road.",
         Reason.CERTAINTY_UNSTATED),
        ("The driver was sober that night.", "The driver maintains that he was sober that night.",
         Reason.CERTAINTY_UNSTATED),
        ("The tools were made by early farmers.", "The finds hint that the tools were made by early farmers.",
         Reason.CERTAINTY_UNSTATED),
        ("The vendor says the patch fixes the leak.", "The vendor says the patch should fix the leak.",
         Reason.CERTAINTY_UNSTATED),
        ("The station's old cables were damaged in the flood.",
         "Some of the station's old cables were damaged in the flood.", Reason.SCOPE_DROPPED),
        ("The 1880 town register was lost in the fire.", "Part of the 1880 town register was lost in the fire.",
         Reason.SCOPE_DROPPED),
        ("Halden is the busiest port on the coast.", "Halden is among the busiest ports on the coast.",
         Reason.SCOPE_DROPPED),
    ],
)
def test_held_out_12_classes_are_found(claim: str, support: str, reason: Reason) -> None:
    assert reason in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The bakery sold 36 loaves.", "The bakery sold three dozen loaves."),
        ("The kit holds a dozen samples.", "The kit holds 12 samples."),
        ("The group paid $3.4bn for the port.", "The group paid 3.4 billion dollars for the port."),
        ("The regulator fined the bank 4.5 million pounds.", "The regulator fined the bank £4.5m."),
        ("Each tablet holds 20 mg of the drug.", "Each tablet holds 20mg of the drug."),
        ("The cells survived a thousand cycles.", "The cells survived 1,000 cycles."),
        ("Inflation rose 0.4 percent in March.", "Inflation rose 0.4% in March."),
        ("If the buyer asks within 10 days, the fee is waived.", "The fee is waived if the buyer asks within 10 days."),
        ("Some of the old cables were damaged.", "Several of the old cables were damaged."),
        ("Aides say the minister may resign.", "The minister may resign, aides say."),
    ],
)
def test_held_out_12_forms_said_another_way_agree(claim: str, support: str) -> None:
    assert not reasons(claim, support) & {Reason.UNIT_MISMATCH, Reason.CERTAINTY_UNSTATED, Reason.SCOPE_DROPPED}


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
        ("The glacier's retreat has been speeding up.", "The glacier's retreat has been slowing.",
         Reason.DIRECTION_MISMATCH),
        ("A full course of the drug costs 40 dollars.", "The drug costs 40 dollars per tablet, and a course is "
         "three tablets.", Reason.UNIT_MISMATCH),
        ("The dam burst after the rain began.", "The dam had already burst when the rain began.",
         Reason.DIRECTION_MISMATCH),
        ("Banning phones improved grades at the schools.", "Schools that banned phones saw better grades.",
         Reason.CERTAINTY_UNSTATED),
    ],
)
def test_held_out_12_second_classes_are_found(claim: str, support: str, reason: Reason) -> None:
    assert reason in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("The drug costs 40 dollars a tablet.", "The drug costs 40 dollars per tablet."),
        ("Each tablet costs 40 dollars.", "The drug costs 40 dollars per tablet."),
        ("Unemployment stood at 5 per cent.", "Unemployment stood at 5 per cent."),
        ("The dam had burst before the rain began.", "The dam had already burst when the rain began."),
    ],
)
def test_held_out_12_second_forms_agree(claim: str, support: str) -> None:
    assert reasons(claim, support) == set()


@pytest.mark.parametrize(
    ("claim", "quote", "strict"),
    [
        ("The firm recalled 9,000 heaters because of a loose wire that started two fires.",
         "The firm recalled 9,000 heaters because of a loose wire.", False),
        ("The study shows that the firm recalled 9,000 heaters.",
         "The study shows that the firm recalled 9,000 heaters.", True),
        ("The choir toured six Austrian cities.", "The choir toured six cities in Austria.", True),
        # one way only: a place the claim names is not read into a quote's adjective ("shot in America" is not
        # "an American actor")
        ("The choir toured six cities in Austria.", "The choir toured six Austrian cities.", False),
        ("The choir toured six Hungarian cities.", "The choir toured six cities in Austria.", False),
    ],
)
def test_relative_clauses_and_peoples_adjectives(claim: str, quote: str, strict: bool) -> None:
    v, _ = lattice(claim, quote)
    assert (v.label is Label.STRICT) is strict


@pytest.mark.parametrize(
    ("claim", "quote", "strict"),
    [
        # from a review of /28 (1)-(2): faithful forms the first rules rejected
        ("The firm offered a $40k two-year contract.", "The firm offered a $40k two-year contract.", True),
        ("Eggs were selling at 20 a dozen.", "Eggs were selling at twenty a dozen.", True),
        ("Turnout in the city election was 60%.", "Turnout in the city election was 60 per cent.", True),
        ("The patient lost 10 kilograms.", "The patient lost 10 kilos.", True),
        ("The ticket costs 20 pounds.", "The ticket costs £20 online.", True),
        ("One dose costs $12.", "The vaccine costs $12 per dose.", True),
        ("The factory makes 200 cars daily.", "The factory makes 200 cars per day.", True),
        ("The law took effect in 2019.", "The law took effect in 2019 per the statute.", True),
        ("Wolves were reintroduced to the park in 1995.",
         "Wolves were reintroduced to the park in 1995 after an absence of seventy years.", True),
        ("A lot of the students passed.", "Many of the students passed.", True),
        ("The firm is a top employer in Ohio.", "The firm is among the top employers in Ohio.", True),
        ("She agreed to marry him.", "He asked her to marry him and she agreed.", True),
        ("The council said residents can park on the street.", "The council said residents may park on the street.", True),
        ("The coach said the players were unable to train.", "The coach said the players could not train.", True),
        ("It is likely that rates will fall.", "Rates will probably fall.", True),
        ("The Japanese economy shrank in the third quarter.", "Japan's economy shrank in the third quarter.", True),
        # and reversals they let through
        ("Twelve eggs were broken in the crash.", "Half a dozen eggs were broken in the crash.", False),
        ("The show drew 5 billion viewers.", "The show drew 5m viewers.", False),
        ("Support rose 1.5 per cent.", "Support rose 1.5 percentage points.", False),
        ("The full vaccine course costs 12 dollars.", "The vaccine costs 12 dollars a dose.", False),
        ("The full vaccine course costs 12 dollars.", "Vaccine doses cost 12 dollars apiece.", False),
        ("The fire destroyed the archive.", "The fire destroyed some of the archive.", False),
        ("The hospital is the top employer in the region.", "The hospital is one of the top employers in the region.",
         False),
        ("According to the maker, the engine runs on hydrogen.", "The maker says the engine may run on hydrogen.", False),
        ("The chef is Italian.", "The chef works in Italy.", False),
        ("The film was shot in America.", "The film starred an American actor.", False),
    ],
)
def test_review_of_28(claim: str, quote: str, strict: bool) -> None:
    v, c = lattice(claim, quote)
    assert (v.label is Label.STRICT) is strict, c.notes


@pytest.mark.parametrize("text", ["", "%", "$", "$40k five", "1.2.3m", "half a dozen and two"])
def test_odd_number_text_verifies_without_error(text: str) -> None:
    v, _ = lattice(text, text)
    assert v.label in (Label.STRICT, Label.UNGROUNDED, Label.HYBRID)


@pytest.mark.parametrize(
    ("claim", "quote", "strict"),
    [
        # from held-out-13's failures, read after its blind totals
        ("Anna Berg finished second in 3 hours 2 minutes at the city marathon.",
         "Anna Berg finished fourth in 3 hours 2 minutes at the city marathon.", False),
        ("Anna Berg finished fourth in 3 hours 2 minutes at the city marathon.",
         "Anna Berg finished 4th in 3 hours 2 minutes at the city marathon.", True),
        ("Emissions in 2022 were a fifth below their 1990 level in the region.",
         "Emissions in 2022 were 20 percent lower than in 1990 in the region.", True),
        ("The Orbit K, the cheapest model, has a single camera and a small battery.",
         "The Orbit T, the cheapest model, has a single camera and a small battery.", False),
        ("A weekend ticket costs 30 euros per car at the festival.",
         "A weekend ticket costs 30 euros per person at the festival.", False),
        ("The region has 300 inhabitants per square kilometre.", "The region has 300 inhabitants per km2.", True),
        ("The experts concluded that the painting was a forgery.",
         "The experts concluded that the painting was genuine.", False),
        ("The minister accepted money from the developer.",
         "The minister denied that he had accepted money from the developer.", False),
        ("Every nurse on the ward is getting a 5 percent raise.",
         "The union is calling for a 5 percent raise for every nurse on the ward.", False),
        ("Patients on the drug had fewer falls than those on placebo.",
         "Patients on the drug showed a trend towards fewer falls than those on placebo.", False),
        ("The festival ran from May until August in the old park.",
         "The festival began in May and will run until August in the old park.", False),
        ("In the survey, one in four adults said they slept badly.",
         "In the survey, 25 percent of adults said they slept badly.", True),
        ("In the survey, one in four adults said they slept badly.",
         "In the survey, 20 percent of adults said they slept badly.", False),
        # "majority" is not read as "most": "the majority party", "short of a majority"
        ("Most members voted to accept the revised offer at the meeting.",
         "A clear majority of members voted to accept the revised offer at the meeting.", False),
        ("The club's ticket sales rose to 3.2 million from 2.9 million a year earlier.",
         "The club's ticket sales were 3.2 million, up from 2.9 million the year before.", True),
        ("Thirty-six twelve-seat buses will be delivered to the city in 2027.",
         "The city will receive 36 twelve-seat buses in 2027.", True),
    ],
)
def test_held_out_13_classes(claim: str, quote: str, strict: bool) -> None:
    v = untitled(claim, quote)
    assert (v.label is Label.STRICT) is strict, v.claims[0].notes


@pytest.mark.parametrize(
    ("claim", "quote", "strict"),
    [
        # from a review of /28 (4): faithful forms it rejected
        ("The treaty was signed in Berlin on May 2nd, 1945.", "The treaty was signed in Berlin on 2 May 1945.", True),
        ("The play's third act is set in a lighthouse on the coast.", "Act 3 of the play is set in a lighthouse on the coast.",
         True),
        ("He applied for asylum in Germany in 2015.", "He applied for asylum in Germany in 2015, but it was denied.",
         True),
        ("The recipe requires two eggs and 200 grams of flour.", "The recipe calls for two eggs and 200 grams of flour.",
         True),
        ("The hotel charges 80 euros per person per night in summer.",
         "In summer the hotel charges 80 euros per night per person.", True),
        ("The school spends 6,000 pounds per pupil each year.", "Each year the school spends 6,000 pounds per student.",
         True),
        ("The home side was up 3-1 at half-time in the cup match.", "The home side led 3-1 at half-time in the cup match.",
         True),
        ("Franklin D Roosevelt was elected president in 1932.", "Franklin Delano Roosevelt was elected president in 1932.",
         True),
        ("The striker scored 2 in 10 minutes to win the match.", "The striker scored 2 goals in 10 minutes to win the match.",
         True),
        ("A quarter of fatal crashes involved a driver over the limit.",
         "One in four fatal crashes involved a driver over the limit.", True),
        # and reversals it let through
        ("In the survey, one in five adults smokes every day.", "In the survey, five adults smoke every day.", False),
        ("The city is the largest port in the country.", "The city is among the biggest ports in the country.", False),
        ("The city is the largest port in the country.", "The city is the second biggest port in the country.", False),
        ("Residents drink a bit of local wine at the festival.",
         "Residents used to drink a bit of local wine at the festival.", False),
    ],
)
def test_review_of_28_4(claim: str, quote: str, strict: bool) -> None:
    v = untitled(claim, quote)
    assert (v.label is Label.STRICT) is strict, v.claims[0].notes


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("In 2020 the firm moved its head office from Leeds to Dublin.",
         "The firm moved its head office from Dublin to Leeds in 2020.", Reason.ROLES_SWAPPED),
        ("Sales picked up once the new store opened in the town.",
         "Sales had already picked up before the new store opened in the town.", Reason.DIRECTION_MISMATCH),
        ("The critics panned the new production of the opera.",
         "The critics praised the new production of the opera.", Reason.DIRECTION_MISMATCH),
        ("The lake is shallow near the northern shore.", "The lake is deep near the northern shore.",
         Reason.DIRECTION_MISMATCH),
    ],
)
def test_held_out_14_classes_are_found(claim: str, support: str, reason: Reason) -> None:
    assert reason in reasons(claim, support)


@pytest.mark.parametrize(
    ("claim", "support"),
    [
        ("In 2020 the firm moved its head office from Dublin to Leeds.",
         "The firm moved its head office from Dublin to Leeds in 2020."),
        ("The mill, once the town's largest employer, is still open.", "The mill, once the town's largest employer, "
         "is still open."),
        ("Sales picked up after the new store opened in the town.", "Sales picked up once the new store opened in the town."),
    ],
)
def test_held_out_14_forms_agree(claim: str, support: str) -> None:
    assert reasons(claim, support) == set()
