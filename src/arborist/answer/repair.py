"""Answer repairs: the verifier's findings act on the answer before it is settled.

The verifier's reason codes are outside feedback, specific and reproducible, so the answer path may act on
them (a model critiquing itself may not). Three repairs, chosen by the answer policy's `repair`:

- **snap** (no model call): a claim whose quote is in no admitted block gets, as its quote, the closest span of
  admitted evidence within `SNAP_BUDGET` edits per character (`snap_quote`); its citation moves to the block that
  holds the span. Then a claim whose quote lacks its names or numbers (or has no quote in the evidence) is
  **re-attributed** to an admitted sentence that holds all of them, if that sentence passes the claim's checks
  (rules, then the judge).
- **revise** (one model call): an answer neither STRICT nor ABSTAINED gets one follow-up turn in the same
  conversation, holding the findings in plain words (`findings`), and the revised answer is verified afresh.

A repair never edits a claim's words: a snapped or re-attributed quote is a verbatim span of admitted evidence, and
every check runs again on it. Of the attempts, the better label wins (`LABEL_RANK`); on a tie the first stands, and
every attempt stays in the record.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from arborist.answer.contract import check_contract
from arborist.answer.pipeline import sample_settings
from arborist.answer.record import AnswerRecord, Attempt, Repair
from arborist.answer.verification import verify_contract_answer
from arborist.models.base import Message, Provider
from arborist.policy.answer import REPAIR_STEPS
from arborist.text import sentence_bounds
from arborist.verify import Verification, VerifierPolicy
from arborist.verify.normalize import content_stems, name_tokens, token_stems, tokenise
from arborist.verify.reasons import VERIFIED, Label, Reason, Verdict

# A quote is snapped to a span of admitted evidence at most this many edits per character of the quote away
# (characters of its normalised words: case, punctuation and spacing never count), and at least SNAP_MIN_EDITS.
SNAP_BUDGET = 0.2
SNAP_MIN_EDITS = 2
SNAP_MIN_TOKENS = 3  # a shorter quote names too little to say where it came from
REATTRIBUTE_TRIES = 3  # admitted sentences tried per claim, the best-matching first
ADDED_WORDS_SHOWN = 6  # words a finding lists that a claim adds to its quote
# A re-attribution must verify by the rules: it searches the evidence for a premise, and a search that the judge
# decides buys its false accepts (the judge gave 0.89 to a rejected proposal's "extend ... from 30 to 60 days"
# as proof that the window "is 30 to 60 days").
RULE_VERIFIED = frozenset({Verdict.VERIFIED_QUOTE, Verdict.VERIFIED_SPAN})
# Which of two attempts is better: an abstention is more honest than an answer nothing verifies.
LABEL_RANK: dict[Label, int] = {Label.STRICT: 3, Label.HYBRID: 2, Label.ABSTAINED: 1, Label.UNGROUNDED: 0}
SNAPS = tuple(k for k, steps in REPAIR_STEPS.items() if "snap" in steps)
REVISES = tuple(k for k, steps in REPAIR_STEPS.items() if "revise" in steps)


_CLOSERS = frozenset(".!?")


@dataclass(frozen=True)
class Snap:
    evidence_id: str
    span: str
    distance: int


def _words(text: str) -> tuple[list[Any], str]:
    tokens = tokenise(text)
    return tokens, " ".join(t.norm for t in tokens)


def snap_quote(quote: str, blocks: Sequence[tuple[str, str]]) -> Snap | None:
    """The span of `blocks` ((evidence id, text), the cited first) closest to `quote` within the edit budget, as
    the block writes it; None when none is close enough. Spans are whole words, of the quote's length give or take
    a fifth, and hold exactly the quote's numbers and names: a figure or a name changed is another fact, not a
    misquote ("$29 ... billed monthly" never snaps to a superseded "$22 ... billed monthly", two edits away). On a
    tie the earlier block, then the earlier span, wins. Alignment by rapidfuzz's Levenshtein distance with a
    score cutoff (C, bit-parallel), so thousands of candidate spans cost milliseconds."""
    qtokens, query = _words(quote)
    n = len(qtokens)
    if n < SNAP_MIN_TOKENS:
        return None
    numbers = {t.norm for t in qtokens if t.number}
    words = {t.norm for t in qtokens}
    names = {t.norm for t in name_tokens(quote, qtokens)}
    budget = max(SNAP_MIN_EDITS, int(SNAP_BUDGET * len(query)))
    slack = max(1, round(n / 5))
    lengths = sorted(range(max(1, n - slack), n + slack + 1), key=lambda k: abs(k - n))
    where: list[tuple[str, int, int]] = []
    choices: list[str] = []
    for eid, text in blocks:
        tokens = tokenise(text)
        norms = [t.norm for t in tokens]
        named = {id(t) for t in name_tokens(text, tokens)}
        for i in range(len(tokens)):
            for k in lengths:
                if i + k > len(tokens):
                    continue
                span = tokens[i : i + k]
                # the same figures, and no name on either side that the other does not write (in any case)
                if ({t.norm for t in span if t.number} != numbers or not names <= set(norms[i : i + k])
                        or any(id(t) in named and t.norm not in words for t in span)):
                    continue
                where.append((eid, tokens[i].start, tokens[i + k - 1].end))
                choices.append(" ".join(norms[i : i + k]))
    best = process.extractOne(query, choices, scorer=Levenshtein.distance, score_cutoff=budget)
    if best is None:
        return None
    _, distance, index = best
    eid, start, end = where[index]
    text = dict(blocks)[eid]
    if quote.rstrip()[-1:] in _CLOSERS and text[end : end + 1] in _CLOSERS:  # the sentence's full stop, as quoted
        end += 1
    return Snap(evidence_id=eid, span=text[start:end], distance=int(distance))


def _anchors(text: str) -> set[str]:
    """The numbers and names of a claim, normalised: what a sentence must hold to be its quote."""
    tokens = tokenise(text)
    return {t.norm for t in tokens if t.number} | {t.norm for t in name_tokens(text, tokens)}


def _contradicts_its_quote(claim: str, quote: object) -> bool:
    """Whether the claim states numbers its own quote lacks while the quote states others ("14 days" quoting
    "within 30 days"): either the model read one figure and wrote another (the claim is wrong), or it cited one
    of two sentences that give the figure differently. Such a claim moves only to a sentence that answers the
    question at least as fully as its own quote (see `repair_claims`); else it is left to the revision, whose
    findings name the quote's figures."""
    if not isinstance(quote, str):
        return False
    said = {t.norm for t in tokenise(claim) if t.number}
    quoted = {t.norm for t in tokenise(quote) if t.number}
    return bool(said - quoted) and bool(quoted - said)


def _candidates(claim: str, question: str, blocks: Sequence[tuple[str, str]], anchors: set[str]) -> list[tuple[str, str]]:
    """Admitted sentences ((evidence id, sentence)) holding every anchor, the most words shared with the claim and
    the question first."""
    wanted = content_stems(claim) | content_stems(question)
    found: list[tuple[int, int, str, str]] = []
    for eid, text in blocks:
        for start, end in sentence_bounds(text):
            sentence = text[start:end]
            if anchors <= {t.norm for t in tokenise(sentence)}:
                found.append((-len(content_stems(sentence) & wanted), len(found), eid, sentence))
    return [(eid, s) for _, _, eid, s in sorted(found)[:REATTRIBUTE_TRIES]]


class Reverifier:
    """Verifies an answer dict over one record's evidence, as the record's verification was made."""

    def __init__(self, record: AnswerRecord, policy: VerifierPolicy, weights: Mapping[str, float] | None) -> None:
        self.record = record
        self.policy = policy
        self.weights = weights
        self.evidence = [{"id": e.evidence_id, "title": e.title, "text": e.text} for e in record.evidence]
        self.blocks = [(e.evidence_id, e.text) for e in record.evidence]

    def __call__(self, answer: dict[str, Any]) -> Verification:
        contract = self.record.contract.model_copy(update={"answer": answer})
        return verify_contract_answer(self.record.question, self.record.policy.mode, contract, self.evidence,
                                      self.policy, self.weights)


def _claims(answer: dict[str, Any] | None) -> list[dict[str, Any]]:
    claims = (answer or {}).get("claims")
    return claims if isinstance(claims, list) else []


def repair_claims(record: AnswerRecord, verify: Reverifier) -> AnswerRecord:
    """Snap and re-attribute the claims of a verified claim_lattice record (no model call); the record as it was
    when nothing changed. The returned record is verified afresh and lists what was done in `repairs`."""
    v = record.verification
    if record.policy.mode != "claim_lattice" or v is None or record.contract.answer is None:
        return record
    answer = {**record.contract.answer, "claims": [dict(c) for c in _claims(record.contract.answer)]}
    verdicts = {cv.index: cv for cv in v.claims}
    repairs: list[Repair] = []
    current = v
    asked = content_stems(record.question)
    for i, claim in enumerate(answer["claims"]):
        cv = verdicts.get(i)
        if cv is None or cv.verdict in VERIFIED or not isinstance(claim.get("text"), str):
            continue
        before_quote, before_ids = claim.get("quote"), list(claim.get("evidence_ids") or [])
        if isinstance(before_quote, str) and Reason.QUOTE_NOT_FOUND in cv.reasons:
            cited = [b for b in verify.blocks if b[0] in before_ids]
            snap = snap_quote(before_quote, [*cited, *(b for b in verify.blocks if b[0] not in before_ids)])
            if snap is not None:
                claim["quote"], claim["evidence_ids"] = snap.span, [snap.evidence_id]
                current = verify(answer)
                repairs.append(Repair(kind="snapped", claim=i, quote_before=before_quote, quote_after=snap.span,
                                      evidence_before=before_ids, evidence_after=[snap.evidence_id],
                                      distance=snap.distance, detail=_verdict_note(current, i)))
                if _verified(current, i):
                    continue
        anchors = _anchors(claim["text"])
        if not anchors:
            continue
        # a claim at odds with its own quote's figures moves only to a sentence that answers the question at least as
        # fully as that quote ("14 days" for an annual plan never moves to the monthly plan's "within 14 days")
        floor = (len(content_stems(str(claim.get("quote"))) & asked)
                 if _contradicts_its_quote(claim["text"], claim.get("quote")) else 0)
        for eid, sentence in _candidates(claim["text"], record.question, verify.blocks, anchors):
            if len(content_stems(sentence) & asked) < floor:
                continue
            if sentence == claim.get("quote") and claim.get("evidence_ids") == [eid]:
                continue
            trial = {**answer, "claims": [*answer["claims"][:i], {**claim, "quote": sentence, "evidence_ids": [eid]},
                                          *answer["claims"][i + 1 :]]}
            checked = verify(trial)
            if _verified(checked, i, by_rules=True):
                repairs.append(Repair(kind="reattributed", claim=i, quote_before=claim.get("quote"),
                                      quote_after=sentence, evidence_before=list(claim.get("evidence_ids") or []),
                                      evidence_after=[eid], detail=_verdict_note(checked, i)))
                answer, current = trial, checked
                break
    if not repairs:
        return record
    return _with_answer(record, answer, current, repairs)


CLAIM_REPAIRS = ("snapped", "reattributed")


def kept_claim_repairs(repairs: Sequence[Repair]) -> list[Repair]:
    """The claim repairs made to the answer a record keeps: those after its last kept revision (the ones before
    it were made to the first answer), or all of them."""
    last = max((k for k, r in enumerate(repairs) if r.kind == "revised"), default=-1)
    return [r for r in repairs[last + 1 :] if r.kind in CLAIM_REPAIRS]


def apply_repairs(answer: dict[str, Any] | None, repairs: Sequence[Repair],
                  evidence: Mapping[str, str]) -> tuple[dict[str, Any] | None, list[str]]:
    """`answer` as the model gave it, with the recorded claim repairs replayed (each claim's quote and citation
    replaced), and what in them does not hold: a repaired quote that is not a verbatim span of the evidence block
    (`evidence`: id -> text) it now cites, or a claim the repair names that the answer lacks. What a validator
    re-derives a repaired answer from."""
    problems: list[str] = []
    kept = kept_claim_repairs(repairs)
    if not kept or answer is None:
        return answer, problems
    claims = [dict(c) if isinstance(c, dict) else c for c in _claims(answer)]
    for r in kept:
        if r.claim is None or not 0 <= r.claim < len(claims) or not isinstance(claims[r.claim], dict):
            problems.append(f"a {r.kind} repair names claim {r.claim}, which the answer does not have")
            continue
        if r.quote_after is None or not any(r.quote_after in evidence.get(e, "") for e in r.evidence_after):
            problems.append(f"claim {r.claim + 1}'s {r.kind} quote is not a span of {', '.join(r.evidence_after)}")
        claims[r.claim] = {**claims[r.claim], "quote": r.quote_after, "evidence_ids": list(r.evidence_after)}
    return {**answer, "claims": claims}, problems


def _verified(v: Verification, i: int, by_rules: bool = False) -> bool:
    """Whether claim `i` is verified (`by_rules`: by the rules alone, not by the judge)."""
    accepted = RULE_VERIFIED if by_rules else VERIFIED
    return any(cv.index == i and cv.verdict in accepted for cv in v.claims)


def _verdict_note(v: Verification, i: int) -> str:
    cv = next((cv for cv in v.claims if cv.index == i), None)
    if cv is None:
        return ""
    why = f" ({', '.join(r.value for r in cv.reasons)})" if cv.reasons else ""
    return f"then {cv.verdict.value}{why}"


def _with_answer(record: AnswerRecord, answer: dict[str, Any], v: Verification, repairs: list[Repair]) -> AnswerRecord:
    by_eid = {e.evidence_id: e.chunk_id for e in record.evidence}
    cited = list(dict.fromkeys(eid for c in _claims(answer) for eid in c.get("evidence_ids") or []))
    contract = record.contract.model_copy(update={"answer": answer, "cited_evidence_ids": cited})
    return record.model_copy(update={
        "contract": contract, "verification": v, "repairs": [*record.repairs, *repairs],
        "citation_chunk_ids": [by_eid[e] for e in cited if e in by_eid]})


# -- the revision turn ------------------------------------------------------------

# What a failed claim is told, by the stage that failed it (ClaimVerification.decided_by), in words a small model
# acts on; the reason codes' own meanings (verify.reasons.REASONS) are written for people reading a report.
_STAGE_FINDINGS: dict[str, str] = {
    "grounding": "its quote is not copied word for word from the block it cites",
    "support": "its quote does not say what the claim says",
    "veto": "its quote says something different from the claim",
    "caps": "it cites too many blocks or a block that is not in the evidence",
}
_ANSWER_FINDINGS: dict[Reason, str] = {
    Reason.SLOT_UNFILLED: "the question asks for a number, a date or a place, and no claim states one",
    Reason.OFF_TOPIC: "no claim answers the question that was asked",
    Reason.QUESTION_TERMS_ABSENT: "the claims leave out what the question names",
    Reason.SUBJECT_ABSENT: "the cited evidence does not mention what the question is about",
    Reason.PARTIAL_ABSTENTION: "part of the question was not answered",
}


def _quote_of(answer: dict[str, Any] | None, i: int) -> str:
    claims = _claims(answer)
    quote = claims[i].get("quote") if i < len(claims) and isinstance(claims[i], dict) else None
    return quote if isinstance(quote, str) else ""


def _numbers(text: str) -> list[str]:
    return list(dict.fromkeys(t.surface for t in tokenise(text) if t.number))


def _holders(quote: str, blocks: Sequence[tuple[str, str]]) -> list[str]:
    """The evidence ids whose text holds `quote` word for word (case, punctuation and spacing aside)."""
    wanted = _words(quote)[1]
    return [eid for eid, text in blocks if wanted and wanted in _words(text)[1]] if wanted else []


def _added_words(claim: str, quote: str) -> list[str]:
    """The claim's content words (as the claim writes them) whose stem its quote lacks: what a claim that adds to
    its quote (a word borrowed from the question, a paraphrase) must drop to say only what the quote says."""
    held = content_stems(quote)
    tokens = tokenise(claim)
    return list(dict.fromkeys(f'"{t.surface}"' for t, stem in zip(tokens, token_stems(tokens), strict=True)
                              if stem and stem not in held))[:ADDED_WORDS_SHOWN]


def findings(v: Verification, answer: dict[str, Any] | None = None,
             blocks: Sequence[tuple[str, str]] = ()) -> list[str]:
    """The verifier's findings on an answer, in plain words: what a revision turn tells the model. A quote is
    read on its own (its numbers and names), a miscited one is told the block that holds it, and a claim whose
    number its quote lacks is told the numbers the quote has ("its quote has no 60; it has 30"): the finding
    then says what would be right, which a small model acts on where "has no 60" alone left it unmoved."""
    out: list[str] = []
    held_back = Reason.JUDGED_SUPPORT in v.reasons  # judged claims may not carry this answer to STRICT
    for cv in v.claims:
        if (held_back and cv.basis == "judged") or Reason.JUDGED_SUPPORT in cv.reasons:
            out.append(f'Claim {cv.index + 1} says "{cv.text}", which its quote says only in other words: '
                       "write the claim in the words of its quote.")
            continue
        if cv.verdict in VERIFIED:
            continue
        quote = _quote_of(answer, cv.index)
        cited = ", ".join(cv.evidence_ids) or "nothing"
        held = {t.norm for t in tokenise(quote)}
        lacking = sorted(_anchors(cv.text) - held) if quote else []
        holders = [e for e in _holders(quote, blocks) if e not in cv.evidence_ids] if quote else []
        parts: list[str] = []
        if not quote:
            parts.append("it has no quote")
        elif Reason.QUOTE_NOT_FOUND in cv.reasons and holders:
            parts.append(f"its quote is not in {cited}, the block it cites; it is in {', '.join(holders)}")
        elif Reason.QUOTE_NOT_FOUND in cv.reasons:
            parts.append(f"its quote is not copied word for word from {cited}")
        if Reason.BARE_ANSWER in cv.reasons:
            parts.append("it is a bare answer, and its quote does not say what the question asks about: quote the "
                         "sentence that answers the question")
        elif lacking:
            names = [t.surface for t in tokenise(cv.text) if t.norm in lacking]
            has = _numbers(quote) if any(t.number for t in tokenise(cv.text) if t.norm in lacking) else []
            parts.append(f"its quote has no {', '.join(dict.fromkeys(names))}"
                         + (f"; it has {', '.join(has)}" if has else ""))
        elif quote and cv.decided_by in ("support", "veto"):
            added = _added_words(cv.text, quote)
            if added:
                parts.append(f"its quote does not say {', '.join(added)}")
        said = "; and ".join(parts) or _STAGE_FINDINGS.get(cv.decided_by, "its quote does not say what the claim says")
        out.append(f'Claim {cv.index + 1} says "{cv.text}", but {said}.')
    out += [_ANSWER_FINDINGS[r].capitalize() + "." for r in v.reasons if r in _ANSWER_FINDINGS]
    return out


REVISION_REQUEST = (
    "Your answer has these problems:\n{findings}\n\n"
    "Correct the answer: change each claim so that it says only what its quote says, or leave the claim out. "
    "Each quote must be copied exactly from the evidence block it cites. If no sentence of the evidence answers "
    "the question, give no claims and put the question in abstained_requests. Give the corrected answer as JSON "
    "in the same shape."
)


def revision_turns(record: AnswerRecord, v: Verification) -> list[Message]:
    """The two turns a revision adds to the first prompt: the model's own answer, then the findings."""
    blocks = [(e.evidence_id, e.text) for e in record.evidence]
    listed = "\n".join(f"- {line}" for line in findings(v, record.contract.answer, blocks))
    return [Message(role="assistant", content=record.completion.text),
            Message(role="user", content=REVISION_REQUEST.format(findings=listed))]


def _stray_abstentions(question: str, answer: dict[str, Any] | None) -> list[str]:
    """Abstained requests that share no content word with the question: a revision that copied the findings (or
    anything else) into abstained_requests has not abstained from what was asked."""
    asked = content_stems(question)
    requests = (answer or {}).get("abstained_requests") or []
    return [r for r in requests if isinstance(r, str) and not content_stems(r) & asked]


def _emptier(first: Verification, second: Verification) -> bool:
    """Whether the second answer says less than the first: fewer claims, more abstained requests or fewer verified
    claims (how a checker's "supported" gets bought: Self-RAG's and best-of-N's known failure)."""
    return (second.n_claims < first.n_claims or len(second.abstained_requests) > len(first.abstained_requests)
            or second.n_verified < first.n_verified)


def better(first: Verification, second: Verification) -> bool:
    """Whether the revision beats the first answer: a higher label rank (`LABEL_RANK`), never bought with an
    emptier answer, even when the first's claims are refuted: told its quote lacks a figure, a small model drops
    the claim and abstains, trading an answer (often right) that its UNGROUNDED label already flags for an
    emptier one. A tie keeps the first."""
    return (LABEL_RANK[second.label] > LABEL_RANK[first.label] and second.n_verified >= first.n_verified
            and not _emptier(first, second))


def _attempt(kind: Literal["first", "revision", "sample"], record: AnswerRecord, kept: bool, added: list[Message] | None = None) -> Attempt:
    v = record.verification
    return Attempt(kind=kind, messages_added=added or [], completion=record.completion, contract=record.contract,
                   label=v.label.value if v else None, n_verified=v.n_verified if v else 0,
                   n_claims=v.n_claims if v else 0, kept=kept)


def revise(record: AnswerRecord, provider: Provider | None, verify: Reverifier, snap: bool) -> AnswerRecord:
    """One revision turn for a verified record that is neither STRICT nor ABSTAINED (else the record as it is)."""
    v = record.verification
    if v is None or v.label in (Label.STRICT, Label.ABSTAINED) or record.contract.answer is None or provider is None:
        return record
    turns = revision_turns(record, v)
    evidence_ids = [e.evidence_id for e in record.evidence]
    completion = provider.complete([*record.prompt.messages, *turns],
                                   sample_settings(record.policy.generation, record.sample_index),
                                   json_schema=record.prompt.json_schema)
    contract = check_contract(record.policy.mode, completion.text, evidence_ids, provider_error=completion.error)
    first = record.model_copy(update={"repairs": [], "attempts": []})
    stray = _stray_abstentions(record.question, contract.answer)
    problem = (f"the revision's server call failed ({completion.error})" if completion.error
               else f"the revision broke the answer contract ({contract.reason})" if not contract.valid
               else f"the revision abstained from a request the question does not make ({stray[0][:60]!r})"
               if stray else None)
    if problem is not None:  # nothing is lost: the first answer stands, the failed attempt is kept beside it
        failed = record.model_copy(update={"completion": completion, "contract": contract})
        return record.model_copy(update={
            "attempts": [_attempt("first", first, True), _attempt("revision", failed, False, turns)],
            "repairs": [*record.repairs, Repair(kind="revision_failed", detail=f"{problem}: the first answer stands")]})
    by_eid = {e.evidence_id: e.chunk_id for e in record.evidence}
    second = record.model_copy(update={
        "completion": completion, "contract": contract, "repairs": [], "attempts": [],
        "citation_chunk_ids": [by_eid[e] for e in contract.cited_evidence_ids if e in by_eid]})
    second = second.model_copy(update={"verification": verify(contract.answer or {})})
    if snap:
        second = repair_claims(second, Reverifier(second, verify.policy, verify.weights))
    sv = second.verification
    if sv is not None and better(v, sv):
        detail = f"the revision is {sv.label.value} ({sv.n_verified}/{sv.n_claims}); the first was {v.label.value} " \
                 f"({v.n_verified}/{v.n_claims})"
        return second.model_copy(update={
            "attempts": [_attempt("first", first, False), _attempt("revision", second, True, turns)],
            "repairs": [*record.repairs, Repair(kind="revised", detail=detail), *second.repairs]})
    detail = (f"the revision is {sv.label.value} ({sv.n_verified}/{sv.n_claims}), no better than the first "
              f"{v.label.value} ({v.n_verified}/{v.n_claims}): the first stands" if sv is not None else "")
    return record.model_copy(update={
        "attempts": [_attempt("first", first, True), _attempt("revision", second, False, turns)],
        "repairs": [*record.repairs, Repair(kind="kept_first", detail=detail)]})


def repair_answer(record: AnswerRecord, provider: Provider | None, policy: VerifierPolicy,
                  weights: Mapping[str, float] | None) -> AnswerRecord:
    """A verified record repaired as its answer policy says (`repair`), timed under timings['repair']."""
    kind = record.policy.repair
    if kind == "none" or record.verification is None:
        return record
    t = time.perf_counter()
    verify = Reverifier(record, policy, weights)
    if kind in SNAPS:
        record = repair_claims(record, verify)
    if kind in REVISES:
        record = revise(record, provider, Reverifier(record, policy, weights), snap=kind in SNAPS)
    seconds = round(time.perf_counter() - t, 6)
    timings = {**record.timings, "repair": seconds}
    if "total" in timings:
        timings["total"] = round(timings["total"] + seconds, 6)
    return record.model_copy(update={"timings": timings})



# -- verified choice among samples ------------------------------------------------

REFUTING_STAGES = frozenset({"names", "veto"})


def _refuted(v: Verification) -> bool:
    """Whether an answer's claims are refuted: a claim of it states a number or name its evidence lacks, or a rule
    finds its quote saying otherwise (`REFUTING_STAGES`); then fewer claims elsewhere may be an improvement, not an
    emptier answer. A claim merely not verified (no quote found, a paraphrase the judge refused) is not refuted."""
    return any(cv.verdict not in VERIFIED and cv.decided_by in REFUTING_STAGES for cv in v.claims)


def choose_sample(records: Sequence[AnswerRecord]) -> tuple[int, str]:
    """The index of the sample to show among several answers to one question (`query --samples N`), and why.

    By label (`LABEL_RANK`), never bought with an emptier answer (Self-RAG's and best-of-N's known failure): a
    later sample is preferred only if it has at least as many claims as the first, abstains from no more
    requests, and verifies no fewer claims, unless the first sample's claims are refuted. On a tie the earliest
    sample stands."""
    first = records[0].verification
    if first is None:
        return 0, "the first sample has no verification"
    best, why = 0, f"sample 1 is {first.label.value} ({first.n_verified}/{first.n_claims}); no other sample is better"
    for i, record in enumerate(records[1:], start=1):
        v, top = record.verification, records[best].verification
        if v is None or top is None or LABEL_RANK[v.label] <= LABEL_RANK[top.label]:
            continue
        emptier = _emptier(first, v)
        if emptier and not _refuted(first):
            continue
        best = i
        why = (f"sample {i + 1} is {v.label.value} ({v.n_verified}/{v.n_claims}), better than sample 1's "
               f"{first.label.value} ({first.n_verified}/{first.n_claims})"
               + (", with fewer claims or more abstentions, but sample 1's claims are refuted" if emptier else ""))
    return best, why
