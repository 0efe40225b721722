"""Whether an answer states a value: read as a quantity when it is one, as text otherwise.

A value that is one number with an optional scale and unit ("8 uploads per minute", "$1.2 million",
"14 days") is read on both sides of the comparison: the answer states it when one of its numbers has
the same amount (after its scale: "2 million" is 2,000,000, as "2,000,000" and "$2m" are) and the
unit's words follow that number closely, in any form ("8 file uploads per minute" states "8 uploads
per minute"; "eight uploads a minute" does too). A duration in seconds, minutes, hours, days or weeks
is compared in seconds ("72 hours" states "3 days"). A value that is not a quantity (a header name,
"X-Qm-Sig-7") is found as normalised text, as `diagnosis.contains_gold` does.

Reading the number also keeps "3 days" from being found inside "13 days", and "$49" inside "$499".
The numbers are tokenised by the verifier's own reader (`verify.normalize`), so "1,200", "twelve
hundred" and "1200" are one number everywhere in arborist.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from arborist.lab.diagnosis import contains_gold
from arborist.text import STOPWORDS, stem_all
from arborist.verify.normalize import SCALES, Token, number_value, tokenise

# Duration words -> seconds; a quantity in one of them is compared in seconds.
SECONDS: dict[str, Decimal] = {
    **dict.fromkeys(("second", "seconds", "sec", "secs", "s"), Decimal(1)),
    **dict.fromkeys(("minute", "minutes", "min", "mins"), Decimal(60)),
    **dict.fromkeys(("hour", "hours", "hr", "hrs", "h"), Decimal(3600)),
    **dict.fromkeys(("day", "days"), Decimal(86400)),
    **dict.fromkeys(("week", "weeks", "wk", "wks"), Decimal(604800)),
}
# Short forms of unit words, folded before stemming ("3 mins" and "3 minutes" have one unit).
ALIASES = {"min": "minute", "mins": "minute", "sec": "second", "secs": "second", "hr": "hour", "hrs": "hour",
           "wk": "week", "wks": "week", "req": "request", "reqs": "requests"}
# Words that say "for each" in a rate: "8 uploads per minute", "a minute", "each minute" are one rate.
RATE_WORDS = frozenset(("per", "a", "an", "each", "every"))
# How many tokens may stand between a number and its unit's words ("8 *file* uploads per minute").
SLACK = 3


@dataclass(frozen=True)
class Quantity:
    amount: Decimal  # scaled, and in seconds for a duration
    unit: frozenset[str]  # stems of the unit's content words; empty for a bare amount ("$49") or a duration
    duration: bool


def _amount(tokens: list[Token], k: int) -> tuple[Decimal, int] | None:
    """Number token k's value after a scale word right behind it, and the index past both."""
    value = number_value(tokens[k].norm) if tokens[k].number else None
    if value is None:
        return None
    if k + 1 < len(tokens) and tokens[k + 1].norm in SCALES:
        return value * SCALES[tokens[k + 1].norm], k + 2
    return value, k + 1


def _stems(words: list[str]) -> frozenset[str]:
    folded = [ALIASES.get(w, w) for w in words if w not in STOPWORDS and w not in RATE_WORDS]
    return frozenset(stem_all(folded))


def read_quantity(value: str) -> Quantity | None:
    """The quantity `value` states, or None when it is not one number with an optional unit."""
    tokens = tokenise(value)
    if not tokens or not tokens[0].number:
        return None
    read = _amount(tokens, 0)
    if read is None or any(t.number for t in tokens[read[1]:]):
        return None
    amount, nxt = read
    rest = [t.norm for t in tokens[nxt:]]
    if len(rest) == 1 and rest[0] in SECONDS:
        return Quantity(amount * SECONDS[rest[0]], frozenset(), True)
    return Quantity(amount, _stems(rest), False)


def states_quantity(text: str, quantity: Quantity) -> bool:
    """Whether one of `text`'s numbers is `quantity`: the same amount, its unit's words close behind it."""
    tokens = tokenise(text)
    for k in range(len(tokens)):
        read = _amount(tokens, k)
        if read is None:
            continue
        amount, nxt = read
        if quantity.duration:
            unit = tokens[nxt].norm if nxt < len(tokens) else ""
            if unit in SECONDS and amount * SECONDS[unit] == quantity.amount:
                return True
            continue
        if amount != quantity.amount:
            continue
        behind = [t.norm for t in tokens[nxt : nxt + len(quantity.unit) + SLACK] if not t.number]
        if quantity.unit <= _stems(behind):
            return True
    return False


def states_value(text: str, value: str) -> bool:
    """Whether `text` states `value`: as a quantity when the value is one, as normalised text otherwise."""
    quantity = read_quantity(value)
    if quantity is None:
        return contains_gold(text, [value])
    return states_quantity(text, quantity)
