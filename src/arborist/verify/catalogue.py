"""The verifier's rules as data: each claim-level rule's id, its reason code, the stage it belongs to and one
example that fires it. The examples are the tests (tests/test_rule_catalogue.py runs each one) and the catalogue
in docs/verifier-rules.md is generated from them (`python -m arborist.verify.catalogue > docs/verifier-rules.md`),
so the page cannot drift from what the verifier does.
"""

from __future__ import annotations

from dataclasses import dataclass

from arborist.verify.reasons import REASONS, Reason

# The stages a claim passes, in order (docs/verifier.md): what each asks.
STAGES: dict[str, str] = {
    "grounding": "the quote is in a cited block, verbatim after typographic normalisation",
    "names": "the claim's names and numbers are in the cited evidence and in its own quote",
    "support": "the claim restates its quote (enough of its content words, every part) or the entailment judge "
               "accepts it",
    "veto": "no rule finds the quote saying something else (negation, direction, comparison, roles, certainty, "
            "units, scope, qualifiers); a veto always wins over the judge",
}


@dataclass(frozen=True)
class Rule:
    id: str
    reason: Reason
    stage: str
    claim: str
    quote: str
    passage: str
    title: str


RULES: tuple[Rule, ...] = (
    Rule('BARE_ANSWER', Reason.BARE_ANSWER, 'support',
         claim='The tumor was malignant.',
         quote='The tumor was benign.',
         passage='A biopsy was taken in May. The tumor was benign.',
         title='Biopsy'),
    Rule('CERTAINTY_UNSTATED', Reason.CERTAINTY_UNSTATED, 'veto',
         claim='Vitamin C prevents colds.',
         quote='vitamin C prevents colds',
         passage='It is a myth that vitamin C prevents colds. Large trials found only a small reduction in duration.',
         title='Vitamin C and colds'),
    Rule('CHANGE_DROPPED', Reason.CHANGE_DROPPED, 'veto',
         claim='The refund window for annual plans is 30 to 60 days.',
         quote='Extend the refund window for annual plans from 30 to 60 days.',
         passage='This proposal was not adopted. Extend the refund window for annual plans from 30 to 60 days.',
         title='Refund proposal'),
    Rule('COMPARISON_MISMATCH', Reason.COMPARISON_MISMATCH, 'veto',
         claim='The castle is older than the cathedral.',
         quote='The cathedral is older than the castle.',
         passage='The town has two medieval landmarks. The cathedral is older than the castle.',
         title='Medieval landmarks'),
    Rule('DIRECTION_MISMATCH', Reason.DIRECTION_MISMATCH, 'veto',
         claim='Jupiter is smaller than Saturn.',
         quote='Jupiter is larger than Saturn.',
         passage='Both are gas giants. Jupiter is larger than Saturn.',
         title='Gas giants'),
    Rule('DIRECTION_UNSTATED', Reason.DIRECTION_UNSTATED, 'veto',
         claim='The treatment usually causes liver damage.',
         quote='Occasionally, the treatment causes liver damage.',
         passage='Occasionally, the treatment causes liver damage.',
         title='Treatment safety'),
    Rule('ENTITY_MISSING', Reason.ENTITY_MISSING, 'names',
         claim='The region has a wet climate.',
         quote='The region has a dry climate.',
         passage='The region has a dry climate.',
         title='Regional climate'),
    Rule('LOW_OVERLAP', Reason.LOW_OVERLAP, 'support',
         claim='Motorists were barred from the crossing once inspectors spotted fractures.',
         quote='It was closed to traffic in 2019 after engineers found cracks in its main span.',
         passage='The Harlow Bridge opened in 1932. It was closed to traffic in 2019 after engineers found cracks in its main span.',
         title='Harlow Bridge'),
    Rule('NEGATION_MISMATCH', Reason.NEGATION_MISMATCH, 'veto',
         claim='The compound is insoluble in water.',
         quote='The compound is soluble in water.',
         passage='It forms white crystals at room temperature. The compound is soluble in water. It is commonly used as a laboratory reagent.',
         title='Chemical properties'),
    Rule('NUMBER_MISSING', Reason.NUMBER_MISSING, 'names',
         claim='The stadium was demolished in 2019.',
         quote='The stadium was demolished in 2009.',
         passage='The ground had hosted football for nearly a century. The stadium was demolished in 2009. Housing now stands on the site.',
         title='Former stadium site'),
    Rule('PART_UNSTATED', Reason.PART_UNSTATED, 'support',
         claim='Vitamin C deficiency causes scurvy and rickets.',
         quote='Vitamin C deficiency causes scurvy.',
         passage='Scurvy was once common among sailors. Vitamin C deficiency causes scurvy. Symptoms include bleeding gums and poor wound healing.',
         title='Scurvy'),
    Rule('QUALIFIER_UNSTATED', Reason.QUALIFIER_UNSTATED, 'veto',
         claim='Only women were enrolled in the study.',
         quote='Women were enrolled in the study.',
         passage='Women were enrolled in the study. Men were enrolled in a parallel cohort.',
         title='Enrollment'),
    Rule('QUOTE_NOT_FOUND', Reason.QUOTE_NOT_FOUND, 'grounding',
         claim='The Harlow Bridge opened to traffic in 1932.',
         quote='The Harlow Bridge opened to traffic in 1932.',
         passage='The Harlow Bridge opened in 1932. It was closed in 2019.',
         title='Harlow Bridge'),
    Rule('ROLES_SWAPPED', Reason.ROLES_SWAPPED, 'veto',
         claim='Pixar acquired Disney in 2006.',
         quote='Disney acquired Pixar in 2006.',
         passage='Disney acquired Pixar in 2006. The deal was valued at $7.4 billion.',
         title='Pixar acquisition'),
    Rule('SCOPE_DROPPED', Reason.SCOPE_DROPPED, 'veto',
         claim='The river fails to reach the sea.',
         quote='In dry years, the river fails to reach the sea.',
         passage='The Tamar drains a semi-arid basin. In dry years, the river fails to reach the sea. Its water is heavily used for irrigation.',
         title='The Tamar river'),
    Rule('UNIT_MISMATCH', Reason.UNIT_MISMATCH, 'veto',
         claim='The bridge is 1.2 kilometres long.',
         quote='The bridge is 1.2 miles long.',
         passage='The bridge is 1.2 miles long.',
         title='Bridge length'),
)


def catalogue_markdown() -> str:
    """docs/verifier-rules.md: one row per rule, in stage order."""
    out = ["# Verifier rules", "",
           "Generated from `arborist.verify.catalogue` (`python -m arborist.verify.catalogue > "
           "docs/verifier-rules.md`); each example is run by `tests/test_rule_catalogue.py` and must fire its rule "
           "with `--entailment none`.", ""]
    for stage in STAGES:
        out += [f"## {stage}", "", STAGES[stage].capitalize() + ".", "", "| rule | meaning | example claim | its quote |",
                "|---|---|---|---|"]
        for rule in sorted((r for r in RULES if r.stage == stage), key=lambda r: r.id):
            out.append(f"| `{rule.id}` | {REASONS[rule.reason]} | {rule.claim} | {rule.quote} |")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    print(catalogue_markdown(), end="")
