"""User-payload layouts, byte for byte.

The expected payloads are written out in full: these bytes are part of the
answer record and may change only with a new prompt version.
"""

from __future__ import annotations

import pytest

from arborist.errors import InputError
from arborist.evidence import EvidenceChunk
from arborist.policy.answer import AnswerPolicy, build_policy
from arborist.prompting.layouts import (
    DEFAULT_MAX_REMINDER_CHARS,
    LAYOUTS,
    check_layout,
    evidence_id,
    render_user_payload,
)

Q = "How long is the refund window?"

CHUNKS = [
    EvidenceChunk(chunk_id="a#chunk-0", source_id="billing/refund.md", title="Refund Policy",
                  text="Annual plans: 30 days.\nMonthly plans: 14 days."),
    EvidenceChunk(chunk_id="b#chunk-2", source_id="plans/pricing.md", title="Pricing", text="Team: $29 per seat."),
    EvidenceChunk(chunk_id="c#chunk-1", source_id="misc/café.md", title="Café ☕ «notes»", text="Ünïcödé 😀 text"),
]

TAIL = (
    "EVIDENCE:\n"
    "=== E1 (Refund Policy | retrieved) ===\n"
    "Annual plans: 30 days.\n"
    "Monthly plans: 14 days.\n"
    "\n"
    "=== E2 (Pricing | retrieved) ===\n"
    "Team: $29 per seat.\n"
    "\n"
    "=== E3 (Café ☕ «notes» | retrieved) ===\n"
    "Ünïcödé 😀 text\n"
    "---\n"
    "QUESTION: How long is the refund window?\n"
)

BOOKEND = (
    "QUESTION: How long is the refund window?\n"
    "---\n"
    "EVIDENCE:\n"
    "=== E1 (Refund Policy | retrieved) ===\n"
    "Annual plans: 30 days.\n"
    "Monthly plans: 14 days.\n"
    "\n"
    "=== E2 (Pricing | retrieved) ===\n"
    "Team: $29 per seat.\n"
    "\n"
    "=== E3 (Café ☕ «notes» | retrieved) ===\n"
    "Ünïcödé 😀 text\n"
    "---\n"
    "QUESTION: How long is the refund window?\n"
)

PER_CHUNK = (
    "QUESTION: How long is the refund window?\n"
    "---\n"
    "EVIDENCE:\n"
    "=== E1 (Refund Policy | retrieved) ===\n"
    "Annual plans: 30 days.\n"
    "Monthly plans: 14 days.\n"
    "\n"
    "[for: How long is the refund window?]\n"
    "=== E2 (Pricing | retrieved) ===\n"
    "Team: $29 per seat.\n"
    "\n"
    "[for: How long is the refund window?]\n"
    "=== E3 (Café ☕ «notes» | retrieved) ===\n"
    "Ünïcödé 😀 text\n"
    "---\n"
    "QUESTION: How long is the refund window?\n"
)


def test_layout_names() -> None:
    assert LAYOUTS == ("tail", "bookend", "per_chunk")
    assert DEFAULT_MAX_REMINDER_CHARS == 512
    assert [evidence_id(i) for i in range(3)] == ["E1", "E2", "E3"]


@pytest.mark.parametrize(("layout", "expected"), [("tail", TAIL), ("bookend", BOOKEND), ("per_chunk", PER_CHUNK)])
def test_layouts_byte_for_byte(layout: str, expected: str) -> None:
    payload = render_user_payload(Q, CHUNKS, layout)
    assert payload == expected
    assert payload.encode("utf-8") == expected.encode("utf-8")


def test_tail_and_bookend_have_no_reminders() -> None:
    assert "[for:" not in render_user_payload(Q, CHUNKS, "tail")
    assert "[for:" not in render_user_payload(Q, CHUNKS, "bookend")


def test_document_role_in_block_headers() -> None:
    payload = render_user_payload(Q, CHUNKS[:2], "tail", role="document")
    assert payload == (
        "EVIDENCE:\n"
        "=== E1 (Refund Policy | document) ===\n"
        "Annual plans: 30 days.\n"
        "Monthly plans: 14 days.\n"
        "\n"
        "=== E2 (Pricing | document) ===\n"
        "Team: $29 per seat.\n"
        "---\n"
        "QUESTION: How long is the refund window?\n"
    )


def test_single_chunk_per_chunk_equals_bookend() -> None:
    """The leading question covers the first block: one block means no reminder at all."""
    one = CHUNKS[:1]
    assert render_user_payload(Q, one, "per_chunk") == render_user_payload(Q, one, "bookend") == (
        "QUESTION: How long is the refund window?\n"
        "---\n"
        "EVIDENCE:\n"
        "=== E1 (Refund Policy | retrieved) ===\n"
        "Annual plans: 30 days.\n"
        "Monthly plans: 14 days.\n"
        "---\n"
        "QUESTION: How long is the refund window?\n"
    )


def test_no_evidence() -> None:
    assert render_user_payload(Q, [], "tail") == "EVIDENCE:\n---\nQUESTION: How long is the refund window?\n"
    assert render_user_payload(Q, [], "bookend") == (
        "QUESTION: How long is the refund window?\n---\nEVIDENCE:\n---\nQUESTION: How long is the refund window?\n"
    )
    assert render_user_payload(Q, [], "per_chunk") == render_user_payload(Q, [], "bookend")


def test_long_question_is_cut_to_512_in_reminders_but_full_in_question_lines() -> None:
    # 600 code points, most of them multi-byte: the cut is by characters, not bytes
    question = "é" * 300 + "ß" * 200 + "0123456789" * 10
    assert len(question) == 600
    payload = render_user_payload(question, CHUNKS, "per_chunk")
    cut = question[:512]
    assert cut == "é" * 300 + "ß" * 200 + "0123456789" + "01"

    assert payload.startswith(f"QUESTION: {question}\n---\n")
    assert payload.endswith(f"---\nQUESTION: {question}\n")
    assert payload.count(f"[for: {cut}]\n") == 2
    assert f"[for: {question[:513]}" not in payload
    assert payload == (
        f"QUESTION: {question}\n"
        "---\n"
        "EVIDENCE:\n"
        "=== E1 (Refund Policy | retrieved) ===\n"
        "Annual plans: 30 days.\n"
        "Monthly plans: 14 days.\n"
        "\n"
        f"[for: {cut}]\n"
        "=== E2 (Pricing | retrieved) ===\n"
        "Team: $29 per seat.\n"
        "\n"
        f"[for: {cut}]\n"
        "=== E3 (Café ☕ «notes» | retrieved) ===\n"
        "Ünïcödé 😀 text\n"
        "---\n"
        f"QUESTION: {question}\n"
    )


def test_question_of_exactly_512_is_not_cut() -> None:
    question = "q" * 511 + "?"
    payload = render_user_payload(question, CHUNKS[:2], "per_chunk")
    assert f"[for: {question}]\n" in payload


def test_max_reminder_chars_is_a_parameter() -> None:
    payload = render_user_payload("abcdefghijklmnopqrstuvwxyz", CHUNKS[:2], "per_chunk", max_reminder_chars=5)
    assert "[for: abcde]\n=== E2 (Pricing | retrieved) ===\n" in payload
    assert payload.startswith("QUESTION: abcdefghijklmnopqrstuvwxyz\n")


@pytest.mark.parametrize("layout", LAYOUTS)
def test_awkward_question_stays_byte_identical(layout: str) -> None:
    question = 'What does "quire" mean?\nAnd \'ça\' — naïve 😀\ttab \\n [brackets] {"json": 1}\r\nend  '
    payload = render_user_payload(question, CHUNKS, layout)
    raw = payload.encode("utf-8")
    needle = question.encode("utf-8")
    expected = {"tail": 1, "bookend": 2, "per_chunk": 4}[layout]
    assert raw.count(needle) == expected
    assert raw.endswith(b"---\nQUESTION: " + needle + b"\n")
    if layout != "tail":
        assert raw.startswith(b"QUESTION: " + needle + b"\n---\nEVIDENCE:\n")
    if layout == "per_chunk":
        assert raw.count(b"[for: " + needle + b"]\n") == 2


def test_unknown_layout_lists_the_valid_ones() -> None:
    for call in (lambda: check_layout("diagonal"), lambda: render_user_payload(Q, CHUNKS, "diagonal")):
        with pytest.raises(InputError) as info:
            call()
        message = str(info.value)
        assert "'diagonal'" in message and "\n" not in message
        assert all(name in message for name in LAYOUTS)
        assert message == "unknown layout 'diagonal'; valid layouts: tail, bookend, per_chunk"


def test_layout_names_are_case_sensitive() -> None:
    with pytest.raises(InputError):
        check_layout("Tail")
    with pytest.raises(InputError):
        check_layout("per-chunk")


# --- the policy's effective layout ----------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "layout", "effective"),
    [
        ("quote", "per_chunk", "bookend"),
        ("quote", "tail", "tail"),
        ("quote", "bookend", "bookend"),
        ("claim_lattice", "per_chunk", "per_chunk"),
        ("claim_lattice_pointer", "per_chunk", "per_chunk"),
        ("claim_lattice", "tail", "tail"),
    ],
)
def test_effective_layout(mode: str, layout: str, effective: str) -> None:
    policy = build_policy(model_id="scripted:scripted", mode=mode, layout=layout)
    assert policy.layout == layout  # the asked-for layout stays in the policy (and its hash)
    assert policy.effective_layout() == effective


def test_policy_refuses_an_unknown_layout_in_one_line() -> None:
    with pytest.raises(InputError) as info:
        build_policy(model_id="scripted:scripted", layout="diagonal")
    assert str(info.value) == "unknown layout 'diagonal'; valid layouts: tail, bookend, per_chunk, auto"
    with pytest.raises(InputError):
        AnswerPolicy(model_id="scripted:scripted", layout="middle")


@pytest.mark.parametrize(("question", "rendered"), [
    ("List all plans that include single sign-on.", "per_chunk"),
    ("Which plans include single sign-on?", "per_chunk"),
    ("What is the Team plan's monthly price?", "tail"),
    ("Is there a free plan?", "tail"),
])
def test_auto_layout_is_per_chunk_for_list_questions_only(question: str, rendered: str) -> None:
    from arborist.answer.pipeline import build_messages, layout_for
    from arborist.policy.answer import governance_policy_hash

    auto = build_policy(model_id="scripted:scripted", layout="auto")
    assert layout_for(auto, question) == rendered
    chunks = [EvidenceChunk(chunk_id=f"d#chunk-{i}", source_id="d", title="T", text=f"text {i}") for i in range(2)]
    assert ("[for: " in build_messages(question, chunks, auto, "retrieved")[1].content) == (rendered == "per_chunk")
    assert governance_policy_hash(auto) != governance_policy_hash(build_policy(model_id="scripted:scripted"))
    with pytest.raises(InputError, match="resolve it"):
        auto.effective_layout()
