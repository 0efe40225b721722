"""The answer policy: every knob that changes an answer, typed and versioned.

`governance_policy_hash` covers all of it and partitions the answer cache;
a verifier change has its own hash so re-verifying never looks like a new
answer, and a layout change never changes the verifier hash.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from arborist.corpus.chunking import ChunkingSettings
from arborist.errors import InputError
from arborist.models.base import GenerationSettings
from arborist.policy.canonical import tagged_digest
from arborist.prompting.layouts import AUTO, DEFAULT_MAX_REMINDER_CHARS, POLICY_LAYOUTS, check_layout
from arborist.prompting.modes import MODES, PROMPT_VERSION, check_mode, system_prompt
from arborist.retrieval.search import SearchSettings

POLICY_VERSION: Literal[1] = 1
# What the answer path may do with the verifier's findings before it settles on an answer (answer.repair):
# snap = quotes snapped to admitted evidence and claims re-attributed (no model call); revise = one revision turn
# fed the findings; all = both.
Repair = Literal["none", "snap", "revise", "all"]
REPAIRS: tuple[str, ...] = get_args(Repair)
# The steps each repair policy takes: a policy whose steps another's include can do nothing that one cannot.
REPAIR_STEPS: dict[str, frozenset[str]] = {"none": frozenset(), "snap": frozenset({"snap"}),
                                           "revise": frozenset({"revise"}), "all": frozenset({"snap", "revise"})}
GOVERNANCE_TAG = "arborist-governance-policy/1"


class AnswerPolicy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    version: Literal[1] = POLICY_VERSION
    search: SearchSettings = Field(default_factory=SearchSettings)
    evidence_k: int = Field(default=5, ge=1, le=1000)
    context_runes: int = Field(default=12_000, ge=100, le=10_000_000)
    chunking: ChunkingSettings = Field(default_factory=ChunkingSettings)
    layout: str = Field(default="tail", description=f"one of {', '.join(POLICY_LAYOUTS)}")
    mode: str = Field(default="claim_lattice", description=f"one of {', '.join(MODES)}")
    prompt_version: str = PROMPT_VERSION
    system_prompt: str | None = Field(
        default=None, description="a system prompt (e.g. from a file) used instead of the shipped one for the mode"
    )
    max_reminder_chars: int = Field(default=DEFAULT_MAX_REMINDER_CHARS, ge=16)
    model_id: str
    generation: GenerationSettings = Field(default_factory=GenerationSettings)
    repair: Repair = Field(
        default="all",
        description="what the answer path does with the verifier's findings: snap (quotes snapped to the "
        "admitted evidence, claims re-attributed; no model call), revise (one revision turn fed the findings), "
        "all (both), none",
    )
    grounded_quotes: bool = Field(
        default=False,
        description="quote and claim_lattice: the generation schema makes every quote one sentence of the block "
        "it cites (grounded by construction)",
    )

    @field_validator("layout")
    @classmethod
    def _layout(cls, v: str) -> str:
        return check_layout(v, POLICY_LAYOUTS)

    @field_validator("mode")
    @classmethod
    def _mode(cls, v: str) -> str:
        return check_mode(v)

    @property
    def system_prompt_text(self) -> str:
        """The system prompt this policy sends: its own, or the shipped one for the mode and version."""
        return self.system_prompt if self.system_prompt is not None else system_prompt(self.mode, self.prompt_version)

    def effective_layout(self, chosen: str | None = None) -> str:
        """The layout rendered: `chosen` resolves `auto` for one question (see `answer.pipeline.layout_for`);
        `per_chunk` reminders would sit inside quoted evidence in quote mode, so quote mode uses bookend."""
        layout = chosen if self.layout == AUTO and chosen is not None else self.layout
        if layout == AUTO:
            raise InputError("layout 'auto' is chosen per question; resolve it with answer.pipeline.layout_for")
        return "bookend" if self.mode == "quote" and layout == "per_chunk" else layout


def governance_policy_hash(policy: AnswerPolicy) -> str:
    return tagged_digest(GOVERNANCE_TAG, policy.model_dump(mode="json"))


def _fields_at(path: tuple[object, ...]) -> list[str]:
    """Field names of the (nested) model that `path` leads to, read from the models themselves."""
    model: type[BaseModel] = AnswerPolicy
    for step in path:
        annotation = model.model_fields[str(step)].annotation
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            break
        model = annotation
    return list(model.model_fields)


def build_policy(**values: object) -> AnswerPolicy:
    """An AnswerPolicy from CLI/user values, with a one-line error for bad ones."""
    try:
        return AnswerPolicy(**values)
    except InputError:
        raise
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        if err["type"] == "extra_forbidden":
            raise InputError(
                f"unknown policy field '{where}'; valid fields: {', '.join(_fields_at(err['loc'][:-1]))}"
            ) from None
        if err["type"] == "literal_error" and where == "version":
            raise InputError(
                f"policy version {err.get('input')!r} is not supported by this arborist; valid: {POLICY_VERSION}"
            ) from None
        raise InputError(f"policy value {where}: {err['msg'].removeprefix('Value error, ')}") from None
