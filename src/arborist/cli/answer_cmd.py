"""`arborist query` and `arborist ask`: answer with citations, or print the whole record."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from arborist.answer.pipeline import answer_document, answer_question
from arborist.answer.record import AnswerRecord
from arborist.cli.answer_options import answer_options, pop_answer_options, provider_and_policy
from arborist.cli.options import json_option, print_json
from arborist.corpus.loaders import load_documents
from arborist.corpus.store import open_store
from arborist.errors import InputError


def _ids_line(r: AnswerRecord) -> str:
    omitted = f" (omitted {len(r.omitted_chunk_ids)})" if r.omitted_chunk_ids else ""
    return (
        f"ids: ranked {len(r.ranked_chunk_ids)} -> selected {len(r.selected_chunk_ids)} -> "
        f"admitted {len(r.admitted_chunk_ids)}{omitted} -> cited {len(r.citation_chunk_ids)} | "
        f"runes {r.used_runes}/{r.max_runes}"
    )


def render(record: AnswerRecord, show_prompt: bool) -> None:
    if show_prompt:
        for m in record.prompt.messages:
            click.echo(f"----- {m.role} -----")
            click.echo(m.content, nl=not m.content.endswith("\n"))
        click.echo("----- end of prompt -----")
    c = record.contract
    status = "valid" if c.valid else "INVALID"
    click.echo(f"contract: {status} ({c.reason}{': ' + c.detail if c.detail else ''})")
    evidence = {e.evidence_id: e for e in record.evidence}
    answer = c.answer or {}
    for q in answer.get("quotes", []):
        e = evidence.get(q["evidence_id"])
        click.echo(f'  "{q["text"]}"  [{q["evidence_id"]}{": " + e.title if e else ""}]')
    for claim in answer.get("claims", []):
        ids = ", ".join(claim["evidence_ids"])
        click.echo(f"  * {claim['text']}  [{ids}]")
        if claim.get("quote"):
            click.echo(f'      "{claim["quote"]}"')
    for req in answer.get("abstained_requests", []):
        click.echo(f"  abstained: {req}")
    if record.evidence and (answer.get("quotes") or answer.get("claims")):
        click.echo("evidence cited:")
        for eid in c.cited_evidence_ids:
            e = evidence.get(eid)
            if e:
                click.echo(f"  {eid}: {e.title}  ({e.source_id}, {e.chunk_id})")
    if not c.valid and c.reason != "PROVIDER_ERROR":
        click.echo(f"raw response: {record.completion.text[:500]!r}")
    click.echo(_ids_line(record))
    comp = record.completion
    tokens = f"{comp.prompt_tokens} prompt + {comp.completion_tokens} completion tokens" if comp.prompt_tokens else "tokens n/a"
    click.echo(f"model: {comp.provider}:{comp.model_id} | {tokens} | {record.timings.get('total', 0):.1f} s")
    for name, reason in record.unavailable_routes.items():
        click.echo(f"Warning: route '{name}' unavailable: {reason}", err=True)


def _finish(record: AnswerRecord, as_json: bool, show_prompt: bool) -> None:
    if as_json:
        print_json(record.model_dump(mode="json"))
    else:
        render(record, show_prompt)
    if record.contract.reason == "PROVIDER_ERROR":
        raise click.exceptions.Exit(3)


@click.command("query")
@click.argument("question")
@click.option("--db", required=True, type=click.Path(path_type=Path, dir_okay=False), help="Corpus store file.")
@answer_options
@json_option
@click.option("--show-prompt", is_flag=True, help="Print the exact messages sent to the model.")
def query(question: str, db: Path, as_json: bool, show_prompt: bool, **kwargs: Any) -> None:
    """Answer QUESTION from the corpus in --db, with citations.

    Exit status: 0 when the model answered (check `contract` for validity),
    3 when the provider call failed.
    """
    opts = pop_answer_options(kwargs)
    with open_store(db) as store:
        provider, policy = provider_and_policy(opts, store.chunking())
        record = answer_question(store, question, policy, provider)
    _finish(record, as_json, show_prompt)


@click.command("ask")
@click.argument("document")
@click.argument("question")
@click.option("--db", type=click.Path(path_type=Path, dir_okay=False),
              help="Read DOCUMENT as a document id (or source id) from this store instead of a file.")
@answer_options
@json_option
@click.option("--show-prompt", is_flag=True, help="Print the exact messages sent to the model.")
def ask(document: str, question: str, db: Path | None, as_json: bool, show_prompt: bool, **kwargs: Any) -> None:
    """Answer QUESTION from one DOCUMENT (a file, or a document id with --db)."""
    opts = pop_answer_options(kwargs)
    chunking = None
    if db is not None:
        with open_store(db) as store:
            doc = store.document(document)
            chunking = store.chunking()
        if doc is None:
            raise InputError(f"no document '{document}' in store '{db}' (give a doc id or source id)")
    else:
        docs = load_documents([Path(document)])
        if len(docs) != 1:
            raise InputError(f"'{document}' holds {len(docs)} documents; `ask` takes exactly one")
        doc = docs[0]
    provider, policy = provider_and_policy(opts, chunking)
    record = answer_document(doc, question, policy, provider)
    _finish(record, as_json, show_prompt)
