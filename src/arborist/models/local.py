"""The default provider: a GGUF model run in-process by llama.cpp (llama-cpp-python).

llama_cpp is imported lazily so that everything else in arborist works (and
tests run) without it. Loaded models are cached per (path, n_ctx) for the life
of the process, because loading costs seconds and answers come in batches.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import threading
import time
from typing import Any

from arborist.errors import ArboristError
from arborist.models.base import Completion, GenerationSettings, Message, chat_request
from arborist.models.profiles import ResolvedModel, resolve


def machine_threads() -> int:
    """The cores this process may run on (its CPU affinity, which a container or `taskset` narrows), not the
    machine's total."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - platforms without affinity
        return max(1, os.cpu_count() or 1)


def default_threads() -> int:
    """Threads per llama.cpp call: ARBORIST_LLAMA_THREADS when set, else one per usable core. On a busy machine
    fewer can be faster (llama.cpp's threads wait for each other at every layer), hence the override."""
    raw = os.environ.get("ARBORIST_LLAMA_THREADS", "")
    if not raw:
        return machine_threads()
    if not raw.isdigit() or int(raw) < 1:
        raise ArboristError(f"ARBORIST_LLAMA_THREADS={raw!r} is not a positive whole number of threads")
    return int(raw)


_MISSING = "the local model needs llama-cpp-python; run `make setup`"
_TOO_LONG = re.compile(r"Requested tokens \((\d+)\) exceed context window of (\d+)")

_loaded: dict[tuple[str, int, str], tuple[Any, threading.Lock]] = {}


@atexit.register
def _close_loaded() -> None:
    """Free models while the interpreter is whole: llama-cpp-python's own __del__
    runs too late at shutdown and prints a TypeError traceback."""
    while _loaded:
        llm, _ = _loaded.popitem()[1]
        with contextlib.suppress(Exception):
            llm.close()
_load_lock = threading.Lock()


def _llama_class() -> Any:
    try:
        from llama_cpp import Llama
    except ImportError as exc:
        raise ArboristError(_MISSING) from exc
    return Llama


def load_llama(resolved: ResolvedModel, n_threads: int, seed: int = 0,
               context: str = "judge") -> tuple[Any, threading.Lock, float | None]:
    """The process's Llama for this model and `context` (loading it if needed), the lock every caller of it
    holds, and the load time if it was loaded now. The answer provider ("answer") and the entailment judge
    ("judge") keep a context each, so judging an answer never evicts the evaluated prompt that a revision turn
    continues; both map the same weights file, which the operating system holds in memory once."""
    key = (str(resolved.path), resolved.n_ctx, context)
    with _load_lock:
        if key in _loaded:
            llm, lock = _loaded[key]
            return llm, lock, None
        start = time.monotonic()
        try:
            llm = _llama_class()(model_path=key[0], n_ctx=resolved.n_ctx, n_threads=n_threads, seed=seed,
                                 verbose=False)
        except (ValueError, RuntimeError, OSError) as exc:
            raise ArboristError(f"llama.cpp could not load {key[0]}: {exc}") from exc
        lock = threading.Lock()
        _loaded[key] = (llm, lock)
        return llm, lock, time.monotonic() - start


def _too_long(n_tokens: int, n_ctx: int) -> str:
    return f"prompt has {n_tokens} tokens, more than the model's context of {n_ctx}"


class LocalProvider:
    """llama.cpp on this machine; schema-constrained through a JSON-schema grammar."""

    name = "local"

    def __init__(self, model: str | None = None, *, n_threads: int | None = None,
                 fresh_prompt_state: bool = False) -> None:
        """`fresh_prompt_state` drops llama.cpp's saved prompt state before every call, so each prompt is
        evaluated in full: the baseline against which prompt sharing (samples, sentinel rungs) is measured."""
        self._llama = _llama_class()  # fail at construction, before any retrieval work
        self.resolved: ResolvedModel = resolve(model)
        self.model_id = self.resolved.model_id
        self.n_threads = n_threads or default_threads()
        self.fresh_prompt_state = fresh_prompt_state

    def _get(self, seed: int) -> tuple[Any, threading.Lock, float | None]:
        return load_llama(self.resolved, self.n_threads, seed, context="answer")

    def _fail(self, error: str, timings: dict[str, float], prompt_tokens: int | None = None) -> Completion:
        return Completion(
            model_id=self.model_id, provider=self.name, error=error, timings=timings, prompt_tokens=prompt_tokens
        )

    def complete(
        self,
        messages: list[Message],
        settings: GenerationSettings,
        json_schema: dict[str, Any] | None = None,
    ) -> Completion:
        llm, lock, load_s = self._get(settings.seed)
        timings: dict[str, float] = {} if load_s is None else {"load_s": load_s}
        n_ctx = int(llm.n_ctx())
        with lock:
            # Lower bound of the templated prompt: catches hopeless prompts before any work.
            floor = sum(len(llm.tokenize(m.content.encode("utf-8"), add_bos=False)) for m in messages)
            if floor >= n_ctx:
                return self._fail(_too_long(floor, n_ctx), timings, floor)
            kwargs = chat_request(messages, settings, json_schema)
            if self.fresh_prompt_state:
                llm.reset()
            _reset_perf(llm)
            start = time.monotonic()
            try:
                response = llm.create_chat_completion(**kwargs)
            except ValueError as exc:
                match = _TOO_LONG.search(str(exc))
                if match:
                    n = int(match.group(1))
                    return self._fail(_too_long(n, int(match.group(2))), timings, n)
                return self._fail(f"local generation failed: {exc}", timings)
            except Exception as exc:  # noqa: BLE001 - a failed call is recorded, not raised
                return self._fail(f"local generation failed: {type(exc).__name__}: {exc}", timings)
            timings["generate_s"] = time.monotonic() - start
            perf, evaluated = _perf(llm)
            timings.update(perf)
        completion = _to_completion(response, self.model_id, self.name, timings)
        if evaluated is not None and completion.prompt_tokens is not None:
            completion.cached_prompt_tokens = max(0, completion.prompt_tokens - evaluated)
        return completion


def _to_completion(response: dict[str, Any], model_id: str, provider: str, timings: dict[str, float]) -> Completion:
    choice = response["choices"][0]
    usage = response.get("usage") or {}
    return Completion(
        text=choice["message"].get("content") or "",
        model_id=model_id,
        provider=provider,
        prompt_tokens=usage.get("prompt_tokens"),
        completion_tokens=usage.get("completion_tokens"),
        timings=timings,
        finish_reason=choice.get("finish_reason"),
        raw=response,
    )


def _reset_perf(llm: Any) -> None:
    """llama.cpp's own per-phase counters; best effort (private API, may change)."""
    with contextlib.suppress(Exception):  # timings are optional
        import llama_cpp

        llama_cpp.llama_perf_context_reset(llm._ctx.ctx)


def _perf(llm: Any) -> tuple[dict[str, float], int | None]:
    """Prompt-eval and generation seconds as llama.cpp measured them, and how many prompt
    tokens it evaluated (the rest came from the KV state of a matching prefix); empty if unavailable."""
    try:
        import llama_cpp

        data = llama_cpp.llama_perf_context(llm._ctx.ctx)
        return {"prompt_eval_s": data.t_p_eval_ms / 1000.0, "eval_s": data.t_eval_ms / 1000.0}, int(data.n_p_eval)
    except Exception:  # noqa: BLE001 - timings are optional
        return {}, None


def loaded_models() -> list[str]:
    """Paths of the models held in this process (for diagnostics and tests)."""
    with _load_lock:
        return [path for path, _, _ in _loaded]
