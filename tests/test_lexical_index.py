"""The in-memory BM25 index: scores, saving in the store by generation, staleness after ingest."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.documents import SourceDocument
from arborist.corpus.store import CorpusStore, open_store
from arborist.retrieval import lexical_index as li
from arborist.retrieval.analysis import stems_of
from arborist.retrieval.lexical_index import INDEX_NAME, LexicalIndex, lexical_index

DOCS = [
    ("a", "Harbour Lights", "The lighthouse keeper trims the lamp. The lamp burns all night."),
    ("b", "Inland Farms", "Wheat and barley grow on the inland farms near the river."),
    ("c", "Coastal Trade", "Ships carry wheat along the coast to the harbour market."),
]


def _store(path: Path, docs: list[tuple[str, str, str]] = DOCS) -> CorpusStore:
    store = open_store(path, create=True)
    store.ingest([SourceDocument.create(i, t, x) for i, t, x in docs], ChunkingSettings())
    return store


def _source(store: CorpusStore, rowid: int) -> str:
    return store.chunks_by_rowid([rowid])[rowid].source_id


def test_body_scores_are_bm25_by_hand(tmp_path: Path) -> None:
    with _store(tmp_path / "s.db") as store:
        index = lexical_index(store)
        hits = index.top(index.body_scores(stems_of("lamp")), 10)
        assert [_source(store, r) for r, _ in hits] == ["a"]
        # One chunk of three holds "lamp" twice; its length is its indexed (content) terms.
        lengths = [len(stems_of(x)) for _, _, x in DOCS]  # distinct here equals all
        lengths[0] = 7  # lighthouse keeper trims lamp lamp burns night
        avg = sum(lengths) / 3
        idf = math.log(1 + (3 - 1 + 0.5) / (1 + 0.5))
        expected = idf * 2 * 2.2 / (2 + 1.2 * (0.25 + 0.75 * lengths[0] / avg))
        assert hits[0][1] == pytest.approx(expected, rel=1e-5)


def test_rare_terms_outrank_common_ones_and_titles_score_per_document(tmp_path: Path) -> None:
    with _store(tmp_path / "s.db") as store:
        index = lexical_index(store)
        hits = index.top(index.body_scores(stems_of("barley wheat")), 10)
        assert [_source(store, r) for r, _ in hits] == ["b", "c"]
        titles = index.top(index.title_scores(stems_of("harbour")), 10)
        assert [_source(store, r) for r, _ in titles] == ["a"]  # the body of c says harbour; its title does not


def test_saved_in_the_store_and_loaded_on_reopen_without_rebuilding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.db"
    with _store(path) as store:
        built = lexical_index(store)
        assert store.derived(INDEX_NAME, store.generation()) is not None

    def no_build(cls: type, store: CorpusStore) -> LexicalIndex:
        raise AssertionError("re-opening a store must not rebuild the index")

    monkeypatch.setattr(LexicalIndex, "build", classmethod(no_build))
    with open_store(path) as store:
        loaded = lexical_index(store)
        assert loaded.vocab == built.vocab and loaded.chunk_ids.tolist() == built.chunk_ids.tolist()
        assert (loaded.body.weights == built.body.weights).all()


def test_an_ingest_that_changes_chunks_makes_the_index_stale(tmp_path: Path) -> None:
    with _store(tmp_path / "s.db") as store:
        before = store.generation()
        lexical_index(store)
        store.ingest([SourceDocument.create("a", "Harbour Lights", "Now about comets.")], ChunkingSettings())
        assert store.generation() == before + 1
        assert store.derived(INDEX_NAME, before) is None
        index = lexical_index(store)
        assert [_source(store, r) for r, _ in index.top(index.body_scores(stems_of("comet")), 5)] == ["a"]
        assert index.top(index.body_scores(stems_of("lamp")), 5) == []
        # Re-ingesting unchanged input keeps the generation (and the saved index).
        store.ingest([SourceDocument.create(i, t, x) for i, t, x in DOCS[1:]], ChunkingSettings())
        assert store.generation() == before + 1


def test_another_process_ingest_is_seen_by_an_open_store(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with _store(path) as reader, open_store(path) as writer:
        lexical_index(reader)
        writer.ingest([SourceDocument.create("d", "Comets", "A comet passed.")], ChunkingSettings())
        index = lexical_index(reader)
        assert [_source(reader, r) for r, _ in index.top(index.body_scores(stems_of("comet")), 5)] == ["d"]


def test_a_store_that_cannot_save_still_searches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with _store(tmp_path / "s.db") as store:
        monkeypatch.setattr(store, "put_derived", lambda *a: False)
        li._CACHE.clear()
        index = lexical_index(store)
        assert index.top(index.body_scores(stems_of("wheat")), 5)


def test_containing_all_needs_every_stem(tmp_path: Path) -> None:
    with _store(tmp_path / "s.db") as store:
        index = lexical_index(store)
        both, one, unknown = index.containing_all([stems_of("wheat harbour"), stems_of("wheat"), stems_of("wheat zebra")])
        assert [_source(store, int(r)) for r in both] == ["c"]
        assert sorted(_source(store, int(r)) for r in one) == ["b", "c"]
        assert len(unknown) == 0


def test_a_saved_index_is_opened_as_views_of_the_stored_bytes(tmp_path: Path) -> None:
    # Issue 34, finding 7: a process's first search on a large store re-read the index into new arrays
    # and Python lists (one string per chunk and per term). Opened now, it shares the stored bytes.
    with _store(tmp_path / "s.db") as store:
        built = lexical_index(store)
        blob = store.derived(INDEX_NAME, store.generation())
    assert blob is not None
    loaded = LexicalIndex.from_bytes(blob)
    stored = np.frombuffer(blob, np.uint8)
    for array in (loaded.rowids, loaded.body.positions, loaded.body.weights, loaded.title.indptr,
                  loaded.chunk_ids.data, loaded.terms.data):
        assert np.shares_memory(array, stored)
    assert loaded.vocab == built.vocab and loaded.chunk_ids.tolist() == built.chunk_ids.tolist()
    for term in built.vocab:  # found by binary search in the sorted terms
        assert loaded.term_id(term) == built.vocab.index(term)
    assert loaded.term_id("zzz-not-a-term") is None and loaded.term_id("") is None
