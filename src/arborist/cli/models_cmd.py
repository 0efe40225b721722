"""`arborist models ...`: list the local model profiles and prepare their weights."""

from __future__ import annotations

import time

import click

from arborist.cli.options import json_option, print_json
from arborist.models import profiles


def _row(prof: profiles.Profile) -> dict[str, object]:
    return {
        "profile": prof.name,
        "default": prof.name == profiles.DEFAULT_PROFILE,
        "description": prof.description,
        "size": prof.size,
        "sha256": prof.sha256,
        "status": (state := profiles.status(prof)),
        "ready": state == "ready",
        "path": str(prof.path),
    }


@click.group()
def models() -> None:
    """Local model profiles: what exists, and fetching/assembling their weights."""


@models.command("list")
@json_option
def list_cmd(as_json: bool) -> None:
    """Profiles with their size, status (ready / unverified / wrong-size / missing) and path."""
    if as_json:
        print_json([_row(p) for p in profiles.PROFILES.values()])
        return
    for prof in profiles.PROFILES.values():
        mark = " (default)" if prof.name == profiles.DEFAULT_PROFILE else ""
        click.echo(f"{prof.name}{mark}  {prof.size / 1e6:,.0f} MB  {profiles.status(prof)}  {prof.path}")
        click.echo(f"    {prof.description}")


@models.command("prepare")
@click.argument("profile", required=False, default=profiles.DEFAULT_PROFILE)
@json_option
def prepare_cmd(profile: str, as_json: bool) -> None:
    """Download, assemble and verify PROFILE's weights (default: the default profile).

    Safe to run again: a verified file is left alone. Progress goes to stderr.
    """
    prof = profiles.get_profile(profile)
    start = time.monotonic()
    path = profiles.prepare(prof, progress=lambda msg: click.echo(msg, err=True))
    elapsed = time.monotonic() - start
    if as_json:
        row = _row(prof)
        row["seconds"] = round(elapsed, 3)
        print_json(row)
    else:
        click.echo(f"{prof.name}: ready ({path}, sha256 {prof.sha256[:12]}…)")
