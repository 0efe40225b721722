"""The phrase route over the whole corpus, punctuation between words ignored (the seed's Orwell case).

The quoted article shares no word of its title with the question, and other
articles use the question's words more often, so no other route ranks it:
only a verbatim run finds it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.documents import SourceDocument
from arborist.corpus.store import CorpusStore, open_store
from arborist.retrieval import SearchSettings, search
from arborist.retrieval.routes import PHRASE_READ_LIMIT

QUESTION = "oceania had always been at war with eastasia"
NOVEL = (
    "I started rereading the book on a wet Tuesday, with somebody else's pencil marks in the margins. "
    "The weather is the first thing that strikes me: low grey skies, grit in the wind, thin food. "
    "Halfway through, the slogan on the ministry wall said that Oceania had always been{comma} at war with "
    "Eastasia, and nobody in the canteen so much as looked up. "
    "The lifts in the flats never work, and the stairs smell of boiled cabbage."
)
# Articles about the question's words, titled with them: every other route ranks these first.
ATLAS = (
    "Oceania and Eastasia: war, always war. The war between Oceania and Eastasia shaped the atlas; "
    "Eastasia held the east, Oceania the sea, and the war moved the borders of Eastasia {i} times."
)


def _corpus(path: Path, comma: str, distractors: int = 8) -> CorpusStore:
    docs = [SourceDocument.create(f"atlas-{i}", f"Oceania Eastasia War Atlas {i}", ATLAS.format(i=i))
            for i in range(distractors)]
    docs.append(SourceDocument.create("novel", "Notes on a Novel", NOVEL.format(comma=comma)))
    store = open_store(path, create=True)
    store.ingest(docs, ChunkingSettings())
    return store


def _ranked_sources(store: CorpusStore, routes: tuple[str, ...], depth: int = 5) -> dict[str, list[str]]:
    result = search(store, QUESTION, SearchSettings(routes=routes, route_depth=depth, k=depth))
    by_id = store.chunks_by_id(c for ids in result.route_rankings.values() for c in ids)
    return {name: [by_id[c].source_id for c in ids] for name, ids in result.route_rankings.items()}


@pytest.mark.parametrize("comma", [",", ""], ids=["comma-inside-the-run", "plain-run"])
def test_the_quoted_article_is_found_only_by_the_phrase_route(tmp_path: Path, comma: str) -> None:
    # Old route: a comma inside every window hid the quote ("been, at" is not "been at"), and without it
    # only the route_depth chunks holding the windows' words most often were read: the atlases.
    with _corpus(tmp_path / "s.db", comma) as store:
        others = _ranked_sources(store, ("bm25", "title", "keyword"))
        assert all("novel" not in ranked for ranked in others.values()), others
        phrase = _ranked_sources(store, ("phrase",))["phrase"]
        assert phrase == ["novel"]
        fused = search(store, QUESTION, SearchSettings(routes=("bm25", "title", "keyword", "phrase"), route_depth=5))
        assert "novel" in [h.source_id for h in fused.results]


def test_the_phrase_route_asks_fts5_when_a_windows_words_are_common(tmp_path: Path) -> None:
    # More chunks than PHRASE_READ_LIMIT hold every content word of each window: the run is found
    # through FTS5's phrase MATCH instead of reading every candidate.
    with _corpus(tmp_path / "s.db", ",", distractors=PHRASE_READ_LIMIT + 5) as store:
        assert _ranked_sources(store, ("phrase",))["phrase"] == ["novel"]


def test_a_run_with_other_words_between_is_not_a_phrase_hit(tmp_path: Path) -> None:
    with _corpus(tmp_path / "s.db", " indeed") as store:
        assert _ranked_sources(store, ("phrase",))["phrase"] == []
