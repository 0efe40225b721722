"""Rule 13: does the admitted evidence speak of what was asked at all?

A 1.5B model asked a question its evidence cannot answer states a nearby fact
instead of abstaining: 1 of 30 SQuAD questions asked without their gold
paragraph abstained, 1 of 29 HotpotQA ones (bench/answer_grounding.py,
bench/experiments_dev.py). The verifier labels most such answers UNGROUNDED or
HYBRID, but the reader is still handed an answer.

This rule measures how much of the question the best evidence sentence holds:
the share of the question's content stems found in one sentence of one
admitted block (with that block's title, which often names what its sentences
call "she" or "it"), each stem weighted by `weights` (the engine gives each
its inverse document frequency over the corpus's chunks, so "Kerry
Saxby-Junna" counts for more than "born" or "city"). An answer that is not
STRICT over evidence whose best sentence holds less than the policy's
`answerability_threshold`, or none of whose blocks states a name or year of
the question (policy `answerability_names`: "What did Tesla do in December
1878?" over evidence that never says 1878; "Kerry Saxby-Junna" named
nowhere), is ABSTAINED (EVIDENCE_DOES_NOT_ANSWER): the
evidence does not answer, and the model's claims stay in the verification as
an unverified draft. A STRICT answer is never touched (its claims are backed
word for word), and without weights (a bare `arborist verify`, where no
corpus is known) the rule does not run.

Why one sentence and a title: a SQuAD answer sits in one sentence that
repeats most of its question; on HotpotQA the title names the hop's entity.
The best pair of sentences anywhere, or the whole evidence, held as much of
the question without the gold paragraph as with it (bench/answerability_gate.py).
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
