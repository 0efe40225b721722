"""Reciprocal Rank Fusion (Cormack et al. 2009), keeping every route's rank."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

DEFAULT_RRF_K = 60


def rrf(
    ranked: Mapping[str, Sequence[int]],
    k: int = DEFAULT_RRF_K,
    weights: Mapping[str, float] | None = None,
) -> list[tuple[int, float, dict[str, int]]]:
    """Fuse per-route rankings: score = sum over routes of weight / (k + rank).

    Returns (item, fused score, {route: 1-based rank}) best first; ties are
    broken by the best single rank, then by item id, so output is deterministic.
    """
    scores: dict[int, float] = {}
    ranks: dict[int, dict[str, int]] = {}
    for name, items in ranked.items():
        w = 1.0 if weights is None else weights.get(name, 1.0)
        for rank, item in enumerate(items, start=1):
            scores[item] = scores.get(item, 0.0) + w / (k + rank)
            ranks.setdefault(item, {})[name] = rank
    order = sorted(scores, key=lambda i: (-scores[i], min(ranks[i].values()), i))
    return [(i, scores[i], ranks[i]) for i in order]
