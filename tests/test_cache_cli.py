"""The CLI face of governance: `arborist query` (cache, audit, hashes) and `arborist audit verify|log`.

`--model scripted` has an empty queue in the CLI, so every fresh answer is a
PROVIDER_ERROR (exit 3). Cache hits are set up by answering once through the
library with exactly the policy the CLI builds from the same options.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from arborist import engine
from arborist.answer.record import AnswerRecord
from arborist.cli import answer_cmd
from arborist.cli.answer_options import pop_answer_options, provider_and_policy, verifier_from
from arborist.corpus import open_store
from arborist.entailment import default_spec
from arborist.governance import cache
from arborist.governance.audit import list_events, verify_chain
from arborist.models.scripted import ScriptedProvider
from arborist.policy.answer import governance_policy_hash
from arborist.policy.answerability import AnswerabilityPolicy, answerability_policy_hash
from arborist.policy.canonical import canonical_json
from arborist.verify import VerifierPolicy, verifier_policy_hash

# What `query` verifies with by default: the rules and the shipped entailment judge.
JUDGED = VerifierPolicy(entailment=default_spec())

QUESTION = "How long is the refund window for annual plans?"
ROUTES = ("--routes", "bm25,title,phrase")
ANSWER = json.dumps({"claims": [{"text": "Annual plans can be refunded within 30 days", "evidence_ids": ["E1"],
                                 "quote": "Annual plans can be refunded within 30 days"}], "abstained_requests": []})
REFUND = "# Refund Policy\n\nAnnual plans can be refunded within 30 days of purchase.\n"

Run = Callable[..., Result]


@pytest.fixture
def corpus_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "refund.md").write_text(REFUND, encoding="utf-8")
    (folder / "shipping.md").write_text("# Shipping\n\nOrders ship within 2 business days.\n", encoding="utf-8")
    return folder


@pytest.fixture
def db(tmp_path: Path, corpus_dir: Path, run_cli: Run) -> Path:
    path = tmp_path / "cli.db"
    result = run_cli("ingest", corpus_dir, "--db", path, "--no-embed", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["documents"] == 2
    return path


def query(run_cli: Run, db: Path, *extra: str, question: str = QUESTION) -> Result:
    return run_cli("query", question, "--db", db, "--model", "scripted", *ROUTES, *extra)


def query_json(run_cli: Run, db: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    result = query(run_cli, db, "--json", *extra)
    assert result.exit_code in (0, 3), result.output
    return result.exit_code, json.loads(result.stdout)


def events(db: Path) -> list[Any]:
    with open_store(db) as s:
        return list_events(s.db)


def prefill(db: Path, *extra: str) -> AnswerRecord:
    """Answer once through the library under the policy `arborist query ... *extra` would build."""
    args = [QUESTION, "--db", str(db), "--model", "scripted", *ROUTES, *extra]
    ctx = answer_cmd.query.make_context("query", args)
    opts = pop_answer_options(dict(ctx.params))
    with open_store(db) as store:
        provider, pol = provider_and_policy(opts, store.chunking())
        assert isinstance(provider, ScriptedProvider)
        provider.enqueue(ANSWER)
        record = engine.query(store, QUESTION, pol, provider, verifier_from(opts),
                              burn=opts["burn"], sample_index=opts["sample_index"])
    assert record.contract.valid and not record.cache_hit
    return record


def tamper(db: Path, sql: str, args: tuple[Any, ...] = ()) -> None:
    """Run `sql` with the append-only triggers out of the way, and put them back (as a careful attacker would)."""
    with closing(sqlite3.connect(str(db), isolation_level=None)) as conn, without_triggers(conn):
        conn.execute(sql, args)


@contextmanager
def without_triggers(conn: sqlite3.Connection) -> Iterator[None]:
    """The audit table's triggers dropped for the block, then recreated from their own SQL."""
    saved = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_events'"
                         ).fetchall()
    for name, _ in saved:
        conn.execute(f"DROP TRIGGER {name}")
    yield
    for _, sql in saved:
        conn.execute(sql)


# --- query on a fresh store --------------------------------------------------------------------------


def test_query_on_a_fresh_store_is_a_provider_error_and_still_audited(run_cli: Run, db: Path) -> None:
    assert events(db) == []
    code, record = query_json(run_cli, db)
    assert code == 3
    assert record["contract"]["reason"] == "PROVIDER_ERROR" and record["cache_hit"] is False
    [event] = events(db)
    assert event.body["record_id"] == record["record_id"]
    assert event.body["contract"] == "PROVIDER_ERROR" and event.body["label"] == "UNGROUNDED"
    assert event.body["cache_hit"] is False
    assert event.body["record_sha256"] == hashlib.sha256(canonical_json(record).encode()).hexdigest()
    with open_store(db) as s:
        assert cache.count(s.db) == 0  # a failed call is not cached

    code, again = query_json(run_cli, db)  # so the next query tries again, and is audited again
    assert code == 3 and again["cache_hit"] is False and again["record_id"] != record["record_id"]
    assert len(events(db)) == 2


def test_query_text_output_on_provider_error(run_cli: Run, db: Path) -> None:
    result = query(run_cli, db)
    assert result.exit_code == 3, result.output
    assert "label: UNGROUNDED" in result.stdout
    assert "contract: INVALID (PROVIDER_ERROR" in result.stdout
    assert "from cache" not in result.stdout
    assert len(events(db)) == 1


def test_query_json_carries_both_hashes_and_the_verification(run_cli: Run, db: Path) -> None:
    _, record = query_json(run_cli, db)
    assert record["governance_policy_hash"].startswith("sha256:")
    assert record["verifier_policy_hash"] == verifier_policy_hash(JUDGED)
    assert isinstance(record["verification"], dict)
    assert record["verification"]["label"] == "UNGROUNDED"
    assert record["verification"]["verifier_policy_hash"] == record["verifier_policy_hash"]
    assert record["policy"]["layout"] == "tail" and record["policy"]["model_id"] == "scripted:scripted"
    assert record["policy"]["search"]["routes"] == ["bm25", "title", "phrase"]
    assert "dense" not in record["unavailable_routes"]  # not asked for: nothing tried to load an embedder


def test_layout_changes_only_the_governance_hash(run_cli: Run, db: Path) -> None:
    _, tail = query_json(run_cli, db)
    _, bookend = query_json(run_cli, db, "--user-payload-layout", "bookend")
    assert tail["governance_policy_hash"] != bookend["governance_policy_hash"]
    assert tail["verifier_policy_hash"] == bookend["verifier_policy_hash"]
    assert bookend["policy"]["layout"] == "bookend"


@pytest.mark.parametrize(
    "extra",
    [("--mode", "quote"), ("--evidence-k", "3"), ("--context-runes", "5000"), ("--temperature", "0.5"),
     ("--routes", "bm25,title"), ("--retrieve-k", "10")],
    ids=lambda e: e[0],
)
def test_answer_options_change_the_governance_hash(run_cli: Run, db: Path, extra: tuple[str, str]) -> None:
    _, base = query_json(run_cli, db)
    _, other = query_json(run_cli, db, *extra)
    assert base["governance_policy_hash"] != other["governance_policy_hash"]
    assert base["verifier_policy_hash"] == other["verifier_policy_hash"]


def test_demote_missed_answer_changes_only_the_answerability_hash(run_cli: Run, db: Path) -> None:
    """The missed-answer guard's knob has its own hash (DESIGN §4): not the verifier's, not the governance hash."""
    _, base = query_json(run_cli, db)
    _, demote = query_json(run_cli, db, "--demote-missed-answer")
    assert base["governance_policy_hash"] == demote["governance_policy_hash"]
    assert base["verifier_policy_hash"] == demote["verifier_policy_hash"]
    assert base["answerability_policy_hash"] == answerability_policy_hash(AnswerabilityPolicy())
    assert demote["answerability_policy_hash"] == answerability_policy_hash(AnswerabilityPolicy(demote_missed_answer=True))
    assert base["answerability_policy_hash"] != demote["answerability_policy_hash"]


def test_unknown_layout_is_refused_before_anything_is_written(run_cli: Run, db: Path) -> None:
    result = query(run_cli, db, "--user-payload-layout", "diagonal")
    assert result.exit_code == 2
    assert all(layout in result.output for layout in ("tail", "bookend", "per_chunk"))
    assert events(db) == []


# --- the cache through the CLI -----------------------------------------------------------------------------


def test_cli_serves_a_cached_answer(run_cli: Run, db: Path) -> None:
    cached = prefill(db)
    code, record = query_json(run_cli, db)
    assert code == 0
    assert record["cache_hit"] is True and record["record_id"] == cached.record_id
    assert record["contract"]["reason"] == "OK" and record["contract"]["answer"] == json.loads(ANSWER)
    assert record["governance_policy_hash"] == cached.governance_policy_hash
    assert record["verifier_policy_hash"] == cached.verifier_policy_hash
    result = query(run_cli, db)
    assert result.exit_code == 0 and "from cache" in result.stdout
    assert [e.body["cache_hit"] for e in events(db)] == [False, True, True]


def test_cli_policy_matches_the_library_policy(run_cli: Run, db: Path) -> None:
    cached = prefill(db, "--user-payload-layout", "per_chunk", "--evidence-k", "2")
    _, record = query_json(run_cli, db, "--user-payload-layout", "per_chunk", "--evidence-k", "2")
    assert record["cache_hit"] is True and record["record_id"] == cached.record_id
    assert record["governance_policy_hash"] == governance_policy_hash(cached.policy)


def test_cli_burn_bypasses_the_cache(run_cli: Run, db: Path) -> None:
    cached = prefill(db)
    code, burned = query_json(run_cli, db, "--burn")
    assert code == 3 and burned["cache_hit"] is False and burned["contract"]["reason"] == "PROVIDER_ERROR"
    # the failed burn was not stored, so the earlier answer is still served
    code, after = query_json(run_cli, db)
    assert code == 0 and after["cache_hit"] is True and after["record_id"] == cached.record_id
    assert [e.body["cache_hit"] for e in events(db)] == [False, False, True]


@pytest.mark.parametrize(
    "extra",
    [("--user-payload-layout", "bookend"), ("--sample-index", "1"), ("--temperature", "0.3")],
    ids=["layout", "sample-index", "temperature"],
)
def test_cli_misses_under_another_partition(run_cli: Run, db: Path, extra: tuple[str, ...]) -> None:
    prefill(db)
    code, record = query_json(run_cli, db, *extra)
    assert code == 3 and record["cache_hit"] is False
    code, record = query_json(run_cli, db)
    assert code == 0 and record["cache_hit"] is True


def test_cli_demote_missed_answer_reaudits_the_cached_answer(run_cli: Run, db: Path) -> None:
    """Toggling the guard's knob serves the cached answer (the scripted model has nothing queued: a model call
    would exit 3), re-audited under the new answerability policy, with the same verifier hash."""
    cached = prefill(db)
    code, record = query_json(run_cli, db, "--demote-missed-answer")
    assert code == 0 and record["cache_hit"] is True and record["record_id"] == cached.record_id
    assert record["verifier_policy_hash"] == cached.verifier_policy_hash
    demoted = answerability_policy_hash(AnswerabilityPolicy(demote_missed_answer=True))
    assert cached.answerability_policy_hash != demoted == record["answerability_policy_hash"]
    last = events(db)[-1].body
    assert last["cache_hit"] is True and last["answerability_policy_hash"] == demoted


def test_cli_misses_after_a_document_changes(run_cli: Run, db: Path, corpus_dir: Path) -> None:
    cached = prefill(db)
    with open_store(db) as s:
        before = s.digest()
    (corpus_dir / "refund.md").write_text(REFUND.replace("30 days", "60 days"), encoding="utf-8")
    result = run_cli("ingest", corpus_dir, "--db", db, "--no-embed", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["corpus_digest"] != before
    code, record = query_json(run_cli, db)
    assert code == 3 and record["cache_hit"] is False and record["corpus_digest"] != cached.corpus_digest


def test_cli_reverifies_a_cached_answer_under_a_new_verifier_policy(run_cli: Run, db: Path) -> None:
    """The stored record carries another verifier hash: re-verified, served from cache, no model call (exit 0)."""
    cached = prefill(db)
    with open_store(db) as s:
        [(key, raw)] = s.db.execute("SELECT key, record FROM answer_cache").fetchall()
        stale = AnswerRecord.model_validate_json(raw)
        assert stale.verification is not None
        stale = stale.model_copy(update={"verification": stale.verification.model_copy(
            update={"verifier_policy_hash": verifier_policy_hash(VerifierPolicy(max_evidence_ids=9))})})
        cache.record_and_audit(s.db, key, stale, 0, {"note": "an older verifier's answer"})
    code, record = query_json(run_cli, db)
    assert code == 0 and record["cache_hit"] is True and record["record_id"] == cached.record_id
    assert record["verifier_policy_hash"] == verifier_policy_hash(JUDGED)


# --- arborist audit verify / log ------------------------------------------------------------------------


def _three_events(run_cli: Run, db: Path) -> list[Any]:
    prefill(db)
    query_json(run_cli, db)
    query_json(run_cli, db, "--user-payload-layout", "bookend")
    found = events(db)
    assert len(found) == 3
    return found


def test_audit_verify_intact(run_cli: Run, db: Path) -> None:
    found = _three_events(run_cli, db)
    result = run_cli("audit", "verify", "--db", db)
    assert result.exit_code == 0, result.output
    assert "intact" in result.stdout and "3 events" in result.stdout and found[-1].hash in result.stdout

    result = run_cli("audit", "verify", "--db", db, "--json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["ok"] is True and report["events"] == 3 and report["first_broken"] is None
    assert report["head_hash"] == found[-1].hash


def test_audit_verify_on_a_store_without_events(run_cli: Run, db: Path) -> None:
    result = run_cli("audit", "verify", "--db", db, "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["events"] == 0


def test_audit_verify_names_an_edited_event(run_cli: Run, db: Path) -> None:
    found = _three_events(run_cli, db)
    body = dict(found[1].body, label="ABSTAINED", cache_hit=not found[1].body["cache_hit"])
    assert body != found[1].body
    tamper(db, "UPDATE audit_events SET body = ? WHERE seq = 2", (canonical_json(body),))
    result = run_cli("audit", "verify", "--db", db)
    assert result.exit_code == 4  # broken chain; 1 is an error
    assert f"BROKEN at event 2 ({found[1].event_id})" in result.stdout
    assert "body or id was edited" in result.stdout
    assert "intact" not in result.stdout

    result = run_cli("audit", "verify", "--db", db, "--json")
    assert result.exit_code == 4  # broken chain; 1 is an error
    report = json.loads(result.stdout)
    assert report["ok"] is False and report["events"] == 2
    assert report["first_broken"]["seq"] == 2 and report["first_broken"]["event_id"] == found[1].event_id
    assert "content hash" in report["first_broken"]["problem"]


def test_audit_verify_names_a_deleted_event(run_cli: Run, db: Path) -> None:
    found = _three_events(run_cli, db)
    tamper(db, "DELETE FROM audit_events WHERE seq = 2")
    result = run_cli("audit", "verify", "--db", db, "--json")
    assert result.exit_code == 4  # broken chain; 1 is an error
    broken = json.loads(result.stdout)["first_broken"]
    assert (broken["seq"], broken["event_id"]) == (3, found[2].event_id) and "deleted" in broken["problem"]


def test_audit_verify_names_a_non_canonical_body(run_cli: Run, db: Path) -> None:
    found = _three_events(run_cli, db)
    tamper(db, "UPDATE audit_events SET body = ? WHERE seq = 1", (json.dumps(found[0].body, indent=1),))
    result = run_cli("audit", "verify", "--db", db)
    assert result.exit_code == 4  # broken chain; 1 is an error
    assert f"BROKEN at event 1 ({found[0].event_id})" in result.stdout and "canonical" in result.stdout


def test_raw_sqlite_cannot_update_or_delete_events(run_cli: Run, db: Path) -> None:
    query_json(run_cli, db)
    with closing(sqlite3.connect(str(db), isolation_level=None)) as conn:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("UPDATE audit_events SET body = '{}'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("DELETE FROM audit_events")


def test_audit_log_limit_json_lists_the_newest_oldest_first(run_cli: Run, db: Path) -> None:
    found = _three_events(run_cli, db)
    query_json(run_cli, db)  # a fourth
    result = run_cli("audit", "log", "--db", db, "--last", "2", "--json")
    assert result.exit_code == 0, result.output
    listed = json.loads(result.stdout)
    assert [e["seq"] for e in listed] == [3, 4]
    assert listed[0]["event_id"] == found[2].event_id and listed[0]["hash"] == found[2].hash
    assert listed[1]["prev_hash"] == listed[0]["hash"]
    assert {"seq", "event_id", "body", "prev_hash", "hash"} <= set(listed[0])
    assert {"record_id", "governance_policy_hash", "verifier_policy_hash", "label", "contract", "cache_hit",
            "record_sha256"} <= set(listed[1]["body"])
    assert listed[1]["body"]["cache_hit"] is True

    result = run_cli("audit", "log", "--db", db, "--json")
    assert [e["seq"] for e in json.loads(result.stdout)] == [1, 2, 3, 4]


def test_audit_log_text(run_cli: Run, db: Path) -> None:
    found = _three_events(run_cli, db)
    result = run_cli("audit", "log", "--db", db)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    assert "cache" in lines[1] and "fresh" in lines[2] and "PROVIDER_ERROR" in lines[2]
    assert found[0].hash[:23] in lines[0]
    assert len(run_cli("audit", "log", "--db", db, "--last", "1").stdout.splitlines()) == 1


def test_audit_log_limit_must_be_positive(run_cli: Run, db: Path) -> None:
    result = run_cli("audit", "log", "--db", db, "--last", "0")
    assert result.exit_code == 2


def test_audit_on_a_missing_store_is_a_one_line_error(run_cli: Run, tmp_path: Path) -> None:
    result = run_cli("audit", "verify", "--db", tmp_path / "nope.db")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: no corpus store") and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "nope.db").exists()


def test_chain_stays_intact_across_a_cli_session(run_cli: Run, db: Path) -> None:
    prefill(db)
    for extra in ((), ("--burn",), ("--sample-index", "2"), ("--mode", "quote"), ()):
        query_json(run_cli, db, *extra)
    with open_store(db) as s:
        report = verify_chain(s.db)
    assert report.ok and report.events == 6
