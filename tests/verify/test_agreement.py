"""Faithful restatements: no veto fires, and the label stays STRICT."""

from __future__ import annotations

import pytest
from pairs import LEX, lattice, reasons

from arborist.verify import Label, Verdict
from arborist.verify.vetoes import compare


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
def test_faithful_restatements_pass(claim: str, quote: str) -> None:
    assert lattice(claim, quote)[0].label is Label.STRICT


@pytest.mark.parametrize(
    ("claim", "quote"),
    [
        ("Each of the club's coaches holds a national licence.", "All of the club's coaches hold a national licence."),
        ("The old login page will be retired in release 9.", "The old login page will be retired in release 9 of the app."),
    ],
)
def test_each_and_future_restated_pass(claim: str, quote: str) -> None:
    assert lattice(claim, quote)[0].label is Label.STRICT


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
        ("The United States purchased Louisiana from France in 1803.", "In 1803 France sold Louisiana to the United States."),
        ("In 1803 the United States bought Louisiana from France.",
         "In 1803 the United States purchased Louisiana from France."),
        ("The bank has to report large transfers.", "The bank must report large transfers."),
        ("About half of the revenue comes from subscriptions.", "About 50 percent of the revenue comes from subscriptions."),
        ("The species was described as new in 1901.", "The species was described as new in 1901."),
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
        ("Bake the loaf for 15 minutes per kg.", "Bake the loaf for 15 minutes per kilogram."),
        ("Walking daily lowers the risk of heart disease.", "Walking daily lowers the risk of heart disease, "
         "and people who walked daily had a lower risk in the trial."),
        ("Two libraries in the county have dropped late fees.", "Two libraries in the county have dropped late fees."),
        ("The sauce is sweet and sour.", "The sauce is sweet and sour."),
        ("The car does 60 per hour.", "The car does 60 miles per hour."),
        ("Ridership went up by 12 percent.", "Ridership rose by 12 percent."),
        ("Ashgate won against Riverton in the final.", "Riverton lost to Ashgate in the final."),
        ("The race was won from pole position by Lena Ortiz.", "Lena Ortiz won the race from pole position."),
        ("The club claimed the cup in 1998.", "The club claimed it in 1998 after a replay."),
        ("The board delayed its ruling until May.", "The board postponed its ruling until May."),
        ("Trials point to a possible fall in relapses with the drug.", "Trials suggest the drug might reduce relapses."),
        ("The council will vote on the plan next week.",
         "The council voted last year to delay the plan; it will vote again next week."),
        ("The drug costs 40 dollars a tablet.", "The drug costs 40 dollars per tablet."),
        ("Each tablet costs 40 dollars.", "The drug costs 40 dollars per tablet."),
        ("Unemployment stood at 5 per cent.", "Unemployment stood at 5 per cent."),
        ("The dam had burst before the rain began.", "The dam had already burst when the rain began."),
        ("In 2020 the firm moved its head office from Dublin to Leeds.",
         "The firm moved its head office from Dublin to Leeds in 2020."),
        ("The mill, once the town's largest employer, is still open.", "The mill, once the town's largest employer, "
         "is still open."),
        ("Sales picked up after the new store opened in the town.", "Sales picked up once the new store opened in the town."),
    ],
)
def test_faithful_restatements_have_no_findings(claim: str, support: str) -> None:
    """Faithful restatements from the dev sets: no veto fires."""
    assert not reasons(claim, support)
