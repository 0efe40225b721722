"""A judge held to a control: its acceptance stands only if a second reading of the same pair agrees.

The verifier sees one score, as from any judge. `ControlledJudge.score` is the pinned judge's own score when it is
below the threshold (the control is not asked: the claim is refused anyway), and otherwise

    min(score, threshold + control - control threshold)

which is at or above the threshold exactly when the control reaches its own threshold, and falls below it by as
much as the control falls short. The control's readings are scores of the same pinned model, cached as its own
(`CachedJudge`), so a controlled judge is as deterministic and as cheap to re-run as the judge it wraps.
"""

from __future__ import annotations

import hashlib
from typing import get_args

from arborist.verify.judge import SYSTEM, ControlKind, Judge, JudgeError, JudgePrompt, JudgeSpec

CONTROL_KINDS: tuple[str, ...] = ("none", *get_args(ControlKind))
# hypothesis_only: the claim scored against a passage that says nothing, beside its score against its quote
NEUTRAL_PREMISE = ""
# contradiction: a second question, which the judge must answer No (the passage settles the statement, for it)
CONTRADICTION_PROMPT = JudgePrompt(system=SYSTEM, template=(
    "Passage: {premise}\n\n"
    "Statement: {hypothesis}\n\n"
    "Does the passage contradict the statement, or leave it open (the passage is about the same subject, but the "
    "statement could be false for all it says)? Answer Yes or No."))
# states: a second question, which the judge must answer Yes (the passage says this, not only its topic)
STATES_PROMPT = JudgePrompt(system=SYSTEM, template=(
    "Passage: {premise}\n\n"
    "Statement: {hypothesis}\n\n"
    "Does the passage state exactly what the statement says, not only its topic? Answer Yes or No."))
CONTROL_PROMPTS: dict[str, JudgePrompt] = {"contradiction": CONTRADICTION_PROMPT, "states": STATES_PROMPT}


def control_digest(kind: str) -> str:
    """What a control asks, digested (its second question's prompt, or the neutral premise): part of the judge's
    spec, so of the verifier hash."""
    asked = CONTROL_PROMPTS[kind].digest if kind in CONTROL_PROMPTS else f"premise:{NEUTRAL_PREMISE}"
    return hashlib.sha256(f"{kind}\n{asked}".encode()).hexdigest()


class ControlledJudge:
    """`judge` (the spec without its control), held to `spec.control`; `second` is the same model asked the
    control's own question (the contradiction and states controls), None for hypothesis_only."""

    def __init__(self, spec: JudgeSpec, judge: Judge, second: Judge | None = None) -> None:
        control = spec.control
        if control is None:
            raise JudgeError("a controlled judge needs a spec with a control")
        if control.digest != control_digest(control.kind):
            raise JudgeError(f"the judge's {control.kind} control asks {control_digest(control.kind)[:12]}…, not "
                             f"what its spec pins ({control.digest[:12]}…)")
        if judge.spec != spec.model_copy(update={"control": None}):
            raise JudgeError(f"a controlled judge wraps the judge its spec names, not {judge.spec.judge_id}")
        if (second is None) != (control.kind == "hypothesis_only"):
            raise JudgeError(f"the {control.kind} control needs "
                             f"{'its second question' if second is None else 'no second question'}")
        self.spec, self._control = spec, control
        self._judge, self._second = judge, second

    def control(self, premise: str, hypothesis: str, score: float) -> float:
        """The control's value for a pair the judge scored `score` (higher: better evidenced)."""
        if self._second is None:  # hypothesis_only: what the quote adds over no evidence at all
            return score - self._judge.score(NEUTRAL_PREMISE, hypothesis)
        asked = self._second.score(premise, hypothesis)
        return 1.0 - asked if self._control.kind == "contradiction" else asked

    def score(self, premise: str, hypothesis: str) -> float:
        score = self._judge.score(premise, hypothesis)
        if score < self.spec.threshold:
            return score
        short = self.control(premise, hypothesis, score) - self._control.threshold
        return max(0.0, min(score, self.spec.threshold + short))
