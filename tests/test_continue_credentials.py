"""Credentials of a served model across `--continue-from` (issue 49): a continued run asks for them again, never
sends the masked value the run directory holds, and no password or query string is written anywhere.

The server is a real HTTP server on 127.0.0.1 (tests/fault_server.py) that records each request's headers.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from arborist.models.openai_compat import redact_url
from fault_server import FaultServer
from test_fleet import echo_question, inputs  # noqa: F401 -- the fixture is used by name
from test_fleet_cli import lexical_flags

PASSWORD = "s3cret-Pw"
QUERY_KEY = "QK-9f2e-secret"


@pytest.fixture
def server() -> Iterator[FaultServer]:
    srv = FaultServer(reply_for=echo_question).start()
    yield srv
    srv.stop()


def with_password(server: FaultServer, password: str = PASSWORD) -> str:
    return server.base_url.replace("http://", f"http://alice:{password}@")


def basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def failed_run(tmp_path: Path, inputs: tuple[Path, Path], server: FaultServer,  # noqa: F811
               run_cli: Callable[..., Result], *extra: str) -> Path:
    """A run whose every call failed (its rows are recorded failures, to be asked again by a continuation)."""
    server.queue(*["503"] * 50)
    corpus, evaluation = inputs
    result = run_cli("lab", "run", "--corpus", corpus, "--evaluation", evaluation, "--out", tmp_path / "runs",
                     "--cache-directory", tmp_path / "cache", "-m", "m", "--retries", "0", *lexical_flags(),
                     "--json", *extra)
    assert result.exit_code != 0 and result.stdout, result.stderr
    server._queue.clear()
    return Path(json.loads(result.stdout)["run_dir"])


def written(tmp_path: Path) -> str:
    """Every byte the runs wrote (run directories, cache, audit), as text."""
    return "\n".join(p.read_bytes().decode("utf-8", "replace") for p in tmp_path.rglob("*")
                     if p.is_file() and "inputs" not in p.parts[-2:-1])


def test_a_continued_run_asks_for_the_password_again_and_never_sends_the_mask(
        tmp_path: Path, inputs: tuple[Path, Path], server: FaultServer,  # noqa: F811
        run_cli: Callable[..., Result]) -> None:
    old = failed_run(tmp_path, inputs, server, run_cli, "--base-url", with_password(server))
    assert {r.headers.get("Authorization") for r in server.requests} == {basic("alice", PASSWORD)}
    assert PASSWORD not in written(tmp_path)
    server.requests.clear()

    asked = run_cli("lab", "run", "--continue-from", old)
    assert asked.exit_code != 0 and asked.stderr.count("\n") == 1, asked.stderr
    assert "--base-url" in asked.stderr and "password" in asked.stderr, asked.stderr
    assert not server.requests  # nothing was sent, least of all the mask

    elsewhere = with_password(server).replace("127.0.0.1", "localhost")
    moved = run_cli("lab", "run", "--continue-from", old, "--base-url", elsewhere)
    assert moved.exit_code != 0 and moved.stderr.count("\n") == 1 and "same server" in moved.stderr, moved.stderr
    assert not server.requests

    done = run_cli("lab", "run", "--continue-from", old, "--base-url", with_password(server), "--json")
    assert done.exit_code == 0, done.stderr
    assert server.requests and {r.headers.get("Authorization") for r in server.requests} == {basic("alice", PASSWORD)}
    new = Path(json.loads(done.stdout)["run_dir"])
    cfg = json.loads((new / "config.json").read_text())
    assert cfg["model"]["base_url"] == redact_url(with_password(server)) and PASSWORD not in written(tmp_path)


@pytest.mark.parametrize(("query", "masked"), [(f"api_key={QUERY_KEY}", "api_key=***"), (QUERY_KEY, "***")],
                         ids=["key=value", "a bare token"])
def test_a_query_string_is_masked_like_a_password_and_asked_for_again(
        tmp_path: Path, inputs: tuple[Path, Path], server: FaultServer,  # noqa: F811
        run_cli: Callable[..., Result], query: str, masked: str) -> None:
    url = f"{server.base_url}?{query}"
    old = failed_run(tmp_path, inputs, server, run_cli, "--base-url", url)
    assert all(r.path.endswith(f"?{query}") for r in server.requests)
    assert QUERY_KEY not in written(tmp_path)
    assert json.loads((old / "config.json").read_text())["model"]["base_url"].endswith(f"?{masked}")
    server.requests.clear()
    asked = run_cli("lab", "run", "--continue-from", old)
    assert asked.exit_code != 0 and "--base-url" in asked.stderr and not server.requests, asked.stderr
    done = run_cli("lab", "run", "--continue-from", old, "--base-url", url)
    assert done.exit_code == 0, done.stderr
    assert server.requests and all(r.path.endswith(f"?{query}") for r in server.requests)
    assert QUERY_KEY not in written(tmp_path)


def test_a_continued_run_reads_the_api_key_variable_it_was_started_with(
        tmp_path: Path, inputs: tuple[Path, Path], server: FaultServer,  # noqa: F811
        run_cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARB_TEST_KEY", "key-one")
    old = failed_run(tmp_path, inputs, server, run_cli, "--base-url", server.base_url, "--api-key-env", "ARB_TEST_KEY")
    assert "key-one" not in written(tmp_path)
    server.requests.clear()
    monkeypatch.delenv("ARB_TEST_KEY")
    asked = run_cli("lab", "run", "--continue-from", old)
    assert asked.exit_code != 0 and "ARB_TEST_KEY" in asked.stderr and not server.requests, asked.stderr
    monkeypatch.setenv("ARB_TEST_KEY", "key-two")
    done = run_cli("lab", "run", "--continue-from", old)
    assert done.exit_code == 0, done.stderr
    assert {r.headers.get("Authorization") for r in server.requests} == {"Bearer key-two"}


def test_redact_url_masks_passwords_and_query_values() -> None:
    assert redact_url("http://u:p@h:1/v1?api_key=K&x=1#f") == "http://u:***@h:1/v1?api_key=***&x=***#f"
    assert redact_url("http://h/v1?token") == "http://h/v1?***"  # a bare token is a secret, not a key
    assert redact_url("http://h/v1?a=1&SECRETTOKEN&b") == "http://h/v1?a=***&***&***"
    assert redact_url(redact_url("http://h/v1?SECRETTOKEN")) == "http://h/v1?***"
    assert redact_url("http://h/v1") == "http://h/v1"
    assert redact_url(redact_url("http://u:p@h/v1?k=v")) == "http://u:***@h/v1?k=***"


def test_no_model_spec_holds_a_secret_whoever_builds_it() -> None:
    """`lab layout-bench` built its ModelSpec from the raw --base-url: the spec masks it itself now."""
    from arborist.lab.config import ModelSpec

    spec = ModelSpec(model="m", base_url="http://u:pw@h:1/v1?api_key=K", provider="openai", model_id="openai:m@x")
    assert spec.base_url == "http://u:***@h:1/v1?api_key=***"
    assert "pw" not in spec.model_dump_json() and "=K" not in spec.model_dump_json()
