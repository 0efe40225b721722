"""Certainty (CERTAINTY_UNSTATED): a claim may state as fact only what its support states as fact.

A support that only supposes (`hedge_words`: may, suggests, believed, ...), reports, plans or asks for what
the claim states, that only relates (`association_words`) what the claim states as a cause, that says a thing
"can" happen where the claim says it "will", or that compares a group chosen by what it did, does not back the
claim (`certainty_unstated`). A word that also has other senses counts only where it reports (`_reports`).
"""

from __future__ import annotations

from arborist.verify.lexicon import IRREGULAR_VERBS, SUBJECT_PRONOUNS, Lexicon
from arborist.verify.reading import (
    AUXILIARIES,
    COPULAS,
    DETERMINERS,
    POSSESSIVE,
    Text,
    after_copula,
    clause_of,
    is_plural,
    past_form,
    span_text,
)

_POSSIBLE = frozenset("can could may might".split())  # "can produce" is not "will produce"
_FUTURE = frozenset("will would shall going plans planned scheduled expected due".split())  # "will be removed"

# Verbs of saying that report the sentence before them when they end it (", officials said.").
_SAYS = frozenset("say says said believe believes reported report reports".split())
# Asking reports a request only before its object or "to", "that", "for": "asked the council to", "asks for".
_ASKS = frozenset("ask asks asked".split())
_ASKED_NEXT = frozenset("to that for whether if him her them us me you".split())
# Report words that report with an "as" shortly after them: "described the memo as a forgery".
_REPORTS_AS = frozenset("described branded labelled labeled characterised characterized".split())
# Report words that report only with one of their words right after them: "threatened to strike", "estimates that",
# "fear that", "are feared to have died", "was meant to", "the court held that", "was scheduled to land"; not "a
# threatened species", "an estimated 40,000", "fear of flying", "held morning sessions", "scheduled flights".
# ("designed to", "engineered to" and "able to" describe a method or a feat as often: not reports.)
_REPORTS_RIGHT_BEFORE = {word: tuple(after.split()) for words, after in (
    ("threaten threatens threatened meant", "to"), ("estimated feared", "that to"), ("hint hints hinted", "that at"),
    ("estimate estimates fear fears worry worries maintain maintains maintained deny denies denied hold holds held",
     "that"), ("planned scheduled slated", "to for"), ("calling called", "for"), ("trend", "towards toward"))
    for word in words.split()}
# Report words of other common senses that report only before their word ("denied that", not "bail was denied";
# "called for", not "police were called" nor "the recipe calls for two eggs"; "a trend towards", not "bucking the
# trend").
_ONLY_RIGHT_BEFORE = frozenset("""maintain maintains maintained hint hints hinted deny denies denied calling called
    trend""".split())
# Hedge words that report a claim, plan or request only with "to", "that" or "of" close after them ("the mayor
# plans to build", "recommended that", "accused the company of"), or as the tables above say: else they are nouns
# or adjectives ("a monthly plan", "the recommended dose") or another sense ("claimed the title").
_REPORTS_BEFORE = _ASKS | _REPORTS_AS | frozenset(_REPORTS_RIGHT_BEFORE) | frozenset(
    """claim claims claimed plan plans planning intend intends intended promise promises demand demands request
    requests requested recommend recommends recommended urge urges argue argues contend contends insist insists
    accuse accuses aim aims seek seeks hope hopes want wants myth misconception suspect suspects suspected rumour
    rumours rumoured rumor rumors rumored expect expects propose proposes proposing anticipate anticipates""".split())


def certainty_unstated(claim: Text, support: Text, lex: Lexicon) -> str:
    """A note when the support only supposes (a hedge word before two of the claim's words in its clause) or
    only relates (an association word in a clause with two of the claim's words) what the claim states as fact
    or as cause, and the claim says neither; else ''."""
    wanted = claim.content
    # a claim that supposes ("may", "is believed to") may rest on a supposition; one that only reports ("The
    # maker says the engine runs ...") may not rest on a modal one ("says the engine should run ...")
    hedges = {claim.tokens[h].norm for h in range(len(claim.tokens)) if _hedges(claim, h, lex)}
    hedged = bool(hedges)
    if not hedges or (hedges <= _REPORT_ONLY and not any(t.norm in _MODAL_VERBS for t in claim.tokens)):
        for h, tok in enumerate(support.tokens):
            if hedged and tok.norm not in _MODALS:
                continue
            if not _hedges(support, h, lex) or (tok.norm in _REPORTS_BEFORE and any(
                    x == support.all_stems[h] and claim.verb(k) for k, x in enumerate(claim.all_stems))):
                continue  # "The union threatened strike action" reports the threat "threatened to take" does
            first, end = clause_of(support, h)
            if tok.norm == "according" and end < len(support.tokens) and support.initial[first]:
                end = clause_of(support, end)[1]  # "According to the defendant, the car was stolen"
            # a conjunct with a subject or a verb of its own is no longer reported ("He asked her to marry him and
            # she agreed", "The pilot asked to land and was cleared to land")
            end = next((k for k in range(h + 2, end - 1) if support.tokens[k].norm == "and" and (
                support.tokens[k + 1].norm in SUBJECT_PRONOUNS or support.tokens[k + 1].norm in AUXILIARIES - {"to"})),
                end)
            reported = support.stems[h + 1 : end]
            if end == h + 1 and first > 0 and tok.norm in _REPORTS_BEFORE | _SAYS and not any(
                    t.norm == "than" for t in support.tokens[first:h]):
                reported = support.stems[: first]  # ", officials estimate." reports the sentence before it
            if hedged and any(t.norm in ("and", "but") for t in support.tokens[max(first, h - 3) : h]):
                continue  # a report's later conjunct ("... damaged 300 homes and may damage more")
            if len(wanted & {s for s in reported if s}) >= 2:
                start = next((k for k in range(max(first, h - 3), h) if support.tokens[k].norm in _EVIDENCE_DENIERS), h)
                return (f"certainty: its support says '{span_text(support, start, min(end - 1, h + 3))} ...', the claim "
                        "states it as fact")
    if will := _will_over_can(claim, support):
        return will
    if set(claim.all_stems) & lex.associations:
        return ""
    cause = next((i for i, s in enumerate(claim.all_stems) if s in lex.causal and _causes(claim, i)), None)
    if cause is None:
        return ""
    for a, s in enumerate(support.all_stems):
        if s not in lex.associations or support.compound(a):
            continue  # "Fas-associated death domain" names a protein
        first, end = clause_of(support, a)
        if any(support.all_stems[k] == claim.all_stems[cause] and _causes(support, k) for k in range(first, end)):
            continue  # "smoking causes cancer and is associated with stroke" states the cause itself
        held = len(wanted & {x for x in support.stems[first:end] if x})
        if held >= 2 and (claim.tokens[cause - 1].norm not in POSSESSIVE or held * 2 > len(wanted)):
            # a perfect ("has resulted in lower emissions") needs the association to hold most of the claim: "...
            # has cut emissions, and lower emissions are associated with better health" states the cause itself
            return (f"certainty: the claim's '{claim.tokens[cause].surface}' states a cause; its support only says "
                    f"'{support.tokens[a].surface}'")
    return _groups_compared(claim, cause, support, wanted)


# Hedges that say a thing may be so, as against words that report it ("says", "according to").
_MODALS = frozenset("may might should possibly perhaps probably likely potentially ought".split())
# Modal verbs by which a claim says what can, may or will be ("said residents can park"): it keeps a modal of its
# support's ("... may park"); "could" is as often a past "can" ("could not train", "could hold 500").
_MODAL_VERBS = frozenset("can could may might should would must will".split())
_REPORT_ONLY = frozenset("""say says said told according claim claims claimed report reports reported reportedly
    allege alleges alleged allegedly maintain maintains maintained insist insists insisted argue argues argued
    contend contends contended believe believes believed think thinks thought""".split())


# Plurals without an -s that name a group ("people who drank coffee").
_GROUP_WORDS = frozenset("those people children men women".split())
# Comparatives by which a support sets one group's outcome beside another's.
_GROUP_COMPARATIVES = frozenset("lower fewer higher more less greater smaller larger better worse".split())


def _groups_compared(claim: Text, cause: int, support: Text, wanted: frozenset[str]) -> str:
    """A note when the claim states a cause ("Drinking coffee lowers the risk of liver disease") and its support
    only compares a group chosen by what it did with the rest ("people who drank coffee had a lower rate of liver
    disease", "farms that planted hedgerows reported fewer outbreaks"), else ''. A group that chose what it did
    may differ in more than that: the support relates the two, as "associated with" does."""
    n = len(support.tokens)
    if any(support.all_stems[k] == claim.all_stems[cause] and _causes(support, k) for k in range(n)):
        return ""  # the support states the cause itself
    for r in range(1, n - 1):
        if support.tokens[r].norm not in ("who", "that") or not (
                is_plural(support.tokens[r - 1]) or support.tokens[r - 1].norm in _GROUP_WORDS):
            continue
        end = next((k for k in range(r + 1, n) if support.initial[k]), n)
        compared = next((k for k in range(r + 2, end) if support.tokens[k].norm in _GROUP_COMPARATIVES), None)
        held = len(wanted & {x for x in support.stems[r - 1 : end] if x})
        if compared is not None and held >= 2:
            return (f"certainty: the claim's '{claim.tokens[cause].surface}' states a cause; its support compares "
                    f"'{span_text(support, r - 1, r + 2)} ...' with others ('{support.tokens[compared].surface}')")
    return ""


# What a support lacks when it says there is no evidence of something: it does not state that thing.
_EVIDENCE = frozenset("evidence proof indication indications sign signs".split())
_EVIDENCE_DENIERS = frozenset("no little insufficient scant limited weak inconclusive lack lacking lacked without "
                              "not nor".split())


def _hedges(text: Text, h: int, lex: Lexicon) -> bool:
    """Token h is a hedge word used as one, or an evidence word denied ("no evidence that"): not "May" the month,
    not a report word that reports nothing ("a monthly plan", "the recommended dose", "claimed the title",
    "fluoride held in reservoirs"), not a word after a determiner ("the accused man"; but "a myth that", "the
    claim that" report)."""
    tok = text.tokens[h]
    if tok.norm in _EVIDENCE:  # "There is no evidence that ...", "little proof of ..."
        return (h + 1 < len(text.tokens) and text.tokens[h + 1].norm in ("that", "of", "for")
                and any(t.norm in _EVIDENCE_DENIERS for t in text.tokens[max(0, h - 3) : h]))
    if tok.norm not in lex.hedges or (tok.surface == "May" and not text.initial[h]):
        return False
    if tok.norm in _REPORTS_BEFORE:
        return _reports(text, h, clause_of(text, h)[1])
    if tok.norm in _ADVISES:
        return _advises(text, h)
    return tok.norm in _HEDGED_THINGS or not (h > 0 and text.tokens[h - 1].norm in DETERMINERS)


# Hedge words that suppose a thing after an article too ("a possible reduction", "the likely cause").
_HEDGED_THINGS = frozenset("possible likely probable putative potential presumed supposed alleged".split())


_ADVISES = frozenset("should ought".split())
# Verbs by which "should" frames its sentence rather than advise ("It should be noted that ...").
_FRAMING = frozenset("""note noted stress stressed mention mentioned emphasise emphasised emphasize emphasized remember
    recall recalled point pointed add added clarify clarified surprise surprised""".split())


def _advises(text: Text, h: int) -> bool:
    """Token h ("should", "ought") advises what follows: not a condition put first ("Should the vote fail, ..."),
    a frame ("It should be noted that ...", "Readers should note that ...", "Nobody should be surprised that
    ..."), nor what was expected of the past ("What should have been a routine landing ...")."""
    after = [t.norm for t in text.tokens[h + 1 : h + 4]]
    if text.initial[h] or (after[:1] == ["have"]) or (h > 0 and text.tokens[h - 1].norm == "what"):
        return False
    return not any(w in _FRAMING for w in after)


def _will_over_can(claim: Text, support: Text) -> str:
    """A note when the claim says a thing will happen ("Large earthquakes will produce landslides") where its
    support says only that it can, could, may or might ("... can produce landslides"), or says it has happened
    ("The endpoint has been removed") where its support says it will ("... will be removed"); else ''."""
    wills = {i: verb for i in range(len(claim.tokens)) if (verb := _will_verb(claim, i)) is not None}
    for i, verb in wills.items():  # "will also produce"
        for j in support.positions.get(claim.all_stems[verb], []):
            m = j - 1
            while m > max(0, j - 4) and not support.stems[m] and support.tokens[m].norm not in _POSSIBLE:
                m -= 1  # "can also produce", "could then produce"
            if m >= 0 and support.tokens[m].norm in _POSSIBLE:
                return (f"certainty: the claim's '{span_text(claim, i, verb)}' is '{span_text(support, m, j)}' in its "
                        "support")
    future = {claim.all_stems[verb] for verb in wills.values()}
    for j in range(len(support.tokens) - 1):
        verb = _will_verb(support, j)
        if verb is None or support.all_stems[verb] in future:
            continue  # the claim says "will exceed" too, whatever else it says
        done = [i for i, t in enumerate(claim.tokens) if IRREGULAR_VERBS.get(t.norm) == support.tokens[verb].norm]
        for i in claim.positions.get(support.all_stems[verb], []) + done:
            if any(t.norm == claim.tokens[i].norm for k, t in enumerate(support.tokens) if k != verb):
                continue  # the support says it done too ("built the first bridge and will build the second")
            if (claim.stems[i] and not (i and claim.tokens[i - 1].norm in DETERMINERS)  # "At the launch" is a noun
                    and not any(t.norm in _FUTURE for t in claim.tokens[max(0, i - 4) : i])):
                return (f"time: its support says it '{span_text(support, j, verb)}'; the claim says "
                        f"'{span_text(claim, max(0, i - 2), i)}'")
    # "The software will end support in January" over "Support ended in January": done, not ahead
    ahead = {support.all_stems[v] for j in range(len(support.tokens)) if (v := _will_verb(support, j)) is not None}
    for i, verb in wills.items():
        stem = claim.all_stems[verb]
        if stem in ahead:
            continue
        for j in support.positions.get(stem, []):
            if (past_form(support.tokens[j].norm) and not after_copula(support, j)
                    and not (j and support.tokens[j - 1].norm in DETERMINERS)):
                return (f"time: the claim says '{span_text(claim, i, verb)}'; its support says it "
                        f"'{support.tokens[j].surface}' already")
    return ""


def _will_verb(text: Text, j: int) -> int | None:
    """The verb that "will" at j puts in the future ("will also receive"), or None when j is not that "will"
    ("impose their will upon a class" is a noun)."""
    if text.tokens[j].norm != "will" or (j and text.tokens[j - 1].norm in DETERMINERS):
        return None
    return next((k for k in range(j + 1, min(len(text.tokens), j + 4)) if text.stems[k] and not text.breaks[k]), None)


def _reports(text: Text, h: int, end: int) -> bool:
    """Report word h (one that is also a noun, or a verb of other senses) reports something: "to", "that" or "of"
    follows it closely ("plans to", "claims that"), a gerund follows it ("recommended banning"), or a clause with
    a verb of its own ("The maker claims the battery lasts 20 hours"; not "claimed the title in 2010"), or it ends
    a short clause after the words it reports (", the researchers estimate.")."""
    norm, after = text.tokens[h].norm, text.tokens[h + 1 : min(end, h + 5)]
    first = clause_of(text, h)[0]
    if norm in _ONLY_RIGHT_BEFORE:  # "denied that", "called for"; not ", but it was denied."
        if norm == "trend" and not (h and text.tokens[h - 1].norm == "a"):
            return False  # "showed a trend towards"; not "the trend towards remote work grew"
        return bool(after) and after[0].norm in _REPORTS_RIGHT_BEFORE[norm]
    if end == h + 1 and first > 0 and h - first < 4 and norm not in DETERMINERS:
        return True
    if norm in _ASKS and after and not (
            after[0].norm in _ASKED_NEXT or after[0].norm in DETERMINERS or after[0].capitalised):
        return False  # "asked the council to install", "asked for funds"; not "if the customer asks within 14 days"
    if norm in _REPORTS_AS:
        return any(t.norm == "as" for t in text.tokens[h + 1 : min(end, h + 7)])
    if norm in _REPORTS_RIGHT_BEFORE:
        return bool(after) and after[0].norm in _REPORTS_RIGHT_BEFORE[norm]
    if any(t.norm in ("to", "that", "of") for t in after):
        return True
    if after and after[0].norm.endswith("ing") and text.stems[h + 1]:
        return True
    if (len(after) > 1 and after[0].norm in SUBJECT_PRONOUNS
            and (after[1].norm in AUXILIARIES or text.verb(h + 2))):
        return True  # "The maker claims it is 15 percent more efficient"; not "claimed it in 2010"
    if not after or after[0].norm not in DETERMINERS:
        return False
    return any(text.verb(k) and text.stems[k] for k in range(h + 3, min(end, h + 8)))


# Past forms of causing that never describe a noun: after "has" they are the verb ("has caused the decline").
_CAUSED = frozenset("caused resulted contributed triggered".split())


def _causes(text: Text, i: int) -> bool:
    """Token i is a verb of causing: inflected or after a modal or "to", not an adjective after a copula
    ("is lower"), unless a passive names the cause ("is caused by")."""
    if i == 0 or text.compound(i) or text.tokens[i - 1].norm in DETERMINERS:
        return False  # "Increased acetylation ...", "diet-induced", "the reduced form": a description
    if text.tokens[i - 1].norm in COPULAS:
        return text.passive(i)
    if (text.tokens[i - 1].norm in POSSESSIVE and text.tokens[i].norm.endswith("ed")
            and text.tokens[i].norm not in _CAUSED):
        return False  # "carriers have increased risk"; but "has caused the decline"
    return text.verb(i) or text.tokens[i - 1].norm in AUXILIARIES
