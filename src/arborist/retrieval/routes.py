"""Lexical retrieval routes. Each returns its own ranked list of chunk rowids.

A route is a function `(store, terms, depth) -> [(rowid, score), ...]`,
best first, registered by name. The registry is the single list of valid
route names; errors and `--help` read it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from arborist import embedding
from arborist.corpus.fts_query import any_of, phrase, words
from arborist.corpus.store import CorpusStore
from arborist.errors import ArboristError
from arborist.retrieval.analysis import QueryTerms, stems_of
from arborist.retrieval.bridge import bridge_ranking
from arborist.retrieval.dense_index import dense_index
from arborist.retrieval.lexical_index import lexical_index


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
    """Ordinary topical match: BM25 over chunk bodies for the question's content words.

    A question of stopwords only ("Who was it?") has no indexed term; FTS5,
    which indexes every word, answers it instead.
    """
    if not terms.content_stems:
        return store.fts(any_of(terms.tokens, column="body"), depth)
    index = lexical_index(store)
    return index.top(index.body_scores(terms.content_stems), depth)


@route("title")
def title_match(store: CorpusStore, terms: QueryTerms, depth: int) -> list[tuple[int, float]]:
    """The entity the question names: BM25 over document titles.

    Every chunk of a document shares its title's score (fusion ranks equal
    scores equally), so the title says which document and the other routes
    say which of its chunks.
    """
    index = lexical_index(store)
    return index.top(index.title_scores(terms.content_stems), depth)


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


# A window whose content words meet in more chunks than this is looked up
# with FTS5's phrase MATCH (about a millisecond over 61k chunks) instead of
# reading every candidate's text (tens of microseconds each).
PHRASE_READ_LIMIT = 200
# The most chunks read for one window that FTS5 matched: a run of words that
# many chunks share verbatim says nothing about which one is quoted.
PHRASE_MATCH_LIMIT = 1000


@route("phrase")
def phrase_ngrams(store: CorpusStore, terms: QueryTerms, depth: int) -> list[tuple[int, float]]:
    """Verbatim 6- and 5-token windows of the question: catches allusions and quotations.

    Over the whole corpus, because the chunk that quotes the question is
    often one no other route ranks (the allusion case). A chunk holds a
    window when the window's words occur in its text one after the other,
    case and the punctuation between words ignored ("In immunology, self
    molecules are those" is the run "in immunology self molecules are
    those"), as FTS5 reads a quoted phrase. Candidates for a window are the
    chunks that hold all its content words (the lexical index's postings,
    rarest first); when more than PHRASE_READ_LIMIT chunks do, FTS5's phrase
    MATCH names the few that hold the run. Each candidate's text is then
    checked word for word (FTS5's porter stems would let "molecule" stand
    for "molecules").

    Score: 1000 x the longest window found + the number of windows found, so
    6-gram hits rank above 5-gram-only hits.
    """
    windows = [(n, gram) for n in (6, 5) for gram in terms.ngrams(n)]
    if not windows:
        return []
    found = lexical_index(store).containing_all([stems_of(" ".join(gram)) for _, gram in windows])
    candidates: list[list[int]] = []
    for (_, gram), rowids in zip(windows, found):
        if len(rowids) > PHRASE_READ_LIMIT:
            candidates.append(store.matching(phrase(" ".join(gram), column="body"), PHRASE_MATCH_LIMIT))
        else:
            candidates.append(rowids.tolist())
    texts = store.texts_by_rowid(sorted({r for held in candidates for r in held}))
    runs: dict[int, str] = {}
    scores: dict[int, float] = {}
    for (n, gram), held in zip(windows, candidates):
        needle = " " + " ".join(gram) + " "
        for rowid in held:
            run = runs.get(rowid)
            if run is None:
                if rowid not in texts:  # replaced by a concurrent ingest since the index was read
                    continue
                run = runs[rowid] = " " + " ".join(words(texts[rowid])) + " "
            if needle in run:
                scores[rowid] = max(scores.get(rowid, 0.0), 1000.0 * n) + 1.0
    ranked = sorted(scores.items(), key=lambda h: (-h[1], h[0]))
    return ranked[:depth]


@route("dense")
def dense(store: CorpusStore, terms: QueryTerms, depth: int) -> list[tuple[int, float]]:
    """Paraphrase: cosine similarity of MiniLM embeddings, exact search with numpy below
    `dense_index.ANN_MIN_VECTORS` vectors and an HNSW index (retrieval.dense_index) above.

    Exact search costs one (chunks x 384) matrix-vector product; past ~30M chunks
    (Wikipedia scale, ~46 GB of vectors) a server backend's kNN takes over (docs/scaling.md).
    """
    if not terms.tokens:
        return []
    ann = dense_index(store)
    if ann is not None:
        query = terms.vector if terms.vector is not None else embedding.get_embedder().embed([terms.question])[0]
        return ann.search(query, depth)
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
