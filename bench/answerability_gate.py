"""Can a word-overlap check tell, before the model is asked, that the admitted evidence does not answer?

Usage: .venv/bin/python bench/answerability_gate.py [--datasets squad,musique,hotpotqa] [--limit 300]
                                                    [--skip 0] [--work DIR] [--json FILE]

Issue 9 asks the engine to abstain when the evidence does not answer. The
1.5B model never does (0 of 27 squad questions asked without their gold
paragraph), so this bench measures the obvious deterministic gate, with no
model: the share of the question's content stems, weighted by their inverse
document frequency over the corpus's sentences, that the best single admitted
sentence holds ("coverage"). For each dataset (imported from ../shared/data)
and each question, it builds the default policy's admission twice:

- answerable: the default admission, kept only when a relevant source's chunk
  was admitted (the model had what it needed);
- withheld: every chunk of the question's relevant sources is removed from
  the ranked list before admission (the lab's `--withhold-relevant`), so the
  evidence cannot answer.

A gate "abstain when coverage < t" is worth having only if it fires on most
withheld questions and on almost no answerable ones. The table gives, per
threshold, the share gated on each side; a second table uses the best pair of
adjacent sentences (what a two-sentence answer needs), and a third gates on the
best sentence and the best two sentences anywhere at once (a two-hop answer's
sentences sit in two blocks). The baseline of the ratio is the same set's
answerable side, measured in the same run. `--skip 300` measures SQuAD's
questions 301-600, which no threshold was chosen on.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

from _common import dataset_names, import_dataset, require_shared_data
from arborist.answer.pipeline import ranked_chunks
from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.store import open_store
from arborist.evaluation.format import load_evaluation
from arborist.evidence.admission import EvidenceChunk, admit
from arborist.ingest import ingest_paths
from arborist.lab.treatments import relevant_sources
from arborist.policy.answer import build_policy
from arborist.retrieval.search import search
from arborist.text import sentences
from arborist.verify.normalize import content_stems

THRESHOLDS = (0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6)
WINDOWS = (1, 2)  # adjacent sentences: one, and two (what a two-sentence answer needs)
# Gates on two measures at once: abstain when the best sentence holds less than the first share and the best two
# sentences anywhere less than the second (1.01: the best sentence alone, today's Rule 13 at 0.4).
TWO_SENTENCE_GATES = ((0.4, 1.01), (0.45, 0.65), (0.5, 0.6), (0.5, 0.65), (0.5, 0.7))


def prepare(name: str, data: Path, work: Path) -> Path:
    out = import_dataset(name, data, work)
    db = out / "store.db"
    if not db.exists():
        ingest_paths(db, [out / "corpus.json"], ChunkingSettings())
    return out


class Idf:
    """Inverse document frequency of content stems over the corpus's sentences."""

    def __init__(self, texts: list[str]) -> None:
        self.df: Counter[str] = Counter()
        self.n = 0
        for text in texts:
            for sentence in sentences(text):
                self.n += 1
                self.df.update(content_stems(sentence))

    def __call__(self, stem: str) -> float:
        return math.log((self.n + 1) / (self.df.get(stem, 0) + 1))


ANYWHERE = 0  # the "window" key of the best two sentences anywhere in the admitted evidence


def coverage(question: str, chunks: list[EvidenceChunk], idf: Idf, windows: tuple[int, ...]) -> dict[int, float]:
    """Per window size: the largest idf-weighted share of the question's content stems held by that many
    adjacent sentences of one admitted chunk; under ANYWHERE, by any two sentences of any admitted chunks
    (what a two-hop answer needs)."""
    wanted = content_stems(question)
    total = sum(idf(s) for s in wanted)
    if not total:
        return dict.fromkeys((*windows, ANYWHERE), 1.0)
    best = dict.fromkeys((*windows, ANYWHERE), 0.0)
    held_sets: set[frozenset[str]] = set()
    for chunk in chunks:
        stems = [frozenset(content_stems(s) & wanted) for s in sentences(chunk.text)]
        held_sets.update(stems)
        for window in windows:
            for i in range(len(stems)):
                held = frozenset().union(*stems[i : i + window])
                best[window] = max(best[window], sum(idf(s) for s in held) / total)
    found = list(held_sets)
    best[ANYWHERE] = max([best[1]] + [sum(idf(s) for s in a | b) / total
                                      for k, a in enumerate(found) for b in found[k + 1 :]])
    return best


def measure(name: str, folder: Path, limit: int, skip: int = 0) -> dict[str, Any]:
    evaluation = load_evaluation(folder / "evaluation.json")
    corpus = json.loads((folder / "corpus.json").read_text(encoding="utf-8"))
    idf = Idf([d["text"] for d in corpus])
    policy = build_policy(model_id="none:no-model")  # retrieval and admission only; no model is asked
    sides: dict[str, list[dict[int, float]]] = {"answerable": [], "withheld": []}
    with open_store(folder / "store.db") as store:
        for question in evaluation.questions[skip : skip + limit]:
            relevant = relevant_sources(question)
            ranked = ranked_chunks(search(store, question.question, policy.search))
            full = admit(ranked, policy.evidence_k, policy.context_runes).admitted
            held = admit([c for c in ranked if c.source_id not in relevant], policy.evidence_k,
                         policy.context_runes).admitted
            measured = [("withheld", held)]
            if any(c.source_id in relevant for c in full):
                measured.append(("answerable", full))
            for side, chunks in measured:
                sides[side].append(coverage(question.question, chunks, idf, WINDOWS))
    asked = len(evaluation.questions[skip : skip + limit])
    result: dict[str, Any] = {"dataset": name, "questions": asked, "skipped": skip, "windows": {}}
    answerable, withheld = sides["answerable"], sides["withheld"]
    for window in WINDOWS:
        a, w = [c[window] for c in answerable], [c[window] for c in withheld]
        rows = [{"threshold": t, "answerable_gated": sum(x < t for x in a) / len(a),
                 "withheld_gated": sum(x < t for x in w) / len(w)} for t in THRESHOLDS]
        result["windows"][window] = {"answerable": len(a), "withheld": len(w), "rows": rows}

    def gated(values: list[dict[int, float]], one: float, two: float) -> float:
        return sum(c[1] < one and c[ANYWHERE] < two for c in values) / len(values)

    result["two_sentence_gates"] = [
        {"sentence_below": one, "two_below": two, "answerable_gated": gated(answerable, one, two),
         "withheld_gated": gated(withheld, one, two)} for one, two in TWO_SENTENCE_GATES]
    return result


def show(result: dict[str, Any]) -> None:
    for window, r in result["windows"].items():
        what = "best sentence" if window == 1 else "best two adjacent sentences"
        after = f" after the first {result['skipped']}" if result.get("skipped") else ""
        print(f"\n## {result['dataset']} ({result['questions']} questions{after}), {what}: answerable {r['answerable']} "
              f"(a relevant source admitted), withheld {r['withheld']}")
        print("| gate: abstain when coverage < | answerable gated | withheld gated |\n|---|---|---|")
        for row in r["rows"]:
            print(f"| {row['threshold']} | {row['answerable_gated']:.3f} | {row['withheld_gated']:.3f} |")

    print(f"\n## {result['dataset']}: abstain when the best sentence AND the best two sentences anywhere hold less")
    print("| best sentence < | best two < | answerable gated | withheld gated |\n|---|---|---|---|")
    for row in result["two_sentence_gates"]:
        two = "-" if row["two_below"] > 1 else row["two_below"]
        print(f"| {row['sentence_below']} | {two} | {row['answerable_gated']:.3f} | {row['withheld_gated']:.3f} |")

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default="squad,musique,hotpotqa")
    ap.add_argument("--limit", type=int, default=300, help="questions per dataset (the first N of its file)")
    ap.add_argument("--skip", type=int, default=0, help="leave out the first N questions of each file (--skip 300: "
                    "the SQuAD questions the 0.4 threshold was not chosen on)")
    ap.add_argument("--work", type=Path, default=Path("/tmp/arborist-answerability-gate"))
    ap.add_argument("--json", type=Path, help="write the figures here")
    args = ap.parse_args()
    data = require_shared_data()
    names = dataset_names(args.datasets)
    results = []
    for name in names:
        result = measure(name, prepare(name, data, args.work), args.limit, args.skip)
        show(result)
        results.append(result)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
