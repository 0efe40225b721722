"""The shape of a question: how many answers it asks for, and whether it asks for a value at all.

Deterministic: the question is normalised (`normalize.normalise`) and the first rule of `_RULES` that matches
decides the class (then a "what/which <plural noun>" or a bare "<plural noun> by|of X" is an OPEN_REQUEST, and
everything else SINGLE). Each result names the rule that fired, so a surprising class can be traced to one
pattern. `extraction` is true when the question asks for a value (a wh-word in its first four words, an
imperative request, or a non-SINGLE class other than a bare yes/no); `yes_no` when it starts with an auxiliary
verb. The missed-answer guard treats every question except a SINGLE yes/no one as extraction-shaped.
"""

from __future__ import annotations

import re
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from arborist.verify.normalize import normalise


class QuantifierClass(StrEnum):
    ALL = "ALL"  # an explicit universal word: "list all", "every song by X" ("at all" does not count)
    COMPREHENSIVE = "COMPREHENSIVE"  # an exhaustive list or summary without a universal word: "list ...", "complete"
    OPEN_REQUEST = "OPEN_REQUEST"  # a set of answers of unknown size: "what are ...", "songs by X"
    EXISTENTIAL = "EXISTENTIAL"  # yes/no, does at least one exist: "are there any ...", "has X ever ..."
    SINGLE = "SINGLE"  # one value, or a yes/no question: "who wrote X", "how many"


class Quantifier(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: QuantifierClass
    extraction: bool
    yes_no: bool
    rule: str  # the pattern that decided the class

    @property
    def extraction_shaped(self) -> bool:
        """Everything but a SINGLE yes/no question (what the missed-answer guard requires)."""
        return not (self.kind is QuantifierClass.SINGLE and not self.extraction)


AUX = r"(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|shall|may|might|must)"
WH = r"(?:what|which|who|whom|whose|when|where|why|how)"
IMPERATIVE = r"(?:list|name|give|show|find|tell me|enumerate|identify|summari[sz]e|outline|describe)"

# Words ending in "s" that are not plural nouns when they follow what/which.
_NOT_PLURAL = frozenset(
    "is was has does this its his hers ours yours theirs us as was less process status news series species "
    "bus gas class glass business address access success mass boss loss".split()
)

_RULES: list[tuple[QuantifierClass, str, re.Pattern[str]]] = [
    (QuantifierClass.ALL, "universal word (all/every/each)", re.compile(r"\b(?:all|every|each)\b(?<!\bat all)")),
    (QuantifierClass.EXISTENTIAL, "is/are there any|a|some",
     re.compile(r"^(?:is|are|was|were) there (?:any|a|an|some|ever)\b")),
    (QuantifierClass.EXISTENTIAL, "does/do/did X have", re.compile(r"^(?:does|do|did) \S.*?\bhave\b")),
    (QuantifierClass.EXISTENTIAL, "has/have/had X ever", re.compile(rf"^{AUX} \S.*?\bever\b")),
    (QuantifierClass.EXISTENTIAL, "auxiliary question with 'any'", re.compile(rf"^{AUX} \S.*?\bany\b")),
    (QuantifierClass.COMPREHENSIVE, "leading list/enumerate/summarise/outline/describe",
     re.compile(r"^(?:please )?(?:list|enumerate|summari[sz]e|outline|describe)\b")),
    (QuantifierClass.COMPREHENSIVE, "exhaustive word (complete/full/entire/whole/everything/...)",
     re.compile(r"\b(?:complete|full|entire|whole|exhaustive|comprehensive|everything)\b")),
    (QuantifierClass.OPEN_REQUEST, "what/which/who are|were",
     re.compile(r"^(?:\w+ ){0,3}?(?:what|which|who) (?:are|were)\b")),
    (QuantifierClass.OPEN_REQUEST, "what kinds|types|sorts of",
     re.compile(r"^(?:\w+ ){0,3}?(?:what|which) (?:kinds?|types?|sorts?) of\b")),
    (QuantifierClass.OPEN_REQUEST, "leading name/give/show/find/tell me",
     re.compile(r"^(?:please )?(?:name|give|show|find|tell me|identify)\b")),
]

_WH_PLURAL = re.compile(r"^(?:\w+ ){0,3}?(?:what|which) (\w+)(?: (\w+))?")
_ADJECTIVES = frozenset(
    "other different specific particular famous notable main major known popular new old early later "
    "recent individual original best biggest first last".split()
)
_NOUN_PHRASE = re.compile(rf"^(?!{AUX}\b|{WH}\b)(?:the |any |some )?(?:\w+ )?(\w+s) (?:by|of|from|about|with|featuring)\b")


def _plural(word: str) -> bool:
    return len(word) > 3 and word.endswith("s") and not word.endswith("ss") and word not in _NOT_PLURAL


def classify_quantifier(question: str) -> Quantifier:
    q = normalise(question)
    q = re.sub(r"[^\w\s'-]", " ", q)
    q = re.sub(r"\s+", " ", q).strip()
    yes_no = re.match(rf"{AUX}\b", q) is not None
    wh = re.match(rf"^(?:\w+ ){{0,3}}?{WH}\b", q) is not None
    imperative = re.match(rf"^(?:please )?{IMPERATIVE}\b", q) is not None
    extraction = (wh or imperative) and not yes_no

    def result(kind: QuantifierClass, rule: str) -> Quantifier:
        ext = extraction or kind in (QuantifierClass.OPEN_REQUEST, QuantifierClass.COMPREHENSIVE) or (
            kind is QuantifierClass.ALL and not yes_no)
        return Quantifier(kind=kind, extraction=ext, yes_no=yes_no, rule=rule)

    for kind, rule, pattern in _RULES:
        if pattern.search(q):
            return result(kind, rule)
    m = _WH_PLURAL.match(q)
    if m and not yes_no:
        # "what songs ...", "which books ...", with one optional adjective: "what other songs ..."
        first, second = m.group(1), m.group(2)
        head = first if _plural(first) else second if second and first in _ADJECTIVES and _plural(second) else None
        if head:
            return result(QuantifierClass.OPEN_REQUEST, f"what/which + plural noun ('{head}')")
    m = _NOUN_PHRASE.match(q)
    if m and _plural(m.group(1)):
        return result(QuantifierClass.OPEN_REQUEST, f"noun phrase '<plural> by|of X' ('{m.group(1)}')")
    if yes_no:
        return result(QuantifierClass.SINGLE, "yes/no question (leading auxiliary)")
    if extraction:
        return result(QuantifierClass.SINGLE, "wh-question or request for one value")
    return result(QuantifierClass.SINGLE, "no pattern matched")
