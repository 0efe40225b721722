"""`verify_answer`: deterministic, model-free verification of one answer against its evidence.

Each claim passes grounding, names, support and the vetoes (`checks`, `vetoes`), and gets a verdict; the answer
then gets its label from Rules 8-13 and the guards' sidecars (see docs/verifier.md, "Two tiers", "Claim verdicts"
and "Answer rules (8-13)"). The missed-answer guard only reports; it never changes a label.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, Field, computed_field

from arborist.guards import missed_answer
from arborist.guards.instruction import InstructionGuardResult, instruction_guard
from arborist.guards.missed_answer import GuardResult
from arborist.verify.abbreviations import definitions, expand
from arborist.verify.answerability import Answerability, answerability
from arborist.verify.checks import (
    Check,
    Claim,
    Disagreement,
    Prepared,
    entities_check,
    irregular_forms,
    paraphrase_check,
    quote_check,
    same_stem,
    span_check,
)
from arborist.verify.judge import Judge
from arborist.verify.lexicon import QUALIFIER_GROUPS, Lexicon
from arborist.verify.names import read_short, short_names, short_note
from arborist.verify.normalize import (
    VERIFIER_READING,
    content_stems,
    in_a_row,
    is_decade,
    name_tokens,
    token_stems,
    tokenise,
)
from arborist.verify.parts import unstated_coordinates, unstated_parts, unstated_reporter
from arborist.verify.policy import PolicyError, VerifierPolicy, load_policy, verifier_policy_hash
from arborist.verify.quantifier import Quantifier, classify_quantifier
from arborist.verify.reading import DETERMINERS, Finding, Text, past_form, states
from arborist.verify.reasons import QUOTED, VERIFIED, AuditMode, Label, Reason, Verdict
from arborist.verify.schema import Evidence, Item, check_mode, check_question, parse_answer, parse_evidence
from arborist.verify.slots import asked_stems, fills, question_slot
from arborist.verify.swaps import subject_replaced, swapped
from arborist.verify.vetoes import compare

Basis = Literal["quoted", "judged"]


class ClaimChecks(BaseModel):
    quote: Check | None  # None in claim_lattice_pointer mode (no quotes)
    span: Check
    entities: Check
    paraphrase: Check


class ClaimVerification(BaseModel):
    index: int
    text: str
    evidence_ids: list[str]  # the ids the claim was judged against: what it cites, unless re-anchored
    reanchored_from: list[str] = []  # the ids the claim cited when its quote was found verbatim in another block
    verdict: Verdict
    reasons: list[Reason]
    notes: list[str]
    checks: ClaimChecks
    entailment: float | None = None  # the judge's score, where the judge was asked (stage 3; see `judge`)
    decided_by: str = ""  # the stage that decided: "rules", "judge", or the stage that failed

    @computed_field  # type: ignore[prop-decorator]
    @property
    def basis(self) -> Basis | None:
        """What a verified claim rests on: "quoted" (the rules verified it against its quote or span) or "judged"
        (the entailment judge accepted a paraphrase, with its score in `entailment`); None when not verified."""
        if self.verdict is Verdict.VERIFIED_ENTAILED:
            return "judged"
        return "quoted" if self.verdict in QUOTED else None

    @property
    def decision(self) -> str:
        """What decided the verdict, for a reader: "rules", "judge 0.93", or the stage it failed ("failed names");
        "" for a record written before claims said."""
        if self.decided_by == "judge" and self.entailment is not None:
            return f"judge {self.entailment:.2f}"
        if self.decided_by in ("", "rules"):
            return self.decided_by
        return f"failed {self.decided_by}"


class Verification(BaseModel):
    label: Label
    audit_mode: AuditMode
    mode: str
    question: str
    claims: list[ClaimVerification]
    n_verified: int
    # claims in the answer (in quote mode its quotes); records written before the rename call it n_quotes
    n_claims: int = Field(validation_alias=AliasChoices("n_claims", "n_quotes"))
    n_entailed: int = 0  # verified claims that rest on the entailment judge (VERIFIED_ENTAILED)
    abstained_requests: list[str]
    quantifier: Quantifier
    guard: GuardResult
    instruction_guard: InstructionGuardResult = InstructionGuardResult()
    answerability: Answerability | None = None  # Rule 13; None where it did not run (no corpus weights)
    reasons: list[Reason]  # answer-level
    notes: list[str]
    verifier_policy_hash: str

    @computed_field  # type: ignore[prop-decorator]
    @property
    def basis(self) -> Basis | None:
        """What a STRICT label rests on: "quoted" (every claim verified by the rules) or "judged" (at least one
        claim by the entailment judge); None for any other label."""
        if self.label is not Label.STRICT:
            return None
        return "judged" if self.n_entailed else "quoted"

    @property
    def basis_note(self) -> str:
        """"1 of 2 claims judged" when a verified claim rests on the judge, else "": shown beside the label."""
        return f"{self.n_entailed} of {self.n_claims} claims judged" if self.n_entailed else ""

    @property
    def label_text(self) -> str:
        """The label as every surface shows it: "STRICT (1 of 2 claims judged)", or the label alone."""
        return f"{self.label.value} ({self.basis_note})" if self.basis_note else self.label.value

    @classmethod
    def unverifiable(cls, question: str, mode: str, why: str, policy: VerifierPolicy | None = None) -> Verification:
        """The label of an answer that has nothing to verify (the provider failed, or the response did not
        parse into the mode's shape): UNGROUNDED, no claims, `why` as its note."""
        return cls(
            label=Label.UNGROUNDED, audit_mode=AuditMode.UNLINKED, mode=mode, question=question, claims=[],
            n_verified=0, n_claims=0, abstained_requests=[], quantifier=classify_quantifier(question),
            guard=GuardResult(), reasons=[], notes=[why], verifier_policy_hash=verifier_policy_hash(policy),
        )


def _add(reasons: list[Reason], *codes: Reason) -> None:
    for code in codes:
        if code not in reasons:
            reasons.append(code)


# What a claim the judge accepted may leave to it: word rules that ask whether the quote *uses* the claim's words
# (its direction or negation word, a thing's name in a slot), which a paraphrase need not. A rule that finds the
# quote saying the opposite (a mismatch, a swapped role, a hedge, a dropped scope, a qualifier) still vetoes.
WORD_SWAP = "WORD_SWAP"
JUDGE_READS: frozenset[str] = frozenset({Reason.DIRECTION_UNSTATED, Reason.NEGATION_UNSTATED, WORD_SWAP})

BARE_ANSWER_TOKENS = 4  # a claim this short is an answer, not a statement ("David Sarnoff", "in 1957")


def find_denials(texts: list[tuple[str, str]]) -> list[str]:
    """(where, text) pairs -> "where: 'matched words'" for every denial found (`DENIAL_PATTERNS`)."""
    return missed_answer.find_denials(texts, VERIFIER_READING.normalise)


def _memo(disagreement: Disagreement) -> Disagreement:
    """`disagreement` read once per support text: the span check asks it of the same sentence for every
    window the sentence holds (hundreds in a long, repetitive text)."""
    seen: dict[str, list[Finding]] = {}

    def once(support: str) -> list[Finding]:
        if support not in seen:
            seen[support] = disagreement(support)
        return seen[support]

    return once


def _bare(text: str) -> bool:
    return len(tokenise(text)) <= BARE_ANSWER_TOKENS


def reanchor(item: Item, prepared: dict[str, Prepared], max_ids: int) -> Item:
    """The item judged against the admitted block that holds its quote word for word, when it cites only
    admitted blocks and none of them holds it (a small model copies E1's sentence and cites E2), or cites
    more than `max_ids` of them (E1..E5 for one sentence of E1); else the item. A quote found verbatim is a
    citation in itself, and every later check runs against that block (docs/verifier.md, "Re-anchoring")."""
    ids = list(dict.fromkeys(item.evidence_ids))
    if not item.quote or not ids or any(i not in prepared for i in ids):
        return item
    if len(ids) <= max_ids and quote_check(item.quote, [prepared[i] for i in ids])[0].passed:
        return item
    order = [*ids, *(i for i in prepared if i not in ids)]  # a cited holder first
    holder = next((i for i in order if quote_check(item.quote, [prepared[i]])[0].passed), None)
    return item if holder is None else replace(item, evidence_ids=[holder])


def _verify_item(
    item: Item, mode: str, prepared: dict[str, Prepared], policy: VerifierPolicy, lex: Lexicon,
    question_stems: frozenset[str] = frozenset(), cited_as: list[str] | None = None, judge: Judge | None = None,
    presupposed: frozenset[str] = frozenset(), question: str = "",
) -> ClaimVerification:
    """One claim's verdict. `question_stems`: the question's content stems; `presupposed`: the same when the
    question (`question`) asks for a value (a wh-question takes its words as given; a yes/no question asks about
    them)."""
    ids = list(dict.fromkeys(item.evidence_ids))
    cited = [prepared[i] for i in ids if i in prepared]
    unknown = [i for i in ids if i not in prepared]
    reasons: list[Reason] = []
    notes: list[str] = []
    caps: list[Reason] = []
    if not ids:
        caps.append(Reason.WARRANT_MISSING)
        notes.append("cites no evidence")
    if unknown:
        _add(caps, Reason.WARRANT_MISSING)
        notes.append(f"cites id(s) not in the evidence: {', '.join(unknown)}")
    if cited_as is not None:  # re-anchored (see `reanchor`)
        notes.append(f"cites {', '.join(cited_as)}; its quote is in {', '.join(ids)}, so it is judged against "
                     f"{', '.join(ids)} (re-anchored)")
    if len(ids) > policy.max_evidence_ids:
        caps.append(Reason.TOO_MANY_EVIDENCE_IDS)
        notes.append(f"cites {len(ids)} evidence ids; the policy allows {policy.max_evidence_ids}")

    if not cited:
        none = Check(passed=False, detail="no known evidence cited")
        checks = ClaimChecks(quote=None if item.quote is None else none, span=none, entities=none, paraphrase=none)
        return ClaimVerification(index=item.index, text=item.text, evidence_ids=item.evidence_ids,
                                 verdict=Verdict.UNSUPPORTED, reasons=caps, notes=notes, checks=checks)

    # a full name its quote states by its last word(s), as the cited chunk's document resolves it (see `names`)
    titles = {c.ev.title for c in cited if c.ev.title}
    shorts = short_names(item.text, item.quote, cited, [p for i, p in prepared.items() if i in ids or p.ev.title in titles])
    text = read_short(item.text, shorts)
    notes += [short_note(name) for name in shorts]
    claim = Claim.of(text, lex.negators)
    failures: list[Reason] = []
    quote = None
    if item.quote is not None:
        quote, why = quote_check(item.quote, cited)
        failures += why
        if not quote.passed:
            elsewhere = [p.ev.id for i, p in prepared.items() if i not in ids and quote_check(item.quote, [p])[0].passed]
            if elsewhere:
                failures.append(Reason.QUOTE_IN_UNCITED_EVIDENCE)
                notes.append(f"the quote is in {', '.join(elsewhere)}, which the claim does not cite")
    short = mode != "quote" and _bare(item.text) and not states(text, lex)
    # a bare answer ("14 days") takes its scope from the question, so its support's "if ..." is not dropped
    disagreement = _memo(lambda support: compare(text, support, lex, not short)) if policy.polarity_checks else None
    norms = [t.norm for t in claim.tokens]
    stated = [(t.surface, _qualifier_kind(norms[max(0, k - 3) : k]))
              for k, t in enumerate(claim.tokens) if t.norm in lex.qualifiers]
    span, why = span_check(claim, cited, policy.span_window_factor, disagreement, _with_qualifiers(disagreement, stated))
    failures += why
    entities, why = entities_check(claim, cited)
    failures += why
    paraphrase, why = paraphrase_check(claim, cited, policy.paraphrase_window_factor, policy.paraphrase_threshold)
    failures += why

    quote_ok = bool(quote and quote.passed)
    # the claim as each cited chunk reads it beside its quote, read once for the checks against the quote
    supports = ([_quote_support(claim, item.quote, chunk, lex) for chunk in cited]
                if quote_ok and item.quote is not None and mode != "quote" else [])
    # stage 2 against the quote alone, per cited chunk: read once, for restatement, the judge and the verdict's stage
    named = _quote_names(supports)
    # with a judge, restating means every content word: a claim that says part of its quote in other words is the
    # judge's to read, not the word-overlap rule's
    # the question's own words the claim repeats and its quote lacks ("the refund *window*"), when the quote is on
    # the question's topic: the claim is then an answer restating its question (see `_echoed`)
    # the quote as the question is read against it, with the sentence it refers back to (see `_in_context`)
    context = _in_context(item.quote, cited, lex) if item.quote is not None else ""
    echo = _echoed(text, item.quote, context, presupposed, lex, question) if supports and item.quote else frozenset()
    overlaps, restates = (True, True) if mode == "quote" else _quote_restates(supports, named, policy, echo)
    backs_claim = overlaps and (judge is None or restates)
    # restated word for word but for a part its quote may state in other words: the judge's to read, where there is one
    parted = (_unstated_parts(supports, lex) if judge is not None and overlaps and mode != "quote"
              and policy.polarity_checks else [])
    backs_claim = backs_claim and not parted
    # Stage 3 by the judge: a genuine quote that holds the claim's names and numbers (stage 2) but that the claim
    # does not restate word for word. What it accepts still meets every veto below.
    score: float | None = None
    if (judge is not None and not backs_claim and quote_ok and entities.passed and item.quote is not None
            and any(named)):
        premise = _premise(item.quote, cited, lex)
        score = judge.score(premise, text)
        backs_claim = score >= judge.spec.threshold
        notes.append(f"entailment judge {judge.spec.judge_id}: {score:.3f} "
                     f"({'at or above' if backs_claim else 'below'} its threshold {judge.spec.threshold:g})")
        if not backs_claim:
            failures.append(Reason.NOT_ENTAILED)
            if parted:
                failures.append(Reason.PART_UNSTATED)
                notes.append(_part_note(parted))
    judged = score is not None and backs_claim
    if echo and backs_claim and not judged:
        words = list(dict.fromkeys(t.surface for t, stem in zip(claim.tokens, token_stems(claim.tokens), strict=True)
                                   if stem in echo))
        held = len(content_stems(context) & presupposed)
        whose = "is the question's word" if len(words) == 1 else "are the question's words"
        notes.append(f"the claim's {', '.join(repr(w) for w in words)} {whose}, not its quote's; the quote holds "
                     f"{held} of the question's {len(presupposed)} content words (an answer restating its question)")
    replaced = subject_replaced(text, item.quote) if backs_claim and mode != "quote" and item.quote else None
    swap: str | None = None  # another name or thing where the quote has one
    if replaced is not None:
        swap = f"the claim's '{replaced[0]}' stands where its quote says '{replaced[1]}'"
    elif backs_claim and mode != "quote" and policy.polarity_checks and not (judged and WORD_SWAP in JUDGE_READS):
        swap = swapped(supports, lex)
    supported = backs_claim  # stage 3 passed (restated or entailed); what sets it False below is a veto
    if swap is not None:
        backs_claim = False
        failures.append(Reason.ENTITY_MISSING)
        notes.append(swap)
    if quote_ok and not backs_claim:
        failures.append(Reason.QUOTE_MISMATCH)
    if stated and quote_ok and backs_claim and mode != "quote" and item.quote is not None:
        unstated = _unstated(stated, item.quote)
        if unstated:
            backs_claim = False
            failures.append(Reason.QUALIFIER_UNSTATED)
            notes.append(f"the claim says {', '.join(unstated)}; its quote does not")
    if stated and span.passed:
        chunk = next((c for c in cited if c.ev.id == span.evidence_id), None)
        unstated = _unstated(stated, chunk.ev.text) if chunk is not None else []
        if unstated:
            span = span.model_copy(update={"passed": False, "detail": f"{span.detail}; but {span.evidence_id} never "
                                           f"says {', '.join(unstated)}"})
            _add(failures, Reason.QUALIFIER_UNSTATED)
    if quote_ok and backs_claim and not judged and mode != "quote" and item.quote is not None and policy.polarity_checks:
        # (a part stated in other words is the judge's to read: it accepted the claim as a whole)
        added = _unstated_parts(supports, lex)
        if added:
            backs_claim = False
            failures.append(Reason.PART_UNSTATED)
            notes.append(_part_note(added))
    agrees = True
    if quote_ok and backs_claim and mode != "quote" and item.quote is not None and disagreement is not None:
        # the quote's own findings always count; its sentence's lead-in may only add to them (the framing of the
        # cited chunk that reads it best), never hide them
        findings = disagreement(item.quote)
        if judged:  # what the judge read as the same thing said in other words
            findings = [f for f in findings if f.reason not in JUDGE_READS]
        said = {f.reason for f in findings}
        leads = [lead for lead in (_lead_in(item.quote, chunk) for chunk in cited) if lead is not None]
        framed: list[list[Finding]] = [[f for f in disagreement(lead) if f.reason not in said]
                                       if lead != item.quote else [] for lead in leads]
        if judged:
            framed = [[f for f in found if f.reason not in JUDGE_READS] for found in framed]
        if framed:
            fewest: list[Finding] = min(framed, key=len)
            findings += fewest
        agrees = not findings
        failures += [f.reason for f in findings]
        notes += [f"quote: {f.note}" for f in findings]
    # A bare answer asserts nothing on its own: any evidence that holds its words "carries" it.
    bare = short and bool(question_stems)
    asked = question_stems - claim.stems
    on_topic = not bare or (item.quote is not None and len(content_stems(context) & asked) * 2 >= len(asked) > 0)
    if bare and not on_topic:
        failures.append(Reason.BARE_ANSWER)
        notes.append("a bare answer is verified only by a quote that holds it and at least half of the question's "
                     "content words (besides the answer's own), read with the sentence before it when it refers back")
    if quote_ok and entities.passed and backs_claim and agrees and on_topic:
        verdict = Verdict.VERIFIED_ENTAILED if judged else Verdict.VERIFIED_QUOTE
    # never over its own quote's disagreement, unless only the judge let the quote back the claim: a veto on what the
    # judge accepted leaves the claim where the rules alone leave it (the judge only ever adds support)
    elif span.passed and entities.passed and not bare and (agrees or judged):
        verdict = Verdict.VERIFIED_SPAN
    elif quote_ok or span.passed or paraphrase.passed:
        verdict = Verdict.PARTIAL
    else:
        verdict = Verdict.UNSUPPORTED
    # Which stage decided: a verified claim's tier, else the first stage it failed (docs/verifier.md, "Two tiers")
    if verdict in VERIFIED:
        decided_by = "judge" if verdict is Verdict.VERIFIED_ENTAILED else "rules"
    elif not quote_ok and not span.passed:
        decided_by = "grounding"
    elif not entities.passed or (quote_ok and mode != "quote" and not any(named)):
        decided_by = "names"
    elif quote_ok and not supported:
        decided_by = "support"
    else:
        decided_by = "veto"
    if verdict in VERIFIED and caps:
        decided_by = "caps"
        notes.append(f"{verdict} capped at PARTIAL by {', '.join(caps)}")
        verdict = Verdict.PARTIAL
    _add(reasons, *caps)
    if verdict not in VERIFIED:
        _add(reasons, *failures)
    return ClaimVerification(
        index=item.index, text=item.text, evidence_ids=item.evidence_ids, reanchored_from=cited_as or [],
        verdict=verdict, reasons=reasons, notes=notes,
        checks=ClaimChecks(quote=quote, span=span, entities=entities, paraphrase=paraphrase),
        entailment=score, decided_by=decided_by,
    )


def _with_qualifiers(disagreement: Disagreement | None, stated: list[tuple[str, str]]) -> Disagreement | None:
    """`disagreement`, and a finding when the sentence does not use the claim's qualifier words (`stated`) as the
    claim does: a window of the span check carries "Most patients ... showed shrinkage" only from a sentence that
    says "most" ("11 of the 38 patients ... showed shrinkage" beside "The most common side effects" does not)."""
    if disagreement is None or not stated:
        return disagreement
    read = disagreement

    def findings(support: str) -> list[Finding]:
        unstated = _unstated(stated, support)
        found = read(support)
        if not unstated:
            return found
        return [*found, Finding(Reason.QUALIFIER_UNSTATED, f"the claim says {', '.join(unstated)}; the sentence does not")]
    return _memo(findings)


def _unstated(words: list[tuple[str, str]], support: str) -> list[str]:
    """The claim's qualifier words (as written, each with how the words before it bound it: see
    `_qualifier_kind`) that the support never uses bound the same way: "Not all patients ..." does not state "all
    patients ...", nor "nearly all" "all", nor "not the only" "the only"; "not all" states "not all". Qualifiers
    of one group state each other (`QUALIFIER_GROUPS`: "each" and "every"; "always" and "consistently")."""
    norms = [t.norm for t in tokenise(support)]
    held = {(norm, _qualifier_kind(norms[max(0, k - 3) : k])) for k, norm in enumerate(norms)}
    for group in QUALIFIER_GROUPS:  # "each patient" states "every patient"
        for kind in {kind for norm, kind in held if norm in group}:
            held |= {(norm, kind) for norm in group}
    return list(dict.fromkeys(w for w, kind in words if (w.casefold(), kind) not in held))


# Words that stop a qualifier short of itself: "nearly all", "almost every", "virtually the only".
_LIMITERS = frozenset("nearly almost virtually practically".split())


def _qualifier_kind(before: list[str]) -> str:
    """How the (up to three) words before a qualifier bound it: "denied" ("not all", "never the only", "far
    from all", "by no means all"), "limited" ("nearly all", "almost every") or "" (as it is)."""
    pairs = set(zip(before, before[1:], strict=False))
    if any(w in ("not", "never") for w in before[-2:]) or bool(pairs & {("far", "from"), ("no", "means")}):
        return "denied"
    limiter = before[-2:-1] if before[-1:] == ["the"] else before[-1:]  # "nearly all", "virtually the only"
    return "limited" if any(w in _LIMITERS for w in limiter) else ""


def _quote_support(claim: Claim, quote: str, chunk: Prepared, lex: Lexicon) -> tuple[Claim, Prepared, dict[str, str]]:
    """The claim and its quote as one cited chunk reads them: abbreviations the chunk, claim or quote define
    written in both forms (see `abbreviations`), and the quote as a chunk of its own, with the chunk's title when
    the title may name what the quote refers to, its stems aligned to the claim's (`Prepared.align_stems`)."""
    defs = definitions(chunk.ev.text, claim.text, quote)
    wide = Claim.of(expand(claim.text, defs), lex.negators) if defs else claim
    # The title may name what the quote calls "it", never stand in for a name the quote states and
    # the claim drops ("Mutual filed a complaint" does not back "ABC filed a complaint" in ABC's article),
    # nor add one to a quote that refers to nothing ("ATF4 is a stress marker" over "ER stress causes ...").
    quoted = expand(quote, defs)
    quoted_tokens = tokenise(quoted)
    dropped = {t.norm for t in name_tokens(quoted, quoted_tokens)} - {t.norm for t in wide.tokens}
    refers = any(t.norm in lex.anaphors for t in quoted_tokens)
    title = chunk.ev.title if refers and not dropped else ""
    own = Prepared.of(Evidence(id=chunk.ev.id, title=title, text=quoted), lex.negators)
    own.align_stems(wide.stems, irregular_forms(wide.tokens))
    return wide, own, defs


def _lead_in(quote: str, chunk: Prepared) -> str | None:
    """The quote as its sentence in the chunk says it: with the words from the sentence's start up to it
    ("The 1998 paper falsely claimed that | the vaccine causes autism", "There is no evidence that | ...",
    "In mice, | ..."), which frame what the quote says. The quote itself where it opens its sentence; None where
    the chunk does not hold its words in order."""
    wanted = [t.norm for t in tokenise(quote)]
    k = chunk.find(wanted)  # the token the quote starts at
    if k is None:
        return None
    first = chunk.sentence_of.index(chunk.sentence_of[k])  # the sentence's first token
    if first == k:
        return quote
    return chunk.ev.text[chunk.tokens[first].start : chunk.tokens[k + len(wanted) - 1].end]


def _premise(quote: str, cited: list[Prepared], lex: Lexicon) -> str:
    """What the judge reads the claim against: the quote as its sentence says it (see `_lead_in`), after the cited
    chunk's title when the quote refers by a pronoun ("It was closed in 2019" in "Harlow Bridge"), as the rules
    let the title name what a pronoun refers to."""
    for chunk in cited:
        lead = _lead_in(quote, chunk)
        if lead is not None:
            refers = chunk.ev.title and any(t.norm in lex.anaphors for t in tokenise(lead))
            return f"{chunk.ev.title}: {lead}" if refers else lead
    return quote


def _quote_names(supports: list[tuple[Claim, Prepared, dict[str, str]]]) -> list[bool]:
    """Stage 2 against the quote alone, per support: the claim's names and numbers are in its quote (or, for a
    quote that refers by a pronoun, the cited chunk's title) as that cited chunk reads them."""
    return [bool(entities_check(wide, [own])[0].passed) for wide, own, _ in supports]


def _echoed(claim: str, quote: str | None, context: str, question: frozenset[str], lex: Lexicon,
            question_text: str = "") -> frozenset[str]:
    """The claim's content stems that its quote lacks and its `question` states, when the quote (in its `context`,
    see `_in_context`) holds at least half of the question's content stems; else none. "The refund window for
    annual plans is 30 days" over "A new annual subscription ... can be refunded in full if the customer asks
    within 30 days ..." for "How long is the refund window for annual plans?" repeats the question's "window":
    what it adds to the quote is the question's own premise, which an on-topic quote answers as it would a bare
    "30 days" (the `BARE_ANSWER` rule's bar). Only a premise word may be taken (see `_premise_word`: never a word
    that narrows another, nor the verb the claim asserts); never a word standing where the quote has another ("the
    red light" over "a blinking light", see `_displaced`), a part of the question's words alone
    (`_unstated_parts`), or a name's words and numbers (the names stage)."""
    if not quote or not question or len(content_stems(context) & question) * 2 < len(question):
        return frozenset()
    tokens = tokenise(claim)
    said = token_stems(tokens)
    # a name's words and a number are never the question's premise (the claim's "Kim Jong-chul" over the quote's
    # "Kim Jong-il"), whatever the names stage made of them
    named = {id(t) for t in name_tokens(claim, tokens)}
    for before, tok in zip(tokens, tokens[1:], strict=False):  # "Jong-chul": a name goes on past a hyphen
        if id(before) in named and claim[before.end : tok.start] == "-":
            named.add(id(tok))
    read = Text.of(claim, lex)
    asked = [t.norm for t in tokenise(question_text)]
    kept = {s for k, (t, s) in enumerate(zip(tokens, said, strict=True))
            if s and not t.number and id(t) not in named and _premise_word(read, k, asked)}
    theirs = token_stems(tokenise(quote))
    held = {s for s in theirs if s}
    return frozenset(s for s in kept - held if s in question and not _displaced(s, said, theirs))


def _premise_word(read: Text, k: int, asked: list[str]) -> bool:
    """Whether the claim's token `k` may be taken from its question: a head word ("the refund *window* for ...",
    "the Enterprise *plan* requires ..."), or a verb of a description the question says the same way ("a contest
    *called* ..." for "... a contest called ..."). Never a verb the claim asserts, nor a word that narrows another:
    one before a noun ("the *north* runway", "the *maximum* daily dose", "*unpaid* leave") or an adverb
    ("*annually*"), which may pick another thing than the one its quote speaks of."""
    if k >= len(read.tokens):  # past what `Text` reads of a very long claim
        return False
    tok = read.tokens[k]
    if read.verb(k):
        before = read.tokens[k - 1].norm if k else ""
        described = (k > 1 and past_form(tok.norm) and read.stems[k - 1] is not None and not read.verb(k - 1)
                     and read.tokens[k - 2].norm in DETERMINERS  # "a contest called", not "the former employee brought"
                     and in_a_row([before, tok.norm], asked))
        return described
    if tok.norm.endswith("ly"):
        return False
    nxt = k + 1
    return not (nxt < len(read.tokens) and read.stems[nxt] is not None and not _acts(read, nxt))


def _acts(read: Text, k: int) -> bool:
    """Whether token `k` is a verb that follows its subject: a past form, or a verb (`Text.verb`) before a
    determiner or a number ("the Enterprise plan *requires* a minimum"); a plural noun otherwise ("rural
    *households* have", "300 stolen *cars*"), which `Text.verb`'s -s rule alone cannot tell."""
    if not read.verb(k):
        return False
    after = read.tokens[k + 1] if k + 1 < len(read.tokens) else None
    return past_form(read.tokens[k].norm) or (after is not None and (after.number or after.norm in DETERMINERS))


# Words that open a sentence referring back to the one before it ("The event was held ...", "These ...").
_DEFINITE = frozenset("the this that these those such".split())


def _in_context(quote: str, cited: list[Prepared], lex: Lexicon) -> str:
    """The quote, after the sentence before it in the first cited chunk that holds it when the quote refers back
    (an anaphor in its first sentence, or a definite opening: "The last three of these ... carried Pegasus
    satellites" after "... five launches of boilerplate CSMs"). What a bare or question-restating answer's quote is
    on the topic of: the words the question asks about are often in the sentence its quote points back to."""
    norms = [t.norm for t in tokenise(quote)]
    for chunk in cited:
        k = chunk.find(norms)
        if k is None:
            continue
        sentence = chunk.sentence_of[k]
        first = [t.norm for t, n in zip(chunk.tokens[k:], chunk.sentence_of[k:], strict=False) if n == sentence]
        if sentence == 0 or not (first[:1] and (first[0] in _DEFINITE or lex.anaphors & set(first))):
            return quote
        before = [t for t, n in zip(chunk.tokens, chunk.sentence_of, strict=True) if n == sentence - 1]
        return chunk.ev.text[before[0].start : before[-1].end] + " " + quote if before else quote
    return quote


def _displaced(stem: str, said: list[str | None], theirs: list[str | None]) -> bool:
    """Whether a word the claim says (`stem`, among the claim's token stems `said`) stands beside a word that the
    quote (its token stems `theirs`) holds with another content word on that side: the claim's "red light" where
    the quote says "blinking light", its "annual plans" where the quote says "annual subscriptions"."""
    for k, s in enumerate(said):
        if s != stem:
            continue
        for side in (1, -1):  # the word after it (its head), then the word before it (its modifier)
            near = said[k + side] if 0 <= k + side < len(said) else None
            if near is None:
                continue
            for j, t in enumerate(theirs):
                other = theirs[j - side] if t == near and 0 <= j - side < len(theirs) else None
                if other is not None and other != stem and other not in said:
                    return True
    return False


# Words that open a clause about something else than the one before: a relative clause ("..., which hosts the
# festival") or a contrast ("..., while the new hospital treats children").
_CLAUSE_OPENERS = frozenset("which who whom whose while whereas although though but unlike".split())


def _clause_read(quote: Prepared, stems: frozenset[str]) -> frozenset[str]:
    """The stems of the one clause of a one-sentence quote that holds most of the claim's `stems`, the quote cut
    at `_CLAUSE_OPENERS` (for a claim of one clause): its words are the model's own choice of support, not a window a search cut from a chunk
    ("A new annual subscription ... can be refunded ... within 30 days"), but a claim's words spread over a clause
    that speaks of something else ("The clinic ... treats adults, while the new hospital treats children") are
    not one statement. Its own words, never its block's title."""
    clauses: list[set[str]] = [set()]
    for tok, stem in zip(quote.tokens, quote.stems, strict=True):
        if tok.norm in _CLAUSE_OPENERS:
            clauses.append(set())
        elif stem:
            clauses[-1].add(stem)
    best = max(range(len(clauses)), key=lambda k: len(stems & clauses[k]))
    return frozenset(clauses[best])


def _quote_restates(supports: list[tuple[Claim, Prepared, dict[str, str]]], named: list[bool],
                    policy: VerifierPolicy, echo: frozenset[str] = frozenset()) -> tuple[bool, bool]:
    """Whether the quote alone (`supports`: see `_quote_support`, one per cited chunk) holds the claim's names
    (`named`, see `_quote_names`) and `paraphrase_threshold` of its content stems; and whether it holds
    `judged_restatement_threshold` of them, which is what restating means with a judge. One paraphrase check per
    chunk answers both. `echo`: stems the claim takes from its question (see `_echoed`), counted as held."""
    overlaps = restates = False
    for (wide, own, _), names in zip(supports, named, strict=True):
        if not names:
            continue
        paraphrase, _ = paraphrase_check(wide, [own], policy.paraphrase_window_factor, policy.paraphrase_threshold)
        if paraphrase.passed:
            # a passing window agrees with the claim on negation: the stems it misses are the ones it does not hold
            # a one-sentence quote is read whole, clause by clause (see `_clause_read`)
            unheld = [m for m in paraphrase.missing if m not in echo]
            if len(set(own.sentence_of)) == 1 and not any(t.norm in _CLAUSE_OPENERS for t in wide.tokens):
                clause = _clause_read(own, wide.stems)
                unheld = min(unheld, [m for m in wide.stems if m not in clause and m not in echo], key=len)
            covered = len(wide.stems) - len(unheld)
            overlaps = True
            restates = covered / len(wide.stems) >= policy.judged_restatement_threshold
            if restates:
                break
    return overlaps, restates


def _part_note(added: list[str]) -> str:
    return (f"the claim adds {', '.join(repr(a) for a in added)}; its quote states none of "
            f"{'its' if len(added) == 1 else 'their'} words")


def _kin(quote: Prepared, lex: Lexicon) -> frozenset[str]:
    """The stems of the direction words a quote states in other words: the words of its own side of each pair
    ("dropped" for "fell"), and both sides of a pair it compares with ("lower than" for "higher than", the
    comparison from its other side, whose terms the direction check reads)."""
    compared = {quote.stems[k] for k in range(len(quote.tokens) - 1) if quote.tokens[k + 1].norm == "than"}
    out: set[str] = set()
    for p in lex.pairs:
        for side in (p.up, p.down):
            if side & quote.stem_set:
                out |= side
        if (p.up | p.down) & compared:
            out |= p.up | p.down
    return frozenset(out)


def _unstated_parts(supports: list[tuple[Claim, Prepared, dict[str, str]]], lex: Lexicon) -> list[str]:
    """The claim's parts (conjuncts, list items, clauses, a reporter: see `parts`) of which its quote states no
    content word, read against the cited chunk that leaves the fewest such parts. A part made of the question's
    words alone is still unstated: "... in adults and children" does not answer "children" from the question."""
    fewest: list[str] | None = None
    for wide, own, defs in supports:
        kin = _kin(own, lex)
        found = (unstated_parts(wide.text, own.stem_set, frozenset(defs), kin)
                 + unstated_coordinates(wide.text, own.stems)
                 + unstated_reporter(wide.text, own.stem_set, lex.hedges))
        if fewest is None or len(found) < len(fewest):
            fewest = found
    return fewest or []


def _subject_of(question: str, subject: frozenset[str], chunk: Prepared) -> frozenset[str]:
    """The question's content stems, with both forms of every abbreviation the chunk or the question defines
    ("ABC" asks about a chunk titled "American Broadcasting Company" that defines it, and the other way round)."""
    defs = definitions(chunk.ev.text, question)
    return content_stems(expand(question, defs)) if defs else subject


def _question_terms_absent(
    question: str, cited: list[Prepared], said: list[str], said_norms: set[str] | None = None
) -> list[str]:
    """The question's names, years and decades that the answer's own words (`said`; `said_norms`, their token
    norms, when the caller has them) and the cited titles never state, abbreviations read in either form (Rule
    12). A name elsewhere in a quoted chunk does not count: a chunk that mentions Philadelphia once can back a
    claim about another place. Other numbers often describe the asker's case ("a $4,000 invoice")."""
    tokens = tokenise(question)
    wanted = {t.norm: t.surface for t in tokens if t.number and t.norm.isdigit() and 1000 <= int(t.norm) <= 2999}
    wanted.update({t.norm: t.surface for t in tokens if is_decade(t.norm)})
    wanted.update({t.norm: t.surface for t in name_tokens(question, tokens)})
    if not wanted:
        return []
    pool: set[str] = set(said_norms) if said_norms is not None else {t.norm for text in said for t in tokenise(text)}
    expanded: dict[frozenset[tuple[str, str]], set[str]] = {}  # chunks that find the same definitions share one pass
    for chunk in cited:
        pool.update(t.norm for t in chunk.title_tokens)
        defs = definitions(chunk.ev.text, question, *said)
        if defs:
            key = frozenset(defs.items())
            if key not in expanded:
                expanded[key] = {t.norm for text in said for t in tokenise(expand(text, defs))}
            pool.update(expanded[key])
            pool.update(t.norm for t in tokenise(expand(question, defs)) if t.norm not in wanted)
            for short, long in defs.items():
                if any(t.norm in pool for t in tokenise(long)) or short.casefold() in pool:
                    pool.add(short.casefold())
    pool.update([n[:-1] for n in pool if len(n) > 3 and n.endswith("s") and n.isalpha()])  # "CSMs" states "CSM"
    years = [t for t in pool if len(t) == 4 and t.isdigit()]
    pool.update(f"{t[:3]}0s" for t in years)  # 1984 states the 1980s
    pool.update(f"{t[:2]}00s" for t in years)  # and 1856 the 1800s (a century, read the same way)
    return [surface for norm, surface in wanted.items() if norm not in pool]


def _absent_from_evidence(question: str, chunks: list[Prepared]) -> list[str]:
    """The question's names, years and decades that no admitted block states, in its text or title (read as
    `_question_terms_absent` reads them, and a name also found as a word that differs only in its last letters:
    "German" in "Germany", a misspelt "Gothais" in "Gotha")."""
    pool = {t.norm for c in chunks for t in (*c.tokens, *c.title_tokens)}
    absent = _question_terms_absent(question, chunks, [c.ev.text for c in chunks], said_norms=pool)
    if not absent:
        return []
    return [a for a in absent if not any(same_stem(a.casefold(), p) for p in pool)]


def _on_topic(item: Item, subject: frozenset[str], prepared: dict[str, Prepared]) -> bool:
    """Whether a claim (or, for a bare answer, its quote) shares a content stem with the question, reading
    abbreviations its cited chunks define in either form."""
    texts = [item.text] + ([item.quote] if item.quote and _bare(item.text) else [])
    for text in texts:
        stems = content_stems(text)
        if stems & subject:
            return True
        for eid in item.evidence_ids:
            chunk = prepared.get(eid)
            defs = definitions(chunk.ev.text, text) if chunk else {}
            if defs and content_stems(expand(text, defs)) & subject:
                return True
    return False


def verify_answer(
    question: str,
    mode: str,
    evidence: list[Evidence] | list[dict[str, Any]],
    answer: dict[str, Any],
    policy: VerifierPolicy | dict[str, Any] | None = None,
    term_weights: Mapping[str, float] | None = None,
    judge: Judge | None = None,
) -> Verification:
    """Verify one answer. Raises `VerifyInputError` (an InputError and a ValueError) on out-of-shape input.
    `term_weights` (content stem -> the corpus's inverse document frequency) lets Rule 13 run."""
    question = check_question(question)
    mode = check_mode(mode)
    policy = load_policy(policy)
    if judge is not None and policy.entailment is None:
        policy = policy.model_copy(update={"entailment": judge.spec})
    if policy.entailment != (judge.spec if judge is not None else None):
        raise PolicyError(f"the verifier policy names the entailment judge {policy.entailment.judge_id if policy.entailment else 'none'}"
                          f" but was given {judge.spec.judge_id if judge is not None else 'no judge'}: build it with "
                          "arborist.entailment.load_judge(policy.entailment), or verify with entailment none")
    lex = policy.lexicon()
    chunks = [Prepared.of(ev, lex.negators) for ev in parse_evidence(evidence)]
    parsed = parse_answer(mode, answer)
    prepared = {c.ev.id: c for c in chunks}

    subject = content_stems(question)
    asked_as = subject if classify_quantifier(question).extraction else frozenset()  # see `_echoed`
    claims: list[ClaimVerification] = []
    items: list[Item] = []  # each claim as judged: as given, or re-anchored when only that verifies it
    for given in parsed.items:
        claim = _verify_item(given, mode, prepared, policy, lex, subject, judge=judge, presupposed=asked_as, question=question)
        # only a claim its citation leaves unverified is looked for elsewhere (a verified one keeps its ids)
        moved = reanchor(given, prepared, policy.max_evidence_ids) if (
            policy.reanchor_quotes and claim.verdict not in VERIFIED) else given
        if moved is not given:
            second = _verify_item(moved, mode, prepared, policy, lex, subject, cited_as=given.evidence_ids, judge=judge,
                                  presupposed=asked_as, question=question)
            if second.verdict in VERIFIED:
                claim, given = second, moved
        claims.append(claim)
        items.append(given)

    def still_verified(item: Item, evidence: Iterable[Evidence]) -> bool:
        again = {ev.id: prepared[ev.id] if prepared[ev.id].ev is ev else Prepared.of(ev, lex.negators)
                 for ev in evidence}
        return _verify_item(item, mode, again, policy, lex, subject, judge=judge, presupposed=asked_as, question=question).verdict in VERIFIED

    instruction = instruction_guard([c.ev for c in chunks], items, [c.verdict in VERIFIED for c in claims],
                                    policy.instruction_patterns, still_verified)
    # A sentence that tells a reader what to say asserts nothing: a claim whose only support is such a sentence
    # (quoted verbatim, as a model that obeys it does) is not verified, whatever its words.
    for k, claim in enumerate(claims):
        if claim.index in instruction.claims_on_flagged_sentences:
            notes_k = [*claim.notes, f"{claim.verdict} withdrawn: its only support is evidence the instruction guard "
                       "flagged as an instruction (it tells a reader what to say or to disregard, and asserts nothing)"]
            claims[k] = claim.model_copy(update={
                "verdict": Verdict.PARTIAL, "decided_by": "veto", "notes": notes_k,
                "reasons": [*claim.reasons, *(r for r in (Reason.INSTRUCTION_QUOTED,) if r not in claim.reasons)]})
    reasons: list[Reason] = []
    notes: list[str] = []
    judged = [k for k, c in enumerate(claims) if c.verdict is Verdict.VERIFIED_ENTAILED]
    if judged and policy.judged_claims == "none":  # the judge's acceptance verifies nothing under this policy
        for k in judged:
            claims[k] = claims[k].model_copy(update={
                "verdict": Verdict.PARTIAL, "decided_by": "policy",
                "reasons": [*claims[k].reasons, Reason.JUDGED_SUPPORT],
                "notes": [*claims[k].notes, "judged, not quoted: the policy (judged_claims none) does not let the "
                          "judge verify a claim"]})
    n = len(claims)
    n_verified = sum(c.verdict in VERIFIED for c in claims)

    if n == 0:
        label = Label.ABSTAINED if parsed.abstained_requests else Label.UNGROUNDED
        _add(reasons, Reason.ABSTAINED if parsed.abstained_requests else Reason.NO_CLAIMS)
    else:
        label = Label.STRICT if n_verified == n else Label.HYBRID if n_verified else Label.UNGROUNDED
        if parsed.abstained_requests:
            _add(reasons, Reason.PARTIAL_ABSTENTION)

    if instruction.flagged:
        _add(reasons, Reason.INSTRUCTION_IN_EVIDENCE)
        if instruction.claims_on_flagged_sentences:
            _add(reasons, Reason.INSTRUCTION_QUOTED)
        for claim in claims:
            if claim.index in instruction.claims_on_flagged_evidence:
                _add(claim.reasons, Reason.INSTRUCTION_SUPPORT)
        if instruction.claims_on_flagged_evidence:
            _add(reasons, Reason.INSTRUCTION_SUPPORT)
            if label is Label.STRICT:
                label = Label.HYBRID
                notes.append("instruction guard: STRICT demoted to HYBRID (a claim rests only on flagged evidence)")

    if judged and policy.judged_claims == "hybrid" and label is Label.STRICT:
        _add(reasons, Reason.JUDGED_SUPPORT)
        notes.append(f"{len(judged)} of {n} claims rest on the entailment judge; the policy (judged_claims hybrid) "
                     "lets a judged claim carry an answer to HYBRID at most: STRICT demoted to HYBRID")
        label = Label.HYBRID
    cited_ids = list(dict.fromkeys(i for item in items for i in item.evidence_ids if i in prepared))
    cited = [prepared[i] for i in cited_ids]
    if policy.title_relevance and subject and cited:
        # A chunk speaks of the question when its title or its text shares a content stem with it: a
        # paragraph of a long article rarely repeats the article's title, nor a multi-hop bridge page the question.
        irrelevant = [c.ev.id for c in cited if not (c.stem_set & _subject_of(question, subject, c))]
        if irrelevant:
            _add(reasons, Reason.TITLE_IRRELEVANT)
            notes.append(f"Rule 8: neither the title nor the text of {', '.join(irrelevant)} shares a content stem "
                         "with the question")
            for claim in claims:
                if set(claim.evidence_ids) & set(irrelevant):
                    _add(claim.reasons, Reason.TITLE_IRRELEVANT)
            if label is Label.STRICT:
                label = Label.HYBRID
                notes.append("Rule 8: STRICT demoted to HYBRID")
    slot = question_slot(question) if policy.slot_check else None
    if slot is not None and n and not fills(slot, question, [i.text for i in items],
                                            [i.text for i in items if mode != "quote" and _bare(i.text)
                                             and not states(i.text, lex)]):
        _add(reasons, Reason.SLOT_UNFILLED)
        notes.append(f"Rule 10: the question asks for a {slot.value.lower()}, and no claim states one")
        if label is Label.STRICT:
            label = Label.HYBRID
            notes.append("Rule 10: STRICT demoted to HYBRID")
    # Rule 11: an answer speaks of what was asked, not only of the clause that describes its subject; a bare
    # answer ("1957") is on topic through its quote.
    asked = asked_stems(question) if policy.topic_check and n and label is Label.STRICT else frozenset()
    if asked and not any(_on_topic(item, asked, prepared) for item in items):
        _add(reasons, Reason.OFF_TOPIC)
        what = "the question" if asked == subject else f"what the question asks ({', '.join(sorted(asked))})"
        notes.append(f"Rule 11: no claim shares a content stem with {what}; STRICT demoted to HYBRID")
        label = Label.HYBRID
    # Rule 12: the question's names and years must be in what the answer says and quotes
    if policy.question_terms_check and n and cited and label is Label.STRICT:
        # A pointer-mode answer quotes nothing: the chunks it cites are the words it rests on.
        # a bare answer says what its quote says, and a quote that refers back what the sentence before it names
        # (see `_in_context`); a statement says what its own words say
        said = []
        for item in items:
            quote = item.quote
            if quote and _bare(item.text):
                quote = _in_context(quote, [prepared[i] for i in item.evidence_ids if i in prepared], lex)
            said += [text for text in (item.text, quote) if text]
        if mode == "claim_lattice_pointer":
            said += [c.ev.text for c in cited]
        absent = _question_terms_absent(question, cited, said)
        if absent:
            _add(reasons, Reason.QUESTION_TERMS_ABSENT)
            notes.append(f"Rule 12: the question's {', '.join(absent)} occur(s) in none of the answer's claims "
                         "and quotes nor the cited titles; STRICT demoted to HYBRID")
            label = Label.HYBRID
    if subject and cited and not any(c.stem_set & subject for c in cited):
        _add(reasons, Reason.SUBJECT_ABSENT)
        notes.append(f"Rule 9: none of the question's content stems ({', '.join(sorted(subject))}) "
                     "occurs in the cited evidence")

    # Rule 13: an answer the verifier cannot back over evidence that does not answer the question is withheld
    answerable = None
    if term_weights is not None and policy.answerability_threshold > 0 and n:
        absent = _absent_from_evidence(question, chunks) if policy.answerability_names else []
        answerable = answerability(subject, chunks, term_weights, policy.answerability_threshold, absent)
        if label in (Label.HYBRID, Label.UNGROUNDED) and not answerable.answers:
            _add(reasons, Reason.EVIDENCE_DOES_NOT_ANSWER)
            where = f"{answerable.evidence_id}: '{answerable.sentence[:120]}'" if answerable.evidence_id else "none"
            why = (f"no admitted block names the question's {', '.join(answerable.absent_terms)}; "
                   if answerable.absent_terms else "")
            notes.append(
                f"Rule 13: abstained for the model: {why}the best evidence sentence ({where}) holds "
                f"{answerable.coverage:.2f} of the question (threshold {answerable.threshold}); it lacks "
                f"{', '.join(answerable.missing[:6])}. The {label} answer is kept below as an unverified draft")
            label = Label.ABSTAINED

    if label is Label.STRICT:
        audit = AuditMode.WARRANTED
    elif n == 0 or label is Label.ABSTAINED:
        audit = AuditMode.ABSTENTION
    elif cited:
        audit = AuditMode.LINKED
    else:
        audit = AuditMode.UNLINKED

    quantifier = classify_quantifier(question)
    key = "quotes" if mode == "quote" else "claims"
    denial_texts = [(f"{key}[{i.index}].text", i.text) for i in items]
    denial_texts += [(f"claims[{i.index}].quote", i.quote) for i in items if i.quote and mode != "quote"]
    denial_texts += [(f"abstained_requests[{k}]", r) for k, r in enumerate(parsed.abstained_requests)]
    answer_texts = [i.text for i in items] + [i.quote for i in items if i.quote]
    guard = missed_answer.missed_answer_guard(question, quantifier, chunks, denial_texts, answer_texts,
                                              policy.guard_proximity_runes, VERIFIER_READING)
    if guard.answerability_warning:
        _add(reasons, Reason.MISSED_ANSWER_SUSPECTED)
        if policy.answerability.demote_missed_answer:
            notes.append(f"missed-answer guard: audit mode {audit} set to {AuditMode.MISSED_PARTIAL}")
            audit = AuditMode.MISSED_PARTIAL

    return Verification(
        label=label, audit_mode=audit, mode=mode, question=question, claims=claims, n_verified=n_verified,
        n_claims=n, n_entailed=sum(c.verdict is Verdict.VERIFIED_ENTAILED for c in claims),
        abstained_requests=parsed.abstained_requests, quantifier=quantifier, guard=guard,
        instruction_guard=instruction, answerability=answerable, reasons=reasons, notes=notes,
        verifier_policy_hash=verifier_policy_hash(policy),
    )
