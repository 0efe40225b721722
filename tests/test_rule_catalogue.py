"""The rule catalogue's examples are the tests of its rules, and docs/verifier-rules.md is generated from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from arborist.verify import Label, verify_answer
from arborist.verify.catalogue import RULES, STAGES, Rule, catalogue_markdown

DOC = Path(__file__).resolve().parents[1] / "docs" / "verifier-rules.md"


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_each_rule_fires_on_its_example(rule: Rule) -> None:
    answer = {"claims": [{"text": rule.claim, "evidence_ids": ["E1"], "quote": rule.quote}], "abstained_requests": []}
    v = verify_answer(rule.claim, "claim_lattice", [{"id": "E1", "title": rule.title, "text": rule.passage}], answer)
    assert v.label is not Label.STRICT
    assert rule.reason in v.claims[0].reasons, v.claims[0].reasons
    assert rule.stage in STAGES


def test_the_rules_page_is_generated_from_the_catalogue() -> None:
    assert DOC.read_text(encoding="utf-8") == catalogue_markdown(), (
        "docs/verifier-rules.md is stale: run `python -m arborist.verify.catalogue > docs/verifier-rules.md`")
