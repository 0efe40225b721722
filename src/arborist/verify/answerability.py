"""Rule 13: does the admitted evidence speak of what was asked at all?

A small model asked what its evidence cannot answer states a nearby fact instead of abstaining; this rule
withholds such an answer when no evidence sentence (with its block's title) holds enough of the question,
weighted by inverse document frequency, or no block names a name or year it asks about. Why one sentence and a
title, and what it was measured on: docs/verifier.md, "Answer rules (8-13)".
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel

from arborist.verify.checks import Prepared


class Answerability(BaseModel):
    """How much of the question the best evidence sentence holds, and what it lacks."""

    coverage: float  # weighted share of the question's content stems in the best sentence (and its block's title)
    threshold: float
    evidence_id: str | None = None
    sentence: str = ""
    missing: list[str] = []  # the question's content stems that sentence and title lack, heaviest first
    absent_terms: list[str] = []  # the question's names and years that no admitted block states (policy
    # `answerability_names`): evidence that never names what is asked about cannot answer it

    @property
    def answers(self) -> bool:
        return self.coverage >= self.threshold and not self.absent_terms


def answerability(
    wanted: frozenset[str], chunks: list[Prepared], weights: Mapping[str, float], threshold: float,
    absent_terms: list[str] | None = None,
) -> Answerability:
    """The best sentence of `chunks` for the question's content stems `wanted`, with the question's names and
    years no chunk states (`absent_terms`, found by the caller). A stem without a weight weighs as much as the
    heaviest one given: a word the corpus never uses is as telling as its rarest."""
    absent = absent_terms or []
    if not wanted:
        return Answerability(coverage=1.0, threshold=threshold, absent_terms=absent)
    heaviest = max(weights.values(), default=1.0)
    weight = {s: max(0.0, weights.get(s, heaviest)) for s in wanted}
    total = sum(weight.values())
    if total <= 0:  # every word of the question is in every chunk: nothing tells one passage from another
        return Answerability(coverage=1.0, threshold=threshold, absent_terms=absent)
    best: tuple[float, Prepared | None, int, frozenset[str]] = (-1.0, None, 0, frozenset())
    for chunk in chunks:
        by_sentence: dict[int, set[str]] = {}
        for stem, k in zip(chunk.stems, chunk.sentence_of, strict=True):
            if stem in wanted:
                by_sentence.setdefault(k, set()).add(stem)
        titled = chunk.title_stems & wanted
        for k, held in (by_sentence or {0: set()}).items():
            stems = frozenset(held | titled)
            score = sum(weight[s] for s in stems) / total
            if score > best[0]:
                best = (score, chunk, k, stems)
    score, found, k, stated = best
    missing = sorted(wanted - stated, key=lambda s: (-weight[s], s))
    if found is None:
        return Answerability(coverage=0.0, threshold=threshold, missing=missing, absent_terms=absent)
    first = found.sentence_of.index(k) if k in found.sentence_of else 0
    sentence = found.sentence_text(first, first) if found.tokens else ""
    return Answerability(coverage=round(max(score, 0.0), 3), threshold=threshold, evidence_id=found.ev.id,
                         sentence=sentence.strip(), missing=missing, absent_terms=absent)
