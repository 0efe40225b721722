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
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


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


SCHEMA_VERSION = len(MIGRATIONS)
