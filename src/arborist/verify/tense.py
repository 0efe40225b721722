"""Time (SCOPE_DROPPED, CERTAINTY_UNSTATED): a claim keeps the time its support gives its statement.

A state the support puts in the past, or in a past that has ended, is not one the claim may state now
(`former_stated_now`); nor is a thing held "since" a year one the support ends (`since_ended`), one it says
ended (`still_ended`), nor a thing done one the support has still in progress (`under_way_unstated`).
"""

from __future__ import annotations

from arborist.text import stem_all
from arborist.verify.lexicon import FORMER_WORDS, IRREGULAR_VERBS, PRESENT_WORDS
from arborist.verify.normalize import HYPHENS, Token
from arborist.verify.reading import (
    AUXILIARIES,
    DETERMINERS,
    Text,
    clause_of,
    clause_spans,
    past_form,
    span_text,
)

# Words by which a claim says a thing goes on, and verbs by which a support says it has stopped.
_STILL = frozenset("still remains remain continues continue currently".split())
_ENDINGS = frozenset("ended ceased stopped discontinued abolished scrapped withdrawn halted terminated expired lapsed "
                     "retired".split())


def former_stated_now(claim: Text, support: Text, scoped: bool = True) -> str:
    """A note when the support puts what it says in the past ("The mine was once the largest source of tin",
    "Fishermen used to catch cod") and the claim states it in the present ("Fishermen catch cod"); else ''. A
    claim is in the present when it says so (is, still, now) or, against a past that has ended (`_ended`,
    `_dated_past`), when it has no past form at all, unless it is a bare answer that takes its time from the
    question (not `scoped`: "Capital Cities" over "In the 1980s the parent merged with Capital Cities")."""
    said = {t.norm for t in claim.tokens}
    if said.intersection(FORMER_WORDS) or any(_ended(claim, k) for k in range(len(claim.tokens))):
        return ""  # the claim puts it in the past itself
    now = bool(said.intersection(PRESENT_WORDS))
    # a claim bounded in time itself ("until 1990", "in the 1800s", "in the past") is no statement about now
    bounded = "until" in said or "past" in said or any(_date(t) for t in claim.tokens)
    undated = scoped and not bounded and not any(
        (_done_form(t.norm) or t.norm in _PAST_AUXILIARIES) and not _present_passive(claim, k)
        for k, t in enumerate(claim.tokens))
    if not now and not undated:
        return ""
    clauses: list[tuple[int, int, int]] | None = None  # each clause's bounds and claim stems held, read once
    for h, tok in enumerate(support.tokens):
        ended = undated and (_ended(support, h) or _dated_past(support, h))
        if not ended and (not now or tok.norm not in FORMER_WORDS or (
                tok.norm == "once" and h + 1 < len(support.tokens) and support.tokens[h + 1].norm in DETERMINERS
                and (h == 0 or support.tokens[h - 1].norm not in AUXILIARIES))):
            continue  # "... once the dam is finished" is "when"; "was once the largest" is "formerly"
        first, end = clause_of(support, h)
        if end < len(support.tokens) and (end == h + 1 or (ended and h == first and support.initial[first])):
            end = clause_of(support, end)[1]  # "Formerly, the mine was ...", "Until it collapsed, the tower was"
        if ended:
            # a later event ends what the past held ("... in Leeds before moving to York"): the region stops there,
            # and a word of the claim the support says only after it may be the present's
            end = next((k for k in range(h + 2, end) if support.tokens[k].norm in _LATER), end)
        inside = {s for s in support.stems[first:end] if s}
        if ended and claim.content & ({s for s in support.stems[end:] if s} - inside):
            continue
        held = len(claim.content & inside)
        if held >= 2 and ended and clauses is None:
            clauses = [(a, b, len(claim.content & {s for s in support.stems[a:b] if s})) for a, b in clause_spans(support)]
        # another clause that holds the claim as well states it ("was common until the 1980s, but is now banned")
        if held >= 2 and not (ended and clauses and any(
                other >= held for a, b, other in clauses if b <= first or a >= end)):
            return (f"time: its support holds it only in the past ('{span_text(support, max(first, h - 1), h + 2)}'); "
                    "the claim states it now")
    return ""


# Words that open a later event inside a sentence about the past.
_LATER = frozenset("before after when then".split())


def _present_passive(text: Text, k: int) -> bool:
    """Token k is a participle of the present ("is owned by", "are still based in"): no past."""
    m = next((m for m in range(k - 1, -1, -1) if text.tokens[m].norm not in _ADVERBS), -1)
    return m >= 0 and text.tokens[m].norm in ("is", "are", "am", "remains", "remain")


def still_ended(claim: Text, support: Text) -> str:
    """A note when the claim says a thing goes on ("The 5.0 release still supports Python 3.8") and its support
    says it stopped ("Support for Python 3.8 ended with the 5.0 release"): a verb of ending whose subject names
    something of the claim, in a clause (of one sentence) that holds two of the claim's words; else ''."""
    if not any(t.norm in _STILL for t in claim.tokens) or any(t.norm in _STILL for t in support.tokens):
        return ""
    for h, tok in enumerate(support.tokens):
        if tok.norm not in _ENDINGS or h in support.negated_heads:
            continue  # "has not ended", "never ended": it goes on
        first, end = clause_of(support, h)
        subject = {x for x in support.stems[first:h] if x}
        held = claim.content & {x for x in support.stems[first:end] if x}
        # another clause that holds as much of the claim states it going on ("... ended; the app supports ...")
        if subject & claim.content and len(held) >= 2 and not any(
                len(claim.content & {x for x in support.stems[a:b] if x}) >= len(held)
                for a, b in clause_spans(support) if b <= first or a >= end):
            return (f"time: the claim says it goes on; its support says '{span_text(support, first, h)}' "
                    f"('{tok.surface}')")
    return ""


def _verb_stem(text: Text, i: int) -> str:
    """Token i's stem, an irregular form read as its verb's ("built" as "build")."""
    norm = text.tokens[i].norm
    return _BASE_STEMS[norm] if norm in IRREGULAR_VERBS else text.all_stems[i]


_BASE_STEMS = dict(zip(IRREGULAR_VERBS, stem_all(list(IRREGULAR_VERBS.values())), strict=True))


def since_ended(claim: Text, support: Text) -> str:
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
        if any(t.norm == "since" and any(x.norm == start for x in support.tokens[j + 1 : j + 5])
               for j, t in enumerate(support.tokens)):
            continue  # the support says "since 2004" itself
        for j, t in enumerate(support.tokens):
            end = _range_end(support, j) if t.norm == start else None
            if end is not None and support.tokens[end].norm > start:
                return (f"time: the claim says '{span_text(claim, i, k)}', still so; its support ends it "
                        f"('{span_text(support, max(0, j - 1), end)}')")
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


def _done_form(norm: str) -> bool:
    """A past form or an irregular participle: what says a thing done ("built", "has begun")."""
    return past_form(norm) or norm in IRREGULAR_VERBS


def under_way_unstated(claim: Text, support: Text) -> str:
    """A note when the claim says a thing was done ("has built a prototype", "completed the survey") where its
    support has it still in progress ("is currently building a prototype") and nowhere done; else ''."""
    for j, tok in enumerate(support.tokens):
        if not (tok.norm.endswith("ing") and support.stems[j]):
            continue
        k = next((k for k in range(j - 1, -1, -1) if support.tokens[k].norm not in _IN_PROGRESS_ADVERBS), -1)
        if k < 0 or support.tokens[k].norm not in _PROGRESSIVE:
            continue
        base = support.all_stems[j]
        if support.tokens[k].norm not in ("is", "are", "am") or any(
                t.norm.endswith("ing") and claim.all_stems[m] == base for m, t in enumerate(claim.tokens)):
            continue  # "was living" is "lived"; a claim that says "is now building" says it in progress too
        done = [i for i, t in enumerate(claim.tokens)
                if _done_form(t.norm) and _verb_stem(claim, i) == base]
        if not done:
            # another verb in the perfect ("has signed a deal to buy" over "is negotiating the purchase"), when the
            # claim has nothing in progress itself and the support's clause holds two of its words
            first, end = clause_of(support, j)
            held = claim.content & {x for x in support.stems[first:end] if x}
            done = [i for i, t in enumerate(claim.tokens)
                    if i and claim.tokens[i - 1].norm in ("has", "have") and _done_form(t.norm)]
            said = set(support.all_stems) | {_verb_stem(support, m) for m in range(len(support.tokens))}
            if (len(held) < 2 or base in claim.all_stems or any(_verb_stem(claim, i) in said for i in done)
                    or any(t.norm.endswith("ing") and m and claim.tokens[m - 1].norm in _PROGRESSIVE | {"been"}
                           for m, t in enumerate(claim.tokens))):
                done = []  # the support says the claim's verb too; the claim names the work ("an investigation")
        if not done:
            continue
        if any(_done_form(t.norm) and _verb_stem(support, m) == base
               for m, t in enumerate(support.tokens)):
            continue  # the support says it done too ("built one and is building another")
        return (f"time: its support has it in progress ('{span_text(support, k, j)}'); the claim says "
                f"'{span_text(claim, done[0], done[0])}'")
    return ""


_PAST_AUXILIARIES = frozenset("was were had did will would".split())
_PAST_BE = frozenset("was were had".split())  # past forms that are no -ed form
_ADVERBS = frozenset("often also still now not never always mostly sometimes seldom even too".split())
_IN_PROGRESS_ADVERBS = _ADVERBS | {"currently"}  # "is currently building", "is still testing"


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
    return _past(text, range(first, end))


def _past(text: Text, span: range) -> bool:
    """A token of `span` is in the past tense."""
    return any(past_form(text.tokens[k].norm) or text.tokens[k].norm in _PAST_BE for k in span)


def _ended(text: Text, h: int) -> bool:
    """Token h marks a past that has ended: "used to" as the verb of its clause ("Fishermen used to catch cod";
    not "a drug used to treat", "Honey, used to treat burns", "is commonly used to"), or "until" in a clause
    whose verb is in the past ("ran daily until the harbour silted up", "Until it collapsed in 1847, ..."; not
    "The museum, which was founded in 1900, is open until 6 pm")."""
    norm, n = text.tokens[h].norm, len(text.tokens)
    if norm not in ("used", "until"):
        return False
    first, end = clause_of(text, h)
    if norm == "used":
        if h + 1 >= n or text.tokens[h + 1].norm != "to" or h == first:
            return False
        before = range(first, h)
        k = next((k for k in reversed(before) if not text.tokens[k].norm.endswith("ly")
                  and text.tokens[k].norm not in _ADVERBS), None)
        return k is not None and not text.breaks[k + 1] and not any(
            text.tokens[m].norm in AUXILIARIES or text.tokens[m].norm in ("get", "gets", "got", "become",
                                                                            "becomes", "became")
            or (text.verb(m) and text.stems[m] is not None and past_form(text.tokens[m].norm)) for m in before)
    if h != first:
        return _past(text, range(first, h))
    if _past(text, range(h + 1, end)):
        return True
    # "Until 2015, the exam included ...": a clause of a date alone ends the past of the clause after it
    return end < n and all(text.tokens[k].number or not text.stems[k] or text.tokens[k].capitalised
                           for k in range(h + 1, end)) and _past(text, range(end, clause_of(text, end)[1]))
