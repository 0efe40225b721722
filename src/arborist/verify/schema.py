"""The verifier's inputs: evidence and the three answer shapes, checked field by field.

Shapes (fixed by the answer modes):

- quote:                  {"quotes": [{"evidence_id": str, "text": str}], "abstained_requests": [str]}
- claim_lattice:          {"claims": [{"text": str, "evidence_ids": [str], "quote": str}], "abstained_requests": [str]}
- claim_lattice_pointer:  {"claims": [{"text": str, "evidence_ids": [str]}], "abstained_requests": [str]}

`abstained_requests` may be absent (no abstentions); a claim_lattice claim's
`quote` may be absent, null or empty (then its quote check reports
QUOTE_MISSING). Keys the verifier does not read are ignored. Anything else
out of shape raises `VerifyInputError` naming the field, e.g.
"answer.claims[2].evidence_ids: expected a list of strings".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from arborist.errors import InputError

MODES = ("quote", "claim_lattice", "claim_lattice_pointer")


class VerifyInputError(InputError, ValueError):
    """A question, mode, evidence list or answer that is not in the expected shape."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


class Evidence(BaseModel):
    """One evidence chunk as the answer saw it; extra fields (scores, doc ids) are ignored."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    id: str
    title: str
    text: str


@dataclass(frozen=True)
class Item:
    """One claim or quote of an answer, in a mode-independent form."""

    index: int
    text: str
    evidence_ids: list[str]
    quote: str | None  # what the quote check looks for; "" when missing, None when the mode has no quotes


@dataclass(frozen=True)
class ParsedAnswer:
    items: list[Item]
    abstained_requests: list[str]


def _type(value: Any) -> str:
    return "null" if value is None else type(value).__name__.replace("dict", "object").replace("str", "string")


def check_mode(mode: Any) -> str:
    if not isinstance(mode, str) or mode not in MODES:
        raise VerifyInputError("mode", f"{mode!r} is not a valid answer mode; valid: {', '.join(MODES)}")
    return mode


def check_question(question: Any) -> str:
    if not isinstance(question, str):
        raise VerifyInputError("question", f"expected a string, got {_type(question)}")
    return question


def parse_evidence(evidence: Any) -> list[Evidence]:
    if not isinstance(evidence, list | tuple):
        raise VerifyInputError("evidence", f"expected a list of {{id, title, text}}, got {_type(evidence)}")
    out: list[Evidence] = []
    seen: set[str] = set()
    for i, item in enumerate(evidence):
        where = f"evidence[{i}]"
        if isinstance(item, Evidence):
            ev = item
        else:
            get = item.get if isinstance(item, dict) else (lambda k, _o=item: getattr(_o, k, None))
            if not isinstance(item, dict) and not all(hasattr(item, k) for k in ("id", "title", "text")):
                raise VerifyInputError(where, f"expected an object {{id, title, text}}, got {_type(item)}")
            for key in ("id", "title", "text"):
                value = get(key)
                if not isinstance(value, str):
                    problem = "missing" if value is None else f"expected a string, got {_type(value)}"
                    raise VerifyInputError(f"{where}.{key}", problem)
            ev = Evidence(id=get("id"), title=get("title"), text=get("text"))
        if not ev.id:
            raise VerifyInputError(f"{where}.id", "must not be empty")
        if ev.id in seen:
            raise VerifyInputError(f"{where}.id", f"duplicate evidence id {ev.id!r}")
        seen.add(ev.id)
        out.append(ev)
    return out


def _string(value: Any, field: str, *, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise VerifyInputError(field, "missing" if value is None else f"expected a string, got {_type(value)}")
    return value


def _string_list(value: Any, field: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise VerifyInputError(field, "expected a list of strings" + ("" if value is not None else ", got nothing"))
    return list(value)


def parse_answer(mode: str, answer: Any) -> ParsedAnswer:
    if not isinstance(answer, dict):
        raise VerifyInputError("answer", f"expected an object, got {_type(answer)}")
    key = "quotes" if mode == "quote" else "claims"
    if key not in answer:
        raise VerifyInputError(f"answer.{key}", f"missing (mode '{mode}' answers carry '{key}')")
    raw = answer[key]
    if not isinstance(raw, list):
        raise VerifyInputError(f"answer.{key}", f"expected a list, got {_type(raw)}")
    items: list[Item] = []
    for i, entry in enumerate(raw):
        where = f"answer.{key}[{i}]"
        if not isinstance(entry, dict):
            raise VerifyInputError(where, f"expected an object, got {_type(entry)}")
        if mode == "quote":
            eid = _string(entry.get("evidence_id"), f"{where}.evidence_id")
            text = _string(entry.get("text"), f"{where}.text") or ""
            items.append(Item(i, text, [eid] if eid else [], text))
        else:
            text = _string(entry.get("text"), f"{where}.text") or ""
            ids = _string_list(entry.get("evidence_ids"), f"{where}.evidence_ids")
            quote = _string(entry.get("quote"), f"{where}.quote", optional=True) if mode == "claim_lattice" else None
            items.append(Item(i, text, ids, (quote or "") if mode == "claim_lattice" else None))
    abstained = answer.get("abstained_requests", [])
    abstained = [] if abstained is None else _string_list(abstained, "answer.abstained_requests")
    return ParsedAnswer(items, abstained)
