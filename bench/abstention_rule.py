"""Rule 13 (the verifier abstains when the evidence does not speak of the question) at several thresholds,
on stored answers: no model is asked.

Usage:
  .venv/bin/python bench/abstention_rule.py [--grounding RECORDS.jsonl] [--run LAB_RUN_DIR ...]
                                            [--thresholds 0,0.35,0.4,0.45,0.5] [--json FILE]

Two kinds of stored answers, each re-verified under the default verifier
policy with only `answerability_threshold` changed (0 is the rule switched
off: the baseline, in the same run):

- `--grounding`: records written by `bench/answer_grounding.py --records`
  (the demo questions, N SQuAD questions, and the same N asked of a store
  without their gold paragraphs). The stores are rebuilt (no model) so each
  question's words are weighed over the corpus it was asked of.
- `--run`: an `arborist lab run` run made with
  `--withhold-relevant` (e.g. by `bench/experiments_dev.py --families
  treatments`): its control rows are the answerable side, its applied
  withheld rows the side whose evidence cannot answer. The run's own corpus
  is ingested into a temporary store for the weights.

Per set and threshold: answerable questions withheld (and how many of those
were right: the cost), STRICT answers; questions without their evidence
withheld (the model's own abstentions included), and STRICT ones.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from answer_grounding import SETS, plan, right, stored_records
from arborist.answer.verification import corpus_weights, verify_record
from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.store import open_store
from arborist.ingest import ingest_paths
from arborist.verify import Label, VerifierPolicy, verify_answer

Case = tuple[str, bool, bool, dict[float, Label]]  # set, answerable, right, label per threshold


def grounding_cases(path: Path, policies: dict[float, VerifierPolicy], work: Path) -> Iterator[Case]:
    items = list(stored_records(path))
    n = sum(1 for item, _ in items if item["set"] == "squad") or 30
    with contextlib.ExitStack() as opened:
        stores = {name: opened.enter_context(open_store(db)) for name, db, _ in plan(list(SETS), n, 9, work)}
        weighed = [(item, record, corpus_weights(stores[item["set"]], record.question)) for item, record in items]
    for item, record, weights in weighed:
        q = item["q"]
        labels = {}
        for t, policy in policies.items():
            v = verify_record(record, policy, weights).verification
            assert v is not None
            labels[t] = v.label
        yield item["set"], bool(q["answers"]), bool(q["answers"]) and right(record, q["answers"]), labels


def run_cases(run: Path, policies: dict[float, VerifierPolicy], work: Path) -> Iterator[Case]:
    chunks = {c["chunk_id"]: c for c in json.loads((run / "preparation" / "chunks.json").read_text("utf-8"))}
    db = work / f"{run.name}.db"
    if not db.exists():
        ingest_paths(db, [run / "inputs" / "corpus.json"], ChunkingSettings(), embed=False)
    name = run.parent.name  # the lab lays runs out as <run root>/<dataset>/<run>
    with open_store(db) as store:
        for line in (run / "results" / "per-query.jsonl").read_text("utf-8").splitlines():
            row = json.loads(line)
            treatment = row["treatment"]
            if treatment is None:
                answerable = True
            elif treatment["name"] == "withheld" and treatment["applied"]:
                answerable = False
            else:
                continue
            if not row["contract"]["valid"]:
                continue
            evidence = [{"id": f"E{i}", "title": chunks[c]["title"], "text": chunks[c]["text"]}
                        for i, c in enumerate(row["context"]["admitted_chunk_ids"], 1)]
            answer = json.loads(row["answer"]["raw"])
            weights = corpus_weights(store, row["question"])
            labels = {t: verify_answer(row["question"], row["mode"], evidence, answer, p, weights).label
                      for t, p in policies.items()}
            gold = answerable and bool(row["diagnosis"]["gold_in_answer"])
            yield name, answerable, gold, labels


def table(cases: list[Case], thresholds: list[float]) -> list[dict[str, Any]]:
    out = []
    for name in dict.fromkeys(c[0] for c in cases):
        for answerable in (True, False):
            rows = [c for c in cases if c[0] == name and c[1] is answerable]
            if not rows:
                continue
            for t in thresholds:
                withheld = [c for c in rows if c[3][t] is Label.ABSTAINED]
                out.append({"set": name, "side": "answerable" if answerable else "without its evidence",
                            "threshold": t, "questions": len(rows), "right": sum(c[2] for c in rows),
                            "abstained": len(withheld), "right_withheld": sum(c[2] for c in withheld),
                            "strict": sum(c[3][t] is Label.STRICT for c in rows)})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grounding", type=Path, help="records of bench/answer_grounding.py --records")
    ap.add_argument("--run", type=Path, nargs="*", default=[], help="lab answer-quality run directories")
    ap.add_argument("--thresholds", default="0,0.35,0.4,0.45,0.5")
    ap.add_argument("--json", type=Path, help="write the figures here")
    args = ap.parse_args()
    if not args.grounding and not args.run:
        ap.error("give --grounding and/or --run")
    thresholds = [float(t) for t in args.thresholds.split(",")]
    policies = {t: VerifierPolicy(answerability_threshold=t) for t in thresholds}
    work = Path(tempfile.mkdtemp(prefix="arborist-abstention-"))
    cases: list[Case] = []
    if args.grounding:
        cases += grounding_cases(args.grounding, policies, work)
    for run in args.run:
        cases += run_cases(run, policies, work)
    rows = table(cases, thresholds)
    print("| set | side | threshold | questions | right | abstained | right answers withheld | STRICT |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['set']} | {r['side']} | {r['threshold']} | {r['questions']} | {r['right']} | {r['abstained']} | "
              f"{r['right_withheld']} | {r['strict']} |")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
