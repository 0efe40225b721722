"""Judge scores kept in SQLite, keyed by (judge id, engine, premise, hypothesis).

A score depends on the judge (model, weights, prompt), the engine that computes it (a local judge's llama.cpp
build and prompt batching: `LocalJudge.engine`) and the two texts only, never on a corpus, so one cache
file serves every store: by default `$ARBORIST_CACHE/judge.db`. Re-verifying an answer (a cache hit, `arborist
verify` on the same file, a lab re-run) then costs no model call.
"""

from __future__ import annotations

import functools
import hashlib
import sqlite3
import threading
from pathlib import Path

from arborist.corpus.transactions import WRITE_WAIT_MS, write_transaction
from arborist.errors import StoreError
from arborist.models.profiles import cache_dir
from arborist.verify.judge import Judge, JudgeSpec


def default_cache_path() -> Path:
    return cache_dir() / "judge.db"


def _key(judge_id: str, premise: str, hypothesis: str) -> str:
    return hashlib.sha256("\x1f".join((judge_id, premise, hypothesis)).encode("utf-8")).hexdigest()


class JudgeCache:
    """One SQLite file of scores; safe for several processes (WAL) and threads (one lock)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_cache_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=WRITE_WAIT_MS / 1000, isolation_level=None,
                                       check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS judge_scores (key TEXT PRIMARY KEY, judge_id TEXT NOT NULL, "
                             "score REAL NOT NULL)")
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the judge cache {self.path}: {exc}") from None
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, judge_id: str, premise: str, hypothesis: str) -> float | None:
        with self._lock:
            row = self._db.execute("SELECT score FROM judge_scores WHERE key = ?",
                                   (_key(judge_id, premise, hypothesis),)).fetchone()
        return None if row is None else float(row[0])

    def put(self, judge_id: str, premise: str, hypothesis: str, score: float) -> None:
        """Store a score; a cache that cannot be written (a full disk, a read-only file) costs a later model
        call, never this verification."""
        try:
            with self._lock, write_transaction(self._db):
                self._db.execute("INSERT OR REPLACE INTO judge_scores VALUES (?, ?, ?)",
                                 (_key(judge_id, premise, hypothesis), judge_id, score))
        except (sqlite3.Error, StoreError):
            pass

    def close(self) -> None:
        with self._lock:
            self._db.close()


class CachedJudge:
    """A judge whose scores are read from, and written to, a `JudgeCache`."""

    def __init__(self, judge: Judge, cache: JudgeCache) -> None:
        self.spec: JudgeSpec = judge.spec
        self._judge = judge
        self._cache = cache

    @functools.cached_property
    def _id(self) -> str:
        """The judge's id and its engine (read at the first score: a local judge's engine imports llama.cpp, and
        most answers never ask the judge); a served judge's engine is its server's business."""
        engine = getattr(self._judge, "engine", "")
        return f"{self.spec.judge_id}/{engine}" if engine else self.spec.judge_id

    def score(self, premise: str, hypothesis: str) -> float:
        found = self._cache.get(self._id, premise, hypothesis)
        if found is not None:
            self._cache.hits += 1
            return found
        self._cache.misses += 1
        value = self._judge.score(premise, hypothesis)
        self._cache.put(self._id, premise, hypothesis, value)
        return value
