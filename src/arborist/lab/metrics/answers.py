"""Answer-side summaries: contract counts, verifier labels, diagnosis, calls vs cache, tokens, time, samples."""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, Field

from arborist.lab.completeness import CASES
from arborist.lab.diagnosis import BOUNDARIES
from arborist.lab.metrics import Measured, NotMeasured, mean
from arborist.lab.rows import Row, row_key

PARSE_FAILURES = ("PARSE_FAILURE",)
LABELS = ("STRICT", "HYBRID", "UNGROUNDED", "ABSTAINED")


class ContractCounts(BaseModel):
    total: int
    valid: int
    parse_failures: int
    contract_failures: int = Field(description="invalid for any reason other than a parse failure or a provider error")
    provider_errors: int
    abstentions: int = Field(description="full abstentions (valid, no claims)")
    partial_abstentions: int
    reasons: dict[str, int]


class DiagnosisCounts(BaseModel):
    counts: dict[str, int] = Field(description="rows per boundary, in chain order")
    rows_covered: int
    rows_not_measured: list[NotMeasured]
    requests: dict[str, int] = Field(description="requests per boundary (questions with `requests`)")
    requests_covered: int
    requests_not_measured: int


class Usage(BaseModel):
    provider_calls: int
    cache_hits: int = Field(description="rows that cost no provider call: answer cache hits and replays")
    replays: int = Field(default=0, description="of the cache hits, completions replayed for the same prompt")
    reused: int
    prompt_tokens: int
    completion_tokens: int
    rows_with_tokens: int
    generate_seconds: float = Field(description="sum of the generate boundary over provider calls")
    answer_seconds: float = Field(description="sum of the whole answer path over provider calls")


class SampleSharing(BaseModel):
    """Prompt evaluation of a question's first sample vs its later samples (which reuse the prompt's KV state)."""

    groups: int
    first_sample_prompt_eval_s: Measured
    later_samples_prompt_eval_s: Measured
    first_sample_prompt_tokens_evaluated: Measured
    later_samples_prompt_tokens_evaluated: Measured
    first_sample_generate_s: Measured
    later_samples_generate_s: Measured
    ratio_prompt_eval: float | None = Field(description="later / first: below 1 means the prompt was shared")
    samples_per_group: int
    group_generate_s: float | None = Field(description="mean time of all samples of one question (whole groups)")
    single_answers_generate_s: float | None = Field(
        description="as many single answers, each paying its prompt: samples x mean first-sample time")
    ratio_group_to_singles: float | None = Field(description="group / single answers: the saving from sharing")


class LabelGold(BaseModel):
    """Do verifier labels track correctness? Rows per label and how many of them state the gold answer."""

    rows: int
    gold: int
    gold_measured: int


class CompletenessSummary(BaseModel):
    """Requests answered and supported, over the rows that carry request completeness."""

    rows_covered: int
    rows_not_measured: list[NotMeasured]
    requests: int = Field(description="requests measured (with gold answers, in rows with a usable answer)")
    answered: int
    supported: int
    cases: dict[str, int] = Field(description="answered_supported, answered_unsupported, missed_with_evidence, "
                                  "not_answerable")
    answered_rate: float | None = Field(description="mean per row of the share of its requests answered")
    supported_rate: float | None


class AnswerSummary(BaseModel):
    arm: str
    rows: int
    contract: ContractCounts
    labels: dict[str, int]
    label_gold: dict[str, LabelGold]
    strict_quoted: LabelGold | None = Field(
        default=None, description="STRICT rows every claim of which the rules verified (no claim judged): STRICT "
        "(quoted), beside STRICT (any) in label_gold")
    gold_in_answer: Measured
    diagnosis: DiagnosisCounts
    usage: Usage
    samples: SampleSharing | None
    completeness: CompletenessSummary | None = None


def contract_counts(rows: list[Row]) -> ContractCounts:
    reasons = Counter(r.contract.reason for r in rows)
    return ContractCounts(
        total=len(rows),
        valid=sum(r.contract.valid for r in rows),
        parse_failures=sum(reasons[p] for p in PARSE_FAILURES),
        contract_failures=sum(1 for r in rows if not r.contract.valid
                              and r.contract.reason not in (*PARSE_FAILURES, "PROVIDER_ERROR")),
        provider_errors=reasons["PROVIDER_ERROR"],
        abstentions=sum(r.contract.abstention == "full" for r in rows),
        partial_abstentions=sum(r.contract.abstention == "partial" for r in rows),
        reasons=dict(sorted(reasons.items())),
    )


def diagnosis_counts(rows: list[Row]) -> DiagnosisCounts:
    counts: dict[str, int] = dict.fromkeys(BOUNDARIES, 0)
    unmeasured = []
    req_counts: dict[str, int] = dict.fromkeys(BOUNDARIES, 0)
    req_unmeasured = 0
    for r in rows:
        d = r.diagnosis
        if d.boundary is None:
            unmeasured.append(NotMeasured(row=row_key(*r.key), reason=d.unmeasured or ""))
        else:
            counts[d.boundary] += 1
        for q in d.requests:
            if q.boundary is None:
                req_unmeasured += 1
            else:
                req_counts[q.boundary] += 1
    return DiagnosisCounts(
        counts=counts, rows_covered=len(rows) - len(unmeasured), rows_not_measured=unmeasured,
        requests=req_counts, requests_covered=sum(req_counts.values()), requests_not_measured=req_unmeasured,
    )


def usage(rows: list[Row]) -> Usage:
    called = [r for r in rows if r.source == "provider"]
    tokened = [r for r in rows if r.tokens.prompt is not None]
    return Usage(
        provider_calls=len(called),
        cache_hits=sum(r.from_cache for r in rows),
        replays=sum(r.source == "replay" for r in rows),
        reused=sum(r.source == "reused" for r in rows),
        prompt_tokens=sum(r.tokens.prompt or 0 for r in tokened),
        completion_tokens=sum(r.tokens.completion or 0 for r in tokened),
        rows_with_tokens=len(tokened),
        generate_seconds=round(sum(r.timings.get("generate", 0.0) for r in called), 3),
        answer_seconds=round(sum(r.timings.get("total", 0.0) for r in called), 3),
    )


def _phase(rows: list[Row], name: str) -> Measured:
    """Mean of one timing over rows: `generate` is the answer path's boundary, others the provider's phases."""
    values: list[float] = []
    missing: list[NotMeasured] = []
    for r in rows:
        value = r.timings.get(name) if name == "generate" else r.provider_timings.get(name)
        if value is None:
            missing.append(NotMeasured(row=row_key(*r.key), reason=f"no {name} timing from the provider"))
        else:
            values.append(value)
    return Measured(value=mean(values), rows_covered=len(values), rows_not_measured=missing)


def _evaluated(rows: list[Row]) -> Measured:
    """Mean prompt tokens the model evaluated (the prompt minus what its KV state already held)."""
    values = [float(r.tokens.prompt - r.tokens.cached_prompt) for r in rows
              if r.tokens.prompt is not None and r.tokens.cached_prompt is not None]
    missing = [NotMeasured(row=row_key(*r.key), reason="the provider reports no cached prompt tokens")
               for r in rows if r.tokens.prompt is None or r.tokens.cached_prompt is None]
    return Measured(value=mean(values), rows_covered=len(values), rows_not_measured=missing)


def sample_sharing(rows: list[Row]) -> SampleSharing | None:
    """Only rows produced by a provider call count: a cache hit paid for nothing."""
    called = [r for r in rows if r.source == "provider"]
    if not any(r.sample > 0 for r in called):
        return None
    first = [r for r in called if r.sample == 0]
    later = [r for r in called if r.sample > 0]
    f, lt = _phase(first, "prompt_eval_s"), _phase(later, "prompt_eval_s")
    ratio = lt.value / f.value if f.value and lt.value is not None else None
    first_gen = _phase(first, "generate")
    groups: dict[tuple[str, str], list[Row]] = {}
    for r in called:
        groups.setdefault((r.query_id, r.arm), []).append(r)
    n = max(len(g) for g in groups.values())
    whole = [sum(r.timings.get("generate", 0.0) for r in g) for g in groups.values() if len(g) == n]
    group_s = mean(whole)
    singles = n * first_gen.value if first_gen.value is not None else None
    return SampleSharing(
        groups=len({r.query_id for r in later}),
        first_sample_prompt_eval_s=f, later_samples_prompt_eval_s=lt,
        first_sample_prompt_tokens_evaluated=_evaluated(first), later_samples_prompt_tokens_evaluated=_evaluated(later),
        first_sample_generate_s=first_gen, later_samples_generate_s=_phase(later, "generate"),
        ratio_prompt_eval=round(ratio, 4) if ratio is not None else None,
        samples_per_group=n, group_generate_s=group_s, single_answers_generate_s=singles,
        ratio_group_to_singles=round(group_s / singles, 4) if group_s is not None and singles else None,
    )


def completeness_summary(rows: list[Row]) -> CompletenessSummary:
    measured = [r.completeness for r in rows if r.completeness is not None and r.completeness.total]
    missing = [NotMeasured(row=row_key(*r.key), reason=(r.completeness.unmeasured if r.completeness else None)
                           or "no request completeness in the row")
               for r in rows if r.completeness is None or not r.completeness.total]
    cases = dict.fromkeys(CASES, 0)
    for c in measured:
        for q in c.requests:
            if q.case is not None:
                cases[q.case] += 1
    return CompletenessSummary(
        rows_covered=len(measured), rows_not_measured=missing,
        requests=sum(c.total for c in measured), answered=sum(c.answered for c in measured),
        supported=sum(c.supported for c in measured), cases=cases,
        answered_rate=mean([c.answered_rate for c in measured if c.answered_rate is not None]),
        supported_rate=mean([c.supported_rate for c in measured if c.supported_rate is not None]),
    )


def summarise_answers(rows: list[Row], arm: str) -> AnswerSummary:
    mine = [r for r in rows if r.arm == arm]
    gold_rows = [r for r in mine if r.diagnosis.gold_in_answer is not None]
    gold_missing = [
        NotMeasured(row=row_key(*r.key), reason="no gold answers" if not r.gold_answers else f"contract {r.contract.reason}")
        for r in mine if r.diagnosis.gold_in_answer is None
    ]
    labels = Counter(r.verifier.label or "none" for r in mine)
    order = (*LABELS, *sorted(set(labels) - set(LABELS)))
    label_gold = {
        label: LabelGold(
            rows=labels.get(label, 0),
            gold=sum(1 for r in mine if (r.verifier.label or "none") == label and r.diagnosis.gold_in_answer),
            gold_measured=sum(1 for r in mine if (r.verifier.label or "none") == label
                              and r.diagnosis.gold_in_answer is not None),
        )
        for label in order
    }
    quoted = [r for r in mine if r.verifier.label == "STRICT" and r.verifier.basis != "judged"]
    strict_quoted = LabelGold(rows=len(quoted), gold=sum(1 for r in quoted if r.diagnosis.gold_in_answer),
                              gold_measured=sum(1 for r in quoted if r.diagnosis.gold_in_answer is not None))
    return AnswerSummary(
        arm=arm, rows=len(mine), contract=contract_counts(mine),
        labels={label: labels.get(label, 0) for label in order}, label_gold=label_gold, strict_quoted=strict_quoted,
        gold_in_answer=Measured(value=mean([float(bool(r.diagnosis.gold_in_answer)) for r in gold_rows]),
                                rows_covered=len(gold_rows), rows_not_measured=gold_missing),
        diagnosis=diagnosis_counts(mine), usage=usage(mine), samples=sample_sharing(mine),
        completeness=completeness_summary(mine),
    )
