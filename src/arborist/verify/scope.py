"""Where a support says its statement holds, and whether the claim keeps it.

"In mice fed a high-fat diet, the compound prevented weight gain" does not back
"The compound prevented weight gain": the claim keeps every word it states
and drops the group the result holds for. Two kinds of restriction are read:

- an opening phrase up to the sentence's first comma that starts with one of
  OPENERS ("In mice, ...", "Among men over 60, ...", "For first-time
  offenders, ...", "When the soil is waterlogged, ..."), unless it only
  places the text itself, its method or a time (its first content word a
  year, a number or a decade, or any word of FRAMING_WORDS: "In this study",
  "In adjusted analyses", "In 2010", "For example", "In March"; "Among men
  over 60" restricts);
- a condition after CONDITIONS or "provided that" ("... only if taken after
  the first trimester", "... unless the key is revoked"), up to the end of
  its clause;
  "even if" and "as if" restrict nothing.

The claim must state the restriction's first content word (its head: "mice",
"men", "first-time", "soil"); a claim that states it elsewhere, in any order,
keeps it ("Metformin lowered HbA1c in patients with diabetes" over "In
patients with diabetes, metformin lowered HbA1c").
"""

from __future__ import annotations

from collections.abc import Sequence

from arborist.verify.normalize import Token, is_decade, sentence_initial

OPENERS = frozenset("in among amongst for on when whenever if unless under with within during".split())
CONDITIONS = frozenset("if unless".split())  # and "provided that"
# After "only", these open a restriction too ("only in mice", "only when heated").
ONLY_OPENERS = frozenset("if when in among for during under unless".split())
FRAMING_WORDS = frozenset(
    """this these that those such our its their present current study paper report trial review analysis work
    article analyses adjusted multivariable multivariate univariate sensitivity meta addition contrast summary conclusion particular general example instance total practice fact turn
    short brief result sum other words comparison response order view light meantime end future past recent
    average theory principle contrary whole part effect case cases regard respect terms sense way hand
    january february march april june july august september october november december spring summer autumn
    winter morning evening""".split()
)
MAX_OPENER_TOKENS = 10


def restrictions(raw: str, tokens: Sequence[Token], stems: Sequence[str | None],
                 breaks: Sequence[bool]) -> list[tuple[int, int]]:
    """The token ranges [first, end) of the support's restrictions, each starting at its opener or condition
    word."""
    out: list[tuple[int, int]] = []
    n = len(tokens)

    def clause_end(i: int) -> int:
        end = i + 1
        while end < n and not breaks[end] and not sentence_initial(raw, tokens[end]):
            end += 1
        return end

    for i, tok in enumerate(tokens):
        norm = tok.norm
        opens = norm in OPENERS and sentence_initial(raw, tok)
        only = norm == "only" and i + 1 < n and tokens[i + 1].norm in ONLY_OPENERS
        condition = i > 0 and tokens[i - 1].norm not in ("even", "as", "only") and (
            norm in CONDITIONS or (norm == "provided" and i + 1 < n and tokens[i + 1].norm == "that"))
        if not (opens or only or condition):
            continue
        end = clause_end(i)
        if opens and (end >= n or end - i > MAX_OPENER_TOKENS or sentence_initial(raw, tokens[end])):
            continue  # no comma closes it: the sentence itself starts with a preposition
        head = next((k for k in range(i + 1, end) if stems[k]), None)
        if head is None:
            continue
        if opens and (tokens[head].number or is_decade(tokens[head].norm)
                      or any(tokens[k].norm in FRAMING_WORDS for k in range(i + 1, end))):
            continue  # "In 2010, ...", "In the 1990s, ...", "In this study, ..."
        out.append((i, end))
    return out


def dropped(claim_stems: frozenset[str], raw: str, tokens: Sequence[Token], stems: Sequence[str | None],
            breaks: Sequence[bool]) -> tuple[int, int] | None:
    """The first restriction of the support whose head the claim does not state, or None."""
    for first, end in restrictions(raw, tokens, stems, breaks):
        head = next(s for s in stems[first + 1 : end] if s)
        if head not in claim_stems:
            return first, end
    return None
