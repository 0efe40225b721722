"""One query end to end, split by boundary, against the same prompt sent straight to llama.cpp.

Usage: .venv/bin/python bench/answer_speed.py [--model qwen2.5-1.5b] [--repeats 3]

Runs `answer_question` on the demo corpus, then sends the recorded messages
and schema directly to the same loaded llama.cpp model with the same
settings, alternating the two, with the KV cache reset before every call
(otherwise the second call reuses the first one's prompt). Overhead =
arborist's total minus the direct call, as a share of the total.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from arborist.answer.pipeline import answer_question
from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.store import open_store
from arborist.ingest import ingest_paths
from arborist.models.base import GenerationSettings
from arborist.models.local import LocalProvider
from arborist.policy.answer import build_policy

DEMO = Path(__file__).resolve().parents[1] / "src" / "arborist" / "demo" / "corpus"
QUESTION = "How long is the refund window for annual plans?"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="qwen2.5-1.5b")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--max-tokens", type=int, default=200)
    args = ap.parse_args()
    provider = LocalProvider(args.model)
    policy = build_policy(model_id=f"local:{provider.model_id}", generation=GenerationSettings(max_tokens=args.max_tokens))
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "demo.db"
        ingest_paths(db, [DEMO], ChunkingSettings())
        with open_store(db) as store:
            answer_question(store, QUESTION, policy, provider)  # load model, embedder, caches
            llm = provider._get(0)[0]
            rows, direct = [], []
            for _ in range(args.repeats):
                llm.reset()
                record = answer_question(store, QUESTION, policy, provider)
                rows.append(record.timings)
                kwargs = {
                    "messages": [m.model_dump() for m in record.prompt.messages],
                    "temperature": policy.generation.temperature, "max_tokens": policy.generation.max_tokens,
                    "top_p": policy.generation.top_p, "seed": policy.generation.seed,
                    "response_format": {"type": "json_object", "schema": record.prompt.json_schema},
                }
                llm.reset()
                t = time.perf_counter()
                resp = llm.create_chat_completion(**kwargs)
                direct.append(time.perf_counter() - t)
                same = resp["choices"][0]["message"]["content"] == record.completion.text
    print(f"model {provider.model_id}, {record.completion.prompt_tokens} prompt + "
          f"{record.completion.completion_tokens} completion tokens, same output as direct call: {same}")
    print("| boundary | median s | share of total |")
    print("|---|---|---|")
    total = statistics.median(r["total"] for r in rows)
    for name in ("retrieve", "admit", "assemble", "generate", "contract", "total"):
        med = statistics.median(r[name] for r in rows)
        print(f"| {name} | {med:.4f} | {med / total:.1%} |")
    d = statistics.median(direct)
    print(f"| direct llama.cpp call | {d:.4f} | {d / total:.1%} |")
    print(f"overhead beyond the model call: total - direct = {total - d:.4f} s = {(total - d) / total:.2%} of total;"
          f" total - generate = {total - statistics.median(r['generate'] for r in rows):.4f} s")


if __name__ == "__main__":
    main()
