"""The bridge route: documents whose title the best first-stage evidence names."""

from __future__ import annotations

from pathlib import Path

from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.documents import SourceDocument
from arborist.corpus.store import open_store
from arborist.retrieval.bridge import TitleIndex, title_key
from arborist.retrieval.search import SearchSettings, parse_routes, search

DOCS = [
    ("film", "The Lantern Keeper (film)", "The Lantern Keeper is a 1998 drama directed by Orla Fennimore, shot on the coast."),
    ("director", "Orla Fennimore", "Orla Fennimore grew up in Cobh and studied painting before she made films."),
    ("other", "Coastal Drama Festival", "The festival shows coastal dramas every June."),
    ("the", "The", "A page about the English definite article."),
]


def _store(tmp_path: Path):
    store = open_store(tmp_path / "b.db", create=True)
    store.ingest([SourceDocument.create(i, t, x) for i, t, x in DOCS], ChunkingSettings())
    return store


def test_title_key_drops_trailing_disambiguation() -> None:
    assert title_key("The Lantern Keeper (film)") == ("the", "lantern", "keeper")


def test_mentions_find_titles_in_text_but_not_stopword_titles(tmp_path: Path) -> None:
    with _store(tmp_path) as store:
        index = TitleIndex.build(store.titles())
        found = [doc for doc, _ in index.mentions("Directed by Orla Fennimore; the end.")]
        director = store.document("director")
        assert director is not None
        ids = {row.source_id: row.doc_id for row in store.all_chunks()}
        assert found == [ids["director"]]  # "the" never matches the title "The"


def test_bridge_reaches_the_entity_the_question_never_names(tmp_path: Path) -> None:
    # Nothing in the question matches the director's page: only the film's page names her.
    question = "In which town did the director of The Lantern Keeper live as a child?"
    with _store(tmp_path) as store:
        lexical = search(store, question, SearchSettings(routes=parse_routes("bm25,title")))
        bridged = search(store, question, SearchSettings(routes=parse_routes("bm25,title,bridge")))
    seeds = [h.chunk_id for h in lexical.results[: SearchSettings().bridge_seeds]]
    director = next(h.doc_id for h in bridged.results if h.source_id == "director")
    # The route ranks its seeds first, then the pages they name.
    assert bridged.route_rankings["bridge"][: len(seeds)] == seeds
    assert bridged.route_rankings["bridge"][len(seeds)].startswith(director)
    rank = {h.source_id: h.rank for h in bridged.results}
    before = {h.source_id: h.rank for h in lexical.results}
    assert "director" not in before
    assert rank["film"] == before["film"] == 1  # the bridged page never displaces the question's own best match
    assert rank["director"] == len(seeds) + 1


def test_titles_shared_by_several_documents_are_not_followed(tmp_path: Path) -> None:
    docs = [*DOCS, ("director-2", "Orla Fennimore", "Another page with the same title.")]
    with open_store(tmp_path / "s.db", create=True) as store:
        store.ingest([SourceDocument.create(i, t, x) for i, t, x in docs], ChunkingSettings())
        assert TitleIndex.build(store.titles()).mentions("Directed by Orla Fennimore.") == []


def test_the_title_index_follows_an_in_process_re_ingest(tmp_path: Path) -> None:
    from arborist.retrieval.bridge import title_index

    with _store(tmp_path) as store:
        assert [d for d, _ in title_index(store).mentions("Wren Aldous")] == []
        store.ingest([SourceDocument.create("wren", "Wren Aldous", "A new page.")], ChunkingSettings())
        wren = next(d for d, s in store.source_ids().items() if s == "wren")
        assert [d for d, _ in title_index(store).mentions("Wren Aldous")] == [wren]


def test_bridge_alone_is_refused(tmp_path: Path) -> None:
    import pytest

    from arborist.errors import InputError

    with pytest.raises(InputError, match="seeded by the other routes"):
        parse_routes("bridge")


def test_the_title_index_is_saved_and_reopened_without_reading_titles(tmp_path: Path, monkeypatch) -> None:
    # Issue 34, finding 7: every process rebuilt it from every title (a minute at a million documents).
    from arborist.retrieval import bridge

    with _store(tmp_path) as store:
        built = bridge.title_index(store).mentions("Directed by Orla Fennimore in The Lantern Keeper.")
        assert built
        assert store.derived(bridge.INDEX_NAME, store.generation()) is not None

    def no_titles(self) -> list:
        raise AssertionError("a saved title index must be opened, not rebuilt from the titles")

    monkeypatch.setattr(bridge.CorpusStore, "titles", no_titles)
    with open_store(tmp_path / "b.db") as store:
        assert bridge.title_index(store).mentions("Directed by Orla Fennimore in The Lantern Keeper.") == built
