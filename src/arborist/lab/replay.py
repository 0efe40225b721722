"""Completions replayed across runs: one prompt, sent to one model with one set of settings, is asked once.

The answer cache keys on the governance hash, which is right for serving an
answer but too strict for a sweep: two cells whose policies differ only in a
knob that left the prompt untouched (a rune budget that binds at neither
value, a chunk budget larger than every question needs) have different hashes
and would each ask the model the same words. This cache keys on what the
model is actually given (provider, model id, messages, generation settings as
sent, JSON schema), so such a cell costs no model time.

It lives in the lab's cache directory, beside the stores, and only the lab
uses it: the engine is handed a provider and cannot tell. A replayed
completion says so (`Completion.replayed_from`) and its row is counted as a
cache hit, never as a provider call. Only completions without an error are
kept, so a failed or timed-out call is asked again. Decoding is greedy or
seeded, so a replay is what the call would have returned.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

from arborist.answer.pipeline import sample_settings
from arborist.answer.record import AnswerRecord
from arborist.corpus.transactions import WRITE_WAIT_MS, write_transaction
from arborist.errors import StoreError
from arborist.models.base import Completion, GenerationSettings, Message, Provider
from arborist.policy.canonical import tagged_digest

REPLAY_TAG = "arborist-completion-replay/1"
FILE_NAME = "completions.sqlite"


def replay_key(
    provider: str, model_id: str, messages: list[Message], settings: GenerationSettings,
    json_schema: dict[str, Any] | None,
) -> str:
    return tagged_digest(REPLAY_TAG, {
        "provider": provider, "model_id": model_id, "messages": [m.model_dump() for m in messages],
        "settings": settings.model_dump(), "json_schema": json_schema,
    })


class CompletionStore:
    """`completions.sqlite`: replay key -> completion JSON. Safe to share between threads."""

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / FILE_NAME
        self._db = sqlite3.connect(self.path, timeout=WRITE_WAIT_MS / 1000, isolation_level=None,
                                   check_same_thread=False)
        self._lock = threading.Lock()
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            with write_transaction(self._db):
                self._db.execute("CREATE TABLE IF NOT EXISTS completions (key TEXT PRIMARY KEY, completion TEXT "
                                 "NOT NULL)")
            self._db.execute("SELECT key, completion FROM completions LIMIT 0")
        except sqlite3.DatabaseError as exc:
            self._db.close()
            if isinstance(exc, sqlite3.OperationalError) and "no such" not in str(exc):  # locked, read-only, I/O
                raise StoreError(f"cannot open the completion cache {self.path}: {exc}") from None
            raise StoreError(f"{self.path} is not arborist's completion cache ({exc}); it only saves model time: "
                             "delete it and run again") from None

    def get(self, key: str) -> Completion | None:
        """Best effort: a cache that cannot be read now is a miss, never a failed answer."""
        try:
            with self._lock:
                row = self._db.execute("SELECT completion FROM completions WHERE key = ?", (key,)).fetchone()
        except (sqlite3.Error, StoreError):
            return None
        if row is None:
            return None
        try:
            return Completion.model_validate_json(row[0])
        except ValueError:  # an unreadable row is a miss: the model is asked again and the row replaced
            return None

    def put(self, key: str, completion: Completion) -> None:
        if completion.error is not None or completion.replayed_from is not None:
            return
        text = completion.model_dump_json()
        try:  # best effort: a completion the cache cannot keep (locked, full, closed) is still the answer's
            with self._lock, write_transaction(self._db):
                self._db.execute("INSERT OR REPLACE INTO completions(key, completion) VALUES (?, ?)", (key, text))
        except (sqlite3.Error, StoreError):
            return

    def remember(self, record: AnswerRecord) -> None:
        """Keep the completion of an answer served from the answer cache, so a later cell with the same
        prompt replays it (the cell that first produced it may predate this cache)."""
        c = record.completion
        settings = sample_settings(record.policy.generation, record.sample_index)
        key = replay_key(c.provider, c.model_id, record.prompt.messages, settings, record.prompt.json_schema)
        if self.get(key) is None:
            self.put(key, c)

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM completions").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


class ReplayingProvider:
    """Serves a completion already produced for these exact inputs; asks `inner` otherwise and keeps the result.

    With `serve=False` (a run with --burn) it always asks, and still keeps what it hears.
    """

    def __init__(self, inner: Provider, store: CompletionStore, serve: bool = True) -> None:
        self.inner = inner
        self.name = inner.name
        self.model_id = inner.model_id
        self.store = store
        self.serve = serve
        self._asking: dict[str, threading.Lock] = {}  # replay key -> held while that prompt is being asked
        self._guard = threading.Lock()

    def complete(
        self, messages: list[Message], settings: GenerationSettings, json_schema: dict[str, Any] | None = None
    ) -> Completion:
        key = replay_key(self.name, self.model_id, messages, settings, json_schema)

        def ask() -> Completion:
            completion = self.inner.complete(messages, settings, json_schema)
            self.store.put(key, completion)
            return completion

        if not self.serve:
            return ask()
        # Two workers with the same prompt (a treated twin with nothing to treat) ask once: the second
        # waits for the first and replays what it heard.
        with self._guard:
            asking = self._asking.setdefault(key, threading.Lock())
        with asking:
            kept = self.store.get(key)
            if kept is None:
                return ask()
            return kept.model_copy(update={"replayed_from": key, "timings": {}, "cached_prompt_tokens": None,
                                           "attempts": 0})
