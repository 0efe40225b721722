"""Entailment judges for tests of the code around a judge (the real ones are tested in test_entailment.py)."""

from __future__ import annotations

from arborist.verify.judge import JudgeSpec


class TableJudge:
    """A judge for tests of the code around it: scores by hypothesis, and a record of what it was asked."""

    def __init__(self, scores: dict[str, float], threshold: float = 0.7) -> None:
        self.spec = JudgeSpec(kind="local", model="table", sha256="1" * 64, threshold=threshold)
        self.scores = scores
        self.asked: list[tuple[str, str]] = []

    def score(self, premise: str, hypothesis: str) -> float:
        self.asked.append((premise, hypothesis))
        return self.scores[hypothesis]


class PairJudge:
    """A judge for tests of a controlled judge: scores by (premise, hypothesis), any other pair `default`."""

    def __init__(self, spec: JudgeSpec, scores: dict[tuple[str, str], float], default: float = 0.0) -> None:
        self.spec = spec
        self.scores, self.default = scores, default
        self.asked: list[tuple[str, str]] = []

    def score(self, premise: str, hypothesis: str) -> float:
        self.asked.append((premise, hypothesis))
        return self.scores.get((premise, hypothesis), self.default)
