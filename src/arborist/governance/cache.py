"""The answer cache, keyed by question + corpus digest + governance hash (+ sample index).

A policy change produces a new governance hash and so a new partition: an
answer is never served under a policy that did not produce it. The corpus
itself is untouched by cache partitioning.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from arborist.answer.record import AnswerRecord
from arborist.governance.canonical import tagged_digest

CACHE_TAG = "arborist-answer-cache/1"


def cache_key(
    question: str, corpus_digest: str, governance_hash: str, sample_index: int = 0, path: str = "query"
) -> str:
    """`path` keeps the answer paths apart: `ask` over a one-document store has the
    same corpus digest as `query` over it, but its prompt and ranking differ."""
    return tagged_digest(
        CACHE_TAG,
        {"question": question, "corpus_digest": corpus_digest, "governance_hash": governance_hash,
         "sample_index": sample_index, "path": path},
    )


def get(db: sqlite3.Connection, key: str) -> AnswerRecord | None:
    row = db.execute("SELECT record FROM answer_cache WHERE key = ?", (key,)).fetchone()
    if row is None:
        return None
    record = AnswerRecord.model_validate_json(row[0])
    return record.model_copy(update={"cache_hit": True})


def put(db: sqlite3.Connection, key: str, record: AnswerRecord, sample_index: int = 0) -> None:
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(
            "INSERT OR REPLACE INTO answer_cache(key, question, corpus_digest, governance_hash, sample_index, "
            "record, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (key, record.question, record.corpus_digest or "", record.governance_policy_hash, sample_index,
             record.model_dump_json(), datetime.now(UTC).isoformat(timespec="seconds")),
        )
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def count(db: sqlite3.Connection) -> int:
    return db.execute("SELECT COUNT(*) FROM answer_cache").fetchone()[0]
