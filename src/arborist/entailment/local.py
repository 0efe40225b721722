"""A judge run in this process by llama.cpp: a pinned GGUF profile, scored from its next-token logits.

The prompt is rendered with the model's own chat template and evaluated once (no sampling); the score is read
from the last position's logits, which llama.cpp keeps without `logits_all` (that would compute logits for every
prompt token, more than doubling the time). The fixed instruction opens every prompt, so the evaluated prefix
it shares with the previous call is kept and only the new tokens are evaluated.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import math
from typing import Any

import numpy as np

from arborist.entailment.scoring import NO, YES, messages
from arborist.errors import ArboristError
from arborist.models.local import default_threads, load_llama
from arborist.models.profiles import ResolvedModel, resolve
from arborist.verify.judge import JUDGE_PROMPT, JudgeError, JudgePrompt, JudgeSpec, check_prompt


class LocalJudge:
    """`score(premise, hypothesis)` with a local GGUF model; its weights must match `spec.sha256`."""

    def __init__(self, spec: JudgeSpec, n_threads: int | None = None, prompt: JudgePrompt = JUDGE_PROMPT) -> None:
        if spec.kind != "local":
            raise ArboristError(f"a local judge cannot serve a {spec.kind!r} judge spec")
        check_prompt(spec, prompt)
        self.spec, self.prompt = spec, prompt
        self._resolved: ResolvedModel | None = None  # resolved at the first score: most answers never ask it
        self._threads = n_threads or default_threads()
        self._formatter: Any = None
        self._ids: tuple[list[int], list[int]] | None = None
        self._prefix: list[int] | None = None

    @functools.cached_property
    def engine(self) -> str:
        """What decides a score besides the spec: llama.cpp's build (its version and the instruction set it was
        compiled for pick the kernels) and how the prompt is cut into batches (the source of the methods that
        render and evaluate it). A quantized model's logits move with both (a score by up to 0.04 when the
        prompt is batched another way), so the score cache keys by this and never serves a score that this
        judge would not compute."""
        import llama_cpp

        code = "".join(inspect.getsource(m) for m in (LocalJudge._render, LocalJudge._fixed_prefix, LocalJudge.logits))
        build = f"{llama_cpp.__version__} {llama_cpp.llama_print_system_info().decode()}"
        return hashlib.sha256(f"{build}\n{code}".encode()).hexdigest()[:16]

    def _render(self, llm: Any, premise: str, hypothesis: str) -> list[int]:
        if self._formatter is None:
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter

            meta = llm.metadata
            template = meta.get("tokenizer.chat_template")
            if not template:
                raise JudgeError(f"{self.spec.model} has no chat template to render the judge's prompt")
            vocab_token = llm._model.token_get_text

            self._formatter = Jinja2ChatFormatter(template=template, eos_token=vocab_token(llm.token_eos()),
                                                  bos_token=vocab_token(llm.token_bos()))
        prompt = self._formatter(messages=[m.model_dump() for m in messages(premise, hypothesis, self.prompt)]).prompt
        return list(llm.tokenize(prompt.encode("utf-8"), add_bos=False, special=True))

    def _fixed_prefix(self, llm: Any) -> list[int]:
        """The tokens every prompt of this judge opens with (the system instruction and template up to the
        premise)."""
        if self._prefix is None:
            a, b = self._render(llm, "a", "b"), self._render(llm, "zz", "y")
            n = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            self._prefix = a[: max(0, n - 1)]  # one token short: a premise may merge with the token before it
        return self._prefix

    def _answer_ids(self, llm: Any) -> tuple[list[int], list[int]]:
        """The single tokens that spell yes and no (each word's variants that are one token)."""
        if self._ids is None:
            def single(words: tuple[str, ...]) -> list[int]:
                ids = [llm.tokenize(w.encode("utf-8"), add_bos=False, special=False) for w in words]
                return sorted({t[0] for t in ids if len(t) == 1})

            self._ids = (single(YES), single(NO))
            if not self._ids[0] or not self._ids[1]:
                raise JudgeError(f"{self.spec.model} has no single token for yes or no")
        return self._ids

    def _model(self) -> ResolvedModel:
        if self._resolved is None:
            try:
                resolved = resolve(self.spec.model)
            except ArboristError as exc:
                raise JudgeError(f"the entailment judge cannot run: {exc} (or verify with --entailment none)") from None
            if self.spec.sha256 is not None and not resolved.model_id.endswith(self.spec.sha256[:12]):
                raise JudgeError(f"judge model {self.spec.model!r} is {resolved.model_id}, not the pinned sha256 "
                                 f"{self.spec.sha256[:12]}…")
            self._resolved = resolved
        return self._resolved

    def logits(self, premise: str, hypothesis: str) -> np.ndarray:
        """The next token's logits after the judge's prompt around this pair (a copy): what `score` reads its
        yes/no share from, and what bench/judge_probe.py reads a trained probe from."""
        import llama_cpp

        llm, lock, _ = load_llama(self._model(), self._threads)
        with lock:
            tokens = self._render(llm, premise, hypothesis)
            if len(tokens) >= llm.n_ctx():
                raise JudgeError(f"the judge's prompt has {len(tokens)} tokens, more than the context of "
                                 f"{llm.n_ctx()}")
            self._answer_ids(llm)
            # The fixed instruction is evaluated once and kept; only the rest is evaluated per call, always from
            # that same point, so a score never depends on what was asked before (llama.cpp's sums differ in
            # their last digits between batch shapes).
            fixed = self._fixed_prefix(llm)
            if tokens[: len(fixed)] != fixed:
                fixed = []
            held = llm.n_tokens >= len(fixed) and list(llm.input_ids[: len(fixed)]) == fixed
            try:
                if not held:
                    llm.n_tokens = 0
                    llm.eval(fixed)
                llm.n_tokens = len(fixed)
                llm.eval(tokens[len(fixed):])
            except Exception as exc:
                llm.n_tokens = 0
                raise JudgeError(f"the local judge failed: {type(exc).__name__}: {exc}") from exc
            return np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(llm._ctx.ctx, -1),
                                         shape=(llm.n_vocab(),)).copy()

    def score(self, premise: str, hypothesis: str) -> float:
        return self.yes_share(self.logits(premise, hypothesis))

    def yes_share(self, logits: np.ndarray) -> float:
        """P(yes) / (P(yes) + P(no)) from next-token logits that `logits` returned."""
        assert self._ids is not None  # set by `logits`
        yes, no = self._ids
        top = float(np.max(logits))
        p_yes = sum(math.exp(float(logits[i]) - top) for i in yes)
        p_no = sum(math.exp(float(logits[i]) - top) for i in no)
        return 0.5 if p_yes + p_no == 0.0 else p_yes / (p_yes + p_no)
