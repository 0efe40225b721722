"""Run the routes, apply the title-relevance filter, fuse with RRF.

The result keeps each route's own ranking and what the filter dropped, so a
missing chunk can be traced to the route that never found it or the filter
that removed it.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator

from arborist import embedding
from arborist.corpus.store import ChunkRow, CorpusStore
from arborist.errors import InputError
from arborist.retrieval.analysis import QueryTerms, stems_of
from arborist.retrieval.fusion import rrf
from arborist.retrieval.routes import ROUTES, STAGED_ROUTES, RouteUnavailable, route_names

DEFAULT_ROUTES = ("bm25", "title", "phrase", "dense", "bridge")
# Chosen by bench/tune_fusion.py on the MuSiQue and HotpotQA dev sets
# (grid over weights {0, .5, 1, 2} and k {10, 30, 60, 100}, best mean
# Recall@10). `keyword` earned weight 0 there, so it is not a default route;
# when asked for, it fuses at 0.5.
DEFAULT_ROUTE_WEIGHTS = {"bm25": 1.0, "title": 0.5, "keyword": 0.5, "phrase": 2.0, "dense": 2.0, "bridge": 2.0}
DEFAULT_RRF_K_TUNED = 10
# Routes whose hits bypass the title-relevance filter: a verbatim phrase is
# evidence of relevance whatever the title says (the allusion case).
FILTER_ACCEPT_ROUTES = frozenset({"phrase", "title"})


def parse_routes(spec: str) -> tuple[str, ...]:
    """'bm25,title' -> ('bm25', 'title'), refusing unknown names with the valid list."""
    valid = route_names()
    names = tuple(dict.fromkeys(s.strip() for s in spec.split(",") if s.strip()))
    if not names:
        raise InputError(f"no routes given; valid routes: {', '.join(valid)}")
    unknown = [n for n in names if n not in valid]
    if unknown:
        raise InputError(
            f"unknown route {', '.join(repr(u) for u in unknown)}; valid routes: {', '.join(valid)}"
        )
    if all(n in STAGED_ROUTES for n in names):
        raise InputError(
            f"route {', '.join(repr(n) for n in names)} is seeded by the other routes; add at least one of "
            f"{', '.join(ROUTES)}"
        )
    return names


class SearchSettings(BaseModel):
    """Retrieval knobs; every one of them is part of the answer policy."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    k: int = Field(default=20, ge=1, le=10_000)
    routes: tuple[str, ...] = DEFAULT_ROUTES
    route_depth: int = Field(default=100, ge=1, le=10_000)
    rrf_k: int = Field(default=DEFAULT_RRF_K_TUNED, ge=1)
    route_weights: dict[str, float] = Field(default_factory=lambda: dict(DEFAULT_ROUTE_WEIGHTS))
    # Off by default: on the dev sets it cost 6 (MuSiQue) and 10 (HotpotQA)
    # points of Recall@10, because multi-hop evidence often has an unrelated title.
    title_filter: bool = False
    bridge_seeds: int = Field(default=3, ge=1, le=100)

    @field_validator("routes")
    @classmethod
    def _known_routes(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        return parse_routes(",".join(v))


class SearchHit(BaseModel):
    rank: int
    chunk_id: str
    doc_id: str
    source_id: str
    title: str
    score: float
    routes: dict[str, int]
    text: str


class SearchResult(BaseModel):
    question: str
    results: list[SearchHit]
    route_rankings: dict[str, list[str]] = Field(
        description="Each route's own ranked chunk ids (up to route_depth)."
    )
    filtered_chunk_ids: list[str] = Field(
        description="Candidates dropped by the title-relevance filter."
    )
    unavailable_routes: dict[str, str] = Field(
        default_factory=dict, description="Requested routes that could not run, with the reason."
    )


def _title_filter(
    rows: dict[int, ChunkRow], terms: QueryTerms, fused: list[tuple[int, float, dict[str, int]]]
) -> tuple[list[tuple[int, float, dict[str, int]]], list[int]]:
    """Drop candidates whose title shares no content stem with the question.

    Accept paths: any hit from a route in FILTER_ACCEPT_ROUTES. If no
    candidate's title relates to the question at all, the question names no
    entity the titles know, and filtering would drop everything: keep all.
    """
    kept, dropped = [], []
    any_title_related = False
    for item in fused:
        rowid, _, ranks = item
        related = bool(terms.content_stems & stems_of(rows[rowid].title))
        any_title_related |= related
        if related or FILTER_ACCEPT_ROUTES.intersection(ranks):
            kept.append(item)
        else:
            dropped.append(rowid)
    if not any_title_related:
        return fused, []
    return kept, dropped


def search(
    store: CorpusStore,
    question: str,
    settings: SearchSettings | None = None,
    vector: np.ndarray | None = None,
) -> SearchResult:
    """Ranked chunks for `question`; any text is accepted (empty text finds nothing).

    `vector` is the question's embedding if the caller computed it already
    (batch search embeds many questions at once).
    """
    settings = settings or SearchSettings()
    terms = QueryTerms.of(question, vector)
    per_route: dict[str, list[int]] = {}
    unavailable: dict[str, str] = {}
    for name in settings.routes:
        if name in ROUTES:
            try:
                per_route[name] = [rowid for rowid, _ in ROUTES[name](store, terms, settings.route_depth)]
            except RouteUnavailable as exc:
                unavailable[name] = str(exc)
    staged = [n for n in settings.routes if n in STAGED_ROUTES]
    if staged:
        first = rrf(per_route, k=settings.rrf_k, weights=settings.route_weights)
        seeds = [rowid for rowid, _, _ in first[: settings.bridge_seeds]]
        for name in staged:
            per_route[name] = STAGED_ROUTES[name](store, seeds, settings.route_depth)
    fused = rrf(per_route, k=settings.rrf_k, weights=settings.route_weights)
    # Every fused candidate is in some route's ranking: one fetch serves the
    # filter, the results and the per-route rankings.
    rows = store.chunks_by_rowid({r for ids in per_route.values() for r in ids})
    if any(r not in rows for ids in per_route.values() for r in ids):
        # A concurrent ingest replaced a chunk after a route ranked it: rank what is still there.
        per_route = {n: [r for r in ids if r in rows] for n, ids in per_route.items()}
        fused = [f for f in fused if f[0] in rows]
    dropped: list[int] = []
    if settings.title_filter and fused:
        fused, dropped = _title_filter(rows, terms, fused)
    top = fused[: settings.k]
    hits = [
        SearchHit(
            rank=i,
            chunk_id=rows[rowid].chunk_id,
            doc_id=rows[rowid].doc_id,
            source_id=rows[rowid].source_id,
            title=rows[rowid].title,
            score=round(score, 6),
            routes=ranks,
            text=rows[rowid].text,
        )
        for i, (rowid, score, ranks) in enumerate(top, start=1)
    ]
    return SearchResult(
        question=question,
        results=hits,
        route_rankings={n: [rows[r].chunk_id for r in ids] for n, ids in per_route.items()},
        filtered_chunk_ids=[rows[r].chunk_id for r in dropped],
        unavailable_routes=unavailable,
    )


def search_many(
    store: CorpusStore, questions: list[str], settings: SearchSettings | None = None
) -> Iterator[SearchResult]:
    """Search a batch, embedding questions 32 at a time when the dense route is on."""
    settings = settings or SearchSettings()
    use_dense = "dense" in settings.routes and store.vector_count(embedding.MODEL_ID) > 0
    for start in range(0, len(questions), 32):
        part = questions[start : start + 32]
        vectors = embedding.get_embedder().embed(part) if use_dense else [None] * len(part)
        for question, vector in zip(part, vectors):
            yield search(store, question, settings, vector)
