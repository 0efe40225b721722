"""The verifier with and without its entailment judge, on the dev pairs, in one run.

Usage:
  .venv/bin/python bench/entailment_judge.py [--model qwen2.5-1.5b] [--thresholds 0.5,0.6,0.7,0.8]
                                             [--sets scifact,handwritten] [--stride N] [--limit N] [--json FILE]

Every case is verified three ways in the same run: `--entailment none` (the rules alone: the baseline), the
rules with a judge that accepts everything it is asked (the ceiling the rule vetoes leave), and the rules with
the real judge at each threshold. The judge is asked only about claims whose quote is genuine and holds their
names and numbers but that do not restate it word for word, so its cost per set is the number of calls printed.
Scores are cached in $ARBORIST_CACHE/judge.db: a rerun, or another threshold, costs no model call.

Sets (dev data: all of them have been read while the rules were written):
- scifact: the 919 SciFact claim/abstract pairs of ../shared/data, built as bench/verifier_scifact.py builds them;
  STRICT precision is SUPPORT among STRICT.
- handwritten: bench/data/handwritten_pairs.jsonl (expected accept / reject); false STRICT is a reject that is
  STRICT, accepted is an accept that is STRICT.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

from _common import require_shared_data, verifier_policy
from arborist.entailment import load_judge, spec_for
from arborist.verify import Label, Reason, Verification, VerifierPolicy, verify_answer
from arborist.verify.judge import Judge, JudgeSpec
from judge_prompts import CANDIDATES
from verifier_scifact import cases as scifact_cases

HERE = Path(__file__).parent


class AcceptAll:
    """The ceiling: a judge that says yes to everything (what the rules' vetoes alone leave standing)."""

    spec = JudgeSpec(kind="local", model="accept-all", sha256="0" * 64, threshold=0.0)
    calls = 0

    def score(self, premise: str, hypothesis: str) -> float:
        self.calls += 1
        return 1.0


def handwritten_cases(path: Path = HERE / "data" / "handwritten_pairs.jsonl") -> list[dict[str, Any]]:
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return [{"id": k, "human": r["expected"], "set": r["set"], "question": r["claim"], "mode": "claim_lattice",
             "evidence": [{"id": "E1", "title": r["title"], "text": r["passage"]}],
             "answer": {"claims": [{"text": r["claim"], "evidence_ids": ["E1"], "quote": r["quote"]}],
                        "abstained_requests": []}} for k, r in enumerate(rows)]


def verified(items: list[dict[str, Any]], judge: Judge | None, policy: VerifierPolicy) -> list[Verification]:
    return [verify_answer(c["question"], c["mode"], c["evidence"], c["answer"], policy, judge=judge) for c in items]


def judge_routes(items: list[dict[str, Any]], rules: list[Verification], judged: list[Verification]) -> str:
    """What the judge made STRICT that the rules alone did not, per human label and per route: a claim restated
    but for a part (the rules' reasons hold PART_UNSTATED) or a quote the claim does not restate; and how many
    labels the judge left below the rules' own (it only ever adds support, so none)."""
    routes: Counter[tuple[str, str]] = Counter()
    for c, r, j in zip(items, rules, judged, strict=True):
        if j.label is Label.STRICT and r.label is not Label.STRICT:
            parted = any(Reason.PART_UNSTATED in claim.reasons for claim in r.claims)
            routes[("restated but for a part" if parted else "not restated", c["human"])] += 1
    rank = {Label.STRICT: 3, Label.HYBRID: 2, Label.UNGROUNDED: 1, Label.ABSTAINED: 0}
    lower = sum(rank[j.label] < rank[r.label] for r, j in zip(rules, judged, strict=True))
    split = "; ".join(f"{route}: {human} {n}" for (route, human), n in sorted(routes.items())) or "none"
    return f"{split} (labels below the rules' own: {lower})"


def figures(items: list[dict[str, Any]], got: list[Label], good: str) -> dict[str, Any]:
    """STRICT per human label, and precision: the `good` label among STRICT."""
    strict = Counter(c["human"] for c, lab in zip(items, got) if lab is Label.STRICT)
    totals = Counter(c["human"] for c in items)
    n = sum(strict.values())
    return {"strict": dict(strict), "totals": dict(totals), "precision": strict[good] / n if n else None}


def line(name: str, f: dict[str, Any]) -> str:
    cells = ", ".join(f"{h} {f['strict'].get(h, 0)}/{t}" for h, t in sorted(f["totals"].items()))
    p = "n/a" if f["precision"] is None else f"{f['precision']:.3f}"
    return f"| {name} | {cells} | {p} |"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=None, help="the judge's model profile (default: the shipped judge's)")
    ap.add_argument("--thresholds", default="0.5,0.6,0.7,0.8,0.9")
    ap.add_argument("--sets", default="scifact,handwritten")
    ap.add_argument("--limit", type=int, default=0, help="first N cases of each set (0: all)")
    ap.add_argument("--stride", type=int, default=1, help="every Nth case of each set (a sample across its sub-sets)")
    ap.add_argument("--pairs", type=Path, help="a file of hand-written pairs (the handwritten set's format) to "
                    "measure instead of bench/data/handwritten_pairs.jsonl")
    ap.add_argument("--prompt", choices=sorted(CANDIDATES), default="shipped",
                    help="the judge's prompt (bench/judge_prompts.py; shipped: the one the verifier pins)")
    ap.add_argument("--verifier", action="append", default=[], metavar="KEY=VALUE",
                    help="verifier-policy override, e.g. paraphrase_threshold=1.0 (repeatable)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    policy = verifier_policy(ap, args.verifier)  # the policy measured; the default without `--verifier`
    prompt = CANDIDATES[args.prompt]
    sets: dict[str, tuple[list[dict[str, Any]], str]] = {}
    if "scifact" in args.sets:
        path = require_shared_data() / "scifact-train-pairs" / "pairs_train.jsonl"
        rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        sets["scifact"] = (scifact_cases(rows, 0), "SUPPORT")
    if "handwritten" in args.sets:
        sets["handwritten"] = (handwritten_cases(args.pairs) if args.pairs else handwritten_cases(), "accept")
    out: dict[str, Any] = {}
    for name, (items, good) in sets.items():
        items = items[:: args.stride]
        items = items[: args.limit] if args.limit else items
        print(f"\n## {name}: {len(items)} cases\n\n| verifier | STRICT per human label | precision |\n|---|---|---|")
        rows_out: dict[str, Any] = {}
        routes: dict[float, str] = {}
        rules = verified(items, None, policy)
        rows_out["none"] = figures(items, [v.label for v in rules], good)
        print(line("rules only (--entailment none)", rows_out["none"]), flush=True)
        ceiling = AcceptAll()
        rows_out["accept-all"] = figures(items, [v.label for v in verified(items, ceiling, policy)], good)
        print(line(f"rules + a judge that accepts all ({ceiling.calls} calls)", rows_out["accept-all"]), flush=True)
        for t in (float(x) for x in args.thresholds.split(",")):
            spec = spec_for("local", args.model, t)
            assert spec is not None
            spec = spec.model_copy(update={"prompt_digest": prompt.digest})
            judge = load_judge(spec, prompt=prompt)
            start = time.monotonic()
            judged = verified(items, judge, policy)
            rows_out[f"judge@{t:g}"] = figures(items, [v.label for v in judged], good)
            took = time.monotonic() - start
            print(line(f"rules + {spec.model} judge ({args.prompt} prompt) at {t:g} ({took:.0f} s)", rows_out[f"judge@{t:g}"]), flush=True)
            routes[t] = judge_routes(items, rules, judged)
        print("\nSTRICT by the judge that the rules alone leave short of it, by route:")
        for t, split in routes.items():
            print(f"- at {t:g}: {split}")
        out[name] = rows_out
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
