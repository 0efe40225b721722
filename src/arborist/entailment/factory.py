"""Which judge a name means, pinned: `spec_for` builds the `JudgeSpec`, `load_judge` the judge it names."""

from __future__ import annotations

from pathlib import Path

from arborist.entailment.cache import CachedJudge, JudgeCache
from arborist.entailment.control import CONTROL_KINDS, CONTROL_PROMPTS, ControlledJudge, control_digest
from arborist.errors import InputError
from arborist.models.openai_compat import check_base_url
from arborist.models.profiles import get_profile
from arborist.verify.judge import (
    ENTAILMENT_KINDS,
    JUDGE_PROMPT,
    Judge,
    JudgeControl,
    JudgePrompt,
    JudgeSpec,
)

# The product's default judge: the local profile and threshold chosen on the dev sets (bench/entailment_judge.py;
# figures in CHANGELOG.md). `verify_answer` itself stays model-free unless a caller passes a judge.
DEFAULT_ENTAILMENT = "local"
DEFAULT_JUDGE_PROFILE = "qwen2.5-1.5b"
DEFAULT_THRESHOLD = 0.85
# No control by default; each control's threshold, chosen on the dev sets (bench/judged_basis.py; docs/verifier.md,
# "Controls"): the least lift over no evidence, the least P(No) to "contradicts or leaves open?", the least P(Yes) to
# "states exactly this?".
DEFAULT_CONTROL = "none"
CONTROL_THRESHOLDS: dict[str, float] = {"hypothesis_only": 0.1, "contradiction": 0.5, "states": 0.5}


def control_for(kind: str, threshold: float | None = None) -> JudgeControl | None:
    """The control `--entailment-control KIND` names (None for none), at its dev-chosen threshold unless given."""
    if kind not in CONTROL_KINDS:
        raise InputError(f"unknown judge control {kind!r}; valid: {', '.join(CONTROL_KINDS)}")
    if kind == "none":
        return None
    return JudgeControl.model_validate({"kind": kind, "digest": control_digest(kind),
                                        "threshold": CONTROL_THRESHOLDS[kind] if threshold is None else threshold})


def spec_for(kind: str, model: str | None = None, threshold: float | None = None,
             control: str = DEFAULT_CONTROL, control_threshold: float | None = None) -> JudgeSpec | None:
    """The pinned spec for `--entailment KIND` (None for `none`); a local model is a profile, pinned by its
    digest; a served one is named by the server's model name. `control` names a second reading its acceptance
    must also pass (`control_for`)."""
    if kind not in ENTAILMENT_KINDS:
        raise InputError(f"unknown entailment judge {kind!r}; valid: {', '.join(ENTAILMENT_KINDS)}")
    if kind == "none":
        return None
    limit = DEFAULT_THRESHOLD if threshold is None else threshold
    if kind == "local":
        profile = get_profile(model or DEFAULT_JUDGE_PROFILE)
        return JudgeSpec(kind="local", model=profile.name, sha256=profile.sha256, threshold=limit,
                         control=control_for(control, control_threshold))
    if not model:
        raise InputError("--entailment openai needs the served judge's model name (--entailment-model)")
    return JudgeSpec(kind="openai", model=model, threshold=limit, control=control_for(control, control_threshold))


def default_spec() -> JudgeSpec | None:
    return spec_for(DEFAULT_ENTAILMENT)


def spec_from_options(kind: str, model: str | None, threshold: float | None, base_url: str | None,
                      control: str = DEFAULT_CONTROL) -> JudgeSpec | None:
    """The spec the CLI's --entailment options name (one place for every command that verifies)."""
    spec = spec_for(kind, model, threshold, control)
    if spec is not None and spec.kind == "openai":
        if not base_url:
            raise InputError("--entailment openai needs the judge's server (--entailment-url)")
        spec = spec.model_copy(update={"base_url": check_base_url(base_url, "--entailment-url")})
    return spec


_JUDGES: dict[JudgeSpec, Judge] = {}


def judge_for(spec: JudgeSpec) -> Judge:
    """The process's judge for `spec` (built once: a local judge holds its model's loaded weights)."""
    if spec not in _JUDGES:
        _JUDGES[spec] = load_judge(spec)
    return _JUDGES[spec]


def load_judge(spec: JudgeSpec, *, cache: JudgeCache | Path | None = None, api_key_env: str | None = None,
               prompt: JudgePrompt = JUDGE_PROMPT) -> Judge:
    """The judge `spec` names, asking `prompt` (which must be the one the spec pins), its scores cached (in
    `cache`, by default `$ARBORIST_CACHE/judge.db`). A spec with a control is the judge without it, wrapped in
    `ControlledJudge` with the same model asked the control's question (each cached as a judge of its own)."""
    store = cache if isinstance(cache, JudgeCache) else JudgeCache(cache)
    if spec.control is not None:
        bare = spec.model_copy(update={"control": None})
        inner = load_judge(bare, cache=store, api_key_env=api_key_env, prompt=prompt)
        asks = CONTROL_PROMPTS.get(spec.control.kind)
        second = None if asks is None else load_judge(bare.model_copy(update={"prompt_digest": asks.digest}),
                                                      cache=store, api_key_env=api_key_env, prompt=asks)
        return ControlledJudge(spec, inner, second)
    judge: Judge
    if spec.kind == "local":
        from arborist.entailment.local import LocalJudge

        judge = LocalJudge(spec, prompt=prompt)
    else:
        if not spec.base_url:
            raise InputError("a served entailment judge needs its server's base URL (--entailment-url)")
        from arborist.entailment.served import ServedJudge

        judge = ServedJudge(spec, spec.base_url, api_key_env=api_key_env, prompt=prompt)
    return CachedJudge(judge, store)
