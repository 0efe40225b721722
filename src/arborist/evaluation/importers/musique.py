"""MuSiQue importer.

Passage ids are `<slug of title>-<8 hex of the content digest>`: titles
repeat across passages (126 repeats in the shared subset), positions
change when a corpus file is reordered or rebuilt from the questions'
paragraphs, whereas content ids are the same whether `--dataset-corpus` is given
or the corpus is built from the questions, and stay readable in reports.
Supporting paragraphs are matched on normalised title AND text (two
supporting paragraphs of one question can share a title). Each
`question_decomposition` hop is one request with its own answer and
passage; `#1` references are kept verbatim. A question marked
`answerable: false` (MuSiQue-Full) has no gold: no answers, relevant ids
or requests.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arborist.corpus.documents import SourceDocument, content_digest, normalize_text, normalize_title
from arborist.errors import InputError
from arborist.evaluation.format import Question, Request
from arborist.evaluation.importers._assembly import DatasetImport, _assemble, _check_documents
from arborist.evaluation.importers._json import (
    _as_list,
    _as_object,
    _distinct,
    _field,
    _item_where,
    _optional_int,
    _strings,
    read_json,
)


@dataclass(frozen=True)
class _MusiqueParagraph:
    idx: int
    title: str
    text: str
    supporting: bool

    @property
    def key(self) -> tuple[str, str]:
        return normalize_title(self.title), normalize_text(self.text)


@dataclass(frozen=True)
class _MusiqueHop:
    question: str
    answer: str
    support_idx: int | None


@dataclass(frozen=True)
class _MusiqueQuestion:
    where: str
    id: str
    question: str
    answers: list[str]
    answerable: bool
    paragraphs: dict[int, _MusiqueParagraph]
    hops: list[_MusiqueHop] = field(default_factory=list)


def _slug(title: str) -> str:
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-")[:48].rstrip("-")
    return slug or "passage"


def passage_id(title: str, text: str) -> str:
    """Readable, content-derived id: equal passages get equal ids in any corpus order."""
    return f"{_slug(normalize_title(title))}-{content_digest(title, text)[:8]}"


def _musique_paragraph(obj: Any, where: str) -> _MusiqueParagraph:
    p = _as_object(obj, where)
    return _MusiqueParagraph(
        idx=_field(p, "idx", int, where),
        title=_field(p, "title", str, where),
        text=_field(p, "paragraph_text", str, where),
        supporting=_field(p, "is_supporting", bool, where, default=False),
    )


def _musique_hop(obj: Any, where: str, paragraphs: Mapping[int, _MusiqueParagraph]) -> _MusiqueHop:
    h = _as_object(obj, where)
    hop = _MusiqueHop(
        question=_field(h, "question", str, where),
        answer=_field(h, "answer", str, where),
        support_idx=_optional_int(h, "paragraph_support_idx", where),
    )
    if hop.support_idx is not None and hop.support_idx not in paragraphs:
        raise InputError(f"{where}: paragraph_support_idx {hop.support_idx} names no paragraph 'idx'")
    return hop


def _musique_paragraphs(q: Mapping[str, Any], where: str) -> dict[int, _MusiqueParagraph]:
    raw = _field(q, "paragraphs", list, where)
    out: dict[int, _MusiqueParagraph] = {}
    for i, obj in enumerate(raw):
        p = _musique_paragraph(obj, f"{where} paragraphs[{i}]")
        if p.idx in out:
            raise InputError(f"{where} paragraphs[{i}]: paragraph idx {p.idx} repeats")
        out[p.idx] = p
    return out


def _parse_musique_question(obj: Any, where: str) -> _MusiqueQuestion:
    q = _as_object(obj, where)
    qid: str = _field(q, "id", str, where)
    answer: str = _field(q, "answer", str, where)
    aliases = _strings(_field(q, "answer_aliases", list, where, default=[]), where, "answer_aliases")
    paragraphs = _musique_paragraphs(q, where)
    hops_raw = _field(q, "question_decomposition", list, where)
    hops = [_musique_hop(h, f"{where} question_decomposition[{i}]", paragraphs) for i, h in enumerate(hops_raw)]
    return _MusiqueQuestion(
        where=where,
        id=qid,
        question=_field(q, "question", str, where),
        answers=_distinct([answer, *aliases]),
        answerable=_field(q, "answerable", bool, where, default=True),
        paragraphs=paragraphs,
        hops=hops,
    )


def _dedup_passages(pairs: Iterable[tuple[str, str]], source: str) -> tuple[list[SourceDocument], int]:
    """Documents with content ids; identical passages are one document (count returned)."""
    docs: dict[str, SourceDocument] = {}
    merged = 0
    for title, text in pairs:
        doc = SourceDocument.create(passage_id(title, text), title, text)
        prev = docs.get(doc.source_id)
        if prev is None:
            docs[doc.source_id] = doc
        elif prev == doc:
            merged += 1
        else:  # two different passages on one 8-hex id: never silently conflate them
            raise InputError(f"{source}: passages {prev.title!r} and {doc.title!r} collide on id '{doc.source_id}'")
    return list(docs.values()), merged


def _musique_corpus_file(path: Path) -> tuple[list[SourceDocument], int]:
    items = _as_list(read_json(path, "corpus"), f"'{path}'", '{"title", "text"} objects')
    pairs = []
    for i, obj in enumerate(items):
        where = f"'{path}' item {i}"
        p = _as_object(obj, where)
        pairs.append((_field(p, "title", str, where), _field(p, "text", str, where)))
    return _dedup_passages(pairs, f"'{path}'")


def _musique_corpus_from_questions(
    questions: list[_MusiqueQuestion], path: Path
) -> tuple[list[SourceDocument], int]:
    pairs = [(p.title, p.text) for q in questions for p in q.paragraphs.values()]
    return _dedup_passages(pairs, f"'{path}'")


def _musique_resolver(
    q: _MusiqueQuestion, index: Mapping[tuple[str, str], str], corpus_label: str
) -> Callable[[_MusiqueParagraph], str]:
    def resolve(p: _MusiqueParagraph) -> str:
        source_id = index.get(p.key)
        if source_id is None:
            raise InputError(
                f"{q.where}: supporting paragraph idx {p.idx} (title {p.title!r}) is not in {corpus_label} "
                "(no passage with the same title and text)"
            )
        return source_id

    return resolve


def _musique_to_question(
    q: _MusiqueQuestion, index: Mapping[tuple[str, str], str], corpus_label: str
) -> Question:
    if not q.answerable:
        return Question(id=q.id, question=q.question)
    resolve = _musique_resolver(q, index, corpus_label)
    relevant = _distinct(resolve(p) for p in q.paragraphs.values() if p.supporting)
    requests = [
        Request(
            id=f"{q.id}#{n}",
            text=hop.question,
            answers=[hop.answer],
            supporting_source_ids=[] if hop.support_idx is None else [resolve(q.paragraphs[hop.support_idx])],
        )
        for n, hop in enumerate(q.hops, start=1)
    ]
    return Question(id=q.id, question=q.question, answers=q.answers, relevant_source_ids=relevant, requests=requests)


def import_musique(questions_path: Path, corpus_path: Path | None = None) -> DatasetImport:
    """MuSiQue: hops become requests; corpus is --dataset-corpus or the questions' paragraphs."""
    items = _as_list(read_json(questions_path, "questions"), f"'{questions_path}'", "question objects")
    parsed = [
        _parse_musique_question(obj, _item_where(questions_path, i, obj if isinstance(obj, dict) else {}, "id"))
        for i, obj in enumerate(items)
    ]
    notes: list[str] = []
    if corpus_path is not None:
        docs, merged = _musique_corpus_file(corpus_path)
        corpus_label = f"corpus '{corpus_path}'"
        if merged:  # questions share paragraphs by design; a corpus file should not repeat one
            notes.append(f"{merged} repeated passages (same title and text) in '{corpus_path}' were stored once")
    else:
        docs, _ = _musique_corpus_from_questions(parsed, questions_path)
        corpus_label = "the corpus"
    index = {(d.title, d.text): d.source_id for d in docs}
    questions = [_musique_to_question(q, index, corpus_label) for q in parsed]
    _check_documents(docs, corpus_path or questions_path)
    return _assemble("musique", docs, questions, questions_path, notes)
