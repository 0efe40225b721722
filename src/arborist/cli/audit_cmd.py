"""`arborist audit ...`: read and verify the hash-chained audit log of a store."""

from __future__ import annotations

import re
from pathlib import Path

import click

from arborist.cli.options import db_option, json_option, print_json
from arborist.corpus.store import open_store
from arborist.governance.audit import ChainReport, list_events, verify_chain

BROKEN_CHAIN_EXIT = 4
_HEAD = re.compile(r"(?:sha256:)?[0-9a-f]{64}")


def _head_option(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not _HEAD.fullmatch(value.strip().lower()):
        raise click.BadParameter("expected a head hash as printed by `arborist audit head` (sha256:<64 hex digits>)")
    return value


@click.group()
def audit() -> None:
    """The append-only audit log: one hash-chained event per answer."""


def _broken_lines(report: ChainReport) -> list[str]:
    out = [f"store schema ALTERED: {p}" for p in report.schema_problems]
    b = report.first_broken
    e = report.expected_head
    if b is not None:
        out.append(f"audit chain BROKEN at event {b.seq} ({b.event_id}): {b.problem}")
    elif e is not None and not e.found:
        out.append(f"audit chain does NOT hold the expected head {e.hash}: events were removed from its end, "
                   "or it was rewritten from some event on")
    if report.schema_problems:
        out.append("the append-only triggers and the schema are not what arborist's migrations make: the store was "
                   "written outside arborist, and an intact-looking chain proves nothing")
    return out


@audit.command("verify")
@db_option
@click.option("--expect-head", default=None, callback=_head_option, metavar="HASH",
              help="A head hash kept outside the store (`arborist audit head`); the chain must still hold it.")
@json_option
def verify(db: Path, expect_head: str | None, as_json: bool) -> None:
    """Walk the chain and name the first broken link; compare the schema (the append-only
    triggers among it) with what the migrations create and name each difference.

    With --expect-head, also check that the chain still holds a head you kept
    elsewhere: truncation and forward rewrites (which leave a valid-looking
    chain) then fail. Events appended since that head are counted, so you
    can review them with `arborist audit log`.

    Exit status: 0 intact, 4 broken (1 is an error such as a missing store).
    """
    with open_store(db) as store:
        report = verify_chain(store.db, expect_head)
    if as_json:
        print_json(report.model_dump())
    else:
        broken = _broken_lines(report)
        if broken:
            click.echo("\n".join(broken))
        else:
            click.echo(f"audit chain intact: {report.events} events, head {report.head_hash}")
            e = report.expected_head
            if e is not None:
                click.echo(f"expected head found at event {e.seq}; {e.events_after} event(s) appended since")
    if not report.ok:
        raise click.exceptions.Exit(BROKEN_CHAIN_EXIT)


@audit.command("head")
@db_option
@json_option
def head(db: Path, as_json: bool) -> None:
    """Print the head hash of the verified chain, to keep outside the store.

    Pass it back later with `arborist audit verify --expect-head HASH`.
    A broken chain has no head worth keeping: exit 4.
    """
    with open_store(db) as store:
        report = verify_chain(store.db)
    if as_json:
        print_json({"head_hash": report.head_hash, "events": report.events, "ok": report.ok})
    elif report.ok:
        click.echo(report.head_hash)
    else:
        click.echo("\n".join(_broken_lines(report)))
    if not report.ok:
        raise click.exceptions.Exit(BROKEN_CHAIN_EXIT)


@audit.command("log")
@db_option
@click.option("--last", "limit", type=click.IntRange(1), default=None, help="Only the newest N events.")
@json_option
def log(db: Path, limit: int | None, as_json: bool) -> None:
    """List audit events, oldest first; an unreadable or edited event is listed as BROKEN."""
    with open_store(db) as store:
        events = list_events(store.db, limit)
    if as_json:
        print_json([e.model_dump() for e in events])
        return
    for e in events:
        b = e.body
        if b is None:
            click.echo(f"{e.seq:>5}  BROKEN: {e.problem}  {e.hash[:23]}…")
            continue
        flag = f"  BROKEN: {e.problem}" if e.problem else ""
        click.echo(
            f"{e.seq:>5}  {b.get('at', '')}  {b.get('kind', '')}  {b.get('label') or '-':<10} "
            f"{b.get('contract', '')}  {'cache' if b.get('cache_hit') else 'fresh'}  {e.hash[:23]}…{flag}"
        )
    if any(e.problem for e in events):
        click.echo("Warning: some events are broken; run `arborist audit verify` for the first broken link", err=True)
