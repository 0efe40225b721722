"""Turn public QA datasets into a corpus file plus an evaluation bound to it.

An importer reads a dataset's own files, and returns the documents that
`arborist ingest DIR/corpus.json` will store and an `arborist-evaluation/1`
file whose `corpus_digest` is computed from exactly those documents, so the
binding is known before anything is ingested. Everything is parsed and
checked before a byte is written; a malformed file fails with one line that
names the file, the item (0-based, as in the JSON array) and the field.

Choices per format (each made so that gold ids are exact, not guessed) are
documented in the format's module: `musique`, `hotpotqa`, `squad`.

Modules: `_json` reads and checks the JSON files, `_assembly` holds the
result types and binds questions to documents by digest, one module per
format parses it, and this package holds the registry and the writing.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from arborist.corpus.documents import SourceDocument
from arborist.errors import InputError
from arborist.evaluation.format import write_evaluation
from arborist.evaluation.importers._assembly import DatasetImport, WrittenImport
from arborist.evaluation.importers._json import read_json as read_json
from arborist.evaluation.importers.hotpotqa import import_hotpotqa
from arborist.evaluation.importers.hotpotqa import sentence_joiner as sentence_joiner
from arborist.evaluation.importers.musique import import_musique
from arborist.evaluation.importers.musique import passage_id as passage_id
from arborist.evaluation.importers.squad import import_squad

CORPUS_FILE = "corpus.json"
EVALUATION_FILE = "evaluation.json"


# -- registry --------------------------------------------------------------

Importer = Callable[[Path, Path | None], DatasetImport]

#: The formats `arborist lab import-dataset` accepts; the CLI's choices come from here.
IMPORTERS: dict[str, Importer] = {
    "musique": import_musique,
    "hotpotqa": import_hotpotqa,
    "squad": import_squad,
}


def import_dataset(fmt: str, questions_path: Path, corpus_path: Path | None = None) -> DatasetImport:
    try:
        importer = IMPORTERS[fmt]
    except KeyError:
        raise InputError(f"unknown dataset format {fmt!r}; choose one of {', '.join(sorted(IMPORTERS))}") from None
    return importer(questions_path, corpus_path)


# -- writing ---------------------------------------------------------------
# write_import stays here: it looks up write_evaluation in this module's
# namespace, which is what callers (and the tests) patch.


def _corpus_json(docs: Iterable[SourceDocument]) -> str:
    rows = [{"id": d.source_id, "title": d.title, "text": d.text} for d in docs]
    return json.dumps(rows, ensure_ascii=False, indent=1) + "\n"


def _stage(out_dir: Path, name: str, write: Callable[[Path], object]) -> Path:
    """Write to a temp file beside the target, so os.replace can publish it whole."""
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=out_dir)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        write(tmp_path)
        os.chmod(tmp_path, 0o644)  # mkstemp makes 0600; these are ordinary shareable files
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise
    return tmp_path


def _prepare_out_dir(out_dir: Path, targets: Iterable[Path], force: bool) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(f"--out '{out_dir}' exists and is not a folder")
    if not force:
        for target in targets:
            if target.exists():
                raise InputError(f"'{target}' already exists; pass --force to overwrite it")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create --out folder '{out_dir}': {exc.strerror or exc}") from None


def write_import(result: DatasetImport, out_dir: Path, force: bool = False) -> WrittenImport:
    """Write DIR/corpus.json and DIR/evaluation.json, each atomically.

    Both are fully written to temp files before either replaces anything, and
    the evaluation is published last, so an evaluation.json on disk always
    has its corpus.json beside it.
    """
    written = WrittenImport(out_dir / CORPUS_FILE, out_dir / EVALUATION_FILE)
    _prepare_out_dir(out_dir, (written.evaluation_path, written.corpus_path), force)
    corpus_text = _corpus_json(result.documents)
    staged: list[Path] = []
    try:
        staged.append(_stage(out_dir, CORPUS_FILE, lambda p: p.write_text(corpus_text, encoding="utf-8")))
        staged.append(_stage(out_dir, EVALUATION_FILE, lambda p: write_evaluation(result.evaluation, p)))
    except BaseException:
        for path in staged:
            path.unlink(missing_ok=True)
        raise
    os.replace(staged[0], written.corpus_path)
    os.replace(staged[1], written.evaluation_path)
    return written
