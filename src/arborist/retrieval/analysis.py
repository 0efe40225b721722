"""What the routes need to know about a question, computed once per question."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from arborist.corpus.fts_query import words
from arborist.text import STOPWORDS, content_tokens, stem_all

__all__ = ["MAX_PHRASE_TOKENS", "STOPWORDS", "QueryTerms", "content_tokens", "stem_all", "stems_of"]

# Phrases longer than this many tokens are not looked for verbatim; it bounds
# the work a 100 KB question can cause.
MAX_PHRASE_TOKENS = 64


@dataclass(frozen=True)
class QueryTerms:
    question: str
    tokens: list[str]
    content: list[str]
    content_stems: frozenset[str]

    vector: np.ndarray | None = field(default=None, compare=False)

    @classmethod
    def of(cls, question: str, vector: np.ndarray | None = None) -> QueryTerms:
        """`vector` is the question's embedding when the caller batched it (batch search)."""
        tokens = words(question)
        content = list(dict.fromkeys(content_tokens(tokens)))
        stems = frozenset(stem_all(content))
        return cls(
            question=question,
            vector=vector,
            tokens=tokens,
            content=content,
            content_stems=stems,
        )

    @cached_property
    def stem_pattern(self) -> re.Pattern[str] | None:
        """Compiled on first use: only the keyword route needs it (a compile costs more than a BM25 lookup)."""
        return _stems_pattern(self.content_stems)

    def covered(self, text: str) -> int:
        """How many distinct content stems occur in `text` as word prefixes.

        One alternation regex over the lower-cased text instead of stemming
        every word: it keeps coverage re-ranking of hundreds of chunks cheap.
        """
        if self.stem_pattern is None:
            return 0
        found = {m[:-1] + "i" if m.endswith("y") else m for m in self.stem_pattern.findall(text.lower())}
        return len(found)

    def ngrams(self, n: int) -> list[list[str]]:
        """Verbatim n-token windows with at least two content tokens (stopword runs match everything)."""
        toks = self.tokens[:MAX_PHRASE_TOKENS]
        grams = []
        for i in range(len(toks) - n + 1):
            gram = toks[i : i + n]
            if len(content_tokens(gram)) >= 2:
                grams.append(gram)
        return grams


def _stems_pattern(stems: frozenset[str]) -> re.Pattern[str] | None:
    """Matches any stem at a word start; Snowball's final i ("citi") also matches y."""
    if not stems:
        return None
    bodies = [
        re.escape(s[:-1]) + "[iy]" if s.endswith("i") else re.escape(s)
        for s in sorted(stems, key=lambda s: (-len(s), s))
    ]
    return re.compile(r"\b(" + "|".join(bodies) + ")")


def index_terms(text: str) -> list[str]:
    """The terms BM25 indexes and looks up: stemmed content tokens, in order, repeats kept."""
    return stem_all(content_tokens(words(text)))


def stems_of(text: str) -> frozenset[str]:
    return frozenset(index_terms(text))
