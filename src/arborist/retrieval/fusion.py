"""Rank fusion: score-aware (min-max normalised scores) and Reciprocal Rank Fusion
(Cormack et al. 2009), both keeping every route's rank."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

DEFAULT_RRF_K = 60


def tied_ranks(scores: Sequence[float]) -> list[int]:
    """1-based competition ranks of scores sorted best first: equal scores share the better rank.

    Every chunk of a document shares its title score; ranking them 1, 2, 3 …
    would credit the first chunk for nothing but its position.
    """
    ranks: list[int] = []
    for i, score in enumerate(scores, start=1):
        ranks.append(ranks[-1] if ranks and score == scores[i - 2] else i)
    return ranks


def rrf(
    ranked: Mapping[str, Sequence[int]],
    k: int = DEFAULT_RRF_K,
    weights: Mapping[str, float] | None = None,
    scores: Mapping[str, Sequence[float]] | None = None,
) -> list[tuple[int, float, dict[str, int]]]:
    """Fuse per-route rankings: fused score = sum over routes of weight / (k + rank).

    `scores`, per route (aligned with `ranked`), makes equal scores share a
    rank (`tied_ranks`). Returns (item, fused score, {route: 1-based rank})
    best first; ties are broken by the best single rank, then by item id, so
    output is deterministic.
    """
    fused: dict[int, float] = {}
    ranks: dict[int, dict[str, int]] = {}
    for name, items in ranked.items():
        w = 1.0 if weights is None else weights.get(name, 1.0)
        route_scores = None if scores is None else scores.get(name)
        positions = tied_ranks(route_scores) if route_scores is not None else range(1, len(items) + 1)
        for rank, item in zip(positions, items):
            fused[item] = fused.get(item, 0.0) + w / (k + rank)
            ranks.setdefault(item, {})[name] = rank
    order = sorted(fused, key=lambda i: (-fused[i], min(ranks[i].values()), i))
    return [(i, fused[i], ranks[i]) for i in order]


def normalised_sum(
    ranked: Mapping[str, Sequence[tuple[int, float]]],
    weights: Mapping[str, float] | None = None,
) -> list[tuple[int, float, dict[str, int]]]:
    """Fuse per-route (item, score) lists: fused score = sum of weight x min-max normalised score.

    Each route's scores are mapped to [0, 1] over its own list (best 1,
    worst 0; a list of equal scores is all 1), and an item a route did not
    list gets 0 from it. Unlike RRF this keeps how far ahead a route's best
    hit is: a BM25 hit far ahead of the rest stays first even when another
    route ranks something else first (Bruch et al. 2023 found a convex
    combination of normalised scores beats RRF in and out of domain).
    Output as `rrf`: (item, score, {route: tied 1-based rank}) best first.
    """
    fused: dict[int, float] = {}
    ranks: dict[int, dict[str, int]] = {}
    for name, hits in ranked.items():
        if not hits:
            continue
        w = 1.0 if weights is None else weights.get(name, 1.0)
        scores = [s for _, s in hits]
        hi, lo = max(scores), min(scores)
        for rank, (item, score) in zip(tied_ranks(scores), hits):
            norm = (score - lo) / (hi - lo) if hi > lo else 1.0
            fused[item] = fused.get(item, 0.0) + w * norm
            ranks.setdefault(item, {})[name] = rank
    order = sorted(fused, key=lambda i: (-fused[i], min(ranks[i].values()), i))
    return [(i, fused[i], ranks[i]) for i in order]
