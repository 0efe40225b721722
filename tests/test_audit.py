"""The hash-chained audit log: one event per answered query, append-only, tampering named.

Tampering is done the way an attacker with the file would: a separate raw
sqlite3 connection that first drops the append-only triggers.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from arborist import engine
from arborist.corpus import ChunkingSettings, CorpusStore, open_store
from arborist.errors import InputError
from arborist.governance import cache
from arborist.governance.audit import GENESIS, AuditEvent, append_event, event_hash, list_events, verify_chain
from arborist.ingest import ingest_paths
from arborist.models.scripted import ScriptedProvider
from arborist.policy.answer import AnswerPolicy, build_policy, governance_policy_hash
from arborist.policy.canonical import canonical_json
from arborist.retrieval.search import SearchSettings
from arborist.verify import VerifierPolicy, verifier_policy_hash

QUESTION = "How long is the refund window for annual plans?"
ANSWER = json.dumps({"claims": [{"text": "Annual plans can be refunded within 30 days", "evidence_ids": ["E1"],
                                 "quote": "Annual plans can be refunded within 30 days"}], "abstained_requests": []})
N_EVENTS = 5
BODY_KEYS = {"record_id", "governance_policy_hash", "verifier_policy_hash", "label", "contract", "cache_hit",
             "record_sha256"}


def policy(**values: object) -> AnswerPolicy:
    values.setdefault("model_id", "scripted:scripted")
    values.setdefault("search", SearchSettings(routes=("bm25", "title", "phrase")))
    return build_policy(**values)


# --- fixtures --------------------------------------------------------------------------------------


@pytest.fixture
def chain(tmp_path: Path) -> Iterator[tuple[Path, CorpusStore, list[AuditEvent]]]:
    """An empty store with five audit events (one body holds non-ASCII text)."""
    path = tmp_path / "audit.db"
    store = open_store(path, create=True)
    events = [
        append_event(store.db, "answer", {"n": i, "label": "STRICT", "contract": "OK", "note": "naïve — «ça» 😀"})
        for i in range(1, N_EVENTS + 1)
    ]
    yield path, store, events
    store.close()


def attack(path: Path, *statements: str | tuple[str, tuple[Any, ...]], drop: tuple[str, ...] = ()) -> None:
    """Run raw SQL on the store file from outside arborist, dropping the named triggers first and recreating
    them after, as a careful attacker would (a dropped trigger is named by `verify_chain` on its own)."""
    with closing(sqlite3.connect(str(path), isolation_level=None)) as db:
        saved = [db.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", (t,)).fetchone()[0]
                 for t in drop]
        for trigger in drop:
            db.execute(f"DROP TRIGGER {trigger}")
        for st in statements:
            sql, args = (st, ()) if isinstance(st, str) else st
            db.execute(sql, args)
        for sql in saved:
            db.execute(sql)


def stored(path: Path, seq: int) -> tuple[str, str, str, str]:
    with closing(sqlite3.connect(str(path))) as db:
        row = db.execute("SELECT event_id, body, prev_hash, hash FROM audit_events WHERE seq = ?", (seq,)).fetchone()
    return row


def report_of(path: Path) -> Any:
    with open_store(path) as s:
        return verify_chain(s.db)


# --- the chain itself --------------------------------------------------------------------------------


def test_intact_chain_verifies(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    path, store, events = chain
    report = verify_chain(store.db)
    assert report.ok and report.first_broken is None and report.events == N_EVENTS
    assert report.head_hash == events[-1].hash
    assert report_of(path) == report  # and from a fresh connection


def test_empty_chain_is_intact(tmp_path: Path) -> None:
    with open_store(tmp_path / "empty.db", create=True) as s:
        report = verify_chain(s.db)
        assert list_events(s.db) == []
    assert report.ok and report.events == 0 and report.head_hash == GENESIS and report.first_broken is None


def test_events_link_to_their_predecessor(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    _, store, events = chain
    assert [e.seq for e in events] == list(range(1, N_EVENTS + 1))
    assert events[0].prev_hash == GENESIS
    for before, after in zip(events, events[1:]):
        assert after.prev_hash == before.hash
    for e in events:
        assert e.hash == event_hash(e.seq, e.event_id, e.body, e.prev_hash)
        assert e.body["kind"] == "answer" and "at" in e.body
    assert len({e.event_id for e in events}) == N_EVENTS
    assert list_events(store.db) == events
    # the body is stored as canonical JSON, non-ASCII kept as is
    [(raw,)] = store.db.execute("SELECT body FROM audit_events WHERE seq = 1").fetchall()
    assert raw == canonical_json(events[0].body) and "naïve" in raw


def test_list_events_limit_gives_the_newest_oldest_first(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    _, store, events = chain
    assert [e.seq for e in list_events(store.db, 2)] == [N_EVENTS - 1, N_EVENTS]
    assert list_events(store.db, 2) == events[-2:]
    assert list_events(store.db, 100) == events
    assert list_events(store.db, None) == events


# --- the append-only triggers -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE audit_events SET body = '{}' WHERE seq = 2",
        "UPDATE audit_events SET hash = 'sha256:x' WHERE seq = 5",
        "UPDATE audit_events SET seq = 10 WHERE seq = 5",
        "DELETE FROM audit_events WHERE seq = 3",
        "DELETE FROM audit_events",
        "INSERT INTO audit_events(seq, event_id, body, prev_hash, hash) VALUES (2, 'x', '{}', 'p', 'h') "
        "ON CONFLICT(seq) DO UPDATE SET body = excluded.body",
    ],
    ids=["update-body", "update-hash", "update-seq", "delete-one", "delete-all", "upsert"],
)
def test_triggers_block_update_and_delete(chain: tuple[Path, CorpusStore, list[AuditEvent]], sql: str) -> None:
    path, store, events = chain
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store.db.execute(sql)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        attack(path, sql)  # another connection, triggers in place
    assert list_events(store.db) == events
    assert verify_chain(store.db).ok


def test_insert_or_replace_cannot_overwrite_an_event(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    path, store, events = chain
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        attack(path, ("INSERT OR REPLACE INTO audit_events(seq, event_id, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?)",
                      (2, "forged", "{}", events[0].hash, "sha256:forged")))
    assert list_events(store.db) == events


def test_insert_or_replace_is_still_caught_by_the_chain(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    path, store, events = chain
    attack(path, ("INSERT OR REPLACE INTO audit_events(seq, event_id, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?)",
                  (2, "forged", "{}", events[0].hash, "sha256:forged")), drop=("audit_no_replace",))
    report = verify_chain(store.db)
    assert not report.ok and report.first_broken is not None
    assert (report.first_broken.seq, report.first_broken.event_id) == (2, "forged")


# --- tampering, each named at the first broken event -----------------------------------------------------


def test_edited_body_is_named(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    path, store, events = chain
    body = dict(events[2].body, label="UNGROUNDED")
    attack(path, ("UPDATE audit_events SET body = ? WHERE seq = 3", (canonical_json(body),)), drop=("audit_no_update",))
    report = verify_chain(store.db)
    assert not report.ok and report.first_broken is not None
    assert (report.first_broken.seq, report.first_broken.event_id) == (3, events[2].event_id)
    assert "content hash" in report.first_broken.problem and "body or id was edited" in report.first_broken.problem
    assert report.events == 3
    assert report.head_hash == events[1].hash  # the last good link


def test_edited_event_id_is_named(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    path, store, _ = chain
    attack(path, "UPDATE audit_events SET event_id = 'someone-else' WHERE seq = 2", drop=("audit_no_update",))
    b = verify_chain(store.db).first_broken
    assert b is not None and (b.seq, b.event_id) == (2, "someone-else") and "body or id was edited" in b.problem


def test_body_that_is_no_longer_json_is_named(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    path, store, events = chain
    attack(path, "UPDATE audit_events SET body = '{\"label\": ' WHERE seq = 4", drop=("audit_no_update",))
    b = verify_chain(store.db).first_broken
    assert b is not None and (b.seq, b.event_id) == (4, events[3].event_id) and "not valid JSON" in b.problem


def test_edited_and_rehashed_event_breaks_the_next_link(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    path, store, events = chain
    e = events[2]
    body = dict(e.body, label="UNGROUNDED")
    new_hash = event_hash(e.seq, e.event_id, body, e.prev_hash)
    attack(path, ("UPDATE audit_events SET body = ?, hash = ? WHERE seq = 3", (canonical_json(body), new_hash)),
           drop=("audit_no_update",))
    b = verify_chain(store.db).first_broken
    assert b is not None and (b.seq, b.event_id) == (4, events[3].event_id)
    assert "prev_hash" in b.problem and "removed, replaced or reordered" in b.problem


def test_deleted_middle_event_is_named(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    path, store, events = chain
    attack(path, "DELETE FROM audit_events WHERE seq = 3", drop=("audit_no_delete",))
    report = verify_chain(store.db)
    b = report.first_broken
    assert not report.ok and b is not None
    assert (b.seq, b.event_id) == (4, events[3].event_id)
    assert "sequence jumps from 2 to 4" in b.problem and "3..3 were deleted" in b.problem


def test_deleted_first_event_is_named(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    path, store, events = chain
    attack(path, "DELETE FROM audit_events WHERE seq = 1", drop=("audit_no_delete",))
    b = verify_chain(store.db).first_broken
    assert b is not None and (b.seq, b.event_id) == (2, events[1].event_id) and "1..1 were deleted" in b.problem


def test_deleted_and_renumbered_events_break_the_link(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    path, store, events = chain
    attack(path, "DELETE FROM audit_events WHERE seq = 3", "UPDATE audit_events SET seq = seq - 1 WHERE seq > 3",
           drop=("audit_no_delete", "audit_no_update"))
    b = verify_chain(store.db).first_broken
    assert b is not None and (b.seq, b.event_id) == (3, events[3].event_id) and "prev_hash" in b.problem


def test_reordered_events_are_named(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    path, store, events = chain
    attack(path, "UPDATE audit_events SET seq = -3 WHERE seq = 3", "UPDATE audit_events SET seq = 3 WHERE seq = 2",
           "UPDATE audit_events SET seq = 2 WHERE seq = -3", drop=("audit_no_update",))
    b = verify_chain(store.db).first_broken
    assert b is not None
    assert (b.seq, b.event_id) == (2, events[2].event_id)  # event 3 now sits at seq 2
    assert "reordered" in b.problem


def test_swapped_bodies_are_named(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    path, store, events = chain
    _, body2, _, _ = stored(path, 2)
    _, body3, _, _ = stored(path, 3)
    attack(path, ("UPDATE audit_events SET body = ? WHERE seq = 2", (body3,)),
           ("UPDATE audit_events SET body = ? WHERE seq = 3", (body2,)), drop=("audit_no_update",))
    b = verify_chain(store.db).first_broken
    assert b is not None and (b.seq, b.event_id) == (2, events[1].event_id) and "content hash" in b.problem


@pytest.mark.parametrize("seq", [3, N_EVENTS])
def test_edited_stored_hash_is_named(chain: tuple[Path, CorpusStore, list[AuditEvent]], seq: int) -> None:
    path, store, events = chain
    forged = "sha256:" + "f" * 64
    attack(path, ("UPDATE audit_events SET hash = ? WHERE seq = ?", (forged, seq)), drop=("audit_no_update",))
    b = verify_chain(store.db).first_broken
    assert b is not None and (b.seq, b.event_id) == (seq, events[seq - 1].event_id)
    assert "differs from the stored hash" in b.problem and forged[:19] in b.problem


def test_edited_prev_hash_is_named(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    path, store, events = chain
    attack(path, ("UPDATE audit_events SET prev_hash = ? WHERE seq = 2", (GENESIS,)), drop=("audit_no_update",))
    b = verify_chain(store.db).first_broken
    assert b is not None and (b.seq, b.event_id) == (2, events[1].event_id) and "prev_hash" in b.problem


@pytest.mark.parametrize(
    "rewrite",
    [
        lambda body: json.dumps(body, sort_keys=True),  # spaces after separators
        lambda body: json.dumps(body, sort_keys=True, indent=2),
        lambda body: json.dumps(dict(reversed(list(body.items()))), separators=(",", ":"), ensure_ascii=False),
        lambda body: json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True),
        lambda body: canonical_json(body) + " ",
    ],
    ids=["spaces", "indent", "key-order", "ascii-escapes", "trailing-space"],
)
def test_non_canonical_but_equal_body_is_named(chain: tuple[Path, CorpusStore, list[AuditEvent]], rewrite: Any) -> None:
    path, store, events = chain
    text = rewrite(events[1].body)
    assert json.loads(text) == events[1].body and text != canonical_json(events[1].body)
    attack(path, ("UPDATE audit_events SET body = ? WHERE seq = 2", (text,)), drop=("audit_no_update",))
    b = verify_chain(store.db).first_broken
    assert b is not None and (b.seq, b.event_id) == (2, events[1].event_id) and "canonical" in b.problem


def test_only_the_first_of_several_breaks_is_named(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    path, store, _ = chain
    attack(path, "UPDATE audit_events SET hash = 'sha256:x' WHERE seq IN (2, 4)", drop=("audit_no_update",))
    report = verify_chain(store.db)
    assert report.first_broken is not None and report.first_broken.seq == 2 and report.events == 2


def test_forged_appended_events_are_named(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    path, store, events = chain
    # a link that points at the head but carries a made-up hash
    attack(path, ("INSERT INTO audit_events(seq, event_id, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?)",
                  (N_EVENTS + 1, "forged", canonical_json({"kind": "answer"}), events[-1].hash, "sha256:" + "0" * 64)))
    b = verify_chain(store.db).first_broken
    assert b is not None and (b.seq, b.event_id) == (N_EVENTS + 1, "forged") and "stored hash" in b.problem


def test_a_gap_after_the_head_is_named(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    path, store, events = chain
    body = {"kind": "answer"}
    seq = N_EVENTS + 2
    attack(path, ("INSERT INTO audit_events(seq, event_id, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?)",
                  (seq, "late", canonical_json(body), events[-1].hash, event_hash(seq, "late", body, events[-1].hash))))
    b = verify_chain(store.db).first_broken
    assert b is not None and (b.seq, b.event_id) == (seq, "late") and "were deleted" in b.problem


def test_appending_after_a_break_keeps_it_broken(chain: tuple[Path, CorpusStore, list[AuditEvent]]) -> None:
    path, store, _ = chain
    attack(path, "UPDATE audit_events SET hash = 'sha256:x' WHERE seq = 5", drop=("audit_no_update",))
    append_event(store.db, "answer", {"n": 6})
    report = verify_chain(store.db)
    assert report.first_broken is not None and report.first_broken.seq == 5


# --- concurrent writers -----------------------------------------------------------------------------------


def test_two_connections_interleaving_never_fork_the_chain(tmp_path: Path) -> None:
    path = tmp_path / "two.db"
    open_store(path, create=True).close()
    per_thread = 15
    errors: list[BaseException] = []

    def writer(name: str) -> None:
        try:
            with open_store(path) as s:
                for i in range(per_thread):
                    append_event(s.db, "answer", {"writer": name, "i": i})
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with open_store(path) as s:
        report = verify_chain(s.db)
        events = list_events(s.db)
    assert report.ok and report.events == 2 * per_thread
    assert [e.seq for e in events] == list(range(1, 2 * per_thread + 1))
    for w in ("a", "b"):
        assert [e.body["i"] for e in events if e.body["writer"] == w] == list(range(per_thread))


# --- every answered query appends exactly one event ----------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Iterator[CorpusStore]:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "refund.md").write_text(
        "# Refund Policy\n\nAnnual plans can be refunded within 30 days of purchase.\n", encoding="utf-8"
    )
    (folder / "shipping.md").write_text("# Shipping\n\nOrders ship within 2 business days.\n", encoding="utf-8")
    db = tmp_path / "answers.db"
    ingest_paths(db, [folder], ChunkingSettings(), embed=False)
    with open_store(db) as s:
        yield s


def _event_count(store: CorpusStore) -> int:
    return store.db.execute("SELECT COUNT(*) FROM audit_events").fetchone()[0]


def _check_body(body: dict[str, Any], record: Any) -> None:
    assert set(body) >= BODY_KEYS
    assert body["kind"] == "answer"
    assert body["record_id"] == record.record_id
    assert body["governance_policy_hash"] == record.governance_policy_hash
    assert body["verifier_policy_hash"] == record.verifier_policy_hash
    assert body["label"] == record.verification.label.value
    assert body["audit_mode"] == record.verification.audit_mode.value
    assert body["contract"] == record.contract.reason
    assert body["cache_hit"] is record.cache_hit
    assert body["corpus_digest"] == record.corpus_digest
    assert body["model_id"] == record.completion.model_id
    assert body["prompt_sha256"] == record.prompt.sha256
    assert body["cited_chunk_ids"] == record.citation_chunk_ids
    assert body["question_sha256"] == hashlib.sha256(record.question.encode("utf-8")).hexdigest()
    assert body["response_sha256"] == hashlib.sha256(record.completion.text.encode("utf-8")).hexdigest()
    expected = hashlib.sha256(canonical_json(record.model_dump(mode="json")).encode("utf-8")).hexdigest()
    assert body["record_sha256"] == expected


def test_every_answered_query_appends_exactly_one_event(store: CorpusStore) -> None:
    provider = ScriptedProvider(ANSWER, "this is not json", ANSWER)
    steps = [
        ("valid, fresh", lambda: engine.query(store, QUESTION, policy(), provider, VerifierPolicy())),
        ("valid, cached", lambda: engine.query(store, QUESTION, policy(), provider, VerifierPolicy())),
        ("invalid, fresh", lambda: engine.query(store, QUESTION, policy(layout="bookend"), provider, VerifierPolicy())),
        ("invalid, cached", lambda: engine.query(store, QUESTION, policy(layout="bookend"), provider, VerifierPolicy())),
        ("burned", lambda: engine.query(store, QUESTION, policy(), provider, VerifierPolicy(), burn=True)),
        ("provider error", lambda: engine.query(store, QUESTION, policy(layout="per_chunk"), provider, VerifierPolicy())),
        ("re-verified", lambda: engine.query(store, QUESTION, policy(), provider, VerifierPolicy(max_evidence_ids=1))),
    ]
    records = []
    for name, run in steps:
        before = _event_count(store)
        record = run()
        assert _event_count(store) == before + 1, name
        [event] = list_events(store.db, 1)
        _check_body(event.body, record)
        records.append(record)

    assert [r.cache_hit for r in records] == [False, True, False, True, False, False, True]
    assert [r.contract.reason for r in records] == ["OK", "OK", "PARSE_FAILURE", "PARSE_FAILURE", "OK",
                                                    "PROVIDER_ERROR", "OK"]
    assert [r.verification.label.value for r in records][2:4] == ["UNGROUNDED", "UNGROUNDED"]
    assert len(provider.history) == 4
    events = list_events(store.db)
    assert len(events) == len(steps)
    assert [e.body["record_id"] for e in events] == [r.record_id for r in records]
    assert verify_chain(store.db).ok


def test_audit_body_hashes_match_the_policies(store: CorpusStore) -> None:
    pol, ver = policy(layout="bookend"), VerifierPolicy(paraphrase_threshold=0.7)
    engine.query(store, QUESTION, pol, ScriptedProvider(ANSWER), ver)
    [event] = list_events(store.db)
    assert event.body["governance_policy_hash"] == governance_policy_hash(pol)
    assert event.body["verifier_policy_hash"] == verifier_policy_hash(ver)
    assert event.body["label"] in ("STRICT", "HYBRID", "UNGROUNDED", "ABSTAINED")


def test_a_refused_question_is_not_answered_and_not_audited(store: CorpusStore) -> None:
    provider = ScriptedProvider(ANSWER)
    with pytest.raises(InputError):
        engine.query(store, "   ", policy(), provider, VerifierPolicy())
    assert _event_count(store) == 0 and cache.count(store.db) == 0 and provider.history == []


def test_audit_survives_reopening_and_keeps_chaining(store: CorpusStore) -> None:
    provider = ScriptedProvider(ANSWER)
    engine.query(store, QUESTION, policy(), provider, VerifierPolicy())
    with open_store(store.path) as other:
        engine.query(other, QUESTION, policy(), provider, VerifierPolicy())
    engine.query(store, QUESTION, policy(), provider, VerifierPolicy())
    report = verify_chain(store.db)
    assert report.ok and report.events == 3
