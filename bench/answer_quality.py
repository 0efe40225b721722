"""Answer quality on MuSiQue: contract-valid rate, gold-answer rate and latency per profile and mode.

Usage: .venv/bin/python bench/answer_quality.py [--n 20] [--profiles qwen2.5-1.5b qwen2.5-0.5b]
                                               [--modes quote claim_lattice claim_lattice_pointer]
                                               [--out DIR] [--records FILE.jsonl]

The first N MuSiQue questions (../shared/data) are answered from the
imported corpus with default retrieval and evidence settings. "Gold" means
the answer text (claims and quotes) contains the gold answer or one of its
aliases, case-insensitively — a lenient string match, not a judge.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import require_shared_data
from arborist.answer.modes import MODES
from arborist.answer.pipeline import answer_question
from arborist.answer.record import AnswerRecord
from arborist.corpus.store import open_store
from arborist.evaluation.format import load_evaluation
from arborist.governance.policy import build_policy
from arborist.models.local import LocalProvider


def answer_text(record: AnswerRecord) -> str:
    """What the answer asserts: its quotes in quote mode, its claims' text otherwise.

    A claim's supporting quote is evidence, not the answer: counting it let a
    wrong claim ("785 stores") pass because its quote held the gold ("35th").
    """
    answer = record.contract.answer or {}
    return " ".join([q["text"] for q in answer.get("quotes", [])] + [c["text"] for c in answer.get("claims", [])])


def contains_gold(record: AnswerRecord, golds: list[str]) -> bool:
    text = answer_text(record).casefold()
    return any(g.casefold() in text for g in golds if g.strip())


def prepare(work: Path) -> Path:
    data = require_shared_data()
    exe = str(Path(sys.executable).parent / "arborist")
    if not (work / "evaluation.json").exists():
        subprocess.run([exe, "datasets", "import", "musique", "--questions", str(data / "musique/questions.json"),
                        "--corpus", str(data / "musique/corpus.json"), "--out", str(work)], check=True)
    subprocess.run([exe, "ingest", str(work / "corpus.json"), "--db", str(work / "store.db")], check=True,
                   stdout=subprocess.DEVNULL)
    return work


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--profiles", nargs="+", default=["qwen2.5-1.5b", "qwen2.5-0.5b"])
    ap.add_argument("--modes", nargs="+", default=list(MODES))
    ap.add_argument("--max-tokens", type=int, default=512)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--records", type=Path, help="append every answer record here (JSONL)")
    args = ap.parse_args()
    work = prepare(args.out or Path(tempfile.mkdtemp(prefix="arborist-answers-")))
    questions = load_evaluation(work / "evaluation.json").questions[: args.n]
    rows = []
    with open_store(work / "store.db") as store:
        for profile in args.profiles:
            provider = LocalProvider(profile)
            for mode in args.modes:
                policy = build_policy(model_id=f"local:{provider.model_id}", mode=mode,
                                      generation={"max_tokens": args.max_tokens})
                valid = gold = 0
                latencies, reasons = [], {}
                for q in questions:
                    record = answer_question(store, q.question, policy, provider)
                    valid += record.contract.valid
                    gold += contains_gold(record, q.answers)
                    latencies.append(record.timings["total"])
                    reasons[record.contract.reason] = reasons.get(record.contract.reason, 0) + 1
                    if args.records:
                        with args.records.open("a") as fh:
                            fh.write(json.dumps({"profile": profile, "mode": mode, "question_id": q.id,
                                                 "gold": contains_gold(record, q.answers),
                                                 "record": record.model_dump(mode="json")}) + "\n")
                n = len(questions)
                rows.append((profile, mode, n, valid / n, gold / n, statistics.fmean(latencies), reasons))
                print(f"{profile} {mode}: valid {valid}/{n}, gold {gold}/{n}, "
                      f"mean {statistics.fmean(latencies):.1f} s, {reasons}", flush=True)
    print("\n| profile | mode | n | contract-valid | contains gold | mean latency | contract reasons |")
    print("|---|---|---|---|---|---|---|")
    for profile, mode, n, v, g, lat, reasons in rows:
        print(f"| {profile} | {mode} | {n} | {v:.0%} | {g:.0%} | {lat:.1f} s | "
              + ", ".join(f"{k} {c}" for k, c in sorted(reasons.items())) + " |")


if __name__ == "__main__":
    main()
