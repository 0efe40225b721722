"""The missed-answer guard: a read-only sidecar that never changes a label.

It fires (`answerability_warning`) when all three hold:

1. the answer denies that the evidence answers the question: one of
   `DENIAL_PATTERNS` matches a claim's text or quote, or an abstained request
   (normalised, "n't" spelled "not");
2. the question is extraction-shaped: anything but a SINGLE yes/no question
   (see `arborist.verify.quantifier.Quantifier.extraction_shaped`);
3. some evidence chunk (any of them, cited or not) holds candidate answer
   spans within `policy.guard_proximity_runes` runes of a question content
   token (stem match). Candidates are
   - QUOTED: a string in double quotes (straight, curly, guillemets) of 1-12 words;
   - LIST: an item of a list of three or more title-case phrases (or quoted
     strings) separated by commas, "and", "or" or "&";
   - NAME_NEAR_PREDICATE: a title-case phrase in a sentence that also holds a
     question word that is not part of a name ("wrote" in "Who wrote Il Faro?",
     "songs" in "What songs did Marta record?").
   A candidate that is only the question's own words (the subject's name) or
   that the answer already states is not a candidate.

The output lists each candidate as (evidence_id, offset, text), offsets in
runes into the evidence text. With `policy.demote_missed_answer` the
verifier sets the audit mode EVIDENCE-MISSED-PARTIAL; the label is never
touched.

The guard reads text as the verifier does (its stems must match the stems
of the verifier's tokenised chunks), yet imports nothing of
`arborist.verify`, which imports it: the verifier hands it its `Reading`
(tokeniser, stemmer, normaliser; see `arborist.verify.verifier`), and the
chunks, tokens and question shape are read through the fields the guard
uses (`ChunkLike`, `TokenLike`, `QuestionShape`).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from pydantic import BaseModel

from arborist.guards.evidence import EvidenceLike

_DENY_VERBS = (
    r"say|says|state|states|mention|mentions|specify|specifies|list|lists|provide|provides|include|includes|contain|"
    r"contains|name|names|identify|identifies|indicate|indicates|give|gives|discuss|discusses|describe|describes|"
    r"reveal|reveals|offer|offers"
)
DENIAL_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("not mentioned/provided/specified/...", re.compile(
        r"\b(?:is|are|was|were|be|been|being)? ?not (?:explicitly |specifically |directly |clearly |actually )?"
        r"(?:mentioned|provided|specified|stated|listed|given|included|named|identified|available|found|"
        r"discussed|described|indicated|addressed|present|disclosed|known)\b")),
    ("does not say/mention/...", re.compile(
        rf"\b(?:does|do|did|can|could) not (?:explicitly |specifically |directly |clearly |actually )?(?:{_DENY_VERBS})\b")),
    ("no specific/information/mention/...", re.compile(
        r"\bno (?:specific|explicit|mention|information|info|details?|data|record|records|indication|reference|"
        r"references|names?|titles?|list)\b")),
    ("cannot determine/find/answer", re.compile(
        r"\b(?:cannot|can not|unable to|not possible to|impossible to|could not|not able to) (?:be )?"
        r"(?:determine|determined|find|found|answer|answered|identify|identified|tell|say|confirm|confirmed|extract)\b")),
    ("insufficient/not enough information", re.compile(
        r"\b(?:insufficient|not enough|lacks?|lacking|lack of|without) (?:the )?(?:information|evidence|details|data|context)\b")),
]

_CONNECTORS = frozenset(
    "di da del della delle dei degli de la le les du des von van der den y e el al of the and".split()
) - {"and"}
_QUOTED = re.compile(r"\u201c([^\u201c\u201d\n]{1,160})\u201d|\"([^\"\n]{1,160})\"|\u00ab([^\u00ab\u00bb\n]{1,160})\u00bb"
                     r"|\u201e([^\u201c\u201d\u201e\n]{1,160})[\u201c\u201d]")
_LIST_GAP = re.compile(r"^(?:,|;|,? ?(?:and|or|&)|, ?(?:and|or))$")
_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n\s*\n")
MAX_QUOTED_WORDS = 12
MAX_NAME_WORDS = 6


class TokenLike(Protocol):
    """A token as the guard reads it (`arborist.verify.normalize.Token` is one); offsets in runes."""

    @property
    def norm(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def capitalised(self) -> bool: ...


TokenT = TypeVar("TokenT", bound=TokenLike)
TokenT_co = TypeVar("TokenT_co", bound=TokenLike, covariant=True)


class ChunkLike(Protocol[TokenT_co]):
    """An evidence chunk tokenised by the verifier (`arborist.verify.checks.Prepared` is one)."""

    @property
    def ev(self) -> EvidenceLike: ...
    @property
    def tokens(self) -> Sequence[TokenT_co]: ...
    @property
    def stems(self) -> Sequence[str | None]: ...


class QuestionShape(Protocol):
    """The question's classification (`arborist.verify.quantifier.Quantifier` is one)."""

    @property
    def extraction_shaped(self) -> bool: ...
    @property
    def rule(self) -> str: ...


@dataclass(frozen=True)
class Reading(Generic[TokenT]):
    """How the verifier reads text: the guard reads the question and the answer with it, so that its stems and
    normalised strings compare with the verifier's chunks."""

    normalise: Callable[[str], str]
    tokenise: Callable[[str], list[TokenT]]
    token_stems: Callable[[list[TokenT]], list[str | None]]
    is_stopword: Callable[[str], bool]
    sentence_initial: Callable[[str, TokenT], bool]  # nothing but quotes, brackets or spaces before it since a sentence end
    quote_chars: str  # every quote mark the reader folds


class GuardResult(BaseModel):
    answerability_warning: bool = False
    missed_answer_candidate_spans: list[tuple[str, int, str]] = []
    denials: list[str] = []  # "abstained_requests[0]: 'not mentioned'"
    detail: str = ""


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    text: str
    kind: str


def find_denials(texts: list[tuple[str, str]], normalise: Callable[[str], str]) -> list[str]:
    """(where, text) pairs -> "where: 'matched words'" for every denial found in the normalised text."""
    found = []
    for where, text in texts:
        norm = normalise(text)
        norm = re.sub(r"\bcan't\b", "cannot", norm)
        norm = re.sub(r"\bwon't\b", "will not", norm)
        norm = re.sub(r"n't\b", " not", norm)
        for _name, pattern in DENIAL_PATTERNS:
            m = pattern.search(norm)
            if m:
                found.append(f"{where}: '{m.group().strip()}'")
                break
    return found


def _quoted_spans(text: str) -> list[Span]:
    out = []
    for m in _QUOTED.finditer(text):
        group = next(g for g in range(1, 5) if m.group(g) is not None)
        raw = m.group(group)
        lead = len(raw) - len(raw.lstrip())
        inner = raw.strip().rstrip(".,;:!?").strip()
        if not inner or not re.search(r"[^\W_]", inner) or len(inner.split()) > MAX_QUOTED_WORDS:
            continue
        start = m.start(group) + lead
        out.append(Span(start, start + len(inner), inner, "QUOTED"))
    return out


def _title_spans(text: str, tokens: Sequence[TokenT], reading: Reading[TokenT]) -> list[Span]:
    """Runs of capitalised words, allowing lower-case connectors inside ("Vento di Sale")."""
    out = []
    i = 0
    n = len(tokens)
    while i < n:
        tok = tokens[i]
        if not tok.capitalised or reading.is_stopword(tok.norm):
            i += 1
            continue
        j = i
        while j + 1 < n and not text[tokens[j].end : tokens[j + 1].start].strip():
            nxt = tokens[j + 1]
            if nxt.capitalised:
                j += 1
            elif (nxt.norm in _CONNECTORS and j + 2 < n and tokens[j + 2].capitalised
                  and not text[nxt.end : tokens[j + 2].start].strip()):
                j += 2
            else:
                break
            if j - i + 1 >= MAX_NAME_WORDS:
                break
        single_initial = j == i and reading.sentence_initial(text, tok)
        if not single_initial:
            out.append(Span(tok.start, tokens[j].end, text[tok.start : tokens[j].end], "NAME"))
        i = j + 1
    return out


def _lists(text: str, items: list[Span], quote_chars: str) -> list[Span]:
    """Items that belong to a chain of >= 3 separated by commas / and / or / &."""
    chosen: list[Span] = []
    chain = [items[0]] if items else []
    for prev, cur in zip(items, items[1:], strict=False):
        gap = re.sub(rf"[{re.escape(quote_chars)}\s]+", " ", text[prev.end : cur.start]).strip().casefold()
        if _LIST_GAP.match(gap):
            chain.append(cur)
            continue
        if len(chain) >= 3:
            chosen.extend(chain)
        chain = [cur]
    if len(chain) >= 3:
        chosen.extend(chain)
    return [Span(s.start, s.end, s.text, "LIST") if s.kind == "NAME" else s for s in chosen]


def _sentences(text: str) -> list[tuple[int, int]]:
    bounds = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        bounds.append((start, m.end()))
        start = m.end()
    bounds.append((start, len(text)))
    return bounds


def candidate_spans(
    chunk: ChunkLike[TokenT],
    subject_stems: frozenset[str],
    predicate_stems: frozenset[str],
    proximity: int,
    reading: Reading[TokenT],
) -> list[Span]:
    text = chunk.ev.text
    anchors = [t.start for t, s in zip(chunk.tokens, chunk.stems, strict=True) if s in subject_stems]
    if not anchors:
        return []
    quoted = _quoted_spans(text)
    quoted_ranges = [(q.start, q.end) for q in quoted]
    names = [s for s in _title_spans(text, chunk.tokens, reading) if not _overlaps(quoted_ranges, s)]
    items = sorted(quoted + names, key=lambda s: s.start)
    candidates: dict[int, Span] = {q.start: q for q in quoted}
    for s in _lists(text, items, reading.quote_chars):
        candidates.setdefault(s.start, s)
    if predicate_stems and names:
        bounds = _sentences(text)
        starts = [b[0] for b in bounds]
        with_predicate = {bisect_right(starts, t.start) - 1
                          for t, s in zip(chunk.tokens, chunk.stems, strict=True) if s in predicate_stems}
        for s in names:
            if bisect_right(starts, s.start) - 1 in with_predicate:
                candidates.setdefault(s.start, Span(s.start, s.end, s.text, "NAME_NEAR_PREDICATE"))
    token_starts = [t.start for t in chunk.tokens]
    out = []
    for span in sorted(candidates.values(), key=lambda s: s.start):
        if not _near(anchors, span, proximity):
            continue
        inside = chunk.stems[bisect_left(token_starts, span.start) : bisect_left(token_starts, span.end)]
        span_stems = {s for s in inside if s}
        if span_stems and span_stems <= subject_stems:
            continue  # the subject's own name, not an answer
        out.append(span)
    return out


def _overlaps(ranges: list[tuple[int, int]], span: Span) -> bool:
    i = bisect_right(ranges, (span.start, float("inf"))) - 1
    return any(0 <= j < len(ranges) and ranges[j][0] < span.end and span.start < ranges[j][1] for j in (i, i + 1))


def _near(anchors: list[int], span: Span, proximity: int) -> bool:
    """Is some anchor (a subject token's start, sorted) within `proximity` runes of the span?"""
    i = bisect_left(anchors, span.start - proximity)
    return i < len(anchors) and anchors[i] <= span.end + proximity


def predicate_stems(question: str, reading: Reading[TokenT]) -> tuple[frozenset[str], frozenset[str]]:
    """(all content stems, those not part of a name) of the question.

    A question word is part of a name when it is capitalised in the question
    (not as its first word); a lower-case question ("what songs did marta
    record") is handled by `missed_answer_guard`, which also treats a word as
    a name when the evidence capitalises it mid-sentence.
    """
    tokens = reading.tokenise(question)
    stems = reading.token_stems(tokens)
    subject = frozenset(s for s in stems if s)
    names = frozenset(s for i, (t, s) in enumerate(zip(tokens, stems, strict=True)) if s and i > 0 and t.capitalised)
    return subject, subject - names


def missed_answer_guard(
    question: str,
    quantifier: QuestionShape,
    chunks: Sequence[ChunkLike[TokenT]],
    denial_texts: list[tuple[str, str]],
    answer_texts: list[str],
    proximity: int,
    reading: Reading[TokenT],
) -> GuardResult:
    normalise = reading.normalise
    denials = find_denials(denial_texts, normalise)
    if not denials:
        return GuardResult(detail="silent: the answer denies nothing")
    if not quantifier.extraction_shaped:
        return GuardResult(denials=denials, detail=f"silent: a yes/no question ({quantifier.rule})")
    subject, predicates = predicate_stems(question, reading)
    if not subject:
        return GuardResult(denials=denials, detail="silent: the question has no content tokens")
    # A question word the evidence capitalises mid-sentence is a name, not a predicate.
    capitalised = {
        s for c in chunks for t, s in zip(c.tokens, c.stems, strict=True)
        if s in predicates and t.capitalised and not reading.sentence_initial(c.ev.text, t)
    }
    predicates = predicates - capitalised
    stated = normalise(" \n ".join(answer_texts))
    spans: list[tuple[str, int, str]] = []
    already = 0
    for chunk in chunks:
        for span in candidate_spans(chunk, subject, predicates, proximity, reading):
            if normalise(span.text) in stated:
                already += 1
                continue
            spans.append((chunk.ev.id, span.start, span.text))
    if not spans:
        why = "silent: no candidate answer spans near the question's content tokens"
        if already:
            why += f" ({already} already stated in the answer)"
        return GuardResult(denials=denials, detail=why)
    return GuardResult(
        answerability_warning=True,
        missed_answer_candidate_spans=spans,
        denials=denials,
        detail=f"the answer denies the evidence answers it, yet {len(spans)} candidate span(s) sit near the subject",
    )
