"""The README documents every command, and every command has --help text."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from arborist.cli import cli
from cli_walk import walk

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _commands() -> list[tuple[str, click.Command]]:
    """Every command, found as `--help` finds them (the lazy tables included)."""
    return [(" ".join(("arborist", *path)), command) for path, command in walk()]


@pytest.mark.parametrize(("path", "command"), _commands(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_command_is_in_the_readme_and_has_help(path: str, command: click.Command) -> None:
    assert path in README, f"README does not mention `{path}`"
    result = CliRunner().invoke(cli, [*path.split()[1:], "--help"])
    assert result.exit_code == 0 and (command.help or "").strip(), path


def test_quick_start_is_exactly_two_commands() -> None:
    block = README.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line.split("#", 1)[0].strip() for line in block.strip().splitlines()]
    assert commands == ["make demo", "make test"]
