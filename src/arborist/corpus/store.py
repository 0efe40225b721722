"""The SQLite/FTS5 corpus store behind a narrow interface.

Callers ingest documents, run one full-text expression and get ranked chunk
rows with scores, fetch chunks by id, and read the corpus digest. Nothing
else leaks, so a server backend (OpenSearch, PostgreSQL) can replace this
file when a corpus outgrows one machine.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from uuid import uuid4

import numpy as np

from arborist.corpus.chunking import ChunkingSettings, chunk_text
from arborist.corpus.documents import SourceDocument, corpus_digest, document_id
from arborist.corpus.migrations import MIGRATIONS, SCHEMA_VERSION, Migration
from arborist.corpus.transactions import WRITE_WAIT_MS, write_transaction
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
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (file, why): left out by the loader

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
            "skipped": [{"path": path, "reason": reason} for path, reason in self.skipped],
        }


ProgressFn = Callable[[int], None]

_CHUNK_COLUMNS = (
    "c.chunk_id, c.doc_id, d.source_id, d.title, c.ordinal, c.start, c.\"end\", c.n_runes, c.text"
)


class CorpusStore:
    """One corpus in one SQLite file (WAL mode)."""

    def __init__(self, path: Path, db: sqlite3.Connection, read_only: bool = False) -> None:
        self.path = path
        self.db = db
        self.read_only = read_only
        self._vector_cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._titles: tuple[int, list[tuple[str, str, int]]] | None = None

    # -- lifecycle -------------------------------------------------------

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> CorpusStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def transaction(self) -> contextlib.AbstractContextManager[None]:
        """All-or-nothing write; a failure or Ctrl-C rolls everything back."""
        return write_transaction(self.db)

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

    def role(self) -> str:
        """'corpus', or 'sentinel' for a store made to hold patched values (see `arborist.lab.sentinels`)."""
        return self._meta("role") or "corpus"

    def mark_sentinel(self) -> None:
        """Mark an empty store as a sentinel store. A store that holds documents can never become one, so
        no real corpus can be made patchable after the fact."""
        with self.transaction():
            if self.counts()[0]:
                raise StoreError(f"store '{self.path}' holds documents; only a new, empty store can be a sentinel store")
            self._set_meta("role", "sentinel")

    def note(self, name: str) -> str | None:
        """A value a layer above stored with `set_note` (kept apart from the store's own meta keys)."""
        return self._meta("note:" + name)

    def set_note(self, name: str, value: str) -> None:
        with self.transaction():
            self._set_meta("note:" + name, value)

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
        # Their vectors go with them (trigger chunks_drop_vectors, migration m006).
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
            self.drop_orphan_vectors()
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

    def drop_orphan_vectors(self) -> int:
        """Delete vectors whose chunk is gone (stores written before m006 could hold them)."""
        with self.transaction():
            cur = self.db.execute("DELETE FROM vectors WHERE chunk_rowid NOT IN (SELECT id FROM chunks)")
        if cur.rowcount:
            self._vector_cache.clear()
        return cur.rowcount

    def chunks_without_vectors(self, model: str) -> list[tuple[int, str, str, str]]:
        """(rowid, chunk_id, title, text) of chunks that have no vector from `model` yet."""
        return self.db.execute(
            "SELECT c.id, c.chunk_id, d.title, c.text FROM chunks c JOIN documents d USING(doc_id) "
            "WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_rowid = c.id AND v.model = ?) "
            "ORDER BY c.id",
            (model,),
        ).fetchall()

    def put_vectors(
        self, model: str, chunks: Sequence[tuple[int, str, str]], matrix: np.ndarray
    ) -> int:
        """Store one batch of vectors in its own transaction (an interrupted embed keeps what it did).

        `chunks` are the (rowid, chunk_id, text) the vectors were computed
        from. A chunk re-written since (a concurrent ingest changed or
        re-chunked its document, and the rowid may now hold other text) gets
        no vector: the row is written only if the same chunk is still there.
        Returns how many vectors were stored.
        """
        stored = 0
        with self.transaction():
            for i, (rowid, chunk_id, text) in enumerate(chunks):
                cur = self.db.execute(
                    "INSERT OR REPLACE INTO vectors(chunk_rowid, model, vec) "
                    "SELECT id, ?, ? FROM chunks WHERE id = ? AND chunk_id = ? AND text = ?",
                    (model, matrix[i].astype(np.float32).tobytes(), rowid, chunk_id, text),
                )
                stored += cur.rowcount
        self._vector_cache.pop(model, None)
        return stored

    def vector_count(self, model: str) -> int:
        return self.db.execute("SELECT COUNT(*) FROM vectors WHERE model = ?", (model,)).fetchone()[0]

    def vectors(self, model: str, dim: int) -> tuple[np.ndarray, np.ndarray]:
        """(rowids, float32 matrix) of every stored `dim`-wide vector of `model` whose chunk
        exists, loaded once per store object. An orphan or damaged row is skipped, never fatal."""
        cached = self._vector_cache.get(model)
        if cached is None:
            rows = self.db.execute(
                "SELECT v.chunk_rowid, v.vec FROM vectors v JOIN chunks c ON c.id = v.chunk_rowid "
                "WHERE v.model = ? AND typeof(v.vec) = 'blob' AND length(v.vec) = ? ORDER BY v.chunk_rowid",
                (model, dim * 4),
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

    def chunk_frequency(self, expression: str) -> int:
        """How many chunks match an FTS5 expression (from `arborist.corpus.fts_query`; '' matches none)."""
        if not expression:
            return 0
        return int(self.db.execute("SELECT COUNT(*) FROM chunks_fts WHERE chunks_fts MATCH ?", (expression,)).fetchone()[0])

    def matching(self, expression: str, limit: int) -> list[int]:
        """Rowids of up to `limit` chunks matching an FTS5 expression, lowest first, unscored.

        For filters (a quoted phrase's occurrences), where BM25 ordering would
        only cost time. `expression` comes from `arborist.corpus.fts_query`.
        """
        if not expression:
            return []
        return [r for (r,) in self.db.execute(
            "SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?", (expression, limit)
        )]

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


_SIDE_SUFFIXES = ("-wal", "-shm", "-journal")
_BLANK_TABLES = frozenset({"migrations", "store_marker"})
# SQLite's answers that mean "you may read but not write here".
_READ_ONLY_ERRORS = frozenset(
    {"SQLITE_READONLY", "SQLITE_READONLY_DIRECTORY", "SQLITE_READONLY_DBMOVED", "SQLITE_READONLY_RECOVERY",
     "SQLITE_READONLY_CANTINIT", "SQLITE_READONLY_CANTLOCK", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH"}
)


def _connect(path: Path, read_only: bool = False, immutable: bool = False,
             exclusive: bool = False) -> sqlite3.Connection:
    if read_only:
        uri = path.resolve().as_uri() + "?mode=ro" + ("&immutable=1" if immutable else "")
        db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    else:
        db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    db.execute(f"PRAGMA busy_timeout = {WRITE_WAIT_MS}")
    if exclusive:  # set before the first read: the WAL index then lives in this process's memory, not in -shm
        db.execute("PRAGMA locking_mode = EXCLUSIVE")
    return db


def _errname(exc: sqlite3.Error) -> str:
    return getattr(exc, "sqlite_errorname", "") or ""


def _applied(db: sqlite3.Connection) -> list[str]:
    return [r[0] for r in db.execute("SELECT name FROM migrations ORDER BY rowid")]


def _apply(db: sqlite3.Connection, fn: Migration) -> None:
    fn(db)
    db.execute(
        "INSERT INTO migrations(name, applied_at) VALUES (?, ?)",
        (fn.__name__, datetime.now(UTC).isoformat(timespec="seconds")),
    )


def _is_blank(db: sqlite3.Connection) -> bool:
    """An empty database, or what an interrupted first ingest of an older arborist left:
    at most the (empty) migrations and marker tables. Nothing in it can be lost."""
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not tables <= _BLANK_TABLES:
        return False
    return all(db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] == 0 for t in tables)


def _initialise(db: sqlite3.Connection) -> None:
    """Make a blank database a complete store, inside the caller's write transaction."""
    for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
        db.execute(f"DROP TABLE {name}")
    db.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    db.execute("CREATE TABLE store_marker (value TEXT NOT NULL)")
    db.execute("INSERT INTO store_marker VALUES (?)", (STORE_MARKER,))
    for fn in MIGRATIONS:
        _apply(db, fn)


SchemaObject = tuple[str, str]  # (type, name) in sqlite_master


def _schema(db: sqlite3.Connection) -> dict[SchemaObject, str]:
    """The schema objects of `db` (SQLite's own `sqlite_*` ones aside) -> their SQL, whitespace collapsed
    (a migration re-indented since a store was made is the same object)."""
    rows = db.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
    return {(str(t), str(n)): " ".join(str(sql or "").split()) for t, n, sql in rows}


@functools.cache
def expected_schema() -> dict[SchemaObject, str]:
    """What `_initialise` and every migration create, built once per process in an in-memory database."""
    with contextlib.closing(sqlite3.connect(":memory:", isolation_level=None)) as db:
        _initialise(db)
        return _schema(db)


def schema_problems(db: sqlite3.Connection) -> list[str]:
    """How the store's tables, indexes and triggers differ from what its migrations create; [] when they do not.

    The audit log's append-only triggers live in the store file itself, so
    whoever can write the file can drop them, rewrite events, rehash the
    chain forward and recreate nothing: the chain alone then looks intact.
    A missing, altered or extra object is named here instead.
    """
    expected, found = expected_schema(), _schema(db)
    problems = [f"{kind} '{name}' is missing" for (kind, name) in expected if (kind, name) not in found]
    problems += [f"{kind} '{name}' differs from what the migrations create: {found[(kind, name)][:120]!r}"
                 for (kind, name), sql in expected.items() if (kind, name) in found and found[(kind, name)] != sql]
    problems += [f"{kind} '{name}' is not created by any migration: {sql[:120]!r}"
                 for (kind, name), sql in found.items() if (kind, name) not in expected]
    return problems


def _permission_error(path: Path, exc: BaseException | None = None) -> StoreError:
    folder = path.parent
    detail = f" ({exc.strerror})" if isinstance(exc, OSError) and exc.strerror else ""
    return StoreError(
        f"cannot create store '{path}': folder '{folder}' is not writable{detail}; "
        "choose a folder you can write to, or fix its permissions"
    )


@contextlib.contextmanager
def _creation_lock(path: Path) -> Iterator[None]:
    """Serialise creators of one store path (released by the kernel if the process dies)."""
    import fcntl

    lock_path = path.with_name(f".{path.name}.lock")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except PermissionError as exc:
        raise _permission_error(path, exc) from None
    except OSError as exc:
        raise StoreError(f"cannot create store '{path}': cannot open its creation lock '{lock_path}' "
                         f"({exc.strerror or exc}); remove whatever is in the way") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock_path)
        os.close(fd)


def _remove(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def _create(path: Path) -> None:
    """Build a complete empty store under a temporary name and rename it into place.

    A kill at any moment leaves either no file at `path` or a whole store,
    never a half-made one. Under the creation lock, an existing `path` means
    another process won the race (its store is used as is), and side files
    with no store file beside them are leftovers of a deleted store.
    """
    with _creation_lock(path):
        if path.exists():
            return
        for suffix in _SIDE_SUFFIXES:
            _remove(path.with_name(path.name + suffix))
        for stale in path.parent.glob(f".{path.name}.creating-*"):
            _remove(stale)
        tmp = path.with_name(f".{path.name}.creating-{uuid4().hex[:12]}")
        try:
            db = _connect(tmp)
            try:
                db.execute("PRAGMA journal_mode = WAL")
                with write_transaction(db):
                    _initialise(db)
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                db.close()
            os.replace(tmp, path)
        except PermissionError as exc:
            raise _permission_error(path, exc) from None
        except sqlite3.OperationalError as exc:
            if _errname(exc) in _READ_ONLY_ERRORS:
                raise _permission_error(path, exc) from None
            raise
        finally:
            for name in (tmp.name, *(tmp.name + s for s in _SIDE_SUFFIXES)):
                _remove(tmp.with_name(name))


def _disk_trouble(exc: sqlite3.Error | None) -> bool:
    """SQLite could not write a file it needs (the WAL index, a journal): a full or failing disk."""
    return exc is not None and _errname(exc).startswith(("SQLITE_FULL", "SQLITE_IOERR"))


def _read_only_error(path: Path, exc: sqlite3.Error | None) -> StoreError:
    if _disk_trouble(exc):
        why = f"its disk is full or failing: {exc}"
    elif (exc is not None and _errname(exc) == "SQLITE_READONLY_DIRECTORY") or not os.access(path.parent, os.W_OK):
        why = f"its folder '{path.parent}' is not writable"
    else:
        why = "the file is not writable"
    return StoreError(
        f"store '{path}' is read-only ({why}); this command writes to it (documents, answer cache, audit log). "
        "`search`, `info` and `audit verify` work on a read-only store; "
        "to write, free disk space or fix the permissions (e.g. chmod u+w)"
    )


class _ProbeDone(Exception):
    """Rolls the write probe back."""


def _check_writable(path: Path, db: sqlite3.Connection) -> None:
    """Fail now, naming the permission problem, instead of after a model call."""
    try:
        with write_transaction(db):
            db.execute("UPDATE store_marker SET value = value")
            raise _ProbeDone
    except _ProbeDone:
        pass
    except sqlite3.OperationalError as exc:
        if _errname(exc) in _READ_ONLY_ERRORS or _disk_trouble(exc):
            raise _read_only_error(path, exc) from None
        raise


def _open_existing(path: Path) -> tuple[sqlite3.Connection, bool, sqlite3.Error | None]:
    """A connection that can read the marker: read-write if possible, else read-only; with it, why it
    is read-only (the error that refused writing).

    A read-only folder needs `immutable`, since SQLite cannot create the WAL index there. A full or
    failing disk cannot hold the WAL index either (its -shm file): there a connection in exclusive
    locking mode keeps the index in its own memory and reads the store exactly, WAL included; it is
    marked read-only so that no command starts work (a model call) that it then cannot store.
    """
    last: sqlite3.Error | None = None
    attempts = (("write", False, False, False), ("read", True, False, False),
                ("exclusive", False, False, True), ("immutable", True, True, False))
    for how, read_only, immutable, exclusive in attempts:
        if how == "exclusive" and not _disk_trouble(last):
            continue
        db = _connect(path, read_only, immutable, exclusive)
        try:
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return db, read_only or exclusive, last
        except sqlite3.OperationalError as exc:
            db.close()
            if _errname(exc) not in _READ_ONLY_ERRORS and not _disk_trouble(exc):
                raise
            if last is None or not _disk_trouble(last):
                last = exc  # a disk problem is the first cause to name
        except sqlite3.DatabaseError:
            db.close()
            raise StoreError(f"'{path}' is not an arborist corpus store") from None
    raise StoreError(f"cannot read store '{path}': {last}; check its permissions and free disk space")


def open_store(path: Path | str, create: bool = False, write: bool = False) -> CorpusStore:
    """Open (and, with `create`, make or migrate) the store at `path`.

    `write` (implied by `create`) checks up front that the store can be
    written, so a read-only store fails before any work is done. Refuses
    files that are not arborist stores and stores written by a newer schema,
    naming the file and what to do. A blank file (empty, or left by an
    interrupted first ingest of an older arborist) becomes a store under
    `create`.
    """
    path = Path(path)
    write = write or create
    if not path.exists():
        if not create:
            raise StoreError(
                f"no corpus store at '{path}'; create one with `arborist ingest PATH --db {path}`"
            )
        if not path.parent.exists():
            raise StoreError(f"folder '{path.parent}' for store '{path}' does not exist")
        _create(path)
    if path.is_dir():
        raise StoreError(f"'{path}' is a folder, not a corpus store file")
    if not os.access(path, os.R_OK):
        raise StoreError(f"cannot read store '{path}': permission denied; check its permissions")
    db, read_only, why = _open_existing(path)
    try:
        return _ready(path, db, read_only, create, write, why)
    except BaseException:
        db.close()
        raise


def _marker(db: sqlite3.Connection) -> str | None:
    try:
        row = db.execute("SELECT value FROM store_marker").fetchone()
    except sqlite3.DatabaseError:
        return None
    return None if row is None else str(row[0])


def _ready(
    path: Path, db: sqlite3.Connection, read_only: bool, create: bool, write: bool, why: sqlite3.Error | None
) -> CorpusStore:
    if _marker(db) != STORE_MARKER:
        if not _is_blank(db):
            raise StoreError(f"'{path}' is not an arborist corpus store")
        if not create:
            raise StoreError(
                f"'{path}' is not an arborist corpus store yet: it is empty, or an interrupted first "
                f"ingest left it half-made; `arborist ingest PATH --db {path}` rebuilds it"
            )
        if read_only:
            raise _read_only_error(path, why)
        try:
            db.execute("PRAGMA journal_mode = WAL")
            with write_transaction(db):
                if _is_blank(db):  # re-checked under the write lock: another creator may have won
                    _initialise(db)
        except sqlite3.OperationalError as exc:
            if _errname(exc) in _READ_ONLY_ERRORS:
                raise _read_only_error(path, exc) from None
            raise
        if _marker(db) != STORE_MARKER:
            raise StoreError(f"'{path}' is not an arborist corpus store")
    applied = _applied(db)
    if len(applied) > SCHEMA_VERSION:
        raise StoreError(
            f"store '{path}' has schema version {len(applied)}, newer than this arborist "
            f"understands ({SCHEMA_VERSION}); upgrade arborist"
        )
    if write and read_only:
        raise _read_only_error(path, why)
    if len(applied) < SCHEMA_VERSION:
        # An older store is migrated on open: migrations only add.
        if read_only:
            raise StoreError(
                f"store '{path}' has schema version {len(applied)} and needs upgrading to {SCHEMA_VERSION}, "
                "but it is read-only; run `arborist info` on it once with write access"
            )
        try:
            with write_transaction(db):
                for fn in MIGRATIONS[len(_applied(db)) :]:  # re-read under the lock
                    _apply(db, fn)
        except sqlite3.OperationalError as exc:
            if _errname(exc) in _READ_ONLY_ERRORS:
                raise _read_only_error(path, exc) from None
            raise
    if not read_only:
        try:
            db.execute("PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError as exc:
            if _errname(exc) not in _READ_ONLY_ERRORS:
                raise
    if write:
        _check_writable(path, db)
    return CorpusStore(path, db, read_only=read_only)
