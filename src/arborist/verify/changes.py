"""A change read as a value (CHANGE_DROPPED): "Extend the refund window from 30 to 60 days" does not say the
window *is* "30 to 60 days".

Word overlap and the names stage see every number of the claim in such a support; only the "from ... to ..."
around a change word (an amount word of the direction pairs: extend, raise, cut, ...) says the numbers are the
before and after of a change, not a range. A support that states a range ("ages from 5 to 12") has no change word
and is left alone, and so is a claim that states the change itself ("... from 30 to 60 days").
"""

from __future__ import annotations

from arborist.verify.lexicon import Lexicon
from arborist.verify.reading import Text, span_text

# How far before "from" a change word may govern it, in tokens of one clause ("extend the refund window for
# annual plans from 30 to 60 days").
REACH = 8


def _changes(text: Text, lex: Lexicon) -> list[tuple[str, str, int, int]]:
    """Each "from <number> to <number>" of `text` that a change word governs: (first value, second value, index
    of the change word, index of the second number)."""
    tokens = text.tokens
    if not any(tok.norm == "from" for tok in tokens):  # most texts: the change words are not gathered
        return []
    amount = frozenset().union(*(p.up | p.down for p in lex.pairs if p.name == "amount"))
    out = []
    for k, tok in enumerate(tokens):
        if tok.norm != "from":
            continue
        a = next((m for m in range(k + 1, min(len(tokens), k + 3)) if tokens[m].number), None)
        to = None if a is None else next((m for m in range(a + 1, min(len(tokens), a + 4)) if tokens[m].norm == "to"), None)
        b = None if to is None else next((m for m in range(to + 1, min(len(tokens), to + 3)) if tokens[m].number), None)
        if a is None or b is None or any(text.breaks[m] for m in range(k, b + 1)):
            continue
        start = k
        while start > 0 and k - start < REACH and not text.breaks[start]:
            start -= 1
        verb = next((m for m in range(k - 1, start - 1, -1) if text.event_stems[m] in amount), None)
        if verb is not None:
            out.append((tokens[a].norm, tokens[b].norm, verb, b))
    return out


# Words that join two numbers into one range: "30 to 60 days", "between 5 and 7", "10-20", "3 or 4".
_RANGE_JOINS = frozenset({"to", "and", "or", "-", "\u2013"})


def _ranges(text: Text) -> list[set[str]]:
    """The pairs of numbers `text` states as a range: two numbers one join word apart ("30 to 60", "5% to 7%")."""
    tokens = text.tokens
    numbers = [k for k, t in enumerate(tokens) if t.number]
    return [{tokens[i].norm, tokens[j].norm} for i, j in zip(numbers, numbers[1:], strict=False)
            if (j - i == 2 and tokens[i + 1].norm in _RANGE_JOINS) or j - i == 1]


def change_dropped(claim: Text, support: Text, lex: Lexicon) -> str:
    """A note when the support changes a quantity from one number to another and the claim joins both numbers
    into a range without the change ("is 30 to 60 days" over "extend ... from 30 to 60 days"), else ''. A claim
    that says the change in other words ("to ninety minutes, down from four hours") joins no range."""
    theirs = _changes(support, lex)
    if not theirs:
        return ""
    ranges = _ranges(claim)
    own = {(a, b) for a, b, _, _ in _changes(claim, lex)}
    for a, b, verb, end in theirs:
        if ({a, b} in ranges) and (a, b) not in own:
            return (f"change: its support changes it ('{span_text(support, verb, end)}'); the claim states {a} and "
                    f"{b} as a value")
    return ""
