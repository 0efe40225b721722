"""Request-level completeness: which of a question's requests the answer answered, and on what evidence.

A question with several requests (MuSiQue's hops, a two-part question) can
be answered in part. Per request, with its gold answers and supporting
source ids from the evaluation:

- answered: the answer asserts one of the request's answers or aliases
  (the lenient match of `diagnosis.contains_gold`, on what the answer
  asserts, never on its supporting quotes);
- supported: answered, and the answer cites an admitted chunk of one of the
  request's supporting sources;
- the case, one of four:
    answered_supported     answered, citing the request's own evidence
    answered_unsupported   answered, citing none of it (memory, or a lucky miscitation)
    missed_with_evidence   not answered although its evidence was in the prompt
    not_answerable         not answered, and its evidence never reached the prompt

A request without gold answers is not measured (its `case` is None and it
counts in no rate), and a row whose answer is unusable (contract failure)
measures nothing: the contract boundary already says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, Field

from arborist.evaluation.format import Question, Request
from arborist.lab.diagnosis import contains_gold

Case = Literal["answered_supported", "answered_unsupported", "missed_with_evidence", "not_answerable"]
CASE_MEANING: dict[Case, str] = {
    "answered_supported": "answered, citing its own evidence",
    "answered_unsupported": "answered, citing none of its evidence",
    "missed_with_evidence": "missed although its evidence was in the prompt",
    "not_answerable": "missed, its evidence never reached the prompt",
}
CASES: tuple[Case, ...] = tuple(CASE_MEANING)


class RequestCompleteness(BaseModel):
    id: str
    answered: bool | None
    supported: bool | None
    evidence_admitted: bool = Field(description="a chunk of a supporting source reached the prompt")
    case: Case | None
    unmeasured: str | None = None


class Completeness(BaseModel):
    requests: list[RequestCompleteness]
    total: int = Field(description="requests measured")
    answered: int
    supported: int
    answered_rate: float | None = Field(description="answered / total; None when nothing was measured")
    supported_rate: float | None
    unmeasured: str | None = None


def _one(request: Request, answer_text: str, admitted: set[str], cited: set[str]) -> RequestCompleteness:
    sources = set(request.supporting_source_ids)
    evidence = bool(sources & admitted)
    if not request.answers:
        return RequestCompleteness(id=request.id, answered=None, supported=None, evidence_admitted=evidence,
                                   case=None, unmeasured="the request has no gold answers")
    answered = contains_gold(answer_text, request.answers)
    supported = answered and bool(sources & cited)
    if answered:
        case: Case = "answered_supported" if supported else "answered_unsupported"
    else:
        case = "missed_with_evidence" if evidence else "not_answerable"
    return RequestCompleteness(id=request.id, answered=answered, supported=supported, evidence_admitted=evidence,
                               case=case)


def requests_of(question: Question) -> list[Request]:
    """The question's requests; a question without any is its own single request."""
    if question.requests:
        return list(question.requests)
    return [Request(id=question.id, text=question.question, answers=question.answers,
                    supporting_source_ids=question.relevant_source_ids)]


def measure_completeness(
    question: Question, answer_text: str | None, admitted_sources: Sequence[str], cited_sources: Sequence[str],
) -> Completeness:
    """Completeness of one answer. `answer_text` is None when the answer is unusable (contract failure)."""
    requests = requests_of(question)
    if answer_text is None:
        return Completeness(requests=[], total=0, answered=0, supported=0, answered_rate=None, supported_rate=None,
                            unmeasured="the answer is unusable (contract failure)")
    items = [_one(r, answer_text, set(admitted_sources), set(cited_sources)) for r in requests]
    measured = [i for i in items if i.case is not None]
    answered = sum(bool(i.answered) for i in measured)
    supported = sum(bool(i.supported) for i in measured)
    n = len(measured)
    return Completeness(
        requests=items, total=n, answered=answered, supported=supported,
        answered_rate=answered / n if n else None, supported_rate=supported / n if n else None,
        unmeasured=None if n else "no request has gold answers",
    )
