"""Corpus layer: documents, chunks and the SQLite/FTS5 store.

Imports nothing from the layers above it (retrieval, answering, CLI, lab).
"""

from arborist.corpus.chunking import Chunk, ChunkingSettings, chunk_text
from arborist.corpus.documents import SourceDocument, corpus_digest, document_id
from arborist.corpus.store import CorpusStore, open_store

__all__ = [
    "Chunk",
    "ChunkingSettings",
    "CorpusStore",
    "SourceDocument",
    "chunk_text",
    "corpus_digest",
    "document_id",
    "open_store",
]
