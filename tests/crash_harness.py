"""Kill -9 the real CLI at chosen or random SQL statements and check the store's invariants.

Two halves:

* run as a script (`python crash_harness.py SPEC -- ARGS...`), it is a wrapper
  around `arborist ARGS...` that traces every SQL statement the process runs
  (`sqlite3.Connection.set_trace_callback` on every connection) and SIGKILLs
  itself, or pauses, when SPEC says so. SPEC is JSON:
  `{"kill_at": N}` (the N-th statement, before it runs), `{"kill_match": REGEX,
  "nth": N}` (the N-th statement matching), `{"pause_match": REGEX,
  "pause_until": PATH, "pause_max": SECONDS}` (wait there until PATH exists),
  `{"count_to": PATH}` (run to the end, write the statement count). Nothing
  in arborist knows about this: the wrapper patches `sqlite3.connect` before
  arborist is imported.
* imported, it drives that wrapper (`run`) and checks the invariants a kill
  must never break (`problems`): the store is absent or opens; no vector
  without its chunk; FTS rows match chunks; the stored corpus digest matches
  the documents; every cached answer is attested by its audit event; the
  audit chain is intact.

A statement index drawn from a seeded RNG is a random moment that does not
depend on wall-clock time, so a failing draw can be replayed exactly.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
KILLED = -signal.SIGKILL


def _wrap(spec: dict[str, Any], args: list[str]) -> None:
    real_connect = sqlite3.connect
    state = {"n": 0, "matched": 0}
    match = re.compile(spec["kill_match"] if "kill_match" in spec else spec.get("pause_match", r"(?!)"), re.IGNORECASE)

    def trace(statement: str) -> None:
        state["n"] += 1
        if spec.get("kill_at") == state["n"]:
            os.kill(os.getpid(), signal.SIGKILL)
        if match.search(statement):
            state["matched"] += 1
            if "kill_match" in spec and state["matched"] == spec.get("nth", 1):
                os.kill(os.getpid(), signal.SIGKILL)
            if "pause_match" in spec and state["matched"] == spec.get("nth", 1):
                flag, deadline = Path(spec["pause_until"]), time.monotonic() + spec.get("pause_max", 10)
                Path(spec["pause_until"] + ".paused").touch()
                while not flag.exists() and time.monotonic() < deadline:
                    time.sleep(0.02)

    def connect(*a: Any, **k: Any) -> sqlite3.Connection:
        db = real_connect(*a, **k)
        db.set_trace_callback(trace)
        return db

    sqlite3.connect = connect  # type: ignore[assignment]
    from arborist.cli import main

    sys.argv = ["arborist", *args]
    try:
        main()
    finally:
        if "count_to" in spec:
            Path(spec["count_to"]).write_text(str(state["n"]))


def command(args: list[str | Path], spec: dict[str, Any] | None = None) -> list[str]:
    return [sys.executable, str(HERE), json.dumps(spec or {}), "--", *map(str, args)]


def run(args: list[str | Path], spec: dict[str, Any] | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`arborist ARGS` in a fresh process under the wrapper (returncode -9 when it killed itself)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(HERE.parent), *sys.path) if p)}
    env.pop("ARBORIST_DEBUG", None)
    return subprocess.run(command(args, spec), check=False, capture_output=True, text=True, timeout=timeout, env=env)


def count_statements(args: list[str | Path], scratch: Path) -> int:
    out = scratch / "count.txt"
    result = run(args, {"count_to": str(out)})
    if result.returncode not in (0, 3):
        raise AssertionError(f"counting run failed: {result.stderr}")
    return int(out.read_text())


def problems(db: Path) -> list[str]:
    """Every broken invariant of the store at `db` (empty list: all hold). An absent store is fine."""
    from arborist.corpus.documents import corpus_digest
    from arborist.corpus.store import open_store
    from arborist.errors import StoreError
    from arborist.governance import cache
    from arborist.governance.audit import verify_chain

    if not db.exists():
        return []
    try:
        store = open_store(db)
    except StoreError as exc:
        return [f"unusable store: {exc}"]
    found = []
    with store:
        q = store.db.execute
        orphans = q("SELECT COUNT(*) FROM vectors WHERE chunk_rowid NOT IN (SELECT id FROM chunks)").fetchone()[0]
        if orphans:
            found.append(f"{orphans} orphan vector(s)")
        chunks = q("SELECT COUNT(*) FROM chunks").fetchone()[0]
        fts = q("SELECT COUNT(*) FROM chunks_fts").fetchone()[0]
        if fts != chunks:
            found.append(f"{fts} FTS rows for {chunks} chunks")
        homeless = q("SELECT COUNT(*) FROM chunks WHERE doc_id NOT IN (SELECT doc_id FROM documents)").fetchone()[0]
        if homeless:
            found.append(f"{homeless} chunk(s) without a document")
        docs = store.counts()[0]
        if docs and store.digest() != corpus_digest(store.iter_documents()):
            found.append("stored corpus digest does not match the documents")
        for (key,) in q("SELECT key FROM answer_cache").fetchall():
            row = cache.get_row(store.db, key)
            why = cache.attestation_problem(store.db, row) if row else "vanished"
            if why:
                found.append(f"unaudited cached answer {key[:19]}: {why}")
        report = verify_chain(store.db)
        if not report.ok:
            found.append(f"audit chain broken: {report.first_broken}")
    return found


if __name__ == "__main__":
    split = sys.argv.index("--")
    _wrap(json.loads(sys.argv[1]), sys.argv[split + 1 :])
