"""The facts file: which value of which document to patch, and the rungs of values to patch in.

Exactly: {"facts": [{"id", "question", "source_id", "true_value", "kind": "zero_prior" | "competing",
"rungs": [{"label", "value"}, ...]}]}. A zero-prior fact carries a value the model cannot know (a queue
name, a header name): it tests the plumbing. A competing fact carries a value the model has priors for (a
price, a refund window): it measures conflict resolution.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from arborist.errors import InputError, nested_too_deeply
from arborist.policy.canonical import tagged_digest

Kind = Literal["zero_prior", "competing"]
FACTS_TAG = "arborist-sentinel-facts/1"


class Rung(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    label: str = Field(min_length=1)
    value: str = Field(min_length=1)


class Fact(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1)
    question: str = Field(min_length=1)
    source_id: str = Field(min_length=1)
    true_value: str = Field(min_length=1)
    kind: Kind
    rungs: list[Rung] = Field(min_length=1)

    @model_validator(mode="after")
    def _rungs(self) -> Fact:
        if "/" in self.id or any("/" in r.label for r in self.rungs):
            raise ValueError(f"fact '{self.id}': ids and rung labels may not hold '/' (variant ids join them with it)")
        labels = [r.label for r in self.rungs]
        if len(set(labels)) != len(labels):
            raise ValueError(f"fact '{self.id}' repeats a rung label")
        if any(r.value == self.true_value for r in self.rungs):
            raise ValueError(f"fact '{self.id}' has a rung whose value is its true value")
        return self


class Facts(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    facts: list[Fact] = Field(min_length=1)

    @field_validator("facts")
    @classmethod
    def _unique(cls, v: list[Fact]) -> list[Fact]:
        ids = [f.id for f in v]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"fact id(s) used twice: {', '.join(dup)}")
        return v

    def digest(self) -> str:
        return tagged_digest(FACTS_TAG, self.model_dump(mode="json"))

    def ordered(self) -> list[Fact]:
        """Zero-prior controls first: competing facts are only read once the plumbing is known to work."""
        return [f for f in self.facts if f.kind == "zero_prior"] + [f for f in self.facts if f.kind == "competing"]


def demo_facts_path() -> Path:
    return Path(str(resources.files("arborist") / "demo" / "sentinel-facts.json"))


def load_facts(path: Path) -> Facts:
    """A facts file, or an InputError naming the file and the first problem."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"facts file '{path}' does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read facts file '{path}': {exc}") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"facts file '{path}' is not JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise nested_too_deeply(f"facts file '{path}'") from None
    try:
        return Facts.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "the file"
        raise InputError(f"facts file '{path}': {where}: {err['msg']}") from None
