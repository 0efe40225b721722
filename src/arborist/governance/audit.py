"""The hash-chained audit log: one event per answered query, append-only.

Each event's hash covers its canonical JSON body and the previous event's
hash (and its own sequence number), so editing, deleting or reordering a
stored event breaks the chain at a place `verify_chain` can name. Removing
events from the end leaves a shorter valid chain: to detect that, keep the
head hash `arborist audit verify` prints somewhere the store's writer cannot
reach, and compare.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from typing import Any
from uuid import uuid4

from pydantic import BaseModel

from arborist.governance.canonical import canonical_json, tagged_digest

EVENT_TAG = "arborist-audit-event/1"
GENESIS = "sha256:" + "0" * 64


class AuditEvent(BaseModel):
    seq: int
    event_id: str
    body: dict[str, Any]
    prev_hash: str
    hash: str


class BrokenLink(BaseModel):
    seq: int
    event_id: str
    problem: str


class ChainReport(BaseModel):
    events: int
    ok: bool
    first_broken: BrokenLink | None
    head_hash: str


def event_hash(seq: int, event_id: str, body: dict[str, Any], prev_hash: str) -> str:
    return tagged_digest(EVENT_TAG, {"seq": seq, "event_id": event_id, "body": body, "prev_hash": prev_hash})


def append_event(db: sqlite3.Connection, kind: str, data: dict[str, Any]) -> AuditEvent:
    """Append one event in its own transaction; the head is read inside it so two writers cannot fork the chain."""
    db.execute("BEGIN IMMEDIATE")
    try:
        head = db.execute("SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1").fetchone()
        seq, prev = (1, GENESIS) if head is None else (head[0] + 1, head[1])
        event_id = uuid4().hex
        body = {"kind": kind, "at": datetime.now(UTC).isoformat(timespec="seconds"), **data}
        digest = event_hash(seq, event_id, body, prev)
        db.execute(
            "INSERT INTO audit_events(seq, event_id, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?)",
            (seq, event_id, canonical_json(body), prev, digest),
        )
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    return AuditEvent(seq=seq, event_id=event_id, body=body, prev_hash=prev, hash=digest)


def list_events(db: sqlite3.Connection, limit: int | None = None) -> list[AuditEvent]:
    sql = "SELECT seq, event_id, body, prev_hash, hash FROM audit_events ORDER BY seq DESC"
    rows = db.execute(sql + (" LIMIT ?" if limit else ""), (limit,) if limit else ()).fetchall()
    return [AuditEvent(seq=s, event_id=e, body=json.loads(b), prev_hash=p, hash=h) for s, e, b, p, h in reversed(rows)]


def verify_chain(db: sqlite3.Connection) -> ChainReport:
    """Walk the chain from the start; name the first event whose link or content fails."""
    prev, expected_seq, count = GENESIS, 1, 0
    for seq, event_id, body_json, prev_hash, stored in db.execute(
        "SELECT seq, event_id, body, prev_hash, hash FROM audit_events ORDER BY seq"
    ):
        count += 1

        # Called at most once, in this iteration: the loop variables are the current event's.
        def broken(problem: str) -> ChainReport:
            return ChainReport(events=count, ok=False, head_hash=prev,  # noqa: B023
                               first_broken=BrokenLink(seq=seq, event_id=event_id, problem=problem))  # noqa: B023

        if seq != expected_seq:
            return broken(f"sequence jumps from {expected_seq - 1} to {seq}: event(s) {expected_seq}..{seq - 1} were deleted")
        if prev_hash != prev:
            return broken(
                f"prev_hash {prev_hash[:19]}… does not match the previous event's hash {prev[:19]}…: "
                "an earlier event was removed, replaced or reordered"
            )
        try:
            body = json.loads(body_json)
        except json.JSONDecodeError:
            return broken("body is not valid JSON: the stored event was edited")
        recomputed = event_hash(seq, event_id, body, prev_hash)
        if recomputed != stored:
            return broken(
                f"content hash {recomputed[:19]}… differs from the stored hash {stored[:19]}…: "
                "the event's body or id was edited"
            )
        if canonical_json(body) != body_json:
            return broken("body is not in canonical form: the stored event was rewritten")
        prev, expected_seq = stored, seq + 1
    return ChainReport(events=count, ok=True, first_broken=None, head_hash=prev)
