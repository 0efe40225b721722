"""Options shared by the commands that answer (query, ask): model and policy knobs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from arborist.answer.modes import MODES
from arborist.corpus.chunking import ChunkingSettings
from arborist.governance.policy import AnswerPolicy, build_policy
from arborist.models.base import GenerationSettings, Provider
from arborist.models.openai_compat import DEFAULT_RETRIES, DEFAULT_TIMEOUT
from arborist.models.profiles import DEFAULT_PROFILE
from arborist.models.registry import make_provider
from arborist.prompting.layouts import LAYOUTS
from arborist.retrieval.routes import route_names
from arborist.retrieval.search import DEFAULT_ROUTES, SearchSettings, parse_routes

F = TypeVar("F", bound=Callable[..., Any])

_OPTIONS = [
    click.option("--model", "model", default=None,
                 help=f"Local profile or .gguf path (default {DEFAULT_PROFILE}); with --base-url, the server's model name."),
    click.option("--base-url", default=None, help="OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1."),
    click.option("--api-key-env", default=None, help="Environment variable holding the server's API key."),
    click.option("--timeout", default=DEFAULT_TIMEOUT, show_default=True, type=click.FloatRange(0.1), help="Seconds per HTTP request."),
    click.option("--retries", default=DEFAULT_RETRIES, show_default=True, type=click.IntRange(0, 20), help="HTTP retries on 429/5xx/connection errors."),
    click.option("--user-payload-layout", "layout", default="tail", show_default=True, type=click.Choice(LAYOUTS),
                 help="Where the question goes relative to the evidence."),
    click.option("--mode", default="claim_lattice", show_default=True, type=click.Choice(MODES), help="Answer shape."),
    click.option("--retrieve-k", default=20, show_default=True, type=click.IntRange(1, 10_000), help="Ranked chunks retrieved."),
    click.option("--evidence-k", default=5, show_default=True, type=click.IntRange(1, 1000), help="Chunks selected from the top of the ranking."),
    click.option("--context-runes", default=12_000, show_default=True, type=click.IntRange(100), help="Rune budget for admitted evidence."),
    click.option("--routes", default=",".join(DEFAULT_ROUTES), show_default=True, help=f"Retrieval routes; valid: {', '.join(route_names())}."),
    click.option("--temperature", default=0.0, show_default=True, type=click.FloatRange(0, 2)),
    click.option("--max-tokens", default=512, show_default=True, type=click.IntRange(1, 32_768), help="Generation limit."),
    click.option("--seed", default=0, show_default=True, type=int),
    click.option("--grounded-quotes", is_flag=True,
                 help="quote/claim_lattice: constrain every quote to one sentence of the block it cites."),
    click.option("--demote-missed-answer", is_flag=True,
                 help="Let the missed-answer guard set audit mode EVIDENCE-MISSED-PARTIAL (it never changes the label)."),
    click.option("--burn", is_flag=True, help="Bypass the answer cache; store the fresh answer."),
    click.option("--sample-index", default=0, show_default=True, type=click.IntRange(0),
                 help="Cache slot when sampling several answers to one question (temperature > 0)."),
]


def answer_options(fn: F) -> F:
    for option in reversed(_OPTIONS):
        fn = option(fn)
    return fn


def provider_and_policy(opts: dict[str, Any], chunking: ChunkingSettings | None) -> tuple[Provider, AnswerPolicy]:
    """Build the provider first: its model id is part of the policy (and its hash)."""
    provider = make_provider(
        opts["model"], base_url=opts["base_url"], api_key_env=opts["api_key_env"],
        timeout=opts["timeout"], retries=opts["retries"],
    )
    policy = build_policy(
        search=SearchSettings(k=opts["retrieve_k"], routes=parse_routes(opts["routes"])),
        evidence_k=opts["evidence_k"],
        context_runes=opts["context_runes"],
        chunking=chunking or ChunkingSettings(),
        layout=opts["layout"],
        mode=opts["mode"],
        model_id=f"{provider.name}:{provider.model_id}",
        generation=GenerationSettings(temperature=opts["temperature"], max_tokens=opts["max_tokens"], seed=opts["seed"]),
        grounded_quotes=opts["grounded_quotes"],
    )
    return provider, policy


def pop_answer_options(kwargs: dict[str, Any]) -> dict[str, Any]:
    names = ("model", "base_url", "api_key_env", "timeout", "retries", "layout", "mode", "retrieve_k",
             "evidence_k", "context_runes", "routes", "temperature", "max_tokens", "seed",
             "grounded_quotes", "demote_missed_answer", "burn", "sample_index")
    return {n: kwargs.pop(n) for n in names}
