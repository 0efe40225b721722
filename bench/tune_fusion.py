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
from pathlib import Path

import numpy as np

from arborist.corpus.store import open_store
from arborist.evaluation.format import load_evaluation
from arborist.evaluation.metrics import dedupe
from arborist.evaluation.retrieval_eval import ranked_sources
from arborist.retrieval.search import DEFAULT_ROUTES, SearchSettings, search_many

WEIGHTS = (0.0, 0.5, 1.0, 2.0)
RRF_KS = (10, 30, 60, 100)


def record(db: Path, eval_path: Path) -> list[tuple[dict[str, list[str]], set[str]]]:
    """Per question: {route: ranked source ids}, relevant ids."""
    evaluation = load_evaluation(eval_path)
    with open_store(db) as store:
        doc_source = store.source_ids()
        qs = [q for q in evaluation.questions if q.relevant_source_ids]
        out = []
        settings = SearchSettings(title_filter=False)
        for q, res in zip(qs, search_many(store, [q.question for q in qs], settings)):
            routes = {name: ranked_sources(ids, doc_source) for name, ids in res.route_rankings.items()}
            out.append((routes, set(q.relevant_source_ids)))
    return out


def route_matrices(data, routes: tuple[str, ...], rrf_k: int):
    """Per question: (doc ids, matrix docs x routes of 1/(rrf_k + rank), relevant mask)."""
    out = []
    for ranked, relevant in data:
        lists = {n: dedupe(ranked.get(n, [])) for n in routes}
        docs = list(dict.fromkeys(d for ids in lists.values() for d in ids))
        pos = {d: i for i, d in enumerate(docs)}
        m = np.zeros((len(docs), len(routes)))
        for j, n in enumerate(routes):
            for rank, d in enumerate(lists[n], start=1):
                m[pos[d], j] = 1.0 / (rrf_k + rank)
        out.append((m, np.array([d in relevant for d in docs]), len(relevant)))
    return out


def grid_scores(mats, weights: np.ndarray, k: int) -> dict[str, np.ndarray]:
    """Mean Recall@k and nDCG@k for every weight row at once."""
    recall = np.zeros(len(weights))
    ndcg = np.zeros(len(weights))
    discounts = 1.0 / np.log2(np.arange(2, k + 2))
    for m, rel, n_rel in mats:
        scores = m @ weights.T  # docs x combos
        top = np.argsort(-scores, axis=0, kind="stable")[:k]  # k x combos
        hits = rel[top] & (np.take_along_axis(scores, top, axis=0) > 0)
        recall += hits.sum(axis=0) / n_rel
        ideal = discounts[: min(n_rel, k)].sum()
        ndcg += (hits * discounts[: hits.shape[0], None]).sum(axis=0) / ideal
    return {"recall": recall / len(mats), "ndcg": ndcg / len(mats)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pairs", nargs="+", help="DB:EVAL")
    ap.add_argument("--k", type=int, default=10)
    args = ap.parse_args()
    sets = {}
    for pair in args.pairs:
        db, ev = pair.split(":", 1)
        sets[Path(ev).stem] = record(Path(db), Path(ev))
    routes = DEFAULT_ROUTES
    combos = np.array([c for c in itertools.product(WEIGHTS, repeat=len(routes)) if any(c)])
    results = {}  # (rrf_k) -> {set: {metric: array over combos}}
    for rrf_k in RRF_KS:
        results[rrf_k] = {n: grid_scores(route_matrices(d, routes, rrf_k), combos, args.k) for n, d in sets.items()}
    names = list(sets)

    def best(on: list[str]) -> tuple[int, int]:
        cands = []
        for rrf_k, res in results.items():
            rec = np.mean([res[n]["recall"] for n in on], axis=0)
            nd = np.mean([res[n]["ndcg"] for n in on], axis=0)
            i = int(np.lexsort((-nd, -rec))[0])
            cands.append((rec[i], nd[i], rrf_k, i))
        _, _, rrf_k, i = max(cands)
        return rrf_k, i

    def show(rrf_k: int, i: int) -> str:
        return f"weights {dict(zip(routes, combos[i].tolist()))} rrf_k {rrf_k}"

    plain = int(np.where((combos == 1.0).all(axis=1))[0][0])
    print("plain RRF (all weights 1, k=60): " + ", ".join(
        f"{n} R@{args.k} {results[60][n]['recall'][plain]:.3f}" for n in names))
    rrf_k, i = best(names)
    print(f"best on all sets: {show(rrf_k, i)}")
    for n in names:
        print(f"  {n}: R@{args.k} {results[rrf_k][n]['recall'][i]:.3f}  nDCG@{args.k} {results[rrf_k][n]['ndcg'][i]:.3f}")
    if len(names) > 1:
        for held in names:
            others = [n for n in names if n != held]
            rk, j = best(others)
            print(f"leave-out {held}: chosen on {others}: {show(rk, j)} -> {held} R@{args.k} {results[rk][held]['recall'][j]:.3f}")

if __name__ == "__main__":
    main()
