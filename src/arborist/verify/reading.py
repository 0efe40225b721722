"""A claim or its support read once: tokens, content stems, clause breaks, negated heads and event words.

Every veto (`vetoes`) compares two `Text`s; this module reads them (`Text.of`, which also reads phrases as what
they mean: "by the time" is "before") and lines their words up (`align`: by the content stems around each word in
its clause; a word with a negative prefix lines up with its base, flipped). `states`, `subject_end` and
`names_thing` read a short text's shape for the verifier's other checks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import islice, takewhile

from arborist.text import stem_all
from arborist.verify.lexicon import NEVER_NOUNS, PAST_FORMS, SUBJECT_PRONOUNS, Lexicon, Pair
from arborist.verify.normalize import (
    CLAUSE_MARKS,
    HYPHENS,
    Token,
    is_stopword,
    norm_at,
    sentence_initials,
    token_stems,
    tokenise,
)
from arborist.verify.reasons import Reason

MAX_TOKENS = 1000  # only so many tokens of a claim or support are compared: bounds the work on hostile input
WINDOW = 5  # content stems on each side
MIN_BASE = 5  # least letters of a base after a negative prefix ("inform" is no "form")
# Words between a negator and its head that do not take the negation themselves.
_SKIP = frozenset(
    "significantly statistically necessarily directly always fully completely entirely consistently substantially "
    "markedly appreciably detectably clearly measurably any only yet also further be been being have has had "
    "a an the of to in on at for by with from its their this that these those there it is are was were do does did "
    "seem seems seemed appear appears appeared".split()
)
_QUANTIFIER_NEGATORS = frozenset("none nobody nothing neither".split())  # deny their clause wherever they stand
# Event stems that some phrases are read as ("by the time" is before, "has to" must, "went up" increase).
_BEFORE, _AFTER, _SUPPORT, _MUST, _INCREASE, _DECREASE = stem_all(
    ["before", "after", "support", "must", "increase", "decrease"])
# Verbs of motion whose "up" or "down" is a rise or a fall ("traffic went up by 18 percent").
_GOES = frozenset("go goes went gone going".split())
# What a lead or a deficit is counted in ("up 5 points in the poll", "down 2 goals"): no rise or fall.
_MARGINS = frozenset("points point goals goal runs wickets strokes shots seats votes places".split())
_SPEEDS = frozenset("speed speeds speeded speeding sped".split())

BOUNDS = dict(zip(("over", "above", "exceeding", "exceeded", "exceeds", "exceed", "surpassed", "under", "below"),
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
# Verbs of ceasing, which negate a gerund after them (only in this check: word overlap reads them as words).
CESSATION = frozenset("stops stopped ceases ceased avoids avoided".split())
# Words of a level, not verbs, after "declined to" ("declined to less than 5%", "to its lowest level").
_LEVEL_WORDS = frozenset("less more fewer record lowest highest below above under over pre post nearly almost about "
                         "around roughly zero".split())
# Verbs that deny the verb after their "to" ("declined to rule", "neglected to file"); not "prices declined".
REFUSALS = frozenset("declines declined declining neglects neglected omits omitted yet".split())  # "has yet to"
_CLAUSE_WORDS = frozenset("but whereas while although though however yet unlike".split())

# Words that end the term after "than" ("than brown rice per serving", "than women in equivalent roles").
TERM_ENDS = frozenset("in on at per for during among across within by from with after before".split())

COPULAS = frozenset("is are was were be been being".split())
POSSESSIVE = frozenset("have has had having".split())
DETERMINERS = frozenset("the a an this that these those its their his her our your my".split())
ROLE_TERMS = 3  # content stems on each side of a verb that name its roles
AUXILIARIES = frozenset("is are was were be been being has have had do does did will would can could may might must "
                         "should to".split())
# Auxiliaries and copulas that end a phrase before them ("Rainfall across the country | was ...").
VERB_WORDS = AUXILIARIES - {"being", "to"}
# After one of these a verb takes no object: "cancer risk increases with smoking" = "smoking increases cancer risk".
_INTRANSITIVE = frozenset("with in among after following during upon across over under at for when as "
                          "within".split())

# Words ending in -ed that are no past forms.
_NOT_PAST = frozenset("need exceed proceed succeed feed seed speed breed bleed heed weed reed deed indeed embed "
                      "shed shred bred sled hundred kindred sacred naked wicked".split())


def past_form(norm: str) -> bool:
    """An irregular past or a word in -ed that is a past form ("freed", "agreed"; not "red", "need", "exceed")."""
    return norm in PAST_FORMS or (norm.endswith("ed") and len(norm) > 3 and norm not in _NOT_PAST)


# Endings of nouns, which the base-form-after-a-plural rule does not read as verbs ("species diversity").
_NOUN_ENDINGS = ("ity", "ion", "ness", "ment", "ance", "ence", "ism", "ist", "ure", "age", "ing", "ly")


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
        # phrases read as what they mean, each rule in turn at every token (no rule reads another's result)
        events, n = text.event_stems, len(tokens)
        for k, tok in enumerate(tokens):
            norm, prev, nxt = tok.norm, norm_at(tokens, k - 1), norm_at(tokens, k + 1)
            # a comparative no direction pair lists is "more" ("denser than" over "less dense than"; "heavier in
            # August than in March")
            if (norm.endswith("er") and len(norm) > 4 and stems[k] and text._before_than(k)
                    and not any(event_side(p, all_stems[k]) for p in lex.pairs)):
                events[k] = "more"
                text.unlisted.add(k)
            if norm in BOUNDS and k + 1 < n and tokens[k + 1].number:
                events[k] = BOUNDS[norm]  # "over 3,000" is "more than 3,000", "under 50" is "less than 50"
            if norm in ("has", "have", "had") and nxt == "to":
                events[k] = _MUST  # "has to be kept cold"
            if norm in ("up", "down") and prev in _GOES:
                events[k] = _INCREASE if norm == "up" else _DECREASE  # "went up" is "rose", "went down" "fell"
            elif norm == "up" and prev in _SPEEDS:
                events[k] = _INCREASE  # "speeding up" quickens
            figure = k + 1 if k + 1 < n and tokens[k + 1].number else k + 2 if (
                nxt in ("from", "by") and k + 2 < n and tokens[k + 2].number) else None
            if norm in ("up", "down") and figure is not None and not breaks[k + 1] and not _a_score(text, figure):
                # "was up 12 percent", "down 3 percent", ", up from 1.6 million": a figure's rise or fall
                events[k] = _INCREASE if norm == "up" else _DECREASE
            if norm == "once" and prev not in AUXILIARIES and (nxt in DETERMINERS or nxt in SUBJECT_PRONOUNS):
                # "recovered once the ban was lifted": after it (not "was once the largest")
                end = next((m for m in range(k + 1, n) if breaks[m]), n)
                if any(t.norm in AUXILIARIES or t.norm.endswith("ed") for t in tokens[k + 2 : min(end, k + 7)]):
                    events[k] = _AFTER  # a clause follows: not "the factory, once the town's largest employer,"
            if norm == "when" and any(
                    tokens[m].norm == "already" and not any(breaks[m + 1 : k]) for m in range(max(0, k - 6), k)):
                events[k] = _BEFORE  # "had already reached capacity when the storm arrived": before it
            if norm == "well" and prev == "as" and nxt == "as":
                events[k] = "as"  # "as well as" is "and", not a quality
            if norm in ("favour", "favor") and prev == "in":
                events[k] = _SUPPORT  # "voted in favour of banning cars" is support, not a favourable outcome
            # "by the time" and "in the run-up to" are "before" ("had retired by the time the album was released")
            if norm == "time" and prev == "the" and norm_at(tokens, k - 2) == "by" and not breaks[k - 2]:
                events[k] = _BEFORE  # "B by the time A"; "By the time A, B" puts B first the other way
            if (norm in ("run", "lead", "build") and nxt == "up" and norm_at(tokens, k + 2) == "to"
                    and raw[tok.end : tokens[k + 1].start] in HYPHENS):
                events[k] = events[k + 1] = _BEFORE
        text.negated_heads = text._heads(lex)
        for j, s in enumerate(all_stems):
            text.positions.setdefault(s, []).append(j)
            base = prefix_base(s, lex.prefixes)
            if base is not None:
                text.prefixed.setdefault(base, []).append(j)
        return text

    def _before_than(self, k: int) -> bool:
        """Token k stands right before "than", or before a phrase that opens with a preposition and runs to
        "than" ("heavier in August than in March")."""
        nxt = norm_at(self.tokens, k + 1)
        if nxt == "than" or nxt not in TERM_ENDS:
            return nxt == "than"
        m = next((m for m in range(k + 2, min(len(self.tokens), k + 7))
                  if self.breaks[m] or self.tokens[m].norm == "than"), None)
        return m is not None and not self.breaks[m]

    def _refuses(self, i: int) -> bool:
        """Token i declines the verb after its "to" ("declined to rule", "has yet to turn"): not a fall to a level
        ("declined to a record low", "declined to less than 5%", "to pre-war levels") nor a passive's purpose
        ("The chapter was omitted to save space")."""
        n = len(self.tokens)
        if self.tokens[i].norm not in REFUSALS or i + 2 >= n or self.tokens[i + 1].norm != "to":
            return False
        k = i + 3 if self.tokens[i + 2].norm == "be" and i + 3 < n else i + 2  # "has yet to be approved"
        verb = self.tokens[k]
        if (verb.number or verb.norm in DETERMINERS or verb.norm in _LEVEL_WORDS or not self.stems[k]
                or (k + 1 < n and self.raw[verb.end : self.tokens[k + 1].start] in HYPHENS)):
            return False
        return self.tokens[i].norm == "yet" or not (i > 0 and self.tokens[i - 1].norm in COPULAS)  # "is yet to"

    def _heads(self, lex: Lexicon) -> dict[int, int]:
        heads: dict[int, int] = {}
        n = len(self.tokens)
        for i, tok in enumerate(self.tokens):
            # "stopped producing" denies the producing; "stopped two penalties" denies nothing
            ceases = i + 1 < n and ((tok.norm in CESSATION and self.tokens[i + 1].norm.endswith("ing"))
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
                        _, end = clause_of(self, j)
                        for k in range(j + 1, end):
                            if self.tokens[k].norm in TERM_ENDS or self.tokens[k].number:
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
                        first, end = clause_of(self, i)
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
        first, _ = clause_of(self, i)
        for k in range(first, i - 1):
            if self.stems[k] and self.tokens[k].norm not in _CLAUSE_WORDS:
                heads.setdefault(k, i)

    def clause_negated(self, i: int, other: Text) -> bool:
        """Whether token i's clause negates a word that `other` denies with its whole clause: a clause denied
        as a whole ("No survivors were found") agrees with one that denies the same thing another way ("There
        were no survivors found"), not with one that negates something else ("... who did not receive ...")."""
        first, end = clause_of(self, i)
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
        if i > 0 and (self.tokens[i - 1].number or self.tokens[i - 1].norm in SCALE_WORDS):
            return False  # "40 million euros", "12 sailors": a counted noun
        if self.tokens[i].capitalised and not self.initial[i]:
            return False  # "Harlan Foods", "Morgan Stanley": a name
        if norm in _VERB_MODIFIERS or norm in ("yet", "also", "just", "even", "only"):
            return False  # "has yet to", "has also": an adverb after the auxiliary
        if ((i > 0 and self.tokens[i - 1].norm in AUXILIARIES) or past_form(norm)
                or (norm.endswith("s") and not norm.endswith(("ss", "us", "is")))):
            return True
        # a base form after a plural subject ("low levels cause depression", "wolves prey on elk")
        nxt = norm_at(self.tokens, i + 1)
        return (i > 0 and is_plural(self.tokens[i - 1]) and not self.tokens[i].capitalised
                and not norm.endswith(_NOUN_ENDINGS) and not (nxt.endswith("s") and self.stems[i + 1] is not None))

    def passive_voice(self, i: int) -> bool:
        """'reduced by', or a participle after a copula with a 'by' later in its clause ("is converted into
        chemical energy by photosynthesis")."""
        if self.passive(i):
            return True
        k = next((k for k in range(i - 1, 0, -1) if self.tokens[k].norm not in ("not", "never") and not (
            self.tokens[k].norm.endswith("ly") and len(self.tokens[k].norm) > 4)), 0)  # "was not reported ... by"
        if k == i or self.tokens[k].norm not in COPULAS:
            return False
        _, end = clause_of(self, i)
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
        before = takewhile(lambda k: not self.breaks[k + 1], range(i - 1, -1, -1))
        after = takewhile(lambda k: not self.breaks[k], range(i + 1, len(self.tokens)))
        return ([*islice((x for k in before if (x := read(k)) is not None), limit)],
                [*islice((x for k in after if (x := read(k)) is not None), limit)])


def prefix_base(stem: str, prefixes: tuple[str, ...]) -> str | None:
    return next((stem[len(p) :] for p in prefixes if stem.startswith(p) and len(stem) - len(p) >= MIN_BASE), None)


def occurrences(stem: str, support: Text, lex: Lexicon) -> list[tuple[int, bool]]:
    """(index, flipped) of support tokens that are `stem`, or its negative-prefixed form, or its base."""
    base = prefix_base(stem, lex.prefixes)
    same = [(j, False) for j in support.positions.get(stem, [])]
    flipped = [(j, True) for j in support.positions.get(base, [])] if base is not None else []
    flipped += [(j, True) for j in support.prefixed.get(stem, [])]
    return sorted(same + flipped)


def align(
    claim: Text, i: int, candidates: list[tuple[int, bool]], support: Text, same_word_bonus: bool = False
) -> tuple[int, bool, float] | None:
    """The candidate whose neighbourhood best matches claim token i's, with its score. Left and right
    sides crossed count half when one side only is passive ("reduced by"), else a quarter.
    With `same_word_bonus`, a candidate event that uses the claim's very word (within its next three
    words: "promotes degradation" for "degrading") scores one more."""
    if not candidates:
        return None
    (left, right), own = claim.context(i), claim.all_stems[i]

    def score(j: int) -> float:
        (s_left, s_right), cross = support.context(j), 0.5 if claim.passive(i) != support.passive(j) else 0.25
        base = len(left & s_left) + len(right & s_right) + cross * (len(left & s_right) + len(right & s_left))
        return base + (1.0 if same_word_bonus and own in support.all_stems[j : j + 4] else 0.0)

    # ties go to the candidate at the most similar relative position (claims and quotes run parallel)
    where = i / max(1, len(claim.tokens))
    best = max(candidates, key=lambda c: (score(c[0]), -abs(c[0] / max(1, len(support.tokens)) - where), -c[0]))
    return best[0], best[1], score(best[0])


@dataclass(frozen=True)
class Finding:
    reason: Reason
    note: str


def event_side(pair: Pair, stem: str) -> int:
    return 1 if stem in pair.up else -1 if stem in pair.down else 0


def states(raw: str, lex: Lexicon) -> bool:
    """Whether a short text states something rather than names it: a lower-case verb between two words
    ("DUSP4 increases apoptosis", "cats eat mice"); "14 days", "Tesla coils" and "United States" only name."""
    text = Text.of(raw, lex)
    return any(not (tok.capitalised or tok.number or before.number) and text.stems[k]
               and (text.stems[k - 1] or before.capitalised) and (text.stems[k + 1] or after.number) and text.verb(k)
               for k, (before, tok, after) in enumerate(zip(text.tokens, text.tokens[1:], text.tokens[2:]), 1))


SUBJECT_TOKENS = 6  # a sentence's subject is told only when its verb comes this early


def subject_end(text: Text) -> int | None:
    """The index of the token that ends a sentence's subject: its first auxiliary or past form, within the first
    SUBJECT_TOKENS tokens and before any comma ("corporal punishment | is usually performed in schools"); None
    where the subject cannot be told so simply ("In 2005, ...", "Amino acids containing sulfur include ...")."""
    for k in range(1, min(len(text.tokens), SUBJECT_TOKENS + 1)):
        if text.breaks[k]:
            return None
        norm = text.tokens[k].norm
        if (norm in AUXILIARIES and norm != "to") or past_form(norm):
            return k
    return None


# Words after which a word names a thing, not an action: "the liver", "than warfarin", "in spinach".
_OPENERS = (DETERMINERS - {"that"}) | TERM_ENDS | {"of", "into", "from", "than"}


def names_thing(text: Text, i: int) -> bool:
    """Token i (not the first) reads as a word naming a thing or a quality, not an action or a manner: after a
    determiner, a preposition or a past form ("the left engine", "contaminated lettuce", "replaced
    detentions"), or where `Text.verb` reads no verb; never after "not" ("did not rise") nor when it ends in -ly."""
    prev, norm = text.tokens[i - 1].norm, text.tokens[i].norm
    if prev in ("not", "never") or norm.endswith("ly"):
        return False
    if prev in _OPENERS or past_form(prev):
        return True
    return not text.verb(i)


def _a_score(text: Text, k: int) -> bool:
    """Number k is a score ("up 3-1") or a margin ("down 2 goals"), not a figure that rose or fell."""
    tokens = text.tokens
    glued = k + 1 < len(tokens) and text.raw[tokens[k].end : tokens[k + 1].start] in ("-", "\u2013") and tokens[k + 1].number
    return glued or (k + 1 < len(tokens) and tokens[k + 1].norm in _MARGINS)


def clause_of(text: Text, i: int) -> tuple[int, int]:
    """The token range [first, end) of the clause holding token i; a clause never runs across a sentence's start
    (`Text.breaks`)."""
    first = next((k for k in range(i, 0, -1) if text.breaks[k]), 0)
    return first, next((k for k in range(i + 1, len(text.tokens)) if text.breaks[k]), len(text.tokens))


# Words that scale a number before its unit ("1.2 million miles").
SCALE_WORDS = frozenset("thousand thousands million millions billion billions trillion".split())

# Negators that deny an object ("received no compensation", "found nothing"): they deny the verb before them too.
_OBJECT_NEGATORS = frozenset("no nothing none".split())


def clause_spans(text: Text) -> list[tuple[int, int]]:
    """The (first, end) token bounds of each clause, in order."""
    starts = [k for k in range(len(text.tokens)) if text.breaks[k]]
    return list(zip(starts, [*starts[1:], len(text.tokens)], strict=True))


def is_plural(tok: Token) -> bool:
    """A plural noun as far as spelling tells: a content word ending in -s (not -ss, -us, -is) or -ies."""
    norm = tok.norm
    return (not tok.number and len(norm) > 3 and not is_stopword(norm) and norm.endswith("s")
            and not norm.endswith(("ss", "us", "is", "ous")))


def after_copula(text: Text, i: int) -> bool:
    """Token i follows a form of "be" ("were given", "was sold"): a passive, with or without its agent."""
    return i > 0 and text.tokens[i - 1].norm in COPULAS


def negated_phrase(text: Text, neg: int | None, i: int) -> str:
    """Token i with its negator (which may stand after it when it denies the whole clause)."""
    if text.tokens[i].norm == "time" and text.event_stems[i] == _BEFORE:
        i, neg = i - 2, i  # "by the time"
    return span_text(text, i, i) if neg is None else span_text(text, min(i, neg), max(i, neg))


def span_text(text: Text, first: int, last: int) -> str:
    """The text as written from token `first` to token `last` (both clamped to the text)."""
    first, last = max(0, first), min(len(text.tokens) - 1, last)
    return text.raw[text.tokens[first].start : text.tokens[last].end]
