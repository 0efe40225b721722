"""What `lab repair` tries for a lost answer: the boundary -> setting map and each setting's value ladder, as data.

A question lost at a boundary is re-run alone under single-setting changes drawn from that boundary; everything
else stays as in the run (model, prompt, seed, temperature 0). Each setting's values are tried in ladder order and
a setting's ladder stops at its first value that recovers the question.

    boundary            settings tried            values
    retrieval           retrieve-k                40, 80, 160 (those above the run's)
                        routes                    the run's routes plus one it lacks, each in turn
                        fusion                    the other fusion
    evidence_k          evidence-k                3, 5, 8, 12, 20 (above the run's)
    context_admission   context-runes             3000, 6000, 12000, 24000, 40000 (above the run's)
    generation          layout, prompt, mode      every other layout, shipped prompt, answer mode
    contract            layout, prompt, mode      as generation (an unusable answer is the model's)
    not_strict          repair                    the answer repair policies taking a step the run's did not

`not_strict` is the class of answers that hold the gold but are not labelled STRICT.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ValidationError

from arborist.errors import InputError
from arborist.policy.answer import REPAIR_STEPS, REPAIRS, AnswerPolicy
from arborist.prompting.layouts import POLICY_LAYOUTS
from arborist.prompting.modes import BASELINE_PROMPT, MODES, prompt_names, system_prompt
from arborist.retrieval.routes import route_names
from arborist.retrieval.search import FUSIONS

NOT_STRICT = "not_strict"
REPAIR_FIELD = "repair"
# What a re-run must show to recover a question (see `Goal` in lab.repair):
#   gold     the answer states the gold answer (a question whose answer lacked it)
#   support  the gold answer, and every needed source admitted (a right answer whose evidence was lost: memory)
#   strict   the gold answer, labelled STRICT (right but not STRICT)
Goal = Literal["gold", "support", "strict"]
Value = int | str


@dataclass(frozen=True)
class Context:
    """What a ladder reads of the run: its arm's policy and its prompt as recorded (`baseline`, a name, a file)."""

    policy: AnswerPolicy
    prompt: str


@dataclass(frozen=True)
class Setting:
    """One knob a repair turns: its name (as `lab sweep` spells it), what it means and its values for a run."""

    name: str
    meaning: str
    values: Callable[[Context], tuple[Value, ...]]
    ordered: bool = False  # a numeric ladder: its larger values keep what the smaller ones admit


def _above(ladder: tuple[int, ...], read: Callable[[AnswerPolicy], int]) -> Callable[[Context], tuple[Value, ...]]:
    def values(ctx: Context) -> tuple[Value, ...]:
        return tuple(v for v in ladder if v > read(ctx.policy))
    return values


def _routes(ctx: Context) -> tuple[Value, ...]:
    have = ctx.policy.search.routes
    return tuple(",".join((*have, r)) for r in route_names() if r not in have)


def _others(all_values: tuple[str, ...], read: Callable[[Context], str]) -> Callable[[Context], tuple[Value, ...]]:
    def values(ctx: Context) -> tuple[Value, ...]:
        return tuple(v for v in all_values if v != read(ctx))
    return values


def _prompts(ctx: Context) -> tuple[Value, ...]:
    return tuple(n for n in prompt_names(ctx.policy.prompt_version) if n != ctx.prompt)


def _repairs(ctx: Context) -> tuple[Value, ...]:
    """The repair policies that take a step the run's own did not (none after `all`: at temperature 0 a policy
    whose steps the run took already cannot answer otherwise)."""
    own = REPAIR_STEPS[ctx.policy.repair]
    return tuple(v for v in REPAIRS if not REPAIR_STEPS[v] <= own)


SETTINGS: dict[str, Setting] = {s.name: s for s in (
    Setting("retrieve-k", "ranked chunks retrieved", _above((40, 80, 160), lambda p: p.search.k), ordered=True),
    Setting("routes", "the retrieval routes fused", _routes),
    Setting("fusion", "how the routes' rankings are fused", _others(FUSIONS, lambda c: c.policy.search.fusion)),
    Setting("evidence-k", "chunks selected from the top of the ranking", _above((3, 5, 8, 12, 20),
                                                                               lambda p: p.evidence_k), ordered=True),
    Setting("context-runes", "the rune budget for admitted evidence",
            _above((3000, 6000, 12000, 24000, 40000), lambda p: p.context_runes), ordered=True),
    Setting("layout", "where the question goes relative to the evidence",
            _others(POLICY_LAYOUTS, lambda c: c.policy.layout)),
    Setting("prompt", "the system prompt (a shipped one)", _prompts),
    Setting("mode", "the answer shape", _others(MODES, lambda c: c.policy.mode)),
    Setting(REPAIR_FIELD, "the answer repair policy (quote snapping, re-attribution, a revision turn)", _repairs),
)}

# The boundary (or class) a question was lost at -> the settings tried for it, in this order.
BOUNDARY_SETTINGS: dict[str, tuple[str, ...]] = {
    "retrieval": ("retrieve-k", "routes", "fusion"),
    "evidence_k": ("evidence-k",),
    "context_admission": ("context-runes",),
    "generation": ("layout", "prompt", "mode"),
    "contract": ("layout", "prompt", "mode"),
    NOT_STRICT: (REPAIR_FIELD,),
}


def ladders(ctx: Context, boundary: str) -> dict[str, tuple[Value, ...]]:
    """Setting -> its values to try for a question lost at `boundary` (a setting with none left is kept, empty)."""
    return {name: SETTINGS[name].values(ctx) for name in BOUNDARY_SETTINGS[boundary]}


def _set(data: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value


PATHS: dict[str, tuple[str, ...]] = {
    "retrieve-k": ("search", "k"), "routes": ("search", "routes"), "fusion": ("search", "fusion"),
    "evidence-k": ("evidence_k",), "context-runes": ("context_runes",), "layout": ("layout",), "mode": ("mode",),
    REPAIR_FIELD: (REPAIR_FIELD,),
}


def _named_prompt(prompt: str, version: str) -> bool:
    return prompt in prompt_names(version)


def apply(ctx: Context, setting: str, value: Value) -> tuple[AnswerPolicy, str]:
    """The run's policy with one setting changed, and the prompt to record: what a repair's re-run answers under.

    The prompt setting sets the system prompt's text as `lab run --prompt NAME` does (none for `baseline`); a
    mode change keeps the run's prompt, in the new mode's words when it is a shipped prompt."""
    policy = ctx.policy
    data = policy.model_dump(mode="python")
    prompt = ctx.prompt
    if setting == "prompt":
        prompt = str(value)
        data["system_prompt"] = None if prompt == BASELINE_PROMPT else system_prompt(policy.mode,
                                                                                      policy.prompt_version, prompt)
    else:
        path = PATHS.get(setting)
        if path is None:
            raise InputError(f"unknown repair setting '{setting}'; valid: {', '.join(SETTINGS)}")
        _set(data, path, tuple(str(value).split(",")) if setting == "routes" else value)
        if setting == "mode" and policy.system_prompt is not None and _named_prompt(prompt, policy.prompt_version):
            data["system_prompt"] = (None if prompt == BASELINE_PROMPT
                                     else system_prompt(str(value), policy.prompt_version, prompt))
    try:
        return type(policy).model_validate(data), prompt
    except ValidationError as exc:
        raise InputError(f"repair setting {setting}={value} is not a valid policy value: "
                         f"{exc.errors()[0]['msg']}") from None
