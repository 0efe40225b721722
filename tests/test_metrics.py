"""Retrieval metrics, cross-checked against ir-measures (pytrec_eval) on random rankings."""

from __future__ import annotations

import random

import ir_measures
import pytest
from ir_measures import RR, Recall, Success, nDCG

from arborist.evaluation.metrics import dedupe, hit, ndcg, recall, reciprocal_rank, score_query


def _random_case(rng: random.Random) -> tuple[list[str], set[str]]:
    docs = [f"d{i}" for i in range(40)]
    ranked = rng.sample(docs, rng.randint(0, 25))
    relevant = set(rng.sample(docs, rng.randint(1, 6)))
    return ranked, relevant


def test_metrics_match_ir_measures_on_200_random_queries() -> None:
    rng = random.Random(42)
    cases = {f"q{i}": _random_case(rng) for i in range(200)}
    qrels = [ir_measures.Qrel(q, d, 1) for q, (_, rel) in cases.items() for d in rel]
    # Scores strictly decreasing with rank, so the run's order is exactly our ranking.
    run = [ir_measures.ScoredDoc(q, d, float(100 - i)) for q, (ranked, _) in cases.items() for i, d in enumerate(ranked)]
    k = 10
    theirs: dict[tuple[str, str], float] = {}
    for m in ir_measures.iter_calc([RR @ k, Recall @ k, nDCG @ k, Success @ k], qrels, run):
        theirs[(m.query_id, str(m.measure))] = m.value
    for q, (ranked, rel) in cases.items():
        ours = score_query(ranked, rel, k)
        assert ours["mrr"] == pytest.approx(theirs.get((q, "RR@10"), 0.0), abs=1e-9), q
        assert ours["recall"] == pytest.approx(theirs.get((q, "R@10"), 0.0), abs=1e-9), q
        assert ours["ndcg"] == pytest.approx(theirs.get((q, "nDCG@10"), 0.0), abs=1e-9), q
        assert ours["hit"] == pytest.approx(theirs.get((q, "Success@10"), 0.0), abs=1e-9), q


def test_hand_computed_values() -> None:
    ranked, relevant = ["a", "x", "b", "y"], {"a", "b", "c"}
    assert reciprocal_rank(ranked, relevant, 10) == 1.0
    assert reciprocal_rank(["x", "y", "b"], relevant, 10) == pytest.approx(1 / 3)
    assert reciprocal_rank(["x", "y", "b"], relevant, 2) == 0.0
    assert recall(ranked, relevant, 10) == pytest.approx(2 / 3)
    assert recall(ranked, relevant, 1) == pytest.approx(1 / 3)
    assert hit(["x", "y"], relevant, 10) == 0.0
    # DCG = 1/log2(2) + 1/log2(4); ideal for 3 relevant = 1 + 1/log2(3) + 1/log2(4)
    assert ndcg(ranked, relevant, 10) == pytest.approx((1 + 0.5) / (1 + 1 / 1.584962500721156 + 0.5))


def test_dedupe_keeps_each_document_at_its_best_rank() -> None:
    assert dedupe(["a", "b", "a", "c", "b"]) == ["a", "b", "c"]
