"""Answer modes: the JSON shape the model must produce, and its schema.

The pydantic models are the single definition: the JSON schema sent to the
provider (to constrain generation) and the contract's validation both come
from them, so they cannot drift apart.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

from pydantic import BaseModel, ConfigDict

from arborist.errors import InputError

PROMPT_VERSION = "v1"


class Quote(BaseModel):
    model_config = ConfigDict(extra="forbid")
    evidence_id: str
    text: str


class Claim(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str
    evidence_ids: list[str]
    quote: str


class PointerClaim(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str
    evidence_ids: list[str]


class QuoteAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    quotes: list[Quote]
    abstained_requests: list[str]


class ClaimLatticeAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    claims: list[Claim]
    abstained_requests: list[str]


class PointerAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    claims: list[PointerClaim]
    abstained_requests: list[str]


ANSWER_MODELS: dict[str, type[BaseModel]] = {
    "quote": QuoteAnswer,
    "claim_lattice": ClaimLatticeAnswer,
    "claim_lattice_pointer": PointerAnswer,
}
MODES = tuple(ANSWER_MODELS)


def check_mode(mode: str) -> str:
    if mode not in ANSWER_MODELS:
        raise InputError(f"unknown answer mode {mode!r}; valid modes: {', '.join(MODES)}")
    return mode


def _strict(schema: dict[str, Any]) -> dict[str, Any]:
    """Inline $defs and require every property: grammar builders handle plain schemas best."""
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return walk(defs[node["$ref"].rsplit("/", 1)[1]])
            # "title"/"default" are annotations on a schema node; under "properties"
            # the keys are field names (a field may well be called "title").
            out = {
                k: ({name: walk(sub) for name, sub in v.items()} if k == "properties" else walk(v))
                for k, v in node.items()
                if k not in ("title", "default")
            }
            if out.get("type") == "object" and "properties" in out:
                out["required"] = list(out["properties"])
                out["additionalProperties"] = False
            return out
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(schema)


def json_schema(
    mode: str, evidence_ids: list[str] | None = None, sentences: dict[str, list[str]] | None = None
) -> dict[str, Any]:
    """The mode's schema; with `evidence_ids`, citations are constrained to exactly those ids.

    Constrained decoding then cannot cite an id that was never admitted (a
    1.5B model was seen citing ".2" for E2). With no ids there is nothing to
    enumerate, and the contract alone catches stray citations.

    With `sentences` (evidence id -> its sentences, as written), the answer is
    grounded by construction (quote and claim_lattice modes): each item is one
    of a choice (`anyOf`) over the ids, and an item citing Ei must quote one
    sentence of Ei exactly, so a quote can be neither miscited nor reworded.
    """
    schema = _strict(ANSWER_MODELS[check_mode(mode)].model_json_schema())
    if sentences and mode in ("quote", "claim_lattice"):
        key = "quotes" if mode == "quote" else "claims"
        schema["properties"][key]["items"] = {"anyOf": [_grounded_item(mode, eid, s) for eid, s in sentences.items() if s]}
        return schema
    if evidence_ids:
        cite = {"type": "string", "enum": list(evidence_ids)}
        item = schema["properties"]["quotes" if mode == "quote" else "claims"]["items"]["properties"]
        if mode == "quote":
            item["evidence_id"] = cite
        else:
            item["evidence_ids"] = {"type": "array", "items": cite}
    return schema


def grammar_safe(sentence: str) -> str:
    """A sentence as an enum value the grammar builders can take: white space runs as one space, double
    quotes and backslashes dropped (llama.cpp's schema-to-grammar converter was seen emitting a broken
    grammar for an enum value with inner quotes). The verifier matches quotes word for word, so the
    choice is still the block's own sentence."""
    return re.sub(r"\s+", " ", sentence.replace('"', "").replace("\\", "")).strip()


def _grounded_item(mode: str, eid: str, sentences: list[str]) -> dict[str, Any]:
    choices = [c for c in dict.fromkeys(grammar_safe(s) for s in sentences) if c]
    quote = {"type": "string", "enum": choices}
    if mode == "quote":
        props: dict[str, Any] = {"evidence_id": {"type": "string", "enum": [eid]}, "text": quote}
    else:
        props = {"text": {"type": "string"},
                 "evidence_ids": {"type": "array", "items": {"type": "string", "enum": [eid]}, "minItems": 1,
                                  "maxItems": 1},
                 "quote": quote}
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


BASELINE_PROMPT = "baseline"


def prompt_names(version: str = PROMPT_VERSION) -> tuple[str, ...]:
    """The shipped prompts of a version: `baseline` (prompts/<version>/system_<mode>.txt) and one per
    sub-folder (prompts/<version>/<name>/system_<mode>.txt), read from the package, never a kept list."""
    folder = resources.files("arborist") / "prompts" / version
    if not folder.is_dir():
        return (BASELINE_PROMPT,)
    named = sorted(p.name for p in folder.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))
    return (BASELINE_PROMPT, *named)


def system_prompt(mode: str, version: str = PROMPT_VERSION, name: str = BASELINE_PROMPT) -> str:
    """The versioned system prompt file for `mode`, shipped in the package (`name` picks a shipped variant)."""
    folder = resources.files("arborist") / "prompts" / version
    if name != BASELINE_PROMPT:
        if name not in prompt_names(version):
            raise InputError(f"unknown prompt {name!r}; shipped prompts: {', '.join(prompt_names(version))}")
        folder = folder / name
    path = folder / f"system_{check_mode(mode)}.txt"
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"no prompt {name!r} of version {version!r} for mode {mode!r}") from None
