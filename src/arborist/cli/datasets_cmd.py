"""`arborist lab import-dataset`: a public QA dataset -> corpus.json + evaluation.json."""

from __future__ import annotations

from pathlib import Path

import click

from arborist.cli.options import json_option, out_option, print_json
from arborist.evaluation.importers import IMPORTERS, import_dataset, write_import


def _formats_epilog() -> str:
    """Built from the registry so the help never lists a format that does not exist."""
    lines = ["\b", "Formats:"]
    for name, importer in sorted(IMPORTERS.items()):
        doc = (importer.__doc__ or "").strip().splitlines()
        lines.append(f"  {name:<10} {doc[0] if doc else ''}")
    return "\n".join(lines)


@click.command("import-dataset", epilog=_formats_epilog())
@click.argument("fmt", metavar="FORMAT", type=click.Choice(sorted(IMPORTERS)))
@click.option(
    "--questions", required=True, type=click.Path(path_type=Path, dir_okay=False),
    help="The dataset's questions file.",
)
@click.option(
    "--dataset-corpus", "corpus", type=click.Path(path_type=Path, dir_okay=False), default=None,
    help="The dataset's own corpus file (musique, hotpotqa); built from the questions when omitted.",
)
@out_option("out_dir")
@click.option("--force", is_flag=True, help="Overwrite an existing corpus.json / evaluation.json in --out.")
@json_option
def import_command(
    fmt: str, questions: Path, corpus: Path | None, out_dir: Path, force: bool, as_json: bool
) -> None:
    """Write --out/corpus.json and --out/evaluation.json from a FORMAT dataset.

    The evaluation's corpus digest is that of corpus.json, so it binds to a
    store made with `arborist ingest OUT/corpus.json`,
    and `arborist lab run --corpus OUT/corpus.json --evaluation OUT/evaluation.json` reads them. Nothing is written
    unless the whole dataset parses.
    """
    result = import_dataset(fmt, questions, corpus)
    written = write_import(result, out_dir, force=force)
    summary = result.summary() | {
        "corpus_path": str(written.corpus_path),
        "evaluation_path": str(written.evaluation_path),
    }
    if as_json:
        print_json(summary)
        return
    click.echo(
        f"{fmt}: {summary['documents']} documents, {summary['questions']} questions, "
        f"{summary['requests']} requests; corpus digest {summary['corpus_digest']}; "
        f"wrote {written.corpus_path} and {written.evaluation_path}"
    )
    for note in result.notes:
        click.echo(f"note: {note}")
