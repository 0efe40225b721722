"""The OpenAI-compatible HTTP provider against a fault-injecting server and a real llama.cpp server.

Backoff is checked through an injected sleep, never by timing the test.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from arborist.errors import ArboristError
from arborist.models import profiles
from arborist.models.base import GenerationSettings, Message
from arborist.models.openai_compat import OpenAIProvider
from arborist.models.registry import make_provider
from arborist.policy.answer import build_policy, governance_policy_hash
from fault_server import FaultServer

MSGS = [Message(role="user", content="What is the answer?")]
SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string"}, "sure": {"type": "boolean"}},
    "required": ["answer", "sure"],
}


@pytest.fixture
def server() -> Iterator[FaultServer]:
    srv = FaultServer().start()
    yield srv
    srv.stop()


class Sleeps(list[float]):
    """Records the backoff delays instead of sleeping."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def provider(server: FaultServer, sleeps: Sleeps, **kwargs: object) -> OpenAIProvider:
    options: dict[str, object] = {"timeout": 5.0, "retries": 3, "sleep": sleeps}
    options.update(kwargs)
    return OpenAIProvider("test-model", server.base_url, **options)  # type: ignore[arg-type]


def test_success_records_text_usage_and_sends_schema(server: FaultServer) -> None:
    sleeps = Sleeps()
    result = provider(server, sleeps).complete(MSGS, GenerationSettings(max_tokens=33, seed=9), SCHEMA)

    assert result.error is None
    assert result.text == '{"answer": "42"}'
    assert (result.prompt_tokens, result.completion_tokens) == (11, 7)
    assert result.finish_reason == "stop" and result.attempts == 1
    assert result.provider == "openai" and result.model_id == f"test-model@{server.base_url}"
    assert result.raw is not None and "request_s" in result.timings
    assert sleeps == []
    [req] = server.requests
    assert req.path == "/v1/chat/completions"
    assert req.body["response_format"] == {"type": "json_object", "schema": SCHEMA}
    assert req.body["model"] == "test-model"
    assert req.body["messages"] == [{"role": "user", "content": "What is the answer?"}]
    assert (req.body["max_tokens"], req.body["seed"], req.body["temperature"]) == (33, 9, 0.0)
    assert "Authorization" not in req.headers


def test_no_schema_means_no_response_format(server: FaultServer) -> None:
    provider(server, Sleeps()).complete(MSGS, GenerationSettings())
    assert "response_format" not in server.requests[0].body


def test_api_key_comes_from_the_named_env_var(server: FaultServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBORIST_TEST_KEY", "sekrit")
    provider(server, Sleeps(), api_key_env="ARBORIST_TEST_KEY").complete(MSGS, GenerationSettings())
    assert server.requests[0].headers["Authorization"] == "Bearer sekrit"


def test_unset_api_key_env_is_a_configuration_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARBORIST_TEST_KEY", raising=False)
    with pytest.raises(ArboristError, match="ARBORIST_TEST_KEY"):
        OpenAIProvider("m", "http://127.0.0.1:1/v1", api_key_env="ARBORIST_TEST_KEY")


def test_persistent_500_is_retried_then_recorded(server: FaultServer) -> None:
    server.queue("500", "500", "500", "500")
    sleeps = Sleeps()
    result = provider(server, sleeps).complete(MSGS, GenerationSettings())

    assert result.text == "" and result.attempts == 4
    assert sleeps == [0.5, 1.0, 2.0]
    assert result.error is not None
    assert "HTTP 500" in result.error and "after 4 attempts" in result.error
    assert "\n" not in result.error
    assert len(server.requests) == 4


def test_429_then_success(server: FaultServer) -> None:
    server.queue("429")
    sleeps = Sleeps()
    result = provider(server, sleeps).complete(MSGS, GenerationSettings())
    assert result.error is None and result.attempts == 2
    assert sleeps == [0.5]


def test_retry_after_header_stretches_the_backoff(server: FaultServer) -> None:
    server.retry_after = "3"
    server.queue("429", "503")
    sleeps = Sleeps()
    result = provider(server, sleeps).complete(MSGS, GenerationSettings())
    assert result.error is None and result.attempts == 3
    assert sleeps == [3.0, 1.0]


def test_client_error_is_not_retried(server: FaultServer) -> None:
    server.queue("400")
    sleeps = Sleeps()
    result = provider(server, sleeps).complete(MSGS, GenerationSettings())
    assert result.attempts == 1 and sleeps == []
    assert result.error is not None and "HTTP 400" in result.error and "after 1 attempt" in result.error


def test_slow_server_times_out_and_is_retried(server: FaultServer) -> None:
    server.slow_seconds = 5.0
    server.queue("slow", "slow")
    sleeps = Sleeps()
    result = provider(server, sleeps, timeout=0.3, retries=1).complete(MSGS, GenerationSettings())
    assert result.attempts == 2 and sleeps == [0.5]
    assert result.error is not None and "timed out" in result.error and "after 2 attempts" in result.error


def test_a_slow_drip_cannot_outlast_the_timeout(server: FaultServer) -> None:
    # One byte every 0.5 s: every read returns in time, so a per-read timeout never fires (issue 34,
    # finding 5: no exit after 120 s). The deadline covers the whole request; the bound is generous.
    server.queue("drip")
    started = time.monotonic()
    result = provider(server, Sleeps(), timeout=3.0, retries=0).complete(MSGS, GenerationSettings())
    elapsed = time.monotonic() - started
    assert result.error is not None and "timed out after 3 s" in result.error and result.attempts == 1
    assert elapsed < 10, f"a 3 s deadline took {elapsed:.1f} s"


def test_credentials_in_the_base_url_are_sent_but_never_shown(server: FaultServer) -> None:
    url = server.base_url.replace("http://", "http://alice:s3cr%40t@")
    client = OpenAIProvider("test-model", url, timeout=5.0, retries=0)
    server.queue("500")
    result = client.complete(MSGS, GenerationSettings())
    assert server.requests[0].headers["Authorization"] == "Basic " + base64.b64encode(b"alice:s3cr@t").decode()
    assert result.error is not None and "HTTP 500" in result.error
    shown = " ".join([result.error, client.url, client.model_id, json.dumps(result.model_dump(mode="json"))])
    assert "s3cr" not in shown and "alice" not in shown
    with pytest.raises(ArboristError) as refused:
        OpenAIProvider("m", "ftp://alice:s3cret@host/v1")
    assert "s3cret" not in str(refused.value) and "alice:***@host" in str(refused.value)


def test_slow_then_fast_recovers(server: FaultServer) -> None:
    server.slow_seconds = 5.0
    server.queue("slow")
    result = provider(server, Sleeps(), timeout=0.3).complete(MSGS, GenerationSettings())
    assert result.error is None and result.attempts == 2


def test_dropped_connection_is_retried(server: FaultServer) -> None:
    server.queue("drop")
    sleeps = Sleeps()
    result = provider(server, sleeps).complete(MSGS, GenerationSettings())
    assert result.error is None and result.attempts == 2 and sleeps == [0.5]


def test_dropped_every_time_gives_a_one_line_error(server: FaultServer) -> None:
    server.queue("drop", "drop", "drop")
    result = provider(server, Sleeps(), retries=2).complete(MSGS, GenerationSettings())
    assert result.attempts == 3
    assert result.error is not None and "connection dropped" in result.error and "\n" not in result.error


@pytest.mark.parametrize(("behaviour", "fragment"), [("malformed", "not JSON"), ("no_choices", "choices")])
def test_malformed_body_is_an_error_completion(server: FaultServer, behaviour: str, fragment: str) -> None:
    server.queue(behaviour)
    sleeps = Sleeps()
    result = provider(server, sleeps).complete(MSGS, GenerationSettings())
    assert result.text == "" and result.attempts == 1 and sleeps == []
    assert result.error is not None and "malformed response" in result.error and fragment in result.error


def test_refused_connection_after_bounded_retries() -> None:
    with socket.socket() as sock:  # a port that nothing listens on once closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    sleeps = Sleeps()
    result = OpenAIProvider("m", f"http://127.0.0.1:{port}/v1", retries=2, sleep=sleeps).complete(
        MSGS, GenerationSettings()
    )
    assert result.attempts == 3 and sleeps == [0.5, 1.0]
    assert result.error is not None and "connection failed" in result.error


def test_registry_builds_http_provider_and_needs_a_model(server: FaultServer) -> None:
    built = make_provider("remote", server.base_url, None, 3.0, 1)
    assert isinstance(built, OpenAIProvider)
    assert (built.timeout, built.retries, built.url) == (3.0, 1, server.base_url + "/chat/completions")
    with pytest.raises(ArboristError, match="--model"):
        make_provider(None, server.base_url, None, 3.0, 1)


# --- a real llama.cpp server -------------------------------------------------------------


def _fail_or_skip(message: str, required: bool) -> None:
    if required:
        pytest.fail(message)
    pytest.skip(message)


def model_or_skip(profile: str) -> Path:
    """The prepared model's path; skip if absent, unless ARBORIST_REQUIRE_MODELS asks to fail."""
    required = os.environ.get("ARBORIST_REQUIRE_MODELS", "") not in {"", "0"}
    prof = profiles.get_profile(profile)
    state = profiles.status(prof)
    if state != "ready":
        message = f"model {profile} is {state}; run `arborist models prepare {profile}`"
        _fail_or_skip(message, required)
    try:
        import llama_cpp.server  # noqa: F401
    except ImportError:
        message = "llama-cpp-python[server] is not installed"
        _fail_or_skip(message, required)
    return prof.path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until_up(proc: subprocess.Popen[bytes], url: str, limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"llama_cpp.server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as resp:
                if resp.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"llama_cpp.server did not answer {url} within {limit:g} s")


@pytest.mark.model
def test_real_llama_cpp_server_returns_schema_valid_json(tmp_path: Path) -> None:
    path = model_or_skip("smollm2-135m")
    port = _free_port()
    log = (tmp_path / "server.log").open("wb")
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(path), "--model_alias", "smollm2-135m",
           "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048", "--n_threads", "2"]
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_until_up(proc, f"http://127.0.0.1:{port}/v1/models")
        client = OpenAIProvider("smollm2-135m", f"http://127.0.0.1:{port}/v1", timeout=300, retries=0)
        messages = [
            Message(role="system", content="Reply with JSON only."),
            Message(role="user", content="Is Paris the capital of France? Give the answer and whether you are sure."),
        ]
        result = client.complete(messages, GenerationSettings(max_tokens=64), SCHEMA)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()

    assert result.error is None, (result.error, (tmp_path / "server.log").read_text(errors="replace")[-2000:])
    assert result.finish_reason == "stop", result.text
    data = json.loads(result.text, strict=False)  # the grammar may let raw control characters into strings
    assert set(data) == {"answer", "sure"}
    assert isinstance(data["answer"], str) and isinstance(data["sure"], bool)
    assert result.prompt_tokens and result.completion_tokens


@pytest.mark.parametrize(("base_url", "label"), [
    ("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1"),
    ("HTTPS://Example.org/v1/", "https://example.org/v1"),
    ("http://user:secret@127.0.0.1:8000/v1?key=k", "http://127.0.0.1:8000/v1"),  # no credential is recorded
    ("http://[::1]:9000/v1", "http://[::1]:9000/v1"),
])
def test_the_model_identity_names_the_server_without_credentials(base_url: str, label: str) -> None:
    provider = OpenAIProvider("m", base_url)
    assert provider.model_id == f"m@{label}"


def test_two_servers_serving_one_model_name_never_share_an_answer(server: FaultServer) -> None:
    here, there = OpenAIProvider("m", server.base_url), OpenAIProvider("m", "http://127.0.0.2:9/v1")
    hashes = {governance_policy_hash(build_policy(model_id=f"{p.name}:{p.model_id}")) for p in (here, there)}
    assert len(hashes) == 2
    server.reply = '{"claims": []}'
    here.complete([Message(role="user", content="q")], GenerationSettings())
    assert server.requests[0].body["model"] == "m"  # the server is still asked for its own name
