"""The one way arborist writes to SQLite: `write_transaction(db)`.

Every write (ingest, vectors, migrations, the answer cache, the audit chain)
goes through it, so "all or nothing" has one implementation. It is
re-entrant: an inner call joins the outer transaction, which is how the
cache write and the audit append commit together or not at all.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from arborist.errors import StoreError

# How long a writer waits for another writer (an ingest of a large corpus holds
# the write lock for its whole chunk transaction); readers never wait in WAL mode.
WRITE_WAIT_MS = 120_000


def is_locked(exc: sqlite3.OperationalError) -> bool:
    return getattr(exc, "sqlite_errorname", "") in ("SQLITE_BUSY", "SQLITE_LOCKED") or "locked" in str(exc)


@contextmanager
def write_transaction(db: sqlite3.Connection) -> Iterator[None]:
    """All-or-nothing write; a failure, Ctrl-C or kill rolls everything back.

    Inside an open transaction it only yields: the outermost call commits.
    """
    if db.in_transaction:
        yield
        return
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if is_locked(exc):
            raise StoreError(
                f"the store is locked by another writer (waited {WRITE_WAIT_MS // 1000} s); "
                "try again when the other ingest or query has finished"
            ) from None
        raise
    try:
        yield
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
