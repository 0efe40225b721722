"""Choose RRF k and per-route weights by measurement on the dev sets.

Usage: .venv/bin/python bench/tune_fusion.py DB:EVAL [DB:EVAL ...] [--k 10]

Each DB:EVAL pair is a store and its evaluation file (e.g. made with
`arborist datasets import`). Every route's ranking is recorded once per
question; fusions are then replayed offline over a grid of weights and RRF
constants. Printed: the best settings by mean Recall@10 over all sets
(ties -> nDCG@10), with per-set figures, and each set's leave-one-set-out
result (settings chosen on the other sets), which is the honest figure.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
from pathlib import Path

from arborist.corpus.store import open_store
from arborist.evaluation.format import load_evaluation
from arborist.evaluation.metrics import dedupe, score_query
from arborist.retrieval.fusion import rrf
from arborist.retrieval.search import DEFAULT_ROUTES, SearchSettings, search_many

WEIGHTS = (0.0, 0.5, 1.0, 2.0)
RRF_KS = (10, 30, 60, 100)


def record(db: Path, eval_path: Path) -> list[tuple[dict[str, list[str]], set[str]]]:
    """Per question: {route: ranked source ids}, relevant ids."""
    evaluation = load_evaluation(eval_path)
    with open_store(db) as store:
        doc_source = dict(store.db.execute("SELECT doc_id, source_id FROM documents").fetchall())
        qs = [q for q in evaluation.questions if q.relevant_source_ids]
        out = []
        settings = SearchSettings(title_filter=False)
        for q, res in zip(qs, search_many(store, [q.question for q in qs], settings)):
            routes = {
                name: [doc_source[c.split("#chunk-", 1)[0]] for c in ids]
                for name, ids in res.route_rankings.items()
            }
            out.append((routes, set(q.relevant_source_ids)))
    return out


def fuse_score(data, weights: dict[str, float], rrf_k: int, k: int) -> dict[str, float]:
    per_q = []
    for routes, relevant in data:
        # Fuse at document level: a document's rank in a route is its best chunk's rank.
        ranked = {n: dedupe(ids) for n, ids in routes.items() if weights.get(n, 0) > 0}
        if not ranked:
            return {"recall": 0.0, "ndcg": 0.0, "mrr": 0.0}
        fused = [item for item, _, _ in rrf_as_strings(ranked, rrf_k, weights)]
        per_q.append(score_query(fused, relevant, k))
    return {m: statistics.fmean(s[m] for s in per_q) for m in ("recall", "ndcg", "mrr")}


def rrf_as_strings(ranked: dict[str, list[str]], rrf_k: int, weights: dict[str, float]):
    index: dict[str, int] = {}
    as_ints = {n: [index.setdefault(s, len(index)) for s in ids] for n, ids in ranked.items()}
    names = {v: s for s, v in index.items()}
    return [(names[i], score, ranks) for i, score, ranks in rrf(as_ints, k=rrf_k, weights=weights)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pairs", nargs="+", help="DB:EVAL")
    ap.add_argument("--k", type=int, default=10)
    args = ap.parse_args()
    sets = {}
    for pair in args.pairs:
        db, ev = pair.split(":", 1)
        sets[Path(ev).stem] = record(Path(db), Path(ev))
    grid = []
    for combo in itertools.product(WEIGHTS, repeat=len(DEFAULT_ROUTES)):
        if not any(combo):
            continue
        weights = dict(zip(DEFAULT_ROUTES, combo))
        for rrf_k in RRF_KS:
            res = {name: fuse_score(data, weights, rrf_k, args.k) for name, data in sets.items()}
            grid.append((weights, rrf_k, res))

    def mean_of(res, names, metric):
        return statistics.fmean(res[n][metric] for n in names)

    names = list(sets)
    baseline = next(g for g in grid if g[1] == 60 and all(w == 1.0 for w in g[0].values()))
    print(f"plain RRF (all weights 1, k=60): " + ", ".join(f"{n} R@{args.k} {baseline[2][n]['recall']:.3f}" for n in names))
    best = max(grid, key=lambda g: (mean_of(g[2], names, "recall"), mean_of(g[2], names, "ndcg")))
    print(f"best on all sets: weights {best[0]} rrf_k {best[1]}")
    for n in names:
        r = best[2][n]
        print(f"  {n}: R@{args.k} {r['recall']:.3f}  nDCG@{args.k} {r['ndcg']:.3f}  MRR {r['mrr']:.3f}")
    if len(names) > 1:
        for held in names:
            others = [n for n in names if n != held]
            pick = max(grid, key=lambda g: (mean_of(g[2], others, "recall"), mean_of(g[2], others, "ndcg")))
            print(f"leave-out {held}: chosen on {others}: weights {pick[0]} rrf_k {pick[1]} -> "
                  f"{held} R@{args.k} {pick[2][held]['recall']:.3f}")


if __name__ == "__main__":
    main()
