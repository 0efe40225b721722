"""A full disk (a real one: a small tmpfs filled to the last byte) never costs data or a paid answer.

Read-only commands still read the store; commands that write refuse before any model call; an
answer whose write fails after the model call is shown anyway, and the error says it was not kept.
Mounting needs root (CAP_SYS_ADMIN): elsewhere these tests skip, saying so.
"""

from __future__ import annotations

import errno
import json
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from arborist.corpus import open_store
from conftest import DEMO
from fault_server import FaultServer

Run = Callable[..., Result]
QUESTION = "How long is the refund window?"


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 MiB tmpfs of its own, unmounted afterwards."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path) -> None:
    """Write zeros until the file system has no byte left."""
    with open(disk / "filler", "ab", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 65536)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC, exc
        try:
            while True:
                f.write(b"\0")
        except OSError as exc:
            assert exc.errno == errno.ENOSPC, exc


def demo_store(disk: Path, run_cli: Run) -> Path:
    db = disk / "c.db"
    result = run_cli("ingest", DEMO / "corpus", "--db", db, "--no-embed")
    assert result.exit_code == 0, result.output
    return db


def test_read_only_commands_work_on_a_full_disk(disk: Path, run_cli: Run) -> None:
    db = demo_store(disk, run_cli)
    fill(disk)
    info = run_cli("info", "--db", db, "--json")
    assert info.exit_code == 0, info.output
    assert json.loads(info.stdout)["documents"] == 32
    found = run_cli("search", QUESTION, "--db", db, "--json", "--routes", "bm25,title,keyword,phrase")
    assert found.exit_code == 0, found.output
    assert "Refund Policy" in [r["title"] for r in json.loads(found.stdout)["results"]]
    audit = run_cli("audit", "verify", "--db", db)
    assert audit.exit_code == 0, audit.output
    assert "intact" in audit.stdout


def test_a_write_refuses_before_the_model_call_on_a_full_disk(disk: Path, run_cli: Run) -> None:
    db = demo_store(disk, run_cli)
    server = FaultServer().start()
    try:
        fill(disk)
        result = run_cli("query", QUESTION, "--db", db, "--base-url", server.base_url, "--model", "m", "--retries", "0")
    finally:
        server.stop()
    assert result.exit_code == 1
    assert "disk is full" in result.stderr and str(db) in result.stderr
    assert server.requests == []  # nothing paid for


def test_an_answer_whose_write_fails_after_the_model_call_is_kept(disk: Path, run_cli: Run) -> None:
    db = demo_store(disk, run_cli)
    server = FaultServer(reply='{"claims": [], "quotes": [], "abstained_requests": ["refund window"]}')
    server.on_request = lambda: fill(disk)  # the disk fills up while the model is busy
    server.start()
    try:
        result = run_cli("query", QUESTION, "--db", db, "--base-url", server.base_url, "--model", "m",
                         "--retries", "0", "--burn", "--json")
    finally:
        server.stop()
    assert len(server.requests) == 1
    assert result.exit_code == 1
    shown = json.loads(result.stdout)  # the answer the call paid for
    assert shown["completion"]["text"] == server.reply
    assert "could not be stored" in result.stderr and "neither cached nor audited" in result.stderr
    (disk / "filler").unlink()
    with open_store(db) as store:  # nothing half-written: no event, no cache row
        assert store.db.execute("SELECT COUNT(*) FROM audit_events").fetchone()[0] == 0
        assert store.db.execute("SELECT COUNT(*) FROM answer_cache").fetchone()[0] == 0
