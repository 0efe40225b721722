"""The answer path: retrieve -> select -> admit -> assemble -> generate -> contract.

Each boundary is timed and recorded. Nothing here raises for a bad model
answer: the contract result says what went wrong and the record keeps it.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from arborist.answer.contract import check_contract
from arborist.answer.record import (
    NO_TREATMENT,
    AnswerRecord,
    EvidenceEntry,
    PromptRecord,
)
from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.documents import SourceDocument
from arborist.corpus.store import CorpusStore, open_store
from arborist.errors import InputError
from arborist.evidence.admission import Admission, EvidenceChunk, admit
from arborist.ingest import embed_missing
from arborist.models.base import GenerationSettings, Message, Provider
from arborist.policy.answer import AnswerPolicy, governance_policy_hash
from arborist.policy.canonical import tagged_digest
from arborist.prompting.layouts import AUTO, evidence_id, render_user_payload
from arborist.prompting.modes import json_schema
from arborist.retrieval.search import SearchHit, SearchResult, search
from arborist.text import sentences
from arborist.verify.quantifier import QuantifierClass, classify_quantifier

MAX_QUESTION_CHARS = 20_000


def check_question(question: str) -> str:
    if not question.strip():
        raise InputError("the question is empty")
    try:
        question.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(f"the question is not valid UTF-8 text (position {exc.start}); pass UTF-8") from None
    if len(question) > MAX_QUESTION_CHARS:
        raise InputError(
            f"the question has {len(question):,} characters; the answer path takes at most {MAX_QUESTION_CHARS:,}"
        )
    return question


@contextmanager
def _timed(timings: dict[str, float], name: str) -> Iterator[None]:
    t = time.perf_counter()
    yield
    timings[name] = round(time.perf_counter() - t, 6)


AUTO_PER_CHUNK = frozenset({QuantifierClass.ALL, QuantifierClass.COMPREHENSIVE, QuantifierClass.OPEN_REQUEST})


def layout_for(policy: AnswerPolicy, question: str) -> str:
    """The layout rendered for `question`: `auto` is per_chunk for list and extraction questions (the
    verifier's quantifier classes ALL, COMPREHENSIVE, OPEN_REQUEST) and tail otherwise."""
    if policy.layout != AUTO:
        return policy.effective_layout()
    listy = classify_quantifier(question).kind in AUTO_PER_CHUNK
    return policy.effective_layout("per_chunk" if listy else "tail")


def build_messages(question: str, chunks: Sequence[EvidenceChunk], policy: AnswerPolicy, role: str) -> list[Message]:
    return [
        Message(role="system", content=policy.system_prompt_text),
        Message(
            role="user",
            content=render_user_payload(
                question, chunks, layout_for(policy, question), role=role, max_reminder_chars=policy.max_reminder_chars
            ),
        ),
    ]


def ranked_chunks(result: SearchResult) -> list[EvidenceChunk]:
    """A search result as the candidates of EvidenceK selection and admission."""
    return [EvidenceChunk(chunk_id=h.chunk_id, source_id=h.source_id, title=h.title, text=h.text)
            for h in result.results]


def retrieve_and_admit(store: CorpusStore, question: str, policy: AnswerPolicy) -> tuple[SearchResult, Admission]:
    """The untreated path's retrieval and admission, without generating: what an experiment then treats."""
    check_question(question)
    check_chunking(store, policy)
    result = search(store, question, policy.search)
    return result, admit(ranked_chunks(result), policy.evidence_k, policy.context_runes)


def answer_from_ranked(
    question: str,
    result: SearchResult,
    policy: AnswerPolicy,
    provider: Provider,
    corpus_digest: str | None,
    timings: dict[str, float],
    role: str = "retrieved",
    sample_index: int = 0,
) -> AnswerRecord:
    """Every boundary after retrieval, for a ranked list however it was produced."""
    ranked = ranked_chunks(result)
    with _timed(timings, "admit"):
        admission = admit(ranked, policy.evidence_k, policy.context_runes)
    return answer_from_admitted(
        question, admission, policy, provider, corpus_digest, timings, role=role, sample_index=sample_index,
        ranked=result,
    )


def sample_settings(settings: GenerationSettings, sample_index: int) -> GenerationSettings:
    """Sample i draws with seed + i: N samples of one prompt are N different draws, reproducibly."""
    return settings if sample_index == 0 else settings.model_copy(update={"seed": settings.seed + sample_index})


def answer_from_admitted(
    question: str,
    admission: Admission,
    policy: AnswerPolicy,
    provider: Provider,
    corpus_digest: str | None,
    timings: dict[str, float],
    *,
    role: str = "retrieved",
    treatment: str = NO_TREATMENT,
    sample_index: int = 0,
    run_id: str | None = None,
    ranked: SearchResult | None = None,
) -> AnswerRecord:
    """Every boundary after admission: assemble, generate, check the contract.

    The one entry point for a fixed admitted evidence list: an experiment
    that permutes, withholds or plants evidence passes the treated admission
    and names the treatment, which the record (and the cache key) then carry.
    `ranked` is the search result the admission came from (without it the
    record's ranked list is the selected ids).
    """
    with _timed(timings, "assemble"):
        messages = build_messages(question, admission.admitted, policy, role)
        evidence = [
            EvidenceEntry(evidence_id=evidence_id(i), chunk_id=c.chunk_id, source_id=c.source_id, title=c.title, text=c.text)
            for i, c in enumerate(admission.admitted)
        ]
        schema = json_schema(
            policy.mode, [e.evidence_id for e in evidence],
            {e.evidence_id: sentences(e.text) for e in evidence} if policy.grounded_quotes else None,
        )
    with _timed(timings, "generate"):
        completion = provider.complete(messages, sample_settings(policy.generation, sample_index), json_schema=schema)
    with _timed(timings, "contract"):
        contract = check_contract(
            policy.mode, completion.text, [e.evidence_id for e in evidence], provider_error=completion.error
        )
        by_eid = {e.evidence_id: e.chunk_id for e in evidence}
        citations = [by_eid[e] for e in contract.cited_evidence_ids if e in by_eid]
    return AnswerRecord(
        question=question,
        corpus_digest=corpus_digest,
        policy=policy,
        governance_policy_hash=governance_policy_hash(policy),
        run_id=run_id,
        sample_index=sample_index,
        treatment=treatment,
        ranked_chunk_ids=admission.selected_chunk_ids if ranked is None else [h.chunk_id for h in ranked.results],
        route_ranks={} if ranked is None else {h.chunk_id: h.routes for h in ranked.results},
        unavailable_routes={} if ranked is None else ranked.unavailable_routes,
        selected_chunk_ids=admission.selected_chunk_ids,
        admitted_chunk_ids=admission.admitted_chunk_ids,
        omitted_chunk_ids=admission.omitted_chunk_ids,
        omissions=admission.omitted,
        used_runes=admission.used_runes,
        max_runes=admission.max_runes,
        evidence=evidence,
        prompt=PromptRecord(
            messages=messages,
            sha256=tagged_digest("arborist-prompt/1", [m.model_dump() for m in messages]),
            json_schema=schema,
            layout=layout_for(policy, question),
        ),
        completion=completion,
        contract=contract,
        citation_chunk_ids=citations,
        timings=timings,
    )


def check_chunking(store: CorpusStore, policy: AnswerPolicy) -> None:
    """Refuse a policy whose chunking is not the store's: the record would claim settings it did not use."""
    used = store.chunking()
    if used is not None and used != policy.chunking:
        raise InputError(
            f"the policy asks for chunks of {policy.chunking.chunk_runes} runes (overlap {policy.chunking.overlap_runes}), "
            f"but the store was chunked at {used.chunk_runes} (overlap {used.overlap_runes}); "
            "use the store's chunking or ingest into a store with the chunking you want"
        )


def retrieve(store: CorpusStore, question: str, policy: AnswerPolicy) -> tuple[SearchResult, float]:
    """The ranked list for `question` and the seconds it took: the only step of the answer path that reads the store."""
    check_question(question)
    check_chunking(store, policy)
    t = time.perf_counter()
    result = search(store, question, policy.search)
    return result, round(time.perf_counter() - t, 6)


def answer_retrieved(
    question: str, result: SearchResult, retrieve_s: float, policy: AnswerPolicy, provider: Provider,
    corpus_digest: str | None, sample_index: int = 0,
) -> AnswerRecord:
    """Every boundary after retrieval for a ranked list `retrieve` made; reads no store, so it can run
    away from the store (a worker thread or another process)."""
    timings: dict[str, float] = {"retrieve": retrieve_s}
    t0 = time.perf_counter()
    record = answer_from_ranked(question, result, policy, provider, corpus_digest, timings, sample_index=sample_index)
    record.timings["total"] = round(retrieve_s + time.perf_counter() - t0, 6)
    return record


def answer_question(
    store: CorpusStore, question: str, policy: AnswerPolicy, provider: Provider, sample_index: int = 0
) -> AnswerRecord:
    """Answer `question` from the corpus in `store`."""
    result, retrieve_s = retrieve(store, question, policy)
    return answer_retrieved(question, result, retrieve_s, policy, provider, store.digest(), sample_index)


@contextmanager
def _document_store(doc: SourceDocument, chunking: ChunkingSettings) -> Iterator[CorpusStore]:
    """A temporary store holding `doc` alone, chunked as the single-document path chunks it."""
    with tempfile.TemporaryDirectory(prefix="arborist-ask-") as tmp, \
            open_store(Path(tmp) / "doc.db", create=True) as store:
        store.ingest([doc], chunking)
        yield store


def document_chunks(doc: SourceDocument, chunking: ChunkingSettings) -> dict[str, tuple[str, str]]:
    """chunk id -> (title, text) of `doc` as `answer_document` chunks it: what a cached `ask` answer is checked against."""
    with _document_store(doc, chunking) as store:
        return {c.chunk_id: (c.title, c.text) for c in store.all_chunks()}


def answer_document(
    doc: SourceDocument, question: str, policy: AnswerPolicy, provider: Provider, sample_index: int = 0
) -> AnswerRecord:
    """The single-document path: chunk `doc` with the policy's chunking, rank its chunks
    against the question with the same routes, then admit and answer the same way.

    Chunks no route found follow in document order, so the whole document
    stays a candidate when the budget allows.
    """
    check_question(question)
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    with _timed(timings, "retrieve"), _document_store(doc, policy.chunking) as store:
        if "dense" in policy.search.routes:
            embed_missing(store)
        chunks = store.all_chunks()
        result = search(store, question, policy.search.model_copy(update={"k": len(chunks)}))
        digest = store.digest()
    found = {h.chunk_id for h in result.results}
    tail = [
        SearchHit(rank=len(found) + i, chunk_id=c.chunk_id, doc_id=c.doc_id, source_id=c.source_id,
                  title=c.title, score=0.0, routes={}, text=c.text)
        for i, c in enumerate((c for c in chunks if c.chunk_id not in found), start=1)
    ]
    result = result.model_copy(update={"results": result.results + tail})
    record = answer_from_ranked(
        question, result, policy, provider, digest, timings, role="document", sample_index=sample_index
    )
    record.timings["total"] = round(time.perf_counter() - t0, 6)
    return record
