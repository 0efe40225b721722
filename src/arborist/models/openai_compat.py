"""Any OpenAI-compatible `/chat/completions` server (llama.cpp server, vLLM, Ollama, hosted).

Uses the standard library (urllib) so the HTTP provider adds no dependency.
Transient failures (429, 5xx, refused/dropped connections, timeouts) are
retried a bounded number of times with exponential backoff; anything else, and
the last transient failure, comes back as a Completion with `error` set, so a
flaky server shows up in the answer record instead of crashing a batch.
"""

from __future__ import annotations

import http.client
import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arborist.errors import ArboristError
from arborist.models.base import Completion, GenerationSettings, Message, chat_request

DEFAULT_TIMEOUT = 120.0
DEFAULT_RETRIES = 3
BACKOFF_BASE = 0.5
MAX_RETRY_AFTER = 30.0


@dataclass(frozen=True)
class _Failure:
    """Why one attempt failed, and whether trying again could help."""

    message: str
    retryable: bool
    retry_after: float | None = None


def _one_line(text: str, limit: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _retry_after(value: str | None) -> float | None:
    try:
        return min(max(float(value), 0.0), MAX_RETRY_AFTER) if value else None
    except ValueError:
        return None  # an HTTP date; fall back to our own backoff


class OpenAIProvider:
    """POSTs chat requests to `{base_url}/chat/completions`; never raises on a failed call."""

    name = "openai"

    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        api_key_env: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        retries: int = DEFAULT_RETRIES,
        backoff: float = BACKOFF_BASE,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not model:
            raise ArboristError("the HTTP provider needs a model name (--model) for the server")
        if retries < 0:
            raise ArboristError(f"retries must be 0 or more, not {retries}")
        self.model_id = model
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self._sleep = sleep
        self._api_key: str | None = None
        if api_key_env:
            self._api_key = os.environ.get(api_key_env)
            if not self._api_key:
                raise ArboristError(f"environment variable {api_key_env} (the API key) is not set")

    def _body(
        self, messages: list[Message], settings: GenerationSettings, json_schema: dict[str, Any] | None
    ) -> bytes:
        body = {"model": self.model_id, **chat_request(messages, settings, json_schema)}
        return json.dumps(body).encode("utf-8")

    def _post(self, data: bytes) -> tuple[dict[str, Any] | None, _Failure | None]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        request = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as resp:
                payload = resp.read()
        except urllib.error.HTTPError as exc:
            detail = _one_line(exc.read().decode("utf-8", "replace")) if exc.fp else ""
            status = exc.code
            retryable = status == 429 or status >= 500
            after = _retry_after(exc.headers.get("Retry-After")) if exc.headers else None
            return None, _Failure(f"HTTP {status}" + (f" ({detail})" if detail else ""), retryable, after)
        except TimeoutError:  # socket.timeout is an alias
            return None, _Failure(f"timed out after {self.timeout:g} s", True)
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                return None, _Failure(f"timed out after {self.timeout:g} s", True)
            return None, _Failure(f"connection failed ({_one_line(str(exc.reason))})", True)
        except (http.client.HTTPException, ConnectionError) as exc:
            return None, _Failure(f"connection dropped ({type(exc).__name__})", True)
        try:
            parsed = json.loads(payload)
        except ValueError:
            return None, _Failure(f"malformed response: not JSON ({_one_line(payload.decode('utf-8', 'replace'), 80)})", False)
        if not isinstance(parsed, dict):
            return None, _Failure("malformed response: not a JSON object", False)
        return parsed, None

    def complete(
        self,
        messages: list[Message],
        settings: GenerationSettings,
        json_schema: dict[str, Any] | None = None,
    ) -> Completion:
        data = self._body(messages, settings, json_schema)
        started = time.monotonic()
        attempt = 0
        while True:
            attempt += 1
            t0 = time.monotonic()
            parsed, failure = self._post(data)
            timings = {"request_s": time.monotonic() - t0, "total_s": time.monotonic() - started}
            if failure is None and parsed is not None:
                return self._completion(parsed, attempt, timings)
            assert failure is not None
            if not failure.retryable or attempt > self.retries:
                return Completion(
                    model_id=self.model_id,
                    provider=self.name,
                    error=f"POST {self.url} failed: {failure.message} after {attempt} attempt{'s' if attempt > 1 else ''}",
                    attempts=attempt,
                    timings=timings,
                )
            delay = self.backoff * 2 ** (attempt - 1)
            if failure.retry_after is not None:
                delay = max(delay, failure.retry_after)
            self._sleep(delay)

    def _completion(self, body: dict[str, Any], attempts: int, timings: dict[str, float]) -> Completion:
        try:
            choice = body["choices"][0]
            text = choice["message"].get("content") or ""
            if not isinstance(text, str):
                raise TypeError("content is not a string")
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            return Completion(
                model_id=self.model_id,
                provider=self.name,
                error=f"POST {self.url} failed: malformed response: no choices[0].message.content ({type(exc).__name__})",
                attempts=attempts,
                timings=timings,
                raw=body,
            )
        usage: dict[str, Any] = body["usage"] if isinstance(body.get("usage"), dict) else {}
        return Completion(
            text=text,
            model_id=self.model_id,
            provider=self.name,
            prompt_tokens=_int_or_none(usage.get("prompt_tokens")),
            completion_tokens=_int_or_none(usage.get("completion_tokens")),
            timings=timings,
            finish_reason=choice.get("finish_reason"),
            attempts=attempts,
            raw=body,
        )


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
