"""The answer contract: parse, validate, check citations, classify abstention.

The result is data, never an exception: a broken answer is a finding the
record must keep (with the raw response), not a crash.

Reason codes (one per result):
  OK                     valid answer with at least one cited claim or quote
  ABSTAINED              valid: no claims, every request explicitly abstained
  PROVIDER_ERROR         the provider call failed; there is no response to judge
  PARSE_FAILURE          the response is not a JSON object
  SCHEMA_VIOLATION       JSON, but not in the mode's shape
  EMPTY_ANSWER           valid shape, but no claims and no abstention
  NO_CITATION            a claim or quote cites no evidence id
  CITATION_NOT_ADMITTED  a cited id is not one of the admitted evidence ids
"""

from __future__ import annotations

import json
import re
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from arborist.models.base import scrub_surrogates
from arborist.prompting.modes import ANSWER_MODELS


class ContractReason(StrEnum):
    """The contract's verdict on a response; see REASONS for their meaning."""

    OK = "OK"
    ABSTAINED = "ABSTAINED"
    PROVIDER_ERROR = "PROVIDER_ERROR"
    PARSE_FAILURE = "PARSE_FAILURE"
    SCHEMA_VIOLATION = "SCHEMA_VIOLATION"
    EMPTY_ANSWER = "EMPTY_ANSWER"
    NO_CITATION = "NO_CITATION"
    CITATION_NOT_ADMITTED = "CITATION_NOT_ADMITTED"


REASONS: dict[ContractReason, str] = {
    ContractReason.OK: "valid answer with at least one cited claim or quote",
    ContractReason.ABSTAINED: "valid: no claims, every request explicitly abstained",
    ContractReason.PROVIDER_ERROR: "the provider call failed; there is no response to judge",
    ContractReason.PARSE_FAILURE: "the response is not a JSON object",
    ContractReason.SCHEMA_VIOLATION: "JSON, but not in the mode's shape",
    ContractReason.EMPTY_ANSWER: "valid shape, but no claims and no abstention",
    ContractReason.NO_CITATION: "a claim or quote cites no evidence id",
    ContractReason.CITATION_NOT_ADMITTED: "a cited id is not one of the admitted evidence ids",
}

# Responses with no answer to verify (nothing parsed into the mode's shape).
UNVERIFIABLE = frozenset({ContractReason.PROVIDER_ERROR, ContractReason.PARSE_FAILURE, ContractReason.SCHEMA_VIOLATION})

Abstention = Literal["none", "partial", "full"]


class ContractResult(BaseModel):
    valid: bool
    reason: ContractReason
    detail: str = ""
    abstention: Abstention = "none"
    answer: dict[str, Any] | None = None
    cited_evidence_ids: list[str] = []


_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.S)


def parse_json_object(text: str) -> dict[str, Any] | None:
    """The JSON object in `text`, tolerating raw control characters inside strings
    (llama.cpp's grammar lets them through) and a Markdown code fence around it."""
    m = _FENCE.match(text)
    if m:
        text = m.group(1)
    try:
        obj = json.loads(text, strict=False)
    except RecursionError:  # absurdly nested: not an answer
        return None
    except json.JSONDecodeError:
        start, end = text.find("{"), text.rfind("}")
        if start < 0 or end <= start:
            return None
        try:
            obj = json.loads(text[start : end + 1], strict=False)
        except (json.JSONDecodeError, RecursionError):
            return None
    return scrub_surrogates(obj) if isinstance(obj, dict) else None


def _citations(mode: str, answer: dict[str, Any]) -> list[list[str]]:
    if mode == "quote":
        return [[q["evidence_id"]] if q["evidence_id"] else [] for q in answer["quotes"]]
    return [c["evidence_ids"] for c in answer["claims"]]


def check_contract(mode: str, text: str, admitted_ids: list[str], provider_error: str | None = None) -> ContractResult:
    if provider_error is not None:
        return ContractResult(valid=False, reason=ContractReason.PROVIDER_ERROR, detail=provider_error)
    obj = parse_json_object(text)
    if obj is None:
        return ContractResult(valid=False, reason=ContractReason.PARSE_FAILURE, detail=f"no JSON object in {len(text)} chars")
    try:
        answer = ANSWER_MODELS[mode].model_validate(obj).model_dump()
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "(root)"
        return ContractResult(valid=False, reason=ContractReason.SCHEMA_VIOLATION, detail=f"{where}: {err['msg']}")
    items = _citations(mode, answer)
    abstained = [r for r in answer["abstained_requests"] if r.strip()]
    abstention: Abstention = "full" if abstained and not items else "partial" if abstained else "none"
    if not items:
        if abstained:
            return ContractResult(valid=True, reason=ContractReason.ABSTAINED, abstention="full", answer=answer)
        return ContractResult(valid=False, reason=ContractReason.EMPTY_ANSWER, answer=answer)
    cited = list(dict.fromkeys(e for ids in items for e in ids))
    for i, ids in enumerate(items):
        if not ids:
            return ContractResult(
                valid=False, reason=ContractReason.NO_CITATION, detail=f"item {i} cites no evidence id",
                abstention=abstention, answer=answer, cited_evidence_ids=cited,
            )
    stray = [e for e in cited if e not in admitted_ids]
    if stray:
        return ContractResult(
            valid=False, reason=ContractReason.CITATION_NOT_ADMITTED,
            detail=f"cited {', '.join(stray)}; admitted: {', '.join(admitted_ids) or 'none'}",
            abstention=abstention, answer=answer, cited_evidence_ids=cited,
        )
    return ContractResult(valid=True, reason=ContractReason.OK, abstention=abstention, answer=answer, cited_evidence_ids=cited)
