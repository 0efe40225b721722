"""Two real llama.cpp servers against one: the same lab run over N squad-single-hop questions, answering time.

Usage: PYTHONPATH=src .venv/bin/python bench/real_servers.py [--questions 10] [--rounds 2] [--profile qwen2.5-1.5b]
                                                             [--work DIR]

Each arm starts real `python -m llama_cpp.server` processes on 127.0.0.1 serving the pinned profile's weights
(prepared in $ARBORIST_CACHE: `arborist models prepare`), waits until they list their model, runs the lab over
the same questions through a `ServerFleet` (a fresh cache directory per arm, so no answer is served from a cache)
and stops them:

- one server with 2 threads, one request in flight;
- two servers with 1 thread each, one request in flight on each (2 in all).

The arms alternate `--rounds` times (1, 2, 1, 2, ...) so that other load on the machine falls on both alike; the
figure is the ratio of their answering times, summed over rounds. Verification runs the rules alone
(`--entailment none`): the judge would run in the driver, the same in both arms, and only generation is compared.
On 2 cores the two servers share the same cores the one server uses, so the gain can only come from what one
decoding stream leaves idle (token-by-token decoding is bound by memory bandwidth and synchronisation between
threads, not arithmetic); the bench states the ratio, whatever it is.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from _common import require_shared_data
from arborist.evaluation.importers import import_dataset, write_import
from arborist.lab.report import load_rows
from arborist.lab.runner import RunRequest, execute, plan_run
from arborist.models.fleet import ServerFleet
from arborist.models.profiles import get_profile, status
from arborist.verify import VerifierPolicy


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(model: Path, alias: str, n_ctx: int, threads: int, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--model_alias", alias,
           "--n_ctx", str(n_ctx), "--n_threads", str(threads), "--n_threads_batch", str(threads),
           "--host", "127.0.0.1", "--port", str(port)]
    proc = subprocess.Popen(cmd, stdout=log.open("ab"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    for _ in range(600):
        if proc.poll() is not None:
            raise SystemExit(f"llama_cpp.server exited ({proc.returncode}); see {log}")
        try:
            with urllib.request.urlopen(f"{url}/models", timeout=2) as r:
                if r.status == 200:
                    return proc, url
        except OSError:
            time.sleep(0.5)
    proc.kill()
    raise SystemExit(f"llama_cpp.server did not answer within 300 s; see {log}")


def arm(work: Path, name: str, inputs: tuple[Path, Path], threads: list[int], profile: str,
        questions: int) -> tuple[float, list[dict[str, Any]]]:
    prof = get_profile(profile)
    procs = [start_server(prof.path, profile, prof.n_ctx, t, work / f"{name}-server{i}.log")
             for i, t in enumerate(threads)]
    try:
        fleet = ServerFleet(profile, [url for _, url in procs], per_server=1)
        req = RunRequest(run_root=work / name, corpus=inputs[0], evaluation=inputs[1], limit=questions,
                         cache_directory=work / name / "cache", generation_workers=fleet.capacity,
                         verifier=VerifierPolicy(entailment=None))
        outcome = execute(plan_run(req, fleet), fleet)
        rows = [{"question": r.question, "answer": r.answer.text, "server": r.server}
                for r in load_rows(outcome.run_dir)[0]]
        return outcome.answering_seconds, rows
    finally:
        for proc, _ in procs:
            proc.terminate()
        for proc, _ in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--questions", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--profile", default="qwen2.5-1.5b")
    ap.add_argument("--work", type=Path, default=None)
    args = ap.parse_args()
    if status(args.profile) != "ready":
        raise SystemExit(f"profile {args.profile} is not prepared: run `arborist models prepare {args.profile}`")
    work = args.work or Path(tempfile.mkdtemp(prefix="arborist-real-servers-"))
    work.mkdir(parents=True, exist_ok=True)
    data = require_shared_data() / "squad-single-hop" / "dev-v1.1-13-articles.json"
    written = write_import(import_dataset("squad", data), work / "squad", force=True)
    inputs = (written.corpus_path, written.evaluation_path)
    print(f"{args.questions} squad-single-hop questions, {args.rounds} rounds, profile {args.profile}, "
          f"{os.cpu_count()} cores; work directory {work}")
    totals = {"one": 0.0, "two": 0.0}
    answers: dict[str, list[dict[str, Any]]] = {}
    print("| round | arm | servers x threads | answering s | rows by server |")
    print("|---|---|---|---|---|")
    for r in range(args.rounds):
        for name, threads in (("one", [2]), ("two", [1, 1])):
            secs, rows = arm(work, f"{name}-{r}", inputs, threads, args.profile, args.questions)
            totals[name] += secs
            answers.setdefault(name, rows)
            by: dict[str, int] = {}
            for row in rows:
                by[str(row["server"])] = by.get(str(row["server"]), 0) + 1
            print(f"| {r + 1} | {name} | {len(threads)} x {threads[0]} | {secs:.1f} | {sorted(by.values())} |",
                  flush=True)
    same = sum(a["answer"] == b["answer"] for a, b in zip(answers["one"], answers["two"], strict=True))
    print(f"\none server {totals['one']:.1f} s, two servers {totals['two']:.1f} s: two are "
          f"{totals['one'] / totals['two']:.2f}x as fast; {same}/{len(answers['one'])} answers identical "
          "between the arms (thread counts change llama.cpp's sums in their last digits)")
    (work / "summary.json").write_text(json.dumps(totals), encoding="utf-8")


if __name__ == "__main__":
    main()
