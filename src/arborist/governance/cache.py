"""The answer cache, keyed by question + corpus digest + governance hash (+ sample index).

A policy change produces a new governance hash and so a new partition: an
answer is never served under a policy that did not produce it. The corpus
itself is untouched by cache partitioning.

Every row is attested: it is written in the same transaction as an audit
event whose `cache_record_sha256` is the sha256 of the row's exact record
text, and the row keeps that event's `audit_seq`. `attestation_problem`
checks a row against its event before it is served, so a row edited after
the fact (or written without an event) is never served.

The row and its event live in one file, though: whoever can write it can
drop the append-only triggers, edit both and rehash the chain forward. So a
hit is also checked against what the store itself holds (`evidence_problem`):
every evidence chunk it was answered from must still be in the store with the
same title and text, its citations and parsed answer must be what its raw
response says, and it is re-verified against the store's texts, never against
the copies inside the record (`with_known_evidence`).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from pydantic import ValidationError

from arborist.answer.contract import check_contract
from arborist.answer.record import NO_TREATMENT, RECORD_FORMAT, AnswerRecord, EvidenceEntry
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


KnownEvidence = Mapping[str, tuple[str, str]]
"""chunk id -> (title, text) as the source of truth holds them: the store's chunks, a fixed admitted list."""


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def evidence_problem(record: AnswerRecord, known: KnownEvidence) -> str | None:
    """None when every chunk `record` was answered from is in `known` with the same title and text digest,
    its citations are among them, and its parsed answer is what its raw response says; otherwise why not."""
    ids = [e.chunk_id for e in record.evidence]
    if ids != record.admitted_chunk_ids:
        return "its evidence is not the chunks it says were admitted: it was edited"
    for e in record.evidence:
        if e.chunk_id not in known:
            return f"chunk '{e.chunk_id}' it was answered from is not in the store"
        title, text = known[e.chunk_id]
        if _sha(e.text) != _sha(text) or e.title != title:
            return (f"its copy of chunk '{e.chunk_id}' (text sha256 {_sha(e.text)[:12]}…) is not the store's "
                    f"(sha256 {_sha(text)[:12]}…): it was edited")
    contract = check_contract(record.policy.mode, record.completion.text, [e.evidence_id for e in record.evidence],
                              provider_error=record.completion.error)
    if (contract.reason, contract.answer) != (record.contract.reason, record.contract.answer):
        return "its parsed answer is not what its raw response says: it was edited"
    chunk_of = {e.evidence_id: e.chunk_id for e in record.evidence}
    if [chunk_of[i] for i in contract.cited_evidence_ids if i in chunk_of] != record.citation_chunk_ids:
        return "the chunks it says it cites are not the ones its answer cites: it was edited"
    return None


def with_known_evidence(record: AnswerRecord, known: KnownEvidence) -> AnswerRecord:
    """`record` with each evidence entry's title and text taken from `known`: what a hit is re-verified against."""
    evidence = [EvidenceEntry(evidence_id=e.evidence_id, chunk_id=e.chunk_id, source_id=e.source_id,
                              title=known[e.chunk_id][0], text=known[e.chunk_id][1]) for e in record.evidence]
    return record.model_copy(update={"evidence": evidence})


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
