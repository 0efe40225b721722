"""Every local model profile on the same questions, through the lab: quality, speed, memory, paired differences.

Usage: .venv/bin/python bench/model_comparison.py [--profiles qwen2.5-1.5b qwen2.5-0.5b] [--n 30]
           [--sets demo,squad,musique,squad-withheld] [--demo-limit N] [--entailment local|openai|none] [--seed 9]
           [--work DIR] [--json] [--report-only]

Four sets, the same for every profile:

- demo: the demo corpus's 24 questions (src/arborist/demo/questions.jsonl; the
  three without a gold answer are the demo's unanswerable ones), or the first
  --demo-limit of them;
- squad: N SQuAD v1.1 questions (../shared/data/squad-single-hop), seeded, one per
  paragraph, chosen among those whose gold answer occurs in no other ARTICLE (so
  that leaving the article out really removes the answer);
- musique: the first N MuSiQue questions (multi-hop) over their 1,890 passages;
- squad-withheld: the same N SQuAD questions, each asked of the corpus without its
  gold article (one run per article: every paragraph of it is gone, not only the
  gold one). The right outcome is an abstention; their gold answers are kept, so
  "gold" there counts answers from the model's memory.

Each profile runs in its own process (so its peak resident memory is its own,
the entailment judge's model included), through the lab's run engine
(`lab.runner.plan_run` + `execute`, the path of `arborist lab run`) with the default policy, the --entailment judge, and a
fresh provider call for every row (`burn`: no answer comes from the cache, so
every latency is a model's). Runs, stores and the answer cache stay under --work.

Per model and set: contract-valid, gold in the answer, STRICT, STRICT-right
(STRICT answers holding the gold), right answers STRICT, citation agreement
(claims whose quote is found in the block they cite, among claims with a
quote; a re-anchored quote is a miscitation), abstention (what the user gets:
the model abstained, or the verifier withheld an answer whose evidence does not
speak of the question, label ABSTAINED) and the model's own abstention, prompt and
generation tokens per second (llama.cpp's own counters), median and p90 latency
of the answer path from retrieval to the contract check (the record does not
time the verifier; the model's load on a process's first call is left out), peak RSS of the
profile's process. Then each profile against the baseline (default
qwen2.5-1.5b), paired per question: `lab.compare.compare_runs` for valid, gold
and STRICT (several runs of a set, and all sets together, pooled with its
`also`), and the same seeded bootstrap and McNemar (`lab.stats`) for
the abstentions, right answers STRICT and citation agreement, which compare does
not offer.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from _common import SHARED_DATA, percentile
from arborist.corpus.documents import SourceDocument, corpus_digest
from arborist.corpus.loaders import load_documents
from arborist.entailment import DEFAULT_ENTAILMENT
from arborist.entailment.factory import spec_for
from arborist.errors import ArboristError
from arborist.evaluation.format import Evaluation, Question, Request
from arborist.evaluation.importers import import_dataset, write_import
from arborist.evaluation.importers._assembly import DatasetImport
from arborist.lab import rundir
from arborist.lab.compare import DEFAULT_FLOOR, compare_runs
from arborist.lab.config import ModelSpec
from arborist.lab.metrics.headline import METRICS
from arborist.lab.runner import RunRequest, execute, plan_run
from arborist.lab.stats import bootstrap_mean, mcnemar_exact, verdict
from arborist.models.base import Provider
from arborist.models.profiles import DEFAULT_PROFILE, get_profile
from arborist.verify import VerifierPolicy
from arborist.verify.judge import ENTAILMENT_KINDS

DEMO = Path(__file__).resolve().parents[1] / "src" / "arborist" / "demo"
SETS = ("demo", "squad", "musique", "squad-withheld")
SQUAD_FILE = "squad-single-hop/dev-v1.1-13-articles.json"
ALL = "all sets"
# Smallest first: a bench stopped part-way has paired figures on the sets it finished.
RUN_ORDER = ("squad", "squad-withheld", "musique", "demo")


# -- the sets -----------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """One run's inputs: a set is one part, or several (squad-withheld: one per article left out)."""

    set: str
    name: str
    corpus: str
    evaluation: str
    question_ids: str | None = None


def _write(folder: Path, documents: Sequence[SourceDocument], questions: list[Question], fmt: str) -> None:
    """corpus.json + evaluation.json bound to it, as `arborist lab import-dataset` writes them (once)."""
    if (folder / "evaluation.json").exists():
        return
    evaluation = Evaluation(corpus_digest=corpus_digest(list(documents)), questions=questions)
    write_import(DatasetImport(format=fmt, documents=tuple(documents), evaluation=evaluation), folder)


def demo_part(work: Path, limit: int | None = None) -> Part:
    """The demo corpus and its questions (the first `limit` of them, when given)."""
    folder = work / "sets" / "demo"
    rows = [json.loads(line) for line in (DEMO / "questions.jsonl").read_text().splitlines() if line.strip()]
    questions = [Question(id=r["id"], question=r["question"], answers=r["answers"],
                          relevant_source_ids=r["source_ids"]) for r in rows]
    _write(folder, load_documents([DEMO / "corpus"]), questions, "demo")
    ids = None
    if limit is not None:
        ids = folder / f"questions-first-{limit}.txt"
        ids.write_text("".join(f"{q.id}\n" for q in questions[:limit]), encoding="utf-8")
    return Part("demo", "demo", str(folder / "corpus.json"), str(folder / "evaluation.json"),
                str(ids) if ids else None)


def _article(doc_id: str) -> str:
    return doc_id.rsplit("#", 1)[0]


def choose_squad(documents: Sequence[SourceDocument], questions: Sequence[Question], n: int,
                 seed: int) -> list[Question]:
    """N questions, seeded, one per paragraph, none of whose gold answers occurs (case-folded) in another article."""
    by_article: dict[str, list[str]] = {}
    for d in documents:
        by_article.setdefault(_article(d.source_id), []).append(d.text.casefold())
    texts = {a: "\n".join(ts) for a, ts in by_article.items()}
    pool = [q for q in questions if q.answers and q.relevant_source_ids]
    random.Random(seed).shuffle(pool)
    chosen: list[Question] = []
    paragraphs: set[str] = set()
    for q in pool:
        gold = q.relevant_source_ids[0]
        if gold in paragraphs:
            continue
        home = _article(gold)
        if any(a.casefold() in t for a in q.answers for art, t in texts.items() if art != home):
            continue
        chosen.append(q)
        paragraphs.add(gold)
        if len(chosen) == n:
            break
    return chosen


def withheld_questions(questions: Sequence[Question]) -> list[Question]:
    """The questions with their (now absent) sources dropped; the gold answers stay, to count answers from memory."""
    return [q.model_copy(update={"relevant_source_ids": [], "requests": [
        Request(id=r.id, text=r.text, answers=r.answers) for r in q.requests]}) for q in questions]


def squad_parts(data: Path, work: Path, n: int, seed: int, sets: Sequence[str]) -> list[Part]:
    """The squad set (the import's corpus, the chosen question ids) and one squad-withheld part per article."""
    imported = import_dataset("squad", data / SQUAD_FILE)
    folder = work / "sets" / "squad"
    _write(folder, imported.documents, imported.evaluation.questions, "squad")
    chosen = choose_squad(imported.documents, imported.evaluation.questions, n, seed)
    ids = folder / f"questions-n{n}-seed{seed}.txt"
    ids.write_text("".join(f"{q.id}\n" for q in chosen), encoding="utf-8")
    parts = []
    if "squad" in sets:
        parts.append(Part("squad", "squad", str(folder / "corpus.json"), str(folder / "evaluation.json"), str(ids)))
    if "squad-withheld" in sets:
        articles: dict[str, list[Question]] = {}
        for q in chosen:
            articles.setdefault(_article(q.relevant_source_ids[0]), []).append(q)
        for i, (article, qs) in enumerate(articles.items()):
            kept = [d for d in imported.documents if _article(d.source_id) != article]
            out = work / "sets" / f"squad-withheld-n{n}-seed{seed}" / f"{i:02d}"
            _write(out, kept, withheld_questions(qs), "squad")
            parts.append(Part("squad-withheld", f"squad-withheld/{article}", str(out / "corpus.json"),
                              str(out / "evaluation.json")))
    return parts


def musique_part(data: Path, work: Path, n: int) -> Part:
    folder = work / "sets" / "musique"
    imported = import_dataset("musique", data / "musique/questions.json", data / "musique/corpus.json")
    _write(folder, imported.documents, imported.evaluation.questions, "musique")
    ids = folder / f"questions-first-{n}.txt"
    ids.write_text("".join(f"{q.id}\n" for q in imported.evaluation.questions[:n]), encoding="utf-8")
    return Part("musique", "musique", str(folder / "corpus.json"), str(folder / "evaluation.json"), str(ids))


def build_parts(sets: Sequence[str], n: int, seed: int, work: Path, data: Path = SHARED_DATA,
                demo_limit: int | None = None) -> list[Part]:
    parts = [demo_part(work, demo_limit)] if "demo" in sets else []
    needs_data = [s for s in sets if s != "demo"]
    if needs_data and not data.is_dir():
        sys.exit(f"skipped: {data} is absent; the sets {', '.join(needs_data)} need it (--sets demo runs without)")
    if "squad" in sets or "squad-withheld" in sets:
        parts += squad_parts(data, work, n, seed, sets)
    if "musique" in sets:
        parts.append(musique_part(data, work, n))
    return parts


# -- one profile's runs (in its own process) -----------------------------------


def run_profile(label: str, provider: Provider, parts: Sequence[Part], work: Path, verifier: VerifierPolicy,
                burn: bool = True, say: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Every part answered by `provider` through the lab's run engine: one run directory per part."""
    out: list[dict[str, Any]] = []
    for part in parts:
        request = RunRequest(
            run_root=work / "runs" / label / part.set, corpus=Path(part.corpus), evaluation=Path(part.evaluation),
            question_ids=Path(part.question_ids) if part.question_ids else None, verifier=verifier,
            model=ModelSpec(model=label, base_url=None, provider=provider.name,
                            model_id=f"{provider.name}:{provider.model_id}"),
            cache_directory=work / "cache", burn=burn)
        outcome = execute(plan_run(request, provider), provider)
        out.append({**asdict(part), "run_dir": str(outcome.run_dir), "state": outcome.status.state,
                    "exit_code": outcome.status.exit_code, "preparation_seconds": outcome.preparation_seconds,
                    "answering_seconds": outcome.answering_seconds})
        if say is not None:
            say(f"{label} {part.name}: {outcome.status.state}, {outcome.status.rows_done} rows, "
                f"{outcome.answering_seconds:.0f} s answering")
    return {"profile": label, "model_id": f"{provider.name}:{provider.model_id}", "parts": out}


def worker(args: argparse.Namespace) -> None:
    from arborist.models.registry import make_provider

    parts = [Part(**p) for p in json.loads(Path(args.parts_file).read_text())]
    verifier = VerifierPolicy(entailment=spec_for(args.entailment))
    provider = make_provider(args.worker)
    result = run_profile(args.worker, provider, parts, args.work, verifier,
                         say=lambda m: print(m, file=sys.stderr, flush=True))
    Path(args.result_file).write_text(json.dumps(result, indent=1), encoding="utf-8")


def spawn(profile: str, set_name: str, parts_file: Path, result_file: Path, args: argparse.Namespace) -> dict[str, Any]:
    """One profile on one set in a child process: its peak RSS comes from the kernel's rusage of that child.

    A process per (profile, set), the sets in turn for every profile, so a bench stopped part-way still
    pairs the profiles on the sets it finished (--report-only reads them)."""
    import subprocess

    cmd = [sys.executable, __file__, "--worker", profile, "--parts-file", str(parts_file),
           "--result-file", str(result_file), "--work", str(args.work), "--entailment", args.entailment]
    print(f"$ {' '.join(cmd)}", file=sys.stderr, flush=True)
    start = time.monotonic()
    proc = subprocess.Popen(cmd)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit(f"profile {profile} failed on {set_name} (exit {proc.returncode}); its runs are under {args.work}/runs")
    result: dict[str, Any] = json.loads(result_file.read_text())
    result.update(wall_seconds=round(wall, 1), peak_rss_mb=round(usage.ru_maxrss / 1024, 1))  # Linux: KiB
    result_file.write_text(json.dumps(result, indent=1), encoding="utf-8")
    return result


def merge(results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One profile's per-set results as one: every part, the sum of wall times, the largest peak RSS."""
    rss = [r["peak_rss_mb"] for r in results if r.get("peak_rss_mb") is not None]
    return {"profile": results[0]["profile"], "model_id": results[0].get("model_id"),
            "parts": [p for r in results for p in r["parts"]],
            "wall_seconds": round(sum(r.get("wall_seconds") or 0.0 for r in results), 1),
            "peak_rss_mb": max(rss) if rss else None}


# -- per-row readings (row JSON as written to per-query.jsonl) ---------------------


def _get(row: Mapping[str, Any], *path: str) -> Any:
    node: Any = row
    for step in path:
        node = node.get(step) if isinstance(node, Mapping) else None
    return node


def abstained(row: Mapping[str, Any]) -> float | None:
    """The model abstained from every request, or the verifier withheld the answer (label ABSTAINED)."""
    if _get(row, "contract") is None:
        return None
    full = bool(_get(row, "contract", "valid")) and _get(row, "contract", "abstention") == "full"
    return float(full or _get(row, "verifier", "label") == "ABSTAINED")


def model_abstained(row: Mapping[str, Any]) -> float | None:
    """The model itself abstained from every request (a valid answer with no claim)."""
    if _get(row, "contract") is None:
        return None
    return float(bool(_get(row, "contract", "valid")) and _get(row, "contract", "abstention") == "full")


def right_strict(row: Mapping[str, Any]) -> float | None:
    """Of the answers holding the gold: labelled STRICT (None for a row whose answer does not hold it)."""
    if METRICS["gold"].read(row) != 1.0:
        return None
    return float(_get(row, "verifier", "label") == "STRICT")


def citation(row: Mapping[str, Any]) -> tuple[int, int]:
    """(claims whose quote is in the block they cite, claims with a quote); a re-anchored quote is a miscitation."""
    claims = _get(row, "trace", "claims") or []
    quoted = [c for c in claims if _get(c, "checks", "quote") is not None]
    agree = sum(1 for c in quoted if _get(c, "checks", "quote", "passed") and not c.get("reanchored_from"))
    return agree, len(quoted)


def citation_share(row: Mapping[str, Any]) -> float | None:
    agree, quoted = citation(row)
    return agree / quoted if quoted else None


READERS: dict[str, Callable[[Mapping[str, Any]], float | None]] = {
    "valid": METRICS["valid"].read, "gold": METRICS["gold"].read, "strict": METRICS["strict"].read,
    "strict_right": METRICS["strict_right"].read, "right_strict": right_strict,
    "citation": citation_share, "abstained": abstained, "model_abstained": model_abstained,
}
BINARY = {"valid", "gold", "strict", "abstained", "model_abstained"}
COMPARED = ("valid", "gold", "strict")  # by lab.compare
PAIRED_HERE = ("abstained", "model_abstained", "right_strict", "citation")  # lab.stats, the same pairing


def _share(rows: Sequence[Mapping[str, Any]], read: Callable[[Mapping[str, Any]], float | None]) -> dict[str, Any]:
    values = [v for v in (read(r) for r in rows) if v is not None]
    return {"value": sum(values) / len(values) if values else None, "n": len(values)}


def measure(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One model's figures over rows (one set, or all): shares with the rows they cover, speed, latency."""
    out: dict[str, Any] = {"rows": len(rows), **{name: _share(rows, read) for name, read in READERS.items()}}
    agree = quoted = 0
    for r in rows:
        a, q = citation(r)
        agree, quoted = agree + a, quoted + q
    out["citation_claims"] = {"value": agree / quoted if quoted else None, "n": quoted}
    called = [r for r in rows if r.get("source") == "provider"]
    evaluated = sum((_get(r, "tokens", "prompt") or 0) - (_get(r, "tokens", "cached_prompt") or 0) for r in called)
    prompt_s = sum(_get(r, "provider_timings", "prompt_eval_s") or 0.0 for r in called)
    generated = sum(_get(r, "tokens", "completion") or 0 for r in called)
    eval_s = sum(_get(r, "provider_timings", "eval_s") or 0.0 for r in called)
    # the first call of a process loads the model (load_s): a cost of starting, not of answering
    latencies = [float(t) - float(_get(r, "provider_timings", "load_s") or 0.0)
                 for r in called if (t := _get(r, "timings", "total")) is not None]
    out.update(
        provider_rows=len(called),
        prompt_tokens_per_s=evaluated / prompt_s if prompt_s else None,
        generation_tokens_per_s=generated / eval_s if eval_s else None,
        latency_median_s=statistics.median(latencies) if latencies else None,
        latency_p90_s=percentile(latencies, 90) if latencies else None,
    )
    return out


def _keyed(rows_by_part: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[tuple[str, str, int], Mapping[str, Any]]:
    return {(part, str(r.get("query_id")), int(r.get("sample") or 0)): r
            for part, rows in rows_by_part.items() for r in rows}


def paired(rows_a: Mapping[str, Sequence[Mapping[str, Any]]], rows_b: Mapping[str, Sequence[Mapping[str, Any]]],
           metric: str, floor: float = DEFAULT_FLOOR) -> dict[str, Any]:
    """B - A per question over the rows both sides measure, with lab.stats' seeded bootstrap (and McNemar for a
    binary metric): the pairing of lab.compare, for the metrics it does not offer."""
    read = READERS[metric]
    a, b = _keyed(rows_a), _keyed(rows_b)
    diffs: dict[tuple[str, str], list[float]] = {}
    means: list[tuple[float, float]] = []
    only_a = only_b = 0
    for key, ra in a.items():
        rb = b.get(key)
        va, vb = read(ra), (read(rb) if rb is not None else None)
        if va is None or vb is None:
            continue
        diffs.setdefault(key[:2], []).append(vb - va)
        means.append((va, vb))
        only_a += va > vb
        only_b += vb > va
    per_q = [sum(d) / len(d) for d in diffs.values()]
    delta = sum(per_q) / len(per_q) if per_q else None
    interval = bootstrap_mean(per_q)
    p = mcnemar_exact(only_a, only_b) if metric in BINARY else None
    return {"metric": metric, "questions_paired": len(per_q), "delta": delta,
            "a": sum(m[0] for m in means) / len(means) if means else None,
            "b": sum(m[1] for m in means) / len(means) if means else None,
            "interval": interval.model_dump() if interval else None, "mcnemar_p": p,
            "verdict": verdict(delta or 0.0, interval, floor, p)}


def compared(parts_a: Sequence[str], parts_b: Sequence[str], metric: str) -> dict[str, Any]:
    """lab.compare over the matching runs of two profiles (several pooled with `also`)."""
    pairs = [(Path(x), Path(y)) for x, y in zip(parts_a, parts_b, strict=True)]
    c = compare_runs(pairs[0][0], pairs[0][1], metric, also=pairs[1:])
    return {"metric": metric, "questions_paired": c.questions_paired, "delta": c.delta, "a": c.a.mean, "b": c.b.mean,
            "interval": c.interval.model_dump() if c.interval else None,
            "mcnemar_p": c.mcnemar.p_value if c.mcnemar else None, "verdict": c.verdict,
            "unpaired": len(c.unpaired.only_in_a) + len(c.unpaired.only_in_b) + len(c.unpaired.not_measured)}


def _rows(run_dir: str) -> list[dict[str, Any]]:
    return rundir.read_rows(Path(run_dir) / rundir.ROWS)[0]


def aggregate(results: Sequence[Mapping[str, Any]], baseline: str | None) -> dict[str, Any]:
    """Figures per profile and set (and all sets), and every profile's paired differences against `baseline`."""
    sets = list(dict.fromkeys(p["set"] for p in results[0]["parts"])) if results else []
    rows: dict[str, dict[str, dict[str, list[dict[str, Any]]]]] = {}
    runs: dict[str, dict[str, list[str]]] = {}
    out: dict[str, Any] = {"sets": sets, "baseline": baseline, "profiles": {}, "differences": {}}
    for res in results:
        prof = res["profile"]
        rows[prof] = {s: {} for s in sets}
        runs[prof] = {s: [] for s in sets}
        for p in res["parts"]:
            rows[prof][p["set"]][p["name"]] = _rows(p["run_dir"])
            runs[prof][p["set"]].append(p["run_dir"])
        figures = {s: measure([r for part in rows[prof][s].values() for r in part]) for s in sets}
        figures[ALL] = measure([r for s in sets for part in rows[prof][s].values() for r in part])
        out["profiles"][prof] = {
            "model_id": res.get("model_id"), "peak_rss_mb": res.get("peak_rss_mb"),
            "wall_seconds": res.get("wall_seconds"),
            "answering_seconds": round(sum(p.get("answering_seconds", 0.0) for p in res["parts"]), 1),
            "states": sorted({p["state"] for p in res["parts"]}), "figures": figures,
            "runs": {s: runs[prof][s] for s in sets},
        }
    if baseline not in rows:
        return out
    for prof in rows:
        if prof == baseline:
            continue
        diffs: dict[str, dict[str, Any]] = {}
        for scope in [*sets, ALL]:
            chosen = sets if scope == ALL else [scope]
            a_runs = [r for s in chosen for r in runs[baseline][s]]
            b_runs = [r for s in chosen for r in runs[prof][s]]
            a_rows = {f"{s}/{k}": v for s in chosen for k, v in rows[baseline][s].items()}
            b_rows = {f"{s}/{k}": v for s in chosen for k, v in rows[prof][s].items()}
            diffs[scope] = {**{m: compared(a_runs, b_runs, m) for m in COMPARED},
                            **{m: paired(a_rows, b_rows, m) for m in PAIRED_HERE}}
        out["differences"][prof] = diffs
    return out


# -- the tables --------------------------------------------------------------------


def _pct(node: Mapping[str, Any]) -> str:
    return "n/a" if node["value"] is None else f"{node['value']:.0%} (n={node['n']})"


def _num(value: float | None, fmt: str) -> str:
    return "n/a" if value is None else format(value, fmt)


COLUMNS = ("valid", "gold", "strict", "strict_right", "right_strict", "citation_claims", "abstained", "model_abstained")
TITLES = {"valid": "contract-valid", "gold": "gold in answer", "strict": "STRICT", "strict_right": "STRICT-right",
          "right_strict": "right answers STRICT", "citation_claims": "citation agreement (claims)",
          "citation": "citation agreement", "abstained": "abstained",
          "model_abstained": "model abstained"}


def render(report: Mapping[str, Any]) -> str:
    lines: list[str] = []
    if "settings" in report:
        st = report["settings"]
        demo = f", demo questions: {st['demo_limit'] or 'all'}" if "demo" in st["sets"] else ""
        lines.append(f"sets: {', '.join(st['sets'])}; N = {st['n']} (SQuAD seed {st['seed']}){demo}, entailment "
                     f"{st['entailment']}, llama.cpp threads: {st['threads']}; baseline {report['baseline']}")
    for scope in [*report["sets"], ALL]:
        lines += [f"\n### {scope}\n", "| profile | rows | " + " | ".join(TITLES[c] for c in COLUMNS)
                  + " | prompt tok/s | gen tok/s | median s | p90 s |", "|---|---|" + "---|" * (len(COLUMNS) + 4)]
        for prof, info in report["profiles"].items():
            f = info["figures"][scope]
            lines.append(f"| {prof} | {f['rows']} | " + " | ".join(_pct(f[c]) for c in COLUMNS) + " | "
                         + " | ".join(_num(f[k], ".0f") for k in ("prompt_tokens_per_s", "generation_tokens_per_s"))
                         + " | " + " | ".join(_num(f[k], ".1f") for k in ("latency_median_s", "latency_p90_s")) + " |")
    lines += ["\n### processes\n", "| profile | peak RSS MB | wall s | answering s | run states |", "|---|---|---|---|---|"]
    for prof, info in report["profiles"].items():
        lines.append(f"| {prof} | {_num(info['peak_rss_mb'], '.0f')} | {_num(info['wall_seconds'], '.0f')} | "
                     f"{info['answering_seconds']:.0f} | {', '.join(info['states'])} |")
    if report["baseline"] not in report["profiles"]:
        lines.append(f"\nno paired differences: the baseline {report['baseline']} is not among the profiles run")
    for prof, diffs in report["differences"].items():
        scopes = list(diffs)
        lines += [f"\n### {prof} - {report['baseline']}, paired per question (delta [95% CI], verdict)\n",
                  "| metric | " + " | ".join(scopes) + " |", "|---|" + "---|" * len(scopes)]
        for metric in (*COMPARED, *PAIRED_HERE):
            cells = []
            for scope in scopes:
                d = diffs[scope][metric]
                if d["delta"] is None:
                    cells.append("n/a")
                    continue
                iv = d["interval"]
                ci = f" [{iv['low']:+.2f}, {iv['high']:+.2f}]" if iv else ""
                cells.append(f"{d['delta']:+.2f}{ci} n={d['questions_paired']} {d['verdict']}")
            lines.append(f"| {TITLES[metric]} | " + " | ".join(cells) + " |")
    return "\n".join(lines).lstrip("\n")


# -- main ------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profiles", nargs="+", default=[DEFAULT_PROFILE, "qwen2.5-0.5b"])
    ap.add_argument("--baseline", default=DEFAULT_PROFILE, help="the profile every other is paired against")
    ap.add_argument("--n", type=int, default=30, help="SQuAD and MuSiQue questions per set")
    ap.add_argument("--seed", type=int, default=9, help="seed of the SQuAD question choice")
    ap.add_argument("--demo-limit", type=int, help="only the first N demo questions (default: all 24)")
    ap.add_argument("--sets", default=",".join(SETS), help=f"comma-separated, of {', '.join(SETS)}")
    ap.add_argument("--entailment", choices=ENTAILMENT_KINDS, default=DEFAULT_ENTAILMENT,
                    help="the verifier's entailment judge (as the CLI's --entailment)")
    ap.add_argument("--work", type=Path, default=Path("/tmp/arborist-model-comparison"))
    ap.add_argument("--json", action="store_true", help="print the whole report as JSON instead of the tables")
    ap.add_argument("--report-only", action="store_true",
                    help="no model call: the tables from the profiles' last results under --work")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--parts-file", help=argparse.SUPPRESS)
    ap.add_argument("--result-file", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    args.work = args.work.resolve()
    if args.worker:
        worker(args)
        return
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = [s for s in sets if s not in SETS]
    if unknown or not sets:
        sys.exit(f"--sets: unknown {', '.join(unknown)}; valid: {', '.join(SETS)}")
    if args.n < 1 or (args.demo_limit is not None and args.demo_limit < 1):
        sys.exit("--n and --demo-limit must be 1 or more")
    for prof in args.profiles:
        if not prof.endswith(".gguf"):
            try:
                get_profile(prof)
            except ArboristError as exc:
                sys.exit(f"--profiles: {exc}")
    results_dir = args.work / "results"
    done: dict[str, dict[str, dict[str, Any]]] = {prof: {} for prof in args.profiles}
    if not args.report_only:
        results_dir.mkdir(parents=True, exist_ok=True)
        parts = build_parts(sets, args.n, args.seed, args.work, demo_limit=args.demo_limit)
        for set_name in RUN_ORDER:
            mine = [asdict(p) for p in parts if p.set == set_name]
            if not mine:
                continue
            parts_file = args.work / f"parts-{set_name}.json"
            parts_file.write_text(json.dumps(mine, indent=1), encoding="utf-8")
            for prof in args.profiles:
                done[prof][set_name] = spawn(prof, set_name, parts_file, results_dir / f"{prof}--{set_name}.json", args)
    else:
        for prof in args.profiles:
            for set_name in sets:
                path = results_dir / f"{prof}--{set_name}.json"
                if path.exists():
                    done[prof][set_name] = json.loads(path.read_text())
    finished = [s for s in sets if all(s in done[prof] for prof in args.profiles)]
    if not finished:
        sys.exit(f"no set has results of every profile under {results_dir}")
    results = [merge([done[prof][s] for s in finished]) for prof in args.profiles]
    report = aggregate(results, args.baseline)
    report["settings"] = {"n": args.n, "seed": args.seed, "demo_limit": args.demo_limit, "sets": finished,
                          "entailment": args.entailment,
                          "threads": os.environ.get("ARBORIST_LLAMA_THREADS") or "one per usable core"}
    print(json.dumps(report, indent=1) if args.json else render(report))


if __name__ == "__main__":
    main()
