"""What each treatment did to the answers, paired with its untreated arm question by question.

- evidence order (`reversed`, `shuffle-<i>`): of the questions both arms
  answered, how often the gold-in-answer verdict and the verifier label
  changed when only the order of the same evidence changed;
- `withheld`: of the questions whose supporting chunks were removed, how
  many abstained (right) and how many answered anyway (and how many of those
  the verifier called STRICT);
- `planted`: of the questions with a planted value, how many answers
  repeated it, kept the true value, objected, or did neither.
"""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, Field

from arborist.lab.config import Arm
from arborist.lab.rows import Row
from arborist.lab.treatments import PLANTED, WITHHELD


class TreatmentSummary(BaseModel):
    arm: str
    control: str = Field(description="the untreated arm it is paired with")
    treatment: str
    rows: int
    applied: int = Field(description="rows whose evidence the treatment changed")
    pairs: int = Field(description="(question, sample) pairs answered by both arms with a usable answer")
    gold_changed: int | None = None
    label_changed: int | None = None
    control_gold: int | None = None
    treated_gold: int | None = None
    outcomes: dict[str, int] = Field(default_factory=dict, description="withheld / planted outcomes")
    strict_answered: int | None = Field(default=None, description="withheld: answers given anyway that are STRICT")
    not_measured: int = Field(default=0, description="rows with no outcome (unusable answer, nothing applied)")


def summarise_treatments(rows: list[Row], arms: list[Arm]) -> list[TreatmentSummary]:
    out = []
    controls = {a.name: a for a in arms if a.treatment == "none"}
    for arm in arms:
        if arm.treatment == "none":
            continue
        control = arm.name.removesuffix(f"+{arm.treatment}")
        if control not in controls:
            continue
        mine = [r for r in rows if r.arm == arm.name]
        base = {(r.query_id, r.sample): r for r in rows if r.arm == control}
        applied = [r for r in mine if r.treatment is not None and r.treatment.applied]
        summary = TreatmentSummary(arm=arm.name, control=control, treatment=arm.treatment, rows=len(mine),
                                   applied=len(applied), pairs=0)
        if arm.treatment in (WITHHELD, PLANTED):
            outcomes = Counter(r.treatment.outcome for r in applied if r.treatment and r.treatment.outcome)
            summary.outcomes = dict(outcomes)
            summary.not_measured = len(mine) - sum(outcomes.values())
            if arm.treatment == WITHHELD:
                summary.strict_answered = sum(1 for r in applied if r.treatment and r.treatment.outcome == "answered"
                                              and r.verifier.label == "STRICT")
        pairs = [(base[(r.query_id, r.sample)], r) for r in mine
                 if (r.query_id, r.sample) in base and r.contract.valid and base[(r.query_id, r.sample)].contract.valid]
        summary.pairs = len(pairs)
        golds = [(b.diagnosis.gold_in_answer, t.diagnosis.gold_in_answer) for b, t in pairs]
        summary.gold_changed = sum(1 for b, t in golds if b is not None and t is not None and b != t)
        summary.label_changed = sum(1 for b, t in pairs if b.verifier.label != t.verifier.label)
        summary.control_gold = sum(1 for b, _ in golds if b)
        summary.treated_gold = sum(1 for _, t in golds if t)
        out.append(summary)
    return out
