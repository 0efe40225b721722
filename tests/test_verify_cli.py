"""`arborist verify FILE [--json]`: single case, list, stdin, malformed input (command object, in-process)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arborist.cli.verify_cmd import verify
from arborist.errors import ArboristError, InputError
from arborist.verify import VerifierPolicy, verifier_policy_hash

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "verify"
CASES = FIXTURES / "cases.json"
MISSED = FIXTURES / "ballestrini_missed.json"


def invoke(*args: str | Path, input: str | None = None) -> Result:
    """`arborist verify ARGS --entailment none`: these tests are of the rules' output (tests/test_entailment.py
    has the judge's)."""
    return CliRunner().invoke(verify, [*(str(a) for a in args), "--entailment", "none"], input=input,
                              catch_exceptions=True)


def error_of(result: Result) -> str:
    """The command raised an ArboristError with a one-line message (the group prints it as 'Error: ...')."""
    assert result.exit_code != 0
    assert isinstance(result.exception, ArboristError), result.exception
    message = str(result.exception)
    assert "\n" not in message
    return message


def test_single_case_text_output() -> None:
    result = invoke(MISSED)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("case 0: STRICT  audit EVIDENCE-WARRANTED  verified 1/1")
    assert "claim 0 [E1] VERIFIED_QUOTE (rules)" in out  # what decided the verdict
    assert "abstained: The evidence does not mention" in out
    assert "reasons: PARTIAL_ABSTENTION, MISSED_ANSWER_SUSPECTED" in out
    assert "guard: answerability warning: E1@85 'Vento di Sale'; E1@102 'Notte Chiara'; E1@121 'Il Faro'" in out
    assert f"verifier_policy_hash: {verifier_policy_hash()}" in out


def test_single_case_json_is_one_object() -> None:
    result = invoke(MISSED, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    assert data["label"] == "STRICT" and data["audit_mode"] == "EVIDENCE-WARRANTED"
    assert data["guard"]["answerability_warning"] is True
    assert [s[2] for s in data["guard"]["missed_answer_candidate_spans"]] == ["Vento di Sale", "Notte Chiara", "Il Faro"]
    assert data["claims"][0]["verdict"] == "VERIFIED_QUOTE"
    assert data["verifier_policy_hash"] == verifier_policy_hash()


def test_list_input_gives_one_result_per_case() -> None:
    result = invoke(CASES, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, list) and len(data) == 3
    assert [d["label"] for d in data] == ["STRICT", "HYBRID", "STRICT"]
    assert data[1]["claims"][1]["reasons"] == ["WARRANT_MISSING"]
    text = invoke(CASES)
    assert [line.split(":")[0] for line in text.stdout.splitlines() if line.startswith("case ")] == [
        "case 0", "case 1", "case 2"]


def test_stdin() -> None:
    result = invoke("-", "--json", input=MISSED.read_text(encoding="utf-8"))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["label"] == "STRICT"
    listed = invoke("-", "--json", input=CASES.read_text(encoding="utf-8"))
    assert len(json.loads(listed.stdout)) == 3


def test_malformed_case_names_file_case_and_field_and_prints_nothing() -> None:
    result = invoke(FIXTURES / "malformed.json")
    message = error_of(result)
    assert "malformed.json" in message and "case 1" in message
    assert "answer.claims[0].evidence_ids" in message
    assert result.stdout == ""  # case 0 was fine, but nothing is printed before every case is checked
    assert isinstance(result.exception, InputError)


@pytest.mark.parametrize(
    ("case_patch", "fragments"),
    [
        ({"mode": "free_text"}, ["case 0", "mode", "valid: quote, claim_lattice, claim_lattice_pointer"]),
        ({"answer": None}, ["case 0", "answer"]),
        ({"evidence": [{"id": "E1", "title": "t"}]}, ["case 0", "evidence[0].text"]),
        ({"policy": {"treshold": 1}}, ["case 0", "policy", "valid fields", "paraphrase_threshold"]),
    ],
)
def test_bad_fields(write_json: Callable[[str, object], Path], case_patch: dict, fragments: list[str]) -> None:
    case = {**json.loads(MISSED.read_text(encoding="utf-8")), **case_patch}
    message = error_of(invoke(write_json("case.json", case)))
    for fragment in fragments:
        assert fragment in message, message


def test_missing_top_level_field(write_json: Callable[[str, object], Path]) -> None:
    case = json.loads(MISSED.read_text(encoding="utf-8"))
    del case["question"]
    assert "case 0: question: missing" in error_of(invoke(write_json("case.json", [case])))
    assert "case 0: expected an object" in error_of(invoke(write_json("list.json", ["nope"])))


def test_malformed_json_and_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"question": ', encoding="utf-8")
    message = error_of(invoke(bad))
    assert "bad.json" in message and "not valid JSON" in message and "line 1" in message
    assert "<stdin>" in error_of(invoke("-", input="[1,"))
    assert "does not exist" in error_of(invoke(tmp_path / "nope.json"))


def test_case_policy_is_applied(write_json: Callable[[str, object], Path]) -> None:
    case = {**json.loads(MISSED.read_text(encoding="utf-8")), "policy": {"demote_missed_answer": True}}
    data = json.loads(invoke(write_json("case.json", case), "--json").stdout)
    assert data["label"] == "STRICT" and data["audit_mode"] == "EVIDENCE-MISSED-PARTIAL"
    assert data["verifier_policy_hash"] == verifier_policy_hash(VerifierPolicy(demote_missed_answer=True))
