"""Helpers shared by the benchmark scripts (not part of the package)."""

from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def require_shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        sys.exit(f"skipped: {SHARED_DATA} is absent (evaluation data is not shipped with arborist)")
    return SHARED_DATA


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    idx = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[idx]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def summary(latencies: list[float]) -> str:
    return f"p50 {ms(percentile(latencies, 50))}, p95 {ms(percentile(latencies, 95))}, mean {ms(statistics.fmean(latencies))}"


# The development sets in ../shared/data: name -> (questions file, corpus file or None).
DATASETS = {
    "squad": ("squad-single-hop/dev-v1.1-13-articles.json", None),
    "musique": ("musique/questions.json", "musique/corpus.json"),
    "hotpotqa": ("hotpotqa/questions.json", "hotpotqa/corpus.json"),
}


def arborist_cli(*args: str) -> None:
    exe = Path(sys.executable).parent / "arborist"
    subprocess.run([str(exe), *args], check=True, stdout=subprocess.DEVNULL)


def prepare_set(name: str, data: Path, work: Path, embed: bool = True) -> tuple[Path, Path, Path]:
    """Import and ingest one development set under `work` (reused when present): (db, evaluation, corpus)."""
    questions, corpus = DATASETS[name]
    out = work / name
    if not (out / "evaluation.json").exists():
        extra = ["--corpus", str(data / corpus)] if corpus else []
        arborist_cli("datasets", "import", name, "--questions", str(data / questions), *extra, "--out", str(out))
    db = out / "store.db"
    arborist_cli("ingest", str(out / "corpus.json"), "--db", str(db), *([] if embed else ["--no-embed"]))
    return db, out / "evaluation.json", out / "corpus.json"


def bm25s_ranked(corpus_path: Path, questions: list[str], k: int) -> list[list[str]]:
    """bm25s (English stopwords, Snowball stemmer, title + text: the setup of ../shared/data/README.md):
    the top `k` source ids per question, over the same passages arborist ingested."""
    import bm25s
    import Stemmer

    from arborist.corpus.loaders import load_documents

    docs = load_documents([corpus_path])
    stemmer = Stemmer.Stemmer("english")
    retriever = bm25s.BM25()
    retriever.index(
        bm25s.tokenize([f"{d.title} {d.text}" for d in docs], stopwords="en", stemmer=stemmer, show_progress=False),
        show_progress=False,
    )
    tokens = bm25s.tokenize(questions, stopwords="en", stemmer=stemmer, show_progress=False)
    idx, _ = retriever.retrieve(tokens, k=k, show_progress=False)
    return [[docs[i].source_id for i in row] for row in idx]
