"""arborist's routes and fusion against plain BM25 (bm25s), side by side, in one run.

Usage: .venv/bin/python bench/retrieval_quality.py [--k 10] [--out DIR]

For SQuAD single-hop, MuSiQue and HotpotQA in ../shared/data: `arborist lab import-dataset` ->
`arborist ingest` -> evaluate arborist's fused list and each route alone,
and bm25s (English stopwords, Snowball stemmer, title + text, the setup of
../shared/data/README.md) over the same passages with the same metric code.
Also times batch search with and without the dense route (the goal: dense
must not make batch search more than 3x slower than lexical-only).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from _common import DATASETS, bm25s_ranked, prepare_set, require_shared_data
from arborist.corpus.store import open_store
from arborist.evaluation.format import load_evaluation
from arborist.evaluation.metrics import METRICS, score_query
from arborist.evaluation.retrieval_eval import evaluate_retrieval
from arborist.retrieval.search import DEFAULT_ROUTES, SearchSettings, search_many


def bm25s_rows(corpus_path: Path, eval_path: Path, k: int) -> dict[str, float]:
    evaluation = load_evaluation(eval_path)
    qs = [q for q in evaluation.questions if q.relevant_source_ids]
    ranked = bm25s_ranked(corpus_path, [q.question for q in qs], k)
    per_q = [score_query(row, set(q.relevant_source_ids), k) for q, row in zip(qs, ranked)]
    return {m: statistics.fmean(s[m] for s in per_q) for m in METRICS} | {"n": len(per_q)}


def time_batch(db: Path, questions: list[str], routes: tuple[str, ...], repeats: int = 3) -> float:
    """Best of `repeats` wall times for searching all questions in one process."""
    best = float("inf")
    settings = SearchSettings(routes=routes)
    with open_store(db) as store:
        list(search_many(store, questions[:5], settings))  # load vectors, embedder, caches
        for _ in range(repeats):
            t = time.perf_counter()
            list(search_many(store, questions, settings))
            best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--out", type=Path, help="keep imports and stores here (default: a temp dir)")
    args = ap.parse_args()
    data = require_shared_data()
    k = args.k
    work = args.out or Path(tempfile.mkdtemp(prefix="arborist-bench-"))
    print(f"| set | list | n | MRR | Recall@{k} | nDCG@{k} | hit@{k} | R@{k} vs bm25s |")
    print("|---|---|---|---|---|---|---|---|")
    timings = []
    for name in DATASETS:
        db, eval_path, corpus_path = prepare_set(name, data, work)
        base = bm25s_rows(corpus_path, eval_path, k)
        print(f"| {name} | bm25s | {base['n']} | {base['mrr']:.3f} | {base['recall']:.3f} | "
              f"{base['ndcg']:.3f} | {base['hit']:.3f} | — |")
        evaluation = load_evaluation(eval_path)
        with open_store(db) as store:
            report, _ = evaluate_retrieval(store, evaluation, SearchSettings(), k=k)
            no_bridge, _ = evaluate_retrieval(
                store, evaluation, SearchSettings(routes=tuple(r for r in DEFAULT_ROUTES if r != "bridge")), k=k
            )
            no_dense, _ = evaluate_retrieval(
                store, evaluation, SearchSettings(routes=tuple(r for r in DEFAULT_ROUTES if r != "dense")), k=k
            )
        extra = [("fused without bridge", no_bridge.rows[0]), ("fused without dense", no_dense.rows[0])]
        for label, row in [(r.list, r) for r in report.rows] + extra:
            delta = (row.recall - base["recall"]) * 100
            print(f"| {name} | {label} | {row.n} | {row.mrr:.3f} | {row.recall:.3f} | {row.ndcg:.3f} | "
                  f"{row.hit:.3f} | {delta:+.1f} pts |")
        qs = [q.question for q in evaluation.questions]
        lexical = tuple(r for r in DEFAULT_ROUTES if r != "dense")
        t_lex = time_batch(db, qs, lexical)
        t_all = time_batch(db, qs, DEFAULT_ROUTES)
        timings.append((name, len(qs), t_lex, t_all))
    print()
    print("| set | questions | batch lexical-only | batch with dense | ratio |")
    print("|---|---|---|---|---|")
    for name, n, t_lex, t_all in timings:
        print(f"| {name} | {n} | {t_lex:.2f} s ({t_lex / n * 1000:.1f} ms/q) | {t_all:.2f} s "
              f"({t_all / n * 1000:.1f} ms/q) | {t_all / t_lex:.2f}x |")


if __name__ == "__main__":
    main()
