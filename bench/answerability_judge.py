"""Rule 13 with the judge? Would asking the entailment judge's model "does this passage answer the question?"
tell answers over their gold evidence from answers over evidence that lacks it?

Usage: PYTHONPATH=src .venv/bin/python bench/answerability_judge.py RECORDS.jsonl [...] [--thresholds 0.3,0.5,0.7]

RECORDS are what `bench/answer_grounding.py --records` writes (sets squad, squad-unanswerable, demo). Rule 13
today (`arborist.verify.answerability`) abstains for a non-STRICT answer whose best evidence sentence holds too
little of the question's weighted words. This bench asks, for every answer Rule 13 lets through and that is not
STRICT (a STRICT answer is never touched), the default judge model with a second fixed prompt: the cited block
that holds Rule 13's best sentence (its title first), and the question. It reports, per threshold, how many such
answers a judge-backed Rule 13 would turn into ABSTAINED: on `squad` (gold article present) every one is a loss
when the answer was right, on `squad-unanswerable` (gold article withheld) every one is a gain. A threshold is
worth adopting only if it gains on the second without losing on the first (and on the demo's answerable
questions): chosen on both, never on one.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from answer_grounding import right
from arborist.answer.record import AnswerRecord
from arborist.entailment import load_judge, spec_for
from arborist.verify.judge import SYSTEM, JudgePrompt

ANSWERS = JudgePrompt(system=SYSTEM, template=(
    "Passage: {premise}\n\nQuestion: {hypothesis}\n\n"
    "Does the passage state the answer to the question? Answer Yes or No."))


def premise(record: AnswerRecord) -> str | None:
    v = record.verification
    if v is None or v.answerability is None or v.answerability.evidence_id is None:
        return None
    block = next((e for e in record.evidence if e.evidence_id == v.answerability.evidence_id), None)
    return None if block is None else f"{block.title}: {block.text}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", type=Path, nargs="+")
    ap.add_argument("--thresholds", default="0.3,0.5,0.7")
    args = ap.parse_args()
    spec = spec_for("local")
    assert spec is not None
    judge = load_judge(spec.model_copy(update={"prompt_digest": ANSWERS.digest}), prompt=ANSWERS)
    asked: dict[str, list[tuple[bool | None, float]]] = defaultdict(list)
    totals: dict[str, int] = defaultdict(int)
    for path in args.records:
        for line in path.read_text(encoding="utf-8").splitlines():
            item: dict[str, Any] = json.loads(line)
            record = AnswerRecord.model_validate(item["record"])
            totals[item["set"]] += 1
            v = record.verification
            if v is None or v.label.value in ("STRICT", "ABSTAINED") or v.answerability is None:
                continue
            text = premise(record)
            if text is None:
                continue
            golds = item["q"]["answers"]
            asked[item["set"]].append((right(record, golds) if golds else None, judge.score(text, record.question)))
    thresholds = [float(t) for t in args.thresholds.split(",")]
    print("| set | answers | non-STRICT answers Rule 13 lets through | of them right | "
          + " | ".join(f"abstained at {t:g} (right among them)" for t in thresholds) + " |")
    print("|---|---|---|---|" + "---|" * len(thresholds))
    for name in sorted(asked):
        rows = asked[name]
        cells = []
        for t in thresholds:
            out = [r for r, s in rows if s < t]
            cells.append(f"{len(out)} ({sum(bool(r) for r in out)})")
        print(f"| {name} | {totals[name]} | {len(rows)} | {sum(bool(r) for r, _ in rows)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
