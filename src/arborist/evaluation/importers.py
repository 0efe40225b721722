"""Turn public QA datasets into a corpus file plus an evaluation bound to it.

An importer reads a dataset's own files, and returns the documents that
`arborist ingest DIR/corpus.json` will store and an `arborist-evaluation/1`
file whose `corpus_digest` is computed from exactly those documents, so the
binding is known before anything is ingested. Everything is parsed and
checked before a byte is written; a malformed file fails with one line that
names the file, the item (0-based, as in the JSON array) and the field.

Choices per format (each made so that gold ids are exact, not guessed):

musique
    Passage ids are `<slug of title>-<8 hex of the content digest>`: titles
    repeat across passages (126 repeats in the shared subset), positions
    change when a corpus file is reordered or rebuilt from the questions'
    paragraphs, whereas content ids are the same whether `--corpus` is given
    or the corpus is built from the questions, and stay readable in reports.
    Supporting paragraphs are matched on normalised title AND text (two
    supporting paragraphs of one question can share a title). Each
    `question_decomposition` hop is one request with its own answer and
    passage; `#1` references are kept verbatim. A question marked
    `answerable: false` (MuSiQue-Full) has no gold: no answers, relevant ids
    or requests.

hotpotqa
    Article id = title (titles are the keys of the corpus object, so unique).
    Text = sentences joined with "" when the file's sentences carry their own
    leading spaces (the HotpotQA release does: joining with "" restores the
    original paragraph, including its ~20 mid-quote sentence splits such as
    '"Sledge Hammer!' + '", "The A-Team"'), else with " ". The rule is decided
    once per file, not per article, because an article whose only break is
    such a split would otherwise get a spurious space. Bridge and comparison
    questions alike get one request per distinct supporting title,
    "<question> — about <title>", supported by that title, with no answers:
    HotpotQA annotates only the final answer, and attaching it to one
    article's request would claim that sub-request yields it, which is false
    for a bridge's first hop and for either side of a comparison.

squad
    Each paragraph is a document `<article title>#<paragraph index>` titled
    with the article title as written in the file; each qa is a question with
    its distinct answer texts and one request (the question itself). SQuAD 2.0
    `is_impossible` questions keep their request but have no answers and no
    relevant ids. The paragraphs are the corpus, so `--corpus` is refused.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arborist.corpus.documents import (
    SourceDocument,
    content_digest,
    corpus_digest,
    normalize_text,
    normalize_title,
)
from arborist.errors import InputError
from arborist.evaluation.format import Evaluation, Question, Request, write_evaluation

CORPUS_FILE = "corpus.json"
EVALUATION_FILE = "evaluation.json"


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


# -- reading and checking JSON ---------------------------------------------


class _DuplicateKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json.loads keeps the last of repeated keys silently; a dataset must not lose items."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKeyError(key)
        out[key] = value
    return out


def read_json(path: Path, role: str) -> Any:
    """Parse a whole dataset file, or fail naming it (and line/column for bad JSON)."""
    try:
        raw = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError(f"{role} file '{path}' does not exist") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{role} file '{path}' is not UTF-8 text (invalid byte at position {exc.start})") from None
    except OSError as exc:
        raise InputError(f"cannot read {role} file '{path}': {exc.strerror or exc}") from None
    try:
        return json.loads(raw, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"'{path}' is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except _DuplicateKeyError as exc:
        raise InputError(f"'{path}': key {exc.key!r} appears twice in one JSON object") from None


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return {str: "a string", list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


_KIND_NAMES: dict[type, str] = {
    str: "a string", int: "an integer", bool: "true or false", list: "a list", dict: "an object",
}
_MISSING: Any = object()


def _is(value: Any, kind: type) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def _field(obj: Mapping[str, Any], key: str, kind: type, where: str, default: Any = _MISSING) -> Any:
    """obj[key] checked against `kind`; the error names the place and the field."""
    if key not in obj:
        if default is not _MISSING:
            return default
        raise InputError(f"{where}: missing field '{key}'")
    value = obj[key]
    if not _is(value, kind):
        raise InputError(f"{where}: field '{key}' must be {_KIND_NAMES[kind]}, got {_json_type(value)}")
    return value


def _optional_int(obj: Mapping[str, Any], key: str, where: str) -> int | None:
    """An index that may be null (MuSiQue-Full hops of unanswerable questions)."""
    if obj.get(key, _MISSING) is None:
        return None
    value: int = _field(obj, key, int, where)
    return value


def _as_object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"{where}: expected an object, got {_json_type(value)}")
    return value


def _as_list(value: Any, where: str, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise InputError(f"{where}: expected a JSON list of {what}, got {_json_type(value)}")
    return value


def _strings(values: list[Any], where: str, key: str) -> list[str]:
    for i, value in enumerate(values):
        if not isinstance(value, str):
            raise InputError(f"{where}: {key}[{i}] must be a string, got {_json_type(value)}")
    return values


def _item_where(path: Path, index: int, obj: Mapping[str, Any], id_key: str) -> str:
    """"'q.json' item 3 (id 'x')": the id is added when present so the item can be found."""
    where = f"'{path}' item {index}"
    item_id = obj.get(id_key)
    return f"{where} (id '{item_id}')" if isinstance(item_id, str) else where


def _distinct(values: Iterable[str]) -> list[str]:
    """Values in order of first appearance: gold ids and answers are ordered lists."""
    return list(dict.fromkeys(values))


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


# -- MuSiQue ---------------------------------------------------------------


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
    """MuSiQue: hops become requests; corpus is --corpus or the questions' paragraphs."""
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


# -- HotpotQA --------------------------------------------------------------


@dataclass(frozen=True)
class _HotpotQuestion:
    where: str
    id: str
    question: str
    answer: str
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
    requests = [
        Request(id=f"{q.id}#{n}", text=f"{q.question} — about {title}", supporting_source_ids=[title])
        for n, title in enumerate(titles, start=1)
    ]
    return Question(
        id=q.id, question=q.question, answers=[q.answer], relevant_source_ids=titles, requests=requests
    )


def import_hotpotqa(questions_path: Path, corpus_path: Path | None = None) -> DatasetImport:
    """HotpotQA: one request per supporting article; corpus is --corpus or the questions' contexts."""
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


# -- SQuAD -----------------------------------------------------------------


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
        raise InputError("squad takes no --corpus: the paragraphs in the --questions file are the corpus")
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


# -- registry and writing --------------------------------------------------

Importer = Callable[[Path, Path | None], DatasetImport]

#: The formats `arborist datasets import` accepts; the CLI's choices come from here.
IMPORTERS: dict[str, Importer] = {
    "musique": import_musique,
    "hotpotqa": import_hotpotqa,
    "squad": import_squad,
}


def import_dataset(fmt: str, questions_path: Path, corpus_path: Path | None = None) -> DatasetImport:
    try:
        importer = IMPORTERS[fmt]
    except KeyError:
        raise InputError(f"unknown dataset format {fmt!r}; choose one of {', '.join(sorted(IMPORTERS))}") from None
    return importer(questions_path, corpus_path)


def _corpus_json(docs: Iterable[SourceDocument]) -> str:
    rows = [{"id": d.source_id, "title": d.title, "text": d.text} for d in docs]
    return json.dumps(rows, ensure_ascii=False, indent=1) + "\n"


def _stage(out_dir: Path, name: str, write: Callable[[Path], None]) -> Path:
    """Write to a temp file beside the target, so os.replace can publish it whole."""
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=out_dir)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        write(tmp_path)
        os.chmod(tmp_path, 0o644)  # mkstemp makes 0600; these are ordinary shareable files
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise
    return tmp_path


def _prepare_out_dir(out_dir: Path, targets: Iterable[Path], force: bool) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(f"--out '{out_dir}' exists and is not a folder")
    if not force:
        for target in targets:
            if target.exists():
                raise InputError(f"'{target}' already exists; pass --force to overwrite it")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create --out folder '{out_dir}': {exc.strerror or exc}") from None


def write_import(result: DatasetImport, out_dir: Path, force: bool = False) -> WrittenImport:
    """Write DIR/corpus.json and DIR/evaluation.json, each atomically.

    Both are fully written to temp files before either replaces anything, and
    the evaluation is published last, so an evaluation.json on disk always
    has its corpus.json beside it.
    """
    written = WrittenImport(out_dir / CORPUS_FILE, out_dir / EVALUATION_FILE)
    _prepare_out_dir(out_dir, (written.evaluation_path, written.corpus_path), force)
    corpus_text = _corpus_json(result.documents)
    staged: list[Path] = []
    try:
        staged.append(_stage(out_dir, CORPUS_FILE, lambda p: p.write_text(corpus_text, encoding="utf-8")))
        staged.append(_stage(out_dir, EVALUATION_FILE, lambda p: write_evaluation(result.evaluation, p)))
    except BaseException:
        for path in staged:
            path.unlink(missing_ok=True)
        raise
    os.replace(staged[0], written.corpus_path)
    os.replace(staged[1], written.evaluation_path)
    return written
