"""The `arborist` command: a thin shell over the library, one module per command group."""

from __future__ import annotations

import importlib
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


def _shorten(text: str, limit: int) -> str:
    """`text` cut at a word to fit `limit` characters, with '...' as click shortens help."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 3, 1)].rsplit(" ", 1)[0].rstrip(" ,:;") + "..."


class ArboristGroup(click.Group):
    """Turns expected failures into one line on stderr and a non-zero exit.

    Set ARBORIST_DEBUG=1 to get the traceback of unexpected errors instead.
    Commands are found in `COMMANDS` and imported when asked for.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        spec = COMMANDS.get(cmd_name)
        if spec is None:
            return super().get_command(ctx, cmd_name)
        command: click.Command = getattr(importlib.import_module(f"arborist.cli.{spec[0]}"), spec[1])
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from the summaries in `COMMANDS`, importing no command module."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names))
        rows = [(name, _shorten(COMMANDS[name][2] if name in COMMANDS else self.commands[name].get_short_help_str(),
                                limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


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


# Command name -> (module under arborist.cli, attribute, summary). A command's module is imported only when
# that command runs: `arborist search` never pays for the lab, scipy or matplotlib, and `--help` lists the
# summaries without importing any. tests/test_cli_startup.py checks that each entry names its command and
# that the summary is the first sentence of the command's own help, so the two cannot drift apart.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "ingest": ("ingest_cmd", "ingest", "Add or update documents from PATHS in the store at --db."),
    "search": ("search_cmd", "search_command",
               "Rank chunks of --db for QUESTION by fusing the retrieval routes with RRF."),
    "corpus": ("corpus_cmd", "corpus", "Inspect a corpus store."),
    "eval": ("eval_cmd", "eval_group", "Measure retrieval (and later answers) against an evaluation file."),
    "datasets": ("datasets_cmd", "datasets", "Import public QA datasets as a corpus plus an evaluation bound to it."),
    "query": ("answer_cmd", "query", "Answer QUESTION from the corpus in --db, with citations."),
    "ask": ("answer_cmd", "ask", "Answer QUESTION from one DOCUMENT: a file, or a document id in --db."),
    "models": ("models_cmd", "models", "Local model profiles: what exists, and fetching/assembling their weights."),
    "verify": ("verify_cmd", "verify",
               "Label answers STRICT / HYBRID / UNGROUNDED / ABSTAINED against their evidence."),
    "audit": ("audit_cmd", "audit", "The append-only audit log: one hash-chained event per answer."),
    "experiments": ("lab_cmd", "experiments",
                    "The lab: answer-quality runs in self-contained run directories, sweeps over one knob, paired comparisons."),
    "sentinel": ("sentinel_cmd", "sentinel",
                 "Sentinel ladders: does the model read its documents, and which wins when they disagree with its priors?"),
    "bench": ("bench_cmd", "bench", "Benches that decide between answer-path settings on your own data."),
}


def main() -> None:
    try:
        cli.main(prog_name="arborist", standalone_mode=True)
    except KeyboardInterrupt:  # raised outside a command (e.g. while parsing)
        click.echo("Interrupted.", err=True)
        sys.exit(130)
