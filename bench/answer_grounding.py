"""Labels you can bet on: answer the demo, SQuAD and multi-hop questions, with and without their gold.

Usage:
  .venv/bin/python bench/answer_grounding.py --records FILE.jsonl [--n 30] [--sets demo squad squad-unanswerable] [--reuse OLD.jsonl]
                                             [--set quote_schema=sentences] [--profile qwen2.5-1.5b]
  .venv/bin/python bench/answer_grounding.py --from-records FILE.jsonl [FILE.jsonl ...] [--verifier reanchor_quotes=false]

Three sets, each answered with the default policy (plus any `--set KEY=VALUE`
policy overrides, values read as JSON):

- demo: the demo corpus's own questions (src/arborist/demo/questions.jsonl);
  the three with no gold answer count as unanswerable;
- squad: N SQuAD v1.1 questions (../shared/data/squad-single-hop), seeded,
  one per paragraph, chosen among those whose gold answer occurs in no other
  paragraph (so leaving the gold paragraph out really removes the answer);
- squad-unanswerable: the same N questions, each asked of a store that holds
  every article except its gold one (not only the gold paragraph: another
  paragraph of the same article often answers it);
- hotpotqa, musique: N multi-hop questions each (../shared/data), seeded, among
  those whose gold answer occurs in no document but their gold ones;
  `-unanswerable`: the same N, each asked of a store without its gold documents.

Per set it prints the verifier label against "right": the answer contains
the gold (the lenient string match of bench/answer_quality.py on what the
answer asserts) or states every number of a gold that has some (see
`right`), the
abstention rate, contract validity, citation agreement (claims whose quote is
found in the block they cite, among claims with a quote; a re-anchored claim is
a miscitation), STRICT rate and
mean latency. `--from-records` re-verifies stored records under the current
verifier (no model call), so a verifier change is measured on the very same
answers: the records are the baseline, their stored labels the "before".
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sqlite3
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import numpy as np

from _common import overrides, require_shared_data, verifier_policy
from arborist.answer.pipeline import answer_question
from arborist.answer.record import AnswerRecord
from arborist.answer.verification import corpus_weights, verify_record
from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.store import open_store
from arborist.entailment import spec_for
from arborist.evaluation.importers import import_dataset
from arborist.ingest import ingest_paths
from arborist.lab.diagnosis import answer_text, contains_gold
from arborist.models.local import LocalProvider
from arborist.policy.answer import build_policy, governance_policy_hash
from arborist.verify import Label, Reason
from arborist.verify.normalize import tokenise

DEMO = Path(__file__).resolve().parents[1] / "src" / "arborist" / "demo"
MULTIHOP = {"hotpotqa": ("hotpotqa/questions.json", "hotpotqa/corpus.json"),
            "musique": ("musique/questions.json", "musique/corpus.json")}
SETS = ("demo", "squad", "squad-unanswerable", *(f"{m}{tail}" for m in MULTIHOP for tail in ("", "-unanswerable")))


def squad_questions(n: int, seed: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(corpus documents, N questions with their gold paragraph id), chosen as the module says."""
    data = require_shared_data() / "squad-single-hop" / "dev-v1.1-13-articles.json"
    top = json.loads(data.read_text(encoding="utf-8"))
    docs, candidates = [], []
    for article in top["data"]:
        for p, para in enumerate(article["paragraphs"]):
            doc_id = f"{article['title']}#{p}"
            docs.append({"id": doc_id, "title": article["title"], "text": para["context"]})
            for qa in para["qas"]:
                answers = list(dict.fromkeys(a["text"] for a in qa["answers"]))
                candidates.append({"id": qa["id"], "question": qa["question"], "answers": answers, "gold": doc_id})
    texts = {d["id"]: d["text"].casefold() for d in docs}
    unique = [q for q in candidates
              if not any(a.casefold() in t for a in q["answers"] for i, t in texts.items() if i != q["gold"])]
    rng = random.Random(seed)
    rng.shuffle(unique)
    chosen, paragraphs = [], set()
    for q in unique:
        if q["gold"] not in paragraphs:
            chosen.append(q)
            paragraphs.add(q["gold"])
        if len(chosen) == n:
            break
    return docs, chosen


def multihop_questions(name: str, n: int, seed: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(corpus documents, N questions with their gold source ids) of a multi-hop set, read by the project's own
    importer, seeded, chosen among questions none of whose golds occurs in a document outside their gold ones
    (so leaving the gold documents out really removes the answer; this also drops most yes/no comparisons)."""
    questions, corpus = MULTIHOP[name]
    data = require_shared_data()
    imported = import_dataset(name, data / questions, data / corpus)
    docs = [{"id": d.source_id, "title": d.title, "text": d.text} for d in imported.documents]
    texts = {d["id"]: d["text"].casefold() for d in docs}
    unique = [{"id": q.id, "question": q.question, "answers": list(q.answers), "gold": list(q.relevant_source_ids)}
              for q in imported.evaluation.questions if q.answers and q.relevant_source_ids
              and not any(a.casefold() in t for a in q.answers for i, t in texts.items()
                          if i not in q.relevant_source_ids)]
    random.Random(seed).shuffle(unique)
    return docs, unique[:n]


def fresh(db: Path) -> Path:
    """`db`, removed if a previous run left it: ingesting adds documents, so a reused `--out` folder would keep
    the article a withheld-article store must not hold."""
    for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        path.unlink(missing_ok=True)
    return db


def build_store(work: Path, name: str, docs: list[dict[str, Any]], vectors_from: Path | None = None) -> Path:
    """A store of `docs`; with `vectors_from`, a store holding the same chunks (content-addressed ids), its
    vectors are copied rather than computed again (a withheld-article store is the full one less an article)."""
    corpus = work / f"{name}.json"
    corpus.write_text(json.dumps(docs), encoding="utf-8")
    db = fresh(work / f"{name}.db")
    ingest_paths(db, [corpus], ChunkingSettings(), embed=vectors_from is None)
    if vectors_from is not None:
        with closing(sqlite3.connect(f"file:{vectors_from}?mode=ro", uri=True)) as src:
            known = {(cid, model): vec for cid, model, vec in src.execute(
                "SELECT c.chunk_id, v.model, v.vec FROM vectors v JOIN chunks c ON c.id = v.chunk_rowid")}
        with open_store(db) as store:
            for model in {m for _, m in known}:
                rows = [(rowid, cid, text) for rowid, cid, _, text in store.chunks_without_vectors(model)
                        if (cid, model) in known]
                if rows:
                    matrix = np.stack([np.frombuffer(known[(cid, model)], np.float32) for _, cid, _ in rows])
                    store.put_vectors(model, rows, matrix)
    return db


def plan(sets: list[str], n: int, seed: int, work: Path) -> list[tuple[str, Path, list[dict[str, Any]]]]:
    """(set name, store, questions) for every requested set."""
    out = []
    if "demo" in sets:
        db = fresh(work / "demo.db")
        ingest_paths(db, [DEMO / "corpus"], ChunkingSettings())
        rows = [json.loads(line) for line in (DEMO / "questions.jsonl").read_text().splitlines() if line.strip()]
        out.append(("demo", db, [{"id": r["id"], "question": r["question"], "answers": r["answers"]} for r in rows]))
    if "squad" in sets or "squad-unanswerable" in sets:
        docs, questions = squad_questions(n, seed)
        full = build_store(work, "squad", docs)
        if "squad" in sets:
            out.append(("squad", full, questions))
        if "squad-unanswerable" in sets:
            titles = {d["id"]: d["title"] for d in docs}
            by_article: dict[str, list[dict[str, Any]]] = defaultdict(list)
            for q in questions:
                by_article[titles[q["gold"]]].append({**q, "answers": []})
            for k, (title, asked) in enumerate(sorted(by_article.items())):
                kept = [d for d in docs if d["title"] != title]
                out.append(("squad-unanswerable", build_store(work, f"squad-without-{k}", kept, full), asked))
    for name in MULTIHOP:
        if name not in sets and f"{name}-unanswerable" not in sets:
            continue
        docs, questions = multihop_questions(name, n, seed)
        full = build_store(work, name, docs)
        if name in sets:
            out.append((name, full, questions))
        if f"{name}-unanswerable" in sets:
            # every question asked of a store without its gold documents (one store each: golds differ)
            for k, q in enumerate(questions):
                kept = [d for d in docs if d["id"] not in q["gold"]]
                out.append((f"{name}-unanswerable", build_store(work, f"{name}-without-{k}", kept, full),
                            [{**q, "answers": []}]))
    return out


def asserted(record: AnswerRecord) -> str:
    """What the answer asserts: its claims, or its quotes in quote mode (nothing when it did not parse)."""
    return answer_text(record.contract.answer)


def right(record: AnswerRecord, golds: list[str]) -> bool:
    """`contains_gold`, or, for a gold that holds numbers (the demo's "within 14 days of the first
    charge"), the answer states every one of them ("14 days"): the demo's golds are whole phrases that
    a correct short answer rarely repeats word for word."""
    text = asserted(record)
    if contains_gold(text, golds):
        return True
    stated = {t.norm for t in tokenise(text) if t.number}
    for gold in golds:
        numbers = {t.norm for t in tokenise(gold) if t.number}
        if numbers and numbers <= stated:
            return True
    return False


def stored_records(path: Path) -> Iterator[tuple[dict[str, Any], AnswerRecord]]:
    """(line, its answer record) for every line of a file `--records` wrote."""
    for line in path.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        yield item, AnswerRecord.model_validate(item["record"])


def abstained(record: AnswerRecord) -> bool:
    v = record.verification
    return v is not None and v.label is Label.ABSTAINED


def report(name: str, rows: list[tuple[dict[str, Any], AnswerRecord]]) -> None:
    answerable = [(q, r) for q, r in rows if q["answers"]]
    unanswerable = [(q, r) for q, r in rows if not q["answers"]]
    print(f"\n### {name}: {len(rows)} questions ({len(answerable)} answerable, {len(unanswerable)} unanswerable)")
    if answerable:
        table: dict[str, Counter[bool]] = defaultdict(Counter)
        for q, r in answerable:
            assert r.verification is not None
            table[r.verification.label.value][right(r, q["answers"])] += 1
        print("| label | right | wrong |")
        print("|---|---|---|")
        for label in ("STRICT", "HYBRID", "UNGROUNDED", "ABSTAINED"):
            print(f"| {label} | {table[label][True]} | {table[label][False]} |")
        strict, gold = table["STRICT"], sum(t[True] for t in table.values())
        n_strict = strict[True] + strict[False]
        print(f"STRICT answers that are right: {strict[True]}/{n_strict}"
              + (f" = {strict[True] / n_strict:.0%}" if n_strict else "")
              + f"; right answers that are STRICT: {strict[True]}/{gold}"
              + (f" = {strict[True] / gold:.0%}" if gold else ""))
    if unanswerable:
        labels = Counter(r.verification.label.value for _, r in unanswerable if r.verification)
        n = len(unanswerable)
        print(f"unanswerable: abstained {labels['ABSTAINED']}/{n}, STRICT {labels['STRICT']}/{n}; labels {dict(labels)}")
    valid = sum(r.contract.valid for _, r in rows)
    quoted = [c for _, r in rows if r.verification for c in r.verification.claims if c.checks.quote is not None]
    moved = sum(bool(c.reanchored_from) for c in quoted)
    agree = sum(bool(c.checks.quote and c.checks.quote.passed) for c in quoted) - moved
    miscited = sum(Reason.QUOTE_IN_UNCITED_EVIDENCE in c.reasons for c in quoted) + moved
    strict_all = sum(bool(r.verification and r.verification.label is Label.STRICT) for _, r in rows)
    latency = statistics.fmean(r.timings.get("total", 0.0) for _, r in rows) if rows else float("nan")
    print(f"contract-valid {valid}/{len(rows)}; citation agreement {agree}/{len(quoted)} claims "
          f"(miscited {miscited}, re-anchored {moved}); STRICT {strict_all}/{len(rows)}; mean latency {latency:.1f} s")


@contextlib.contextmanager
def timed(into: dict[str, float], name: str) -> Iterator[None]:
    t = time.perf_counter()
    yield
    into[name] = time.perf_counter() - t


def cost_report(name: str, costs: list[dict[str, Any]]) -> None:
    """What the judge adds to a query: the median time of a query (answer + verification with the judge) against
    the median extra time verification with the judge takes over the rules alone (fresh answers only: a
    reused answer's generation time is not this run's)."""
    fresh = [c for c in costs if c["fresh"]]
    if not fresh:
        return
    query = statistics.median(c["query_s"] for c in fresh)
    extra = statistics.median(max(0.0, c["verify_s"] - c["verify_rules_s"]) for c in fresh)
    mean_extra = statistics.fmean(max(0.0, c["verify_s"] - c["verify_rules_s"]) for c in fresh)
    print(f"judge cost ({name}, {len(fresh)} fresh answers): median query {query:.1f} s; the judge adds median "
          f"{extra:.2f} s ({extra / query:.1%}), mean {mean_extra:.2f} s ({mean_extra / query:.1%})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", nargs="+", choices=SETS, default=list(SETS))
    ap.add_argument("--n", type=int, default=30,
                    help="questions per SQuAD or multi-hop set (the same N with and without the gold)")
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--profile", default="qwen2.5-1.5b")
    ap.add_argument("--set", dest="sets_policy", action="append", default=[], metavar="KEY=VALUE",
                    help="answer-policy override, e.g. quote_schema=sentences (repeatable)")
    ap.add_argument("--verifier", dest="verifier_policy", action="append", default=[], metavar="KEY=VALUE",
                    help="verifier-policy override, e.g. reanchor_quotes=false (repeatable)")
    ap.add_argument("--entailment", choices=("none", "local"), default="none",
                    help="verify with the shipped entailment judge (local) or the rules alone (none)")
    ap.add_argument("--records", type=Path, help="append every answer record here (JSONL)")
    ap.add_argument("--from-records", type=Path, nargs="+", help="re-verify stored records; no model call")
    ap.add_argument("--out", type=Path, help="work folder for the stores (default: a temporary one)")
    ap.add_argument("--reuse", type=Path, nargs="+", default=[],
                    help="stored records to take an answer from instead of asking again: same set, question, "
                    "store contents (corpus digest) and governance policy; re-verified under the current verifier")
    args = ap.parse_args()
    verifier = verifier_policy(ap, args.verifier_policy, entailment=spec_for(args.entailment))
    grouped: dict[str, list[tuple[dict[str, Any], AnswerRecord]]] = defaultdict(list)
    if args.from_records:
        # the stores are rebuilt (no model) so that Rule 13 weighs each question's words over its own corpus
        work = args.out or Path(tempfile.mkdtemp(prefix="arborist-grounding-"))
        work.mkdir(parents=True, exist_ok=True)
        records = [(path, item, stored) for path in args.from_records for item, stored in stored_records(path)]
        with contextlib.ExitStack() as opened:
            stores = {(name, q["id"]): opened.enter_context(open_store(db))
                      for name, db, asked in plan(sorted({item["set"] for _, item, _ in records}), args.n, args.seed,
                                                  work) for q in asked}
            for path, item, stored in records:
                grouped[f"{item['set']} ({path.name}, stored labels)"].append((item["q"], stored))
                weights = corpus_weights(stores[(item["set"], item["q"]["id"])], stored.question)
                grouped[f"{item['set']} ({path.name}, current verifier)"].append(
                    (item["q"], verify_record(stored, verifier, weights)))
        for name in sorted(grouped):
            report(name, grouped[name])
        return
    work = args.out or Path(tempfile.mkdtemp(prefix="arborist-grounding-"))
    work.mkdir(parents=True, exist_ok=True)
    provider = LocalProvider(args.profile)
    policy = build_policy(model_id=f"local:{provider.model_id}", **overrides(args.sets_policy))
    rules_only = verifier.model_copy(update={"entailment": None})
    cost: dict[str, list[dict[str, Any]]] = defaultdict(list)
    reusable: dict[tuple[str, str, str, str], AnswerRecord] = {}
    for path in args.reuse:
        for item, stored in stored_records(path):
            reusable[(item["set"], item["q"]["id"], stored.corpus_digest, stored.governance_policy_hash)] = stored
    for name, db, questions in plan(args.sets, args.n, args.seed, work):
        with open_store(db) as store:
            done = len(grouped[name])  # the set's questions answered from its earlier stores
            digest, governance = store.digest(), governance_policy_hash(policy)
            for i, q in enumerate(questions, 1):
                old = reusable.get((name, q["id"], digest, governance))
                answered = old if old is not None else answer_question(store, q["question"], policy, provider)
                weights = corpus_weights(store, q["question"])
                costs = {}
                with timed(costs, "verify_rules_s"):
                    rules = verify_record(answered, rules_only, weights)
                with timed(costs, "verify_s"):  # the judge's cache is cold for a new answer
                    record = verify_record(answered, verifier, weights)
                assert record.verification is not None and rules.verification is not None
                grouped[name].append((q, record))
                cost[name].append({**costs, "query_s": record.timings.get("total", 0.0) + costs["verify_s"],
                                   "fresh": old is None})
                print(f"{name} {done + i} {q['id']}: {record.verification.label.value} "
                      f"(rules only {rules.verification.label.value}) "
                      f"right={right(record, q['answers']) if q['answers'] else '-'} "
                      f"{record.timings.get('total', 0):.1f} s + verify {costs['verify_s']:.1f} s", flush=True)
                if args.records:
                    with args.records.open("a", encoding="utf-8") as fh:
                        fh.write(json.dumps({"set": name, "q": q, "policy_overrides": args.sets_policy,
                                             "costs": costs, "record": record.model_dump(mode="json")}) + "\n")
    for name in grouped:
        report(name, grouped[name])
        cost_report(name, cost[name])


if __name__ == "__main__":
    main()
