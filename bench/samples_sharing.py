"""N samples of one prompt vs N single answers, measured in the same lab run.

Usage: .venv/bin/python bench/samples_sharing.py [--dataset musique] [--limit 2] [--samples 5]
           [--model qwen2.5-1.5b] [--max-tokens 64] [--work DIR]

One `answer-quality run --samples N --temperature 0.7`: each question's first
sample is a single answer that pays for its whole prompt; its later samples
run right after it on the same llama.cpp context, which keeps the KV state of
the matching prefix, so they evaluate (almost) none of the prompt again. The
baseline is N x the first samples' time from the same run. Always
--burn: a cached sample would measure nothing.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from lab_run import prepare, run, run_command


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", choices=["musique", "squad-single-hop"], default="musique")
    ap.add_argument("--limit", type=int, default=2)
    ap.add_argument("--samples", type=int, default=5)
    ap.add_argument("--model", default="qwen2.5-1.5b")
    ap.add_argument("--max-tokens", type=int, default=64)
    ap.add_argument("--work", type=Path, default=Path("/tmp/arborist-samples"))
    args = ap.parse_args()
    data = prepare(args.dataset, args.work)
    _, run_dir = run(run_command(data, args.work, args.model, "--limit", str(args.limit),
                                 "--samples", str(args.samples), "--temperature", "0.7",
                                 "--max-tokens", str(args.max_tokens), "--burn"))
    summary = json.loads((run_dir / "results/answer-contract-summary.json").read_text())
    for arm, a in summary["arms"].items():
        s = a["samples"]
        print(f"[{arm}] {run_dir.name}: {s['groups']} questions x {s['samples_per_group']} samples")
        print(f"  prompt eval: first sample {s['first_sample_prompt_eval_s']['value']:.2f} s "
              f"({s['first_sample_prompt_tokens_evaluated']['value']:.0f} tokens evaluated), later samples "
              f"{s['later_samples_prompt_eval_s']['value']:.2f} s "
              f"({s['later_samples_prompt_tokens_evaluated']['value']:.0f} tokens); ratio {s['ratio_prompt_eval']}")
        print(f"  {s['samples_per_group']} samples of one prompt: {s['group_generate_s']:.1f} s; "
              f"{s['samples_per_group']} single answers: {s['single_answers_generate_s']:.1f} s; "
              f"ratio {s['ratio_group_to_singles']}")


if __name__ == "__main__":
    main()
