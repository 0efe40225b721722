"""The CLI imports only what the command run uses (issue 34, finding 7: every command paid 4-7 s
because importing the CLI imported the lab, scipy and matplotlib). Checked through `sys.modules` in a
fresh interpreter, not by timing: bench/startup.py measures the seconds."""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest

from arborist.cli import COMMANDS, cli

HEAVY = ("scipy", "matplotlib", "arborist.lab", "llama_cpp", "onnxruntime", "tokenizers")


def modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running `code` (its stdout is discarded)."""
    probe = (
        "import io, json, sys, contextlib\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        f"    {code}\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.startswith(HEAVY))


def test_importing_the_cli_imports_no_command_and_nothing_heavy() -> None:
    loaded = modules_after("import arborist.cli")
    assert heavy(loaded) == []
    assert not any(m.startswith("arborist.cli.") and m.endswith("_cmd") for m in loaded)


@pytest.mark.parametrize("args", [["--help"], ["search", "--help"], ["corpus", "info", "--help"],
                                  ["audit", "verify", "--help"], ["query", "--help"]])
def test_a_command_imports_no_lab_scipy_or_matplotlib(args: list[str]) -> None:
    code = f"from arborist.cli import cli; cli.main({args!r}, standalone_mode=False)"
    assert heavy(modules_after(code)) == []


def test_help_lists_every_command_without_importing_one() -> None:
    loaded = modules_after("from arborist.cli import cli; cli.main(['--help'], standalone_mode=False)")
    assert not any(m.startswith("arborist.cli.") and m.endswith("_cmd") for m in loaded)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_listed_command_is_the_one_its_module_defines(name: str) -> None:
    """The name and summary in COMMANDS are the command's own: they cannot drift apart."""
    command = cli.get_command(click.Context(cli), name)
    assert isinstance(command, click.Command)
    assert command.name == name
    assert COMMANDS[name][2] == command.get_short_help_str(limit=1000)


def test_experiments_keeps_its_view_subcommand() -> None:
    group = cli.get_command(click.Context(cli), "experiments")
    assert isinstance(group, click.Group) and "view" in group.commands
