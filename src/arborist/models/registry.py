"""Turns the CLI's model options into a Provider, importing only the backend asked for."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arborist.errors import ArboristError
from arborist.models.base import Provider
from arborist.models.fleet import DEFAULT_PER_SERVER
from arborist.models.openai_compat import DEFAULT_DEADLINE, DEFAULT_RETRIES, DEFAULT_TIMEOUT
from arborist.models.profiles import DEFAULT_PROFILE, PROFILES, get_profile


def make_provider(
    model: str | None,
    base_url: str | None = None,
    api_key_env: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    retries: int = DEFAULT_RETRIES,
    servers: Sequence[str] = (),
    per_server: int = DEFAULT_PER_SERVER,
    deadline: float = DEFAULT_DEADLINE,
) -> Provider:
    """servers -> a fleet of HTTP servers (models.fleet); base_url -> one HTTP server (model names the
    server's model); "scripted" -> test double; otherwise a local profile name or a .gguf path (default
    profile when None)."""
    if servers:
        from arborist.models.fleet import ServerFleet

        if base_url:
            raise ArboristError("give --base-url or several servers, not both")
        if not model:
            raise ArboristError("a server fleet needs --model: the model name the servers should use")
        _check_served_name(model)
        return ServerFleet(model, servers, per_server=per_server, api_key_env=api_key_env, timeout=timeout,
                           retries=retries, deadline=deadline)
    if base_url:
        from arborist.models.openai_compat import OpenAIProvider

        if not model:
            raise ArboristError("--base-url needs --model: the model name the server should use")
        return OpenAIProvider(model, base_url, api_key_env=api_key_env, timeout=timeout, retries=retries,
                              deadline=deadline)
    if model == "scripted":
        from arborist.models.scripted import ScriptedProvider

        return ScriptedProvider()
    spec = model or DEFAULT_PROFILE
    if not spec.endswith(".gguf"):
        get_profile(spec)  # unknown names fail here, before llama_cpp is imported
    from arborist.models.local import LocalProvider

    return LocalProvider(spec)


@dataclass(frozen=True)
class ProviderRecipe:
    """make_provider's arguments as a value: another process (a Ray worker) builds its own provider from it,
    since a provider (a loaded model, open connections) cannot travel. It may carry a URL's credentials:
    keep it in memory, never write it (a run's config.json holds ModelSpec, redacted)."""

    model: str | None
    base_url: str | None = None
    api_key_env: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    retries: int = DEFAULT_RETRIES
    servers: tuple[str, ...] = ()
    per_server: int = DEFAULT_PER_SERVER
    deadline: float = DEFAULT_DEADLINE

    def arguments(self) -> dict[str, Any]:
        """make_provider's keyword arguments."""
        return dataclasses.asdict(self)

    def build(self) -> Provider:
        return make_provider(**self.arguments())


def _check_served_name(model: str) -> None:
    """A fleet's --model names the model its servers serve: a local model (a profile, a .gguf file, the
    scripted double) there means the user asked for two different things."""
    local = ("a .gguf file" if model.endswith(".gguf") else "the scripted test model" if model == "scripted"
             else "a local profile" if model in PROFILES else None)
    if local is not None:
        raise ArboristError(f"--model '{model}' is {local}, but --server sends every call to the servers; give the "
                            "model name the servers serve (vLLM --served-model-name, llama.cpp --model_alias), or "
                            "drop --server to answer locally")
