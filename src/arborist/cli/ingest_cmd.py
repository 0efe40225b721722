"""`arborist ingest`."""

from __future__ import annotations

from pathlib import Path

import click
from pydantic import ValidationError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from arborist.cli.options import db_option, json_option, print_json
from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.loaders import load_documents
from arborist.corpus.store import open_store
from arborist.errors import InputError

PROGRESS_THRESHOLD = 200


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@db_option
@click.option("--chunk-runes", default=1200, show_default=True, help="Maximum chunk length in runes (code points).")
@click.option("--overlap-runes", default=120, show_default=True, help="Runes shared by consecutive chunks.")
@json_option
def ingest(paths: tuple[Path, ...], db: Path, chunk_runes: int, overlap_runes: int, as_json: bool) -> None:
    """Add or update documents from PATHS in the store at --db.

    PATH is a folder (recursive .md/.txt; title = first heading or file name),
    a .json list of {"id"?, "title", "text"} objects, or a .jsonl file of them.
    Re-ingesting unchanged input changes nothing; a document changed under the
    same id replaces its old chunks. The whole ingest is one transaction.
    """
    try:
        settings = ChunkingSettings(chunk_runes=chunk_runes, overlap_runes=overlap_runes)
    except ValidationError as exc:
        raise InputError(exc.errors()[0]["msg"].removeprefix("Value error, ")) from None
    docs = load_documents(list(paths))
    console = Console(stderr=True)
    with open_store(db, create=True) as store:
        show = len(docs) >= PROGRESS_THRESHOLD and console.is_terminal and not as_json
        with Progress(
            TextColumn("ingesting"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
            console=console, disable=not show, transient=True,
        ) as bar:
            task = bar.add_task("ingest", total=len(docs))
            report = store.ingest(docs, settings, progress=lambda n: bar.advance(task, n))
    if as_json:
        print_json(report.as_dict())
        return
    click.echo(
        f"{len(report.added)} added, {len(report.updated)} updated, {report.unchanged} unchanged"
        + (" (re-chunked every document: chunking settings changed)" if report.rechunked else "")
    )
    click.echo(f"store: {report.documents} documents, {report.chunks} chunks")
    click.echo(f"corpus digest: {report.corpus_digest}")
