"""Read user inputs (folders, .json, .jsonl) into SourceDocuments.

Everything is parsed and checked before the store is touched, so a malformed
input fails the whole ingest with one message and writes nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from arborist.corpus.documents import SourceDocument, content_digest
from arborist.errors import InputError

TEXT_SUFFIXES = (".md", ".markdown", ".txt")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")  # a BOM must not hide the first heading
    except UnicodeDecodeError as exc:
        raise InputError(
            f"'{path}' is not UTF-8 text (invalid byte at position {exc.start}); "
            "convert it to UTF-8 or remove it"
        ) from None
    except OSError as exc:
        raise InputError(f"cannot read '{path}': {exc.strerror or exc}") from None


_SETEXT_RULE = re.compile(r"^\s{0,3}(=+|-+)\s*$")


def title_of(text: str, fallback: str) -> str:
    """The first Markdown heading (ATX `# Title` or setext `Title` over `===`), else `fallback`."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        m = _HEADING.match(line)
        if m:
            return m.group(1)
        if i + 1 < len(lines) and _SETEXT_RULE.match(lines[i + 1]):
            return line.strip()
        break
    return fallback


def _from_folder(root: Path) -> Iterator[SourceDocument]:
    files = sorted(
        p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in TEXT_SUFFIXES
    )
    if not files:
        raise InputError(
            f"folder '{root}' holds no {', '.join(TEXT_SUFFIXES)} files to ingest"
        )
    for path in files:
        text = _read_text(path)
        rel = path.relative_to(root).as_posix()
        yield SourceDocument.create(rel, title_of(text, path.stem), text)


def _record_to_doc(obj: Any, where: str) -> SourceDocument:
    if not isinstance(obj, dict):
        raise InputError(f"{where}: expected an object with 'title' and 'text', got {type(obj).__name__}")
    unknown = set(obj) - {"id", "title", "text"}
    if "text" not in obj:
        raise InputError(f"{where}: object has no 'text' field (keys: {sorted(obj)})")
    text, title = obj["text"], obj.get("title", "")
    if not isinstance(text, str):
        raise InputError(f"{where}: 'text' must be a string, got {type(text).__name__}")
    if not isinstance(title, str):
        raise InputError(f"{where}: 'title' must be a string, got {type(title).__name__}")
    del unknown  # extra fields (e.g. dataset metadata) are allowed and ignored
    doc_id = obj.get("id")
    if doc_id is not None and not (isinstance(doc_id, str) and doc_id.strip()):
        raise InputError(f"{where}: 'id' must be a non-empty string, got {doc_id!r}")
    source_id = doc_id if doc_id is not None else "sha256:" + content_digest(title, text)[:16]
    return SourceDocument.create(source_id, title, text)


def _from_json(path: Path) -> Iterator[SourceDocument]:
    raw = _read_text(path)
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"'{path}' is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    if not isinstance(data, list):
        raise InputError(
            f"'{path}' must hold a JSON list of {{\"id\"?, \"title\", \"text\"}} objects, "
            f"got {type(data).__name__}"
        )
    for i, obj in enumerate(data):
        yield _record_to_doc(obj, f"'{path}' item {i}")


def _from_jsonl(path: Path) -> Iterator[SourceDocument]:
    raw = _read_text(path)
    for lineno, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"'{path}' line {lineno} is not valid JSON: {exc.msg} at column {exc.colno}"
            ) from None
        yield _record_to_doc(obj, f"'{path}' line {lineno}")


def load_documents(paths: list[Path]) -> list[SourceDocument]:
    """All documents under `paths`, checked: no duplicate source ids, no broken files.

    Documents without an id whose content repeats an earlier one are dropped
    (their id is their content digest, so they are the same document).
    """
    docs: dict[str, SourceDocument] = {}
    origin: dict[str, str] = {}
    for path in paths:
        if not path.exists():
            raise InputError(f"path '{path}' does not exist")
        if path.is_dir():
            it = _from_folder(path)
        elif path.suffix.lower() == ".json":
            it = _from_json(path)
        elif path.suffix.lower() == ".jsonl":
            it = _from_jsonl(path)
        elif path.suffix.lower() in TEXT_SUFFIXES:
            text = _read_text(path)
            it = iter([SourceDocument.create(path.name, title_of(text, path.stem), text)])
        else:
            raise InputError(
                f"cannot ingest '{path}': expected a folder, .json, .jsonl, .md or .txt file"
            )
        for doc in it:
            prev = docs.get(doc.source_id)
            if prev is not None:
                if doc.source_id.startswith("sha256:") and prev == doc:
                    continue
                raise InputError(
                    f"duplicate document id {doc.source_id!r} (in '{path}' and '{origin[doc.source_id]}')"
                )
            if not doc.text:
                raise InputError(f"document '{doc.source_id}' in '{path}' has empty text")
            docs[doc.source_id] = doc
            origin[doc.source_id] = str(path)
    return list(docs.values())
