"""`experiments validate` checks what config.json promises (issue 34, finding 3): a forged run is named.

Each test makes one honest run with the scripted model, forges one thing the
way someone with write access to the run directory would (rewriting the
summaries to match the forged rows, so only the re-derivation can tell), and
expects `experiments validate` to exit 1 naming the check that caught it.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from arborist.evaluation.format import load_evaluation
from arborist.lab import rundir
from arborist.lab.report import write_summaries
from arborist.lab.treatments import PlantPool
from test_lab import GOOD, claim, do_run, inputs, request  # noqa: F401 (inputs: a fixture)

STRICT_PARIS = claim("Paris is the capital of France.", quote="Paris is the capital of France.")
FORGED = "Paris has been the capital of Spain since 1999."
Run = Callable[..., Result]


@pytest.fixture
def run_dir(tmp_path: Path, inputs: tuple[Path, Path]) -> Path:  # noqa: F811
    run_dir, status, _ = do_run(request(tmp_path, inputs), STRICT_PARIS, *GOOD[1:])
    assert status.state == "complete"
    return run_dir


def rows(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / rundir.ROWS).read_text(encoding="utf-8").splitlines()]


def rewrite_rows(run_dir: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    """Edit the first row, then rewrite every summary from the edited rows (a thorough forger)."""
    all_rows = rows(run_dir)
    edit(all_rows[0])
    (run_dir / rundir.ROWS).write_text("".join(json.dumps(r) + "\n" for r in all_rows), encoding="utf-8")
    write_summaries(run_dir, rundir.load_config(run_dir))


def failed(run_cli: Run, run_dir: Path) -> dict[str, str]:
    result = run_cli("lab", "validate", run_dir, "--json")
    report = json.loads(result.stdout)
    assert (result.exit_code == 0) == report["ok"]
    return {c["name"]: c["detail"] for c in report["checks"] if not c["ok"]}


def test_an_honest_run_validates(run_dir: Path, run_cli: Run) -> None:
    assert rows(run_dir)[0]["verifier"]["label"] == "STRICT"
    assert failed(run_cli, run_dir) == {}
    text = run_cli("lab", "validate", run_dir)
    assert text.exit_code == 0 and "ok   rows re-derived: 4 rows" in text.stdout


def _flip_label(row: dict[str, Any]) -> None:
    row["verifier"]["label"] = "UNGROUNDED"


def _forge_strict(row: dict[str, Any]) -> None:
    answer = {"claims": [{"text": FORGED, "evidence_ids": ["E1"], "quote": FORGED}], "abstained_requests": []}
    row["answer"].update(raw=json.dumps(answer), parsed=answer, text=FORGED)


def _forge_parsed(row: dict[str, Any]) -> None:
    row["answer"]["parsed"]["claims"][0]["text"] = FORGED
    row["answer"]["text"] = FORGED


def _flip_gold(row: dict[str, Any]) -> None:
    row["diagnosis"].update(gold_in_answer=False, boundary="generation")


@pytest.mark.parametrize("edit, named", [
    (_flip_label, "label UNGROUNDED, but its answer re-verified against the run's corpus is STRICT"),
    (_forge_strict, "label STRICT, but its answer re-verified against the run's corpus is UNGROUNDED"),
    (_forge_parsed, "is not what its raw response gives"),
    (_flip_gold, "diagnosis generation (gold_in_answer False) is not what"),
], ids=["flipped-label", "forged-strict-answer", "forged-parsed-answer", "flipped-gold-in-answer"])
def test_a_forged_row_is_named(run_dir: Path, run_cli: Run, edit: Callable[[dict[str, Any]], None],
                               named: str) -> None:
    rewrite_rows(run_dir, edit)
    problems = failed(run_cli, run_dir)
    assert list(problems) == ["rows re-derived"], problems
    assert problems["rows re-derived"].startswith("q1 [claim_lattice, sample 0]: ") and named in problems[
        "rows re-derived"]


def test_an_edited_corpus_copy_is_named(run_dir: Path, run_cli: Run) -> None:
    corpus = run_dir / "inputs/corpus.json"
    corpus.write_text(corpus.read_text().replace("Seine", "Loire"), encoding="utf-8")
    problems = failed(run_cli, run_dir)
    assert "inputs/corpus.json has corpus digest" in problems["inputs match config.json"]
    assert "chunk(s) missing or changed" in problems["chunks and indexes"]


def test_an_edited_evaluation_copy_is_named(run_dir: Path, run_cli: Run) -> None:
    evaluation = run_dir / "inputs/evaluation.json"
    evaluation.write_text(evaluation.read_text().replace('"Tiber"', '"Arno"'), encoding="utf-8")
    problems = failed(run_cli, run_dir)
    assert "inputs/evaluation.json has sha256" in problems["inputs match config.json"]
    assert "q2 [claim_lattice, sample 0]: question or gold answers differ" in problems["rows re-derived"]


@pytest.mark.parametrize("name, edit", [
    (rundir.SUMMARY_MD, lambda text: text.replace("| none |", "| none (edited) |")),
    (rundir.CONTRACT_SUMMARY, lambda text: text.replace('"rows": 4', '"rows": 5', 1)),
    (rundir.ANSWERS, lambda text: text.replace('"STRICT"', '"UNGROUNDED"', 1)),
], ids=["summary-md", "contract-summary", "generated-answers"])
def test_an_edited_summary_is_named(run_dir: Path, run_cli: Run, name: str, edit: Callable[[str], str]) -> None:
    path = run_dir / name
    before = path.read_text(encoding="utf-8")
    path.write_text(edit(before), encoding="utf-8")
    assert path.read_text(encoding="utf-8") != before
    problems = failed(run_cli, run_dir)
    assert list(problems) == ["summaries agree with the rows"] and name in problems["summaries agree with the rows"]


def test_edited_status_counts_are_named(run_dir: Path, run_cli: Run) -> None:
    status = json.loads((run_dir / rundir.STATUS).read_text())
    status["provider_calls"] = 0
    (run_dir / rundir.STATUS).write_text(json.dumps(status))
    assert "status.json says provider_calls 0, the rows 4" in failed(run_cli, run_dir)["status"]


def test_a_deleted_index_folder_is_named(run_dir: Path, run_cli: Run) -> None:
    shutil.rmtree(run_dir / "indexes")
    assert failed(run_cli, run_dir) == {"chunks and indexes": "indexes/ was deleted"}


def test_a_planted_row_is_re_verified_against_the_planted_chunk(
        tmp_path: Path, inputs: tuple[Path, Path], run_cli: Run) -> None:  # noqa: F811
    """The treated arm's evidence is the store's chunk with the falsehood planted again: an answer quoting the
    planted sentence stays STRICT on re-derivation, and forging it is still caught."""
    evaluation = load_evaluation(inputs[1])
    q1 = evaluation.questions[0]
    wrong = PlantPool.of(evaluation.questions).wrong_value(q1, "Paris")
    assert wrong is not None
    sentence = f"{wrong} is the capital of France."
    req = request(tmp_path, inputs, treatments=("planted",), limit=1)
    run_dir, status, _ = do_run(req, STRICT_PARIS, claim(sentence, quote=sentence))
    assert status.state == "complete"
    planted = rows(run_dir)[1]
    assert planted["treatment"]["planted_value"] == wrong and planted["verifier"]["label"] == "STRICT"
    assert failed(run_cli, run_dir) == {}
    all_rows = rows(run_dir)
    all_rows[1]["treatment"]["planted_value"] = "Lyon"  # the evidence rebuilt from it no longer holds the quote
    (run_dir / rundir.ROWS).write_text("".join(json.dumps(r) + "\n" for r in all_rows), encoding="utf-8")
    write_summaries(run_dir, rundir.load_config(run_dir))
    assert "is UNGROUNDED" in failed(run_cli, run_dir)["rows re-derived"]
