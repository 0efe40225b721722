"""Summaries of a run, computed from its per-query rows on disk: JSON files and summary.md.

summary.md leads with the diagnosis table (where answers lost the gold
answer's support), then retrieval, admission, contract, labels and cost.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from arborist.lab import rundir
from arborist.lab.completeness import CASE_MEANING, CASES
from arborist.lab.config import RunConfig
from arborist.lab.judge import JUDGE_SUMMARY, JudgeSummary
from arborist.lab.metrics import Measured
from arborist.lab.metrics.answers import AnswerSummary, summarise_answers
from arborist.lab.metrics.retrieval import (
    METRICS,
    RetrievalSummary,
    summarise_retrieval,
)
from arborist.lab.metrics.treatments import TreatmentSummary, summarise_treatments
from arborist.lab.rows import Row
from arborist.lab.runfiles import BOUNDARIES, BOUNDARY_MEANING
from arborist.lab.treatments import PLANTED, WITHHELD


def load_rows(run_dir: Path) -> tuple[list[Row], list[int]]:
    """Valid rows of a run, and the line numbers that are not (torn or foreign)."""
    raw, bad = rundir.read_rows(run_dir / rundir.ROWS)
    rows: list[Row] = []
    for n, item in enumerate(raw, start=1):
        try:
            rows.append(Row.model_validate(item))
        except ValidationError:
            bad.append(n)
    return rows, bad


def _pct(part: int, whole: int) -> str:
    return f"{part / whole:.0%}" if whole else "—"


def _fmt(m: Measured, digits: int = 3) -> str:
    value = "n/a" if m.value is None else f"{m.value:.{digits}f}"
    extra = f", {len(m.rows_not_measured)} not measured" if m.rows_not_measured else ""
    return f"{value} (n={m.rows_covered}{extra})"


def _treatment_lines(treated: list[TreatmentSummary]) -> list[str]:
    if not treated:
        return []
    out = ["", "## Treatments (each treated arm paired with its untreated arm, question by question)", ""]
    order = [t for t in treated if t.treatment not in (WITHHELD, PLANTED)]
    if order:
        out += ["Evidence order: the same admitted chunks in another order.", "",
                "| arm | pairs | gold answer changed | label changed | gold, untreated → treated |",
                "|---|---|---|---|---|"]
        out += [f"| {t.arm} | {t.pairs} | {t.gold_changed} ({_pct(t.gold_changed or 0, t.pairs)}) | "
                f"{t.label_changed} ({_pct(t.label_changed or 0, t.pairs)}) | {t.control_gold} → {t.treated_gold} |"
                for t in order]
        out.append("")
    for t in treated:
        if t.treatment == WITHHELD:
            n = sum(t.outcomes.values())
            out += [f"Withheld evidence ({t.arm}): every chunk of a relevant source removed before admission, in "
                    f"{t.applied} of {t.rows} rows. Abstained (right; the model, or the verifier's Rule 13) "
                    f"{t.outcomes.get('abstained', 0)} of {n}; "
                    f"answered anyway {t.outcomes.get('answered', 0)} (STRICT {t.strict_answered}); "
                    f"not measured {t.not_measured}.", ""]
        elif t.treatment == PLANTED:
            n = sum(t.outcomes.values())
            out += [f"Planted falsehood ({t.arm}): the gold answer replaced by another question's value of the same "
                    f"kind, in {t.applied} of {t.rows} rows. Of {n} measured: repeated the planted value "
                    f"{t.outcomes.get('repeated_planted', 0)}, kept the true value {t.outcomes.get('kept_true', 0)}, "
                    f"objected {t.outcomes.get('objected', 0)}, neither {t.outcomes.get('neither', 0)}; "
                    f"not measured {t.not_measured}.", ""]
    return out


def render_markdown(cfg: RunConfig, answers: dict[str, AnswerSummary], retrieval: dict[str, RetrievalSummary],
                    rows_written: int, treated: list[TreatmentSummary] | None = None,
                    judged: JudgeSummary | None = None) -> str:
    arms = list(answers)
    out = [f"# answer-quality run {cfg.run_id[:8]}", "",
           (f"{rows_written} of {cfg.rows_total} rows: {len(cfg.question_ids)} questions x {len(arms)} arm(s) "
           f"({', '.join(arms)}) x {cfg.samples} sample(s); model `{cfg.model.model_id}`; "
           f"corpus `{cfg.corpus_digest[:19]}…`."), ""]
    errors = sum(a.contract.provider_errors for a in answers.values())
    if errors:
        out += [f"**{errors} of {rows_written} rows failed:** the provider call failed, so they have no answer "
                "(`--continue-from` asks them again).", ""]
    judge_failed = judged.status.get("judge_failed", 0) if judged is not None else 0
    if judged is not None and judge_failed:
        out += [f"**The judge failed on {judge_failed} of {judged.rows} rows** (a failed call or an unusable reply).",
                ""]
    out += ["## Where support for the gold answer disappeared", "",
            "| boundary | meaning | " + " | ".join(arms) + " |", "|---|---|" + "---|" * len(arms)]
    for b in BOUNDARIES:
        cells = [f"{a.diagnosis.counts[b]} ({_pct(a.diagnosis.counts[b], a.diagnosis.rows_covered)})"
                 for a in answers.values()]
        out.append(f"| {b} | {BOUNDARY_MEANING[b]} | " + " | ".join(cells) + " |")
    out.append("| not measured | no relevant ids or no gold answers | "
               + " | ".join(str(len(a.diagnosis.rows_not_measured)) for a in answers.values()) + " |")
    if any(a.diagnosis.requests_covered for a in answers.values()):
        out += ["", "Per request (each hop or part of a question on its own):", "",
                "| boundary | " + " | ".join(arms) + " |", "|---|" + "---|" * len(arms)]
        for b in BOUNDARIES:
            out.append(f"| {b} | " + " | ".join(
                f"{a.diagnosis.requests[b]} ({_pct(a.diagnosis.requests[b], a.diagnosis.requests_covered)})"
                for a in answers.values()) + " |")
    out += ["", "## Retrieval (ranked list before any cutoff, documents @10) and admission", "",
            "| metric | " + " | ".join(arms) + " |", "|---|" + "---|" * len(arms)]
    for m in METRICS:
        out.append(f"| {m}@10 | " + " | ".join(_fmt(r.metrics[m]) for r in retrieval.values()) + " |")
    out.append("| admission coverage (relevant ranked chunks that reached the prompt, mean per question) | "
               + " | ".join(_fmt(r.admission_coverage) for r in retrieval.values()) + " |")
    out += ["", "## Answers", "", "| | " + " | ".join(arms) + " |", "|---|" + "---|" * len(arms)]

    def line(name: str, cells: list[str]) -> None:
        out.append(f"| {name} | " + " | ".join(cells) + " |")

    vals = list(answers.values())
    line("rows", [str(a.contract.total) for a in vals])
    line("contract-valid", [f"{a.contract.valid} ({_pct(a.contract.valid, a.contract.total)})" for a in vals])
    line("parse failures", [str(a.contract.parse_failures) for a in vals])
    line("other contract failures", [str(a.contract.contract_failures) for a in vals])
    line("provider errors", [str(a.contract.provider_errors) for a in vals])
    line("abstentions (full / partial)", [f"{a.contract.abstentions} / {a.contract.partial_abstentions}" for a in vals])
    line("gold answer in the answer", [_fmt(a.gold_in_answer) for a in vals])
    for label in vals[0].labels if vals else []:
        name = "STRICT (any)" if label == "STRICT" else label
        line(f"label {name} (with the gold answer / measured)", [
            f"{lg.rows} ({lg.gold}/{lg.gold_measured})" if (lg := a.label_gold.get(label)) else "0"
            for a in vals])
        if label == "STRICT":
            line("label STRICT (quoted: no claim judged)", [
                f"{q.rows} ({q.gold}/{q.gold_measured})" if (q := a.strict_quoted) else "n/a" for a in vals])
    comp = [a.completeness for a in vals]
    if any(c is not None and c.requests for c in comp):
        out += ["", "## Request completeness", "",
                "Each request (a hop, or a part of the question) on its own: answered when the answer states its "
                "gold answer, supported when it also cites a chunk of the request's own sources.", "",
                "| | " + " | ".join(arms) + " |", "|---|" + "---|" * len(arms)]
        line("requests measured (rows)", [f"{c.requests} ({c.rows_covered})" if c else "0" for c in comp])
        line("answered rate (mean per question)", [
            "n/a" if c is None or c.answered_rate is None else f"{c.answered_rate:.3f}" for c in comp])
        line("supported rate (mean per question)", [
            "n/a" if c is None or c.supported_rate is None else f"{c.supported_rate:.3f}" for c in comp])
        for case in CASES:
            line(CASE_MEANING[case], [f"{c.cases[case]} ({_pct(c.cases[case], c.requests)})" if c else "0"
                                      for c in comp])
    out += _treatment_lines(treated or [])
    if judged is not None:
        out += ["", f"## Judge (statements: `{judged.statements_model}`, verdicts: `{judged.verdicts_model}`)", "",
                f"{judged.status.get('judged', 0)} of {judged.rows} rows judged "
                f"({', '.join(f'{k} {v}' for k, v in sorted(judged.status.items()))}); {judged.statements} statements, "
                f"{judged.supported} supported, {judged.contradicted} contradicted; faithfulness "
                f"{'n/a' if judged.faithfulness is None else f'{judged.faithfulness:.3f}'}, relevance "
                f"{'n/a' if judged.relevance is None else f'{judged.relevance:.3f}'}; {judged.calls} judge calls, "
                f"{judged.cache_hits} from cache."]
        out += [f"- Limitation: {note}." for note in judged.limitations]
    out += ["", "## Cost", "", "| | " + " | ".join(arms) + " |", "|---|" + "---|" * len(arms)]
    line("provider calls", [str(a.usage.provider_calls) for a in vals])
    line("cache hits (of which completions replayed for an identical prompt)",
         [f"{a.usage.cache_hits} ({a.usage.replays})" for a in vals])
    line("reused from the run continued", [str(a.usage.reused) for a in vals])
    line("prompt / completion tokens", [f"{a.usage.prompt_tokens} / {a.usage.completion_tokens}" for a in vals])
    line("seconds in provider calls (answer path)", [f"{a.usage.answer_seconds:.1f}" for a in vals])
    sharing = [a.samples for a in vals if a.samples is not None]
    if sharing:
        out += ["", "## Samples sharing their prompt", "",
                ("| arm | groups | prompt eval, first sample (s) | prompt eval, later samples (s) | ratio | "
                "generate, first (s) | generate, later (s) |"), "|---|---|---|---|---|---|---|"]
        for a in vals:
            s = a.samples
            if s is None:
                continue
            out.append(f"| {a.arm} | {s.groups} | {_fmt(s.first_sample_prompt_eval_s)}, "
                       f"{_fmt(s.first_sample_prompt_tokens_evaluated, 0)} tokens | "
                       f"{_fmt(s.later_samples_prompt_eval_s)}, {_fmt(s.later_samples_prompt_tokens_evaluated, 0)} tokens"
                       f" | {s.ratio_prompt_eval} | "
                       f"{_fmt(s.first_sample_generate_s, 2)} | {_fmt(s.later_samples_generate_s, 2)} | "
                       f"{'n/a' if s.group_generate_s is None else f'{s.group_generate_s:.1f}'} | "
                       f"{'n/a' if s.single_answers_generate_s is None else f'{s.single_answers_generate_s:.1f}'} | "
                       f"{s.ratio_group_to_singles} |")
    unmeasured = {n.row: n.reason for a in vals for n in a.diagnosis.rows_not_measured}
    if unmeasured:
        out += ["", f"## Rows not diagnosed ({len(unmeasured)})", ""]
        out += [f"- {row}: {reason}" for row, reason in list(unmeasured.items())[:50]]
        if len(unmeasured) > 50:
            out.append(f"- … {len(unmeasured) - 50} more in results/answer-contract-summary.json")
    return "\n".join(out) + "\n"


def _judge_summary(run_dir: Path) -> JudgeSummary | None:
    path = run_dir / JUDGE_SUMMARY
    if not path.exists():
        return None
    try:
        return JudgeSummary.model_validate_json(path.read_text(encoding="utf-8"))
    except ValidationError:
        return None


def summary_files(run_dir: Path, cfg: RunConfig) -> dict[str, Any]:
    """Every summary file of a run (name under the run directory -> its JSON value, or text for summary.md),
    computed from the rows on disk: what `write_summaries` writes and `lab validate` recomputes."""
    rows, bad = load_rows(run_dir)
    arms = [a.name for a in cfg.arms]
    answers = {a: summarise_answers(rows, a) for a in arms}
    retrieval = {a: summarise_retrieval(rows, a) for a in arms}
    treated = summarise_treatments(rows, cfg.arms)
    generated: list[dict[str, Any]] = [
        {"query_id": r.query_id, "arm": r.arm, "sample": r.sample, "question": r.question,
         "gold_answers": r.gold_answers, "answer": r.answer.text, "parsed": r.answer.parsed,
         "contract": r.contract.reason, "label": r.verifier.label, "gold_in_answer": r.diagnosis.gold_in_answer,
         "diagnosis": r.diagnosis.boundary, "source": r.source}
        for r in rows
    ]
    return {
        rundir.ANSWERS: generated,
        rundir.CONTRACT_SUMMARY: {
            "rows": len(rows), "rows_expected": cfg.rows_total, "unreadable_lines": bad,
            "arms": {a: s.model_dump(mode="json") for a, s in answers.items()},
            "treatments": [t.model_dump(mode="json") for t in treated],
        },
        rundir.RETRIEVAL_SUMMARY: {
            "rows": len(rows), "arms": {a: s.model_dump(mode="json") for a, s in retrieval.items()},
        },
        rundir.SUMMARY_MD: render_markdown(cfg, answers, retrieval, len(rows), treated, _judge_summary(run_dir)),
    }


def write_summaries(run_dir: Path, cfg: RunConfig) -> None:
    for name, value in summary_files(run_dir, cfg).items():
        if isinstance(value, str):
            (run_dir / name).write_text(value, encoding="utf-8")
        else:
            rundir.write_json(run_dir / name, value)
