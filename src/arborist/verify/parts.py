"""A claim's parts, each of which its quote must state something of.

Overlap counts words over the whole claim, so a claim that adds a conjunct,
a list item or a clause to what its quote says ("Vitamin C deficiency
causes scurvy and rickets" over "... causes scurvy"; "..., where he died")
still clears the threshold on the words it shares. A claim is cut into parts
at coordinators and relative words (and, or, but, which, where, who, while,
...), before a preposition (in, on, at, by, for, with, from, ...: "... in
nonhuman primates" over a quote on mouse models) and at commas, semicolons,
colons and brackets; a part with a content word of which the quote states
none is said by the claim alone.

A part that is only an abbreviation the claim defines ("receptor-interacting
protein (RIP)") restates the words before it, and a lone connective
("However, ...") states nothing: neither is a part of its own.
"""

from __future__ import annotations

from arborist.verify.normalize import Token, token_stems, tokenise

# Words that begin another conjunct or clause; they belong to no part.
BOUNDARY_WORDS = frozenset("and or but nor which where who whom whose whereas while whilst although though".split())
# Prepositions that begin a phrase of their own ("... occurs in toddlers", "... in nonhuman primates"): a
# phrase the quote states no word of is a detail the claim adds. "of" and "to" are left inside their part:
# "the risk of", "led to" bind too tightly to the word before them.
PREPOSITIONS = frozenset(
    "in on at by for with from into during after before among between via through within against".split()
)
# Marks between two tokens that end a part.
BOUNDARY_MARKS = frozenset(",;:()[]")
# Connectives that tie a claim to what came before and state nothing themselves ("However, ...").
DISCOURSE_WORDS = frozenset(
    """however moreover furthermore additionally therefore thus hence consequently overall notably importantly
    instead meanwhile finally indeed specifically similarly likewise nevertheless nonetheless accordingly
    respectively""".split()
)


def parts(text: str) -> list[list[tuple[Token, str | None]]]:
    """The claim's parts in order: its tokens with their content stems (None for function words)."""
    tokens = tokenise(text)
    out: list[list[tuple[Token, str | None]]] = [[]]
    for i, (tok, stem) in enumerate(zip(tokens, token_stems(tokens), strict=True)):
        between = text[tokens[i - 1].end : tok.start] if i else ""
        if i and out[-1] and (tok.norm in BOUNDARY_WORDS or tok.norm in PREPOSITIONS
                              or any(c in BOUNDARY_MARKS for c in between)):
            out.append([])
        if tok.norm not in BOUNDARY_WORDS:
            out[-1].append((tok, stem))
    return [p for p in out if p]


def unstated_parts(text: str, stated: frozenset[str], defined: frozenset[str] = frozenset()) -> list[str]:
    """The parts of `text` (as written) with a content word, none of whose content stems is in `stated`.
    `defined`: the abbreviations (as written) the texts define; a part that is one of them is skipped."""
    out = []
    for part in parts(text):
        stems = [s for _, s in part if s]
        if not stems or (len(part) == 1 and (part[0][0].surface in defined or part[0][0].norm in DISCOURSE_WORDS)):
            continue
        if not stated.intersection(stems):
            out.append(text[part[0][0].start : part[-1][0].end])
    return out
