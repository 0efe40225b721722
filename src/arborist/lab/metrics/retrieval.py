"""Retrieval on the ranked list before any cutoff, and admission coverage.

Retrieval metrics read only the ranked list (`retrieve_k` deep), never the
selected or admitted ids, so they cannot move when only EvidenceK or the
rune budget changes. Admission coverage is its own figure: the share of
relevant ranked chunks that reached the prompt.
"""

from __future__ import annotations

from pydantic import BaseModel

from arborist.lab.metrics import Measured, NotMeasured, mean
from arborist.lab.rows import METRIC_K, Row, row_key

METRICS = ("mrr", "recall", "ndcg", "hit")


class RetrievalSummary(BaseModel):
    k: int
    arm: str
    rows: int
    metrics: dict[str, Measured]
    admission_coverage: Measured
    admission_coverage_micro: Measured


def summarise_retrieval(rows: list[Row], arm: str) -> RetrievalSummary:
    """Over the first sample of each question (retrieval does not depend on the sample)."""
    mine = [r for r in rows if r.arm == arm and r.sample == 0]
    unmeasured = [NotMeasured(row=row_key(*r.key), reason=r.retrieval.unmeasured or "")
                  for r in mine if r.retrieval.scores is None]
    scored = [r.retrieval.scores for r in mine if r.retrieval.scores is not None]
    metrics = {
        m: Measured(value=mean([s[m] for s in scored]), rows_covered=len(scored), rows_not_measured=unmeasured)
        for m in METRICS
    }
    with_relevant = [r for r in mine if r.context.relevant_ranked_chunks > 0]
    no_relevant = [NotMeasured(row=row_key(*r.key), reason=r.retrieval.unmeasured or "no relevant chunk ranked")
                   for r in mine if r.context.relevant_ranked_chunks == 0]
    per_row = [r.context.relevant_admitted_chunks / r.context.relevant_ranked_chunks for r in with_relevant]
    ranked = sum(r.context.relevant_ranked_chunks for r in with_relevant)
    admitted = sum(r.context.relevant_admitted_chunks for r in with_relevant)
    return RetrievalSummary(
        k=METRIC_K, arm=arm, rows=len(mine), metrics=metrics,
        admission_coverage=Measured(value=mean(per_row), rows_covered=len(with_relevant), rows_not_measured=no_relevant),
        admission_coverage_micro=Measured(value=admitted / ranked if ranked else None,
                                          rows_covered=len(with_relevant), rows_not_measured=no_relevant),
    )
