"""The dense route's HNSW index: agrees with exact search, lives in the store as a derived blob, goes stale.

Real parts: faiss-cpu (the `ann` extra, pinned in the test extras) and a real SQLite store; the vectors are
random unit vectors put in the store directly (no embedding model is needed to test the index).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from arborist import embedding
from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.documents import SourceDocument
from arborist.corpus.store import CorpusStore, open_store
from arborist.retrieval import dense_index as di

pytest.importorskip("faiss", reason="faiss-cpu (the `ann` extra) is not installed")


def unit(rng: np.random.Generator, n: int) -> np.ndarray:
    x = rng.standard_normal((n, embedding.DIM)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def store_with_vectors(path: Path, n: int, rng: np.random.Generator) -> CorpusStore:
    store = open_store(path, create=True)
    docs = [SourceDocument(source_id=f"d{i}", title=f"Doc {i}", text=f"Document number {i} says {i * 7}.")
            for i in range(n)]
    store.ingest(docs, ChunkingSettings())
    missing = store.chunks_without_vectors(embedding.MODEL_ID)
    store.put_vectors(embedding.MODEL_ID, [(r, c, t) for r, c, _, t in missing], unit(rng, len(missing)))
    return store


def exact(matrix: np.ndarray, rowids: np.ndarray, q: np.ndarray, k: int) -> list[int]:
    scores = matrix @ q
    return [int(rowids[i]) for i in np.argsort(-scores, kind="stable")[:k]]


def test_the_index_finds_what_exact_search_finds_and_survives_its_blob() -> None:
    rng = np.random.default_rng(0)
    matrix, rowids = unit(rng, 400), np.arange(1000, 1400, dtype=np.int64)
    index = di.DenseIndex.build(rowids, matrix, generation=3, counted=400)
    queries = unit(rng, 20)
    found = [[r for r, _ in index.search(q, 10, ef=400)] for q in queries]
    assert found == [exact(matrix, rowids, q, 10) for q in queries]  # ef past n: the graph search is exhaustive
    again = di.DenseIndex.from_bytes(index.to_bytes())
    assert (again.generation, again.counted) == (3, 400)
    assert [[r for r, _ in again.search(q, 10, ef=400)] for q in queries] == found
    scores = [s for _, s in again.search(queries[0], 5)]
    assert scores == sorted(scores, reverse=True) and abs(scores[0] - float(np.max(matrix @ queries[0]))) < 1e-5


def test_below_the_threshold_the_exact_scan_answers_and_above_it_the_store_keeps_the_index(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    store = store_with_vectors(tmp_path / "s.db", 60, rng)
    try:
        assert di.dense_index(store, min_vectors=61) is None  # 60 vectors: exact search
        assert store.derived(di.NAME, store.generation()) is None
        built = di.dense_index(store, min_vectors=60)
        assert built is not None and len(built.rowids) == 60
        blob = store.derived(di.NAME, store.generation())
        assert blob is not None and di.DenseIndex.header(blob)["counted"] == 60
    finally:
        store.close()
    with open_store(tmp_path / "s.db") as reopened:  # a new process reads the blob instead of building
        loaded = di.dense_index(reopened, min_vectors=60)
        assert loaded is not None and loaded.rowids.tolist() == built.rowids.tolist()
        rowids, matrix = reopened.vectors(embedding.MODEL_ID, embedding.DIM)
        q = unit(rng, 1)[0]
        assert [r for r, _ in loaded.search(q, 5, ef=60)] == exact(matrix, rowids, q, 5)


def test_an_ingest_or_new_vectors_make_the_saved_index_stale(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    with store_with_vectors(tmp_path / "s.db", 30, rng) as store:
        first = di.dense_index(store, min_vectors=10)
        assert first is not None and len(first.rowids) == 30
        store.ingest([SourceDocument(source_id="new", title="New", text="A new document arrives.")],
                     ChunkingSettings())  # an upsert of one more document: a new generation
        missing = store.chunks_without_vectors(embedding.MODEL_ID)
        assert missing
        second = di.dense_index(store, min_vectors=10)
        assert second is not None and second.generation == store.generation() != first.generation
        store.put_vectors(embedding.MODEL_ID, [(r, c, t) for r, c, _, t in missing], unit(rng, len(missing)))
        third = di.dense_index(store, min_vectors=10)  # same generation, more vectors: rebuilt
        assert third is not None and len(third.rowids) == len(second.rowids) + len(missing)
