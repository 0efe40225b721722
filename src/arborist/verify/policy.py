"""The verifier's own knobs and their hash.

`verifier_policy_hash` covers only these fields, so nothing outside the
verifier (layout, retrieval, model) can change it. The hash is
"sha256:" + sha256(TAG + canonical JSON), where canonical JSON has sorted
keys, compact separators and ASCII escapes, so the same policy gives the
same hash in every process whatever order its fields were given in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from arborist.errors import InputError
from arborist.policy.canonical import tagged_digest
from arborist.text import TEXT_RULES_VERSION
from arborist.verify import lexicon
from arborist.verify.instruction_guard import INSTRUCTION_PATTERNS, check_patterns
from arborist.verify.polarity import Lexicon, build_lexicon

POLICY_HASH_TAG = "arborist-verifier-policy/28"  # /28: numbers glued to units and currency scales ("10mg", "£2.5m", "$1.2bn"), "a dozen" and "two dozen", "a thousand"; percent, "%" and percentage points as units; a unit the support never names ("four-week" over "four-match"); ask/maintain/hint as reports; a modal support under a claim that only reports; a part made whole ("Several of the pipes", "among the largest"); "speeding up" quickens; a rate the claim drops ("costs 12 dollars" over "per dose"); "had already ... when" is before; "saw better" compares a self-chosen group; "that" after a noun opens a relative clause as a part; a people's adjective names its place ("Italian", "Italy"); review fixes; ordinals as places in an order ("second" is not "2 hours"), model letters ("Nimbus S"), a rate per another thing ("per family" over "per adult"), genuine/fake, deny that, call for, "a trend towards", more irregular verbs, "one in five" as a share, largest/biggest, "up 12 percent", a count run cut to its number ("twenty-four four-carriage"); review fixes; costly/affordable, deep/shallow, lavish/modest, stable/critical, panned as criticism; a rank dropped ("the second biggest port" under "the largest"); a move from A to B read backwards; "once" + clause as after; /27: opposite pairs for level (above/below, up/down), stance, life, ease, strength, wealth, quality, public/private, urban/rural, acute/chronic, natural/artificial, male/female, joining/leaving, hiring/firing, memory, dis- words, reward/punish, alliance, day/night, void/binding, newer/older, more amount words (opposite things both texts name are stated and never one event); declined/neglected/omitted to, "has yet to (be)", "no longer (classed as)" and avoided/stopped + gerund deny; estimate/fear/worry that, expect, meant/proposing to, "described as", threatened to and a closing ", officials said" report; frequency words (consistently, routinely, ...) as qualifiers, nearly/almost right before one bound it; buy/sell, borrow/lend, receive/give with the same sides, and bought/purchased, beat/defeated as one verb for roles; role sides past adverbs, words of when and numbers, pronouns as sides, no name or counted noun as a verb; "has built" over "is building", a perfect over another verb in progress; "since 2004" over an ended range; "by the time", "in the run-up to" as before; "over 3,000" as more than; "has to" as must; "in favour" as support; "has caused" a cause when its association holds most of the claim; a reporter the quote never names, a coordinated word, "of" + gerund and a fronted phrase's pronoun as parts; phrases moved round their clause are no exchange; figures written two ways, decades of a life; the comparison read once per support text; /26: two terms exchanged around a middle both keep (not conjuncts reordered, a double exchange, or a relation both sides hold); say/believe/suspect/rumour/scheduled as reports; permanent/temporary, depart/arrive, overturn/uphold; stop/cease negate; "used to" and "until" in a past sentence as an ended past; "has begun" under "will begin"; "beaten" as "beat" for roles; a part stated only by words the claim says elsewhere, an article-led conjunct whose head is unstated, "to a" opens a part; across/throughout/nationwide/worldwide/everywhere/universally as qualifiers; a sentence opened by a past date under an undated claim; /25: another thing in the quote's subject or between the same two words, "no evidence that" and "unproven" as hedges, review fixes (a quote's own findings always count, percentages to their precision), "each" and "unanimously" as qualifiers, "will" in the support over a done claim, a quote read with the start of its sentence, a short claim with a verb is no bare answer, myth/falsely as hedges, a past state ("was once") stated now, refuse as a negator, "not all", reports before a gerund or clause, "holds that", "coincided", "will" over "can", a restriction's numbers, sentence-initial names by stem; /24: compared terms read as phrases (subject, parallel prepositions, "as ... as" with a multiple), fractions as numbers and shares, "twice a day", causal and comparison words and more prepositions open parts; /23: count words joined into one number; /22: comparatives before "than", scaled and per-units, reported speech and permission as hedges, more quantity, price, position and frequency words, inner-capital names; /21: review fixes (weak negators, halves, fractions, "once a", converse clause, report words in context, scope framing), denied objects; /20: prepositional parts, converse comparisons, more opposites, decades, halves; /19: a claim's unstated parts, ordinals and multiples as numbers, rarely/seldom, base-form verbs; /18: review fixes (negated clauses, hedges, units, counts); /17: units; /16: age, dominance, approval, legality, consciousness pairs; /15: another name in the quote's first slot; /14: counts as words and ordinals are numbers, up-/down-regulated one word, more opposites; /13: a quantifying negator denies its clause, a verbatim claim inside a denial is not carried; /12: hedged or associated support; /11: roles swapped around a verb; /10: Rule 13 abstains; /9: a title names only what a quote's pronoun refers to; /8: "... started when?" wants a date; /7: "1980's" is the decade; /6: Rule 12 reads decades; /5: quotes re-anchored; /4: Rule 12 reads the answer's words; /3: Rule 8 title and text


class PolicyError(InputError, ValueError):
    """An unknown verifier policy field or an invalid value (one line, naming what is valid)."""


class DirectionPair(BaseModel):
    """Two opposite word groups for the direction check (see `polarity`)."""

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
    max_evidence_ids: int = Field(default=3, ge=1, description="more distinct ids on one claim -> TOO_MANY_EVIDENCE_IDS")
    span_window_factor: float = Field(
        default=1.5, ge=1.0, description="span check: window length limit, in tokens, as a multiple of the claim's length"
    )
    paraphrase_window_factor: float = Field(
        default=2.0, ge=1.0, description="paraphrase check: window length, in tokens, as a multiple of the claim's length"
    )
    title_relevance: bool = Field(default=True, description="Rule 8: a cited chunk whose title and text share nothing with the question demotes STRICT")
    demote_missed_answer: bool = Field(
        default=False, description="when the missed-answer guard fires, set audit mode EVIDENCE-MISSED-PARTIAL"
    )
    slot_check: bool = Field(
        default=True, description="Rule 10: an answer to a when/how-many question that states no date/number is not STRICT"
    )
    topic_check: bool = Field(
        default=True, description="Rule 11: an answer none of whose claims shares a content stem with the question is "
        "not STRICT"
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

    guard_proximity_runes: int = Field(
        default=200, ge=0, description="missed-answer guard: how close (in runes) a candidate must be to a subject token"
    )
    instruction_patterns: dict[str, str] = Field(
        default_factory=lambda: dict(INSTRUCTION_PATTERNS),
        description="instruction guard: name -> regular expression over folded evidence text (see instruction_guard)",
    )

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


def verifier_policy_hash(policy: VerifierPolicy | None = None) -> str:
    """Covers the verifier's own knobs and the version of the shared text rules it tokenises with
    (`arborist.text`), so answer-policy changes never move it and a text-rule change always does."""
    body = {"policy": (policy or VerifierPolicy()).model_dump(mode="json"), "text_rules": TEXT_RULES_VERSION}
    return tagged_digest(POLICY_HASH_TAG, body)
