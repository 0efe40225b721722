"""CorpusStore: idempotent upserts, exact replacement, digests, atomic ingest, refusing foreign files."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from arborist.corpus import (
    ChunkingSettings,
    CorpusStore,
    SourceDocument,
    chunk_text,
    corpus_digest,
    document_id,
    open_store,
)
from arborist.corpus.fts_query import any_of
from arborist.corpus.loaders import load_documents
from arborist.corpus.migrations import MIGRATIONS, SCHEMA_VERSION
from arborist.errors import StoreError
from arborist.retrieval import search

SMALL = ChunkingSettings(chunk_runes=120, overlap_runes=20)


def _para(topic: str, n: int = 6) -> str:
    return " ".join(f"Paragraph {i} describes the {topic} in a little more detail than before." for i in range(n))


def make_docs() -> list[SourceDocument]:
    return [
        SourceDocument.create("garden/roses.md", "Climbing Roses", _para("climbing roses")),
        SourceDocument.create("garden/ponds.md", "Garden Ponds", _para("frogs in the garden pond")),
        SourceDocument.create("kitchen/bread.md", "Rye Bread", _para("dark rye bread")),
        SourceDocument.create("kitchen/jam.md", "Plum Jam", _para("plum jam") + " The zebrafruit note is only here."),
        SourceDocument.create("workshop/saws.md", "Hand Saws", _para("sharpening hand saws")),
    ]


def snapshot(store: CorpusStore) -> tuple:
    """Everything an ingest may change, to compare before/after."""
    db = store.db
    return (
        store.counts(),
        store.digest(),
        store.chunking(),
        db.execute("SELECT doc_id, source_id, title, text FROM documents ORDER BY doc_id").fetchall(),
        db.execute('SELECT id, chunk_id, ordinal, start, "end", text FROM chunks ORDER BY id').fetchall(),
        db.execute("SELECT rowid, body, title FROM chunks_fts ORDER BY rowid").fetchall(),
        db.execute("SELECT key, value FROM meta ORDER BY key").fetchall(),
    )


def fts_count(store: CorpusStore) -> int:
    return store.db.execute("SELECT COUNT(*) FROM chunks_fts").fetchone()[0]


def expected_chunks(docs: list[SourceDocument], settings: ChunkingSettings) -> int:
    return sum(len(chunk_text(d.text, settings)) for d in docs)


@pytest.fixture
def store(store_path: Path):
    s = open_store(store_path, create=True)
    yield s
    s.close()


# -- ingest ----------------------------------------------------------------


def test_first_ingest_reports_additions(store: CorpusStore) -> None:
    docs = make_docs()
    report = store.ingest(docs, SMALL)
    assert sorted(report.added) == sorted(d.source_id for d in docs)
    assert (report.updated, report.unchanged, report.rechunked) == ([], 0, False)
    n_chunks = expected_chunks(docs, SMALL)
    assert n_chunks > len(docs)  # several chunks per document
    assert (report.documents, report.chunks, report.chunks_written) == (5, n_chunks, n_chunks)
    assert store.counts() == (5, n_chunks)
    assert fts_count(store) == n_chunks


def test_reingesting_the_same_input_changes_nothing(store: CorpusStore) -> None:
    store.ingest(make_docs(), SMALL)
    before = snapshot(store)
    report = store.ingest(make_docs(), SMALL)
    assert (len(report.added), len(report.updated), report.unchanged) == (0, 0, 5)
    assert report.chunks_written == 0
    assert report.corpus_digest == before[1]
    assert snapshot(store) == before  # meta (updated_at) included


def test_reingest_survives_reopening(store_path: Path) -> None:
    with open_store(store_path, create=True) as s:
        digest = s.ingest(make_docs(), SMALL).corpus_digest
    with open_store(store_path, create=True) as s:
        report = s.ingest(make_docs(), SMALL)
    assert (len(report.added), report.unchanged, report.corpus_digest) == (0, 5, digest)


def test_changed_document_replaces_its_old_chunks_everywhere(store: CorpusStore) -> None:
    docs = make_docs()
    store.ingest(docs, SMALL)
    old_digest = store.digest()
    old_jam = next(d for d in docs if d.source_id == "kitchen/jam.md")
    old_chunk_ids = [f"{document_id(old_jam)}#chunk-{i}" for i in range(len(chunk_text(old_jam.text, SMALL)))]
    assert store.fts(any_of(["zebrafruit"]), 10)  # found before the change

    new_jam = SourceDocument.create("kitchen/jam.md", "Plum Jam", "A much shorter note about damson jam.")
    new_docs = [d for d in docs if d.source_id != "kitchen/jam.md"] + [new_jam]
    report = store.ingest([new_jam], SMALL)

    assert (report.added, report.updated, report.unchanged) == ([], ["kitchen/jam.md"], 0)
    # Old text is gone from the chunks, the FTS index and search.
    assert store.fts(any_of(["zebrafruit"]), 10) == []
    assert store.db.execute("SELECT COUNT(*) FROM chunks WHERE text LIKE '%zebrafruit%'").fetchone()[0] == 0
    assert all("zebrafruit" not in h.text for h in search(store, "zebrafruit plum jam").results)
    assert store.chunks_by_id(old_chunk_ids) == {}
    # New text is found, counts are consistent, digest follows the content.
    (hit,) = store.fts(any_of(["damson"]), 10)
    assert store.chunks_by_rowid([hit[0]])[hit[0]].chunk_id == f"{document_id(new_jam)}#chunk-0"
    n_chunks = expected_chunks(new_docs, SMALL)
    assert store.counts() == (5, n_chunks) == (report.documents, report.chunks)
    assert fts_count(store) == n_chunks
    assert store.digest() != old_digest
    assert store.digest() == corpus_digest(new_docs) == report.corpus_digest
    assert store.document("kitchen/jam.md") == new_jam


def test_title_change_replaces_the_indexed_title(store: CorpusStore) -> None:
    docs = make_docs()
    store.ingest(docs, SMALL)
    saws = next(d for d in docs if d.source_id == "workshop/saws.md")
    renamed = SourceDocument.create(saws.source_id, "Crosscut Tools", saws.text)
    report = store.ingest([renamed], SMALL)
    assert report.updated == ["workshop/saws.md"]
    assert store.fts(any_of(["saws"], column="title"), 10) == []
    assert len(store.fts(any_of(["crosscut"], column="title"), 10)) == len(chunk_text(saws.text, SMALL))
    assert fts_count(store) == store.counts()[1]


def test_documents_not_in_a_later_ingest_are_kept(store: CorpusStore) -> None:
    docs = make_docs()
    store.ingest(docs[:2], SMALL)
    report = store.ingest(docs[2:], SMALL)
    assert len(report.added) == 3 and report.documents == 5
    assert store.digest() == corpus_digest(docs)


def test_chunk_ids_are_doc_id_hash_chunk_ordinal(store: CorpusStore) -> None:
    docs = make_docs()
    store.ingest(docs, SMALL)
    ids = {d.source_id: document_id(d) for d in docs}
    assert all(re.fullmatch(r"d[0-9a-f]{15}", i) for i in ids.values())
    rows = store.db.execute(
        "SELECT c.chunk_id, c.doc_id, c.ordinal, d.source_id FROM chunks c JOIN documents d USING(doc_id)"
    ).fetchall()
    per_doc: dict[str, list[int]] = {}
    for chunk_id, doc_id, ordinal, source_id in rows:
        assert doc_id == ids[source_id]
        assert chunk_id == f"{doc_id}#chunk-{ordinal}"
        per_doc.setdefault(doc_id, []).append(ordinal)
    for doc in docs:
        assert sorted(per_doc[ids[doc.source_id]]) == list(range(len(chunk_text(doc.text, SMALL))))


def test_stored_chunks_match_chunk_text_offsets(store: CorpusStore) -> None:
    docs = make_docs()
    store.ingest(docs, SMALL)
    for doc in docs:
        rows = store.db.execute(
            'SELECT ordinal, start, "end", text, n_runes FROM chunks WHERE doc_id = ? ORDER BY ordinal',
            (document_id(doc),),
        ).fetchall()
        assert [(o, s, e, t) for o, s, e, t, _ in rows] == [
            (c.ordinal, c.start, c.end, c.text) for c in chunk_text(doc.text, SMALL)
        ]
        assert all(doc.text[s:e] == t and n == len(t) for _, s, e, t, n in rows)


# -- digests ---------------------------------------------------------------


def test_digest_equals_corpus_digest_of_loaded_documents(store: CorpusStore, fixtures: Path) -> None:
    inputs = [fixtures / "small", fixtures / "records" / "with_ids.json", fixtures / "records" / "lines.jsonl"]
    expected = corpus_digest(load_documents(inputs))  # computed without ingesting
    assert re.fullmatch(r"sha256:[0-9a-f]{64}", expected)
    report = store.ingest(load_documents(inputs), ChunkingSettings())
    assert report.corpus_digest == store.digest() == expected
    assert store.info()["corpus_digest"] == expected


def test_digest_is_independent_of_order_and_chunking(tmp_path: Path) -> None:
    docs = make_docs()
    digests = set()
    for i, (order, settings) in enumerate(
        [(docs, SMALL), (docs[::-1], ChunkingSettings()), (docs, ChunkingSettings(chunk_runes=50, overlap_runes=0))]
    ):
        with open_store(tmp_path / f"s{i}.db", create=True) as s:
            digests.add(s.ingest(order, settings).corpus_digest)
    assert digests == {corpus_digest(docs)}


def test_digest_changes_with_any_field() -> None:
    base = make_docs()
    d0 = corpus_digest(base)
    first = base[0]
    for changed in (
        SourceDocument.create("garden/roses2.md", first.title, first.text),
        SourceDocument.create(first.source_id, "Rambling Roses", first.text),
        SourceDocument.create(first.source_id, first.title, first.text + " One more sentence."),
    ):
        assert corpus_digest([changed, *base[1:]]) != d0


def test_empty_store_digest(store: CorpusStore) -> None:
    assert store.digest() == corpus_digest([])
    assert store.counts() == (0, 0)
    assert store.chunking() is None


def test_changing_chunk_settings_rechunks_everything(store: CorpusStore) -> None:
    docs = make_docs()
    store.ingest(docs, ChunkingSettings())
    digest = store.digest()
    coarse = store.counts()[1]
    fine = ChunkingSettings(chunk_runes=60, overlap_runes=10)
    report = store.ingest(docs, fine)
    assert report.rechunked is True
    assert (len(report.added), len(report.updated), report.unchanged) == (0, 0, 5)
    assert store.chunking() == fine
    assert store.info()["chunking"] == {"chunk_runes": 60, "overlap_runes": 10}
    n = expected_chunks(docs, fine)
    assert store.counts()[1] == n > coarse
    assert fts_count(store) == n
    assert store.db.execute("SELECT MAX(n_runes) FROM chunks").fetchone()[0] <= 60
    assert store.digest() == digest


def test_rechunk_applies_to_documents_missing_from_the_new_input(store: CorpusStore) -> None:
    docs = make_docs()
    store.ingest(docs, ChunkingSettings())
    fine = ChunkingSettings(chunk_runes=60, overlap_runes=10)
    store.ingest(docs[:1], fine)
    assert store.counts()[1] == expected_chunks(docs, fine)


# -- atomicity -------------------------------------------------------------


def _fail_on_third_write(monkeypatch: pytest.MonkeyPatch, exc: BaseException) -> list[int]:
    calls: list[int] = []
    original = CorpusStore._write_chunks

    def flaky(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise exc
        return original(self, *args, **kwargs)

    monkeypatch.setattr(CorpusStore, "_write_chunks", flaky)
    return calls


@pytest.mark.parametrize("exc", [RuntimeError("disk on fire"), KeyboardInterrupt()])
def test_failed_ingest_leaves_store_exactly_as_before(
    store: CorpusStore, monkeypatch: pytest.MonkeyPatch, exc: BaseException
) -> None:
    docs = make_docs()
    store.ingest(docs[:3], SMALL)
    before = snapshot(store)
    changed = [SourceDocument.create(docs[0].source_id, "Changed", "changed text"), *docs[3:]]
    calls = _fail_on_third_write(monkeypatch, exc)
    with pytest.raises(type(exc)):
        store.ingest(changed, ChunkingSettings())  # also a settings change: re-chunk first
    assert len(calls) == 3
    assert snapshot(store) == before
    monkeypatch.undo()
    # The store is still usable afterwards.
    report = store.ingest(changed, SMALL)
    assert report.updated == [docs[0].source_id] and len(report.added) == 2


def test_failed_first_ingest_leaves_an_empty_store(store_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fail_on_third_write(monkeypatch, RuntimeError("boom"))
    with open_store(store_path, create=True) as s, pytest.raises(RuntimeError):
        s.ingest(make_docs(), SMALL)
    with open_store(store_path) as s:
        assert s.counts() == (0, 0)
        assert s.chunking() is None
        assert s.digest() == corpus_digest([])
        assert fts_count(s) == 0


# -- opening ---------------------------------------------------------------


def test_missing_store_is_not_created_without_create(store_path: Path) -> None:
    with pytest.raises(StoreError, match="no corpus store at") as exc:
        open_store(store_path)
    assert str(store_path) in str(exc.value)
    assert not store_path.exists()


def test_missing_parent_folder(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="does not exist"):
        open_store(tmp_path / "absent" / "c.db", create=True)


def test_folder_is_not_a_store(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a folder"):
        open_store(tmp_path, create=True)


@pytest.mark.parametrize("create", [False, True])
def test_text_file_is_not_a_store(tmp_path: Path, create: bool) -> None:
    path = tmp_path / "notes.db"
    path.write_text("just some notes, not a database\n" * 20)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="is not an arborist corpus store") as exc:
        open_store(path, create=create)
    assert str(path) in str(exc.value)
    assert path.read_bytes() == before


@pytest.mark.parametrize("create", [False, True])
def test_foreign_sqlite_db_is_not_a_store_and_is_left_alone(tmp_path: Path, create: bool) -> None:
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE things (name TEXT)")
    db.execute("INSERT INTO things VALUES ('kept')")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="is not an arborist corpus store"):
        open_store(path, create=create)
    assert path.read_bytes() == before
    assert {p.name for p in tmp_path.iterdir()} == {"other.db"}


def test_empty_file_is_not_a_store(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    with pytest.raises(StoreError, match="is not an arborist corpus store"):
        open_store(path)


def test_store_from_a_newer_schema_is_refused(store_path: Path) -> None:
    with open_store(store_path, create=True) as s:
        s.ingest(make_docs(), SMALL)
        s.db.execute("INSERT INTO migrations(name, applied_at) VALUES ('m999_future', '2099-01-01T00:00:00')")
    with pytest.raises(StoreError, match="newer") as exc:
        open_store(store_path)
    assert str(store_path) in str(exc.value)
    assert f"schema version {SCHEMA_VERSION + 1}" in str(exc.value)


def test_wal_journal_mode(store_path: Path) -> None:
    with open_store(store_path, create=True) as s:
        assert s.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        s.ingest(make_docs(), SMALL)
    raw = sqlite3.connect(store_path)  # persisted in the file, not just on our connection
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        raw.close()
    with open_store(store_path) as s:
        assert s.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_schema_version_is_number_of_migrations(store_path: Path) -> None:
    assert SCHEMA_VERSION == len(MIGRATIONS) >= 1
    with open_store(store_path, create=True) as s:
        assert s.schema_version() == len(MIGRATIONS)
        assert s.info()["schema_version"] == len(MIGRATIONS)
        names = [r[0] for r in s.db.execute("SELECT name FROM migrations ORDER BY rowid")]
    assert names == [fn.__name__ for fn in MIGRATIONS]
    with open_store(store_path) as s:  # reopening applies nothing twice
        assert s.schema_version() == len(MIGRATIONS)


def test_older_store_is_migrated_on_open(store_path: Path) -> None:
    if len(MIGRATIONS) < 2:
        pytest.skip("only one migration exists: no older schema to simulate")
    from arborist.corpus.store import STORE_MARKER

    # A store as the first release wrote it: marker, migrations table, m001 only.
    db = sqlite3.connect(store_path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    db.execute("CREATE TABLE store_marker (value TEXT NOT NULL)")
    db.execute("INSERT INTO store_marker VALUES (?)", (STORE_MARKER,))
    MIGRATIONS[0](db)
    db.execute("INSERT INTO migrations VALUES (?, 'then')", (MIGRATIONS[0].__name__,))
    db.close()
    with open_store(store_path) as s:
        assert s.schema_version() == len(MIGRATIONS)
        report = s.ingest(make_docs(), SMALL)
        assert report.documents == 5


def test_info(store: CorpusStore) -> None:
    docs = make_docs()
    store.ingest(docs, SMALL)
    info = store.info()
    assert info["documents"] == 5
    assert info["chunks"] == expected_chunks(docs, SMALL)
    assert info["corpus_digest"] == corpus_digest(docs)
    assert info["chunking"] == SMALL.model_dump()
    assert info["path"] == str(store.path)
