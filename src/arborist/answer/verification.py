"""The verify boundary: label a recorded answer with the verifier (and its entailment judge, if the policy names one).

An answer that broke its contract has no claims to check; it is labelled
UNGROUNDED with the contract's reason, so every record carries a label.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from arborist.answer.contract import UNVERIFIABLE, ContractResult
from arborist.answer.record import AnswerRecord
from arborist.corpus.fts_query import phrase
from arborist.corpus.store import CorpusStore
from arborist.entailment import judge_for
from arborist.policy.answerability import answerability_policy_hash
from arborist.verify import Verification, VerifierPolicy, verify_answer
from arborist.verify.judge import JudgeError
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


def verify_contract_answer(
    question: str, mode: str, contract: ContractResult, evidence: Sequence[Mapping[str, str]],
    policy: VerifierPolicy, term_weights: Mapping[str, float] | None = None,
) -> Verification:
    """The label of one parsed answer over its evidence (`{"id", "title", "text"}` each): what `verify_record`
    computes, for callers holding an answer without its record (a lab run's rows, re-checked)."""
    if contract.answer is None or contract.reason in UNVERIFIABLE:
        return Verification.unverifiable(question, mode, f"contract {contract.reason}: nothing to verify", policy)
    blocks = [dict(e) for e in evidence]
    if policy.entailment is None:
        return verify_answer(question, mode, blocks, contract.answer, policy, term_weights)
    try:
        return verify_answer(question, mode, blocks, contract.answer, policy, term_weights,
                             judge=judge_for(policy.entailment))
    except JudgeError as exc:
        # The answer cost a model call and must not be lost to a judge that could not score. The judge only
        # ever adds support, so the rules' label alone is the conservative one; it carries the rules' policy
        # hash, so a later re-verification with a working judge is seen as another policy and redone.
        rules = policy.model_copy(update={"entailment": None})
        verification = verify_answer(question, mode, blocks, contract.answer, rules, term_weights)
        return verification.model_copy(update={"notes": [*verification.notes,
                                                         f"verified by the rules alone: {exc}"]})


def verify_record(
    record: AnswerRecord, policy: VerifierPolicy, term_weights: Mapping[str, float] | None = None
) -> AnswerRecord:
    """A copy of `record` with `verification` computed under `policy` (no model call). With the corpus's
    `term_weights` (see `corpus_weights`) the verifier may abstain for an answer whose evidence does not
    speak of the question (Rule 13)."""
    evidence = [{"id": e.evidence_id, "title": e.title, "text": e.text} for e in record.evidence]
    verification = verify_contract_answer(record.question, record.policy.mode, record.contract, evidence, policy,
                                          term_weights)
    return record.model_copy(update={"verification": verification,
                                     "answerability_policy_hash": answerability_policy_hash(policy.answerability)})
