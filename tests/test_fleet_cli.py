"""The fleet from the command line: `--server`, `--servers-file`, `--per-server` on every command that asks a
model, one-line errors for bad input, and what a run records and `lab status` prints.

The servers are real HTTP servers on 127.0.0.1 (tests/fault_server.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from arborist.lab.checks import validate_run
from arborist.lab.report import load_rows
from fault_server import FaultServer
from test_fleet import echo_servers, inputs  # noqa: F401 -- the fixtures are used by name
from test_lab import LEXICAL, QUESTIONS

ASKING = [("query",), ("ask",), ("lab", "run"), ("lab", "sweep"), ("lab", "layout-bench"), ("lab", "sentinel-run")]


def lexical_flags() -> list[str]:
    return [f for k, v in LEXICAL.items() for f in (f"--{k}", v)]


@pytest.mark.parametrize("command", ASKING, ids=" ".join)
def test_every_command_that_asks_a_model_takes_the_fleet_options(
        command: tuple[str, ...], run_cli: Callable[..., Result]) -> None:
    result = run_cli(*command, "--help")
    assert result.exit_code == 0, result.output
    assert "--server URL" in result.output and "--servers-file" in result.output and "--per-server" in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["--server", "ftp://127.0.0.1/v1", "-m", "m"], "--server 'ftp://127.0.0.1/v1' is not an http(s) URL"),
    (["--server", "http://127.0.0.1:9/v1", "-m", "qwen2.5-1.5b"], "--model 'qwen2.5-1.5b' is a local profile"),
    (["--server", "http://127.0.0.1:9/v1", "-m", "weights.gguf"], "--model 'weights.gguf' is a .gguf file"),
    (["--server", "http://127.0.0.1:9/v1", "-m", "scripted"], "--model 'scripted' is the scripted test model"),
    (["--server", "http://127.0.0.1:9/v1"], "a server fleet needs --model"),
    (["--server", "http://127.0.0.1:9/v1", "-m", "m", "--base-url", "http://127.0.0.1:8/v1"],
     "give --base-url or several servers, not both"),
])
def test_bad_fleet_input_is_one_line_and_exits_non_zero(
        args: list[str], message: str, run_cli: Callable[..., Result], demo_db: Path) -> None:
    result = run_cli("query", "Who?", "--db", demo_db, *args)
    assert result.exit_code != 0
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr


def test_a_servers_file_without_a_server_or_with_a_bad_url_is_refused(
        tmp_path: Path, run_cli: Callable[..., Result], demo_db: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("# nobody\n\n")
    result = run_cli("query", "Who?", "--db", demo_db, "-m", "m", "--servers-file", empty)
    assert result.exit_code != 0 and f"servers file '{empty}' names no server" in result.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("http://127.0.0.1:8001/v1\n# comment\nfile:///etc/passwd\n")
    result = run_cli("query", "Who?", "--db", demo_db, "-m", "m", "--servers-file", bad)
    assert result.exit_code != 0 and result.stderr.count("\n") == 1
    assert f"line 3 of servers file '{bad}': 'file:///etc/passwd' is not an http(s) URL" in result.stderr


def test_query_over_a_fleet_names_the_server_that_answered(
        echo_servers: list[FaultServer], run_cli: Callable[..., Result], demo_db: Path) -> None:  # noqa: F811
    result = run_cli("query", "What is the capital of France?", "--db", demo_db, "-m", "m", "--json",
                     *[f for s in echo_servers for f in ("--server", s.base_url)], "--per-server", "1")
    assert result.exit_code == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["completion"]["server"] in {s.base_url for s in echo_servers}
    assert record["policy"]["model_id"] == "openai:m@fleet"
    assert sum(len(s.requests) for s in echo_servers) == 1


def test_lab_run_over_a_servers_file_records_the_fleet_and_status_counts_rows_per_server(
        tmp_path: Path, inputs: tuple[Path, Path], echo_servers: list[FaultServer],  # noqa: F811
        run_cli: Callable[..., Result]) -> None:
    listing = tmp_path / "servers.txt"
    listing.write_text("# the fleet\n" + "".join(f"{s.base_url}\n" for s in echo_servers))
    corpus, evaluation = inputs
    result = run_cli("lab", "run", "--corpus", corpus, "--evaluation", evaluation, "--out", tmp_path / "runs",
                     "--cache-directory", tmp_path / "cache", "-m", "m", "--servers-file", listing,
                     "--per-server", "3", *lexical_flags(), "--json")
    assert result.exit_code == 0, result.stderr
    run_dir = Path(json.loads(result.stdout)["run_dir"])
    cfg = json.loads((run_dir / "config.json").read_text())
    assert cfg["model"]["servers"] == [s.base_url for s in echo_servers] and cfg["model"]["per_server"] == 3
    assert cfg["generation_workers"] == 6  # by default the fleet's capacity: 2 servers x 3
    rows = load_rows(run_dir)[0]
    assert len(rows) == len(QUESTIONS) and all(c.ok for c in validate_run(run_dir))
    by_server: dict[str, int] = {}
    for r in rows:
        assert r.server is not None
        by_server[r.server] = by_server.get(r.server, 0) + 1
    status = run_cli("lab", "status", run_dir)
    assert status.exit_code == 0, status.stderr
    assert "rows by server: " + " · ".join(f"{k} {v}" for k, v in sorted(by_server.items())) in status.stdout
    as_json = json.loads(run_cli("lab", "status", run_dir, "--json").stdout)
    assert as_json["rows_by_server"] == by_server


def test_a_continued_fleet_run_goes_back_to_its_servers(
        tmp_path: Path, inputs: tuple[Path, Path], echo_servers: list[FaultServer],  # noqa: F811
        run_cli: Callable[..., Result]) -> None:
    """A continued run takes the fleet from config.json unless --server names another (servers change no row)."""
    corpus, evaluation = inputs
    first, second = echo_servers
    first.queue(*["503"] * 50)  # every call of the first run fails: its rows are recorded failures
    result = run_cli("lab", "run", "--corpus", corpus, "--evaluation", evaluation, "--out", tmp_path / "runs",
                     "--cache-directory", tmp_path / "cache", "-m", "m", "--server", first.base_url,
                     "--retries", "0", *lexical_flags(), "--json")
    assert result.exit_code != 0
    old = Path(json.loads(result.stdout)["run_dir"])
    result = run_cli("lab", "run", "--continue-from", old, "--server", second.base_url, "--json")
    assert result.exit_code == 0, result.stderr
    new = Path(json.loads(result.stdout)["run_dir"])
    assert {r.server for r in load_rows(new)[0]} == {second.base_url}
    assert json.loads((new / "config.json").read_text())["model"]["servers"] == [second.base_url]


def test_a_ray_address_without_the_ray_executor_is_refused(
        tmp_path: Path, inputs: tuple[Path, Path], run_cli: Callable[..., Result]) -> None:  # noqa: F811
    corpus, evaluation = inputs
    result = run_cli("lab", "run", "--corpus", corpus, "--evaluation", evaluation, "--out", tmp_path / "runs",
                     "-m", "scripted", "--ray-address", "127.0.0.1:6379")
    assert result.exit_code != 0 and result.stderr == "Error: --ray-address needs --executor ray\n"
    assert not (tmp_path / "runs").exists()
