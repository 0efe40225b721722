"""Evidence selection (EvidenceK) and context admission under a rune budget.

Admission takes the first EvidenceK chunks of the ranked list, then admits
whole chunks while the budget allows; a chunk that does not fit is omitted
(with a reason) and admission goes on with the chunks below it. Runes are
Unicode code points, not bytes and not UTF-16 units.
"""

from __future__ import annotations

import pytest

from arborist.evidence import Admission, EvidenceChunk, admit


def chunk(n: int, text: str, title: str | None = None) -> EvidenceChunk:
    return EvidenceChunk(chunk_id=f"doc{n}#chunk-0", source_id=f"src/{n}.md", title=title or f"Doc {n}", text=text)


def ranked(*sizes: int) -> list[EvidenceChunk]:
    """Chunks c0, c1, ... whose texts have exactly `sizes[i]` runes (each text is unique)."""
    out = []
    for i, size in enumerate(sizes):
        stem = f"<{i}>"
        out.append(chunk(i, (stem + "x" * size)[:size] if size >= len(stem) else "y" * size))
    assert [c.n_runes for c in out] == list(sizes)
    return out


def ids(chunks: list[EvidenceChunk]) -> list[str]:
    return [c.chunk_id for c in chunks]


# --- EvidenceK ------------------------------------------------------------------------------


def test_first_evidence_k_of_the_ranked_list_are_selected_in_order() -> None:
    chunks = ranked(10, 10, 10, 10, 10, 10)
    result = admit(chunks, evidence_k=3, max_runes=10_000)
    assert result.selected_chunk_ids == ids(chunks[:3])
    # chunks past EvidenceK are never admitted, however much budget is left
    assert result.admitted_chunk_ids == ids(chunks[:3])
    assert result.omitted == []
    assert result.used_runes == 30 and result.max_runes == 10_000


def test_evidence_k_larger_than_the_list_selects_everything() -> None:
    chunks = ranked(5, 6, 7)
    result = admit(chunks, evidence_k=50, max_runes=1000)
    assert result.selected_chunk_ids == ids(chunks)
    assert result.admitted_chunk_ids == ids(chunks)
    assert result.used_runes == 18


def test_ranked_order_is_kept_not_sorted_by_size() -> None:
    chunks = ranked(30, 5, 20, 1)
    result = admit(chunks, evidence_k=4, max_runes=1000)
    assert result.selected_chunk_ids == ids(chunks)
    assert result.admitted_chunk_ids == ids(chunks)


def test_empty_ranked_list() -> None:
    result = admit([], evidence_k=5, max_runes=100)
    assert result == Admission(selected_chunk_ids=[], admitted=[], omitted=[], used_runes=0, max_runes=100)


# --- the rune budget ---------------------------------------------------------------------------


def test_a_chunk_that_does_not_fit_is_omitted_and_later_shorter_ones_still_get_in() -> None:
    chunks = ranked(50, 100, 30, 20)
    result = admit(chunks, evidence_k=4, max_runes=90)

    assert result.admitted_chunk_ids == [chunks[0].chunk_id, chunks[2].chunk_id]
    assert result.omitted_chunk_ids == [chunks[1].chunk_id, chunks[3].chunk_id]
    [first, second] = result.omitted
    assert first.n_runes == 100 and first.reason == "budget: 40 runes left, chunk has 100"
    assert second.n_runes == 20 and second.reason == "budget: 10 runes left, chunk has 20"
    assert result.used_runes == 80 and result.max_runes == 90


def test_long_first_chunk_does_not_shut_out_the_rest() -> None:
    chunks = ranked(500, 40, 40, 40)
    result = admit(chunks, evidence_k=4, max_runes=100)
    assert result.omitted_chunk_ids == [chunks[0].chunk_id, chunks[3].chunk_id]
    assert result.admitted_chunk_ids == [chunks[1].chunk_id, chunks[2].chunk_id]
    assert result.omitted[0].reason == "budget: 100 runes left, chunk has 500"
    assert result.used_runes == 80


def test_a_chunk_that_exactly_fills_the_budget_is_admitted() -> None:
    chunks = ranked(60, 40, 1)
    result = admit(chunks, evidence_k=3, max_runes=100)
    assert result.admitted_chunk_ids == ids(chunks[:2])
    assert result.used_runes == 100 == result.max_runes
    assert result.omitted[0].reason == "budget: 0 runes left, chunk has 1"


def test_nothing_fits() -> None:
    chunks = ranked(200, 300)
    result = admit(chunks, evidence_k=2, max_runes=100)
    assert result.admitted == [] and result.used_runes == 0
    assert result.omitted_chunk_ids == ids(chunks)
    assert [o.reason for o in result.omitted] == [
        "budget: 100 runes left, chunk has 200",
        "budget: 100 runes left, chunk has 300",
    ]


def test_chunks_are_admitted_whole_never_split() -> None:
    chunks = ranked(70, 70, 70)
    result = admit(chunks, evidence_k=3, max_runes=100)  # room for 1.4 chunks
    assert result.admitted == [chunks[0]]  # the very same chunk, text untouched
    assert result.admitted[0].text == chunks[0].text
    assert result.used_runes == 70


@pytest.mark.parametrize("budget", [0, 1, 69, 70, 139, 140, 141, 210, 1000])
def test_sets_partition_the_selection_and_runes_add_up(budget: int) -> None:
    chunks = ranked(70, 70, 70, 5)
    result = admit(chunks, evidence_k=3, max_runes=budget)
    selected = result.selected_chunk_ids
    assert selected == ids(chunks[:3])
    assert set(result.admitted_chunk_ids).isdisjoint(result.omitted_chunk_ids)
    # admitted and omitted interleave back to the selection, in ranked order
    merged = [c for c in selected if c in set(result.admitted_chunk_ids) | set(result.omitted_chunk_ids)]
    assert merged == selected
    assert len(result.admitted) + len(result.omitted) == len(selected)
    assert result.used_runes == sum(c.n_runes for c in result.admitted) <= budget
    assert result.max_runes == budget


# --- runes are code points ---------------------------------------------------------------------


def test_runes_are_code_points_not_bytes_or_utf16_units() -> None:
    emoji = chunk(1, "😀" * 10)  # 10 runes, 40 UTF-8 bytes, 20 UTF-16 units
    accents = chunk(2, "é" * 10)  # precomposed: 10 runes, 20 UTF-8 bytes
    assert emoji.n_runes == 10 and len(emoji.text.encode("utf-8")) == 40
    assert accents.n_runes == 10 and len(accents.text.encode("utf-8")) == 20

    result = admit([emoji, accents], evidence_k=2, max_runes=20)
    assert result.admitted_chunk_ids == [emoji.chunk_id, accents.chunk_id]
    assert result.used_runes == 20 and result.omitted == []


def test_combining_marks_and_zwj_sequences_count_every_code_point() -> None:
    decomposed = chunk(1, "e\u0301" * 5)  # looks like 5 "é", is 10 code points
    family = chunk(2, "👨\u200d👩\u200d👧")  # one glyph, 5 code points
    assert decomposed.n_runes == 10 and family.n_runes == 5

    result = admit([decomposed, family], evidence_k=2, max_runes=14)
    assert result.admitted_chunk_ids == [decomposed.chunk_id]
    assert result.omitted[0].reason == "budget: 4 runes left, chunk has 5"
    assert result.omitted[0].n_runes == 5
    assert result.used_runes == 10


def test_mixed_unicode_used_runes_is_exact() -> None:
    texts = ["Café naïve — ça va ?", "Zürich 🇨🇭 Straße", "日本語のテキスト", "plain ascii"]
    chunks = [chunk(i, t) for i, t in enumerate(texts)]
    result = admit(chunks, evidence_k=4, max_runes=10_000)
    assert result.used_runes == sum(len(t) for t in texts)
    assert result.used_runes != sum(len(t.encode("utf-8")) for t in texts)
