"""kill -9 at chosen and at random statements of the real CLI: no unusable store, no orphan vector,
no unaudited cached answer (see crash_harness.py). The long run is bench/kill_harness.py."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from crash_harness import KILLED, command, count_statements, problems, run
from fault_server import FaultServer

QUESTION = "How long is the refund window for annual plans?"
ANSWER = json.dumps({"claims": [{"text": "Annual plans can be refunded within 30 days", "evidence_ids": ["E1"],
                                 "quote": "Annual plans can be refunded within 30 days"}], "abstained_requests": []})


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "refund.md").write_text("# Refund Policy\n\nAnnual plans can be refunded within 30 days of purchase.\n")
    for i in range(6):
        (folder / f"note{i}.md").write_text(f"# Note {i}\n\n" + f"Paragraph about topic {i}. " * 40)
    return folder


@pytest.fixture
def server() -> Iterator[FaultServer]:
    srv = FaultServer(reply=ANSWER).start()
    yield srv
    srv.stop()


def ingest(corpus: Path, db: Path) -> list[str | Path]:
    return ["ingest", corpus, "--db", db, "--no-embed"]


def query(db: Path, server: FaultServer) -> list[str | Path]:
    return ["query", QUESTION, "--db", db, "--base-url", server.base_url, "--model", "m", "--routes", "bm25,title",
            "--json", "--retries", "0"]


def assert_recovers(args: list[str | Path], db: Path) -> subprocess.CompletedProcess[str]:
    assert problems(db) == []
    again = run(args)
    assert again.returncode == 0, again.stderr
    assert problems(db) == []
    return again


# --- finding 1: an interrupted first ingest never leaves an unusable store -----------------------------------


@pytest.mark.parametrize("statement", [r"^CREATE TABLE (IF NOT EXISTS )?store_marker", r"^INSERT INTO migrations", r"^COMMIT"])
def test_kill_during_first_store_creation(tmp_path: Path, corpus: Path, statement: str) -> None:
    db = tmp_path / "new.db"
    killed = run(ingest(corpus, db), {"kill_match": statement})
    assert killed.returncode == KILLED
    assert not db.exists() or problems(db) == []
    assert_recovers(ingest(corpus, db), db)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".new.db")] == []  # no temp files left


@pytest.mark.parametrize("setup", ["empty", "migrations-only", "marker-table-empty"])
def test_half_made_store_is_rebuilt_by_the_next_ingest(tmp_path: Path, corpus: Path, setup: str) -> None:
    """What an interrupted first ingest of the old code left: refused by read commands, rebuilt by ingest."""
    db = tmp_path / "half.db"
    with closing(sqlite3.connect(db)) as conn:
        if setup != "empty":
            conn.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
        if setup == "marker-table-empty":
            conn.execute("CREATE TABLE store_marker (value TEXT NOT NULL)")
        conn.commit()
    info = run(["info", "--db", db])
    assert info.returncode == 1 and "half-made" in info.stderr and "arborist ingest" in info.stderr
    rebuilt = run(ingest(corpus, db))
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert problems(db) == []


def test_a_foreign_database_is_still_refused_and_left_alone(tmp_path: Path, corpus: Path) -> None:
    db = tmp_path / "other.db"
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("CREATE TABLE migrations (name TEXT)")  # looks half-made, but holds data
        conn.execute("INSERT INTO migrations VALUES ('mine')")
        conn.commit()
    before = db.read_bytes()
    result = run(ingest(corpus, db))
    assert result.returncode == 1 and "is not an arborist corpus store" in result.stderr
    assert db.read_bytes() == before


# --- finding 3: concurrent first ingests serialise ---------------------------------------------------------


def test_two_first_ingests_into_one_new_store_both_succeed(tmp_path: Path, corpus: Path) -> None:
    """A pauses in the middle of creating the store; B starts then. B must wait, not fail."""
    db = tmp_path / "race.db"
    flag = tmp_path / "go"
    spec = {"pause_match": r"^CREATE TABLE (IF NOT EXISTS )?store_marker", "pause_until": str(flag), "pause_max": 3}
    env_cmd = command(ingest(corpus, db), spec)
    first = subprocess.Popen(env_cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=_env())
    paused = Path(str(flag) + ".paused")
    while not paused.exists():
        assert first.poll() is None, first.communicate()
    second = run(ingest(corpus, db))
    flag.touch()
    _, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    assert second.returncode == 0, second.stderr
    assert problems(db) == []
    reports = [json.loads(run([*ingest(corpus, db), "--json"]).stdout)]
    assert reports[0]["documents"] == 7 and reports[0]["unchanged"] == 7


def _env() -> dict[str, str]:
    import os
    import sys

    from crash_harness import HERE
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(HERE.parent), *sys.path) if p)}


# --- finding 4: the cache row and its audit event are one transaction ----------------------------------------


@pytest.mark.parametrize("statement", [r"INSERT INTO audit_events", r"INTO answer_cache"])
def test_kill_between_audit_and_cache_writes(tmp_path: Path, corpus: Path, server: FaultServer, statement: str) -> None:
    db = tmp_path / "q.db"
    assert run(ingest(corpus, db)).returncode == 0
    killed = run(query(db, server), {"kill_match": statement})
    assert killed.returncode == KILLED
    with closing(sqlite3.connect(db)) as conn:
        rows = conn.execute("SELECT COUNT(*) FROM answer_cache").fetchone()[0]
        events = conn.execute("SELECT COUNT(*) FROM audit_events").fetchone()[0]
    assert (rows, events) == (0, 0)  # neither, since not both
    assert problems(db) == []
    fresh = assert_recovers(query(db, server), db)
    assert json.loads(fresh.stdout)["cache_hit"] is False  # the model is asked again: nothing unaudited was kept
    cached = assert_recovers(query(db, server), db)
    assert json.loads(cached.stdout)["cache_hit"] is True


# --- random moments: a seeded statement index, so a failing draw replays exactly ------------------------------


def test_random_kills_of_ingest_and_query_keep_every_invariant(tmp_path: Path, corpus: Path, server: FaultServer) -> None:
    rng = random.Random(10)
    probe = tmp_path / "probe.db"
    n_ingest = count_statements(ingest(corpus, probe), tmp_path)
    n_query = count_statements(query(probe, server), tmp_path)
    kills = 0
    for trial in range(2):
        db = tmp_path / f"t{trial}.db"
        at = rng.randint(1, n_ingest)
        result = run(ingest(corpus, db), {"kill_at": at})
        kills += result.returncode == KILLED
        assert problems(db) == [], f"ingest killed at statement {at}"
        assert_recovers(ingest(corpus, db), db)
        at = rng.randint(1, n_query)
        result = run(query(db, server), {"kill_at": at})
        kills += result.returncode == KILLED
        assert problems(db) == [], f"query killed at statement {at}"
        assert_recovers(query(db, server), db)
    assert kills == 4


def test_something_in_the_way_of_the_creation_lock_is_a_one_line_error(tmp_path: Path, corpus: Path) -> None:
    (tmp_path / ".new.db.lock").mkdir()
    result = run(ingest(corpus, tmp_path / "new.db"))
    assert result.returncode == 1 and result.stderr.startswith("Error: cannot create store")
    assert "unexpected" not in result.stderr
