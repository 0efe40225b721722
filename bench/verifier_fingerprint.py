"""Did a verifier change that should change nothing change nothing? One hash over thousands of verifications.

Usage:
  .venv/bin/python bench/verifier_fingerprint.py [--squad-pairs 3000]

Run it before and after a refactor: equal hashes mean every verification
(label, verdicts, reasons, notes, checks; the policy hash left out, as a
version tag moves it) is the same. The cases, all claim_lattice:

- every pair of bench/data/handwritten_pairs.jsonl;
- the 919 SciFact cases of bench/verifier_scifact.py (../shared/data);
- N SQuAD sentence pairs (../shared/data/squad-single-hop): each sentence of
  a paragraph as the quote, under a claim made of the first half of the next
  sentence's words and the second half of the quote's, the whole paragraph
  cited, so the claims are near misses that reach most checks.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from _common import require_shared_data
from arborist.text import sentences
from arborist.verify import VerifierPolicy, verify_answer
from verifier_scifact import cases as scifact_cases

PAIRS = Path(__file__).resolve().parent / "data" / "handwritten_pairs.jsonl"


def _case(claim: str, quote: str, title: str, text: str) -> dict[str, Any]:
    return {"question": claim, "mode": "claim_lattice", "evidence": [{"id": "E1", "title": title, "text": text}],
            "answer": {"claims": [{"text": claim, "evidence_ids": ["E1"], "quote": quote}],
                       "abstained_requests": []}}


def all_cases(data: Path, squad_pairs: int) -> Iterator[dict[str, Any]]:
    for line in PAIRS.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        yield _case(row["claim"], row["quote"], row["title"], row["passage"])
    rows = [json.loads(line) for line in (data / "scifact-train-pairs" / "pairs_train.jsonl").read_text().splitlines()]
    yield from scifact_cases(rows, 0)
    squad = json.loads((data / "squad-single-hop" / "dev-v1.1-13-articles.json").read_text(encoding="utf-8"))
    made = 0
    for article in squad["data"]:
        for paragraph in article["paragraphs"]:
            said = sentences(paragraph["context"])
            for quote, after in zip(said, said[1:], strict=False):
                if made >= squad_pairs:
                    return
                first, second = quote.split(), after.split()
                claim = " ".join(second[: len(second) // 2] + first[len(first) // 2 :])
                yield _case(claim, quote, article["title"], paragraph["context"])
                made += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--squad-pairs", type=int, default=3000)
    args = ap.parse_args()
    policy = VerifierPolicy()
    digest, n = hashlib.sha256(), 0
    for case in all_cases(require_shared_data(), args.squad_pairs):
        v = verify_answer(case["question"], case["mode"], case["evidence"], case["answer"], policy)
        d = v.model_dump(mode="json")
        d.pop("verifier_policy_hash", None)
        # what the two-tier verifier added (the judge's score, the deciding stage) is left out, so the rules'
        # verifications compare with fingerprints taken before it: --entailment none must reproduce them exactly
        d.pop("n_entailed", None)
        for claim in d["claims"]:
            claim.pop("entailment", None)
            claim.pop("decided_by", None)
        digest.update(json.dumps(d, sort_keys=True).encode())
        n += 1
    print(f"{n} verifications: sha256 {digest.hexdigest()}")


if __name__ == "__main__":
    main()
