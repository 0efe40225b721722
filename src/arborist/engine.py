"""The governed answer: cache lookup, the answer path, verification, audit.

This is what `arborist query` and `arborist ask` run. The answer path
below it knows nothing of caches or audit; the verifier knows nothing of
models. Every answer, served from cache or not, appends one audit event.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from arborist.answer.contract import ContractReason
from arborist.answer.pipeline import answer_document, answer_question
from arborist.answer.record import AnswerRecord
from arborist.answer.verification import verify_record
from arborist.corpus.documents import SourceDocument, corpus_digest
from arborist.corpus.store import CorpusStore
from arborist.governance import audit, cache
from arborist.governance.canonical import canonical_json
from arborist.governance.policy import AnswerPolicy, governance_policy_hash
from arborist.models.base import Provider
from arborist.verify import VerifierPolicy, verifier_policy_hash


def _audit_body(record: AnswerRecord) -> dict[str, object]:
    """What the audit chain fixes about an answer: enough to re-check the stored record later."""
    v = record.verification
    return {
        "record_id": record.record_id,
        "question_sha256": hashlib.sha256(record.question.encode("utf-8")).hexdigest(),
        "corpus_digest": record.corpus_digest,
        "governance_policy_hash": record.governance_policy_hash,
        "verifier_policy_hash": v.verifier_policy_hash if v else None,
        "model_id": record.completion.model_id,
        "prompt_sha256": record.prompt.sha256,
        "response_sha256": hashlib.sha256(record.completion.text.encode("utf-8")).hexdigest(),
        "contract": record.contract.reason,
        "label": v.label.value if v else None,
        "audit_mode": v.audit_mode.value if v else None,
        "cited_chunk_ids": record.citation_chunk_ids,
        "cache_hit": record.cache_hit,
        "record_sha256": hashlib.sha256(canonical_json(record.model_dump(mode="json")).encode()).hexdigest(),
    }


def governed(
    store: CorpusStore,
    question: str,
    policy: AnswerPolicy,
    produce: Callable[[], AnswerRecord],
    verifier: VerifierPolicy,
    burn: bool = False,
    sample_index: int = 0,
    answer_corpus_digest: str | None = None,
    path: str = "query",
) -> AnswerRecord:
    """Serve from the cache unless `burn`; otherwise produce, verify and store. Always audit.

    `answer_corpus_digest` names the documents the answer came from when that
    is not the store's corpus (the single-document `ask` path).
    """
    digest = answer_corpus_digest or store.digest()
    key = cache.cache_key(question, digest, governance_policy_hash(policy), sample_index, path)
    record = None if burn else cache.get(store.db, key)
    stale = record is not None and (
        record.verification is None or record.verification.verifier_policy_hash != verifier_policy_hash(verifier)
    )
    if record is None or stale:
        if record is None:
            record = produce()
        # A cached answer under an older verifier policy is re-verified, never regenerated.
        record = verify_record(record, verifier)
        # A failed provider call is not an answer: the next query must try again.
        if record.contract.reason is not ContractReason.PROVIDER_ERROR:
            cache.put(store.db, key, record.model_copy(update={"cache_hit": False}), sample_index)
    audit.append_event(store.db, "answer", {"path": path, **_audit_body(record)})
    return record


def query(
    store: CorpusStore, question: str, policy: AnswerPolicy, provider: Provider,
    verifier: VerifierPolicy, burn: bool = False, sample_index: int = 0,
) -> AnswerRecord:
    return governed(
        store, question, policy, lambda: answer_question(store, question, policy, provider),
        verifier, burn=burn, sample_index=sample_index,
    )


def ask(
    store: CorpusStore, doc: SourceDocument, question: str, policy: AnswerPolicy, provider: Provider,
    verifier: VerifierPolicy, burn: bool = False, sample_index: int = 0,
) -> AnswerRecord:
    return governed(
        store, question, policy, lambda: answer_document(doc, question, policy, provider),
        verifier, burn=burn, sample_index=sample_index, answer_corpus_digest=corpus_digest([doc]), path="ask",
    )
