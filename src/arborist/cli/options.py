"""Options shared by several commands, each defined once: a flag means one thing in every command.

`tests/test_cli_flags.py` walks every command's options and fails when one flag name carries two helps or two
types, so a command that needs a variant of these (say, an optional --db) passes `required`, never its own help.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def db_option(fn: F | None = None, *, required: bool = True) -> Any:
    """-d/--db: always a corpus store (`@db_option`, or `@db_option(required=False)`)."""
    option = click.option("-d", "--db", "db", required=required, type=click.Path(path_type=Path, dir_okay=False),
                          help="The corpus store (an SQLite file made by `arborist ingest`).")
    return option(fn) if fn is not None else option


def out_option(dest: str = "out", required: bool = True) -> Callable[[F], F]:
    """-o/--out: always a folder the command writes into (a file to write is --output)."""
    return click.option("-o", "--out", dest, required=required, type=click.Path(path_type=Path, file_okay=False),
                        help="The folder to write into (created if missing).")


def output_option(dest: str = "output", required: bool = True) -> Callable[[F], F]:
    """--output: always one file the command writes (a folder is --out)."""
    return click.option("--output", dest, required=required, type=click.Path(path_type=Path, dir_okay=False),
                        help="The file to write.")


def json_option(fn: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")(fn)


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")


def print_json_line(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")


samples_option = click.option(
    "--samples", default=1, show_default=True, type=click.IntRange(1, 100),
    help="Answers per question (more than 1 needs --temperature above 0; sample i is drawn with seed + i); the "
    "samples share one prompt. The lab keeps every sample; `query` shows the one the verifier rates best, never one "
    "that claims less than the first unless the first's claims are refuted.")
