"""`arborist lab eval-retrieval`: metrics on the ranked list, before any evidence cutoff.

The fused list and every route's own list are scored from the same search,
so route rows and the fused row always describe the same questions. Questions
that cannot be measured (no relevant ids, or ids the store does not hold)
are listed with the reason, never scored as misses.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterator
from pathlib import Path

from pydantic import BaseModel, Field

from arborist.corpus.store import CorpusStore
from arborist.evaluation.format import Evaluation, check_binding
from arborist.evaluation.metrics import METRICS, dedupe, score_query
from arborist.retrieval.search import SearchSettings, search_many

FUSED = "fused"


SINGLE_HOP = "single-hop"
MULTI_HOP = "multi-hop"


def question_kind(relevant_source_ids: list[str]) -> str:
    """single-hop: one relevant document answers it; multi-hop: the answer needs two or more."""
    return SINGLE_HOP if len(set(relevant_source_ids)) == 1 else MULTI_HOP


class QueryScores(BaseModel):
    id: str
    question: str
    kind: str = Field(description="single-hop (one relevant document) or multi-hop (two or more).")
    relevant_source_ids: list[str]
    ranked_source_ids: list[str] = Field(description="Fused list, deduplicated, cut at k.")
    scores: dict[str, dict[str, float]] = Field(description="{list: {metric: value}}; list = fused or a route")


class Unmeasured(BaseModel):
    id: str
    reason: str


class MetricRow(BaseModel):
    list: str
    n: int
    mrr: float
    recall: float
    ndcg: float
    hit: float


class RetrievalReport(BaseModel):
    k: int
    corpus_digest: str
    settings: SearchSettings
    rows: list[MetricRow]
    by_kind: dict[str, list[MetricRow]] = Field(
        default_factory=dict,
        description="The same rows per question kind, when the evaluation mixes kinds.",
    )
    measured: int
    unmeasured: list[Unmeasured]
    unavailable_routes: dict[str, str]


def metric_rows(per_query: list[QueryScores], lists: list[str]) -> list[MetricRow]:
    """Mean of every metric per list (fused, then each route) over the questions given."""
    rows = []
    for name in lists:
        values = [pq.scores[name] for pq in per_query if name in pq.scores]
        means = {m: statistics.fmean(v[m] for v in values) if values else float("nan") for m in METRICS}
        rows.append(MetricRow(list=name, n=len(values), **means))
    return rows


def ranked_sources(chunk_ids: list[str], doc_source: dict[str, str]) -> list[str]:
    """Chunk ranking -> document (source id) ranking, each document at its best chunk's rank."""
    return dedupe([doc_source[c.split("#chunk-", 1)[0]] for c in chunk_ids])


def evaluate_retrieval(
    store: CorpusStore,
    evaluation: Evaluation,
    settings: SearchSettings,
    k: int = 10,
    evaluation_path: Path | str = "evaluation",
    progress: Callable[[int], None] | None = None,
) -> tuple[RetrievalReport, list[QueryScores]]:
    check_binding(evaluation, store.digest(), evaluation_path)
    doc_source = store.source_ids()
    known = set(doc_source.values())
    unknown = evaluation.unknown_source_ids(known)
    unmeasured: list[Unmeasured] = []
    todo = []
    for q in evaluation.questions:
        if not q.relevant_source_ids:
            unmeasured.append(Unmeasured(id=q.id, reason="no relevant source ids"))
        elif q.id in unknown:
            unmeasured.append(
                Unmeasured(id=q.id, reason=f"source ids not in the store: {', '.join(unknown[q.id])}")
            )
        else:
            todo.append(q)
    # Search deep enough that k distinct documents survive deduplication.
    deep = settings.model_copy(update={"k": max(settings.k, 3 * k)})
    per_query: list[QueryScores] = []
    unavailable: dict[str, str] = {}
    results: Iterator = search_many(store, [q.question for q in todo], deep)
    for q, result in zip(todo, results):
        unavailable.update(result.unavailable_routes)
        relevant = set(q.relevant_source_ids)
        fused = ranked_sources([h.chunk_id for h in result.results], doc_source)
        scores = {FUSED: score_query(fused, relevant, k)}
        for name, chunk_ids in result.route_rankings.items():
            scores[name] = score_query(ranked_sources(chunk_ids, doc_source), relevant, k)
        per_query.append(
            QueryScores(
                id=q.id, question=q.question, kind=question_kind(q.relevant_source_ids),
                relevant_source_ids=q.relevant_source_ids,
                ranked_source_ids=fused[:k], scores=scores,
            )
        )
        if progress is not None:
            progress(1)
    lists = [FUSED, *[r for r in settings.routes if r not in unavailable]]
    kinds = sorted({pq.kind for pq in per_query})
    report = RetrievalReport(
        k=k, corpus_digest=store.digest(), settings=settings, rows=metric_rows(per_query, lists),
        by_kind={kind: metric_rows([pq for pq in per_query if pq.kind == kind], lists) for kind in kinds}
        if len(kinds) > 1 else {},
        measured=len(per_query), unmeasured=unmeasured, unavailable_routes=unavailable,
    )
    return report, per_query
