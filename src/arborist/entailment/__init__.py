"""Entailment judges for the verifier's paraphrase stage (see `arborist.verify.judge`).

`load_judge(spec)` builds the judge a `JudgeSpec` names: `local` runs a pinned GGUF through llama.cpp, `openai`
asks a named model on an OpenAI-compatible server. Both score P(yes) / (P(yes) + P(no)) of the next token after
one fixed prompt: one forward pass, no sampling. `CachedJudge` keeps every score in SQLite keyed by (judge id,
premise, hypothesis), so re-verifying an answer costs no model call. `ControlledJudge` holds a judge's
acceptance to a second reading of the same pair (a spec's `control`).
"""

from arborist.entailment.cache import CachedJudge, JudgeCache
from arborist.entailment.control import CONTROL_KINDS, ControlledJudge
from arborist.entailment.factory import (
    CONTROL_THRESHOLDS,
    DEFAULT_CONTROL,
    DEFAULT_ENTAILMENT,
    control_for,
    default_spec,
    judge_for,
    load_judge,
    spec_for,
    spec_from_options,
)

__all__ = ["CONTROL_KINDS", "CONTROL_THRESHOLDS", "DEFAULT_CONTROL", "DEFAULT_ENTAILMENT", "CachedJudge", "ControlledJudge", "JudgeCache",
           "control_for", "default_spec", "judge_for", "load_judge", "spec_for", "spec_from_options"]
