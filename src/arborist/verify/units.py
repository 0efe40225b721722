"""Units and rates (UNIT_MISMATCH): a claim's number must measure what its support's measures.

A number's scale and unit ("6 hours", "1.2 million miles", "$2.3 billion",
`lexicon.UNIT_WORDS`) and a rate counted per another amount ("per kilogram"
over "per 500 grams"; "twice a day") must be its support's.
"""

from __future__ import annotations

from arborist.verify.lexicon import Lexicon
from arborist.verify.normalize import CURRENCY_SIGNS, SCALE_LETTERS
from arborist.verify.reading import DETERMINERS, SCALE_WORDS, Text, is_plural, span_text

_PER_WORDS = frozenset("per a an each every".split())  # "100 requests per hour", "twice a day"


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
        scale = text.tokens[k].norm in SCALE_WORDS
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


def unit_changed(claim: Text, support: Text, lex: Lexicon) -> str:
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
            return f"units: the claim's '{span_text(claim, i, i + 1)}' is '{span_text(support, j, j + 1)}' in its support"
        counted = [j for j, u in theirs if not any(u) and j + 1 < len(support.tokens) and not support.breaks[j + 1]
                   and support.stems[j + 1] and support.tokens[j + 1].norm.isalpha()
                   and len(support.tokens[j + 1].norm) > 3 and support.tokens[j + 1].norm not in _PER_WORDS
                   and not support.raw[: support.tokens[j].start].rstrip().endswith(tuple(CURRENCY_SIGNS))]
        if unit[1] and counted and len(counted) == len(theirs) and not any(
                lex.units.get(t.norm) in unit[1] for t in support.tokens):
            # "a four-week ban" over "a four-match ban": the support counts something else, and never names the unit
            j = counted[0]
            return f"units: the claim's '{span_text(claim, i, i + 1)}' is '{span_text(support, j, j + 1)}' in its support"
        rate = _per(claim, i, lex)
        rates = [(j, other) for j, _ in theirs if (other := _per(support, j, lex)) is not None]
        if rate is not None and rates and all(other[:2] != rate[:2] for _, other in rates):
            j, (_, _, last) = rates[0]
            return (f"units: the claim's rate '{span_text(claim, i, rate[2])}' is '{span_text(support, j, last)}' in "
                    "its support")
    return ""


# What one rate is counted per, said another way ("per head" is "per person", "per annum" "per year").
_RATE_SYNONYMS = {"head": "person", "capita": "person", "inhabitant": "person", "resident": "person",
                  "individual": "person", "people": "person", "annum": "year", "ha": "hectare", "student": "pupil",
                  "vehicle": "car", "automobile": "car", "home": "household", "family": "household",
                  "dwelling": "household"}
# Words by which a claim counts per something itself ("each dose costs", "200 cars daily", "3,000 rpm").
_RATE_WORDS = frozenset("""per each every apiece daily weekly monthly yearly annually annual hourly nightly
    rpm bpm mph kph mpg fps""".split())


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
        if nxt is None or nxt.norm in DETERMINERS or nxt.norm in ("cent", "centum") or not text.stems[m + 1]:
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


def rate_changed(claim: Text, support: Text, lex: Lexicon) -> str:
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
            return (f"units: the claim counts '{span_text(claim, i, mine)}'; its support "
                    f"'{span_text(support, theirs[0], rates[0])}'")  # "6 euros per family" over "per adult"
        if kept or any(_unit_after(claim, i, lex)) or any(
                claim.tokens[m].norm in ("a", "an") for m in range(i + 1, min(len(claim.tokens), i + 5))):
            continue
        named = [m for m, s in enumerate(claim.stems) if s in per]
        if any(is_plural(claim.tokens[m]) or (m and claim.tokens[m - 1].norm in ("one", "a", "an", "single"))
               for m in named):
            continue  # "One dose costs $12", "A single dose costs", "Adults pay $5"
        j = theirs[0]
        return (f"units: its support counts '{span_text(support, j, rates[0])}'; the claim's "
                f"'{span_text(claim, i, i + 1)}' counts no rate")
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
