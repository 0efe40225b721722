"""A run says how it ended: `failed` when no row has an answer, `complete` with a warning and exit 6 when some
rows or judge calls failed, and the counts in status.json and summary.md.

The model servers here are real: a closed port on 127.0.0.1 (nothing listens) and an HTTP server on
127.0.0.1 that answers some requests with errors.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from arborist.lab.runner import COMPLETE_WITH_FAILURES
from fault_server import FaultServer
from test_lab import claim, inputs  # noqa: F401  (inputs is a fixture)

Run = Callable[..., Result]


@pytest.fixture
def server() -> Iterator[FaultServer]:
    srv = FaultServer(reply=claim("Paris is the capital of France.")).start()
    yield srv
    srv.stop()


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def http_run(run_cli: Run, tmp_path: Path, inputs: tuple[Path, Path], base_url: str, *extra: str) -> Result:  # noqa: F811
    return run_cli("lab", "run", "--corpus", inputs[0], "--evaluation", inputs[1],
                   "--out", tmp_path / "runs", "--cache-directory", tmp_path / "cache", "--routes", "bm25",
                   "--model", "served-model", "--base-url", base_url, "--retries", "0", "--timeout", "5", *extra)


def only_run(tmp_path: Path) -> Path:
    (run_dir,) = [p for p in (tmp_path / "runs").iterdir() if p.is_dir()]
    return run_dir


def test_a_run_whose_every_row_failed_is_failed_with_one_line_and_exit_1(
    run_cli: Run, tmp_path: Path, inputs: tuple[Path, Path],  # noqa: F811
) -> None:
    result = http_run(run_cli, tmp_path, inputs, f"http://127.0.0.1:{closed_port()}/v1")
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()  # progress lines, then the verdict: one line
    assert lines[-1].startswith("Error: the run failed: every row failed"), result.stderr
    assert [line for line in lines if line.startswith(("Error", "Warning"))] == lines[-1:]
    status = json.loads((only_run(tmp_path) / "status.json").read_text())
    assert (status["state"], status["exit_code"], status["rows_failed"], status["rows_done"]) == ("failed", 1, 4, 4)
    assert "**4 of 4 rows failed:**" in (only_run(tmp_path) / "summary.md").read_text()


def test_a_run_with_some_failed_rows_is_complete_with_a_warning_and_exit_6(
    run_cli: Run, tmp_path: Path, inputs: tuple[Path, Path], server: FaultServer,  # noqa: F811
) -> None:
    server.queue("ok", "500", "ok", "ok")
    result = http_run(run_cli, tmp_path, inputs, server.base_url, "--json")
    assert result.exit_code == COMPLETE_WITH_FAILURES == 6
    assert result.stderr.strip().splitlines()[-1].startswith("Warning: the run is complete, but 1 of 4 rows failed")
    status = json.loads(result.stdout)["status"]
    assert (status["state"], status["rows_failed"], status["exit_code"]) == ("complete", 1, 6)
    assert json.loads((only_run(tmp_path) / "status.json").read_text())["rows_failed"] == 1
    assert "**1 of 4 rows failed:**" in (only_run(tmp_path) / "summary.md").read_text()


def test_a_judge_that_fails_makes_the_run_exit_6_with_its_count(
    run_cli: Run, tmp_path: Path, inputs: tuple[Path, Path], server: FaultServer,  # noqa: F811
) -> None:
    server.queue("ok", "500", "500")  # the answer, then both judge calls of it
    result = http_run(run_cli, tmp_path, inputs, server.base_url, "--limit", "1", "--judge")
    assert result.exit_code == 6, result.stderr
    assert "the judge failed on 1 of 1 rows" in result.stderr
    status = json.loads((only_run(tmp_path) / "status.json").read_text())
    assert (status["state"], status["rows_failed"], status["judge_failed"]) == ("complete", 0, 1)
    assert "**The judge failed on 1 of 1 rows**" in (only_run(tmp_path) / "summary.md").read_text()
