"""The evaluation file format (`arborist-evaluation/1`), bound to a corpus by digest.

An evaluation is only meaningful against the documents it was written for,
so loading it against a store with another digest is refused before any
retrieval or provider call.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from arborist.errors import InputError, nested_too_deeply

FORMAT = "arborist-evaluation/1"


class Request(BaseModel):
    """One atomic sub-request of a question (request-level completeness)."""

    model_config = ConfigDict(extra="forbid")

    id: str
    text: str
    answers: list[str] = Field(default_factory=list)
    supporting_source_ids: list[str] = Field(default_factory=list)


class Question(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    question: str
    answers: list[str] = Field(default_factory=list)
    relevant_source_ids: list[str] = Field(default_factory=list)
    requests: list[Request] = Field(default_factory=list)


class Evaluation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: str = FORMAT
    corpus_digest: str
    questions: list[Question]

    def unknown_source_ids(self, known: set[str]) -> dict[str, list[str]]:
        """Question id -> relevant or supporting source ids absent from `known`."""
        out: dict[str, list[str]] = {}
        for q in self.questions:
            ids = set(q.relevant_source_ids)
            for r in q.requests:
                ids.update(r.supporting_source_ids)
            missing = sorted(ids - known)
            if missing:
                out[q.id] = missing
        return out


def load_evaluation(path: Path) -> Evaluation:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"evaluation file '{path}' does not exist") from None
    except UnicodeDecodeError:
        raise InputError(f"evaluation file '{path}' is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise InputError(
            f"evaluation file '{path}' is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except RecursionError:
        raise nested_too_deeply(f"evaluation file '{path}'") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        found = raw.get("format") if isinstance(raw, dict) else type(raw).__name__
        raise InputError(f"'{path}' is not an {FORMAT} file (format: {found!r})")
    try:
        return Evaluation.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise InputError(f"evaluation file '{path}': {where}: {err['msg']}") from None


def check_binding(evaluation: Evaluation, store_digest: str, path: Path | str = "evaluation") -> None:
    """Refuse an evaluation written for other documents, naming both digests."""
    if evaluation.corpus_digest != store_digest:
        raise InputError(
            f"'{path}' was written for corpus {evaluation.corpus_digest}, but the store holds "
            f"corpus {store_digest}; ingest the corpus the evaluation was made for"
        )


def write_evaluation(evaluation: Evaluation, path: Path) -> None:
    path.write_text(evaluation.model_dump_json(indent=2) + "\n", encoding="utf-8")
