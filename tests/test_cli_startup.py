"""The CLI imports only what the command run uses (issue 34, finding 7: every command paid 4-7 s
because importing the CLI imported the lab, scipy and matplotlib). Checked through `sys.modules` in a
fresh interpreter, not by timing: bench/startup.py measures the seconds."""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest

from arborist.cli import COMMANDS, LAB_COMMANDS, cli, lab

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


@pytest.mark.parametrize("args", [["--help"], ["search", "--help"], ["info", "--help"],
                                  ["audit", "verify", "--help"], ["query", "--help"], ["lab", "--help"]])
def test_a_command_imports_no_lab_scipy_or_matplotlib(args: list[str]) -> None:
    code = f"from arborist.cli import cli; cli.main({args!r}, standalone_mode=False)"
    assert heavy(modules_after(code)) == []


def test_help_lists_every_command_without_importing_one() -> None:
    loaded = modules_after("from arborist.cli import cli; cli.main(['--help'], standalone_mode=False)")
    assert not any(m.startswith("arborist.cli.") and m.endswith("_cmd") for m in loaded)


@pytest.mark.parametrize(("group", "name"), [*((cli, n) for n in sorted(COMMANDS)),
                                             *((lab, n) for n in sorted(LAB_COMMANDS))])
def test_each_listed_command_is_the_one_its_module_defines(group: click.Group, name: str) -> None:
    """The name and summary in COMMANDS / LAB_COMMANDS are the command's own: they cannot drift apart."""
    command = group.get_command(click.Context(group), name)
    assert isinstance(command, click.Command)
    assert command.name == name
    table = COMMANDS if group is cli else LAB_COMMANDS
    assert table[name][2] == command.get_short_help_str(limit=1000)
