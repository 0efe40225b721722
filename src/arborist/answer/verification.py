"""The verify boundary: label a recorded answer with the model-free verifier.

An answer that broke its contract has no claims to check; it is labelled
UNGROUNDED with the contract's reason, so every record carries a label.
"""

from __future__ import annotations

from arborist.answer.record import AnswerRecord
from arborist.verify import (
    AuditMode,
    GuardResult,
    Label,
    Verification,
    VerifierPolicy,
    classify_quantifier,
    verifier_policy_hash,
    verify_answer,
)


def verify_record(record: AnswerRecord, policy: VerifierPolicy) -> AnswerRecord:
    """A copy of `record` with `verification` computed under `policy` (no model call)."""
    mode = record.policy.mode
    if record.contract.answer is None or record.contract.reason in ("PROVIDER_ERROR", "PARSE_FAILURE", "SCHEMA_VIOLATION"):
        verification = Verification(
            label=Label.UNGROUNDED,
            audit_mode=AuditMode.UNLINKED,
            mode=mode,
            question=record.question,
            claims=[],
            n_verified=0,
            n_quotes=0,
            abstained_requests=[],
            quantifier=classify_quantifier(record.question),
            guard=GuardResult(answerability_warning=False, missed_answer_candidate_spans=[]),
            reasons=[],
            notes=[f"contract {record.contract.reason}: nothing to verify"],
            verifier_policy_hash=verifier_policy_hash(policy),
        )
    else:
        verification = verify_answer(
            record.question,
            mode,
            [{"id": e.evidence_id, "title": e.title, "text": e.text} for e in record.evidence],
            record.contract.answer,
            policy,
        )
    return record.model_copy(update={"verification": verification})
