"""Roles (ROLES_SWAPPED): who did what to whom, the same way round in the claim and its support.

Word overlap is blind to it: every word of "Carthage conquered Rome" is in "Rome conquered Carthage". Each
rule here reads one way a text can turn its roles round: a verb's sides crossed (`roles_swapped`, a passive on
one side only expecting them crossed), two terms exchanged around a middle (`exchanged`), named sides crossed
across a clause (`names_crossed`), a converse verb with the same sides (`converse_verb`: "A defeated B" over
"A lost to B") and a move the other way (`from_to_swapped`). Symmetric relations (`symmetric_words`) and verbs
made intransitive by a preposition ("risk increases with age") are left alone.
"""

from __future__ import annotations

from functools import cache

from arborist.verify.lexicon import IRREGULAR_VERBS, Lexicon
from arborist.verify.normalize import Token, in_a_row, is_stopword
from arborist.verify.reading import (
    COPULAS,
    DETERMINERS,
    TERM_ENDS,
    Text,
    after_copula,
    clause_of,
    negated_phrase,
    span_text,
)


def crossed_over(a: frozenset[str], b: frozenset[str], sa: frozenset[str], sb: frozenset[str]) -> bool:
    """Each of one text's two sides (`a`, `b`) meets the other text's opposite side, and neither its own."""
    return bool(a & sb and b & sa and not (a & sa or b & sb))


def _from_to(text: Text) -> list[tuple[str, str, int, int]]:
    """The named ends of a move in `text`: "from Portsmere to Hallingford" as ("portsmer", "hallingford", index of
    "from"), each end the first capitalised word within two tokens after its preposition, in one clause."""
    out = []
    tokens = text.tokens
    def name_after(k: int) -> int | None:
        return next((m for m in range(k + 1, min(len(tokens), k + 3)) if tokens[m].capitalised and not text.breaks[m]),
                    None)
    for k, tok in enumerate(tokens):
        if tok.norm != "from" or (a := name_after(k)) is None:
            continue
        to = next((m for m in range(a + 1, min(len(tokens), a + 6)) if tokens[m].norm == "to"), None)
        if to is None or any(text.breaks[m] for m in range(a + 1, to + 1)) or (b := name_after(to)) is None:
            continue
        out.append((text.all_stems[a], text.all_stems[b], k, b))
    return out


def from_to_swapped(claim: Text, support: Text) -> str:
    """A note when the claim moves something from A to B and its support, naming the same two, from B to A
    ("shifted its hub from Hallingford to Portsmere" over "moved its hub from Portsmere to Hallingford"), else ''."""
    theirs = {(x, y): (m, e) for x, y, m, e in reversed(_from_to(support))}  # each move's first mention
    for a, b, k, end in _from_to(claim):
        if a != b and (b, a) in theirs and (a, b) not in theirs:
            j, last = theirs[b, a]
            return f"roles: the claim goes '{span_text(claim, k, end)}'; its support the other way ('{span_text(support, j, last)}')"
    return ""


# The verbs of the irregular past forms (`lexicon.IRREGULAR_VERBS`: "has begun" is done what "will begin" puts ahead).
_BASES = frozenset(IRREGULAR_VERBS.values())


# The forms of the verbs the role checks read by meaning, by their base.
_FORMS = {forms.split()[0]: frozenset(forms.split()) for forms in (
    "buy buys bought buying", "purchase purchases purchased purchasing", "acquire acquires acquired acquiring",
    "borrow borrows borrowed borrowing", "receive receives received receiving", "sell sells sold selling",
    "lend lends lent lending", "give gives gave given giving", "beat beats beaten beating",
    "defeat defeats defeated defeating", "lose loses lost losing", "loan loans loaned loaning")}


def _verbs(*bases: str) -> frozenset[str]:
    return frozenset().union(*(_FORMS[base] for base in bases))


# Verbs of one meaning, whose sides a role check compares ("Russia bought Alaska from the US" over "the US
# purchased Alaska from Russia").
_SAME_VERBS = (_verbs("buy", "purchase", "acquire"), _verbs("beat", "defeat"), _verbs("lend", "loan"))


def _verb_positions(text: Text, other: Text, i: int) -> list[int]:
    """Where `text` uses token i of `other`: by stem, as another form of the same irregular verb ("was beaten
    by" and "beat"), or as a verb of the same meaning ("bought" and "purchased": `_SAME_VERBS`)."""
    found = text.positions.get(other.all_stems[i], [])
    norm = other.tokens[i].norm
    group = next((g for g in _SAME_VERBS if norm in g), None)
    if not found and group is not None:
        return [j for j, t in enumerate(text.tokens) if t.norm in group]
    base = IRREGULAR_VERBS.get(norm, norm)
    if found or (base == norm and norm not in _BASES):
        return found
    return [j for j, t in enumerate(text.tokens) if IRREGULAR_VERBS.get(t.norm, t.norm) == base]


def roles_swapped(claim: Text, support: Text, lex: Lexicon, skip: set[int] | frozenset[int] = frozenset()) -> str:
    """A note when a verb of the claim finds its two sides the other way round in the support (see the module
    docstring), else ''. `skip`: claim tokens whose sides swap with a comparison restated from its other side."""
    for i, stem in enumerate(claim.stems):
        if not stem or i in skip or stem in lex.symmetric or claim.intransitive(i):
            continue
        used = _verb_positions(support, claim, i)  # where the support uses the verb
        if not (claim.verb(i) or (
                i > 0 and claim.tokens[i - 1].norm not in DETERMINERS and not claim.tokens[i].capitalised
                and any(support.verb(j) and support.tokens[j].norm == claim.tokens[i].norm for j in used))):
            continue  # not a verb, unless the support uses the same word as one ("Elk prey on wolves")
        a, b, near_a, near_b = claim.roles(i)
        if not a or not b:
            continue
        best: tuple[int, int, bool] | None = None  # words lined up, support index, swapped
        for j in used:
            if not support.stems[j] or support.intransitive(j) or _dative_shift(claim, i, support, j):
                continue
            sa, sb, s_near_a, s_near_b = support.roles(j)
            if claim.passive_voice(i) != support.passive_voice(j):  # "was acquired by A" is "A acquired"
                sa, sb, s_near_a, s_near_b = sb, sa, s_near_b, s_near_a
            straight, crossed = (a & sa, b & sb), (a & sb, b & sa)
            # each text's nearest role word must be among the ones that moved
            swapped = bool(crossed[0] and crossed[1] and (near_a in sb or near_b in sa)
                           and (s_near_a in b or s_near_b in a))
            lined = sum(map(len, straight)) + sum(map(len, crossed))
            if best is None or lined > best[0]:
                best = (lined, j, swapped)
        if best is not None and best[2]:
            return (f"roles: the claim's '{negated_phrase(claim, None, i)}' takes its sides the other way round in its "
                    f"support ('{span_text(support, best[1] - 3, best[1] + 3)}')")
    return ""


def name_positions(text: Text, other: Text) -> set[int]:
    """The tokens of `text` that name someone or something: capitalised words that are no stopword, not at a
    sentence's start unless the next word is capitalised too or `other` writes the word capitalised inside a
    sentence ("Calgrove sold ..." over "... to the investor Calgrove")."""
    inside = {t.norm for k, t in enumerate(other.tokens) if t.capitalised and not other.initial[k]}
    out: set[int] = set()
    adverbial: set[int] = set()  # "in Berlin", "on Friday", "in New York": where or when, no side of a verb
    for k, tok in enumerate(text.tokens):
        if not tok.capitalised or tok.number or len(tok.norm) < 2 or is_stopword(tok.norm):
            continue
        nxt = text.tokens[k + 1] if k + 1 < len(text.tokens) else None
        if text.initial[k] and tok.norm not in inside and not (nxt is not None and nxt.capitalised):
            continue
        if k > 0 and (text.tokens[k - 1].norm in _WHERE_WHEN or k - 1 in adverbial):
            adverbial.add(k)
            continue
        out.add(k)
    return out


# A name's side ends at a conjunction; two exchanged terms joined by one are coordinated.
_CONJUNCTIONS = frozenset("and or but nor while whereas".split())
# Prepositions of place and time: a name after one says where or when, and moves round its clause freely.
_WHERE_WHEN = frozenset("in on at during since until till near across throughout within around inside "
                        "outside".split())


def _comma_before(text: Text, k: int) -> bool:
    return text.raw[text.tokens[k - 1].end : text.tokens[k].start].strip() == ","


def named_sides(text: Text, i: int, names: set[int]) -> tuple[frozenset[str], frozenset[str]]:
    """The names on each side of verb i in its clause; each side reads on past a comma into a name set off
    there ("sued its former contractor, Dace Systems, for ..."; "the mayor, Dana Ruiz, lost to ..."), the left
    also past a short description of a name ("Norvest, a pension fund, sold ..."). A name on both sides is on
    neither."""
    first, end = clause_of(text, i)
    while first > 0 and _comma_before(text, first):
        start = clause_of(text, first - 1)[0]
        if (first - 1 not in names and start > 0 and _comma_before(text, start) and start - 1 in names
                and text.tokens[start].norm in ("a", "an", "the") and first - start <= 6):
            start = clause_of(text, start - 1)[0]  # "Norvest, a pension fund, sold ...": a name described
        elif first - 1 not in names:
            break
        first = start
    while end < len(text.tokens) and end in names and _comma_before(text, end):
        end = clause_of(text, end)[1]
    # a conjunct is a clause of its own, its verb perhaps left out ("Paris hosts the semi-finals and Lyon the final")
    first = max([first] + [k + 1 for k in range(first, i) if text.tokens[k].norm in _CONJUNCTIONS])
    end = next((k for k in range(i + 1, end) if text.tokens[k].norm in _CONJUNCTIONS), end)
    left = {text.tokens[k].norm for k in range(first, i) if k in names}
    right = {text.tokens[k].norm for k in range(i + 1, end) if k in names}
    return frozenset(left - right), frozenset(right - left)


def names_crossed(claim: Text, support: Text, lex: Lexicon, skip: set[int] | frozenset[int] = frozenset()) -> str:
    """A note when a verb of the claim has a name on each side and its support, at every use of that verb, has
    each of them on the other side, in the same voice ("Calgrove sold its stake to pension fund Norvest" over
    "Pension fund Norvest sold its stake to the investor Calgrove"), else ''. The role check reads only the few
    words next to a verb; a name is one thing wherever its phrase puts it, so it is read across the clause."""
    c_names, s_names = name_positions(claim, support), name_positions(support, claim)
    if len(c_names) < 2 or len(s_names) < 2:
        return ""
    support_sides = cache(lambda j: named_sides(support, j, s_names))  # a long claim asks it of every verb
    for i, stem in enumerate(claim.stems):
        if (not stem or i in skip or stem in lex.symmetric or claim.intransitive(i) or not claim.verb(i)
                or any(ch.isupper() for ch in claim.tokens[i].surface)):
            continue  # "runs on Linux, macOS and Windows": a name is no verb
        ca, cb = named_sides(claim, i, c_names)
        if not ca or not cb:
            continue
        verdicts: list[tuple[int, bool]] = []
        for j in _verb_positions(support, claim, i):
            if not support.verb(j) or support.intransitive(j) or _dative_shift(claim, i, support, j):
                continue
            sa, sb = support_sides(j)
            if claim.passive_voice(i) != support.passive_voice(j):
                sa, sb = sb, sa
            verdicts.append((j, crossed_over(ca, cb, sa, sb)))
        if verdicts and all(crossed for _, crossed in verdicts):
            first, end = clause_of(support, verdicts[0][0])
            return (f"roles: the claim's '{negated_phrase(claim, None, i)}' has its named sides the other way round in its "
                    f"support ('{span_text(support, first, end - 1)}')")
    return ""


# Verbs that take a thing and its recipient in either order ("given honey" and "given to children").
_DATIVE = frozenset("""give gives gave given giving offer offers offered offering award awards awarded grant grants
    granted send sends sent sending serve serves served pay pays paid show shows showed shown teach teaches taught
    tell tells told hand hands handed promise promises promised feed feeds fed sell sells sold lend lends lent
    owe owes owed assign assigns assigned issue issues issued""".split())


def _dative_shift(claim: Text, i: int, support: Text, j: int) -> bool:
    """A passive verb of giving whose recipient is the subject in one text and after "to" in the other:
    "Honey should not be given to children" says what "Children should not be given honey" says, so its sides
    cross without a swap."""
    if claim.tokens[i].norm not in _DATIVE or not (after_copula(claim, i) and after_copula(support, j)):
        return False
    to_c = i + 1 < len(claim.tokens) and claim.tokens[i + 1].norm == "to"
    to_s = j + 1 < len(support.tokens) and support.tokens[j + 1].norm == "to"
    # the giver, when both name one, must be the same ("given to Ana by Luis" is no "Luis was given ... by Ana")
    by_c, by_s = _agent(claim, i), _agent(support, j)
    return to_c != to_s and not (by_c and by_s and not by_c & by_s)


def _agent(text: Text, i: int) -> frozenset[str]:
    """The content stems of the "by" phrase after verb i in its clause (up to the next preposition)."""
    _, end = clause_of(text, i)
    for k in range(i + 1, end):
        if text.tokens[k].norm == "by":
            stop = next((m for m in range(k + 1, end) if text.tokens[m].norm in TERM_ENDS), end)
            return frozenset(x for x in text.stems[k + 1 : stop] if x)
    return frozenset()


# Verbs that say one transfer from its two ends: "A bought X from B" is "B sold X to A", never "A sold X to B".
_TAKING = _verbs("buy", "purchase", "acquire", "borrow", "receive")
_GIVING = _verbs("sell", "lend", "give")
# Verbs that say one contest from its two ends: "A defeated B" is "B lost to A", never "A lost to B".
_WINNING = _verbs("beat", "defeat")
_CONVERSES = ((_TAKING, _GIVING), (_GIVING, _TAKING), (_WINNING, _FORMS["lose"]), (_FORMS["lose"], _WINNING))


def _same_verb(norm: str, norms: set[str]) -> bool:
    """Whether `norms` holds a form of the verb `norm` is a form of ("bought" and "buying")."""
    forms = next((group for group in _FORMS.values() if norm in group), frozenset({norm}))
    return bool(forms & norms)


def _relative(text: Text, j: int) -> bool:
    """Token j is the verb of a relative clause ("who had lost", "which sold")."""
    k = next((k for k in range(j - 1, -1, -1)
              if text.tokens[k].norm not in ("had", "has", "have", "earlier", "previously", "once")), -1)
    return k >= 0 and text.tokens[k].norm in ("who", "which", "that", "whom")


def converse_verb(claim: Text, support: Text) -> str:
    """A note when the claim's verb of taking or giving (or of winning or losing) is its support's converse verb
    with the same sides ("Harlan bought the division from Merrow" over "Harlan sold its division to Merrow";
    "Ruiz defeated Keller" over "Ruiz lost to Keller"), else ''. With the sides exchanged the two say one thing
    ("Merrow sold the division to Harlan"); a passive on one side only puts the thing on a side of its own, and is
    left alone."""
    said = {t.norm for t in support.tokens}
    says = {t.norm for t in claim.tokens}
    c_names, s_names = name_positions(claim, support), name_positions(support, claim)
    support_sides = cache(lambda j: named_sides(support, j, s_names))  # a long claim asks it of every verb
    for i, tok in enumerate(claim.tokens):
        other = next((theirs for mine, theirs in _CONVERSES if tok.norm in mine), None)
        if other is None or not claim.verb(i) or after_copula(claim, i) or _same_verb(tok.norm, said):
            continue  # "were given the drug" names no giver; a support that says "bought" too may say both
        a, b, near_a, _ = claim.roles(i)
        named: tuple[frozenset[str], frozenset[str]] | None = None
        for j, t in enumerate(support.tokens):
            if (t.norm not in other or not support.verb(j) or after_copula(support, j) or _same_verb(t.norm, says)
                    or _relative(support, j)):
                continue  # "Keller, who had lost to Ruiz in 2015, won the rematch": another event
            if claim.passive_voice(i) != support.passive_voice(j):
                continue
            sa, sb, _, _ = support.roles(j)
            if a & sa and b & sb and near_a in sa and not (a & sb or b & sa):
                return f"roles: the claim's '{tok.surface}' is '{t.surface}' in its support, with the same sides"
            named = named or named_sides(claim, i, c_names)
            na, nb = named
            ma, mb = support_sides(j)
            if crossed_over(na, nb, mb, ma):  # the same sides: the converse verb reverses the event
                return f"roles: the claim's '{tok.surface}' is '{t.surface}' in its support, with the same sides"
    return ""


# Words an exchange may change around its fixed middle ("inherited by Edmund from his cousin Lady Marten" over
# "by Lady Marten from her cousin Edmund").
_NEUTRAL = DETERMINERS | frozenset("he she him they them it".split())
# Words that order the terms on their two sides, so a middle of these alone is enough ("from A to B").
_DIRECTED = frozenset("from to into onto by".split())
EXCHANGE_TERM = 6  # tokens each exchanged term may run to
# The longest claim and support (content tokens) the checks for an exchanged or swapped word read: they compare
# sentences; the bound keeps their work small on hostile input.
SWAP_CLAIM_TOKENS, SWAP_SUPPORT_TOKENS = 80, 400


# Words that join two terms as equals: "salt together with pepper", "Boston, along with Chicago".
_ALONGSIDE = frozenset("together along alongside plus".split())

# Nouns of a relation both sides hold, after a copula: "Haydn was a contemporary of Mozart" (not "inherited the
# estate from his cousin Y", where the verb orders the sides).
_RELATION_NOUNS = frozenset("""twin twins sister sisters brother brothers contemporary contemporaries cousin cousins
    neighbour neighbours neighbor neighbors teammate teammates rival rivals sibling siblings partner partners
    colleague colleagues friend friends ally allies spouse""".split())


def _subsequence(part: list[str], whole: list[str]) -> bool:
    """Whether `part` stands in `whole` in order (not necessarily in a row)."""
    it = iter(whole)
    return all(any(w == p for w in it) for p in part)


def _coordinated(text: Text, middle: list[int]) -> bool:
    """Whether two terms with `middle` between them open two conjuncts of one coordination: after the middle's
    last coordinator come only prepositions ("blue, white and red"; "by 3% in Oban and by 12% in Mallaig" over
    the two conjuncts the other way round; "Jones scored in the second half and Smith scored in the first half").
    Not so "in year four and later repeat it in year two", nor Oban and Mallaig exchanged around "and by 3% in"."""
    joins = [m for m in middle if text.tokens[m].norm in _CONJUNCTIONS]
    return bool(joins) and all(text.stems[m] is None and not text.tokens[m].number for m in middle if m > joins[-1])


def _neutral(token: Token, k: int) -> bool:
    """A determiner or pronoun, which an exchange may change; "A" inside a sentence names ("kinase A")."""
    return token.norm in _NEUTRAL and not (k and token.surface == "A")


def exchanged(claim: Text, support: Text, lex: Lexicon, skip: set[int] | frozenset[int] = frozenset()) -> str:
    """A note when the claim is its support with two terms exchanged around a middle both keep ("Kinase B
    phosphorylates kinase A" over "Kinase A phosphorylates kinase B"), else ''. Every word of one is in the other,
    so word overlap and the verb-led role check miss it. The middle must order its sides ("from A to B"; "A and B"
    is "B and A"); one that joins them as equals, reordered conjuncts and other words moved are no exchange."""
    c_at = [k for k, t in enumerate(claim.tokens) if not _neutral(t, k)]
    s_at = [k for k, t in enumerate(support.tokens) if not _neutral(t, k)]
    if len(c_at) > SWAP_CLAIM_TOKENS or len(s_at) > SWAP_SUPPORT_TOKENS:
        return ""
    c = [claim.all_stems[k] for k in c_at]
    s = [support.all_stems[k] for k in s_at]
    where: dict[str, list[int]] = {}
    for k, stem in enumerate(s):
        where.setdefault(stem, []).append(k)
    for i in range(1, len(c) - 1):
        for j in where.get(c[i], []):
            if j == 0 or c[i - 1] == s[j - 1]:
                continue  # not the start of a common middle
            size = 0
            while i + size < len(c) and j + size < len(s) and c[i + size] == s[j + size]:
                size += 1
            # the claim's term before the middle is the support's after it, and the other way round
            x = next((k for k in range(min(EXCHANGE_TERM, i, len(s) - j - size), 0, -1)
                      if c[i - k : i] == s[j + size : j + size + k]), 0)
            y = next((k for k in range(min(EXCHANGE_TERM, len(c) - i - size, j), 0, -1)
                      if c[i + size : i + size + k] == s[j - k : j]), 0)
            if not x or not y or c[i - x : i] == c[i + size : i + size + y] or in_a_row(c[i - x : i + size + y], s):
                continue  # the support also says it the claim's way round somewhere
            if not _subsequence(c[: i - x] + c[i + size + y :], s[: j - y] + s[j + size + x :]):
                continue  # more changed around them: another pair exchanged too ("York sold 400, against 900 sold
                # by Leeds" over "Leeds sold 900, against 400 sold by York"), or other words
            middle = [c_at[k] for k in range(i, i + size)]
            terms = [c_at[k] for k in (*range(i - x, i), *range(i + size, i + size + y))]
            if (any(claim.breaks[k] for k in range(terms[x - 1] + 1, middle[0] + 1))
                    and any(claim.breaks[k] for k in range(middle[-1] + 1, terms[x] + 1))):
                continue  # phrases moved round their clause: "Among adults, the drug cut X, researchers found"
            norms = [claim.tokens[k].norm for k in middle]
            numbered = any(claim.tokens[k].number for k in middle)
            if _coordinated(claim, middle) or any(n in _ALONGSIDE for n in norms):
                continue  # conjuncts reordered: "blue, white and red", "by 3% in Oban and by 12% in Mallaig"
            if (not any(claim.stems[k] or claim.tokens[k].number or claim.tokens[k].norm in _DIRECTED for k in middle)
                    or not all(any(claim.stems[k] or claim.tokens[k].number or claim.tokens[k].capitalised
                                   for k in side)
                               for side in (terms[:x], terms[x:]))
                    or skip.intersection(middle)
                    or (not numbered and (any(claim.all_stems[k] in lex.symmetric for k in middle)
                                          or norms.count("as") >= 2 or "same" in norms
                                          or (COPULAS.intersection(norms) and _RELATION_NOUNS.intersection(norms))))):
                continue
            return (f"roles: the claim has '{span_text(claim, terms[0], terms[x - 1])}' and "
                    f"'{span_text(claim, terms[x], terms[-1])}' the other way round around "
                    f"'{span_text(claim, middle[0], middle[-1])}' from its support")
    return ""
