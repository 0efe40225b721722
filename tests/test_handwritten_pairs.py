"""The hand-written claim/quote pairs of bench/verifier_handwritten.py as a regression floor: the verifier keeps
rejecting the reversed, overstated and narrowed claims it rejects today, and keeps accepting the paraphrases."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from arborist.verify import Label, VerifierPolicy, verify_answer

PAIRS = Path(__file__).resolve().parents[1] / "bench" / "data" / "handwritten_pairs.jsonl"
# short names and amounts, written for verifier policy /30 (kept apart so that the figures on the first file stay
# comparable across policies)
NAMES_AMOUNTS = PAIRS.with_name("pairs_names_amounts.jsonl")

# set -> (most false STRICT among the rejects, fewest paraphrases accepted), as measured at verifier policy /28
FLOORS = {
    "dev-tuned": (1, 37), "dev-held-out": (0, 54), "dev-held-out-2": (0, 67), "dev-held-out-3": (1, 78), "dev-held-out-4": (1, 68),
    "dev-comparisons": (0, 39), "dev-held-out-5": (11, 69), "dev-held-out-6": (3, 58), "dev-8": (7, 57), "dev-held-out-7": (5, 57),
    "dev-9": (13, 54), "dev-10": (14, 71), "dev-held-out-8": (13, 67), "dev-held-out-9": (6, 55), "dev-held-out-10": (7, 44),
    "dev-held-out-11": (3, 40), "dev-held-out-12": (5, 40), "dev-held-out-13": (9, 37),
    "dev-held-out-14": (15, 32), "dev-held-out-15": (13, 44),
    # at /30
    "dev-names-42": (0, 40), "dev-names-42b": (9, 20), "dev-quantities-42": (13, 27),
}


def _strict(row: dict[str, str]) -> bool:
    evidence = [{"id": "E1", "title": row["title"], "text": row["passage"]}]
    answer = {"claims": [{"text": row["claim"], "evidence_ids": ["E1"], "quote": row["quote"]}],
              "abstained_requests": []}
    return verify_answer(row["claim"], "claim_lattice", evidence, answer, VerifierPolicy()).label is Label.STRICT


@pytest.fixture(scope="module")
def outcomes() -> dict[str, Counter[str]]:
    counts: dict[str, Counter[str]] = {}
    for line in (*PAIRS.read_text("utf-8").splitlines(), *NAMES_AMOUNTS.read_text("utf-8").splitlines()):
        row = json.loads(line)
        counts.setdefault(row["set"], Counter())[row["expected"]] += _strict(row)
    return counts


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_reversed_claims_stay_rejected_and_paraphrases_accepted(name: str, outcomes: dict[str, Counter[str]]) -> None:
    most_false, fewest_accepted = FLOORS[name]
    assert outcomes[name]["reject"] <= most_false
    assert outcomes[name]["accept"] >= fewest_accepted


def test_every_pair_quotes_its_passage() -> None:
    for line in (*PAIRS.read_text("utf-8").splitlines(), *NAMES_AMOUNTS.read_text("utf-8").splitlines()):
        row = json.loads(line)
        assert row["quote"] in row["passage"] and row["expected"] in ("accept", "reject")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read pairs file"),
        ('{"set": "x"\n', ":1: not JSON"),
        ('\n{"set": "x", "category": "negation", "expected": "reject", "claim": "c", "quote": "q"}\n',
         ":2: a pair needs the text fields passage, title"),
    ],
)
def test_a_bad_pairs_file_is_one_line_naming_it(tmp_path: Path, content: str | None, message: str) -> None:
    pairs = tmp_path / "pairs.jsonl"
    if content is not None:
        pairs.write_text(content, encoding="utf-8")
    bench = PAIRS.parents[1] / "verifier_handwritten.py"
    done = subprocess.run([sys.executable, str(bench), "--pairs", str(pairs)], capture_output=True, text=True,
                          check=False)
    assert done.returncode != 0 and message in done.stderr and len(done.stderr.strip().splitlines()) == 1
