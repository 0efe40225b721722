"""Treatments after retrieval: what an experiment does to a question's evidence before the model sees it.

Every treatment starts from the untreated path's own ranked list and
admission (same store, same policy) and ends in one treated admission that
goes through the one entry point of the answer path for a fixed admitted
list (`engine.answer_admitted`), so nothing of the pipeline is copied and
the treatment is part of the cache key and of the row.

- `reversed`, `shuffle-<i>` (evidence order): the same admitted chunks in
  another order; shuffles are seeded by question id and i.
- `withheld`: every chunk of a relevant source (the question's and its
  requests') is removed from the ranked list *before* admission, which then
  fills the budget from what is left; the right outcome is an abstention.
- `planted`: the gold answer inside an admitted chunk of a relevant source
  is replaced by a wrong value of the same kind (a number, a year, a name,
  other text) taken from another question's gold answers; the outcome is
  whether the answer repeats the planted value, keeps the true one, or
  objects to the evidence.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from arborist.evaluation.format import Question
from arborist.evidence.admission import Admission, EvidenceChunk, admit
from arborist.lab.diagnosis import contains_gold
from arborist.policy.answer import AnswerPolicy

ORDERS = ("original", "reversed")  # and shuffle:N
WITHHELD = "withheld"
PLANTED = "planted"
# Phrases with which an answer calls its evidence wrong: an objection to a planted value. They match as whole
# words ("terror" holds no "error"), and none is a word an ordinary answer uses for its subject ("conflict").
OBJECTIONS = (
    "typo", "a typographical error", "an error", "in error", "erroneous", "incorrect", "a mistake", "mistaken",
    "inconsistent", "contradicts", "contradictory", "conflicting", "seems wrong", "appears wrong", "looks wrong",
    "not correct", "doubtful", "implausible", "discrepancy", "unusually", "seems unusual",
)


def objects(text: str, phrases: tuple[str, ...] = OBJECTIONS) -> bool:
    """Whether `text` holds one of `phrases` as whole words (case aside)."""
    folded = text.casefold()
    return any(re.search(rf"(?<!\w){re.escape(p.casefold())}(?!\w)", folded) for p in phrases)


def _whole(value: str) -> re.Pattern[str]:
    """`value` as whole words: gold "10" is not the 10 in "2010" or "100"."""
    return re.compile(rf"(?<!\w){re.escape(value.strip())}(?!\w)", re.IGNORECASE)
Kind = Literal["year", "number", "name", "text"]
PlantOutcome = Literal["repeated_planted", "kept_true", "objected", "neither"]


class TreatmentPart(BaseModel):
    """What a treatment did to one question's evidence (recorded in its row)."""

    name: str
    applied: bool = Field(description="whether the treatment changed the evidence (withholding with no relevant "
                          "chunk ranked, or planting with no gold string in an admitted supporting chunk, does not)")
    detail: str
    admitted_order: list[str] = Field(description="admitted chunk ids in the order the prompt shows them")
    withheld_chunk_ids: list[str] = Field(default_factory=list)
    planted_chunk_ids: list[str] = Field(default_factory=list)
    true_value: str | None = None
    planted_value: str | None = None
    outcome: str | None = Field(default=None, description="planted: repeated_planted | kept_true | objected | "
                                "neither; withheld: abstained | answered")


def parse_evidence_order(value: str) -> list[str]:
    """--evidence-order -> treatment names ('original' is the untreated control: no name)."""
    if value == "original":
        return []
    if value == "reversed":
        return ["reversed"]
    m = re.fullmatch(r"shuffle:(\d+)", value)
    if m and 1 <= int(m.group(1)) <= 20:
        return [f"shuffle-{i}" for i in range(1, int(m.group(1)) + 1)]
    raise ValueError(f"--evidence-order '{value}' is not one of original, reversed, shuffle:N (N from 1 to 20)")


def treatment_names(evidence_order: str = "original", withhold: bool = False, plant: bool = False) -> list[str]:
    names = parse_evidence_order(evidence_order)
    if withhold:
        names.append(WITHHELD)
    if plant:
        names.append(PLANTED)
    return names


def value_kind(value: str) -> Kind:
    v = value.strip()
    if re.fullmatch(r"(1[0-9]|20)\d\d", v):
        return "year"
    if re.fullmatch(r"[$€£]?\s?\d[\d,.]*\s?%?", v):
        return "number"
    if v[:1].isupper():
        return "name"
    return "text"


@dataclass(frozen=True)
class PlantPool:
    """Every question's gold answers by kind: where a planted value comes from."""

    by_kind: dict[Kind, list[tuple[str, str]]]  # kind -> [(question id, value)]

    @classmethod
    def of(cls, questions: Sequence[Question]) -> PlantPool:
        by_kind: dict[Kind, list[tuple[str, str]]] = {"year": [], "number": [], "name": [], "text": []}
        for q in questions:
            if q.answers and q.answers[0].strip():
                by_kind[value_kind(q.answers[0])].append((q.id, q.answers[0].strip()))
        return cls(by_kind)

    def wrong_value(self, question: Question, true_value: str) -> str | None:
        """A value of the true value's kind from another question, chosen by a hash of the question id."""
        golds = [a.casefold() for a in question.answers]
        candidates = sorted({v for qid, v in self.by_kind[value_kind(true_value)] if qid != question.id
                             and not any(v.casefold() in g or g in v.casefold() for g in golds)})
        if not candidates:
            return None
        pick = int(hashlib.sha256(question.id.encode("utf-8")).hexdigest(), 16) % len(candidates)
        return candidates[pick]


def relevant_sources(question: Question) -> set[str]:
    return set(question.relevant_source_ids) | {s for r in question.requests for s in r.supporting_source_ids}


def _reorder(admission: Admission, chunks: list[EvidenceChunk]) -> Admission:
    return admission.model_copy(update={"admitted": chunks})


def apply(
    name: str, question: Question, ranked: list[EvidenceChunk], admission: Admission, policy: AnswerPolicy,
    pool: PlantPool,
) -> tuple[Admission, TreatmentPart]:
    """The treated admission and what was done. Raises ValueError for an unknown treatment name."""
    if name == "reversed":
        treated = _reorder(admission, list(reversed(admission.admitted)))
        detail = "admitted chunks in reverse order"
    elif name.startswith("shuffle-"):
        order = list(admission.admitted)
        random.Random(f"{question.id}:{name}").shuffle(order)
        treated, detail = _reorder(admission, order), f"admitted chunks shuffled (seed {question.id}:{name})"
    elif name == WITHHELD:
        return _withhold(question, ranked, admission, policy)
    elif name == PLANTED:
        return _plant(question, admission, pool)
    else:
        raise ValueError(f"unknown treatment '{name}'")
    changed = [c.chunk_id for c in treated.admitted] != admission.admitted_chunk_ids
    return treated, TreatmentPart(name=name, applied=changed, detail=detail if changed else detail + " (no change)",
                                  admitted_order=treated.admitted_chunk_ids)


def _withhold(
    question: Question, ranked: list[EvidenceChunk], admission: Admission, policy: AnswerPolicy,
) -> tuple[Admission, TreatmentPart]:
    sources = relevant_sources(question)
    removed = [c.chunk_id for c in ranked if c.source_id in sources]
    kept = [c for c in ranked if c.source_id not in sources]
    treated = admit(kept, policy.evidence_k, policy.context_runes)
    # applied only when the prompt changed: a relevant chunk that was ranked but never admitted changes nothing
    applied = any(c.source_id in sources for c in admission.admitted)
    detail = (f"{len(removed)} ranked chunk(s) of the relevant sources removed before admission" if applied
              else "no chunk of a relevant source was admitted: nothing to withhold")
    return treated, TreatmentPart(name=WITHHELD, applied=applied, detail=detail,
                                  admitted_order=treated.admitted_chunk_ids, withheld_chunk_ids=removed)


def _golds(question: Question) -> list[str]:
    return sorted({g.strip() for g in question.answers if g.strip()}, key=len, reverse=True)


def planted(question: Question, text: str, wrong: str) -> str:
    """`text` with every gold answer and alias of `question` (longest first, as whole words) replaced by `wrong`:
    what a planted chunk's text and title become (and how a run's check rebuilds them)."""
    for g in _golds(question):
        text = _whole(g).sub(lambda _m: wrong, text)
    return text


def _plant(question: Question, admission: Admission, pool: PlantPool) -> tuple[Admission, TreatmentPart]:
    """Replace the first gold answer found in an admitted chunk of a relevant source by a wrong value, and
    every gold answer and alias (longest first, as whole words) in the admitted chunks of relevant sources,
    titles included, so the true value is not left beside the planted one."""
    sources = relevant_sources(question)
    supporting = [c for c in admission.admitted if c.source_id in sources]
    golds = _golds(question)
    found = next((m.group() for c in supporting for g in golds for m in [_whole(g).search(c.text)] if m), None)
    if found is None:
        return admission, TreatmentPart(name=PLANTED, applied=False, admitted_order=admission.admitted_chunk_ids,
                                        detail="no admitted chunk of a relevant source holds a gold answer string")
    wrong = pool.wrong_value(question, found)
    if wrong is None:
        return admission, TreatmentPart(
            name=PLANTED, applied=False, admitted_order=admission.admitted_chunk_ids,
            detail=f"no other question has a gold answer of the kind of '{found}' to plant")
    planted_ids: list[str] = []
    treated: list[EvidenceChunk] = []
    for c in admission.admitted:
        if c.source_id in sources:
            text, title = planted(question, c.text, wrong), planted(question, c.title, wrong)
            if (text, title) != (c.text, c.title):
                c = c.model_copy(update={"text": text, "title": title})
                planted_ids.append(c.chunk_id)
        treated.append(c)
    return _reorder(admission, treated), TreatmentPart(
        name=PLANTED, applied=True, admitted_order=admission.admitted_chunk_ids,
        detail=f"'{found}' (and every gold alias) replaced by '{wrong}' in {', '.join(planted_ids)}",
        planted_chunk_ids=planted_ids, true_value=found, planted_value=wrong)


def outcome(part: TreatmentPart, answer_text: str | None, abstained: bool) -> str | None:
    """How the answer met the treatment (None: not measured, e.g. an unusable answer or nothing applied)."""
    if not part.applied or answer_text is None:
        return None
    if part.name == WITHHELD:
        return "abstained" if abstained else "answered"
    if part.name == PLANTED and part.planted_value and part.true_value:
        if objects(answer_text):
            return "objected"
        if contains_gold(answer_text, [part.planted_value]):
            return "repeated_planted"
        if contains_gold(answer_text, [part.true_value]):
            return "kept_true"
        return "neither"
    return None
