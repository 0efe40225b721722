"""Read user inputs (folders, .json, .jsonl) into SourceDocuments.

Everything is parsed and checked before the store is touched, so a malformed
input fails the whole ingest with one message and writes nothing.

A folder is the exception that proves it: what a folder happens to hold is not
all the user's choice, so inside one, a file that is not text (NUL bytes, not
UTF-8), a file name that is not UTF-8, and a symbolic link leading out of the
folder are skipped and named (`Loaded.skipped`) while the rest is read. A link
out of the folder is never followed unless asked (`follow_symlinks`): a
`passwd.md -> /etc/passwd` must not put that file into prompts that may go to
a remote server. A file named on the command line is read as asked, and fails
loudly if it is not text.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arborist.corpus.documents import SourceDocument, content_digest
from arborist.errors import InputError, nested_too_deeply

TEXT_SUFFIXES = (".md", ".markdown", ".txt")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")


@dataclass(frozen=True)
class Skipped:
    """A file in a folder that was not read, and why (`path` is relative to the folder, printable)."""

    path: str
    reason: str


@dataclass
class Loaded:
    """Documents read from the inputs, and the files inside folders that were skipped."""

    documents: list[SourceDocument]
    skipped: list[Skipped] = field(default_factory=list)


class _NotText(Exception):
    """A file whose bytes are not text; the message says why."""


def _decode(data: bytes) -> str:
    """The file's text, or _NotText: NUL bytes mean binary even when they are valid UTF-8."""
    nul = data.find(b"\x00")
    if nul >= 0:
        raise _NotText(f"binary, not text (holds NUL bytes, the first at byte {nul})")
    try:
        return data.decode("utf-8-sig")  # a BOM must not hide the first heading
    except UnicodeDecodeError as exc:
        raise _NotText(f"not UTF-8 text (invalid byte at position {exc.start})") from None


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read '{path}': {exc.strerror or exc}") from None
    try:
        return _decode(data)
    except _NotText as exc:
        raise InputError(f"'{path}' is {exc}; convert it to UTF-8 text or remove it") from None


def printable_name(name: str) -> str:
    """A file name as it can be shown: bytes that are not UTF-8 (surrogate escapes) as \\xNN."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _is_utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


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


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _outside(target: str) -> str:
    return f"link to '{printable_name(target)}', outside the folder (not followed; --follow-symlinks reads it)"


def _folder_files(root: Path, follow_symlinks: bool, skipped: list[Skipped]) -> list[tuple[str, Path]]:
    """(relative name, path) of the text files under `root`, sorted; what is left out goes to `skipped`.

    Links are resolved before they are read: one leading out of the folder
    is skipped unless `follow_symlinks`; a link to a folder inside it is not
    walked (its files are read where they are); a folder outside is walked
    once however many links lead to it, so loops end.
    """
    real_root = os.path.realpath(root)
    found: list[tuple[str, Path]] = []
    seen_dirs = {real_root}

    def walk(folder: Path, rel: str) -> None:
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            skipped.append(Skipped(printable_name(rel or "."), f"cannot read folder: {exc.strerror or exc}"))
            return
        for entry in entries:
            name = rel + entry.name
            shown = printable_name(name)
            if not _is_utf8(entry.name):
                if entry.is_dir() or Path(entry.name).suffix.lower() in TEXT_SUFFIXES:
                    skipped.append(Skipped(shown, "file name is not UTF-8; rename it"))
                continue
            is_link = entry.is_symlink()
            target = os.path.realpath(entry.path) if is_link else entry.path
            if entry.is_dir():
                if is_link:
                    if _inside(target, real_root):
                        continue  # a link within the folder: its files are read where they are
                    if not follow_symlinks:
                        skipped.append(Skipped(shown + "/", _outside(target)))
                        continue
                    if target in seen_dirs:
                        continue  # a loop, or a folder outside already walked
                    seen_dirs.add(target)
                walk(Path(entry.path), name + "/")
                continue
            if Path(entry.name).suffix.lower() not in TEXT_SUFFIXES:
                continue
            if is_link:
                if not os.path.exists(target):
                    skipped.append(Skipped(shown, f"broken link (to '{target}')"))
                    continue
                if not _inside(target, real_root) and not follow_symlinks:
                    skipped.append(Skipped(shown, _outside(target)))
                    continue
            if entry.is_file():
                found.append((name, Path(entry.path)))

    walk(root, "")
    return found


def _from_folder(root: Path, follow_symlinks: bool, skipped: list[Skipped]) -> list[SourceDocument]:
    before = len(skipped)
    files = _folder_files(root, follow_symlinks, skipped)
    docs = []
    for rel, path in files:
        try:
            data = path.read_bytes()
            text = _decode(data)
        except OSError as exc:
            skipped.append(Skipped(rel, f"cannot read: {exc.strerror or exc}"))
            continue
        except _NotText as exc:
            skipped.append(Skipped(rel, str(exc)))
            continue
        docs.append(SourceDocument.create(rel, title_of(text, path.stem), text))
    if not docs:
        passed = skipped[before:]
        raise InputError(
            f"folder '{root}' holds no {', '.join(TEXT_SUFFIXES)} files to ingest"
            + (f" ({len(passed)} skipped: " + "; ".join(f"'{s.path}': {s.reason}" for s in passed[:3])
               + (" …" if len(passed) > 3 else "") + ")" if passed else "")
        )
    return docs


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
    except RecursionError:
        raise nested_too_deeply(f"'{path}'") from None
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
        except RecursionError:
            raise nested_too_deeply(f"'{path}' line {lineno}") from None
        yield _record_to_doc(obj, f"'{path}' line {lineno}")


def load_inputs(paths: list[Path], follow_symlinks: bool = False) -> Loaded:
    """All documents under `paths`, checked: no duplicate source ids, no broken files.

    Documents without an id whose content repeats an earlier one are dropped
    (their id is their content digest, so they are the same document). Files
    inside folders that cannot be read as text, or lie outside the folder
    behind a link, are skipped and listed (see the module docstring).
    """
    docs: dict[str, SourceDocument] = {}
    origin: dict[str, str] = {}
    skipped: list[Skipped] = []
    for path in paths:
        if not path.exists():
            raise InputError(f"path '{path}' does not exist")
        if path.is_dir():
            it = iter(_from_folder(path, follow_symlinks, skipped))
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
    return Loaded(list(docs.values()), skipped)


def load_documents(paths: list[Path]) -> list[SourceDocument]:
    """All documents under `paths`, where a skipped file is an error: for callers that must read
    exactly what they were given (an experiment's corpus, `ask`'s one document)."""
    loaded = load_inputs(paths)
    if loaded.skipped:
        first = loaded.skipped[0]
        more = f" (and {len(loaded.skipped) - 1} more)" if len(loaded.skipped) > 1 else ""
        raise InputError(f"cannot read '{first.path}' in {', '.join(map(str, paths))}: {first.reason}{more}")
    return loaded.documents
