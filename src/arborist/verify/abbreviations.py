"""Abbreviations defined in the text ("cerebrospinal fluid (CSF)"), so a claim and its quote may use either form.

Definitions are found the way Schwartz and Hearst (2003) do: a short form of
2-10 characters with a capital letter, in parentheses, right after its long
form, whose letters occur in order in the long form with the first one
starting a word ("glucagon-like peptide 1 (GLP-1)", "prion protein (PrP)").
`expand` writes every occurrence of either form as "long form (SF)", so
both texts carry the same words whichever form they used. Only definitions
found in the texts being compared (the cited evidence, the claim, its
quote) are used: nothing is looked up elsewhere.
"""

from __future__ import annotations

import re

_DEFINITION = re.compile(r"\(([A-Za-z][A-Za-z0-9\-+/]{1,9})\)")
_WORD = re.compile(r"[^\W_][\w\-']*")


def definitions(*texts: str) -> dict[str, str]:
    """{short form: long form as written} for every definition in `texts`."""
    out: dict[str, str] = {}
    for text in texts:
        for m in _DEFINITION.finditer(text):
            short = m.group(1)
            if not any(c.isupper() for c in short) or sum(c.isalpha() for c in short) < 2:
                continue
            words = _WORD.findall(text[: m.start()])[-min(len(short) + 5, 2 * len(short)) :]
            if long := _long_form(short, words):
                out.setdefault(short, long)
    return out


def _long_form(short: str, words: list[str]) -> str | None:
    letters = [c.lower() for c in short if c.isalnum()]
    text = " ".join(words)
    low = text.lower()
    si, li = len(letters) - 1, len(low) - 1
    while si >= 0:
        c = letters[si]
        while li >= 0 and (low[li] != c or (si == 0 and li > 0 and low[li - 1].isalnum())):
            li -= 1
        if li < 0:
            return None
        si -= 1
        li -= 1
    start = text.rfind(" ", 0, li + 1) + 1
    long = text[start:]
    return long if long and len(long.split()) <= len(letters) + 2 else None


def expand(text: str, defs: dict[str, str]) -> str:
    """Every short form and every long form of `defs` in `text` written as "long form (SF)".

    Long forms match in any case; a short form only as defined ("csf" in lower case is left alone).
    """
    for short, long in sorted(defs.items(), key=lambda kv: -len(kv[1])):
        lf, sf = re.escape(long), re.escape(short)
        pattern = re.compile(rf"(?<![\w-])(?:{lf}\s*\(\s*{sf}\s*\)|{lf}|(?P<short>{sf}))(?![\w-])", re.IGNORECASE)

        def written(m: re.Match[str], short: str = short, long: str = long) -> str:
            if m.group("short") is not None and m.group("short") != short:
                return m.group()
            return f"{long} ({short})"

        text = pattern.sub(written, text)
    return text
