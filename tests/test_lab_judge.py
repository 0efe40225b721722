"""The optional judge: statements, then verdicts against the evidence as sent; unusable rows kept, not scored."""

from __future__ import annotations

import json
from pathlib import Path

from arborist.lab.config import JudgeSpec
from arborist.lab.judge import Judge
from arborist.lab.runner import execute, plan_run
from arborist.models.scripted import ScriptedProvider
from test_lab import GOOD, inputs, request, rows_of  # noqa: F401  (inputs is a fixture)


def verdicts(*kinds: str, relevance: str = "relevant") -> str:
    return json.dumps({"verdicts": [{"statement": i, "verdict": k, "evidence_ids": ["E1"], "reason": "r"}
                                    for i, k in enumerate(kinds, start=1)], "relevance": relevance})


def test_a_judged_run_scores_usable_answers_and_keeps_the_rest(tmp_path: Path, inputs: tuple[Path, Path]) -> None:  # noqa: F811
    answers = ScriptedProvider(*GOOD)
    judge_model = ScriptedProvider(
        json.dumps({"statements": ["Paris is the capital of France."]}), verdicts("supported"),
        json.dumps({"statements": ["The Tiber flows through Rome.", "Rome is old."]}),
        verdicts("supported", "unsupported", relevance="partial"),
        json.dumps({"statements": ["Spain's capital is Barcelona."]}), verdicts("contradicted"),
    )
    spec = JudgeSpec(statements_model_id="scripted:scripted", verdicts_model_id="scripted:scripted")
    judge = Judge(spec, judge_model, judge_model, tmp_path / "judge-cache")
    outcome = execute(plan_run(request(tmp_path, inputs), answers), answers, judge=judge)
    assert outcome.status.state == "complete" and judge_model.pending == 0
    judged = [json.loads(line) for line in (outcome.run_dir / "results/judge-per-query.jsonl").read_text().splitlines()]
    assert [j["status"] for j in judged] == ["judged", "judged", "judged", "contract_invalid"]
    assert [j["faithfulness"] for j in judged[:3]] == [1.0, 0.5, 0.0]
    # the verdicts model saw the evidence exactly as the answer model did
    row = rows_of(outcome.run_dir)[0]
    assert row["trace"]["prompt_messages"][-1]["content"] in judge_model.history[1].messages[1].content
    summary = json.loads((outcome.run_dir / "results/judge-summary.json").read_text())
    assert summary["statements"] == 4 and summary["supported"] == 2 and summary["contradicted"] == 1
    assert summary["faithfulness"] == 0.5 and summary["relevance"] == 2.5 / 3
    assert any("answer model" in note for note in summary["limitations"])  # scripted judged scripted
    assert "## Judge" in (outcome.run_dir / "summary.md").read_text()
    # judge calls are cached: the same run judged again calls nothing
    again = ScriptedProvider()
    judge2 = Judge(spec, again, again, tmp_path / "judge-cache")
    second = execute(plan_run(request(tmp_path, inputs), ScriptedProvider()), ScriptedProvider(), judge=judge2)
    assert not again.history
    assert json.loads((second.run_dir / "results/judge-summary.json").read_text())["cache_hits"] == 6


def test_a_judge_budget_leaves_later_rows_unjudged(tmp_path: Path, inputs: tuple[Path, Path]) -> None:  # noqa: F811
    answers = ScriptedProvider(*GOOD)
    judge_model = ScriptedProvider(json.dumps({"statements": ["Paris."]}), verdicts("supported"))
    spec = JudgeSpec(statements_model_id="scripted:other", verdicts_model_id="scripted:other", budget=2)
    outcome = execute(plan_run(request(tmp_path, inputs), answers), answers,
                      judge=Judge(spec, judge_model, judge_model, tmp_path / "jc"))
    judged = [json.loads(line)["status"] for line in
              (outcome.run_dir / "results/judge-per-query.jsonl").read_text().splitlines()]
    assert judged == ["judged", "budget_exhausted", "budget_exhausted", "budget_exhausted"]


def test_judge_options_need_judge(tmp_path: Path, inputs: tuple[Path, Path], run_cli) -> None:  # noqa: F811
    result = run_cli("lab", "run", "--corpus", inputs[0], "--evaluation", inputs[1],
                     "--out", tmp_path / "runs", "--model", "scripted", "--judge-budget", "3")
    assert result.exit_code == 1 and "--judge-budget need --judge" in result.stderr
