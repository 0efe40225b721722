"""`arborist search`: ranked chunks with each route's rank, one question or a batch."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import click

from arborist.cli.options import db_option, json_option, print_json, print_json_line
from arborist.cli.policy_options import search_options
from arborist.corpus.store import open_store
from arborist.errors import InputError, nested_too_deeply
from arborist.retrieval import SearchSettings, search
from arborist.retrieval.search import Fusion, SearchResult, parse_routes, search_many

RESULT_FIELDS = ("rank", "chunk_id", "doc_id", "source_id", "title", "score", "routes", "text")


def _read_queries(path: Path) -> Iterator[tuple[str, str]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise InputError(f"queries file '{path}' does not exist") from None
    except UnicodeDecodeError:
        raise InputError(f"queries file '{path}' is not UTF-8 text") from None
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"'{path}' line {lineno} is not valid JSON: {exc.msg} at column {exc.colno}") from None
        except RecursionError:
            raise nested_too_deeply(f"'{path}' line {lineno}") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("question"), str):
            raise InputError(f"'{path}' line {lineno}: expected {{\"id\": str, \"question\": str}}")
        yield str(obj.get("id", lineno)), obj["question"]


def _json_result(result: SearchResult) -> dict[str, object]:
    return {
        "results": [h.model_dump(include=set(RESULT_FIELDS)) for h in result.results],
        "unavailable_routes": result.unavailable_routes,
    }


def _warn_unavailable(result: SearchResult) -> bool:
    for name, reason in result.unavailable_routes.items():
        click.echo(f"Warning: route '{name}' unavailable: {reason}", err=True)
    return bool(result.unavailable_routes)


@click.command("search")
@click.argument("question", required=False)
@db_option
@click.option("-k", "--k", "k", default=20, show_default=True, type=click.IntRange(1, 10_000),
              help="How many ranked chunks to print.")
@search_options
@click.option(
    "--queries",
    type=click.Path(path_type=Path, dir_okay=False),
    help='Batch mode: a JSONL file of {"id", "question"}; prints one JSON line per query.',
)
@json_option
def search_command(
    question: str | None,
    db: Path,
    k: int,
    routes: str,
    title_filter: bool,
    fusion: Fusion,
    queries: Path | None,
    as_json: bool,
) -> None:
    """Rank chunks of --db for QUESTION by fusing the retrieval routes with RRF."""
    if (question is None) == (queries is None):
        raise InputError("give either a QUESTION or --queries FILE.jsonl (not both)")
    settings = SearchSettings(k=k, routes=parse_routes(routes), title_filter=title_filter, fusion=fusion)
    with open_store(db) as store:
        if queries is not None:
            batch = list(_read_queries(queries))  # a bad line fails before any output
            warned = False
            for (qid, _), result in zip(batch, search_many(store, [q for _, q in batch], settings)):
                if not warned:
                    warned = _warn_unavailable(result)
                print_json_line({"id": qid, **_json_result(result)})
            return
        if question is None:
            raise InputError("give either a QUESTION or --queries FILE.jsonl")
        result = search(store, question, settings)
    _warn_unavailable(result)
    if as_json:
        print_json({"question": question, **_json_result(result)})
        return
    if not result.results:
        click.echo("no results")
        return
    for h in result.results:
        routes = " ".join(f"{r}:{n}" for r, n in h.routes.items())
        click.echo(f"{h.rank:>3}. {h.title}  [{h.chunk_id}]  score {h.score:.4f}  ({routes})")
        snippet = " ".join(h.text.split())
        click.echo(f"     {snippet[:200]}{'…' if len(snippet) > 200 else ''}")
