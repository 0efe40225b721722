"""An edited cache row is never served as verified; the audit chain's end is guarded by a kept head;
`audit log` lists a corrupt event as broken."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from arborist.governance import cache
from arborist.governance.audit import event_hash
from arborist.policy.canonical import canonical_json
from test_cache_cli import without_triggers

QUESTION = "How long is the refund window for annual plans?"
ROUTES = ("--routes", "bm25,title,phrase")
Run = Callable[..., Result]


@pytest.fixture
def db(tmp_path: Path, run_cli: Run) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "refund.md").write_text("# Refund Policy\n\nAnnual plans can be refunded within 30 days of purchase.\n")
    path = tmp_path / "t.db"
    assert run_cli("ingest", folder, "--db", path, "--no-embed").exit_code == 0
    return path


def sql(db: Path, *statements: str | tuple[str, tuple[Any, ...]]) -> None:
    with closing(sqlite3.connect(str(db), isolation_level=None)) as conn, without_triggers(conn):
        for s in statements:
            conn.execute(*(s if isinstance(s, tuple) else (s,)))


def answered(db: Path, run_cli: Run) -> None:
    from test_cache_cli import prefill

    prefill(db)


def query(run_cli: Run, db: Path) -> Result:
    return run_cli("query", QUESTION, "--db", db, "--model", "scripted", *ROUTES, "--json")


# --- finding 7 --------------------------------------------------------------------------------------------


def _forge(db: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    with closing(sqlite3.connect(str(db), isolation_level=None)) as conn:
        [(key, raw)] = conn.execute("SELECT key, record FROM answer_cache").fetchall()
        record = json.loads(raw)
        edit(record)
        conn.execute("UPDATE answer_cache SET record = ? WHERE key = ?", (json.dumps(record), key))


def _claim(record: dict[str, Any]) -> None:
    record["contract"]["answer"]["claims"][0]["text"] = "FORGED: the refund window is 999 days"


def _claim_and_evidence(record: dict[str, Any]) -> None:
    _claim(record)
    record["contract"]["answer"]["claims"][0]["quote"] = "FORGED: the refund window is 999 days"
    record["evidence"][0]["text"] = "FORGED: the refund window is 999 days"


@pytest.mark.parametrize("edit", [_claim, _claim_and_evidence], ids=["claim", "claim-and-evidence"])
def test_an_edited_cache_row_is_never_served(db: Path, run_cli: Run, edit: Callable[[dict[str, Any]], None]) -> None:
    answered(db, run_cli)
    _forge(db, edit)
    result = query(run_cli, db)
    assert "FORGED" not in result.stdout
    record = json.loads(result.stdout)
    assert record["cache_hit"] is False and "edited" in record["cache_rejected"]
    assert "was not served" in result.stderr
    # the scripted model has no answer queued: a provider error, and the forged row is not replaced by it
    assert result.exit_code == 3
    again = query(run_cli, db)
    assert "FORGED" not in again.stdout and json.loads(again.stdout)["cache_hit"] is False


def test_a_cache_row_without_an_audit_event_is_never_served(db: Path, run_cli: Run) -> None:
    answered(db, run_cli)
    sql(db, "UPDATE answer_cache SET audit_seq = NULL")
    record = json.loads(query(run_cli, db).stdout)
    assert record["cache_hit"] is False and "names no audit event" in record["cache_rejected"]


def test_a_cache_row_pointing_at_another_event_is_never_served(db: Path, run_cli: Run) -> None:
    answered(db, run_cli)
    query(run_cli, db)  # a second event (a cache hit, which writes no row)
    sql(db, "UPDATE answer_cache SET audit_seq = 2")
    assert json.loads(query(run_cli, db).stdout)["cache_hit"] is False


def test_a_genuine_hit_is_re_verified(db: Path, run_cli: Run) -> None:
    answered(db, run_cli)
    result = query(run_cli, db)
    record = json.loads(result.stdout)
    assert result.exit_code == 0 and record["cache_hit"] is True and record["cache_rejected"] is None
    assert record["verification"]["label"] == "STRICT"


# --- finding 9 --------------------------------------------------------------------------------------------


def _events(db: Path, run_cli: Run, n: int = 3) -> str:
    answered(db, run_cli)
    for _ in range(n - 1):
        query(run_cli, db)
    head = run_cli("audit", "head", "--db", db)
    assert head.exit_code == 0
    return head.stdout.strip()


def test_audit_head_prints_the_verified_head(db: Path, run_cli: Run) -> None:
    head = _events(db, run_cli)
    assert head.startswith("sha256:") and len(head) == 71
    data = json.loads(run_cli("audit", "head", "--db", db, "--json").stdout)
    assert data == {"head_hash": head, "events": 3, "ok": True}
    ok = run_cli("audit", "verify", "--db", db, "--expect-head", head)
    assert ok.exit_code == 0 and "0 event(s) appended since" in ok.stdout


def test_events_appended_after_the_kept_head_are_counted(db: Path, run_cli: Run) -> None:
    head = _events(db, run_cli)
    query(run_cli, db)
    report = json.loads(run_cli("audit", "verify", "--db", db, "--expect-head", head, "--json").stdout)
    assert report["ok"] is True and report["expected_head"] == {"hash": head, "found": True, "seq": 3,
                                                                 "events_after": 1}


def test_truncation_is_caught_by_the_kept_head(db: Path, run_cli: Run) -> None:
    head = _events(db, run_cli)
    sql(db, "DELETE FROM audit_events WHERE seq = 3")
    assert run_cli("audit", "verify", "--db", db).exit_code == 0  # a shorter chain is still a valid chain
    result = run_cli("audit", "verify", "--db", db, "--expect-head", head)
    assert result.exit_code == 4 and "does NOT hold the expected head" in result.stdout


def test_a_forward_rewrite_is_caught_by_the_kept_head(db: Path, run_cli: Run) -> None:
    head = _events(db, run_cli)
    with closing(sqlite3.connect(str(db))) as conn:
        rows = conn.execute("SELECT seq, event_id, body, prev_hash FROM audit_events ORDER BY seq").fetchall()
    prev = rows[1][3]
    statements: list[str | tuple[str, tuple[Any, ...]]] = []
    for seq, event_id, body, _ in rows[1:]:  # rewrite events 2.. with recomputed hashes
        changed = dict(json.loads(body), label="UNGROUNDED")
        digest = event_hash(seq, event_id, changed, prev)
        statements.append(("UPDATE audit_events SET body = ?, prev_hash = ?, hash = ? WHERE seq = ?",
                           (canonical_json(changed), prev, digest, seq)))
        prev = digest
    sql(db, *statements)
    assert run_cli("audit", "verify", "--db", db).exit_code == 0
    assert run_cli("audit", "verify", "--db", db, "--expect-head", head).exit_code == 4


def test_expect_head_must_look_like_a_head(db: Path, run_cli: Run) -> None:
    result = run_cli("audit", "verify", "--db", db, "--expect-head", "not-a-hash")
    assert result.exit_code == 2 and "audit head" in result.output


def test_a_broken_chain_has_no_head_to_keep(db: Path, run_cli: Run) -> None:
    _events(db, run_cli)
    sql(db, "UPDATE audit_events SET hash = 'sha256:x' WHERE seq = 2")
    result = run_cli("audit", "head", "--db", db)
    assert result.exit_code == 4 and "BROKEN at event 2" in result.stdout


@pytest.mark.parametrize("body", ['{"label": ', "[1, 2]", "5", "\"text\""])
def test_audit_log_lists_a_corrupt_body_as_a_broken_event(db: Path, run_cli: Run, body: str) -> None:
    _events(db, run_cli)
    sql(db, ("UPDATE audit_events SET body = ? WHERE seq = 2", (body,)))
    result = run_cli("audit", "log", "--db", db)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 3 and "BROKEN" in lines[1] and "BROKEN" not in lines[0] + lines[2]
    listed = json.loads(run_cli("audit", "log", "--db", db, "--json").stdout)
    assert listed[1]["body"] is None and listed[1]["problem"]
    assert run_cli("audit", "verify", "--db", db).exit_code == 4


def test_audit_log_flags_an_edited_but_valid_body(db: Path, run_cli: Run) -> None:
    _events(db, run_cli)
    sql(db, ("UPDATE audit_events SET body = ? WHERE seq = 1", (canonical_json({"kind": "answer", "label": "X"}),)))
    lines = run_cli("audit", "log", "--db", db).stdout.splitlines()
    assert "BROKEN" in lines[0] and "edited" in lines[0]


def test_a_cache_row_whose_event_was_rehashed_is_never_served(db: Path, run_cli: Run) -> None:
    """Row and event edited together, the event's own hash recomputed: the next event's link gives it away."""
    import hashlib

    answered(db, run_cli)
    query(run_cli, db)  # event 2 follows event 1
    with closing(sqlite3.connect(str(db))) as conn:
        [(key, raw)] = conn.execute("SELECT key, record FROM answer_cache").fetchall()
        seq, event_id, body, prev = conn.execute(
            "SELECT seq, event_id, body, prev_hash FROM audit_events WHERE seq = 1").fetchone()
    forged = raw.replace("Annual plans can be refunded within 30 days", "FORGED: 999 days")
    changed = dict(json.loads(body), cache_record_sha256=hashlib.sha256(forged.encode()).hexdigest())
    sql(db, ("UPDATE answer_cache SET record = ? WHERE key = ?", (forged, key)),
        ("UPDATE audit_events SET body = ?, hash = ? WHERE seq = 1",
         (canonical_json(changed), event_hash(seq, event_id, changed, prev))))
    result = query(run_cli, db)
    assert "FORGED" not in result.stdout and "no longer links" in json.loads(result.stdout)["cache_rejected"]


def test_a_genuine_row_moved_under_another_question_is_never_served(db: Path, run_cli: Run) -> None:
    answered(db, run_cli)
    other = "What is the refund window for monthly plans?"
    with closing(sqlite3.connect(str(db), isolation_level=None)) as conn:
        conn.execute("UPDATE answer_cache SET key = 'moved'")
    from arborist.cli import answer_cmd
    from arborist.cli.answer_options import pop_answer_options, provider_and_policy
    from arborist.corpus import open_store
    from arborist.governance import cache
    from arborist.policy.answer import governance_policy_hash

    ctx = answer_cmd.query.make_context("query", [other, "--db", str(db), "--model", "scripted", *ROUTES])
    with open_store(db) as s:
        _, pol = provider_and_policy(pop_answer_options(dict(ctx.params)), s.chunking())
        key = cache.cache_key(other, s.digest(), governance_policy_hash(pol))
    with closing(sqlite3.connect(str(db), isolation_level=None)) as conn:
        conn.execute("UPDATE answer_cache SET key = ? WHERE key = 'moved'", (key,))
    result = run_cli("query", other, "--db", db, "--model", "scripted", *ROUTES, "--json")
    record = json.loads(result.stdout)
    assert record["cache_hit"] is False and "moved" in record["cache_rejected"]


# --- issue 34: a forged answer, attested and rehashed forward, is never served ----------------------------

FORGED = "Audit logs are retained for 999 days."


def forge_attested(db: Path, edit: Callable[[dict[str, Any]], None], recreate_triggers: bool = True) -> None:
    """The whole attack with write access to the store: drop the audit triggers, rewrite the cache row, put
    its sha256 in its audit event, rehash the chain forward from there, and (a careful attacker) put the
    triggers back exactly as they were."""
    with closing(sqlite3.connect(str(db), isolation_level=None)) as conn:
        triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                                "AND tbl_name = 'audit_events'").fetchall()
        assert len(triggers) == 3
        for name, _ in triggers:
            conn.execute(f"DROP TRIGGER {name}")
        [(key, raw, seq)] = conn.execute("SELECT key, record, audit_seq FROM answer_cache").fetchall()
        record = json.loads(raw)
        edit(record)
        text = json.dumps(record)
        conn.execute("UPDATE answer_cache SET record = ? WHERE key = ?", (text, key))
        [(prev,)] = conn.execute("SELECT prev_hash FROM audit_events WHERE seq = ?", (seq,)).fetchall()
        for n, event_id, body in conn.execute(
                "SELECT seq, event_id, body FROM audit_events WHERE seq >= ? ORDER BY seq", (seq,)).fetchall():
            changed = json.loads(body)
            if n == seq:
                changed["cache_record_sha256"] = cache.record_text_sha256(text)
            digest = event_hash(n, event_id, changed, prev)
            conn.execute("UPDATE audit_events SET body = ?, prev_hash = ?, hash = ? WHERE seq = ?",
                         (canonical_json(changed), prev, digest, n))
            prev = digest
        if recreate_triggers:
            for _, sql in triggers:
                conn.execute(sql)


def _answer(record: dict[str, Any], quote: str = FORGED) -> None:
    """The claim and quote replaced, in the parsed answer and in the raw response it was parsed from."""
    answer = {"claims": [{"text": FORGED, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    record["contract"]["answer"] = answer
    record["completion"]["text"] = json.dumps(answer)


def _answer_and_evidence(record: dict[str, Any]) -> None:
    """What served the forgery as STRICT: the record's own copy of the cited chunk made to hold the quote."""
    _answer(record)
    record["evidence"][0]["text"] += " " + FORGED


def _parsed_only(record: dict[str, Any]) -> None:
    """The parsed answer alone rewritten, and the stored verification dropped (as if from an older arborist)."""
    record["contract"]["answer"]["claims"][0]["text"] = FORGED
    record["verification"] = None


@pytest.mark.parametrize("edit", [_answer_and_evidence, _answer, _parsed_only],
                         ids=["answer-and-evidence", "answer", "parsed-only"])
def test_a_forged_answer_attested_and_rehashed_forward_is_never_served(
        db: Path, run_cli: Run, edit: Callable[[dict[str, Any]], None]) -> None:
    answered(db, run_cli)
    query(run_cli, db)  # a hit: event 2 follows the row's event 1, so the rehash has a chain to rewrite
    forge_attested(db, edit)
    assert run_cli("audit", "verify", "--db", db).exit_code == 0  # the chain itself looks intact
    result = query(run_cli, db)
    record = json.loads(result.stdout)
    assert record["cache_hit"] is False and FORGED not in result.stdout, record["verification"]
    assert record["cache_rejected"] and "was not served" in result.stderr
    assert result.exit_code == 3  # answered afresh: the scripted model has nothing queued


def test_the_forged_copy_of_a_chunk_is_named(db: Path, run_cli: Run) -> None:
    answered(db, run_cli)
    forge_attested(db, _answer_and_evidence)
    rejected = json.loads(query(run_cli, db).stdout)["cache_rejected"]
    assert "is not the store's" in rejected and "#chunk-0" in rejected


def test_a_forged_answer_under_the_stored_label_is_named(db: Path, run_cli: Run) -> None:
    answered(db, run_cli)
    forge_attested(db, _answer)
    rejected = json.loads(query(run_cli, db).stdout)["cache_rejected"]
    assert "stored as STRICT" in rejected and "altered" in rejected


def test_a_chunk_changed_in_the_store_is_not_served_from_its_old_copy(db: Path, run_cli: Run) -> None:
    answered(db, run_cli)
    sql(db, "UPDATE chunks SET text = 'Annual plans can never be refunded.'")
    rejected = json.loads(query(run_cli, db).stdout)["cache_rejected"]
    assert "is not the store's" in rejected


def test_dropped_audit_triggers_are_named_and_no_hit_is_served(db: Path, run_cli: Run) -> None:
    answered(db, run_cli)
    forge_attested(db, _answer_and_evidence, recreate_triggers=False)
    result = run_cli("audit", "verify", "--db", db)
    assert result.exit_code == 4
    for name in ("audit_no_update", "audit_no_delete", "audit_no_replace"):
        assert f"trigger '{name}' is missing" in result.stdout
    report = json.loads(run_cli("audit", "verify", "--db", db, "--json").stdout)
    assert report["ok"] is False and report["first_broken"] is None and len(report["schema_problems"]) == 3
    assert run_cli("audit", "head", "--db", db).exit_code == 4
    rejected = json.loads(query(run_cli, db).stdout)["cache_rejected"]
    assert "schema" in rejected and "audit_no_" in rejected


@pytest.mark.parametrize("statements, named", [
    (["DROP TRIGGER audit_no_update",
      "CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit_events BEGIN SELECT 1; END"],
     "trigger 'audit_no_update' differs"),
    (["CREATE TRIGGER quiet AFTER INSERT ON audit_events BEGIN DELETE FROM answer_cache; END"],
     "trigger 'quiet' is not created by any migration"),
    (["DROP INDEX chunks_doc"], "index 'chunks_doc' is missing"),
], ids=["altered-trigger", "extra-trigger", "dropped-index"])
def test_audit_verify_names_altered_schema_objects(db: Path, run_cli: Run, statements: list[str], named: str) -> None:
    assert run_cli("audit", "verify", "--db", db).exit_code == 0
    with closing(sqlite3.connect(str(db), isolation_level=None)) as conn:
        for s in statements:
            conn.execute(s)
    result = run_cli("audit", "verify", "--db", db)
    assert result.exit_code == 4 and named in result.stdout, result.stdout
