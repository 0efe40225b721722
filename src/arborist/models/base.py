"""The provider interface: messages + optional JSON schema + settings -> Completion.

One method per provider, so a new backend is a small class. Providers never
raise on a failed call after their own retries: the failure comes back as a
Completion with `error` set, so the answer record keeps it.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field


class Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Literal["system", "user", "assistant"]
    content: str


class GenerationSettings(BaseModel):
    """Every knob that changes output; part of the governance policy hash."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    max_tokens: int = Field(default=512, ge=1, le=32_768)
    seed: int = 0
    top_p: float = Field(default=1.0, gt=0.0, le=1.0)


class Completion(BaseModel):
    """What one provider call produced (or why it produced nothing)."""

    text: str = ""
    model_id: str
    provider: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached_prompt_tokens: int | None = Field(
        default=None, description="prompt tokens not evaluated again (reused KV state of a matching prefix)"
    )
    timings: dict[str, float] = Field(default_factory=dict, description="seconds, by phase")
    finish_reason: str | None = None
    error: str | None = Field(default=None, description="set when the call failed; text is then empty")
    attempts: int = 1
    server: str | None = Field(
        default=None, description="the server that answered (scheme, host, port, path; no credentials); "
        "None for an in-process model")
    raw: dict[str, Any] | None = Field(default=None, description="provider response body, when there is one")
    replayed_from: str | None = Field(
        default=None, description="the replay key this completion was served from (the lab's completion cache); "
        "None when the provider produced it for this call"
    )


def chat_request(
    messages: list[Message], settings: GenerationSettings, json_schema: dict[str, Any] | None
) -> dict[str, Any]:
    """The chat-completion arguments every backend shares (llama.cpp and OpenAI-style servers).

    A schema goes inside `json_object`: llama.cpp (in-process and its server)
    accepts that, not OpenAI's `json_schema`.
    """
    request: dict[str, Any] = {
        "messages": [m.model_dump() for m in messages],
        "temperature": settings.temperature,
        "max_tokens": settings.max_tokens,
        "top_p": settings.top_p,
        "seed": settings.seed,
    }
    if json_schema is not None:
        request["response_format"] = {"type": "json_object", "schema": json_schema}
    return request


def scrub_surrogates(obj: Any) -> Any:
    """Lone surrogates (JSON can escape them: "\\ud800") become U+FFFD in every string of `obj`,
    so provider output can always be stored, hashed and printed as UTF-8."""
    if isinstance(obj, str):
        try:
            obj.encode("utf-8")
        except UnicodeEncodeError:
            return obj.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        return obj
    if isinstance(obj, dict):
        return {scrub_surrogates(k): scrub_surrogates(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [scrub_surrogates(v) for v in obj]
    return obj


@runtime_checkable
class Abortable(Protocol):
    """A provider whose calls in flight can be ended from another thread (a served model: its sockets are shut
    down); an in-process model's call ends with the thread that makes it."""

    def abort(self) -> None: ...


def abort_calls(provider: object) -> None:
    """End `provider`'s calls in flight and refuse new ones, if it can (a stopped run must not wait for them)."""
    if isinstance(provider, Abortable):
        provider.abort()


class Provider(Protocol):
    """A model backend. `model_id` names the exact weights or remote model."""

    name: str
    model_id: str

    def complete(
        self,
        messages: list[Message],
        settings: GenerationSettings,
        json_schema: dict[str, Any] | None = None,
    ) -> Completion: ...
