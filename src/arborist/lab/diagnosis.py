"""Failure decomposition: the first boundary at which support for the gold answer disappeared.

The answer path is a chain (DESIGN.md §1); each boundary keeps a subset of
what the one before it kept. For the sources a question needs, walk the
chain and stop at the first boundary that lost one of them:

    retrieval          a needed source has no chunk in the ranked list
    evidence_k         ranked, but no chunk of it among the first EvidenceK
    context_admission  selected, but every chunk of it omitted by the rune budget
    contract           all admitted, but the answer is unusable (provider error,
                       no JSON, wrong shape, stray citation)
    generation         all admitted, a usable answer, but the gold answer is not in it
    none               all admitted and the answer states the gold answer

A question that needs several sources fails where the first of them went
missing. A question without relevant source ids (or, past admission,
without gold answers) cannot be diagnosed: the row says why instead.
`gold_in_answer` is reported beside the boundary, so an answer that is right
without its evidence (from the model's memory) stays visible.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field

from arborist.evaluation.format import Question
from arborist.lab.runfiles import BOUNDARIES as BOUNDARIES
from arborist.lab.runfiles import Boundary as Boundary
from arborist.verify.normalize import normalise


class PathView(BaseModel):
    """What one answer kept at each boundary, as source ids, plus its usable answer text."""

    ranked_source_ids: list[str]
    selected_source_ids: list[str]
    admitted_source_ids: list[str]
    contract_valid: bool
    answer_text: str | None = Field(description="what the answer asserts; None when the contract failed")


class BoundaryDiagnosis(BaseModel):
    boundary: Boundary | None = Field(description="None when the row cannot be diagnosed (see unmeasured)")
    missing_source_ids: list[str] = Field(default_factory=list, description="needed sources lost at that boundary")
    gold_in_answer: bool | None = None
    unmeasured: str | None = None


class RequestDiagnosis(BoundaryDiagnosis):
    id: str


class Diagnosis(BoundaryDiagnosis):
    requests: list[RequestDiagnosis] = Field(default_factory=list)


def answer_text(answer: dict[str, Any] | None) -> str:
    """What an answer asserts: its quotes in quote mode, its claims' text otherwise.

    A claim's supporting quote is evidence, not the answer: counting it let a
    wrong claim ("785 stores") pass because its quote held the gold ("35th").
    """
    answer = answer or {}
    parts = [q["text"] for q in answer.get("quotes", [])] + [c["text"] for c in answer.get("claims", [])]
    return " ".join(parts)


def contains_gold(text: str, golds: Sequence[str]) -> bool:
    """Lenient match: the normalised answer contains a normalised gold answer or alias."""
    norm = normalise(text)
    return any(normalise(g) in norm for g in golds if g.strip())


def locate(needed: Sequence[str], golds: Sequence[str], path: PathView) -> BoundaryDiagnosis:
    gold = None if path.answer_text is None or not golds else contains_gold(path.answer_text, golds)
    if not needed:
        return BoundaryDiagnosis(boundary=None, gold_in_answer=gold, unmeasured="no relevant source ids")
    kept: tuple[tuple[Boundary, list[str]], ...] = (
        ("retrieval", path.ranked_source_ids),
        ("evidence_k", path.selected_source_ids),
        ("context_admission", path.admitted_source_ids),
    )
    for boundary, present in kept:
        missing = [s for s in needed if s not in present]
        if missing:
            return BoundaryDiagnosis(boundary=boundary, missing_source_ids=missing, gold_in_answer=gold)
    if not path.contract_valid:
        return BoundaryDiagnosis(boundary="contract", gold_in_answer=None)
    if gold is None:
        return BoundaryDiagnosis(boundary=None, unmeasured="no gold answers to look for in the answer")
    return BoundaryDiagnosis(boundary="none" if gold else "generation", gold_in_answer=gold)


def diagnose(question: Question, path: PathView) -> Diagnosis:
    """The question's diagnosis, and one per request when the evaluation has requests."""
    top = locate(question.relevant_source_ids, question.answers, path)
    requests = [
        RequestDiagnosis(id=r.id, **locate(r.supporting_source_ids, r.answers, path).model_dump())
        for r in question.requests
    ]
    return Diagnosis(**top.model_dump(), requests=requests)
