"""The verifier's vocabulary: labels, verdicts, audit modes and reason codes.

Every code here is part of the verifier's output contract; `REASONS` gives
each one a one-line meaning so a report can explain itself.
"""

from __future__ import annotations

from enum import StrEnum


class Label(StrEnum):
    """What the evidence warrants for a whole answer."""

    STRICT = "STRICT"  # every claim verified by a quote or a span
    HYBRID = "HYBRID"  # some claims verified, or STRICT demoted by a rule
    UNGROUNDED = "UNGROUNDED"  # no claim verified (or nothing claimed and nothing abstained)
    ABSTAINED = "ABSTAINED"  # no claims, only abstained requests; or withheld by Rule 13


class Verdict(StrEnum):
    """What the evidence warrants for one claim (or quote)."""

    VERIFIED_QUOTE = "VERIFIED_QUOTE"  # its quote occurs verbatim (normalised) in a cited chunk
    VERIFIED_SPAN = "VERIFIED_SPAN"  # its text is carried by one contiguous span of a cited chunk
    VERIFIED_ENTAILED = "VERIFIED_ENTAILED"  # its genuine quote entails it by the pinned judge, no rule vetoing
    PARTIAL = "PARTIAL"  # some check ties it to the evidence, but not enough to verify it
    UNSUPPORTED = "UNSUPPORTED"  # nothing ties it to the evidence it cites


VERIFIED = frozenset({Verdict.VERIFIED_QUOTE, Verdict.VERIFIED_SPAN, Verdict.VERIFIED_ENTAILED})
# What a verified claim rests on: the rules' reading of its quote or span, or the judge's of a paraphrase.
QUOTED = frozenset({Verdict.VERIFIED_QUOTE, Verdict.VERIFIED_SPAN})


class AuditMode(StrEnum):
    """How an answer stands towards its evidence, for the audit trail."""

    WARRANTED = "EVIDENCE-WARRANTED"  # STRICT
    LINKED = "EVIDENCE-LINKED"  # HYBRID or UNGROUNDED, with at least one valid citation
    UNLINKED = "EVIDENCE-UNLINKED"  # claims, but not one valid citation among them
    ABSTENTION = "ABSTENTION"  # ABSTAINED, or an empty answer
    MISSED_PARTIAL = "EVIDENCE-MISSED-PARTIAL"  # the missed-answer guard fired and the policy demotes


class Reason(StrEnum):
    """Reason codes; see REASONS for their meaning."""

    QUOTE_NOT_FOUND = "QUOTE_NOT_FOUND"
    QUOTE_MISMATCH = "QUOTE_MISMATCH"
    QUOTE_IN_UNCITED_EVIDENCE = "QUOTE_IN_UNCITED_EVIDENCE"
    QUOTE_MISSING = "QUOTE_MISSING"
    SPAN_NOT_FOUND = "SPAN_NOT_FOUND"
    NUMBER_MISSING = "NUMBER_MISSING"
    ENTITY_MISSING = "ENTITY_MISSING"
    LOW_OVERLAP = "LOW_OVERLAP"
    NEGATION_MISMATCH = "NEGATION_MISMATCH"
    NEGATION_UNSTATED = "NEGATION_UNSTATED"
    DIRECTION_MISMATCH = "DIRECTION_MISMATCH"
    DIRECTION_UNSTATED = "DIRECTION_UNSTATED"
    COMPARISON_MISMATCH = "COMPARISON_MISMATCH"
    ROLES_SWAPPED = "ROLES_SWAPPED"
    CERTAINTY_UNSTATED = "CERTAINTY_UNSTATED"
    UNIT_MISMATCH = "UNIT_MISMATCH"
    SCOPE_DROPPED = "SCOPE_DROPPED"
    CHANGE_DROPPED = "CHANGE_DROPPED"
    NO_CONTENT_TOKENS = "NO_CONTENT_TOKENS"
    QUALIFIER_UNSTATED = "QUALIFIER_UNSTATED"
    PART_UNSTATED = "PART_UNSTATED"
    BARE_ANSWER = "BARE_ANSWER"
    WARRANT_MISSING = "WARRANT_MISSING"
    TOO_MANY_EVIDENCE_IDS = "TOO_MANY_EVIDENCE_IDS"
    TITLE_IRRELEVANT = "TITLE_IRRELEVANT"
    SUBJECT_ABSENT = "SUBJECT_ABSENT"
    SLOT_UNFILLED = "SLOT_UNFILLED"
    OFF_TOPIC = "OFF_TOPIC"
    QUESTION_TERMS_ABSENT = "QUESTION_TERMS_ABSENT"
    EVIDENCE_DOES_NOT_ANSWER = "EVIDENCE_DOES_NOT_ANSWER"
    NO_CLAIMS = "NO_CLAIMS"
    ABSTAINED = "ABSTAINED"
    PARTIAL_ABSTENTION = "PARTIAL_ABSTENTION"
    MISSED_ANSWER_SUSPECTED = "MISSED_ANSWER_SUSPECTED"
    INSTRUCTION_IN_EVIDENCE = "INSTRUCTION_IN_EVIDENCE"
    INSTRUCTION_SUPPORT = "INSTRUCTION_SUPPORT"
    INSTRUCTION_QUOTED = "INSTRUCTION_QUOTED"
    NOT_ENTAILED = "NOT_ENTAILED"
    JUDGED_SUPPORT = "JUDGED_SUPPORT"


REASONS: dict[Reason, str] = {
    Reason.QUOTE_NOT_FOUND: "the quoted text occurs in none of the cited chunks, even after normalisation",
    Reason.QUOTE_IN_UNCITED_EVIDENCE: "the quote is not in the cited chunks but is in another admitted chunk: a "
    "miscitation, judged against what it cites (with the policy's reanchor_quotes the claim is judged against the "
    "block that holds the quote too, and keeps this code only when that does not verify it either)",
    Reason.QUOTE_MISMATCH: "the quote is genuine, but the claim says more than it: a name, number or content word of "
    "the claim is not supported by the quote (and the cited chunk's title)",
    Reason.QUOTE_MISSING: "the claim carries no quote (or an empty one), so the quote check could not run",
    Reason.SPAN_NOT_FOUND: "no contiguous window of a cited chunk holds all of the claim's content tokens",
    Reason.NUMBER_MISSING: "a number or date in the claim occurs in none of the cited evidence",
    Reason.ENTITY_MISSING: "a capitalised name in the claim occurs in none of the cited evidence",
    Reason.LOW_OVERLAP: "the claim's content-stem overlap with the best window of the cited evidence is below the threshold",
    Reason.NEGATION_MISMATCH: "the claim and the words that support it disagree in negation (not/no/never/unable/lack/"
    "fail, or a negative prefix: dependent vs independent)",
    Reason.NEGATION_UNSTATED: "the claim negates a word (does not cause, fails to reduce, ...) that its support "
    "never uses, either way round: the negation is the claim's own",
    Reason.DIRECTION_MISMATCH: "the claim states the opposite direction of its support (increase vs reduce, induce vs "
    "suppress, higher vs lower, improve vs worsen, before vs after, ...)",
    Reason.DIRECTION_UNSTATED: "the claim asserts a direction (increase, reduce, improve, more, ...) that its support "
    "does not state near the claim's words",
    Reason.COMPARISON_MISMATCH: "the claim compares its terms the other way round from its support (A more than B vs "
    "B more than A)",
    Reason.ROLES_SWAPPED: "the claim's verb takes its two sides the other way round from its support (A acquired B "
    "vs B acquired A; a passive on one side only is read as the same roles: B was acquired by A)",
    Reason.CERTAINTY_UNSTATED: "the claim states as fact what its support only supposes (may, suggests, believed "
    "to) or as cause what its support only relates (associated with, correlated with)",
    Reason.UNIT_MISMATCH: "the claim's number measures another unit in its support (6 days vs 6 hours)",
    Reason.SCOPE_DROPPED: "its support states it only for a group or under a condition ('In mice, ...', 'Among men "
    "over 60, ...', '... only if taken after the first trimester') that the claim leaves out",
    Reason.CHANGE_DROPPED: "its support changes a quantity from one number to another ('extend the window from 30 to "
    "60 days') and the claim states both numbers as a value ('the window is 30 to 60 days')",
    Reason.QUALIFIER_UNSTATED: "the claim states a superlative or an exclusive word (oldest, largest, only, first, "
    "all, ...) that its quote does not: it says more than the words it cites",
    Reason.PART_UNSTATED: "a part of the claim (a conjunct, a list item or a clause: 'causes scurvy and rickets' "
    "over 'causes scurvy') has no content word its quote states: the claim says more than the words it cites",
    Reason.BARE_ANSWER: "the claim is a bare answer of a few words (a name, a year), not a statement: it is verified "
    "only by a quote that holds it and at least half of the question's content words (besides the answer's own)",
    Reason.NO_CONTENT_TOKENS: "the claim (or quote) has no content tokens, so there is nothing to check",
    Reason.WARRANT_MISSING: "the claim cites no evidence, or cites an id that is not in the evidence",
    Reason.TOO_MANY_EVIDENCE_IDS: "the claim cites more evidence ids than the policy allows per claim",
    Reason.TITLE_IRRELEVANT: "a cited chunk shares no content stem with the question, in its title nor in its text "
    "(Rule 8)",
    Reason.SUBJECT_ABSENT: "none of the question's subject tokens occurs in any cited evidence (Rule 9)",
    Reason.SLOT_UNFILLED: "the question asks for a date, a number or a place (when / how many / how much / where "
    "...) and no claim states one (Rule 10: demotes STRICT)",
    Reason.OFF_TOPIC: "no claim of the answer shares a content word with the question: it answers something else, "
    "however well its claims are backed (Rule 11: demotes STRICT)",
    Reason.QUESTION_TERMS_ABSENT: "a name, year or decade of the question occurs in none of the answer's claims and quotes "
    "(nor the titles of the chunks it cites), so they do not answer it (Rule 12: demotes STRICT)",
    Reason.EVIDENCE_DOES_NOT_ANSWER: "no sentence of the evidence holds enough of the question's words (weighted by "
    "their rarity in the corpus), or no block states a name or year the question asks about, and the answer is not "
    "STRICT: the verifier abstains for the model, keeping its claims as an unverified draft (Rule 13)",
    Reason.NOT_ENTAILED: "the quote is genuine and holds the claim's names and numbers, but the claim does not restate "
    "it word for word and the entailment judge scored it below its threshold",
    Reason.JUDGED_SUPPORT: "a claim is verified only by the entailment judge's reading of a paraphrase, and the "
    "verifier policy (judged_claims) lets a judged claim carry an answer only to HYBRID, or not at all",
    Reason.NO_CLAIMS: "the answer has neither claims nor abstained requests",
    Reason.ABSTAINED: "the answer abstains from every request and claims nothing",
    Reason.PARTIAL_ABSTENTION: "the answer claims something and abstains from some requests",
    Reason.MISSED_ANSWER_SUSPECTED: "the answer denies the evidence holds the answer, yet candidate answer spans sit near the subject",
    Reason.INSTRUCTION_IN_EVIDENCE: "an evidence chunk addresses the model (an instruction, role marker or chat "
    "token: a possible prompt injection); see the instruction guard",
    Reason.INSTRUCTION_SUPPORT: "a claim is verified only through evidence the instruction guard flagged, so the "
    "answer is not STRICT",
    Reason.INSTRUCTION_QUOTED: "a claim's only support is a sentence the instruction guard flagged (a directive: it "
    "tells a reader or an assistant what to say, or to disregard what it was given): an instruction asserts nothing, "
    "so the claim is not verified (PARTIAL) however verbatim its quote",
}
