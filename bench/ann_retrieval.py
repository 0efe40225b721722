"""Does the dense route's HNSW index change retrieval figures? Exact scan against the index, same stores, one run.

Usage: PYTHONPATH=src .venv/bin/python bench/ann_retrieval.py [--sets squad,musique] [--k 10] [--work DIR]

Below `dense_index.ANN_MIN_VECTORS` vectors the dense route scans exactly, so the development sets never meet the
index. This bench forces it (minimum 0 vectors) on the same stores and reports recall@k, MRR and nDCG of the dense
route alone and of the fused list, exact (the baseline, measured first in the same run) against HNSW.
"""

from __future__ import annotations

import argparse
import tempfile
from functools import partial
from pathlib import Path

from _common import prepare_set, require_shared_data
from arborist.corpus.store import open_store
from arborist.evaluation.format import load_evaluation
from arborist.evaluation.retrieval_eval import evaluate_retrieval
from arborist.retrieval import dense_index as ann
from arborist.retrieval import routes
from arborist.retrieval.search import SearchSettings


def figures(db: Path, evaluation: Path, k: int) -> dict[str, tuple[float, float, float]]:
    with open_store(db) as store:
        report, _ = evaluate_retrieval(store, load_evaluation(evaluation), SearchSettings(), k)
    return {row.list: (row.recall, row.mrr, row.ndcg) for row in report.rows if row.list in ("fused", "dense")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default="squad,musique")
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--work", type=Path, default=None)
    args = ap.parse_args()
    data = require_shared_data()
    work = args.work or Path(tempfile.mkdtemp(prefix="arborist-ann-retrieval-"))
    exact_index = routes.dense_index
    print(f"| set | list | recall@{args.k} exact -> HNSW | MRR exact -> HNSW | nDCG exact -> HNSW |")
    print("|---|---|---|---|---|")
    for name in args.sets.split(","):
        db, evaluation, _ = prepare_set(name, data, work)
        routes.dense_index = exact_index
        exact = figures(db, evaluation, args.k)
        routes.dense_index = partial(ann.dense_index, min_vectors=0)  # the index, whatever the store's size
        try:
            approx = figures(db, evaluation, args.k)
        finally:
            routes.dense_index = exact_index
        for lst in ("dense", "fused"):
            cells = " | ".join(f"{e:.4f} -> {a:.4f} ({(a - e) * 100:+.2f} pt)"
                               for e, a in zip(exact[lst], approx[lst], strict=True))
            print(f"| {name} | {lst} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
