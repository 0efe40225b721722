"""Short names: a claim that names someone or something in full ("Peyton Manning") over a quote that calls them
by the last word(s) of that name ("Manning"), read with the short form where the cited chunk's own document
resolves it (`_resolves`). See docs/verifier.md, "Short names".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from arborist.verify.checks import Prepared
from arborist.verify.normalize import Token, in_a_row, is_stopword, norm_at, tokenise


@dataclass(frozen=True)
class ShortName:
    """A claim's full name read as its last word(s): where the claim writes it, and the block that writes it in full."""

    full: str
    short: str
    start: int  # offsets of the words the claim drops to read its name as the quote writes it
    end: int
    written_in: str


def name_runs(text: str, tokens: list[Token]) -> list[list[Token]]:
    """The names of `text` as runs of adjacent capitalised words joined by spaces, a hyphen, an ampersand or the
    full stop of an initial ("J. R. Ellison"; also "Plan B. Jones", a rare misreading that only ever leaves a name
    unresolved); no stopword. A lone word that starts a sentence counts too (a quote's "Manning said ..." beside a
    claim's "Peyton Manning said ...")."""
    runs: list[list[Token]] = []
    prev: Token | None = None
    for tok in tokens:
        initial = len(tok.surface) == 1 and tok.surface.isupper() and text[tok.end : tok.end + 1] == "."
        if not tok.capitalised or (is_stopword(tok.norm) and not initial):
            prev = None
            continue
        gap = text[prev.end : tok.start].strip() if prev is not None else None
        if prev is not None and (gap in ("", "&", "-") or (gap == "." and len(prev.surface) == 1)):
            runs[-1].append(tok)
        else:
            runs.append([tok])
        prev = tok
    return runs


@dataclass(frozen=True)
class _Written:
    """One name as a block or its title writes it."""

    where: str
    name: tuple[str, ...]  # token norms
    position: int  # the token it starts at in the block; -1 for the title
    shared: bool  # after another given name and "and" ("Nadia and Leila Benhaddou": two Benhaddous)
    introduced: bool  # told apart from others of its name: "the band Marlowe", "the village of Kessel"


def _common(tok: Token) -> bool:
    """A lowercase word that is no stopword: before a name, most often a noun that names its kind ("the village",
    "the band"); a verb there ("sacked Manning") only ever leaves a short form unresolved."""
    return not tok.number and not tok.capitalised and not is_stopword(tok.norm)


def _introduced(text: str, tokens: list[Token], first: int, last: int) -> bool:
    """The name of tokens first..last is introduced as a thing of its own, told apart from others of its name (the
    ways are docs/verifier.md's, "Short names": "the band Marlowe", "the village of Kessel", "the Giants' Manning",
    "Kingsway, the town's main road", "Manning is a small town in Iowa")."""
    before = tokens[first - 1] if first else None
    after = tokens[last + 1] if last + 1 < len(tokens) else None
    gap_before = text[before.end : tokens[first].start].strip() if before is not None else ""
    gap_after = text[tokens[last].end : after.start].strip() if after is not None else text[tokens[last].end :].strip()
    if before is not None and (
            (_common(before) and (gap_before == "" or (gap_before == "," and gap_after[:1] == ",")))
            or (before.capitalised and gap_before in ("'", "\u2019"))  # "the Giants' Manning"
            or (first >= 2 and before.norm == "of" and _common(tokens[first - 2]))
            or (first >= 2 and before.norm == "s" and tokens[first - 2].capitalised
                and text[tokens[first - 2].end : before.start] in ("'", "\u2019"))):
        return True
    return after is not None and ((gap_after == "," and after.norm in ("a", "an", "the")) or (
        gap_after == "" and after.norm in ("is", "was", "are", "were") and norm_at(tokens, last + 2) in ("a", "an")))


#: words for a relative: a document that names someone's relative ("his brother Peyton", "her daughter, Ilse")
#: may mean any of the family by their surname
KIN = frozenset("""father mother son daughter brother sister husband wife spouse widow widower uncle aunt nephew niece
    cousin grandfather grandmother grandson granddaughter twin twins sons daughters brothers sisters parents""".split())


def _written(doc: Prepared) -> Iterable[_Written]:
    """The names a block and its title write."""
    index = {id(t): k for k, t in enumerate(doc.tokens)}
    for run in name_runs(doc.ev.text, doc.tokens):
        k = index[id(run[0])]
        shared = k >= 2 and doc.tokens[k - 1].norm in ("and", "or") and doc.tokens[k - 2].capitalised
        yield _Written(doc.ev.id, tuple(t.norm for t in run), k, shared,
                       _introduced(doc.ev.text, doc.tokens, k, index[id(run[-1])]))
    for run in name_runs(doc.ev.title, doc.title_tokens):
        yield _Written(doc.ev.id, tuple(t.norm for t in run), -1, False, False)


def _resolves(full: tuple[str, ...], short: tuple[str, ...], written: list[_Written], family: bool) -> str | None:
    """The block that writes `full`, where the document lets `short` (its last words) mean it and nothing else
    (docs/verifier.md, "Short names"): no other name holding `short` ("Eli Manning"; "Maine Clean Harbors Act"
    beside "Clean Harbors Act"), no `full` shared ("Nadia and Leila Benhaddou"), no `short` written alone as a
    title, before `full` or introduced (`_introduced`), and no one-word `short` in a `family`."""
    fulls = [w for w in written if w.name == full]
    if not fulls or any(w.shared for w in fulls) or (family and len(short) == 1):
        return None
    # block -> the token its first full name starts at
    first = {w.where: min(v.position for v in fulls if v.where == w.where) for w in fulls}
    for w in written:
        if in_a_row(short, w.name) and w.name != full and (
                not in_a_row(w.name, full) or w.introduced or w.position < 0 or w.position < first.get(w.where, -1)):
            return None
    return fulls[0].where


def short_names(text: str, quote: str | None, cited: list[Prepared], document: list[Prepared]) -> list[ShortName]:
    """The claim's names of two or more words that its quote (or, with no quote, its cited chunks) writes by their
    last words alone ("Manning" for "Peyton Manning"), each resolved by the document (`document`: the blocks of the
    cited chunks' document, the cited ones among them; see `_resolves`)."""
    runs = [run for run in name_runs(text, tokenise(text)) if len(run) > 1]
    if not runs:
        return []
    said = ([tuple(t.norm for t in run) for run in name_runs(quote, tokenise(quote))] if quote is not None
            else [w.name for chunk in cited for w in _written(chunk)])
    written = [w for doc in document for w in _written(doc)]
    family = any(t.norm in KIN for doc in document for t in doc.tokens)
    out = []
    for run in runs:
        full = tuple(t.norm for t in run)
        if any(in_a_row(full, name) for name in said):
            continue
        # the longest last words of the name that the quote writes as a name of its own
        n = next((n for n in range(len(full) - 1, 0, -1) if full[-n:] in said), None)
        if n is None or (where := _resolves(full, full[-n:], written, family)) is None:
            continue
        kept = run[-n:]
        out.append(ShortName(full=text[run[0].start : run[-1].end], short=text[kept[0].start : kept[-1].end],
                             start=run[0].start, end=kept[0].start, written_in=where))
    return out


def read_short(text: str, found: list[ShortName]) -> str:
    """The claim with each resolved name written in the short form its quote uses."""
    for name in sorted(found, key=lambda n: -n.start):
        text = text[: name.start] + text[name.end :]
    return text


def short_note(name: ShortName) -> str:
    return (f"reads '{name.full}' as '{name.short}': {name.written_in} writes the name in full, and its document "
            f"names nothing else '{name.short}'")
