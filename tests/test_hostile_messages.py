"""Row 11 of issue 49: what a careless user or a broken server gets is a one-line error naming the real option or
the damaged thing, never "unexpected ValueError"; a 200 whose body is cut short is retried like a dropped
connection. (The viewer's cases are in tests/test_viewer_hostile.py.)"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from arborist.models.base import GenerationSettings, Message
from arborist.models.openai_compat import OpenAIProvider
from fault_server import FaultServer

ASK = [Message(role="system", content="be brief"), Message(role="user", content="hi")]


@pytest.fixture
def server() -> Iterator[FaultServer]:
    srv = FaultServer().start()
    yield srv
    srv.stop()


@pytest.mark.parametrize(("args", "option"), [
    (["-m", "m", "--base-url", "http://[::1/v1"], "--base-url"),
    (["-m", "m", "--server", "http://[::1/v1"], "--server"),
    (["-m", "m", "--base-url", "http://alice:pw@[::1/v1?api_key=K"], "--base-url"),
    (["-m", "scripted", "--entailment", "openai", "--entailment-model", "j", "--entailment-url",
      "file:///etc/passwd"], "--entailment-url"),
    (["-m", "scripted", "--entailment", "openai", "--entailment-model", "j", "--entailment-url", "http://[::1/v1"],
     "--entailment-url"),
])
def test_a_bad_url_is_one_line_naming_its_option(
        args: list[str], option: str, run_cli: Callable[..., Result], demo_db: Path) -> None:
    result = run_cli("query", "Who?", "--db", demo_db, *args)
    assert result.exit_code != 0 and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"Error: {option} '") and "unexpected" not in result.stderr, result.stderr
    assert "pw" not in result.stderr and "=K" not in result.stderr


def test_a_bad_entailment_url_is_named_by_verify_too(
        tmp_path: Path, run_cli: Callable[..., Result], write_json: Callable[[str, object], Path]) -> None:
    case = write_json("case.json", {"question": "q?", "mode": "claim_lattice", "evidence": [],
                                    "answer": {"claims": [], "abstained_requests": []}})
    result = run_cli("verify", case, "--entailment", "openai", "--entailment-model", "j", "--entailment-url",
                     "file:///etc/passwd")
    assert result.exit_code != 0 and result.stderr.startswith("Error: --entailment-url '"), result.stderr


def test_a_200_cut_short_is_retried_like_a_dropped_connection(server: FaultServer) -> None:
    server.queue("truncated", "ok")
    done = OpenAIProvider("m", server.base_url, retries=1, sleep=lambda _s: None).complete(ASK, GenerationSettings())
    assert done.error is None and done.attempts == 2 and len(server.requests) == 2
    server.queue("truncated")
    failed = OpenAIProvider("m", server.base_url, retries=0).complete(ASK, GenerationSettings())
    assert failed.error is not None and "connection dropped" in failed.error and "short" in failed.error
