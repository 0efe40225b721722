"""The docs follow the CLI: docs/cli.md is generated from it and must not drift; every command has --help text and a
section there; the README stays a page (its tour runs in tests/test_readme_tour.py) and links only to pages
that exist."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from arborist.cli import cli
from cli_walk import walk

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
CLI_MD = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")


def _commands() -> list[tuple[str, click.Command]]:
    """Every command, found as `--help` finds them (the lazy tables included)."""
    return [(" ".join(("arborist", *path)), command) for path, command in walk()]


def test_the_cli_reference_is_what_the_cli_prints() -> None:
    """Regenerate with `python -m arborist.cli.reference > docs/cli.md`. Run in a fresh interpreter, as the page is
    made: click keeps a command's help option once built, so a command another test invoked on its own (without
    the root's `-h`) would print differently in this process."""
    made = subprocess.run([sys.executable, "-m", "arborist.cli.reference"], capture_output=True, text=True,
                          check=True, env={**os.environ, "COLUMNS": "40"}).stdout
    assert made == CLI_MD, "docs/cli.md is stale: run `python -m arborist.cli.reference > docs/cli.md`"
    assert "\n## arborist lab run\n" in made and "-d, --db" in made


@pytest.mark.parametrize(("path", "command"), _commands(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_command_is_in_the_reference_and_has_help(path: str, command: click.Command) -> None:
    assert f"\n## {path}\n" in CLI_MD, f"docs/cli.md has no section for `{path}`"
    result = CliRunner().invoke(cli, [*path.split()[1:], "--help"])
    assert result.exit_code == 0 and (command.help or "").strip(), path


def test_quick_start_is_exactly_two_commands() -> None:
    block = README.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line.split("#", 1)[0].strip() for line in block.strip().splitlines()]
    assert commands == ["make demo", "make test"]


def test_the_readme_fits_a_page_and_its_links_exist() -> None:
    assert len(README.splitlines()) <= 150
    links = re.findall(r"\]\(([^)#]+)\)", README)
    assert "docs/cli.md" in links and "docs/lab.md" in links
    assert [link for link in links if not (REPO / link).exists()] == []


def test_no_user_page_sends_readers_to_a_design_file_they_do_not_have() -> None:
    """The design notes are not shipped: a page states the facts it uses (issue 49)."""
    pages = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    citing = [f"{p.relative_to(REPO)}:{n}" for p in pages
              for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if re.search(r"\bDESIGN\b", line)]
    assert citing == []
