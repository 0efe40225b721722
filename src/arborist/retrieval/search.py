"""Run the routes, apply the title-relevance filter, fuse with RRF.

The result keeps each route's own ranking and what the filter dropped, so a
missing chunk can be traced to the route that never found it or the filter
that removed it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Literal, get_args

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator

from arborist import embedding
from arborist.corpus.store import ChunkRow, CorpusStore
from arborist.errors import InputError
from arborist.retrieval.analysis import QueryTerms, stems_of
from arborist.retrieval.fusion import DEFAULT_RRF_K, normalised_sum, rrf
from arborist.retrieval.lexical_index import lexical_index
from arborist.retrieval.routes import ROUTES, STAGED_ROUTES, RouteUnavailable, route_names

DEFAULT_ROUTES = ("bm25", "title", "phrase", "dense", "bridge")
Fusion = Literal["score", "rrf"]
FUSIONS: tuple[str, ...] = get_args(Fusion)
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
    # Defaults chosen by bench/tune_fusion.py on SQuAD single-hop, MuSiQue and
    # HotpotQA together (leave-one-set-out figures in the README): normalised
    # score fusion with every route at weight 1 and the standard RRF k for the
    # bridge stage. Few constants on purpose: a finer grid optimum did not
    # hold from one set to the next.
    fusion: Fusion = "score"
    rrf_k: int = Field(default=DEFAULT_RRF_K, ge=1)
    route_weights: dict[str, float] = Field(default_factory=dict)
    # Off by default: on the dev sets it cost 6 (MuSiQue) and 10 (HotpotQA)
    # points of Recall@10, because multi-hop evidence often has an unrelated title.
    title_filter: bool = False
    # The first stage's best chunks the bridge follows; they also keep their places on top.
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

    def keeping(self, keep: Callable[[SearchHit], bool], k: int | None = None) -> SearchResult:
        """The fused list without the hits `keep` rejects (at most `k` left), ranks renumbered from 1:
        what a caller that hides documents (withheld evidence, other sentinel variants) records as ranked."""
        kept = [h for h in self.results if keep(h)][:k]
        return self.model_copy(update={"results": [h.model_copy(update={"rank": i}) for i, h in enumerate(kept, 1)]})


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


Fused = list[tuple[int, float, dict[str, int]]]
# (staged route name, seed rowids best first) -> that route's ranked rowids.
StagedRanking = Callable[[str, list[int]], list[int]]
FIRST_STAGE = "first_stage"


def fuse(
    per_route: dict[str, list[tuple[int, float]]], settings: SearchSettings, staged: StagedRanking
) -> Fused:
    """Both fusion stages over the first-stage routes' (rowid, score) lists.

    First stage: the routes that rank on their own, fused by `settings.fusion`
    (normalised scores by default, or RRF). Second stage, only when a staged
    route (bridge) is asked for: it starts from the first stage's best
    `bridge_seeds` chunks and ranks them first, then what they lead to; RRF
    of the first-stage list and the staged lists then keeps the first
    stage's top results on top (a bridged page never displaces what the
    question itself matched best) and slots bridged pages in below them.
    Staged rankings are added to `per_route`. The tuning bench replays
    exactly this function over recorded routes.
    """
    if settings.fusion == "rrf":
        fused = rrf(
            {n: [r for r, _ in hits] for n, hits in per_route.items()},
            k=settings.rrf_k,
            weights=settings.route_weights,
            scores={n: [s for _, s in hits] for n, hits in per_route.items()},
        )
    else:
        fused = normalised_sum(per_route, settings.route_weights)
    names = [n for n in settings.routes if n in STAGED_ROUTES]
    if not names or not fused:
        return fused
    seeds = [rowid for rowid, _, _ in fused[: settings.bridge_seeds]]
    lists = {FIRST_STAGE: [rowid for rowid, _, _ in fused]}
    for name in names:
        per_route[name] = [(r, 0.0) for r in staged(name, seeds)]
        lists[name] = [r for r, _ in per_route[name]]
    first_ranks = {rowid: ranks for rowid, _, ranks in fused}
    second = rrf(lists, k=settings.rrf_k, weights=settings.route_weights)
    return [
        (rowid, score, {**first_ranks.get(rowid, {}), **{n: r for n, r in ranks.items() if n != FIRST_STAGE}})
        for rowid, score, ranks in second
    ]


def search(
    store: CorpusStore,
    question: str,
    settings: SearchSettings | None = None,
    vector: np.ndarray | None = None,
) -> SearchResult:
    """Ranked chunks for `question`; any text is accepted (empty text finds nothing).

    Fusion is `fuse`. `vector` is the question's embedding if the caller
    computed it already (batch search embeds many questions at once).
    """
    settings = settings or SearchSettings()
    terms = QueryTerms.of(question, vector)
    per_route: dict[str, list[tuple[int, float]]] = {}
    unavailable: dict[str, str] = {}
    for name in settings.routes:
        if name in ROUTES:
            try:
                per_route[name] = ROUTES[name](store, terms, settings.route_depth)
            except RouteUnavailable as exc:
                unavailable[name] = str(exc)
    fused = fuse(
        per_route, settings, lambda name, seeds: STAGED_ROUTES[name](store, seeds, settings.route_depth)
    )
    dropped: list[int] = []
    if settings.title_filter and fused:
        fused, dropped = _title_filter(store.chunks_by_rowid(r for r, _, _ in fused), terms, fused)
    top = fused[: settings.k]
    rows = store.chunks_by_rowid(rowid for rowid, _, _ in top)
    top = [t for t in top if t[0] in rows]  # a concurrent ingest may have replaced a chunk since it was ranked
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
    index = lexical_index(store)
    return SearchResult(
        question=question,
        results=hits,
        route_rankings={n: index.chunk_ids_of([r for r, _ in hits_]) for n, hits_ in per_route.items()},
        filtered_chunk_ids=index.chunk_ids_of(dropped),
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
