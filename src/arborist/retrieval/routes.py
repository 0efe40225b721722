"""Lexical retrieval routes. Each returns its own ranked list of chunk rowids.

A route is a function `(store, terms, depth) -> [(rowid, score), ...]`,
best first, registered by name. The registry is the single list of valid
route names; errors and `--help` read it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from arborist import embedding
from arborist.corpus.fts_query import any_of, any_phrase
from arborist.corpus.store import CorpusStore
from arborist.errors import ArboristError
from arborist.retrieval.analysis import QueryTerms
from arborist.retrieval.bridge import bridge_ranking


class RouteUnavailable(ArboristError):
    """A route cannot run on this store (e.g. no vectors); search reports it, never drops it silently."""

Route = Callable[[CorpusStore, QueryTerms, int], list[tuple[int, float]]]
ROUTES: dict[str, Route] = {}

# Second-stage routes rank from the first-stage fusion's best chunks:
# (store, seed rowids best first, depth) -> ranked rowids.
StagedRoute = Callable[[CorpusStore, list[int], int], list[int]]
STAGED_ROUTES: dict[str, StagedRoute] = {"bridge": bridge_ranking}


def route_names() -> list[str]:
    """Every valid route name, from the registries (never a hand-kept list)."""
    return [*ROUTES, *STAGED_ROUTES]


def route(name: str) -> Callable[[Route], Route]:
    def register(fn: Route) -> Route:
        ROUTES[name] = fn
        return fn

    return register


@route("bm25")
def body_bm25(store: CorpusStore, terms: QueryTerms, depth: int) -> list[tuple[int, float]]:
    """Ordinary topical match: BM25 over chunk bodies for the question's content words."""
    tokens = terms.content or terms.tokens
    return store.fts(any_of(tokens, column="body"), depth)


@route("title")
def title_match(store: CorpusStore, terms: QueryTerms, depth: int) -> list[tuple[int, float]]:
    """The entity the question names: BM25 over document titles, earliest chunk first on ties."""
    hits = store.fts(any_of(terms.content, column="title"), depth * 4)
    # Every chunk of a document shares its title score; keep the lowest rowid
    # (first chunk) first so one long document does not flood the list.
    hits.sort(key=lambda h: (-round(h[1], 9), h[0]))
    return hits[:depth]


@route("keyword")
def core_keywords(store: CorpusStore, terms: QueryTerms, depth: int) -> list[tuple[int, float]]:
    """Stopword-stripped content tokens, ranked by how many distinct ones a chunk covers.

    BM25 lets one rare word dominate; coverage rewards chunks that mention
    most of what the question asks about, which is what multi-part questions need.
    """
    if not terms.content_stems:
        return []
    pool = store.fts(any_of(terms.content), depth * 2)
    rows = store.chunks_by_rowid(rowid for rowid, _ in pool)
    scored = []
    for rowid, bm25 in pool:
        row = rows.get(rowid)
        if row is None:  # replaced by a concurrent ingest since the FTS query
            continue
        scored.append((rowid, terms.covered(row.title + "\n" + row.text) + bm25 / 1000.0))
    scored.sort(key=lambda h: -h[1])
    return scored[:depth]


@route("phrase")
def phrase_ngrams(store: CorpusStore, terms: QueryTerms, depth: int) -> list[tuple[int, float]]:
    """Verbatim 6- and 5-token windows of the question: catches allusions and quotations.

    6-gram hits rank above 5-gram-only hits; BM25 orders within each.
    """
    seen: set[int] = set()
    out: list[tuple[int, float]] = []
    for n, bonus in ((6, 1000.0), (5, 0.0)):
        for rowid, score in store.fts(any_phrase(terms.ngrams(n), column="body"), depth):
            if rowid not in seen:
                seen.add(rowid)
                out.append((rowid, bonus + score))
    out.sort(key=lambda h: -h[1])
    return out[:depth]


@route("dense")
def dense(store: CorpusStore, terms: QueryTerms, depth: int) -> list[tuple[int, float]]:
    """Paraphrase: cosine similarity of MiniLM embeddings, exact search with numpy.

    Exact search costs one (chunks x 384) matrix-vector product: ~1 ms at
    10k chunks, ~0.1 s at 1M chunks (1.5 GB of float32). Past about a million
    chunks, or when the matrix no longer fits comfortably in memory, an ANN
    index (usearch or faiss-cpu HNSW) must take over; past ~30M chunks
    (Wikipedia scale, ~46 GB of vectors) a server backend's kNN does.
    """
    if not terms.tokens:
        return []
    rowids, matrix = store.vectors(embedding.MODEL_ID, embedding.DIM)
    if len(rowids) == 0:
        raise RouteUnavailable(
            "the store has no vectors; run `arborist ingest` again without --no-embed"
        )
    query = terms.vector if terms.vector is not None else embedding.get_embedder().embed([terms.question])[0]
    scores = matrix @ query
    n = min(depth, len(scores))
    top = np.argpartition(-scores, n - 1)[:n]
    top = top[np.argsort(-scores[top], kind="stable")]
    return [(int(rowids[i]), float(scores[i])) for i in top]
