"""The lab's Ray executor: each item (one question under one arm, its samples together) is a Ray task that
generates and verifies its answers; the driver keeps retrieval, admission, the answer cache, the audit chain
and the rows (lab.runner).

A task carries values only: the jobs' looked-up state (`engine.Pending`), their picklable work
(`engine.RetrievedWork`, `engine.AdmittedWork`) and a ProviderRecipe; the worker builds its provider from the
recipe once per process (a local model is loaded once, a fleet keeps its connections), so a cluster of
machines with local models and no servers works as well as one that sends every call to servers.

Exactly once: a worker that dies mid-task is retried by Ray (`MAX_RETRIES`); the driver writes an item's
rows only when its task returns, in plan order, and never writes a row key twice. A task that still fails
fails the run, which `--continue-from` resumes. This is the only module that imports ray.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import ray

from arborist import engine
from arborist.answer.record import AnswerRecord
from arborist.errors import ArboristError
from arborist.lab.executors import RAY_CONNECT_TIMEOUT, ExecutorSpec, Produced, produce_here
from arborist.models.base import Provider
from arborist.models.registry import ProviderRecipe

MAX_RETRIES = 3  # a task whose worker process dies is run again this many times
_PROVIDERS: dict[ProviderRecipe, Provider] = {}  # in a worker process: one provider per recipe, built once


def _provider(recipe: ProviderRecipe) -> Provider:
    provider = _PROVIDERS.get(recipe)
    if provider is None:
        provider = _PROVIDERS[recipe] = recipe.build()
    return provider


def _worker() -> str:
    """Which worker answered: the node (first 12 hex digits of its id) and the process."""
    return f"{ray.get_runtime_context().get_node_id()[:12]}/pid{os.getpid()}"


@ray.remote(max_retries=MAX_RETRIES)
def generate(recipe: ProviderRecipe,
             work: list[tuple[engine.Pending, Callable[[Provider], AnswerRecord]]]) -> Produced:
    """An item's samples, produced and verified as the driver's threads do (`produce_here`: one after another,
    so they go to one server or reuse one local model's prompt state), with this worker's provider."""
    provider = _provider(recipe)
    produced = produce_here([engine.Job(pending, make, provider) for pending, make in work], threading.Event())
    worker = _worker()
    return [(record, None if record is None else worker) for record, _ in produced]


class _NotMainThreadNote(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return "not the main thread" not in record.getMessage()


class RayExecutor:
    """Runs items as Ray tasks on the cluster at `address`, or on a local cluster it starts (`num_cpus` CPUs,
    head on this machine) and stops in `close`. A Ray connection already open in this process is used as is."""

    remote = True

    def __init__(self, recipe: ProviderRecipe, address: str | None = None, num_cpus: int | None = None,
                 connect_timeout: float = RAY_CONNECT_TIMEOUT) -> None:
        self.recipe = recipe
        self.address = address
        self.num_cpus = num_cpus
        self.connect_timeout = connect_timeout
        self._owns = False
        self._refs: set[Any] = set()
        self._lock = threading.Lock()
        self._spec: ExecutorSpec | None = None

    def start(self, workers: int) -> ExecutorSpec:
        if self._spec is None:
            if not ray.is_initialized():
                try:
                    if self.address is None:
                        ray.init(address="local", num_cpus=self.num_cpus, include_dashboard=False,
                                 log_to_driver=False, configure_logging=False)
                    else:
                        self._join(self.address)
                except (ConnectionError, ValueError, RuntimeError) as exc:
                    where = self.address or "a local cluster"
                    raise ArboristError(f"cannot reach the Ray cluster at '{where}': "
                                        f"{' '.join(str(exc).split())}") from None
                self._owns = True
            self._spec = ExecutorSpec(kind="ray", address=ray.get_runtime_context().gcs_address)
        return self._spec

    def _join(self, address: str) -> None:
        """`ray.init` at `address`, given up after `connect_timeout` seconds. Ray alone keeps trying to reach an
        address nothing answers at (ten minutes and more, a warning every 40 s) inside a call Ctrl-C cannot
        interrupt, so it runs in a thread this one waits for (a wait that Ctrl-C does end)."""
        done = threading.Event()
        failed: list[BaseException] = []

        def join() -> None:
            try:
                ray.init(address=address, log_to_driver=False, configure_logging=False)
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
                failed.append(exc)
            finally:
                done.set()

        quiet = _NotMainThreadNote()
        logging.getLogger("ray._private.worker").addFilter(quiet)  # "SIGTERM handler is not set ..."
        threading.Thread(target=join, name="arborist-ray-join", daemon=True).start()
        deadline = time.monotonic() + self.connect_timeout
        # Short waits: a signal delivered to one of Ray's threads is handled here only when this thread runs
        # Python again, so Ctrl-C stops the wait within a tenth of a second.
        while not done.wait(0.1) and time.monotonic() < deadline:
            pass
        logging.getLogger("ray._private.worker").removeFilter(quiet)
        if not done.is_set():
            raise ArboristError(f"cannot reach the Ray cluster at '{address}' within {self.connect_timeout:g} s; "
                                "check --ray-address (the head's address, e.g. 10.0.0.5:6379) or give it longer "
                                "with --ray-connect-timeout")
        if failed:
            raise failed[0]

    def submit(self, jobs: list[engine.Job], stop: threading.Event) -> Future[Produced]:
        ref = generate.remote(self.recipe, [(j.pending, j.work) for j in jobs])
        with self._lock:
            self._refs.add(ref)
        out: Future[Produced] = Future()

        def done(f: Future[Produced]) -> None:
            with self._lock:
                self._refs.discard(ref)
            try:
                out.set_result(f.result())
            except ray.exceptions.RayError as exc:  # after MAX_RETRIES worker deaths, cancelled, or it raised
                out.set_exception(ArboristError(f"a Ray task failed: {type(exc).__name__}: {exc}".splitlines()[0]))

        ref.future().add_done_callback(done)
        return out

    def finish(self, cancel: bool) -> None:
        """The run is over; a stopped run cancels the tasks still out (their rows were never written)."""
        if cancel:
            with self._lock:
                refs = list(self._refs)
            for ref in refs:
                ray.cancel(ref, force=True)

    def close(self) -> None:
        """Stop the local cluster this executor started (a cluster it joined keeps running)."""
        if self._owns and ray.is_initialized():
            ray.shutdown()
        self._owns = False
        self._spec = None
