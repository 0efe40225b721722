"""A fleet of OpenAI-compatible servers as one provider, and lab runs over it.

The servers are real HTTP servers on 127.0.0.1 (tests/fault_server.py); a "killed" server stops
mid-request and then refuses connections. No assertion depends on how long anything took.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arborist.corpus.documents import corpus_digest
from arborist.corpus.loaders import load_documents
from arborist.corpus.store import open_store
from arborist.errors import ArboristError
from arborist.governance.audit import verify_chain
from arborist.lab.checks import validate_run
from arborist.lab.report import load_rows
from arborist.lab.runner import RunRequest, execute, plan_run, store_path
from arborist.models.base import GenerationSettings, Message
from arborist.models.fleet import ServerFleet, read_servers_file
from arborist.models.registry import make_provider
from arborist.policy.answer import AnswerPolicy
from fault_server import FaultServer
from test_lab import DOCS, LEXICAL, QUESTIONS

SETTINGS = GenerationSettings()


def ask(text: str) -> list[Message]:
    return [Message(role="system", content="be brief"), Message(role="user", content=text)]


@pytest.fixture
def inputs(tmp_path: Path) -> tuple[Path, Path]:
    """test_lab's corpus and evaluation."""
    corpus = tmp_path / "corpus.json"
    corpus.write_text(json.dumps(DOCS), encoding="utf-8")
    evaluation = tmp_path / "evaluation.json"
    evaluation.write_text(json.dumps({"format": "arborist-evaluation/1",
                                      "corpus_digest": corpus_digest(load_documents([corpus])),
                                      "questions": QUESTIONS}), encoding="utf-8")
    return corpus, evaluation


@pytest.fixture
def servers() -> Iterator[list[FaultServer]]:
    started = [FaultServer().start() for _ in range(3)]
    yield started
    for s in started:
        s.stop()


def test_requests_spread_over_the_servers_within_the_per_server_limit(servers: list[FaultServer]) -> None:
    # Each server holds a request until three are held at once: with one slot per server, the three in flight
    # must sit on three servers, round after round, however the threads are scheduled.
    gate = threading.Barrier(3, timeout=30)
    for s in servers:
        s.on_request = gate.wait
    fleet = ServerFleet("m", [s.base_url for s in servers], per_server=1)
    results: list[Any] = [None] * 6
    threads = [threading.Thread(target=lambda i=i: results.__setitem__(i, fleet.complete(ask(f"q{i}"), SETTINGS)))
               for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r.error is None and r.model_id == "m@fleet" for r in results)
    assert [s.most_in_flight for s in servers] == [1, 1, 1]
    assert [len(s.requests) for s in servers] == [2, 2, 2]
    assert sorted(r.server for r in results) == sorted(s.base_url for s in servers for _ in range(2))
    assert {label: c.answered for label, c in fleet.counts().items()} == {s.base_url: 2 for s in servers}


def test_samples_of_one_question_go_to_one_server(servers: list[FaultServer]) -> None:
    fleet = ServerFleet("m", [s.base_url for s in servers])
    first = [fleet.complete(ask(f"question {i}"), SETTINGS) for i in range(6)]
    again = [fleet.complete(ask(f"question {i}"), SETTINGS.model_copy(update={"seed": 7})) for i in range(6)]
    assert [c.server for c in again] == [c.server for c in first]


def test_a_failed_request_is_answered_by_another_server_which_the_completion_names(
        servers: list[FaultServer]) -> None:
    a, b, c = servers
    a.queue("503", "503")
    fleet = ServerFleet("m", [a.base_url], per_server=1, retries=1, backoff=0)
    failed = fleet.complete(ask("x"), SETTINGS)  # one server: its failure stays a recorded failure
    assert failed.error is not None and "no server of the fleet answered" in failed.error and failed.text == ""
    assert failed.attempts == 2 and len(a.requests) == 2
    # Two calls at once, one slot a server, b dead: c holds its first call until b has refused one, so b is
    # surely tried (whichever call gets there first) and both calls are answered by c.
    b.stop()
    gate = threading.Barrier(2, timeout=30)
    c.on_request = lambda: gate.wait() if len(c.requests) == 1 else None
    fleet = ServerFleet("m", [b.base_url, c.base_url], per_server=1, backoff=0)
    done: list[Any] = [None, None]
    threads = [threading.Thread(target=lambda i=i: done.__setitem__(i, fleet.complete(ask(f"q{i}"), SETTINGS)))
               for i in range(2)]
    for t in threads:
        t.start()
    for _ in range(600):  # until b has refused a call (at most 30 s)
        if fleet.counts()[b.base_url].failed:
            break
        time.sleep(0.05)
    gate.wait()
    for t in threads:
        t.join()
    assert all(d.error is None and d.server == c.base_url for d in done)
    assert fleet.counts()[b.base_url].failed >= 1 and fleet.counts()[c.base_url].answered == 2


def test_a_fleet_refuses_a_repeated_server_and_reads_a_servers_file(tmp_path: Path) -> None:
    with pytest.raises(ArboristError, match="named twice"):
        ServerFleet("m", ["http://127.0.0.1:9/v1", "http://127.0.0.1:9/v1/"])
    with pytest.raises(ArboristError, match="not an http"):
        ServerFleet("m", ["file:///etc/passwd"])
    listing = tmp_path / "servers.txt"
    listing.write_text("# two servers\nhttp://127.0.0.1:8001/v1\n\n  http://127.0.0.1:8002/v1\n")
    assert read_servers_file(listing) == ["http://127.0.0.1:8001/v1", "http://127.0.0.1:8002/v1"]
    (tmp_path / "empty.txt").write_text("# none\n")
    with pytest.raises(ArboristError, match="names no server"):
        read_servers_file(tmp_path / "empty.txt")
    provider = make_provider("m", servers=read_servers_file(listing), per_server=3)
    assert isinstance(provider, ServerFleet) and provider.capacity == 6


def echo_question(body: Any) -> str:
    """A deterministic answer that depends on the prompt: rows from different servers must agree."""
    user = body["messages"][1]["content"]
    first = "Paris is the capital of France." if "France" in user else "Nobody knows."
    return json.dumps({"claims": [{"text": first, "evidence_ids": ["E1"], "quote": ""}], "abstained_requests": []})


@pytest.fixture
def echo_servers() -> Iterator[list[FaultServer]]:
    """Two servers that answer each request with its question (for the fleet CLI and Ray executor tests)."""
    started = [FaultServer(reply_for=echo_question).start() for _ in range(2)]
    yield started
    for s in started:
        s.stop()


STABLE_DROP = {"run_id", "record_id", "produced_by_run", "timings", "provider_timings", "server", "trace"}


def stable(run_dir: Path) -> list[dict[str, Any]]:
    rows = load_rows(run_dir)[0]
    return [{k: v for k, v in r.model_dump(mode="json").items() if k not in STABLE_DROP} for r in rows]


def fleet_run(tmp_path: Path, inputs: tuple[Path, Path], name: str, fleet: ServerFleet, workers: int,
              samples: int = 1) -> Path:
    policy = {**LEXICAL, **({"temperature": 0.7} if samples > 1 else {})}
    req = RunRequest(run_root=tmp_path / name, corpus=inputs[0], evaluation=inputs[1],
                     cache_directory=tmp_path / name / "cache", policy_values=policy,
                     generation_workers=workers, samples=samples)
    outcome = execute(plan_run(req, fleet), fleet)
    assert outcome.status.state == "complete", outcome.status.message
    return outcome.run_dir


def test_a_concurrent_run_over_a_fleet_writes_the_rows_a_sequential_run_writes(
        tmp_path: Path, inputs: tuple[Path, Path], servers: list[FaultServer]) -> None:
    for s in servers:
        s.reply_for = echo_question
    urls = [s.base_url for s in servers]
    one = fleet_run(tmp_path, inputs, "one", ServerFleet("m", urls[:1], per_server=1), workers=1, samples=2)
    many = fleet_run(tmp_path, inputs, "many", ServerFleet("m", urls, per_server=2), workers=6, samples=2)
    assert stable(many) == stable(one)  # same rows, same order
    rows = load_rows(many)[0]
    assert len({r.key for r in rows}) == len(rows) == len(QUESTIONS) * 2
    # both samples of a question were answered by one server
    by_question: dict[str, set[str | None]] = {}
    for r in rows:
        by_question.setdefault(r.query_id, set()).add(r.server)
    assert all(len(s) == 1 for s in by_question.values())
    status = json.loads((many / "status.json").read_text())
    assert sum(status["rows_by_server"].values()) == len(rows) and set(status["rows_by_server"]) <= set(urls)
    assert all(c.ok for c in validate_run(many)), [c for c in validate_run(many) if not c.ok]
    cfg = json.loads((many / "config.json").read_text())
    assert cfg["model"]["servers"] == urls and cfg["model"]["per_server"] == 2
    policy = AnswerPolicy.model_validate(cfg["arms"][0]["policy"])
    with open_store(store_path(tmp_path / "many" / "cache", cfg["corpus_digest"], policy.chunking)) as store:
        assert verify_chain(store.db).ok


def test_a_server_killed_mid_run_loses_no_row_and_duplicates_none(
        tmp_path: Path, inputs: tuple[Path, Path], servers: list[FaultServer]) -> None:
    victim, *rest = servers
    for s in servers:
        s.reply_for = echo_question
        s.latency_seconds = 0.05
    # The first three calls are held until all three are in flight (one a server: one slot each), so the victim
    # surely gets one; it stops while holding it (the call is dropped) and refuses every later one.
    gate = threading.Barrier(3, timeout=30)
    for s in rest:
        s.on_request = lambda s=s: gate.wait() if len(s.requests) == 1 else None

    def die() -> None:
        gate.wait()
        victim.stop()

    victim.on_request = die
    fleet = ServerFleet("m", [s.base_url for s in servers], per_server=1, backoff=0)
    run_dir = fleet_run(tmp_path, inputs, "kill", fleet, workers=3, samples=3)
    rows = load_rows(run_dir)[0]
    assert len(rows) == len({r.key for r in rows}) == len(QUESTIONS) * 3
    assert all(r.contract.reason != "PROVIDER_ERROR" for r in rows)
    assert {r.server for r in rows} <= {s.base_url for s in rest} and victim.requests
    assert all(c.ok for c in validate_run(run_dir)), [c for c in validate_run(run_dir) if not c.ok]
