"""The hash-chained audit log: one event per answered query, append-only.

Each event's hash covers its canonical JSON body and the previous event's
hash (and its own sequence number), so editing, deleting or reordering a
stored event breaks the chain at a place `verify_chain` can name. Removing
events from the end, or rewriting them forward with recomputed hashes,
leaves a valid-looking chain: to catch that, keep the head hash
(`arborist audit head`) somewhere the store's writer cannot reach and pass
it back (`verify_chain(db, expect_head=...)`): a chain that no longer holds
that hash was truncated or rewritten.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from typing import Any
from uuid import uuid4

from pydantic import BaseModel, Field

from arborist.corpus.store import schema_problems
from arborist.corpus.transactions import write_transaction
from arborist.policy.canonical import canonical_json, tagged_digest

EVENT_TAG = "arborist-audit-event/1"
GENESIS = "sha256:" + "0" * 64


class AuditEvent(BaseModel):
    seq: int
    event_id: str
    body: dict[str, Any] | None = Field(description="None when the stored body cannot be read (see `problem`)")
    prev_hash: str
    hash: str
    problem: str | None = Field(default=None, description="why the stored event is unreadable or its hash does not match")


class BrokenLink(BaseModel):
    seq: int
    event_id: str
    problem: str


class ExpectedHead(BaseModel):
    """How the chain stands towards a head hash kept outside the store."""

    hash: str
    found: bool
    seq: int | None = Field(default=None, description="the event whose hash it is (0: the empty chain)")
    events_after: int | None = Field(default=None, description="events appended since that head was kept")


class ChainReport(BaseModel):
    events: int
    ok: bool
    first_broken: BrokenLink | None
    head_hash: str
    expected_head: ExpectedHead | None = None
    schema_problems: list[str] = Field(
        default_factory=list,
        description="tables, indexes and triggers (the append-only ones among them) that differ from what the "
                    "store's migrations create: a chain in a store whose triggers were dropped proves nothing")


def event_hash(seq: int, event_id: str, body: dict[str, Any], prev_hash: str) -> str:
    return tagged_digest(EVENT_TAG, {"seq": seq, "event_id": event_id, "body": body, "prev_hash": prev_hash})


def append_event(db: sqlite3.Connection, kind: str, data: dict[str, Any]) -> AuditEvent:
    """Append one event in its own transaction, or in the caller's (the engine writes a cache
    row in the same one); the head is read inside it so two writers cannot fork the chain."""
    with write_transaction(db):
        head = db.execute("SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1").fetchone()
        seq, prev = (1, GENESIS) if head is None else (head[0] + 1, head[1])
        event_id = uuid4().hex
        body = {"kind": kind, "at": datetime.now(UTC).isoformat(timespec="seconds"), **data}
        digest = event_hash(seq, event_id, body, prev)
        db.execute(
            "INSERT INTO audit_events(seq, event_id, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?)",
            (seq, event_id, canonical_json(body), prev, digest),
        )
    return AuditEvent(seq=seq, event_id=event_id, body=body, prev_hash=prev, hash=digest)


_COLUMNS = "seq, event_id, body, prev_hash, hash"


def _read(row: tuple[Any, ...]) -> AuditEvent:
    """One stored row as an event; whatever was done to it, a problem to report, never an exception."""
    seq, event_id, body_json, prev_hash, stored = row
    strings = (event_id, prev_hash, stored)
    if not isinstance(seq, int) or not all(isinstance(v, str) for v in strings):
        return AuditEvent(seq=seq if isinstance(seq, int) else -1, event_id=str(event_id), body=None,
                          prev_hash=str(prev_hash), hash=str(stored),
                          problem="stored fields have the wrong types: the event was edited")
    try:
        body = json.loads(body_json)
    except (TypeError, ValueError, RecursionError):
        return AuditEvent(seq=seq, event_id=event_id, body=None, prev_hash=prev_hash, hash=stored,
                          problem="body is not valid JSON: the stored event was edited")
    if not isinstance(body, dict):
        return AuditEvent(seq=seq, event_id=event_id, body=None, prev_hash=prev_hash, hash=stored,
                          problem="body is not a JSON object: the stored event was edited")
    try:
        recomputed = event_hash(seq, event_id, body, prev_hash)
    except (ValueError, RecursionError):  # e.g. lone surrogates, absurd nesting
        recomputed = ""
    problem = None
    if recomputed != stored:
        problem = (f"content hash {recomputed[:19]}… differs from the stored hash {stored[:19]}…: "
                   "the event's body or id was edited")
    elif canonical_json(body) != body_json:
        problem = "body is not in canonical form: the stored event was rewritten"
    return AuditEvent(seq=seq, event_id=event_id, body=body, prev_hash=prev_hash, hash=stored, problem=problem)


def get_event(db: sqlite3.Connection, seq: int) -> AuditEvent | None:
    row = db.execute(f"SELECT {_COLUMNS} FROM audit_events WHERE seq = ?", (seq,)).fetchone()
    return None if row is None else _read(row)


def list_events(db: sqlite3.Connection, limit: int | None = None) -> list[AuditEvent]:
    """Events oldest first (the newest `limit`); an unreadable one carries its `problem`."""
    sql = f"SELECT {_COLUMNS} FROM audit_events ORDER BY seq DESC"
    rows = db.execute(sql + (" LIMIT ?" if limit else ""), (limit,) if limit else ()).fetchall()
    return [_read(row) for row in reversed(rows)]


def _normalise_head(value: str) -> str:
    value = value.strip().lower()
    return value if value.startswith("sha256:") else "sha256:" + value


def verify_chain(db: sqlite3.Connection, expect_head: str | None = None) -> ChainReport:
    """Walk the chain from the start; name the first event whose link or content fails, and every schema
    object (the append-only triggers first of all) that is not what the migrations create.

    With `expect_head` (a head kept outside the store), the chain must also
    still hold that hash; `expected_head` says where, and how many events
    were appended since.
    """
    report = _walk(db, None if expect_head is None else _normalise_head(expect_head))
    report.schema_problems = schema_problems(db)
    if report.schema_problems:
        report.ok = False
    return report


def _walk(db: sqlite3.Connection, expect: str | None) -> ChainReport:
    prev, expected_seq, count = GENESIS, 1, 0
    found_at: int | None = 0 if expect == GENESIS else None

    def finish(report: ChainReport) -> ChainReport:
        if expect is not None:
            found = found_at is not None
            report.expected_head = ExpectedHead(
                hash=expect, found=found, seq=found_at,
                events_after=(report.events - found_at) if found_at is not None else None,
            )
            if not found:
                report.ok = False
        return report

    for row in db.execute(f"SELECT {_COLUMNS} FROM audit_events ORDER BY seq"):
        count += 1
        event = _read(row)
        seq, prev_hash = event.seq, event.prev_hash
        problem = None
        if event.body is None and event.problem is not None and "wrong types" in event.problem:
            problem = event.problem
        elif seq != expected_seq:
            problem = f"sequence jumps from {expected_seq - 1} to {seq}: event(s) {expected_seq}..{seq - 1} were deleted"
        elif prev_hash != prev:
            problem = (f"prev_hash {prev_hash[:19]}… does not match the previous event's hash {prev[:19]}…: "
                       "an earlier event was removed, replaced or reordered")
        elif event.problem is not None:
            problem = event.problem
        if problem is not None:
            return finish(ChainReport(events=count, ok=False, head_hash=prev,
                                      first_broken=BrokenLink(seq=seq, event_id=event.event_id, problem=problem)))
        prev, expected_seq = event.hash, seq + 1
        if prev == expect:
            found_at = seq
    return finish(ChainReport(events=count, ok=True, first_broken=None, head_hash=prev))
