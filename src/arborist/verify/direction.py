"""Direction and comparison (DIRECTION_MISMATCH, DIRECTION_UNSTATED, COMPARISON_MISMATCH).

Every direction word of the claim (`direction_pairs`: increase vs decrease, improve vs worsen, before vs after,
...) is lined up with the support's words of the same pair by neighbourhood; it must meet a word of its own side
(a negated word of a complementary pair counts as the other side: "not required" = "dispensable"). Meeting the
other side is DIRECTION_MISMATCH; meeting none, for a `required` pair, DIRECTION_UNSTATED (neighbourhood score
below `STATED`). A capitalised word inside a sentence is a name, never a direction word ("Long Island").

A comparison ("A is more X than B", "twice as likely as B") must not put A's words on B's side: its terms are
read as phrases (`_sides`), so the words both share ("rice", "in adults") do not hide the swap. The same
comparison from the other side ("B is longer than A" for "A is shorter than B") is no finding.
"""

from __future__ import annotations

from collections import Counter
from itertools import takewhile

from arborist.verify.lexicon import Lexicon, Pair
from arborist.verify.reading import (
    BOUNDS,
    TERM_ENDS,
    VERB_WORDS,
    Finding,
    Text,
    align,
    clause_of,
    event_side,
    negated_phrase,
)
from arborist.verify.reasons import Reason
from arborist.verify.roles import crossed_over, name_positions, named_sides

STATED = 0.5  # least neighbourhood score at which a support's direction word speaks of the claim's
COMPARED_TERMS = 2  # content stems that name each compared term: before the comparative, after "than"

# Comparatives that bound a figure with "than" ("less than 10", "more than a third").
_COMPARED_BOUNDS = frozenset("more less fewer greater lower higher".split())

_COMPARE_WORDS = frozenset({"than", "versus", "vs", "compared", "relative", "over"})

# Words no compared term runs past: "than 3.8 are not supported", "than those who did not".
_RELATIVES = frozenset("who which that whose".split())
_TERM_STOPS = VERB_WORDS | _RELATIVES
_PAIRED = TERM_ENDS | {"to", "of"}  # prepositions that open both compared terms: "more to A than to B"
_EQUATIVE_NEGATORS = frozenset("not nearly".split())  # "not as durable as", "nearly as ... as" order their terms

# Pairs of opposite things or qualities, not events: two of their words close together name two things ("rich
# and poor", "the survivors buried the dead"), and a claim word its support also says is stated, wherever the
# opposite stands ("Private donors funded public schools"). The other pairs' words close together make one event
# ("decreased weight gain") and line up by their neighbours ("hired before 2018 ... than hired after 2018").
THING_PAIRS = frozenset("""stance life ease strength wealth sector setting course origin sex membership employment
    memory agreement reward quality alliance daytime inclusion approval taste toughness""".split())


def pair_side(pair: Pair, text: Text, i: int) -> int:
    """Token i's side of `pair` (+1, -1, or 0 for none). Words of one pair close together in one clause
    are one event whose side is the product ("decreased weight gain" is down, as is "reduces ... gain"):
    the first word carries it, the later ones none."""
    side = event_side(pair, text.event_stems[i])
    if side and text.tokens[i].capitalised and not text.initial[i]:
        return 0  # a name: "Long Island", "the Rising Sun inn"
    if not side or pair.name in THING_PAIRS:
        return side  # "rich and poor", "the survivors buried the dead": two words, two things
    if any(event_side(pair, text.event_stems[k])
           for k in takewhile(lambda k: not text.breaks[k + 1], range(i - 1, max(-1, i - 4), -1))):
        return 0  # part of an event that starts earlier
    for k in range(i + 1, min(len(text.tokens), i + 4)):
        if text.breaks[k] or _bound(text, k):
            break  # "fell below 10 percent" falls: a bound on a figure after the word is no part of its event
        if other := event_side(pair, text.event_stems[k]):
            side *= other
            break
    return side


# Pairs whose two sides say one event from its two ends: "Ashgate beat Riverton" is "Riverton lost to Ashgate".
CONVERSE_PAIRS = frozenset({"contest"})


def sides_crossed(claim: Text, i: int, support: Text, j: int) -> bool:
    """The words (or names) on each side of claim token i stand on the other side of support token j."""
    flip = claim.passive_voice(i) != support.passive_voice(j)  # "was won by Leclerc" is "Leclerc won"

    def crossed(mine: tuple[frozenset[str], frozenset[str]], theirs: tuple[frozenset[str], frozenset[str]]) -> bool:
        return crossed_over(*mine, theirs[flip], theirs[not flip])

    return crossed(claim.roles(i)[:2], support.roles(j)[:2]) or crossed(
        named_sides(claim, i, name_positions(claim, support)), named_sides(support, j, name_positions(support, claim)))


def _bound(text: Text, k: int) -> bool:
    """Token k bounds a figure: "below 10", "under 5", "less than 10", "more than a third"."""
    n, norm = len(text.tokens), text.tokens[k].norm
    if norm in BOUNDS and k + 1 < n and text.tokens[k + 1].number:
        return True
    return (norm in _COMPARED_BOUNDS and k + 2 < n and text.tokens[k + 1].norm == "than"
            and (text.tokens[k + 2].number or text.tokens[k + 2].norm in ("a", "an", "half")))


def _sides(text: Text, i: int, pivot: int | None = None) -> tuple[Counter[str], Counter[str]] | None:
    """The two terms comparative i compares in its clause, as content stems and numbers: B, the term after its
    than/compared/versus (or the given `pivot`: the second "as" of "as likely as"); A, the phrase after the same
    preposition when B opens with one ("higher in the valley than on the ridge"), else the subject ("White rice
    contains more fibre than ..."). Read so, the terms leave out the words both share with the sentence, which
    would hide a swap; terms the same so far are read on (`_term`, `through`)."""
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
        if pivot is None or clause_of(text, pivot)[1] > i:
            return None
    first, _ = clause_of(text, i)
    opening = text.tokens[pivot + 1].norm if pivot + 1 < n and not text.breaks[pivot + 1] else ""
    inner, end = None, pivot  # where term A opens and ends, when B opens with a preposition
    if pivot > i and opening in _PAIRED:
        inner = next((k for k in range(pivot - 1, i, -1) if text.tokens[k].norm == opening), None)
        if inner is None and opening in TERM_ENDS:
            inner = next((k for k in range(i + 1, pivot) if text.tokens[k].norm in TERM_ENDS), None)
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
        if not through and found and tok.norm in TERM_ENDS:
            break
        stem = tok.norm if tok.number else text.stems[k]
        if (not through and subject and found and stem and text.verb(k) and text.tokens[k - 1].norm != "to"
                and not (k + 1 < len(text.tokens) and text.tokens[k + 1].norm in _PAIRED)):
            break  # the subject ends at its verb (not at "Exports to", "Ticket prices for": nouns before "to", "for")
        if stem and tok.norm not in TERM_ENDS:  # "than among smokers"
            found.append(stem)
    return Counter(list(dict.fromkeys(found))[: COMPARED_TERMS * (3 if through else 1)])


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
        m = next((m for m in range(k + 2, min(n, k + 9)) if text.breaks[m] or text.tokens[m].norm == "as"), None)
        if m is not None and not text.breaks[m] and (
                word := next((w for w in range(k + 1, m) if text.stems[w]), None)) is not None:
            out.append((word, m))
    return out


def equative_swapped(claim: Text, support: Text) -> str:
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


def direction_findings(claim: Text, support: Text, lex: Lexicon) -> tuple[list[Finding], set[int]]:
    """DIRECTION_UNSTATED, DIRECTION_MISMATCH and COMPARISON_MISMATCH findings of the claim against its support,
    and the claim tokens in the clause of a comparison restated from its other side (the role checks skip them)."""
    findings: list[Finding] = []
    # direction, event by event (a word in several pairs needs one of them stated)
    support_events = {
        pair.name: [(j, False) for j in range(len(support.tokens)) if pair_side(pair, support, j)] for pair in lex.pairs
    }
    converse: set[int] = set()  # claim tokens in the clause of a comparison restated from its other side
    opposed: list[tuple[int, Finding]] = []  # words of the other side from their support's
    crossed: list[tuple[int, Finding]] = []  # words whose compared terms are swapped, in agreement with their support
    for i in range(len(claim.tokens)):
        pairs = [(pair, side) for pair in lex.pairs if (side := pair_side(pair, claim, i))]
        stated = False
        word = claim.tokens[i].surface if pairs else ""
        for pair, side in pairs:
            events = support_events[pair.name]
            hit = align(claim, i, events, support, same_word_bonus=True)
            if hit is None or hit[2] < STATED:
                continue
            stated = True
            j = hit[0]
            if i in claim.unlisted and j in support.unlisted and claim.all_stems[i] != support.all_stems[j]:
                continue  # "louder than" and "quieter than": two comparatives no pair relates, neither way
            s_side = pair_side(pair, support, j)
            same = [m for m, x in enumerate(support.event_stems) if x == claim.event_stems[i]]
            if pair.name in THING_PAIRS and side != s_side and same and (i in claim.negated_heads) == any(
                    m in support.negated_heads for m in same):
                continue  # the support says the claim's own word too ("Private donors funded public schools")
            c_neg, s_neg = i in claim.negated_heads, j in support.negated_heads
            if pair.complementary:
                agree = (side if not c_neg else -side) == (s_side if not s_neg else -s_side)
            else:
                agree = side == s_side and c_neg == s_neg
            swapped = _swapped(_sides(claim, i), _sides(support, j)) or (
                pair.name in CONVERSE_PAIRS and sides_crossed(claim, i, support, j))
            if not agree and swapped and not pair.complementary and c_neg == s_neg:
                first, end = clause_of(claim, i)  # "A is shorter than B" over "B is longer than A"
                converse.update(range(first, end))
            elif not agree:
                opposed.append((i, Finding(Reason.DIRECTION_MISMATCH, (
                    f"direction: the claim's '{negated_phrase(claim, claim.negated_heads.get(i), i)}' ({pair.name}) is "
                    f"'{negated_phrase(support, support.negated_heads.get(j), j)}' in its support"))))
            elif swapped:
                crossed.append((i, Finding(Reason.COMPARISON_MISMATCH, f"comparison: the claim's '{word}' compares its "
                                           "terms the other way round from its support")))
        if pairs and not stated and not claim.compound(i) and any(pair.required for pair, _ in pairs):
            names = "/".join(pair.name for pair, _ in pairs)
            findings.append(Finding(Reason.DIRECTION_UNSTATED, f"direction: the claim's '{word}' ({names}) is stated "
                                    "nowhere near its words in its support"))
    # A comparison restated from its other side turns the words of its clause with it: "nausea was less
    # common with the lower dose than with the higher dose" over "more common with the higher dose than with
    # the lower dose"; "Rovers have won more matches than Ashford" over "Ashford have won fewer ..."
    findings += [finding for i, finding in (*opposed, *crossed) if i not in converse]
    if equative := equative_swapped(claim, support):
        findings.append(Finding(Reason.COMPARISON_MISMATCH, equative))
    return findings, converse
