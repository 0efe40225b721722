"""Does STRICT mean right on claims written to trip it? The verifier on hand-written claim/quote pairs (no model).

Usage:
  .venv/bin/python bench/verifier_handwritten.py [--show] [--json FILE] [--pairs FILE]

`bench/data/handwritten_pairs.jsonl` holds 4226 pairs written for this bench
(no third-party text). Each is one claim_lattice case the way a user would
try the verifier: the claim is its own question, its quote is one sentence
of a 2-4 sentence passage (the cited E1), and a human says whether the quote
backs the claim:

- `expected: reject`: the claim reverses or overstates its quote, by
  category: negation, direction, comparison, roles (A acquired B / B
  acquired A), numbers (units, counts, ordinals), quantifier, modality,
  entity (another name), hedge (a supposition or correlation stated as fact
  or cause), attribution (a report, plan or request stated as done),
  scope (a result in mice stated generally), temporal, antonym,
  extra_clause (a supported claim plus an unsupported clause). STRICT on
  one of these is a false STRICT.
- `expected: accept`: a faithful paraphrase (voice, order, inflection,
  abbreviation, a dropped detail, a hedge kept, a comparison from its other
  side). STRICT is right.

Twenty sets, reported apart, each written by a hand that had seen neither the
verifier's code nor the sets before it:

- `tuned` (138 + 40, written first; the rules of verifier policy /11-/14
  were developed against it);
- `held-out` (121 + 57). Measured blind, false STRICT fell from 64/121 at
  policy /10 to 26/121 at /14, with 53/57 paraphrases accepted before and
  after; /15 and /16 then took words from its failures, so its later
  figures are not blind;
- `held-out-2` (182 + 70, adds attribution, scope and temporal). Measured
  blind at /18: 63/182 false STRICT, 58/70 accepted; at the first rules of
  /19 (a claim's unstated parts, dropped scope, report words, ordinals and
  multiples): 31/182, 58/70. The rest of /19 was developed on it;
- `held-out-3` (168 + 90, adds modality). Only its totals were read while
  /19 and /20 were made: at /18 78/168 false STRICT and 74/90 accepted; at
  /20 35/168 and 71/90. Its author was asked for opposites such as
  widen/narrow and appreciate/depreciate that /20 then lists, so its
  direction and antonym rows flatter the rule. Its rejected paraphrases
  were listed once after /20; /21 (review fixes, not aimed at them): 34/168
  and 75/90. /22 then took classes from its failures (comparatives before
  "than", scaled and "per" units, reported speech, permission), so its
  later figures are not blind;
- `held-out-4` (140 + 80), written after /22 and measured once, blind: at
  /18 59/140 false STRICT and 64/80 accepted; at /22 29/140 and 64/80.
  /24 then took classes from its failures (swapped compared terms, "twice
  a day", fractions, causes and phrases as parts), so its later figures
  are not blind;
- `comparisons` (50 + 50), written for /24 to develop the reading of
  compared terms on: swapped terms and converse restatements in many
  forms ("higher in X than in Y", "twice as likely as", "Compared with
  B, A ..."). At /23 30/50 false STRICT and 26/50 accepted;
- `held-out-5` (140 + 80), written while /24-/25 were made and measured
  blind, totals only, five times: at /23 38/140 false STRICT and 70/80
  accepted; at /25 before its word-swap rule 31/140 and 68/80, after it
  (developed on the other sets) 22/140 and 67/80. Nothing was taken from
  its failures;
- `held-out-6` (140 + 80), written at the end of /25 and measured once,
  blind: at /24 26/140 false STRICT and 57/80 accepted, at /25 16/140 and
  57/80 (polarity checks off: 102/140 and 68/80); after fixes from a
  review of /25 (not aimed at it; totals looked at a second time) 15/140
  and 57/80. held-out-5 was 21/140 and 67/80 then; totals only, at /26:
  10/140 and 57/80 (held-out-5: 17/140 and 67/80);
- `dev-8` (140 + 60), written for /26 to develop on: roles, attribution,
  antonym, entity, temporal, scope and extra clauses, 20 each. At /25
  42/140 false STRICT and 56/60 accepted; /26 was made on it: 12/140 and
  56/60;
- `held-out-7` (140 + 80, the fourteen categories of held-out-6), written
  blind at the start of /26: at /25 25/140 false STRICT and 51/80 accepted
  (polarity checks off: 100/140 and 62/80); at the first rules of /26
  18/140 and 50/80. The one paraphrase lost ("stopped two penalties" read
  as a denial) was looked at and fixed; the totals were read after each
  later step of /26 (about eight times) and nothing else was taken from
  it: at /26 18/140 and 51/80. /27 took classes from its failures
  (above/below, "declined to", "threatened to", frequency words as
  qualifiers, a coordinated word; role sides past adverbs and with
  pronouns), so its later figures are not blind. dev-8 at /27: 7/140 and
  56/60 (converse verbs, "since" over an ended period, work in progress,
  "by the time").
- `dev-9` (140 + 60), written at the start of /27's second half to develop
  on: temporal, modality, quantifier, attribution, hedge, extra clauses
  and antonyms, 20 each. At /26 29/140 false STRICT and 50/60 accepted
  (polarity checks off: 111/140 and 56/60); /27 was made on it: 7/140 and
  54/60, then 15/140 and 54/60 after a review found 60 false alarms in 319
  faithful pairs written against its rules (able to, designed to,
  regularly, purposes, upstream/downstream); 13/140 and 54/60 at /27's end.
- `dev-10` (140 + 80, the fourteen categories, written to be adversarial),
  written late in /27 to develop on: at /26 33/140 false STRICT and 67/80
  accepted (polarity checks off: 96/140 and 73/80); after /27's earlier
  rules, before any were taken from it, 29/140 and 71/80; at /27 15/140
  and 71/80 (unchanged at its end);
- `held-out-8` (140 + 80, the fourteen categories), written blind at the
  start of /27 by a helper that saw no code and no other set, and kept out
  of this file until /27 was done: at /26 18/140 false STRICT and 66/80
  accepted (polarity checks off: 90/140 and 73/80); at /27 15/140 and
  66/80 (14/140 and 66/80 at /27's end, after held-out-9's rules). Only
  its totals were read, six times; the one paraphrase /27 lost on it
  ("Mount Kenya is lower than ...": a name read as a rise) was read and
  fixed in general;
- `held-out-9` (140 + 80, the fourteen categories), written blind at the
  start of /27's second session the same way: at /26 25/140 false STRICT
  and 48/80 accepted (polarity checks off: 87/140 and 60/80); at /27 as it
  stood then 22/140 and 48/80. Its failures were then read and rules made
  from them (6/140 and 55/80 after), so its later figures are not blind;
- `held-out-10` (140 + 80, the fourteen categories), written blind late in
  that session and kept out of this file until its rules were done; only
  its totals were read: at /26 16/140 false STRICT and 42/80 accepted, at
  the session's start 14/140 and 42/80, after its rules 11/140 and 43/80
  (polarity checks off: 83/140 and 46/80). Its failures were then read
  (units before a rate, "went up", ratify, outpaced/lagged, "claims it
  is": 7/140 and 43/80), so its later figures are not blind;
- `held-out-11` (140 + 80, the fourteen categories), written blind at the
  end of that session; only its totals were read first: at /26 11/140
  false STRICT and 35/80 accepted, at the session's start 8/140 and 36/80,
  after held-out-10's rules 7/140 and 36/80 (polarity checks off: 97/140
  and 54/80: the checks cost it 18 paraphrases). Its failures were then
  read (postpone, "a possible", "not ... at any point", ductile/brittle,
  two words for two, "will end" over "ended": 4/140 and 39/80).
- `held-out-12` (140 + 80, the fourteen categories), written blind at the
  start of /28 by a helper that saw no code and no other set; only its
  totals were read first: at /27 21/140 false STRICT and 36/80 accepted
  (polarity checks off: 104/140 and 51/80: the checks caught 80% of the
  reversals the overlap check passes and cost 15 paraphrases). /28 was
  then made from its failures (glued units, dozens, percentage points, a
  unit never named, a dropped rate, ask/maintain/hint, a modal under a
  report, a part made whole, "that" clauses, demonyms): 5/140 and 40/80,
  so its later figures are not blind.
- `held-out-13` (140 + 80, the fourteen categories), written blind later
  in /28 the same way: at /27 22/140 false STRICT and 34/80 accepted
  (polarity checks off: 89/140 and 53/80), at /28 as it stood then (after
  held-out-12's rules and a review's fixes) 17/140 and 34/80. Its failures
  were then read (ordinals, model letters, a rate per another thing,
  genuine/fake, deny that, call for, "a trend towards", "will run" over
  "ran", "one in ten" as a share): 9/140 and 38/80, so its later figures
  are not blind (37/80 after a review's fixes: most/majority parted).
- `held-out-14` (140 + 80, the fourteen categories), written blind late
  in /28: at /27 26/140 false STRICT and 29/80 accepted (polarity checks
  off: 96/140 and 46/80), at /28 as it stood then (after held-out-13's
  rules) 22/140 and 31/80. A few classes were then taken from its
  failures (antonyms such as costly/affordable and deep/shallow, a move
  from A to B read backwards, "once" as after): 15/140 and 32/80, so its
  later figures are not blind.
- `held-out-15` (140 + 80, the fourteen categories), written blind at the
  end of /28 and measured once, totals only, with nothing taken from it:
  at /27 16/140 false STRICT and 43/80 accepted, at /28 13/140 and 44/80
  (polarity checks off: 76/140 and 55/80).

`bench/data/pairs_names_amounts.jsonl` (run it with `--pairs`) holds three
sets of 60 + 60 written for /30 by helpers that saw no code: `dev-names-42`
and `dev-names-42b` (a claim's full name over a quote's short form; rejects
where the short form means someone or something else) and
`dev-quantities-42` (amounts of time, length and mass in other units;
rejects that state another amount). Each was measured blind once after its
rule was written, then developed on (figures in CHANGELOG.md, /30).

The baseline is the same cases with
the polarity checks switched off (`polarity_checks=False`), verified in
the same run; the rules outside `polarity` (number words, the replaced
first name) stay on in it.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from arborist.verify import Label, VerifierPolicy, verify_answer

PAIRS = Path(__file__).parent / "data" / "handwritten_pairs.jsonl"


def strict(row: dict[str, Any], policy: VerifierPolicy) -> tuple[bool, list[str]]:
    v = verify_answer(
        row["claim"], "claim_lattice", [{"id": "E1", "title": row["title"], "text": row["passage"]}],
        {"claims": [{"text": row["claim"], "evidence_ids": ["E1"], "quote": row["quote"]}], "abstained_requests": []},
        policy,
    )
    return v.label is Label.STRICT, [r.value for r in v.claims[0].reasons]


FIELDS = ("set", "category", "expected", "claim", "quote", "passage", "title")


def read_pairs(path: Path) -> list[dict[str, Any]]:
    """The pairs of a JSON Lines file; a file that cannot be read, or a line without the fields a pair needs,
    exits with one line naming the file and the line."""
    try:
        lines = path.read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise SystemExit(f"error: cannot read pairs file {path}: {exc}") from None
    rows = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SystemExit(f"error: {path}:{number}: not JSON ({exc.msg})") from None
        missing = [f for f in FIELDS if not isinstance(row, dict) or not isinstance(row.get(f), str)]
        if missing:
            raise SystemExit(f"error: {path}:{number}: a pair needs the text fields {', '.join(missing)}")
        rows.append(row)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show", action="store_true", help="print every pair the default policy gets wrong")
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--pairs", type=Path, default=PAIRS, help="pairs in this file's shape, reported by their 'set'")
    args = ap.parse_args()
    rows = read_pairs(args.pairs)
    policies = {"baseline (polarity checks off)": VerifierPolicy(polarity_checks=False), "default": VerifierPolicy()}
    figures: dict[str, Any] = {}
    for name in dict.fromkeys(r["set"] for r in rows):
        part = [r for r in rows if r["set"] == name]
        cats = list(dict.fromkeys(r["category"] for r in part))
        print(f"\n{name}: {len(part)} pairs. Cells: STRICT / pairs (reject rows: false STRICT; accept: right STRICT)")
        print("| category | pairs | " + " | ".join(policies) + " |")
        print("|---|---|" + "---|" * len(policies))
        counts: dict[str, Counter[str]] = {p: Counter() for p in policies}
        for row in part:
            for p, policy in policies.items():
                ok, reasons = strict(row, policy)
                counts[p][row["category"]] += ok
                if args.show and p == "default" and ok == (row["expected"] == "reject"):
                    print(f"  wrong [{row['category']}] {row['claim']} | {row['quote']} | {reasons}")
        n = Counter(r["category"] for r in part)
        for cat in cats:
            print(f"| {cat} | {n[cat]} | " + " | ".join(str(counts[p][cat]) for p in policies) + " |")
        rejects = sum(n[c] for c in cats if c != "accept")
        for p in policies:
            false = sum(counts[p][c] for c in cats if c != "accept")
            print(f"{p}: false STRICT {false}/{rejects}; accepted {counts[p]['accept']}/{n['accept']}")
        figures[name] = {p: dict(counts[p]) for p in policies} | {"pairs": dict(n)}
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
