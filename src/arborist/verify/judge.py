"""The entailment judge's seam: what the verifier asks a model, and how that model is pinned.

The verifier imports no model: a caller builds a judge (`arborist.entailment.load_judge`) and passes it to
`verify_answer`; `JudgeSpec` is the identity it must match, part of `verifier_policy_hash` with the digest of
`JUDGE_PROMPT`. What the judge is asked and why: docs/verifier.md, "The entailment judge".
"""

from __future__ import annotations

import hashlib
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from arborist.errors import ArboristError


class JudgePrompt(BaseModel):
    """What a judge is asked: an instruction, the question around one premise and hypothesis, and worked
    examples shown before it as earlier turns of the conversation (the same for every call, so a local judge
    evaluates them once). Its `digest` is part of the judge's identity: changing a word moves the verifier hash."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    system: str
    template: str = Field(description="the question, with {premise} and {hypothesis}")
    examples: tuple[tuple[str, str, Literal["Yes", "No"]], ...] = Field(
        default=(), description="(premise, hypothesis, the right answer), shown in this order")

    @property
    def digest(self) -> str:
        shown = "".join(f"\n{p}\x1f{h}\x1f{a}" for p, h, a in self.examples)
        return hashlib.sha256(f"{self.system}\n{self.template}{shown}".encode()).hexdigest()


# The fixed instruction of every judge. Changing a word changes `PROMPT_DIGEST`, so the verifier hash.
SYSTEM = "You are a careful fact checker. You answer only Yes or No."
PROMPT = (
    "Passage: {premise}\n\n"
    "Statement: {hypothesis}\n\n"
    "If the passage is true, must the statement be true? The statement must not add facts, change numbers, "
    "reverse a relation, or state as certain what the passage only suggests. Answer Yes or No."
)
JUDGE_PROMPT = JudgePrompt(system=SYSTEM, template=PROMPT)
PROMPT_DIGEST = JUDGE_PROMPT.digest


ControlKind = Literal["hypothesis_only", "contradiction", "states"]


class JudgeControl(BaseModel):
    """A second reading the judge's acceptance must also pass, by the same model on the same pair
    (`arborist.entailment.control`, which holds what each asks; docs/verifier.md, "Controls").

    Each gives a value in which higher means better evidenced, which must reach `threshold`:
    - hypothesis_only: the score's lift over the claim scored without its passage (a claim the judge accepts
      without evidence about as much as with it is not evidenced by its quote);
    - contradiction: P(No) to a second question: does the passage contradict the claim, or leave it open?
    - states: P(Yes) to a second question: does the passage state exactly this, not only its topic?"""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: ControlKind
    threshold: float = Field(ge=-1.0, le=1.0, description="the least value of the control that accepts")
    digest: str = Field(description="sha256 of what the control asks (`arborist.entailment.control.control_digest`)")

    @property
    def tag(self) -> str:
        return f"{self.kind}@{self.threshold:g}/{self.digest[:8]}"


class JudgeSpec(BaseModel):
    """The pinned identity of an entailment judge: which model, which weights, at what threshold.

    `kind` local: a GGUF profile run by llama.cpp, its weights checked by `sha256`; openai: a named model on an
    OpenAI-compatible server (the server is where it runs, not what it is, so its URL is not part of this)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["local", "openai"]
    model: str = Field(description="local: a model profile name; openai: the served model's name")
    sha256: str | None = Field(default=None, description="local: the weights' sha256 (pinned by the profile)")
    threshold: float = Field(ge=0.0, le=1.0, description="a score at or above this accepts the claim")
    prompt_digest: str = Field(default=PROMPT_DIGEST, description="sha256 of the judge's fixed prompt")
    base_url: str | None = Field(default=None, exclude=True, description="openai: where the served judge runs (not "
                                 "part of its identity, so neither hashed nor stored)")
    control: JudgeControl | None = Field(default=None, description="a second reading its acceptance must also pass "
                                         "(None: the judge's score alone)")

    @model_serializer(mode="wrap")
    def _without_no_control(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        """A spec without a control dumps (and hashes) as it did before controls existed."""
        data: dict[str, object] = handler(self)
        if self.control is None:
            data.pop("control", None)
        return data

    @property
    def judge_id(self) -> str:
        """What a cached score is keyed by: the model, its weights and the prompt (not the threshold, which
        only reads the score)."""
        weights = (self.sha256 or "served")[:16]
        control = f"+{self.control.tag}" if self.control is not None else ""
        return f"{self.kind}:{self.model}@{weights}/{self.prompt_digest[:16]}{control}"


@runtime_checkable
class Judge(Protocol):
    """One forward pass, no sampling: the same premise and hypothesis always score the same."""

    spec: JudgeSpec

    def score(self, premise: str, hypothesis: str) -> float:
        """P(the premise entails the hypothesis), in [0, 1]."""
        ...


class JudgeError(ArboristError):
    """A judge that could not score (a dead server, missing weights): never read as a verdict."""


def check_prompt(spec: JudgeSpec, prompt: JudgePrompt) -> None:
    """A judge asks the prompt its spec pins, or it is not the judge the verifier hash names."""
    if prompt.digest != spec.prompt_digest:
        raise JudgeError(f"the judge's prompt {prompt.digest[:12]}… is not the one its spec pins "
                         f"({spec.prompt_digest[:12]}…)")


ENTAILMENT_KINDS = ("none", "local", "openai")
EntailmentKind = Literal["none", "local", "openai"]
