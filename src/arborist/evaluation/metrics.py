"""Ranking metrics over one ranked list of document ids and a set of relevant ids.

Binary relevance, cut at k. Means are always computed from per-query
values, and every aggregate says how many queries it covers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

METRICS = ("mrr", "recall", "ndcg", "hit")


def dedupe(ranked: Sequence[str]) -> list[str]:
    """Keep each id at its best rank (a document ranks where its best chunk ranks)."""
    return list(dict.fromkeys(ranked))


def reciprocal_rank(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    for i, doc in enumerate(ranked[:k], start=1):
        if doc in relevant:
            return 1.0 / i
    return 0.0


def recall(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    return len(relevant.intersection(ranked[:k])) / len(relevant)


def ndcg(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    dcg = sum(1.0 / math.log2(i + 1) for i, doc in enumerate(ranked[:k], start=1) if doc in relevant)
    ideal = sum(1.0 / math.log2(i + 1) for i in range(1, min(len(relevant), k) + 1))
    return dcg / ideal


def hit(ranked: Sequence[str], relevant: set[str], k: int) -> float:
    return 1.0 if relevant.intersection(ranked[:k]) else 0.0


def score_query(ranked: Sequence[str], relevant: set[str], k: int) -> dict[str, float]:
    """All metrics for one query; `ranked` must already be deduplicated."""
    return {
        "mrr": reciprocal_rank(ranked, relevant, k),
        "recall": recall(ranked, relevant, k),
        "ndcg": ndcg(ranked, relevant, k),
        "hit": hit(ranked, relevant, k),
    }
