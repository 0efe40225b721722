"""The measurements behind the default fusion, on single-hop and multi-hop sets together.

Usage: .venv/bin/python bench/tune_fusion.py [--out DIR] [--sets squad musique hotpotqa]

For each set in ../shared/data (SQuAD single-hop, MuSiQue, HotpotQA):
`arborist lab import-dataset` -> `arborist ingest` (with embeddings) -> every
route's own (rowid, score) list recorded once per question. Fusions are then
replayed offline through `arborist.retrieval.search.fuse` itself (the bridge
route runs live on the recorded seeds), so a replayed setting scores exactly
what `arborist search` would return.

Printed:
1. one table: each set x {bm25s, each route alone, default fused} with
   Recall@1, Recall@10 and MRR@10 (documents ranked by their best chunk);
2. a small grid (fusion kind, dense and title weights, RRF k), each
   setting judged by its worst set's shortfall against bm25s (R@1 or R@10,
   whichever is worse), with leave-one-set-out figures: each set scored
   with the setting chosen on the other two.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import tempfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from _common import DATASETS, bm25s_ranked, prepare_set, require_shared_data
from arborist import embedding
from arborist.corpus.store import CorpusStore, open_store
from arborist.evaluation.format import load_evaluation
from arborist.evaluation.metrics import score_query
from arborist.evaluation.retrieval_eval import ranked_sources
from arborist.retrieval.analysis import QueryTerms
from arborist.retrieval.lexical_index import lexical_index
from arborist.retrieval.routes import ROUTES, STAGED_ROUTES
from arborist.retrieval.search import SearchSettings, fuse

FIRST_STAGE = ("bm25", "title", "phrase", "dense")
GRID = {  # the default's few constants and the values tried
    "fusion": ("score", "rrf"),
    "dense": (0.5, 1.0, 2.0),
    "title": (0.5, 1.0),
    "rrf_k": (10, 60),
}

Recorded = list[tuple[dict[str, list[tuple[int, float]]], set[str]]]


class SetData:
    """One set's recorded routes, its store (for the live bridge route) and bm25s's ranking."""

    def __init__(self, name: str, db: Path, eval_path: Path, corpus_path: Path, depth: int) -> None:
        self.name = name
        self.store: CorpusStore = open_store(db)
        evaluation = load_evaluation(eval_path)
        qs = [q for q in evaluation.questions if q.relevant_source_ids]
        self.doc_source = self.store.source_ids()
        self.chunk_doc = {r: row.doc_id for r, row in self.store.iter_chunks()}
        vectors = embedding.get_embedder().embed([q.question for q in qs])
        self.questions: Recorded = []
        for q, vector in zip(qs, vectors):
            terms = QueryTerms.of(q.question, vector)
            routes = {n: ROUTES[n](self.store, terms, depth) for n in FIRST_STAGE}
            self.questions.append((routes, set(q.relevant_source_ids)))
        self.bm25s = bm25s_ranked(corpus_path, [q.question for q in qs], 10)
        self.depth = depth

    def sources(self, rowids: list[int]) -> list[str]:
        return ranked_sources([f"{self.chunk_doc[r]}#chunk-0" for r in rowids], self.doc_source)

    def staged(self) -> Callable[[str, list[int]], list[int]]:
        @lru_cache(maxsize=200_000)
        def ranking(name: str, seeds: tuple[int, ...]) -> list[int]:
            return STAGED_ROUTES[name](self.store, list(seeds), self.depth)

        return lambda name, seeds: ranking(name, tuple(seeds))


def metrics(rankings: list[list[str]], relevant: list[set[str]]) -> dict[str, float]:
    r1 = [score_query(r, rel, 1)["recall"] for r, rel in zip(rankings, relevant)]
    at10 = [score_query(r, rel, 10) for r, rel in zip(rankings, relevant)]
    return {
        "r1": statistics.fmean(r1),
        "r10": statistics.fmean(s["recall"] for s in at10),
        "mrr": statistics.fmean(s["mrr"] for s in at10),
    }


def fused_metrics(data: SetData, settings: SearchSettings) -> dict[str, float]:
    staged = data.staged()
    rankings = []
    for routes, _ in data.questions:
        per_route = {n: routes[n] for n in settings.routes if n in routes}
        rankings.append(data.sources([r for r, _, _ in fuse(per_route, settings, staged)]))
    return metrics(rankings, [rel for _, rel in data.questions])


def route_metrics(data: SetData, name: str) -> dict[str, float]:
    rankings = [data.sources([r for r, _ in routes[name]]) for routes, _ in data.questions]
    return metrics(rankings, [rel for _, rel in data.questions])


def setting(fusion: str, dense: float, title: float, rrf_k: int) -> SearchSettings:
    base = SearchSettings()
    return base.model_copy(
        update={"fusion": fusion, "rrf_k": rrf_k,
                "route_weights": {**base.route_weights, "dense": dense, "title": title}}
    )


def loss(result: dict[str, float], base: dict[str, float]) -> float:
    """How far a setting falls short of bm25s on this set: the worse of R@1 and R@10, in points."""
    return min(result["r1"] - base["r1"], result["r10"] - base["r10"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="keep imports and stores here (default: a temp dir)")
    ap.add_argument("--sets", nargs="+", default=list(DATASETS), choices=list(DATASETS))
    args = ap.parse_args()
    data_dir = require_shared_data()
    work = args.out or Path(tempfile.mkdtemp(prefix="arborist-tune-"))
    depth = SearchSettings().route_depth
    sets = {}
    for name in args.sets:
        db, eval_path, corpus_path = prepare_set(name, data_dir, work, embed=True)
        sets[name] = SetData(name, db, eval_path, corpus_path, depth)
        lexical_index(sets[name].store)

    print("| set | list | R@1 | R@10 | MRR@10 |")
    print("|---|---|---|---|---|")
    default = SearchSettings()
    base = {}
    for name, data in sets.items():
        base[name] = metrics(data.bm25s, [rel for _, rel in data.questions])
        rows = [("bm25s", base[name])]
        rows += [(f"{r} alone", route_metrics(data, r)) for r in FIRST_STAGE]
        rows.append(("default fused", fused_metrics(data, default)))
        for label, m in rows:
            print(f"| {name} ({len(data.questions)}) | {label} | {m['r1']:.3f} | {m['r10']:.3f} | {m['mrr']:.3f} |")

    grid = [setting(*combo) for combo in itertools.product(*GRID.values())]
    scored = {n: [fused_metrics(d, s) for s in grid] for n, d in sets.items()}

    def choose(on: list[str]) -> int:
        """The setting whose worst set (relative to bm25s) is best; ties -> mean R@1 + R@10."""
        def key(i: int) -> tuple[float, float]:
            worst = min(loss(scored[n][i], base[n]) for n in on)
            mean = statistics.fmean(scored[n][i]["r1"] + scored[n][i]["r10"] for n in on)
            return (round(worst, 4), mean)
        return max(range(len(grid)), key=key)

    def describe(i: int) -> str:
        s = grid[i]
        return f"{s.fusion}, dense {s.route_weights['dense']}, title {s.route_weights['title']}, rrf_k {s.rrf_k}"

    names = list(sets)
    print(f"\ngrid: {', '.join(f'{k} {v}' for k, v in GRID.items())} ({len(grid)} settings)")
    best = choose(names)
    print(f"chosen on all sets: {describe(best)}: " + ", ".join(
        f"{n} R@1 {scored[n][best]['r1']:.3f} R@10 {scored[n][best]['r10']:.3f}" for n in names))
    print("\n| held out | chosen on the others | R@1 | R@10 | MRR@10 | R@1 vs bm25s | R@10 vs bm25s |")
    print("|---|---|---|---|---|---|---|")
    for held in names:
        others = [n for n in names if n != held] or names
        i = choose(others)
        m = scored[held][i]
        print(f"| {held} | {describe(i)} | {m['r1']:.3f} | {m['r10']:.3f} | {m['mrr']:.3f} | "
              f"{(m['r1'] - base[held]['r1']) * 100:+.1f} pts | {(m['r10'] - base[held]['r10']) * 100:+.1f} pts |")


if __name__ == "__main__":
    main()
