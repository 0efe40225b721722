"""Quantities: one amount of time, length, mass or volume written in two units is one amount, compared exactly
(docs/verifier.md, "The per-claim checks"). The unit words are `lexicon.UNIT_WORDS`; this module adds their sizes.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from arborist.verify.lexicon import UNIT_WORDS
from arborist.verify.normalize import SCALES, Token, is_ordinal, norm_at, number_values

_YEAR = Decimal(31_557_600)  # a Julian year in seconds, so that twelve months are a year and ten years a decade

#: the size of a unit, by the first word of its group in `lexicon.UNIT_WORDS`: what it measures, and its size in
#: that measure's base unit (seconds, metres, grams, litres). Only units of one exact size: not "ton" (short, long
#: or metric), "gallon" (US or imperial), nor a month as a number of days.
UNIT_SIZES: dict[str, tuple[str, str]] = {
    "ms": ("time", "0.001"), "s": ("time", "1"), "min": ("time", "60"), "h": ("time", "3600"),
    "day": ("time", "86400"), "wk": ("time", "604800"), "fortnight": ("time", "1209600"),
    "mo": ("time", str(_YEAR / 12)), "yr": ("time", str(_YEAR)), "decade": ("time", str(_YEAR * 10)),
    "century": ("time", str(_YEAR * 100)), "millennium": ("time", str(_YEAR * 1000)),
    "mm": ("length", "0.001"), "cm": ("length", "0.01"), "m": ("length", "1"), "km": ("length", "1000"),
    "mi": ("length", "1609.344"), "ft": ("length", "0.3048"), "yd": ("length", "0.9144"),
    "mg": ("mass", "0.001"), "mcg": ("mass", "0.000001"), "g": ("mass", "1"), "kg": ("mass", "1000"),
    "lb": ("mass", "453.59237"), "oz": ("mass", "28.349523125"),
    "ml": ("volume", "0.001"), "l": ("volume", "1"),
}
# a unit's words, each to its measure and size; one letter is never read as a unit here ("'s", "3 m" for million)
_UNITS: dict[str, tuple[str, Decimal]] = {
    word: (UNIT_SIZES[group.split()[0]][0], Decimal(UNIT_SIZES[group.split()[0]][1]))
    for group in UNIT_WORDS if group.split()[0] in UNIT_SIZES for word in group.split() if len(word) > 1}
_ANY_UNIT = frozenset(word for group in UNIT_WORDS for word in group.split())
_ONE = frozenset(("a", "an", "one"))
#: words around an amount that make it inexact: an approximation, a bound or a range ("about 2 hours", "more than a
#: century", "2 hours or more", "as long as 2 hours")
INEXACT_BEFORE = frozenset(("about", "around", "roughly", "approximately", "nearly", "almost", "over", "under", "some",
                            "circa", "upwards", "than", "least", "most", "to", "close", "as", "within", "between"))
INEXACT_AFTER = frozenset(("or", "plus", "odd"))


@dataclass(frozen=True)
class Quantity:
    """An amount: what it measures, its size in the base unit, the number tokens that state it, the span of
    tokens it takes (first..unit), and whether words around it make it inexact."""

    measure: str
    size: Decimal
    numbers: tuple[int, ...]
    first: int
    unit: int
    inexact: bool


def _glued(text: str, tok: Token) -> bool:
    """A number that is part of a fraction, range, ratio or clock time ("1/2", "2-3", "24/7", "14:30")."""
    return text[tok.start - 1 : tok.start] in ("/", "-", "\u2013", ":") or text[tok.end : tok.end + 1] in (
        "/", "-", "\u2013", ":")


def _half_after(tokens: list[Token], k: int) -> bool:
    """Tokens k.. read "and a half"."""
    return norm_at(tokens, k) == "and" and norm_at(tokens, k + 1) == "a" and norm_at(tokens, k + 2) == "0.5"


def _rate(tokens: list[Token], k: int) -> bool:
    """The "a" at token k makes a rate, not an amount: "twice a day", "three times a week", "60 miles an hour". The
    period of a sum ("£4.2 million a year") stays an amount, which evidence stating other amounts of time must
    state ("over the next three years" does not)."""
    before = tokens[k - 1] if k else None
    return before is not None and (before.number or before.norm in ("times", "per")
                                   or (before.norm in _ANY_UNIT and before.norm not in SCALES))


def _one(text: str, tokens: list[Token], k: int) -> Quantity | None:
    """The amount that starts at token k: "3 minutes", "two and a half hours", "one and a half hours", "half an
    hour", "a year and a half", "a decade"."""
    tok = tokens[k]
    numbers: list[int] = []
    if tok.number and not is_ordinal(tok) and not _glued(text, tok):
        values = number_values(tokens, k)
        if len(values) != 1:  # "2 million years": a count of something else
            return None
        (value,) = values
        numbers.append(k)
    elif tok.norm in _ONE and not _rate(tokens, k):
        value = Decimal(1)
    else:
        return None
    j = k + 1
    if _half_after(tokens, j):  # "two and a half hours", "one and a half hours"
        value, j = value + Decimal("0.5"), j + 3
        numbers.append(j - 1)
    elif value == Decimal("0.5") and norm_at(tokens, j) in ("a", "an"):  # "half an hour"
        j += 1
    unit = _UNITS.get(norm_at(tokens, j))
    if unit is None:
        return None
    if not numbers and _half_after(tokens, j + 1):  # "a year and a half"
        value += Decimal("0.5")
        numbers.append(j + 3)
    end = max([j, *numbers])
    before, after = norm_at(tokens, k - 1), norm_at(tokens, end + 1)
    # a range is no exact amount either: "between 2 and 3 hours", "2 or 3 hours"
    ranged = before in ("and", "or") and k >= 2 and tokens[k - 2].number
    inexact = before in INEXACT_BEFORE or after in INEXACT_AFTER or ranged or norm_at(tokens, k - 2) == "as"
    return Quantity(unit[0], value * unit[1], tuple(numbers), k, end, inexact)


def quantities(text: str, tokens: list[Token]) -> list[Quantity]:
    """Every amount `text` (tokenised as `tokens`) states, an amount written in several units summed when nothing
    but spaces or "and" stand between its parts ("3 minutes 2 seconds", "2 hours and 30 minutes"; not "2 hours. 2
    hours later", nor a list "5 km, 10 km")."""
    out: list[Quantity] = []
    k = 0
    while k < len(tokens):
        found = _one(text, tokens, k)
        if found is None:
            k += 1
            continue
        if out and out[-1].measure == found.measure and not out[-1].inexact:
            gap = text[tokens[out[-1].unit].end : tokens[k].start].strip()
            if gap in ("", "and") and tokens[out[-1].unit].norm != tokens[found.unit].norm:
                last = out.pop()
                found = Quantity(found.measure, last.size + found.size, (*last.numbers, *found.numbers), last.first,
                                 found.unit, last.inexact or found.inexact)
        out.append(found)
        k = found.unit + 1
    return out


def _states(amount: Quantity, said: list[Quantity]) -> bool:
    """Some amount of `said` is `amount`, as exactly: "about 2 hours" does not state "120 minutes"."""
    return any(q.measure == amount.measure and q.size == amount.size and (amount.inexact or not q.inexact)
               for q in said)


def stated_in_other_units(claim: list[Token], amounts: list[Quantity], said: list[Quantity]) -> set[str]:
    """The number norms of the claim (its tokens, and `amounts`: its `quantities`) every use of which is in an amount
    that `said` states (a norm used once in an amount and once as a count, "in 48 hours, 48 soldiers", is not)."""
    covered = {k for q in amounts if _states(q, said) for k in q.numbers}
    return {tok.norm for k, tok in enumerate(claim) if k in covered
            and all(j in covered for j, other in enumerate(claim) if other.norm == tok.norm)}


def unstated_amounts(text: str, claim: list[Token], amounts: list[Quantity], said: list[Quantity]) -> list[str]:
    """The claim's amounts (`amounts`, its `quantities`) written without a number ("a week", "a fortnight", "nearly
    a decade") that `said` does not state though it states an amount of the same kind ("eight days"): a number
    check never sees them."""
    return [text[claim[q.first].start : claim[q.unit].end] for q in amounts
            if not any(claim[k].number for k in q.numbers) and not _states(q, said)
            and any(other.measure == q.measure for other in said)]
