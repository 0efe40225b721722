"""The four per-claim checks: quote, span, entities and paraphrase, on the claim's *cited* chunks only.

Each returns a `Check` that says what it found and where; what each one accepts is in docs/verifier.md,
"The per-claim checks".
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from collections import Counter, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import accumulate

from pydantic import BaseModel

from arborist.text import sentence_bounds, stem_all
from arborist.verify.lexicon import DEMONYMS, IRREGULAR_VERBS
from arborist.verify.normalize import (
    NEGATORS,
    QUOTE_CHARS,
    Token,
    is_decade,
    is_ordinal,
    name_tokens,
    norm_at,
    normalise,
    number_value,
    number_values,
    sentence_initial,
    share_whole,
    shared_start,
    strip_quote,
    token_stems,
    tokenise,
)
from arborist.verify.quantities import quantities, stated_in_other_units, unstated_amounts
from arborist.verify.reading import Finding
from arborist.verify.reasons import Reason
from arborist.verify.schema import Evidence

SNIPPET_RUNES = 160


class Check(BaseModel):
    """One check's outcome. `passed` is None when the check does not apply (no quote in this mode)."""

    passed: bool | None
    evidence_id: str | None = None  # the cited chunk that satisfied the check (or came closest)
    score: float | None = None
    missing: list[str] = []
    detail: str = ""


@dataclass
class Prepared:
    """An evidence chunk tokenised once for every check."""

    ev: Evidence
    norm: str
    tokens: list[Token]
    stems: list[str | None]
    title_tokens: list[Token]
    title_stems: frozenset[str]
    negators: frozenset[str] = NEGATORS
    text_stems: frozenset[str] = field(init=False)
    stem_set: frozenset[str] = field(init=False)  # text and title
    negation_prefix: list[int] = field(init=False)  # negators among tokens[:i]
    joined: str = field(init=False)  # token norms, each wrapped in _SEP: the quote check's reader's view
    sentence_of: list[int] = field(init=False)  # sentence number of each token

    def __post_init__(self) -> None:
        self.text_stems = frozenset(s for s in self.stems if s)
        self.stem_set = self.text_stems | self.title_stems
        self.negation_prefix = list(accumulate((t.norm in self.negators for t in self.tokens), initial=0))
        self.joined = _joined([t.norm for t in self.tokens])
        ends = [end for _, end in sentence_bounds(self.ev.text)]
        self.sentence_of = [bisect_left(ends, t.end) for t in self.tokens]

    @classmethod
    def of(cls, ev: Evidence, negators: frozenset[str] = NEGATORS) -> Prepared:
        tokens = tokenise(ev.text)
        title_tokens = tokenise(ev.title)
        return cls(
            ev=ev,
            norm=normalise(ev.text),
            tokens=tokens,
            stems=token_stems(tokens),
            title_tokens=title_tokens,
            title_stems=frozenset(s for s in token_stems(title_tokens) if s),
            negators=negators,
        )

    def align_stems(self, wanted: frozenset[str], forms: Mapping[str, str] | None = None) -> None:
        """Read a stem as a wanted one when the two differ only in their last letters (see `same_stem`):
        Snowball leaves "apoptosis"/"apoptotic" and "induce"/"induction" apart. `forms`: a verb's base stem ->
        the wanted stem of its irregular form ("throw" -> "threw", see `irregular_forms`), which no letters join."""
        forms = forms or {}
        mapped = [s if s is None or s in wanted else forms.get(s) or next((w for w in wanted if same_stem(s, w)), s)
                  for s in self.stems]
        self.stems = mapped
        self.text_stems = frozenset(s for s in mapped if s)
        self.stem_set = self.text_stems | self.title_stems

    def find(self, norms: list[str]) -> int | None:
        """The index of the first token where these token norms stand in a row, or None."""
        at = self.joined.find(_joined(norms)) if norms else -1
        return None if at < 0 else self.joined.count(_SEP, 0, at)

    def sentence_text(self, first: int, last: int) -> str:
        """The whole sentence(s) holding tokens first..last, as written."""
        bounds = sentence_bounds(self.ev.text)
        start = bounds[self.sentence_of[first]][0] if self.sentence_of[first] < len(bounds) else 0
        end = bounds[self.sentence_of[last]][1] if self.sentence_of[last] < len(bounds) else len(self.ev.text)
        return self.ev.text[start:end]

    def snippet(self, first: int, last: int) -> str:
        text = self.ev.text[self.tokens[first].start : self.tokens[last].end]
        text = re.sub(r"\s+", " ", text)
        return text if len(text) <= SNIPPET_RUNES else text[: SNIPPET_RUNES - 1] + "\u2026"


SAME_STEM_PREFIX = 5
SAME_STEM_TAIL = 2


def irregular_forms(tokens: list[Token]) -> dict[str, str]:
    """The base stem of each irregular verb form among `tokens`, as written ("threw", "sold", "built"; not
    "founded", whose stem "found" the table would read as "find"), to its own stem: what a text that says the
    verb in another form ("throwing", "sells") holds (`lexicon.IRREGULAR_VERBS`)."""
    out: dict[str, str] = {}
    for tok, stem in zip(tokens, token_stems(tokens), strict=True):
        base = IRREGULAR_VERBS.get(tok.norm)
        if stem and base and stem == tok.norm:
            out[stem_all([base])[0]] = stem
    return out


def same_stem(a: str, b: str) -> bool:
    """Two stems that share at least SAME_STEM_PREFIX letters and differ only in at most SAME_STEM_TAIL
    letters after them each ("apoptosi"/"apoptot", "induc"/"induct"; not "differ"/"differenti")."""
    n = shared_start(a, b)
    return n >= SAME_STEM_PREFIX and len(a) - n <= SAME_STEM_TAIL and len(b) - n <= SAME_STEM_TAIL


def spelled_alike(a: str, b: str) -> bool:
    """Two words of five letters or more that are one spelling apart: one letter added, dropped or changed
    ("tumours"/"tumors", "haemoglobin"/"hemoglobin"), or the same letters with two of them moved ("fibre"/
    "fiber", "centre"/"center"). Not "hypertension"/"hypotension", two letters apart."""
    if min(len(a), len(b)) < 5 or abs(len(a) - len(b)) > 1:
        return False
    if sorted(a) == sorted(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) <= 2
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = sorted((a, b), key=len)
    return any(long[:k] + long[k + 1 :] == short for k in range(len(long)))


@dataclass
class Claim:
    """A claim's text tokenised once."""

    text: str
    tokens: list[Token]
    stems: frozenset[str]
    negated: bool

    @classmethod
    def of(cls, text: str, negators: frozenset[str] = NEGATORS) -> Claim:
        tokens = tokenise(text)
        return cls(text, tokens, frozenset(s for s in token_stems(tokens) if s), any(t.norm in negators for t in tokens))


_SEP = "\x1f"
_ELLIPSIS = re.compile(r"\[\s*\.\.\.\s*\]|\(\s*\.\.\.\s*\)|\.\s\.\s\.|\.\.\.")


def _joined(norms: list[str]) -> str:
    return _SEP + _SEP.join(norms) + _SEP if norms else ""


def _fragments(quote: str) -> list[str]:
    q = _ELLIPSIS.sub("...", strip_quote(quote))
    parts = [p.strip(" " + QUOTE_CHARS + ".,;:") for p in q.split("...")]
    return [p for p in parts if p]


def _in_order(fragments: list[str], text: str) -> bool:
    pos = 0
    for frag in fragments:
        found = text.find(frag, pos)
        if found < 0:
            return False
        pos = found + len(frag)
    return True


def _same_words(fragments: list[str], chunk: Prepared) -> bool:
    """The fragments' words, in order and each fragment's words contiguous, ignoring every mark between them:
    how a reader compares a quote that dropped inner quotation marks, a comma or a dash."""
    needles = [_joined([t.norm for t in tokenise(f)]) for f in fragments]
    return all(needles) and _in_order(needles, chunk.joined)


def _longest_prefix(needle: str, hay: str) -> int:
    """The length of the longest start of `needle` in `hay` (found by bisection: a start's starts are in it too)."""
    return bisect_left(range(1, len(needle) + 1), True, key=lambda m: needle[:m] not in hay)


def quote_check(quote: str, chunks: list[Prepared]) -> tuple[Check, list[Reason]]:
    """The quote occurs in one cited chunk, verbatim after normalisation or word for word ignoring marks."""
    fragments = _fragments(quote)
    if not fragments:
        return Check(passed=False, detail="no quote given"), [Reason.QUOTE_MISSING]
    if not Claim.of(" ".join(fragments)).stems:
        return Check(passed=False, detail="the quote has no content tokens"), [Reason.NO_CONTENT_TOKENS]
    for chunk in chunks:
        if _in_order(fragments, chunk.norm):
            how = "verbatim" if len(fragments) == 1 else f"as {len(fragments)} fragments in order"
            return Check(passed=True, evidence_id=chunk.ev.id, score=1.0,
                         detail=f"found {how} in {chunk.ev.id} (after normalisation)"), []
    for chunk in chunks:
        if _same_words(fragments, chunk):
            how = "" if len(fragments) == 1 else f", as {len(fragments)} fragments in order"
            return Check(passed=True, evidence_id=chunk.ev.id, score=1.0,
                         detail=f"found in {chunk.ev.id} word for word{how} (quotation marks and punctuation "
                                "aside)"), []
    best = max(chunks, key=lambda c: _longest_prefix(fragments[0], c.norm))
    n = _longest_prefix(fragments[0], best.norm)
    return (
        Check(passed=False, evidence_id=best.ev.id, score=round(n / len(fragments[0]), 3),
              detail=f"not found; longest matching start: {n} of {len(fragments[0])} characters in {best.ev.id}"),
        [Reason.QUOTE_NOT_FOUND],
    )


def _covering_windows(stems: list[str | None], required: frozenset[str]) -> list[tuple[int, int]]:
    """Tight windows [l, r] holding every required stem: both ends are required stems, neither can shrink."""
    counts: Counter[str] = Counter()  # required stems in stems[left : right + 1], none at 0
    left = 0
    out = []
    for right, stem in enumerate(stems):
        if stem in required:
            counts[stem] += 1
        if len(counts) < len(required) or stem not in required:
            continue
        while True:
            s = stems[left]
            if s in required:
                if counts[s] == 1:
                    break
                counts[s] -= 1
            left += 1
        out.append((left, right))
    return out


NEGATION_LOOKBEHIND = 2


def _negated(chunk: Prepared, first: int, last: int) -> bool:
    """Whether tokens first..last, or the NEGATION_LOOKBEHIND tokens before them (stopwords not counted: "not the
    keeper", "None of the participants"), hold a negator."""
    k, seen = first, 0
    while k > 0 and seen < NEGATION_LOOKBEHIND:
        k -= 1
        if chunk.stems[k] is not None or chunk.tokens[k].norm in chunk.negators:
            seen += 1
    return chunk.negation_prefix[last + 1] > chunk.negation_prefix[k]


Disagreement = Callable[[str], list[Finding]]  # support text -> polarity findings (empty: they agree)


def _disagreeing_holder(norm_claim: str, chunk: Prepared, disagreement: Disagreement | None) -> bool:
    """Whether every sentence of `chunk` that holds the claim verbatim disagrees with it: "the compound binds
    to the receptor" is in "No evidence was found that the compound binds to the receptor", and is denied there."""
    if disagreement is None:
        return False
    holders = [chunk.ev.text[a:b] for a, b in sentence_bounds(chunk.ev.text)]
    holders = [h for h in holders if norm_claim in normalise(h)]
    said = {Reason.DIRECTION_UNSTATED, Reason.NEGATION_UNSTATED}  # a sentence holding the claim states its words
    return bool(holders) and all(any(f.reason not in said for f in disagreement(h)) for h in holders)


def span_check(
    claim: Claim, chunks: list[Prepared], factor: float, disagreement: Disagreement | None = None,
    in_window: Disagreement | None = None,
) -> tuple[Check, list[Reason]]:
    """The claim is carried by one contiguous span of one cited chunk, within one sentence (docs/verifier.md). With
    `disagreement` (the vetoes), a window whose sentence disagrees with the claim does not carry it, nor does a
    sentence that holds the claim verbatim inside such a disagreement ("No evidence was found that <claim>");
    `in_window` reads a window's sentence in its place (it may ask more of a sentence that only holds the claim's
    words than of one that holds its text)."""
    norm_claim = strip_quote(claim.text)
    if norm_claim and claim.stems:
        for chunk in chunks:
            if norm_claim in chunk.norm and not _disagreeing_holder(norm_claim, chunk, disagreement):
                return Check(passed=True, evidence_id=chunk.ev.id, score=1.0,
                             detail=f"the claim's text occurs verbatim in {chunk.ev.id} (after normalisation)"), []
    if not claim.stems:
        return Check(passed=False, detail="the claim has no content tokens"), [Reason.NO_CONTENT_TOKENS]
    limit = max(math.ceil(factor * len(claim.tokens)), len(claim.stems))
    closest: tuple[int, Prepared, int, int] | None = None  # shortest covering window overall
    polarity_miss: tuple[Prepared, int, int] | None = None
    disagrees: tuple[Prepared, int, int, list[Finding]] | None = None
    for chunk in chunks:
        for first, last in _covering_windows(chunk.stems, claim.stems):
            length = last - first + 1
            if closest is None or length < closest[0]:
                closest = (length, chunk, first, last)
            if length > limit or chunk.sentence_of[first] != chunk.sentence_of[last]:
                continue
            if _negated(chunk, first, last) == claim.negated:
                read = in_window or disagreement
                findings = read(chunk.sentence_text(first, last)) if read else []
                if findings:
                    disagrees = disagrees or (chunk, first, last, findings)
                    continue
                return Check(
                    passed=True, evidence_id=chunk.ev.id, score=1.0,
                    detail=(f"all {len(claim.stems)} content stems within {length} tokens (limit {limit}) "
                            f"of {chunk.ev.id}: '{chunk.snippet(first, last)}'"),
                ), []
            polarity_miss = polarity_miss or (chunk, first, last)
    if disagrees is not None:
        chunk, first, last, findings = disagrees
        return Check(
            passed=False, evidence_id=chunk.ev.id, score=0.0,
            detail=f"the window in {chunk.ev.id} disagrees with the claim: '{chunk.snippet(first, last)}'; "
            + "; ".join(f.note for f in findings),
        ), [Reason.SPAN_NOT_FOUND, *dict.fromkeys(f.reason for f in findings)]
    if polarity_miss is not None:
        chunk, first, last = polarity_miss
        return Check(
            passed=False, evidence_id=chunk.ev.id, score=0.0,
            detail=f"the window in {chunk.ev.id} has the opposite negation: '{chunk.snippet(first, last)}'",
        ), [Reason.SPAN_NOT_FOUND, Reason.NEGATION_MISMATCH]
    if closest is not None:
        length, chunk, first, last = closest
        return Check(
            passed=False, evidence_id=chunk.ev.id, score=round(limit / length, 3),
            detail=(f"shortest window holding all content stems is {length} tokens in {chunk.ev.id} (limit {limit}, "
                    "within one sentence)"),
        ), [Reason.SPAN_NOT_FOUND]
    best = max(chunks, key=lambda c: len(claim.stems & c.text_stems))
    missing = sorted(claim.stems - best.text_stems)
    return Check(
        passed=False, evidence_id=best.ev.id, score=round(1 - len(missing) / len(claim.stems), 3), missing=missing,
        detail=f"no cited chunk holds every content stem; closest {best.ev.id} lacks {', '.join(missing)}",
    ), [Reason.SPAN_NOT_FOUND]


def _shares(text: str, tokens: list[Token]) -> dict[str, tuple[str, Decimal]]:
    """The fractions and percentages `text` states, each as its kind and the percentage it is: "half" and "a
    third" (read as 0.5 and 1/3) and "50%" / "20 percent" (a number followed by %, percent, per cent)."""
    out: dict[str, tuple[str, Decimal]] = {}
    for k, tok in enumerate(tokens):
        value = number_value(tok.norm) if tok.number else None
        if value is not None and ((tok.spelled and tok.norm == "0.5") or "/" in tok.norm):
            out[tok.norm] = ("fraction", value * 100)
        elif value is not None and (text[tok.end : tok.end + 1] == "%" or norm_at(tokens, k + 1) in (
                "percent", "per", "pct")):
            out[tok.norm] = ("percent", value)
        elif (whole := share_whole(tokens, k)) is not None:  # "nine in ten" is 90 percent, "one in five" 20
            share = ("fraction", (value or Decimal(1)) / Decimal(tokens[whole].norm) * 100)
            out[tok.norm] = out[tokens[whole].norm] = share
    return out


def _same_share(a: tuple[str, Decimal], b: tuple[str, Decimal]) -> bool:
    """A fraction and a percentage that say the same share, to the percentage's own precision: "a third" is
    "33%" and "33.3%", never "33.4%"; "half" is "50%", never "50.4%"."""
    if {a[0], b[0]} != {"fraction", "percent"}:
        return False
    fraction, percent = (a[1], b[1]) if a[0] == "fraction" else (b[1], a[1])
    exponent = percent.as_tuple().exponent
    return isinstance(exponent, int) and fraction.quantize(Decimal(1).scaleb(exponent)) == percent


def _demonym_stated(claim: Claim, name: str, chunks: list[Prepared]) -> bool:
    """Whether the claim uses `name` as a people's adjective before a thing ("a northern Italian monastery",
    "twelve Brazilian cities") and the evidence places a thing in or from that place ("in northern Italy",
    "from Kenya", "Japan's"). Not a nationality said of someone ("The chef is Italian" over "works in Italy"), nor
    the other way round ("shot in America" over "an American actor")."""
    place = DEMONYMS.get(name)
    if place is None or not any(
            t.norm == name and k + 1 < len(claim.tokens) and not claim.text[t.end : claim.tokens[k + 1].start].strip()
            and (claim.tokens[k + 1].number or claim.tokens[k + 1].surface[:1].islower())
            for k, t in enumerate(claim.tokens)):
        return False
    return any(tok.norm == place and (any(t.norm in ("in", "from", "of") for t in chunk.tokens[max(0, k - 2) : k])
                                      or (k + 1 < len(chunk.tokens) and chunk.tokens[k + 1].norm == "s"))
               for chunk in chunks for k, tok in enumerate(chunk.tokens))


def _place_in_order(claim: Claim, k: int) -> bool:
    """Whether token k is an ordinal that places someone in a finishing order ("finished second", "came 3rd",
    "ranked fifth", "took third place"): such a place is stated only as one ("third in 2 hours" does not state
    "second"). Other ordinals may be said as counts ("the third act" as "Act 3", "her 100th birthday")."""
    tokens = claim.tokens
    return is_ordinal(tokens[k]) and (norm_at(tokens, k - 1) in _PLACING or norm_at(tokens, k + 1) in _PLACES)


_PLACING = frozenset("""finished finishes finish finishing came comes come placed ranked ranks rank ending ended
    end""".split())
_PLACES = frozenset("place places position spot".split())


def entities_check(claim: Claim, chunks: list[Prepared]) -> tuple[Check, list[Reason]]:
    """Every number (by value), decade and capitalised name of the claim occurs in the cited texts or titles."""
    numbers = {t.norm: t.surface for t in reversed(claim.tokens) if t.number or is_decade(t.norm)}
    named = name_tokens(claim.text, claim.tokens)
    names = {t.norm: t.surface for t in reversed(named)}
    # a capital that only starts the sentence ("Inhibiting HDAC6 ...") is a word: its stem may be said
    # another way ("Inhibition of HDAC6 ...")
    opening = {t.norm: s for t, s in zip(named, stem_all([t.norm for t in named]), strict=True)
               if sentence_initial(claim.text, t)}
    # amounts, in whatever units: "182 seconds" and "3 minutes 2 seconds"; "a week" and "eight days" differ
    # (the evidence is read for amounts only when the claim states one)
    claimed = quantities(claim.text, claim.tokens)
    stated_amounts = [q for chunk in chunks for text, tokens in ((chunk.ev.text, chunk.tokens), (
        chunk.ev.title, chunk.title_tokens)) for q in quantities(text, tokens)] if claimed else []
    amounts = unstated_amounts(claim.text, claim.tokens, claimed, stated_amounts)
    if not numbers and not names and not amounts:
        return Check(passed=True, detail="no numbers or names to check"), []
    pool = [tok for chunk in chunks for tok in (*chunk.tokens, *chunk.title_tokens)]
    pool_words = {t.norm for t in pool if not t.number}
    # a claim's share stated the other way by its evidence: "half" and "50%", "a fifth" and "20 percent"
    said = _shares(claim.text, claim.tokens)
    pool_shares = [form for chunk in chunks for form in _shares(chunk.ev.text, chunk.tokens).values()] if said else []
    shared = {n for n, form in said.items() if any(form == other or _same_share(form, other) for other in pool_shares)}
    pool_numbers = {t.norm for t in pool if t.number} | shared
    # one figure written two ways is one number: "1/4" and "0.25", "half a million" and "500,000"
    values = {v for chunk in chunks for tokens in (chunk.tokens, chunk.title_tokens)
              for k in range(len(tokens)) for v in number_values(tokens, k)}
    stated = {t.norm: number_values(claim.tokens, k) for k, t in enumerate(claim.tokens) if t.number}
    # the whole of a claim's "one in five" is stated only by the same share ("five adults" is not it)
    whole = {claim.tokens[m].norm for k in range(len(claim.tokens)) if (m := share_whole(claim.tokens, k)) is not None}
    converted = stated_in_other_units(claim.tokens, claimed, stated_amounts)
    missing_numbers = [numbers[n] for n in reversed(numbers)
                       if (n not in pool_numbers and n not in pool_words and not (stated.get(n, set()) & values)
                           and n not in converted)
                       or (n in whole and n not in shared)]
    # a place in an order is stated only as one: "finished second" is not "2 hours"
    ordinals = {t.norm: t.surface for k, t in enumerate(claim.tokens) if _place_in_order(claim, k)}
    pool_ordinals = {t.norm for t in pool if is_ordinal(t)}
    missing_numbers += [surface for n, surface in ordinals.items()
                        if n not in pool_ordinals and surface not in missing_numbers and n in pool_numbers]
    missing_numbers += amounts
    pool_stems = {s for chunk in chunks for s in chunk.text_stems} if opening else set()
    missing_names = [names[n] for n in reversed(names) if n not in pool_words
                     and not (n in opening and opening[n] in pool_stems) and not _demonym_stated(claim, n, chunks)]
    reasons = ([Reason.NUMBER_MISSING] if missing_numbers else []) + ([Reason.ENTITY_MISSING] if missing_names else [])
    checked = len(numbers) + len(names) + len(amounts)
    found = checked - len(missing_numbers) - len(missing_names)
    missing = missing_numbers + missing_names
    detail = f"{found} of {checked} numbers/names found in the cited evidence"
    if missing:
        detail += f"; missing: {', '.join(missing)}"
    return Check(passed=not missing, score=round(found / checked, 3), missing=missing, detail=detail), reasons


def paraphrase_check(claim: Claim, chunks: list[Prepared], factor: float, threshold: float) -> tuple[Check, list[Reason]]:
    """The best window of a cited chunk that agrees with the claim on negation holds `threshold` of its stems."""
    if not claim.stems:
        return Check(passed=False, score=0.0, detail="the claim has no content tokens"), [Reason.NO_CONTENT_TOKENS]
    width = max(math.ceil(factor * len(claim.tokens)), len(claim.stems))
    need = len(claim.stems)
    best_any: tuple[int, Prepared | None, int, int] = (-1, None, 0, 0)  # covered, chunk, first, last
    best_same: tuple[int, Prepared | None, int, int] = (-1, None, 0, 0)
    for chunk in chunks:
        n = len(chunk.tokens)
        size = min(width, n)
        hits: deque[int] = deque()  # positions of claim stems inside the window
        counts: Counter[str | None] = Counter()
        for right in range(n):
            stem = chunk.stems[right]
            if stem in claim.stems:
                hits.append(right)
                counts[stem] += 1
            first = right - size + 1
            if first > 0 and hits and hits[0] == first - 1:
                old = chunk.stems[hits.popleft()]
                counts[old] -= 1
                if not counts[old]:
                    del counts[old]
            if first < 0:
                continue
            covered = len(counts)
            if covered > best_any[0]:
                best_any = (covered, chunk, first, right)
            # polarity is read on the matched part of the window only, so a "never"
            # in the neighbouring sentence does not flip it
            negated = bool(hits) and _negated(chunk, hits[0], hits[-1])
            if negated == claim.negated and covered > best_same[0]:
                best_same = (covered, chunk, first, right)
    covered, found, first, last = best_same if best_same[1] is not None else (0, best_any[1], best_any[2], best_any[3])
    if found is None:
        return Check(passed=False, score=0.0, detail="the cited evidence has no text"), [Reason.LOW_OVERLAP]
    chunk = found
    score = covered / need
    window_stems = {s for s in chunk.stems[first : last + 1] if s}
    missing = sorted(claim.stems - window_stems)
    detail = (f"{max(covered, 0)} of {need} content stems ({score:.2f}, threshold {threshold}) in a "
              f"{last - first + 1}-token window of {chunk.ev.id}: '{chunk.snippet(first, last)}'")
    if score >= threshold:
        return Check(passed=True, evidence_id=chunk.ev.id, score=round(score, 3), missing=missing, detail=detail), []
    reasons = [Reason.LOW_OVERLAP]
    if best_any[0] / need >= threshold:
        reasons.append(Reason.NEGATION_MISMATCH)
        detail += f"; a window with opposite negation reaches {best_any[0] / need:.2f}"
    return Check(passed=False, evidence_id=chunk.ev.id, score=round(score, 3), missing=missing, detail=detail), reasons
