"""Options shared by the commands that answer (query, ask): model and policy knobs.

The policy options themselves are built in `policy_options` (which `search` uses alone, without the
verifier and model registry this module brings in); `policy_option` and `routes_option` are re-exported.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from arborist.cli.policy_options import F, policy_option, routes_option
from arborist.corpus.chunking import ChunkingSettings
from arborist.entailment import CONTROL_KINDS, DEFAULT_CONTROL, DEFAULT_ENTAILMENT, spec_from_options
from arborist.entailment.factory import DEFAULT_JUDGE_PROFILE, DEFAULT_THRESHOLD
from arborist.governance.options import (
    CHUNKING_OPTIONS,
    OPTIONS_BY_NAME,
    POLICY_OPTIONS,
    policy_from_options,
)
from arborist.models.base import Provider
from arborist.models.fleet import DEFAULT_PER_SERVER, fleet_urls
from arborist.models.openai_compat import DEFAULT_DEADLINE, DEFAULT_RETRIES, DEFAULT_TIMEOUT
from arborist.models.profiles import DEFAULT_PROFILE
from arborist.models.registry import ProviderRecipe, make_provider
from arborist.policy.answer import AnswerPolicy
from arborist.policy.answerability import AnswerabilityPolicy
from arborist.verify import VerifierPolicy
from arborist.verify.judge import ENTAILMENT_KINDS, JudgeSpec

__all__ = ["policy_option", "routes_option"]  # re-exported from policy_options

# A fleet of OpenAI-compatible servers serving one model (models.fleet). Not among MODEL_OPTION_NAMES: which
# servers answered never changes a row (a fleet's model id is the model's), so a continued run may use others.
FLEET_OPTIONS = [
    click.option("--server", "servers", multiple=True, metavar="URL",
                 help="An OpenAI-compatible server of a fleet, e.g. http://gpu-1:8000/v1 (repeatable): calls "
                 "spread over the servers, a failed call moves to another; --model names the model they serve."),
    click.option("--servers-file", type=click.Path(path_type=Path, dir_okay=False),
                 help="A file of fleet servers: one base URL a line, # comments (added to any --server)."),
    click.option("--per-server", type=click.IntRange(1, 1024), default=DEFAULT_PER_SERVER, show_default=True,
                 help="Requests in flight on each fleet server."),
]
# One call's overall deadline (every retry, every move to another server): like the fleet options it never
# changes a row, so it is not among MODEL_OPTION_NAMES and a continued run may be given another.
DEADLINE_OPTION = click.option(
    "--deadline", default=DEFAULT_DEADLINE, show_default=True, type=click.FloatRange(0.1), metavar="SECONDS",
    help="Overall deadline in seconds for one call to a served model: its retries and, over a fleet, its moves "
    "to other servers.")
FLEET_OPTION_NAMES = ("servers", "servers_file", "per_server", "deadline")
MODEL_OPTIONS = [
    click.option("-m", "--model", "model", default=None,
                 help=f"Local profile or .gguf path (default {DEFAULT_PROFILE}); with --base-url, the server's model name."),
    click.option("--base-url", default=None, help="OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1."),
    click.option("--api-key-env", default=None, help="Environment variable holding the server's API key."),
    click.option("--timeout", default=DEFAULT_TIMEOUT, show_default=True, type=click.FloatRange(0.1), help="Deadline in seconds for each HTTP request (connect, headers and body)."),
    click.option("--retries", default=DEFAULT_RETRIES, show_default=True, type=click.IntRange(0, 20), help="HTTP retries on 429/5xx/connection errors."),
    DEADLINE_OPTION,
    *FLEET_OPTIONS,
]
MODEL_OPTION_NAMES = ("model", "base_url", "api_key_env", "timeout", "retries")
# The missed-answer guard's knob (its own answerability policy and hash): toggling it re-audits a cached answer,
# never regenerates it, and changes neither the verifier's hash nor the governance hash.
_DEMOTE = click.option("--demote-missed-answer", is_flag=True,
                       help="Let the missed-answer guard set audit mode EVIDENCE-MISSED-PARTIAL (it never changes the label).")
_RULE13 = VerifierPolicy.model_fields["answerability_threshold"]
# A verifier knob too: changing it re-verifies a cached answer. Its default and meaning live in the policy model.
_ANSWERABILITY = click.option(
    "--answerability-threshold", type=click.FloatRange(0.0, 1.0), default=_RULE13.default, show_default=True,
    help=f"{_RULE13.description}.")
# The verifier's entailment judge (stage 3): part of the verifier policy, so toggling it re-verifies a cached answer.
ENTAILMENT_OPTIONS = [
    click.option("--entailment", type=click.Choice(ENTAILMENT_KINDS), default=DEFAULT_ENTAILMENT, show_default=True,
                 help="The judge that may accept a claim its genuine quote states in other words (rule vetoes still "
                 "apply): local (a pinned GGUF), openai (a served model), none (rules only)."),
    click.option("--entailment-model", default=None,
                 help=f"The judge's model: a local profile (default {DEFAULT_JUDGE_PROFILE}) or the served model's name."),
    click.option("--entailment-threshold", type=click.FloatRange(0.0, 1.0), default=None,
                 help=f"Judge score that accepts a claim (default {DEFAULT_THRESHOLD})."),
    click.option("--entailment-url", default=None, help="With --entailment openai: the judge's server, e.g. "
                 "http://127.0.0.1:8001/v1."),
    click.option("--entailment-control", type=click.Choice(CONTROL_KINDS), default=DEFAULT_CONTROL, show_default=True,
                 help="A second reading the judge's acceptance must also pass: hypothesis_only (the claim must score "
                 "well above its score without the passage), contradiction (the judge must deny that the passage "
                 "contradicts the claim or leaves it open), states (the judge must say the passage states exactly "
                 "the claim), none."),
]
ENTAILMENT_OPTION_NAMES = ("entailment", "entailment_model", "entailment_threshold", "entailment_url",
                           "entailment_control")
# How far a judged claim may carry an answer: a verifier knob (its default and meaning live in the policy model).
_JUDGED_FIELD = VerifierPolicy.model_fields["judged_claims"]
JUDGED_OPTION = click.option(
    "--judged-claims", type=click.Choice(typing.get_args(_JUDGED_FIELD.annotation)), default=_JUDGED_FIELD.default,
    show_default=True, help=f"How far a claim the entailment judge accepted may carry an answer: "
    f"{_JUDGED_FIELD.description.split(': ', 1)[1] if _JUDGED_FIELD.description else ''}.")
_BURN = click.option("--burn", is_flag=True, help="Bypass the answer cache; store the fresh answer.")
burn_option = _BURN  # `lab repair` takes it without the rest of the answering options
_SAMPLE_INDEX = click.option("--sample-index", default=0, show_default=True, type=click.IntRange(0),
                             help="Cache slot when sampling several answers to one question (temperature > 0).")


show_prompt_option = click.option("--show-prompt", is_flag=True, help="Print the exact messages sent to the model.")


def apply_options(fn: F, options: list[Callable[[F], F]]) -> F:
    """Apply option decorators in the order listed (the first is the first in --help)."""
    for option in reversed(options):
        fn = option(fn)
    return fn


def answer_options(fn: F) -> F:
    """Model and policy options of `query` and `ask` (their chunking is the store's)."""
    policy = [policy_option(o) for o in POLICY_OPTIONS if o.name not in CHUNKING_OPTIONS]
    return apply_options(fn, [*MODEL_OPTIONS, *policy, _DEMOTE, _ANSWERABILITY, *ENTAILMENT_OPTIONS, JUDGED_OPTION,
                              _BURN, _SAMPLE_INDEX])


def run_options(fn: F) -> F:
    """Model and every policy option (chunking included), for commands that build their own stores."""
    return apply_options(fn, [*MODEL_OPTIONS, *[policy_option(o) for o in POLICY_OPTIONS], _DEMOTE, _ANSWERABILITY,
                              *ENTAILMENT_OPTIONS, JUDGED_OPTION, _BURN])


def recipe_from(opts: dict[str, Any], model: str | None = None) -> ProviderRecipe:
    """The provider the model options describe, as a value (`model` replaces --model: a judge's own model on
    the same server or fleet). Bad URLs and servers files are refused here."""
    return ProviderRecipe(model or opts["model"], base_url=opts["base_url"], api_key_env=opts["api_key_env"],
                          timeout=opts["timeout"], retries=opts["retries"],
                          servers=tuple(fleet_urls(opts["servers"], opts["servers_file"])),
                          per_server=opts["per_server"], deadline=opts["deadline"])


def make_provider_from(opts: dict[str, Any], model: str | None = None) -> Provider:
    return make_provider(**recipe_from(opts, model).arguments())


def provider_and_policy(opts: dict[str, Any], chunking: ChunkingSettings | None) -> tuple[Provider, AnswerPolicy]:
    """Build the provider first: its model id is part of the policy (and its hash)."""
    provider = make_provider_from(opts)
    return provider, policy_from_options(opts, f"{provider.name}:{provider.model_id}", chunking)


def pop_options(kwargs: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    return {n: kwargs.pop(n) for n in names if n in kwargs}


def pop_answer_options(kwargs: dict[str, Any]) -> dict[str, Any]:
    return pop_options(kwargs, (*MODEL_OPTION_NAMES, *FLEET_OPTION_NAMES, *OPTIONS_BY_NAME, "demote_missed_answer", "answerability_threshold",
                                *ENTAILMENT_OPTION_NAMES, "judged_claims", "burn", "sample_index"))


def verifier_from(opts: dict[str, Any]) -> VerifierPolicy:
    """The verifier knobs `query`, `ask` and the lab take: toggling them re-verifies a cached answer, never
    regenerates it."""
    return VerifierPolicy(answerability=AnswerabilityPolicy(demote_missed_answer=opts["demote_missed_answer"]),
                          answerability_threshold=opts["answerability_threshold"], entailment=entailment_from(opts),
                          judged_claims=opts["judged_claims"])


def entailment_from(opts: dict[str, Any]) -> JudgeSpec | None:
    """The judge spec the --entailment options name (None for none)."""
    return spec_from_options(opts["entailment"], opts["entailment_model"], opts["entailment_threshold"],
                             opts["entailment_url"], opts["entailment_control"])
