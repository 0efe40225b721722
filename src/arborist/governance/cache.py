"""The answer cache, keyed by question + corpus digest + governance hash (+ sample index).

A policy change produces a new governance hash and so a new partition: an
answer is never served under a policy that did not produce it. The corpus
itself is untouched by cache partitioning.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

from pydantic import ValidationError

from arborist.answer.record import NO_TREATMENT, RECORD_FORMAT, AnswerRecord
from arborist.governance.canonical import tagged_digest

CACHE_TAG = "arborist-answer-cache/1"


def cache_key(
    question: str,
    corpus_digest: str,
    governance_hash: str,
    sample_index: int = 0,
    path: str = "query",
    treatment: str = NO_TREATMENT,
) -> str:
    """`path` keeps the answer paths apart: `ask` over a one-document store has the
    same corpus digest as `query` over it, but its prompt and ranking differ.
    `treatment` keeps an experiment's treated evidence apart from the untreated answer.

    Only values go in, never code: an answer survives a refactoring that does
    not change what the policy says.
    """
    parts: dict[str, object] = {
        "question": question, "corpus_digest": corpus_digest, "governance_hash": governance_hash,
        "sample_index": sample_index, "path": path,
    }
    if treatment != NO_TREATMENT:  # untreated answers keep the keys they always had
        parts["treatment"] = treatment
    return tagged_digest(CACHE_TAG, parts)


def get(db: sqlite3.Connection, key: str) -> AnswerRecord | None:
    """The cached record, or None when there is none or it is not a record this arborist can read.

    A record of another format (or one that no longer validates) is a miss,
    never an error: the answer is produced again and the entry replaced.
    """
    row = db.execute("SELECT record FROM answer_cache WHERE key = ?", (key,)).fetchone()
    if row is None:
        return None
    try:
        raw = json.loads(row[0])
    except json.JSONDecodeError:
        return None
    if not isinstance(raw, dict) or raw.get("format") != RECORD_FORMAT:
        return None
    try:
        record = AnswerRecord.model_validate(raw)
    except ValidationError:
        return None
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
