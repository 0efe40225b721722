"""The vetoes' word lists are policy values: in the hash, and they drive the checks."""

from __future__ import annotations

from pairs import reasons

from arborist.verify import Reason, VerifierPolicy, verifier_policy_hash, verify_answer
from arborist.verify.vetoes import compare


def test_word_lists_are_policy_values_in_the_hash() -> None:
    base = verifier_policy_hash(VerifierPolicy())
    assert verifier_policy_hash(VerifierPolicy(negation_words=("not",))) != base
    assert verifier_policy_hash(VerifierPolicy(negative_prefixes=("un",))) != base
    pairs = dict(VerifierPolicy().direction_pairs)
    pairs.pop("order")
    assert verifier_policy_hash(VerifierPolicy(direction_pairs=pairs)) != base
    assert verifier_policy_hash(VerifierPolicy(polarity_checks=False)) != base


def test_policy_lists_drive_the_check() -> None:
    claim, quote = "The toxin was detected before the onset.", "The toxin was detected after the onset."
    pairs = dict(VerifierPolicy().direction_pairs)
    pairs.pop("order")
    evidence = [{"id": "E1", "title": "Toxin", "text": quote}]
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}]}
    strict = verify_answer(claim, "claim_lattice", evidence, answer)
    lax = verify_answer(claim, "claim_lattice", evidence, answer, VerifierPolicy(direction_pairs=pairs))
    off = verify_answer(claim, "claim_lattice", evidence, answer, VerifierPolicy(polarity_checks=False))
    assert Reason.DIRECTION_MISMATCH in strict.claims[0].reasons
    assert Reason.DIRECTION_MISMATCH not in lax.claims[0].reasons
    assert Reason.DIRECTION_MISMATCH not in off.claims[0].reasons


def test_symmetric_words_are_a_policy_value() -> None:
    claim, support = "Depression is linked to obesity.", "Obesity is linked to depression."
    assert Reason.ROLES_SWAPPED not in reasons(claim, support)
    strict = VerifierPolicy(symmetric_words=())
    assert Reason.ROLES_SWAPPED in {f.reason for f in compare(claim, support, strict.lexicon())}
    assert verifier_policy_hash(strict) != verifier_policy_hash(VerifierPolicy())
