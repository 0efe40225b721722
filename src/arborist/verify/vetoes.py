"""Does the support say the same thing *the same way round*? The vetoes of a claim against its quote or span.

Word overlap cannot tell "PD-1 triggering reduces IL-10" from "PD-1 triggering induced IL-10": the words agree,
the direction does not. `compare` runs each family (one module each) on the words read once (`reading.Text`);
every finding names the words involved, so a report can show them.
"""

from __future__ import annotations

from collections.abc import Callable

from arborist.verify.certainty import certainty_unstated
from arborist.verify.changes import change_dropped
from arborist.verify.direction import direction_findings
from arborist.verify.lexicon import Lexicon
from arborist.verify.negation import negation_findings
from arborist.verify.normalize import letter_name
from arborist.verify.reading import Finding, Text, span_text
from arborist.verify.reasons import Reason
from arborist.verify.roles import converse_verb, exchanged, from_to_swapped, names_crossed, roles_swapped
from arborist.verify.scope import one_made_many, part_made_whole, restriction_dropped
from arborist.verify.tense import former_stated_now, since_ended, still_ended, under_way_unstated
from arborist.verify.units import rate_changed, unit_changed


def compare(claim_text: str, support_text: str, lex: Lexicon, scoped: bool = True) -> list[Finding]:
    """Negation, direction, comparison, role, certainty, unit, change and (when `scoped`) scope findings of `claim_text`
    against `support_text` (empty: they agree), the first of each reason, in the order of the rules below."""
    claim = Text.of(claim_text, lex)
    support = Text.of(support_text, lex)
    direction, converse = direction_findings(claim, support, lex)
    kept: dict[Reason, Finding] = {}
    for finding in [*negation_findings(claim, support, lex), *direction]:
        kept.setdefault(finding.reason, finding)
    # each rule gives a note, or '' when it finds nothing; a rule whose reason is already found is not run
    rules: list[tuple[Reason, Callable[[], str]]] = [
        (Reason.ROLES_SWAPPED, lambda: roles_swapped(claim, support, lex, converse)),
        (Reason.ROLES_SWAPPED, lambda: exchanged(claim, support, lex, converse)),
        (Reason.ROLES_SWAPPED, lambda: names_crossed(claim, support, lex, converse)),
        (Reason.ROLES_SWAPPED, lambda: converse_verb(claim, support)),
        (Reason.CERTAINTY_UNSTATED, lambda: certainty_unstated(claim, support, lex)),
        (Reason.SCOPE_DROPPED, lambda: former_stated_now(claim, support, scoped)),
        (Reason.SCOPE_DROPPED, lambda: since_ended(claim, support)),
        (Reason.SCOPE_DROPPED, lambda: still_ended(claim, support)),
        (Reason.CERTAINTY_UNSTATED, lambda: under_way_unstated(claim, support)),
        (Reason.UNIT_MISMATCH, lambda: unit_changed(claim, support, lex)),
        (Reason.UNIT_MISMATCH, lambda: rate_changed(claim, support, lex)),
        (Reason.CHANGE_DROPPED, lambda: change_dropped(claim, support, lex)),
        (Reason.ENTITY_MISSING, lambda: _model_letter_changed(claim, support)),
        (Reason.ROLES_SWAPPED, lambda: from_to_swapped(claim, support)),
    ]
    if scoped:
        rules += [(Reason.SCOPE_DROPPED, lambda: restriction_dropped(claim, support)),
                  (Reason.SCOPE_DROPPED, lambda: one_made_many(claim, support)),
                  (Reason.SCOPE_DROPPED, lambda: part_made_whole(claim, support, lex.qualifiers))]
    for reason, rule in rules:
        if reason not in kept and (note := rule()):
            kept[reason] = Finding(reason, note)
    return list(kept.values())


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
