"""The optional model judge: atomic statements of each answer, each checked against the evidence it was given.

Stage one asks the statements model to split a contract-valid answer into
atomic statements; stage two asks the verdicts model, per answer, for a
verdict on every statement (supported / unsupported / contradicted) with
the evidence ids it rests on and a reason, and for the answer's relevance to
the question. The evidence is the user message the answer model saw, as sent
(treated evidence included). Faithfulness = supported / statements.

Rows with an unusable answer or a full abstention are kept with their status
and never repaired or scored. A judge is a model too: when a judge model is
the answer model, the summary says so in words. Judge calls are cached under
the lab's cache directory (model id + messages + schema), so a repeated run
re-judges nothing, and `--judge-budget` caps the calls of one run.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from arborist.lab import rundir
from arborist.lab.config import JudgeSpec
from arborist.lab.metrics import mean
from arborist.lab.rows import Row
from arborist.models.base import GenerationSettings, Message, Provider
from arborist.policy.canonical import canonical_json
from arborist.progress import Reporter

JUDGE_ROWS = "results/judge-per-query.jsonl"
JUDGE_SUMMARY = "results/judge-summary.json"
Verdict = Literal["supported", "unsupported", "contradicted"]
Relevance = Literal["relevant", "partial", "irrelevant"]
RELEVANCE_SCORE: dict[str, float] = {"relevant": 1.0, "partial": 0.5, "irrelevant": 0.0}
Status = Literal["judged", "contract_invalid", "abstained", "no_evidence", "judge_failed", "budget_exhausted"]

STATEMENTS_PROMPT = (
    "You split an answer into atomic factual statements: each one short, self-contained (names instead of "
    "pronouns), stating one fact the answer asserts. Leave out citations and quotes of sources. Reply with one "
    'JSON object: {"statements": [...]}.'
)
VERDICTS_PROMPT = (
    "You check statements against evidence. For each numbered statement say whether the evidence supports it "
    "(stated or directly implied), contradicts it, or does not support it (unsupported), which evidence ids "
    "(E1, E2, ...) you rely on, and why in one sentence. Then say whether the answer is relevant, partially "
    "relevant or irrelevant to the question. Use only the evidence. Reply with one JSON object."
)
STATEMENTS_SCHEMA: dict[str, Any] = {
    "type": "object", "properties": {"statements": {"type": "array", "items": {"type": "string"}}},
    "required": ["statements"],
}
VERDICTS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "verdicts": {"type": "array", "items": {
            "type": "object",
            "properties": {"statement": {"type": "integer"}, "verdict": {"enum": ["supported", "unsupported",
                                                                                 "contradicted"]},
                           "evidence_ids": {"type": "array", "items": {"type": "string"}},
                           "reason": {"type": "string"}},
            "required": ["statement", "verdict", "evidence_ids", "reason"]}},
        "relevance": {"enum": ["relevant", "partial", "irrelevant"]},
    },
    "required": ["verdicts", "relevance"],
}


class StatementVerdict(BaseModel):
    statement: str
    verdict: Verdict
    evidence_ids: list[str]
    reason: str


class JudgedRow(BaseModel):
    query_id: str
    arm: str
    sample: int
    status: Status
    detail: str = ""
    statements: list[StatementVerdict] = Field(default_factory=list)
    faithfulness: float | None = None
    relevance: Relevance | None = None
    calls: int = 0
    cache_hits: int = 0


class _Verdicts(BaseModel):
    class _One(BaseModel):
        statement: int
        verdict: Verdict
        evidence_ids: list[str] = Field(default_factory=list)
        reason: str = ""

    verdicts: list[_One]
    relevance: Relevance


class _Statements(BaseModel):
    statements: list[str]


class BudgetUsed(Exception):
    pass


class Judge:
    """Two providers (they may be one), a cache folder and a call budget."""

    def __init__(self, spec: JudgeSpec, statements: Provider, verdicts: Provider, cache: Path) -> None:
        self.spec, self.statements, self.verdicts, self.cache = spec, statements, verdicts, cache
        self.calls = 0

    def _ask(self, provider: Provider, system: str, user: str, schema: dict[str, Any]) -> tuple[str | None, bool]:
        """(text or None on failure, served from cache)."""
        messages = [Message(role="system", content=system), Message(role="user", content=user)]
        key = hashlib.sha256(canonical_json({
            "model": f"{provider.name}:{provider.model_id}", "messages": [m.model_dump() for m in messages],
            "schema": schema, "max_tokens": self.spec.max_tokens}).encode("utf-8")).hexdigest()
        path = self.cache / f"{key}.json"
        if path.exists():
            return str(json.loads(path.read_text(encoding="utf-8"))["text"]), True
        if self.spec.budget is not None and self.calls >= self.spec.budget:
            raise BudgetUsed
        self.calls += 1
        completion = provider.complete(messages, GenerationSettings(temperature=0.0, max_tokens=self.spec.max_tokens),
                                       json_schema=schema)
        if completion.error:
            return None, False
        self.cache.mkdir(parents=True, exist_ok=True)
        rundir.write_json(path, {"text": completion.text})
        return completion.text, False

    def judge(self, row: Row) -> JudgedRow:
        base = {"query_id": row.query_id, "arm": row.arm, "sample": row.sample}
        if not row.contract.valid:
            return JudgedRow(**base, status="contract_invalid", detail=row.contract.reason)
        if row.contract.abstention == "full" or not row.answer.text.strip():
            return JudgedRow(**base, status="abstained")
        if row.trace is None or not row.trace.prompt_messages:
            return JudgedRow(**base, status="no_evidence",
                             detail="the row does not record the prompt (written before the run viewer)")
        evidence = row.trace.prompt_messages[-1]["content"]
        calls = hits = 0
        text, hit = self._ask(self.statements, STATEMENTS_PROMPT, f"QUESTION: {row.question}\nANSWER: {row.answer.text}",
                              STATEMENTS_SCHEMA)
        calls, hits = calls + (not hit), hits + hit
        try:
            statements = [s.strip() for s in _Statements.model_validate_json(text or "").statements if s.strip()]
        except ValidationError:
            return JudgedRow(**base, status="judge_failed", detail="statements: unusable reply", calls=calls,
                             cache_hits=hits)
        if not statements:
            return JudgedRow(**base, status="judge_failed", detail="statements: none", calls=calls, cache_hits=hits)
        numbered = "\n".join(f"{i}. {s}" for i, s in enumerate(statements, start=1))
        text, hit = self._ask(self.verdicts, VERDICTS_PROMPT,
                              f"{evidence}\nANSWER: {row.answer.text}\nSTATEMENTS:\n{numbered}", VERDICTS_SCHEMA)
        calls, hits = calls + (not hit), hits + hit
        try:
            parsed = _Verdicts.model_validate_json(text or "")
        except ValidationError:
            return JudgedRow(**base, status="judge_failed", detail="verdicts: unusable reply", calls=calls,
                             cache_hits=hits)
        by_number = {v.statement: v for v in parsed.verdicts}
        verdicts = [StatementVerdict(statement=s, verdict=by_number[i].verdict if i in by_number else "unsupported",
                                     evidence_ids=by_number[i].evidence_ids if i in by_number else [],
                                     reason=by_number[i].reason if i in by_number else "no verdict given")
                    for i, s in enumerate(statements, start=1)]
        supported = sum(v.verdict == "supported" for v in verdicts)
        return JudgedRow(**base, status="judged", statements=verdicts, faithfulness=supported / len(verdicts),
                         relevance=parsed.relevance, calls=calls, cache_hits=hits)


class JudgeSummary(BaseModel):
    rows: int
    status: dict[str, int]
    statements: int
    supported: int
    contradicted: int
    faithfulness: float | None = Field(description="mean over judged rows of supported / statements")
    relevance: float | None = Field(description="mean over judged rows: relevant 1, partial 0.5, irrelevant 0")
    calls: int
    cache_hits: int
    statements_model: str
    verdicts_model: str
    limitations: list[str]


def run_judge(run_dir: Path, rows: list[Row], judge: Judge, answer_model_id: str,
              progress: Reporter | None = None) -> JudgeSummary:
    """Judge every row into results/judge-per-query.jsonl and summarise into results/judge-summary.json.

    The budget is per run (a sweep's cells each get it whole). Both files appear only once every row is
    judged: an interrupted judge leaves neither half-written (its calls are cached, so a rerun is cheap).
    """
    judge.calls = 0
    final = run_dir / JUDGE_ROWS
    partial = final.with_name(final.name + ".partial")
    writer = rundir.RowWriter(partial)
    judged: list[JudgedRow] = []
    phase = progress.phase("judging", len(rows)) if progress is not None else None
    try:
        exhausted = False
        for row in rows:
            if exhausted:
                out = JudgedRow(query_id=row.query_id, arm=row.arm, sample=row.sample, status="budget_exhausted")
            else:
                try:
                    out = judge.judge(row)
                except BudgetUsed:
                    exhausted = True
                    out = JudgedRow(query_id=row.query_id, arm=row.arm, sample=row.sample, status="budget_exhausted")
            judged.append(out)
            writer.write(out.model_dump(mode="json"))
            if phase is not None:
                failed = sum(j.status == "judge_failed" for j in judged)
                phase.advance(note=f"judge calls {judge.calls} · failed {failed}")
    except BaseException:
        if phase is not None:
            phase.close()
        writer.close()
        partial.unlink(missing_ok=True)
        raise
    writer.close()
    if phase is not None:
        phase.close()
    partial.replace(final)
    ok = [j for j in judged if j.status == "judged"]
    limitations = []
    for role, provider in (("statements", judge.statements), ("verdicts", judge.verdicts)):
        if f"{provider.name}:{provider.model_id}" == answer_model_id:
            limitations.append(f"the {role} judge is the answer model ({answer_model_id}): a model grading its own "
                               "answers tends to agree with them, so faithfulness here is an upper bound")
    status: dict[str, int] = {}
    for j in judged:
        status[j.status] = status.get(j.status, 0) + 1
    summary = JudgeSummary(
        rows=len(judged), status=status, statements=sum(len(j.statements) for j in ok),
        supported=sum(v.verdict == "supported" for j in ok for v in j.statements),
        contradicted=sum(v.verdict == "contradicted" for j in ok for v in j.statements),
        faithfulness=mean([j.faithfulness for j in ok if j.faithfulness is not None]),
        relevance=mean([RELEVANCE_SCORE[j.relevance] for j in ok if j.relevance is not None]),
        calls=sum(j.calls for j in judged), cache_hits=sum(j.cache_hits for j in judged),
        statements_model=judge.spec.statements_model_id, verdicts_model=judge.spec.verdicts_model_id,
        limitations=limitations,
    )
    rundir.write_json(run_dir / JUDGE_SUMMARY, summary.model_dump(mode="json"))
    return summary
