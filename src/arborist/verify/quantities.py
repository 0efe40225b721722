"""Quantities: one amount of time, length or mass written in two units ("182 seconds" and "3 minutes 2 seconds",
"a decade" and "ten years", "1.5 kilometres" and "1,500 metres") is one amount, so a claim's number stated by its
quote in another unit is stated. Amounts compare exactly: "503 metres" is not "half a kilometre", and "a month" is
not "30 days". See docs/verifier.md, "The per-claim checks".
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from arborist.verify.normalize import Token, number_values

_YEAR = Decimal(31_557_600)  # a Julian year, so that twelve months are a year and ten years a decade

#: unit word -> (what it measures, its size in that measure's base unit: seconds, metres, grams)
UNITS: dict[str, tuple[str, Decimal]] = {
    **{w: ("time", Decimal(1)) for w in ("second", "seconds", "sec", "secs")},
    **{w: ("time", Decimal(60)) for w in ("minute", "minutes", "min", "mins")},
    **{w: ("time", Decimal(3600)) for w in ("hour", "hours", "hr", "hrs")},
    **{w: ("time", Decimal(86_400)) for w in ("day", "days")},
    **{w: ("time", Decimal(604_800)) for w in ("week", "weeks")},
    **{w: ("time", Decimal(1_209_600)) for w in ("fortnight", "fortnights")},
    **{w: ("time", _YEAR / 12) for w in ("month", "months")},
    **{w: ("time", _YEAR) for w in ("year", "years", "yr", "yrs")},
    **{w: ("time", _YEAR * 10) for w in ("decade", "decades")},
    **{w: ("time", _YEAR * 100) for w in ("century", "centuries")},
    **{w: ("time", _YEAR * 1000) for w in ("millennium", "millennia", "millenniums")},
    **{w: ("length", Decimal("0.001")) for w in ("millimetre", "millimetres", "millimeter", "millimeters", "mm")},
    **{w: ("length", Decimal("0.01")) for w in ("centimetre", "centimetres", "centimeter", "centimeters", "cm")},
    **{w: ("length", Decimal(1)) for w in ("metre", "metres", "meter", "meters")},
    **{w: ("length", Decimal(1000)) for w in ("kilometre", "kilometres", "kilometer", "kilometers", "km")},
    **{w: ("mass", Decimal("0.001")) for w in ("milligram", "milligrams", "mg")},
    **{w: ("mass", Decimal(1)) for w in ("gram", "grams")},
    **{w: ("mass", Decimal(1000)) for w in ("kilogram", "kilograms", "kg")},
    **{w: ("mass", Decimal(1_000_000)) for w in ("tonne", "tonnes")},
}
_ONE = frozenset(("a", "an", "one"))
#: words before an amount that make it inexact: an approximation or a bound ("about 2 hours", "more than a century")
INEXACT = frozenset("about around roughly approximately nearly almost over under some circa upwards".split())
INEXACT_PAIRS = frozenset(tuple(p.split()) for p in ("more than", "less than", "fewer than", "at least", "at most",
                                                     "up to", "close to", "just over", "just under", "well over"))


@dataclass(frozen=True)
class Quantity:
    """An amount: what it measures, its size in the base unit, the tokens that state it (numbers, then its unit
    last), and whether a word before it makes it inexact ("about", "more than")."""

    measure: str
    size: Decimal
    numbers: tuple[int, ...]
    first: int = 0
    inexact: bool = False


def _norm(tokens: list[Token], k: int) -> str:
    return tokens[k].norm if 0 <= k < len(tokens) else ""


def _half_after(tokens: list[Token], k: int) -> bool:
    """Tokens k.. read "and a half"."""
    return _norm(tokens, k) == "and" and _norm(tokens, k + 1) == "a" and _norm(tokens, k + 2) == "0.5"


def _one(tokens: list[Token], k: int) -> Quantity | None:
    """The amount that starts at token k, and where it ends: "3 minutes", "two and a half hours", "half an hour",
    "a year and a half", "a decade"."""
    if tokens[k].number:
        values = number_values(tokens, k)
        if len(values) != 1:  # "2 million years": a count of something else
            return None
        (value,) = values
        numbers = [k]
        j = k + 1
        if _half_after(tokens, j):  # "two and a half hours"
            value, j = value + Decimal("0.5"), j + 3
            numbers.append(j - 1)
        elif value == Decimal("0.5") and _norm(tokens, j) in ("a", "an"):  # "half an hour"
            j += 1
    elif tokens[k].norm in _ONE and not _rate(tokens, k):  # "a decade", "a year and a half"
        value, numbers, j = Decimal(1), [], k + 1
    else:
        return None
    unit = UNITS.get(_norm(tokens, j))
    if unit is None:
        return None
    if not tokens[k].number and _half_after(tokens, j + 1):
        value += Decimal("0.5")
        numbers.append(j + 3)
    before = (_norm(tokens, k - 2), _norm(tokens, k - 1))
    return Quantity(unit[0], value * unit[1], (*numbers, j), k, before[1] in INEXACT or before in INEXACT_PAIRS)


def _rate(tokens: list[Token], k: int) -> bool:
    """The "a" at token k makes a rate, not an amount: "twice a day", "three times a week", "five days a week"."""
    before = tokens[k - 1] if k else None
    return before is not None and (before.number or before.norm in ("times", "per") or before.norm in UNITS)


def quantities(tokens: list[Token]) -> list[Quantity]:
    """Every amount the tokens state, an amount written in several units summed ("3 minutes 2 seconds", "2 hours
    and 30 minutes"). `numbers` ends with the unit's token, which the next amount of a sum must follow."""
    out: list[Quantity] = []
    k = 0
    while k < len(tokens):
        found = _one(tokens, k)
        if found is None:
            k += 1
            continue
        end = found.numbers[-1]
        if out and out[-1].measure == found.measure and (
                k == out[-1].numbers[-1] + 1 or (k == out[-1].numbers[-1] + 2 and _norm(tokens, k - 1) == "and")):
            last = out.pop()
            found = Quantity(found.measure, last.size + found.size, (*last.numbers[:-1], *found.numbers), last.first,
                             last.inexact)
        out.append(found)
        k = end + 1
    return out


def _states(amount: Quantity, said: list[Quantity]) -> bool:
    """Some amount of `said` is `amount`, as exactly: "about 2 hours" does not state "120 minutes"."""
    return any(q.measure == amount.measure and q.size == amount.size and (amount.inexact or not q.inexact)
               for q in said)


def stated_in_other_units(claim: list[Token], pool: list[list[Token]]) -> set[str]:
    """The number norms of the claim that state an amount `pool` (token lists) states, in whatever units."""
    said = [q for tokens in pool for q in quantities(tokens)]
    return {claim[k].norm for q in quantities(claim) if _states(q, said) for k in q.numbers[:-1] if claim[k].number}


def unstated_amounts(text: str, claim: list[Token], pool: list[list[Token]]) -> list[str]:
    """The claim's amounts written without a number ("a week", "a fortnight", "nearly a decade") that `pool` does
    not state though it states an amount of the same kind ("eight days"): a number check never sees them."""
    said = [q for tokens in pool for q in quantities(tokens)]
    return [text[claim[q.first].start : claim[q.numbers[-1]].end] for q in quantities(claim)
            if not any(claim[k].number for k in q.numbers[:-1]) and not _states(q, said)
            and any(other.measure == q.measure for other in said)]
