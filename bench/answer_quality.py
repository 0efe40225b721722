"""Answer quality per profile and mode: contract-valid rate, gold-answer rate, labels vs correctness, latency.

Usage: .venv/bin/python bench/answer_quality.py [--dataset musique|squad-single-hop] [--limit 20]
           [--profiles qwen2.5-1.5b qwen2.5-0.5b] [--modes quote claim_lattice claim_lattice_pointer]
           [--work DIR] [-- extra options for `answer-quality run`]

A thin driver over the lab: one `arborist lab run`
per profile with every mode as an arm, then one table from the runs'
summaries. Every figure, the diagnosis per row and the label-vs-gold table
(do STRICT answers state the gold answer more often than UNGROUNDED ones?)
are in each run's summary.md. Re-running is served from the answer cache and
re-verified under the current verifier policy, so a verifier change is
measured on stored answers without calling a model.

"Gold" means the answer's claims or quotes contain the gold answer or an
alias after normalisation (arborist.lab.diagnosis.contains_gold): a lenient
string match, not a judge.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from arborist.prompting.modes import MODES
from lab_run import prepare, run, run_command


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", choices=["musique", "squad-single-hop"], default="musique")
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--profiles", nargs="+", default=["qwen2.5-1.5b", "qwen2.5-0.5b"])
    ap.add_argument("--modes", nargs="+", default=list(MODES))
    ap.add_argument("--work", type=Path, default=Path("/tmp/arborist-answer-quality"))
    ap.add_argument("extra", nargs="*")
    args = ap.parse_args()
    data = prepare(args.dataset, args.work)
    print("| profile | mode | rows | contract-valid | contains gold | STRICT (gold) | UNGROUNDED (gold) "
          "| mean s per call | diagnosis |")
    print("|---|---|---|---|---|---|---|---|---|")
    for profile in args.profiles:
        _, run_dir = run(run_command(data, args.work, profile, "--limit", str(args.limit),
                                     "--arms", ",".join(args.modes), *args.extra))
        summary = json.loads((run_dir / "results/answer-contract-summary.json").read_text())
        for mode, a in summary["arms"].items():
            c, u, lg = a["contract"], a["usage"], a["label_gold"]
            calls = u["provider_calls"]
            per_call = f"{u['answer_seconds'] / calls:.1f}" if calls else "cached"
            gold = a["gold_in_answer"]
            rate = "n/a" if gold["value"] is None else f"{gold['value']:.0%}"
            diag = ", ".join(f"{k} {v}" for k, v in a["diagnosis"]["counts"].items() if v)
            print(f"| {profile} | {mode} | {c['total']} | {c['valid']} | "
                  f"{rate} (n={gold['rows_covered']}) | {lg['STRICT']['rows']} ({lg['STRICT']['gold']}) | "
                  f"{lg['UNGROUNDED']['rows']} ({lg['UNGROUNDED']['gold']}) | {per_call} | {diag} |")
        print(f"<!-- {profile}: {run_dir} -->")


if __name__ == "__main__":
    main()
