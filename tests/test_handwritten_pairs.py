"""The hand-written claim/quote pairs of bench/verifier_handwritten.py as a regression floor: the verifier keeps
rejecting the reversed, overstated and narrowed claims it rejects today, and keeps accepting the paraphrases."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from arborist.verify import Label, VerifierPolicy, verify_answer

PAIRS = Path(__file__).resolve().parents[1] / "bench" / "data" / "handwritten_pairs.jsonl"

# set -> (most false STRICT among the rejects, fewest paraphrases accepted), as measured at verifier policy /23
FLOORS = {"tuned": (3, 36), "held-out": (1, 53), "held-out-2": (9, 65), "held-out-3": (12, 75), "held-out-4": (29, 64)}


def _strict(row: dict[str, str]) -> bool:
    evidence = [{"id": "E1", "title": row["title"], "text": row["passage"]}]
    answer = {"claims": [{"text": row["claim"], "evidence_ids": ["E1"], "quote": row["quote"]}],
              "abstained_requests": []}
    return verify_answer(row["claim"], "claim_lattice", evidence, answer, VerifierPolicy()).label is Label.STRICT


@pytest.fixture(scope="module")
def outcomes() -> dict[str, Counter[str]]:
    counts: dict[str, Counter[str]] = {}
    for line in PAIRS.read_text("utf-8").splitlines():
        row = json.loads(line)
        counts.setdefault(row["set"], Counter())[row["expected"]] += _strict(row)
    return counts


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_reversed_claims_stay_rejected_and_paraphrases_accepted(name: str, outcomes: dict[str, Counter[str]]) -> None:
    most_false, fewest_accepted = FLOORS[name]
    assert outcomes[name]["reject"] <= most_false
    assert outcomes[name]["accept"] >= fewest_accepted


def test_every_pair_quotes_its_passage() -> None:
    for line in PAIRS.read_text("utf-8").splitlines():
        row = json.loads(line)
        assert row["quote"] in row["passage"] and row["expected"] in ("accept", "reject")
