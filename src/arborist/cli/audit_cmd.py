"""`arborist audit ...`: read and verify the hash-chained audit log of a store."""

from __future__ import annotations

from pathlib import Path

import click

from arborist.cli.options import db_option, json_option, print_json
from arborist.corpus.store import open_store
from arborist.governance.audit import list_events, verify_chain

BROKEN_CHAIN_EXIT = 4


@click.group()
def audit() -> None:
    """The append-only audit log: one hash-chained event per answer."""


@audit.command("verify")
@db_option
@json_option
def verify(db: Path, as_json: bool) -> None:
    """Walk the chain and name the first broken link.

    Exit status: 0 intact, 4 broken (1 is an error such as a missing store).
    """
    with open_store(db) as store:
        report = verify_chain(store.db)
    if as_json:
        print_json(report.model_dump())
    elif report.ok:
        click.echo(f"audit chain intact: {report.events} events, head {report.head_hash}")
    else:
        b = report.first_broken
        assert b is not None
        click.echo(f"audit chain BROKEN at event {b.seq} ({b.event_id}): {b.problem}")
    if not report.ok:
        raise click.exceptions.Exit(BROKEN_CHAIN_EXIT)


@audit.command("log")
@db_option
@click.option("--limit", type=click.IntRange(1), default=None, help="Only the newest N events.")
@json_option
def log(db: Path, limit: int | None, as_json: bool) -> None:
    """List audit events, oldest first."""
    with open_store(db) as store:
        events = list_events(store.db, limit)
    if as_json:
        print_json([e.model_dump() for e in events])
        return
    for e in events:
        b = e.body
        click.echo(
            f"{e.seq:>5}  {b.get('at', '')}  {b.get('kind', '')}  {b.get('label') or '-':<10} "
            f"{b.get('contract', '')}  {'cache' if b.get('cache_hit') else 'fresh'}  {e.hash[:23]}…"
        )
