"""Plain names a run directory is read by (its files, the diagnosis boundaries) and its row reader.

Standard library only: the run viewer reads run directories without the
engine, and shares these with the runner that writes them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal

CONFIG = "config.json"
STATUS = "status.json"
ROWS = "results/per-query.jsonl"
ANSWERS = "results/generated-answers.json"
CONTRACT_SUMMARY = "results/answer-contract-summary.json"
RETRIEVAL_SUMMARY = "results/retrieval-summary.json"
SUMMARY_MD = "summary.md"
EVALUATION = "inputs/evaluation.json"
CHUNKS = "preparation/chunks.json"
SUBDIRS = ("inputs", "preparation", "indexes", "results")
SWEEP_JSON = "sweep.json"
REPAIR_JSON = "repair.json"

# A `running` run whose recorded process is gone was killed (SIGKILL, a crash, a reboot): it reads as `dead`.
# The state is never written: status.json keeps what the process last wrote, every reader applies this.
DEAD = "dead"


def process_alive(pid: int) -> bool:
    """Whether process `pid` exists on this machine and is not a zombie (killed, not yet reaped)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):  # OverflowError: a pid no process can have (a damaged record)
        return False
    except PermissionError:
        return True  # another user's process
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return True  # no /proc (not Linux): existence is all we can tell
    return stat.rpartition(")")[2].split()[:1] != ["Z"]


def live_state(status: dict[str, Any]) -> str:
    """A status record's state as it stands now: `dead` for a `running` record whose process is gone."""
    state = str(status.get("state", "unknown"))
    pid = status.get("pid")
    if state == "running" and isinstance(pid, int) and not process_alive(pid):
        return DEAD
    return state


def continue_command(run_dir: Path) -> str:
    """The command that finishes a run that stopped: a new run reusing its finished rows."""
    return f"arborist lab run --continue-from {run_dir.resolve()}"


Boundary = Literal["retrieval", "evidence_k", "context_admission", "contract", "generation", "none"]
BOUNDARIES: tuple[Boundary, ...] = ("retrieval", "evidence_k", "context_admission", "generation", "contract", "none")
BOUNDARY_MEANING: dict[Boundary, str] = {
    "retrieval": "no chunk of a needed source was ranked",
    "evidence_k": "ranked, but cut by EvidenceK",
    "context_admission": "selected, but omitted by the rune budget",
    "generation": "admitted, but the answer lacks the gold answer",
    "contract": "the answer was unusable (provider error, parse, schema, citations)",
    "none": "admitted and answered with the gold answer",
}


def read_rows(path: Path) -> tuple[list[dict[str, Any]], list[int]]:
    """Rows of a per-query.jsonl, and the line numbers that were not whole rows (a torn last line)."""
    rows: list[dict[str, Any]] = []
    bad: list[int] = []
    if not path.exists():
        return rows, bad
    with path.open(encoding="utf-8", errors="replace") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except (json.JSONDecodeError, RecursionError):  # RecursionError: a line nested too deep to read
                bad.append(n)
                continue
            if isinstance(row, dict):
                rows.append(row)
            else:
                bad.append(n)
    return rows, bad
