"""The verifier's own knobs and their hash.

`verifier_policy_hash` covers only these fields, so nothing outside the
verifier (layout, retrieval, model) can change it. The hash is
"sha256:" + sha256(TAG + canonical JSON), where canonical JSON has sorted
keys, compact separators and ASCII escapes, so the same policy gives the
same hash in every process whatever order its fields were given in.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from arborist.errors import InputError
from arborist.guards.instruction import INSTRUCTION_PATTERNS, check_patterns
from arborist.policy.answerability import AnswerabilityPolicy
from arborist.policy.canonical import tagged_digest
from arborist.text import TEXT_RULES_VERSION
from arborist.verify import lexicon
from arborist.verify.judge import JudgeSpec
from arborist.verify.lexicon import Lexicon, build_lexicon

# The verifier's logic version: bumped when a check's code changes what it decides (history: CHANGELOG.md). Its
# word tables need no bump: `rule_tables_digest` hashes them.
POLICY_HASH_TAG = "arborist-verifier-policy/33"


class PolicyError(InputError, ValueError):
    """An unknown verifier policy field or an invalid value (one line, naming what is valid)."""


class DirectionPair(BaseModel):
    """Two opposite word groups for the direction check (see `direction`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    up: tuple[str, ...]
    down: tuple[str, ...]
    complementary: bool = Field(description="not-A means B (required vs dispensable); else not-A is not B")
    required: bool = Field(description="a claim's word of this pair must be stated by its support")


def _default_pairs() -> dict[str, DirectionPair]:
    return {
        name: DirectionPair(up=up, down=down, complementary=complementary, required=required)
        for name, (up, down, complementary, required) in lexicon.DIRECTION_PAIRS.items()
    }


class VerifierPolicy(BaseModel):
    """Every knob that changes a verification."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: Literal[1] = 1
    paraphrase_threshold: float = Field(
        default=0.6, ge=0.0, le=1.0,
        description="share of the claim's content stems that the best evidence window must hold",
    )
    judged_restatement_threshold: float = Field(
        default=1.0, ge=0.0, le=1.0,
        description="with an entailment judge: share of the claim's content stems its quote must hold for the rules "
                    "to call the claim restated; a claim short of it is the judge's to read (rules only: "
                    "paraphrase_threshold)",
    )
    max_evidence_ids: int = Field(default=3, ge=1, description="more distinct ids on one claim -> TOO_MANY_EVIDENCE_IDS")
    span_window_factor: float = Field(
        default=1.5, ge=1.0, description="span check: window length limit, in tokens, as a multiple of the claim's length"
    )
    paraphrase_window_factor: float = Field(
        default=2.0, ge=1.0, description="paraphrase check: window length, in tokens, as a multiple of the claim's length"
    )
    title_relevance: bool = Field(default=True, description="Rule 8: a cited chunk whose title and text share nothing with the question demotes STRICT")
    answerability: AnswerabilityPolicy = Field(
        default_factory=AnswerabilityPolicy, description="the missed-answer guard's own policy: hashed apart "
        "(answerability_policy_hash), never into verifier_policy_hash"
    )
    slot_check: bool = Field(
        default=True, description="Rule 10: an answer to a when/how-many question that states no date/number is not STRICT"
    )
    topic_check: bool = Field(
        default=True, description="Rule 11: an answer none of whose claims shares a content stem with what the "
        "question asks (less a clause describing its subject) is not STRICT"
    )
    question_terms_check: bool = Field(
        default=True, description="Rule 12: a name or year of the question that the answer's claims, quotes and "
        "cited titles never state keeps the answer from STRICT"
    )
    reanchor_quotes: bool = Field(
        default=True, description="a claim whose quote is in none of the blocks it cites (or that cites more than "
        "max_evidence_ids), but verbatim in an admitted block, is judged against that block (the claim notes the ids "
        "it cited)",
    )
    answerability_threshold: float = Field(
        default=0.4, ge=0.0, le=1.0,
        description="Rule 13: an answer that is not STRICT is ABSTAINED when no evidence sentence (with its block's "
        "title) holds this share of the question's content words, weighted by their inverse document frequency in "
        "the corpus; 0 turns it off (it runs only where the corpus is known)",
    )
    answerability_names: bool = Field(
        default=True, description="Rule 13 also withholds an answer that is not STRICT when a name, year or decade "
        "of the question is stated by no admitted block (text or title)",
    )
    polarity_checks: bool = Field(
        default=True, description="negation, direction, comparison, roles, certainty, units and scope of a claim "
        "against its quote or span, and the parts of a claim its quote must state"
    )
    negation_words: tuple[str, ...] = Field(
        default=lexicon.NEGATION_WORDS, description="words that negate the next content word of their clause"
    )
    negative_prefixes: tuple[str, ...] = Field(
        default=lexicon.NEGATIVE_PREFIXES, description="prefixes that negate a word's base (independent, unstable)"
    )
    qualifier_words: tuple[str, ...] = Field(
        default=lexicon.QUALIFIER_WORDS,
        description="superlatives and exclusive words (only, first, oldest, all, ...) a claim may state only when its "
        "quote does",
    )
    anaphor_words: tuple[str, ...] = Field(
        default=lexicon.ANAPHOR_WORDS,
        description="pronouns by which a quote refers to what it does not name: only a quote that uses one may take "
        "a name of its claim from the cited chunk's title",
    )
    symmetric_words: tuple[str, ...] = Field(
        default=lexicon.SYMMETRIC_WORDS,
        description="relations whose sides may swap (associated, linked, interacts, ...): the role check leaves them "
        "alone",
    )
    hedge_words: tuple[str, ...] = Field(
        default=lexicon.HEDGE_WORDS,
        description="words by which a quote only supposes what it says (may, suggests, believed, ...): a claim that "
        "states it as fact, with none of them, is not verified",
    )
    association_words: tuple[str, ...] = Field(
        default=lexicon.ASSOCIATION_WORDS,
        description="words by which a quote only relates two things (associated, correlated, linked): they do not "
        "back a claim that one causes the other",
    )
    causal_words: tuple[str, ...] = Field(
        default=lexicon.CAUSAL_WORDS,
        description="verbs by which a claim says one thing causes or changes another (causes, prevents, lowers, ...)",
    )
    unit_words: tuple[str, ...] = Field(
        default=lexicon.UNIT_WORDS,
        description="units, one space-separated group of names each: a claim's number must measure the same unit "
        "in its support",
    )
    direction_pairs: dict[str, DirectionPair] = Field(
        default_factory=_default_pairs, description="opposite word groups for the direction check"
    )

    judged_claims: Literal["strict", "hybrid", "none"] = Field(
        default="hybrid",
        description="how far a claim the entailment judge accepted (a paraphrase of its genuine quote, no rule "
        "vetoing) may carry an answer: strict (it verifies the claim like a quote), hybrid (an answer resting on "
        "one is HYBRID at most), none (it verifies nothing: the claim stays PARTIAL)",
    )
    entailment: JudgeSpec | None = Field(
        default=None, description="the pinned entailment judge that may accept a claim whose genuine quote holds its "
        "names and numbers but does not restate it word for word (rule vetoes still apply); None: rules only",
    )

    guard_proximity_runes: int = Field(
        default=200, ge=0, description="missed-answer guard: how close (in runes) a candidate must be to a subject token"
    )
    instruction_patterns: dict[str, str] = Field(
        default_factory=lambda: dict(INSTRUCTION_PATTERNS),
        description="instruction guard: name -> regular expression over folded evidence text (see arborist.guards.instruction)",
    )

    @model_validator(mode="before")
    @classmethod
    def _flat_demote(cls, data: Any) -> Any:
        """`demote_missed_answer` at the top, as policies and sweep records written before it moved say it."""
        if isinstance(data, Mapping) and "demote_missed_answer" in data and "answerability" not in data:
            data = dict(data)
            data["answerability"] = {"demote_missed_answer": data.pop("demote_missed_answer")}
        return data

    @field_validator("instruction_patterns")
    @classmethod
    def _patterns(cls, v: dict[str, str]) -> dict[str, str]:
        return check_patterns(v)

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise PolicyError(_one_line(exc)) from None


    def lexicon(self) -> Lexicon:
        """The polarity and qualifier word lists, stemmed or folded (cached per distinct list)."""
        pairs = tuple(
            (name, p.up, p.down, p.complementary, p.required) for name, p in sorted(self.direction_pairs.items())
        )
        return build_lexicon(self.negation_words, self.negative_prefixes, pairs, self.qualifier_words,
                             self.anaphor_words, self.symmetric_words, self.hedge_words, self.association_words,
                             self.causal_words, self.unit_words)


def policy_fields() -> list[str]:
    return list(VerifierPolicy.model_fields)


def load_policy(data: Mapping[str, Any] | VerifierPolicy | None) -> VerifierPolicy:
    """A VerifierPolicy from a mapping; errors become one line listing what is valid."""
    if data is None:
        return VerifierPolicy()
    if isinstance(data, VerifierPolicy):
        return data
    if not isinstance(data, Mapping):
        raise PolicyError(f"verifier policy must be an object with fields {', '.join(policy_fields())}")
    return VerifierPolicy(**{str(k): v for k, v in data.items()})


def _one_line(exc: ValidationError) -> str:
    err = exc.errors()[0]
    field = ".".join(str(p) for p in err["loc"]) or "policy"
    if err["type"] == "extra_forbidden":
        return f"unknown verifier policy field '{field}'; valid fields: {', '.join(policy_fields())}"
    if field == "version":
        return f"verifier policy version {err.get('input')!r} is not supported; valid: 1"
    return f"verifier policy field '{field}': {err['msg']} (got {err.get('input')!r})"


def _canonical(value: object) -> object:
    """A table as JSON data: sets sorted, patterns as their source, decimals as their digits, anything else that is
    not plain data None.
    (A table of objects, such as the directive verbs, is hashed through the patterns compiled from it: the guard's
    `INSTRUCTION_PATTERNS`; its entries also hold examples, which document a rule and decide nothing.)"""
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, Decimal):
        return {"decimal": str(value)}
    if isinstance(value, re.Pattern):
        return {"pattern": value.pattern, "flags": int(value.flags)}
    if isinstance(value, frozenset | set):
        return sorted((_canonical(v) for v in value), key=repr)
    if isinstance(value, tuple | list):
        return [_canonical(v) for v in value]
    if isinstance(value, dict):
        return sorted(([_canonical(k), _canonical(v)] for k, v in value.items()), key=repr)
    return None


# The packages whose module-level tables are the verifier's rules: its own, and the guards it consults; and the
# modules of theirs that only describe the rules (the catalogue's examples are documentation the tests run).
RULE_PACKAGES = ("arborist.guards", "arborist.verify")
NOT_RULES = frozenset({"arborist.verify.catalogue"})


def rule_modules() -> list[str]:
    """Every module of `RULE_PACKAGES` but `NOT_RULES`, by full name, sorted."""
    names = []
    for package_name in RULE_PACKAGES:
        package = importlib.import_module(package_name)
        names += [f"{package_name}.{info.name}" for info in pkgutil.iter_modules(package.__path__)
                  if f"{package_name}.{info.name}" not in NOT_RULES]
    return sorted(names)


@functools.cache
def rule_tables_digest() -> str:
    """sha256 over every module-level table and constant of the verifier's modules and of the guards it consults
    (`RULE_PACKAGES`: word lists, patterns, limits), each counted once, under the first module (by full name)
    that holds it: a word added to any rule changes the verifier's hash without a hand-bumped tag."""
    seen: set[int] = set()
    tables: list[list[object]] = []
    for module_name in rule_modules():
        module = importlib.import_module(module_name)
        for name, value in sorted(vars(module).items()):
            if name.startswith("__") or not name.lstrip("_")[:1].isupper() or id(value) in seen:
                continue
            data = _canonical(value)
            if data is not None:
                seen.add(id(value))
                tables.append([module_name, name, data])
    return tagged_digest("arborist-verifier-rules/2", tables)


def verifier_policy_hash(policy: VerifierPolicy | None = None) -> str:
    """Covers the verifier's own knobs, its rule tables (`rule_tables_digest`) and the version of the shared text
    rules it tokenises with (`arborist.text`), so answer-policy changes never move it and a rule change always
    does. The missed-answer guard's `answerability` policy has its own hash (`answerability_policy_hash`)."""
    body = {"policy": (policy or VerifierPolicy()).model_dump(mode="json", exclude={"answerability"}),
            "text_rules": TEXT_RULES_VERSION,
            "rules": rule_tables_digest()}
    return tagged_digest(POLICY_HASH_TAG, body)
