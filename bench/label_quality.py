"""Do verifier labels track correctness? Label distribution and gold-answer rate per label.

Usage:
  .venv/bin/python bench/label_quality.py --n 100 [--profile qwen2.5-1.5b] [--mode claim_lattice]
      answers the first N MuSiQue questions (../shared/data) with the local model,
  .venv/bin/python bench/label_quality.py --demo
      the same on the demo corpus's own questions (single-hop; no ../shared/data needed),
  .venv/bin/python bench/label_quality.py --from-records FILE.jsonl
      re-verifies records written by bench/answer_quality.py --records, without
      calling any model (the verifier judges stored answers under its current policy).

"Correct" is the lenient string match of bench/answer_quality.py (the answer
text contains the gold answer or an alias). A verifier whose STRICT answers
are no more often right than its UNGROUNDED ones is not doing its job.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from answer_quality import contains_gold, prepare
from arborist.answer.pipeline import answer_question
from arborist.answer.record import AnswerRecord
from arborist.answer.verification import verify_record
from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.store import open_store
from arborist.evaluation.format import Question, load_evaluation
from arborist.governance.policy import build_policy
from arborist.ingest import ingest_paths
from arborist.models.local import LocalProvider
from arborist.verify import VerifierPolicy


def table(rows: list[tuple[str, str, bool]]) -> None:
    """rows: (group, label, correct)."""
    for group in sorted({g for g, _, _ in rows}):
        sub = [(label, ok) for g, label, ok in rows if g == group]
        counts = Counter(label for label, _ in sub)
        print(f"\n{group}: {len(sub)} answers, {sum(ok for _, ok in sub)} contain gold")
        print("| label | answers | share | contains gold |")
        print("|---|---|---|---|")
        for label in ("STRICT", "HYBRID", "UNGROUNDED", "ABSTAINED"):
            n = counts.get(label, 0)
            right = sum(ok for lab, ok in sub if lab == label)
            rate = f"{right}/{n} = {right / n:.0%}" if n else "—"
            print(f"| {label} | {n} | {n / len(sub):.0%} | {rate} |")


DEMO = Path(__file__).resolve().parents[1] / "src" / "arborist" / "demo"


def demo_questions(out: Path) -> tuple[Path, list[Question]]:
    """The demo corpus in a store under `out`, and its answerable questions."""
    out.mkdir(parents=True, exist_ok=True)
    ingest_paths(out / "store.db", [DEMO / "corpus"], ChunkingSettings())
    rows = [json.loads(line) for line in (DEMO / "questions.jsonl").read_text().splitlines() if line.strip()]
    return out, [Question(id=r["id"], question=r["question"], answers=r["answers"]) for r in rows if r["answers"]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--profile", default="qwen2.5-1.5b")
    ap.add_argument("--mode", default="claim_lattice")
    ap.add_argument("--out", type=Path, default=Path("/tmp/arborist-labels"))
    ap.add_argument("--from-records", type=Path)
    ap.add_argument("--demo", action="store_true", help="use the demo corpus and its questions")
    ap.add_argument("--records", type=Path, help="append the answer records here (JSONL)")
    args = ap.parse_args()
    verifier = VerifierPolicy()
    rows: list[tuple[str, str, bool]] = []
    if args.from_records:
        source = demo_questions(args.out)[1] if args.demo else load_evaluation(prepare(args.out) / "evaluation.json").questions
        golds = {q.id: q.answers for q in source}
        for line in args.from_records.read_text().splitlines():
            item = json.loads(line)
            record = verify_record(AnswerRecord.model_validate(item["record"]), verifier)
            assert record.verification is not None
            rows.append((f"{item['profile']} {item['mode']}", record.verification.label.value,
                         contains_gold(record, golds[item["question_id"]])))
    else:
        if args.demo:
            work, questions = demo_questions(args.out)
        else:
            work = prepare(args.out)
            questions = load_evaluation(work / "evaluation.json").questions[: args.n]
        provider = LocalProvider(args.profile)
        policy = build_policy(model_id=f"local:{provider.model_id}", mode=args.mode)
        with open_store(work / "store.db") as store:
            for i, q in enumerate(questions, 1):
                record = verify_record(answer_question(store, q.question, policy, provider), verifier)
                assert record.verification is not None
                ok = contains_gold(record, q.answers)
                rows.append((f"{'demo' if args.demo else 'musique'} {args.profile} {args.mode}",
                             record.verification.label.value, ok))
                print(f"{i}/{len(questions)} {q.id}: {record.verification.label.value} gold={ok}", flush=True)
                if args.records:
                    with args.records.open("a") as fh:
                        fh.write(json.dumps({"profile": args.profile, "mode": args.mode, "question_id": q.id,
                                             "record": record.model_dump(mode="json")}) + "\n")
    table(rows)


if __name__ == "__main__":
    main()
