"""Where a lab run's answers are generated and verified: threads of the driver's process, or a Ray cluster.

The driver (`runner._drive`) keeps the cheap, stateful work: retrieval, admission, the answer cache, the audit
chain and the rows, written in plan order by one writer. An executor only turns an item's looked-up jobs into
fresh, verified records (`engine.produce_verified`, which reads no store) and names the worker that made
them. `inprocess` (the default) runs them in a thread pool; `ray` (lab.ray_executor, imported only when asked
for) runs each item as a Ray task.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from arborist import engine
from arborist.answer.record import AnswerRecord

# How long joining a Ray cluster at --ray-address may take before the run gives up (Ray alone keeps trying).
RAY_CONNECT_TIMEOUT = 30.0
ExecutorKind = Literal["inprocess", "ray"]
EXECUTOR_KINDS: tuple[ExecutorKind, ...] = ("inprocess", "ray")
# per sample of an item: its fresh record (None when the cache served it or the run stopped first) and the
# worker that produced it (None in process)
Produced = list[tuple[AnswerRecord | None, str | None]]


class ExecutorSpec(BaseModel):
    """What config.json records of the executor: it never changes a row, so it is outside the output digest."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: ExecutorKind = "inprocess"
    address: str | None = Field(default=None, description="the Ray cluster's address (GCS) the run used")


class Executor(Protocol):
    """One run's (or a sweep's) generation: `start` before the first item, `finish` after the last."""

    remote: bool  # produced away from the driver: its completions are not replayed (lab.replay) there

    def start(self, workers: int) -> ExecutorSpec: ...

    def submit(self, jobs: list[engine.Job], stop: threading.Event) -> Future[Produced]: ...

    def finish(self, cancel: bool) -> None: ...

    def close(self) -> None:
        """After the last run (a sweep runs several on one executor): release what `start` acquired."""


def produce_here(jobs: list[engine.Job], stop: threading.Event) -> Produced:
    """An item's samples not served from cache, one after another, with the job's own provider: touches no
    store. A question's samples stay together so a model reuses the evaluated prompt (llama.cpp keeps the KV
    state of a matching prefix; a server fleet sends one question's samples to one server)."""
    out: Produced = []
    for job in jobs:
        if stop.is_set():
            out.extend([(None, None)] * (len(jobs) - len(out)))
            break
        out.append((None if job.served else engine.produce_verified(job.pending, job.produce, job.provider), None))
    return out


class InProcess:
    """Threads of the driver's process; with one worker the driver generates inline (`inline`), so Ctrl-C
    interrupts the call in progress."""

    remote = False

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None
        self.inline = True

    def start(self, workers: int) -> ExecutorSpec:
        self.inline = workers == 1
        if not self.inline:
            self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="arborist-gen")
        return ExecutorSpec(kind="inprocess")

    def submit(self, jobs: list[engine.Job], stop: threading.Event) -> Future[Produced]:
        if self._pool is None:
            raise RuntimeError("InProcess.submit before start with more than one worker")
        return self._pool.submit(produce_here, jobs, stop)

    def finish(self, cancel: bool) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=not cancel, cancel_futures=cancel)
            self._pool = None

    def close(self) -> None:
        self.finish(cancel=True)
