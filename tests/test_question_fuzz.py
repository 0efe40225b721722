"""Any question text reaches search safely: no FTS5 syntax errors, no crashes, at most k results."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arborist.corpus import CorpusStore, open_store
from arborist.retrieval import SearchSettings, search
from arborist.retrieval.analysis import STOPWORDS
from conftest import ALLUSION_CHUNKING, FIXTURES, build_store

INPUTS = [FIXTURES / "allusion", FIXTURES / "small", FIXTURES / "records" / "with_ids.json"]


def _dense_store(path: Path) -> CorpusStore:
    """The same corpus with embeddings, so the dense route runs too (skipped if it cannot)."""
    try:
        from arborist.embedding import get_embedder
        from arborist.ingest import ingest_paths

        get_embedder()
    except Exception as exc:  # noqa: BLE001 - any reason the dense route cannot run here
        pytest.skip(f"dense route unavailable: {exc}")
    ingest_paths(path, INPUTS, ALLUSION_CHUNKING)
    return open_store(path)


@pytest.fixture(scope="module", params=["lexical", "with-vectors"])
def fuzz_store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[CorpusStore]:
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    store = build_store(path, INPUTS, ALLUSION_CHUNKING) if request.param == "lexical" else _dense_store(path)
    assert store.counts()[0] == 15 + 4 + 3
    yield store
    store.close()


OPERATORS = [
    '"', '""', "'", "*", "NEAR", "NEAR(", "NEAR/3", "AND", "OR", "NOT", "-", "+", "(", ")", "((", ":",
    "^", "{title}", "{body}", "{title body}", "title:", "body:", "chunks_fts", "rowid", "MATCH", ";", "--",
    "/*", "\\", "\x00", "😀", "🇫🇷", "👩‍👩‍👧", "é", "e\u0301", "ﬁ", "İ", "ß", "東京", "٣", "½", "_", "__",
    "oceania", "war", "east", "asia", "tea", "the", "a", " ", "\n", "\t",
]

operator_soup = st.lists(st.sampled_from(OPERATORS), max_size=30)
questions = st.one_of(
    st.text(),
    operator_soup.map(" ".join),
    operator_soup.map("".join),
    st.lists(st.one_of(st.sampled_from(OPERATORS), st.text(max_size=6)), max_size=20).map("".join),
)


def check(result, k: int) -> None:
    assert isinstance(result.results, list)
    assert len(result.results) <= k
    assert [h.rank for h in result.results] == list(range(1, len(result.results) + 1))
    scores = [h.score for h in result.results]
    assert scores == sorted(scores, reverse=True)
    assert all(h.routes for h in result.results)
    assert not {h.chunk_id for h in result.results} & set(result.filtered_chunk_ids)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(question=questions, k=st.integers(min_value=1, max_value=8))
def test_any_question_is_safe(fuzz_store: CorpusStore, question: str, k: int) -> None:
    result = search(fuzz_store, question, SearchSettings(k=k))
    assert result.question == question
    check(result, k)


@settings(max_examples=100, deadline=None)
@given(question=questions, title_filter=st.booleans(),
       routes=st.lists(st.sampled_from(["bm25", "title", "keyword", "phrase"]), min_size=1, unique=True))
def test_any_question_on_any_route_set(fuzz_store: CorpusStore, question: str, title_filter: bool, routes: list[str]) -> None:
    result = search(fuzz_store, question, SearchSettings(k=5, routes=tuple(routes), title_filter=title_filter))
    check(result, 5)
    assert set(result.route_rankings) == set(routes)


@pytest.mark.parametrize("question", ["", " ", "\n\t  \r\n", "\x00", "?!.,;:", "😀🇫🇷", '"', "*", "(^:{-})"])
def test_questions_without_words_find_nothing(fuzz_store: CorpusStore, question: str) -> None:
    result = search(fuzz_store, question)
    assert result.results == []


def test_stopword_only_question(fuzz_store: CorpusStore) -> None:
    question = "what is the of and to which was were them"
    assert all(w in STOPWORDS for w in question.split())
    result = search(fuzz_store, question, SearchSettings(k=7))
    check(result, 7)


def test_operator_words_are_searched_as_words(fuzz_store: CorpusStore) -> None:
    # FTS5 operators in the question are plain words: this must not be a syntax error
    # and must still find the tea document.
    result = search(fuzz_store, 'tea NOT (trade OR "auction") NEAR/2 {title}: ^East* -Asia', SearchSettings(k=3))
    check(result, 3)
    assert result.results and result.results[0].title == "The Tea Trade in East Asia"


def test_100kb_question(fuzz_store: CorpusStore) -> None:
    rng = random.Random(7)
    words = (FIXTURES / "allusion" / "notes-on-a-novel.md").read_text().split() + OPERATORS
    parts: list[str] = []
    size = -1  # n words joined by n - 1 spaces
    while size < 100_000:
        w = rng.choice(words) + (str(rng.randrange(10_000)) if rng.random() < 0.3 else "")
        parts.append(w)
        size += len(w) + 1
    question = " ".join(parts)
    assert len(question) >= 100_000
    result = search(fuzz_store, question, SearchSettings(k=10))
    check(result, 10)
