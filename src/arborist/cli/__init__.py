"""The `arborist` command: a thin shell over the library, one module per command group."""

from __future__ import annotations

import os
import sqlite3
import sys
from typing import Any

import click

from arborist import __version__
from arborist.errors import ArboristError


def one_line(message: str) -> str:
    """Errors are one line: user data (ids, titles) may carry newlines."""
    return " ".join(message.split("\n")).strip()


class ArboristGroup(click.Group):
    """Turns expected failures into one line on stderr and a non-zero exit.

    Set ARBORIST_DEBUG=1 to get the traceback of unexpected errors instead.
    """

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ArboristError as exc:
            click.echo(f"Error: {one_line(str(exc))}", err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("Interrupted; nothing was left half-written.", err=True)
            ctx.exit(130)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except UnicodeEncodeError as exc:  # e.g. a question with bytes that are not UTF-8 (surrogate escapes)
            click.echo(f"Error: input is not valid UTF-8 text ({exc.reason} at position {exc.start}); "
                       "pass text encoded as UTF-8", err=True)
            ctx.exit(1)
        except sqlite3.DatabaseError as exc:  # a damaged store, a full disk: name it, no traceback
            if os.environ.get("ARBORIST_DEBUG"):
                raise
            click.echo(
                f"Error: the store could not be read or written: {one_line(str(exc))} "
                "(the file may be damaged, or the disk full; set ARBORIST_DEBUG=1 for the traceback)",
                err=True,
            )
            ctx.exit(1)
        except Exception as exc:
            if os.environ.get("ARBORIST_DEBUG"):
                raise
            click.echo(
                f"Error: unexpected {type(exc).__name__}: {one_line(str(exc))} "
                "(set ARBORIST_DEBUG=1 for the traceback)",
                err=True,
            )
            ctx.exit(1)


@click.group(cls=ArboristGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="arborist")
def cli() -> None:
    """Grounded question answering over your own documents.

    \b
    Quick tour:
      arborist ingest docs/ --db corpus.db       build or update a corpus
      arborist search "question" --db corpus.db  ranked chunks, per-route ranks
      arborist corpus info --db corpus.db        what a store holds
    """


def _register() -> None:
    from arborist.cli import (
        answer_cmd,
        audit_cmd,
        bench_cmd,
        corpus_cmd,
        datasets_cmd,
        eval_cmd,
        ingest_cmd,
        lab_cmd,
        models_cmd,
        search_cmd,
        sentinel_cmd,
        verify_cmd,
        view_cmd,
    )

    cli.add_command(ingest_cmd.ingest)
    cli.add_command(search_cmd.search_command)
    cli.add_command(corpus_cmd.corpus)
    cli.add_command(eval_cmd.eval_group)
    cli.add_command(datasets_cmd.datasets)
    cli.add_command(answer_cmd.query)
    cli.add_command(answer_cmd.ask)
    cli.add_command(models_cmd.models)
    cli.add_command(verify_cmd.verify)
    cli.add_command(audit_cmd.audit)
    cli.add_command(lab_cmd.experiments)
    cli.add_command(sentinel_cmd.sentinel)
    cli.add_command(bench_cmd.bench)
    lab_cmd.experiments.add_command(view_cmd.view)


_register()


def main() -> None:
    try:
        cli.main(prog_name="arborist", standalone_mode=True)
    except KeyboardInterrupt:  # raised outside a command (e.g. while parsing)
        click.echo("Interrupted.", err=True)
        sys.exit(130)
