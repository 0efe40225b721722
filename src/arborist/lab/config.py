"""A run's effective configuration: every default resolved, written to config.json.

`output_digest` hashes only what changes a run's rows (documents, questions,
policies, samples, verifier), never workers, budgets or paths, so a run and
its continuation agree exactly when their rows are interchangeable.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from arborist import __version__
from arborist.lab.executors import ExecutorSpec
from arborist.models.openai_compat import redact_url
from arborist.policy.answer import AnswerPolicy
from arborist.policy.canonical import tagged_digest
from arborist.verify import VerifierPolicy

CONFIG_FORMAT: Literal["arborist-lab-run/1"] = "arborist-lab-run/1"
RUN_KIND: Literal["answer-quality"] = "answer-quality"
OUTPUT_TAG = "arborist-lab-output/1"


class Arm(BaseModel):
    """One named policy every selected question is answered under."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    policy: AnswerPolicy
    governance_policy_hash: str
    treatment: str = Field(default="none", description="what is done to the admitted evidence (see lab.treatments)")


class ModelSpec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str | None = Field(description="profile, .gguf path or server model name as given")
    base_url: str | None
    servers: list[str] | None = Field(default=None, description="a fleet's base URLs (models.fleet), without "
                                      "credentials")
    per_server: int | None = Field(default=None, description="a fleet's limit of requests in flight per server")
    api_key_env: str | None = Field(default=None, description="the variable's name, never its value")
    timeout: float | None = None
    retries: int | None = None
    provider: str
    model_id: str = Field(description="provider:model id, as in every policy")

    @field_validator("base_url")
    @classmethod
    def _no_secrets(cls, url: str | None) -> str | None:
        """A password or query in the URL is never written (config.json is shared and hashed): masked here,
        whoever builds the spec; a continued run is given them again (`--base-url`)."""
        return redact_url(url) if url else url


class JudgeSpec(BaseModel):
    """The optional model judge of a run (see `lab.judge`); it never changes the rows."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    statements_model_id: str
    verdicts_model_id: str
    budget: int | None = Field(default=None, ge=0, description="at most this many judge calls in one run")
    max_tokens: int = 512


class GitRevision(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    commit: str | None
    dirty: bool | None


class RunConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["arborist-lab-run/1"] = CONFIG_FORMAT
    kind: Literal["answer-quality"] = RUN_KIND
    run_id: str
    created_at: str
    arborist_version: str = __version__
    git: GitRevision
    corpus_path: str
    corpus_digest: str
    evaluation_path: str
    evaluation_sha256: str
    question_ids: list[str] = Field(description="the questions this run answers, in order")
    question_selection: dict[str, str | int | None] = Field(description="--question-ids file and --limit as given")
    prompt: str | None = Field(default=None, description="--prompt as given: a shipped prompt name or a file path "
                               "(None in runs made before it was recorded)")
    arms: list[Arm]
    samples: int = Field(ge=1)
    model: ModelSpec
    verifier_policy: VerifierPolicy
    verifier_policy_hash: str
    generation_workers: int = Field(ge=1)
    executor: ExecutorSpec = Field(default_factory=ExecutorSpec, description="where answers were generated and "
                                   "verified (lab.executors); runs made before it was recorded: in process")
    generation_budget: int | None
    cache_directory: str
    burn: bool
    continue_from: str | None = None
    judge: JudgeSpec | None = None
    output_digest: str = Field(description="digest of everything that changes the rows (see lab/config.py)")

    @property
    def rows_total(self) -> int:
        return len(self.question_ids) * len(self.arms) * self.samples

    def arm(self, name: str) -> Arm:
        return next(a for a in self.arms if a.name == name)


def output_digest(
    corpus_digest: str, evaluation_sha256: str, question_ids: list[str], arms: list[Arm], samples: int,
    verifier_hash: str,
) -> str:
    return tagged_digest(OUTPUT_TAG, {
        "corpus_digest": corpus_digest, "evaluation_sha256": evaluation_sha256, "question_ids": question_ids,
        "arms": {a.name: a.governance_policy_hash for a in arms}, "samples": samples, "verifier": verifier_hash,
    })


def git_revision(start: Path | None = None) -> GitRevision:
    """The checkout arborist runs from, if it is one (an installed wheel has none)."""
    where = start or Path(__file__).resolve().parent
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=where, capture_output=True, text=True,
                                timeout=10, check=True).stdout.strip()
        dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=where,
                                    capture_output=True, text=True, timeout=10, check=True).stdout.strip())
    except (OSError, subprocess.SubprocessError):
        return GitRevision(commit=None, dirty=None)
    return GitRevision(commit=commit, dirty=dirty)
