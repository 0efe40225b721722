"""The SQLite/FTS5 corpus store behind a narrow interface.

Callers ingest documents, run one full-text expression and get ranked chunk
rows with scores, fetch chunks by id, and read the corpus digest. Nothing
else leaks, so a server backend (OpenSearch, PostgreSQL) can replace this
file when a corpus outgrows one machine.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from arborist.corpus.chunking import ChunkingSettings, chunk_text
from arborist.corpus.documents import SourceDocument, corpus_digest, document_id
from arborist.corpus.migrations import MIGRATIONS, SCHEMA_VERSION
from arborist.errors import StoreError

STORE_MARKER = "arborist-corpus-store"


@dataclass(frozen=True)
class ChunkRow:
    """A chunk with the document fields every result needs."""

    chunk_id: str
    doc_id: str
    source_id: str
    title: str
    ordinal: int
    start: int
    end: int
    n_runes: int
    text: str


@dataclass
class IngestReport:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: int = 0
    chunks_written: int = 0
    rechunked: bool = False
    documents: int = 0
    chunks: int = 0
    corpus_digest: str = ""

    def as_dict(self) -> dict[str, object]:
        return {
            "added": len(self.added),
            "updated": len(self.updated),
            "unchanged": self.unchanged,
            "chunks_written": self.chunks_written,
            "rechunked": self.rechunked,
            "documents": self.documents,
            "chunks": self.chunks,
            "corpus_digest": self.corpus_digest,
            "added_ids": self.added,
            "updated_ids": self.updated,
        }


ProgressFn = Callable[[int], None]

_CHUNK_COLUMNS = (
    "c.chunk_id, c.doc_id, d.source_id, d.title, c.ordinal, c.start, c.\"end\", c.n_runes, c.text"
)


class CorpusStore:
    """One corpus in one SQLite file (WAL mode)."""

    def __init__(self, path: Path, db: sqlite3.Connection) -> None:
        self.path = path
        self.db = db
        self._vector_cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._titles: tuple[int, list[tuple[str, str, int]]] | None = None

    # -- lifecycle -------------------------------------------------------

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> CorpusStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All-or-nothing write; a failure or Ctrl-C rolls everything back."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # -- meta ------------------------------------------------------------

    def _meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def _set_meta(self, key: str, value: str) -> None:
        self.db.execute(
            "INSERT INTO meta(key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    def chunking(self) -> ChunkingSettings | None:
        raw = self._meta("chunking")
        return None if raw is None else ChunkingSettings.model_validate_json(raw)

    def digest(self) -> str:
        return self._meta("corpus_digest") or corpus_digest([])

    def generation(self) -> int:
        """A counter bumped by every ingest that changes chunks.

        Anything derived from the chunks (title index, BM25 matrix) is keyed
        on it; unlike the corpus digest it also changes when only rowids move
        (a document changed and changed back) or the chunking changes.
        """
        return int(self._meta("generation") or 0)

    def derived(self, name: str, generation: int) -> bytes | None:
        """The saved derived index `name` if it was built at `generation`, else None."""
        row = self.db.execute(
            "SELECT data FROM derived_indexes WHERE name = ? AND generation = ?", (name, generation)
        ).fetchone()
        return None if row is None else bytes(row[0])

    def put_derived(self, name: str, generation: int, data: bytes) -> bool:
        """Save a derived index unless the chunks changed meanwhile; False if it could not be saved.

        A read-only or busy store is not an error: the caller keeps its
        in-memory copy and the next open builds it again.
        """
        try:
            with self.transaction():
                if self.generation() != generation:
                    return False
                self.db.execute(
                    "INSERT OR REPLACE INTO derived_indexes(name, generation, data) VALUES (?, ?, ?)",
                    (name, generation, data),
                )
        except sqlite3.OperationalError:
            return False
        return True

    def schema_version(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM migrations").fetchone()[0]

    def counts(self) -> tuple[int, int]:
        docs = self.db.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
        chunks = self.db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
        return docs, chunks

    def info(self) -> dict[str, object]:
        docs, chunks = self.counts()
        chunking = self.chunking()
        return {
            "path": str(self.path),
            "documents": docs,
            "chunks": chunks,
            "corpus_digest": self.digest(),
            "schema_version": self.schema_version(),
            "chunking": chunking.model_dump() if chunking else None,
            "vectors": dict(self.db.execute("SELECT model, COUNT(*) FROM vectors GROUP BY model").fetchall()),
            "updated_at": self._meta("updated_at"),
        }

    # -- ingest ----------------------------------------------------------

    def _write_chunks(self, doc_id: str, text: str, title: str, settings: ChunkingSettings) -> int:
        chunks = chunk_text(text, settings)
        for ch in chunks:
            cur = self.db.execute(
                'INSERT INTO chunks(chunk_id, doc_id, ordinal, start, "end", n_runes, text) '
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (f"{doc_id}#chunk-{ch.ordinal}", doc_id, ch.ordinal, ch.start, ch.end, ch.n_runes, ch.text),
            )
            self.db.execute(
                "INSERT INTO chunks_fts(rowid, body, title) VALUES (?, ?, ?)",
                (cur.lastrowid, ch.text, title),
            )
        return len(chunks)

    def _delete_chunks(self, doc_id: str) -> None:
        self.db.execute(
            "DELETE FROM vectors WHERE chunk_rowid IN (SELECT id FROM chunks WHERE doc_id = ?)",
            (doc_id,),
        )
        self.db.execute(
            "DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE doc_id = ?)",
            (doc_id,),
        )
        self.db.execute("DELETE FROM chunks WHERE doc_id = ?", (doc_id,))

    def ingest(
        self,
        docs: Sequence[SourceDocument],
        settings: ChunkingSettings,
        progress: ProgressFn | None = None,
    ) -> IngestReport:
        """Upsert `docs` by source id in one transaction; idempotent for unchanged input.

        A document whose text or title changed replaces its old chunks (FTS
        rows included). If the chunking settings differ from the store's,
        every document is re-chunked so the store never mixes settings.
        """
        report = IngestReport()
        with self.transaction():
            previous = self.chunking()
            if previous is not None and previous != settings:
                report.rechunked = True
                for doc_id, title, text in self.db.execute(
                    "SELECT doc_id, title, text FROM documents"
                ).fetchall():
                    self._delete_chunks(doc_id)
                    report.chunks_written += self._write_chunks(doc_id, text, title, settings)
            self._set_meta("chunking", settings.model_dump_json())
            existing = dict(self.db.execute("SELECT source_id, doc_id FROM documents").fetchall())
            for doc in docs:
                new_id = document_id(doc)
                old_id = existing.get(doc.source_id)
                if old_id == new_id:
                    report.unchanged += 1
                else:
                    if old_id is not None:
                        self._delete_chunks(old_id)
                        self.db.execute("DELETE FROM documents WHERE doc_id = ?", (old_id,))
                        report.updated.append(doc.source_id)
                    else:
                        report.added.append(doc.source_id)
                    self.db.execute(
                        "INSERT INTO documents(doc_id, source_id, title, text, n_runes) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (new_id, doc.source_id, doc.title, doc.text, len(doc.text)),
                    )
                    report.chunks_written += self._write_chunks(new_id, doc.text, doc.title, settings)
                if progress is not None:
                    progress(1)
            if report.chunks_written or report.updated or report.rechunked:
                self._set_meta("generation", str(self.generation() + 1))
                self.db.execute("DELETE FROM derived_indexes")
            if report.added or report.updated or previous is None:
                self._set_meta("corpus_digest", corpus_digest(self.iter_documents()))
                self._set_meta("updated_at", datetime.now(UTC).isoformat(timespec="seconds"))
        report.documents, report.chunks = self.counts()
        report.corpus_digest = self.digest()
        self._vector_cache.clear()
        self._titles = None
        return report

    def titles(self) -> list[tuple[str, str, int]]:
        """(doc_id, title, rowid of the document's first chunk) for every document.

        Cached per generation, so an ingest by another process is seen too.
        """
        generation = self.generation()
        if self._titles is None or self._titles[0] != generation:
            self._titles = (
                generation,
                self.db.execute(
                    "SELECT d.doc_id, d.title, MIN(c.id) FROM documents d JOIN chunks c USING(doc_id) "
                    "GROUP BY d.doc_id"
                ).fetchall(),
            )
        return self._titles[1]

    # -- vectors ---------------------------------------------------------

    def chunks_without_vectors(self, model: str) -> list[tuple[int, str, str]]:
        """(rowid, title, text) of chunks that have no vector from `model` yet."""
        return self.db.execute(
            "SELECT c.id, d.title, c.text FROM chunks c JOIN documents d USING(doc_id) "
            "WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_rowid = c.id AND v.model = ?) "
            "ORDER BY c.id",
            (model,),
        ).fetchall()

    def put_vectors(self, model: str, rowids: Sequence[int], matrix: np.ndarray) -> None:
        """Store one batch of vectors in its own transaction (an interrupted embed keeps what it did)."""
        with self.transaction():
            self.db.executemany(
                "INSERT OR REPLACE INTO vectors(chunk_rowid, model, vec) VALUES (?, ?, ?)",
                [(r, model, matrix[i].astype(np.float32).tobytes()) for i, r in enumerate(rowids)],
            )
        self._vector_cache.pop(model, None)

    def vector_count(self, model: str) -> int:
        return self.db.execute("SELECT COUNT(*) FROM vectors WHERE model = ?", (model,)).fetchone()[0]

    def vectors(self, model: str) -> tuple[np.ndarray, np.ndarray]:
        """(rowids, float32 matrix) of every stored vector of `model`, loaded once per store object."""
        cached = self._vector_cache.get(model)
        if cached is None:
            rows = self.db.execute(
                "SELECT chunk_rowid, vec FROM vectors WHERE model = ? ORDER BY chunk_rowid", (model,)
            ).fetchall()
            rowids = np.array([r[0] for r in rows], dtype=np.int64)
            matrix = (
                np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
                if rows
                else np.zeros((0, 0), dtype=np.float32)
            )
            cached = self._vector_cache[model] = (rowids, matrix)
        return cached

    # -- reading ---------------------------------------------------------

    def iter_documents(self) -> Iterator[SourceDocument]:
        for source_id, title, text in self.db.execute(
            "SELECT source_id, title, text FROM documents ORDER BY source_id"
        ):
            yield SourceDocument(source_id=source_id, title=title, text=text)

    def source_ids(self) -> dict[str, str]:
        """doc_id -> source_id for every document (what evaluations are written against)."""
        return dict(self.db.execute("SELECT doc_id, source_id FROM documents").fetchall())

    def document(self, key: str) -> SourceDocument | None:
        """A document by store id or source id."""
        row = self.db.execute(
            "SELECT source_id, title, text FROM documents WHERE doc_id = ? OR source_id = ?",
            (key, key),
        ).fetchone()
        return None if row is None else SourceDocument(source_id=row[0], title=row[1], text=row[2])

    def _chunks_where(self, column: str, keys: Iterable[object]) -> list[tuple[object, ChunkRow]]:
        """(key, chunk) for chunks whose `column` is in `keys`, in batches under SQLite's variable limit."""
        ids = list(keys)
        out: list[tuple[object, ChunkRow]] = []
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            marks = ",".join("?" * len(part))
            for row in self.db.execute(
                f"SELECT c.{column}, {_CHUNK_COLUMNS} FROM chunks c JOIN documents d USING(doc_id) "
                f"WHERE c.{column} IN ({marks})",
                part,
            ):
                out.append((row[0], ChunkRow(*row[1:])))
        return out

    def iter_chunks(self) -> Iterator[tuple[int, ChunkRow]]:
        """(rowid, chunk) for every chunk in rowid order: what derived indexes are built from."""
        for row in self.db.execute(
            f"SELECT c.id, {_CHUNK_COLUMNS} FROM chunks c JOIN documents d USING(doc_id) ORDER BY c.id"
        ):
            yield row[0], ChunkRow(*row[1:])

    def texts_by_rowid(self, rowids: Iterable[int]) -> dict[int, str]:
        """Chunk texts only (no join): what a verbatim check over many candidates needs."""
        ids = list(rowids)
        out: dict[int, str] = {}
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            out.update(self.db.execute(
                f"SELECT id, text FROM chunks WHERE id IN ({','.join('?' * len(part))})", part
            ).fetchall())
        return out

    def chunks_by_rowid(self, rowids: Iterable[int]) -> dict[int, ChunkRow]:
        return {key: row for key, row in self._chunks_where("id", rowids)}  # type: ignore[misc]

    def chunks_by_id(self, chunk_ids: Iterable[str]) -> dict[str, ChunkRow]:
        return {key: row for key, row in self._chunks_where("chunk_id", chunk_ids)}  # type: ignore[misc]

    def all_chunks(self) -> list[ChunkRow]:
        """Every chunk in document order; for small stores (the single-document path)."""
        return [
            ChunkRow(*row)
            for row in self.db.execute(
                f"SELECT {_CHUNK_COLUMNS} FROM chunks c JOIN documents d USING(doc_id) "
                "ORDER BY d.source_id, c.ordinal"
            )
        ]

    def fts(self, expression: str, limit: int, weights: tuple[float, float] = (1.0, 1.0)) -> list[tuple[int, float]]:
        """Chunk rowids matching an FTS5 expression, best first, with a higher-is-better score.

        `expression` must come from `arborist.corpus.fts_query`: raw user
        text never reaches MATCH.
        """
        if not expression:
            return []
        rows = self.db.execute(
            "SELECT rowid, bm25(chunks_fts, ?, ?) AS s FROM chunks_fts "
            "WHERE chunks_fts MATCH ? ORDER BY s LIMIT ?",
            (weights[0], weights[1], expression, limit),
        ).fetchall()
        return [(rowid, -score) for rowid, score in rows]


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA busy_timeout = 5000")
    return db


def _applied(db: sqlite3.Connection) -> list[str]:
    return [r[0] for r in db.execute("SELECT name FROM migrations ORDER BY rowid")]


def open_store(path: Path | str, create: bool = False) -> CorpusStore:
    """Open (and, with `create`, make or migrate) the store at `path`.

    Refuses files that are not arborist stores and stores written by a newer
    schema, naming the file and what to do.
    """
    path = Path(path)
    if not path.exists():
        if not create:
            raise StoreError(
                f"no corpus store at '{path}'; create one with `arborist ingest PATH --db {path}`"
            )
        if not path.parent.exists():
            raise StoreError(f"folder '{path.parent}' for store '{path}' does not exist")
        db = _connect(path)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
        db.execute("CREATE TABLE IF NOT EXISTS store_marker (value TEXT NOT NULL)")
        db.execute("INSERT INTO store_marker VALUES (?)", (STORE_MARKER,))
    else:
        if path.is_dir():
            raise StoreError(f"'{path}' is a folder, not a corpus store file")
        db = _connect(path)
        try:
            marker = db.execute("SELECT value FROM store_marker").fetchone()
        except sqlite3.DatabaseError:
            marker = None
        if marker is None or marker[0] != STORE_MARKER:
            db.close()
            raise StoreError(f"'{path}' is not an arborist corpus store")
        db.execute("PRAGMA journal_mode = WAL")
    applied = _applied(db)
    if len(applied) > SCHEMA_VERSION:
        db.close()
        raise StoreError(
            f"store '{path}' has schema version {len(applied)}, newer than this arborist "
            f"understands ({SCHEMA_VERSION}); upgrade arborist"
        )
    # An older store is migrated on open: migrations only add.
    for fn in MIGRATIONS[len(applied) :]:
        db.execute("BEGIN IMMEDIATE")
        try:
            fn(db)
            db.execute(
                "INSERT INTO migrations(name, applied_at) VALUES (?, ?)",
                (fn.__name__, datetime.now(UTC).isoformat(timespec="seconds")),
            )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
    return CorpusStore(path, db)
