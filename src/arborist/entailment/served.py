"""A judge served by any OpenAI-compatible server: the same prompt, one token, its top log-probabilities.

The score is P(yes) / (P(yes) + P(no)) over the first token's `top_logprobs`. A server that returns no
log-probabilities (llama.cpp's server needs `--logits_all true` for them) cannot judge: that is an error, never a
verdict.
"""

from __future__ import annotations

import json
from typing import Any

from arborist.entailment.scoring import messages, yes_share
from arborist.errors import ArboristError
from arborist.models.base import GenerationSettings, chat_request
from arborist.models.openai_compat import DEFAULT_RETRIES, DEFAULT_TIMEOUT, OpenAIProvider
from arborist.verify.judge import JUDGE_PROMPT, JudgeError, JudgePrompt, JudgeSpec, check_prompt

TOP_LOGPROBS = 10


class ServedJudge:
    """`score(premise, hypothesis)` by the model `spec.model` on the server at `base_url`."""

    def __init__(self, spec: JudgeSpec, base_url: str, *, api_key_env: str | None = None,
                 timeout: float = DEFAULT_TIMEOUT, retries: int = DEFAULT_RETRIES,
                 prompt: JudgePrompt = JUDGE_PROMPT) -> None:
        if spec.kind != "openai":
            raise ArboristError(f"a served judge cannot serve a {spec.kind!r} judge spec")
        check_prompt(spec, prompt)
        self.spec, self.prompt = spec, prompt
        self._provider = OpenAIProvider(spec.model, base_url, api_key_env=api_key_env, timeout=timeout,
                                        retries=retries)

    @property
    def engine(self) -> str:
        """What decides a score besides the spec: the server that computes it (scheme, host, port and path,
        never its credentials). Two servers may serve different weights under one model name, so the score
        cache keys by this."""
        return self._provider.server

    def score(self, premise: str, hypothesis: str) -> float:
        body: dict[str, Any] = {
            "model": self.spec.model,
            **chat_request(messages(premise, hypothesis, self.prompt), GenerationSettings(temperature=0.0, max_tokens=1), None),
            "logprobs": True, "top_logprobs": TOP_LOGPROBS,
        }
        parsed, failure = self._provider._post(json.dumps(body).encode("utf-8"))
        if parsed is None:
            raise JudgeError(f"the served judge at {self._provider.url} failed: "
                             f"{failure.message if failure else 'no response'}")
        try:
            first = parsed["choices"][0]["logprobs"]["content"][0]
            tops = {str(t["token"]): float(t["logprob"]) for t in first["top_logprobs"]}
            tops.setdefault(str(first["token"]), float(first["logprob"]))
        except (KeyError, IndexError, TypeError, ValueError):
            raise JudgeError(f"the served judge at {self._provider.url} returned no log-probabilities for the "
                             "first token (a llama.cpp server needs --logits_all true)") from None
        return yes_share(tops)
