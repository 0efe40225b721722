"""The CLI reference, generated from the commands themselves: `python -m arborist.cli.reference > docs/cli.md`.

Every command's `--help`, in the order `arborist --help` lists them, at a fixed width so the page does not
depend on the terminal it was made in. tests/test_docs.py regenerates it and fails when docs/cli.md drifts.
"""

from __future__ import annotations

import sys

import click

from arborist.cli import cli

WIDTH = 100
HEADER = (
    "# CLI reference\n\n"
    "Generated from the commands' own `--help` by `python -m arborist.cli.reference > docs/cli.md`; do not edit\n"
    "by hand (a test fails when this page and the CLI differ). A walk through the commands is in\n"
    "[guide.md](guide.md) and [lab.md](lab.md).\n"
)


def _sections(command: click.Command, ctx: click.Context) -> list[str]:
    text = command.get_help(ctx).rstrip()
    out = [f"## {ctx.command_path}\n\n```text\n{text}\n```\n"]
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                out.extend(_sections(sub, click.Context(sub, info_name=name, parent=ctx)))
    return out


def reference() -> str:
    """The whole page: the root's help, then each command's, depth first."""
    root = click.Context(cli, info_name="arborist", terminal_width=WIDTH, max_content_width=WIDTH,
                         **cli.context_settings)
    return HEADER + "\n" + "\n".join(_sections(cli, root))


def main() -> None:
    sys.stdout.write(reference())


if __name__ == "__main__":
    main()
