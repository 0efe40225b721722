"""The default word lists of the vetoes and the `Lexicon` built from them; the policy holds the ones in force.

They are verifier policy values, folded into `verifier_policy_hash`: a word
added or removed here changes the hash, so cached answers are re-verified.
Words are listed as written (any inflection); the checks stem them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from arborist.text import stem_all

NEGATION_WORDS: tuple[str, ...] = (
    "not", "no", "never", "none", "nor", "neither", "nobody", "nothing", "nowhere", "without", "cannot",
    "unable", "incapable", "fail", "fails", "failed", "failing", "lack", "lacks", "lacked", "lacking", "little",
    "struggle", "struggles", "struggled", "struggling", "rarely", "seldom", "hardly", "scarcely", "refuse", "refuses",
    "refused", "refusing",
)

# Words that put a state in the past ("was once the largest", "formerly a fortress"): a support that holds one
# does not back a claim that states the state now ("is the largest"; see `tense`).
FORMER_WORDS: tuple[str, ...] = ("formerly", "previously", "former", "once")
# Words that state a claim in the present.
PRESENT_WORDS: tuple[str, ...] = ("is", "are", "remains", "remain", "still", "now", "currently", "today", "presently",
                                  "continues", "continue")
# Subject pronouns: a phrase begun by a preposition ends at one ("In his lab | he conducted ..."); "once" before one
# opens a clause ("once they left"); "they"/"it" after "will" name no verb.
SUBJECT_PRONOUNS = frozenset("it they he she we".split())
# Nouns of time that "at no ..." (or "not ... at any ...") makes "never": "at no point", "at no time".
NEVER_NOUNS: frozenset[str] = frozenset({"point", "time", "stage", "moment"})

# A claim that states one of these words says more than a quote without it ("the oldest church", "the only
# plan", "all plans", "across the economy", "consistently outperformed"): each must be in the claim's own quote
# (QUALIFIER_UNSTATED).
# Compared as written. Not "any" ("did not receive any" is "received no"), "both" ("both A and B" is "A and
# B") nor "overall" ("overall survival" names a measure).
QUALIFIER_WORDS: tuple[str, ...] = (
    "only", "sole", "solely", "exclusively", "first", "last", "all", "every", "always", "entire", "whole",
    "most", "least", "best", "worst", "oldest", "newest", "youngest", "earliest", "latest", "largest", "biggest",
    "smallest", "highest", "lowest", "longest", "shortest", "greatest", "fewest", "fastest", "slowest",
    "strongest", "weakest", "richest", "poorest", "tallest", "deepest", "widest", "heaviest", "lightest",
    "cheapest", "closest", "farthest", "furthest", "nearest", "each", "unanimous", "unanimously",
    "across", "throughout", "nationwide", "worldwide", "everywhere", "universally",
    "constantly", "consistently", "continually", "continuously", "invariably", "routinely", "perpetually",
)
# Qualifier words any one of which states the others ("each patient" is "every patient" is "all patients").
QUALIFIER_GROUPS: tuple[frozenset[str], ...] = (
    frozenset({"all", "every", "each"}), frozenset({"unanimous", "unanimously"}), frozenset({"largest", "biggest"}),
    frozenset({"always", "constantly", "consistently", "continually", "continuously", "invariably", "routinely",
               "perpetually"}),
)

# A quote that uses one of these refers to something it does not name ("In 1934, it filed a complaint"): only
# then may the cited chunk's title supply a name of the claim. Compared as written.
ANAPHOR_WORDS: tuple[str, ...] = (
    "it", "its", "they", "them", "their", "theirs", "he", "him", "his", "she", "her", "hers", "this", "these",
    "those",
)

# Relations whose two sides may change places without changing what is said ("A is linked to B" is "B is
# linked to A"): the role check (see `roles`) leaves them alone. Listed as written; the check stems them.
SYMMETRIC_WORDS: tuple[str, ...] = (
    "associated", "association", "linked", "link", "correlated", "correlates", "correlation", "related", "relation",
    "interacts", "interacted", "interaction", "binds", "bound", "binding", "married", "met", "meets", "collaborated",
    "collaborates", "compared", "resembles", "resembled", "equals", "equal", "similar", "differs", "differ",
    "different", "connected", "connects", "overlaps", "overlapped", "coexist", "coexists", "joined", "joins",
    "allied", "played", "plays", "faced", "faces", "twinned", "neighbouring", "bordering", "borders",
    "corresponded", "corresponds", "correspond", "partnered",
)

# A quote that uses one of these in the clause that holds the claim's words only supposes what it says
# ("the drug may slow decline", "is believed to have been painted by Vermeer"): a claim that states it as
# fact, with none of these words, says more (CERTAINTY_UNSTATED). Compared as written, lower case
# ("May" mid-sentence is the month).
HEDGE_WORDS: tuple[str, ...] = (
    "may", "might", "could", "possibly", "possible", "perhaps", "probably", "likely", "unlikely", "suggest",
    "suggests", "suggested", "suggesting", "suggestive", "appear", "appears", "appeared", "seem", "seems", "seemed",
    "believed", "think", "thinks", "thought", "hypothesized", "hypothesised", "hypothesize", "hypothesise", "putative", "putatively",
    "potentially", "presumably", "presumed", "speculate", "speculated", "preliminary", "expected",
    "postulated", "proposed", "plausibly", "plausible", "conceivably", "allegedly", "alleged", "reportedly",
    "supposedly", "tentatively", "unclear", "uncertain", "whether",
    # reported, planned or asked for, not done: "critics allege that ...", "the mayor plans to ...",
    # "according to the defendant, ...", "residents requested that ...", "the study aimed to ..."
    # (a word that is also a noun - plan, claims, request - reports only before "to" or "that")
    "allege", "alleges", "allegation", "allegations", "claim", "claims", "claimed", "according", "plan", "plans",
    "planning", "intend", "intends", "intended", "intention", "promise", "promises", "promised", "pledged",
    "vowed", "demand", "demands", "demanded", "request", "requests", "requested", "recommend", "recommends",
    "recommended", "urge", "urges", "urged", "argue", "argues", "argued", "contend", "contends", "contended",
    "insist", "insists", "insisted", "accuse", "accuses", "accused", "aim", "aims", "aimed", "seek", "seeks",
    "sought", "hope", "hopes", "hoped", "want", "wants", "wanted",
    # a tendency, a permission, a forecast or reported speech is not the fact itself
    "tend", "tends", "tended", "permitted", "allowed", "encouraged", "advised", "eligible", "entitled",
    "optional", "forecast", "forecasts", "forecasted", "predict", "predicts", "predicted", "projected", "said",
    "says", "say", "told", "hold", "holds", "held", "believe", "believes", "suspect", "suspects", "suspected",
    "rumour", "rumours", "rumoured", "rumor", "rumors", "rumored", "planned", "scheduled", "slated", "threaten",
    "threatens", "threatened", "estimate", "estimates", "estimated", "fear", "fears", "feared", "expect", "expects",
    "meant", "propose", "proposes", "proposing", "described", "worry", "worries", "anticipate", "anticipates",
    "ask", "asks", "asked", "maintain", "maintains", "maintained", "hint", "hints", "hinted",
    "deny", "denies", "denied", "calling", "called", "trend",
    "branded", "labelled", "labeled", "characterised", "characterized",
    # said to be false: "it is a myth that ...", "falsely claimed that ..."
    "myth", "misconception", "falsely", "wrongly", "mistakenly", "erroneously", "unproven", "unsubstantiated",
    "unfounded", "baseless",
    # advised, not done: "the bridge should be inspected every two years" is no inspection schedule kept
    "should", "ought",
)

# A quote that only relates two things ("flossing was associated with fewer cardiac events") does not back a
# claim that one causes the other ("flossing prevents cardiac events"): CERTAINTY_UNSTATED when the claim uses
# one of `CAUSAL_WORDS` as a verb and none of these. Listed as written; the check stems them.
ASSOCIATION_WORDS: tuple[str, ...] = (
    "associated", "association", "associations", "correlated", "correlates", "correlation", "correlations",
    "linked", "link", "links", "related", "relationship", "coincided", "coincide", "coincides", "coincident",
)
CAUSAL_WORDS: tuple[str, ...] = (
    "cause", "causes", "caused", "lead", "leads", "led", "result", "results", "resulted", "prevent", "prevents",
    "prevented", "reduce", "reduces", "reduced", "lower", "lowers", "lowered", "increase", "increases", "increased",
    "raise", "raises", "raised", "induce", "induces", "induced", "promote", "promotes", "promoted", "improve",
    "improves", "improved", "protect", "protects", "protected", "trigger", "triggers", "triggered", "drive",
    "drives", "drove", "contribute", "contributes", "contributed", "determine", "determines", "determined",
    "inhibit", "inhibits", "inhibited", "enhance", "enhances", "enhanced", "worsen", "worsens", "worsened",
    "decrease", "decreases", "decreased", "slow", "slows", "slowed", "boost", "boosts", "boosted", "suppress",
    "suppresses", "suppressed", "impair", "impairs", "impaired", "responsible", "produce", "produces", "produced",
)

# Units, one group of names per unit ("km kilometre kilometer"): a claim's number followed by one unit that its
# support follows with another ("6 days" over "6 hours", "1.2 miles" over "1.2 kilometres") is UNIT_MISMATCH.
UNIT_WORDS: tuple[str, ...] = (
    "ms millisecond milliseconds", "s sec secs second seconds", "min mins minute minutes",
    "h hr hrs hour hours", "day days", "wk wks week weeks", "mo month months", "yr yrs year years",
    "fortnight fortnights", "decade decades", "century centuries", "millennium millennia", "mm millimetre millimetres millimeter millimeters",
    "cm centimetre centimetres centimeter centimeters", "m metre metres meter meters",
    "km kilometre kilometres kilometer kilometers", "mi mile miles", "ft foot feet", "yd yard yards",
    "mg milligram milligrams", "mcg ug microgram micrograms", "g gram grams", "kg kilo kilos kilogram kilograms",
    "lb lbs pound pounds", "oz ounce ounces", "t tonne tonnes ton tons", "ml millilitre millilitres milliliter "
    "milliliters", "l litre litres liter liters", "gal gallon gallons", "thousand thousands", "million millions",
    "billion billions", "trillion trillions", "percent pct pc", "percentage", "kb kilobyte kilobytes", "mb megabyte megabytes",
    "gb gigabyte gigabytes", "tb terabyte terabytes", "mph", "kph", "hz hertz", "khz kilohertz", "mhz megahertz",
    "ghz gigahertz", "w watt watts", "kw kilowatt kilowatts", "mw megawatt megawatts", "v volt volts",
)

# Irregular past tenses and participles, one entry a form: "form:verb" ("sold:sell"). The role and tense checks
# read a verb by its base (`IRREGULAR_VERBS`), and a phrase with one of these forms in it is an act, not the name
# of a thing. A form marked "+" is also a simple past that `reading.past_form` reads as a verb on its own ("Pixar
# bought Disney", `PAST_FORMS`); the last ones are such pasts whose verb is not mapped (as they were when the two
# tables were merged: mapping them would change what the role and tense checks decide).
IRREGULAR_FORMS = """
    begun:begin began:begin+ done:do did:do gone:go went:go taken:take took:take+ written:write wrote:write+
    given:give gave:give+ made:make+ won:win+ sold:sell+ bought:buy+ built:build+ spoken:speak chosen:choose
    drawn:draw grown:grow known:know shown:show thrown:throw broken:break driven:drive risen:rise rose:rise+
    fallen:fall fell:fall+ frozen:freeze stolen:steal flown:fly flew:fly+ eaten:eat ate:eat+ hidden:hide
    struck:strike+ sent:send+ spent:spend+ lent:lend+ met:meet paid:pay+ found:find+ brought:bring+
    caught:catch+ taught:teach+ fought:fight+ told:tell+ beaten:beat seen:see saw:see+ ran:run+ came:come
    became:become+ kept:keep+ led:lead+ lost:lose+ held:hold+ stood:stand+ sat:sit grew:grow+ knew:know+
    threw:throw+ wore:wear+ worn:wear sang:sing+ sung:sing drank:drink shook:shake shaken:shake forgot:forget+
    forgotten:forget got:get+ gotten:get sought:seek+ thought:think+ dealt:deal slept:sleep spoke:speak+
    woke:wake woken:wake rode:ride+ ridden:ride fled:flee bred:breed laid:lay stuck:stick swore:swear+
    sworn:swear tore:tear+ torn:tear withdrew:withdraw+ withdrawn:withdraw overtook:overtake+
    overtaken:overtake undertook:undertake+ undertaken:undertake forgave:forgive+ forgiven:forgive
    chose:choose+ froze:freeze+ stole:steal+ broke:break drew:draw+ hid:hide+ bitten:bite beat+ drove+ hit+
    hung+ left+ overthrew+ put+ rang+ said+ sank+ shot+ slew+ swept+ swung+ upheld+"""
IRREGULAR_VERBS: dict[str, str] = dict(
    entry.rstrip("+").split(":") for entry in IRREGULAR_FORMS.split() if ":" in entry)
PAST_FORMS = frozenset(entry.rstrip("+").partition(":")[0] for entry in IRREGULAR_FORMS.split() if entry.endswith("+"))

# A people's or a place's adjective and the place it names: a claim's "a northern Italian monastery" names what
# "a monastery in northern Italy" does (`checks` reads the adjective before a thing for the place after
# in/from/of, one way only).
DEMONYMS: dict[str, str] = dict(pair.split(":") for pair in """european:europe african:africa asian:asia american:america british:britain
    english:england french:france german:germany italian:italy spanish:spain portuguese:portugal dutch:netherlands
    belgian:belgium swiss:switzerland austrian:austria swedish:sweden norwegian:norway danish:denmark
    finnish:finland irish:ireland scottish:scotland welsh:wales polish:poland czech:czechia greek:greece
    turkish:turkey russian:russia ukrainian:ukraine chinese:china japanese:japan korean:korea indian:india
    pakistani:pakistan iranian:iran iraqi:iraq israeli:israel egyptian:egypt mexican:mexico canadian:canada
    brazilian:brazil argentine:argentina argentinian:argentina chilean:chile peruvian:peru colombian:colombia
    australian:australia nigerian:nigeria kenyan:kenya ethiopian:ethiopia hungarian:hungary romanian:romania
    bulgarian:bulgaria serbian:serbia croatian:croatia vietnamese:vietnam thai:thailand indonesian:indonesia
    filipino:philippines cuban:cuba scandinavian:scandinavia moroccan:morocco algerian:algeria tunisian:tunisia
    lebanese:lebanon syrian:syria afghan:afghanistan icelandic:iceland estonian:estonia latvian:latvia
    lithuanian:lithuania antarctic:antarctica siberian:siberia bavarian:bavaria californian:california
    texan:texas venetian:venice roman:rome parisian:paris""".split())

NEGATIVE_PREFIXES: tuple[str, ...] = ("non", "un", "in", "im", "ir", "il")

# name -> (one side, the other side, complementary, required); see `Pair`.
DIRECTION_PAIRS: dict[str, tuple[tuple[str, ...], tuple[str, ...], bool, bool]] = {
    "amount": (
        ("increase", "increased", "increasing", "increment", "raise", "raised", "rose", "risen", "elevate",
         "elevated", "elevation", "enhance", "enhanced", "enhancement", "augment", "augmented", "boost", "amplify",
         "amplified", "amplification", "upregulate", "upregulated", "upregulation", "induce", "induced", "induction",
         "stimulate", "stimulated", "stimulation", "promote", "promoted", "promotion", "accelerate", "accelerated", "exacerbate", "exacerbated", "potentiate", "heighten",
         "strengthen", "higher", "high", "greater", "more", "larger", "bigger", "gain", "gained", "expand",
         "expanded", "expansion", "accumulate", "accumulated", "accumulation", "faster", "longer", "prolong",
         "prolonged", "extend", "extended", "double", "doubled", "triple", "surge", "excess", "encourage",
         "hyperactive", "intensify", "intensified", "lengthen", "lengthened", "widen", "widened", "surplus",
         "grow", "grew", "grown", "advance", "advanced", "climb", "climbed", "soar", "soared", "surged", "jump",
         "jumped", "spike", "spiked", "rocketed", "swell", "swelled", "swollen", "lift", "lifted", "lifts", "quicken",
         "quickened", "quickens", "sped", "hike", "hiked", "hikes"),
        ("decrease", "decreased", "decreasing", "decline", "declined", "reduce", "reduced", "reducing", "reduction",
         "lower", "low", "lowered", "diminish", "diminished", "inhibit", "inhibited", "inhibition", "suppress",
         "suppressed", "suppression", "repress", "repressed", "repression", "attenuate", "attenuated", "attenuation",
         "block", "blocked", "blockade", "impair", "impaired", "impairment", "downregulate", "downregulated",
         "downregulation", "dampen", "dampened", "deplete", "depleted", "depletion", "abolish", "abolished",
         "abrogate", "abrogated", "less", "fewer", "smaller", "lesser", "drop", "dropped", "fall", "fell", "fallen",
         "slow", "slower", "slowed", "delay", "delayed", "postpone", "postponed", "deferred", "weaken", "weakened", "prevent", "prevented", "prevention",
         "blunt", "blunted", "lose", "lost", "loss", "shrink", "minimize", "restrict", "restricted", "hinder",
         "impede", "impeded", "antagonize", "silence", "silenced", "shorter", "shorten", "shortened", "halve", "halved", "deficit",
         "mitigate", "mitigated", "degrade", "degraded", "degradation", "scarce", "contract", "contracted",
         "contraction", "shrank", "shrunk", "shrinking", "narrow", "narrowed", "cut", "cuts", "slash", "slashed",
         "slowly", "dwindle", "dwindled", "wane", "waned", "subside", "subsided", "decelerate", "decelerated",
         "retreat", "retreated", "recede", "receded", "plunge", "plunged", "plummet", "plummeted", "slump", "slumped",
         "tumble", "tumbled", "dip", "dipped", "sank", "slid", "sagged", "trim", "trimmed", "trims", "pared"),
        False, True,
    ),
    "outcome": (
        ("improve", "improved", "improvement", "ameliorate", "ameliorated", "rescue", "rescued", "protect",
         "protected", "protection", "protective", "benefit", "beneficial", "alleviate", "alleviated", "restore",
         "restored", "cure", "cured", "better", "favorable", "favourable", "safe", "safer", "relieve", "relieved"),
        ("worsen", "worsened", "worse", "aggravate", "aggravated", "exacerbate", "exacerbated", "harm", "harmful",
         "damage", "damaged", "detrimental", "deleterious", "adverse", "toxic", "poor", "poorer", "impair",
         "impaired", "dangerous", "hazardous", "risky", "unsafe"),
        False, True,
    ),
    "sign": (("positive", "positively"), ("negative", "negatively"), False, True),
    "order": (
        ("before", "prior", "precede", "preceded", "precedes", "earlier", "early", "pre"),
        ("after", "following", "follow", "follows", "followed", "subsequent", "subsequently", "later", "late",
         "post"),
        False, False,
    ),
    "necessity": (
        ("necessary", "necessity", "require", "required", "requires", "requirement", "essential", "needed",
         "indispensable"),
        ("dispensable", "unnecessary", "nonessential", "redundant"),
        True, False,
    ),
    "dependence": (("dependent", "dependence", "depend", "depends"), ("independent", "independence"), True, False),
    "presence": (("present", "presence", "detectable", "detected"), ("absent", "absence", "undetectable"), True, False),
    "frequency": (
        ("common", "frequent", "frequently", "often", "prevalent", "widespread", "majority", "usually",
         "typically", "commonly"),
        ("rare", "rarely", "uncommon", "infrequent", "scarce", "seldom", "minority", "sometimes", "occasionally"),
        False, True,
    ),
    "activation": (
        ("activate", "activates", "activated", "activating", "activation", "activator"),
        ("deactivate", "deactivates", "deactivated", "deactivation", "inactivate", "inactivates", "inactivated",
         "inactivation"),
        False, False,
    ),
    "susceptibility": (
        ("susceptible", "susceptibility", "vulnerable", "vulnerability", "sensitive", "hypersensitive",
         "hypersensitivity", "prone"),
        ("resistant", "immune", "tolerant", "refractory", "insensitive"),
        False, False,
    ),
    "contest": (
        ("win", "wins", "won", "winning", "winner", "victory", "victorious", "outperform", "outperformed",
         "outperforms", "outperforming", "outpaced", "outstripped"),
        ("lose", "loses", "lost", "losing", "loser", "underperform", "underperformed", "underperforms",
         "underperforming", "lagged", "lagging", "trailed"),
        False, False,
    ),
    "switch": (("enable", "enabled", "enables"), ("disable", "disabled", "disables"), True, False),
    "verdict": (("convicted", "convict", "guilty"), ("acquitted", "acquit", "innocent"), True, False),
    "malignancy": (("malignant", "malignancy"), ("benign",), True, False),
    "age": (("older", "oldest", "elder", "eldest"), ("younger", "youngest", "newer", "newest"), False, False),
    "dominance": (("dominant", "dominance"), ("recessive",), True, False),
    "approval": (("approve", "approved", "approves", "approval", "ratify", "ratified", "ratifies", "ratification",
                  "accept", "accepted", "accepts", "admit",
                  "admitted", "admits", "confirmed", "confirms", "concede", "conceded", "concedes", "acknowledge",
                  "acknowledged", "acknowledges"),
                 ("reject", "rejected", "rejects", "rejection", "deny", "denied", "denies", "veto", "vetoed",
                  "refute", "refuted", "refutes", "disprove", "disproved", "disproves"),
                 True, False),
    "legality": (("legal", "lawful", "legally", "permitted", "allowed", "allow", "allows", "permit", "permits"),
                 ("illegal", "unlawful", "illegally", "prohibited", "forbidden", "banned", "forbid", "forbids",
                  "forbade", "prohibit", "prohibits", "ban", "bans"), True, False),
    "consciousness": (("conscious", "awake"), ("unconscious", "comatose"), True, False),
    "moisture": (("wet", "humid", "moist", "rainy"), ("dry", "arid"), False, False),
    "openness": (("open", "opened", "reopened", "accessible", "navigable", "passable"),
                 ("closed", "shut", "shuttered", "sealed", "inaccessible", "impassable", "unnavigable"), True, False),
    "truth": (("true", "correct", "accurate", "valid", "enforceable", "binding"),
              ("false", "incorrect", "inaccurate", "invalid", "wrong", "void", "unenforceable"),
              True, False),
    "fertility": (("fertile", "productive"), ("barren", "infertile", "sterile", "unproductive"), True, False),
    "tightness": (("tighten", "tightened", "tightening", "stricter", "tougher"),
                  ("loosen", "loosened", "loosening", "relax", "relaxed", "eased", "easing", "looser"), False, False),
    "temperature": (("heat", "heated", "warm", "warmed", "warmer", "hotter", "warming", "hot"),
                    ("cool", "cooled", "cooler", "colder", "chilled", "cooling", "cold"), False, False),
    "value": (("appreciate", "appreciated", "appreciation", "inflate", "inflated"),
              ("depreciate", "depreciated", "depreciation", "deflate", "deflated", "devalue", "devalued"), False, False),
    "altitude": (("ascend", "ascended", "ascent", "rise", "rising"), ("descend", "descended", "descent"), False, False),
    "grade": (("upgrade", "upgraded", "promoted"), ("downgrade", "downgraded", "demoted", "relegated"), False, False),
    "rank": (("superior", "better"), ("inferior", "worse"), False, False),
    "visibility": (("visible", "seen", "apparent", "detectable"), ("invisible", "unseen", "hidden", "undetectable"),
                   True, False),
    "inclusion": (("include", "included", "includes", "inclusion"), ("exclude", "excluded", "excludes", "exclusion",
                                                                     "omit", "omitted", "omits", "omission"),
                  True, False),
    "trade": (("import", "imports", "imported", "importer"), ("export", "exports", "exported", "exporter"),
              False, False),
    "authenticity": (("genuine", "authentic", "authenticity"),
                     ("fake", "fakes", "faked", "forged", "forgery", "counterfeit", "spurious", "bogus", "sham"),
                     True, False),
    "success": (("success", "successful", "successfully", "succeed", "succeeded"),
                ("failure", "unsuccessful", "unsuccessfully"), True, False),
    "period": (("since",), ("until", "till"), False, False),
    "currency": (FORMER_WORDS, ("still", "currently", "presently", "now", "remains"), False, False),
    "quantity": (("many", "numerous", "most", "majority", "bulk", "unanimous", "unanimously", "each", "every", "all"),
                 ("few", "handful", "minority", "narrowly", "several", "some"), False, False),
    "obligation": (("must", "required", "mandatory", "obligatory", "compulsory", "obliged"),
                   ("may", "can", "should", "optional", "voluntary", "recommended", "encouraged", "advised",
                    "permitted", "allowed"), False, False),
    "price": (("dearer", "pricier", "costlier", "expensive", "costly", "overpriced"),
              ("cheaper", "inexpensive", "cheap", "affordable", "economical"), False, False),
    "depth": (("deep", "deeper", "deepest"), ("shallow", "shallower", "shallowest"), True, False),
    "lavishness": (("lavish", "opulent", "extravagant", "luxurious", "sumptuous"),
                   ("modest", "austere", "frugal", "spartan"), False, False),
    "condition": (("stable",), ("critical",), False, False),
    "position": (("ahead", "leading"), ("behind", "trailing"), False, False),
    "level": (("above", "up", "upward", "upwards"), ("below", "down", "downward", "downwards"), False, False),
    "permanence": (("permanent", "permanently"), ("temporary", "temporarily", "interim", "provisional"),
                   True, False),
    "travel": (("depart", "departed", "departs", "departure", "departing"),
               ("arrive", "arrived", "arrives", "arrival", "arriving"), False, False),
    "ruling": (("overturn", "overturned", "overturns", "quash", "quashed", "annul", "annulled"),
               ("uphold", "upheld", "upholds", "affirm", "affirmed"), False, False),
    "stance": (("support", "supported", "supports", "supporting", "supporter", "supporters", "back", "backed",
                "backs", "backing", "endorse", "endorsed", "endorses", "praise", "praised", "praises", "welcome", "welcomed", "welcomes"),
               ("oppose", "opposed", "opposes", "opposing", "opponent", "opponents", "opposition", "criticise",
                "criticised", "criticises", "condemn", "condemned", "condemns", "denounce", "denounced",
                "denounces", "reject", "rejected", "rejects", "censure", "censured", "censures", "rebuke", "rebuked",
                "blame", "blamed", "blames", "against", "panned", "slammed", "lambasted"), False, False),
    # not "criticized": it stems as "critics"
    "life": (("alive", "living", "survive", "survived", "survives", "survivor", "survivors", "survival"),
             ("dead", "die", "died", "dies", "death", "deaths", "killed", "perished", "deceased"), True, False),
    "ease": (("easy", "easier", "easiest", "easily", "simple", "simpler", "straightforward"),
             ("difficult", "hard", "harder", "hardest", "difficulty", "complicated", "complex", "challenging"),
             False, False),
    "strength": (("strong", "stronger", "strongest", "robust", "sturdy", "strengthen", "strengthened", "bolster",
                  "bolstered", "reinforce", "reinforced"),
                 ("weak", "weaker", "weakest", "fragile", "frail", "flimsy", "undermine", "undermined", "undermines",
                  "weaken", "weakened"), False, False),
    "wealth": (("rich", "richer", "richest", "wealthy", "wealthier", "affluent", "prosperous"),
               ("poor", "poorer", "poorest", "impoverished", "deprived"), False, False),
    "sector": (("public", "state-owned"), ("private", "privately"), True, False),
    "setting": (("urban", "city"), ("rural", "countryside"), False, False),
    "course": (("acute",), ("chronic",), True, False),
    "origin": (("natural", "naturally", "wild"), ("artificial", "artificially", "synthetic", "man-made", "captive"),
               True, False),
    "sex": (("male", "males", "men", "man", "boys"), ("female", "females", "women", "woman", "girls"), True, False),
    "extreme": (("maximum", "max", "upper", "top", "peak"), ("minimum", "min", "bottom"), False, False),
    "membership": (("join", "joined", "joins", "joining", "enter", "entered", "enters"),
                   ("leave", "left", "leaves", "leaving", "quit", "quits", "exit", "exited", "exits", "withdrew",
                    "withdraw", "withdrawn"), False, False),
    "employment": (("hire", "hired", "hires", "hiring", "recruit", "recruited", "employ", "employed"),
                   ("fire", "fired", "dismiss", "dismissed", "laid", "layoffs", "sacked", "redundant"), False, False),
    "memory": (("remember", "remembered", "remembers", "recall", "recalled"), ("forget", "forgot", "forgotten",
                                                                             "forgets"), True, False),
    "agreement": (("agree", "agreed", "agrees", "agreement", "approve", "like", "liked", "likes", "appear",
                   "appeared", "appears", "continue", "continued", "continues", "connect", "connected", "obey",
                   "obeyed", "qualify", "qualified", "honest", "advantage", "advantages"),
                  ("disagree", "disagreed", "disagrees", "disagreement", "disapprove", "dislike", "disliked",
                   "dislikes", "disappear", "disappeared", "disappears", "discontinue", "discontinued",
                   "discontinues", "disconnect", "disconnected", "disobey", "disobeyed", "disqualify",
                   "disqualified", "dishonest", "disadvantage", "disadvantages"), True, False),
    "alliance": (("ally", "allies", "allied", "alliance", "friend", "friends", "partner", "partners"),
                 ("rival", "rivals", "rivalry", "enemy", "enemies", "foe", "foes", "adversary", "adversaries"),
                 True, False),
    "daytime": (("diurnal", "daytime"), ("nocturnal", "nighttime", "night-time"), True, False),
    "toughness": (("ductile", "malleable", "pliable"), ("brittle",), True, False),
    "taste": (("sweet", "sweeter", "sweetest", "sweetness"), ("bitter", "bitterer", "bitterness", "sour", "sourer",
                                                              "sourness", "tart"), False, False),
    "quality": (("good", "efficient", "excellent", "superb", "outstanding", "well"),  # not "effective": "effects"
                ("poor", "poorly", "bad", "badly", "mediocre", "dismal", "lousy"), False, False),
    "reward": (("reward", "rewarded", "rewards"), ("punish", "punished", "punishes", "penalise", "penalised",
                                                  "penalize", "penalized"), False, False),
    "sameness": (
        ("similar", "same", "comparable", "equal", "equivalent", "identical", "unchanged", "resemble"),
        ("different", "differ", "differs", "difference", "differences", "distinct", "dissimilar", "altered"),
        True, False,
    ),
}


@dataclass(frozen=True)
class Pair:
    """Two opposite word groups. `complementary`: not-A is B (required/dispensable); else not-A is not B."""

    name: str
    up: frozenset[str]  # stems
    down: frozenset[str]
    complementary: bool
    required: bool  # a claim's word of this pair must be stated by its support


@dataclass(frozen=True)
class Lexicon:
    negators: frozenset[str]  # token norms
    prefixes: tuple[str, ...]
    pairs: tuple[Pair, ...]
    qualifiers: frozenset[str]  # token norms of the words a claim may state only when its quote does
    anaphors: frozenset[str]  # token norms of the words by which a quote refers to what its title names
    symmetric: frozenset[str]  # stems of relations whose sides may swap (the role check skips them)
    hedges: frozenset[str]  # token norms of the words by which a support only supposes
    associations: frozenset[str]  # stems of the words by which a support only relates two things
    causal: frozenset[str]  # stems of the verbs by which a claim says one thing causes another
    units: dict[str, int]  # a unit's name (folded) -> its group


@lru_cache(maxsize=8)
def build_lexicon(
    negators: tuple[str, ...], prefixes: tuple[str, ...],
    pairs: tuple[tuple[str, tuple[str, ...], tuple[str, ...], bool, bool], ...], qualifiers: tuple[str, ...],
    anaphors: tuple[str, ...], symmetric: tuple[str, ...], hedges: tuple[str, ...], associations: tuple[str, ...],
    causal: tuple[str, ...], units: tuple[str, ...],
) -> Lexicon:
    """Stem the policy's word lists once (cached per list)."""
    def folded(words: tuple[str, ...]) -> frozenset[str]:
        return frozenset(w.casefold() for w in words)

    def stemmed(words: tuple[str, ...]) -> frozenset[str]:
        return frozenset(stem_all([w.casefold() for w in words]))

    built = tuple(Pair(name, stemmed(up), stemmed(down), complementary, required)
                  for name, up, down, complementary, required in pairs)
    return Lexicon(folded(negators), tuple(p.casefold() for p in prefixes), built, folded(qualifiers),
                   folded(anaphors), stemmed(symmetric), folded(hedges), stemmed(associations), stemmed(causal),
                   {name.casefold(): g for g, group in enumerate(units) for name in group.split()})
