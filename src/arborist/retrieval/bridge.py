"""The bridge route: documents whose title is named in the best first-stage evidence.

Multi-hop questions hinge on an entity the question never names ("the
director of film X" -> the director's own page). The first-stage routes find
the film's page; its text names the director, and the director's page is
the one whose title that text mentions. The route is seeded by the
first-stage fusion, so it runs after the others.
"""

from __future__ import annotations

import re
import weakref

from arborist.corpus.fts_query import words
from arborist.corpus.store import CorpusStore
from arborist.retrieval.analysis import STOPWORDS

MAX_TITLE_TOKENS = 8
_PARENTHETICAL = re.compile(r"\s*\([^)]*\)\s*$")


def title_key(title: str) -> tuple[str, ...]:
    """Lower-case tokens of a title without a trailing disambiguation ("X (film)" -> x)."""
    return tuple(words(_PARENTHETICAL.sub("", title)))


class TitleIndex:
    """Title token sequences -> the first chunk of the one document with that title.

    A title shared by several documents (every paragraph of one article, in
    a paragraph-per-document corpus) names none of them in particular: it is
    left out. Following it flooded single-hop rankings with arbitrary
    paragraphs of the article (SQuAD Recall@10 -1.1 points) and gained
    nothing on MuSiQue or HotpotQA.
    """

    def __init__(self, titles: list[tuple[str, str, int]]) -> None:
        self.by_key: dict[tuple[str, ...], list[tuple[str, int]]] = {}
        for doc_id, title, rowid in titles:
            key = title_key(title)
            if not key or len(key) > MAX_TITLE_TOKENS:
                continue
            if len(key) == 1 and (key[0] in STOPWORDS or len(key[0]) < 3 or key[0].isdigit()):
                continue  # "The", "A", "1990": would match nearly every passage
            self.by_key.setdefault(key, []).append((doc_id, rowid))
        self.by_key = {key: docs for key, docs in self.by_key.items() if len(docs) == 1}
        self.max_len = max((len(k) for k in self.by_key), default=0)

    def mentions(self, text: str) -> list[tuple[str, int]]:
        """(doc_id, rowid) of documents whose title occurs in `text`, in order of first mention."""
        toks = words(text)
        found: dict[str, int] = {}
        for i in range(len(toks)):
            for n in range(min(self.max_len, len(toks) - i), 0, -1):
                for doc_id, rowid in self.by_key.get(tuple(toks[i : i + n]), ()):
                    found.setdefault(doc_id, rowid)
        return list(found.items())


# One index per open store, keyed on the store generation: any ingest that
# changes chunks (in this process or another) bumps it, so the index is rebuilt.
# (An object id would not do: CPython reuses ids once the old list is freed.)
_INDEXES: weakref.WeakKeyDictionary[CorpusStore, tuple[int, TitleIndex]] = weakref.WeakKeyDictionary()


def title_index(store: CorpusStore) -> TitleIndex:
    generation = store.generation()
    cached = _INDEXES.get(store)
    if cached is None or cached[0] != generation:
        cached = _INDEXES[store] = (generation, TitleIndex(store.titles()))
    return cached[1]


def bridge_ranking(store: CorpusStore, seed_rowids: list[int], depth: int) -> list[int]:
    """The seeds, then the first chunks of the documents they name (seeds in rank order).

    The seeds rank first because they are where the route starts from: fused
    with the first stage, this keeps the first stage's best results on top,
    so a bridged page never displaces what the question itself matched best.
    """
    index = title_index(store)
    seeds = store.chunks_by_rowid(seed_rowids)
    out: list[int] = list(seed_rowids)[:depth]
    seen = {row.doc_id for row in seeds.values()}
    for rowid in seed_rowids:
        for doc_id, first in index.mentions(seeds[rowid].text):
            if doc_id not in seen:
                seen.add(doc_id)
                out.append(first)
                if len(out) >= depth:
                    return out
    return out
