"""Every command of the `arborist` CLI, found the way `--help` finds them (the lazy tables included)."""

from __future__ import annotations

import click

from arborist.cli import cli


def walk(group: click.Group = cli, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    """(path under `arborist`, command) for every command and group, depth first, in --help order."""
    ctx = click.Context(group)
    out = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        path = (*prefix, name)
        out.append((path, command))
        if isinstance(command, click.Group):
            out.extend(walk(command, path))
    return out
