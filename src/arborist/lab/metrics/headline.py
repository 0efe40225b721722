"""Headline metrics per row, shared by sweeps (one value per cell) and comparisons (paired per row).

They read the per-query rows as written (JSON), not the Row model, so a
field that a newer arborist adds to rows (request completeness) is read
when it is there and reported as not measured when it is not.

Binary metrics count a row that has no usable answer (contract failure,
provider error) as a miss, not as unmeasured: comparing two prompts, the
one that breaks the contract more often must not look better for it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arborist.lab.metrics import Measured, NotMeasured, mean
from arborist.lab.rows import row_key


@dataclass(frozen=True)
class HeadlineMetric:
    name: str
    title: str
    binary: bool
    read: Callable[[Mapping[str, Any]], float | None]
    why_unmeasured: str
    share: bool = False  # a share in 0..1 without being binary per row

    @property
    def unit_scale(self) -> bool:
        return self.binary or self.share


def _get(row: Mapping[str, Any], *path: str) -> Any:
    node: Any = row
    for step in path:
        if not isinstance(node, Mapping):
            return None
        node = node.get(step)
    return node


def _valid(row: Mapping[str, Any]) -> float | None:
    valid = _get(row, "contract", "valid")
    return None if valid is None else float(bool(valid))


def _gold(row: Mapping[str, Any]) -> float | None:
    if not row.get("gold_answers"):
        return None
    return float(bool(_get(row, "contract", "valid")) and bool(_get(row, "diagnosis", "gold_in_answer")))


def _strict(row: Mapping[str, Any]) -> float | None:
    if _get(row, "contract") is None:
        return None
    return float(_get(row, "verifier", "label") == "STRICT")


def _strict_quoted(row: Mapping[str, Any]) -> float | None:
    """STRICT that rests on quotes alone: no claim of the answer was accepted by the entailment judge."""
    if _get(row, "contract") is None:
        return None
    return float(_get(row, "verifier", "label") == "STRICT" and _get(row, "verifier", "basis") != "judged")


def _strict_right(row: Mapping[str, Any]) -> float | None:
    """Whether a STRICT answer holds the gold: a label is worth what this says (measured on STRICT rows only)."""
    if _get(row, "verifier", "label") != "STRICT" or not row.get("gold_answers"):
        return None
    return float(bool(_get(row, "diagnosis", "gold_in_answer")))


def _ratio(node: Mapping[str, Any]) -> float | None:
    for key in ("answered_rate", "value", "rate", "score", "share"):
        if key in node:  # a rate the row states (None: nothing measured) is the answer, never recomputed
            v = node[key]
            return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None
    answered, total = node.get("answered"), node.get("total", node.get("requests"))
    if isinstance(answered, int) and isinstance(total, int) and not isinstance(answered, bool) and total > 0:
        return answered / total
    items = node.get("requests")
    return _share_answered(items) if isinstance(items, list) else None


def _share_answered(items: list[Any]) -> float | None:
    flags = [bool(i["answered"]) for i in items if isinstance(i, Mapping) and i.get("answered") is not None]
    return sum(flags) / len(flags) if flags else None


def completeness(row: Mapping[str, Any]) -> float | None:
    """Share of the question's requests the answer answered, if the row carries request completeness.

    Accepts the shapes a row may carry it in: a number, an object with a
    rate (`answered_rate`, `value`, `rate`, ...; None there means nothing was
    measured), counts (`answered` of `total`/`requests`) or a list of
    per-request objects with `answered` (None: not measured). None when absent.
    """
    node = row.get("completeness")
    if isinstance(node, int | float) and not isinstance(node, bool):
        return float(node)
    if isinstance(node, Mapping):
        return _ratio(node)
    if isinstance(node, list):
        return _share_answered(node)
    return None


def _admitted(row: Mapping[str, Any]) -> float | None:
    ids = _get(row, "context", "admitted_chunk_ids")
    return float(len(ids)) if isinstance(ids, list) else None


def _answer_runes(row: Mapping[str, Any]) -> float | None:
    if not _get(row, "contract", "valid"):
        return None
    text = _get(row, "answer", "text")
    return float(len(text)) if isinstance(text, str) else None


METRICS: dict[str, HeadlineMetric] = {m.name: m for m in (
    HeadlineMetric("valid", "contract-valid rate", True, _valid, "no contract"),
    HeadlineMetric("gold", "gold answer in the answer", True, _gold, "no gold answers"),
    HeadlineMetric("strict", "STRICT rate (any basis)", True, _strict, "no contract"),
    HeadlineMetric("strict_quoted", "STRICT rate (quoted: no claim judged)", True, _strict_quoted, "no contract"),
    HeadlineMetric("strict_right", "STRICT answers holding the gold", False, _strict_right,
                   "not labelled STRICT, or no gold answers", share=True),
    HeadlineMetric("completeness", "request completeness", False, completeness,
                   "no request completeness measured in the row (an unusable answer, no gold answers, or a row from "
                   "before it was recorded)", share=True),
    HeadlineMetric("admitted_chunks", "admitted chunks", False, _admitted, "no admitted ids"),
    HeadlineMetric("answer_runes", "answer length (runes)", False, _answer_runes, "no usable answer"),
)}
COMPARABLE = ("valid", "gold", "strict", "strict_quoted", "completeness")


def row_identity(row: Mapping[str, Any]) -> tuple[str, str, int]:
    return (str(row.get("query_id")), str(row.get("arm")), int(row.get("sample") or 0))


def measure(rows: Sequence[Mapping[str, Any]], metric: HeadlineMetric) -> Measured:
    values: list[float] = []
    missing: list[NotMeasured] = []
    for r in rows:
        v = metric.read(r)
        if v is None:
            missing.append(NotMeasured(row=row_key(*row_identity(r)), reason=metric.why_unmeasured))
        else:
            values.append(v)
    return Measured(value=mean(values), rows_covered=len(values), rows_not_measured=missing)


def per_question(rows: Sequence[Mapping[str, Any]], metric: HeadlineMetric) -> dict[str, float]:
    """The metric's mean per question over the samples that have it (the unit a bootstrap resamples)."""
    groups: dict[str, list[float]] = {}
    for r in rows:
        v = metric.read(r)
        if v is not None:
            groups.setdefault(str(r.get("query_id")), []).append(v)
    return {q: sum(vs) / len(vs) for q, vs in groups.items()}
