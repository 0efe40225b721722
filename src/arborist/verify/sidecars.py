"""The missed-answer guard (`arborist.guards.missed_answer`) handed the verifier's own reading of text.

The guard must read the question and the answer as the verifier read the
evidence (its stems and normalised strings are compared with the verifier's
tokenised chunks), but `arborist.guards` imports nothing of the verifier:
this module binds `arborist.verify.normalize` to it, so the verifier calls
the guard, and `arborist.verify` exports `find_denials`, with the signatures
they always had.
"""

from __future__ import annotations

from arborist.guards import missed_answer
from arborist.guards.missed_answer import DENIAL_PATTERNS, GuardResult, Reading
from arborist.verify.checks import Prepared
from arborist.verify.normalize import (
    QUOTE_CHARS,
    Token,
    is_stopword,
    normalise,
    sentence_initial,
    token_stems,
    tokenise,
)
from arborist.verify.quantifier import Quantifier

__all__ = ["DENIAL_PATTERNS", "VERIFIER_READING", "GuardResult", "find_denials", "missed_answer_guard"]

VERIFIER_READING: Reading[Token] = Reading(
    normalise=normalise, tokenise=tokenise, token_stems=token_stems, is_stopword=is_stopword,
    sentence_initial=sentence_initial, quote_chars=QUOTE_CHARS,
)


def find_denials(texts: list[tuple[str, str]]) -> list[str]:
    """(where, text) pairs -> "where: 'matched words'" for every denial found (`DENIAL_PATTERNS`)."""
    return missed_answer.find_denials(texts, normalise)


def missed_answer_guard(
    question: str,
    quantifier: Quantifier,
    chunks: list[Prepared],
    denial_texts: list[tuple[str, str]],
    answer_texts: list[str],
    proximity: int,
) -> GuardResult:
    """The missed-answer guard's sidecar output for one verification (it never changes a label)."""
    return missed_answer.missed_answer_guard(question, quantifier, chunks, denial_texts, answer_texts, proximity,
                                             VERIFIER_READING)
