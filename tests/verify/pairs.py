"""Helpers of the rule tests: a claim over its quote, verified or compared."""

from __future__ import annotations

from arborist.verify import Label, Reason, VerifierPolicy, verify_answer
from arborist.verify.vetoes import compare

LEX = VerifierPolicy().lexicon()


def lattice(claim: str, quote: str, text: str | None = None, question: str | None = None):
    evidence = [{"id": "E1", "title": claim, "text": text or quote}]
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    v = verify_answer(question or claim, "claim_lattice", evidence, answer)
    return v, v.claims[0]


def untitled(claim: str, quote: str):
    """The claim over its quote under a title that holds none of the claim's words (`lattice` titles the
    evidence with the claim, which states its numbers)."""
    evidence = [{"id": "E1", "title": "Report", "text": quote}]
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    return verify_answer(claim, "claim_lattice", evidence, answer)


def reasons(claim: str, support: str) -> set[Reason]:
    return {f.reason for f in compare(claim, support, LEX)}


def label_and_reasons(claim: str, quote: str, passage: str) -> tuple[Label, list[Reason]]:
    """The label and the claim's reasons when its quote stands inside `passage`."""
    evidence = [{"id": "E1", "title": "Notes", "text": passage}]
    answer = {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []}
    v = verify_answer(claim, "claim_lattice", evidence, answer)
    return v.label, v.claims[0].reasons
