"""The answer record: everything one answer went through, boundary by boundary.

Reading a failing answer means comparing the id sets in order: ranked ->
selected (EvidenceK) -> admitted (rune budget) -> cited. The record keeps the
exact prompt bytes and raw provider response so nothing has to be re-run to
see what the model was shown and what it said.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal
from uuid import uuid4

from pydantic import BaseModel, Field, computed_field

from arborist.answer.contract import ContractResult
from arborist.evidence.admission import Omission
from arborist.models.base import Completion, Message
from arborist.policy.answer import AnswerPolicy
from arborist.verify import Verification

RECORD_FORMAT = "arborist-answer/1"
NO_TREATMENT = "none"


class EvidenceEntry(BaseModel):
    evidence_id: str
    chunk_id: str
    source_id: str
    title: str
    text: str


class PromptRecord(BaseModel):
    messages: list[Message]
    sha256: str = Field(description="digest of the canonical JSON of the messages")
    json_schema: dict[str, Any] | None
    layout: str = Field(description="the layout actually rendered (quote mode turns per_chunk into bookend)")


RepairKind = Literal["snapped", "reattributed", "revised", "kept_first", "revision_failed", "chosen"]


class Repair(BaseModel):
    """One thing the answer path did with the verifier's findings (see `answer.repair`). A repair never edits a
    claim's words: it replaces a claim's quote with a verbatim span of admitted evidence (and its citation with
    the block holding it), or it records which of several attempts the record keeps and why."""

    kind: RepairKind
    claim: int | None = Field(default=None, description="the claim's index in the answer, for a claim repair")
    quote_before: str | None = None
    quote_after: str | None = None
    evidence_before: list[str] = Field(default_factory=list)
    evidence_after: list[str] = Field(default_factory=list)
    distance: int | None = Field(default=None, description="snapped: edits between the model's quote and the span")
    detail: str = ""


class Attempt(BaseModel):
    """One model call made for this answer: the first answer, a revision, or a sample; `kept` marks the one the
    record shows. Its label is the one it earned after the no-model repairs."""

    kind: Literal["first", "revision", "sample"]
    messages_added: list[Message] = Field(
        default_factory=list, description="a revision: the turns sent after the first prompt (its answer, the findings)")
    completion: Completion
    contract: ContractResult
    label: str | None = None
    n_verified: int = 0
    n_claims: int = 0
    kept: bool = False


class AnswerRecord(BaseModel):
    format: str = RECORD_FORMAT
    record_id: str = Field(default_factory=lambda: uuid4().hex)
    created_at: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    question: str
    corpus_digest: str | None
    policy: AnswerPolicy
    governance_policy_hash: str
    run_id: str | None = Field(default=None, description="the lab run that produced this answer, if any")
    sample_index: int = Field(default=0, ge=0, description="which of several sampled answers to one prompt")
    treatment: str = Field(
        default=NO_TREATMENT, description="what an experiment did to the admitted evidence ('none': nothing)"
    )

    ranked_chunk_ids: list[str]
    route_ranks: dict[str, dict[str, int]] = Field(description="{chunk_id: {route: rank}} of the ranked list")
    unavailable_routes: dict[str, str] = Field(default_factory=dict)
    selected_chunk_ids: list[str]
    admitted_chunk_ids: list[str]
    omitted_chunk_ids: list[str]
    omissions: list[Omission]
    used_runes: int
    max_runes: int
    evidence: list[EvidenceEntry]

    prompt: PromptRecord
    completion: Completion
    contract: ContractResult
    citation_chunk_ids: list[str]
    timings: dict[str, float] = Field(description="seconds per boundary")

    repairs: list[Repair] = Field(default_factory=list, description="what the answer repair policy did, in order")
    attempts: list[Attempt] = Field(
        default_factory=list, description="every model call of a repaired answer (empty when there was one call)")

    cache_hit: bool = False
    cache_rejected: str | None = Field(
        default=None, description="why a cached answer under the same key was not served (it failed its audit check)"
    )
    verification: Verification | None = Field(
        default=None, description="verifier labels, per-claim verdicts and guard output (None until verified)"
    )
    answerability_policy_hash: str | None = Field(
        default=None, description="the missed-answer guard's policy the audit mode was set under (None until verified)"
    )

    @property
    def ok(self) -> bool:
        return self.contract.valid

    @computed_field  # type: ignore[prop-decorator]
    @property
    def verifier_policy_hash(self) -> str | None:
        """Beside governance_policy_hash: which verifier policy produced the label."""
        return self.verification.verifier_policy_hash if self.verification else None
