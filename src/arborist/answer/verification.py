"""The verify boundary: label a recorded answer with the verifier (and its entailment judge, if the policy names one).

An answer that broke its contract has no claims to check; it is labelled
UNGROUNDED with the contract's reason, so every record carries a label.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from arborist.answer.contract import UNVERIFIABLE
from arborist.answer.record import AnswerRecord
from arborist.corpus.fts_query import phrase
from arborist.corpus.store import CorpusStore
from arborist.entailment import judge_for
from arborist.verify import Verification, VerifierPolicy, verify_answer
from arborist.verify.normalize import token_stems, tokenise


def corpus_weights(store: CorpusStore, question: str) -> dict[str, float]:
    """Each content stem of the question -> its inverse document frequency over the store's chunks,
    log((chunks + 1) / (chunks holding it + 1)): what the verifier's Rule 13 weighs the question's words by.
    A word no chunk holds weighs as much as one that one chunk holds: it is often the question's own phrasing
    ("how long is the refund window" over "refunded within 30 days"), and no passage could hold it anyway."""
    _, n = store.counts()
    tokens = tokenise(question)
    out: dict[str, float] = {}
    for token, stem in zip(tokens, token_stems(tokens), strict=True):
        if stem and stem not in out:
            out[stem] = math.log((n + 1) / (max(1, store.chunk_frequency(phrase(token.surface))) + 1))
    return out


def verify_record(
    record: AnswerRecord, policy: VerifierPolicy, term_weights: Mapping[str, float] | None = None
) -> AnswerRecord:
    """A copy of `record` with `verification` computed under `policy` (no model call). With the corpus's
    `term_weights` (see `corpus_weights`) the verifier may abstain for an answer whose evidence does not
    speak of the question (Rule 13)."""
    mode = record.policy.mode
    if record.contract.answer is None or record.contract.reason in UNVERIFIABLE:
        verification = Verification.unverifiable(
            record.question, mode, f"contract {record.contract.reason}: nothing to verify", policy)
    else:
        verification = verify_answer(
            record.question,
            mode,
            [{"id": e.evidence_id, "title": e.title, "text": e.text} for e in record.evidence],
            record.contract.answer,
            policy,
            term_weights,
            judge=judge_for(policy.entailment) if policy.entailment is not None else None,
        )
    return record.model_copy(update={"verification": verification})
