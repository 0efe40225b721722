"""The only way text reaches FTS5 MATCH: tokens, each quoted.

User text is reduced to word tokens and every token is emitted as an FTS5
string literal, so no question can cause a syntax error or smuggle in an
operator (AND, NEAR, `*`, `-`, column filters, parentheses).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def words(text: str) -> list[str]:
    """Lower-case word tokens, split the way FTS5's unicode61 tokenizer splits."""
    return [w.lower() for w in _WORD.findall(text)]


def _literal(token: str) -> str:
    return '"' + token.replace('"', '""') + '"'


def phrase(text: str, column: str | None = None) -> str:
    """`"a b"`: the words of `text` in order, as one FTS5 phrase (optionally in one column); '' when it has none.

    FTS5 tokenizes the phrase as it tokenized the rows, so the punctuation
    between words matters on neither side.
    """
    found = words(text)
    if not found:
        return ""
    expr = _literal(" ".join(found))
    return f"{{{column}}} : {expr}" if column else expr


def any_of(tokens: Iterable[str], column: str | None = None) -> str:
    """`"a" OR "b" ...`, optionally restricted to one column; '' when there are no tokens."""
    unique = list(dict.fromkeys(t for t in tokens if t))
    if not unique:
        return ""
    expr = " OR ".join(_literal(t) for t in unique)
    return f"{{{column}}} : ({expr})" if column else expr
