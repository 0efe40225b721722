"""Ingest = load + upsert chunks + embed the chunks that have no vector yet.

Chunks are committed first, vectors after in batches, so an interrupted
embed keeps what it finished and the next ingest embeds only the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from arborist import embedding
from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.loaders import load_inputs
from arborist.corpus.store import CorpusStore, IngestReport, open_store

EMBED_COMMIT_BATCH = 256

Progress = Callable[[str, int, int], None]  # (phase, advance, total)


def ingest_paths(
    db: Path,
    paths: list[Path],
    settings: ChunkingSettings,
    embed: bool = True,
    progress: Progress | None = None,
    follow_symlinks: bool = False,
) -> tuple[IngestReport, int]:
    """Ingest `paths` into the store at `db`; returns the report (with the files a folder's
    loader skipped) and the number of chunks embedded."""
    loaded = load_inputs(paths, follow_symlinks=follow_symlinks)
    docs = loaded.documents
    with open_store(db, create=True) as store:  # fails here, before any work, if it cannot be written
        report = store.ingest(
            docs, settings, progress=(lambda n: progress("chunking", n, len(docs))) if progress else None
        )
        report.skipped = [(s.path, s.reason) for s in loaded.skipped]
        if not embed:
            return report, 0
        return report, embed_missing(store, progress)


def embed_missing(store: CorpusStore, progress: Progress | None = None) -> int:
    """Embed every chunk without a vector, committing in batches; returns how many were stored.

    A chunk that a concurrent ingest replaced while it was being embedded
    gets no vector here (see `CorpusStore.put_vectors`); the next ingest
    embeds its successor.
    """
    missing = store.chunks_without_vectors(embedding.MODEL_ID)
    if not missing:
        return 0
    embedder = embedding.get_embedder()
    stored = 0
    for start in range(0, len(missing), EMBED_COMMIT_BATCH):
        part = missing[start : start + EMBED_COMMIT_BATCH]
        matrix = embedder.embed(
            [embedding.passage_text(title, text) for _, _, title, text in part],
            progress=(lambda n: progress("embedding", n, len(missing))) if progress else None,
        )
        stored += store.put_vectors(
            embedding.MODEL_ID, [(rowid, chunk_id, text) for rowid, chunk_id, _, text in part], matrix
        )
    return stored
