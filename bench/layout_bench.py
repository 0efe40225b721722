"""The layout bench on the development sets, and what sharing the prompt between samples saves.

Usage: .venv/bin/python bench/layout_bench.py [--datasets squad,musique] [--limit 10] [--samples 2]
                                              [--work DIR] [--no-single] [--no-extract]

For each dataset (imported from ../shared/data and ingested under --work):
1. `arborist lab layout-bench --layouts tail,bookend,per_chunk --samples N --temperature 0.7` on the first
   --limit questions, with a fresh answer cache: the table, violations and prompt-size buckets
   (its summary.md is printed);
2. (unless --no-single) the same bench with `--samples 1`, again with a fresh cache: the baseline of
   the cost ratio, measured in this invocation. The ratio printed is wall(N samples) / (N x wall(1
   sample)): below 1 when the samples of a question share its evaluated prompt.
Then (unless --no-extract), on the first dataset, `--layouts tail,auto` restricted with `--quantifier
ALL,COMPREHENSIVE,OPEN_REQUEST` (the list and extraction questions `auto` routes to per_chunk): the
verdict of auto against tail within its gated class.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from _common import cli_json, prepare_set, require_shared_data

EXE = str(Path(sys.executable).parent / "arborist")
LAYOUTS = "tail,bookend,per_chunk"
EXTRACTION = "ALL,COMPREHENSIVE,OPEN_REQUEST"


def bench(db: Path, evaluation: Path, out: Path, layouts: str, samples: int, limit: int,
          *extra: str) -> tuple[float, dict]:
    """One `bench layouts` with its own fresh cache: (wall seconds, its --json output)."""
    cmd = [EXE, "lab", "layout-bench", "--db", str(db), "--evaluation", str(evaluation), "--layouts", layouts,
           "--samples", str(samples), "--temperature", "0.7", "--mode", "claim_lattice", "--limit", str(limit),
           "--cache-directory", str(out / "cache"), "--out", str(out), *extra, "--json"]
    return cli_json(cmd, "bench layouts")


def show(title: str, wall: float, result: dict) -> None:
    print(f"\n## {title} ({wall:.0f} s) - {result['bench_dir']}\n")
    print(Path(result["bench_dir"], "summary.md").read_text(encoding="utf-8"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default="squad,musique")
    ap.add_argument("--limit", type=int, default=10)
    ap.add_argument("--samples", type=int, default=2)
    ap.add_argument("--work", type=Path, default=None, help="where data, stores and benches go (default: a temp dir)")
    ap.add_argument("--no-single", action="store_true", help="skip the single-sample baseline")
    ap.add_argument("--no-extract", action="store_true", help="skip auto vs tail on the extraction subset")
    args = ap.parse_args()
    data = require_shared_data()
    work = args.work or Path(tempfile.mkdtemp(prefix="arborist-layout-bench-"))
    names = [n.strip() for n in args.datasets.split(",") if n.strip()]
    for i, name in enumerate(names):
        db, evaluation, _ = prepare_set(name, data, work / "data")
        wall_n, result = bench(db, evaluation, work / name / f"n{args.samples}", LAYOUTS, args.samples, args.limit)
        show(f"{name}: {LAYOUTS}, {args.limit} questions x {args.samples} samples", wall_n, result)
        if not args.no_single:
            wall_1, single = bench(db, evaluation, work / name / "n1", LAYOUTS, 1, args.limit)
            show(f"{name}: the same bench with 1 sample (baseline)", wall_1, single)
            print(f"cost: {wall_n:.0f} s for {args.samples} samples vs {args.samples} x {wall_1:.0f} s = "
                  f"{wall_n / (args.samples * wall_1):.2f}x")
        if i == 0 and not args.no_extract:
            wall_x, extract = bench(db, evaluation, work / name / "extract", "tail,auto", args.samples, args.limit,
                                    "--quantifier", EXTRACTION)
            show(f"{name}: tail vs auto on {EXTRACTION} questions", wall_x, extract)


if __name__ == "__main__":
    main()
