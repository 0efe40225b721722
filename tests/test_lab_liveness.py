"""A run killed with SIGKILL reads as `dead` everywhere (list, status, validate, the viewer), with the command
that continues it; status.json counts reused rows as they are reused.

The killed run is a real `arborist` process answering through a real HTTP server on 127.0.0.1 that holds
its second request open, so the process is killed mid-run with one row on disk.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from arborist.lab import rundir
from arborist.lab.checks import list_runs, run_state, validate_run
from arborist.lab.runner import execute, plan_run
from arborist.lab.viewer.load import list_root, load_run
from arborist.models.base import Completion, GenerationSettings, Message
from arborist.models.scripted import ScriptedProvider
from fault_server import FaultServer
from test_lab import GOOD, claim, do_run, inputs, request  # noqa: F401  (inputs is a fixture)

Run = Callable[..., Result]
SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.fixture
def server() -> Iterator[FaultServer]:
    srv = FaultServer(reply=claim("Paris is the capital of France."), slow_seconds=120).start()
    yield srv
    srv.stop()


def wait_for(what: Callable[[], bool], proc: subprocess.Popen[str], limit_s: float = 120) -> None:
    """Poll until `what` holds (a deadline against a hung test, not a timing assertion)."""
    deadline = time.monotonic() + limit_s
    while not what():
        if proc.poll() is not None:
            raise AssertionError(f"the run ended early: {proc.communicate()}")
        if time.monotonic() > deadline:
            raise AssertionError("the run did not get there in time")
        time.sleep(0.1)


@pytest.fixture
def killed_run(tmp_path: Path, inputs: tuple[Path, Path], server: FaultServer) -> Path:  # noqa: F811
    """A run SIGKILLed while its second row waits on the server: one row on disk, status.json `running`."""
    server.queue("ok", "slow")
    runs = tmp_path / "runs"
    proc = subprocess.Popen(
        [sys.executable, "-c", "from arborist.cli import main; main()", "lab", "run",
         "--corpus", str(inputs[0]), "--evaluation", str(inputs[1]), "--out", str(runs),
         "--cache-directory", str(tmp_path / "cache"), "--routes", "bm25", "--model", "served",
         "--base-url", server.base_url, "--retries", "0", "--timeout", "300"],
        env={**os.environ, "PYTHONPATH": str(SRC)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: len(server.requests) >= 2, proc)
        (run_dir,) = list(runs.iterdir())
        wait_for(lambda: len(rundir.read_rows(run_dir / rundir.ROWS)[0]) == 1, proc)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    status = json.loads((run_dir / "status.json").read_text())
    assert status["state"] == "running" and status["pid"] == proc.pid
    return run_dir


def test_a_killed_run_reads_dead_in_list_status_validate_and_the_viewer(killed_run: Path, run_cli: Run) -> None:
    continue_cmd = f"arborist lab run --continue-from {killed_run.resolve()}"
    (listed,) = list_runs(killed_run.parent)
    assert (listed.state, listed.rows_done, listed.continue_command) == ("dead", 1, continue_cmd)
    text = run_cli("lab", "list", killed_run.parent)
    assert " dead " in text.stdout and f"continue: {continue_cmd}" in text.stdout

    st = run_state(killed_run)
    assert (st.state, st.recorded_state, st.rows_done, st.rows_total) == ("dead", "running", 1, 4)
    shown = run_cli("lab", "status", killed_run)
    assert shown.exit_code == 0 and "state: dead (status.json says running" in shown.stdout
    assert f"continue: {continue_cmd}" in shown.stdout

    checks = {c.name: c for c in validate_run(killed_run)}
    assert not checks["status"].ok and checks["status"].detail.startswith("state dead")
    assert continue_cmd in checks["status"].detail
    checked = run_cli("lab", "validate", killed_run)
    # no count reads -1 (the run's path is left out: pytest's temporary folders are named pytest-1NN)
    shown_counts = checked.stdout.replace(str(killed_run.resolve()), "RUN").replace(str(killed_run), "RUN")
    assert checked.exit_code == 1 and "-1" not in shown_counts, checked.stdout
    assert "FAIL totals agree [claim_lattice]" in checked.stdout and "never did" in checked.stdout

    page = load_run(killed_run)
    assert page["status"]["state"] == "dead" and continue_cmd in page["status"]["message"]
    assert [r["state"] for r in list_root(killed_run.parent)["runs"]] == ["dead"]


class ReadsStatusFirst:
    """A provider that reads status.json when the first provider call of a run is made, then answers."""

    def __init__(self, inner: ScriptedProvider, runs: Path) -> None:
        self.inner, self.runs = inner, runs
        self.name, self.model_id = inner.name, inner.model_id
        self.seen: dict[str, Any] | None = None

    def complete(self, messages: list[Message], settings: GenerationSettings,
                 json_schema: dict[str, Any] | None = None) -> Completion:
        if self.seen is None:
            newest = max(self.runs.iterdir())
            self.seen = json.loads((newest / "status.json").read_text())
        return self.inner.complete(messages, settings, json_schema)


def test_status_counts_reused_rows_before_the_first_provider_call(
    tmp_path: Path, inputs: tuple[Path, Path],  # noqa: F811
) -> None:
    first, status, _ = do_run(request(tmp_path, inputs, generation_budget=2), *GOOD)
    assert status.state == "budget_exhausted" and status.rows_done == 2
    provider = ReadsStatusFirst(ScriptedProvider(*GOOD[2:]), tmp_path / "runs")
    outcome = execute(plan_run(request(tmp_path, inputs, continue_from=first), provider), provider)
    assert provider.seen is not None
    assert (provider.seen["rows_reused"], provider.seen["rows_done"]) == (2, 2)
    assert (outcome.status.rows_reused, outcome.status.rows_done, outcome.status.state) == (2, 4, "complete")


def test_a_sweep_whose_process_is_gone_reads_dead_in_the_viewer(
    tmp_path: Path, inputs: tuple[Path, Path],  # noqa: F811
) -> None:
    import dataclasses

    from arborist.lab.sweep import execute_sweep, plan_sweep
    from arborist.lab.viewer.load import load_sweep_dir

    provider = ScriptedProvider(*GOOD, *GOOD)
    base = dataclasses.replace(request(tmp_path, inputs), run_root=tmp_path / "sweeps")
    sweep_dir = execute_sweep(plan_sweep(base, "evidence-k=1,3", provider), provider).sweep_dir
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # a real pid, reaped: nothing runs under it now
    record = json.loads((sweep_dir / "sweep.json").read_text())
    (sweep_dir / "sweep.json").write_text(json.dumps({**record, "state": "running", "pid": gone.pid}))
    shown = load_sweep_dir(sweep_dir)["record"]
    assert shown["state"] == "dead" and f"--continue-from {sweep_dir.resolve()}" in shown["message"]
    assert [s["state"] for s in list_root(sweep_dir.parent)["sweeps"]] == ["dead"]
