"""The verify boundary: label a recorded answer with the model-free verifier.

An answer that broke its contract has no claims to check; it is labelled
UNGROUNDED with the contract's reason, so every record carries a label.
"""

from __future__ import annotations

from arborist.answer.contract import UNVERIFIABLE
from arborist.answer.record import AnswerRecord
from arborist.verify import Verification, VerifierPolicy, verify_answer


def verify_record(record: AnswerRecord, policy: VerifierPolicy) -> AnswerRecord:
    """A copy of `record` with `verification` computed under `policy` (no model call)."""
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
        )
    return record.model_copy(update={"verification": verification})
