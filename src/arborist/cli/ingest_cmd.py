"""`arborist ingest`."""

from __future__ import annotations

from pathlib import Path

import click
from pydantic import ValidationError

from arborist.cli.options import db_option, json_option, print_json
from arborist.cli.policy_options import policy_option
from arborist.corpus.chunking import ChunkingSettings
from arborist.errors import InputError
from arborist.governance.options import OPTIONS_BY_NAME
from arborist.ingest import ingest_paths
from arborist.progress import Reporter

PROGRESS_THRESHOLD = 200


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@db_option
@policy_option(OPTIONS_BY_NAME["chunk_runes"])
@policy_option(OPTIONS_BY_NAME["overlap_runes"])
@click.option("--no-embed", is_flag=True, help="Skip dense embeddings (the dense route is then unavailable).")
@click.option("--follow-symlinks", is_flag=True,
              help="Read links in a folder that lead out of it (skipped by default, and listed).")
@json_option
def ingest(
    paths: tuple[Path, ...], db: Path, chunk_runes: int, overlap_runes: int, no_embed: bool,
    follow_symlinks: bool, as_json: bool,
) -> None:
    """Add or update documents from PATHS in the store at --db.

    PATH is a folder (recursive .md/.txt; title = first heading or file name),
    a .json list of {"id"?, "title", "text"} objects, or a .jsonl file of them.
    In a folder, files that are not text (NUL bytes, not UTF-8), file names
    that are not UTF-8 and links leading out of the folder are skipped and
    listed on stderr; the rest is ingested.
    Re-ingesting unchanged input changes nothing; a document changed under the
    same id replaces its old chunks. Documents and chunks are written in one
    transaction; embeddings follow in batches, and only for chunks without one.
    """
    try:
        settings = ChunkingSettings(chunk_runes=chunk_runes, overlap_runes=overlap_runes)
    except ValidationError as exc:
        err = exc.errors()[0]
        option = f"--{str(err['loc'][0]).replace('_', '-')}: " if err["loc"] else ""
        raise InputError(option + err["msg"].removeprefix("Value error, ")) from None
    with Reporter() as reporter:
        shown = reporter.callback("ingest")

        def progress(phase: str, advance: int, total: int) -> None:
            if total >= PROGRESS_THRESHOLD:  # a small corpus is ingested before a bar would say anything
                shown(phase, advance, total)

        report, embedded = ingest_paths(db, list(paths), settings, embed=not no_embed, progress=progress,
                                        follow_symlinks=follow_symlinks)
    for path, reason in report.skipped:
        click.echo(f"skipped '{path}': {reason}", err=True)
    if as_json:
        print_json({**report.as_dict(), "embedded": embedded})
        return
    click.echo(
        f"{len(report.added)} added, {len(report.updated)} updated, {report.unchanged} unchanged"
        + (" (re-chunked every document: chunking settings changed)" if report.rechunked else "")
    )
    click.echo(f"store: {report.documents} documents, {report.chunks} chunks, {embedded} chunks embedded")
    click.echo(f"corpus digest: {report.corpus_digest}")
    if report.skipped:
        click.echo(f"{len(report.skipped)} file(s) skipped (listed above)")
