"""Where a support says its statement holds, and whether the claim keeps it.

"In mice fed a high-fat diet, the compound prevented weight gain" does not back
"The compound prevented weight gain": the claim keeps every word it states
and drops the group the result holds for. Two kinds of restriction are read:

- an opening phrase up to the sentence's first comma that starts with one of
  OPENERS ("In mice, ...", "Among men over 60, ...", "For first-time
  offenders, ...", "When the soil is waterlogged, ..."), unless it only
  places the text itself, its method or a time (its first content word a
  year, a number or a decade, or a word up to it of DISCOURSE_WORDS or
  TIME_WORDS: "In this study", "In adjusted analyses", "In 2010", "For
  example", "In the late 1990s", "On Monday"; "Among men over 60" and "In
  those with diabetes" restrict);
- a condition after CONDITIONS or "provided that" ("... only if taken after
  the first trimester", "... unless the key is revoked"), up to the end of
  its clause;
  "even if", "as if", "unless otherwise ..." and "not only in ..." restrict nothing.

The claim must state the restriction's first content word (its head: "mice",
"men", "first-time", "soil"); a claim that states it elsewhere, in any order,
keeps it ("Metformin lowered HbA1c in patients with diabetes" over "In
patients with diabetes, metformin lowered HbA1c").
"""

from __future__ import annotations

from collections.abc import Sequence

from arborist.verify.normalize import Token, is_decade

OPENERS = frozenset("in among amongst for on at from when whenever if unless under with within during outside "
                    "inside except".split())
CONDITIONS = frozenset("if unless".split())  # and "provided that"
# After "only", these open a restriction too ("only in mice", "only when heated").
ONLY_OPENERS = frozenset("if when in among for during under unless".split())
# Words that tie a text to what came before or to the work it reports, and restrict nothing ("However, ...",
# "In addition, ...", "In this study, ...", "In adjusted analyses, ..."). `parts` skips them too.
DISCOURSE_WORDS = frozenset(
    """however moreover furthermore additionally therefore thus hence consequently overall notably importantly
    instead meanwhile finally indeed specifically similarly likewise nevertheless nonetheless accordingly
    respectively otherwise addition contrast summary conclusion particular general example instance total
    practice fact turn short brief result sum words comparison response order view light meantime end average
    theory principle contrary whole part effect regard respect terms sense way hand present current study
    studies paper report trial review analysis analyses work article adjusted multivariable multivariate
    univariate sensitivity meta cohort sample dataset data survey experiment experiments""".split()
)
# Words that place a text in time ("In the late 1990s", "On Monday", "In the nineteenth century").
TIME_WORDS = frozenset(
    """january february march april june july august september october november december monday tuesday
    wednesday thursday friday saturday sunday spring summer autumn winter morning evening night today
    yesterday recent recently future past early late mid century centuries decade decades year years month
    months week weeks""".split()
)  # ordinals ("the nineteenth century") are numbers (`normalize.ORDINAL_WORDS`), skipped as such
MAX_OPENER_TOKENS = 10


def restrictions(tokens: Sequence[Token], stems: Sequence[str | None], breaks: Sequence[bool],
                 initial: Sequence[bool]) -> list[tuple[int, int, int]]:
    """The support's restrictions as (first, end, head): the token range [first, end) starting at its opener or
    condition word, and the index of its first content word. `initial[i]`: token i starts a sentence."""
    out: list[tuple[int, int, int]] = []
    n = len(tokens)

    def clause_end(i: int) -> int:
        end = i + 1
        while end < n and not breaks[end] and not initial[end]:
            end += 1
        return end

    for i, tok in enumerate(tokens):
        norm = tok.norm
        before = tokens[i - 1].norm if i else ""
        opens = norm in OPENERS and initial[i]
        only = norm == "only" and before != "not" and i + 1 < n and tokens[i + 1].norm in ONLY_OPENERS
        condition = i > 0 and before not in ("even", "as", "only") and (
            norm in CONDITIONS or (norm == "provided" and i + 1 < n and tokens[i + 1].norm == "that"))
        if not (opens or only or condition) or (i + 1 < n and tokens[i + 1].norm == "otherwise"):
            continue  # "not only in mice but also ...", "unless otherwise stated"
        end = clause_end(i)
        if opens and (end >= n or end - i > MAX_OPENER_TOKENS or initial[end]):
            continue  # no comma closes it: the sentence itself starts with a preposition
        head = next((k for k in range(i + 1, end) if stems[k]), None)
        if head is None:
            continue
        if opens and (tokens[head].number or is_decade(tokens[head].norm) or any(
                tokens[k].norm in DISCOURSE_WORDS or tokens[k].norm in TIME_WORDS for k in range(i + 1, head + 1))):
            continue  # "In 2010, ...", "In the late 1990s, ...", "In this study, ...", "On Monday, ..."
        out.append((i, end, head))
    return out


def dropped(claim_stems: frozenset[str], tokens: Sequence[Token], stems: Sequence[str | None],
            breaks: Sequence[bool], initial: Sequence[bool],
            claim_numbers: frozenset[str] = frozenset()) -> tuple[int, int] | None:
    """The first restriction of the support whose head the claim does not state, or a number of which it does
    not state ("For children aged 6 to 11, ..." under a claim on children), or None."""
    for first, end, head in restrictions(tokens, stems, breaks, initial):
        if stems[head] not in claim_stems or any(
                tokens[k].number and tokens[k].norm not in claim_numbers for k in range(head + 1, end)):
            return first, end
    return None
