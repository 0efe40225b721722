"""Negation (NEGATION_MISMATCH, NEGATION_UNSTATED): the claim and its support must negate the same words.

`reading.Text` finds what each negator denies (its head, or its whole clause: "none of the 40 participants
developed ..."); this module lines the claim's words up with the support's and compares them, a flipped prefix
counting as one negation. A claim's negated word that the support never uses, in either polarity, is
NEGATION_UNSTATED; a negated direction word is the direction check's ("not required" is "dispensable").
Negative prefixes are left out of that: "in-" starts too many words that negate nothing ("intestinal").
"""

from __future__ import annotations

from arborist.verify.lexicon import Lexicon
from arborist.verify.reading import (
    CESSATION,
    REFUSALS,
    Finding,
    Text,
    align,
    event_side,
    negated_phrase,
    occurrences,
    prefix_base,
)
from arborist.verify.reasons import Reason

# Negators that deny less than the whole ("rarely causes"): they agree only with each other.
_WEAK_NEGATORS = frozenset("rarely seldom hardly scarcely".split())


def denied_alike(text: Text, i: int, other: Text) -> bool:
    """Token i is denied by a verb of ceasing, avoiding or declining that the other text also uses, with the
    thing it denies put another way round ("The town avoided flooding" and "Flooding was avoided")."""
    k = text.negated_heads.get(i)
    return (k is not None and text.tokens[k].norm in CESSATION | REFUSALS
            and text.all_stems[k] in other.all_stems)


def weakly_negated(text: Text, i: int) -> bool:
    k = text.negated_heads.get(i)
    return k is not None and text.tokens[k].norm in _WEAK_NEGATORS


def negation_findings(claim: Text, support: Text, lex: Lexicon) -> list[Finding]:
    """NEGATION_MISMATCH and NEGATION_UNSTATED findings of the claim against its support, word by word."""
    findings: list[Finding] = []
    # negation, word by word; a claim that uses a word and its negative-prefixed form both ("nonhypertensive
    # people ... developing hypertension") is not lined up across the prefix
    claim_stems = set(claim.all_stems)
    for i, stem in enumerate(claim.stems):
        if not stem:
            continue
        both = prefix_base(stem, lex.prefixes) in claim_stems or any(
            prefix_base(s, lex.prefixes) == stem for s in claim_stems)
        found = [o for o in occurrences(stem, support, lex) if not (both and o[1])]
        hit = align(claim, i, found, support)
        if hit is None:
            if i in claim.negated_heads and not any(event_side(p, claim.all_stems[i]) for p in lex.pairs):
                findings.append(Finding(
                    Reason.NEGATION_UNSTATED, f"negation: the claim's '{negated_phrase(claim, claim.negated_heads.get(i), i)}' "
                    "is stated nowhere in its support, neither way round"))
            continue
        j, flipped, _ = hit
        neg_c = i in claim.negated_heads or (j in support.spread and claim.clause_negated(i, support))
        neg_s = (j in support.negated_heads or (i in claim.spread and support.clause_negated(j, claim))) != flipped
        if denied_alike(claim, i, support) or denied_alike(support, j, claim):
            neg_c = neg_s  # "Flooding was avoided" is "The town avoided flooding"
        weak_c = neg_c and weakly_negated(claim, i)
        weak_s = neg_s and weakly_negated(support, j)
        if neg_c != neg_s or weak_c != weak_s:  # "rarely causes" is neither "causes" nor "does not cause"
            c_word = negated_phrase(claim, claim.negated_heads.get(i), i)
            s_word = negated_phrase(support, support.negated_heads.get(j), j)
            findings.append(Finding(Reason.NEGATION_MISMATCH,
                                    f"negation: the claim's '{c_word}' is '{s_word}' in its support"))
    return findings
