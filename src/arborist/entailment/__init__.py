"""Entailment judges for the verifier's paraphrase stage (see `arborist.verify.judge`).

`load_judge(spec)` builds the judge a `JudgeSpec` names: `local` runs a pinned GGUF through llama.cpp, `openai`
asks a named model on an OpenAI-compatible server. Both score P(yes) / (P(yes) + P(no)) of the next token after
one fixed prompt: one forward pass, no sampling. `CachedJudge` keeps every score in SQLite keyed by (judge id,
premise, hypothesis), so re-verifying an answer costs no model call.
"""

from arborist.entailment.cache import CachedJudge, JudgeCache
from arborist.entailment.factory import (
    DEFAULT_ENTAILMENT,
    default_spec,
    judge_for,
    load_judge,
    spec_for,
    spec_from_options,
)

__all__ = ["DEFAULT_ENTAILMENT", "CachedJudge", "JudgeCache", "default_spec", "judge_for", "load_judge", "spec_for",
           "spec_from_options"]
