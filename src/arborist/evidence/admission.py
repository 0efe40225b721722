"""EvidenceK cutoff, then context admission under a rune budget.

Both boundaries drop evidence, so both record exactly what they dropped:
`selected` vs `ranked` is the EvidenceK loss, `omitted` is the budget loss.
Chunks are admitted whole or not at all: a split chunk can cut the sentence
that held the answer and would make quotes unverifiable.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field


class EvidenceChunk(BaseModel):
    """A chunk as the answer path sees it."""

    chunk_id: str
    source_id: str
    title: str
    text: str

    @property
    def n_runes(self) -> int:
        return len(self.text)


class Omission(BaseModel):
    chunk_id: str
    n_runes: int
    reason: str = Field(description="why it was not admitted, e.g. 'budget: 900 runes left, chunk has 1200'")


class Admission(BaseModel):
    selected_chunk_ids: list[str]
    admitted: list[EvidenceChunk]
    omitted: list[Omission]
    used_runes: int
    max_runes: int

    @property
    def admitted_chunk_ids(self) -> list[str]:
        return [c.chunk_id for c in self.admitted]

    @property
    def omitted_chunk_ids(self) -> list[str]:
        return [o.chunk_id for o in self.omitted]


def admit(ranked: Sequence[EvidenceChunk], evidence_k: int, max_runes: int) -> Admission:
    """Take the first `evidence_k` chunks, then admit each whole chunk that still fits.

    A chunk that does not fit is skipped (and recorded), and admission goes
    on down the list: one long chunk must not shut out shorter ones below it.
    """
    selected = list(ranked[:evidence_k])
    admitted: list[EvidenceChunk] = []
    omitted: list[Omission] = []
    used = 0
    for chunk in selected:
        if used + chunk.n_runes <= max_runes:
            admitted.append(chunk)
            used += chunk.n_runes
        else:
            omitted.append(
                Omission(
                    chunk_id=chunk.chunk_id,
                    n_runes=chunk.n_runes,
                    reason=f"budget: {max_runes - used} runes left, chunk has {chunk.n_runes}",
                )
            )
    return Admission(
        selected_chunk_ids=[c.chunk_id for c in selected],
        admitted=admitted,
        omitted=omitted,
        used_runes=used,
        max_runes=max_runes,
    )
