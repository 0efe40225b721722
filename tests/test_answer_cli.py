"""`arborist query` / `arborist ask`: the whole record as JSON, the prompt on request, exit codes.

`--model scripted` starts with an empty queue, so every such run is a
provider error (exit 3) — which is exactly what these tests use to see the
record. Real HTTP answers come from the fault server in tests/fault_server.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from arborist.models.scripted import NO_RESPONSE
from arborist.prompting.layouts import LAYOUTS
from arborist.prompting.modes import json_schema
from fault_server import FaultServer

DEMO = Path(__file__).resolve().parents[1] / "src" / "arborist" / "demo"
QUESTION = "How long is the refund window for annual plans?"
LEXICAL = "bm25,title,phrase"
RECORD_KEYS = {
    "ranked_chunk_ids", "selected_chunk_ids", "admitted_chunk_ids", "omitted_chunk_ids", "citation_chunk_ids",
    "used_runes", "max_runes", "prompt", "completion", "contract", "timings", "policy", "governance_policy_hash",
}
VALID_ANSWER = json.dumps({
    "claims": [{"text": "Annual plans can be refunded within 30 days.", "evidence_ids": ["E1"],
                "quote": "within 30 days"}],
    "abstained_requests": [],
})

Run = Callable[..., Result]


def one_line_error(result: Result, *fragments: str) -> str:
    assert result.exit_code not in (0, 2, 3), (result.exit_code, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ") and "Traceback" not in result.output
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def query(run_cli: Run, db: Path, *extra: str, question: str = QUESTION) -> Result:
    return run_cli("query", question, "--db", db, *extra)


@pytest.fixture
def server() -> Iterator[FaultServer]:
    srv = FaultServer().start()
    yield srv
    srv.stop()


# --- the record as JSON, with the scripted provider ---------------------------------------------


def test_query_json_emits_the_whole_record_and_exits_3_on_provider_error(run_cli: Run, demo_db: Path) -> None:
    result = query(run_cli, demo_db, "--model", "scripted", "--routes", LEXICAL, "--evidence-k", "4", "--json")
    assert result.exit_code == 3, result.output
    record = json.loads(result.stdout)
    assert set(record) >= RECORD_KEYS
    assert {"sha256", "messages", "json_schema", "layout"} <= set(record["prompt"])
    assert record["prompt"]["sha256"].startswith("sha256:")
    assert [m["role"] for m in record["prompt"]["messages"]] == ["system", "user"]
    admitted = [e["evidence_id"] for e in record["evidence"]]
    assert record["prompt"]["json_schema"] == json_schema("claim_lattice", admitted)

    assert record["contract"]["reason"] == "PROVIDER_ERROR" and record["contract"]["valid"] is False
    assert record["contract"]["detail"] == NO_RESPONSE
    assert record["completion"]["error"] == NO_RESPONSE and record["completion"]["provider"] == "scripted"
    assert record["citation_chunk_ids"] == []

    assert record["selected_chunk_ids"] == record["ranked_chunk_ids"][:4]
    assert record["admitted_chunk_ids"] + record["omitted_chunk_ids"] == record["selected_chunk_ids"]
    assert record["max_runes"] == 12_000 and 0 < record["used_runes"] <= 12_000
    assert {"retrieve", "admit", "assemble", "generate", "contract", "total"} <= set(record["timings"])
    policy = record["policy"]
    assert policy["model_id"] == "scripted:scripted" and policy["evidence_k"] == 4
    assert (policy["layout"], policy["mode"]) == ("tail", "claim_lattice")
    assert list(policy["search"]["routes"]) == LEXICAL.split(",")
    assert record["question"] == QUESTION
    assert "Error" not in result.stderr


def test_query_json_policy_follows_the_options(run_cli: Run, demo_db: Path) -> None:
    result = query(run_cli, demo_db, "--model", "scripted", "--routes", LEXICAL, "--json",
                   "--user-payload-layout", "per_chunk", "--mode", "quote", "--retrieve-k", "7", "--evidence-k", "3",
                   "--context-runes", "2000", "--temperature", "0.5", "--max-tokens", "99", "--seed", "4")
    assert result.exit_code == 3, result.output
    record = json.loads(result.stdout)
    policy = record["policy"]
    assert (policy["layout"], policy["mode"], policy["evidence_k"], policy["context_runes"]) == ("per_chunk", "quote", 3, 2000)
    assert policy["search"]["k"] == 7 and len(record["ranked_chunk_ids"]) <= 7
    assert policy["generation"] == {"temperature": 0.5, "max_tokens": 99, "seed": 4, "top_p": 1.0}
    assert record["prompt"]["layout"] == "bookend"  # quote mode renders per_chunk as bookend
    assert "[for:" not in record["prompt"]["messages"][1]["content"]
    assert record["max_runes"] == 2000 and record["used_runes"] <= 2000


def test_the_answerability_threshold_is_a_verifier_knob(run_cli: Run, demo_db: Path) -> None:
    from arborist.entailment import default_spec
    from arborist.verify import VerifierPolicy, verifier_policy_hash

    judged = VerifierPolicy(entailment=default_spec())  # the CLI verifies with the shipped judge by default
    default = json.loads(query(run_cli, demo_db, "--model", "scripted", "--routes", LEXICAL, "--json").stdout)
    off = json.loads(query(run_cli, demo_db, "--model", "scripted", "--routes", LEXICAL, "--json",
                           "--answerability-threshold", "0").stdout)
    assert default["verifier_policy_hash"] == verifier_policy_hash(judged)
    assert off["verifier_policy_hash"] == verifier_policy_hash(judged.model_copy(update={"answerability_threshold": 0}))
    assert off["governance_policy_hash"] == default["governance_policy_hash"]  # the answer policy is the same


def test_governance_hash_in_the_cli_record_changes_with_the_layout(run_cli: Run, demo_db: Path) -> None:
    hashes = set()
    for layout in LAYOUTS:
        result = query(run_cli, demo_db, "--model", "scripted", "--routes", LEXICAL, "--json",
                       "--user-payload-layout", layout)
        hashes.add(json.loads(result.stdout)["governance_policy_hash"])
    assert len(hashes) == 3


def test_show_prompt_prints_the_exact_messages(run_cli: Run, demo_db: Path) -> None:
    as_json = json.loads(query(run_cli, demo_db, "--model", "scripted", "--routes", LEXICAL, "--json").stdout)
    result = query(run_cli, demo_db, "--model", "scripted", "--routes", LEXICAL, "--show-prompt")
    assert result.exit_code == 3, result.output
    system, user = (m["content"] for m in as_json["prompt"]["messages"])
    out = result.stdout
    expected = (
        "----- system -----\n" + system + ("" if system.endswith("\n") else "\n")
        + "----- user -----\n" + user + ("" if user.endswith("\n") else "\n")
        + "----- end of prompt -----\n"
    )
    assert out.startswith(expected)
    assert f"contract: INVALID (PROVIDER_ERROR: {NO_RESPONSE})\n" in out
    assert "ids: ranked " in out and " -> selected " in out and " -> admitted " in out and "| runes " in out
    assert "model: scripted:scripted" in out
    assert "raw response:" not in out  # no response to show after a provider error


def test_text_output_without_show_prompt_has_no_prompt(run_cli: Run, demo_db: Path) -> None:
    result = query(run_cli, demo_db, "--model", "scripted", "--routes", LEXICAL)
    assert result.exit_code == 3
    assert "----- user -----" not in result.stdout and "contract: INVALID (PROVIDER_ERROR" in result.stdout


def test_unavailable_dense_route_is_a_warning_on_stderr(run_cli: Run, demo_db: Path) -> None:
    result = query(run_cli, demo_db, "--model", "scripted")  # default routes include dense; demo_db has no vectors
    assert result.exit_code == 3
    assert "Warning: route 'dense' unavailable" in result.stderr


# --- usage errors and one-line errors -----------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value"),
    [("--user-payload-layout", "diagonal"), ("--mode", "essay"), ("--evidence-k", "0"), ("--context-runes", "10"),
     ("--answerability-threshold", "1.5")],
)
def test_bad_option_values_are_usage_errors(run_cli: Run, demo_db: Path, option: str, value: str) -> None:
    result = query(run_cli, demo_db, "--model", "scripted", option, value)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}'" in result.stderr
    assert result.stdout == ""


def test_bad_layout_usage_error_lists_the_layouts(run_cli: Run, demo_db: Path) -> None:
    result = query(run_cli, demo_db, "--model", "scripted", "--user-payload-layout", "diagonal")
    assert result.exit_code == 2
    assert all(name in result.stderr for name in LAYOUTS)


def test_unknown_route_is_a_one_line_error(run_cli: Run, demo_db: Path) -> None:
    line = one_line_error(query(run_cli, demo_db, "--model", "scripted", "--routes", "bm25,telepathy"),
                          "'telepathy'", "valid routes:")
    assert all(r in line for r in ("bm25", "title", "keyword", "phrase", "dense", "bridge"))


def test_missing_store_is_a_one_line_error(run_cli: Run, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.db"
    one_line_error(query(run_cli, missing, "--model", "scripted"), str(missing), "arborist ingest")
    assert not missing.exists()  # query never creates a store


def test_unknown_model_profile_is_a_one_line_error(run_cli: Run, demo_db: Path) -> None:
    one_line_error(query(run_cli, demo_db, "--model", "gpt-9"), "'gpt-9'", "qwen2.5-1.5b", "smollm2-135m")


@pytest.mark.parametrize("question", ["", "  "])
def test_empty_question_is_a_one_line_error(run_cli: Run, demo_db: Path, question: str) -> None:
    one_line_error(query(run_cli, demo_db, "--model", "scripted", question=question), "the question is empty")


def test_huge_question_is_a_one_line_error(run_cli: Run, demo_db: Path) -> None:
    one_line_error(query(run_cli, demo_db, "--model", "scripted", "--routes", LEXICAL, question="why " * 25_000),
                   "100,000 characters")


def test_base_url_without_model_is_a_one_line_error(run_cli: Run, demo_db: Path) -> None:
    one_line_error(query(run_cli, demo_db, "--base-url", "http://127.0.0.1:9/v1"), "--base-url needs --model")


# --- `ask` on one document ----------------------------------------------------------------------


def test_ask_on_a_file_uses_document_role_and_exits_3_on_provider_error(run_cli: Run) -> None:
    doc = DEMO / "corpus" / "billing" / "refund-policy.md"
    result = run_cli("ask", doc, QUESTION, "--model", "scripted", "--routes", LEXICAL, "--json")
    assert result.exit_code == 3, result.output
    record = json.loads(result.stdout)
    assert set(record) >= RECORD_KEYS
    user = record["prompt"]["messages"][1]["content"]
    assert user.count("| document) ===\n") == len(record["admitted_chunk_ids"]) > 0
    assert {e["source_id"] for e in record["evidence"]} == {"refund-policy.md"}
    assert record["contract"]["reason"] == "PROVIDER_ERROR"


def test_ask_on_a_folder_of_many_documents_is_refused(run_cli: Run) -> None:
    one_line_error(run_cli("ask", DEMO / "corpus" / "billing", QUESTION, "--model", "scripted"),
                   "holds 4 documents", "exactly one")


# --- against a real HTTP server (the fault server) ----------------------------------------------


def http_query(run_cli: Run, db: Path, server: FaultServer, *extra: str) -> Result:
    # --burn: each test scripts its own server reply, so none may be served from the answer cache.
    return query(run_cli, db, "--base-url", server.base_url, "--model", "fault", "--routes", LEXICAL,
                 "--timeout", "5", "--burn", *extra)


def test_http_answer_valid_contract_exit_0(run_cli: Run, demo_db: Path, server: FaultServer) -> None:
    server.reply = VALID_ANSWER
    result = http_query(run_cli, demo_db, server, "--json", "--retries", "0", "--max-tokens", "200")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["contract"]["valid"] is True and record["contract"]["reason"] == "OK"
    assert record["citation_chunk_ids"] == [record["admitted_chunk_ids"][0]]
    assert record["completion"]["text"] == VALID_ANSWER
    # the identity names the server: two servers serving other weights under one name never share an answer
    assert record["completion"]["provider"] == "openai"
    assert record["completion"]["model_id"] == f"fault@{server.base_url}"
    assert (record["completion"]["prompt_tokens"], record["completion"]["completion_tokens"]) == (11, 7)
    assert record["completion"]["raw"]["id"] == "chatcmpl-fault"
    assert record["policy"]["model_id"] == f"openai:fault@{server.base_url}"

    req = server.requests[0]  # (a judged answer, HYBRID, is revised: the same reply, so the first stands)
    assert req.path == "/v1/chat/completions"
    assert req.body["messages"] == record["prompt"]["messages"]
    admitted = [e["evidence_id"] for e in record["evidence"]]
    assert req.body["response_format"] == {"type": "json_object", "schema": json_schema("claim_lattice", admitted)}
    assert (req.body["model"], req.body["max_tokens"]) == ("fault", 200)


def test_http_answer_text_output(run_cli: Run, demo_db: Path, server: FaultServer) -> None:
    server.reply = VALID_ANSWER
    result = http_query(run_cli, demo_db, server, "--retries", "0")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "contract: valid (OK)\n" in out
    # E1 is the rejected draft; the quote is in E2, which holds it under a condition the claim states (30 days)
    assert "  * Annual plans can be refunded within 30 days.  [E2; cited as E1]  VERIFIED_" in out
    assert out.startswith("label: ")
    assert '      "within 30 days"\n' in out
    assert "evidence cited:\n  E1: " in out
    assert f"model: openai:fault@{server.base_url} | 11 prompt + 7 completion tokens" in out


def test_a_reanchored_claim_shows_the_block_that_holds_its_quote(
    run_cli: Run, demo_db: Path, server: FaultServer
) -> None:
    server.reply = VALID_ANSWER
    record = json.loads(http_query(run_cli, demo_db, server, "--json", "--retries", "0").stdout)
    second = record["evidence"][1]["text"].split(". ")[0]  # E2's first sentence, cited as E1
    server.reply = json.dumps({"claims": [{"text": second, "evidence_ids": ["E1"], "quote": second}],
                               "abstained_requests": []})
    out = http_query(run_cli, demo_db, server, "--retries", "0").stdout
    assert f"  * {second}  [E2; cited as E1]  VERIFIED_QUOTE" in out
    assert "      note: cites E1; its quote is in E2, so it is judged against E2 (re-anchored)\n" in out


def test_http_invalid_answer_exits_0_and_shows_the_raw_response(run_cli: Run, demo_db: Path, server: FaultServer) -> None:
    server.reply = "The refund window is 30 days."
    result = http_query(run_cli, demo_db, server, "--retries", "0")
    assert result.exit_code == 0, result.output  # the model answered; the contract says it is invalid
    assert "contract: INVALID (PARSE_FAILURE" in result.stdout
    assert "raw response: 'The refund window is 30 days.'" in result.stdout


def test_http_500_forever_exits_3_with_the_error_recorded(run_cli: Run, demo_db: Path, server: FaultServer) -> None:
    server.queue(*["500"] * 10)
    result = http_query(run_cli, demo_db, server, "--json", "--retries", "1")
    assert result.exit_code == 3, result.output
    record = json.loads(result.stdout)
    error = record["completion"]["error"]
    assert error.startswith(f"POST {server.base_url}/chat/completions failed: HTTP 500 (")
    assert "injected failure" in error and error.endswith(" after 2 attempts") and "\n" not in error
    assert record["completion"]["attempts"] == 2 and len(server.requests) == 2
    assert record["completion"]["text"] == ""
    assert record["contract"]["reason"] == "PROVIDER_ERROR" and record["contract"]["detail"] == error
    assert record["admitted_chunk_ids"]  # retrieval and admission are recorded all the same


def test_http_malformed_body_exits_3_with_the_error_recorded(run_cli: Run, demo_db: Path, server: FaultServer) -> None:
    server.queue("malformed")
    result = http_query(run_cli, demo_db, server, "--json", "--retries", "3")
    assert result.exit_code == 3, result.output
    record = json.loads(result.stdout)
    error = record["completion"]["error"]
    assert error == (f"POST {server.base_url}/chat/completions failed: "
                     "malformed response: not JSON (<html>not json at all) after 1 attempt")
    assert len(server.requests) == 1  # not retried: a malformed body will not get better
    assert record["contract"]["reason"] == "PROVIDER_ERROR" and record["contract"]["detail"] == error


def test_http_error_text_output(run_cli: Run, demo_db: Path, server: FaultServer) -> None:
    server.queue("400")
    result = http_query(run_cli, demo_db, server, "--retries", "0")
    assert result.exit_code == 3, result.output
    assert f"contract: INVALID (PROVIDER_ERROR: POST {server.base_url}/chat/completions failed: HTTP 400" in result.stdout
    assert f"model: openai:fault@{server.base_url} | tokens n/a" in result.stdout
