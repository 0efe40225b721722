"""A sentinel ladder's wall time against the same answers made one by one with the prompt state reset.

Usage: .venv/bin/python bench/sentinel_cost.py [--model qwen2.5-1.5b] [--runs 2] [--temperature 0.7]
                                              [--work /tmp/arborist-sentinel-bench]

Builds the demo corpus and its sentinel store (the shipped demo facts),
loads the model once, then runs the same ladder twice with --burn (no
cache), in the same process: first with llama.cpp's saved prompt state
dropped before every call (each prompt evaluated in full: the baseline),
then as a ladder runs (rungs of a fact back to back, each rung's chunks last,
samples back to back, so the prompt before the patched bytes is evaluated
once). Prints both wall times, their ratio, the prompt tokens each
evaluated, and the ladder's counts. Needs no ../shared/data.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.store import open_store
from arborist.ingest import ingest_paths
from arborist.lab.sentinels.facts import demo_facts_path, load_facts
from arborist.lab.sentinels.ladder import run_ladder
from arborist.lab.sentinels.store import build_sentinel_store
from arborist.models.base import GenerationSettings, Message
from arborist.models.local import LocalProvider
from arborist.policy.answer import build_policy

DEMO = Path(__file__).resolve().parents[1] / "src" / "arborist" / "demo" / "corpus"


def evaluated(run_dir: Path) -> tuple[int, int]:
    """(prompt tokens, prompt tokens the model evaluated) over the ladder's answers."""
    rows = [json.loads(line) for line in (run_dir / "results" / "answers.jsonl").read_text().splitlines()]
    total = sum(r["prompt_tokens"] or 0 for r in rows)
    return total, total - sum(r["cached_prompt_tokens"] or 0 for r in rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="qwen2.5-1.5b")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--temperature", type=float, default=0.7)
    ap.add_argument("--work", type=Path, default=Path("/tmp/arborist-sentinel-bench"))
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    db, sentinel = args.work / "demo.db", args.work / "sentinel.db"
    ingest_paths(db, [DEMO], ChunkingSettings())
    facts = load_facts(demo_facts_path())
    if not sentinel.exists():
        build_sentinel_store(db, facts, sentinel)
    shared = LocalProvider(args.model)
    fresh = LocalProvider(args.model, fresh_prompt_state=True)
    shared.complete([Message(role="user", content="Say OK.")], GenerationSettings(max_tokens=4))  # load once
    policy = build_policy(model_id=f"local:{shared.model_id}",
                          generation={"temperature": args.temperature, "max_tokens": 256})
    timings = {}
    runs = {}
    for name, provider in (("reset before every answer", fresh), ("ladder", shared)):
        with open_store(sentinel, write=True) as store:
            t = time.monotonic()
            run_dir, ladder = run_ladder(store, facts, policy, provider, args.runs, args.work / "runs", burn=True)
            timings[name] = time.monotonic() - t
        runs[name] = run_dir
        tokens, evaluated_tokens = evaluated(run_dir)
        print(f"{name}: {timings[name]:.1f} s, {tokens} prompt tokens, {evaluated_tokens} evaluated ({run_dir})")
        for f in ladder.facts:
            print(f"  {f.id} ({f.kind}, {f.control or f.status}): " + ", ".join(
                f"{r.label} sentinel {r.used_sentinel}/{r.runs} memory {r.used_memory} objected {r.objected}"
                + (" VOID" if r.void else "") for r in f.rungs))
    ratio = timings["ladder"] / timings["reset before every answer"]
    print(f"ladder / one-by-one with reset: {ratio:.2f}x ({args.runs} runs per rung, {args.model})")


if __name__ == "__main__":
    main()
