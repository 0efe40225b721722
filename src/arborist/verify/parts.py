"""A claim's parts, each of which its quote must state something of.

Overlap counts words over the whole claim, so a claim that adds a conjunct, a list item or a clause to what its
quote says ("Vitamin C deficiency causes scurvy and rickets" over "... causes scurvy"; "..., where he died")
still clears the threshold on the words it shares. `parts` cuts a claim at coordinators, relative and causal
words, prepositions and punctuation; a part with a content word of which the quote states none is said by the
claim alone (`unstated_parts`), and so are a coordinate (`unstated_coordinates`) and a reporter
(`unstated_reporter`) the quote never names.
"""

from __future__ import annotations

from arborist.verify.lexicon import NEVER_NOUNS, SUBJECT_PRONOUNS
from arborist.verify.normalize import CLAUSE_MARKS, Token, share_whole, shared_start, token_stems, tokenise
from arborist.verify.reading import COPULAS, VERB_WORDS
from arborist.verify.scope import DISCOURSE_WORDS

# Words that begin another conjunct or clause; they belong to no part.
BOUNDARY_WORDS = frozenset("and or but nor which where who whom whose whereas while whilst although though because so thus "
                            "thereby therefore hence compared relative versus vs".split())
# Words that number the points of a list ("Second, ..."): a part of one of them states nothing.
_ENUMERATORS = frozenset("first second third fourth fifth lastly next".split())
# Prepositions that begin a phrase of their own ("... occurs in toddlers", "... in nonhuman primates"): a
# phrase the quote states no word of is a detail the claim adds. "of" and "to" are left inside their part:
# "the risk of", "led to" bind too tightly to the word before them.
PREPOSITIONS = frozenset(
    "in on at by for with from into during after before among between via through within against across throughout "
    "under over without toward towards beyond near inside outside upon despite except amid along around".split()
)

_COPULAS = COPULAS | {"seems", "seemed"}
# Verbs of saying, showing and thinking, after which "that" opens what is said, not a relative clause; and words
# after which "that" is no relative pronoun either ("so that", "such that", "the fact that", "now that").
_SAYING = frozenset("""says shows suggests finds indicates reports claims argues states notes believes thinks
    knows means implies confirms reveals warns predicts estimates concludes show suggest find indicate
    report claim argue state note believe think know mean imply confirm reveal warn predict estimate conclude
    said told wrote thought knew meant found felt held so such fact now""".split())
# Words that open a noun phrase: a conjunct opened by one names a thing its quote must name ("in the kidneys and
# the liver" over "in the kidneys").
_ARTICLES = frozenset("the a an its their his her".split())

# Negators before an "at any point" that make it "never" ("has not been used at any point").
_NEGATORS = frozenset("not never no cannot".split())


def parts(text: str) -> list[list[tuple[Token, str | None]]]:
    """The claim's parts in order: its tokens with their content stems (None for function words)."""
    tokens = tokenise(text)
    stems = token_stems(tokens)

    def stem_before(i: int) -> bool:  # a noun-like word before "that": a content word, no verb ending in -ed,
        prev = tokens[i - 1].norm  # nor an adjective after a copula ("It is likely that ...")
        return (bool(stems[i - 1]) and not prev.endswith(("ed", "ing")) and prev not in _SAYING
                and not (i > 1 and tokens[i - 2].norm in _COPULAS))

    out: list[list[tuple[Token, str | None]]] = [[]]
    for i, (tok, stem) in enumerate(zip(tokens, stems, strict=True)):
        between = text[tokens[i - 1].end : tok.start] if i else ""
        to_a = tok.norm == "to" and i + 1 < len(tokens) and tokens[i + 1].norm in ("a", "an")
        # "of" before a gerund opens a clause of its own ("within 48 hours | of starting the antibiotic")
        of_ing = (tok.norm == "of" and i + 1 < len(tokens) and tokens[i + 1].norm.endswith("ing")
                  and sum(1 for _, s in out[-1] if s) >= 2)  # not "in favour | of banning"
        # "that" after a noun and before a verb-like word opens a relative clause ("a faulty switch | that caused
        # several house fires"); after a verb it opens what is said ("showed that ...") and stays in its part
        relative = (tok.norm == "that" and i and stem_before(i) and i + 1 < len(tokens)
                    and tokens[i + 1].norm not in _ARTICLES and not tokens[i + 1].number)
        share = tok.norm == "in" and i > 0 and share_whole(tokens, i - 1) is not None  # "one in five": one part
        if i and out[-1] and (tok.norm in BOUNDARY_WORDS or (tok.norm in PREPOSITIONS and not share) or to_a or of_ing
                              or relative
                              or any(c in CLAUSE_MARKS for c in between)
                              or ((tok.norm in VERB_WORDS or tok.norm in SUBJECT_PRONOUNS)
                                  and out[-1][0][0].norm in PREPOSITIONS)):
            out.append([])
        if tok.norm not in BOUNDARY_WORDS:
            out[-1].append((tok, stem))
    return [p for p in out if p]


def _never(part: list[tuple[Token, str | None]], denied: bool) -> bool:
    """"At no point", "at no time", and after a negation "at any point": a phrase that says "never", which the
    negation check reads. `denied`: a negator stands before the part ("have not been used ... at any point")."""
    norms = [t.norm for t, _ in part]
    return (len(norms) == 3 and (norms[1] == "no" or (norms[1] == "any" and denied))
            and norms[2] in NEVER_NOUNS)


def unstated_parts(text: str, stated: frozenset[str], defined: frozenset[str] = frozenset(),
                   kin: frozenset[str] = frozenset()) -> list[str]:
    """The parts of `text` (as written) with a content word, none of whose content stems is in `stated`.
    `defined`: the abbreviations (as written) the texts define; a part that is one of them is skipped.
    `kin`: the stems of the direction words the quote states in other words (see `verifier._kin`): a part of
    such words alone says again what the quote says ("... are lower than" over "... higher than ...",
    "dropped" over "fell"), and whether it says it the same way round is for the vetoes to read."""
    out = []
    cut = parts(text)
    for k, part in enumerate(cut):
        stems = [s for _, s in part if s]
        lone = part[0][0].surface if len(part) == 1 else ""
        if not stems or lone in defined or lone.casefold() in _ENUMERATORS or kin.issuperset(stems) or all(
                t.norm in DISCOURSE_WORDS for t, s in part if s) or _never(
                part, any(t.norm in _NEGATORS for other in cut[:k] for t, _ in other)):
            continue
        after = cut[k + 1] if k + 1 < len(cut) else []
        named = [s for _, s in after if s]
        if (named and stated.issuperset(named) and text[part[-1][0].end : after[0][0].start].strip() == "("):
            continue  # what its quote calls by the name in brackets after it ("enhancer regions (p53BERs)")
        # a word the claim also says in another part does not show that the quote states this one
        elsewhere = {s for m, other in enumerate(cut) if m != k for _, s in other if s}
        own = [s for s in stems if s not in elsewhere] or stems
        joined = (k > 0 and part[0][0].norm in _ARTICLES
                  and any(w in ("and", "or") for w in text[cut[k - 1][-1][0].end : part[0][0].start].split()))
        if not stated.intersection(own) or (joined and stems[0] not in stated and stems[0] not in elsewhere):
            out.append(text[part[0][0].start : part[-1][0].end])
    return out


def unstated_coordinates(text: str, quote_stems: list[str | None]) -> list[str]:
    """The words of `text` coordinated before a head its quote gives only the other of: "on both the eastern
    and western slopes" over "only on the eastern slopes", "in the men's and women's 400 metres" over "in the
    men's 400 metres". The coordinate ("western") shares its part with the head the quote states, so the part
    counts as stated; but the quote puts the other coordinate right before that head, and names this one
    nowhere. `quote_stems`: the quote's tokens' content stems (None for function words), in order."""
    tokens = tokenise(text)
    stems = token_stems(tokens)
    said = [s for s in quote_stems if s]
    pairs = set(zip(said, said[1:], strict=False))
    out = []
    for k, tok in enumerate(tokens):
        if tok.norm not in ("and", "or") or not 0 < k < len(tokens) - 2:
            continue
        a = next((m for m in (k - 1, k - 2) if m >= 0 and stems[m]), None)  # "men('s) and"
        b, word = k + 1, stems[k + 1]
        n = next((m for m in (b + 1, b + 2) if m < len(tokens) and stems[m]), None)  # "women('s) 400"
        if a is None or n is None or word is None or any(
                c in CLAUSE_MARKS for c in text[tokens[a].end : tokens[n].start]):
            continue
        if (stems[a], stems[n]) in pairs and not any(_akin(word, s) for s in said):
            out.append(tokens[b].surface)
    return out


def _akin(a: str, b: str) -> bool:
    """Two stems of one word ("southern" and "south", "dental" and "dentistry"): they share their first four
    letters and at least 60% of the shorter one."""
    return shared_start(a, b) >= max(4, 0.6 * min(len(a), len(b)))


def unstated_reporter(text: str, stated: frozenset[str], reports: frozenset[str]) -> list[str]:
    """Who the claim says reports what follows, when its quote names none of them: "The finance ministry
    predicts that ..." over "Economists at the bank predict that ...". A report word (`reports`, as written)
    before "that" takes its reporter from the words before it in its part; a reporter whose content words the
    quote states nowhere is the claim's own."""
    tokens = tokenise(text)
    stems = token_stems(tokens)
    out = []
    for h, tok in enumerate(tokens):
        if tok.norm not in reports or h + 1 >= len(tokens) or tokens[h + 1].norm != "that":
            continue
        first = next((k for k in range(h, 0, -1) if tokens[k - 1].norm in BOUNDARY_WORDS or any(
            c in CLAUSE_MARKS for c in text[tokens[k - 1].end : tokens[k].start])), 0)
        who = [s for s in stems[first:h] if s]
        if who and not stated.intersection(who):
            out.append(text[tokens[first].start : tok.end])
    return out

