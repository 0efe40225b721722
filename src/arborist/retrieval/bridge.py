"""The bridge route: documents whose title is named in the best first-stage evidence.

Multi-hop questions hinge on an entity the question never names ("the
director of film X" -> the director's own page). The first-stage routes find
the film's page; its text names the director, and the director's page is
the one whose title that text mentions. The route is seeded by the
first-stage fusion, so it runs after the others.
"""

from __future__ import annotations

import hashlib
import re
import weakref

import numpy as np

from arborist.corpus.fts_query import words
from arborist.corpus.store import CorpusStore
from arborist.retrieval.analysis import STOPWORDS
from arborist.retrieval.packed import Strings, pack, unpack

MAX_TITLE_TOKENS = 8
_PARENTHETICAL = re.compile(r"\s*\([^)]*\)\s*$")


def title_key(title: str) -> tuple[str, ...]:
    """Lower-case tokens of a title without a trailing disambiguation ("X (film)" -> x)."""
    return tuple(words(_PARENTHETICAL.sub("", title)))


INDEX_NAME = "bridge-titles/1"


def _key_hash(key: str) -> int:
    """A stable 64-bit hash of a title key (Python's own hash changes with every process)."""
    return int.from_bytes(hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest(), "little")


class TitleIndex:
    """Title token sequences -> the first chunk of the one document with that title.

    A title shared by several documents (every paragraph of one article, in
    a paragraph-per-document corpus) names none of them in particular: it is
    left out. Following it flooded single-hop rankings with arbitrary
    paragraphs of the article (SQuAD Recall@10 -1.1 points) and gained
    nothing on MuSiQue or HotpotQA.

    Kept as arrays sorted by a hash of the key (its tokens joined by spaces;
    tokens hold none), saved in the store by generation and opened as views
    of the stored bytes: at a million documents, building it takes a minute
    (reading and tokenising every title), opening it a fraction of a second.
    """

    def __init__(self, hashes: np.ndarray, keys: Strings, doc_ids: Strings, rowids: np.ndarray,
                 max_len: int) -> None:
        self.hashes = hashes  # uint64, sorted
        self.keys = keys  # the key of each entry, to tell a hash collision from a match
        self.doc_ids = doc_ids
        self.rowids = rowids  # int64: the document's first chunk
        self.max_len = max_len

    @classmethod
    def build(cls, titles: list[tuple[str, str, int]]) -> TitleIndex:
        by_key: dict[tuple[str, ...], list[tuple[str, int]]] = {}
        for doc_id, title, rowid in titles:
            key = title_key(title)
            if not key or len(key) > MAX_TITLE_TOKENS:
                continue
            if len(key) == 1 and (key[0] in STOPWORDS or len(key[0]) < 3 or key[0].isdigit()):
                continue  # "The", "A", "1990": would match nearly every passage
            by_key.setdefault(key, []).append((doc_id, rowid))
        unique = sorted((_key_hash(" ".join(k)), " ".join(k), docs[0]) for k, docs in by_key.items() if len(docs) == 1)
        return cls(
            hashes=np.array([h for h, _, _ in unique], dtype=np.uint64),
            keys=Strings.of([k for _, k, _ in unique]),
            doc_ids=Strings.of([d for _, _, (d, _) in unique]),
            rowids=np.array([r for _, _, (_, r) in unique], dtype=np.int64),
            max_len=max((k.count(" ") + 1 for _, k, _ in unique), default=0),
        )

    def to_bytes(self) -> bytes:
        return pack(INDEX_NAME, {
            "hashes": self.hashes, "keys_data": self.keys.data, "keys_offsets": self.keys.offsets,
            "doc_ids_data": self.doc_ids.data, "doc_ids_offsets": self.doc_ids.offsets,
            "rowids": self.rowids, "max_len": np.array([self.max_len], dtype=np.int64),
        })

    @classmethod
    def from_bytes(cls, data: bytes) -> TitleIndex:
        z = unpack(INDEX_NAME, data)
        return cls(z["hashes"], Strings(z["keys_data"], z["keys_offsets"]),
                   Strings(z["doc_ids_data"], z["doc_ids_offsets"]), z["rowids"], int(z["max_len"][0]))

    def _entry(self, key: str) -> int | None:
        """The position of `key`, or None."""
        h = np.uint64(_key_hash(key))
        i = int(np.searchsorted(self.hashes, h))
        while i < len(self.hashes) and self.hashes[i] == h:
            if self.keys[i] == key:
                return i
            i += 1
        return None

    def mentions(self, text: str) -> list[tuple[str, int]]:
        """(doc_id, rowid) of documents whose title occurs in `text`, in order of first mention."""
        toks = words(text)
        found: dict[str, int] = {}
        for i in range(len(toks)):
            for n in range(min(self.max_len, len(toks) - i), 0, -1):
                j = self._entry(" ".join(toks[i : i + n]))
                if j is not None:
                    found.setdefault(self.doc_ids[j], int(self.rowids[j]))
        return list(found.items())


# One index per open store, keyed on the store generation: any ingest that
# changes chunks (in this process or another) bumps it, so the index is rebuilt.
# (An object id would not do: CPython reuses ids once the old list is freed.)
_INDEXES: weakref.WeakKeyDictionary[CorpusStore, tuple[int, TitleIndex]] = weakref.WeakKeyDictionary()


def title_index(store: CorpusStore) -> TitleIndex:
    """The store's title index: from memory, else from the store, else built (and saved)."""
    generation = store.generation()
    cached = _INDEXES.get(store)
    if cached is not None and cached[0] == generation:
        return cached[1]
    data = store.derived(INDEX_NAME, generation)
    if data is not None:
        index = TitleIndex.from_bytes(data)
    else:
        index = TitleIndex.build(store.titles())
        store.put_derived(INDEX_NAME, generation, index.to_bytes())
    _INDEXES[store] = (generation, index)
    return index


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
    for rowid in (r for r in seed_rowids if r in seeds):  # a seed a concurrent ingest replaced is skipped
        for doc_id, first in index.mentions(seeds[rowid].text):
            if doc_id not in seen:
                seen.add(doc_id)
                out.append(first)
                if len(out) >= depth:
                    return out
    return out
