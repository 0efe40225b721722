"""The lab's Ray executor on a real local Ray cluster (head on this machine, 2 CPUs: two worker processes),
against fake OpenAI-compatible servers on 127.0.0.1 (tests/fault_server.py). Never a mock of Ray.

No assertion depends on how long anything took: the worker is killed when a server hears its first request
(the task has started and is mid-call), and is found among this test process's own descendants.
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

from arborist.corpus.store import open_store
from arborist.governance.audit import verify_chain
from arborist.lab.checks import validate_run
from arborist.lab.report import load_rows
from arborist.lab.runner import RunRequest, execute, plan_run, store_path
from arborist.models.fleet import ServerFleet
from arborist.models.registry import ProviderRecipe
from arborist.policy.answer import AnswerPolicy
from fault_server import FaultServer
from ray_workers import ray_workers_of_this_process
from test_fleet import echo_servers, inputs  # noqa: F401 -- the fixtures are used by name
from test_lab import LEXICAL, QUESTIONS

ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'arborist[ray]')")
from arborist.lab.ray_executor import RayExecutor  # noqa: E402 -- only once ray is known to import

SAMPLES = 2
VOLATILE = {"run_id", "record_id", "produced_by_run", "timings", "provider_timings", "server", "worker", "trace"}


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def run(tmp_path: Path, inputs: tuple[Path, Path], name: str, urls: list[str],  # noqa: F811
        executor: RayExecutor | None, workers: int) -> Path:
    req = RunRequest(run_root=tmp_path / name, corpus=inputs[0], evaluation=inputs[1],
                     cache_directory=tmp_path / name / "cache", policy_values={**LEXICAL, "temperature": 0.7},
                     generation_workers=workers, samples=SAMPLES)
    provider = ServerFleet("m", urls, per_server=1)
    outcome = execute(plan_run(req, provider), provider, executor=executor)
    assert outcome.status.state == "complete", outcome.status.message
    return outcome.run_dir


def stable(run_dir: Path) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.model_dump(mode="json").items() if k not in VOLATILE} for r in load_rows(run_dir)[0]]


def audited(tmp_path: Path, name: str, run_dir: Path) -> bool:
    cfg = json.loads((run_dir / "config.json").read_text())
    policy = AnswerPolicy.model_validate(cfg["arms"][0]["policy"])
    with open_store(store_path(tmp_path / name / "cache", cfg["corpus_digest"], policy.chunking)) as store:
        return verify_chain(store.db).ok


def test_a_ray_run_writes_the_rows_an_in_process_run_writes(
        cluster: None, tmp_path: Path, inputs: tuple[Path, Path], echo_servers: list[FaultServer]) -> None:  # noqa: F811
    urls = [s.base_url for s in echo_servers]
    here = run(tmp_path, inputs, "here", urls, None, workers=1)
    executor = RayExecutor(ProviderRecipe("m", servers=tuple(urls), per_server=1))
    there = run(tmp_path, inputs, "ray", urls, executor, workers=2)
    assert stable(there) == stable(here)
    rows = load_rows(there)[0]
    assert all(r.worker is not None and r.worker.split("/pid")[1].isdigit() for r in rows)
    status = json.loads((there / "status.json").read_text())
    assert sum(status["rows_by_worker"].values()) == len(rows) == len(QUESTIONS) * SAMPLES
    cfg = json.loads((there / "config.json").read_text())
    assert cfg["executor"] == {"kind": "ray", "address": ray.get_runtime_context().gcs_address}
    assert json.loads((here / "config.json").read_text())["executor"] == {"kind": "inprocess", "address": None}
    assert all(c.ok for c in validate_run(there)) and audited(tmp_path, "ray", there)


def test_a_worker_killed_mid_task_is_retried_and_every_row_is_written_once(
        cluster: None, tmp_path: Path, inputs: tuple[Path, Path], echo_servers: list[FaultServer]) -> None:  # noqa: F811
    urls = [s.base_url for s in echo_servers]
    here = run(tmp_path, inputs, "here", urls, None, workers=1)
    killed: list[int] = []

    def kill_a_worker() -> None:
        """At the first request a task is running and mid-call: SIGKILL one worker running a task."""
        if not killed:
            victims = ray_workers_of_this_process()
            assert victims, "no Ray worker of this test is running a task"
            killed.append(victims[0])
            os.kill(victims[0], signal.SIGKILL)

    for s in echo_servers:
        s.on_request = kill_a_worker
    executor = RayExecutor(ProviderRecipe("m", servers=tuple(urls), per_server=1))
    there = run(tmp_path, inputs, "ray", urls, executor, workers=2)
    rows = load_rows(there)[0]
    assert killed and all(f"/pid{killed[0]}" not in (r.worker or "") for r in rows)
    assert len(rows) == len({r.key for r in rows}) == len(QUESTIONS) * SAMPLES
    assert all(r.contract.reason != "PROVIDER_ERROR" for r in rows)
    assert stable(there) == stable(here)
    assert all(c.ok for c in validate_run(there)), [c for c in validate_run(there) if not c.ok]
    assert audited(tmp_path, "ray", there)


def test_lab_run_with_the_ray_executor_records_it_and_status_counts_rows_per_worker(
        cluster: None, tmp_path: Path, inputs: tuple[Path, Path], echo_servers: list[FaultServer],  # noqa: F811
        run_cli: Callable[..., Result]) -> None:
    """The CLI joins the Ray connection this process already has (the module's cluster)."""
    corpus, evaluation = inputs
    result = run_cli("lab", "run", "--corpus", corpus, "--evaluation", evaluation, "--out", tmp_path / "runs",
                     "--cache-directory", tmp_path / "cache", "-m", "m", "--executor", "ray",
                     *[f for s in echo_servers for f in ("--server", s.base_url)], "--routes", LEXICAL["routes"], "--json")
    assert result.exit_code == 0, result.stderr
    run_dir = Path(json.loads(result.stdout)["run_dir"])
    assert json.loads((run_dir / "config.json").read_text())["executor"]["kind"] == "ray"
    workers: dict[str, int] = {}
    for r in load_rows(run_dir)[0]:
        assert r.worker is not None
        workers[r.worker] = workers.get(r.worker, 0) + 1
    status = run_cli("lab", "status", run_dir)
    assert "rows by worker: " + " · ".join(f"{k} {v}" for k, v in sorted(workers.items())) in status.stdout
    assert ray.is_initialized()  # a cluster the command joined is not the command's to stop


def test_a_ray_address_that_does_not_answer_is_a_one_line_error_after_the_connect_deadline(
        tmp_path: Path, inputs: tuple[Path, Path]) -> None:  # noqa: F811
    """Nothing listens on port 1: the run gives up after --ray-connect-timeout (Ray alone kept trying for 10
    minutes, warning every 40 s), in a fresh process, so no Ray connection of this one is in the way."""
    corpus, evaluation = inputs
    started = time.monotonic()
    done = subprocess.run([str(Path(sys.executable).parent / "arborist"), "lab", "run", "--corpus", str(corpus),
                           "--evaluation", str(evaluation), "--out", str(tmp_path / "runs"), "-m", "scripted",
                           "--executor", "ray", "--ray-address", "127.0.0.1:1", "--ray-connect-timeout", "2"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1, done.stderr
    assert time.monotonic() - started < 90  # the deadline, Ray's import and this machine's load; not 10 minutes
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("Error: ") and "127.0.0.1:1" in last and "--ray-connect-timeout" in last, done.stderr
    assert not list((tmp_path / "runs").glob("*/config.json"))  # no run directory for a run that never started


def test_ctrl_c_while_joining_a_ray_address_stops_at_once(tmp_path: Path, inputs: tuple[Path, Path]) -> None:  # noqa: F811
    """Ray's join runs in a call Ctrl-C could not interrupt (27 s); now the command waits for it in short slices.
    Whenever the signal lands (importing, joining), the command exits 130 at once."""
    corpus, evaluation = inputs
    proc = subprocess.Popen([str(Path(sys.executable).parent / "arborist"), "lab", "run", "--corpus", str(corpus),
                             "--evaluation", str(evaluation), "--out", str(tmp_path / "runs"), "-m", "scripted",
                             "--executor", "ray", "--ray-address", "127.0.0.1:1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(4)  # most likely inside the join by now; any moment must do
        interrupted = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert time.monotonic() - interrupted < 10 and proc.returncode == 130, err
