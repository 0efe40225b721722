"""Run directories: created fresh, never reused; status and rows written so a crash leaves them readable.

Layout (DESIGN.md §7):

    config.json  status.json  inputs/{corpus.json,evaluation.json,prompt.txt}
    preparation/{chunks.json,representations.json}  indexes/
    results/{per-query.jsonl,generated-answers.json,answer-contract-summary.json,retrieval-summary.json}
    summary.md

`status.json` is replaced atomically; each per-query row is one line,
flushed and fsynced before the next starts, so `kill -9` loses at most the
row being written (a torn last line, which readers skip and report).
"""

from __future__ import annotations

import json
import os
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field, ValidationError

from arborist.errors import InputError
from arborist.lab import runfiles
from arborist.lab.config import RUN_KIND, RunConfig

State = Literal["running", "complete", "failed", "interrupted", "budget_exhausted"]
STATES: tuple[State, ...] = ("running", "complete", "failed", "interrupted", "budget_exhausted")


# The names live in runfiles (shared with the engine-free viewer); the runner's code says rundir.ROWS.
CONFIG = runfiles.CONFIG
STATUS = runfiles.STATUS
ROWS = runfiles.ROWS
ANSWERS = runfiles.ANSWERS
CONTRACT_SUMMARY = runfiles.CONTRACT_SUMMARY
RETRIEVAL_SUMMARY = runfiles.RETRIEVAL_SUMMARY
SUMMARY_MD = runfiles.SUMMARY_MD
SUBDIRS = runfiles.SUBDIRS
read_rows = runfiles.read_rows


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Status(BaseModel):
    state: State
    started_at: str
    ended_at: str | None = None
    exit_code: int | None = None
    rows_done: int = 0
    rows_total: int
    rows_reused: int = 0
    provider_calls: int = 0
    cache_hits: int = 0
    rows_failed: int = Field(default=0, description="rows without an answer: the provider call failed")
    judge_failed: int = Field(default=0, description="rows the judge could not judge (a failed call or an "
                              "unusable reply)")
    rows_by_server: dict[str, int] = Field(default_factory=dict, description="rows answered by a provider call, "
                                           "by the server that answered (a fleet's members)")
    rows_by_worker: dict[str, int] = Field(default_factory=dict, description="rows answered by a provider call, "
                                           "by the executor's worker that made it (Ray: node id and pid)")
    message: str = ""
    pid: int = Field(default_factory=os.getpid)


def write_json(path: Path, obj: Any) -> None:
    """Write JSON atomically: a reader sees the old file or the new one, never half of one."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        json.dump(obj, fh, ensure_ascii=False, indent=2)
        fh.write("\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def run_dir_name(created: datetime, digest: str) -> str:
    return f"{created.strftime('%Y%m%dT%H%M%SZ')}-{RUN_KIND}-{digest.removeprefix('sha256:')[:8]}"


def create_fresh_dir(root: Path, base: str, subdirs: tuple[str, ...], what: str) -> Path:
    """A new, empty directory `root/base` holding `subdirs`; an existing name gets a numeric suffix,
    never reused, so a run or sweep never writes into another's directory."""
    root.mkdir(parents=True, exist_ok=True)
    for n in range(1, 1000):
        path = root / (base if n == 1 else f"{base}-{n}")
        try:
            path.mkdir()
        except FileExistsError:
            continue
        for sub in subdirs:
            (path / sub).mkdir()
        return path
    raise InputError(f"could not create a new {what} directory under '{root}' (999 {what}s named {base}*)")


def create_run_dir(root: Path, created: datetime, digest: str) -> Path:
    """A new, empty run directory under `root` (see `create_fresh_dir`)."""
    return create_fresh_dir(root, run_dir_name(created, digest), SUBDIRS, "run")


class RowWriter:
    """Appends per-query rows, one fsynced line each; safe to call from worker threads."""

    def __init__(self, path: Path) -> None:
        self._fh = path.open("a", encoding="utf-8")
        self._lock = threading.Lock()
        self.count = 0

    def write(self, row: dict[str, Any]) -> None:
        line = json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n"
        with self._lock:
            self._fh.write(line)
            self._fh.flush()
            os.fsync(self._fh.fileno())
            self.count += 1

    def close(self) -> None:
        with self._lock:
            self._fh.close()




M = TypeVar("M", bound=BaseModel)


def read_record(folder: Path, name: str, model: type[M], kind: str) -> M:
    """The JSON record `name` of a run (or sweep) directory, validated; a one-line error naming what is wrong."""
    path = folder / name
    if not folder.is_dir():
        raise InputError(f"{kind} directory '{folder}' does not exist")
    try:
        return model.model_validate_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"'{folder}' is not a {kind} directory: it has no {name}") from None
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "(root)"
        raise InputError(f"'{path}' is not a {kind} record this arborist reads: {where}: {err['msg']}") from None


def load_config(run_dir: Path) -> RunConfig:
    return read_record(run_dir, CONFIG, RunConfig, "run")


def load_status(run_dir: Path) -> Status:
    path = run_dir / STATUS
    try:
        return Status.model_validate_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"'{run_dir}' has no {STATUS}") from None
    except ValidationError as exc:
        raise InputError(f"'{path}' is not a run status: {exc.errors()[0]['msg']}") from None


def find_runs(root: Path) -> list[Path]:
    """Run directories directly under `root` (those with a config.json), oldest first."""
    if not root.is_dir():
        raise InputError(f"run root '{root}' does not exist")
    return sorted(p for p in root.iterdir() if p.is_dir() and (p / CONFIG).is_file())
