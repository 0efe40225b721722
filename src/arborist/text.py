"""Word-level text rules shared by retrieval and the verifier: stopwords, stemming, sentences.

One place for these facts, because both sides depend on them: retrieval ranks
by them, and the verifier's labels change when they do. The verifier folds
`TEXT_RULES_VERSION` into `verifier_policy_hash`, so bump it whenever a rule
here changes what a word, a stem or a sentence is: a cached answer is then
re-verified instead of keeping a label the current rules would not give.
Depends on nothing else in arborist.
"""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

TEXT_RULES_VERSION = "arborist-text/1"

# Function words that carry no topic. Kept short on purpose: "war", "first",
# "new" and the like are content and must stay.
STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not now of off on once only or
    other our ours ourselves out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your yours
    yourself yourselves also many much whose s t don ll re ve d m o y ain shall may might
    must name named tell give list please
    """.split()
)


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    stemmer = Stemmer.Stemmer("english")
    stemmer.maxCacheSize = 200_000  # indexing stems millions of tokens from a modest vocabulary
    return stemmer


def stem_all(tokens: list[str]) -> list[str]:
    """Snowball (English) stems of lower-cased tokens, in order."""
    return list(_stemmer().stemWords(tokens))


def content_tokens(tokens: list[str]) -> list[str]:
    """Tokens that are neither stopwords nor a single ASCII character."""
    return [t for t in tokens if t not in STOPWORDS and not (len(t) == 1 and t.isascii())]


# A sentence ends at . ! or ? (optionally followed by a closing quote or
# bracket) before white space and a capital letter, digit or opening quote, or
# at a blank line. "e.g. the", "Fig. 2a" and "3.5 mg" do not end one.
_SENTENCE_END = re.compile(r"(?<=[.!?])([\"'\u201d\u2019)\]]*)\s+(?=[\"'\u201c\u2018(\[]?[A-Z0-9])|\n\s*\n")
_ABBREVIATIONS = frozenset("e.g i.e cf vs etc al fig figs no nos approx ca mr mrs ms dr st jr sr inc ltd co".split())


def sentence_bounds(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the sentences of `text`, stripped of surrounding white space."""
    bounds: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        word = text[max(0, text.rfind(" ", 0, m.start()) + 1) : m.start()].rstrip(".!?\"')]\u201d\u2019").casefold()
        if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
            continue  # "e.g. A", "J. Smith"
        bounds.append((start, m.start() + len(m.group(1) or "")))
        start = m.end()
    bounds.append((start, len(text)))
    out = []
    for s, e in bounds:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if s < e:
            out.append((s, e))
    return out


def sentences(text: str) -> list[str]:
    """The sentences of `text`, exactly as written (see `sentence_bounds`)."""
    return [text[s:e] for s, e in sentence_bounds(text)]
