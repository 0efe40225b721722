"""Documents as they enter the corpus, and the digests that identify them.

The corpus digest covers only what the user supplied (source ids, titles,
normalised texts) so an importer can stamp it on an evaluation file before
anything is ingested, and chunking settings never change it.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

DOC_DIGEST_TAG = "arborist-doc/1"
CORPUS_DIGEST_TAG = "arborist-corpus/1"


def normalize_text(text: str) -> str:
    """NFC, unix newlines, no trailing spaces: equal documents hash equally."""
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")
    lines = [line.rstrip() for line in text.split("\n")]
    return "\n".join(lines).strip()


def normalize_title(title: str) -> str:
    return " ".join(unicodedata.normalize("NFC", title).split())


class SourceDocument(BaseModel):
    """One document as supplied: its caller-visible id, title and text (normalised)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source_id: str
    title: str
    text: str

    @classmethod
    def create(cls, source_id: str, title: str, text: str) -> SourceDocument:
        return cls(source_id=source_id, title=normalize_title(title), text=normalize_text(text))


def _sha256(*parts: str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()


def content_digest(title: str, text: str) -> str:
    """Digest of a document's content alone; used as source id when none is given."""
    return _sha256(DOC_DIGEST_TAG, normalize_title(title), normalize_text(text))


def document_id(doc: SourceDocument) -> str:
    """Stable, readable store id: changes exactly when source id, title or text change.

    The source id is part of it so two sources with identical text never
    collide on chunk ids (`<doc-id>#chunk-<n>`).
    """
    return "d" + _sha256(DOC_DIGEST_TAG, doc.source_id, doc.title, doc.text)[:15]


def corpus_digest(docs: Iterable[SourceDocument]) -> str:
    """Order-independent digest of a set of documents (ids, titles, texts)."""
    rows = sorted((d.source_id, d.title, d.text) for d in docs)
    h = hashlib.sha256(CORPUS_DIGEST_TAG.encode())
    for row in rows:
        h.update(json.dumps(row, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
        h.update(b"\n")
    return "sha256:" + h.hexdigest()
