"""SQuAD importer.

Each paragraph is a document `<article title>#<paragraph index>` titled
with the article title as written in the file; each qa is a question with
its distinct answer texts and one request (the question itself). SQuAD 2.0
`is_impossible` questions keep their request but have no answers and no
relevant ids. The paragraphs are the corpus, so `--dataset-corpus` is refused.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from arborist.corpus.documents import SourceDocument
from arborist.errors import InputError
from arborist.evaluation.format import Question, Request
from arborist.evaluation.importers._assembly import DatasetImport, _assemble, _check_documents
from arborist.evaluation.importers._json import _as_object, _distinct, _field, read_json


def _squad_answers(qa: Mapping[str, Any], where: str) -> list[str]:
    raw = _field(qa, "answers", list, where, default=[])
    texts = []
    for i, answer in enumerate(raw):
        texts.append(_field(_as_object(answer, f"{where} answers[{i}]"), "text", str, f"{where} answers[{i}]"))
    return _distinct(texts)


def _squad_question(qa_obj: Any, where: str, doc_id: str) -> Question:
    qa = _as_object(qa_obj, where)
    qid: str = _field(qa, "id", str, where)
    where = f"{where} (id '{qid}')"
    text: str = _field(qa, "question", str, where)
    if _field(qa, "is_impossible", bool, where, default=False):
        return Question(id=qid, question=text, requests=[Request(id=f"{qid}#1", text=text)])
    answers = _squad_answers(qa, where)
    request = Request(id=f"{qid}#1", text=text, answers=answers, supporting_source_ids=[doc_id])
    return Question(id=qid, question=text, answers=answers, relevant_source_ids=[doc_id], requests=[request])


def _squad_article(
    article_obj: Any, where: str
) -> Iterator[tuple[SourceDocument, list[Question]]]:
    article = _as_object(article_obj, where)
    title: str = _field(article, "title", str, where)
    where = f"{where} ({title!r})"
    for p_i, para_obj in enumerate(_field(article, "paragraphs", list, where)):
        p_where = f"{where} paragraphs[{p_i}]"
        para = _as_object(para_obj, p_where)
        doc = SourceDocument.create(f"{title}#{p_i}", title, _field(para, "context", str, p_where))
        qas = _field(para, "qas", list, p_where)
        yield doc, [_squad_question(qa, f"{p_where} qas[{q_i}]", doc.source_id) for q_i, qa in enumerate(qas)]


def import_squad(questions_path: Path, corpus_path: Path | None = None) -> DatasetImport:
    """SQuAD v1.1/v2.0: each paragraph is a document, each qa a one-request question."""
    if corpus_path is not None:
        raise InputError("squad takes no --dataset-corpus: the paragraphs in the --questions file are the corpus")
    top = _as_object(read_json(questions_path, "questions"), f"'{questions_path}'")
    articles = _field(top, "data", list, f"'{questions_path}'")
    docs: list[SourceDocument] = []
    questions: list[Question] = []
    for a_i, article in enumerate(articles):
        for doc, qs in _squad_article(article, f"'{questions_path}' data[{a_i}]"):
            docs.append(doc)
            questions.extend(qs)
    _check_documents(docs, questions_path)
    return _assemble("squad", docs, questions, questions_path)
