"""Does the answer fill the question's slot? A "when" question wants a date, a "how many" a number.

Deliberately narrow: only question shapes whose answer type is unmistakable (`_NUMBER_Q`: how many, how much,
what percentage, ...; `_DATE_Q`: when, what year, which century, ...; `_PLACE_Q`: where) are checked, and only
for a value of that type in some claim (not in the question itself): a number or a word of `NUMBER_WORDS` (for a
date, `DATE_WORDS`: months, seasons, centuries, decades; for a place, a name or a place preposition's object,
`PLACE_PREPOSITIONS`, or a bare answer, which names the place itself). An answer that states nearby facts instead ("The Apollo program was run
by NASA" for "When did Apollo 11 land?") does not answer, however well grounded its claims are.
"""

from __future__ import annotations

import re
from enum import StrEnum

from arborist.verify.normalize import content_stems, normalise, tokenise
from arborist.verify.reading import DETERMINERS


class Slot(StrEnum):
    NUMBER = "NUMBER"
    DATE = "DATE"
    PLACE = "PLACE"


_NUMBER_Q = re.compile(
    r"\bhow (?:many|much|long|old|far|large|big|tall|high|deep|wide|heavy|often)\b|\bwhat (?:percentage|percent|"
    r"proportion|fraction|number)\b"
)
_DATE_Q = re.compile(
    r"^(?:\w+ ){0,3}?when\b|\bwhen\W*$|\b(?:what|which|in what|in which) (?:year|date|day|month|century|decade|season)\b"
)
# "Where ..." (after at most a connective or a preposition: "And where ...", "From where ..."), or "... where?";
# not a relative "where" ("Sites where Rad51 binds ...").
_PLACE_Q = re.compile(r"^(?:(?:and|but|so|then|from|to) )?where\b|\bwhere\W*$")
# A place is said after one of these ("in the principal's office", "at SAP Center", "near the coast").
PLACE_PREPOSITIONS = frozenset(
    "in at on inside within near into onto across throughout outside beneath under behind beside between along "
    "among around above below from".split()
)
_DETERMINERS = DETERMINERS | frozenset("some each every".split())
NUMBER_WORDS = frozenset(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million "
    "billion trillion dozen dozens hundreds thousands millions billions half quarter twice once thrice double "
    "single first second third fourth fifth".split()
)
DATE_WORDS = NUMBER_WORDS | frozenset(
    "january february march april may june july august september october november december spring summer "
    "autumn fall winter century centuries decade decades bc ad bce ce today yesterday".split()
)


# A noun phrase described by a clause: "the country where the Bubye River is found", "the continent with the
# lowest average temperature". The relative word must be lowercase, so "Doctor Who" describes nothing.
_DESCRIBED = re.compile(r"\b(?i:the|a|an)\s+(?:[\w'\u2019-]+\s+){0,3}?[\w'\u2019-]+\s+(where|which|who|whom|whose|that|with)\b")


def asked_part(question: str) -> str:
    """The question without the clause that describes its subject: "What is the name of the waterfall in the
    country" of "... in the country where the Bubye River is found?". A multi-hop question names what it asks
    about through another fact, and a claim that states only that fact ("The Bubye River is found in Zimbabwe")
    answers the description, not the question. The whole question when it describes nothing."""
    found = _DESCRIBED.search(question)
    return question[: found.start(1)] if found else question


def asked_stems(question: str) -> frozenset[str]:
    """The content stems of what the question asks (`asked_part`); the whole question's when that part has none."""
    return content_stems(asked_part(question)) or content_stems(question)


def question_slot(question: str) -> Slot | None:
    q = normalise(question)
    if _NUMBER_Q.search(q):
        return Slot.NUMBER
    if _DATE_Q.search(q):
        return Slot.DATE
    if _PLACE_Q.search(q):
        return Slot.PLACE
    return None


def fills(slot: Slot, question: str, texts: list[str], phrases: list[str] | None = None) -> bool:
    """Whether some text holds a value of the slot's type that the question itself does not. `phrases`: the
    texts that are bare answers ("the principal's office"), which fill a PLACE slot by themselves."""
    asked = {t.norm for t in tokenise(question)}
    if slot is Slot.PLACE:
        return bool(phrases) or any(_names_a_place(text, asked) for text in texts)
    words = NUMBER_WORDS if slot is Slot.NUMBER else DATE_WORDS
    for text in texts:
        for tok in tokenise(text):
            if tok.norm in asked:
                continue
            if tok.number or tok.norm in words:
                return True
    return False


def _names_a_place(text: str, asked: set[str]) -> bool:
    """A name the question does not hold (not the text's first word, which any sentence capitalises), or a place
    preposition before a word that is neither the question's, a number nor a date word: "in the principal's
    office", "at SAP Center"; not "is administered to the seat ... with a paddle", nor "in 1950"."""
    tokens = tokenise(text)
    for k, tok in enumerate(tokens):
        if k and tok.capitalised and tok.norm not in asked:
            return True
        if tok.norm in PLACE_PREPOSITIONS:
            rest = [t for t in tokens[k + 1 : k + 4] if t.norm not in _DETERMINERS]
            if rest and not (rest[0].number or rest[0].norm in DATE_WORDS or rest[0].norm in asked):
                return True
    return False
