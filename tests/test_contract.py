"""The answer contract: parse, validate the mode's shape, check citations, classify abstention.

check_contract never raises on a bad answer: the result names the reason
(one of contract.REASONS, which users' scripts rely on) and keeps what it
could parse.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from arborist.answer import contract
from arborist.answer.contract import (
    REASONS,
    ContractReason,
    ContractResult,
    check_contract,
    parse_json_object,
)
from arborist.prompting.modes import ANSWER_MODELS, MODES, json_schema

ADMITTED = ["E1", "E2", "E3"]

QUOTE = {"quotes": [{"evidence_id": "E1", "text": "within 30 days"}], "abstained_requests": []}
CLAIMS = {
    "claims": [
        {"text": "Annual plans can be refunded within 30 days.", "evidence_ids": ["E1", "E3"], "quote": "within 30 days"}
    ],
    "abstained_requests": [],
}
POINTER = {"claims": [{"text": "Annual plans can be refunded within 30 days.", "evidence_ids": ["E2"]}],
           "abstained_requests": []}
VALID = {"quote": QUOTE, "claim_lattice": CLAIMS, "claim_lattice_pointer": POINTER}

# Every reason a test below produced; checked against REASONS at the end of the module.
SEEN: set[str] = set()


def check(mode: str, text: str | dict[str, Any], admitted: list[str] = ADMITTED, error: str | None = None) -> ContractResult:
    raw = text if isinstance(text, str) else json.dumps(text)
    result = check_contract(mode, raw, admitted, provider_error=error)
    assert isinstance(result, ContractResult)
    SEEN.add(result.reason)
    assert result.reason in REASONS
    assert result.valid == (result.reason in {"OK", "ABSTAINED"})
    return result


def test_reason_names_are_the_documented_ones() -> None:
    assert set(REASONS) == {
        "OK", "ABSTAINED", "PROVIDER_ERROR", "PARSE_FAILURE", "SCHEMA_VIOLATION",
        "EMPTY_ANSWER", "NO_CITATION", "CITATION_NOT_ADMITTED",
    }
    assert all(isinstance(v, str) and v for v in REASONS.values())
    assert set(REASONS) == set(ContractReason)  # one enum, every member documented
    assert MODES == ("quote", "claim_lattice", "claim_lattice_pointer")


# --- valid answers ---------------------------------------------------------------------------


def test_valid_quote_answer() -> None:
    result = check("quote", QUOTE)
    assert (result.valid, result.reason, result.abstention, result.detail) == (True, "OK", "none", "")
    assert result.answer == QUOTE
    assert result.cited_evidence_ids == ["E1"]


def test_valid_claim_lattice_answer() -> None:
    result = check("claim_lattice", CLAIMS)
    assert (result.valid, result.reason, result.abstention) == (True, "OK", "none")
    assert result.answer == CLAIMS
    assert result.cited_evidence_ids == ["E1", "E3"]


def test_valid_pointer_answer() -> None:
    result = check("claim_lattice_pointer", POINTER)
    assert (result.valid, result.reason) == (True, "OK")
    assert result.answer == POINTER
    assert result.cited_evidence_ids == ["E2"]


def test_cited_ids_are_deduplicated_in_first_seen_order() -> None:
    answer = {"claims": [
        {"text": "a", "evidence_ids": ["E3", "E1"], "quote": "x"},
        {"text": "b", "evidence_ids": ["E1", "E2", "E3"], "quote": "y"},
    ], "abstained_requests": []}
    assert check("claim_lattice", answer).cited_evidence_ids == ["E3", "E1", "E2"]


def test_raw_control_characters_inside_strings_parse() -> None:
    """llama.cpp's grammar lets literal newlines and tabs into JSON strings."""
    text = '{"claims": [{"text": "line one\nline two\tand a tab", "evidence_ids": ["E1"], "quote": "a\nb"}], "abstained_requests": []}'
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)  # strict JSON refuses it...
    result = check("claim_lattice", text)  # ...the contract does not
    assert result.valid and result.reason == "OK"
    assert result.answer is not None
    assert result.answer["claims"][0]["text"] == "line one\nline two\tand a tab"
    assert result.answer["claims"][0]["quote"] == "a\nb"


@pytest.mark.parametrize("fence", ["```json\n{}\n```", "```\n{}\n```", "  ```json {} ```  \n"])
def test_markdown_fence_parses(fence: str) -> None:
    text = fence.replace("{}", json.dumps(QUOTE, indent=2))
    result = check("quote", text)
    assert result.valid and result.answer == QUOTE


def test_json_object_surrounded_by_prose_is_found() -> None:
    assert parse_json_object("Here you go: " + json.dumps(CLAIMS) + " Hope that helps.") == CLAIMS


def test_unicode_survives_parsing() -> None:
    answer = {"quotes": [{"evidence_id": "E2", "text": "Café — naïve 😀 «ça»"}], "abstained_requests": []}
    assert check("quote", json.dumps(answer, ensure_ascii=False)).answer == answer
    assert check("quote", json.dumps(answer, ensure_ascii=True)).answer == answer


# --- parse failures --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "The refund window is 30 days.",
        "null",
        "42",
        '"a string"',
        "[]",
        json.dumps([CLAIMS]),
        "{",
        "{not json}",
        "```json\n```",
    ],
)
def test_not_a_json_object_is_a_parse_failure(text: str) -> None:
    result = check("claim_lattice", text)
    assert (result.valid, result.reason, result.answer) == (False, "PARSE_FAILURE", None)
    assert result.detail == f"no JSON object in {len(text)} chars"


@pytest.mark.parametrize("mode", MODES)
def test_truncated_json_max_tokens_cut_off_is_a_parse_failure(mode: str) -> None:
    """A max_tokens cut-off leaves an unterminated object: every prefix fails to parse."""
    full = json.dumps(
        {**VALID[mode], "abstained_requests": ["and whether the policy changed"]}
        if mode != "quote"
        else {"quotes": [QUOTE["quotes"][0], {"evidence_id": "E2", "text": "more {braces} here"}],
              "abstained_requests": ["x"]}
    )
    assert check(mode, full).valid
    for cut in range(1, len(full) - 1):
        result = check(mode, full[:cut])
        assert result.reason == "PARSE_FAILURE", (cut, full[:cut], result)


# --- schema violations -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "answer", "where"),
    [
        # missing key
        ("claim_lattice", {"abstained_requests": []}, "claims"),
        ("quote", {"abstained_requests": []}, "quotes"),
        ("claim_lattice", {"claims": [{"text": "a", "evidence_ids": ["E1"]}], "abstained_requests": []}, "claims.0.quote"),
        ("quote", {"quotes": [{"text": "a"}], "abstained_requests": []}, "quotes.0.evidence_id"),
        # wrong type
        ("claim_lattice", {"claims": "30 days", "abstained_requests": []}, "claims"),
        ("claim_lattice", {"claims": [{"text": 30, "evidence_ids": ["E1"], "quote": "q"}], "abstained_requests": []},
         "claims.0.text"),
        ("claim_lattice_pointer", {"claims": [{"text": "a", "evidence_ids": "E1"}], "abstained_requests": []},
         "claims.0.evidence_ids"),
        ("quote", {"quotes": [{"evidence_id": 1, "text": "a"}], "abstained_requests": []}, "quotes.0.evidence_id"),
        ("quote", {"quotes": [], "abstained_requests": "nothing"}, "abstained_requests"),
        ("quote", {"quotes": [], "abstained_requests": None}, "abstained_requests"),
        # extra key
        ("claim_lattice", {**CLAIMS, "confidence": 0.9}, "confidence"),
        ("claim_lattice_pointer", {"claims": [{"text": "a", "evidence_ids": ["E1"], "quote": "q"}],
                                   "abstained_requests": []}, "claims.0.quote"),
        ("quote", {"quotes": [{"evidence_id": "E1", "text": "a", "page": 3}], "abstained_requests": []},
         "quotes.0.page"),
        # another mode's shape
        ("quote", CLAIMS, "quotes"),
        ("claim_lattice", QUOTE, "claims"),
    ],
)
def test_schema_violations(mode: str, answer: dict[str, Any], where: str) -> None:
    result = check(mode, answer)
    assert (result.valid, result.reason, result.answer) == (False, "SCHEMA_VIOLATION", None)
    assert result.detail.startswith(f"{where}: ") or where in result.detail, result.detail
    assert "\n" not in result.detail


@pytest.mark.parametrize("mode", MODES)
def test_missing_abstained_requests_is_a_schema_violation(mode: str) -> None:
    answer = {k: v for k, v in VALID[mode].items() if k != "abstained_requests"}
    assert "abstained_requests" in json_schema(mode)["required"]
    assert check(mode, answer).reason == "SCHEMA_VIOLATION"


# --- citations -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "answer"),
    [
        ("claim_lattice", {"claims": [{"text": "a", "evidence_ids": ["E1", "E9"], "quote": "q"}], "abstained_requests": []}),
        ("claim_lattice_pointer", {"claims": [{"text": "a", "evidence_ids": ["E9"]}], "abstained_requests": []}),
        ("quote", {"quotes": [{"evidence_id": "E9", "text": "a"}], "abstained_requests": []}),
    ],
)
def test_citing_an_evidence_id_that_was_not_admitted(mode: str, answer: dict[str, Any]) -> None:
    result = check(mode, answer)
    assert (result.valid, result.reason) == (False, "CITATION_NOT_ADMITTED")
    assert result.detail == "cited E9; admitted: E1, E2, E3"
    assert "E9" in result.cited_evidence_ids
    assert result.answer == answer  # the parsed answer is kept for the record


def test_citation_with_nothing_admitted() -> None:
    result = check("claim_lattice_pointer", POINTER, admitted=[])
    assert result.reason == "CITATION_NOT_ADMITTED" and result.detail == "cited E2; admitted: none"


@pytest.mark.parametrize("bad_id", ["e1", "E01", " E1", "1", "E4"])
def test_evidence_ids_match_exactly(bad_id: str) -> None:
    answer = {"claims": [{"text": "a", "evidence_ids": [bad_id]}], "abstained_requests": []}
    assert check("claim_lattice_pointer", answer).reason == "CITATION_NOT_ADMITTED"


@pytest.mark.parametrize(
    ("mode", "answer"),
    [
        ("claim_lattice", {"claims": [CLAIMS["claims"][0], {"text": "b", "evidence_ids": [], "quote": "q"}],
                           "abstained_requests": []}),
        ("claim_lattice_pointer", {"claims": [{"text": "b", "evidence_ids": []}], "abstained_requests": []}),
        ("quote", {"quotes": [{"evidence_id": "", "text": "a"}], "abstained_requests": []}),
    ],
)
def test_claim_without_citation(mode: str, answer: dict[str, Any]) -> None:
    result = check(mode, answer)
    assert (result.valid, result.reason) == (False, "NO_CITATION")
    assert result.detail.startswith("item ") and result.detail.endswith(" cites no evidence id")
    assert result.answer == answer


def test_no_citation_names_the_item() -> None:
    answer = {"claims": [CLAIMS["claims"][0], {"text": "b", "evidence_ids": [], "quote": "q"}], "abstained_requests": []}
    assert check("claim_lattice", answer).detail == "item 1 cites no evidence id"


# --- empty answers and abstention ------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "answer"),
    [
        ("claim_lattice", {"claims": [], "abstained_requests": []}),
        ("claim_lattice_pointer", {"claims": [], "abstained_requests": ["", "   "]}),
        ("quote", {"quotes": [], "abstained_requests": []}),
    ],
)
def test_no_claims_and_no_abstention_is_an_empty_answer(mode: str, answer: dict[str, Any]) -> None:
    result = check(mode, answer)
    assert (result.valid, result.reason, result.abstention) == (False, "EMPTY_ANSWER", "none")
    assert result.answer == answer


@pytest.mark.parametrize("mode", MODES)
def test_full_abstention_is_valid(mode: str) -> None:
    key = "quotes" if mode == "quote" else "claims"
    answer = {key: [], "abstained_requests": ["Does Quillmate offer a nonprofit discount?"]}
    result = check(mode, answer)
    assert (result.valid, result.reason, result.abstention) == (True, "ABSTAINED", "full")
    assert result.cited_evidence_ids == [] and result.answer == answer


@pytest.mark.parametrize("mode", MODES)
def test_claims_plus_abstained_requests_is_a_partial_abstention(mode: str) -> None:
    answer = {**VALID[mode], "abstained_requests": ["and the Enterprise exception"]}
    result = check(mode, answer)
    assert (result.valid, result.reason, result.abstention) == (True, "OK", "partial")
    assert result.answer == answer


def test_partial_abstention_is_kept_on_an_invalid_answer() -> None:
    answer = {"claims": [{"text": "a", "evidence_ids": ["E7"]}], "abstained_requests": ["the rest"]}
    result = check("claim_lattice_pointer", answer)
    assert (result.reason, result.abstention) == ("CITATION_NOT_ADMITTED", "partial")


# --- provider errors -------------------------------------------------------------------------


def test_provider_error_passes_the_error_through() -> None:
    error = "HTTP 500 (injected failure second line)"
    result = check("claim_lattice", "", error=error)
    assert (result.valid, result.reason, result.detail) == (False, "PROVIDER_ERROR", error)
    assert result.answer is None and result.cited_evidence_ids == []


def test_provider_error_wins_over_any_text() -> None:
    result = check("claim_lattice", json.dumps(CLAIMS), error="timed out after 5 s")
    assert result.reason == "PROVIDER_ERROR" and result.detail == "timed out after 5 s"


# --- never raises ----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "text",
    ["\x00", "{\"claims\": [null]}", "{\"quotes\": [1, 2]}", "{\"claims\": [[]]}", "{}" * 3, "{\"a\": {\"b\": [",
     "\ufeff{}", "{\"claims\": {\"text\": \"a\"}}", "{" * 50 + "}" * 50],
)
def test_garbage_never_raises(mode: str, text: str) -> None:
    result = check(mode, text)
    assert not result.valid


# --- the JSON schema sent to the provider ----------------------------------------------------


def _objects(node: Any) -> list[dict[str, Any]]:
    found = []
    if isinstance(node, dict):
        if node.get("type") == "object":
            found.append(node)
        for value in node.values():
            found.extend(_objects(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_objects(value))
    return found


@pytest.mark.parametrize("mode", MODES)
def test_json_schema_requires_every_property_and_forbids_extra_ones(mode: str) -> None:
    schema = json_schema(mode)
    objects = _objects(schema)
    assert len(objects) == 2  # the answer and its item
    for obj in objects:
        assert obj["additionalProperties"] is False
        assert obj["required"] == list(obj["properties"])
    text = json.dumps(schema)
    assert "$ref" not in text and "$defs" not in text


def test_json_schema_shapes() -> None:
    item = {"type": "object", "additionalProperties": False}
    assert json_schema("quote") == {
        "type": "object",
        "properties": {
            "quotes": {"type": "array", "items": {
                **item,
                "properties": {"evidence_id": {"type": "string"}, "text": {"type": "string"}},
                "required": ["evidence_id", "text"],
            }},
            "abstained_requests": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["quotes", "abstained_requests"],
        "additionalProperties": False,
    }
    assert json_schema("claim_lattice")["properties"]["claims"]["items"]["required"] == ["text", "evidence_ids", "quote"]
    assert json_schema("claim_lattice_pointer")["properties"]["claims"]["items"]["required"] == ["text", "evidence_ids"]


@pytest.mark.parametrize("mode", MODES)
def test_json_schema_is_a_fresh_copy(mode: str) -> None:
    first = json_schema(mode)
    first["properties"].clear()
    assert json_schema(mode)["properties"]


@pytest.mark.parametrize("mode", MODES)
def test_valid_answers_match_the_schema_keys(mode: str) -> None:
    """The example answers used above have exactly the schema's keys, at both levels."""
    schema = json_schema(mode)
    answer = VALID[mode]
    assert list(answer) == schema["required"]
    [items_key] = [k for k in schema["properties"] if k != "abstained_requests"]
    item_schema = schema["properties"][items_key]["items"]
    for item in answer[items_key]:
        assert sorted(item) == sorted(item_schema["required"])
    assert set(ANSWER_MODELS) == set(MODES)


EXAMPLES = [
    ("claim_lattice", json.dumps(CLAIMS), None),
    ("quote", json.dumps({"quotes": [], "abstained_requests": ["q"]}), None),
    ("quote", "", "HTTP 500"),
    ("quote", "not json", None),
    ("quote", json.dumps(CLAIMS), None),
    ("quote", json.dumps({"quotes": [], "abstained_requests": []}), None),
    ("claim_lattice_pointer", json.dumps({"claims": [{"text": "a", "evidence_ids": []}], "abstained_requests": []}), None),
    ("claim_lattice_pointer", json.dumps({"claims": [{"text": "a", "evidence_ids": ["E9"]}], "abstained_requests": []}), None),
]


def test_every_reason_used_is_documented() -> None:
    """The reasons check_contract produces are exactly the documented ones (SEEN also collects the
    reasons of every other test in this module that ran before this one)."""
    reasons = {check(mode, text, error=error).reason for mode, text, error in EXAMPLES}
    assert reasons == set(REASONS)
    assert set(REASONS) >= SEEN
    assert contract.REASONS is REASONS


@pytest.mark.parametrize("mode", ["quote", "claim_lattice", "claim_lattice_pointer"])
def test_schema_with_evidence_ids_enumerates_exactly_the_admitted_ids(mode: str) -> None:
    schema = json_schema(mode, ["E1", "E2"])
    item = schema["properties"]["quotes" if mode == "quote" else "claims"]["items"]["properties"]
    cite = item["evidence_id"] if mode == "quote" else item["evidence_ids"]["items"]
    assert cite == {"type": "string", "enum": ["E1", "E2"]}
    assert json_schema(mode, []) == json_schema(mode)  # nothing admitted: nothing to enumerate
