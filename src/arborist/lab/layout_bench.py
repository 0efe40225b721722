"""The layout bench: the same questions under each layout, n samples each, judged by the verifier's labels.

One ordinary answer-quality run per layout (run directories under the
bench's `runs/`, the lab's answer cache shared, so a repeated bench is served
from the cache), then one table from their rows:

- per layout: STRICT / HYBRID / UNGROUNDED / ABSTAINED counts, strict-rate,
  mean share of verified claims (n_verified / n_claims), mean latency, and
  the change in strict-rate against the control layout (the first one),
  paired per question with a seeded 95% bootstrap interval and the
  signal-floor verdict of `lab compare`;
- per layout, when the questions have golds: the share of answers holding
  one, and its change against the control with interval and verdict (a
  layout can lift strict-rate by abstaining more and answering less);
- violations: claim and answer reason codes per layout;
- per prompt-size bucket (0-16, 16-32, 32-64, 64+ KB of prompt text):
  rows, strict-rate and mean answer length.

`quantifiers` restricts the bench to questions of the given quantifier
classes (the filtered re-bench that decides whether `auto` earns its place).
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from arborist.corpus.store import open_store
from arborist.errors import InputError
from arborist.evaluation.format import Evaluation, check_binding, load_evaluation
from arborist.lab import rundir
from arborist.lab.compare import DEFAULT_FLOOR, compare_runs
from arborist.lab.fixtures import parse_fixtures, to_evaluation
from arborist.lab.metrics import mean
from arborist.lab.metrics.answers import LABELS
from arborist.lab.report import load_rows
from arborist.lab.rows import Row
from arborist.lab.runner import RunRequest, execute, plan_run
from arborist.models.base import Provider
from arborist.policy.canonical import tagged_digest
from arborist.progress import Reporter
from arborist.prompting.layouts import AUTO
from arborist.verify.quantifier import QuantifierClass, classify_quantifier

BUCKETS_KB = (16, 32, 64)
BENCH_TAG = "arborist-layout-bench/1"


class LayoutRow(BaseModel):
    layout: str
    run_dir: str
    rows: int
    labels: dict[str, int]
    strict_rate: float | None
    verified_share: float | None = Field(description="mean over answers with claims of n_verified / n_claims")
    latency_s: float | None = Field(description="mean answer-path time of the rows (their first answering; "
                                     "a completion replayed from another layout's identical prompt is left out)")
    delta_strict: float | None = Field(description="strict-rate minus the control layout's, paired per question")
    interval: tuple[float, float] | None
    verdict: str | None
    gold_rate: float | None = Field(default=None, description="share of rows whose answer holds a gold answer "
                                    "(rows of questions with golds)")
    delta_gold: float | None = Field(default=None, description="gold rate minus the control layout's, paired")
    gold_interval: tuple[float, float] | None = None
    gold_verdict: str | None = None
    violations: dict[str, int]
    buckets: dict[str, dict[str, float | int | None]]
    resolved: dict[str, int] = Field(default_factory=dict, description="rows per layout actually rendered: "
                                     "`auto` resolves per question")


class LayoutBench(BaseModel):
    bench_dir: str
    control: str
    samples: int
    questions: int
    quantifiers: list[str]
    floor: float
    layouts: list[LayoutRow]
    seconds: dict[str, float] = Field(description="answering each layout's rows, preparation excluded")
    preparation_seconds: dict[str, float] = Field(
        default_factory=dict, description="building the index and embeddings before a layout's rows (the first "
        "layout pays for them; later ones reuse them)")


def _bucket(kb: float) -> str:
    lo = 0
    for hi in BUCKETS_KB:
        if kb < hi:
            return f"{lo}-{hi} KB"
        lo = hi
    return f"{lo}+ KB"


def _prompt_kb(row: Row) -> float | None:
    if row.trace is None:
        return None
    return sum(len(m["content"].encode("utf-8")) for m in row.trace.prompt_messages) / 1024


def _verified_share(row: Row) -> float | None:
    claims = row.trace.claims if row.trace else []
    if not claims:
        return None
    return sum(c.get("verdict") in ("VERIFIED_QUOTE", "VERIFIED_SPAN") for c in claims) / len(claims)


def summarise_layout(layout: str, run_dir: Path) -> LayoutRow:
    rows, _ = load_rows(run_dir)
    labels = Counter(r.verifier.label or "none" for r in rows)
    strict = [float(r.verifier.label == "STRICT") for r in rows]
    violations: Counter[str] = Counter()
    for r in rows:
        violations.update(r.verifier.reasons)
        for c in r.trace.claims if r.trace else []:
            violations.update(c.get("reasons", []))
    buckets: dict[str, list[Row]] = {}
    for r in rows:
        kb = _prompt_kb(r)
        if kb is not None:
            buckets.setdefault(_bucket(kb), []).append(r)
    return LayoutRow(
        layout=layout, run_dir=str(run_dir), rows=len(rows), labels={lab: labels.get(lab, 0) for lab in LABELS},
        strict_rate=mean(strict),
        gold_rate=mean([float(g) for r in rows if (g := r.diagnosis.gold_in_answer) is not None]),
        verified_share=mean([v for r in rows if (v := _verified_share(r)) is not None]),
        latency_s=mean([r.timings["total"] for r in rows if "total" in r.timings and not r.replayed]),
        delta_strict=None, interval=None, verdict=None, violations=dict(violations.most_common()),
        resolved=dict(sorted(Counter(r.trace.prompt_layout for r in rows if r.trace is not None).items())),
        buckets={name: {"rows": len(rs), "strict_rate": mean([float(r.verifier.label == "STRICT") for r in rs]),
                        "answer_runes": mean([float(len(r.answer.text)) for r in rs if r.contract.valid])}
                 for name, rs in sorted(buckets.items(), key=lambda kv: int(kv[0].split("-")[0].rstrip("+ KB")))},
    )


def evaluation_for(path: Path, digest: str, section: str | None) -> Evaluation:
    """The evaluation to run: as given, or a fixture file (.txt) turned into one for this corpus."""
    if path.suffix == ".txt":
        return to_evaluation(parse_fixtures(path), digest, section)
    if section is not None:
        raise InputError("--section reads a question fixture file (.txt); this evaluation is JSON")
    evaluation = load_evaluation(path)
    check_binding(evaluation, digest, path)
    return evaluation


def select_quantifiers(evaluation: Evaluation, classes: Sequence[str]) -> list[str] | None:
    """The ids of the questions in the given quantifier classes (None: no filter)."""
    if not classes:
        return None
    valid = {c.value for c in QuantifierClass}
    unknown = [c for c in classes if c not in valid]
    if unknown:
        raise InputError(f"unknown quantifier class(es) {', '.join(unknown)}; valid: {', '.join(sorted(valid))}")
    ids = [q.id for q in evaluation.questions if classify_quantifier(q.question).kind.value in classes]
    if not ids:
        raise InputError(f"no question of the evaluation is in quantifier class(es) {', '.join(classes)}")
    return ids


def run_layout_bench(
    db: Path, evaluation: Path, layouts: Sequence[str], base: RunRequest, provider: Provider, out: Path,
    quantifiers: Sequence[str] = (), section: str | None = None, floor: float = DEFAULT_FLOOR,
    progress: Reporter | None = None,
) -> LayoutBench:
    """Run the bench; `base` carries every run option but the corpus, evaluation, layout and run root."""
    if len(layouts) < 2:
        raise InputError("--layouts needs at least two layouts: the first is the control the others are paired with")
    if len(set(layouts)) != len(layouts):
        raise InputError(f"--layouts names a layout twice ({', '.join(layouts)})")
    temperature = base.policy_values.get("temperature")
    if base.samples > 1 and not temperature:
        raise InputError(f"--samples {base.samples} needs --temperature above 0: at temperature 0 every sample is "
                         "the same answer")
    with open_store(db) as store:
        if store.role() == "sentinel":
            raise InputError(f"'{db}' is a sentinel store (patched values); bench the real corpus store")
        documents = list(store.iter_documents())
        digest, chunking = store.digest(), store.chunking()
    if not documents or chunking is None:
        raise InputError(f"store '{db}' holds no documents; ingest the corpus first")
    chosen = evaluation_for(evaluation, digest, section)
    ids = select_quantifiers(chosen, quantifiers)
    if ids is not None and base.question_ids is not None:
        wanted = {line.strip() for line in base.question_ids.read_text(encoding="utf-8").splitlines() if line.strip()}
        ids = [i for i in ids if i in wanted]
        if not ids:
            raise InputError("no question is both in --question-ids and in the --quantifier classes")
    created = datetime.now(UTC)
    name = f"{created.strftime('%Y%m%dT%H%M%SZ')}-layout-bench-" + tagged_digest(
        BENCH_TAG, {"corpus": digest, "layouts": list(layouts), "samples": base.samples})[7:15]
    bench_dir = rundir.create_fresh_dir(out, name, ("inputs", "runs"), "layout bench")
    corpus = bench_dir / "inputs" / "corpus.json"
    corpus.write_text(json.dumps([{"id": d.source_id, "title": d.title, "text": d.text} for d in documents],
                                 ensure_ascii=False), encoding="utf-8")
    eval_path = bench_dir / "inputs" / "evaluation.json"
    eval_path.write_text(chosen.model_dump_json(indent=2), encoding="utf-8")
    ids_file = None
    if ids is not None:
        ids_file = bench_dir / "inputs" / "question-ids.txt"
        ids_file.write_text("\n".join(ids) + "\n", encoding="utf-8")
    seconds: dict[str, float] = {}
    preparation: dict[str, float] = {}
    run_dirs: dict[str, Path] = {}
    values: dict[str, Any] = {**base.policy_values, "chunk_runes": chunking.chunk_runes,
                              "overlap_runes": chunking.overlap_runes}
    questions = 0
    bench_phase = progress.phase("layout bench", len(layouts)) if progress is not None else None
    for layout in layouts:
        request = dataclasses.replace(base, run_root=bench_dir / "runs", corpus=corpus, evaluation=eval_path,
                                      question_ids=ids_file or base.question_ids,
                                      policy_values={**values, "layout": layout})
        plan = plan_run(request, provider)
        questions = len(plan.questions)
        outcome = execute(plan, provider, progress)
        seconds[layout], preparation[layout] = outcome.answering_seconds, outcome.preparation_seconds
        if bench_phase is not None:
            bench_phase.advance(note=f"{layout} done")
        if outcome.status.state == "interrupted":
            raise KeyboardInterrupt  # the finished runs stay in runs/; a rerun is served from the cache
        if outcome.status.state != "complete":
            raise InputError(f"the {layout} run stopped ({outcome.status.state}): {outcome.status.message}; run the "
                             "bench again (answers already made are served from the cache)")
        run_dirs[layout] = outcome.run_dir
    if bench_phase is not None:
        bench_phase.close()
    return summarise_bench(bench_dir, layouts, run_dirs, samples=base.samples, questions=questions,
                           quantifiers=quantifiers, floor=floor, seconds=seconds, preparation_seconds=preparation)


def summarise_bench(bench_dir: Path, layouts: Sequence[str], run_dirs: dict[str, Path], *, samples: int,
                    questions: int, quantifiers: Sequence[str], floor: float, seconds: dict[str, float],
                    preparation_seconds: dict[str, float] | None = None) -> LayoutBench:
    """bench.json and summary.md from the finished runs, the first layout the control: strict-rate and
    gold-in-answer each compared with the control, paired per question (a layout can raise one by
    losing the other: abstaining more lifts strict-rate and drops answers)."""
    control = layouts[0]
    rows = []
    for layout in layouts:
        row = summarise_layout(layout, run_dirs[layout])
        if layout != control:
            c = compare_runs(run_dirs[control], run_dirs[layout], metric="strict", floor=floor)
            update: dict[str, object] = {"delta_strict": c.delta, "verdict": c.verdict,
                                         "interval": (c.interval.low, c.interval.high) if c.interval else None}
            if row.gold_rate is not None:
                g = compare_runs(run_dirs[control], run_dirs[layout], metric="gold", floor=floor)
                update.update({"delta_gold": g.delta, "gold_verdict": g.verdict,
                               "gold_interval": (g.interval.low, g.interval.high) if g.interval else None})
            row = row.model_copy(update=update)
        rows.append(row)
    bench = LayoutBench(bench_dir=str(bench_dir), control=control, samples=samples, questions=questions,
                        quantifiers=list(quantifiers), floor=floor, layouts=rows, seconds=seconds,
                        preparation_seconds=preparation_seconds or {})
    rundir.write_json(bench_dir / "bench.json", bench.model_dump(mode="json"))
    (bench_dir / "summary.md").write_text(render(bench), encoding="utf-8")
    return bench


def _f(x: float | None, digits: int = 3) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def render(bench: LayoutBench) -> str:
    filt = f", quantifier classes {', '.join(bench.quantifiers)}" if bench.quantifiers else ""
    out = [f"# layout bench: {bench.questions} questions x {bench.samples} sample(s){filt}; control `{bench.control}`",
           "", "| layout | rows | STRICT | HYBRID | UNGROUNDED | ABSTAINED | strict-rate | verified/claims | "
           "latency (s) | Δ strict vs control [95% CI] | verdict | seconds |", "|---|" + "---|" * 11]
    for r in bench.layouts:
        ci = "" if r.interval is None else f" [{r.interval[0]:+.3f}, {r.interval[1]:+.3f}]"
        delta = "control" if r.layout == bench.control else f"{_f(r.delta_strict)}{ci}"
        out.append(f"| {r.layout} | {r.rows} | " + " | ".join(str(r.labels[lab]) for lab in LABELS)
                   + f" | {_f(r.strict_rate)} | {_f(r.verified_share)} | {_f(r.latency_s, 1)} | {delta} | "
                   f"{r.verdict or '—'} | {bench.seconds.get(r.layout, 0):.0f} |")
    out += ["", "`seconds` is the time answering each layout's rows; building the index and embeddings is left out"
            + ("" if not any(bench.preparation_seconds.values()) else " (" + ", ".join(
                f"{k} {v:.0f} s" for k, v in bench.preparation_seconds.items() if v >= 0.5) + ")") + "."]
    for r in bench.layouts:
        if r.layout == AUTO:
            out += ["", "`auto` resolved per question to: "
                    + ", ".join(f"{name} {n} rows" for name, n in r.resolved.items()) + "."]
    if any(r.gold_rate is not None for r in bench.layouts):
        out += ["", "## Gold answer in the answer", "", "| layout | gold-in-answer | Δ gold vs control [95% CI] | "
                "verdict |", "|---|---|---|---|"]
        for r in bench.layouts:
            ci = "" if r.gold_interval is None else f" [{r.gold_interval[0]:+.3f}, {r.gold_interval[1]:+.3f}]"
            delta = "control" if r.layout == bench.control else f"{_f(r.delta_gold)}{ci}"
            out.append(f"| {r.layout} | {_f(r.gold_rate)} | {delta} | {r.gold_verdict or '—'} |")
    codes = sorted({c for r in bench.layouts for c in r.violations})
    if codes:
        out += ["", "## Violations by reason", "", "| reason | " + " | ".join(r.layout for r in bench.layouts) + " |",
                "|---|" + "---|" * len(bench.layouts)]
        out += [f"| {c} | " + " | ".join(str(r.violations.get(c, 0)) for r in bench.layouts) + " |" for c in codes]
    names = sorted({b for r in bench.layouts for b in r.buckets}, key=lambda b: int(b.split("-")[0].rstrip("+ KB")))
    out += ["", "## By prompt size (strict-rate, mean answer runes; rows)", "",
            "| prompt size | " + " | ".join(r.layout for r in bench.layouts) + " |", "|---|" + "---|" * len(bench.layouts)]
    for b in names:
        cells = []
        for r in bench.layouts:
            v = r.buckets.get(b)
            cells.append("—" if v is None else f"{_f(v['strict_rate'])}, {_f(v['answer_runes'], 0)}; n={v['rows']}")
        out.append(f"| {b} | " + " | ".join(cells) + " |")
    out += ["", f"Verdict: `signal` only when the interval excludes 0 and |Δ| ≥ {bench.floor}; the runs are in "
            "`runs/` (each an ordinary run directory: `lab view` shows it)."]
    return "\n".join(out) + "\n"
