"""Experiments on top of answer-quality runs: statistics, the multipart prompt, sweeps, paired comparisons.

The model is the scripted provider (queued answers); everything else runs for
real: stores, retrieval, the engine and its answer cache, the verifier.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import Result

from arborist.cli import lab_cmd
from arborist.entailment import default_spec
from arborist.errors import InputError, StoreError
from arborist.lab import rundir
from arborist.lab.checks import validate_run
from arborist.lab.compare import compare_runs, render
from arborist.lab.metrics.headline import completeness
from arborist.lab.runner import RunRequest, plan_run
from arborist.lab.stats import Interval, bootstrap_mean, mcnemar_exact, verdict
from arborist.lab.sweep import (
    SWEEP_JSON,
    execute_sweep,
    load_sweep,
    parse_family,
    plan_continue,
    plan_sweep,
    stored_request,
)
from arborist.models.scripted import ScriptedProvider
from arborist.prompting.modes import prompt_names, system_prompt
from arborist.verify import VerifierPolicy
from test_lab import GOOD, claim, do_run, inputs, request, rows_of  # noqa: F401 (inputs is a fixture)

PNG = b"\x89PNG\r\n\x1a\n"
NOBODY = claim("Nobody knows.")


# -- statistics -----------------------------------------------------------------------


def test_mcnemar_exact_matches_hand_computed_tables() -> None:
    # 1 vs 9 discordant pairs: p = 2 * (C(10,0) + C(10,1)) / 2^10 = 22 / 1024.
    assert mcnemar_exact(1, 9) == pytest.approx(22 / 1024)
    assert mcnemar_exact(9, 1) == pytest.approx(22 / 1024)
    # 0 vs 5: p = 2 / 2^5.
    assert mcnemar_exact(0, 5) == pytest.approx(2 / 32)
    assert mcnemar_exact(4, 4) == pytest.approx(1.0)
    assert mcnemar_exact(0, 0) == 1.0
    with pytest.raises(ValueError):
        mcnemar_exact(-1, 2)


def test_bootstrap_interval_covers_the_true_delta_and_is_reproducible() -> None:
    rng = np.random.default_rng(7)
    covered = 0
    trials = 40
    for _ in range(trials):
        diffs = rng.normal(0.2, 0.5, 60)
        iv = bootstrap_mean(list(diffs), seed=1, resamples=2000)
        assert iv is not None and iv.low < float(np.mean(diffs)) < iv.high
        covered += iv.low <= 0.2 <= iv.high
    assert covered >= 0.85 * trials  # nominal 95%
    paired = list(rng.normal(0.1, 0.3, 30))
    first, again = bootstrap_mean(paired, seed=3), bootstrap_mean(paired, seed=3)
    assert first == again  # a seeded result is reproducible
    assert bootstrap_mean(paired, seed=4) != first  # and the seed is what fixes it
    assert bootstrap_mean([0.5]) is None
    assert bootstrap_mean([0.25, 0.25, 0.25]) == Interval(low=0.25, high=0.25, confidence=0.95)


def test_the_verdict_needs_an_interval_without_zero_and_an_effect_above_the_floor() -> None:
    assert verdict(0.10, Interval(low=0.02, high=0.18, confidence=0.95), 0.05) == "signal"
    assert verdict(-0.10, Interval(low=-0.18, high=-0.02, confidence=0.95), 0.05) == "signal"
    assert verdict(0.10, Interval(low=-0.01, high=0.2, confidence=0.95), 0.05) == "noise"
    assert verdict(0.03, Interval(low=0.01, high=0.05, confidence=0.95), 0.05) == "noise"
    assert verdict(1 / 20, Interval(low=0.01, high=0.1, confidence=0.95), 0.05) == "signal"  # exactly the floor
    assert verdict(0.5, None, 0.05) == "noise"
    # a binary metric also needs McNemar: 0 vs 4 discordant pairs (p = 0.125) is noise whatever the interval says
    assert verdict(0.067, Interval(low=0.017, high=0.133, confidence=0.95), 0.05, p_value=0.125) == "noise"
    assert verdict(0.30, Interval(low=0.1, high=0.5, confidence=0.95), 0.05, p_value=0.0117) == "signal"


# -- the multipart prompt ---------------------------------------------------------------


def test_the_multipart_prompt_is_shipped_for_every_mode() -> None:
    assert prompt_names()[:2] == ("baseline", "multipart")
    for mode in ("quote", "claim_lattice", "claim_lattice_pointer"):
        text = system_prompt(mode, name="multipart")
        assert text != system_prompt(mode) and "request" in text and '"abstained_requests"' in text
        assert system_prompt(mode, name="baseline") == system_prompt(mode)
    with pytest.raises(InputError, match="shipped prompts: baseline, multipart"):
        system_prompt("quote", name="nope")


def test_a_named_prompt_reaches_the_model_and_the_policy_hash(tmp_path: Path, inputs: tuple[Path, Path]) -> None:  # noqa: F811
    default = plan_run(request(tmp_path, inputs), ScriptedProvider())
    baseline = plan_run(request(tmp_path, inputs, prompt="baseline"), ScriptedProvider())
    assert baseline.config.arms == default.config.arms and baseline.config.prompt == "baseline"
    assert default.config.arms[0].policy.system_prompt is None  # shares cache with `query`'s default
    run_dir, _, provider = do_run(request(tmp_path, inputs, prompt="multipart", limit=1), GOOD[0])
    config = rundir.load_config(run_dir)
    assert config.prompt == "multipart"
    assert config.arms[0].governance_policy_hash != default.config.arms[0].governance_policy_hash
    assert provider.history[0].messages[0].content == system_prompt("claim_lattice", name="multipart")
    assert (run_dir / "inputs/prompt.txt").read_text() == system_prompt("claim_lattice", name="multipart")
    quote = plan_run(request(tmp_path, inputs, prompt="multipart", arms=("claim_lattice", "quote")), ScriptedProvider())
    assert quote.config.arms[1].policy.system_prompt == system_prompt("quote", name="multipart")
    with pytest.raises(InputError, match="neither a shipped prompt"):
        plan_run(request(tmp_path, inputs, prompt="multipartt"), ScriptedProvider())


# -- sweeps ---------------------------------------------------------------------------------


def sweep(tmp_path: Path, inputs: tuple[Path, Path], spec: str, *answers: str, **kw: Any) -> tuple[Path, Any, ScriptedProvider]:  # noqa: F811
    provider = ScriptedProvider(*answers)
    base = dataclasses.replace(request(tmp_path, inputs, **kw), run_root=tmp_path / "sweeps")
    plan = plan_sweep(base, spec, provider)
    out = execute_sweep(plan, provider)
    return out.sweep_dir, out.record, provider


def test_a_sweep_runs_one_validated_run_per_value_and_plots_each_metric(
    tmp_path: Path, inputs: tuple[Path, Path]  # noqa: F811
) -> None:
    # q4 ranks nothing, so its prompt is the same at k=1 and k=3: the second cell replays its completion
    sweep_dir, record, provider = sweep(tmp_path, inputs, "evidence-k=1,3", *GOOD, *GOOD[:3])
    assert record.state == "complete" and record.exit_code == 0 and provider.pending == 0
    assert sorted(p.name for p in sweep_dir.iterdir()) == ["plots", "runs", "summary.md", "sweep.json"]
    saved = load_sweep(sweep_dir)
    assert saved.family == "evidence-k" and saved.values == ["1", "3"] and saved.state == "complete"
    assert [c.options for c in saved.cells] == [{"evidence_k": 1}, {"evidence_k": 3}]
    for cell in saved.cells:
        run_dir = sweep_dir / str(cell.run_dir)
        assert run_dir.parent == sweep_dir / "runs" and all(c.ok for c in validate_run(run_dir))
        assert cell.state == "complete"
    assert [(c.provider_calls, c.cache_hits) for c in saved.cells] == [(4, 0), (3, 1)]
    admitted = [c.metrics["claim_lattice"]["admitted_chunks"].value for c in saved.cells]
    assert admitted[0] == 0.75 and admitted[1] is not None and admitted[1] > 1.0  # q4 ranks nothing
    gold = saved.cells[0].metrics["claim_lattice"]["gold"]
    assert (gold.value, gold.rows_covered) == (0.5, 4)  # q1, q2 right; q3 wrong; q4 has no gold in the corpus
    comp = saved.cells[0].metrics["claim_lattice"]["completeness"]
    assert (comp.rows_covered, comp.value) == (3, 2 / 3)  # q1, q2 answered, q3 not; q4's answer is unusable
    assert set(saved.plots) == {"valid", "gold", "strict", "strict_quoted", "strict_right", "completeness", "admitted_chunks",
                                "answer_runes", "diagnosis"}
    right = saved.cells[0].metrics["claim_lattice"]["strict_right"]  # measured on the STRICT rows only
    assert right.rows_covered == round(saved.cells[0].metrics["claim_lattice"]["strict"].value * 4)
    # Where each cell's answers lost the gold: q1, q2 kept it, q3's answer lacks it, q4 has no gold to lose.
    lost = saved.cells[1].diagnosis["claim_lattice"]
    assert (lost.counts["none"], lost.counts["generation"], lost.not_measured) == (2, 1, 1)
    assert sum(lost.counts.values()) == 3
    for path in saved.plots.values():
        assert (sweep_dir / path).read_bytes().startswith(PNG)
    summary = (sweep_dir / "summary.md").read_text()
    assert "| 1 | claim_lattice | complete |" in summary and "| 3 | claim_lattice | complete |" in summary
    assert "plots/gold.png" in summary and "plots/diagnosis.png" in summary
    # Every cell against the reference, paired as `experiments compare` pairs them; 5 (the default) was not
    # swept, so the reference is the first value.
    assert saved.reference == "1" and saved.cells[0].paired == {}
    versus = compare_runs(sweep_dir / str(saved.cells[0].run_dir), sweep_dir / str(saved.cells[1].run_dir))
    paired = saved.cells[1].paired["claim_lattice"]
    assert set(paired) == {"gold", "strict", "completeness"}
    assert (paired["gold"].delta, paired["gold"].verdict) == (versus.delta, versus.verdict)
    assert "## Paired against evidence-k=1 (the first value)" in summary
    assert "| 3 | claim_lattice | 0 (0%) | 0 (0%) | 0 (0%) | 1 (33%) | 0 (0%) | 2 (67%) | 1 |" in summary
    # A second run of the sweep is served from the cache.
    again_dir, again, provider = sweep(tmp_path, inputs, "evidence-k=1,3")
    assert again_dir != sweep_dir and provider.history == [] and again.state == "complete"
    assert [(c.provider_calls, c.cache_hits) for c in again.cells] == [(0, 4), (0, 4)]


def test_sweep_cells_share_the_answer_cache_with_earlier_runs(tmp_path: Path, inputs: tuple[Path, Path]) -> None:  # noqa: F811
    do_run(request(tmp_path, inputs), *GOOD)  # the baseline prompt, answered once
    _, record, provider = sweep(tmp_path, inputs, "prompt=baseline,multipart", *GOOD)
    assert [(c.value, c.provider_calls, c.cache_hits) for c in record.cells] == [
        ("baseline", 0, 4), ("multipart", 4, 0)]
    assert {c.messages[0].content for c in provider.history} == {system_prompt("claim_lattice", name="multipart")}
    assert record.reference == "baseline" and record.cells[0].paired == {}  # the default, swept
    assert record.cells[1].paired["claim_lattice"]["gold"].questions == 4


def test_a_sweep_stopped_by_its_budget_continues_in_place(tmp_path: Path, inputs: tuple[Path, Path]) -> None:  # noqa: F811
    sweep_dir, record, provider = sweep(tmp_path, inputs, "evidence-k=1,3", *GOOD, GOOD[0], generation_budget=5)
    assert record.state == "budget_exhausted" and record.exit_code == 5 and len(provider.history) == 5
    assert [c.state for c in record.cells] == ["complete", "budget_exhausted"]
    assert "--continue-from" in record.message
    first_dir = record.cells[1].run_dir
    provider = ScriptedProvider(*GOOD[1:3])  # q4 is replayed from the first cell
    plan = plan_continue(sweep_dir, provider)
    assert plan.plans[0] is None  # the finished cell is kept as it is
    out = execute_sweep(plan, provider)
    assert out.sweep_dir == sweep_dir and out.record.state == "complete" and provider.pending == 0
    cell = out.record.cells[1]
    assert cell.previous_run_dirs == [first_dir] and cell.run_dir != first_dir and cell.reused_rows == 1
    rows = rows_of(sweep_dir / str(cell.run_dir))
    assert sorted(r["query_id"] for r in rows) == ["q1", "q2", "q3", "q4"]
    assert out.record.cells[0].run_dir == record.cells[0].run_dir and len(out.record.continued_at) == 1
    assert all(c.ok for c in validate_run(sweep_dir / str(cell.run_dir)))


def test_a_sweep_still_running_elsewhere_is_not_continued(tmp_path: Path, inputs: tuple[Path, Path]) -> None:  # noqa: F811
    sweep_dir, _, _ = sweep(tmp_path, inputs, "evidence-k=1", *GOOD)
    data = json.loads((sweep_dir / SWEEP_JSON).read_text())
    data.update(state="running", pid=os.getppid())  # a live process that is not this one
    (sweep_dir / SWEEP_JSON).write_text(json.dumps(data))
    with pytest.raises(InputError, match="still running"):
        plan_continue(sweep_dir, ScriptedProvider())


@pytest.mark.parametrize(("spec", "message"), [
    ("temperature=0,1", "unknown sweep family 'temperature'; valid families: evidence-k=1,3,5,8,12, context-runes="),
    ("evidence-k", "give the values of evidence-k"),
    ("evidence-k=1,x", "'x' of evidence-k is not a whole number"),
    ("chunking=600", "'600' of chunking is not CHUNK/OVERLAP"),
    ("layout=tail,tail", "given twice"),
])
def test_bad_families_are_one_line_errors(spec: str, message: str) -> None:
    with pytest.raises(InputError, match=message.replace("(", r"\(")) as err:
        parse_family(spec)
    assert "\n" not in str(err.value)


def test_bad_cell_values_are_refused_before_anything_is_written(tmp_path: Path, inputs: tuple[Path, Path]) -> None:  # noqa: F811
    for spec in ("layout=tail,sideways", "evidence-k=0,3", "prompt=baseline,nope"):
        with pytest.raises(InputError):
            sweep(tmp_path, inputs, spec)
    assert not (tmp_path / "sweeps").exists()


# -- comparisons ----------------------------------------------------------------------------


def test_compare_pairs_questions_and_gives_a_verdict(tmp_path: Path, inputs: tuple[Path, Path]) -> None:  # noqa: F811
    a, _, _ = do_run(request(tmp_path, inputs), *GOOD)
    b, _, _ = do_run(request(tmp_path, inputs, policy_values={"evidence_k": 3}), GOOD[0], NOBODY, NOBODY, NOBODY)
    c = compare_runs(a, b, metric="gold")
    # gold A = [1, 1, 0, 0], B = [1, 0, 0, 0] (q4's gold is not in the corpus but the row has gold answers)
    assert (c.questions_paired, c.pairs, c.a.mean, c.b.mean, c.delta) == (4, 4, 0.5, 0.25, -0.25)
    assert c.mcnemar is not None and (c.mcnemar.only_a, c.mcnemar.only_b, c.mcnemar.both, c.mcnemar.neither) == (1, 0, 1, 2)
    assert c.mcnemar.p_value == 1.0
    assert c.interval is not None and c.interval.low <= -0.25 <= c.interval.high and c.verdict == "noise"
    assert compare_runs(a, b, metric="gold") == c  # seeded
    # Why: q2's answer lost the gold at generation in B, the other measured rows lost it where A did.
    assert (c.moves, c.unmoved) == ({"none -> generation": 1}, 2)
    assert "where the gold was lost, A -> B: none -> generation 1; same boundary 2" in render(c)
    assert compare_runs(a, b, metric="valid").delta == 0.0
    assert "verifier" not in compare_runs(a, b, metric="strict").note
    relabelled, _, _ = do_run(request(tmp_path, inputs, verifier=VerifierPolicy(title_relevance=False)))  # from the cache, other verifier
    assert "labelled by different verifier policies" in compare_runs(a, relabelled, metric="strict").note
    assert compare_runs(a, relabelled, metric="gold").note == ""  # the verifier does not touch gold
    comp = compare_runs(a, b, metric="completeness")  # q4's answer is unusable in both runs: not measured
    assert comp.questions_paired == 3 and len(comp.unpaired.not_measured) == 1 and comp.verdict == "noise"


def test_compare_pools_one_change_over_several_evaluations(
    tmp_path: Path, inputs: tuple[Path, Path], run_cli: Callable[..., Result]  # noqa: F811
) -> None:
    a, _, _ = do_run(request(tmp_path, inputs), *GOOD)
    b, _, _ = do_run(request(tmp_path, inputs, policy_values={"evidence_k": 3}), GOOD[0], NOBODY, NOBODY, NOBODY)
    # A second evaluation over the same corpus (its first two questions): answered from the cache.
    doc = json.loads(inputs[1].read_text())
    second = tmp_path / "second.json"
    second.write_text(json.dumps({**doc, "questions": doc["questions"][:2]}), encoding="utf-8")
    a2, _, _ = do_run(request(tmp_path, (inputs[0], second)))
    b2, _, _ = do_run(request(tmp_path, (inputs[0], second), policy_values={"evidence_k": 3}))
    with pytest.raises(InputError, match="different evaluations"):
        compare_runs(a, b2)
    c = compare_runs(a, b, also=[(a2, b2)])
    # gold per question: pair 1 A [1, 1, 0, 0] B [1, 0, 0, 0]; pair 2 A [1, 1] B [1, 0]
    assert [s.delta for s in c.sets] == [-0.25, -0.5] and c.questions_paired == 6
    assert c.delta == pytest.approx(-2 / 6) and (c.a.mean, c.b.mean) == (4 / 6, 2 / 6)
    assert c.mcnemar is not None and (c.mcnemar.only_a, c.mcnemar.both, c.mcnemar.neither) == (2, 2, 2)
    assert c.verdict == "noise" and c.mcnemar.p_value == 0.5  # 2 vs 0 discordant pairs
    assert "pooled over 2 pairs" in c.note and "pair 2:" in render(c) and "A: the A runs of 2 pairs" in render(c)
    assert compare_runs(a, b).sets == []  # one pair: its own figures, as before
    other, _, _ = do_run(request(tmp_path, (inputs[0], second), policy_values={"evidence_k": 2}))
    with pytest.raises(InputError, match="pair 2's B .* another policy than pair 1's"):
        compare_runs(a, b, also=[(a2, other)])
    out = run_cli("lab", "compare", a, b, "--also", a2, b2, "--json")
    assert out.exit_code == 0, out.stderr
    assert [s["questions_paired"] for s in json.loads(out.stdout)["sets"]] == [4, 2]


def test_compare_reports_unpaired_rows_and_handles_arms(tmp_path: Path, inputs: tuple[Path, Path]) -> None:  # noqa: F811
    a, _, _ = do_run(request(tmp_path, inputs), *GOOD)
    quote = json.dumps({"quotes": [{"evidence_id": "E1", "text": "Paris is the capital of France."}],
                        "abstained_requests": []})
    two, _, _ = do_run(request(tmp_path, inputs, arms=("claim_lattice", "quote"), limit=2,
                               policy_values={"evidence_k": 2}), GOOD[0], quote, GOOD[1], quote)
    with pytest.raises(InputError, match="pick one with --arm-b"):
        compare_runs(a, two, arm_a=None)
    c = compare_runs(a, two, arm_b="quote")
    assert c.b.arm == "quote" and c.questions_paired == 2
    assert c.unpaired.only_in_a == ["q3 [sample 0]", "q4 [sample 0]"]
    same = compare_runs(two, two, arm_a="claim_lattice", arm_b="quote")
    assert (same.a.mean, same.b.mean) == (1.0, 0.5)
    with pytest.raises(InputError, match="both sides are arm"):
        compare_runs(two, two, arm_a="quote")


def test_compare_refuses_runs_over_different_evaluations(tmp_path: Path, inputs: tuple[Path, Path]) -> None:  # noqa: F811
    a, _, _ = do_run(request(tmp_path, inputs, limit=1), GOOD[0])
    inputs[1].write_text(inputs[1].read_text() + "\n", encoding="utf-8")
    b, _, _ = do_run(request(tmp_path, inputs, limit=1))
    with pytest.raises(InputError, match="different evaluations") as err:
        compare_runs(a, b)
    assert "\n" not in str(err.value)


def test_completeness_is_read_from_rows_that_carry_it() -> None:
    assert completeness({}) is None
    assert completeness({"completeness": 0.5}) == 0.5
    assert completeness({"completeness": {"answered": 1, "total": 4}}) == 0.25
    assert completeness({"completeness": {"rate": 0.75}}) == 0.75
    assert completeness({"completeness": {"requests": [{"answered": True}, {"answered": False}]}}) == 0.5
    assert completeness({"completeness": [{"answered": True}]}) == 1.0
    assert completeness({"completeness": {"requests": 0, "answered": 0}}) is None
    # The row shape of request completeness (lab/metrics/completeness.py): the stated rate wins, None stays None.
    measured = {"requests": [{"id": "q#1", "answered": True}, {"id": "q#2", "answered": False}],
                "measured": 2, "answered": 1, "supported": 0, "answered_rate": 0.5, "supported_rate": 0.0}
    assert completeness({"completeness": measured}) == 0.5
    unmeasured = {"requests": [{"id": "q#1", "answered": None}], "measured": 0, "answered": 0, "supported": 0,
                  "answered_rate": None, "supported_rate": None}
    assert completeness({"completeness": unmeasured}) is None
    assert completeness({"completeness": [{"answered": None}, {"answered": True}]}) == 1.0


# -- the CLI ----------------------------------------------------------------------------------


def test_sweep_takes_every_option_of_run() -> None:
    def options(command: Any) -> dict[str, tuple[Any, Any]]:
        return {p.name: (p.default, p.help) for p in command.params if p.name != "continue_from"}

    run_options = options(lab_cmd.run)
    sweep_options = options(lab_cmd.sweep)
    assert run_options.keys() <= sweep_options.keys()
    assert all(sweep_options[n] == v for n, v in run_options.items())
    assert set(sweep_options) - set(run_options) == {"family"}


def test_cli_sweep_then_compare_two_of_its_cells(
    tmp_path: Path, inputs: tuple[Path, Path], run_cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch,  # noqa: F811
) -> None:
    provider = ScriptedProvider(*GOOD, GOOD[0], NOBODY, NOBODY, NOBODY)
    monkeypatch.setattr(lab_cmd, "make_provider_from", lambda _opts: provider)
    args = ["--corpus", inputs[0], "--evaluation", inputs[1], "--routes", "bm25,title",
            "--cache-directory", tmp_path / "cache", "--model", "scripted", "--answerability-threshold", "0.3"]
    result = run_cli("lab", "sweep", "--family", "layout=tail,bookend", *args, "--out", tmp_path / "s")
    assert result.exit_code == 0, result.stderr
    assert "cell 1/2: layout=tail" in result.stderr and "plot gold:" in result.stdout
    sweep_dir = Path(result.stdout.split("sweep: ", 1)[1].splitlines()[0])
    cells = load_sweep(sweep_dir).cells
    a, b = (sweep_dir / str(c.run_dir) for c in cells)
    assert {rundir.load_config(r).verifier_policy.answerability_threshold for r in (a, b)} == {0.3}  # every cell's
    text = run_cli("lab", "compare", a, b, "--metric", "gold")
    assert text.exit_code == 0, text.stderr
    assert "delta B - A: -0.250" in text.stdout and "verdict: noise" in text.stdout
    as_json = json.loads(run_cli("lab", "compare", a, b, "--json", "--floor", "0.5").stdout)
    assert as_json["floor"] == 0.5 and as_json["questions_paired"] == 4
    record = json.loads((sweep_dir / SWEEP_JSON).read_text())  # as written before requests carried the verifier
    old = {k: v for k, v in record["request"].items() if k != "verifier"}
    assert stored_request({**old, "demote_missed_answer": True}).verifier == VerifierPolicy(demote_missed_answer=True)
    assert stored_request(record["request"]).verifier == VerifierPolicy(answerability_threshold=0.3,
                                                                        entailment=default_spec())
    (sweep_dir / SWEEP_JSON).write_text(json.dumps({**record, "request": {**old, "demote_missed_answer": False}}))
    again = run_cli("lab", "sweep", "--continue-from", sweep_dir, "--json")
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout)["sweep"]["state"] == "complete" and provider.pending == 0


def test_cli_sweep_errors_are_one_line(
    tmp_path: Path, inputs: tuple[Path, Path], run_cli: Callable[..., Result]  # noqa: F811
) -> None:
    base = ["--corpus", inputs[0], "--evaluation", inputs[1], "--out", tmp_path / "s", "--model", "scripted"]
    for args, message in [
        (["--family", "depth=1,2", *base], "Error: unknown sweep family 'depth'; valid families: evidence-k="),
        (["--family", "evidence-k=1,3", "--evidence-k", "4", *base], "drop --evidence-k"),
        (["--family", "layout=tail,bookend", "--user-payload-layout", "tail", *base], "drop --user-payload-layout"),
        (base, "Error: give --family NAME=V1,V2"),
        (["--continue-from", tmp_path, "--evidence-k", "3"], "drop --evidence-k"),
        (["--continue-from", tmp_path], "is not a sweep directory"),
    ]:
        result = run_cli("lab", "sweep", *args)
        assert result.exit_code == 1 and message in result.stderr and result.stderr.count("\n") == 1, result.stderr
    assert not (tmp_path / "s").exists()
    result = run_cli("lab", "compare", tmp_path / "x", tmp_path / "y")
    assert result.exit_code == 1 and result.stderr.startswith("Error: run directory")


def test_a_run_with_the_named_prompt_from_the_cli(
    tmp_path: Path, inputs: tuple[Path, Path], run_cli: Callable[..., Result]  # noqa: F811
) -> None:
    result = run_cli("lab", "run", "--corpus", inputs[0], "--evaluation", inputs[1],
                     "--out", tmp_path / "runs", "--model", "scripted", "--prompt", "multipart", "--limit", "1",
                     "--cache-directory", tmp_path / "c", "--json")
    assert result.exit_code == 1 and "every row failed" in result.stderr  # nothing queued: no answer at all
    run_dir = Path(json.loads(result.stdout)["run_dir"])
    assert (run_dir / "inputs/prompt.txt").read_text() == system_prompt("claim_lattice", name="multipart")
    bad = run_cli("lab", "run", "--corpus", inputs[0], "--evaluation", inputs[1],
                  "--out", tmp_path / "runs", "--model", "scripted", "--prompt", "nope")
    assert bad.exit_code == 1 and "neither a shipped prompt (baseline, multipart) nor a file" in bad.stderr


def test_run_request_defaults_do_not_drift() -> None:
    """The sweep stores the shared options as a RunRequest; a fresh one round-trips through its JSON."""
    from arborist.lab.sweep import _REQUEST

    req = RunRequest(run_root=Path("/tmp/x"), arms=("quote",), policy_values={"evidence_k": 3}, prompt="multipart")
    assert _REQUEST.validate_python(_REQUEST.dump_python(req, mode="json")) == req


def test_a_killed_sweep_continues_from_what_is_on_disk(tmp_path: Path, inputs: tuple[Path, Path]) -> None:  # noqa: F811
    """kill -9 mid-cell leaves sweep.json and the cell's status `running`; the cell after it never started."""
    import subprocess
    import sys

    sweep_dir, record, _ = sweep(tmp_path, inputs, "evidence-k=1,2,3", *GOOD, GOOD[0], generation_budget=5)
    assert [c.state for c in record.cells] == ["complete", "budget_exhausted", "pending"]
    data = json.loads((sweep_dir / SWEEP_JSON).read_text())
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    data.update(state="running", pid=int(dead.stdout))
    data["cells"][1]["state"] = "running"
    (sweep_dir / SWEEP_JSON).write_text(json.dumps(data))
    status_path = sweep_dir / str(record.cells[1].run_dir) / "status.json"
    status = json.loads(status_path.read_text())
    status.update(state="running", exit_code=None, ended_at=None)
    status_path.write_text(json.dumps(status))
    provider = ScriptedProvider(*GOOD[1:3], *GOOD[:3])  # q4 (nothing ranked) is replayed in the later cells
    out = execute_sweep(plan_continue(sweep_dir, provider), provider)
    assert out.record.state == "complete" and provider.pending == 0
    assert [c.state for c in out.record.cells] == ["complete", "complete", "complete"]
    assert [(c.provider_calls, c.reused_rows) for c in out.record.cells] == [(4, 0), (2, 1), (3, 0)]
    for cell in out.record.cells:
        assert all(c.ok for c in validate_run(sweep_dir / str(cell.run_dir)))


def test_ctrl_c_interrupts_a_sweep_with_exit_130(tmp_path: Path, inputs: tuple[Path, Path]) -> None:  # noqa: F811
    from arborist.models.base import Completion, GenerationSettings, Message

    class InterruptedThirdCall(ScriptedProvider):
        def complete(self, messages: list[Message], settings: GenerationSettings,
                     json_schema: dict[str, Any] | None = None) -> Completion:
            if len(self.history) == 2:
                raise KeyboardInterrupt
            return super().complete(messages, settings, json_schema)

    provider = InterruptedThirdCall(*GOOD)
    base = dataclasses.replace(request(tmp_path, inputs), run_root=tmp_path / "sweeps")
    out = execute_sweep(plan_sweep(base, "layout=tail,bookend", provider), provider)
    assert (out.record.state, out.record.exit_code) == ("interrupted", 130)
    assert [c.state for c in out.record.cells] == ["interrupted", "pending"]
    assert (out.sweep_dir / "summary.md").is_file() and "interrupted" in out.record.message


def test_a_prompt_sweep_takes_files_and_records_their_absolute_path(
    tmp_path: Path, inputs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch  # noqa: F811
) -> None:
    (tmp_path / "terse.txt").write_text("Answer in JSON from the evidence only.", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    _, record, provider = sweep(tmp_path, inputs, "prompt=multipart,terse.txt", GOOD[0], GOOD[0], limit=1)
    assert record.state == "complete"
    assert [c.options["prompt"] for c in record.cells] == ["multipart", str(tmp_path / "terse.txt")]
    assert provider.history[1].messages[0].content == "Answer in JSON from the evidence only."


# -- completion replay ------------------------------------------------------------------


def test_a_cell_whose_prompts_did_not_change_replays_their_completions(
    tmp_path: Path, inputs: tuple[Path, Path]  # noqa: F811
) -> None:
    """Rune budgets that bind at neither value send the same words: the second cell asks the model nothing."""
    sweep_dir, record, provider = sweep(tmp_path, inputs, "context-runes=24000,40000", *GOOD)
    assert record.state == "complete" and provider.pending == 0 and len(provider.history) == 4
    assert [(c.provider_calls, c.cache_hits) for c in record.cells] == [(4, 0), (0, 4)]
    first, second = (rows_of(sweep_dir / str(c.run_dir)) for c in record.cells)
    assert {r["source"] for r in second} == {"replay"}
    assert [r["answer"] for r in second] == [r["answer"] for r in first]  # the same labels, re-verified
    summary = json.loads((sweep_dir / str(record.cells[1].run_dir) / "results" / "answer-contract-summary.json")
                         .read_text())
    usage = summary["arms"]["claim_lattice"]["usage"]
    assert (usage["provider_calls"], usage["cache_hits"], usage["replays"]) == (0, 4, 4)
    # --burn asks again (and the budget counts those calls), replaying nothing
    _, burned, provider = do_run(request(tmp_path, inputs, policy_values={"context_runes": 40000}, burn=True), *GOOD)
    assert (burned.provider_calls, burned.cache_hits) == (4, 0) and provider.pending == 0


def test_answers_served_from_the_answer_cache_feed_later_replays(
    tmp_path: Path, inputs: tuple[Path, Path]  # noqa: F811
) -> None:
    """Answers produced before the completion cache existed are replayable once a run has served them."""
    do_run(request(tmp_path, inputs), *GOOD)
    (tmp_path / "cache" / "completions.sqlite").unlink()
    for wal in (tmp_path / "cache").glob("completions.sqlite-*"):
        wal.unlink()
    _, status, _ = do_run(request(tmp_path, inputs))
    assert (status.provider_calls, status.cache_hits) == (0, 4)
    _, status, provider = do_run(request(tmp_path, inputs, policy_values={"context_runes": 40000}))
    assert (status.provider_calls, status.cache_hits) == (0, 4) and not provider.history


def test_the_completion_store_keeps_only_what_a_call_produced(tmp_path: Path) -> None:
    from arborist.lab.replay import CompletionStore, ReplayingProvider, replay_key
    from arborist.models.base import Completion, GenerationSettings, Message

    store = CompletionStore(tmp_path)
    provider = ReplayingProvider(ScriptedProvider("first"), store)
    msgs, settings = [Message(role="user", content="q?")], GenerationSettings()
    made = provider.complete(msgs, settings)
    again = provider.complete(msgs, settings)
    assert (made.text, made.replayed_from) == ("first", None)
    assert again.text == "first" and again.replayed_from == replay_key("scripted", "scripted", msgs, settings, None)
    assert again.attempts == 0 and again.timings == {}
    # another seed, another schema: other keys, so the model is asked (and here has nothing left to say)
    other = provider.complete(msgs, settings.model_copy(update={"seed": 1}))
    assert other.error is not None and len(store) == 1  # a failure is not kept
    assert provider.complete(msgs, settings, {"type": "object"}).error is not None
    store.put("k", Completion(model_id="m", provider="p", error="timed out"))
    assert store.get("k") is None
    store._db.execute("INSERT INTO completions VALUES ('bad', 'not json')")
    assert store.get("bad") is None  # unreadable: a miss, asked again
    store.close()
    (tmp_path / "completions.sqlite").write_bytes(b"not a database at all" * 100)
    for wal in tmp_path.glob("completions.sqlite-*"):
        wal.unlink()
    with pytest.raises(StoreError, match=r"completions.sqlite is not arborist's completion cache .* delete it"):
        CompletionStore(tmp_path)


def test_two_workers_with_the_same_prompt_ask_the_model_once(tmp_path: Path) -> None:
    """A treated twin with nothing to treat sends its control's words; run side by side, only one is asked."""
    import threading

    from arborist.lab.replay import CompletionStore, ReplayingProvider
    from arborist.models.base import Completion, GenerationSettings, Message

    class Slow:
        name, model_id = "slow", "slow"

        def __init__(self) -> None:
            self.calls = 0
            self.second = threading.Event()

        def complete(self, messages: list[Message], settings: GenerationSettings,
                     json_schema: dict[str, Any] | None = None) -> Completion:
            self.calls += 1
            if self.calls == 1:
                self.second.wait(timeout=2)  # without the per-prompt lock the twin's call arrives meanwhile
            else:
                self.second.set()
            return Completion(model_id="slow", provider="slow", text=f"answer {self.calls}")

    inner = Slow()
    provider = ReplayingProvider(inner, CompletionStore(tmp_path))  # type: ignore[arg-type]
    msgs, settings = [Message(role="user", content="q?")], GenerationSettings()
    out: list[Completion] = []
    workers = [threading.Thread(target=lambda: out.append(provider.complete(msgs, settings))) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert inner.calls == 1 and [c.text for c in out] == ["answer 1", "answer 1"]
    assert sorted(c.replayed_from is None for c in out) == [False, True]
    provider.store.close()


def test_a_broken_completion_cache_is_a_one_line_error_from_the_cli(
    tmp_path: Path, inputs: tuple[Path, Path], run_cli: Callable[..., Result]  # noqa: F811
) -> None:
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "completions.sqlite").write_bytes(b"garbage" * 1000)
    result = run_cli("lab", "run", "--corpus", inputs[0], "--evaluation", inputs[1],
                     "--out", tmp_path / "runs", "--cache-directory", tmp_path / "cache", "--model", "scripted",
                     "--routes", "bm25", "--limit", "1")
    assert result.exit_code != 0 and "not arborist's completion cache" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not list((tmp_path / "runs").glob("*"))  # refused before a run directory was made
