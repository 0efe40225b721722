"""`arborist info`: what a store holds."""

from __future__ import annotations

from pathlib import Path

import click

from arborist.cli.options import db_option, json_option, print_json
from arborist.corpus.store import open_store


@click.command("info")
@db_option
@json_option
def info(db: Path, as_json: bool) -> None:
    """Documents, chunks, digest, schema version and chunking settings of --db."""
    with open_store(db) as store:
        data = store.info()
    if as_json:
        print_json(data)
        return
    for key, value in data.items():
        click.echo(f"{key}: {value}")
