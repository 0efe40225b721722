"""Does a quote really back its claim? The verifier on SciFact claim/abstract pairs (no model).

Usage:
  .venv/bin/python bench/verifier_scifact.py [--seed 0] [--show CONTRADICT] [--limit 20] [--json FILE]

Each of the 919 pairs in ../shared/data/scifact-train-pairs becomes one
claim_lattice case, built the way a user would try the verifier:

- the question is the claim itself, and the answer has one claim: the claim;
- its quote is the first sentence of the first human rationale (SUPPORT and
  CONTRADICT pairs), or a random sentence of the abstract (NEI pairs, seeded);
- it cites E1, the whole abstract, titled with the paper's title.

A CONTRADICT pair usually quotes the right sentence and reverses it, so it
must never come out STRICT; a SUPPORT pair usually paraphrases its quote.
The report is the verifier label per human label, STRICT precision (SUPPORT
among STRICT), the reason codes per human label, and the same figures on the
two halves of the file (even / odd claim ids) to show they are not one
file's accident. The baseline is the same cases with the polarity and
comparison checks switched off (`polarity_checks=False`), verified in the
same run.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from _common import require_shared_data
from arborist.verify import Label, VerifierPolicy, verify_answer

HUMAN = ("SUPPORT", "CONTRADICT", "NEI")


def cases(rows: list[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    """One verify case per pair (the shape `arborist verify` reads), with the human label beside it."""
    rng = random.Random(seed)
    out = []
    for row in rows:
        sentences = [s.strip() for s in row["abstract"]]
        if row["rationales"]:
            quote = sentences[row["rationales"][0][0]]
        else:
            quote = sentences[rng.randrange(len(sentences))]
        out.append({
            "id": row["claim_id"],
            "human": row["label"],
            "question": row["claim"],
            "mode": "claim_lattice",
            "evidence": [{"id": "E1", "title": row["title"], "text": " ".join(sentences)}],
            "answer": {"claims": [{"text": row["claim"], "evidence_ids": ["E1"], "quote": quote}],
                       "abstained_requests": []},
        })
    return out


def run(items: list[dict[str, Any]], policy: VerifierPolicy) -> list[tuple[dict[str, Any], Any]]:
    return [(c, verify_answer(c["question"], c["mode"], c["evidence"], c["answer"], policy)) for c in items]


def report(name: str, results: list[tuple[dict[str, Any], Any]]) -> dict[str, Any]:
    counts = Counter((c["human"], v.label.value) for c, v in results)
    totals = Counter(c["human"] for c, _ in results)
    strict = {h: counts[(h, "STRICT")] for h in HUMAN}
    n_strict = sum(strict.values())
    precision = strict["SUPPORT"] / n_strict if n_strict else float("nan")
    print(f"\n{name}: {len(results)} pairs")
    print("| human label | pairs | STRICT | HYBRID | UNGROUNDED |")
    print("|---|---|---|---|---|")
    for h in HUMAN:
        print(f"| {h} | {totals[h]} | " + " | ".join(str(counts[(h, lab)]) for lab in ("STRICT", "HYBRID", "UNGROUNDED")) + " |")
    print(f"STRICT precision (SUPPORT among STRICT): {strict['SUPPORT']}/{n_strict} = {precision:.3f}; "
          f"SUPPORT recall {strict['SUPPORT']}/{totals['SUPPORT']}; CONTRADICT STRICT {strict['CONTRADICT']}/"
          f"{totals['CONTRADICT']}; NEI STRICT {strict['NEI']}/{totals['NEI']}")
    return {"pairs": len(results), "strict": strict, "totals": dict(totals), "precision": precision,
            "labels": {f"{h} {lab}": n for (h, lab), n in sorted(counts.items())}}


def reasons(results: list[tuple[dict[str, Any], Any]]) -> None:
    print("\nclaim reason codes per human label (a claim can carry several):")
    for h in HUMAN:
        codes = Counter(r.value for c, v in results if c["human"] == h for r in v.claims[0].reasons)
        print(f"  {h}: " + ", ".join(f"{code} {n}" for code, n in codes.most_common()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0, help="seed for the NEI pairs' random quote")
    ap.add_argument("--show", choices=HUMAN, help="print the STRICT cases of this human label")
    ap.add_argument("--show-missed", action="store_true", help="print SUPPORT cases that are not STRICT")
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--json", type=Path, help="write the figures here")
    args = ap.parse_args()
    data = require_shared_data() / "scifact-train-pairs" / "pairs_train.jsonl"
    rows = [json.loads(line) for line in data.read_text(encoding="utf-8").splitlines() if line.strip()]
    items = cases(rows, args.seed)

    baseline = run(items, VerifierPolicy(polarity_checks=False))
    current = run(items, VerifierPolicy())
    figures = {
        "baseline (polarity_checks off)": report("baseline: polarity and comparison checks off", baseline),
        "default policy": report("default verifier policy", current),
    }
    for half, parity in (("even claim ids", 0), ("odd claim ids", 1)):
        figures[f"default policy, {half}"] = report(
            f"default policy, {half}", [(c, v) for c, v in current if c["id"] % 2 == parity])
    reasons(current)

    shown = 0
    for c, v in current:
        wanted = (args.show and c["human"] == args.show and v.label is Label.STRICT) or (
            args.show_missed and c["human"] == "SUPPORT" and v.label is not Label.STRICT)
        if wanted and shown < args.limit:
            shown += 1
            claim = v.claims[0]
            print(f"\n[{c['id']} {c['human']} -> {v.label}] {c['question']}\n  quote: {c['answer']['claims'][0]['quote']}"
                  f"\n  reasons: {', '.join(claim.reasons)}; notes: {'; '.join(claim.notes)}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
