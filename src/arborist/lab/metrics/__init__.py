"""Run summaries computed from per-query rows; every figure states the rows it covers and the rows it could not measure."""

from __future__ import annotations

from pydantic import BaseModel, Field


class NotMeasured(BaseModel):
    row: str
    reason: str


class Measured(BaseModel):
    """A mean (or rate) over rows, never a silent NaN: `value` is None when no row could be measured."""

    value: float | None
    rows_covered: int
    rows_not_measured: list[NotMeasured] = Field(default_factory=list)


def mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None
