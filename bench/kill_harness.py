"""kill -9 `arborist ingest` and `arborist query` at random moments, many times, and count broken invariants.

Each round builds nothing by hand: it runs the real CLI under the wrapper in
tests/crash_harness.py and kills it either at a seeded-random SQL statement
(replayable: the round prints its statement index) or after a seeded-random
wall-clock delay (SIGKILL from outside, landing anywhere: imports, chunking,
embedding, the model call). After every kill it checks the invariants
(`crash_harness.problems`: the store opens or is absent, no orphan vector,
FTS = chunks, digest = documents, every cached answer attested by its audit
event, audit chain intact), re-runs the command, and checks again.

Ingest rounds embed (the dense route's vectors are what can be orphaned);
query rounds answer through the fault server with a valid answer.

    python bench/kill_harness.py --rounds 60 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS))

from crash_harness import KILLED, command, count_statements, problems, run  # noqa: E402
from fault_server import FaultServer  # noqa: E402

QUESTION = "How long is the refund window for annual plans?"
ANSWER = json.dumps({"claims": [{"text": "Annual plans can be refunded within 30 days", "evidence_ids": ["E1"],
                                 "quote": "Annual plans can be refunded within 30 days"}], "abstained_requests": []})


def make_corpus(folder: Path, n: int) -> None:
    folder.mkdir()
    (folder / "refund.md").write_text("# Refund Policy\n\nAnnual plans can be refunded within 30 days of purchase.\n")
    for i in range(n):
        (folder / f"note{i}.md").write_text(f"# Note {i}\n\n" + f"Paragraph {i} on topic {i % 7}. " * 60)


def kill_after(args: list[str | Path], delay: float) -> int:
    proc = subprocess.Popen(command(args), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        proc.wait(timeout=delay)
        return proc.returncode
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        return proc.wait()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=60, help="rounds; each kills one ingest and one query")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--docs", type=int, default=40, help="documents in the corpus")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    server = FaultServer(reply=ANSWER).start()
    tally = {"kills": 0, "finished_before_kill": 0, "violations": 0, "rerun_failures": 0}
    started = time.monotonic()
    try:
        with tempfile.TemporaryDirectory(prefix="arborist-kill-") as tmp:
            root = Path(tmp)
            corpus = root / "corpus"
            make_corpus(corpus, args.docs)
            probe = root / "probe.db"

            def ingest_args(db: Path) -> list[str | Path]:
                return ["ingest", corpus, "--db", db]

            def query_args(db: Path) -> list[str | Path]:
                return ["query", QUESTION, "--db", db, "--base-url", server.base_url,
                        "--model", "m", "--retries", "0", "--routes", "bm25,title,dense"]
            t0 = time.monotonic()
            n_ingest = count_statements(ingest_args(probe), root)
            ingest_s = time.monotonic() - t0
            t0 = time.monotonic()
            n_query = count_statements(query_args(probe), root)
            query_s = time.monotonic() - t0
            print(f"full runs: ingest {n_ingest} statements in {ingest_s:.1f} s, query {n_query} in {query_s:.1f} s")
            for r in range(args.rounds):
                db = root / f"r{r}.db"
                for what, cmd_args, n, full_s in (("ingest", ingest_args(db), n_ingest, ingest_s),
                                                   ("query", query_args(db), n_query, query_s)):
                    if rng.random() < 0.5:
                        at = rng.randint(1, n)
                        code = run(cmd_args, {"kill_at": at}).returncode
                        where = f"statement {at}/{n}"
                    else:
                        delay = rng.uniform(0.05, full_s * 1.1)
                        code = kill_after(cmd_args, delay)
                        where = f"{delay:.2f} s"
                    if code == KILLED:
                        tally["kills"] += 1
                    else:
                        tally["finished_before_kill"] += 1
                    found = problems(db)
                    rerun = run(cmd_args)
                    found += [f"after re-run: {p}" for p in problems(db)]
                    if rerun.returncode != 0:
                        tally["rerun_failures"] += 1
                        found.append(f"re-run exit {rerun.returncode}: {rerun.stderr.strip()[:200]}")
                    tally["violations"] += len(found)
                    status = "killed" if code == KILLED else f"exit {code}"
                    print(f"round {r:>3} {what:<6} {where:<18} {status:<8} {found or 'OK'}")
    finally:
        server.stop()
    print(json.dumps({**tally, "rounds": args.rounds, "seed": args.seed, "seconds": round(time.monotonic() - started)}))
    return 1 if tally["violations"] or tally["rerun_failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
