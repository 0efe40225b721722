"""Provider output of any shape ends as a recorded provider failure (exit 3, audited), never `unexpected`."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from arborist.corpus import open_store
from arborist.governance.audit import list_events
from arborist.models.base import GenerationSettings, Message
from arborist.models.openai_compat import OpenAIProvider
from fault_server import FaultServer

QUESTION = "How long is the refund window for annual plans?"
Run = Callable[..., Result]


def body(choice: object = None, **extra: object) -> bytes:
    doc: dict[str, object] = {"choices": [choice if choice is not None else
                                          {"message": {"role": "assistant", "content": "{}"}, "finish_reason": "stop"}]}
    doc.update(extra)
    return json.dumps(doc).encode()


def nested(depth: int) -> bytes:
    return b'{"choices": ' + b"[" * depth + b"]" * depth + b"}"


HOSTILE: dict[str, bytes] = {
    "int-finish-reason": body({"message": {"content": "{}"}, "finish_reason": 7}),
    "list-finish-reason": body({"message": {"content": "{}"}, "finish_reason": ["stop"]}),
    "dict-content": body({"message": {"content": {"claims": []}}, "finish_reason": "stop"}),
    "message-is-a-string": body({"message": "hello", "finish_reason": "stop"}),
    "choices-is-a-dict": json.dumps({"choices": {"0": {}}}).encode(),
    "choice-is-a-number": json.dumps({"choices": [3]}).encode(),
    "deep-body": nested(100_000),
    "moderately-deep-body": nested(500),
    "deep-inside-usage": body(usage=json.loads("[" * 200 + "]" * 200)),
    "huge-body": b'{"choices": [{"message": {"content": "' + b"x" * (50 * 1024 * 1024) + b'"}}]}',  # 50 MB
    "top-level-list": b"[1, 2, 3]",
    "not-utf8": b"\xff\xfe\xfa{",
    "empty": b"",
}


@pytest.fixture
def server() -> Iterator[FaultServer]:
    srv = FaultServer().start()
    yield srv
    srv.stop()


@pytest.mark.parametrize("name", list(HOSTILE))
def test_provider_turns_any_body_into_a_recorded_failure(server: FaultServer, name: str) -> None:
    server.queue(HOSTILE[name])
    result = OpenAIProvider("m", server.base_url, retries=0).complete([Message(role="user", content="q")],
                                                                      GenerationSettings())
    assert result.error is not None and result.text == "" and "\n" not in result.error
    assert len(result.model_dump_json()) < 100_000  # what is kept is bounded


def test_a_huge_body_says_it_was_cut(server: FaultServer) -> None:
    server.queue(HOSTILE["huge-body"])
    result = OpenAIProvider("m", server.base_url, retries=0).complete([Message(role="user", content="q")],
                                                                      GenerationSettings())
    assert result.error is not None and "larger than" in result.error and "cut" in result.error


def test_lone_surrogates_are_replaced_not_fatal(server: FaultServer) -> None:
    server.queue(b'{"choices": [{"message": {"content": "a\\ud800b"}, "finish_reason": "stop"}]}')
    result = OpenAIProvider("m", server.base_url, retries=0).complete([Message(role="user", content="q")],
                                                                      GenerationSettings())
    assert result.error is None and result.text == "a\ufffdb"


def test_a_redirect_is_not_followed(server: FaultServer) -> None:
    server.queue("redirect")
    result = OpenAIProvider("m", server.base_url, retries=0).complete([Message(role="user", content="q")],
                                                                      GenerationSettings())
    assert result.error is not None and "redirect" in result.error and len(server.requests) == 1


@pytest.fixture
def db(tmp_path: Path, run_cli: Run) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "refund.md").write_text("# Refund Policy\n\nAnnual plans can be refunded within 30 days of purchase.\n")
    path = tmp_path / "p.db"
    assert run_cli("ingest", folder, "--db", path, "--no-embed").exit_code == 0
    return path


@pytest.mark.parametrize("name", ["int-finish-reason", "deep-body", "moderately-deep-body", "huge-body",
                                  "dict-content", "deep-inside-usage"])
def test_query_records_a_hostile_response_as_a_provider_failure(
    server: FaultServer, db: Path, run_cli: Run, name: str
) -> None:
    server.queue(HOSTILE[name])
    result = run_cli("query", QUESTION, "--db", db, "--base-url", server.base_url, "--model", "m",
                     "--routes", "bm25", "--retries", "0", "--json")
    assert result.exit_code == 3, result.output
    assert "unexpected" not in result.stderr
    record = json.loads(result.stdout)
    assert record["contract"]["reason"] == "PROVIDER_ERROR"
    with open_store(db) as s:
        [event] = list_events(s.db)
    assert event.body is not None and event.body["contract"] == "PROVIDER_ERROR"


@pytest.mark.parametrize("content", ["[" * 100_000, '{"claims": ' + "[" * 50_000 + "]" * 50_000 + "}",
                                     ('{"claims": [{"text": "\\ud800", "evidence_ids": ["E1"], "quote": "x"}], '
                                      '"abstained_requests": []}')])
def test_hostile_answer_text_is_a_contract_finding_not_a_crash(
    server: FaultServer, db: Path, run_cli: Run, content: str
) -> None:
    server.queue(body({"message": {"content": content}, "finish_reason": "stop"}))
    result = run_cli("query", QUESTION, "--db", db, "--base-url", server.base_url, "--model", "m",
                     "--routes", "bm25", "--retries", "0", "--json")
    assert result.exit_code == 0 and "unexpected" not in result.stderr, result.output
    assert json.loads(result.stdout)["verification"]["label"] != "STRICT"


@pytest.mark.parametrize("url", ["file:///etc/hostname", "ftp://127.0.0.1/v1", "127.0.0.1:8000/v1", "http://", "data:,x",
                                 "http://127.0.0.1:99999/v1", "http://127.0.0.1:port/v1"])
def test_non_http_base_urls_are_refused_up_front(db: Path, run_cli: Run, url: str) -> None:
    result = run_cli("query", QUESTION, "--db", db, "--base-url", url, "--model", "m")
    assert result.exit_code == 1 and result.stderr.startswith("Error: --base-url") and "http" in result.stderr
    with open_store(db) as s:
        assert list_events(s.db) == []


def test_a_non_finite_retry_after_is_ignored(server: FaultServer) -> None:
    server.retry_after = "nan"
    server.queue("429")
    slept: list[float] = []
    result = OpenAIProvider("m", server.base_url, retries=1, sleep=slept.append).complete(
        [Message(role="user", content="q")], GenerationSettings())
    assert result.error is None and slept == [0.5]


def test_a_question_that_is_not_utf8_is_refused_before_anything(db: Path, run_cli: Run) -> None:
    question = b"caf\xff".decode("utf-8", "surrogateescape")
    result = run_cli("query", question, "--db", db, "--model", "scripted", "--routes", "bm25")
    assert result.exit_code == 1 and "not valid UTF-8" in result.stderr
    with open_store(db) as s:
        assert list_events(s.db) == []
