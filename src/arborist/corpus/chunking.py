"""Rune-counted chunking that keeps paragraph and sentence boundaries.

Lengths are Unicode code points (runes), the unit of the context budget, so a
chunk that fits here fits the admission step later without recounting.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, model_validator

# Candidate cut points, best first: paragraph break, sentence end, clause, space.
_BOUNDARIES = (
    re.compile(r"\n\s*\n"),
    re.compile(r"(?<=[.!?])[\"')\]]?\s+"),
    re.compile(r"(?<=[;:,])\s+"),
    re.compile(r"\s+"),
)


class ChunkingSettings(BaseModel):
    """Chunking knobs; part of the answer policy, never of the corpus digest."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    chunk_runes: int = Field(default=1200, ge=50, le=100_000)
    overlap_runes: int = Field(default=120, ge=0)

    @model_validator(mode="after")
    def _overlap_below_size(self) -> ChunkingSettings:
        if self.overlap_runes >= self.chunk_runes // 2:
            raise ValueError(
                f"overlap_runes ({self.overlap_runes}) must be less than half of "
                f"chunk_runes ({self.chunk_runes})"
            )
        return self


class Chunk(BaseModel):
    model_config = ConfigDict(frozen=True)

    ordinal: int
    start: int
    end: int
    text: str

    @property
    def n_runes(self) -> int:
        return len(self.text)


def _best_cut(text: str, start: int, limit: int) -> int:
    """Largest boundary end in (start + limit/2, start + limit], else the hard limit."""
    window = text[start : start + limit]
    floor = limit // 2
    for pattern in _BOUNDARIES:
        cut = None
        for m in pattern.finditer(window):
            if m.end() > floor:
                cut = m.end()
        if cut is not None:
            return start + cut
    return start + limit


def _overlap_start(text: str, end: int, overlap: int, prev_start: int) -> int:
    """Start the next chunk `overlap` runes back, moved forward to a word start."""
    if overlap == 0:
        return end
    start = max(end - overlap, prev_start + 1)
    if start > 0 and not text[start - 1].isspace():
        m = re.search(r"\s", text[start:end])
        if m is not None:
            start += m.end()
    return min(start, end)


def chunk_text(text: str, settings: ChunkingSettings | None = None) -> list[Chunk]:
    """Split `text` into chunks of at most `chunk_runes`, overlapping by about `overlap_runes`."""
    settings = settings or ChunkingSettings()
    size, overlap = settings.chunk_runes, settings.overlap_runes
    n = len(text)
    if n == 0:
        return []
    chunks: list[Chunk] = []
    start = 0
    while True:
        if n - start <= size:
            end = n
        else:
            end = _best_cut(text, start, size)
        body = text[start:end]
        # Strip outer whitespace but keep offsets exact.
        lead = len(body) - len(body.lstrip())
        trail = len(body) - len(body.rstrip())
        s, e = start + lead, end - trail
        if e > s:
            chunks.append(Chunk(ordinal=len(chunks), start=s, end=e, text=text[s:e]))
        if end >= n:
            return chunks
        start = _overlap_start(text, end, overlap, start)
