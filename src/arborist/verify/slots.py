"""Does the answer fill the question's slot? A "when" question wants a date, a "how many" a number.

Deterministic and deliberately narrow: only question shapes whose answer type
is unmistakable are checked, and only for the presence of a value of that
type in some claim (not in the question itself). An answer that states
nearby facts instead of the asked-for value ("The Apollo program was run by
NASA" for "When did Apollo 11 land?") does not answer, however well grounded
its claims are.

| slot   | questions                                                    | filled by                              |
|--------|--------------------------------------------------------------|----------------------------------------|
| NUMBER | how many / how much / how long / how old / how far / how     | a number (digits or a number word)     |
|        | large / how big / how tall / how high / what percentage|percent |                                      |
| DATE   | when (opening the question, or closing it: "… started when?")| a number (a year, a day) or a month,   |
|        | / what year / which year / in what year / what date /        | season, century or decade word         |
|        | what century / what decade                                   |                                        |
"""

from __future__ import annotations

import re
from enum import StrEnum

from arborist.verify.normalize import normalise, tokenise


class Slot(StrEnum):
    NUMBER = "NUMBER"
    DATE = "DATE"


_NUMBER_Q = re.compile(
    r"\bhow (?:many|much|long|old|far|large|big|tall|high|deep|wide|heavy|often)\b|\bwhat (?:percentage|percent|"
    r"proportion|fraction|number)\b"
)
_DATE_Q = re.compile(
    r"^(?:\w+ ){0,3}?when\b|\bwhen\W*$|\b(?:what|which|in what|in which) (?:year|date|day|month|century|decade|season)\b"
)
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


def question_slot(question: str) -> Slot | None:
    q = normalise(question)
    if _NUMBER_Q.search(q):
        return Slot.NUMBER
    if _DATE_Q.search(q):
        return Slot.DATE
    return None


def fills(slot: Slot, question: str, texts: list[str]) -> bool:
    """Whether some text holds a value of the slot's type that the question itself does not."""
    asked = {t.norm for t in tokenise(question)}
    words = NUMBER_WORDS if slot is Slot.NUMBER else DATE_WORDS
    for text in texts:
        for tok in tokenise(text):
            if tok.norm in asked:
                continue
            if tok.number or tok.norm in words:
                return True
    return False
