"""End-to-end labels over cases that reach several rules at once."""

from __future__ import annotations

import pytest
from pairs import lattice, reasons, untitled

from arborist.verify import Label, Reason, verify_answer


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
def test_edges_between_rules(claim: str, support: str, expected: set[Reason]) -> None:
    assert reasons(claim, support) == expected


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
def test_time_refusal_quantifier_report_and_modality_are_found(claim: str, quote: str, reason: Reason) -> None:
    v, c = lattice(claim, quote)
    assert reason in c.reasons and v.label is not Label.STRICT


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
def test_each_unanimous_and_future_are_found(claim: str, quote: str, reason: Reason) -> None:
    v, c = lattice(claim, quote)
    assert reason in c.reasons and v.label is not Label.STRICT


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
def test_hedges_and_scopes_are_found(claim: str, support: str, found: Reason) -> None:
    assert found in reasons(claim, support)


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
def test_quote_and_span_cases(claim: str, quote: str, text: str | None, strict: bool) -> None:
    v, c = lattice(claim, quote, text)
    assert (v.label is Label.STRICT) is strict, (c.reasons, c.notes)


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
def test_letter_names_and_one_word_for_two(claim: str, quote: str, strict: bool) -> None:
    evidence = [{"id": "E1", "title": "Field notes", "text": quote}]
    v = verify_answer(claim, "claim_lattice", evidence,
                      {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []})
    assert (v.label is Label.STRICT) is strict, (v.claims[0].reasons, v.claims[0].notes)


@pytest.mark.parametrize(
    ("claim", "support", "reason"),
    [
        ("The app will end support for iOS 15 in March.", "The app's support for iOS 15 ended in March.",
         Reason.CERTAINTY_UNSTATED),
        ("The steel stays ductile in deep cold.", "The steel is brittle in deep cold.", Reason.NEGATION_MISMATCH),
    ],
)
def test_found_or_read_as_a_direction(claim: str, support: str, reason: Reason) -> None:
    found = reasons(claim, support)
    assert found and (reason in found or Reason.DIRECTION_MISMATCH in found)


@pytest.mark.parametrize(
    ("claim", "quote", "strict"),
    [
        ("Adding potassium nitrate turned the flame purple.", "Adding copper sulfate turned the flame purple.", False),
        ("Chemical fertiliser has not been used in the vineyard at any point.",
         "The vineyard has never used chemical fertiliser.", True),
        ("Customers can cancel at any time.", "Customers can cancel within 30 days.", False),
    ],
)
def test_two_word_things_and_never(claim: str, quote: str, strict: bool) -> None:
    evidence = [{"id": "E1", "title": "Notes", "text": quote}]
    v = verify_answer(claim, "claim_lattice", evidence,
                      {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []})
    assert (v.label is Label.STRICT) is strict, (v.claims[0].reasons, v.claims[0].notes)


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
def test_forms_said_another_way_agree(claim: str, support: str) -> None:
    assert not reasons(claim, support) & {Reason.UNIT_MISMATCH, Reason.CERTAINTY_UNSTATED, Reason.SCOPE_DROPPED}


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
def test_strict_or_not(claim: str, quote: str, strict: bool) -> None:
    v, c = lattice(claim, quote)
    assert (v.label is Label.STRICT) is strict, c.notes


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
def test_strict_or_not_under_a_neutral_title(claim: str, quote: str, strict: bool) -> None:
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
def test_more_strict_or_not_under_a_neutral_title(claim: str, quote: str, strict: bool) -> None:
    v = untitled(claim, quote)
    assert (v.label is Label.STRICT) is strict, v.claims[0].notes
