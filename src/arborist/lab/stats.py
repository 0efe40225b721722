"""Paired statistics for comparing runs: a seeded bootstrap interval, exact McNemar, and the verdict rule.

Comparisons are paired per question (DESIGN.md §7): the unit that is
resampled is the question, so a question's samples move together and the
interval does not pretend they are independent draws. The verdict is
deliberately conservative: `signal` needs both an interval that excludes
zero and an effect at least as large as the signal floor (the seed used 5
percentage points), because a tiny effect measured on 30 questions is not a
reason to change a default.

scipy does the arithmetic (`scipy.stats.bootstrap`, `scipy.stats.binomtest`);
this module fixes the choices: percentile interval (stays defined when every
difference is equal, where BCa is not), a seed for every resampling, and a
p-value of 1 when no pair disagrees.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

Verdict = Literal["signal", "noise"]
DEFAULT_RESAMPLES = 10_000
DEFAULT_CONFIDENCE = 0.95
DEFAULT_SEED = 42


class Interval(BaseModel):
    model_config = ConfigDict(frozen=True)

    low: float
    high: float
    confidence: float = Field(description="e.g. 0.95")

    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0


def bootstrap_mean(
    values: Sequence[float], seed: int = DEFAULT_SEED, resamples: int = DEFAULT_RESAMPLES,
    confidence: float = DEFAULT_CONFIDENCE,
) -> Interval | None:
    """Percentile bootstrap interval of the mean of `values` (one value per question); None below two values.

    For a paired comparison pass the per-question differences (B - A): resampling
    questions keeps each question's two arms together. The same seed gives the same interval.
    """
    data = np.asarray(values, dtype=float)
    if data.size < 2:
        return None
    if np.all(data == data[0]):
        # Every resample has the same mean; scipy warns about the degenerate distribution.
        return Interval(low=float(data[0]), high=float(data[0]), confidence=confidence)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=RuntimeWarning)
        from scipy import stats as sps  # here, not at import: scipy costs every CLI command ~0.5 s

        result = sps.bootstrap((data,), np.mean, n_resamples=resamples, confidence_level=confidence,
                               method="percentile", vectorized=True, rng=np.random.default_rng(seed))
    ci = result.confidence_interval
    return Interval(low=float(ci.low), high=float(ci.high), confidence=confidence)


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Exact (binomial) McNemar p-value, two-sided, from the discordant pairs.

    `only_a`: pairs where A succeeded and B failed; `only_b`: the reverse.
    Under the null both are equally likely, so min(only_a, only_b) ~ Binomial(n, 1/2).
    No discordant pair: p = 1 (nothing disagrees).
    """
    if only_a < 0 or only_b < 0:
        raise ValueError("discordant counts cannot be negative")
    n = only_a + only_b
    if n == 0:
        return 1.0
    from scipy import stats as sps

    return float(sps.binomtest(min(only_a, only_b), n, 0.5, alternative="two-sided").pvalue)


SIGNAL_ALPHA = 0.05


def verdict(delta: float, interval: Interval | None, floor: float, p_value: float | None = None) -> Verdict:
    """`signal` only when the interval excludes zero, |delta| >= floor and, for a binary metric, McNemar's exact
    p is below SIGNAL_ALPHA; `noise` otherwise (or without an interval).

    The test guards the interval where it is weakest: with few discordant pairs all on one side (0 vs 4 of 60
    questions) a percentile bootstrap rarely draws none of them and excludes zero, while the exact test gives
    p = 0.125."""
    if interval is None or (p_value is not None and p_value >= SIGNAL_ALPHA):
        return "noise"
    # A delta of exactly the floor (0.05 on 20 questions is 1/20) must not fall short by a rounding error.
    return "signal" if interval.excludes_zero() and abs(delta) >= floor - 1e-12 else "noise"
