"""One per-query row: everything a reader needs about one answer, boundary by boundary.

Rows are the source of truth of a run: every summary is computed from them,
so a summary can always be recomputed (and checked) from per-query.jsonl.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from arborist.answer.record import AnswerRecord
from arborist.evaluation.format import Question
from arborist.evaluation.metrics import dedupe, score_query
from arborist.lab.completeness import Completeness, measure_completeness
from arborist.lab.diagnosis import Diagnosis, PathView, answer_text, diagnose
from arborist.lab.treatments import TreatmentPart, outcome
from arborist.verify import Label

METRIC_K = 10
Source = Literal["provider", "cache", "replay", "reused"]


class RetrievalPart(BaseModel):
    ranked_chunk_ids: list[str]
    route_ranks: dict[str, dict[str, int]]
    unavailable_routes: dict[str, str]
    retrieve_k: int
    evidence_k: int
    ranked_source_ids: list[str] = Field(description="documents in rank order (each at its best chunk)")
    scores: dict[str, float] | None = Field(description=f"MRR, recall, nDCG, hit @{METRIC_K} on the ranked list")
    unmeasured: str | None = None


class ContextPart(BaseModel):
    admitted_chunk_ids: list[str]
    omitted_chunk_ids: list[str]
    used_runes: int
    max_runes: int
    relevant_ranked_chunks: int = Field(description="ranked chunks whose document is relevant")
    relevant_admitted_chunks: int = Field(description="of those, how many reached the prompt")


class AnswerPart(BaseModel):
    raw: str
    parsed: dict[str, Any] | None
    text: str = Field(description="what the answer asserts (claims or quotes)")


class ContractPart(BaseModel):
    valid: bool
    reason: str
    detail: str
    abstention: str


class VerifierPart(BaseModel):
    label: str | None
    reasons: list[str]
    audit_mode: str | None
    guard_warning: bool
    policy_hash: str | None = Field(default=None, description="the verifier policy that labelled the row: the "
                                    "run's, or the rules' alone where the entailment judge failed (rows written "
                                    "before this field: unknown)")
    basis: str | None = Field(default=None, description="what a STRICT label rests on: quoted (the rules verified "
                              "every claim) or judged (a claim rests on the entailment judge); None otherwise")
    n_judged: int = Field(default=0, description="verified claims that rest on the entailment judge")


class TokenPart(BaseModel):
    prompt: int | None
    completion: int | None
    cached_prompt: int | None = Field(default=None, description="prompt tokens served from the model's KV state")


class EvidenceRef(BaseModel):
    evidence_id: str = Field(description="the id the prompt showed the model (E1, E2, ...)")
    chunk_id: str


class OmissionPart(BaseModel):
    chunk_id: str
    n_runes: int
    reason: str


class TracePart(BaseModel):
    """What a reader needs to retrace one answer without the engine: written by runs since the viewer.

    The evidence map, the omission reasons, the exact prompt messages and the
    verifier's per-claim verdicts (as plain JSON: the viewer reads them as
    data and imports nothing of the verifier).
    """

    evidence: list[EvidenceRef]
    omissions: list[OmissionPart]
    citation_chunk_ids: list[str]
    prompt_layout: str
    prompt_messages: list[dict[str, str]] = Field(description="role and content of each message, exactly as sent")
    claims: list[dict[str, Any]] = Field(description="the verifier's per-claim verdicts, reasons and checks")
    guard: dict[str, Any] | None = Field(description="the missed-answer guard's output")
    instruction_guard: dict[str, Any] | None = None
    verifier_notes: list[str] = Field(default_factory=list)
    repairs: list[dict[str, Any]] = Field(default_factory=list, description="what the answer repairs did (snapped "
                                          "quotes, re-attributed claims, a revision kept or not)")
    attempts: list[dict[str, Any]] = Field(default_factory=list, description="every model call of a repaired "
                                           "answer: kind, label, kept, and the parsed answer")


class Row(BaseModel):
    query_id: str
    arm: str
    sample: int
    question: str
    source: Source = Field(description="provider call, answer cache, a completion replayed for the same prompt (lab.replay), "
                        "or reused from the run continued")
    reused_from: str | None = None
    replayed: bool = Field(default=False, description="the completion was replayed for an identical prompt, now or "
                           "when the cached answer was made: its timings are not a model call's")
    run_id: str = Field(description="the run that wrote this row")
    record_id: str
    produced_by_run: str | None = Field(description="the run whose provider call produced the answer")
    model_id: str
    server: str | None = Field(default=None, description="the server that answered (a fleet member); None for an "
                               "in-process model and in rows written before it was recorded")
    worker: str | None = Field(default=None, description="the executor's worker that generated and verified the "
                               "answer (a Ray worker: node id and pid); None in process and for cached rows")
    mode: str
    governance_policy_hash: str
    prompt_sha256: str
    retrieval: RetrievalPart
    selected_chunk_ids: list[str]
    context: ContextPart
    answer: AnswerPart
    contract: ContractPart
    verifier: VerifierPart
    gold_answers: list[str]
    diagnosis: Diagnosis
    completeness: Completeness | None = Field(
        default=None, description="request-level completeness (absent in rows written before it was recorded)")
    timings: dict[str, float]
    provider_timings: dict[str, float] = Field(description="the provider's own phases (prompt_eval_s, eval_s, ...)")
    tokens: TokenPart
    trace: TracePart | None = Field(default=None, description="absent in rows written before the run viewer")
    treatment: TreatmentPart | None = Field(default=None, description="what was done to the evidence (treated arms)")

    @property
    def from_cache(self) -> bool:
        """Served without a provider call: by the answer cache or as a replayed completion (a cache hit either way)."""
        return self.source in ("cache", "replay")

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.query_id, self.arm, self.sample)


def row_key(query_id: str, arm: str, sample: int) -> str:
    return f"{query_id} [{arm}, sample {sample}]"


def _source(record: AnswerRecord) -> Source:
    if record.cache_hit:
        return "cache"
    return "provider" if record.completion.replayed_from is None else "replay"


def sources_of(chunk_ids: list[str], doc_source: dict[str, str]) -> list[str]:
    return dedupe([doc_source.get(c.split("#chunk-", 1)[0], "?") for c in chunk_ids])


def _cited_chunks(record: AnswerRecord) -> list[str]:
    """The chunks the answer cites, with the block each re-anchored claim's quote sits in (the verifier
    judged the claim against that block: its quote is the citation a reader can check)."""
    chunk_of = {e.evidence_id: e.chunk_id for e in record.evidence}
    claims = record.verification.claims if record.verification else []
    anchored = [chunk_of[e] for cl in claims if cl.reanchored_from for e in cl.evidence_ids if e in chunk_of]
    return dedupe([*record.citation_chunk_ids, *anchored])


def abstained(record: AnswerRecord) -> bool:
    """The answer abstained: the model abstained from every request, or the verifier withheld an answer whose
    evidence does not speak of the question (Rule 13, label ABSTAINED with the model's draft kept)."""
    full = record.contract.valid and record.contract.abstention == "full"
    return full or (record.verification is not None and record.verification.label is Label.ABSTAINED)


def build_row(
    question: Question, arm: str, sample: int, record: AnswerRecord, doc_source: dict[str, str], run_id: str,
    treatment: TreatmentPart | None = None,
) -> Row:
    ranked_sources = sources_of(record.ranked_chunk_ids, doc_source)
    relevant = set(question.relevant_source_ids)
    known = set(doc_source.values())
    if not relevant:
        scores, unmeasured = None, "no relevant source ids"
    elif not relevant <= known:
        scores, unmeasured = None, f"source ids not in the corpus: {', '.join(sorted(relevant - known))}"
    else:
        scores, unmeasured = score_query(ranked_sources, relevant, METRIC_K), None
    relevant_ranked = [c for c in record.ranked_chunk_ids if doc_source.get(c.split("#chunk-", 1)[0]) in relevant]
    admitted = set(record.admitted_chunk_ids)
    text = answer_text(record.contract.answer) if record.contract.valid else None
    path = PathView(
        ranked_source_ids=ranked_sources,
        selected_source_ids=sources_of(record.selected_chunk_ids, doc_source),
        admitted_source_ids=sources_of(record.admitted_chunk_ids, doc_source),
        contract_valid=record.contract.valid,
        answer_text=text,
    )
    v = record.verification
    c = record.completion
    if treatment is not None:
        treatment = treatment.model_copy(update={
            "outcome": outcome(treatment, text, abstained(record))})
    return Row(
        query_id=question.id, arm=arm, sample=sample, question=question.question,
        source=_source(record), replayed=record.completion.replayed_from is not None, run_id=run_id, record_id=record.record_id,
        produced_by_run=record.run_id, model_id=record.policy.model_id, server=c.server, mode=record.policy.mode,
        governance_policy_hash=record.governance_policy_hash, prompt_sha256=record.prompt.sha256,
        retrieval=RetrievalPart(
            ranked_chunk_ids=record.ranked_chunk_ids, route_ranks=record.route_ranks,
            unavailable_routes=record.unavailable_routes, retrieve_k=record.policy.search.k,
            evidence_k=record.policy.evidence_k, ranked_source_ids=ranked_sources, scores=scores,
            unmeasured=unmeasured,
        ),
        selected_chunk_ids=record.selected_chunk_ids,
        context=ContextPart(
            admitted_chunk_ids=record.admitted_chunk_ids, omitted_chunk_ids=record.omitted_chunk_ids,
            used_runes=record.used_runes, max_runes=record.max_runes,
            relevant_ranked_chunks=len(relevant_ranked),
            relevant_admitted_chunks=sum(1 for ch in relevant_ranked if ch in admitted),
        ),
        answer=AnswerPart(raw=c.text, parsed=record.contract.answer, text=text or ""),
        contract=ContractPart(valid=record.contract.valid, reason=record.contract.reason,
                              detail=record.contract.detail, abstention=record.contract.abstention),
        verifier=VerifierPart(
            label=v.label.value if v else None, reasons=[r.value for r in v.reasons] if v else [],
            audit_mode=v.audit_mode.value if v else None, guard_warning=bool(v and v.guard.answerability_warning),
            policy_hash=v.verifier_policy_hash if v else None,
            basis=v.basis if v else None, n_judged=v.n_entailed if v else 0,
        ),
        gold_answers=question.answers,
        diagnosis=diagnose(question, path),
        completeness=measure_completeness(question, text, path.admitted_source_ids,
                                          sources_of(_cited_chunks(record), doc_source)),
        timings=record.timings,
        provider_timings=c.timings,
        tokens=TokenPart(prompt=c.prompt_tokens, completion=c.completion_tokens, cached_prompt=c.cached_prompt_tokens),
        trace=TracePart(
            evidence=[EvidenceRef(evidence_id=e.evidence_id, chunk_id=e.chunk_id) for e in record.evidence],
            omissions=[OmissionPart(chunk_id=o.chunk_id, n_runes=o.n_runes, reason=o.reason) for o in record.omissions],
            citation_chunk_ids=record.citation_chunk_ids,
            prompt_layout=record.prompt.layout,
            prompt_messages=[{"role": m.role, "content": m.content} for m in record.prompt.messages],
            claims=[cl.model_dump(mode="json") for cl in v.claims] if v else [],
            guard=v.guard.model_dump(mode="json") if v else None,
            instruction_guard=v.instruction_guard.model_dump(mode="json") if v else None,
            verifier_notes=list(v.notes) if v else [],
            repairs=[r.model_dump(mode="json") for r in record.repairs],
            attempts=[{"kind": a.kind, "label": a.label, "kept": a.kept, "answer": a.contract.answer,
                       "contract": a.contract.reason} for a in record.attempts],
        ),
        treatment=treatment,
    )
