"""Flat option values (CLI flags, lab configurations) -> an AnswerPolicy.

One table names each option, the policy field it sets and what it does;
defaults are read from the policy model itself, so a default lives in one
place (the model) and every command that answers shows the same one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from arborist.corpus.chunking import ChunkingSettings
from arborist.policy.answer import AnswerPolicy, build_policy
from arborist.retrieval.search import parse_routes


@dataclass(frozen=True)
class PolicyOption:
    """One flat option: `name` (a Python identifier, `--name-with-dashes` on the CLI) sets `path` in the policy."""

    name: str
    path: tuple[str, ...]
    help: str
    flag: str | None = None

    @property
    def cli_flag(self) -> str:
        return self.flag or "--" + self.name.replace("_", "-")

    @property
    def default(self) -> Any:
        return policy_default(self.path)

    @property
    def bounds(self) -> tuple[float | None, float | None]:
        """(minimum, maximum) the policy model accepts, from its field constraints."""
        return policy_bounds(self.path)


POLICY_OPTIONS: tuple[PolicyOption, ...] = (
    PolicyOption("retrieve_k", ("search", "k"), "Ranked chunks retrieved."),
    PolicyOption("routes", ("search", "routes"), "Comma-separated retrieval routes to fuse."),
    PolicyOption("evidence_k", ("evidence_k",), "Chunks selected from the top of the ranking (EvidenceK)."),
    PolicyOption("context_runes", ("context_runes",), "Rune budget for admitted evidence."),
    PolicyOption("chunk_runes", ("chunking", "chunk_runes"), "Chunk size in runes."),
    PolicyOption("overlap_runes", ("chunking", "overlap_runes"), "Overlap between chunks in runes."),
    PolicyOption("layout", ("layout",), "Where the question goes relative to the evidence.",
                 flag="--user-payload-layout"),
    PolicyOption("mode", ("mode",), "Answer shape."),
    PolicyOption("temperature", ("generation", "temperature"), "Sampling temperature."),
    PolicyOption("max_tokens", ("generation", "max_tokens"), "Generation limit."),
    PolicyOption("seed", ("generation", "seed"), "Sampling seed (sample i of several uses seed + i)."),
    PolicyOption("repair", ("repair",), "What the answer path does with the verifier's findings: snap quotes "
                 "and re-attribute claims (snap), one revision turn (revise), both (all), or nothing (none)."),
    PolicyOption("grounded_quotes", ("grounded_quotes",),
                 "quote/claim_lattice: constrain every quote to one sentence of the block it cites."),
)
OPTIONS_BY_NAME = {o.name: o for o in POLICY_OPTIONS}
CHUNKING_OPTIONS = ("chunk_runes", "overlap_runes")


def policy_default(path: tuple[str, ...]) -> Any:
    """The default of the policy field at `path`, read from the models (nested defaults included)."""
    value = _field(path[:1]).get_default(call_default_factory=True)
    for step in path[1:]:
        value = getattr(value, step)
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return value


def _field(path: tuple[str, ...]) -> FieldInfo:
    model: type[BaseModel] = AnswerPolicy
    field = model.model_fields[path[0]]
    for step in path[1:]:
        annotation = field.annotation
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            raise TypeError(f"policy field {'.'.join(path)}: {field.annotation} has no field {step!r}")
        model = annotation
        field = model.model_fields[step]
    return field


def policy_bounds(path: tuple[str, ...]) -> tuple[float | None, float | None]:
    low: float | None = None
    high: float | None = None
    for meta in _field(path).metadata:
        low = getattr(meta, "ge", low)
        high = getattr(meta, "le", high)
    return low, high


def policy_from_options(
    values: Mapping[str, Any], model_id: str, chunking: ChunkingSettings | None = None
) -> AnswerPolicy:
    """The policy the options describe; options absent or None keep the model's default.

    `chunking` is the chunking the store was built with (the query path
    answers from an existing store); chunking options, when given, win.
    Bad values raise InputError with a one-line message.
    """
    nested: dict[str, Any] = {}
    if chunking is not None:
        nested["chunking"] = chunking.model_dump()
    for opt in POLICY_OPTIONS:
        value = values.get(opt.name)
        if value is None:
            continue
        if opt.name == "routes" and isinstance(value, str):
            value = parse_routes(value)
        node = nested
        for step in opt.path[:-1]:
            node = node.setdefault(step, {})
        node[opt.path[-1]] = value
    return build_policy(model_id=model_id, **nested)
