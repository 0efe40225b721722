"""Helpers shared by the benchmark scripts (not part of the package)."""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def require_shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        sys.exit(f"skipped: {SHARED_DATA} is absent (evaluation data is not shipped with arborist)")
    return SHARED_DATA


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    idx = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[idx]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def summary(latencies: list[float]) -> str:
    return f"p50 {ms(percentile(latencies, 50))}, p95 {ms(percentile(latencies, 95))}, mean {ms(statistics.fmean(latencies))}"
