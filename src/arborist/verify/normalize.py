"""What "the same text" means for the verifier: one normalisation, one tokeniser.

`normalise` is for literal comparisons (the quote check and the substring rule of the span check).

`tokenise` is for everything that counts words. It keeps each token's offsets in the *original* text, so a
report can point at the exact span. A number is one token with a canonical value ("1,200" -> "1200", "29.50"
-> "29.5"), and so is a count, an ordinal or a multiple written as a word ("eight", "twenty-five", "third",
"tripled"; not "one" nor "first"); "doesn't" is "does", "not"; "1980's" is the decade "1980s"; other
apostrophes split ("Marta's" -> "marta", "s").
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from arborist.guards.missed_answer import Reading
from arborist.text import STOPWORDS, content_tokens, stem_all
from arborist.verify.lexicon import NEGATION_WORDS

_CHAR_MAP = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u2035\u2039\u203a\u0060\u00b4", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u2036\u00ab\u00bb", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", "-"),
        **dict.fromkeys("\u00ad\u200b\u200c\u200d\u2060\ufeff", None),
    }
)
_WS = re.compile(r"\s+")
# Greek letters as the words they are read as, so "β-catenin" and "beta-catenin" are the same tokens.
_GREEK = str.maketrans({
    "\u03b1": "alpha", "\u03b2": "beta", "\u03b3": "gamma", "\u03b4": "delta", "\u03b5": "epsilon",
    "\u03ba": "kappa", "\u03bb": "lambda", "\u03bc": "mu", "\u03c3": "sigma", "\u03c4": "tau", "\u03c9": "omega",
})

# Marks that end a clause (or a part of a claim) when they stand between two tokens.
CLAUSE_MARKS = ",;:()[]"

# What joins the halves of a hyphenated word ("diet-induced", "up-regulated").
HYPHENS = ("-", "\u2010", "\u2011")

# Quote characters, straight and curly, single and double (for stripping).
QUOTE_CHARS = "\"'\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u00ab\u00bb\u2039\u203a"

# A number: thousands-grouped or plain, optional decimals, not glued to letters
# on its right ("mp3" is a word; "2nd" is read as the ordinal 2 by `_counted`).
_NUMBER_BODY = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_NUMBER = rf"{_NUMBER_BODY}(?![^\W_])"
_WORD = r"[^\W_]+(?:['\u2019][^\W_]+)*"
_DECADE_APOSTROPHE = r"\d{3}0['\u2019]s(?![^\W_])"
# A number glued to a unit or scale abbreviation ("10mg", "3.5km", "$1.2bn", "£2.5m"): the number and its unit,
# two tokens, as "10 mg" is; read as one word, "20mg" states no number and "2.5m" the number 2.
_GLUED_UNITS = frozenset(
    "ms min h hr hrs mm cm m km mi ft mg mcg ug g kg lb lbs oz ml l gal kb mb gb tb mph kph hz khz mhz ghz kw mw "
    "kwh mwh gwh bn tn k".split()
)
_GLUED = rf"(?P<glued>{_NUMBER_BODY})(?P<suffix>[A-Za-z]{{1,3}})(?![^\W_])"
_TOKEN = re.compile(
    rf"(?P<decade>{_DECADE_APOSTROPHE})|{_GLUED}|(?P<num>{_NUMBER})|(?P<word>{_WORD})")
# What a glued scale letter names: "bn" always billion; "m" and "k" only after a currency sign ("£2.5m"), else
# they are metres and kilo- ("a 100m sprint"), which `units` also reads as the scale they might be.
_GLUED_SCALES = {"bn": "billion", "tn": "trillion"}
SCALE_LETTERS = {"m": "million", "k": "thousand"}
CURRENCY_SIGNS = "$£€¥₹"
# Counts written as words are the numbers they name ("eight titles" states 8), as are digit ordinals ("the 16th
# century" states 16). "one" is left a word: "one of the largest" counts nothing.
COUNT_WORDS = {
    w: str(i) for i, w in enumerate(
        "zero _ two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()) if w != "_"
} | {w: str(10 * i) for i, w in enumerate("_ _ _ thirty forty fifty sixty seventy eighty ninety".split()) if w != "_"}
# Ordinals and multiples written as words are numbers too ("finished third" states 3, "tripled" and "threefold"
# state 3), so "third" over "second" or "tripled" over "doubled" is a number the support does not state. "first"
# and "once" are left words: "first" is a qualifier word of the policy, and "once" mostly means "formerly".
ORDINAL_WORDS = {
    w: str(i) for i, w in enumerate(
        """_ _ second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth
        fifteenth sixteenth seventeenth eighteenth nineteenth twentieth""".split()) if w != "_"
}
MULTIPLE_WORDS = {
    "half": "0.5", "halved": "0.5", "twice": "2", "thrice": "3", "doubled": "2", "tripled": "3", "quadrupled": "4",
    "twofold": "2",
    "threefold": "3", "fourfold": "4", "fivefold": "5", "tenfold": "10",
}
# Ordinal words that name a fraction after "a"/"one" or a count ("a third", "two fifths"); "quarter" is one too.
_DENOMINATORS = {w: n for w, n in ORDINAL_WORDS.items() if int(n) > 2} | {"quarter": "4"}
_DIGIT_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)")
_DECADE = re.compile(r"1(?!000s)\d{2}0s|2\d{2}0s")  # "1000s" is a count (thousands), not a time

NEGATORS = frozenset(NEGATION_WORDS)  # the default; the policy's `negation_words` are what a verification uses
_CONTRACTION_BASES = {"ca": "can", "wo": "will", "sha": "shall"}


def normalise(text: str) -> str:
    """NFKC, quotes/dashes unified, invisibles dropped, whitespace collapsed, casefolded."""
    text = unicodedata.normalize("NFKC", text.translate(_CHAR_MAP)).translate(_CHAR_MAP)
    return _WS.sub(" ", text).strip().casefold()


def strip_quote(text: str) -> str:
    """A normalised quote without surrounding quote marks, spaces and trailing .,;:!?"""
    return normalise(text).strip(" " + QUOTE_CHARS).rstrip(".,;:!?").strip(" " + QUOTE_CHARS)


def canonical_number(raw: str) -> str:
    """'1,200' -> '1200', '29.50' -> '29.5', '007' -> '7'."""
    digits = unicodedata.normalize("NFKC", raw).replace(",", "")
    try:
        value = Decimal(digits)
    except InvalidOperation:
        return digits
    return format(value.normalize(), "f")


@dataclass(frozen=True, slots=True)
class Token:
    norm: str  # casefolded, NFKC; canonical value for numbers
    start: int  # offsets in the original text
    end: int
    surface: str  # as written
    number: bool = False

    @property
    def capitalised(self) -> bool:
        return not self.number and self.surface[:1].isupper()

    @property
    def spelled(self) -> bool:
        """A count written as a word ("eight" -> 8)."""
        return self.number and not self.surface[:1].isdigit()


def tokenise(text: str) -> list[Token]:
    out: list[Token] = []
    for m in _TOKEN.finditer(text):
        start, end = m.span()
        if m.group("decade"):
            out.append(Token(m.group()[:4] + "s", start, end, m.group()))
            continue
        if m.group("num"):
            out.append(Token(canonical_number(m.group()), start, end, m.group(), True))
            continue
        if m.group("glued") and m.group("suffix").casefold() in _GLUED_UNITS:
            body, suffix = m.group("glued"), m.group("suffix")
            cut = start + len(body)
            out.append(Token(canonical_number(body), start, cut, body, True))
            unit = suffix.casefold()
            if start > 0 and text[start - 1] in CURRENCY_SIGNS:
                unit = SCALE_LETTERS.get(unit, unit)
            out.append(Token(_GLUED_SCALES.get(unit, unit), cut, end, suffix))
            continue
        surface = m.group()
        pieces = list(re.finditer(r"[^'\u2019]+", surface))
        skip = False
        for i, piece in enumerate(pieces):
            if skip:
                skip = False
                continue
            text_piece = piece.group()
            p_start, p_end = start + piece.start(), start + piece.end()
            norm = unicodedata.normalize("NFKC", text_piece).casefold().translate(_GREEK)
            nxt = pieces[i + 1].group() if i + 1 < len(pieces) else None
            if nxt is not None and nxt.casefold() == "t" and norm.endswith("n") and len(norm) > 1:
                base = norm[:-1]
                out.append(Token(_CONTRACTION_BASES.get(base, base), p_start, p_end - 1, text_piece[:-1]))
                t_end = start + pieces[i + 1].end()
                out.append(Token("not", p_end - 1, t_end, text[p_end - 1 : t_end]))
                skip = True
                continue
            value = _counted(norm)
            out.append(Token(value, p_start, p_end, text_piece, True) if value else Token(norm, p_start, p_end, text_piece))
    return _once(_fractions_and_enumerations(text, _join_regulation(text, _compound_counts(text, out))))


_MULTIPLIERS = frozenset("hundred hundreds thousand thousands dozen".split())
_SINGULAR = frozenset("hundred thousand dozen".split())  # "one hundred", "a thousand", "a dozen"


def _compound_counts(text: str, tokens: list[Token]) -> list[Token]:
    """Count words joined into one number ("twenty-five", "two thousand", "one hundred and twenty") are that
    number, one token ("two thousand" states 2000, as "2,000" does); read apart, their pieces would be numbers
    the text does not state (20 and 5 for 25). A run that does not read as one number ("ten twenty-minute
    sessions") keeps its tokens."""
    def joined(a: int, b: int) -> bool:
        return text[tokens[a].end : tokens[b].start] in (" ", *HYPHENS)

    def part(k: int, first: bool = False) -> bool:
        # read as written: "$40k" is a number and a scale, no count word
        word = tokens[k].surface.casefold()
        return (tokens[k].spelled and word in COUNT_WORDS) or word in _MULTIPLIERS or (
            first and word in ("one", "a") and k + 1 < len(tokens) and tokens[k + 1].surface.casefold() in _SINGULAR)

    out: list[Token] = []
    k = 0
    while k < len(tokens):
        end = k
        if part(k, first=True):
            while True:
                if end + 1 < len(tokens) and part(end + 1) and joined(end, end + 1):
                    end += 1
                elif (end + 2 < len(tokens) and tokens[end].norm in _MULTIPLIERS and tokens[end + 1].norm == "and"
                      and part(end + 2) and joined(end, end + 1) and joined(end + 1, end + 2)):
                    end += 2  # "one hundred and twenty"
                else:
                    break
        if end == k:
            out.append(tokens[k])
            k += 1
            continue
        run = [t for t in tokens[k : end + 1] if t.norm != "and"]
        value = _run_value(run)
        while value is None and end > k + 1:  # "twenty-four four-carriage units": 24, then 4
            end -= 1
            run = [t for t in tokens[k : end + 1] if t.norm != "and"]
            value = _run_value(run) if tokens[end].norm != "and" else None
        surface = text[run[0].start : run[-1].end]
        start = run[0].start
        if (value is not None and run[0].norm == "a" and out and out[-1].surface.casefold() == "half"
                and joined(k - 1, k)):
            half = out.pop()  # "half a dozen" is 6
            value, start, surface = value // 2 if value % 2 == 0 else None, half.start, text[half.start : run[-1].end]
        if value is None:
            out.extend(tokens[k : end + 1])  # "ten twenty-minute sessions": two numbers side by side
        else:
            out.append(Token(str(value), start, run[-1].end, surface, True))
        k = end + 1
    return out


def _run_value(run: list[Token]) -> int | None:
    """The number a run of count words names, or None ("thousands", "hundred five")."""
    total, current = 0, 0
    for tok in run:
        word = tok.surface.casefold()
        if word in ("hundreds", "thousands"):
            return None
        if word == "dozen":  # "two dozen" is 24, "a dozen" 12
            if current not in range(1, 100):
                return None
            current *= 12
        elif word == "hundred":
            if current == 0 or current >= 100:
                return None
            current *= 100
        elif word == "thousand":
            if current == 0:
                return None
            total, current = total + current * 1000, 0
        else:
            n = 1 if word in ("one", "a") else int(COUNT_WORDS[word])
            below_hundred = current % 100
            if (n >= 10 and below_hundred) or (n < 10 and below_hundred % 10):
                return None  # "ten twenty", "twenty-five three"
            current += n
    return total + current


# What follows "once" when it counts ("once daily", "once a week", "once per cycle", "once every 90 days").
_FREQUENCY_NEXT = frozenset("daily weekly monthly yearly annually hourly nightly".split())
_FREQUENCY_ARTICLES = frozenset("a an per every".split())
_TIME_WORDS = frozenset(
    "second seconds minute minutes hour hours day days night nights week weeks fortnight month months quarter "
    "quarters year years decade decades century lifetime cycle cycles session sessions dose doses".split()
)


def _once(tokens: list[Token]) -> list[Token]:
    """"once" followed by a frequency ("once daily", "once a week", "once every 90 days") is the count 1, so
    "twice daily" over "once daily" is a number apart; elsewhere ("once the largest", "once a fortress") it
    stays a word."""
    def counts(k: int) -> bool:
        nxt = norm_at(tokens, k + 1)
        if nxt in _FREQUENCY_NEXT:
            return True
        rest = tokens[k + 2 : k + 4]  # "once every 90 days", "once every half a million years"
        return nxt in _FREQUENCY_ARTICLES and any(t.norm in _TIME_WORDS or t.number for t in rest)

    return [Token("1", tok.start, tok.end, tok.surface, True) if tok.norm == "once" and counts(k) else tok
            for k, tok in enumerate(tokens)]


def _fractions_and_enumerations(text: str, tokens: list[Token]) -> list[Token]:
    """An ordinal word that names a fraction is that fraction ("a third of" -> "1/3", "a quarter" -> "1/4",
    "two thirds" -> "2/3"; it states no count of the thing it is about: not 3), and one that numbers a point of
    a list ("Second, ...") stays a word."""
    out = list(tokens)
    for k, tok in enumerate(tokens):
        word = tok.surface.casefold()
        before = tokens[k - 1] if k > 0 else None
        denominator = _DENOMINATORS.get(word.removesuffix("s"))
        if denominator is not None and before is not None and (
                (before.norm in ("a", "an", "one") and not word.endswith("s"))
                or (before.number and before.spelled and word.endswith("s") and before.norm.isdigit())):
            numerator = "1" if before.norm in ("a", "an", "one") else before.norm
            out[k] = Token(f"{numerator}/{denominator}", tok.start, tok.end, tok.surface, number=True)
        elif tok.spelled and word in ORDINAL_WORDS and sentence_initial(text, tok) and text[tok.end : tok.end + 1] == ",":
            out[k] = Token(word, tok.start, tok.end, tok.surface)
    return out


# What a count "in" a number of them is counted over, when it is no share ("2 in 10 minutes", "3 in 5 games").
_SPANS = frozenset("""seconds minutes hours days weeks months years decades games matches races starts appearances
    attempts innings rounds""".split())


def share_whole(tokens: list[Token], k: int) -> int | None:
    """The index of M when token k (a number, or "one") is the N of "N in M" or "N out of M", a share ("one in five
    adults", "nine out of ten"), else None."""
    if not (tokens[k].number or tokens[k].norm == "one"):
        return None
    after = [t.norm for t in tokens[k + 1 : k + 4]]
    m = k + 2 if after[:1] == ["in"] else k + 3 if after[:2] == ["out", "of"] else None
    if m is None or m >= len(tokens) or not tokens[m].number or (
            m + 1 < len(tokens) and tokens[m + 1].norm in _SPANS):
        return None  # "scored 2 in 10 minutes" counts in a span, no share
    with contextlib.suppress(InvalidOperation):
        if 0 < Decimal("1" if tokens[k].norm == "one" else tokens[k].norm) < Decimal(tokens[m].norm) <= 1000:
            return m
    return None


def is_ordinal(tok: Token) -> bool:
    """Whether a number token is an ordinal ("second", "2nd"): a place in an order, not a count."""
    word = tok.surface.casefold()
    return tok.number and (word in ORDINAL_WORDS or _DIGIT_ORDINAL.fullmatch(word) is not None)


def _counted(norm: str) -> str | None:
    """The number a word names ("eight" -> "8", "16th" -> "16"), or None."""
    for words in (COUNT_WORDS, ORDINAL_WORDS, MULTIPLE_WORDS):
        if norm in words:
            return words[norm]
    ordinal = _DIGIT_ORDINAL.fullmatch(norm)
    return (ordinal.group(1).lstrip("0") or "0") if ordinal else None


def _join_regulation(text: str, tokens: list[Token]) -> list[Token]:
    """"up-regulated" and "down-regulated" as one word, as "upregulated" is: "up" and "down" are stopwords, so
    apart they leave two opposite claims with the same words."""
    out: list[Token] = []
    for tok in tokens:
        prev = out[-1] if out else None
        if (prev is not None and prev.norm in ("up", "down") and tok.norm.startswith("regulat")
                and text[prev.end : tok.start] in HYPHENS):
            out[-1] = Token(prev.norm + tok.norm, prev.start, tok.end, text[prev.start : tok.end])
            continue
        out.append(tok)
    return out


def number_value(norm: str) -> Decimal | None:
    """The value a number token's norm states ("0.25", "1/4" -> 0.25), or None: so a fraction and the decimal it
    equals are one number ("a quarter of a percentage point" is "0.25 percentage points")."""
    top, _, bottom = norm.partition("/")
    try:
        return Decimal(top) / Decimal(bottom) if bottom else Decimal(top)
    except (InvalidOperation, ZeroDivisionError):
        return None


# Words that scale the number before them ("2 million", "half a million").
SCALES = {"thousand": Decimal(1000), "million": Decimal(10**6), "billion": Decimal(10**9), "trillion": Decimal(10**12)}


def number_values(tokens: list[Token], k: int) -> set[Decimal]:
    """The values number token k states: its own, and that times the scale word after it ("2 million" states 2
    and 2,000,000; "half a million" 500,000), so a figure written one way is found written the other."""
    value = number_value(tokens[k].norm) if tokens[k].number else None
    if value is None:
        return set()
    after = [t.norm for t in tokens[k + 1 : k + 3]]
    scale = SCALES.get(after[0]) if after else None
    if scale is None and after[:1] == ["a"] and len(after) > 1:
        scale = SCALES.get(after[1])  # "half a million"
    return {value} if scale is None else {value, value * scale}


# The decades of a life, which a claim must state as its quote does ("in her early fifties", not "forties").
LIFE_DECADES = frozenset("twenties thirties forties fifties sixties seventies eighties nineties".split())


def is_decade(norm: str) -> bool:
    """A token that names a decade or a century ("1980s", "1800s"; "1980's" tokenises to "1980s"), or a decade of
    a life ("fifties")."""
    return _DECADE.fullmatch(norm) is not None or norm in LIFE_DECADES


def token_stems(tokens: list[Token]) -> list[str | None]:
    """Stem of each content token; None for stopwords and single ASCII characters (a count written as a word,
    "three" -> "3", stays content as its word was)."""
    norms = [t.norm for t in tokens]
    keep = set(content_tokens(norms))
    stems = stem_all(norms) if norms else []
    return [stem if tok.norm in keep or tok.spelled else None
            for tok, stem in zip(tokens, stems, strict=True)]


def content_stems(text: str) -> frozenset[str]:
    return frozenset(s for s in token_stems(tokenise(text)) if s)


def shared_start(a: str, b: str) -> int:
    """How many letters `a` and `b` share from their start."""
    return next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def in_a_row(part: Sequence[str], whole: Sequence[str]) -> bool:
    """`part` stands in `whole`, item for item and in a row."""
    n = len(part)
    return any(whole[k : k + n] == part for k in range(len(whole) - n + 1))


def norm_at(tokens: list[Token], k: int) -> str:
    """Token k's norm, or "" where k falls outside the tokens (a word before the first or after the last)."""
    return tokens[k].norm if 0 <= k < len(tokens) else ""


def is_stopword(norm: str) -> bool:
    return norm in STOPWORDS


_LEADING = " \t\n" + QUOTE_CHARS + "(["
_ENDS = ".!?:;\n"


def sentence_initial(text: str, token: Token) -> bool:
    """True when nothing but quotes, brackets or spaces separate the token from a sentence start."""
    before = text[: token.start].rstrip(_LEADING)
    return not before or before[-1] in _ENDS


def sentence_initials(text: str, tokens: list[Token]) -> list[bool]:
    """`sentence_initial` for every token, reading only the gap before each one (linear in the text, where
    calling `sentence_initial` per token is quadratic)."""
    gaps = [text[tokens[k - 1].end if k else 0 : tok.start].rstrip(_LEADING) for k, tok in enumerate(tokens)]
    return [gap[-1] in _ENDS if gap else k == 0 for k, gap in enumerate(gaps)]


def letter_name(text: str, tokens: list[Token], i: int) -> bool:
    """Token i is a capital letter that names a kind after its word ("vitamin D", "hepatitis C") or a model after
    its name ("the Nimbus S"), though the same letter lowercase is a stopword ("I'd", "don't")."""
    tok = tokens[i]
    if len(tok.surface) != 1 or not tok.surface.isupper() or tok.surface in "AI" or i == 0:
        return False
    before = tokens[i - 1]
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    if before.capitalised and after is not None and after.capitalised:
        return False  # an initial inside a name ("Franklin D Roosevelt"), not a model's letter
    return (not is_stopword(before.norm) and not before.number and len(before.surface) > 1
            and not text[before.end : tok.start].strip())


def name_tokens(text: str, tokens: list[Token]) -> list[Token]:
    """Capitalised words that name something: no stopword ("The", "Her"), and a word that starts a sentence only
    when the next word is capitalised too ("Marta Ballestrini sang ...")."""
    names = []
    for i, tok in enumerate(tokens):
        if not tok.number and not tok.capitalised and any(c.isupper() for c in tok.surface[1:]):
            names.append(tok)  # "iOS", "eBay", "mTOR": a capital inside a word names something
            continue
        if not tok.capitalised or (is_stopword(tok.norm) and not letter_name(text, tokens, i)):
            continue
        if sentence_initial(text, tok):
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            if nxt is None or not nxt.capitalised or text[tok.end : nxt.start].strip():
                continue
        names.append(tok)
    return names


# How the missed-answer guard reads the question and the answer: as the verifier reads the evidence (its stems are
# compared with the chunks'); `arborist.guards` imports nothing of the verifier, so it is handed this.
VERIFIER_READING: Reading[Token] = Reading(
    normalise=normalise, tokenise=tokenise, token_stems=token_stems, is_stopword=is_stopword,
    sentence_initial=sentence_initial, quote_chars=QUOTE_CHARS,
)
