"""The governed answer: cache lookup, the answer path, verification, audit.

This is what `arborist query` and `arborist ask` run. The answer path
below it knows nothing of caches or audit; the verifier knows nothing of
models. Every answer, served from cache or not, appends one audit event,
in the same transaction as any cache row it writes: a cached answer never
exists without the event that attests it. A cached answer is served only if
the store's schema is intact, its row matches that event's digest, its
evidence is still the store's, and it is re-verified against the store's
chunks on every hit (see `_served`).
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from arborist.answer.contract import ContractReason
from arborist.answer.pipeline import (
    answer_document,
    answer_from_admitted,
    answer_question,
    answer_retrieved,
    check_question,
    document_chunks,
)
from arborist.answer.record import NO_TREATMENT, AnswerRecord
from arborist.answer.repair import repair_answer
from arborist.answer.verification import corpus_weights, verify_record
from arborist.corpus.documents import SourceDocument, corpus_digest
from arborist.corpus.store import CorpusStore, schema_problems
from arborist.errors import InputError, StoreError
from arborist.evidence.admission import Admission
from arborist.governance import cache
from arborist.models.base import Provider
from arborist.policy.answer import AnswerPolicy, governance_policy_hash
from arborist.policy.canonical import canonical_json, tagged_digest
from arborist.retrieval.search import SearchResult
from arborist.verify import VerifierPolicy, verifier_policy_hash


class AnswerNotStored(StoreError):
    """The answer was made (a model call may have been paid for) but the store refused the write
    (a full disk, a store gone read-only): the caller still gets `record` to show, and says it was
    neither cached nor audited."""

    def __init__(self, record: AnswerRecord, store: CorpusStore, cause: sqlite3.Error) -> None:
        super().__init__(
            f"the answer could not be stored in '{store.path}' ({cause}): it was shown above but is neither "
            "cached nor audited; free some disk space (or restore write access) and ask again to record it"
        )
        self.record = record


def _audit_body(record: AnswerRecord) -> dict[str, object]:
    """What the audit chain fixes about an answer: enough to re-check the stored record later."""
    v = record.verification
    return {
        "record_id": record.record_id,
        "question_sha256": hashlib.sha256(record.question.encode("utf-8")).hexdigest(),
        "corpus_digest": record.corpus_digest,
        "governance_policy_hash": record.governance_policy_hash,
        "verifier_policy_hash": v.verifier_policy_hash if v else None,
        "answerability_policy_hash": record.answerability_policy_hash,
        "model_id": record.completion.model_id,
        "prompt_sha256": record.prompt.sha256,
        "response_sha256": hashlib.sha256(record.completion.text.encode("utf-8", "surrogatepass")).hexdigest(),
        "contract": record.contract.reason,
        "label": v.label.value if v else None,
        "basis": v.basis if v else None,
        "n_judged": v.n_entailed if v else 0,
        "audit_mode": v.audit_mode.value if v else None,
        "cited_chunk_ids": record.citation_chunk_ids,
        "repairs": [{"kind": r.kind, "claim": r.claim} for r in record.repairs],
        "attempts": [{"kind": a.kind, "response_sha256": hashlib.sha256(
            a.completion.text.encode("utf-8", "surrogatepass")).hexdigest(), "contract": a.contract.reason,
            "label": a.label, "kept": a.kept} for a in record.attempts],
        "cache_hit": record.cache_hit,
        "record_sha256": hashlib.sha256(
            canonical_json(record.model_dump(mode="json")).encode("utf-8", "surrogatepass")
        ).hexdigest(),
    }


@dataclass
class Pending:
    """A governed answer between its cache lookup and its write.

    The lab's executors split `governed` in three: the driver looks up the
    cache (`look_up`) and writes the cache row and audit event (`settle`); the
    model call and verification (`produce_verified`) touch no store, so they may
    run anywhere. `record` is set when the cache served the answer.
    """

    key: str
    sample_index: int
    path: str
    verifier: VerifierPolicy
    weights: dict[str, float] | None
    run_id: str | None
    record: AnswerRecord | None
    rewrite: bool
    rejected: str | None


def look_up(
    store: CorpusStore,
    question: str,
    policy: AnswerPolicy,
    evidence_of: Callable[[list[str]], cache.KnownEvidence],
    verifier: VerifierPolicy,
    burn: bool = False,
    sample_index: int = 0,
    answer_corpus_digest: str | None = None,
    path: str = "query",
    treatment: str = NO_TREATMENT,
    run_id: str | None = None,
) -> Pending:
    """The cache's answer for this question, checked (see `_served`), or a Pending without one."""
    check_question(question)  # before the cache key is computed from it
    digest = answer_corpus_digest or store.digest()
    governance = governance_policy_hash(policy)
    key = cache.cache_key(question, digest, governance, sample_index, path, treatment)
    # Rule 13 weighs the question's words by their rarity in the corpus the answer came from (the store's;
    # the single-document path has no corpus to weigh by, so the rule does not run there, nor when it is off).
    rule_13 = answer_corpus_digest is None and verifier.answerability_threshold > 0
    weights = corpus_weights(store, question) if rule_13 else None
    record: AnswerRecord | None = None
    rejected: str | None = None
    row = None if burn else cache.get_row(store.db, key)
    rewrite = False
    if row is not None:
        record, rewrite, rejected = _served(store, row, (question, digest, governance),
                                            evidence_of, verifier, weights)
    return Pending(key=key, sample_index=sample_index, path=path, verifier=verifier, weights=weights, run_id=run_id,
                   record=record, rewrite=rewrite, rejected=rejected)


def produce_verified(pending: Pending, produce: Callable[[], AnswerRecord], provider: Provider | None) -> AnswerRecord:
    """A fresh answer, stamped with the run that paid for it, verified and repaired as its policy says (a
    revision turn calls `provider` again): no store is read or written."""
    record = produce()
    if pending.run_id is not None:
        record = record.model_copy(update={"run_id": pending.run_id})
    return repair_answer(verify_record(record, pending.verifier, pending.weights), provider, pending.verifier,
                         pending.weights)


def settle(store: CorpusStore, pending: Pending, record: AnswerRecord) -> AnswerRecord:
    """Write the cache row (a fresh answer, or a served one verified under another verifier policy) and the
    audit event, in one transaction. A failed provider call is not an answer: the next query tries again."""
    rewrite = pending.rewrite if pending.record is not None else (
        record.contract.reason is not ContractReason.PROVIDER_ERROR)
    if pending.rejected is not None:
        record = record.model_copy(update={"cache_rejected": pending.rejected})
    body = {"path": pending.path, **_audit_body(record), "cache_rejected": pending.rejected}
    try:
        cache.record_and_audit(store.db, pending.key if rewrite else None, record, pending.sample_index, body)
    except sqlite3.OperationalError as exc:  # SQLITE_FULL, SQLITE_IOERR, SQLITE_READONLY...: rolled back
        raise AnswerNotStored(record, store, exc) from exc
    return record


def governed(
    store: CorpusStore,
    question: str,
    policy: AnswerPolicy,
    produce: Callable[[], AnswerRecord],
    evidence_of: Callable[[list[str]], cache.KnownEvidence],
    verifier: VerifierPolicy,
    burn: bool = False,
    sample_index: int = 0,
    answer_corpus_digest: str | None = None,
    path: str = "query",
    treatment: str = NO_TREATMENT,
    run_id: str | None = None,
    provider: Provider | None = None,
) -> AnswerRecord:
    """Serve from the cache unless `burn`; otherwise produce, verify, repair (a revision asks `provider`) and
    store. Always audit.

    `answer_corpus_digest` names the documents the answer came from when that
    is not the store's corpus (the single-document `ask` path). `run_id`
    stamps a freshly produced record with the lab run that paid for it; a
    cached record keeps the run id it was produced under. `evidence_of` gives the
    title and text of chunk ids as the source of truth holds them (the store's
    chunks, a fixed admitted list, the chunked document): a cached answer is
    checked and re-verified against those, never against its own copies.
    """
    pending = look_up(store, question, policy, evidence_of, verifier, burn=burn, sample_index=sample_index,
                      answer_corpus_digest=answer_corpus_digest, path=path, treatment=treatment, run_id=run_id)
    record = pending.record if pending.record is not None else produce_verified(pending, produce, provider)
    return settle(store, pending, record)


def _served(
    store: CorpusStore, row: cache.CachedRow, identity: tuple[str, str, str],
    evidence_of: Callable[[list[str]], cache.KnownEvidence], verifier: VerifierPolicy,
    weights: dict[str, float] | None,
) -> tuple[AnswerRecord | None, bool, str | None]:
    """The cached record to serve, verified by today's verifier against the store's evidence, and whether
    its row is to be rewritten (it was verified under another verifier policy); or None and why not.

    In order: the store's schema (without its append-only triggers the audit
    chain attests nothing), the row's audit event, the row itself, the record's
    evidence against the store's chunks, and its label: re-verified against
    the store's texts under the verifier policy it was stored with, it must
    come out as it was stored, or the answer was altered.
    """
    altered = schema_problems(store.db)
    if altered:
        return None, False, (f"the store's schema is not what its migrations create ({altered[0]}): "
                             "it was written outside arborist")
    rejected = cache.attestation_problem(store.db, row)
    if rejected is not None:
        return None, False, rejected
    record = cache.parse_row(row)
    if record is None:
        return None, False, "the cached row is not a readable answer record"
    if (record.question, record.corpus_digest, record.governance_policy_hash) != identity:
        return None, False, "the cached row answers another question, corpus or policy: it was moved"
    known = evidence_of([e.chunk_id for e in record.evidence])
    rejected = cache.evidence_problem(record, known)
    if rejected is not None:
        return None, False, rejected
    old = record.verification
    same_policy = old is not None and old.verifier_policy_hash == verifier_policy_hash(verifier)
    if record.repairs and not same_policy:
        # which attempt won, and what a snap moved, were decided by the verifier it was stored under
        return None, False, ("its repairs were decided under another verifier policy: the answer is made afresh "
                             "under this one")
    # Cheap and deterministic: the label served is always today's verifier's, on the store's texts.
    verified = verify_record(cache.with_known_evidence(record, known), verifier, weights)
    new = verified.verification
    if old is not None and new is not None and same_policy and (new.label, new.audit_mode) != (old.label, old.audit_mode):
        return None, False, (
            f"re-verified against the store's chunks it is {new.label.value}, but it was stored as "
            f"{old.label.value} under the same verifier policy: it was altered (or the verifier changed "
            "without its policy hash)")
    return verified, not same_policy, None

@dataclass
class Job:
    """One governed answer, looked up: `work(provider)` makes it when the cache did not serve it, reading no
    store. `work` is picklable (it holds values, not the provider), so another process can do it with a
    provider of its own (the lab's Ray executor)."""

    pending: Pending
    work: Callable[[Provider], AnswerRecord]
    provider: Provider

    @property
    def served(self) -> bool:
        return self.pending.record is not None

    def produce(self) -> AnswerRecord:
        return self.work(self.provider)


@dataclass(frozen=True)
class RetrievedWork:
    """Every boundary after retrieval for one ranked list and sample (`answer_retrieved`)."""

    question: str
    result: SearchResult
    retrieve_s: float
    policy: AnswerPolicy
    corpus_digest: str
    sample_index: int

    def __call__(self, provider: Provider) -> AnswerRecord:
        return answer_retrieved(self.question, self.result, self.retrieve_s, self.policy, provider,
                                self.corpus_digest, self.sample_index)


@dataclass(frozen=True)
class AdmittedWork:
    """Generation from a fixed admitted evidence list under a treatment (`answer_from_admitted`)."""

    question: str
    admission: Admission
    policy: AnswerPolicy
    corpus_digest: str
    treatment: str
    sample_index: int
    run_id: str | None
    ranked: SearchResult | None

    def __call__(self, provider: Provider) -> AnswerRecord:
        timings: dict[str, float] = {}
        record = answer_from_admitted(
            self.question, self.admission, self.policy, provider, self.corpus_digest, timings,
            treatment=self.treatment, sample_index=self.sample_index, run_id=self.run_id, ranked=self.ranked,
        )
        record.timings["total"] = round(sum(timings.values()), 6)
        return record


def run_job(store: CorpusStore, job: Job) -> AnswerRecord:
    """A job done in one place: served or produced and verified, then stored and audited."""
    record = job.pending.record
    if record is None:
        record = produce_verified(job.pending, job.produce, job.provider)
    return settle(store, job.pending, record)


def query_job(
    store: CorpusStore, question: str, policy: AnswerPolicy, provider: Provider, verifier: VerifierPolicy,
    ranked: tuple[SearchResult, float], burn: bool = False, sample_index: int = 0, run_id: str | None = None,
) -> Job:
    """The governed answer from a ranked list already retrieved (`pipeline.retrieve`): what the lab's driver
    hands its workers."""
    pending = look_up(store, question, policy,
                      lambda ids: {c.chunk_id: (c.title, c.text) for c in store.chunks_by_id(ids).values()},
                      verifier, burn=burn, sample_index=sample_index, run_id=run_id)
    result, seconds = ranked
    return Job(pending, RetrievedWork(question, result, seconds, policy, store.digest(), sample_index), provider)


def query(
    store: CorpusStore, question: str, policy: AnswerPolicy, provider: Provider,
    verifier: VerifierPolicy, burn: bool = False, sample_index: int = 0, run_id: str | None = None,
) -> AnswerRecord:
    return governed(
        store, question, policy, lambda: answer_question(store, question, policy, provider, sample_index),
        lambda ids: {c.chunk_id: (c.title, c.text) for c in store.chunks_by_id(ids).values()},
        verifier, burn=burn, sample_index=sample_index, run_id=run_id, provider=provider,
    )


def admitted_job(
    store: CorpusStore, question: str, admission: Admission, treatment: str, policy: AnswerPolicy,
    provider: Provider, verifier: VerifierPolicy, burn: bool = False, sample_index: int = 0,
    run_id: str | None = None, ranked: SearchResult | None = None,
) -> Job:
    """The governed answer from a fixed admitted evidence list under a named treatment.

    The treatment and the sample index are part of the cache key, so a
    permuted or withheld evidence list never serves the untreated answer.
    `ranked`, the search result the admission came from, goes into the
    record (its ranked ids and route ranks) so the record shows every boundary.
    """
    if treatment == NO_TREATMENT:
        raise InputError("a fixed admitted evidence list needs a treatment name (what was done to it)")
    work = AdmittedWork(question, admission, policy, store.digest(), treatment, sample_index, run_id, ranked)

    # The key names the evidence itself too: two treatments of one name over
    # different admitted lists (another question's plant, another withheld id) never share a slot.
    evidence = tagged_digest("arborist-admitted/1", [[c.chunk_id, c.text] for c in admission.admitted])
    admitted = {c.chunk_id: (c.title, c.text) for c in admission.admitted}
    pending = look_up(store, question, policy, lambda _ids: admitted, verifier, burn=burn,
                      sample_index=sample_index, path="admitted", treatment=f"{treatment}@{evidence}", run_id=run_id)
    return Job(pending, work, provider)


def answer_admitted(
    store: CorpusStore, question: str, admission: Admission, treatment: str, policy: AnswerPolicy,
    provider: Provider, verifier: VerifierPolicy, burn: bool = False, sample_index: int = 0,
    run_id: str | None = None, ranked: SearchResult | None = None,
) -> AnswerRecord:
    """`admitted_job`, done in place."""
    return run_job(store, admitted_job(store, question, admission, treatment, policy, provider, verifier, burn=burn,
                                       sample_index=sample_index, run_id=run_id, ranked=ranked))


def ask(
    store: CorpusStore, doc: SourceDocument, question: str, policy: AnswerPolicy, provider: Provider,
    verifier: VerifierPolicy, burn: bool = False, sample_index: int = 0,
) -> AnswerRecord:
    return governed(
        store, question, policy, lambda: answer_document(doc, question, policy, provider, sample_index),
        lambda _ids: document_chunks(doc, policy.chunking), verifier, burn=burn, sample_index=sample_index,
        answer_corpus_digest=corpus_digest([doc]), path="ask", provider=provider,
    )
