"""Answer repairs, every arm in one run: none, snap, revise, all (`--repair` of `query`).

Usage:
  .venv/bin/python bench/answer_repair.py [--sets demo squad musique squad-unanswerable] [--n 30]
                                          [--records FILE.jsonl] [--reuse FILE.jsonl] [--entailment local]

Each question is answered once under `repair none` (the default model, the shipped judge); the other arms are
that same first answer repaired: `snap` (quotes snapped, claims re-attributed: no model call), `revise` (one
revision turn fed the verifier's findings) and `all` (both). So the arms differ only by what the repairs did,
and a revision costs only its new tokens (llama.cpp keeps the evaluated prompt).

The sets are bench/answer_grounding.py's: the demo's 24 questions, N SQuAD questions (one per paragraph,
gold unique to its paragraph), N MuSiQue questions, and the same N SQuAD questions asked of a store without
their gold article (`squad-unanswerable`: nothing answers them). Per arm and set it prints gold in answer,
right answers that are STRICT, STRICT answers that are right, STRICT answers resting on a judged claim (and
answers held to HYBRID for one, which `--judged-claims strict` would make STRICT), ABSTAINED
and STRICT on the withheld set, claims per answer, answer length, model calls per answer, median and p90
latency; then, for each arm against `none`,
the paired difference per question with the lab's bootstrap interval (lab.stats, as `lab compare` computes it).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any, cast

from _common import percentile
from answer_grounding import abstained, asserted, plan, right
from arborist.answer.pipeline import answer_question
from arborist.answer.record import AnswerRecord
from arborist.answer.repair import Reverifier, repair_claims, revise
from arborist.answer.verification import corpus_weights, verify_record
from arborist.corpus.store import open_store
from arborist.entailment import spec_for
from arborist.lab.stats import bootstrap_mean
from arborist.models.base import Completion
from arborist.models.local import LocalProvider
from arborist.policy.answer import build_policy, governance_policy_hash
from arborist.verify import Label, Reason, VerifierPolicy

ARMS = ("none", "snap", "revise", "all")
SETS = ("demo", "squad", "musique", "squad-unanswerable")


def arms(record: AnswerRecord, provider: Any, verifier: VerifierPolicy,
         weights: dict[str, float] | None, earlier: dict[str, AnswerRecord] | None = None) -> dict[str, AnswerRecord]:
    """The first answer (verified) and its three repairs. `earlier`: a reused question's arms, whose revisions are
    replayed where the same request is sent again (temperature 0: the model would answer the same)."""
    earlier = earlier or {}
    first = verify_record(record, verifier, weights)
    snapped = repair_claims(first, Reverifier(first, verifier, weights))
    revised = revise(first, _Replay(provider, earlier.get("revise"), earlier.get("all")),
                     Reverifier(first, verifier, weights), snap=False)
    # Nothing snapped: `all` sends the very request `revise` sent, so the model is asked once and only the snapping
    # of the revision can differ.
    both = revise(snapped, _Replay(provider, revised, earlier.get("all"), earlier.get("revise")),
                  Reverifier(snapped, verifier, weights), snap=True)
    return {"none": first, "snap": snapped, "revise": revised, "all": both}


class _Replay:
    """A revision already received, given again for the very same request (no model call); the model asked
    otherwise."""

    def __init__(self, provider: Any, *records: AnswerRecord | None) -> None:
        self.provider = provider
        self.known = [(r.prompt.messages, a.messages_added, a.completion)
                      for r in records if r is not None for a in r.attempts if a.kind == "revision"]

    def complete(self, messages: Any, settings: Any, json_schema: Any = None) -> Completion:
        for prompt, added, completion in self.known:
            if list(messages) == [*prompt, *added]:
                return completion
        return cast(Completion, self.provider.complete(messages, settings, json_schema=json_schema))


def latency(first: AnswerRecord, arm: AnswerRecord) -> float:
    """The first answer's time plus the model time of the arm's revision, if it made one."""
    extra = sum(a.completion.timings.get("generate_s", 0.0) for a in arm.attempts if a.kind == "revision")
    return first.timings.get("total", 0.0) + extra


def calls(arm: AnswerRecord) -> int:
    return 1 + sum(a.kind == "revision" for a in arm.attempts)


def claims(record: AnswerRecord) -> int:
    return record.verification.n_claims if record.verification else 0


def label(record: AnswerRecord) -> Label | None:
    return record.verification.label if record.verification else None


def held(record: AnswerRecord) -> bool:
    """HYBRID only because a claim rests on the judge (`judged_claims hybrid`): STRICT under `strict`."""
    v = record.verification
    return v is not None and v.label is Label.HYBRID and Reason.JUDGED_SUPPORT in v.reasons


def measures(rows: list[dict[str, Any]], arm: str) -> dict[str, Any]:
    answerable = [r for r in rows if r["q"]["answers"]]
    withheld = [r for r in rows if not r["q"]["answers"]]
    rights = [r for r in answerable if right(r[arm], r["q"]["answers"])]
    strict = [r for r in answerable if label(r[arm]) is Label.STRICT]
    lat = [latency(r["none"], r[arm]) for r in rows]
    return {
        "n": len(rows), "answerable": len(answerable), "gold": len(rights),
        "right_strict": sum(label(r[arm]) is Label.STRICT for r in rights),
        "strict": len(strict), "strict_right": sum(right(r[arm], r["q"]["answers"]) for r in strict),
        "strict_judged": sum(r[arm].verification is not None and r[arm].verification.basis == "judged" for r in strict),
        "held": sum(held(r[arm]) for r in answerable),
        "held_right": sum(held(r[arm]) for r in rights),
        "withheld": len(withheld), "withheld_abstained": sum(abstained(r[arm]) for r in withheld),
        "withheld_strict": sum(label(r[arm]) is Label.STRICT for r in withheld),
        "claims": statistics.fmean(claims(r[arm]) for r in rows) if rows else 0.0,
        "length": statistics.fmean(len(asserted(r[arm])) for r in rows) if rows else 0.0,
        "calls": statistics.fmean(calls(r[arm]) for r in rows) if rows else 0.0,
        "median_s": statistics.median(lat) if lat else 0.0, "p90_s": percentile(lat, 90) if lat else 0.0,
    }


def ratio(a: int, b: int) -> str:
    return f"{a}/{b} = {a / b:.0%}" if b else f"{a}/{b}"


def table(name: str, rows: list[dict[str, Any]]) -> None:
    print(f"\n### {name}: {len(rows)} questions")
    print("| arm | gold in answer | right answers STRICT | STRICT right | STRICT judged | HYBRID for a judged claim "
          "(right) | withheld ABSTAINED | withheld STRICT | claims/answer | answer chars | model calls | median s "
          "| p90 s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for arm in ARMS:
        m = measures(rows, arm)
        print(f"| {arm} | {m['gold']}/{m['answerable']} | {ratio(m['right_strict'], m['gold'])} "
              f"| {ratio(m['strict_right'], m['strict'])} | {m['strict_judged']}/{m['strict']} "
              f"| {m['held']} ({m['held_right']}) "
              f"| {m['withheld_abstained']}/{m['withheld']} "
              f"| {m['withheld_strict']}/{m['withheld']} | {m['claims']:.2f} | {m['length']:.0f} "
              f"| {m['calls']:.2f} | {m['median_s']:.1f} | {m['p90_s']:.1f} |")


PAIRED: dict[str, Any] = {
    "gold in answer": lambda r, a: float(bool(r["q"]["answers"]) and right(r[a], r["q"]["answers"])),
    "STRICT and right": lambda r, a: float(bool(r["q"]["answers"]) and label(r[a]) is Label.STRICT
                                           and right(r[a], r["q"]["answers"])),
    "STRICT and wrong": lambda r, a: float(label(r[a]) is Label.STRICT and not (
        r["q"]["answers"] and right(r[a], r["q"]["answers"]))),
    "claims": lambda r, a: float(claims(r[a])),
    "answer chars": lambda r, a: float(len(asserted(r[a]))),
}


def paired(name: str, rows: list[dict[str, Any]]) -> None:
    print(f"\npaired against none ({name}, {len(rows)} questions; mean difference per question, 95% bootstrap "
          "interval, seed 42):")
    print("| arm | " + " | ".join(PAIRED) + " |")
    print("|---|" + "---|" * len(PAIRED))
    for arm in ARMS[1:]:
        cells = []
        for f in PAIRED.values():
            diffs = [f(r, arm) - f(r, "none") for r in rows]
            ci = bootstrap_mean(diffs)
            mean = statistics.fmean(diffs) if diffs else 0.0
            cells.append(f"{mean:+.3f} [{ci.low:+.3f}, {ci.high:+.3f}]" if ci else f"{mean:+.3f}")
        print(f"| {arm} | " + " | ".join(cells) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", nargs="+", choices=SETS, default=list(SETS))
    ap.add_argument("--n", type=int, default=30, help="questions per SQuAD or MuSiQue set")
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--profile", default="qwen2.5-1.5b")
    ap.add_argument("--entailment", choices=("none", "local"), default="local")
    ap.add_argument("--records", type=Path, help="append each question's first answer and arms here (JSONL)")
    ap.add_argument("--from-records", type=Path, help="report a --records file; no model call")
    ap.add_argument("--out", type=Path, help="work folder for the stores (default: a temporary one)")
    ap.add_argument("--reuse", type=Path, nargs="*", default=[],
                    help="--records files to take each question's first answer from (same set, question and policy) "
                    "instead of asking the model again; the repairs are made afresh, a revision whose request is the "
                    "very one recorded replayed from the record (later files win)")
    args = ap.parse_args()
    grouped: dict[str, list[dict[str, Any]]] = defaultdict(list)
    if args.from_records:
        for item, _ in ((json.loads(line), None) for line in args.from_records.read_text().splitlines() if line):
            grouped[item["set"]].append({"q": item["q"], **{a: AnswerRecord.model_validate(item[a]) for a in ARMS}})
    else:
        verifier = VerifierPolicy(entailment=spec_for(args.entailment))
        work = args.out or Path(tempfile.mkdtemp(prefix="arborist-repair-"))
        work.mkdir(parents=True, exist_ok=True)
        provider = LocalProvider(args.profile)
        policy = build_policy(model_id=f"local:{provider.model_id}", repair="none")
        reusable = {(item["set"], item["q"]["id"], item["policy"]): item
                    for path in args.reuse for item in map(json.loads, path.read_text().splitlines()) if item}
        for name, db, questions in plan(args.sets, args.n, args.seed, work):
            with open_store(db) as store:
                for q in questions:
                    old = reusable.get((name, q["id"], governance_policy_hash(policy)))
                    earlier = {a: AnswerRecord.model_validate(old[a]) for a in ARMS} if old else {}
                    first = earlier["none"] if old else answer_question(store, q["question"], policy, provider)
                    row = {"q": q, **arms(first, provider, verifier, corpus_weights(store, q["question"]), earlier)}
                    grouped[name].append(row)
                    print(f"{name} {len(grouped[name])} {q['id']}: " + ", ".join(
                        f"{a} {label(row[a])}{'+' if q['answers'] and right(row[a], q['answers']) else ''}"
                        for a in ARMS) + f" ({first.timings.get('total', 0):.0f} s)", flush=True)
                    if args.records:
                        with args.records.open("a", encoding="utf-8") as fh:
                            fh.write(json.dumps({"set": name, "q": q, "policy": governance_policy_hash(policy),
                                                 **{a: row[a].model_dump(mode="json") for a in ARMS}}) + "\n")
    for name, rows in grouped.items():
        table(name, rows)
    chosen = [r for name in ("demo", "squad") for r in grouped.get(name, [])]
    if chosen:
        table("demo + squad (the default is chosen on these)", chosen)
    everything = [r for rows in grouped.values() for r in rows]
    paired("every set", everything)
    for name in ("musique", "squad-unanswerable"):
        if grouped.get(name):
            paired(name, grouped[name])


if __name__ == "__main__":
    main()
