"""BM25 over chunk bodies and document titles, held in memory as postings arrays.

Why this structure. FTS5's `bm25()` scores every row that matches any of the
question's words (an OR query over content words touches a large share of a
61k-chunk corpus) and hands rows to Python one at a time: tens of
milliseconds a question. Here each term keeps its postings as two numpy
arrays (chunk positions, precomputed BM25 weights), the layout bm25s keeps in
a scipy sparse matrix; a question is scored with one concatenation and one
`bincount` over the postings of its few terms. It is built from the store
(the store stays the source of truth) and saved in it (`derived_indexes`),
tagged with the store generation, so re-opening a store loads it instead of
re-tokenising every chunk (40 s at 61k chunks), and an ingest that changes
chunks makes it stale. Loading does no per-term or per-chunk work: the saved
blob is a header and raw arrays, each read as a numpy view of the blob
(terms sorted, found by binary search; chunk ids decoded only for the hits),
so a process opens a 1M-chunk index in the time it takes to read the blob. FTS5 stays the store's full-text index: it
answers stopword-only questions and the `keyword` route; the `phrase` route
takes its candidates from here and asks FTS5's phrase MATCH only for windows
whose content words are common (see `retrieval.routes.phrase_ngrams`).
Past a few million chunks the dense score accumulator (one float per
chunk per question) becomes the cost; that is server-backend territory
(see DESIGN §2).

Terms are `analysis.index_terms`: stemmed content words, the same rule the
question side uses, so stopwords never enter the postings.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np

from arborist.corpus.fts_query import words
from arborist.corpus.store import CorpusStore
from arborist.retrieval.analysis import index_terms
from arborist.retrieval.packed import Strings, pack, unpack

INDEX_NAME = "bm25/2"  # /1 was an .npz whose strings were split into lists on every load
# Robertson/Lucene BM25 constants, the usual defaults (FTS5 and bm25s use them too).
K1 = 1.2
B = 0.75


@dataclass(frozen=True)
class Postings:
    """term id -> (positions, weights) slices: indptr[t]:indptr[t+1]."""

    indptr: np.ndarray  # int64, V + 1
    positions: np.ndarray  # int32
    weights: np.ndarray  # float32

    def score(self, term_ids: list[int], size: int) -> np.ndarray:
        """Summed BM25 weight per position (a dense array of `size`)."""
        if len(term_ids) == 1:
            s, e = self.indptr[term_ids[0]], self.indptr[term_ids[0] + 1]
            return np.bincount(self.positions[s:e], weights=self.weights[s:e], minlength=size)
        slices = [slice(self.indptr[t], self.indptr[t + 1]) for t in term_ids]
        pos = np.concatenate([self.positions[s] for s in slices])
        w = np.concatenate([self.weights[s] for s in slices])
        return np.bincount(pos, weights=w, minlength=size)


def _postings(term_ids: np.ndarray, positions: np.ndarray, n_terms: int, n_rows: int) -> Postings:
    """BM25 postings from one (term id, row position) pair per token occurrence."""
    if len(term_ids) == 0:
        return Postings(np.zeros(n_terms + 1, np.int64), np.zeros(0, np.int32), np.zeros(0, np.float32))
    keys = term_ids.astype(np.int64) * n_rows + positions
    uniq, tf = np.unique(keys, return_counts=True)  # sorted by term, then position
    tid, pos = uniq // n_rows, uniq % n_rows
    lengths = np.bincount(positions, minlength=n_rows).astype(np.float64)
    avg = lengths.mean() if n_rows else 1.0
    df = np.bincount(tid, minlength=n_terms).astype(np.float64)
    idf = np.log(1.0 + (n_rows - df + 0.5) / (df + 0.5))
    norm = K1 * (1.0 - B + B * lengths[pos] / max(avg, 1e-9))
    weights = idf[tid] * tf * (K1 + 1.0) / (tf + norm)
    indptr = np.searchsorted(tid, np.arange(n_terms + 1)).astype(np.int64)
    return Postings(indptr, pos.astype(np.int32), weights.astype(np.float32))


class LexicalIndex:
    """BM25 over chunk bodies (one row per chunk) and titles (one row per document)."""

    def __init__(
        self,
        vocab: Strings,
        rowids: np.ndarray,
        chunk_ids: Strings,
        chunk_doc: np.ndarray,
        body: Postings,
        title: Postings,
    ) -> None:
        self.terms = vocab  # sorted: term id = position
        self.rowids = rowids  # int64, sorted: position -> chunk rowid
        self.chunk_ids = chunk_ids  # position -> chunk id (rankings name chunks without a store read)
        self.chunk_doc = chunk_doc  # int32: chunk position -> document position
        self.body = body
        self.title = title
        self.n_docs = int(chunk_doc.max()) + 1 if len(chunk_doc) else 0
        self._term_id: dict[str, int | None] = {}

    @property
    def vocab(self) -> list[str]:
        return self.terms.tolist()

    def term_id(self, term: str) -> int | None:
        if term not in self._term_id:
            self._term_id[term] = self.terms.find(term)
        return self._term_id[term]

    # -- building and saving --------------------------------------------

    @classmethod
    def build(cls, store: CorpusStore) -> LexicalIndex:
        vocab: dict[str, int] = {}
        # Word -> term id (-1: not indexed), so each distinct word is
        # stop-listed and stemmed once, not once per occurrence.
        term_of: dict[str, int] = {}

        def term_ids(text: str) -> list[int]:
            toks = words(text)
            for w in set(toks).difference(term_of):
                stems = index_terms(w)
                term_of[w] = vocab.setdefault(stems[0], len(vocab)) if len(stems) == 1 else -1
            return [i for i in map(term_of.__getitem__, toks) if i >= 0]

        body_terms: list[int] = []
        body_pos: list[int] = []
        title_terms: list[int] = []
        title_pos: list[int] = []
        rowids: list[int] = []
        chunk_ids: list[str] = []
        chunk_doc: list[int] = []
        doc_pos: dict[str, int] = {}
        for i, (rowid, row) in enumerate(store.iter_chunks()):
            rowids.append(rowid)
            chunk_ids.append(row.chunk_id)
            terms = term_ids(row.text)
            body_terms.extend(terms)
            body_pos.extend([i] * len(terms))
            d = doc_pos.get(row.doc_id)
            if d is None:
                d = doc_pos[row.doc_id] = len(doc_pos)
                tt = term_ids(row.title)
                title_terms.extend(tt)
                title_pos.extend([d] * len(tt))
            chunk_doc.append(d)
        n_terms = len(vocab)
        # Term ids become positions in the sorted vocabulary, so a loaded index finds a term by binary search.
        ordered = sorted(vocab)
        rank = np.empty(n_terms, np.int64)
        rank[[vocab[t] for t in ordered]] = np.arange(n_terms)
        return cls(
            vocab=Strings.of(ordered),
            rowids=np.array(rowids, dtype=np.int64),
            chunk_ids=Strings.of(chunk_ids),
            chunk_doc=np.array(chunk_doc, dtype=np.int32),
            body=_postings(rank[np.array(body_terms, np.int64)], np.array(body_pos, np.int64), n_terms, len(rowids)),
            title=_postings(rank[np.array(title_terms, np.int64)], np.array(title_pos, np.int64), n_terms,
                            len(doc_pos)),
        )

    def to_bytes(self) -> bytes:
        return pack("arborist-bm25/2", {
            "vocab_data": self.terms.data, "vocab_offsets": self.terms.offsets,
            "chunk_ids_data": self.chunk_ids.data, "chunk_ids_offsets": self.chunk_ids.offsets,
            "rowids": self.rowids, "chunk_doc": self.chunk_doc,
            **{f"{name}_{part}": getattr(p, part) for name, p in (("body", self.body), ("title", self.title))
               for part in ("indptr", "positions", "weights")},
        })

    @classmethod
    def from_bytes(cls, data: bytes) -> LexicalIndex:
        z = unpack("arborist-bm25/2", data)
        return cls(
            vocab=Strings(z["vocab_data"], z["vocab_offsets"]),
            rowids=z["rowids"],
            chunk_ids=Strings(z["chunk_ids_data"], z["chunk_ids_offsets"]),
            chunk_doc=z["chunk_doc"],
            body=Postings(z["body_indptr"], z["body_positions"], z["body_weights"]),
            title=Postings(z["title_indptr"], z["title_positions"], z["title_weights"]),
        )

    # -- scoring ---------------------------------------------------------

    def _ids(self, stems: frozenset[str]) -> list[int]:
        return sorted(i for i in map(self.term_id, stems) if i is not None)

    def body_scores(self, stems: frozenset[str]) -> np.ndarray:
        """BM25 of every chunk body for these query stems (zeros where none occurs)."""
        ids = self._ids(stems)
        if not ids:
            return np.zeros(len(self.rowids))
        return self.body.score(ids, len(self.rowids))

    def title_scores(self, stems: frozenset[str]) -> np.ndarray:
        """BM25 of every chunk's document title: all chunks of a document share it."""
        ids = self._ids(stems)
        if not ids:
            return np.zeros(len(self.rowids))
        return np.asarray(self.title.score(ids, self.n_docs)[self.chunk_doc])

    def containing_all(self, stem_sets: list[frozenset[str]]) -> list[np.ndarray]:
        """Per set of stems, the rowids (sorted) of chunks whose body holds every one of them.

        Over the whole corpus, rarest stem first: its postings are the first
        candidates and each further stem keeps those found in its own
        (sorted) postings by binary search, so the cost follows the rarest
        stem, not the commonest. A set with a stem the corpus lacks holds none.
        """
        empty = np.zeros(0, np.int64)
        out = []
        for stems in stem_sets:
            found = [self.term_id(t) for t in stems]
            ids = [i for i in found if i is not None]
            if not ids or len(ids) < len(found):
                out.append(empty)
                continue
            spans = sorted((self.body.indptr[i], self.body.indptr[i + 1]) for i in ids)
            spans.sort(key=lambda se: se[1] - se[0])
            held = self.body.positions[spans[0][0] : spans[0][1]]
            for s, e in spans[1:]:
                if not len(held):
                    break
                postings = self.body.positions[s:e]
                at = np.searchsorted(postings, held)
                held = held[(at < len(postings)) & (postings[np.minimum(at, len(postings) - 1)] == held)]
            out.append(self.rowids[held])
        return out

    def chunk_ids_of(self, rowids: list[int]) -> list[str]:
        """Chunk ids of rowids this index holds (one vectorised lookup, no store read)."""
        positions = np.searchsorted(self.rowids, np.array(rowids, dtype=np.int64))
        return [self.chunk_ids[i] for i in positions.tolist()]

    def top(self, scores: np.ndarray, depth: int) -> list[tuple[int, float]]:
        """(rowid, score) of the `depth` best positive scores, best first, lower rowid first on ties."""
        hits = np.flatnonzero(scores > 0)
        if len(hits) > depth:
            kth = np.partition(scores[hits], len(hits) - depth)[len(hits) - depth]
            hits = hits[scores[hits] >= kth]  # keeps ties at the cut, then sorts and trims
        order = hits[np.lexsort((hits, -scores[hits]))][:depth]
        return [(int(self.rowids[i]), float(scores[i])) for i in order]


# One index per open store, keyed on the store generation.
_CACHE: weakref.WeakKeyDictionary[CorpusStore, tuple[int, LexicalIndex]] = weakref.WeakKeyDictionary()


def lexical_index(store: CorpusStore) -> LexicalIndex:
    """The store's BM25 index: from memory, else from the store, else built (and saved)."""
    generation = store.generation()
    cached = _CACHE.get(store)
    if cached is not None and cached[0] == generation:
        return cached[1]
    data = store.derived(INDEX_NAME, generation)
    if data is not None:
        index = LexicalIndex.from_bytes(data)
    else:
        index = LexicalIndex.build(store)
        store.put_derived(INDEX_NAME, generation, index.to_bytes())
    _CACHE[store] = (generation, index)
    return index
