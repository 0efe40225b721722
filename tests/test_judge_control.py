"""A judge held to a control (`arborist.entailment.control`): its acceptance stands only if a second reading of
the same pair agrees; below its threshold the control is never asked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arborist.entailment import ControlledJudge, JudgeCache, control_for, load_judge, spec_for
from arborist.entailment.control import CONTRADICTION_PROMPT, NEUTRAL_PREMISE, STATES_PROMPT, control_digest
from arborist.errors import InputError
from arborist.verify import Label, Reason, Verdict, VerifierPolicy, verifier_policy_hash, verify_answer
from arborist.verify.judge import JudgeControl, JudgeError, JudgeSpec
from judges import PairJudge

BASE = JudgeSpec(kind="local", model="table", sha256="1" * 64, threshold=0.8)
PREMISE, CLAIM = "Coffee intake was not linked to heart disease in the cohort.", "Coffee does not cause heart disease."


def controlled(kind: str, threshold: float, judge_scores: dict[tuple[str, str], float],
               second_scores: dict[tuple[str, str], float] | None = None) -> tuple[ControlledJudge, PairJudge,
                                                                                  PairJudge | None]:
    control = control_for(kind, threshold)
    assert control is not None
    spec = BASE.model_copy(update={"control": control})
    inner = PairJudge(BASE, judge_scores)
    second = None if second_scores is None else PairJudge(BASE.model_copy(update={"prompt_digest": "2" * 64}),
                                                          second_scores)
    return ControlledJudge(spec, inner, second), inner, second


@pytest.mark.parametrize(("without", "accepted"), [(0.85, False), (0.3, True)])
def test_hypothesis_only_refuses_a_claim_the_judge_accepts_without_its_passage(without: float, accepted: bool) -> None:
    judge, inner, _ = controlled("hypothesis_only", 0.1, {(PREMISE, CLAIM): 0.9, (NEUTRAL_PREMISE, CLAIM): without})
    score = judge.score(PREMISE, CLAIM)
    assert (score >= BASE.threshold) is accepted
    # accepted: the judge's own score; refused: below the threshold by as much as the lift falls short of 0.1
    assert score == pytest.approx(0.9 if accepted else 0.8 + (0.9 - 0.85) - 0.1)
    assert inner.asked == [(PREMISE, CLAIM), (NEUTRAL_PREMISE, CLAIM)]


@pytest.mark.parametrize(("kind", "asked", "accepted"), [("contradiction", 0.7, False), ("contradiction", 0.2, True),
                                                          ("states", 0.3, False), ("states", 0.9, True)])
def test_a_second_question_must_agree(kind: str, asked: float, accepted: bool) -> None:
    judge, inner, second = controlled(kind, 0.5, {(PREMISE, CLAIM): 0.95}, {(PREMISE, CLAIM): asked})
    assert (judge.score(PREMISE, CLAIM) >= BASE.threshold) is accepted
    assert second is not None and second.asked == [(PREMISE, CLAIM)] and inner.asked == [(PREMISE, CLAIM)]


def test_below_its_threshold_the_control_is_never_asked() -> None:
    judge, inner, second = controlled("states", 0.5, {(PREMISE, CLAIM): 0.6}, {(PREMISE, CLAIM): 1.0})
    assert judge.score(PREMISE, CLAIM) == pytest.approx(0.6)
    assert second is not None and second.asked == [] and len(inner.asked) == 1


def test_a_controlled_judge_s_refusal_leaves_the_claim_unverified() -> None:
    quote = "It was closed to traffic in 2019 after engineers found cracks in its main span."
    claim = "The Harlow Bridge has been shut to vehicles since 2019 because of cracking in its main span."
    premise = f"Harlow Bridge: {quote}"
    evidence = [{"id": "E1", "title": "Harlow Bridge", "text": f"The Harlow Bridge opened in 1932. {quote}"}]
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}

    def label(without: float) -> Any:
        judge, _, _ = controlled("hypothesis_only", 0.1, {(premise, claim): 0.93, (NEUTRAL_PREMISE, claim): without})
        return verify_answer("Why was the Harlow Bridge closed?", "claim_lattice", evidence, answer,
                             VerifierPolicy(judged_claims="strict"), judge=judge)

    kept, refused = label(0.2), label(0.9)
    assert kept.label is Label.STRICT and kept.claims[0].verdict is Verdict.VERIFIED_ENTAILED
    assert refused.label is not Label.STRICT and Reason.NOT_ENTAILED in refused.claims[0].reasons
    assert "+hypothesis_only@0.1/" in " ".join(refused.claims[0].notes)  # the note names the control


def test_a_control_is_part_of_the_judge_s_identity_and_the_verifier_hash() -> None:
    plain = spec_for("local")
    assert plain is not None and "control" not in plain.model_dump()  # no control: hashed as before controls
    hashes = {verifier_policy_hash(VerifierPolicy(entailment=s)) for s in (
        plain, spec_for("local", control="hypothesis_only"), spec_for("local", control="hypothesis_only",
                                                                      control_threshold=0.2),
        spec_for("local", control="contradiction"), spec_for("local", control="states"))}
    assert len(hashes) == 5
    spec = spec_for("local", control="states")
    assert spec is not None and spec.control is not None
    assert VerifierPolicy.model_validate(VerifierPolicy(entailment=spec).model_dump()).entailment == spec
    assert spec.judge_id.startswith(plain.judge_id + "+states@")
    assert control_digest("states") != control_digest("contradiction")
    with pytest.raises(InputError, match="unknown judge control 'maybe'"):
        spec_for("local", control="maybe")


def test_a_controlled_judge_asks_only_what_its_spec_pins() -> None:
    stale = JudgeControl(kind="hypothesis_only", threshold=0.1, digest="0" * 64)
    with pytest.raises(JudgeError, match="not what its spec pins"):
        ControlledJudge(BASE.model_copy(update={"control": stale}), PairJudge(BASE, {}))
    control = control_for("hypothesis_only")
    other = BASE.model_copy(update={"threshold": 0.5})
    with pytest.raises(JudgeError, match="wraps the judge its spec names"):
        ControlledJudge(BASE.model_copy(update={"control": control}), PairJudge(other, {}))
    with pytest.raises(JudgeError, match="needs its second question"):
        ControlledJudge(BASE.model_copy(update={"control": control_for("states")}), PairJudge(BASE, {}))


@pytest.mark.parametrize(("kind", "prompt"), [("contradiction", CONTRADICTION_PROMPT), ("states", STATES_PROMPT)])
def test_load_judge_asks_the_same_model_the_control_s_question(kind: str, prompt: Any, tmp_path: Path) -> None:
    spec = spec_for("local", control=kind)
    assert spec is not None
    judge = load_judge(spec, cache=JudgeCache(tmp_path / "judge.db"))  # a local judge loads its weights when asked
    assert isinstance(judge, ControlledJudge) and judge.spec == spec
    assert judge._second is not None and judge._second.spec.prompt_digest == prompt.digest
    assert judge._judge.spec == spec.model_copy(update={"control": None})
    hypothesis = load_judge(spec_for("local", control="hypothesis_only"), cache=JudgeCache(tmp_path / "judge.db"))
    assert isinstance(hypothesis, ControlledJudge) and hypothesis._second is None


def test_the_cli_s_entailment_control_names_the_control() -> None:
    from arborist.cli.answer_options import entailment_from

    opts = {"entailment": "local", "entailment_model": None, "entailment_threshold": None, "entailment_url": None}
    assert entailment_from({**opts, "entailment_control": "none"}) == spec_for("local")
    spec = entailment_from({**opts, "entailment_control": "contradiction"})
    assert spec is not None and spec.control == control_for("contradiction")
