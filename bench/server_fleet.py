"""A lab run over a fleet of K OpenAI-compatible servers: wall time against the ideal, rows against a sequential run.

Usage: PYTHONPATH=src .venv/bin/python bench/server_fleet.py [--questions 60] [--latency 1.0] [--per-server 2]
                                                             [--fleets 1,2,4] [--kill-after 2.0] [--work DIR]
                                                             [--executor inprocess|ray] [--ray-cpus 2]

The servers are fake OpenAI-compatible servers on 127.0.0.1 (tests/fault_server.py) that answer every
request after a fixed latency with an answer made from the prompt, so every row's content depends only on
its question. The corpus and questions are synthetic (one document per question).

1. baseline, in the same invocation: the sequential executor (one server, one worker);
2. for each K: K servers, `per_server` requests in flight on each, K * per_server workers; wall time of the
   answering phase against the ideal questions * latency / (K * per_server); rows compared with (1)'s
   (everything but run ids, timings and the server that answered);
3. K = max: one server stopped `--kill-after` seconds into the run (it drops the requests it holds and
   refuses new ones): every row must still be there exactly once, none failed, and `validate` must pass.

With `--executor ray`, (2) and (3) run on a local Ray cluster started here (`--ray-cpus` CPUs, so that many
worker processes, one task each): (2) as above, against the in-process baseline; (3) one Ray worker
SIGKILLed while it runs a task (at the `--kill-at-request`th request the servers hear) instead of a server
stopped: every row exactly once, none failed, rows identical, `validate` passes and the store's audit chain
verifies (every cached answer audited).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import os
import signal

from arborist.corpus.documents import corpus_digest
from arborist.corpus.loaders import load_documents
from arborist.corpus.store import open_store
from arborist.governance.audit import verify_chain
from arborist.lab.checks import validate_run
from arborist.lab.executors import Executor
from arborist.lab.report import load_rows
from arborist.lab.runner import RunRequest, execute, plan_run, store_path
from arborist.models.fleet import ServerFleet
from arborist.models.registry import ProviderRecipe
from arborist.policy.answer import AnswerPolicy
from fault_server import FaultServer

VOLATILE = {"run_id", "record_id", "produced_by_run", "timings", "provider_timings", "server", "worker", "trace"}


def write_inputs(work: Path, n: int) -> tuple[Path, Path]:
    docs = [{"id": f"d{i}", "title": f"Town {i}",
             "text": f"Town {i} lies on river R{i}. Its mayor is called Mayor{i}. It was founded in year {1000 + i}."}
            for i in range(n)]
    corpus = work / "corpus.json"
    corpus.write_text(json.dumps(docs), encoding="utf-8")
    questions = [{"id": f"q{i}", "question": f"Which river does Town {i} lie on?", "answers": [f"R{i}"],
                  "relevant_source_ids": [f"d{i}"]} for i in range(n)]
    evaluation = work / "evaluation.json"
    evaluation.write_text(json.dumps({"format": "arborist-evaluation/1",
                                      "corpus_digest": corpus_digest(load_documents([corpus])),
                                      "questions": questions}), encoding="utf-8")
    return corpus, evaluation


def reply_for(body: Any) -> str:
    """Quote the first sentence of the first evidence block: a deterministic, grounded answer."""
    user = body["messages"][1]["content"]
    town = user.split("Which river does ", 1)[1].split(" lie on", 1)[0] if "Which river does " in user else "?"
    sentence = f"{town} lies on river R{town.split()[-1]}."
    return json.dumps({"claims": [{"text": sentence, "evidence_ids": ["E1"], "quote": sentence}],
                       "abstained_requests": []})


def run(work: Path, name: str, inputs: tuple[Path, Path], fleet: ServerFleet, workers: int,
        executor: Executor | None = None) -> tuple[Path, float, Any]:
    req = RunRequest(run_root=work / name, corpus=inputs[0], evaluation=inputs[1], cache_directory=work / name / "cache",
                     policy_values={"routes": "bm25,title"}, generation_workers=workers)
    outcome = execute(plan_run(req, fleet), fleet, executor=executor)
    return outcome.run_dir, outcome.answering_seconds, outcome.status


def audited(work: Path, name: str, run_dir: Path) -> bool:
    """The audit chain of the run's store verifies: every answer written (cached) has its event."""
    cfg = json.loads((run_dir / "config.json").read_text())
    policy = AnswerPolicy.model_validate(cfg["arms"][0]["policy"])
    with open_store(store_path(work / name / "cache", cfg["corpus_digest"], policy.chunking)) as store:
        return verify_chain(store.db).ok


def ray_section(args: argparse.Namespace, work: Path, inputs: tuple[Path, Path], servers: list[FaultServer],
                baseline: list[dict[str, Any]], sizes: list[int]) -> None:
    import ray

    from arborist.lab.ray_executor import RayExecutor
    from ray_workers import ray_workers_of_this_process

    t0 = time.monotonic()
    ray.init(address="local", num_cpus=args.ray_cpus, include_dashboard=False, log_to_driver=False)
    print(f"local Ray cluster, {args.ray_cpus} CPUs (one task each), started in {time.monotonic() - t0:.1f} s")
    try:
        print("| K servers | Ray tasks in flight | answering s | ideal s | ratio | rows identical | rows by worker |")
        print("|---|---|---|---|---|---|---|")
        for k in sizes:
            urls = [s.base_url for s in servers[:k]]
            fleet = ServerFleet("m", urls, per_server=args.per_server)
            executor = RayExecutor(ProviderRecipe("m", servers=tuple(urls), per_server=args.per_server))
            run_dir, secs, status = run(work, f"ray-{k}", inputs, fleet, fleet.capacity, executor)
            in_flight = min(fleet.capacity, args.ray_cpus)
            ideal = args.questions * args.latency / in_flight
            print(f"| {k} | {in_flight} | {secs:.2f} | {ideal:.2f} | {secs / ideal:.3f} | "
                  f"{stable_rows(run_dir) == baseline} | {sorted(status.rows_by_worker.values())} |")
        k = max(sizes)
        urls = [s.base_url for s in servers[:k]]
        killed: list[int] = []
        heard = [0]

        def kill_a_worker() -> None:
            heard[0] += 1
            if heard[0] == args.kill_at_request and not killed:
                victims = ray_workers_of_this_process()
                if victims:
                    killed.append(victims[0])
                    os.kill(victims[0], signal.SIGKILL)

        for s in servers:
            s.on_request = kill_a_worker
        fleet = ServerFleet("m", urls, per_server=args.per_server)
        executor = RayExecutor(ProviderRecipe("m", servers=tuple(urls), per_server=args.per_server))
        run_dir, secs, status = run(work, "ray-killed", inputs, fleet, fleet.capacity, executor)
        for s in servers:
            s.on_request = None
        print(f"\none Ray worker SIGKILLed at request {args.kill_at_request} (pid {killed or 'none found'}): "
              f"{survived(run_dir, baseline, 'in-process')}, rows by worker {status.rows_by_worker}, "
              f"audit chain verifies: {audited(work, 'ray-killed', run_dir)}, {secs:.2f} s answering")
    finally:
        ray.shutdown()


def stable_rows(run_dir: Path) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.model_dump(mode="json").items() if k not in VOLATILE} for r in load_rows(run_dir)[0]]


def survived(run_dir: Path, baseline: list[dict[str, Any]], against: str) -> str:
    """What a run that lost a server or a worker kept: its rows, distinct keys, failures, rows equal to the
    baseline's, and `validate`."""
    rows = load_rows(run_dir)[0]
    failed = sum(r.contract.reason == "PROVIDER_ERROR" for r in rows)
    checks = validate_run(run_dir)
    verdict = "pass" if all(c.ok for c in checks) else [c.name for c in checks if not c.ok]
    return (f"{len(rows)} rows, {len({r.key for r in rows})} distinct, {failed} failed, rows identical to {against}: "
            f"{stable_rows(run_dir) == baseline}, validate: {verdict}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--questions", type=int, default=60)
    ap.add_argument("--latency", type=float, default=1.0)
    ap.add_argument("--per-server", type=int, default=2)
    ap.add_argument("--fleets", default="1,2,4")
    ap.add_argument("--kill-after", type=float, default=2.0)
    ap.add_argument("--work", type=Path, default=None)
    ap.add_argument("--executor", choices=("inprocess", "ray"), default="inprocess")
    ap.add_argument("--ray-cpus", type=int, default=2)
    ap.add_argument("--kill-at-request", type=int, default=10)
    args = ap.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="arborist-fleet-"))
    work.mkdir(parents=True, exist_ok=True)
    inputs = write_inputs(work, args.questions)
    sizes = [int(k) for k in args.fleets.split(",")]
    servers = [FaultServer(latency_seconds=args.latency, reply_for=reply_for).start() for _ in range(max(sizes) + 1)]
    try:
        base_dir, base_s, _ = run(work, "sequential", inputs, ServerFleet("m", [servers[0].base_url], per_server=1), 1)
        baseline = stable_rows(base_dir)
        print(f"sequential (1 server, 1 worker): {base_s:.2f} s answering, {len(baseline)} rows "
              f"(ideal {args.questions * args.latency:.1f} s)")
        if args.executor == "ray":
            ray_section(args, work, inputs, servers, baseline, sizes)
            print(f"\nwork directory: {work}")
            return
        print("| K servers | workers | answering s | ideal s | ratio | rows identical | rows by server |")
        print("|---|---|---|---|---|---|---|")
        for k in sizes:
            fleet = ServerFleet("m", [s.base_url for s in servers[:k]], per_server=args.per_server)
            run_dir, secs, status = run(work, f"fleet-{k}", inputs, fleet, fleet.capacity)
            ideal = args.questions * args.latency / fleet.capacity
            same = stable_rows(run_dir) == baseline
            print(f"| {k} | {fleet.capacity} | {secs:.2f} | {ideal:.2f} | {secs / ideal:.3f} | {same} | "
                  f"{sorted(status.rows_by_server.values())} |")
        k = max(sizes)
        members = servers[1:k + 1]  # fresh servers: the victim has not answered this run's prompts before
        victim = members[0]
        fleet = ServerFleet("m", [s.base_url for s in members], per_server=args.per_server, backoff=0.1)
        before = len(victim.requests)  # it served the runs above too
        timer = threading.Timer(args.kill_after, victim.stop)
        timer.start()
        t0 = time.monotonic()
        run_dir, secs, status = run(work, "killed", inputs, fleet, fleet.capacity)
        print(f"\none of {k} servers stopped {args.kill_after:g} s in ({victim.base_url}, it received "
              f"{len(victim.requests) - before} requests of this run): {survived(run_dir, baseline, 'sequential')}, "
              f"{secs:.2f} s answering ({time.monotonic() - t0:.2f} s in all); rows by server {status.rows_by_server}")
        print(f"\nwork directory: {work}")
    finally:
        for s in servers:
            s.stop()


if __name__ == "__main__":
    main()
