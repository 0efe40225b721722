"""Does the support say the same thing *the same way round*? Negation and direction, claim vs quote or span.

Word overlap cannot tell "PD-1 triggering reduces IL-10" from "PD-1 triggering
induced IL-10": the words agree, the direction does not. This check compares a
claim with the text that is meant to carry it (its own quote, or the sentence
its span was found in), word by word where they line up:

Alignment. Each claim token is lined up with the occurrence of the same stem
in the support whose neighbourhood (content stems within `WINDOW` tokens
left and right) best matches the claim's, left with left and right with
right (crossed sides count half, for passives and nominalisations:
"IL-10 was reduced by PD-1" vs "PD-1 reduced IL-10"). A word with a negative
prefix lines up with its base, flipped: "UCP1-independent" with "dependent",
"inactive" with "active" (prefixes `negative_prefixes`, base stem of at
least `MIN_BASE` letters so "inform" is not "form").

Negation (NEGATION_MISMATCH). A negator (`negation_words`: not, no, never,
unable, lack, fail, ...) negates its head: the first content word after it in
its clause, skipping intensifiers ("not significantly associated" -> associated;
"lack of expression" -> expression). A negator that quantifies its clause
denies all of it: none, nobody, nothing and neither wherever they stand
("neither the mayor nor the council approved the plan"), and at the start
of a clause "no", "at no", "not a single" ("none of the 40 participants
developed antibodies" denies "developed antibodies", not "40"). Verbs
of ceasing or avoiding deny a gerund after them ("stopped producing",
"avoided reporting"), and verbs of declining the verb after their "to"
("declined to rule", "neglected to file", "has yet to turn"; not "prices
declined", "declined to a record low", "was omitted to save space"); when
the other text uses the same verb, the thing it denies may stand the other
way round ("Flooding was avoided"). A claim
word and the support word it
lines up with must agree on being negated (a flipped prefix counts as one
negation). "not only" negates nothing.

A claim's negated word that the support never uses, in either polarity,
is NEGATION_UNSTATED: the claim asserts a negation its support does not
state ("X does not cause Y" over a quote that never speaks of causing);
a negated direction word is the direction check's ("not required" is
"dispensable").
(Negative prefixes are left out here: "in-" starts too many words that
negate nothing, "intestinal", "increase".)

Direction (DIRECTION_MISMATCH / DIRECTION_UNSTATED). `direction_pairs` are
pairs of opposite word groups (increase/induce/higher/more vs decrease/
inhibit/lower/less, improve vs worsen, positive vs negative, before vs after,
necessary vs dispensable, ...). Pairs of opposite things or qualities
(`_THING_PAIRS`: rich/poor, public/private, survivors/dead, ...) name two
things when both stand in one clause, and a claim word its support also
says, as plainly, is stated wherever the opposite stands ("Private donors
funded public schools"). A capitalised word inside a sentence is a name,
never a direction word ("Long Island"). Every direction word of the claim is lined up
with the support's words of the same pair by neighbourhood; it must meet a
word of its own side (a negated word of a complementary pair counts as the
other side: "not required" = "dispensable"). Meeting the other side is
DIRECTION_MISMATCH; meeting none, for a pair marked `required`, is
DIRECTION_UNSTATED: the claim asserts a direction its support never states
near the claim's words (neighbourhood score below `STATED`).

Comparison (COMPARISON_MISMATCH). When the claim compares ("A is more X
than B", "A ... compared with B", "higher in A than in B", "twice as likely
as B"), the support's comparison must not put A's words on B's side and B's
on A's. The terms are read as phrases (see `_sides`): the subject or the
phrase after the preposition that also opens B, and B up to its next
preposition, so the words both terms share ("rice", "in adults") do not hide
the swap. A bare "as ... as" states an equality and reads either way round.

Roles (ROLES_SWAPPED). A verb of the claim with a content word on each
side in its clause ("Pixar acquired Disney") must not find those words on
the other sides of the same verb in its support ("Disney acquired Pixar"):
each side's words crossed over, the verb's nearest neighbour among them, in
the same voice. A passive on one side only ("Pixar was acquired by
Disney") expects the sides crossed, and finds them straight when the roles
are swapped. Word overlap is blind to this: every word of "Carthage
conquered Rome" is in "Rome conquered Carthage". A verb is a word after an
auxiliary ("was taught", "did disclose"), an -ed or -s form, or a common
irregular past ("bought", "beat"; never a name such as "Harlan Foods", nor
a counted noun, "40 million euros"); its sides are content words and
personal pronouns ("There she beat the champion"), not the adverbs, words
of when ("first described") and numbers or years a passive leaves where
they are; it is left alone when a preposition
that makes it intransitive follows it ("risk increases with age" says what
"age increases risk" says) or it names a symmetric relation
(`symmetric_words`: associated, linked, interacts, ...). The same finding
when the claim is its support with two terms exchanged around a middle both
keep, whatever joins them ("The emperor lent large sums to the merchants"
over "The merchants lent large sums to the emperor"; "Kinase B phosphorylates
kinase A"; "feed on"; "inherited by X from his cousin Y"): see `_exchanged`;
not phrases moved round their clause ("Among adults, the drug cut X,
researchers found").
And when a verb of taking is its support's verb of giving with the same
sides ("Harlan bought the division from Merrow" over "Harlan sold its
division to Merrow"; buy/sell, borrow/lend, receive/give), in one voice and
when neither text also says the other's verb: see `_converse_verb`. Verbs of
one meaning (bought/purchased/acquired, beat/defeated, lent/loaned) are one
verb to the role check.

Certainty (CERTAINTY_UNSTATED). A hedge word (`hedge_words`: may, suggests,
believed, ...; also the words that report, plan or ask for something:
alleges, claims that, plans to, according to, requested, aimed) before two of
the claim's words in one clause, when the claim has none: the support only
supposes or reports what the claim states as fact ("According to X," reaches
into the clause after it). A claim that states a cause over a support that
only relates (`association_words`) is the same finding.

Comparison from the other side. A direction word of the opposite side whose
compared terms are swapped too ("A is shorter than B" over "B is longer than
A") states the same comparison: no finding, and no role swap either.

Also CERTAINTY_UNSTATED: a claim that says a thing "will" happen where its
support says it "can", "could", "may" or "might"; a report word that is also
a noun or a verb of other senses reports when "to", "that", "of", a gerund
("recommended banning") or a clause with its own verb ("claims the battery
lasts") follows it; planned, scheduled, slated and threatened only before
"to" ("threatened to strike"; not "a threatened species of frog"), and so
do estimate and fear before "that", meant before "to" and described or
branded before "as" (not "designed to", "engineered to", "able to": a
method or a feat as often as an aim); a report word or a verb of saying
that ends a short clause after what it reports (", the researchers
estimate.", ", officials said.") reports it. So is a claim that says a thing done
("has built a prototype", "has signed a deal") over a support that has it
in progress ("is currently building a prototype", "is negotiating the
purchase") and nowhere done.

Scope (SCOPE_DROPPED, see `scope`). A restriction of the support ("In mice,
...", "... only if ...") whose head or numbers the claim does not state; and
a support that puts its statement in the past ("was once the largest",
`lexicon.FORMER_WORDS`) under a claim that states it now ("is the largest"),
or in a past that has ended ("used to graze", "carried the road until the
bypass opened", "During the 1890s, the economy depended on wool") under a
claim with no past form ("graze", "carries", "depends"); and a claim that
says a thing has held since a year ("has served since 2004") over a support
that ends it after that year ("from 2004 to 2012", "between 2004 and 2012",
"2004-2012") and never says "since" it; a claim that says a thing goes on
("still supports") over a verb of ending whose subject is the claim's
("Support for ... ended"), no other clause of the support restating it; a
claim about the plural with no count ("Schools ... have") over a support
about one ("One school ... has").

Also ROLES_SWAPPED: a verb with a name on each side whose support, at every
use of the verb, has each name on the other side (names read across their
clause and past a comma around a name or its short description, not after
a preposition of place or time, nor across a conjunct); "A defeated B" over
"A lost to B". Also CERTAINTY_UNSTATED: "should"/"ought" as the verb of a
clause (not "Should X fail, ...", "It should be noted that", "should have
been"), and a cause over a support that compares a group chosen by what it
did ("people who drank coffee had a lower rate"). Also UNIT_MISMATCH: a
rate counted per another amount ("per kilogram" over "per 500 grams").

Read as their meaning: "B by the time A" and "in the run-up to" are
"before" (not "By the time A, B"); "has to" is "must";
"in favour (of)" is support, not a favourable outcome; "has yet to" and
"no longer" deny; "over"/"above" before a
number is "more than", "under"/"below" "less than"; a negator reads past an
adjective of degree to its noun ("no significant difference" denies the
difference, as "not a measurable effect" denies the effect; "was not
significant" still denies "significant"); "as well as" is "and"; "not
enough X" denies X; a closing "are not" denies its clause's subject ("...,
although living costs are not"), "but not X Y" the phrase X Y; "at no
point" is "never"; "fell below 10 percent" falls (a bound on a figure is
no part of the event before it).

Every finding names the words involved, so a report can show them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from arborist.text import stem_all
from arborist.verify import scope
from arborist.verify.lexicon import (
    FORMER_WORDS,
    IRREGULAR_VERBS,
    NEVER_NOUNS,
    PRESENT_WORDS,
    QUALIFIER_GROUPS,
)
from arborist.verify.normalize import (
    CLAUSE_MARKS,
    CURRENCY_SIGNS,
    HYPHENS,
    SCALE_LETTERS,
    Token,
    is_ordinal,
    is_stopword,
    letter_name,
    sentence_initials,
    token_stems,
    tokenise,
)
from arborist.verify.reasons import Reason

MAX_TOKENS = 1000  # only so many tokens of a claim or support are compared: bounds the work on hostile input
WINDOW = 5  # content stems on each side
STATED = 0.5  # least neighbourhood score at which a support's direction word speaks of the claim's
COMPARED_TERMS = 2  # content stems that name each compared term: before the comparative, after "than"
MIN_BASE = 5
# Words between a negator and its head that do not take the negation themselves.
_SKIP = frozenset(
    "significantly statistically necessarily directly always fully completely entirely consistently substantially "
    "markedly appreciably detectably clearly measurably any only yet also further be been being have has had "
    "a an the of to in on at for by with from its their this that these those there it is are was were do does did "
    "seem seems seemed appear appears appeared".split()
)
_QUANTIFIER_NEGATORS = frozenset("none nobody nothing neither".split())  # deny their clause wherever they stand
# Verbs of ceasing, which negate a gerund after them (only in this check: word overlap reads them as words).
_BEFORE, _AFTER, _SUPPORT, _MUST, _INCREASE, _DECREASE = stem_all(
    ["before", "after", "support", "must", "increase", "decrease"])
# Verbs of motion whose "up" or "down" is a rise or a fall ("traffic went up by 18 percent").
_GOES = frozenset("go goes went gone going".split())
# What a lead or a deficit is counted in ("up 5 points in the poll", "down 2 goals"): no rise or fall.
_MARGINS = frozenset("points point goals goal runs wickets strokes shots seats votes places".split())
_SPEEDS = frozenset("speed speeds speeded speeding sped".split())
# Comparatives that bound a figure with "than" ("less than 10", "more than a third").
_COMPARED_BOUNDS = frozenset("more less fewer greater lower higher".split())
_BOUNDS = dict(zip(("over", "above", "exceeding", "exceeded", "exceeds", "exceed", "surpassed", "under", "below"),
                   stem_all(["more"] * 7 + ["less"] * 2), strict=True))
# Adjectives of degree a negator reads past to the noun they qualify ("no significant difference", "no
# measurable effect"); before no noun ("was not significant") they are the head themselves.
_DEGREE_ADJECTIVES = frozenset("significant meaningful notable noticeable appreciable measurable substantial marked "
                               "detectable discernible clear obvious apparent".split())
# Words of degree after which a negator denies the noun that follows ("not enough evidence", "insufficient" aside).
_SUFFICIENCY = frozenset("enough sufficient adequate".split())
# Auxiliaries that stand for their verb phrase before a closing "not" ("living costs are not").
_ELLIPTIC = frozenset("is are was were do does did has have had can could will would should".split())
# Verbs of classing, whose "as" names what a negator denies ("not considered as safe").
_AS_VERBS = frozenset("classed classified considered regarded deemed listed seen treated".split())
# Personal pronouns, as the side of a verb they name (subject and object forms alike).
_PERSONS = {"he": "he", "him": "he", "she": "she", "they": "they", "them": "they", "we": "we", "us": "we"}
# Words that say when or how often a verb happened; a role check reads past them ("first described").
_VERB_MODIFIERS = frozenset("first last then later again already once soon still ever".split())
_CESSATION = frozenset("stops stopped ceases ceased avoids avoided".split())
# Words of a level, not verbs, after "declined to" ("declined to less than 5%", "to its lowest level").
_LEVEL_WORDS = frozenset("less more fewer record lowest highest below above under over pre post nearly almost about "
                         "around roughly zero".split())
# Verbs that deny the verb after their "to" ("declined to rule", "neglected to file"); not "prices declined".
_REFUSALS = frozenset("declines declined declining neglects neglected omits omitted yet".split())  # "has yet to"
_CLAUSE_WORDS = frozenset("but whereas while although though however yet unlike".split())
_COMPARE_WORDS = frozenset({"than", "versus", "vs", "compared", "relative", "over"})
# Words that end the term after "than" ("than brown rice per serving", "than women in equivalent roles").
_TERM_ENDS = frozenset("in on at per for during among across within by from with after before".split())
# Words no compared term runs past: "than 3.8 are not supported", "than those who did not".
_TERM_STOPS = frozenset("is are was were be been has have had do does did will would can could may might must should "
                        "who which that whose".split())
_PAIRED = _TERM_ENDS | {"to", "of"}  # prepositions that open both compared terms: "more to A than to B"
_RELATIVES = frozenset("who which that whose".split())
_EQUATIVE_NEGATORS = frozenset("not nearly".split())  # "not as durable as", "nearly as ... as" order their terms
_POSSIBLE = frozenset("can could may might".split())  # "can produce" is not "will produce"
_FUTURE = frozenset("will would shall going plans planned scheduled expected due".split())  # "will be removed"
_FORMER = frozenset(FORMER_WORDS)
# Words by which a claim says a thing goes on, and verbs by which a support says it has stopped.
_STILL = frozenset("still remains remain continues continue currently".split())
_ENDINGS = frozenset("ended ceased stopped discontinued abolished scrapped withdrawn halted terminated expired lapsed "
                     "retired".split())
_PRESENT = frozenset(PRESENT_WORDS)
_PER_WORDS = frozenset("per a an each every".split())  # "100 requests per hour", "twice a day"
_COPULAS = frozenset("is are was were be been being".split())
_POSSESSIVE = frozenset("have has had having".split())
_DETERMINERS = frozenset("the a an this that these those its their his her our your my".split())
ROLE_TERMS = 3  # content stems on each side of a verb that name its roles
_AUXILIARIES = frozenset("is are was were be been being has have had do does did will would can could may might must "
                         "should to".split())
# After one of these a verb takes no object: "cancer risk increases with smoking" = "smoking increases cancer risk".
_INTRANSITIVE = frozenset("with in among after following during upon across over under at for when as "
                          "within".split())
_IRREGULAR_PAST = frozenset("beat won lost bought sold taught led made took gave wrote built caught fought held left "
                            "paid ran saw sent told became began brought chose drove fell found got grew hit kept knew "
                            "put rose said shot sought spent stole struck thought threw wore overtook overthrew "
                            "ate drew flew forgave forgot froze hid hung lent rang rode sang sank slew spoke stood "
                            "swore swept swung tore undertook upheld withdrew".split())
# Words ending in -ed that are no past forms.
_NOT_PAST = frozenset("need exceed proceed succeed feed seed speed breed bleed heed weed reed deed indeed embed "
                      "shed shred bred sled hundred kindred sacred naked wicked".split())


def _past_form(norm: str) -> bool:
    """An irregular past or a word in -ed that is a past form ("freed", "agreed"; not "red", "need", "exceed")."""
    return norm in _IRREGULAR_PAST or (norm.endswith("ed") and len(norm) > 3 and norm not in _NOT_PAST)


# Endings of nouns, which the base-form-after-a-plural rule does not read as verbs ("species diversity").
_NOUN_ENDINGS = ("ity", "ion", "ness", "ment", "ance", "ence", "ism", "ist", "ure", "age", "ing", "ly")


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
    qualifiers: frozenset[str] = frozenset()  # token norms of the words a claim may state only when its quote does
    anaphors: frozenset[str] = frozenset()  # token norms of the words by which a quote refers to what its title names
    symmetric: frozenset[str] = frozenset()  # stems of relations whose sides may swap (the role check skips them)
    hedges: frozenset[str] = frozenset()  # token norms of the words by which a support only supposes
    associations: frozenset[str] = frozenset()  # stems of the words by which a support only relates two things
    causal: frozenset[str] = frozenset()  # stems of the verbs by which a claim says one thing causes another
    units: dict[str, int] = field(default_factory=dict)  # a unit's name (folded) -> its group


@lru_cache(maxsize=8)
def build_lexicon(
    negators: tuple[str, ...],
    prefixes: tuple[str, ...],
    pairs: tuple[tuple[str, tuple[str, ...], tuple[str, ...], bool, bool], ...],
    qualifiers: tuple[str, ...] = (),
    anaphors: tuple[str, ...] = (),
    symmetric: tuple[str, ...] = (),
    hedges: tuple[str, ...] = (),
    associations: tuple[str, ...] = (),
    causal: tuple[str, ...] = (),
    units: tuple[str, ...] = (),
) -> Lexicon:
    """Stem the policy's word lists once (cached per list)."""
    built = []
    for name, up, down, complementary, required in pairs:
        built.append(Pair(name, frozenset(stem_all([w.casefold() for w in up])),
                          frozenset(stem_all([w.casefold() for w in down])), complementary, required))
    return Lexicon(frozenset(w.casefold() for w in negators), tuple(p.casefold() for p in prefixes), tuple(built),
                   frozenset(w.casefold() for w in qualifiers), frozenset(w.casefold() for w in anaphors),
                   frozenset(stem_all([w.casefold() for w in symmetric])), frozenset(w.casefold() for w in hedges),
                   frozenset(stem_all([w.casefold() for w in associations])),
                   frozenset(stem_all([w.casefold() for w in causal])),
                   {name.casefold(): g for g, group in enumerate(units) for name in group.split()})


@dataclass
class Text:
    """A claim or its support, tokenised with everything the comparison needs."""

    raw: str
    tokens: list[Token]
    stems: list[str | None]  # content stems (None for stopwords)
    all_stems: list[str]  # a stem for every token, stopwords included
    breaks: list[bool]  # breaks[i]: a clause break (or a sentence start) between token i-1 and token i
    negated_heads: dict[int, int] = field(default_factory=dict)  # head index -> negator index
    spread: set[int] = field(default_factory=set)  # heads negated by a negator that denies its whole clause
    positions: dict[str, list[int]] = field(default_factory=dict)  # stem -> token indexes
    prefixed: dict[str, list[int]] = field(default_factory=dict)  # base stem -> indexes of its prefixed forms
    event_stems: list[str] = field(default_factory=list)  # all_stems, with a number word's own stem ("doubl")
    unlisted: set[int] = field(default_factory=set)  # comparatives no pair lists, read as "more" ("denser than")
    _contexts: dict[int, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)
    _roles: dict[int, tuple[frozenset[str], frozenset[str], str | None, str | None]] = field(default_factory=dict)

    @cached_property
    def content(self) -> frozenset[str]:
        """The distinct content stems."""
        return frozenset(s for s in self.stems if s)

    @cached_property
    def initial(self) -> list[bool]:
        """Whether each token starts a sentence (`normalize.sentence_initials`)."""
        return sentence_initials(self.raw, self.tokens)

    @classmethod
    def of(cls, raw: str, lex: Lexicon) -> Text:
        tokens = tokenise(raw)[:MAX_TOKENS]
        stems = token_stems(tokens)
        all_stems = stem_all([t.norm for t in tokens]) if tokens else []
        breaks = [True] + [
            any(ch in CLAUSE_MARKS for ch in raw[tokens[i - 1].end : tokens[i].start]) or (
                tokens[i].norm in _CLAUSE_WORDS  # not the adverb: "not yet", "has yet to", "as yet"
                and not (tokens[i].norm == "yet" and tokens[i - 1].norm in ("not", "has", "have", "had", "as")))
            for i in range(1, len(tokens))
        ]
        text = cls(raw, tokens, stems, all_stems, breaks)
        for k, start in enumerate(text.initial):
            breaks[k] = breaks[k] or start  # a sentence's start ends a clause
        # a multiple written as a word is a number ("doubled" -> 2) and still a direction word
        spelled = [k for k, t in enumerate(tokens) if t.spelled]
        text.event_stems = list(all_stems)
        for k, stem in zip(spelled, stem_all([tokens[k].surface.casefold() for k in spelled]), strict=True):
            text.event_stems[k] = stem
        # a comparative no direction pair lists is "more" ("denser than" over "less dense than"; "heavier in
        # August than in March")
        for k in range(len(tokens) - 1):
            norm = tokens[k].norm
            if (norm.endswith("er") and len(norm) > 4 and stems[k] and text._before_than(k)
                    and not any(_event_side(p, all_stems[k]) for p in lex.pairs)):
                text.event_stems[k] = "more"
                text.unlisted.add(k)
        # "over 3,000" is "more than 3,000", "under 50" is "less than 50"
        for k in range(len(tokens) - 1):
            if tokens[k + 1].number and tokens[k].norm in _BOUNDS:
                text.event_stems[k] = _BOUNDS[tokens[k].norm]
        # "has to" is "must" ("has to be kept cold")
        for k in range(len(tokens) - 1):
            if tokens[k].norm in ("has", "have", "had") and tokens[k + 1].norm == "to":
                text.event_stems[k] = _MUST
        # "went up" is "rose", "went down" "fell"
        for k in range(1, len(tokens)):
            if tokens[k].norm in ("up", "down") and tokens[k - 1].norm in _GOES:
                text.event_stems[k] = _INCREASE if tokens[k].norm == "up" else _DECREASE
            elif tokens[k].norm == "up" and tokens[k - 1].norm in _SPEEDS:
                text.event_stems[k] = _INCREASE  # "speeding up" quickens
        for k in range(len(tokens) - 1):
            figure = k + 1 if tokens[k + 1].number else k + 2 if (
                tokens[k + 1].norm in ("from", "by") and k + 2 < len(tokens) and tokens[k + 2].number) else None
            if tokens[k].norm in ("up", "down") and figure is not None and not breaks[k + 1] and not _a_score(text, figure):
                # "was up 12 percent", "down 3 percent", ", up from 1.6 million": a figure's rise or fall
                text.event_stems[k] = _INCREASE if tokens[k].norm == "up" else _DECREASE
        # "recovered once the ban was lifted": after it (not "was once the largest")
        for k in range(len(tokens) - 1):
            if tokens[k].norm != "once" or (k and tokens[k - 1].norm in _AUXILIARIES) or not (
                    tokens[k + 1].norm in _DETERMINERS or tokens[k + 1].norm in _SUBJECT_PRONOUNS):
                continue
            end = next((m for m in range(k + 1, len(tokens)) if breaks[m]), len(tokens))
            if any(t.norm in _AUXILIARIES or t.norm.endswith("ed") for t in tokens[k + 2 : min(end, k + 7)]):
                text.event_stems[k] = _AFTER  # a clause follows: not "the factory, once the town's largest employer,"
        # "had already reached capacity when the storm arrived": before it
        for k in range(1, len(tokens)):
            if tokens[k].norm == "when" and any(
                    tokens[m].norm == "already" and not any(breaks[m + 1 : k]) for m in range(max(0, k - 6), k)):
                text.event_stems[k] = _BEFORE
        # "as well as" is "and", not a quality
        for k in range(1, len(tokens) - 1):
            if tokens[k].norm == "well" and tokens[k - 1].norm == "as" and tokens[k + 1].norm == "as":
                text.event_stems[k] = "as"
        # "in favour (of)" is support, not a favourable outcome ("voted in favour of banning cars")
        for k in range(1, len(tokens)):
            if tokens[k].norm in ("favour", "favor") and tokens[k - 1].norm == "in":
                text.event_stems[k] = _SUPPORT
        # "by the time" and "in the run-up to" are "before" ("had retired by the time the album was released")
        for k in range(2, len(tokens)):
            if [t.norm for t in tokens[k - 2 : k + 1]] == ["by", "the", "time"] and not breaks[k - 2]:
                text.event_stems[k] = _BEFORE  # "B by the time A"; "By the time A, B" puts B first the other way
        for k in range(len(tokens) - 2):
            if (tokens[k].norm in ("run", "lead", "build") and tokens[k + 1].norm == "up" and tokens[k + 2].norm == "to"
                    and raw[tokens[k].end : tokens[k + 1].start] in HYPHENS):
                text.event_stems[k] = text.event_stems[k + 1] = _BEFORE
        text.negated_heads = text._heads(lex)
        for j, s in enumerate(all_stems):
            text.positions.setdefault(s, []).append(j)
            base = _prefix_base(s, lex.prefixes)
            if base is not None:
                text.prefixed.setdefault(base, []).append(j)
        return text

    def _before_than(self, k: int) -> bool:
        """Token k stands right before "than", or before a phrase that opens with a preposition and runs to
        "than" ("heavier in August than in March")."""
        n = len(self.tokens)
        if k + 1 < n and self.tokens[k + 1].norm == "than":
            return True
        if k + 1 >= n or self.tokens[k + 1].norm not in _TERM_ENDS:
            return False
        for m in range(k + 2, min(n, k + 7)):
            if self.breaks[m]:
                return False
            if self.tokens[m].norm == "than":
                return True
        return False

    def _refuses(self, i: int) -> bool:
        """Token i declines the verb after its "to" ("declined to rule", "has yet to turn"): not a fall to a level
        ("declined to a record low", "declined to less than 5%", "to pre-war levels") nor a passive's purpose
        ("The chapter was omitted to save space")."""
        n = len(self.tokens)
        if self.tokens[i].norm not in _REFUSALS or i + 2 >= n or self.tokens[i + 1].norm != "to":
            return False
        k = i + 3 if self.tokens[i + 2].norm == "be" and i + 3 < n else i + 2  # "has yet to be approved"
        verb = self.tokens[k]
        if (verb.number or verb.norm in _DETERMINERS or verb.norm in _LEVEL_WORDS or not self.stems[k]
                or (k + 1 < n and self.raw[verb.end : self.tokens[k + 1].start] in HYPHENS)):
            return False
        return self.tokens[i].norm == "yet" or not (i > 0 and self.tokens[i - 1].norm in _COPULAS)  # "is yet to"

    def _heads(self, lex: Lexicon) -> dict[int, int]:
        heads: dict[int, int] = {}
        n = len(self.tokens)
        for i, tok in enumerate(self.tokens):
            # "stopped producing" denies the producing; "stopped two penalties" denies nothing
            ceases = i + 1 < n and ((tok.norm in _CESSATION and self.tokens[i + 1].norm.endswith("ing"))
                                    or self._refuses(i))
            if tok.norm not in lex.negators and not ceases:
                continue
            if tok.norm == "not" and i + 1 < n and self.tokens[i + 1].norm == "only":
                continue
            for j in range(i + 1, min(n, i + 6)):
                if self.breaks[j]:
                    if j == i + 1:
                        self._elliptic(i, heads)
                    break
                if (self.tokens[j].norm in _SKIP or self.tokens[j].norm in lex.negators
                        or (self.tokens[j].norm == "longer" and j == i + 1 and tok.norm == "no")):
                    continue  # "no longer sold" denies the selling
                if (self.tokens[j].norm in _DEGREE_ADJECTIVES and j + 1 < n and not self.breaks[j + 1]
                        and self.stems[j + 1] and (tok.norm in ("no", "without")
                                                   or self.tokens[j - 1].norm in ("a", "an", "any"))):
                    heads.setdefault(j, i)
                    continue  # "no significant difference", "not have a measurable effect": the noun is denied too
                if (self.tokens[j].norm in _SUFFICIENCY and j + 1 < n and not self.breaks[j + 1]
                        and self.stems[j + 1]):
                    continue  # "not enough evidence" denies the evidence, as "lack of evidence" does
                if self.stems[j] or self.tokens[j].number:
                    # "at no point" is "never": the point itself is denied nowhere
                    never = (tok.norm == "no" and i > 0 and self.tokens[i - 1].norm in ("at", "in")
                             and self.tokens[j].norm in NEVER_NOUNS)
                    if not never:
                        heads.setdefault(j, i)
                    if tok.norm == "not" and i > 0 and self.tokens[i - 1].norm in ("but", "and", "or"):
                        # "covers fees but not living costs": the noun phrase to the clause's end is denied
                        _, end = _clause_of(self, j)
                        for k in range(j + 1, end):
                            if self.tokens[k].norm in _TERM_ENDS or self.tokens[k].number:
                                break  # "but not destroyed in the 1906 earthquake": the phrase after is no part
                            if self.stems[k]:
                                heads.setdefault(k, i)
                    if self.tokens[j].norm in _AS_VERBS and j + 2 < n and self.tokens[j + 1].norm == "as":
                        heads.setdefault(j + 2, i)  # "no longer classed as endangered" denies "endangered"
                    # "received no compensation" denies the receiving as "did not receive any compensation" does
                    # the compensation: the verb before an object's "no" and the object after "not V any"
                    if tok.norm in _OBJECT_NEGATORS and i > 0 and self.stems[i - 1] and not self.breaks[i]:
                        heads.setdefault(i - 1, i)
                    if (j + 2 < n and self.tokens[j + 1].norm == "any" and not self.breaks[j + 1]
                            and not self.breaks[j + 2] and self.stems[j + 2]):
                        heads.setdefault(j + 2, i)
                    if self._quantified(i, j):  # "none of the 40 participants developed ...": the whole clause
                        self.spread.add(j)
                        first, end = _clause_of(self, i)
                        for k in range(first, end):
                            if (self.stems[k] and k not in heads and self.tokens[k].norm not in lex.negators
                                    and not (never and k == j)):
                                heads[k] = i
                                self.spread.add(k)
                        if never:
                            self.spread.discard(j)
                break
            else:
                self._elliptic(i, heads)
        return heads

    def _elliptic(self, i: int, heads: dict[int, int]) -> None:
        """A "not" that ends its clause after an auxiliary denies its clause's subject ("..., although living
        costs are not" says what "but not living costs" says)."""
        n = len(self.tokens)
        if (self.tokens[i].norm != "not" or i == 0 or self.tokens[i - 1].norm not in _ELLIPTIC
                or not (i + 1 == n or self.breaks[i + 1])):
            return
        first, _ = _clause_of(self, i)
        for k in range(first, i - 1):
            if self.stems[k] and self.tokens[k].norm not in _CLAUSE_WORDS:
                heads.setdefault(k, i)

    def clause_negated(self, i: int, other: Text) -> bool:
        """Whether token i's clause negates a word that `other` denies with its whole clause: a clause denied
        as a whole ("No survivors were found") agrees with one that denies the same thing another way ("There
        were no survivors found"), not with one that negates something else ("... who did not receive ...")."""
        first, end = _clause_of(self, i)
        return any(first <= h < end and self.all_stems[h] in other.denied for h in self.negated_heads)

    @cached_property
    def denied(self) -> frozenset[str]:
        """The stems of the words a whole-clause negator denies (read once, after the heads are found)."""
        return frozenset(self.all_stems[k] for k in self.spread)

    def _quantified(self, i: int, j: int) -> bool:
        """Negator i denies its whole clause rather than one word: "none of the 40 ...", "neither A nor B
        approved ...", "approved by nobody", and at the clause's start "no evidence ...", "not a single
        patient ...", "at no point ...". Its head j is then seldom a word the claim repeats."""
        neg = self.tokens[i].norm
        starts = i == 0 or self.breaks[i]
        if neg == "not":
            return starts and j > i + 1 and self.tokens[i + 1].norm in ("a", "an", "one", "single")
        if neg == "no":
            return starts or self.tokens[i - 1].norm in ("at", "in")
        return neg in _QUANTIFIER_NEGATORS

    def passive(self, i: int) -> bool:
        """'reduced by', 'is induced in response to ... by': the word's agent follows it (not "by the time")."""
        return any(t.norm == "by" and self.event_stems[k] != _BEFORE and not (
            k + 2 < len(self.tokens) and self.event_stems[k + 2] == _BEFORE)
            for k, t in enumerate(self.tokens[i + 1 : i + 3], i + 1))

    def verb(self, i: int) -> bool:
        """Token i reads as a verb: after an auxiliary ("was taught"), an -ed or -s form, an irregular past, or a
        base form after a plural noun."""
        norm = self.tokens[i].norm
        if i > 0 and (self.tokens[i - 1].number or self.tokens[i - 1].norm in _SCALE_WORDS):
            return False  # "40 million euros", "12 sailors": a counted noun
        if self.tokens[i].capitalised and not self.initial[i]:
            return False  # "Harlan Foods", "Morgan Stanley": a name
        if norm in _VERB_MODIFIERS or norm in ("yet", "also", "just", "even", "only"):
            return False  # "has yet to", "has also": an adverb after the auxiliary
        if (i > 0 and self.tokens[i - 1].norm in _AUXILIARIES) or _past_form(norm):
            return True
        if norm.endswith("s") and not norm.endswith(("ss", "us", "is")):
            return True
        # a base form after a plural subject ("low levels cause depression", "wolves prey on elk")
        nxt = self.tokens[i + 1].norm if i + 1 < len(self.tokens) else ""
        return (i > 0 and _plural(self.tokens[i - 1]) and not self.tokens[i].capitalised
                and not norm.endswith(_NOUN_ENDINGS) and not (nxt.endswith("s") and self.stems[i + 1] is not None))

    def passive_voice(self, i: int) -> bool:
        """'reduced by', or a participle after a copula with a 'by' later in its clause ("is converted into
        chemical energy by photosynthesis")."""
        if self.passive(i):
            return True
        k = i - 1
        while k > 0 and (self.tokens[k].norm in ("not", "never") or (
                self.tokens[k].norm.endswith("ly") and len(self.tokens[k].norm) > 4)):
            k -= 1  # "was not reported ... by", "was quickly approved by"
        if k < 0 or k == i or self.tokens[k].norm not in _COPULAS:
            return False
        _, end = _clause_of(self, i)
        return any(t.norm == "by" for t in self.tokens[i + 1 : end])

    def intransitive(self, i: int) -> bool:
        return i + 1 < len(self.tokens) and self.tokens[i + 1].norm in _INTRANSITIVE

    def roles(self, i: int) -> tuple[frozenset[str], frozenset[str], str | None, str | None]:
        """The ROLE_TERMS nearest content stems on each side of token i in its clause (a stem on both sides
        names neither role), and the nearest of each side (cached)."""
        if i not in self._roles:
            left, right = self.neighbours(i, ROLE_TERMS, self._role_term)
            own = self.stems[i]
            a = frozenset(x for x in left if x not in right and x != own)
            b = frozenset(x for x in right if x not in left and x != own)
            self._roles[i] = (a, b, next((x for x in left if x in a), None), next((x for x in right if x in b), None))
        return self._roles[i]

    def compound(self, i: int) -> bool:
        """A word hyphenated to the one before it ("diet-induced", "UCP1-dependent") modifies a noun."""
        return i > 0 and self.raw[self.tokens[i - 1].end : self.tokens[i].start] in HYPHENS

    def context(self, i: int) -> tuple[frozenset[str], frozenset[str]]:
        """The nearest WINDOW content stems on each side of token i, within its clause (cached)."""
        if i not in self._contexts:
            left, right = self.neighbours(i, WINDOW)
            self._contexts[i] = (frozenset(left), frozenset(right))
        return self._contexts[i]

    def _role_term(self, k: int) -> str | None:
        """Token k as a side of a verb: its content stem, or a personal pronoun ("There she beat the champion");
        not an adverb in -ly, a word of when ("first described") or a number or year ("in 1843"), which stay
        where they are when a sentence turns passive."""
        tok = self.tokens[k]
        if tok.number or tok.norm in _VERB_MODIFIERS or (tok.norm.endswith("ly") and len(tok.norm) > 4):
            return None
        return self.stems[k] or _PERSONS.get(tok.norm)

    def neighbours(self, i: int, limit: int, term: Callable[[int], str | None] | None = None
                   ) -> tuple[list[str], list[str]]:
        """Up to `limit` content stems (or what `term` reads a token as) on each side of token i within its
        clause, nearest first."""
        read = term or self.stems.__getitem__
        left: list[str] = []
        k = i
        while k > 0 and not self.breaks[k] and len(left) < limit:
            k -= 1
            if (found := read(k)) is not None:
                left.append(found)
        right: list[str] = []
        k = i + 1
        while k < len(self.tokens) and not self.breaks[k] and len(right) < limit:
            if (found := read(k)) is not None:
                right.append(found)
            k += 1
        return left, right


def _score(a: tuple[frozenset[str], frozenset[str]], b: tuple[frozenset[str], frozenset[str]], cross: float) -> float:
    return len(a[0] & b[0]) + len(a[1] & b[1]) + cross * (len(a[0] & b[1]) + len(a[1] & b[0]))


def _prefix_base(stem: str, prefixes: tuple[str, ...]) -> str | None:
    for p in prefixes:
        if stem.startswith(p) and len(stem) - len(p) >= MIN_BASE:
            return stem[len(p) :]
    return None


def _occurrences(stem: str, support: Text, lex: Lexicon) -> list[tuple[int, bool]]:
    """(index, flipped) of support tokens that are `stem`, or its negative-prefixed form, or its base."""
    base = _prefix_base(stem, lex.prefixes)
    same = [(j, False) for j in support.positions.get(stem, [])]
    flipped = [(j, True) for j in support.positions.get(base, [])] if base is not None else []
    flipped += [(j, True) for j in support.prefixed.get(stem, [])]
    return sorted(same + flipped)


def _align(
    claim: Text, i: int, candidates: list[tuple[int, bool]], support: Text, same_word_bonus: bool = False
) -> tuple[int, bool, float] | None:
    """The candidate whose neighbourhood best matches claim token i's, with its score. Left and right
    sides are swapped at full weight only when one side is passive ("reduced by"), else at a quarter.
    With `same_word_bonus`, a candidate event that uses the claim's very word (within its next three
    words: "promotes degradation" for "degrading") scores one more."""
    if not candidates:
        return None
    ctx = claim.context(i)
    own = claim.all_stems[i]

    def score(j: int) -> float:
        base = _score(ctx, support.context(j), 0.5 if claim.passive(i) != support.passive(j) else 0.25)
        return base + (1.0 if same_word_bonus and own in support.all_stems[j : j + 4] else 0.0)

    # ties go to the candidate at the most similar relative position (claims and quotes run parallel)
    where = i / max(1, len(claim.tokens))
    best = max(candidates, key=lambda c: (score(c[0]), -abs(c[0] / max(1, len(support.tokens)) - where), -c[0]))
    return best[0], best[1], score(best[0])


@dataclass(frozen=True)
class Finding:
    reason: Reason
    note: str


# Pairs of opposite things or qualities, not events: two of their words close together name two things ("rich
# and poor", "the survivors buried the dead"), and a claim word its support also says is stated, wherever the
# opposite stands ("Private donors funded public schools"). The other pairs' words close together make one event
# ("decreased weight gain") and line up by their neighbours ("hired before 2018 ... than hired after 2018").
_THING_PAIRS = frozenset("""stance life ease strength wealth sector setting course origin sex membership employment
    memory agreement reward quality alliance daytime inclusion approval taste toughness""".split())


def _event_side(pair: Pair, stem: str) -> int:
    return 1 if stem in pair.up else -1 if stem in pair.down else 0


def _side(pair: Pair, text: Text, i: int) -> int:
    """Token i's side of `pair` (+1, -1, or 0 for none). Words of one pair close together in one clause
    are one event whose side is the product ("decreased weight gain" is down, as is "reduces ... gain"):
    the first word carries it, the later ones none."""
    side = _event_side(pair, text.event_stems[i])
    if side and text.tokens[i].capitalised and not text.initial[i]:
        return 0  # a name: "Long Island", "the Rising Sun inn"
    if not side or pair.name in _THING_PAIRS:
        return side  # "rich and poor", "the survivors buried the dead": two words, two things
    for k in range(i - 1, max(-1, i - 4), -1):
        if text.breaks[k + 1]:
            break
        if _event_side(pair, text.event_stems[k]):
            return 0  # part of an event that starts earlier
    for k in range(i + 1, min(len(text.tokens), i + 4)):
        if text.breaks[k] or _bound(text, k):
            break  # "fell below 10 percent" falls: a bound on a figure after the word is no part of its event
        other = _event_side(pair, text.event_stems[k])
        if other:
            side *= other
            break
    return side


# Pairs whose two sides say one event from its two ends: "Ashgate beat Riverton" is "Riverton lost to Ashgate".
_CONVERSE_PAIRS = frozenset({"contest"})


def _crossed(a: frozenset[str], b: frozenset[str], sa: frozenset[str], sb: frozenset[str]) -> bool:
    """Each of one text's two sides (`a`, `b`) meets the other text's opposite side, and neither its own."""
    return bool(a & sb and b & sa and not (a & sa or b & sb))


def _sides_crossed(claim: Text, i: int, support: Text, j: int) -> bool:
    """The words (or names) on each side of claim token i stand on the other side of support token j."""
    flip = claim.passive_voice(i) != support.passive_voice(j)  # "was won by Leclerc" is "Leclerc won"
    a, b, _, _ = claim.roles(i)
    sa, sb, _, _ = support.roles(j)
    if flip:
        sa, sb = sb, sa
    if _crossed(a, b, sa, sb):
        return True
    ca, cb = _named_sides(claim, i, _names(claim, support))
    na, nb = _named_sides(support, j, _names(support, claim))
    if flip:
        na, nb = nb, na
    return _crossed(ca, cb, na, nb)


def _bound(text: Text, k: int) -> bool:
    """Token k bounds a figure: "below 10", "under 5", "less than 10", "more than a third"."""
    n, norm = len(text.tokens), text.tokens[k].norm
    if norm in _BOUNDS and k + 1 < n and text.tokens[k + 1].number:
        return True
    return (norm in _COMPARED_BOUNDS and k + 2 < n and text.tokens[k + 1].norm == "than"
            and (text.tokens[k + 2].number or text.tokens[k + 2].norm in ("a", "an", "half")))


def compare(claim_text: str, support_text: str, lex: Lexicon, scoped: bool = True) -> list[Finding]:
    """Negation, direction, comparison, role, certainty, unit and (when `scoped`) scope findings of `claim_text`
    against `support_text` (empty: they agree)."""
    claim = Text.of(claim_text, lex)
    support = Text.of(support_text, lex)
    findings: list[Finding] = []
    seen: set[Reason] = set()

    def add(reason: Reason, note: str) -> None:
        if reason not in seen:
            seen.add(reason)
            findings.append(Finding(reason, note))

    # negation, word by word; a claim that uses a word and its negative-prefixed form both ("nonhypertensive
    # people ... developing hypertension") is not lined up across the prefix
    claim_stems = set(claim.all_stems)
    for i, stem in enumerate(claim.stems):
        if not stem:
            continue
        both = _prefix_base(stem, lex.prefixes) in claim_stems or any(
            _prefix_base(s, lex.prefixes) == stem for s in claim_stems)
        found = [o for o in _occurrences(stem, support, lex) if not (both and o[1])]
        hit = _align(claim, i, found, support)
        if hit is None:
            if i in claim.negated_heads and not any(_event_side(p, claim.all_stems[i]) for p in lex.pairs):
                add(Reason.NEGATION_UNSTATED,
                    f"negation: the claim's '{_phrase(claim, claim.negated_heads.get(i), i)}' is stated nowhere "
                    "in its support, neither way round")
            continue
        j, flipped, _ = hit
        neg_c = i in claim.negated_heads or (j in support.spread and claim.clause_negated(i, support))
        neg_s = (j in support.negated_heads or (i in claim.spread and support.clause_negated(j, claim))) != flipped
        if _denied_alike(claim, i, support) or _denied_alike(support, j, claim):
            neg_c = neg_s  # "Flooding was avoided" is "The town avoided flooding"
        weak_c = neg_c and _weakly_negated(claim, i)
        weak_s = neg_s and _weakly_negated(support, j)
        if neg_c != neg_s or weak_c != weak_s:  # "rarely causes" is neither "causes" nor "does not cause"
            c_word = _phrase(claim, claim.negated_heads.get(i), i)
            s_word = _phrase(support, support.negated_heads.get(j), j)
            add(Reason.NEGATION_MISMATCH, f"negation: the claim's '{c_word}' is '{s_word}' in its support")

    # direction, event by event (a word in several pairs needs one of them stated)
    support_events = {
        pair.name: [(j, False) for j in range(len(support.tokens)) if _side(pair, support, j)] for pair in lex.pairs
    }
    converse: set[int] = set()  # claim tokens in the clause of a comparison restated from its other side
    crossed: list[tuple[int, str]] = []  # words whose compared terms are swapped, in agreement with their support
    opposed: list[tuple[int, str]] = []  # words of the other side from their support's
    for i in range(len(claim.tokens)):
        pairs = [(pair, side) for pair in lex.pairs if (side := _side(pair, claim, i))]
        stated = False
        word = claim.tokens[i].surface if pairs else ""
        for pair, side in pairs:
            events = support_events[pair.name]
            hit = _align(claim, i, events, support, same_word_bonus=True)
            if hit is None or hit[2] < STATED:
                continue
            stated = True
            j = hit[0]
            if i in claim.unlisted and j in support.unlisted and claim.all_stems[i] != support.all_stems[j]:
                continue  # "louder than" and "quieter than": two comparatives no pair relates, neither way
            s_side = _side(pair, support, j)
            same = [m for m, x in enumerate(support.event_stems) if x == claim.event_stems[i]]
            if pair.name in _THING_PAIRS and side != s_side and same and (i in claim.negated_heads) == any(
                    m in support.negated_heads for m in same):
                continue  # the support says the claim's own word too ("Private donors funded public schools")
            c_neg, s_neg = i in claim.negated_heads, j in support.negated_heads
            if pair.complementary:
                agree = (side if not c_neg else -side) == (s_side if not s_neg else -s_side)
            else:
                agree = side == s_side and c_neg == s_neg
            swapped = _compared_sides_swapped(claim, i, support, j) or (
                pair.name in _CONVERSE_PAIRS and _sides_crossed(claim, i, support, j))
            if not agree and swapped and not pair.complementary and c_neg == s_neg:
                first, end = _clause_of(claim, i)  # "A is shorter than B" over "B is longer than A"
                converse.update(range(first, end))
            elif not agree:
                opposed.append((i, f"direction: the claim's '{_phrase(claim, claim.negated_heads.get(i), i)}' "
                                   f"({pair.name}) is '{_phrase(support, support.negated_heads.get(j), j)}' in its "
                                   "support"))
            elif swapped:
                crossed.append((i, word))
        if pairs and not stated and not claim.compound(i) and any(pair.required for pair, _ in pairs):
            names = "/".join(pair.name for pair, _ in pairs)
            add(Reason.DIRECTION_UNSTATED,
                f"direction: the claim's '{word}' ({names}) is stated nowhere near its words in its support")
    # A comparison restated from its other side turns the words of its clause with it: "nausea was less
    # common with the lower dose than with the higher dose" over "more common with the higher dose than with
    # the lower dose"; "Rovers have won more matches than Ashford" over "Ashford have won fewer ..."
    for i, note in opposed:
        if i not in converse:
            add(Reason.DIRECTION_MISMATCH, note)
    for i, word in crossed:
        if i not in converse:
            add(Reason.COMPARISON_MISMATCH,
                f"comparison: the claim's '{word}' compares its terms the other way round from its support")
    equative = _equative_swapped(claim, support)
    if equative:
        add(Reason.COMPARISON_MISMATCH, equative)
    swap = (_roles_swapped(claim, support, lex, converse) or _exchanged(claim, support, lex, converse)
            or _names_crossed(claim, support, lex, converse) or _converse_verb(claim, support))
    if swap:
        add(Reason.ROLES_SWAPPED, swap)
    certainty = _certainty_unstated(claim, support, lex)
    if certainty:
        add(Reason.CERTAINTY_UNSTATED, certainty)
    former = _former_stated_now(claim, support, scoped) or _since_ended(claim, support) or _still_ended(claim, support)
    if former:
        add(Reason.SCOPE_DROPPED, former)
    under_way = _under_way(claim, support)
    if under_way:
        add(Reason.CERTAINTY_UNSTATED, under_way)
    unit = _unit_changed(claim, support, lex) or _rate_changed(claim, support, lex)
    if unit:
        add(Reason.UNIT_MISMATCH, unit)
    model = _model_letter_changed(claim, support)
    if model:
        add(Reason.ENTITY_MISSING, model)
    moved = _from_to_swapped(claim, support)
    if moved:
        add(Reason.ROLES_SWAPPED, moved)
    restricted = scoped and scope.dropped(claim.content, support.tokens, support.stems, support.breaks,
                                          support.initial, frozenset(t.norm for t in claim.tokens if t.number))
    if restricted:
        first, end = restricted
        add(Reason.SCOPE_DROPPED, f"scope: its support holds it only '{_span(support, first, end - 1)}'; the claim "
            "leaves that out")
    many = (_one_made_many(claim, support) or _part_made_whole(claim, support, lex.qualifiers)) if scoped else ""
    if many:
        add(Reason.SCOPE_DROPPED, many)
    return findings


_DENY_ONE = frozenset("not no never nor".split())
# Words that count or quantify a plural before it: the claim says how many itself ("two schools", "some schools").
_COUNTED_BY = frozenset("some several many few most all both various numerous certain other these those".split())


def _one_made_many(claim: Text, support: Text) -> str:
    """A note when the support says a thing of one ("One school in the district has replaced ...", "a single
    trial found ...") and the claim of the plural with no count ("Schools in the district have replaced ..."),
    else ''."""
    for k in range(len(support.tokens) - 1):
        single = support.tokens[k].norm == "one" or (
            support.tokens[k].norm == "single" and k > 0 and support.tokens[k - 1].norm in ("a", "one"))
        if single and any(t.norm in _DENY_ONE for t in support.tokens[max(0, k - 2) : k]):
            continue  # "Not a single school ...", "not one school": none
        noun = support.stems[k + 1]
        if not single or noun is None or _plural(support.tokens[k + 1]):
            continue
        said = claim.positions.get(support.all_stems[k + 1], [])
        if any(claim.tokens[m - 1].norm in ("one", "single") for m in said if m > 0):
            continue  # the claim says "one" too
        for m in said:
            if (not _plural(claim.tokens[m]) or claim.tokens[m].norm == support.tokens[k + 1].norm
                    or (claim.tokens[m].capitalised and not claim.initial[m])):
                continue  # "Wide World of Sports ... a single sport": a name
            before = claim.tokens[max(0, m - 2) : m]
            if any(t.number or t.norm in _COUNTED_BY for t in before):
                continue
            return (f"scope: its support says it of '{_span(support, k, k + 1)}'; the claim of "
                    f"'{claim.tokens[m].surface}'")
    return ""


# Words that take part of a whole before "of the ..." ("Several of the older pipes", "Part of the archive").
_PARTITIVES = frozenset("""some several many few part parts portion portions much half majority minority most
    handful fraction proportion share section sections""".split())
_OF_DETERMINERS = frozenset("the its their these those his her our this that".split())
# Partitives that also say belonging ("She is part of the team"): read only where a clause starts.
_BELONGING = frozenset("part parts".split())
# Words that rank a thing among others after "among the" / "one of the" besides the qualifiers ("the top").
_RANKS = frozenset("top main leading major principal".split())
# Words by which a claim keeps a part itself, before the thing ("some pipes", "multiple pipes", "partly").
_PART_KEPT = _COUNTED_BY | _PARTITIVES | frozenset(
    "partly partially among one multiple lot bulk percentage number fraction proportion share".split())


def _part_made_whole(claim: Text, support: Text, qualifiers: frozenset[str]) -> str:
    """A note when the support says a thing of part of a whole ("Several of the older pipes ...", "destroyed part
    of the 1923 archive") or ranks it among others ("among the largest employers", "one of the top employers")
    and the claim says it of the whole ("The older pipes ...", "the largest employer"): no word of its own for
    the part within a few words before the thing, nor an "of" before it ("A lot of the pipes"); else ''."""
    n = len(support.tokens)
    for k in range(n - 2):
        norm = support.tokens[k].norm
        if norm in _PARTITIVES and support.tokens[k + 1].norm == "of" and support.tokens[k + 2].norm in _OF_DETERMINERS:
            if norm in _BELONGING and not (support.breaks[k] or support.initial[k]):
                continue
            start = k + 3
        elif (norm == "among" or (norm == "one" and support.tokens[k + 1].norm == "of")) and \
                support.tokens[k + 1 + (norm == "one")].norm == "the":
            start = k + 2 + (norm == "one")
            rank = support.tokens[start].norm if start < n else ""
            if not (rank in qualifiers or rank in _RANKS or rank.endswith("iest")):
                continue  # "among the residents" places; "among the largest", "the busiest" rank
        elif is_ordinal(support.tokens[k]) and support.tokens[k + 1].norm in qualifiers:
            start = k + 1  # "the second biggest port" is not "the largest port"
        else:
            continue
        head = next((m for m in range(start, min(n, start + 4)) if support.stems[m] and not support.breaks[m]), None)
        if head is None:
            continue
        own = {support.tokens[m].norm for m in range(start, head + 1) if support.tokens[m].number}
        kin = next((g for g in QUALIFIER_GROUPS if support.tokens[head].norm in g), frozenset())
        said = sorted({*claim.positions.get(support.all_stems[head], []),
                       *(m for m, t in enumerate(claim.tokens) if t.norm in kin)})  # "biggest" for "largest"
        ranked = head == start and (norm in ("among", "one") or is_ordinal(support.tokens[k]))
        if not said or any(
                t.norm in _PART_KEPT or t.norm == "of" or is_ordinal(t)
                for m in said for t in claim.tokens[max(0, m - 5) : m]) or any(
                t.number and t.norm not in own for m in said for t in claim.tokens[max(0, m - 2) : m]) or (
                ranked and any(m and claim.tokens[m - 1].norm in ("a", "an") for m in said)):
            continue  # "some of the pipes", "two of the pipes", "a lot of the pipes", "a top employer"; not "The
            # 1923 archive" over "Part of the 1923 archive"
        return (f"scope: its support says it of '{_span(support, k, head)}'; the claim of "
                f"'{_span(claim, max(0, said[0] - 1), said[0])}'")
    return ""


def states(raw: str, lex: Lexicon) -> bool:
    """Whether a short text states something rather than names it: a lower-case verb between two words
    ("DUSP4 increases apoptosis", "cats eat mice"); "14 days", "Tesla coils" and "United States" only name."""
    text = Text.of(raw, lex)
    for k in range(1, len(text.tokens) - 1):
        tok, before, after = text.tokens[k], text.tokens[k - 1], text.tokens[k + 1]
        if tok.capitalised or tok.number or not text.stems[k] or before.number:
            continue
        if (text.stems[k - 1] or before.capitalised) and (text.stems[k + 1] or after.number) and text.verb(k):
            return True
    return False


SUBJECT_TOKENS = 6  # a sentence's subject is told only when its verb comes this early


def subject_end(text: Text) -> int | None:
    """The index of the token that ends a sentence's subject: its first auxiliary or past form, within the first
    SUBJECT_TOKENS tokens and before any comma ("corporal punishment | is usually performed in schools"); None
    where the subject cannot be told so simply ("In 2005, ...", "Amino acids containing sulfur include ...")."""
    for k in range(1, min(len(text.tokens), SUBJECT_TOKENS + 1)):
        if text.breaks[k]:
            return None
        norm = text.tokens[k].norm
        if (norm in _AUXILIARIES and norm != "to") or _past_form(norm):
            return k
    return None


# Words after which a word names a thing, not an action: "the liver", "than warfarin", "in spinach".
_OPENERS = (_DETERMINERS - {"that"}) | _TERM_ENDS | {"of", "into", "from", "than"}


def names_thing(text: Text, i: int) -> bool:
    """Token i (not the first) reads as a word naming a thing or a quality, not an action or a manner: after a
    determiner, a preposition or a past form ("the left engine", "contaminated lettuce", "replaced
    detentions"), or where `Text.verb` reads no verb; never after "not" ("did not rise") nor when it ends in -ly."""
    prev, norm = text.tokens[i - 1].norm, text.tokens[i].norm
    if prev in ("not", "never") or norm.endswith("ly"):
        return False
    if prev in _OPENERS or _past_form(prev):
        return True
    return not text.verb(i)


def _unit_after(text: Text, i: int, lex: Lexicon) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
    """The scale, the unit and the rate's unit groups of number token i: the words right after it ("6 hours",
    "1.2 million miles", "$2.3 billion") and the word after "per" (or a/an/each/every) within the next three
    ("100 requests per hour", "twice a day"), apart so that "5 micrograms per kilogram" and "5 milligrams per
    kilogram" differ in their unit."""
    scales: set[int] = set()
    units: set[int] = set()
    per: set[int] = set()
    n = len(text.tokens)
    k = i + 1
    if text.raw[text.tokens[i].end : text.tokens[i].end + 2].strip().startswith("%"):
        units.add(lex.units["percent"])  # "5.5%" is "5.5 percent"; "1.5 percentage points" is another unit
    if k < n and text.tokens[k].start == text.tokens[i].end and text.tokens[k].norm in SCALE_LETTERS:
        # a letter glued to a number without a currency sign is a unit or a scale ("a 100m sprint", "2.5m people"):
        # read as both, so "2.5 billion people" over "2.5m people" differs in its scale
        scales.add(lex.units[SCALE_LETTERS[text.tokens[k].norm]])
    if k + 1 < n and text.tokens[k].norm == "per" and text.tokens[k + 1].norm in ("cent", "centum"):
        units.add(lex.units["percent"])  # "5 per cent"
    while k < n and not text.breaks[k]:
        unit = lex.units.get(text.tokens[k].norm)
        scale = text.tokens[k].norm in _SCALE_WORDS
        if unit is not None:
            (scales if scale else units).add(unit)
        if not scale:
            break
        k += 1
    for m in range(k, min(n - 1, k + 3)):
        if text.breaks[m + 1] or text.tokens[m].number:
            break
        if text.tokens[m].norm in _PER_WORDS and (unit := lex.units.get(text.tokens[m + 1].norm)) is not None:
            per.add(unit)
            break
    return frozenset(scales), frozenset(units), frozenset(per)


def _unit_changed(claim: Text, support: Text, lex: Lexicon) -> str:
    """A note when a number of the claim names a scale or a unit and every time the support states that number
    it names another ("6 days" over "6 hours", "$2.3 billion" over "$2.3 million"; "60 per hour" over "60 miles
    per hour" shares its unit); else ''."""
    Units = tuple[frozenset[int], frozenset[int], frozenset[int]]

    def apart(mine: Units, theirs: Units) -> bool:
        # a rate on one side only is read against the other's units ("60 per hour" over "60 miles long")
        if bool(mine[2]) != bool(theirs[2]):
            mine, theirs = (mine[0], mine[1] | mine[2], frozenset()), (theirs[0], theirs[1] | theirs[2], frozenset())
        return any(a and b and not a & b for a, b in zip(mine, theirs, strict=True))

    for i, tok in enumerate(claim.tokens):
        if not tok.number:
            continue
        unit = _unit_after(claim, i, lex)
        if not any(unit):
            continue
        theirs = [(j, _unit_after(support, j, lex)) for j in support.positions.get(claim.all_stems[i], [])
                  if support.tokens[j].number]
        if theirs and all(apart(unit, u) for _, u in theirs):
            j = theirs[0][0]
            return f"units: the claim's '{_span(claim, i, i + 1)}' is '{_span(support, j, j + 1)}' in its support"
        counted = [j for j, u in theirs if not any(u) and j + 1 < len(support.tokens) and not support.breaks[j + 1]
                   and support.stems[j + 1] and support.tokens[j + 1].norm.isalpha()
                   and len(support.tokens[j + 1].norm) > 3 and support.tokens[j + 1].norm not in _PER_WORDS
                   and not support.raw[: support.tokens[j].start].rstrip().endswith(tuple(CURRENCY_SIGNS))]
        if unit[1] and counted and len(counted) == len(theirs) and not any(
                lex.units.get(t.norm) in unit[1] for t in support.tokens):
            # "a four-week ban" over "a four-match ban": the support counts something else, and never names the unit
            j = counted[0]
            return f"units: the claim's '{_span(claim, i, i + 1)}' is '{_span(support, j, j + 1)}' in its support"
        rate = _per(claim, i, lex)
        rates = [(j, other) for j, _ in theirs if (other := _per(support, j, lex)) is not None]
        if rate is not None and rates and all(other[:2] != rate[:2] for _, other in rates):
            j = rates[0][0]
            return (f"units: the claim's rate '{_span(claim, i, rate[2])}' is '{_span(support, j, _per_end(support, j))}'"
                    " in its support")
    return ""


# What one rate is counted per, said another way ("per head" is "per person", "per annum" "per year").
_RATE_SYNONYMS = {"head": "person", "capita": "person", "inhabitant": "person", "resident": "person",
                  "individual": "person", "people": "person", "annum": "year", "ha": "hectare", "student": "pupil",
                  "vehicle": "car", "automobile": "car", "home": "household", "family": "household",
                  "dwelling": "household"}
# Words by which a claim counts per something itself ("each dose costs", "200 cars daily", "3,000 rpm").
_RATE_WORDS = frozenset("""per each every apiece daily weekly monthly yearly annually annual hourly nightly
    rpm bpm mph kph mpg fps""".split())


def _from_to(text: Text) -> list[tuple[str, str, int, int]]:
    """The named ends of a move in `text`: "from Portsmere to Hallingford" as ("portsmer", "hallingford", index of
    "from"), each end the first capitalised word within two tokens after its preposition, in one clause."""
    out = []
    tokens = text.tokens
    def name_after(k: int) -> int | None:
        return next((m for m in range(k + 1, min(len(tokens), k + 3)) if tokens[m].capitalised and not text.breaks[m]),
                    None)
    for k, tok in enumerate(tokens):
        if tok.norm != "from" or (a := name_after(k)) is None:
            continue
        to = next((m for m in range(a + 1, min(len(tokens), a + 6)) if tokens[m].norm == "to"), None)
        if to is None or any(text.breaks[m] for m in range(a + 1, to + 1)) or (b := name_after(to)) is None:
            continue
        out.append((text.all_stems[a], text.all_stems[b], k, b))
    return out


def _from_to_swapped(claim: Text, support: Text) -> str:
    """A note when the claim moves something from A to B and its support, naming the same two, from B to A
    ("shifted its hub from Hallingford to Portsmere" over "moved its hub from Portsmere to Hallingford"), else ''."""
    theirs = _from_to(support)
    for a, b, k, end in _from_to(claim):
        if a != b and any((x, y) == (b, a) for x, y, _, _ in theirs) and not any(
                (x, y) == (a, b) for x, y, _, _ in theirs):
            j, last = next((m, e) for x, y, m, e in theirs if (x, y) == (b, a))
            return f"roles: the claim goes '{_span(claim, k, end)}'; its support the other way ('{_span(support, j, last)}')"
    return ""


def _model_letter_changed(claim: Text, support: Text) -> str:
    """A note when the claim names a model by a letter after its name ("the Nimbus S") and its support gives that
    name only other letters ("the Nimbus X"), else '': a lone letter is no content word, so overlap never sees it."""
    def letter(text: Text, k: int) -> bool:
        return text.tokens[k - 1].capitalised and letter_name(text.raw, text.tokens, k)

    for k in range(1, len(claim.tokens)):
        if not letter(claim, k):
            continue
        name = claim.tokens[k - 1].norm
        theirs = {support.tokens[m].surface for m in range(1, len(support.tokens))
                  if support.tokens[m - 1].norm == name and letter(support, m)}
        if theirs and claim.tokens[k].surface not in theirs:
            return (f"names: the claim's '{_span(claim, k - 1, k)}' is '{name.title()} {sorted(theirs)[0]}' in its "
                    "support")
    return ""


def _rate_after(text: Text, i: int) -> int | None:
    """The index of the word that number i is counted per, within a few tokens after it: "12 dollars per dose",
    "12 dollars a dose", "12 dollars each", "$12/dose", "for every dose" (not "5 per cent", "per the statute"),
    or None."""
    n = len(text.tokens)
    for m in range(i + 1, min(n, i + 5)):
        if text.breaks[m] or text.tokens[m].number:
            return None
        norm, nxt = text.tokens[m].norm, (text.tokens[m + 1] if m + 1 < n and not text.breaks[m + 1] else None)
        if norm in ("each", "apiece") and (m == i + 1 or (m == i + 2 and text.stems[i + 1] is not None)):
            return m  # "12 dollars each"
        if nxt is None or nxt.norm in _DETERMINERS or nxt.norm in ("cent", "centum") or not text.stems[m + 1]:
            continue
        counted = m == i + 1 or (m == i + 2 and text.stems[i + 1] is not None)  # "30 a day", "12 dollars a dose"
        if norm in ("per", "every") or (norm in ("a", "an") and counted) or (
                text.raw[text.tokens[m - 1].end : text.tokens[m].start].strip() == "/" and m <= i + 2):
            return m + 1  # "per dose", "a dose", "$12/dose", "for every dose"
    return None


def _counted_per(text: Text, r: int, lex: Lexicon) -> set[str | int]:
    """The stems, words (a synonym read as its kin) and unit groups of what a rate at r counts per ("per square
    kilometre", "per head" as "per person")."""
    end = r + 2 if r + 1 < len(text.tokens) and not text.breaks[r + 1] and text.tokens[r + 1].norm not in \
        _PER_WORDS else r + 1
    words = [_RATE_SYNONYMS.get(t.norm, t.norm) for t in text.tokens[r:end]]
    return {s for s in text.stems[r:end] if s} | set(words) | {g for w in words if (g := lex.units.get(w)) is not None}


def _all_rates(text: Text, r: int, lex: Lexicon) -> set[str | int]:
    """What a rate at r and a second rate right after it count per ("per night per person": both)."""
    out = _counted_per(text, r, lex)
    nxt = _rate_after(text, r)
    return out | _counted_per(text, nxt, lex) if nxt is not None else out


def _rate_changed(claim: Text, support: Text, lex: Lexicon) -> str:
    """A note when every time the support states a number of the claim it counts it per something ("costs 12
    dollars per dose") and the claim counts it per another thing ("6 euros per family" over "per adult") or states
    it with no rate ("The two-dose course costs 12 dollars"), else ''.
    A claim keeps a rate with a word of its own (per, each, daily, ..., "a" after the number: "12 dollars a
    dose") or by naming one of what is counted ("One dose costs $12", "Adults pay $5" over "$5 per adult"); a
    number with a unit of its own is the units' business ("30 mph")."""
    kept = any(t.norm in _RATE_WORDS for t in claim.tokens)
    for i, tok in enumerate(claim.tokens):
        if not tok.number:
            continue
        theirs = [j for j in support.positions.get(claim.all_stems[i], []) if support.tokens[j].number]
        rates = [r for j in theirs if (r := _rate_after(support, j)) is not None]
        if not theirs or len(rates) < len(theirs):
            continue
        per = {support.stems[r] for r in rates if support.tokens[r].norm not in ("each", "apiece")}
        mine = _rate_after(claim, i)
        if mine is not None and claim.stems[mine] and per and all(
                support.tokens[r].norm.isalpha() and not _all_rates(claim, mine, lex) & _all_rates(support, r, lex)
                for r in rates):
            return (f"units: the claim counts '{_span(claim, i, mine)}'; its support "
                    f"'{_span(support, theirs[0], rates[0])}'")  # "6 euros per family" over "per adult"
        if kept or any(_unit_after(claim, i, lex)) or any(
                claim.tokens[m].norm in ("a", "an") for m in range(i + 1, min(len(claim.tokens), i + 5))):
            continue
        named = [m for m, s in enumerate(claim.stems) if s in per]
        if any(_plural(claim.tokens[m]) or (m and claim.tokens[m - 1].norm in ("one", "a", "an", "single"))
               for m in named):
            continue  # "One dose costs $12", "A single dose costs", "Adults pay $5"
        j = theirs[0]
        return (f"units: its support counts '{_span(support, j, rates[0])}'; the claim's "
                f"'{_span(claim, i, i + 1)}' counts no rate")
    return ""


def _per(text: Text, i: int, lex: Lexicon) -> tuple[str, int, int] | None:
    """The amount and unit group a rate after number i is counted per ("20 minutes per kilogram": ("1", mass),
    "per 500 grams": ("500", mass)) and the unit's index, or None when there is no "per" and unit close after it."""
    n = len(text.tokens)
    for m in range(i + 1, min(n - 1, i + 5)):
        if text.breaks[m] or text.breaks[m + 1]:
            return None
        if text.tokens[m].norm != "per":
            continue
        k, amount = m + 1, "1"
        if text.tokens[k].number and k + 1 < n and not text.breaks[k + 1]:
            k, amount = k + 1, text.tokens[k].norm
        group = lex.units.get(text.tokens[k].norm)
        return None if group is None else (amount, group, k)
    return None


def _per_end(text: Text, j: int) -> int:
    """The last token of the rate after number j (its unit), or j when it has none."""
    m = next((m for m in range(j + 1, min(len(text.tokens) - 1, j + 5)) if text.tokens[m].norm == "per"), None)
    return j if m is None else min(len(text.tokens) - 1, m + (2 if text.tokens[m + 1].number else 1))


def _a_score(text: Text, k: int) -> bool:
    """Number k is a score ("up 3-1") or a margin ("down 2 goals"), not a figure that rose or fell."""
    tokens = text.tokens
    glued = k + 1 < len(tokens) and text.raw[tokens[k].end : tokens[k + 1].start] in ("-", "\u2013") and tokens[k + 1].number
    return glued or (k + 1 < len(tokens) and tokens[k + 1].norm in _MARGINS)


def _clause_of(text: Text, i: int) -> tuple[int, int]:
    """The token range [first, end) of the clause holding token i; a clause never runs across a sentence's start
    (`Text.breaks`)."""
    first = i
    while first > 0 and not text.breaks[first]:
        first -= 1
    end = i + 1
    while end < len(text.tokens) and not text.breaks[end]:
        end += 1
    return first, end


# Words that scale a number before its unit ("1.2 million miles").
_SCALE_WORDS = frozenset("thousand thousands million millions billion billions trillion".split())

# Negators that deny an object ("received no compensation", "found nothing"): they deny the verb before them too.
_OBJECT_NEGATORS = frozenset("no nothing none".split())

# Hedge words that report a claim, plan or request only with "to", "that" or "of" close after them ("the mayor
# plans to build", "recommended that", "accused the company of"): else they are nouns or adjectives ("a monthly
# plan", "the recommended dose") or another sense ("claimed the title").
_REPORTS_BEFORE = frozenset(
    """claim claims claimed plan plans planning intend intends intended promise promises demand demands request
    requests requested recommend recommends recommended urge urges argue argues contend contends insist insists
    accuse accuses aim aims seek seeks hope hopes want wants hold holds held myth misconception planned scheduled
    slated suspect suspects suspected rumour rumours rumoured rumor rumors rumored threaten threatens
    threatened estimate estimates estimated fear fears feared expect expects meant propose proposes proposing
    described branded labelled labeled characterised characterized worry worries anticipate anticipates ask asks
    asked maintain maintains maintained hint hints hinted deny denies denied calling called trend""".split()
)
# Verbs of saying that report the sentence before them when they end it (", officials said.").
_SAYS = frozenset("say says said believe believes reported report reports".split())
# Asking reports a request only before its object or "to", "that", "for": "asked the council to", "asks for".
_ASKS = frozenset("ask asks asked".split())
_ASKED_NEXT = frozenset("to that for whether if him her them us me you".split())
# Report words that report with an "as" shortly after them: "described the memo as a forgery".
_REPORTS_AS = frozenset("described branded labelled labeled characterised characterized".split())
# Report words that report only with "to" or "that" right after them: "threatened to strike", "estimates that",
# "fear that", "are feared to have died", "was meant to"; not "a threatened species", "an estimated 40,000", "fear of
# flying". ("designed to", "engineered to" and "able to" describe a method or a feat as often: not reports.)
_REPORTS_RIGHT_BEFORE = {"threaten": ("to",), "threatens": ("to",), "threatened": ("to",), "estimate": ("that",),
                         "estimates": ("that",), "estimated": ("that", "to"), "fear": ("that",),
                         "fears": ("that",), "feared": ("that", "to"), "meant": ("to",), "worry": ("that",),
                         "worries": ("that",), "maintain": ("that",), "maintains": ("that",),
                         "maintained": ("that",), "hint": ("that", "at"), "hints": ("that", "at"),
                         "hinted": ("that", "at"), "deny": ("that",), "denies": ("that",), "denied": ("that",),
                         "calling": ("for",), "called": ("for",),
                         "trend": ("towards", "toward")}
# Report words of other common senses that report only before their word ("denied that", not "bail was denied";
# "called for", not "police were called" nor "the recipe calls for two eggs"; "a trend towards", not "bucking the
# trend").
_ONLY_RIGHT_BEFORE = frozenset("""maintain maintains maintained hint hints hinted deny denies denied calling called
    trend""".split())
# Negators that deny less than the whole ("rarely causes"): they agree only with each other.
_WEAK_NEGATORS = frozenset("rarely seldom hardly scarcely".split())


def _denied_alike(text: Text, i: int, other: Text) -> bool:
    """Token i is denied by a verb of ceasing, avoiding or declining that the other text also uses, with the
    thing it denies put another way round ("The town avoided flooding" and "Flooding was avoided")."""
    k = text.negated_heads.get(i)
    return (k is not None and text.tokens[k].norm in _CESSATION | _REFUSALS
            and text.all_stems[k] in other.all_stems)


def _weakly_negated(text: Text, i: int) -> bool:
    k = text.negated_heads.get(i)
    return k is not None and text.tokens[k].norm in _WEAK_NEGATORS


def _certainty_unstated(claim: Text, support: Text, lex: Lexicon) -> str:
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
            first, end = _clause_of(support, h)
            if tok.norm == "according" and end < len(support.tokens) and support.initial[first]:
                end = _clause_of(support, end)[1]  # "According to the defendant, the car was stolen"
            # a conjunct with a subject or a verb of its own is no longer reported ("He asked her to marry him and
            # she agreed", "The pilot asked to land and was cleared to land")
            end = next((k for k in range(h + 2, end - 1) if support.tokens[k].norm == "and" and (
                support.tokens[k + 1].norm in _SUBJECT_PRONOUNS or support.tokens[k + 1].norm in _AUXILIARIES - {"to"})),
                end)
            reported = support.stems[h + 1 : end]
            if end == h + 1 and first > 0 and tok.norm in _REPORTS_BEFORE | _SAYS and not any(
                    t.norm == "than" for t in support.tokens[first:h]):
                reported = support.stems[: first]  # ", officials estimate." reports the sentence before it
            if hedged and any(t.norm in ("and", "but") for t in support.tokens[max(first, h - 3) : h]):
                continue  # a report's later conjunct ("... damaged 300 homes and may damage more")
            if len(wanted & {s for s in reported if s}) >= 2:
                start = next((k for k in range(max(first, h - 3), h) if support.tokens[k].norm in _EVIDENCE_DENIERS), h)
                return (f"certainty: its support says '{_span(support, start, min(end - 1, h + 3))} ...', the claim "
                        "states it as fact")
    will = _will_over_can(claim, support)
    if will:
        return will
    if set(claim.all_stems) & lex.associations:
        return ""
    cause = next((i for i, s in enumerate(claim.all_stems) if s in lex.causal and _causes(claim, i)), None)
    if cause is None:
        return ""
    for a, s in enumerate(support.all_stems):
        if s not in lex.associations or support.compound(a):
            continue  # "Fas-associated death domain" names a protein
        first, end = _clause_of(support, a)
        if any(support.all_stems[k] == claim.all_stems[cause] and _causes(support, k) for k in range(first, end)):
            continue  # "smoking causes cancer and is associated with stroke" states the cause itself
        held = len(wanted & {x for x in support.stems[first:end] if x})
        if held >= 2 and (claim.tokens[cause - 1].norm not in _POSSESSIVE or held * 2 > len(wanted)):
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
                _plural(support.tokens[r - 1]) or support.tokens[r - 1].norm in _GROUP_WORDS):
            continue
        end = next((k for k in range(r + 1, n) if support.initial[k]), n)
        compared = next((k for k in range(r + 2, end) if support.tokens[k].norm in _GROUP_COMPARATIVES), None)
        held = len(wanted & {x for x in support.stems[r - 1 : end] if x})
        if compared is not None and held >= 2:
            return (f"certainty: the claim's '{claim.tokens[cause].surface}' states a cause; its support compares "
                    f"'{_span(support, r - 1, r + 2)} ...' with others ('{support.tokens[compared].surface}')")
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
        return _reports(text, h, _clause_of(text, h)[1])
    if tok.norm in _ADVISES:
        return _advises(text, h)
    return tok.norm in _HEDGED_THINGS or not (h > 0 and text.tokens[h - 1].norm in _DETERMINERS)


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
                return (f"certainty: the claim's '{_span(claim, i, verb)}' is '{_span(support, m, j)}' in its "
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
            if (claim.stems[i] and not (i and claim.tokens[i - 1].norm in _DETERMINERS)  # "At the launch" is a noun
                    and not any(t.norm in _FUTURE for t in claim.tokens[max(0, i - 4) : i])):
                return (f"time: its support says it '{_span(support, j, verb)}'; the claim says "
                        f"'{_span(claim, max(0, i - 2), i)}'")
    # "The software will end support in January" over "Support ended in January": done, not ahead
    ahead = {support.all_stems[v] for j in range(len(support.tokens)) if (v := _will_verb(support, j)) is not None}
    for i, verb in wills.items():
        stem = claim.all_stems[verb]
        if stem in ahead:
            continue
        for j in support.positions.get(stem, []):
            if (_past_form(support.tokens[j].norm) and not _after_copula(support, j)
                    and not (j and support.tokens[j - 1].norm in _DETERMINERS)):
                return (f"time: the claim says '{_span(claim, i, verb)}'; its support says it "
                        f"'{support.tokens[j].surface}' already")
    return ""


# The verbs of the irregular past forms (`lexicon.IRREGULAR_VERBS`: "has begun" is done what "will begin" puts ahead).
_BASES = frozenset(IRREGULAR_VERBS.values())


# Verbs of one meaning, whose sides a role check compares ("Russia bought Alaska from the US" over "the US
# purchased Alaska from Russia").
_SAME_VERBS = tuple(frozenset(g.split()) for g in (
    "buy buys bought buying purchase purchases purchased purchasing acquire acquires acquired acquiring",
    "beat beats beaten beating defeat defeats defeated defeating",
    "lend lends lent lending loan loans loaned loaning"))


def _verb_positions(text: Text, other: Text, i: int) -> list[int]:
    """Where `text` uses token i of `other`: by stem, as another form of the same irregular verb ("was beaten
    by" and "beat"), or as a verb of the same meaning ("bought" and "purchased": `_SAME_VERBS`)."""
    found = text.positions.get(other.all_stems[i], [])
    norm = other.tokens[i].norm
    group = next((g for g in _SAME_VERBS if norm in g), None)
    if not found and group is not None:
        return [j for j, t in enumerate(text.tokens) if t.norm in group]
    base = IRREGULAR_VERBS.get(norm, norm)
    if found or (base == norm and norm not in _BASES):
        return found
    return [j for j, t in enumerate(text.tokens) if IRREGULAR_VERBS.get(t.norm, t.norm) == base]


def _will_verb(text: Text, j: int) -> int | None:
    """The verb that "will" at j puts in the future ("will also receive"), or None when j is not that "will"
    ("impose their will upon a class" is a noun)."""
    if text.tokens[j].norm != "will" or (j and text.tokens[j - 1].norm in _DETERMINERS):
        return None
    return next((k for k in range(j + 1, min(len(text.tokens), j + 4)) if text.stems[k] and not text.breaks[k]), None)


_SUBJECT_PRONOUNS = frozenset("it they he she we".split())


def _reports(text: Text, h: int, end: int) -> bool:
    """Report word h (one that is also a noun, or a verb of other senses) reports something: "to", "that" or "of"
    follows it closely ("plans to", "claims that"), a gerund follows it ("recommended banning"), or a clause with
    a verb of its own ("The maker claims the battery lasts 20 hours"; not "claimed the title in 2010"), or it ends
    a short clause after the words it reports (", the researchers estimate.")."""
    after = text.tokens[h + 1 : min(end, h + 5)]
    first = _clause_of(text, h)[0]
    if text.tokens[h].norm in _ONLY_RIGHT_BEFORE:  # "denied that", "called for"; not ", but it was denied."
        if text.tokens[h].norm == "trend" and not (h and text.tokens[h - 1].norm == "a"):
            return False  # "showed a trend towards"; not "the trend towards remote work grew"
        return bool(after) and after[0].norm in _REPORTS_RIGHT_BEFORE[text.tokens[h].norm]
    if end == h + 1 and first > 0 and h - first < 4 and text.tokens[h].norm not in _DETERMINERS:
        return True
    if text.tokens[h].norm in ("hold", "holds", "held"):  # "the court held that"; not "held morning sessions"
        return bool(after) and after[0].norm == "that"
    if text.tokens[h].norm in ("planned", "scheduled", "slated"):  # "was scheduled to land"; not "scheduled flights"
        return bool(after) and after[0].norm in ("to", "for")
    if text.tokens[h].norm in _ASKS and after and not (
            after[0].norm in _ASKED_NEXT or after[0].norm in _DETERMINERS or after[0].capitalised):
        return False  # "asked the council to install", "asked for funds"; not "if the customer asks within 14 days"
    if text.tokens[h].norm in _REPORTS_AS:
        return any(t.norm == "as" for t in text.tokens[h + 1 : min(end, h + 7)])
    if text.tokens[h].norm in _REPORTS_RIGHT_BEFORE:
        return bool(after) and after[0].norm in _REPORTS_RIGHT_BEFORE[text.tokens[h].norm]
    if any(t.norm in ("to", "that", "of") for t in after):
        return True
    if after and after[0].norm.endswith("ing") and text.stems[h + 1]:
        return True
    if (len(after) > 1 and after[0].norm in _SUBJECT_PRONOUNS
            and (after[1].norm in _AUXILIARIES or text.verb(h + 2))):
        return True  # "The maker claims it is 15 percent more efficient"; not "claimed it in 2010"
    if not after or after[0].norm not in _DETERMINERS:
        return False
    return any(text.verb(k) and text.stems[k] for k in range(h + 3, min(end, h + 8)))


def _former_stated_now(claim: Text, support: Text, scoped: bool = True) -> str:
    """A note when the support puts what it says in the past ("The mine was once the largest source of tin";
    "Fishermen used to catch cod"; "The ferry ran daily until the harbour silted up") and the claim states it in
    the present ("The mine is the largest source of tin", "Fishermen catch cod", "The ferry runs daily"); else
    ''. A claim is in the present when it says so (is, still, now) or, against a past that has ended ("used to",
    "until", a date that opens a past sentence), when it has no past form at all, unless it is a bare answer that
    takes its time from the question (not `scoped`: "Capital Cities" over "In the 1980s the parent merged
    with Capital Cities")."""
    said = {t.norm for t in claim.tokens}
    if said & _FORMER or any(_ended(claim, k) for k in range(len(claim.tokens))):
        return ""  # the claim puts it in the past itself
    now = bool(said & _PRESENT)
    # a claim bounded in time itself ("until 1990", "in the 1800s", "in the past") is no statement about now
    bounded = "until" in said or "past" in said or any(_date(t) for t in claim.tokens)
    undated = scoped and not bounded and not any(
        (_past_form(t.norm) or t.norm in _PAST_AUXILIARIES or t.norm in IRREGULAR_VERBS) and not _present_passive(claim, k)
        for k, t in enumerate(claim.tokens))
    if not now and not undated:
        return ""
    clauses: list[tuple[int, int, int]] | None = None  # each clause's bounds and claim stems held, read once
    for h, tok in enumerate(support.tokens):
        ended = undated and (_ended(support, h) or _dated_past(support, h))
        if not ended and (not now or tok.norm not in _FORMER or (
                tok.norm == "once" and h + 1 < len(support.tokens) and support.tokens[h + 1].norm in _DETERMINERS
                and (h == 0 or support.tokens[h - 1].norm not in _AUXILIARIES))):
            continue  # "... once the dam is finished" is "when"; "was once the largest" is "formerly"
        first, end = _clause_of(support, h)
        if end < len(support.tokens) and (end == h + 1 or (ended and h == first and support.initial[first])):
            end = _clause_of(support, end)[1]  # "Formerly, the mine was ...", "Until it collapsed, the tower was"
        if ended:
            # a later event ends what the past held ("... in Leeds before moving to York"): the region stops there,
            # and a word of the claim the support says only after it may be the present's
            end = next((k for k in range(h + 1, end) if support.tokens[k].norm in _LATER and k > h + 1), end)
        inside = {s for s in support.stems[first:end] if s}
        if ended and claim.content & ({s for s in support.stems[end:] if s} - inside):
            continue
        held = len(claim.content & inside)
        if held >= 2 and ended and clauses is None:
            clauses = [(a, b, len(claim.content & {s for s in support.stems[a:b] if s})) for a, b in _clauses(support)]
        # another clause that holds the claim as well states it ("was common until the 1980s, but is now banned")
        if held >= 2 and not (ended and clauses and any(
                other >= held for a, b, other in clauses if b <= first or a >= end)):
            return (f"time: its support holds it only in the past ('{_span(support, max(first, h - 1), h + 2)}'); "
                    "the claim states it now")
    return ""


# Words that open a later event inside a sentence about the past.
_LATER = frozenset("before after when then".split())


def _present_passive(text: Text, k: int) -> bool:
    """Token k is a participle of the present ("is owned by", "are still based in"): no past."""
    m = k - 1
    while m >= 0 and text.tokens[m].norm in _ADVERBS:
        m -= 1
    return m >= 0 and text.tokens[m].norm in ("is", "are", "am", "remains", "remain")


def _still_ended(claim: Text, support: Text) -> str:
    """A note when the claim says a thing goes on ("The 5.0 release still supports Python 3.8") and its support
    says it stopped ("Support for Python 3.8 ended with the 5.0 release"): a verb of ending whose subject names
    something of the claim, in a clause (of one sentence) that holds two of the claim's words; else ''."""
    if not any(t.norm in _STILL for t in claim.tokens) or any(t.norm in _STILL for t in support.tokens):
        return ""
    for h, tok in enumerate(support.tokens):
        if tok.norm not in _ENDINGS or h in support.negated_heads:
            continue  # "has not ended", "never ended": it goes on
        first, end = _clause_of(support, h)
        subject = {x for x in support.stems[first:h] if x}
        held = claim.content & {x for x in support.stems[first:end] if x}
        # another clause that holds as much of the claim states it going on ("... ended; the app supports ...")
        if subject & claim.content and len(held) >= 2 and not any(
                len(claim.content & {x for x in support.stems[a:b] if x}) >= len(held)
                for a, b in _clauses(support) if b <= first or a >= end):
            return (f"time: the claim says it goes on; its support says '{_span(support, first, h)}' "
                    f"('{tok.surface}')")
    return ""


def _verb_stem(text: Text, i: int) -> str:
    """Token i's stem, an irregular form read as its verb's ("built" as "build")."""
    norm = text.tokens[i].norm
    return _base_stems()[norm] if norm in IRREGULAR_VERBS else text.all_stems[i]


@lru_cache(maxsize=1)
def _base_stems() -> dict[str, str]:
    return dict(zip(IRREGULAR_VERBS, stem_all(list(IRREGULAR_VERBS.values())), strict=True))


def _since_ended(claim: Text, support: Text) -> str:
    """A note when the claim says a thing has held since a year ("has served on the committee since 2004") and
    its support gives it an end after that year ("served from 2004 to 2012", "between 2004 and 2012",
    "2004-2012") and never says "since" it; else ''."""
    dates = {t.norm: j for j, t in enumerate(support.tokens) if _date(t)}
    for i, tok in enumerate(claim.tokens):
        if tok.norm != "since":
            continue
        k = next((k for k in range(i + 1, min(len(claim.tokens), i + 5)) if _date(claim.tokens[k])), None)
        if k is None or claim.tokens[k].norm not in dates or _range_end(claim, k) is not None:
            continue  # "since the 2004-2005 season" is a range of the claim's own
        start = claim.tokens[k].norm
        if any(t.norm == "since" and support.tokens[j + 1 : j + 5] and any(
                x.norm == start for x in support.tokens[j + 1 : j + 5]) for j, t in enumerate(support.tokens)):
            continue  # the support says "since 2004" itself
        for j, t in enumerate(support.tokens):
            end = _range_end(support, j) if t.norm == start else None
            if end is not None and support.tokens[end].norm > start:
                return (f"time: the claim says '{_span(claim, i, k)}', still so; its support ends it "
                        f"('{_span(support, max(0, j - 1), end)}')")
    return ""


_DASHES = (*HYPHENS, "\u2013", "\u2014")


def _range_end(text: Text, j: int) -> int | None:
    """The year that closes a range opened by year j ("from 2004 to 2012", "between 2004 and 2012",
    "2004-2012"; not "2004-12"), or None."""
    n = len(text.tokens)
    if j + 1 < n and text.raw[text.tokens[j].end : text.tokens[j + 1].start].strip() in _DASHES \
            and _date(text.tokens[j + 1]):
        return j + 1
    if j + 2 >= n or j == 0 or not _date(text.tokens[j + 2]):
        return None
    word, before = text.tokens[j + 1].norm, text.tokens[j - 1].norm
    if (word in ("to", "until", "till", "through") and before == "from") or (word == "and" and before == "between"):
        return j + 2
    return None


# Forms of "be" before a verb in -ing that puts it in progress ("is building", "are currently testing").
_PROGRESSIVE = frozenset("is are am was were".split())


def _under_way(claim: Text, support: Text) -> str:
    """A note when the claim says a thing was done ("has built a prototype", "completed the survey") where its
    support has it still in progress ("is currently building a prototype") and nowhere done; else ''."""
    for j, tok in enumerate(support.tokens):
        if not (tok.norm.endswith("ing") and support.stems[j]):
            continue
        k = j - 1
        while k >= 0 and (support.tokens[k].norm in _ADVERBS or support.tokens[k].norm in ("currently", "still")):
            k -= 1
        if k < 0 or support.tokens[k].norm not in _PROGRESSIVE:
            continue
        base = support.all_stems[j]
        if support.tokens[k].norm not in ("is", "are", "am") or any(
                t.norm.endswith("ing") and claim.all_stems[m] == base for m, t in enumerate(claim.tokens)):
            continue  # "was living" is "lived"; a claim that says "is now building" says it in progress too
        done = [i for i, t in enumerate(claim.tokens)
                if (_past_form(t.norm) or t.norm in IRREGULAR_VERBS) and _verb_stem(claim, i) == base]
        if not done:
            # another verb in the perfect ("has signed a deal to buy" over "is negotiating the purchase"), when the
            # claim has nothing in progress itself and the support's clause holds two of its words
            first, end = _clause_of(support, j)
            held = claim.content & {x for x in support.stems[first:end] if x}
            done = [i for i, t in enumerate(claim.tokens)
                    if i and claim.tokens[i - 1].norm in ("has", "have") and (_past_form(t.norm) or t.norm in IRREGULAR_VERBS)]
            said = set(support.all_stems) | {_verb_stem(support, m) for m in range(len(support.tokens))}
            if (len(held) < 2 or base in claim.all_stems or any(_verb_stem(claim, i) in said for i in done)
                    or any(t.norm.endswith("ing") and m and claim.tokens[m - 1].norm in _PROGRESSIVE | {"been"}
                           for m, t in enumerate(claim.tokens))):
                done = []  # the support says the claim's verb too; the claim names the work ("an investigation")
        if not done:
            continue
        if any((_past_form(t.norm) or t.norm in IRREGULAR_VERBS) and _verb_stem(support, m) == base
               for m, t in enumerate(support.tokens)):
            continue  # the support says it done too ("built one and is building another")
        return (f"time: its support has it in progress ('{_span(support, k, j)}'); the claim says "
                f"'{_span(claim, done[0], done[0])}'")
    return ""


def _clauses(text: Text) -> list[tuple[int, int]]:
    """The (first, end) token bounds of each clause, in order."""
    out: list[tuple[int, int]] = []
    k = 0
    while k < len(text.tokens):
        out.append(_clause_of(text, k))
        k = max(out[-1][1], k + 1)
    return out


_PAST_AUXILIARIES = frozenset("was were had did will would".split())
_PAST_BE = frozenset("was were had".split())  # past forms that are no -ed form
_ADVERBS = frozenset("often also still now not never always mostly sometimes seldom even too".split())


def _date(tok: Token) -> bool:
    """A year (1000-2099) or a decade ("1950s")."""
    norm = tok.norm[:-1] if tok.norm.endswith("s") else tok.norm
    return len(norm) == 4 and norm.isdigit() and 1000 <= int(norm) < 2100


def _dated_past(text: Text, h: int) -> bool:
    """Token h is a year or decade that opens a sentence in the past tense ("In 2010, the firm employed 500
    people"; "During the 1950s, the economy depended on sugar")."""
    if not _date(text.tokens[h]):
        return False
    k = h - 1 if h and text.tokens[h - 1].norm != "the" else h - 2
    if k < 0 or text.tokens[k].norm not in ("in", "during", "throughout", "by") or not text.initial[k]:
        return False  # only a date that opens its sentence frames all of it ("The museum, which opened in 1902,")
    first = max((m for m in range(h + 1) if text.initial[m]), default=0)
    end = next((m for m in range(h + 1, len(text.tokens)) if text.initial[m]), len(text.tokens))
    return any(_past_form(text.tokens[m].norm) or text.tokens[m].norm in _PAST_BE for m in range(first, end))


def _ended(text: Text, h: int) -> bool:
    """Token h marks a past that has ended: "used to" as the verb of its clause ("Fishermen used to catch cod";
    not "a drug used to treat", "Honey, used to treat burns", "is commonly used to"), or "until" in a clause
    whose verb is in the past ("ran daily until the harbour silted up", "Until it collapsed in 1847, ..."; not
    "The museum, which was founded in 1900, is open until 6 pm")."""
    norm, n = text.tokens[h].norm, len(text.tokens)
    if norm not in ("used", "until"):
        return False
    first, end = _clause_of(text, h)
    if norm == "used":
        if h + 1 >= n or text.tokens[h + 1].norm != "to" or h == first:
            return False
        before = range(first, h)
        k = next((k for k in reversed(before) if not text.tokens[k].norm.endswith("ly")
                  and text.tokens[k].norm not in _ADVERBS), None)
        return k is not None and not text.breaks[k + 1] and not any(
            text.tokens[m].norm in _AUXILIARIES or text.tokens[m].norm in ("get", "gets", "got", "become",
                                                                            "becomes", "became")
            or (text.verb(m) and text.stems[m] is not None and _past_form(text.tokens[m].norm)) for m in before)
    def past(span: range) -> bool:
        return any(_past_form(text.tokens[k].norm) or text.tokens[k].norm in _PAST_BE for k in span)

    if h != first:
        return past(range(first, h))
    if past(range(h + 1, end)):
        return True
    # "Until 2015, the exam included ...": a clause of a date alone ends the past of the clause after it
    return end < n and all(text.tokens[k].number or not text.stems[k] or text.tokens[k].capitalised
                           for k in range(h + 1, end)) and past(range(end, _clause_of(text, end)[1]))


def _plural(tok: Token) -> bool:
    """A plural noun as far as spelling tells: a content word ending in -s (not -ss, -us, -is) or -ies."""
    norm = tok.norm
    return (not tok.number and len(norm) > 3 and not is_stopword(norm) and norm.endswith("s")
            and not norm.endswith(("ss", "us", "is", "ous")))


# Past forms of causing that never describe a noun: after "has" they are the verb ("has caused the decline").
_CAUSED = frozenset("caused resulted contributed triggered".split())


def _causes(text: Text, i: int) -> bool:
    """Token i is a verb of causing: inflected or after a modal or "to", not an adjective after a copula
    ("is lower"), unless a passive names the cause ("is caused by")."""
    if i == 0 or text.compound(i) or text.tokens[i - 1].norm in _DETERMINERS:
        return False  # "Increased acetylation ...", "diet-induced", "the reduced form": a description
    if text.tokens[i - 1].norm in _COPULAS:
        return text.passive(i)
    if (text.tokens[i - 1].norm in _POSSESSIVE and text.tokens[i].norm.endswith("ed")
            and text.tokens[i].norm not in _CAUSED):
        return False  # "carriers have increased risk"; but "has caused the decline"
    return text.verb(i) or text.tokens[i - 1].norm in _AUXILIARIES


def _roles_swapped(claim: Text, support: Text, lex: Lexicon, skip: set[int] | frozenset[int] = frozenset()) -> str:
    """A note when a verb of the claim finds its two sides the other way round in the support (see the module
    docstring), else ''. `skip`: claim tokens whose sides swap with a comparison restated from its other side."""
    for i, stem in enumerate(claim.stems):
        if not stem or i in skip or stem in lex.symmetric or claim.intransitive(i):
            continue
        used = _verb_positions(support, claim, i)  # where the support uses the verb
        if not (claim.verb(i) or (
                i > 0 and claim.tokens[i - 1].norm not in _DETERMINERS and not claim.tokens[i].capitalised
                and any(support.verb(j) and support.tokens[j].norm == claim.tokens[i].norm for j in used))):
            continue  # not a verb, unless the support uses the same word as one ("Elk prey on wolves")
        a, b, near_a, near_b = claim.roles(i)
        if not a or not b:
            continue
        best: tuple[int, int, bool] | None = None  # words lined up, support index, swapped
        for j in used:
            if not support.stems[j] or support.intransitive(j) or _dative_shift(claim, i, support, j):
                continue
            sa, sb, s_near_a, s_near_b = support.roles(j)
            straight, crossed = (a & sa, b & sb), (a & sb, b & sa)
            # each text's nearest role word must be among the ones that moved (or stayed, across a passive)
            if claim.passive_voice(i) == support.passive_voice(j):
                swapped = bool(crossed[0] and crossed[1] and (near_a in sb or near_b in sa)
                               and (s_near_a in b or s_near_b in a))
            else:
                swapped = bool(straight[0] and straight[1] and (near_a in sa or near_b in sb)
                               and (s_near_a in a or s_near_b in b))
            lined = sum(map(len, straight)) + sum(map(len, crossed))
            if best is None or lined > best[0]:
                best = (lined, j, swapped)
        if best is not None and best[2]:
            return (f"roles: the claim's '{_phrase(claim, None, i)}' takes its sides the other way round in its "
                    f"support ('{_span(support, best[1] - 3, best[1] + 3)}')")
    return ""


def _names(text: Text, other: Text) -> set[int]:
    """The tokens of `text` that name someone or something: capitalised words that are no stopword, not at a
    sentence's start unless the next word is capitalised too or `other` writes the word capitalised inside a
    sentence ("Calgrove sold ..." over "... to the investor Calgrove")."""
    inside = {t.norm for k, t in enumerate(other.tokens) if t.capitalised and not other.initial[k]}
    out: set[int] = set()
    adverbial: set[int] = set()  # "in Berlin", "on Friday", "in New York": where or when, no side of a verb
    for k, tok in enumerate(text.tokens):
        if not tok.capitalised or tok.number or len(tok.norm) < 2 or is_stopword(tok.norm):
            continue
        nxt = text.tokens[k + 1] if k + 1 < len(text.tokens) else None
        if text.initial[k] and tok.norm not in inside and not (nxt is not None and nxt.capitalised):
            continue
        if k > 0 and (text.tokens[k - 1].norm in _WHERE_WHEN or k - 1 in adverbial):
            adverbial.add(k)
            continue
        out.add(k)
    return out


_CONJUNCTIONS = frozenset("and or but nor while whereas".split())
# Prepositions of place and time: a name after one says where or when, and moves round its clause freely.
_WHERE_WHEN = frozenset("in on at during since until till near across throughout within around inside "
                        "outside".split())


def _comma_before(text: Text, k: int) -> bool:
    return text.raw[text.tokens[k - 1].end : text.tokens[k].start].strip() == ","


def _named_sides(text: Text, i: int, names: set[int]) -> tuple[frozenset[str], frozenset[str]]:
    """The names on each side of verb i in its clause; each side reads on past a comma into a name set off
    there ("sued its former contractor, Dace Systems, for ..."; "the mayor, Dana Ruiz, lost to ..."), the left
    also past a short description of a name ("Norvest, a pension fund, sold ..."). A name on both sides is on
    neither."""
    first, end = _clause_of(text, i)
    while first > 0 and _comma_before(text, first):
        start = _clause_of(text, first - 1)[0]
        if (first - 1 not in names and start > 0 and _comma_before(text, start) and start - 1 in names
                and text.tokens[start].norm in ("a", "an", "the") and first - start <= 6):
            start = _clause_of(text, start - 1)[0]  # "Norvest, a pension fund, sold ...": a name described
        elif first - 1 not in names:
            break
        first = start
    while (end < len(text.tokens) and end in names and text.raw[text.tokens[end - 1].end : text.tokens[end].start]
           .strip() == ","):
        end += 1
        while end < len(text.tokens) and not text.breaks[end]:
            end += 1
    # a conjunct is a clause of its own, its verb perhaps left out ("Paris hosts the semi-finals and Lyon the final")
    first = max([first] + [k + 1 for k in range(first, i) if text.tokens[k].norm in _CONJUNCTIONS])
    end = next((k for k in range(i + 1, end) if text.tokens[k].norm in _CONJUNCTIONS), end)
    left = {text.tokens[k].norm for k in range(first, i) if k in names}
    right = {text.tokens[k].norm for k in range(i + 1, end) if k in names}
    return frozenset(left - right), frozenset(right - left)


def _names_crossed(claim: Text, support: Text, lex: Lexicon, skip: set[int] | frozenset[int] = frozenset()) -> str:
    """A note when a verb of the claim has a name on each side and its support, at every use of that verb, has
    each of them on the other side, in the same voice ("Calgrove sold its stake to pension fund Norvest" over
    "Pension fund Norvest sold its stake to the investor Calgrove"), else ''. The role check reads only the few
    words next to a verb; a name is one thing wherever its phrase puts it, so it is read across the clause."""
    c_names, s_names = _names(claim, support), _names(support, claim)
    if len(c_names) < 2 or len(s_names) < 2:
        return ""
    sides: dict[int, tuple[frozenset[str], frozenset[str]]] = {}
    for i, stem in enumerate(claim.stems):
        if (not stem or i in skip or stem in lex.symmetric or claim.intransitive(i) or not claim.verb(i)
                or any(ch.isupper() for ch in claim.tokens[i].surface)):
            continue  # "runs on Linux, macOS and Windows": a name is no verb
        ca, cb = _named_sides(claim, i, c_names)
        if not ca or not cb:
            continue
        verdicts: list[tuple[int, bool]] = []
        for j in _verb_positions(support, claim, i):
            if not support.verb(j) or support.intransitive(j) or _dative_shift(claim, i, support, j):
                continue
            sa, sb = _support_sides(support, j, s_names, sides)
            if claim.passive_voice(i) != support.passive_voice(j):
                sa, sb = sb, sa
            verdicts.append((j, _crossed(ca, cb, sa, sb)))
        if verdicts and all(crossed for _, crossed in verdicts):
            first, end = _clause_of(support, verdicts[0][0])
            return (f"roles: the claim's '{_phrase(claim, None, i)}' has its named sides the other way round in its "
                    f"support ('{_span(support, first, end - 1)}')")
    return ""


# Verbs that take a thing and its recipient in either order ("given honey" and "given to children").
_DATIVE = frozenset("""give gives gave given giving offer offers offered offering award awards awarded grant grants
    granted send sends sent sending serve serves served pay pays paid show shows showed shown teach teaches taught
    tell tells told hand hands handed promise promises promised feed feeds fed sell sells sold lend lends lent
    owe owes owed assign assigns assigned issue issues issued""".split())


def _dative_shift(claim: Text, i: int, support: Text, j: int) -> bool:
    """A passive verb of giving whose recipient is the subject in one text and after "to" in the other:
    "Honey should not be given to children" says what "Children should not be given honey" says, so its sides
    cross without a swap."""
    if claim.tokens[i].norm not in _DATIVE or not (_after_copula(claim, i) and _after_copula(support, j)):
        return False
    to_c = i + 1 < len(claim.tokens) and claim.tokens[i + 1].norm == "to"
    to_s = j + 1 < len(support.tokens) and support.tokens[j + 1].norm == "to"
    # the giver, when both name one, must be the same ("given to Ana by Luis" is no "Luis was given ... by Ana")
    by_c, by_s = _agent(claim, i), _agent(support, j)
    return to_c != to_s and not (by_c and by_s and not by_c & by_s)


def _agent(text: Text, i: int) -> frozenset[str]:
    """The content stems of the "by" phrase after verb i in its clause (up to the next preposition)."""
    _, end = _clause_of(text, i)
    for k in range(i + 1, end):
        if text.tokens[k].norm == "by":
            stop = next((m for m in range(k + 1, end) if text.tokens[m].norm in _TERM_ENDS), end)
            return frozenset(x for x in text.stems[k + 1 : stop] if x)
    return frozenset()


# Verbs that say one transfer from its two ends: "A bought X from B" is "B sold X to A", never "A sold X to B".
_TAKING = frozenset("buy buys bought buying purchase purchases purchased purchasing acquire acquires acquired "
                    "acquiring borrow borrows borrowed borrowing receive receives received receiving".split())
_GIVING = frozenset("sell sells sold selling lend lends lent lending give gives gave given giving".split())
# Verbs that say one contest from its two ends: "A defeated B" is "B lost to A", never "A lost to B".
_WINNING = frozenset("beat beats beaten beating defeat defeats defeated defeating".split())
_LOSING = frozenset("lose loses lost losing".split())
_CONVERSES = ((_TAKING, _GIVING), (_GIVING, _TAKING), (_WINNING, _LOSING), (_LOSING, _WINNING))
_TRANSFER_FORMS = tuple(frozenset(group.split()) for group in (
    "buy buys bought buying", "purchase purchases purchased purchasing", "acquire acquires acquired acquiring",
    "borrow borrows borrowed borrowing", "receive receives received receiving", "sell sells sold selling",
    "lend lends lent lending", "give gives gave given giving", "beat beats beaten beating",
    "defeat defeats defeated defeating", "lose loses lost losing"))


def _after_copula(text: Text, i: int) -> bool:
    """Token i follows a form of "be" ("were given", "was sold"): a passive, with or without its agent."""
    return i > 0 and text.tokens[i - 1].norm in _COPULAS


def _same_verb(norm: str, norms: set[str]) -> bool:
    """Whether `norms` holds a form of the verb `norm` is a form of ("bought" and "buying")."""
    forms = next((group for group in _TRANSFER_FORMS if norm in group), frozenset({norm}))
    return bool(forms & norms)


def _relative(text: Text, j: int) -> bool:
    """Token j is the verb of a relative clause ("who had lost", "which sold")."""
    k = j - 1
    while k >= 0 and text.tokens[k].norm in ("had", "has", "have", "earlier", "previously", "once"):
        k -= 1
    return k >= 0 and text.tokens[k].norm in ("who", "which", "that", "whom")


def _converse_verb(claim: Text, support: Text) -> str:
    """A note when the claim's verb of taking or giving (or of winning or losing) is its support's converse verb
    with the same sides ("Harlan bought the division from Merrow" over "Harlan sold its division to Merrow";
    "Ruiz defeated Keller" over "Ruiz lost to Keller"), else ''. With the
    sides exchanged the two say one thing ("Merrow sold the division to Harlan"); a passive on one side only
    ("the division was sold to Harlan by Merrow") puts the thing on a side of its own, and is left alone."""
    said = {t.norm for t in support.tokens}
    says = {t.norm for t in claim.tokens}
    c_names, s_names = _names(claim, support), _names(support, claim)
    sides: dict[int, tuple[frozenset[str], frozenset[str]]] = {}
    for i, tok in enumerate(claim.tokens):
        other = next((theirs for mine, theirs in _CONVERSES if tok.norm in mine), None)
        if other is None or not claim.verb(i) or _after_copula(claim, i) or _same_verb(tok.norm, said):
            continue  # "were given the drug" names no giver; a support that says "bought" too may say both
        a, b, near_a, _ = claim.roles(i)
        named: tuple[frozenset[str], frozenset[str]] | None = None
        for j, t in enumerate(support.tokens):
            if (t.norm not in other or not support.verb(j) or _after_copula(support, j) or _same_verb(t.norm, says)
                    or _relative(support, j)):
                continue  # "Keller, who had lost to Ruiz in 2015, won the rematch": another event
            if claim.passive_voice(i) != support.passive_voice(j):
                continue
            sa, sb, _, _ = support.roles(j)
            if a & sa and b & sb and near_a in sa and not (a & sb or b & sa):
                return f"roles: the claim's '{tok.surface}' is '{t.surface}' in its support, with the same sides"
            named = named or _named_sides(claim, i, c_names)
            na, nb = named
            ma, mb = _support_sides(support, j, s_names, sides)
            if _crossed(na, nb, mb, ma):  # the same sides: the converse verb reverses the event
                return f"roles: the claim's '{tok.surface}' is '{t.surface}' in its support, with the same sides"
    return ""


def _support_sides(text: Text, j: int, names: set[int], cache: dict[int, tuple[frozenset[str], frozenset[str]]]
                   ) -> tuple[frozenset[str], frozenset[str]]:
    """`_named_sides` of token j, read once per comparison (`cache`): a long claim asks it of every verb."""
    if j not in cache:
        cache[j] = _named_sides(text, j, names)
    return cache[j]


# Words an exchange may change around its fixed middle ("inherited by Edmund from his cousin Lady Marten" over
# "by Lady Marten from her cousin Edmund").
_NEUTRAL = _DETERMINERS | frozenset("he she him they them it".split())
# Words that order the terms on their two sides, so a middle of these alone is enough ("from A to B").
_DIRECTED = frozenset("from to into onto by".split())
EXCHANGE_TERM = 6  # tokens each exchanged term may run to
# The longest claim and support (content tokens) the checks for an exchanged or swapped word read: they compare
# sentences; the bound keeps their work small on hostile input.
SWAP_CLAIM_TOKENS, SWAP_SUPPORT_TOKENS = 80, 400


def _holds(seq: list[str], part: list[str]) -> bool:
    """Whether `part` stands in `seq` in a row."""
    return any(seq[k : k + len(part)] == part for k in range(len(seq) - len(part) + 1))


# Words that join two terms as equals: "salt together with pepper", "Boston, along with Chicago".
_ALONGSIDE = frozenset("together along alongside plus".split())
_COORDINATING = frozenset("and or nor but while whereas".split())
# Nouns of a relation both sides hold, after a copula: "Haydn was a contemporary of Mozart" (not "inherited the
# estate from his cousin Y", where the verb orders the sides).
_RELATION_NOUNS = frozenset("""twin twins sister sisters brother brothers contemporary contemporaries cousin cousins
    neighbour neighbours neighbor neighbors teammate teammates rival rivals sibling siblings partner partners
    colleague colleagues friend friends ally allies spouse""".split())


def _subsequence(part: list[str], whole: list[str]) -> bool:
    """Whether `part` stands in `whole` in order (not necessarily in a row)."""
    it = iter(whole)
    return all(any(w == p for w in it) for p in part)


def _coordinated(text: Text, middle: list[int]) -> bool:
    """Whether two terms with `middle` between them open two conjuncts of one coordination: after the middle's
    last coordinator come only prepositions ("blue, white and red"; "by 3% in Oban and by 12% in Mallaig" over
    the two conjuncts the other way round; "Jones scored in the second half and Smith scored in the first half").
    Not so "in year four and later repeat it in year two", nor Oban and Mallaig exchanged around "and by 3% in"."""
    joins = [m for m in middle if text.tokens[m].norm in _COORDINATING]
    return bool(joins) and all(text.stems[m] is None and not text.tokens[m].number for m in middle if m > joins[-1])


def _neutral(token: Token, k: int) -> bool:
    """A determiner or pronoun, which an exchange may change; "A" inside a sentence names ("kinase A")."""
    return token.norm in _NEUTRAL and not (k and token.surface == "A")


def _exchanged(claim: Text, support: Text, lex: Lexicon, skip: set[int] | frozenset[int] = frozenset()) -> str:
    """A note when the claim is its support with two terms exchanged around a middle both keep ("Kinase B
    phosphorylates kinase A" over "Kinase A phosphorylates kinase B"; "The Madrid team closed 48 deals,
    compared with 31 for the Lisbon team" over the same with Lisbon first), else ''. Every word of one is in
    the other, so word overlap and the verb-led role check miss what changed: which term stands where. The
    middle must hold a content word, a number or a word that orders its sides ("from A to B", "bought by A from
    B"; "A and B" is "B and A"); a middle that joins its sides as equals (a symmetric relation without a number,
    a bare "as ... as", "the same ... as", "is a contemporary of", "together with") reads either way round, and
    so do conjuncts reordered ("blue, white and red"; "Jones scored in the second half and Smith in the first")
    and a comparison whose figures are exchanged with their owners ("York sold 400, against 900 sold by Leeds"):
    the rest of the claim must stand in the support in order."""
    c_at = [k for k, t in enumerate(claim.tokens) if not _neutral(t, k)]
    s_at = [k for k, t in enumerate(support.tokens) if not _neutral(t, k)]
    if len(c_at) > SWAP_CLAIM_TOKENS or len(s_at) > SWAP_SUPPORT_TOKENS:
        return ""
    c = [claim.all_stems[k] for k in c_at]
    s = [support.all_stems[k] for k in s_at]
    where: dict[str, list[int]] = {}
    for k, stem in enumerate(s):
        where.setdefault(stem, []).append(k)
    for i in range(1, len(c) - 1):
        for j in where.get(c[i], []):
            if j == 0 or c[i - 1] == s[j - 1]:
                continue  # not the start of a common middle
            size = 0
            while i + size < len(c) and j + size < len(s) and c[i + size] == s[j + size]:
                size += 1
            # the claim's term before the middle is the support's after it, and the other way round
            x = next((k for k in range(min(EXCHANGE_TERM, i, len(s) - j - size), 0, -1)
                      if c[i - k : i] == s[j + size : j + size + k]), 0)
            y = next((k for k in range(min(EXCHANGE_TERM, len(c) - i - size, j), 0, -1)
                      if c[i + size : i + size + k] == s[j - k : j]), 0)
            if not x or not y or c[i - x : i] == c[i + size : i + size + y] or _holds(s, c[i - x : i + size + y]):
                continue  # the support also says it the claim's way round somewhere
            if not _subsequence(c[: i - x] + c[i + size + y :], s[: j - y] + s[j + size + x :]):
                continue  # more changed around them: another pair exchanged too ("York sold 400, against 900 sold
                # by Leeds" over "Leeds sold 900, against 400 sold by York"), or other words
            middle = [c_at[k] for k in range(i, i + size)]
            terms = [c_at[k] for k in (*range(i - x, i), *range(i + size, i + size + y))]
            if (any(claim.breaks[k] for k in range(terms[x - 1] + 1, middle[0] + 1))
                    and any(claim.breaks[k] for k in range(middle[-1] + 1, terms[x] + 1))):
                continue  # phrases moved round their clause: "Among adults, the drug cut X, researchers found"
            norms = [claim.tokens[k].norm for k in middle]
            numbered = any(claim.tokens[k].number for k in middle)
            if _coordinated(claim, middle) or any(n in _ALONGSIDE for n in norms):
                continue  # conjuncts reordered: "blue, white and red", "by 3% in Oban and by 12% in Mallaig"
            if (not any(claim.stems[k] or claim.tokens[k].number or claim.tokens[k].norm in _DIRECTED for k in middle)
                    or not all(any(claim.stems[k] or claim.tokens[k].number or claim.tokens[k].capitalised
                                   for k in side)
                               for side in (terms[:x], terms[x:]))
                    or skip.intersection(middle)
                    or (not numbered and (any(claim.all_stems[k] in lex.symmetric for k in middle)
                                          or norms.count("as") >= 2 or "same" in norms
                                          or (_COPULAS.intersection(norms) and _RELATION_NOUNS.intersection(norms))))):
                continue
            return (f"roles: the claim has '{_span(claim, terms[0], terms[x - 1])}' and "
                    f"'{_span(claim, terms[x], terms[-1])}' the other way round around "
                    f"'{_span(claim, middle[0], middle[-1])}' from its support")
    return ""


def _phrase(text: Text, neg: int | None, i: int) -> str:
    """Token i with its negator (which may stand after it when it denies the whole clause)."""
    if text.tokens[i].norm == "time" and text.event_stems[i] == _BEFORE:
        i, neg = i - 2, i  # "by the time"
    return _span(text, i, i) if neg is None else _span(text, min(i, neg), max(i, neg))


def _span(text: Text, first: int, last: int) -> str:
    """The text as written from token `first` to token `last` (both clamped to the text)."""
    first, last = max(0, first), min(len(text.tokens) - 1, last)
    return text.raw[text.tokens[first].start : text.tokens[last].end]


def _sides(text: Text, i: int, pivot: int | None = None) -> tuple[Counter[str], Counter[str]] | None:
    """The two terms comparative i compares in its clause, as content stems and numbers: B, the term after its
    than/compared/versus (or the given `pivot`: the second "as" of "as likely as") up to the next preposition
    ("than brown rice per serving": brown rice); A, the phrase after the same preposition between the
    comparative and the pivot when B opens with one ("higher in the valley than on the ridge", "more traffic
    to the backup than to the primary"), else the subject ("White rice contains more fibre than ...": white
    rice; "Men in the sector earned less ...": men). Terms read this way leave out the words both sides share
    with the sentence, which would hide a swap; terms that are the same so far are read on past their
    prepositions and relative clauses ("Customers who paid in cash ... than customers who paid by card")."""
    n = len(text.tokens)
    if pivot is None:  # "than" first: "more effective in adults over 70 than in adults under 50"
        ahead = range(i + 1, min(n, i + 12))
        pivot = next((j for j in ahead if text.tokens[j].norm == "than"), None)
        if pivot is None:
            pivot = next((j for j in ahead if text.tokens[j].norm in _COMPARE_WORDS), None)
    if pivot is None:
        # "Compared with men, women reported fewer ...": the pivot may come first; a word after "than" (or in
        # the term after the pivot: "... than exports to Asia") compares nothing itself
        pivot = next((j for j in range(max(0, i - 12), i) if text.tokens[j].norm in _COMPARE_WORDS
                      and text.tokens[j].norm != "than"), None)
        if pivot is None or _clause_of(text, pivot)[1] > i:
            return None
    first, _ = _clause_of(text, i)
    opening = text.tokens[pivot + 1].norm if pivot + 1 < n and not text.breaks[pivot + 1] else ""
    inner, end = None, pivot  # where term A opens and ends, when B opens with a preposition
    if pivot > i and opening in _PAIRED:
        inner = next((k for k in range(pivot - 1, i, -1) if text.tokens[k].norm == opening), None)
        if inner is None and opening in _TERM_ENDS:
            inner = next((k for k in range(i + 1, pivot) if text.tokens[k].norm in _TERM_ENDS), None)
        if inner is None:  # "Ticket prices for the matinee are higher than for the evening show"
            inner = next((k for k in range(first, i) if text.tokens[k].norm == opening), None)
            end = i
    a, b = Counter[str](), Counter[str]()
    for through in (False, True):
        b = _term(text, pivot + 1, n, through=through)
        a = _term(text, inner + 1, end, through=through) if inner is not None else Counter()
        a = a or _term(text, first, i, subject=True, through=through)
        if set(a) != set(b):
            break
    return a, b


def _term(text: Text, start: int, stop: int, subject: bool = False, through: bool = False) -> Counter[str]:
    """The first COMPARED_TERMS content stems and numbers from token `start`, up to a clause break, `stop`, or a
    preposition after the term has begun; a `subject` also ends at its verb. Read `through`, a term runs on
    past its prepositions, relative words and verbs to three times as many words."""
    found: list[str] = []
    for k in range(start, min(stop, start + 13)):
        tok = text.tokens[k]
        if k > start and text.breaks[k]:
            break
        if tok.norm in _TERM_STOPS and not (through and tok.norm in _RELATIVES):
            break
        if not through and found and tok.norm in _TERM_ENDS:
            break
        stem = tok.norm if tok.number else text.stems[k]
        if (not through and subject and found and stem and text.verb(k) and text.tokens[k - 1].norm != "to"
                and not (k + 1 < len(text.tokens) and text.tokens[k + 1].norm in _PAIRED)):
            break  # the subject ends at its verb (not at "Exports to", "Ticket prices for": nouns before "to", "for")
        if stem and tok.norm not in _TERM_ENDS:  # "than among smokers"
            found.append(stem)
    return Counter(list(dict.fromkeys(found))[: COMPARED_TERMS * (3 if through else 1)])


def _compared_sides_swapped(claim: Text, i: int, support: Text, j: int) -> bool:
    return _swapped(_sides(claim, i), _sides(support, j))


def _swapped(c: tuple[Counter[str], Counter[str]] | None, s: tuple[Counter[str], Counter[str]] | None) -> bool:
    """The claim's compared terms `c` stand on the other sides of the support's `s`."""
    if c is None or s is None:
        return False
    (ca, cb), (sa, sb) = c, s
    ca_only, cb_only = set(ca) - set(cb), set(cb) - set(ca)
    straight = len(ca_only & set(sa)) + len(cb_only & set(sb))
    crossed = len(ca_only & set(sb)) + len(cb_only & set(sa))
    return (crossed >= 2 and crossed > straight) or (crossed == 1 and straight == 0)


def _equatives(text: Text) -> list[tuple[int, int]]:
    """Each "as ADJ as" of the text that orders its terms, as (the first content word between, the second "as"):
    one with a multiple ("twice as likely to ... as", "three times as many ... as") or a negation ("not as
    durable as"). A bare one states an equality, which reads the same either way round."""
    out = []
    n = len(text.tokens)
    for k in range(1, n):
        if text.tokens[k].norm != "as":
            continue
        before = text.tokens[k - 1].norm
        ordered = text.tokens[k - 1].number or before in _EQUATIVE_NEGATORS or (
            before == "times" and k > 1 and text.tokens[k - 2].number)
        if not ordered:
            continue
        for m in range(k + 2, min(n, k + 9)):
            if text.breaks[m]:
                break
            if text.tokens[m].norm == "as":
                word = next((w for w in range(k + 1, m) if text.stems[w]), None)
                if word is not None:
                    out.append((word, m))
                break
    return out


def _equative_swapped(claim: Text, support: Text) -> str:
    """A note when an "as ... as" comparison of the claim puts its terms on the other sides of the support's
    same one ("Men were twice as likely as women to ..." over "Women were twice as likely as men to ..."); else
    ''."""
    theirs = _equatives(support)
    for w, m in _equatives(claim):
        for w2, m2 in theirs:
            if (support.all_stems[w2] == claim.all_stems[w]
                    and (w in claim.negated_heads) == (w2 in support.negated_heads)
                    and _swapped(_sides(claim, w, m), _sides(support, w2, m2))):
                return (f"comparison: the claim's 'as {claim.tokens[w].surface} as' compares its terms the other way "
                        "round from its support")
    return ""
