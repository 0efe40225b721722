"""Schema migrations: named functions applied in order and recorded in a table.

The schema version of a store is the number of migrations it has applied; a
store with more than this code knows was written by a newer arborist.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

Migration = Callable[[sqlite3.Connection], None]
MIGRATIONS: list[Migration] = []


def migration(fn: Migration) -> Migration:
    MIGRATIONS.append(fn)
    return fn


def _run(db: sqlite3.Connection, script: str) -> None:
    """Statements one by one: `executescript` would commit the migration's transaction."""
    buffer = ""
    for piece in script.split(";"):
        buffer += piece + ";"
        # Trigger bodies hold ';' too: run only once the statement is complete.
        if sqlite3.complete_statement(buffer):
            if buffer.strip(" \n;"):
                db.execute(buffer)
            buffer = ""
    if buffer.strip(" \n;"):
        raise ValueError(f"incomplete SQL statement in migration: {buffer[:80]!r}")


@migration
def m001_initial(db: sqlite3.Connection) -> None:
    _run(
        db,
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE documents (
            doc_id    TEXT PRIMARY KEY,
            source_id TEXT NOT NULL UNIQUE,
            title     TEXT NOT NULL,
            text      TEXT NOT NULL,
            n_runes   INTEGER NOT NULL
        );
        CREATE TABLE chunks (
            id       INTEGER PRIMARY KEY,
            chunk_id TEXT NOT NULL UNIQUE,
            doc_id   TEXT NOT NULL REFERENCES documents(doc_id),
            ordinal  INTEGER NOT NULL,
            start    INTEGER NOT NULL,
            "end"    INTEGER NOT NULL,
            n_runes  INTEGER NOT NULL,
            text     TEXT NOT NULL
        );
        CREATE INDEX chunks_doc ON chunks(doc_id, ordinal);
        CREATE VIRTUAL TABLE chunks_fts USING fts5(
            body, title, tokenize = 'porter unicode61 remove_diacritics 2'
        );
        """
    )


@migration
def m002_vectors(db: sqlite3.Connection) -> None:
    """Dense vectors beside the text, one per chunk and embedding model (float32 bytes)."""
    _run(
        db,
        """
        CREATE TABLE vectors (
            chunk_rowid INTEGER NOT NULL REFERENCES chunks(id),
            model       TEXT NOT NULL,
            vec         BLOB NOT NULL,
            PRIMARY KEY (chunk_rowid, model)
        )
        """,
    )


@migration
def m003_answer_cache_and_audit(db: sqlite3.Connection) -> None:
    """Answer cache (partitioned by policy hash) and the append-only audit chain.

    The triggers make the audit table append-only for every writer that goes
    through SQLite's normal statements; the hash chain catches the rest.
    """
    _run(
        db,
        """
        CREATE TABLE answer_cache (
            key              TEXT PRIMARY KEY,
            question         TEXT NOT NULL,
            corpus_digest    TEXT NOT NULL,
            governance_hash  TEXT NOT NULL,
            sample_index     INTEGER NOT NULL,
            record           TEXT NOT NULL,
            created_at       TEXT NOT NULL
        );
        CREATE TABLE audit_events (
            seq        INTEGER PRIMARY KEY,
            event_id   TEXT NOT NULL UNIQUE,
            body       TEXT NOT NULL,
            prev_hash  TEXT NOT NULL,
            hash       TEXT NOT NULL
        );
        CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit_events
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
        CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit_events
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END
        """,
    )


@migration
def m004_audit_no_replace(db: sqlite3.Connection) -> None:
    """`INSERT OR REPLACE` deletes the row it conflicts with without firing DELETE
    triggers; refuse any insert that would collide with an existing event."""
    _run(
        db,
        """
        CREATE TRIGGER audit_no_replace BEFORE INSERT ON audit_events
        WHEN EXISTS (SELECT 1 FROM audit_events WHERE seq = NEW.seq OR event_id = NEW.event_id)
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END
        """,
    )


@migration
def m005_derived_indexes(db: sqlite3.Connection) -> None:
    """Indexes derived from the chunks (e.g. the in-memory BM25 matrix), saved so a
    re-opened store need not rebuild them; each is tagged with the store generation
    it was built from and is ignored once the chunks change."""
    _run(
        db,
        """
        CREATE TABLE derived_indexes (
            name       TEXT PRIMARY KEY,
            generation INTEGER NOT NULL,
            data       BLOB NOT NULL
        )
        """,
    )


SCHEMA_VERSION = len(MIGRATIONS)
