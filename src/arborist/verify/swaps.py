"""The word-swap slot rule: a claim that puts another thing in its quote's slot, the rest word for word.

"Walmart acquired Whole Foods" over "Amazon acquired Whole Foods": every word but one is the quote's, which the
paraphrase check allows; in the very slot of another word it is another thing (`subject_replaced`, `swapped`).
A synonym ("The medication caused nausea" over "The drug caused nausea") costs its STRICT: no word list can tell it
from another thing ("Rats developed tumours" over "Mice developed tumours"), and STRICT must not be wrong.
"""

from __future__ import annotations

from collections.abc import Iterable
from difflib import SequenceMatcher

from arborist.verify.checks import Claim, Prepared, same_stem, spelled_alike
from arborist.verify.lexicon import IRREGULAR_VERBS, Lexicon
from arborist.verify.normalize import HYPHENS, Token, is_stopword, token_stems, tokenise
from arborist.verify.reading import Text, names_thing, subject_end
from arborist.verify.roles import SWAP_CLAIM_TOKENS, SWAP_SUPPORT_TOKENS


def subject_replaced(claim: str, quote: str) -> tuple[str, str] | None:
    """The claim's first word and the quote's, when the claim puts another name in its quote's first slot:
    both capitalised words that the other text never uses, followed by the same two words ("Walmart acquired
    Whole Foods" over "Amazon acquired Whole Foods"). The name check cannot see it: a sentence's first word is
    no name on its own ("Increased ...", "However, ..."), so a discourse word before a comma does not count."""
    c, q = tokenise(claim), tokenise(quote)
    if len(c) < 3 or len(q) < 3 or [t.norm for t in c[1:3]] != [t.norm for t in q[1:3]]:
        return None
    if "," in quote[q[0].end : q[1].start] or "," in claim[c[0].end : c[1].start]:
        return None
    first, other = c[0], q[0]
    if not all(t.capitalised and not is_stopword(t.norm) and len(t.norm) > 1 and not t.norm.endswith("s")
               for t in (first, other)):
        return None  # "Researchers found ..." over "Scientists found ...": plural nouns, not names
    if any(same_stem(a.norm, t.norm) or a.norm == t.norm for a, text in ((first, q), (other, c)) for t in text):
        return None
    return first.surface, other.surface


def swapped(supports: list[tuple[Claim, Prepared, dict[str, str]]], lex: Lexicon) -> str | None:
    """A note when the claim puts another thing where its quote has one, read against every cited chunk (see
    `_subject_swapped`, `_word_swapped`); None when any chunk's reading (abbreviations, title) shows none."""
    readings = [(wide, own, Text.of(wide.text, lex), Text.of(own.ev.text, lex)) for wide, own, _ in supports]
    if (subject := _every(_subject_swapped(*reading, lex) for reading in readings)) is not None:
        return f"the claim's subject '{subject[0]}' is not its quote's ('{subject[1]}'), and neither names the other"
    if (word := _every(_word_swapped(*reading, lex) for reading in readings)) is not None:
        return f"the claim says '{word[0]}' where its quote says '{word[1]}', between the same words"
    return None


def _every(found: Iterable[tuple[str, str] | None]) -> tuple[str, str] | None:
    """The last of these, when none is None."""
    last = None
    for one in found:
        if one is None:
            return None
        last = one
    return last


def _subject_swapped(wide: Claim, own: Prepared, claim_text: Text, quote_text: Text,
                     lex: Lexicon) -> tuple[str, str] | None:
    """The claim's subject and its quote's (`subject_end`), when the quote states no word of the claim's subject
    and the claim none of the quote's, which names something of its own (no "it" or "they"): "corporal punishment
    is usually performed in schools in the UK" over "Currently detention is one of the most common punishments in
    schools in the UK"."""
    mine, theirs = subject_end(claim_text), subject_end(quote_text)
    if mine is None or theirs is None or any(t.norm in lex.anaphors for t in own.tokens[:theirs]):
        return None
    if any(t.norm in lex.negators for t in (*wide.tokens[:mine], *own.tokens[:theirs])):
        return None  # "Nobody was hurt" over "No injuries were reported": the negation check reads a denied subject
    # numbers are the number checks' business ("About 50 percent of" is "About half of")
    claimed = {s for t, s in zip(wide.tokens[:mine], token_stems(wide.tokens[:mine]), strict=True) if s and not t.number}
    quoted = {s for t, s in zip(own.tokens[:theirs], own.stems[:theirs], strict=True) if s and not t.number}
    if claimed <= own.stem_set or not quoted or quoted & wide.stems:
        return None
    return _words(wide.text, wide.tokens[:mine]), _words(own.ev.text, own.tokens[:theirs])


def _word_swapped(wide: Claim, own: Prepared, claim_text: Text, quote_text: Text,
                  lex: Lexicon) -> tuple[str, str] | None:
    """The claim's word and its quote's, when the claim puts one naming a thing or a quality where its quote has
    another, between the same two words: "the right engine" over "the left engine", "a warm reception" over "a
    hostile reception". Verbs and manners ("bought" for "purchased", "commonly" for "frequently"), numbers, units
    and qualifiers are left to their own checks."""
    mine = [(k, s) for k, (t, s) in enumerate(zip(claim_text.tokens, claim_text.stems, strict=True))
            if s and not t.number]
    theirs = [(k, s) for k, (t, s) in enumerate(zip(quote_text.tokens, own.stems, strict=False)) if s and not t.number]
    if len(mine) > SWAP_CLAIM_TOKENS or len(theirs) > SWAP_SUPPORT_TOKENS:
        return None
    matcher = SequenceMatcher(a=[s for _, s in mine], b=[s for _, s in theirs], autojunk=False)
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op != "replace" or a2 - a1 not in (1, 2) or b2 - b1 not in (1, 2):
            continue
        (i, stem), (j, other) = mine[a1], theirs[b1]
        # one or two words for two adjacent ones ("the safflower" over "the crocus flower", "sodium chloride" over
        # "copper sulfate"): each side's head, after its modifier, is the thing; the modifiers must be their own
        last, end = theirs[b2 - 1][0], mine[a2 - 1][0]
        if (last - j != b2 - b1 - 1 or end - i != a2 - a1 - 1 or stem in own.stem_set or other in wide.stems
                or _unanchored(wide.tokens, i, end, own.tokens, j, last)
                or not (_plain_phrase(own.ev.text, own.tokens, j, last) and _plain_phrase(wide.text, wide.tokens, i, end))):
            continue
        first, j, start, i = j, last, i, end
        if {wide.tokens[i].norm, own.tokens[j].norm} & (lex.units.keys() | lex.qualifiers):
            continue  # units and qualifiers ("oldest" for "largest") have checks of their own
        if spelled_alike(wide.tokens[i].norm, own.tokens[j].norm):
            continue  # "tumors" for "tumours"
        if names_thing(claim_text, i) and names_thing(quote_text, j):
            return _words(wide.text, wide.tokens[start : i + 1]), _words(own.ev.text, own.tokens[first : j + 1])
    return None


def _plain_phrase(text: str, tokens: list[Token], first: int, last: int) -> bool:
    """Tokens first..last are one word, or two that name a thing ("crocus flower", "copper sulfate"): no
    punctuation between them, no part of a hyphenated word, and no adverb, participle or gerund among them
    ("previously unknown" is one quality, "begun sowing" an act, "auto-reactive" one word)."""
    if first == last:
        return True
    if any(text[tokens[k].end : tokens[k + 1].start].strip() for k in range(first, last)):
        return False
    if (first > 0 and text[tokens[first - 1].end : tokens[first].start] in HYPHENS) or (
            last + 1 < len(tokens) and text[tokens[last].end : tokens[last + 1].start] in HYPHENS):
        return False
    return not any(tokens[k].norm.endswith(("ly", "ing", "ed")) or tokens[k].norm in IRREGULAR_VERBS
                   for k in range(first, last + 1))


def _unanchored(mine: list[Token], i: int, stop: int, theirs: list[Token], j: int, end: int) -> bool:
    """Whether tokens i..stop of one text and j..end of the other lack the same word before them, or the same word
    or both the end after them ("was given warfarin." over "was given heparin.")."""
    if i == 0 or j == 0 or mine[i - 1].norm != theirs[j - 1].norm:
        return True
    ends = (stop + 1 >= len(mine), end + 1 >= len(theirs))
    return ends != (True, True) and (any(ends) or mine[stop + 1].norm != theirs[end + 1].norm)


def _words(text: str, tokens: list[Token]) -> str:
    return text[tokens[0].start : tokens[-1].end]
