"""Options shared by several commands, defined once."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def db_option(fn: F) -> F:
    return click.option(
        "--db",
        "db",
        required=True,
        type=click.Path(path_type=Path, dir_okay=False),
        help="Corpus store file (SQLite).",
    )(fn)


def json_option(fn: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")(fn)


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")


def print_json_line(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")
