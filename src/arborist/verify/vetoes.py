"""Does the support say the same thing *the same way round*? The vetoes of a claim against its quote or span.

Word overlap cannot tell "PD-1 triggering reduces IL-10" from "PD-1 triggering
induced IL-10": the words agree, the direction does not. This check compares a
claim with the text that is meant to carry it (its own quote, or the sentence
its span was found in), word by word where they line up:


`compare` runs each family, in this order, and keeps the first finding of each reason:
negation (`negation`), direction and comparison (`direction`), roles
(`roles`), certainty (`certainty`), time (`tense`), units (`units`), a model
letter changed (ENTITY_MISSING: "the Nimbus S" over "the Nimbus X"), and,
when scoped, the support's restriction and a part or one made the whole
(SCOPE_DROPPED, `scope`). The words are read once (`reading.Text`).

Every finding names the words involved, so a report can show them.
"""

from __future__ import annotations

from arborist.verify import scope
from arborist.verify.certainty import certainty_unstated
from arborist.verify.direction import direction_findings
from arborist.verify.lexicon import Lexicon
from arborist.verify.negation import negation_findings
from arborist.verify.normalize import letter_name
from arborist.verify.reading import Finding, Text, span_text
from arborist.verify.reasons import Reason
from arborist.verify.roles import converse_verb, exchanged, from_to_swapped, names_crossed, roles_swapped
from arborist.verify.scope import one_made_many, part_made_whole
from arborist.verify.tense import former_stated_now, since_ended, still_ended, under_way_unstated
from arborist.verify.units import rate_changed, unit_changed


def compare(claim_text: str, support_text: str, lex: Lexicon, scoped: bool = True) -> list[Finding]:
    """Negation, direction, comparison, role, certainty, unit and (when `scoped`) scope findings of `claim_text`
    against `support_text` (empty: they agree)."""
    claim = Text.of(claim_text, lex)
    support = Text.of(support_text, lex)
    findings: list[Finding] = []
    seen: set[Reason] = set()

    def add(reason: Reason, note: str) -> None:
        if reason not in seen:
            seen.add(reason)
            findings.append(Finding(reason, note))

    for finding in negation_findings(claim, support, lex):
        add(finding.reason, finding.note)
    direction, converse = direction_findings(claim, support, lex)
    for finding in direction:
        add(finding.reason, finding.note)
    swap = (roles_swapped(claim, support, lex, converse) or exchanged(claim, support, lex, converse)
            or names_crossed(claim, support, lex, converse) or converse_verb(claim, support))
    if swap:
        add(Reason.ROLES_SWAPPED, swap)
    certainty = certainty_unstated(claim, support, lex)
    if certainty:
        add(Reason.CERTAINTY_UNSTATED, certainty)
    former = former_stated_now(claim, support, scoped) or since_ended(claim, support) or still_ended(claim, support)
    if former:
        add(Reason.SCOPE_DROPPED, former)
    under_way = under_way_unstated(claim, support)
    if under_way:
        add(Reason.CERTAINTY_UNSTATED, under_way)
    unit = unit_changed(claim, support, lex) or rate_changed(claim, support, lex)
    if unit:
        add(Reason.UNIT_MISMATCH, unit)
    model = _model_letter_changed(claim, support)
    if model:
        add(Reason.ENTITY_MISSING, model)
    moved = from_to_swapped(claim, support)
    if moved:
        add(Reason.ROLES_SWAPPED, moved)
    restricted = scoped and scope.dropped(claim.content, support.tokens, support.stems, support.breaks,
                                          support.initial, frozenset(t.norm for t in claim.tokens if t.number))
    if restricted:
        first, end = restricted
        add(Reason.SCOPE_DROPPED, f"scope: its support holds it only '{span_text(support, first, end - 1)}'; the claim "
            "leaves that out")
    many = (one_made_many(claim, support) or part_made_whole(claim, support, lex.qualifiers)) if scoped else ""
    if many:
        add(Reason.SCOPE_DROPPED, many)
    return findings


def _model_letter_changed(claim: Text, support: Text) -> str:
    """A note when the claim names a model by a letter after its name ("the Nimbus S") and its support gives that
    name only other letters ("the Nimbus X"), else '': a lone letter is no content word, so overlap never sees it."""
    def letter(text: Text, k: int) -> bool:
        return text.tokens[k - 1].capitalised and letter_name(text.raw, text.tokens, k)

    for k in range(1, len(claim.tokens)):
        if not letter(claim, k):
            continue
        name = claim.tokens[k - 1].norm
        theirs = {support.tokens[m].surface for m in range(1, len(support.tokens))
                  if support.tokens[m - 1].norm == name and letter(support, m)}
        if theirs and claim.tokens[k].surface not in theirs:
            return (f"names: the claim's '{span_text(claim, k - 1, k)}' is '{name.title()} {sorted(theirs)[0]}' in its "
                    "support")
    return ""
