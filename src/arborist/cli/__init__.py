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


# A command table: name -> (module under arborist.cli, attribute, summary).
CommandTable = dict[str, tuple[str, str, str]]


class LazyGroup(click.Group):
    """A group whose commands are found in a table and imported when asked for.

    `--help` lists the summaries in the table without importing any command module: `arborist search`
    never pays for the lab, scipy or matplotlib. tests/test_cli_startup.py checks that each entry names
    its command and that the summary is the first sentence of the command's own help.
    """

    def __init__(self, *args: Any, table: CommandTable, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.table, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        spec = self.table.get(cmd_name)
        if spec is None:
            return super().get_command(ctx, cmd_name)
        command: click.Command = getattr(importlib.import_module(f"arborist.cli.{spec[0]}"), spec[1])
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from the summaries in the table, importing no command module."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names))
        rows = [(name, _shorten(self.table[name][2] if name in self.table else self.commands[name].get_short_help_str(1000),
                                limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


class ArboristGroup(LazyGroup):
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


# The product's commands. The lab's are under `arborist lab` (LAB_COMMANDS): one group, so `arborist --help`
# reads as the product, and no command is more than two words deep.
COMMANDS: CommandTable = {
    "ingest": ("ingest_cmd", "ingest", "Add or update documents from PATHS in the store at --db."),
    "search": ("search_cmd", "search_command",
               "Rank chunks of --db for QUESTION by fusing the retrieval routes with RRF."),
    "info": ("corpus_cmd", "info", "Documents, chunks, digest, schema version and chunking settings of --db."),
    "query": ("answer_cmd", "query", "Answer QUESTION from the corpus in --db, with citations."),
    "ask": ("answer_cmd", "ask", "Answer QUESTION from one DOCUMENT: a file, or a document id in --db."),
    "verify": ("verify_cmd", "verify",
               "Label answers STRICT / HYBRID / UNGROUNDED / ABSTAINED against their evidence."),
    "audit": ("audit_cmd", "audit", "The append-only audit log: one hash-chained event per answer."),
    "models": ("models_cmd", "models", "Local model profiles: what exists, and fetching/assembling their weights."),
}

LAB_COMMANDS: CommandTable = {
    "run": ("lab_cmd", "run", "Answer every selected question, write a new run directory under --out, summarise it."),
    "sweep": ("lab_cmd", "sweep",
              "Run one answer-quality run per value of one knob; a table and a plot per metric against the value."),
    "compare": ("lab_cmd", "compare",
                "Compare two runs over the same evaluation, paired per question and sample: B - A with a verdict."),
    "list": ("lab_cmd", "list_command", "Runs under RUN_ROOT with state, output digest, rows and headline metrics."),
    "status": ("lab_cmd", "status_command",
               "One run's state and counts; a run whose process is gone reads `dead`, with the command that "
               "continues it."),
    "validate": ("lab_cmd", "validate",
                 "Check a run directory: complete, exit 0, every row once, totals agree, model and policy as "
                 "configured."),
    "repair": ("repair_cmd", "repair",
               "Re-run each lost question alone under single-setting changes from its boundary; say which setting "
               "recovers it."),
    "view": ("view_cmd", "view",
             "Show a run directory in the browser: diagnosis first, each question's journey, prompt to label."),
    "eval-retrieval": ("eval_cmd", "retrieval",
                       "MRR, Recall@N, nDCG@N and hit rate@N of the fused list and of each route alone."),
    "import-dataset": ("datasets_cmd", "import_command",
                       "Write --out/corpus.json and --out/evaluation.json from a FORMAT dataset."),
    "layout-bench": ("bench_cmd", "layouts_cmd",
                     "Answer the same questions under each layout (n samples each) and compare their verifier "
                     "labels."),
    "sentinel-facts": ("sentinel_cmd", "facts_cmd", "Print the demo corpus's facts file (or its path with --path)."),
    "sentinel-build": ("sentinel_cmd", "build",
                       "Copy the corpus in --db into a new sentinel store with every fact's rungs patched into "
                       "variants."),
    "sentinel-run": ("sentinel_cmd", "run",
                     "Ask every fact's question once per rung, with only that rung's variant of its document to "
                     "read."),
    "sentinel-history": ("sentinel_cmd", "history_cmd", "Counts per fact and rung over every ladder run, oldest first."),
    "sentinel-report": ("sentinel_cmd", "report",
                        "Plot a ladder's response curve: rungs on the x axis, the share of runs on the y axis, a "
                        "panel per fact."),
}


@click.group(cls=ArboristGroup, table=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="arborist")
def cli() -> None:
    """Grounded question answering over your own documents.

    \b
    Quick tour:
      arborist ingest docs/ --db corpus.db       build or update a corpus
      arborist search "question" --db corpus.db  ranked chunks, per-route ranks
      arborist query "question" --db corpus.db   an answer, its citations and its label
      arborist lab --help                        the lab: runs, sweeps, comparisons, sentinels
    """


@cli.group("lab", cls=LazyGroup, table=LAB_COMMANDS)
def lab() -> None:
    """The lab: answer-quality runs, sweeps, paired comparisons, benches and sentinel ladders.

    Every command here sits on top of the product commands; none of them is
    needed to answer or verify.
    """


def main() -> None:
    try:
        cli.main(prog_name="arborist", standalone_mode=True)
    except KeyboardInterrupt:  # raised outside a command (e.g. while parsing)
        click.echo("Interrupted.", err=True)
        sys.exit(130)
