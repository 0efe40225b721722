"""HotpotQA importer.

Article id = title (titles are the keys of the corpus object, so unique).
Text = sentences joined with "" when the file's sentences carry their own
leading spaces (the HotpotQA release does: joining with "" restores the
original paragraph, including its ~20 mid-quote sentence splits such as
'"Sledge Hammer!' + '", "The A-Team"'), else with " ". The rule is decided
once per file, not per article, because an article whose only break is
such a split would otherwise get a spurious space. Bridge and comparison
questions alike get one request per distinct supporting title,
"<question> — about <title>", supported by that title.

HotpotQA annotates only the final answer, so a request's own answer is
derived only where the annotation fixes it (see `_bridge_answers`): in a
bridge question over two articles, the article whose supporting sentences
hold the final answer is the second hop and yields it, and the other
article's request yields the bridge entity, the title (less any
"(disambiguation)") that one article's supporting sentences name of the
other. A comparison question, a final answer found in both articles or in
neither, a bridge entity named by neither article, or one the question
itself names (that hop is given, not asked) leaves its requests without
answers (request completeness then leaves them unmeasured, saying why):
neither side of a comparison yields the compared answer, and a guess would
claim a sub-request yields what it does not.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arborist.corpus.documents import SourceDocument
from arborist.errors import InputError
from arborist.evaluation.format import Question, Request
from arborist.evaluation.importers._assembly import DatasetImport, _assemble, _check_documents
from arborist.evaluation.importers._json import (
    _as_list,
    _as_object,
    _distinct,
    _field,
    _is,
    _item_where,
    _json_type,
    _strings,
    read_json,
)


@dataclass(frozen=True)
class _HotpotQuestion:
    where: str
    id: str
    question: str
    answer: str
    type: str | None
    supporting_facts: list[tuple[str, int]]
    context: list[tuple[str, list[str]]] | None


def _hotpot_fact(obj: Any, where: str) -> tuple[str, int]:
    if not (isinstance(obj, list) and len(obj) == 2 and isinstance(obj[0], str) and _is(obj[1], int)):
        raise InputError(f"{where}: expected [title, sentence index], got {json.dumps(obj, ensure_ascii=False)[:80]}")
    return obj[0], obj[1]


def _hotpot_article(obj: Any, where: str) -> tuple[str, list[str]]:
    if not (isinstance(obj, list) and len(obj) == 2 and isinstance(obj[0], str) and isinstance(obj[1], list)):
        raise InputError(f"{where}: expected [title, [sentence, ...]], got {_json_type(obj)}")
    return obj[0], _strings(obj[1], where, "sentences")


def _parse_hotpot_question(obj: Any, where: str, need_context: bool) -> _HotpotQuestion:
    q = _as_object(obj, where)
    facts = _field(q, "supporting_facts", list, where)
    context = None
    if need_context:
        raw = _field(q, "context", list, where)
        context = [_hotpot_article(a, f"{where} context[{i}]") for i, a in enumerate(raw)]
    return _HotpotQuestion(
        where=where,
        id=_field(q, "_id", str, where),
        question=_field(q, "question", str, where),
        answer=_field(q, "answer", str, where),
        type=q["type"] if isinstance(q.get("type"), str) else None,
        supporting_facts=[_hotpot_fact(f, f"{where} supporting_facts[{i}]") for i, f in enumerate(facts)],
        context=context,
    )


def sentence_joiner(articles: Iterable[list[str]]) -> str:
    """"" if any sentence after an article's first starts with whitespace, else " " (see module doc)."""
    carries_spaces = any(s[:1].isspace() for sentences in articles for s in sentences[1:])
    return "" if carries_spaces else " "


def _hotpot_corpus_file(path: Path) -> dict[str, list[str]]:
    raw = read_json(path, "corpus")
    if not isinstance(raw, dict):
        raise InputError(f"'{path}': expected an object {{title: [sentence, ...]}}, got {_json_type(raw)}")
    for title, sentences in raw.items():
        where = f"'{path}' article {title!r}"
        _strings(_as_list(sentences, where, "sentences"), where, "sentences")
    return raw


def _hotpot_corpus_from_context(questions: list[_HotpotQuestion]) -> dict[str, list[str]]:
    articles: dict[str, list[str]] = {}
    for q in questions:
        for title, sentences in q.context or []:
            prev = articles.setdefault(title, sentences)
            if prev != sentences:
                raise InputError(
                    f"{q.where}: context article {title!r} differs from an earlier question's; "
                    "titles are document ids, so every copy must be identical"
                )
    return articles


def _hotpot_documents(articles: Mapping[str, list[str]]) -> list[SourceDocument]:
    joiner = sentence_joiner(articles.values())
    return [SourceDocument.create(title, title, joiner.join(s)) for title, s in articles.items()]


def _hotpot_to_question(q: _HotpotQuestion, articles: Mapping[str, list[str]], corpus_label: str) -> Question:
    for title, index in q.supporting_facts:
        if title not in articles:
            raise InputError(f"{q.where}: supporting fact title {title!r} is not in {corpus_label}")
        if not 0 <= index < len(articles[title]):
            raise InputError(
                f"{q.where}: supporting fact [{title!r}, {index}] is past the article's {len(articles[title])} sentences"
            )
    titles = _distinct(title for title, _ in q.supporting_facts)
    hops = _bridge_answers(q, articles, titles)
    requests = [
        Request(id=f"{q.id}#{n}", text=f"{q.question} — about {title}", answers=hops.get(title, []),
                supporting_source_ids=[title])
        for n, title in enumerate(titles, start=1)
    ]
    return Question(
        id=q.id, question=q.question, answers=[q.answer], relevant_source_ids=titles, requests=requests
    )


_DISAMBIGUATION = re.compile(r"\s*\([^()]*\)\s*$")


def _names(text: str, name: str) -> bool:
    """`name` occurs in `text` as whole words, casefolded."""
    return bool(name) and re.search(rf"(?<!\w){re.escape(name.casefold())}(?!\w)", text.casefold()) is not None


def _bridge_answers(q: _HotpotQuestion, articles: Mapping[str, list[str]], titles: list[str]) -> dict[str, list[str]]:
    """Title -> the answer its request yields, for a bridge question over two articles where the annotation
    fixes both hops (see the module doc); else no answers."""
    if q.type != "bridge" or len(titles) != 2 or q.answer.casefold() in ("yes", "no", ""):
        return {}
    facts = {t: " ".join(articles[t][i] for title, i in q.supporting_facts if title == t) for t in titles}
    holders = [t for t in titles if _names(facts[t], q.answer)]
    if len(holders) != 1:
        return {}
    second = holders[0]
    first = titles[1] if second == titles[0] else titles[0]
    name = {t: _DISAMBIGUATION.sub("", t) for t in titles}
    entity = next((name[t] for t, other in ((second, first), (first, second)) if _names(facts[other], name[t])), None)
    if entity is None or entity.casefold() == q.answer.casefold() or _names(q.question, entity):
        return {}  # no bridge, or one the question itself names: that hop is given, not asked
    return {first: [entity], second: [q.answer]}


def import_hotpotqa(questions_path: Path, corpus_path: Path | None = None) -> DatasetImport:
    """HotpotQA: one request per supporting article (a bridge's hops with answers where the annotation fixes them);
    corpus is --dataset-corpus or the questions' contexts."""
    items = _as_list(read_json(questions_path, "questions"), f"'{questions_path}'", "question objects")
    parsed = [
        _parse_hotpot_question(
            obj, _item_where(questions_path, i, obj if isinstance(obj, dict) else {}, "_id"), corpus_path is None
        )
        for i, obj in enumerate(items)
    ]
    if corpus_path is not None:
        articles = _hotpot_corpus_file(corpus_path)
        corpus_label = f"corpus '{corpus_path}'"
    else:
        articles = _hotpot_corpus_from_context(parsed)
        corpus_label = "the questions' contexts"
    docs = _hotpot_documents(articles)
    _check_documents(docs, corpus_path or questions_path)
    questions = [_hotpot_to_question(q, articles, corpus_label) for q in parsed]
    return _assemble("hotpotqa", docs, questions, questions_path)
