"""Start-up cost of the CLI: `arborist --help` and one `arborist search` on the demo store.

Usage: .venv/bin/python bench/startup.py [--runs 9] [--large-docs 0]

Each command runs `--runs` times in a fresh process; the median wall time is
printed, and its ratio to `python -c pass` measured in the same run (these
2-core machines are shared and noisy, so the ratio is the figure to compare
across runs). Goals (issue 34): --help <= 1 s and search <= 1.5 s of wall time.
The demo store is built once (no embeddings) in a temporary folder and one
search is run before timing, so the timed searches load the saved lexical
index as a user's second search would. `--runs-import` also prints the
modules `import arborist.cli` pulls in that a search does not need.

With `--large-docs N` (e.g. 1000000) it also builds a store of N tiny
synthetic documents (`--no-embed`) and times its first search (the lexical
index is built and saved) and later searches in new processes (it is loaded).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEMO = REPO / "src" / "arborist" / "demo" / "corpus"
QUESTION = "How long is the refund window?"
HEAVY = ("scipy", "matplotlib", "arborist.lab", "llama_cpp", "onnxruntime", "tokenizers", "rich.progress")


def wall(cmd: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def median_wall(cmd: list[str], runs: int) -> float:
    return statistics.median(wall(cmd) for _ in range(runs))


def arborist(*args: str) -> list[str]:
    return [sys.executable, "-c", "from arborist.cli import main; main()", *args]


def heavy_imports() -> list[str]:
    code = f"import sys, arborist.cli; print(sorted(m for m in sys.modules if m.startswith({HEAVY!r})))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return sorted({m.split(".")[0] if not m.startswith("arborist") else "arborist.lab" for m in json.loads(
        out.replace("'", '"'))})


def large_store(work: Path, n_docs: int) -> Path:
    rng = random.Random(7)
    vocab = [f"w{i}" for i in range(50_000)] + ["refund", "window", "policy", "harbour", "crane"]
    docs = [{"id": f"d{i}", "title": f"T{i} {rng.choice(vocab)}",
             "text": " ".join(rng.choice(vocab) for _ in range(8))} for i in range(n_docs)]
    corpus = work / "large.jsonl"
    corpus.write_text("\n".join(json.dumps(d) for d in docs) + "\n")
    db = work / "large.db"
    t = wall(arborist("ingest", str(corpus), "--db", str(db), "--no-embed"))
    print(f"large store: {n_docs:,} documents ingested in {t:.1f} s")
    return db


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--large-docs", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        db = work / "demo.db"
        subprocess.run(arborist("ingest", str(DEMO), "--db", str(db), "--no-embed"), check=True,
                       stdout=subprocess.DEVNULL)
        search = arborist("search", QUESTION, "--db", str(db), "--k", "5")
        wall(search)  # saves the lexical index, as a user's first search does
        base = median_wall([sys.executable, "-c", "pass"], args.runs)
        print(f"python -c pass: {base:.3f} s (median of {args.runs})")
        for name, cmd, goal in (("arborist --help", arborist("--help"), 1.0),
                                ("arborist search (demo)", search, 1.5)):
            t = median_wall(cmd, args.runs)
            print(f"{name}: {t:.3f} s median, {t / base:.1f}x python -c pass, goal <= {goal} s: "
                  f"{'met' if t <= goal else 'NOT met'}")
        print(f"heavy modules imported by `import arborist.cli`: {heavy_imports() or 'none'}")
        if args.large_docs:
            big = large_store(work, args.large_docs)
            big_search = arborist("search", "refund window policy", "--db", str(big), "--k", "5",
                                  "--routes", "bm25,title,keyword,phrase")
            first = wall(big_search)
            later = [wall(big_search) for _ in range(3)]
            print(f"large store search: first {first:.2f} s (builds and saves the index), "
                  f"later {statistics.median(later):.2f} s median of 3 (new process each)")


if __name__ == "__main__":
    main()
