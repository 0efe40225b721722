"""Does a contrastive score separate SUPPORT from the rest better than the judge's own score?

Usage:
  .venv/bin/python bench/judge_contrast.py [--stride 2] [--limit 116] [--json FILE]

For every SciFact pair that the rules would let a judge make STRICT (the accept-all ceiling of
bench/entailment_judge.py), the shipped judge scores the claim against its premise (`pos`, what the verifier
reads) and "It is not true that <claim>" against the same premise (`neg`). Printed: per threshold, SUPPORT and
other pairs at or above it, for `pos` alone and for the margin `pos - neg`. A judge with a yes-bias that follows
topic overlap would say yes to both; the margin cancels that bias if it is the judge's main error.
Scores are cached in $ARBORIST_CACHE/judge.db; a rerun costs no model call.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from _common import require_shared_data
from arborist.entailment import load_judge, spec_for
from arborist.verify import Label, verify_answer
from arborist.verify.judge import JudgeSpec
from verifier_scifact import cases


class Recorder:
    """Accepts everything and keeps the last pair it was asked: the pair the real judge would read."""

    def __init__(self, spec: JudgeSpec) -> None:
        self.spec = spec
        self.last: tuple[str, str] | None = None

    def score(self, premise: str, hypothesis: str) -> float:
        self.last = (premise, hypothesis)
        return 1.0


def negated(claim: str) -> str:
    """'It is not true that' before the claim, its first letter lowered unless its first word is an acronym."""
    first = claim.split()[0] if claim.split() else ""
    head = claim if len(first) > 1 and first.isupper() else claim[:1].lower() + claim[1:]
    return f"It is not true that {head}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stride", type=int, default=2, help="every Nth ceiling pair")
    ap.add_argument("--limit", type=int, default=0, help="stop after N scored pairs (0: all)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    judge = load_judge(spec_for("local"))
    path = require_shared_data() / "scifact-train-pairs" / "pairs_train.jsonl"
    items = cases([json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()], 0)
    scored: list[dict[str, Any]] = []
    seen = 0
    for item in items:
        rec = Recorder(judge.spec)
        v = verify_answer(item["question"], item["mode"], item["evidence"], item["answer"], None, judge=rec)
        if v.label is not Label.STRICT or rec.last is None:
            continue
        seen += 1
        if seen % args.stride:
            continue
        premise, claim = rec.last
        scored.append({"human": item["human"], "pos": judge.score(premise, claim),
                       "neg": judge.score(premise, negated(claim))})
        if args.limit and len(scored) >= args.limit:
            break
    print(f"{len(scored)} ceiling pairs: {dict(Counter(str(r['human']) for r in scored))}")
    def counts(values: list[tuple[bool, float]], at: float) -> str:
        kept = Counter(good for good, value in values if value >= at)
        return f"{kept[True]} / {kept[False]}"

    pos = [(r["human"] == "SUPPORT", float(r["pos"])) for r in scored]
    margin = [(r["human"] == "SUPPORT", float(r["pos"]) - float(r["neg"])) for r in scored]
    print("| pos at | SUPPORT / other |\n|---|---|")
    for t in (0.8, 0.84, 0.85, 0.9):
        print(f"| {t:g} | {counts(pos, t)} |")
    print("| margin pos-neg at | SUPPORT / other |\n|---|---|")
    for t in (0.0, 0.1, 0.2, 0.3):
        print(f"| {t:g} | {counts(margin, t)} |")
    if args.json:
        args.json.write_text(json.dumps(scored, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
