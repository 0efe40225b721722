"""The answer cache, keyed by question + corpus digest + governance hash (+ sample index).

A policy change produces a new governance hash and so a new partition: an
answer is never served under a policy that did not produce it. The corpus
itself is untouched by cache partitioning.

Every row is attested: it is written in the same transaction as an audit
event whose `cache_record_sha256` is the sha256 of the row's exact record
text, and the row keeps that event's `audit_seq`. `attestation_problem`
checks a row against its event before it is served, so a row edited after
the fact (or written without an event) is never served.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime

from pydantic import ValidationError

from arborist.answer.record import NO_TREATMENT, RECORD_FORMAT, AnswerRecord
from arborist.corpus.transactions import write_transaction
from arborist.governance.audit import AuditEvent, append_event, get_event
from arborist.policy.canonical import tagged_digest

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


@dataclass(frozen=True)
class CachedRow:
    """A cache row as stored: the exact record text and the audit event that attests it."""

    text: str
    audit_seq: int | None

    @property
    def sha256(self) -> str:
        return record_text_sha256(self.text)


def record_text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def stored_text(record: AnswerRecord) -> str:
    """The text a cache row holds for `record` (never marked as a hit)."""
    return record.model_copy(update={"cache_hit": False, "cache_rejected": None}).model_dump_json()


def get_row(db: sqlite3.Connection, key: str) -> CachedRow | None:
    row = db.execute("SELECT record, audit_seq FROM answer_cache WHERE key = ?", (key,)).fetchone()
    if row is None:
        return None
    text, seq = row
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return CachedRow(text=str(text), audit_seq=seq if isinstance(seq, int) else None)


def attestation_problem(db: sqlite3.Connection, row: CachedRow) -> str | None:
    """None when the row is exactly what its audit event recorded; otherwise why it is not."""
    if row.audit_seq is None:
        return "the cached row names no audit event (written before cache attestation, or forged)"
    event = get_event(db, row.audit_seq)
    if event is None:
        return f"its audit event {row.audit_seq} does not exist"
    if event.problem is not None or event.body is None:
        return f"its audit event {row.audit_seq} is damaged ({event.problem})"
    if event.body.get("cache_record_sha256") != row.sha256:
        return f"the cached row differs from what audit event {row.audit_seq} recorded: it was edited"
    after = get_event(db, row.audit_seq + 1)
    if after is not None and after.prev_hash != event.hash:
        return f"its audit event {row.audit_seq} no longer links to the next one: the chain was edited"
    return None


def parse_row(row: CachedRow) -> AnswerRecord | None:
    """The row's record marked as a cache hit; None if it does not parse.

    A record of another format (or one that no longer validates) is a miss,
    never an error: the answer is produced again and the entry replaced.
    """
    try:
        raw = json.loads(row.text)
        if not isinstance(raw, dict) or raw.get("format") != RECORD_FORMAT:
            return None
        record = AnswerRecord.model_validate(raw)
    except (ValidationError, ValueError, RecursionError):
        return None
    return record.model_copy(update={"cache_hit": True})


def get(db: sqlite3.Connection, key: str) -> AnswerRecord | None:
    """The cached record for `key` if its row is attested, else None."""
    row = get_row(db, key)
    if row is None or attestation_problem(db, row) is not None:
        return None
    return parse_row(row)


def put(
    db: sqlite3.Connection, key: str, record: AnswerRecord, sample_index: int = 0, *,
    text: str | None = None, audit_seq: int | None = None,
) -> None:
    """Store `record` (as `text`, when the caller already serialised it for its audit event).

    A row without the `audit_seq` of an event attesting it is never served:
    writers use `record_and_audit`, which calls this inside its transaction.
    """
    with write_transaction(db):
        db.execute(
            "INSERT OR REPLACE INTO answer_cache(key, question, corpus_digest, governance_hash, sample_index, "
            "record, created_at, audit_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (key, record.question, record.corpus_digest or "", record.governance_policy_hash, sample_index,
             text if text is not None else stored_text(record), datetime.now(UTC).isoformat(timespec="seconds"),
             audit_seq),
        )


def record_and_audit(
    db: sqlite3.Connection, key: str | None, record: AnswerRecord, sample_index: int, body: dict[str, object]
) -> AuditEvent:
    """Append the audit event `body` and, with a `key`, write `record`'s cache row attested by it:
    one transaction, so a row never exists without its event (nor an event claiming a row that is not there)."""
    text = stored_text(record) if key is not None else None
    with write_transaction(db):
        event = append_event(db, "answer", {**body, "cache_record_sha256": None if text is None else record_text_sha256(text)})
        if key is not None:
            put(db, key, record, sample_index, text=text, audit_seq=event.seq)
    return event


def count(db: sqlite3.Connection) -> int:
    return db.execute("SELECT COUNT(*) FROM answer_cache").fetchone()[0]
