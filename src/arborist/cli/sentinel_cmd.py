"""`arborist lab sentinel-*`: sentinel stores and ladders (thin over arborist.lab.sentinels).

A ladder asks: does the model read its documents, and which wins when they disagree with its priors?
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from arborist.cli.answer_options import answer_options, pop_answer_options, provider_and_policy
from arborist.cli.options import db_option, json_option, out_option, output_option, print_json, samples_option
from arborist.corpus.store import open_store
from arborist.errors import InputError
from arborist.lab.sentinels import history
from arborist.lab.sentinels.facts import demo_facts_path, load_facts
from arborist.lab.sentinels.ladder import LadderConfig, run_ladder
from arborist.lab.sentinels.store import build_sentinel_store
from arborist.progress import Reporter

_FACTS = click.option("--facts", "facts_path", required=True, type=click.Path(path_type=Path, dir_okay=False),
                      help="The facts file (see `arborist lab sentinel-facts --demo`).")
_HISTORY = click.option("--history", "history_path", type=click.Path(path_type=Path, dir_okay=False),
                        help="The ladder history file (default $ARBORIST_CACHE/sentinel/history.jsonl).")


@click.command("sentinel-facts")
@click.option("--demo", is_flag=True, required=True, help="The facts shipped for the demo corpus.")
@click.option("--path", "path_only", is_flag=True, help="Print the file's path instead of its content.")
def facts_cmd(demo: bool, path_only: bool) -> None:
    """Print the demo corpus's facts file (or its path with --path)."""
    path = demo_facts_path()
    click.echo(str(path) if path_only else path.read_text(encoding="utf-8"), nl=path_only)


@click.command("sentinel-build")
@db_option
@_FACTS
@output_option("out")
@json_option
def build(db: Path, facts_path: Path, out: Path, as_json: bool) -> None:
    """Copy the corpus in --db into a new sentinel store with every fact's rungs patched into variants.

    --db is the real corpus store (only read); --output is the new sentinel
    store file, which must not exist yet.
    """
    facts = load_facts(facts_path)
    mapping = build_sentinel_store(db, facts, out, progress=lambda m: click.echo(m, err=True))
    if as_json:
        print_json({"sentinel_db": str(out), "variants": len(mapping.variants), "facts_digest": mapping.facts_digest})
    else:
        click.echo(f"sentinel store {out}: {len(facts.facts)} facts, {len(mapping.variants)} patched variants")


@click.command("sentinel-run")
@db_option
@_FACTS
@samples_option
@out_option()
@_HISTORY
@answer_options
@json_option
def run(db: Path, facts_path: Path, samples: int, out: Path, history_path: Path | None, as_json: bool,
        **kwargs: Any) -> None:
    """Ask every fact's question once per rung, with only that rung's variant of its document to read.

    \b
    --db is a sentinel store made by `arborist lab sentinel-build`; the
    ladder's run directory goes under --out.
    Counts, per rung over --samples answers: used_sentinel (the rung's value),
    used_memory (the true value, not the rung's), neither (a usable answer
    stating neither), objected, void (the value was not in the prompt).
    Values are read as numbers with their scale and unit: "8 file uploads
    per minute" states "8 uploads per minute". A fact most of whose usable
    answers state neither value is uninterpretable, with a warning.
    Zero-prior facts run first; competing facts are uninterpretable unless
    every zero-prior control passed. Exit status 0;
    130 interrupted (run again: finished answers come from the cache).
    """
    opts = pop_answer_options(kwargs)
    facts = load_facts(facts_path)
    with open_store(db, write=True) as store:
        if store.role() != "sentinel":
            raise InputError(f"'{db}' is not a sentinel store; build one with `arborist lab sentinel-build`")
        provider, policy = provider_and_policy(opts, store.chunking())
        if samples > 1 and policy.generation.temperature == 0:
            raise InputError(f"--samples {samples} needs --temperature above 0: at temperature 0 every answer is "
                             "the same")
        with Reporter() as progress:
            run_dir, ladder = run_ladder(store, facts, policy, provider, samples, out, burn=opts["burn"],
                                         progress=progress)
    config = LadderConfig.model_validate_json((run_dir / "config.json").read_text(encoding="utf-8"))
    history.append(history_path or history.default_history(), run_dir, config, ladder)
    for warning in ladder.warnings:
        click.echo(f"Warning: {warning}", err=True)
    if as_json:
        print_json(ladder.model_dump(mode="json"))
        click.echo(f"run: {run_dir.resolve()}", err=True)
        return
    click.echo((run_dir / "summary.md").read_text(encoding="utf-8"))
    click.echo(f"run: {run_dir.resolve()}")


@click.command("sentinel-history")
@click.option("--fact", help="Only this fact.")
@_HISTORY
@json_option
def history_cmd(fact: str | None, history_path: Path | None, as_json: bool) -> None:
    """Counts per fact and rung over every ladder run, oldest first."""
    rows = history.table(history.read(history_path or history.default_history()), fact)
    if as_json:
        print_json(rows)
        return
    click.echo("created_at | model | fact | rung | runs | used_sentinel | used_memory | neither | objected | void | "
               "status")
    for r in rows:
        click.echo(f"{r['created_at']} | {r['model_id']} | {r['fact']} | {r['rung']} | {r['runs']} | "
                   f"{r['used_sentinel']} | {r['used_memory']} | {r['neither']} | {r['objected']} | "
                   f"{'void' if r['void'] else ''} | "
                   f"{r['control'] or r['status']}")


@click.command("sentinel-report")
@output_option("out")
@click.option("--run", "run_dir", type=click.Path(path_type=Path, file_okay=False),
              help="Plot this ladder run (default: the newest in the history).")
@_HISTORY
def report(out: Path, run_dir: Path | None, history_path: Path | None) -> None:
    """Plot a ladder's response curve: rungs on the x axis, the share of runs on the y axis, a panel per fact.

    --output is the PNG file to write.
    """
    entries = history.read(history_path or history.default_history())
    if run_dir is not None:
        entries = [e for e in entries if Path(e.run_dir).resolve() == run_dir.resolve()]
        if not entries:
            raise InputError(f"run '{run_dir}' is not in the sentinel history")
    if not entries:
        raise InputError("the sentinel history holds no run yet")
    click.echo(str(history.plot(entries[-1], out)))
