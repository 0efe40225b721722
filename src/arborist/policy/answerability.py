"""The answerability policy: what the missed-answer guard may do when it fires, and its own hash.

The guard is a sidecar of the verifier (DESIGN §1, §4): it never changes a label, so its one knob, whether a
warning sets the audit mode EVIDENCE-MISSED-PARTIAL, belongs to neither the verifier's identity
(`verifier_policy_hash`) nor the answer's (`governance_policy_hash`). It has this hash instead, as the seed
said: toggling it re-audits a cached answer and never regenerates it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from arborist.policy.canonical import tagged_digest

ANSWERABILITY_HASH_TAG = "arborist-answerability-policy/1"


class AnswerabilityPolicy(BaseModel):
    """The missed-answer guard's knobs."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: Literal[1] = 1
    demote_missed_answer: bool = Field(
        default=False, description="when the missed-answer guard fires, set audit mode EVIDENCE-MISSED-PARTIAL"
    )


def answerability_policy_hash(policy: AnswerabilityPolicy | None = None) -> str:
    """"sha256:" + sha256 of the tag and the policy's canonical JSON."""
    return tagged_digest(ANSWERABILITY_HASH_TAG, (policy or AnswerabilityPolicy()).model_dump(mode="json"))
