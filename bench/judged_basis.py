"""What a STRICT label rests on, and how precise each basis is: the rules, the judge, and the judge held to a control.

Usage:
  PYTHONPATH=src:bench .venv/bin/python bench/judged_basis.py [--sets scifact,handwritten] [--stride 3]
      [--controls hypothesis_only:0.1,contradiction:0.5,states:0.5] [--json FILE]

Every pair is verified, in one run, by each arm (`--arms` picks some):
- rules: `--entailment none` (the rules alone);
- refusing: the rules on the judge's path, a judge that refuses every claim (no model call): its STRICT are the
  claims the rules verify where a judge is present, which is how a rule change on that path is measured;
- judge: the default judge (its threshold, no control), `judged_claims` strict;
- judge, judged_claims hybrid: the same scores, a judged claim carrying an answer to HYBRID at most;
- judge + KIND@T: the default judge held to a control (`arborist.entailment.control`) at threshold T.

For each arm: STRICT by basis (quoted: every claim verified by the rules; judged: a claim accepted by the judge),
the precision of quoted, judged and all STRICT, recall (the good label's pairs that are STRICT) and STRICT per
category. Scores are cached in $ARBORIST_CACHE/judge.db, by (judge, engine, premise, hypothesis): the controls'
readings too, so a rerun, or another control threshold, costs no model call; `calls` is what an arm asked the
model afresh.

Sets:
- scifact: the 919 SciFact train claim/abstract pairs of ../shared/data, built as bench/verifier_scifact.py builds
  them; good: SUPPORT; categories SUPPORT / CONTRADICT / NEI.
- handwritten: bench/data/handwritten_pairs.jsonl, every `--stride`th pair (dev data); good: expected accept.
- blind: bench/data/blind-47.jsonl, sealed: pairs written for issue 47 in new domains (supported, contradicted,
  related); good: expected accept. Only totals are printed, never an item, and it is measured once, after every
  choice was made on the dev sets.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _common import require_shared_data, verifier_policy
from arborist.entailment import JudgeCache, load_judge, spec_for
from arborist.verify import Label, VerifierPolicy, verify_answer
from arborist.verify.judge import Judge
from verifier_scifact import cases as scifact_cases

HERE = Path(__file__).parent
SETS = ("scifact", "handwritten", "blind")


def pair_cases(path: Path, category: str) -> list[dict[str, Any]]:
    """One verify case per hand-written pair (claim, quote, passage, title): the pair's `expected` label as the
    human one, and its `category` key as the category."""
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return [{"human": r["expected"], "category": r[category], "question": r["claim"], "mode": "claim_lattice",
             "evidence": [{"id": "E1", "title": r["title"], "text": r["passage"]}],
             "answer": {"claims": [{"text": r["claim"], "evidence_ids": ["E1"], "quote": r["quote"]}],
                        "abstained_requests": []}} for r in rows]


def load_set(name: str, stride: int) -> tuple[list[dict[str, Any]], str]:
    """The set's cases and the human label a STRICT one should have."""
    if name == "scifact":
        path = require_shared_data() / "scifact-train-pairs" / "pairs_train.jsonl"
        rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        items = [{**c, "category": c["human"]} for c in scifact_cases(rows, 0)]
        return items, "SUPPORT"
    if name == "handwritten":
        return pair_cases(HERE / "data" / "handwritten_pairs.jsonl", "expected")[::stride], "accept"
    return pair_cases(HERE / "data" / "blind-47.jsonl", "category"), "accept"


@dataclass
class Arm:
    name: str
    judge: Judge | None
    policy: VerifierPolicy


@dataclass
class Figures:
    """One arm on one set: counts only (no item)."""

    strict: Counter[str] = field(default_factory=Counter)  # basis -> STRICT answers
    good: Counter[str] = field(default_factory=Counter)  # basis -> STRICT answers with the good human label
    per_category: Counter[str] = field(default_factory=Counter)  # category -> STRICT answers
    good_total: int = 0
    calls: int = 0
    seconds: float = 0.0

    def precision(self, *bases: str) -> float | None:
        n = sum(self.strict[b] for b in bases)
        return sum(self.good[b] for b in bases) / n if n else None

    def as_dict(self) -> dict[str, Any]:
        return {"strict": dict(self.strict), "good": dict(self.good), "per_category": dict(self.per_category),
                "good_total": self.good_total, "precision_quoted": self.precision("quoted"),
                "precision_judged": self.precision("judged"), "precision_all": self.precision("quoted", "judged"),
                "recall": sum(self.good.values()) / self.good_total if self.good_total else None,
                "calls": self.calls, "seconds": round(self.seconds, 1)}


def measure(items: list[dict[str, Any]], good: str, arm: Arm, cache: JudgeCache) -> Figures:
    f = Figures(good_total=sum(c["human"] == good for c in items))
    misses, start = cache.misses, time.monotonic()
    for c in items:
        v = verify_answer(c["question"], c["mode"], c["evidence"], c["answer"], arm.policy, judge=arm.judge)
        if v.label is Label.STRICT:
            basis = v.basis or "quoted"
            f.strict[basis] += 1
            f.good[basis] += c["human"] == good
            f.per_category[c["category"]] += 1
    f.calls, f.seconds = cache.misses - misses, time.monotonic() - start
    return f


class Refusing:
    """The default judge's spec, refusing every claim without a model call: what the rules verify on the judge's
    path (where restating a quote means every content word of the claim, not the rules-only 0.6)."""

    def __init__(self, spec: Any) -> None:
        self.spec = spec

    def score(self, premise: str, hypothesis: str) -> float:
        return 0.0


ARMS = ("rules", "refusing", "judge", "hybrid", "controls")


def arms(policy: VerifierPolicy, controls: list[tuple[str, float]], cache: JudgeCache,
         wanted: tuple[str, ...] = ARMS) -> list[Arm]:
    """rules, the rules on the judge's path (`Refusing`), the default judge (strict and hybrid), and the default
    judge held to each control; only the `wanted` ones."""
    base = spec_for("local")
    if base is None:
        raise SystemExit("no default judge")
    judge = load_judge(base, cache=cache)
    out = [Arm("rules (entailment none)", None, policy),
           Arm("rules on the judge's path (a judge refusing every claim)", Refusing(base), policy),
           Arm(f"judge at {base.threshold:g}", judge, policy),
           Arm(f"judge at {base.threshold:g}, judged_claims hybrid", judge,
               policy.model_copy(update={"judged_claims": "hybrid"}))]
    for kind, threshold in controls:
        spec = spec_for("local", control=kind, control_threshold=threshold)
        if spec is None:
            raise SystemExit("no default judge")
        out.append(Arm(f"judge + {kind} at {threshold:g}", load_judge(spec, cache=cache), policy))
    keys = ["rules", "refusing", "judge", "hybrid"] + ["controls"] * len(controls)
    return [arm for arm, key in zip(out, keys, strict=True) if key in wanted]


def cell(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def row(name: str, f: Figures, categories: list[str], totals: Counter[str]) -> str:
    recall = sum(f.good.values())
    per = ", ".join(f"{k} {f.per_category[k]}/{totals[k]}" for k in categories)
    return (f"| {name} | {f.strict['quoted']} | {f.strict['judged']} | {cell(f.precision('quoted'))} | "
            f"{cell(f.precision('judged'))} | {cell(f.precision('quoted', 'judged'))} | {recall}/{f.good_total} | "
            f"{per} | {f.calls} ({f.seconds:.0f} s) |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="scifact,handwritten", help=f"comma-separated, of {', '.join(SETS)}")
    ap.add_argument("--stride", type=int, default=3, help="handwritten: every Nth pair (default 3)")
    ap.add_argument("--controls", default="hypothesis_only:0.1,contradiction:0.5,states:0.5",
                    help="the controls measured, KIND:THRESHOLD, comma-separated")
    ap.add_argument("--verifier", action="append", default=[], metavar="KEY=VALUE",
                    help="verifier-policy override (repeatable)")
    ap.add_argument("--arms", default=",".join(ARMS), help=f"comma-separated, of {', '.join(ARMS)} (default: all)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    unknown = [n for n in names if n not in SETS]
    if unknown:
        ap.error(f"unknown set(s) {', '.join(unknown)}; valid: {', '.join(SETS)}")
    controls = [(k, float(t)) for k, t in (c.split(":") for c in args.controls.split(",") if c)]
    policy = verifier_policy(ap, args.verifier)
    cache = JudgeCache()
    wanted = tuple(a.strip() for a in args.arms.split(",") if a.strip())
    if bad := [a for a in wanted if a not in ARMS]:
        ap.error(f"unknown arm(s) {', '.join(bad)}; valid: {', '.join(ARMS)}")
    measured = arms(policy, controls, cache, wanted)
    out: dict[str, Any] = {}
    for name in names:
        items, good = load_set(name, args.stride)
        totals = Counter(c["category"] for c in items)
        categories = sorted(totals)
        sized = f"every {args.stride}th of the file, " if name == "handwritten" and args.stride > 1 else ""
        print(f"\n## {name}: {len(items)} pairs ({sized}good: {good})\n\n"
              "| arm | STRICT quoted | STRICT judged | precision quoted | precision judged | precision all | recall "
              "| STRICT per category | calls |\n|---|---|---|---|---|---|---|---|---|", flush=True)
        out[name] = {"pairs": len(items), "totals": dict(totals)}
        for arm in measured:
            f = measure(items, good, arm, cache)
            out[name][arm.name] = f.as_dict()
            print(row(arm.name, f, categories, totals), flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
