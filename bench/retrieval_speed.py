"""Ingest throughput and search latency of arborist against bm25s, in one run.

Usage: .venv/bin/python bench/retrieval_speed.py [--queries 200] [--batch 2000] [--scale 1 10]

Corpus: ../shared/data/2wikimultihopqa-corpus (6,119 passages) and a 10x copy
(each passage repeated under a new id). Queries: the first 12 words of
passages sampled with a fixed seed. bm25s (stopwords + Snowball stemming,
title + text) indexes and searches the same passages as the baseline.
Figures are printed as absolute times and as ratios against bm25s measured
in the same run, since these 2-core machines are noisy. arborist runs its
lexical default routes (no dense: the store is built without embeddings, so
ingest compares like with like); bench/retrieval_quality.py measures what
the dense route costs.

Measured: ingest; the first search after ingest (builds and saves the
in-memory BM25 index) and a re-opened store's first search (loads it);
single-query latency (`--queries` questions, store open); batch throughput
of the library call (`search_many`, `--batch` questions) and of
`arborist search --queries` (process start included) against bm25s's batch
retrieve of the same questions. Goals: batch >= 25% of bm25s's throughput
and single-query p50 <= 10 ms, lexical-only, at 61k passages (--scale 10).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bm25s
import Stemmer

from _common import percentile, require_shared_data, summary
from arborist.corpus import ChunkingSettings, SourceDocument, open_store
from arborist.retrieval import SearchSettings, search
from arborist.retrieval.search import DEFAULT_ROUTES, search_many

LEXICAL = tuple(r for r in DEFAULT_ROUTES if r != "dense")


def load(scale: int) -> list[SourceDocument]:
    raw = json.loads((require_shared_data() / "2wikimultihopqa-corpus" / "corpus.json").read_text())
    return [
        SourceDocument.create(f"copy{c}/{i}", d["title"], d["text"])
        for c in range(scale)
        for i, d in enumerate(raw)
    ]


def make_queries(docs: list[SourceDocument], n: int) -> list[str]:
    rng = random.Random(42)
    return [" ".join(d.text.split()[:12]) for d in rng.sample(docs, n)]


def bench_arborist(
    docs: list[SourceDocument], queries: list[str], batch: list[str], tmp: Path
) -> dict[str, object]:
    db = tmp / "bench.db"
    t0 = time.perf_counter()
    with open_store(db, create=True) as store:
        report = store.ingest(docs, ChunkingSettings())
    ingest_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    with open_store(db) as store:
        store.ingest(docs, ChunkingSettings())
    reingest_s = time.perf_counter() - t0
    settings = SearchSettings(k=10, routes=LEXICAL)
    with open_store(db) as store:
        t0 = time.perf_counter()
        search(store, queries[0], settings)
        build_s = time.perf_counter() - t0
    lat = []
    with open_store(db) as store:
        t0 = time.perf_counter()
        search(store, queries[0], settings)
        reopen_s = time.perf_counter() - t0
        for q in queries:
            t = time.perf_counter()
            search(store, q, settings)
            lat.append(time.perf_counter() - t)
        t0 = time.perf_counter()
        for _ in search_many(store, batch, settings):
            pass
        batch_lib_s = time.perf_counter() - t0
    qfile = tmp / "queries.jsonl"
    qfile.write_text("".join(json.dumps({"id": str(i), "question": q}) + "\n" for i, q in enumerate(batch)))
    arborist_bin = Path(sys.executable).parent / "arborist"
    t0 = time.perf_counter()
    subprocess.run(
        [str(arborist_bin), "search", "--queries", str(qfile), "--db", str(db), "--k", "10", "--json",
         "--routes", ",".join(LEXICAL)],
        check=True, stdout=subprocess.DEVNULL,
    )
    batch_s = time.perf_counter() - t0
    return {
        "ingest_s": ingest_s, "reingest_s": reingest_s, "chunks": report.chunks, "build_s": build_s,
        "reopen_s": reopen_s, "latencies": lat, "batch_lib_s": batch_lib_s, "batch_cli_s": batch_s,
    }


def bench_bm25s(docs: list[SourceDocument], queries: list[str], batch: list[str]) -> dict[str, object]:
    stemmer = Stemmer.Stemmer("english")
    t0 = time.perf_counter()
    tokens = bm25s.tokenize([f"{d.title} {d.text}" for d in docs], stopwords="en", stemmer=stemmer, show_progress=False)
    retriever = bm25s.BM25()
    retriever.index(tokens, show_progress=False)
    index_s = time.perf_counter() - t0
    lat = []
    for q in queries:
        t = time.perf_counter()
        qt = bm25s.tokenize([q], stopwords="en", stemmer=stemmer, show_progress=False)
        retriever.retrieve(qt, k=10, show_progress=False)
        lat.append(time.perf_counter() - t)
    t0 = time.perf_counter()
    qt = bm25s.tokenize(batch, stopwords="en", stemmer=stemmer, show_progress=False)
    retriever.retrieve(qt, k=10, show_progress=False)
    batch_s = time.perf_counter() - t0
    return {"index_s": index_s, "latencies": lat, "batch_s": batch_s}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=200, help="single-query latency sample")
    ap.add_argument("--batch", type=int, default=2000, help="batch throughput sample")
    ap.add_argument("--scale", type=int, nargs="+", default=[1, 10])
    args = ap.parse_args()
    for scale in args.scale:
        docs = load(scale)
        queries = make_queries(docs, args.queries)
        batch = make_queries(docs, args.batch)
        with tempfile.TemporaryDirectory() as tmp:
            a = bench_arborist(docs, queries, batch, Path(tmp))
        b = bench_bm25s(docs, queries, batch)
        n = len(docs)
        a_lat, b_lat = a["latencies"], b["latencies"]
        print(f"\n== {n} passages (x{scale}), {a['chunks']} arborist chunks, {len(queries)} queries ==")
        print(f"ingest   arborist {a['ingest_s']:.2f} s ({n / a['ingest_s']:.0f} docs/s, incl. chunking + FTS5)"
              f" | re-ingest unchanged {a['reingest_s']:.2f} s"
              f" | bm25s index {b['index_s']:.2f} s ({n / b['index_s']:.0f} docs/s)"
              f" | ratio {a['ingest_s'] / b['index_s']:.2f}x")
        print(f"single   arborist {'+'.join(LEXICAL)}, fused: {summary(a_lat)}")
        print(f"single   bm25s: {summary(b_lat)}")
        print(f"         p50 ratio {percentile(a_lat, 50) / percentile(b_lat, 50):.2f}x,"
              f" p95 ratio {percentile(a_lat, 95) / percentile(b_lat, 95):.2f}x")
        print(f"index    first search after ingest (builds + saves the BM25 index) {a['build_s']:.2f} s"
              f" | first search after re-open (loads it) {a['reopen_s'] * 1000:.0f} ms")
        b_qps = len(batch) / b["batch_s"]
        lib_qps = len(batch) / a["batch_lib_s"]
        cli_qps = len(batch) / a["batch_cli_s"]
        print(f"batch    {len(batch)} queries: bm25s batch retrieve {b['batch_s']:.2f} s ({b_qps:.0f} q/s)")
        print(f"         arborist search_many {a['batch_lib_s']:.2f} s ({lib_qps:.0f} q/s, {lib_qps / b_qps:.0%} of bm25s)"
              f" | arborist CLI --queries (incl. process start) {a['batch_cli_s']:.2f} s"
              f" ({cli_qps:.0f} q/s, {cli_qps / b_qps:.0%} of bm25s)")


if __name__ == "__main__":
    main()
