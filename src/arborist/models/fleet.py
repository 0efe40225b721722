"""Several OpenAI-compatible servers serving one model, as one provider.

A sweep of thousands of questions is bound by model time; researchers already
serve models on GPU machines (vLLM, llama.cpp server). A fleet spreads the
calls over those servers with a per-server limit on requests in flight, and:

- keeps one question's samples on one server: the first call for a prompt
  goes to the least busy server that is up, and later calls with the same
  messages (the samples differ only in their seed) go there too, so they share
  its cached prompt prefix;
- moves a call that fails on one server to another (the failed server rests
  for `cooldown` seconds, so a dead server costs one refused connection per
  rest, not one per call); after every server failed once, it waits and tries
  the round again, `retries` times;
- gives a call up at its deadline (`deadline` seconds from its start, across
  every server and round: no request outlives it, and a thousand dead
  servers cost one deadline, not a thousand timeouts);
- returns the last failure as a Completion with `error` set when no server
  answered: a failed call stays a recorded failure, never an exception;
- `abort()` (a stopped run) ends the calls in flight at once.

A completion says which server answered (`Completion.server`); its model id is
the fleet's (`<model>@fleet`), whichever server answered, so rows, the answer
cache and the completion replay do not depend on which servers were up. The
servers must therefore serve the same weights under the same model name:
name the model after its weights (vLLM `--served-model-name`).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arborist.errors import ArboristError
from arborist.models.base import Completion, GenerationSettings, Message
from arborist.models.openai_compat import (
    BACKOFF_BASE,
    DEFAULT_DEADLINE,
    DEFAULT_RETRIES,
    DEFAULT_TIMEOUT,
    OpenAIProvider,
    check_base_url,
    server_label,
)

DEFAULT_PER_SERVER = 2
DEFAULT_COOLDOWN = 5.0
AFFINITY_KEYS = 100_000  # prompts remembered for server affinity (oldest forgotten first)
AFFINITY_TAG = "arborist-fleet-affinity/1"


@dataclass
class ServerCounts:
    """What one server did: shown by a run's status, per server."""

    answered: int = 0
    failed: int = 0
    in_flight: int = 0


@dataclass
class _Member:
    provider: OpenAIProvider
    label: str
    counts: ServerCounts = field(default_factory=ServerCounts)
    down_until: float = 0.0


def _digest(obj: Any) -> str:
    text = json.dumps([AFFINITY_TAG, obj], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def affinity_key(messages: list[Message]) -> str:
    """What one question's samples share: the messages (the seed and other settings left out)."""
    return _digest([m.model_dump() for m in messages])


class ServerFleet:
    """POSTs each chat request to one of `base_urls`, at most `per_server` at a time on each."""

    name = "openai"

    def __init__(
        self,
        model: str,
        base_urls: Sequence[str],
        *,
        per_server: int = DEFAULT_PER_SERVER,
        api_key_env: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        retries: int = DEFAULT_RETRIES,
        backoff: float = BACKOFF_BASE,
        cooldown: float = DEFAULT_COOLDOWN,
        sleep: Callable[[float], object] | None = None,
        deadline: float = DEFAULT_DEADLINE,
    ) -> None:
        if not base_urls:
            raise ArboristError("a server fleet needs at least one base URL")
        if per_server < 1:
            raise ArboristError(f"the per-server concurrency must be 1 or more, not {per_server}")
        if retries < 0:
            raise ArboristError(f"retries must be 0 or more, not {retries}")
        labels = [server_label(u) for u in base_urls]
        repeated = sorted({x for x in labels if labels.count(x) > 1})
        if repeated:
            raise ArboristError(f"server '{repeated[0]}' is named twice; give each server once")
        # Each member tries once: moving on to another server is the fleet's retry.
        self._members = [
            _Member(OpenAIProvider(model, u, api_key_env=api_key_env, timeout=timeout, retries=0, deadline=deadline),
                    label)
            for u, label in zip(base_urls, labels, strict=True)
        ]
        self.model = model
        self.model_id = f"{model}@fleet"
        self.per_server = per_server
        self.retries = retries
        self.backoff = backoff
        self.cooldown = cooldown
        self.deadline = deadline
        self._aborted = threading.Event()
        self._sleep = self._aborted.wait if sleep is None else sleep  # a backoff that `abort` ends
        self._cond = threading.Condition()
        self._affinity: OrderedDict[str, _Member] = OrderedDict()

    @property
    def servers(self) -> list[str]:
        return [m.label for m in self._members]

    @property
    def capacity(self) -> int:
        """Requests the fleet can have in flight: the concurrency that keeps every server busy."""
        return self.per_server * len(self._members)

    def counts(self) -> dict[str, ServerCounts]:
        with self._cond:
            return {m.label: ServerCounts(**vars(m.counts)) for m in self._members}

    def _choose(self, key: str, tried: set[str]) -> _Member | None:
        """The member to send to now, or None to wait for a free slot. Called with the lock held."""
        now = time.monotonic()
        candidates = [m for m in self._members if m.label not in tried]
        up = [m for m in candidates if m.down_until <= now] or candidates  # all resting: try them anyway
        pinned = self._affinity.get(key)
        if pinned is not None and pinned in up:
            return pinned if pinned.counts.in_flight < self.per_server else None
        free = [m for m in up if m.counts.in_flight < self.per_server]
        if not free:
            return None
        return min(free, key=lambda m: (m.counts.in_flight, _digest([key, m.label])))

    def abort(self) -> None:
        """End every call in flight and refuse new ones (a stopped run)."""
        self._aborted.set()
        for m in self._members:
            m.provider.abort()
        with self._cond:
            self._cond.notify_all()

    def _acquire(self, key: str, tried: set[str], end: float) -> _Member | None:
        """A member with a free slot, or None when the call's deadline passed (or the fleet was aborted) first."""
        with self._cond:
            while True:
                now = time.monotonic()
                if now >= end or self._aborted.is_set():
                    return None
                member = self._choose(key, tried)
                if member is not None:
                    member.counts.in_flight += 1
                    return member
                self._cond.wait(timeout=min(0.5, end - now))  # a resting server may come back up meanwhile

    def _release(self, member: _Member, key: str, ok: bool) -> None:
        with self._cond:
            member.counts.in_flight -= 1
            if ok:
                member.counts.answered += 1
                member.down_until = 0.0
                self._affinity[key] = member
                self._affinity.move_to_end(key)
                while len(self._affinity) > AFFINITY_KEYS:
                    self._affinity.popitem(last=False)
            else:
                member.counts.failed += 1
                member.down_until = time.monotonic() + self.cooldown
                if self._affinity.get(key) is member:
                    del self._affinity[key]
            self._cond.notify_all()

    def complete(
        self,
        messages: list[Message],
        settings: GenerationSettings,
        json_schema: dict[str, Any] | None = None,
    ) -> Completion:
        key = affinity_key(messages)
        started = time.monotonic()
        end = started + self.deadline
        attempts = 0
        tried: set[str] = set()
        rounds = 0
        last: Completion | None = None

        def failed(why: str) -> Completion:
            base = last or Completion(model_id=self.model_id, provider=self.name)
            return base.model_copy(update={
                "model_id": self.model_id, "attempts": attempts,
                "timings": {**base.timings, "total_s": time.monotonic() - started},
                "error": why + (f"; last: {last.error}" if last is not None else ""),
            })

        while True:
            member = self._acquire(key, tried, end)
            if member is None:
                if self._aborted.is_set():
                    return failed("cancelled: the run was stopped")
                return failed(f"no server of the fleet answered within the call's deadline ({self.deadline:g} s; "
                              f"{attempts} attempts)")
            completion: Completion | None = None
            try:
                completion = member.provider.complete_by(messages, settings, json_schema, end)
            finally:
                self._release(member, key, completion is not None and completion.error is None)
            attempts += completion.attempts
            if completion.error is None:
                return completion.model_copy(update={"model_id": self.model_id, "attempts": attempts})
            last = completion
            if self._aborted.is_set():
                return failed("cancelled: the run was stopped")
            tried.add(member.label)
            if len(tried) == len(self._members):
                if rounds >= self.retries:
                    return failed(f"no server of the fleet answered ({len(self._members)} tried, {attempts} attempts)")
                rounds += 1
                tried.clear()
                self._sleep(min(self.backoff * 2 ** (rounds - 1), max(end - time.monotonic(), 0.0)))


def read_servers_file(path: Path) -> list[str]:
    """A servers file: one base URL a line; blank lines and lines starting with # are skipped."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ArboristError(f"servers file '{path}' does not exist") from None
    except (IsADirectoryError, UnicodeDecodeError) as exc:
        raise ArboristError(f"servers file '{path}' is not a UTF-8 text file ({type(exc).__name__})") from None
    urls = [check_base_url(line, f"line {n} of servers file '{path}':")
            for n, line in enumerate(text.splitlines(), 1) if line.strip() and not line.lstrip().startswith("#")]
    if not urls:
        raise ArboristError(f"servers file '{path}' names no server; put one base URL a line")
    return urls


def fleet_urls(servers: Sequence[str], servers_file: Path | None) -> list[str]:
    """The base URLs of `--server` (in order) and then of `--servers-file`, each checked: an http(s) URL."""
    urls = [check_base_url(u, "--server") for u in servers]
    return urls + (read_servers_file(servers_file) if servers_file is not None else [])
