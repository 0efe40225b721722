"""User-payload layouts against lost-in-the-middle.

- `tail`: evidence, then the question at the end.
- `bookend`: the question before and after the evidence.
- `per_chunk`: bookend plus a `[for: <question>]` reminder before every
  evidence block but the first (the leading question covers that one).
- `auto` (a policy value, never rendered as such): `per_chunk` for list and
  extraction questions (quantifier ALL, COMPREHENSIVE, OPEN_REQUEST), `tail`
  otherwise; the answer path resolves it per question (`answer.pipeline.layout_for`).

The bytes these produce are part of the answer record and are tested byte
for byte; change them only with a new prompt version.
"""

from __future__ import annotations

from collections.abc import Sequence

from arborist.errors import InputError
from arborist.evidence.admission import EvidenceChunk

LAYOUTS = ("tail", "bookend", "per_chunk")
AUTO = "auto"
POLICY_LAYOUTS = (*LAYOUTS, AUTO)
DEFAULT_MAX_REMINDER_CHARS = 512


def check_layout(layout: str, valid: tuple[str, ...] = LAYOUTS) -> str:
    if layout not in valid:
        raise InputError(f"unknown layout {layout!r}; valid layouts: {', '.join(valid)}")
    return layout


def evidence_id(index: int) -> str:
    """E1, E2, ...: short ids the model cites instead of long chunk ids."""
    return f"E{index + 1}"


def evidence_block(index: int, chunk: EvidenceChunk, role: str) -> str:
    return f"=== {evidence_id(index)} ({chunk.title} | {role}) ===\n{chunk.text}\n"


def reminder(question: str, max_chars: int) -> str:
    """The per-chunk reminder: the question byte-identical, cut at `max_chars` characters."""
    return f"[for: {question[:max_chars]}]\n"


def render_user_payload(
    question: str,
    chunks: Sequence[EvidenceChunk],
    layout: str,
    role: str = "retrieved",
    max_reminder_chars: int = DEFAULT_MAX_REMINDER_CHARS,
) -> str:
    check_layout(layout)
    blocks = []
    for i, chunk in enumerate(chunks):
        block = evidence_block(i, chunk, role)
        if layout == "per_chunk" and i > 0:
            block = reminder(question, max_reminder_chars) + block
        blocks.append(block)
    body = "EVIDENCE:\n" + "\n".join(blocks)
    tail = f"---\nQUESTION: {question}\n"
    if layout == "tail":
        return body + tail
    return f"QUESTION: {question}\n---\n" + body + tail
