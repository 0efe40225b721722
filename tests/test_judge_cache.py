"""The judge's score cache is an accelerator, never an authority (issue 49).

A row is served only when it is a number in [0, 1] that the cache's own key signed; anything else is a miss and
the judge is asked again. A cache that cannot be opened, read or written is left alone with one warning.
"""

from __future__ import annotations

import json
import logging
import math
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from arborist.entailment import CachedJudge, JudgeCache
from arborist.entailment.cache import _key
from arborist.entailment.served import ServedJudge
from arborist.verify import Label, verify_answer
from arborist.verify.judge import JudgeError, JudgeSpec
from fault_server import FaultServer
from judges import TableJudge

# The case: a claim that says the opposite of its quote in words the rules cannot read as a reversal.
CLAIM = "Customers who ask within 30 days never get their subscription refunded."
QUOTE = "A subscription can be refunded in full if the customer asks within 30 days."
EVIDENCE = [{"id": "E1", "title": "Refund policy", "text": QUOTE + " Refunds are paid to the original card."}]
ANSWER = {"claims": [{"text": CLAIM, "evidence_ids": ["E1"], "quote": QUOTE}], "abstained_requests": []}
QUESTION = "When are subscriptions refunded?"


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The cache's key lives here, outside the cache directory (tmp_path/cache)."""
    path = tmp_path / "config"
    monkeypatch.setenv("ARBORIST_CONFIG", str(path))
    return path


@pytest.fixture
def cache_path(tmp_path: Path) -> Path:
    path = tmp_path / "cache" / "judge.db"
    path.parent.mkdir()
    return path


def verify(judge: Any) -> Any:
    return verify_answer(QUESTION, "claim_lattice", EVIDENCE, ANSWER, judge=judge)


def forge(path: Path, judge_id: str, value: object, premise: str = QUOTE, hypothesis: str = CLAIM) -> None:
    """What an attacker with write access to the cache file does: every score set to `value`, and a row for
    (premise, hypothesis) added from the public parts of its key (any other column filled with junk)."""
    db = sqlite3.connect(path)
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    for table in tables:
        columns = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
        if "score" not in columns:
            continue
        db.execute(f"UPDATE {table} SET score = ?", (value,))
        row = {"key": _key(judge_id, premise, hypothesis), "judge_id": judge_id, "score": value}
        values = [row.get(c, "0" * 64) for c in columns]
        db.execute(f"INSERT OR IGNORE INTO {table} VALUES ({', '.join('?' * len(columns))})", values)
    db.commit()
    db.close()


def test_a_forged_row_never_turns_a_contradicting_claim_into_strict(cache_path: Path) -> None:
    honest = TableJudge({CLAIM: 0.02})
    judge = CachedJudge(honest, JudgeCache(cache_path))
    assert verify(judge).label is not Label.STRICT
    judge_id = judge._id
    forge(cache_path, judge_id, 0.99)
    again = TableJudge({CLAIM: 0.02})
    v = verify(CachedJudge(again, JudgeCache(cache_path)))
    assert v.label is not Label.STRICT and v.claims[0].entailment == pytest.approx(0.02)
    assert again.asked  # the forged score was not served: the judge was asked

    # With no judge able to score (its weights absent), a forged row for a pair never judged is not served either.
    forge(cache_path, judge_id, 0.99, hypothesis="a pair never judged")

    class Absent(TableJudge):
        def score(self, premise: str, hypothesis: str) -> float:
            raise JudgeError("the weights are missing")

    with pytest.raises(JudgeError):
        CachedJudge(Absent({}), JudgeCache(cache_path)).score(QUOTE, "a pair never judged")


@pytest.mark.parametrize("value", [7.5, math.inf, -0.25, "abc", b"\x00blob"], ids=repr)
def test_a_score_out_of_range_or_not_a_number_is_a_miss(cache_path: Path, value: object) -> None:
    cache = JudgeCache(cache_path)
    CachedJudge(TableJudge({"h": 0.3}), cache).score("p", "h")
    forge(cache_path, CachedJudge(TableJudge({}), cache)._id, value)
    again = TableJudge({"h": 0.3})
    assert CachedJudge(again, JudgeCache(cache_path)).score("p", "h") == pytest.approx(0.3)
    assert len(again.asked) == 1


def test_a_signed_score_out_of_range_is_a_miss_and_none_is_stored(cache_path: Path) -> None:
    cache = JudgeCache(cache_path)
    wild = TableJudge({"h": 7.5, "nan": math.nan})
    judge = CachedJudge(wild, cache)
    judge.score("p", "h")
    judge.score("p", "nan")
    judge.score("p", "h")
    assert len(wild.asked) == 3  # neither was kept


def test_a_score_out_of_range_is_a_miss_even_signed(cache_path: Path) -> None:
    """The range is checked on reading too: a judge's bug written by another version never decides a claim."""
    cache = JudgeCache(cache_path)
    judge_id = CachedJudge(TableJudge({}), cache)._id
    for score in (7.5, -1.0, math.inf):
        cache.store_signed(judge_id, "p", "h", score)
        assert cache.get(judge_id, "p", "h") is None


def _garbage(path: Path) -> None:
    path.write_bytes(b"this is not a database" * 500)


def _truncated(path: Path) -> None:
    cache = JudgeCache(path)
    judge = CachedJudge(TableJudge({f"h{i}": 0.5 for i in range(400)}), cache)
    for i in range(400):
        judge.score("a premise long enough to fill pages " * 4, f"h{i}")
    cache.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    for extra in ("-wal", "-shm"):
        path.with_name(path.name + extra).unlink(missing_ok=True)


def _a_directory(path: Path) -> None:
    path.mkdir()


def _unopenable(path: Path) -> None:
    path.parent.rmdir()
    path.parent.write_text("a file where the cache directory should be")


def _a_fifo(path: Path) -> None:
    os.mkfifo(path)  # opened read-write, every read would wait for a writer that never comes


BROKEN: dict[str, Callable[[Path], None]] = {
    "garbage": _garbage, "truncated": _truncated, "a directory": _a_directory, "unopenable": _unopenable,
    "a fifo": _a_fifo}


@pytest.mark.parametrize("damage", BROKEN, ids=str)
def test_a_broken_cache_is_judged_uncached_with_one_warning(
        cache_path: Path, damage: str, caplog: pytest.LogCaptureFixture) -> None:
    BROKEN[damage](cache_path)
    inner = TableJudge({"h": 0.8, "h2": 0.1})
    with caplog.at_level(logging.WARNING):
        judge = CachedJudge(inner, JudgeCache(cache_path))
        assert judge.score("p", "h") == pytest.approx(0.8)
        assert judge.score("p", "h2") == pytest.approx(0.1)
        assert judge.score("p", "h") == pytest.approx(0.8)
    assert len(inner.asked) >= 2
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and str(cache_path) in warnings[0] and "\n" not in warnings[0], warnings


@pytest.fixture
def locked(cache_path: Path) -> Iterator[Path]:
    """Another process's exclusive lock on the cache file (a rollback-journal database mid-write)."""
    db = sqlite3.connect(cache_path, isolation_level=None)
    db.execute("CREATE TABLE other (x)")
    db.execute("BEGIN EXCLUSIVE")
    db.execute("INSERT INTO other VALUES (1)")
    yield cache_path
    db.execute("ROLLBACK")
    db.close()


def test_a_locked_cache_is_given_up_at_once_not_waited_for(locked: Path, caplog: pytest.LogCaptureFixture) -> None:
    inner = TableJudge({"h": 0.8})
    started = time.monotonic()
    with caplog.at_level(logging.WARNING):
        assert CachedJudge(inner, JudgeCache(locked)).score("p", "h") == pytest.approx(0.8)
    assert time.monotonic() - started < 20  # not the 120 s a store's writer waits
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 1


def test_the_key_lives_outside_the_cache_directory_readable_by_its_owner_only(
        cache_path: Path, config_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    JudgeCache(cache_path).close()
    key = config_dir / "judge-cache.key"
    assert key.is_file() and key.stat().st_mode & 0o777 == 0o600
    key.chmod(0o644)  # readable by others: whoever reads it could sign a score
    with caplog.at_level(logging.WARNING):
        inner = TableJudge({"h": 0.8})
        judge = CachedJudge(inner, JudgeCache(cache_path))
        judge.score("p", "h")
        judge.score("p", "h")
    assert len(inner.asked) == 2 and "judge-cache.key" in caplog.records[-1].getMessage()
    caplog.clear()
    monkeypatch.setenv("ARBORIST_CONFIG", str(cache_path.parent))  # a key beside the scores it signs
    with caplog.at_level(logging.WARNING):
        CachedJudge(inner, JudgeCache(cache_path)).score("p", "h")
    assert len(inner.asked) == 3 and "outside" in caplog.records[-1].getMessage()


@pytest.fixture
def servers() -> Iterator[tuple[FaultServer, FaultServer]]:
    a, b = FaultServer().start(), FaultServer().start()
    yield a, b
    a.stop()
    b.stop()


def _logprobs(yes: float, no: float) -> bytes:
    top = [{"token": "Yes", "logprob": yes}, {"token": "No", "logprob": no}]
    first = top[0] if yes >= no else top[1]
    return json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": first["token"]},
                                    "logprobs": {"content": [{**first, "top_logprobs": top}]},
                                    "finish_reason": "length"}]}).encode()


def test_a_served_judges_scores_are_keyed_by_its_server(
        cache_path: Path, servers: tuple[FaultServer, FaultServer]) -> None:
    a, b = servers
    spec = JudgeSpec(kind="openai", model="same-name", threshold=0.7)
    a.queue(_logprobs(-0.05, -3.0))
    b.queue(_logprobs(-3.0, -0.05))
    first = CachedJudge(ServedJudge(spec, a.base_url, retries=0), JudgeCache(cache_path)).score("p", "h")
    second = CachedJudge(ServedJudge(spec, b.base_url, retries=0), JudgeCache(cache_path)).score("p", "h")
    assert first > 0.9 and second < 0.1 and len(b.requests) == 1  # b was asked: a's score is not b's


def test_verify_with_a_damaged_cache_verifies_with_the_judge(
        tmp_path: Path, servers: tuple[FaultServer, FaultServer], run_cli: Callable[..., Result],
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    cache = tmp_path / "arborist-cache"
    cache.mkdir()
    _garbage(cache / "judge.db")
    monkeypatch.setenv("ARBORIST_CACHE", str(cache))
    a, _ = servers
    a.queue(_logprobs(-3.0, -0.05))
    case = tmp_path / "case.json"
    case.write_text(json.dumps({"question": QUESTION, "mode": "claim_lattice", "evidence": EVIDENCE,
                                "answer": ANSWER}), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        result = run_cli("verify", case, "--entailment", "openai", "--entailment-model", "m", "--entailment-url",
                         a.base_url, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["label"] != "STRICT" and len(a.requests) == 1
    assert any("judge.db" in r.getMessage() for r in caplog.records)


def test_texts_that_are_not_valid_unicode_are_cached_not_a_crash(cache_path: Path) -> None:
    inner = TableJudge({"h\udc80": 0.4})
    judge = CachedJudge(inner, JudgeCache(cache_path))
    assert judge.score("p\ud800", "h\udc80") == judge.score("p\ud800", "h\udc80") == pytest.approx(0.4)
    assert len(inner.asked) == 1


def test_pairs_that_share_a_separator_never_share_a_key_or_a_score(cache_path: Path) -> None:
    """("A\\x1fB", "C") and ("A", "B\\x1fC") joined with \\x1f are one string: the key and signature encode each
    text on its own, so an entailed pair's score is never served for the other one."""
    assert _key("j", "A\x1fB", "C") != _key("j", "A", "B\x1fC")
    assert _key("j\x1fA", "B", "C") != _key("j", "A\x1fB", "C")
    cache = JudgeCache(cache_path)
    judge_id = CachedJudge(TableJudge({}), cache)._id
    cache.put(judge_id, "A\x1fB", "C", 0.99)
    assert cache.get(judge_id, "A\x1fB", "C") == pytest.approx(0.99)
    assert cache.get(judge_id, "A", "B\x1fC") is None
    inner = TableJudge({"B\x1fC": 0.02})
    assert CachedJudge(inner, JudgeCache(cache_path)).score("A", "B\x1fC") == pytest.approx(0.02)
    assert inner.asked


def _an_endless_view(path: Path) -> None:
    """Whoever can write the cache file swaps the table for a view whose query never ends."""
    db = sqlite3.connect(path)
    db.execute("CREATE VIEW signed_scores AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
               "SELECT 'k' || i AS key, 'j' AS judge_id, 0.99 AS score, 'm' AS mac FROM n")
    db.commit()
    db.close()


def _a_trigger(path: Path) -> None:
    JudgeCache(path).close()
    db = sqlite3.connect(path)
    db.execute("CREATE TRIGGER t BEFORE INSERT ON signed_scores BEGIN SELECT 1; END")
    db.commit()
    db.close()


@pytest.mark.parametrize("damage", [_an_endless_view, _a_trigger], ids=["an endless view", "a trigger"])
def test_a_cache_whose_schema_is_not_ours_is_given_up_at_once(
        cache_path: Path, damage: Callable[[Path], None], caplog: pytest.LogCaptureFixture) -> None:
    damage(cache_path)
    inner = TableJudge({"h": 0.8})
    started = time.monotonic()
    with caplog.at_level(logging.WARNING):
        judge = CachedJudge(inner, JudgeCache(cache_path))
        assert judge.score("p", "h") == judge.score("p", "h") == pytest.approx(0.8)
    assert time.monotonic() - started < 10 and len(inner.asked) == 2
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and str(cache_path) in warnings[0], warnings


def test_a_statement_that_runs_too_long_is_interrupted_and_the_cache_given_up(
        cache_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The bound behind the schema check (the table swapped for an endless view after it was checked): a read
    that never ends is interrupted, never waited for."""
    cache = JudgeCache(cache_path)
    monkeypatch.setattr("arborist.entailment.cache.STATEMENT_WAIT_S", 0.2)
    assert cache._db is not None
    cache._db.execute("DROP TABLE signed_scores")
    cache._db.execute("CREATE VIEW signed_scores AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
                      "SELECT i + 1 FROM n) SELECT 'k' || i AS key, 'j' AS judge_id, 0.5 AS score, 'm' AS mac "
                      "FROM n")
    started = time.monotonic()
    with caplog.at_level(logging.WARNING):
        assert cache.get("j", "p", "h") is None
    assert time.monotonic() - started < 10 and not cache.usable
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 1


def _loop(path: Path) -> None:
    path.symlink_to(path.name)


@pytest.mark.parametrize("which", ["cache", "key"])
def test_a_symlink_loop_is_judged_uncached_with_one_warning(
        cache_path: Path, config_dir: Path, which: str, caplog: pytest.LogCaptureFixture) -> None:
    config_dir.mkdir()
    _loop(cache_path if which == "cache" else config_dir / "judge-cache.key")
    inner = TableJudge({"h": 0.8})
    with caplog.at_level(logging.WARNING):
        judge = CachedJudge(inner, JudgeCache(cache_path))
        assert judge.score("p", "h") == judge.score("p", "h") == pytest.approx(0.8)
    assert len(inner.asked) == 2
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and str(cache_path) in warnings[0] and "\n" not in warnings[0], warnings


def test_a_key_that_is_a_fifo_is_refused_not_read(
        cache_path: Path, config_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    config_dir.mkdir()
    key = config_dir / "judge-cache.key"
    os.mkfifo(key, 0o600)  # reading it would wait for a writer that never comes
    inner = TableJudge({"h": 0.8})
    with caplog.at_level(logging.WARNING):
        assert CachedJudge(inner, JudgeCache(cache_path)).score("p", "h") == pytest.approx(0.8)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "not a regular file" in warnings[0], warnings


def test_a_cache_an_earlier_version_wrote_is_still_used_without_a_warning(
        cache_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """An upgrade finds the earlier table (`judge_scores`, its primary key an index of SQLite's own) beside the
    new one: it runs nothing, so the cache is used, never given up on every call."""
    import sqlite3

    with sqlite3.connect(cache_path) as db:
        db.execute("CREATE TABLE judge_scores (key TEXT PRIMARY KEY, judge_id TEXT NOT NULL, score REAL NOT NULL)")
        db.execute("CREATE INDEX judge_scores_by_judge ON judge_scores (judge_id)")
    inner = TableJudge({"h": 0.8})
    with caplog.at_level(logging.WARNING):
        judge = CachedJudge(inner, JudgeCache(cache_path))
        assert judge.score("p", "h") == judge.score("p", "h") == pytest.approx(0.8)
    assert len(inner.asked) == 1  # the second score came from the cache
    assert not [r for r in caplog.records if r.levelno == logging.WARNING]
