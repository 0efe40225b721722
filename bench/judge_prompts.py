"""Candidate prompts for the entailment judge, measured by `bench/entailment_judge.py --prompt NAME`.

`shipped` is the one `arborist.verify.judge.JUDGE_PROMPT` pins. The worked examples are written for this
file, on topics none of the dev sets is about (no SciFact claim, no hand-written pair), and hold one example of
each way a statement fails its passage (a reversed relation, a hedge stated as fact, a changed number, an added
party, an added cause) besides faithful paraphrases.
"""

from __future__ import annotations

from arborist.verify.judge import JUDGE_PROMPT, PROMPT, SYSTEM, JudgePrompt

EXAMPLES: tuple[tuple[str, str, str], ...] = (
    ("The bridge, completed in 1932, carries six lanes of traffic across the harbour.",
     "The harbour bridge was finished in 1932.", "Yes"),
    ("Patients who received the drug had fewer seizures than those given placebo.",
     "The drug increased the number of seizures.", "No"),
    ("Mitochondrial dysfunction was observed in the neurons of aged mice.",
     "Aged mice showed impaired mitochondria in their neurons.", "Yes"),
    ("The survey suggests that remote work may improve job satisfaction.",
     "Remote work improves job satisfaction.", "No"),
    ("Loss of the gene did not affect tumour growth.",
     "Tumour growth was unaffected when the gene was deleted.", "Yes"),
    ("The company hired 240 engineers in 2019.", "The company hired 420 engineers in 2019.", "No"),
    ("The treaty was signed in Paris by France and Spain.",
     "The treaty was signed in Paris by France, Spain and Portugal.", "No"),
    ("Researchers found that regular exercise lowered blood pressure in older adults.",
     "In older adults, blood pressure fell with regular exercise.", "Yes"),
    ("The river floods most years in spring.", "The river floods in spring because of melting snow.", "No"),
)

CANDIDATES: dict[str, JudgePrompt] = {
    "shipped": JUDGE_PROMPT,
    "few-shot": JudgePrompt(system=SYSTEM, template=PROMPT, examples=EXAMPLES),  # type: ignore[arg-type]
}
