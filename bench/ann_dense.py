"""The dense route's HNSW index (retrieval.dense_index) against exact search: recall@10, query and build time.

Usage: PYTHONPATH=src .venv/bin/python bench/ann_dense.py [--sizes 61000,1000000] [--real N] [--queries 200]
                                                          [--threads 1] [--ef 32,64,128,256]

Vectors (say which in every figure):
- `real`: MiniLM (the project's ONNX embedder) vectors of N real passages: the sentences (with their
  passage's title) of every corpus in ../shared/data, ~60k in all; queries are MuSiQue, HotpotQA and SQuAD
  questions, interleaved;
- `clustered`: synthetic 384-d unit vectors around 2,000 random centres (noise 0.6 per dimension), the shape
  real embeddings have (topics); queries are held-out vectors of the same mixture;
- `uniform`: unit vectors uniform on the sphere, the hardest case for any graph index (no structure).
The baseline, exact search, runs in the same invocation on the same vectors: one matrix-vector product and
an argpartition per query, as the dense route does. Build and search use `--threads` threads (other jobs
share the cores).
"""

from __future__ import annotations

import argparse
import json
import resource
import time

import numpy as np

from _common import require_shared_data
from arborist.retrieval.dense_index import EF_CONSTRUCTION, EF_SEARCH, DenseIndex

DIM = 384


def clustered(rng: np.random.Generator, n: int, centres: int = 2000) -> np.ndarray:
    c = rng.standard_normal((centres, DIM)).astype(np.float32)
    out = np.empty((n, DIM), dtype=np.float32)
    for s in range(0, n, 100_000):  # in blocks: keep the temporary arrays small
        m = min(100_000, n - s)
        x = c[rng.integers(0, centres, m)] + 0.6 * rng.standard_normal((m, DIM)).astype(np.float32)
        out[s:s + m] = x / np.linalg.norm(x, axis=1, keepdims=True)
    return out


def uniform(rng: np.random.Generator, n: int) -> np.ndarray:
    out = rng.standard_normal((n, DIM)).astype(np.float32)
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return out


def real_texts(n: int) -> list[str]:
    """Up to N real passages as the store would hold them, cut into sentences so that the corpora on this
    machine (MuSiQue, 2WikiMultihopQA, HotpotQA, SQuAD, SciFact abstracts: ~10k passages) give ~60k vectors:
    the size the exact scan was measured at, from real text rather than a synthetic mixture."""
    from arborist.text import sentences

    data = require_shared_data()
    passages: list[tuple[str, str]] = []
    for name in ("musique", "2wikimultihopqa-corpus"):
        for path in sorted((data / name).glob("*corpus*.json")):
            rows = json.loads(path.read_text(encoding="utf-8"))
            passages += [(p.get("title", ""), p.get("text", "")) for p in rows]
    hotpot = json.loads((data / "hotpotqa" / "corpus.json").read_text(encoding="utf-8"))
    passages += [(title, " ".join(lines)) for title, lines in hotpot.items()]
    squad = json.loads((data / "squad-single-hop" / "dev-v1.1-13-articles.json").read_text(encoding="utf-8"))
    passages += [(a["title"], p["context"]) for a in squad["data"] for p in a["paragraphs"]]
    for line in (data / "scifact-train-pairs" / "pairs_train.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        passages.append((row["title"], " ".join(row["abstract"])))
    out = [f"{title}\n{s.strip()}" for title, text in dict.fromkeys(passages) for s in sentences(text)
           if len(s.split()) >= 4]
    return out[:n]


def real_questions(n: int) -> list[str]:
    """Questions of three sets, interleaved (MuSiQue, HotpotQA, SQuAD)."""
    data = require_shared_data()
    musique = [q["question"] for q in json.loads((data / "musique" / "questions.json").read_text())]
    hotpot = [q["question"] for q in json.loads((data / "hotpotqa" / "questions.json").read_text())]
    squad = json.loads((data / "squad-single-hop" / "dev-v1.1-13-articles.json").read_text(encoding="utf-8"))
    sq = [q["question"] for a in squad["data"] for p in a["paragraphs"] for q in p["qas"]][::37]
    mixed = [q for trio in zip(musique, hotpot, sq, strict=False) for q in trio]
    return mixed[:n]


def real(n: int, queries: int) -> tuple[np.ndarray, np.ndarray]:
    from arborist.embedding import get_embedder

    embedder = get_embedder()
    texts = real_texts(n)
    return np.asarray(embedder.embed(texts), np.float32), np.asarray(embedder.embed(real_questions(queries)),
                                                                   np.float32)


def exact_top(matrix: np.ndarray, q: np.ndarray, k: int = 10) -> np.ndarray:
    scores = matrix @ q
    top = np.argpartition(-scores, k - 1)[:k]
    return top[np.argsort(-scores[top], kind="stable")]


def measure(name: str, matrix: np.ndarray, queries: np.ndarray, threads: int, efs: list[int],
            ef_construction: int = EF_CONSTRUCTION) -> None:
    n = len(matrix)
    t = time.perf_counter()
    truth = [set(exact_top(matrix, q).tolist()) for q in queries]
    exact_ms = (time.perf_counter() - t) / len(queries) * 1000
    t = time.perf_counter()
    index = DenseIndex.build(np.arange(n, dtype=np.int64), matrix, generation=0, threads=threads,
                             ef_construction=ef_construction)
    build_s = time.perf_counter() - t
    blob = index.to_bytes()
    del index  # the store path: the index is read back from its blob
    t = time.perf_counter()
    index = DenseIndex.from_bytes(blob)
    load_s = time.perf_counter() - t
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\n{name}: {n:,} vectors; exact {exact_ms:.2f} ms/query; HNSW build {build_s:.1f} s "
          f"({threads} thread, efConstruction {ef_construction}), blob {len(blob) / 1e6:.0f} MB, load {load_s:.2f} s, peak RSS {rss:.0f} MB")
    print("| ef | recall@10 | ms/query | speed-up vs exact |")
    print("|---|---|---|---|")
    for ef in efs:
        t = time.perf_counter()
        found = [index.search(q, 10, ef=ef) for q in queries]
        ms = (time.perf_counter() - t) / len(queries) * 1000
        recall = float(np.mean([len({r for r, _ in f} & tr) / 10 for f, tr in zip(found, truth, strict=True)]))
        mark = " (default)" if ef == EF_SEARCH else ""
        print(f"| {ef}{mark} | {recall:.4f} | {ms:.3f} | {exact_ms / ms:.1f}x |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="61000,1000000")
    ap.add_argument("--kinds", default="clustered,uniform")
    ap.add_argument("--real", type=int, default=0, help="also N real passages (sentences of every corpus in ../shared/data; 0: skip)")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--ef", default="32,64,128,256")
    ap.add_argument("--ef-construction", type=int, default=EF_CONSTRUCTION)
    args = ap.parse_args()
    efs = [int(e) for e in args.ef.split(",")]
    if args.real:
        matrix, queries = real(args.real, args.queries)
        measure(f"real MiniLM vectors (sentences of every corpus in ../shared/data, {len(queries)} questions)",
                matrix, queries,
                args.threads, efs, args.ef_construction)
    rng = np.random.default_rng(42)
    for n in [int(s) for s in args.sizes.split(",")]:
        for kind in args.kinds.split(","):
            if kind == "uniform" and n > 100_000:
                continue  # the unstructured worst case, at the small size only
            make = clustered if kind == "clustered" else uniform
            both = make(rng, n + args.queries)
            measure(f"{kind} synthetic", both[args.queries:], both[:args.queries], args.threads, efs,
                    args.ef_construction)
            del both


if __name__ == "__main__":
    main()
