"""Deadlines of served model calls (issue 49): one call has an overall deadline across its retries and a fleet's
failover, and Ctrl-C stops a fleet run at once, leaving it resumable.

The servers are real HTTP servers on 127.0.0.1 (tests/fault_server.py) that hold every request; bounds on time
are generous (a fraction of one per-request timeout), never tight.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from arborist.models.base import GenerationSettings, Message
from arborist.models.fleet import ServerFleet
from arborist.models.openai_compat import OpenAIProvider
from fault_server import FaultServer
from test_fleet import echo_question, inputs  # noqa: F401 -- the fixture is used by name
from test_fleet_cli import lexical_flags

ASK = [Message(role="system", content="be brief"), Message(role="user", content="What is the capital of France?")]
HOLD = 60.0  # how long a holding server holds a request (stopping it ends the hold)


@pytest.fixture
def holding() -> Iterator[list[FaultServer]]:
    """Three servers that hold every request far longer than any test waits."""
    started = [FaultServer(reply_for=echo_question, latency_seconds=HOLD).start() for _ in range(3)]
    yield started
    for s in started:
        s.stop()


def test_one_call_over_a_fleet_has_an_overall_deadline_across_failover(holding: list[FaultServer]) -> None:
    fleet = ServerFleet("m", [s.base_url for s in holding], per_server=1, timeout=20, retries=5, backoff=0,
                        deadline=1.0)
    started = time.monotonic()
    done = fleet.complete(ASK, GenerationSettings())
    assert time.monotonic() - started < 15  # well under one request's timeout, let alone 3 servers x 6 rounds
    assert done.error is not None and "deadline" in done.error and "1 s" in done.error, done.error


def test_one_call_to_one_server_has_an_overall_deadline_across_retries(holding: list[FaultServer]) -> None:
    provider = OpenAIProvider("m", holding[0].base_url, timeout=20, retries=3, deadline=1.0)
    started = time.monotonic()
    done = provider.complete(ASK, GenerationSettings())
    assert time.monotonic() - started < 15 and done.error is not None and "deadline" in done.error, done.error
    assert done.attempts == 1


def test_the_deadline_is_an_option_of_every_command_that_asks_a_model(run_cli: Callable[..., Result]) -> None:
    for command in (("query",), ("lab", "run"), ("lab", "sweep")):
        result = run_cli(*command, "--help")
        assert "--deadline" in result.output, command


def test_ctrl_c_stops_a_fleet_run_at_once_and_it_continues(
        tmp_path: Path, inputs: tuple[Path, Path], holding: list[FaultServer],  # noqa: F811
        run_cli: Callable[..., Result]) -> None:
    corpus, evaluation = inputs
    a, b, _ = holding
    proc = subprocess.Popen([str(Path(sys.executable).parent / "arborist"), "lab", "run", "--corpus", str(corpus),
                             "--evaluation", str(evaluation), "--out", str(tmp_path / "runs"), "--cache-directory",
                             str(tmp_path / "cache"), "-m", "m", "--server", a.base_url, "--server", b.base_url,
                             "--per-server", "1", "--timeout", "30", *lexical_flags(), "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(1200):  # until both servers hold a call (at most 60 s)
            if a.in_flight and b.in_flight:
                break
            time.sleep(0.05)
        assert a.in_flight and b.in_flight, proc.stderr.read() if proc.poll() is not None and proc.stderr else ""
        interrupted = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        took = time.monotonic() - interrupted
    finally:
        proc.kill()
    assert proc.returncode == 130 and took < 10, (took, err)  # not the 30 s the calls in flight had left
    run_dir = next((tmp_path / "runs").glob("*/status.json")).parent
    assert json.loads((run_dir / "status.json").read_text())["state"] == "interrupted"
    for s in holding:
        s.latency_seconds = 0.0
    done = run_cli("lab", "run", "--continue-from", run_dir, "--server", a.base_url, "--json")
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout)["status"]["state"] == "complete"
