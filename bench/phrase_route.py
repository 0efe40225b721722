"""The phrase route on verbatim runs of SQuAD paragraphs: rank-1 rate and latency, at 856 and ~65k passages.

Usage: .venv/bin/python bench/phrase_route.py [--runs 50] [--scale 10] [--store PATH] [--routes phrase]

Questions: `--runs` random 6-word runs of the squad-single-hop paragraphs
(seed 42), cut from the text as written, so a comma or a full stop inside
a run stays in it; every other run is drawn to hold a comma. A run whose
windows hold fewer than two content words is redrawn (the route looks for
none; the count is printed). Corpus: the 856 paragraphs, plus, with
`--scale N`, the MuSiQue (1,890) and HotpotQA (994) passages and N copies
of the 2WikiMultihopQA passages (6,119 each, new ids): N=10 gives 64,930
passages. A run counts as found when its paragraph is the first result.
Latency is the library `search` call on an open store (index loaded), one
question at a time.

`--store PATH` keeps the ingested store for the next run (e.g. to measure
another checkout on the same store).
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from _common import percentile, require_shared_data
from arborist.corpus import ChunkingSettings, SourceDocument, open_store
from arborist.evaluation.importers.squad import import_squad
from arborist.retrieval import SearchSettings, search
from arborist.retrieval.analysis import QueryTerms


def corpus(data: Path, scale: int) -> tuple[list[SourceDocument], list[SourceDocument]]:
    """(the squad paragraphs, every document to ingest)."""
    paragraphs = list(import_squad(data / "squad-single-hop" / "dev-v1.1-13-articles.json").documents)
    if scale == 0:
        return paragraphs, paragraphs
    musique = json.loads((data / "musique" / "corpus.json").read_text())
    hotpot = json.loads((data / "hotpotqa" / "corpus.json").read_text())
    wiki = json.loads((data / "2wikimultihopqa-corpus" / "corpus.json").read_text())
    docs = [
        *paragraphs,
        *(SourceDocument.create(f"musique/{i}", d["title"], d["text"]) for i, d in enumerate(musique)),
        *(SourceDocument.create(f"hotpotqa/{t}", t, " ".join(s)) for t, s in hotpot.items()),
        *(SourceDocument.create(f"2wiki{c}/{i}", d["title"], d["text"]) for c in range(scale) for i, d in enumerate(wiki)),
    ]
    return paragraphs, docs


def draw_runs(paragraphs: list[SourceDocument], n: int) -> tuple[list[tuple[str, str]], int]:
    """(source id, run) pairs and how many draws were redrawn for want of content words."""
    rng = random.Random(42)
    runs: list[tuple[str, str]] = []
    redrawn = 0
    while len(runs) < n:
        doc = rng.choice(paragraphs)
        toks = doc.text.split()
        starts = list(range(len(toks) - 5))
        if len(runs) % 2 == 0:  # every other run holds a comma between its words
            starts = [s for s in starts if any(t.endswith(",") for t in toks[s : s + 5])]
        if not starts:
            continue
        s = rng.choice(starts)
        run = " ".join(toks[s : s + 6])
        terms = QueryTerms.of(run)
        if not terms.ngrams(6) and not terms.ngrams(5):
            redrawn += 1
            continue
        runs.append((doc.source_id, run))
    return runs, redrawn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--scale", type=int, default=10, help="2WikiMultihopQA copies (0: the squad paragraphs alone)")
    parser.add_argument("--store", type=Path, help="keep the store here (reused when present)")
    parser.add_argument("--routes", default="phrase")
    args = parser.parse_args()
    paragraphs, docs = corpus(require_shared_data(), args.scale)
    runs, redrawn = draw_runs(paragraphs, args.runs)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.store or Path(tmp) / "phrase.db"
        t0 = time.perf_counter()
        with open_store(db, create=True) as store:
            report = store.ingest(docs, ChunkingSettings())
        print(f"store: {report.documents:,} documents, {report.chunks:,} chunks ({time.perf_counter() - t0:.1f} s to ingest)")
        settings = SearchSettings(routes=tuple(args.routes.split(",")), k=10)
        with open_store(db) as store:
            search(store, "warm up the index", settings)
            found, commas, latencies, missed = 0, 0, [], []
            for source_id, run in runs:
                t0 = time.perf_counter()
                result = search(store, run, settings)
                latencies.append(time.perf_counter() - t0)
                commas += "," in run.rstrip(",")
                if result.results and result.results[0].source_id == source_id:
                    found += 1
                else:
                    missed.append(f"  missed: {run!r} ({source_id}); first: {result.results[0].source_id if result.results else None}")
    print(f"routes {args.routes}: {found}/{len(runs)} runs rank their paragraph first "
          f"({commas} runs hold a comma between words; {redrawn} draws redrawn for want of content words)")
    print(f"latency: p50 {percentile(latencies, 50) * 1000:.2f} ms, p90 {percentile(latencies, 90) * 1000:.2f} ms, "
          f"max {max(latencies) * 1000:.2f} ms")
    print("\n".join(missed[:10]))


if __name__ == "__main__":
    main()
