"""`arborist query` and `arborist ask`: answer with citations, or print the whole record."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import click

from arborist import engine
from arborist.answer.contract import ContractReason
from arborist.answer.pipeline import answer_document
from arborist.answer.record import AnswerRecord, Repair
from arborist.answer.repair import choose_sample, repair_answer
from arborist.answer.verification import verify_record
from arborist.cli.answer_options import (
    answer_options,
    pop_answer_options,
    provider_and_policy,
    show_prompt_option,
    verifier_from,
)
from arborist.cli.options import db_option, json_option, print_json, samples_option
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
    v = record.verification
    if v is not None:
        reasons = f" [{', '.join(r.value for r in v.reasons)}]" if v.reasons else ""
        judged = f", {v.basis_note}" if v.basis_note else ""
        click.echo(f"label: {v.label.value} ({v.n_verified}/{v.n_claims} verified{judged}) | audit mode: {v.audit_mode.value}{reasons}"
                   + (" | from cache" if record.cache_hit else ""))
        for note in v.notes:
            if note.startswith("Rule 13"):  # the answer below is withheld: say why before showing the draft
                click.echo(f"withheld: {note}")
    click.echo(f"contract: {status} ({c.reason}{': ' + c.detail if c.detail else ''})")
    evidence = {e.evidence_id: e for e in record.evidence}
    answer = c.answer or {}
    for q in answer.get("quotes", []):
        e = evidence.get(q["evidence_id"])
        click.echo(f'  "{q["text"]}"  [{q["evidence_id"]}{": " + e.title if e else ""}]')
    verdicts = {cv.index: cv for cv in v.claims} if v else {}
    for i, claim in enumerate(answer.get("claims", [])):
        cv = verdicts.get(i)
        # a re-anchored claim shows the block that holds its quote; the note names what the model cited
        ids = ", ".join(claim["evidence_ids"])
        if cv and cv.reanchored_from:
            ids = f"{', '.join(cv.evidence_ids)}; cited as {ids}"
        verdict = (f"  {cv.verdict.value}{f' ({cv.decision})' if cv.decision else ''}"
                   f"{' ' + ','.join(r.value for r in cv.reasons) if cv.reasons else ''}") if cv else ""
        click.echo(f"  * {claim['text']}  [{ids}]{verdict}")
        if claim.get("quote"):
            click.echo(f'      "{claim["quote"]}"')
        for note in cv.notes if cv else []:
            click.echo(f"      note: {note}")
    for req in answer.get("abstained_requests", []):
        click.echo(f"  abstained: {req}")
    for line in repair_lines(record):
        click.echo(f"repair: {line}")
    if v is not None and v.guard.answerability_warning:
        spans = "; ".join(f"{eid}@{off}: {text!r}" for eid, off, text in v.guard.missed_answer_candidate_spans[:5])
        click.echo(f"Warning: the answer denies what the evidence may hold (missed-answer guard): {spans}")
    if v is not None and v.instruction_guard.flagged:
        flags = "; ".join(f"{f.evidence_id}@{f.offset}: {f.text[:60]!r}" for f in v.instruction_guard.flags[:5])
        click.echo(f"Warning: evidence addresses the model (instruction guard, possible prompt injection): {flags}")
    if record.evidence and (answer.get("quotes") or answer.get("claims")):
        click.echo("evidence cited:")
        for eid in c.cited_evidence_ids:
            e = evidence.get(eid)
            if e:
                click.echo(f"  {eid}: {e.title}  ({e.source_id}, {e.chunk_id})")
    if not c.valid and c.reason is not ContractReason.PROVIDER_ERROR:
        click.echo(f"raw response: {record.completion.text[:500]!r}")
    click.echo(_ids_line(record))
    comp = record.completion
    tokens = f"{comp.prompt_tokens} prompt + {comp.completion_tokens} completion tokens" if comp.prompt_tokens else "tokens n/a"
    click.echo(f"model: {comp.provider}:{comp.model_id} | {tokens} | {record.timings.get('total', 0):.1f} s")
    for name, reason in record.unavailable_routes.items():
        click.echo(f"Warning: route '{name}' unavailable: {reason}", err=True)


def _clip(text: str | None, n: int = 80) -> str:
    text = text or ""
    return repr(text if len(text) <= n else text[: n - 1] + "…")


def repair_lines(record: AnswerRecord) -> list[str]:
    """Each repair the answer policy made, one line each (what `query` and `ask` print)."""
    out: list[str] = []
    for r in record.repairs:
        claim = f"claim {r.claim + 1}" if r.claim is not None else ""
        moved = (f" (now cites {', '.join(r.evidence_after)})" if r.evidence_after != r.evidence_before else "")
        if r.kind == "snapped":
            out.append(f"snapped {claim}'s quote to the evidence, {r.distance} edit(s){moved}: "
                       f"{_clip(r.quote_before)} -> {_clip(r.quote_after)}; {r.detail}")
        elif r.kind == "reattributed":
            out.append(f"re-attributed {claim} to {', '.join(r.evidence_after)}: {_clip(r.quote_after)}; {r.detail}")
        else:
            out.append(f"{r.kind.replace('_', ' ')}: {r.detail}")
    return out


def _warn_rejected_cache(record: AnswerRecord) -> None:
    if record.cache_rejected:
        click.echo(f"Warning: the cached answer was not served and was answered afresh: {record.cache_rejected}",
                   err=True)


def _finish(record: AnswerRecord, as_json: bool, show_prompt: bool) -> None:
    _warn_rejected_cache(record)
    if as_json:
        print_json(record.model_dump(mode="json"))
    else:
        render(record, show_prompt)
    if record.contract.reason is ContractReason.PROVIDER_ERROR:
        raise click.exceptions.Exit(3)


def _kept(answer: Callable[[], AnswerRecord], as_json: bool, show_prompt: bool) -> AnswerRecord:
    """`answer()`; if the store refuses to record it, the answer is shown anyway before the error says so
    (the model call it cost is not thrown away)."""
    try:
        return answer()
    except engine.AnswerNotStored as exc:
        _finish(exc.record, as_json, show_prompt)
        raise


def _chosen(records: list[AnswerRecord]) -> AnswerRecord:
    """The sample `choose_sample` picks, with the choice recorded as a repair (the samples' own records and audit
    events are as each was made)."""
    index, why = choose_sample(records)
    labels = ", ".join(f"{i + 1}: {r.verification.label_text if r.verification else 'unverified'}"
                       for i, r in enumerate(records))
    chosen = records[index]
    return chosen.model_copy(update={"repairs": [*chosen.repairs, Repair(
        kind="chosen", detail=f"sample {index + 1} of {len(records)} ({labels}): {why}")]})


@click.command("query")
@click.argument("question")
@db_option
@answer_options
@samples_option
@json_option
@show_prompt_option
def query(question: str, db: Path, samples: int, as_json: bool, show_prompt: bool, **kwargs: Any) -> None:
    """Answer QUESTION from the corpus in --db, with citations.

    Exit status: 0 when the model answered (check `contract` for validity),
    3 when the provider call failed.
    """
    opts = pop_answer_options(kwargs)
    if samples > 1 and not opts["temperature"]:
        raise InputError(f"--samples {samples} needs --temperature above 0: at temperature 0 every sample is the same")
    with open_store(db, write=True) as store:  # a read-only store fails here, before any model call
        provider, policy = provider_and_policy(opts, store.chunking())
        verifier = verifier_from(opts)

        def sample(i: int) -> AnswerRecord:
            return engine.query(store, question, policy, provider, verifier, burn=opts["burn"],
                                sample_index=opts["sample_index"] + i)

        records = [_kept(partial(sample, i), as_json, show_prompt) for i in range(samples)]
    _finish(records[0] if samples == 1 else _chosen(records), as_json, show_prompt)


@click.command("ask")
@click.argument("document")
@click.argument("question")
@db_option(required=False)
@answer_options
@json_option
@show_prompt_option
def ask(document: str, question: str, db: Path | None, as_json: bool, show_prompt: bool, **kwargs: Any) -> None:
    """Answer QUESTION from one DOCUMENT: a file, or a document id in --db.

    The document is chunked and its chunks ranked, selected and admitted as
    in `query`. --db is optional: with it the answer is cached and audited
    there; without it, nothing is written.
    """
    opts = pop_answer_options(kwargs)
    path = Path(document)
    if path.exists():
        docs = load_documents([path])
        if len(docs) != 1:
            raise InputError(f"'{document}' holds {len(docs)} documents; `ask` takes exactly one")
        doc = docs[0]
    elif db is None:
        raise InputError(f"no file '{document}' (to name a document by id, give --db)")
    else:
        with open_store(db) as store:
            found = store.document(document)
        if found is None:
            raise InputError(f"no file or document id '{document}' in store '{db}'")
        doc = found
    if db is None:
        provider, policy = provider_and_policy(opts, None)
        verifier = verifier_from(opts)
        record = repair_answer(verify_record(answer_document(doc, question, policy, provider), verifier), provider,
                               verifier, None)
    else:
        with open_store(db, write=True) as store:
            provider, policy = provider_and_policy(opts, store.chunking())
            record = _kept(lambda: engine.ask(store, doc, question, policy, provider, verifier_from(opts),
                                              burn=opts["burn"], sample_index=opts["sample_index"]),
                           as_json, show_prompt)
    _finish(record, as_json, show_prompt)
