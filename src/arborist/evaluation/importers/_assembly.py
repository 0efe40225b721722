"""What an importer returns, and the checks and digest binding every format shares."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arborist.corpus.documents import SourceDocument, corpus_digest
from arborist.errors import InputError
from arborist.evaluation.format import Evaluation, Question

# -- results ---------------------------------------------------------------


@dataclass(frozen=True)
class DatasetImport:
    """What an importer produced: documents, the evaluation bound to them, and notes."""

    format: str
    documents: tuple[SourceDocument, ...]
    evaluation: Evaluation
    notes: tuple[str, ...] = ()

    @property
    def request_count(self) -> int:
        return sum(len(q.requests) for q in self.evaluation.questions)

    def summary(self) -> dict[str, Any]:
        """Counts and digest, the same for the CLI's text and --json output."""
        questions = self.evaluation.questions
        return {
            "format": self.format,
            "documents": len(self.documents),
            "questions": len(questions),
            "requests": self.request_count,
            "unanswerable_questions": sum(1 for q in questions if not q.answers),
            "corpus_digest": self.evaluation.corpus_digest,
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class WrittenImport:
    corpus_path: Path
    evaluation_path: Path


# -- common assembly -------------------------------------------------------


def _check_documents(docs: Iterable[SourceDocument], source: Path | str) -> None:
    """Refuse what `arborist ingest` would refuse, before the files exist."""
    seen: set[str] = set()
    for doc in docs:
        if doc.source_id in seen:
            raise InputError(f"'{source}': document id '{doc.source_id}' is produced twice")
        seen.add(doc.source_id)
        if not doc.text:
            raise InputError(f"'{source}': document '{doc.source_id}' has empty text; ingest would refuse it")


def _check_question_ids(questions: Iterable[Question], source: Path) -> None:
    seen: set[str] = set()
    for q in questions:
        if q.id in seen:
            raise InputError(f"'{source}': question id '{q.id}' appears twice")
        seen.add(q.id)


def _assemble(
    fmt: str,
    docs: list[SourceDocument],
    questions: list[Question],
    questions_path: Path,
    notes: Iterable[str] = (),
) -> DatasetImport:
    """Bind the questions to the documents by digest, checking every gold id resolves."""
    _check_question_ids(questions, questions_path)
    evaluation = Evaluation(corpus_digest=corpus_digest(docs), questions=questions)
    unknown = evaluation.unknown_source_ids({d.source_id for d in docs})
    if unknown:
        qid, ids = next(iter(unknown.items()))
        raise InputError(f"'{questions_path}': question '{qid}' cites source ids not in the corpus: {ids}")
    return DatasetImport(fmt, tuple(docs), evaluation, tuple(notes))
