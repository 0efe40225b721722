"""Where a support says its statement holds, and whether the claim keeps it.

"In mice fed a high-fat diet, the compound prevented weight gain" does not back "The compound prevented weight
gain": the claim keeps every word it states and drops the group the result holds for. A restriction is an
opening phrase (OPENERS, unless it only places the text, its method or a time) or a condition (CONDITIONS), and
the claim must state its head, anywhere (`restrictions`, `restriction_dropped`). A part or one made the whole:
`part_made_whole`, `one_made_many`.
"""

from __future__ import annotations

from arborist.verify.lexicon import QUALIFIER_GROUPS
from arborist.verify.normalize import is_decade, is_ordinal, norm_at
from arborist.verify.reading import Text, clause_of, is_plural, span_text

OPENERS = frozenset("in among amongst for on at from when whenever if unless under with within during outside "
                    "inside except".split())

CONDITIONS = frozenset("if unless".split())  # and "provided that"

# After "only", these open a restriction too ("only in mice", "only when heated").
ONLY_OPENERS = frozenset("if when in among for during under unless".split())

# Words that tie a text to what came before or to the work it reports, and restrict nothing ("However, ...",
# "In addition, ...", "In this study, ...", "In adjusted analyses, ..."). `parts` skips them too.
DISCOURSE_WORDS = frozenset(
    """however moreover furthermore additionally therefore thus hence consequently overall notably importantly
    instead meanwhile finally indeed specifically similarly likewise nevertheless nonetheless accordingly
    respectively otherwise addition contrast summary conclusion particular general example instance total
    practice fact turn short brief result sum words comparison response order view light meantime end average
    theory principle contrary whole part effect regard respect terms sense way hand present current study
    studies paper report trial review analysis analyses work article adjusted multivariable multivariate
    univariate sensitivity meta cohort sample dataset data survey experiment experiments""".split()
)

# Words that place a text in time ("In the late 1990s", "On Monday", "In the nineteenth century").
TIME_WORDS = frozenset(
    """january february march april june july august september october november december monday tuesday
    wednesday thursday friday saturday sunday spring summer autumn winter morning evening night today
    yesterday recent recently future past early late mid century centuries decade decades year years month
    months week weeks""".split()
)  # ordinals ("the nineteenth century") are numbers (`normalize.ORDINAL_WORDS`), skipped as such

MAX_OPENER_TOKENS = 10


def restrictions(text: Text) -> list[tuple[int, int, int]]:
    """The text's restrictions as (first, end, head): the token range [first, end) starting at its opener or
    condition word, and the index of its first content word."""
    out: list[tuple[int, int, int]] = []
    tokens, stems, initial, n = text.tokens, text.stems, text.initial, len(text.tokens)
    for i, tok in enumerate(tokens):
        norm = tok.norm
        before = norm_at(tokens, i - 1)
        opens = norm in OPENERS and initial[i]
        only = norm == "only" and before != "not" and i + 1 < n and tokens[i + 1].norm in ONLY_OPENERS
        condition = i > 0 and before not in ("even", "as", "only") and (
            norm in CONDITIONS or (norm == "provided" and i + 1 < n and tokens[i + 1].norm == "that"))
        if not (opens or only or condition) or (i + 1 < n and tokens[i + 1].norm == "otherwise"):
            continue  # "not only in mice but also ...", "unless otherwise stated"
        _, end = clause_of(text, i)
        if opens and (end >= n or end - i > MAX_OPENER_TOKENS or initial[end]):
            continue  # no comma closes it: the sentence itself starts with a preposition
        head = next((k for k in range(i + 1, end) if stems[k]), None)
        if head is None:
            continue
        if opens and (tokens[head].number or is_decade(tokens[head].norm) or any(
                tokens[k].norm in DISCOURSE_WORDS or tokens[k].norm in TIME_WORDS for k in range(i + 1, head + 1))):
            continue  # "In 2010, ...", "In the late 1990s, ...", "In this study, ...", "On Monday, ..."
        out.append((i, end, head))
    return out


def restriction_dropped(claim: Text, support: Text) -> str:
    """A note when the support holds its statement only under a restriction whose head the claim does not state,
    or a number of which it does not state ("For children aged 6 to 11, ..." under a claim on children); else ''.
    A condition that holds numbers, every one of which the claim states, is what the claim is about, not a scope
    it drops ("refunded in full if the customer asks within 30 days" under "the refund window is 30 days")."""
    numbers = {t.norm for t in claim.tokens if t.number}
    for first, end, head in restrictions(support):
        held = {support.tokens[k].norm for k in range(first, end) if support.tokens[k].number}
        if support.tokens[first].norm in CONDITIONS and held and held <= numbers:
            continue
        if support.stems[head] not in claim.content or any(
                support.tokens[k].number and support.tokens[k].norm not in numbers for k in range(head + 1, end)):
            return f"scope: its support holds it only '{span_text(support, first, end - 1)}'; the claim leaves that out"
    return ""


_DENY_ONE = frozenset("not no never nor".split())
# Words that count or quantify a plural before it: the claim says how many itself ("two schools", "some schools").
_COUNTED_BY = frozenset("some several many few most all both various numerous certain other these those".split())


def one_made_many(claim: Text, support: Text) -> str:
    """A note when the support says a thing of one ("One school in the district has replaced ...", "a single
    trial found ...") and the claim of the plural with no count ("Schools in the district have replaced ..."),
    else ''."""
    for k in range(len(support.tokens) - 1):
        single = support.tokens[k].norm == "one" or (
            support.tokens[k].norm == "single" and k > 0 and support.tokens[k - 1].norm in ("a", "one"))
        if single and any(t.norm in _DENY_ONE for t in support.tokens[max(0, k - 2) : k]):
            continue  # "Not a single school ...", "not one school": none
        noun = support.stems[k + 1]
        if not single or noun is None or is_plural(support.tokens[k + 1]):
            continue
        said = claim.positions.get(support.all_stems[k + 1], [])
        if any(claim.tokens[m - 1].norm in ("one", "single") for m in said if m > 0):
            continue  # the claim says "one" too
        for m in said:
            if (not is_plural(claim.tokens[m]) or claim.tokens[m].norm == support.tokens[k + 1].norm
                    or (claim.tokens[m].capitalised and not claim.initial[m])):
                continue  # "Wide World of Sports ... a single sport": a name
            before = claim.tokens[max(0, m - 2) : m]
            if any(t.number or t.norm in _COUNTED_BY for t in before):
                continue
            return (f"scope: its support says it of '{span_text(support, k, k + 1)}'; the claim of "
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


def part_made_whole(claim: Text, support: Text, qualifiers: frozenset[str]) -> str:
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
        return (f"scope: its support says it of '{span_text(support, k, head)}'; the claim of "
                f"'{span_text(claim, max(0, said[0] - 1), said[0])}'")
    return ""
