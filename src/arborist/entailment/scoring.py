"""The two halves every judge shares: the messages it sends and how a yes/no distribution becomes a score."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from arborist.models.base import Message
from arborist.verify.judge import JUDGE_PROMPT, JudgePrompt

YES = ("Yes", "yes", "YES", " Yes", " yes")
NO = ("No", "no", "NO", " No", " no")


def messages(premise: str, hypothesis: str, prompt: JudgePrompt = JUDGE_PROMPT) -> list[Message]:
    """The judge's fixed prompt around one premise and hypothesis, after its worked examples (whitespace
    folded: a quote's line breaks carry no meaning and would only split the prompt cache)."""
    def ask(p: str, h: str) -> Message:
        return Message(role="user", content=prompt.template.format(premise=" ".join(p.split()),
                                                                   hypothesis=" ".join(h.split())))

    shown = [m for p, h, a in prompt.examples for m in (ask(p, h), Message(role="assistant", content=a))]
    return [Message(role="system", content=prompt.system), *shown, ask(premise, hypothesis)]


def yes_share(logprobs: Mapping[str, float]) -> float:
    """P(yes) / (P(yes) + P(no)) from next-token log-probabilities keyed by token text; 0.5 when neither
    appears (the judge said something else: no evidence either way, and below any useful threshold)."""
    def mass(words: Iterable[str]) -> float:
        return sum(math.exp(logprobs[w]) for w in words if w in logprobs)

    yes, no = mass(YES), mass(NO)
    return 0.5 if yes + no == 0.0 else yes / (yes + no)
