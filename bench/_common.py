"""Helpers shared by the benchmark scripts (not part of the package)."""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from arborist.verify import PolicyError, VerifierPolicy

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


def dataset_names(text: str) -> list[str]:
    """The development sets named in a comma-separated --datasets value; an unknown name exits with the valid ones."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in DATASETS]
    if unknown:
        sys.exit(f"unknown dataset(s) {', '.join(unknown)}; valid: {', '.join(DATASETS)}")
    return names


def import_dataset(name: str, data: Path, work: Path) -> Path:
    """`arborist lab import-dataset` of one development set into work/data/<name> (once): its folder."""
    questions, corpus = DATASETS[name]
    out = work / "data" / name
    if not (out / "evaluation.json").exists():
        extra = ["--dataset-corpus", str(data / corpus)] if corpus else []
        arborist_cli("lab", "import-dataset", name, "--questions", str(data / questions), *extra, "--out", str(out))
    return out


def arborist_cli(*args: str) -> None:
    exe = Path(sys.executable).parent / "arborist"
    subprocess.run([str(exe), *args], check=True, stdout=subprocess.DEVNULL)


def cli_json(cmd: list[str], what: str) -> tuple[float, dict[str, Any]]:
    """Run an arborist command that prints --json (echoed to stderr first): (wall seconds, its output).
    A failure exits the bench with `what` and the tail of the command's stderr."""
    print(f"$ {' '.join(cmd)}", file=sys.stderr, flush=True)
    start = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"{what} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return wall, json.loads(done.stdout)


def prepare_set(name: str, data: Path, work: Path, embed: bool = True) -> tuple[Path, Path, Path]:
    """Import and ingest one development set under `work` (reused when present): (db, evaluation, corpus)."""
    questions, corpus = DATASETS[name]
    out = work / name
    if not (out / "evaluation.json").exists():
        extra = ["--dataset-corpus", str(data / corpus)] if corpus else []
        arborist_cli("lab", "import-dataset", name, "--questions", str(data / questions), *extra, "--out", str(out))
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


def overrides(pairs: list[str]) -> dict[str, Any]:
    """KEY=VALUE pairs (a dotted KEY nests; VALUE read as JSON, else as a string) as keyword arguments."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, _, raw = pair.partition("=")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        node = out
        *parents, leaf = key.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return out


def verifier_policy(ap: argparse.ArgumentParser, pairs: list[str], **fixed: Any) -> VerifierPolicy:
    """The verifier policy of `--verifier KEY=VALUE` pairs (`overrides`) and `fixed` fields; a bad one exits through
    `ap.error` with the one line that names it."""
    try:
        return VerifierPolicy(**{**overrides(pairs), **fixed})
    except PolicyError as exc:
        ap.error(f"--verifier: {exc}")
