"""chunk_text: rune-bounded, exact offsets, overlapping, boundary-preferring, covering."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from arborist.corpus import Chunk, ChunkingSettings, chunk_text


@st.composite
def chunk_settings(draw: st.DrawFn, min_overlap: int = 0) -> ChunkingSettings:
    size = draw(st.integers(min_value=50, max_value=400))
    overlap = draw(st.integers(min_value=min_overlap, max_value=size // 2 - 1))
    return ChunkingSettings(chunk_runes=size, overlap_runes=overlap)


# Prose: short words (letters/digits of any script), joined by spaces,
# sentence ends and paragraph breaks.
_word = st.text(alphabet=st.characters(categories=("L", "N")), min_size=1, max_size=8)
_sep = st.sampled_from([" ", " ", " ", ". ", ", ", "; ", "\n", ".\n\n", "! ", "? "])


@st.composite
def prose(draw: st.DrawFn) -> str:
    parts: list[str] = []
    for w in draw(st.lists(_word, min_size=1, max_size=300)):
        parts += [w, draw(_sep)]
    return "".join(parts)


def check_invariants(text: str, chunks: list[Chunk], cfg: ChunkingSettings) -> None:
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    for c in chunks:
        assert 0 < len(c.text) <= cfg.chunk_runes
        assert c.n_runes == len(c.text)
        assert text[c.start : c.end] == c.text
        assert c.text == c.text.strip(), "chunks carry no outer whitespace"
    for a, b in zip(chunks, chunks[1:]):
        assert a.start < b.start, "chunks advance"
        assert b.end >= a.end
    covered = [False] * len(text)
    for c in chunks:
        covered[c.start : c.end] = [True] * (c.end - c.start)
    missing = [i for i, ch in enumerate(text) if not ch.isspace() and not covered[i]]
    assert missing == [], f"non-space characters outside every chunk at {missing[:5]}"


@settings(max_examples=300, deadline=None)
@given(text=st.text(), cfg=chunk_settings())
def test_invariants_on_arbitrary_text(text: str, cfg: ChunkingSettings) -> None:
    check_invariants(text, chunk_text(text, cfg), cfg)


@settings(max_examples=200, deadline=None)
@given(text=prose(), cfg=chunk_settings())
def test_invariants_on_prose(text: str, cfg: ChunkingSettings) -> None:
    check_invariants(text, chunk_text(text, cfg), cfg)


@settings(max_examples=200, deadline=None)
@given(text=prose(), cfg=chunk_settings(min_overlap=12))
def test_consecutive_chunks_overlap(text: str, cfg: ChunkingSettings) -> None:
    # Words are at most 8 runes and separators at most 3, so a word start
    # always lies inside the overlap window.
    chunks = chunk_text(text, cfg)
    for a, b in zip(chunks, chunks[1:]):
        assert b.start < a.end, (a, b)


@settings(max_examples=100, deadline=None)
@given(text=prose(), size=st.integers(min_value=50, max_value=400))
def test_no_overlap_when_overlap_is_zero(text: str, size: int) -> None:
    chunks = chunk_text(text, ChunkingSettings(chunk_runes=size, overlap_runes=0))
    for a, b in zip(chunks, chunks[1:]):
        assert b.start >= a.end


def test_overlap_of_hard_cut_text_is_exactly_the_setting() -> None:
    text = "x" * 1000  # no boundary at all: hard cuts, overlap cannot move to a word start
    chunks = chunk_text(text, ChunkingSettings(chunk_runes=100, overlap_runes=30))
    assert [(c.start, c.end) for c in chunks[:3]] == [(0, 100), (70, 170), (140, 240)]
    assert chunks[-1].end == 1000


SENTENCES = " ".join(
    f"Sentence number {i} talks about a lantern, a kettle and a boat {'on the lake' * (i % 3)}."
    for i in range(60)
)


def test_cuts_prefer_sentence_ends() -> None:
    cfg = ChunkingSettings(chunk_runes=300, overlap_runes=30)
    chunks = chunk_text(SENTENCES, cfg)
    assert len(chunks) > 5
    for c in chunks[:-1]:
        assert c.text.endswith("."), c.text[-40:]


def test_cuts_prefer_paragraph_breaks_over_sentences() -> None:
    para = "One short sentence here. Another short sentence there. A third one to pad it out."
    text = "\n\n".join([para] * 12)
    cfg = ChunkingSettings(chunk_runes=200, overlap_runes=0)
    chunks = chunk_text(text, cfg)
    assert len(chunks) > 3
    for c in chunks[:-1]:
        assert text[c.end : c.end + 2] == "\n\n", repr(text[c.end - 10 : c.end + 5])
        assert c.text.endswith("pad it out.")


def test_runes_are_code_points_not_bytes_or_utf16() -> None:
    emoji = "😀" * 500  # 4 UTF-8 bytes, 2 UTF-16 units each
    chunks = chunk_text(emoji, ChunkingSettings(chunk_runes=100, overlap_runes=0))
    assert [len(c.text) for c in chunks] == [100] * 5
    assert "".join(c.text for c in chunks) == emoji


def test_accented_and_emoji_prose_stays_within_runes() -> None:
    text = " ".join(["Crème brûlée 🍮 à la façon de Zoë, naïve 🇫🇷 déjà vu."] * 40)
    decomposed = text.replace("é", "e\u0301")  # combining marks count as runes too
    for source in (text, decomposed):
        cfg = ChunkingSettings(chunk_runes=60, overlap_runes=10)
        chunks = chunk_text(source, cfg)
        check_invariants(source, chunks, cfg)
        assert max(len(c.text) for c in chunks) <= 60
        # Byte length exceeds the rune budget: the count really is in code points.
        assert max(len(c.text.encode("utf-8")) for c in chunks) > 60


def test_short_text_is_one_stripped_chunk() -> None:
    chunks = chunk_text("  \n hello world.  \n", ChunkingSettings())
    assert chunks == [Chunk(ordinal=0, start=4, end=16, text="hello world.")]


@pytest.mark.parametrize("text", ["", " ", "\n\n\t  \n"])
def test_empty_or_blank_text_has_no_chunks(text: str) -> None:
    assert chunk_text(text, ChunkingSettings()) == []


def test_default_settings() -> None:
    cfg = ChunkingSettings()
    assert (cfg.chunk_runes, cfg.overlap_runes) == (1200, 120)
    chunks = chunk_text(SENTENCES * 3)
    assert max(len(c.text) for c in chunks) <= 1200


@pytest.mark.parametrize(("size", "overlap"), [(100, 50), (100, 99), (100, 100), (400, 250)])
def test_overlap_of_half_the_size_or_more_is_rejected(size: int, overlap: int) -> None:
    with pytest.raises(ValidationError, match="overlap_runes"):
        ChunkingSettings(chunk_runes=size, overlap_runes=overlap)


def test_overlap_just_below_half_is_accepted() -> None:
    assert ChunkingSettings(chunk_runes=100, overlap_runes=49).overlap_runes == 49


@pytest.mark.parametrize("kwargs", [{"chunk_runes": 49}, {"overlap_runes": -1}, {"unknown": 1}])
def test_invalid_settings_are_rejected(kwargs: dict[str, int]) -> None:
    with pytest.raises(ValidationError):
        ChunkingSettings(**kwargs)
