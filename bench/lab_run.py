"""An answer-quality run end to end: killed with SIGKILL part-way, continued, validated, repeated from cache.

Usage: .venv/bin/python bench/lab_run.py [--dataset musique|squad-single-hop] [--limit N]
                                         [--model qwen2.5-1.5b] [--kill-at ROWS] [--work DIR]
                                         [-- extra options for `answer-quality run`]

1. imports the dataset from ../shared/data (`arborist lab import-dataset`);
2. starts `arborist lab run` and kills it with
   SIGKILL once --kill-at rows are on disk (status stays `running`);
3. continues it with --continue-from, timing the rest; validates;
4. runs the same configuration again in a new run directory: every row is
   now a cache hit; the ratio of (2+3)'s answer time to (4)'s is the cache's speed-up;
5. prints the rows, diagnosis counts and headline metrics of the continued run.

The baseline for the speed-up is the same configuration answered in the same
invocation. The cache directory is fresh per --work folder (delete it to
measure from scratch).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from _common import require_shared_data

EXE = str(Path(sys.executable).parent / "arborist")


def prepare(dataset: str, work: Path) -> Path:
    data = require_shared_data()
    out = work / dataset
    if (out / "evaluation.json").exists():
        return out
    if dataset == "musique":
        args = ["musique", "--questions", str(data / "musique/questions.json"),
                "--dataset-corpus", str(data / "musique/corpus.json")]
    else:
        args = ["squad", "--questions", str(data / "squad-single-hop/dev-v1.1-13-articles.json")]
    subprocess.run([EXE, "lab", "import-dataset", *args, "--out", str(out)], check=True)
    return out


def run_command(data: Path, work: Path, model: str, *extra: str) -> list[str]:
    """`answer-quality run` over an imported dataset, runs and cache under `work`."""
    return [EXE, "lab", "run", "--corpus", str(data / "corpus.json"),
            "--evaluation", str(data / "evaluation.json"), "--out", str(work / "runs"),
            "--cache-directory", str(work / "cache"), "--model", model, *extra]


def rows_on_disk(run_root: Path, before: set[Path]) -> tuple[Path | None, int]:
    new = [p for p in run_root.glob("*") if p.is_dir() and p not in before]
    if not new:
        return None, 0
    path = new[0] / "results" / "per-query.jsonl"
    return new[0], (sum(1 for _ in path.open()) if path.exists() else 0)


def run(cmd: list[str]) -> tuple[float, Path]:
    t = time.monotonic()
    out = subprocess.run([*cmd, "--json"], capture_output=True, text=True, check=False)
    elapsed = time.monotonic() - t
    if out.returncode != 0:
        sys.exit(f"failed ({out.returncode}): {' '.join(cmd)}\n{out.stderr}")
    return elapsed, Path(json.loads(out.stdout)["run_dir"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", choices=["musique", "squad-single-hop"], default="musique")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--model", default="qwen2.5-1.5b")
    ap.add_argument("--kill-at", type=int, default=50)
    ap.add_argument("--work", type=Path, default=Path("/tmp/arborist-lab-bench"))
    ap.add_argument("extra", nargs="*")
    args = ap.parse_args()
    data = prepare(args.dataset, args.work)
    root = args.work / "runs"
    root.mkdir(parents=True, exist_ok=True)
    base = run_command(data, args.work, args.model, *args.extra)
    if args.limit:
        base += ["--limit", str(args.limit)]
    before = set(root.glob("*"))
    t0 = time.monotonic()
    errors = args.work / "first-run.stderr"
    with errors.open("w") as err:
        proc = subprocess.Popen(base, stdout=subprocess.DEVNULL, stderr=err)
    first: Path | None = None
    killed = False
    while proc.poll() is None:
        first, n = rows_on_disk(root, before)
        if n >= args.kill_at:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            killed = True
            break
        time.sleep(1)
    killed_after = time.monotonic() - t0
    if not killed:
        sys.exit(f"the first run ended by itself (exit {proc.returncode}) before {args.kill_at} rows:\n"
                 + errors.read_text(errors="replace")[-2000:])
    if first is None:
        sys.exit("the first run wrote no run directory")
    status = json.loads((first / "status.json").read_text())
    rows_before = sum(1 for _ in (first / "results/per-query.jsonl").open())
    print(f"killed: {first.name} after {killed_after:.0f} s, state {status['state']}, {rows_before} rows on disk")
    cont_s, second = run([EXE, "lab", "run", "--continue-from", str(first),
                          "--cache-directory", str(args.work / "cache")])
    check = subprocess.run([EXE, "lab", "validate", str(second)], capture_output=True, text=True, check=False)
    print(check.stdout, end="")
    rows = [json.loads(line) for line in (second / "results/per-query.jsonl").open()]
    keys = {(r["query_id"], r["arm"], r["sample"]) for r in rows}
    print(f"continued: {second.name} in {cont_s:.0f} s: {len(rows)} rows ({len(keys)} distinct), "
          f"{sum(r['source'] == 'reused' for r in rows)} reused, validate exit {check.returncode}")
    again_s, third = run(base)
    summary = json.loads((third / "results/answer-contract-summary.json").read_text())
    arm = next(iter(summary["arms"].values()))
    cold = killed_after + cont_s
    print(f"repeat: {third.name} in {again_s:.1f} s, {arm['usage']['cache_hits']} cache hits, "
          f"{arm['usage']['provider_calls']} provider calls; cold {cold:.0f} s -> x{cold / again_s:.0f} faster")
    cs = json.loads((second / "results/answer-contract-summary.json").read_text())
    rs = json.loads((second / "results/retrieval-summary.json").read_text())
    for name, a in cs["arms"].items():
        print(f"[{name}] diagnosis {a['diagnosis']['counts']} (not measured {len(a['diagnosis']['rows_not_measured'])})")
        print(f"[{name}] requests {a['diagnosis']['requests']}")
        print(f"[{name}] contract {a['contract']} labels {a['labels']}")
        print(f"[{name}] gold in answer {a['gold_in_answer']['value']} (n={a['gold_in_answer']['rows_covered']})")
        print(f"[{name}] usage {a['usage']}")
        m = rs["arms"][name]["metrics"]
        print(f"[{name}] retrieval " + ", ".join(f"{k}@10 {v['value']:.3f} (n={v['rows_covered']})" for k, v in m.items())
              + f"; admission coverage {rs['arms'][name]['admission_coverage']['value']:.3f}")


if __name__ == "__main__":
    main()
