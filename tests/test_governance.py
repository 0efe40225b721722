"""Governance: the answer policy and its hash, the verifier policy hash, and the answer cache.

Everything here uses the scripted provider (it replays queued texts and
records every call in `history`), so "was the model called?" is a plain
count, and stores are ingested without vectors (no embedding model loads).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from arborist import engine
from arborist.answer.record import AnswerRecord
from arborist.corpus import ChunkingSettings, CorpusStore, open_store
from arborist.errors import InputError
from arborist.governance import cache
from arborist.ingest import ingest_paths
from arborist.models.base import GenerationSettings
from arborist.models.scripted import NO_RESPONSE, ScriptedProvider
from arborist.policy.answer import GOVERNANCE_TAG, AnswerPolicy, build_policy, governance_policy_hash
from arborist.policy.answerability import (
    ANSWERABILITY_HASH_TAG,
    AnswerabilityPolicy,
    answerability_policy_hash,
)
from arborist.policy.canonical import canonical_json, tagged_digest
from arborist.prompting.modes import PROMPT_VERSION
from arborist.retrieval.search import SearchSettings
from arborist.text import TEXT_RULES_VERSION
from arborist.verify import PolicyError, VerifierPolicy, verifier_policy_hash
from arborist.verify import load_policy as load_verifier_policy
from arborist.verify.policy import rule_tables_digest

MODEL_ID = "scripted:scripted"
LEXICAL = SearchSettings(routes=("bm25", "title", "phrase"))
QUESTION = "How long is the refund window for annual plans?"

REFUND = "# Refund Policy\n\nAnnual plans can be refunded within 30 days of purchase. Monthly plans are not refundable.\n"
SHIPPING = "# Shipping\n\nOrders ship within 2 business days from the Berlin warehouse. Annual plans include free shipping.\n"
SECURITY = "# Security\n\nPasswords are rotated every 90 days.\n"


def policy(**values: object) -> AnswerPolicy:
    values.setdefault("model_id", MODEL_ID)
    values.setdefault("search", LEXICAL)
    values.setdefault("repair", "none")  # these tests count model calls per answer; repairs are tests/test_repair.py's
    return build_policy(**values)


def claim_answer(text: str = "Annual plans can be refunded within 30 days", *eids: str) -> str:
    ids = list(eids or ("E1",))
    return json.dumps({"claims": [{"text": text, "evidence_ids": ids, "quote": text}], "abstained_requests": []})


ANSWER_A = claim_answer("Annual plans can be refunded within 30 days")
ANSWER_B = claim_answer("Monthly plans are not refundable")


# --- fixtures ------------------------------------------------------------------------------------


@pytest.fixture
def corpus_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "refund.md").write_text(REFUND, encoding="utf-8")
    (folder / "shipping.md").write_text(SHIPPING, encoding="utf-8")
    (folder / "security.md").write_text(SECURITY, encoding="utf-8")
    return folder


@pytest.fixture
def db_path(tmp_path: Path, corpus_dir: Path) -> Path:
    db = tmp_path / "gov.db"
    report, embedded = ingest_paths(db, [corpus_dir], ChunkingSettings(), embed=False)
    assert embedded == 0 and report.documents == 3
    return db


@pytest.fixture
def store(db_path: Path) -> Iterator[CorpusStore]:
    with open_store(db_path) as s:
        yield s


def ask(store: CorpusStore, pol: AnswerPolicy, provider: ScriptedProvider, verifier: VerifierPolicy | None = None,
        **kw: Any) -> AnswerRecord:
    return engine.query(store, kw.pop("question", QUESTION), pol, provider, verifier or VerifierPolicy(), **kw)


def snapshot_corpus(store: CorpusStore) -> dict[str, Any]:
    db = store.db
    return {
        "documents": db.execute("SELECT * FROM documents ORDER BY doc_id").fetchall(),
        "chunks": db.execute("SELECT * FROM chunks ORDER BY id").fetchall(),
        "fts": db.execute("SELECT rowid, body, title FROM chunks_fts ORDER BY rowid").fetchall(),
        "vectors": db.execute("SELECT * FROM vectors ORDER BY chunk_rowid").fetchall(),
        "meta": db.execute("SELECT * FROM meta ORDER BY key").fetchall(),
        "digest": store.digest(),
        "counts": store.counts(),
    }


# --- 1. policy hashes ------------------------------------------------------------------------------


POLICY_CHANGES: list[tuple[str, dict[str, object]]] = [
    ("layout bookend", {"layout": "bookend"}),
    ("layout per_chunk", {"layout": "per_chunk"}),
    ("mode quote", {"mode": "quote"}),
    ("mode pointer", {"mode": "claim_lattice_pointer"}),
    ("evidence_k", {"evidence_k": 6}),
    ("context_runes", {"context_runes": 11_999}),
    ("chunking", {"chunking": ChunkingSettings(chunk_runes=400, overlap_runes=40)}),
    ("model_id", {"model_id": "local:qwen2.5-1.5b@cc324af070c2"}),
    ("temperature", {"generation": GenerationSettings(temperature=0.7)}),
    ("max_tokens", {"generation": GenerationSettings(max_tokens=64)}),
    ("seed", {"generation": GenerationSettings(seed=1)}),
    ("prompt_version", {"prompt_version": "v2"}),
    ("max_reminder_chars", {"max_reminder_chars": 64}),
    ("routes", {"search": SearchSettings(routes=("bm25", "title"))}),
    ("route weights", {"search": LEXICAL.model_copy(update={"route_weights": {"bm25": 2.0}})}),
    ("retrieve k", {"search": LEXICAL.model_copy(update={"k": 21})}),
    ("rrf_k", {"search": LEXICAL.model_copy(update={"rrf_k": 30})}),
    ("fusion", {"search": LEXICAL.model_copy(update={"fusion": "rrf"})}),
    ("title_filter", {"search": LEXICAL.model_copy(update={"title_filter": True})}),
]


@pytest.mark.parametrize("change", [c for _, c in POLICY_CHANGES], ids=[n for n, _ in POLICY_CHANGES])
def test_every_answer_knob_changes_the_governance_hash_and_never_the_verifier_hash(change: dict[str, object]) -> None:
    verifier_before = verifier_policy_hash(VerifierPolicy())
    base, changed = policy(), policy(**change)
    assert base != changed
    assert governance_policy_hash(base) != governance_policy_hash(changed)
    # the verifier policy is separate: no AnswerPolicy change can move its hash
    assert verifier_policy_hash(VerifierPolicy()) == verifier_before == verifier_policy_hash()


def test_all_policy_changes_give_distinct_governance_hashes() -> None:
    hashes = [governance_policy_hash(policy())] + [governance_policy_hash(policy(**c)) for _, c in POLICY_CHANGES]
    assert len(set(hashes)) == len(hashes)


def test_changing_only_the_layout_keeps_every_other_field() -> None:
    tail, bookend = policy(layout="tail"), policy(layout="bookend")
    a, b = tail.model_dump(mode="json"), bookend.model_dump(mode="json")
    assert {k for k in a if a[k] != b[k]} == {"layout"}
    assert governance_policy_hash(tail) != governance_policy_hash(bookend)


VERIFIER_CHANGES: list[dict[str, object]] = [
    {"paraphrase_threshold": 0.8},
    {"paraphrase_threshold": 0.0},
    {"max_evidence_ids": 1},
    {"max_evidence_ids": 4},
    {"span_window_factor": 2.0},
    {"paraphrase_window_factor": 3.0},
    {"title_relevance": False},
    {"guard_proximity_runes": 50},
]


@pytest.mark.parametrize("change", VERIFIER_CHANGES, ids=lambda c: next(iter(c)))
def test_every_verifier_knob_changes_the_verifier_hash_and_never_the_governance_hash(change: dict[str, object]) -> None:
    answer_policy = policy(layout="bookend")
    governance_before = governance_policy_hash(answer_policy)
    assert verifier_policy_hash(VerifierPolicy(**change)) != verifier_policy_hash(VerifierPolicy())
    assert governance_policy_hash(answer_policy) == governance_before
    assert governance_policy_hash(policy(layout="bookend")) == governance_before


def test_the_missed_answer_demote_knob_has_its_own_answerability_hash() -> None:
    """DESIGN §4: toggling it moves only answerability_policy_hash, never the verifier's or the governance hash;
    the old flat spelling (`demote_missed_answer` at the top of a verifier policy) still reads as the same knob."""
    answer_policy = policy(layout="bookend")
    off, on = VerifierPolicy(), VerifierPolicy(answerability=AnswerabilityPolicy(demote_missed_answer=True))
    assert verifier_policy_hash(on) == verifier_policy_hash(off)
    assert answerability_policy_hash(on.answerability) != answerability_policy_hash(off.answerability)
    assert answerability_policy_hash(off.answerability) == answerability_policy_hash()
    assert governance_policy_hash(answer_policy) == governance_policy_hash(policy(layout="bookend"))
    assert VerifierPolicy(demote_missed_answer=True) == on
    assert load_verifier_policy({"demote_missed_answer": True}) == on
    expected = hashlib.sha256(ANSWERABILITY_HASH_TAG.encode() + b"\x00"
                              + canonical_json({"demote_missed_answer": True, "version": 1}).encode())
    assert answerability_policy_hash(on.answerability) == "sha256:" + expected.hexdigest()


def test_policy_hash_formats() -> None:
    pol = policy()
    expected = hashlib.sha256(GOVERNANCE_TAG.encode() + b"\x00" + canonical_json(pol.model_dump(mode="json")).encode())
    assert governance_policy_hash(pol) == "sha256:" + expected.hexdigest()
    v = VerifierPolicy()
    body = {"policy": v.model_dump(mode="json", exclude={"answerability"}), "text_rules": TEXT_RULES_VERSION, "rules": rule_tables_digest()}
    payload = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)  # UTF-8 kept
    assert verifier_policy_hash(v) == "sha256:" + hashlib.sha256(b"arborist-verifier-policy/33\0" + payload.encode()).hexdigest()
    # the two hashes are of different kinds and never collide, even for the same JSON
    assert tagged_digest("a", {}) != tagged_digest("b", {})
    assert governance_policy_hash(pol) != verifier_policy_hash(v)


def test_equal_answer_policies_built_in_different_orders_hash_equal() -> None:
    weights = {"bm25": 1.0, "title": 0.5, "phrase": 2.0}
    reversed_weights = dict(reversed(list(weights.items())))
    a = build_policy(
        model_id=MODEL_ID, layout="bookend", mode="quote", evidence_k=4, context_runes=5000,
        generation={"temperature": 0.5, "max_tokens": 100, "seed": 3},
        search={"routes": ["bm25", "title"], "k": 30, "route_weights": weights},
        chunking={"chunk_runes": 400, "overlap_runes": 40},
    )
    b = build_policy(
        chunking=ChunkingSettings(overlap_runes=40, chunk_runes=400),
        search=SearchSettings(route_weights=reversed_weights, k=30, routes=("bm25", "title")),
        generation=GenerationSettings(seed=3, max_tokens=100, temperature=0.5),
        context_runes=5000, evidence_k=4, mode="quote", layout="bookend", model_id=MODEL_ID,
    )
    assert a == b
    assert governance_policy_hash(a) == governance_policy_hash(b)
    # an int where a float is expected is the same policy
    assert governance_policy_hash(policy(generation={"temperature": 0})) == governance_policy_hash(policy())


def test_equal_verifier_policies_built_in_different_orders_hash_equal() -> None:
    a = VerifierPolicy(paraphrase_threshold=0.7, max_evidence_ids=2, title_relevance=False, guard_proximity_runes=10)
    b = VerifierPolicy(guard_proximity_runes=10, title_relevance=False, max_evidence_ids=2, paraphrase_threshold=0.7)
    assert verifier_policy_hash(a) == verifier_policy_hash(b)
    assert verifier_policy_hash(VerifierPolicy(paraphrase_threshold=1)) == verifier_policy_hash(
        VerifierPolicy(paraphrase_threshold=1.0)
    )


def test_hashes_are_the_same_in_another_process() -> None:
    code = (
        "from arborist.policy.answer import build_policy, governance_policy_hash\n"
        "from arborist.verify import VerifierPolicy, verifier_policy_hash\n"
        "print(governance_policy_hash(build_policy(model_id='scripted:scripted', layout='bookend', repair='none', "
        "search={'routes': ['bm25', 'title', 'phrase']})))\n"
        "print(verifier_policy_hash(VerifierPolicy(max_evidence_ids=2)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "12345", "PATH": "",  # the code under test, not an installed copy
                              "PYTHONPATH": os.pathsep.join(sys.path)}).stdout.split()
    assert out == [
        governance_policy_hash(policy(layout="bookend")),
        verifier_policy_hash(VerifierPolicy(max_evidence_ids=2)),
    ]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"layout": "diagonal"}, "unknown layout 'diagonal'; valid layouts: tail, bookend, per_chunk, auto"),
        ({"mode": "essay"}, "unknown answer mode 'essay'; valid modes: quote, claim_lattice, claim_lattice_pointer"),
    ],
)
def test_unknown_layout_or_mode_is_a_one_line_input_error_listing_valid_values(
    values: dict[str, object], expected: str
) -> None:
    with pytest.raises(InputError) as info:
        policy(**values)
    assert str(info.value) == expected


def test_unknown_route_lists_the_valid_routes() -> None:
    with pytest.raises(InputError) as info:
        policy(search={"routes": ["bm25", "telepathy"]})
    message = str(info.value)
    assert "\n" not in message and "'telepathy'" in message
    assert all(r in message for r in ("bm25", "title", "phrase", "dense", "bridge"))


@pytest.mark.parametrize("values", [{"colour": "red"}, {"search": {"colour": "red"}}], ids=["top", "nested"])
def test_extra_policy_field_is_a_one_line_input_error(values: dict[str, object]) -> None:
    with pytest.raises(InputError) as info:
        policy(**values)
    message = str(info.value)
    assert "colour" in message and "\n" not in message


def test_extra_policy_field_error_lists_the_valid_fields() -> None:
    with pytest.raises(InputError) as info:
        policy(colour="red")
    message = str(info.value)
    assert "'colour'" in message and "\n" not in message
    assert all(name in message for name in AnswerPolicy.model_fields)


def test_extra_nested_policy_field_lists_the_nested_valid_fields() -> None:
    with pytest.raises(InputError) as info:
        policy(search={"colour": "red"})
    message = str(info.value)
    assert "colour" in message and "\n" not in message
    assert all(name in message for name in SearchSettings.model_fields)


def test_unknown_policy_version_is_refused() -> None:
    with pytest.raises(InputError) as info:
        policy(version=2)
    message = str(info.value)
    assert "\n" not in message and "2" in message and "valid: 1" in message


def test_unknown_verifier_policy_field_lists_the_valid_fields() -> None:
    with pytest.raises(PolicyError) as info:
        VerifierPolicy(colour="red")
    message = str(info.value)
    assert isinstance(info.value, InputError) and "\n" not in message
    assert "'colour'" in message and all(f in message for f in VerifierPolicy.model_fields)


def test_policy_and_verifier_policy_are_frozen() -> None:
    pol, ver = policy(), VerifierPolicy()
    with pytest.raises(ValidationError):
        pol.layout = "bookend"  # type: ignore[misc]
    with pytest.raises(ValidationError):
        ver.max_evidence_ids = 1  # type: ignore[misc]
    assert pol.prompt_version == PROMPT_VERSION


# --- hashes on the record -------------------------------------------------------------------------------


def test_record_hashes_follow_their_own_policies(store: CorpusStore) -> None:
    provider = ScriptedProvider(ANSWER_A, ANSWER_A, ANSWER_A)
    tail = ask(store, policy(), provider)
    bookend = ask(store, policy(layout="bookend"), provider)
    assert tail.governance_policy_hash != bookend.governance_policy_hash
    assert tail.verifier_policy_hash == bookend.verifier_policy_hash == verifier_policy_hash(VerifierPolicy())

    strict = VerifierPolicy(paraphrase_threshold=0.9)
    other = ask(store, policy(), provider, strict, sample_index=5)
    assert other.governance_policy_hash == tail.governance_policy_hash == governance_policy_hash(policy())
    assert other.verifier_policy_hash == verifier_policy_hash(strict) != tail.verifier_policy_hash
    dumped = json.loads(other.model_dump_json())
    assert dumped["verifier_policy_hash"] == dumped["verification"]["verifier_policy_hash"]


# --- 2. the answer cache -----------------------------------------------------------------------------------


def test_cache_key_partitions_on_every_component() -> None:
    base = cache.cache_key("q", "sha256:c", "sha256:g", 0)
    others = [
        cache.cache_key("q ", "sha256:c", "sha256:g", 0),
        cache.cache_key("q", "sha256:d", "sha256:g", 0),
        cache.cache_key("q", "sha256:c", "sha256:h", 0),
        cache.cache_key("q", "sha256:c", "sha256:g", 1),
    ]
    assert len({base, *others}) == 5
    assert base == cache.cache_key("q", "sha256:c", "sha256:g")


def test_second_identical_query_is_a_cache_hit(store: CorpusStore) -> None:
    provider = ScriptedProvider(ANSWER_A, ANSWER_B)
    first = ask(store, policy(), provider)
    assert first.cache_hit is False and first.contract.valid and len(provider.history) == 1
    assert cache.count(store.db) == 1

    second = ask(store, policy(), provider)
    assert second.cache_hit is True
    assert len(provider.history) == 1 and provider.pending == 1  # no second call
    assert second.record_id == first.record_id
    assert second.contract == first.contract and second.contract.answer == json.loads(ANSWER_A)
    assert second.completion == first.completion
    assert second.citation_chunk_ids == first.citation_chunk_ids
    assert second.verification == first.verification
    assert second.governance_policy_hash == first.governance_policy_hash
    assert second.model_copy(update={"cache_hit": False}) == first
    assert cache.count(store.db) == 1


def test_cache_survives_reopening_the_store(db_path: Path) -> None:
    provider = ScriptedProvider(ANSWER_A)
    with open_store(db_path) as s:
        first = ask(s, policy(), provider)
    with open_store(db_path) as s:
        again = ask(s, policy(), provider)
    assert again.cache_hit and again.record_id == first.record_id and len(provider.history) == 1


def test_burn_bypasses_the_cache_and_stores_the_fresh_answer(store: CorpusStore) -> None:
    provider = ScriptedProvider(ANSWER_A, ANSWER_B)
    first = ask(store, policy(), provider)
    burned = ask(store, policy(), provider, burn=True)
    assert burned.cache_hit is False and len(provider.history) == 2
    assert burned.record_id != first.record_id
    assert burned.contract.answer == json.loads(ANSWER_B)

    after = ask(store, policy(), provider)
    assert after.cache_hit is True and len(provider.history) == 2
    assert after.record_id == burned.record_id and after.contract.answer == json.loads(ANSWER_B)
    assert cache.count(store.db) == 1  # replaced, not added


def test_burn_on_an_empty_cache_also_stores(store: CorpusStore) -> None:
    provider = ScriptedProvider(ANSWER_A)
    burned = ask(store, policy(), provider, burn=True)
    hit = ask(store, policy(), provider)
    assert hit.cache_hit and hit.record_id == burned.record_id and len(provider.history) == 1


def test_burn_that_fails_keeps_the_previous_answer_cached(store: CorpusStore) -> None:
    provider = ScriptedProvider(ANSWER_A)
    first = ask(store, policy(), provider)
    failed = ask(store, policy(), provider, burn=True)  # queue empty now
    assert failed.contract.reason == "PROVIDER_ERROR" and not failed.cache_hit and len(provider.history) == 2
    after = ask(store, policy(), provider)
    assert after.cache_hit and after.record_id == first.record_id and len(provider.history) == 2


@pytest.mark.parametrize(
    "change",
    [{"layout": "bookend"}, {"layout": "per_chunk"}, {"evidence_k": 1}, {"generation": GenerationSettings(temperature=0.5)},
     {"mode": "claim_lattice_pointer"}],
    ids=["bookend", "per_chunk", "evidence_k", "temperature", "mode"],
)
def test_a_different_governance_hash_misses(store: CorpusStore, change: dict[str, object]) -> None:
    provider = ScriptedProvider(ANSWER_A, ANSWER_B)
    first = ask(store, policy(), provider)
    other = ask(store, policy(**change), provider)
    assert other.cache_hit is False and len(provider.history) == 2
    assert other.governance_policy_hash != first.governance_policy_hash
    assert cache.count(store.db) == 2
    # each partition keeps its own answer
    back = ask(store, policy(), provider)
    assert back.cache_hit and back.record_id == first.record_id
    again = ask(store, policy(**change), provider)
    assert again.cache_hit and again.record_id == other.record_id
    assert len(provider.history) == 2


def test_a_different_question_misses(store: CorpusStore) -> None:
    provider = ScriptedProvider(ANSWER_A, ANSWER_B)
    ask(store, policy(), provider)
    other = ask(store, policy(), provider, question=QUESTION + " ")
    assert not other.cache_hit and len(provider.history) == 2


def test_a_different_sample_index_misses(store: CorpusStore) -> None:
    provider = ScriptedProvider(ANSWER_A, ANSWER_B)
    zero = ask(store, policy(), provider)
    one = ask(store, policy(), provider, sample_index=1)
    assert not one.cache_hit and len(provider.history) == 2 and one.record_id != zero.record_id
    assert ask(store, policy(), provider, sample_index=1).record_id == one.record_id
    assert ask(store, policy(), provider, sample_index=0).record_id == zero.record_id
    assert len(provider.history) == 2
    rows = store.db.execute("SELECT sample_index FROM answer_cache ORDER BY sample_index").fetchall()
    assert rows == [(0,), (1,)]


def test_a_different_corpus_digest_misses(tmp_path: Path, db_path: Path, corpus_dir: Path) -> None:
    provider = ScriptedProvider(ANSWER_A, ANSWER_B, ANSWER_A)
    with open_store(db_path) as s:
        original_digest = s.digest()
        first = ask(s, policy(), provider)
    assert first.corpus_digest == original_digest

    (corpus_dir / "refund.md").write_text(REFUND.replace("30 days", "45 days"), encoding="utf-8")
    report, _ = ingest_paths(db_path, [corpus_dir], ChunkingSettings(), embed=False)
    assert report.updated == ["refund.md"] and report.corpus_digest != original_digest
    with open_store(db_path) as s:
        changed = ask(s, policy(), provider)
        assert changed.cache_hit is False and len(provider.history) == 2
        assert changed.corpus_digest == s.digest() == report.corpus_digest
        assert any("45 days" in e.text for e in changed.evidence)

    # the digest is of the content: restoring the document restores the old partition
    (corpus_dir / "refund.md").write_text(REFUND, encoding="utf-8")
    report, _ = ingest_paths(db_path, [corpus_dir], ChunkingSettings(), embed=False)
    assert report.corpus_digest == original_digest
    with open_store(db_path) as s:
        restored = ask(s, policy(), provider)
    assert restored.cache_hit and restored.record_id == first.record_id and len(provider.history) == 2


def test_adding_a_document_misses(db_path: Path, corpus_dir: Path) -> None:
    provider = ScriptedProvider(ANSWER_A, ANSWER_B)
    with open_store(db_path) as s:
        ask(s, policy(), provider)
    (corpus_dir / "new.md").write_text("# Holidays\n\nThe office is closed on public holidays.\n", encoding="utf-8")
    ingest_paths(db_path, [corpus_dir], ChunkingSettings(), embed=False)
    with open_store(db_path) as s:
        assert not ask(s, policy(), provider).cache_hit
    assert len(provider.history) == 2


def test_a_provider_error_is_never_cached(store: CorpusStore) -> None:
    provider = ScriptedProvider()
    failed = ask(store, policy(), provider)
    assert failed.contract.reason == "PROVIDER_ERROR" and failed.completion.error == NO_RESPONSE
    assert failed.verification is not None and failed.verification.label.value == "UNGROUNDED"
    assert cache.count(store.db) == 0

    failed_again = ask(store, policy(), provider)
    assert failed_again.cache_hit is False and len(provider.history) == 2
    assert cache.count(store.db) == 0

    provider.enqueue(ANSWER_A)
    answered = ask(store, policy(), provider)
    assert answered.cache_hit is False and answered.contract.valid and len(provider.history) == 3
    hit = ask(store, policy(), provider)
    assert hit.cache_hit and hit.record_id == answered.record_id and len(provider.history) == 3


def test_an_invalid_answer_is_still_an_answer_and_is_cached(store: CorpusStore) -> None:
    provider = ScriptedProvider("not json at all", ANSWER_A)
    bad = ask(store, policy(), provider)
    assert bad.contract.reason == "PARSE_FAILURE"
    hit = ask(store, policy(), provider)
    assert hit.cache_hit and hit.contract.reason == "PARSE_FAILURE" and len(provider.history) == 1


def test_caching_leaves_the_corpus_untouched(store: CorpusStore) -> None:
    before = snapshot_corpus(store)
    provider = ScriptedProvider(ANSWER_A, ANSWER_B, "garbage")
    ask(store, policy(), provider)
    ask(store, policy(), provider)  # hit
    ask(store, policy(), provider, burn=True)
    ask(store, policy(layout="bookend"), provider)  # "garbage": PARSE_FAILURE, cached
    ask(store, policy(layout="per_chunk"), provider)  # queue empty: PROVIDER_ERROR, not cached
    ask(store, policy(), provider, VerifierPolicy(max_evidence_ids=1))  # re-verify
    assert cache.count(store.db) == 2
    assert snapshot_corpus(store) == before


def test_stored_cache_row_matches_the_record(store: CorpusStore) -> None:
    provider = ScriptedProvider(ANSWER_A)
    record = ask(store, policy(), provider, sample_index=2)
    [(key, question, digest, gov, sample, raw)] = store.db.execute(
        "SELECT key, question, corpus_digest, governance_hash, sample_index, record FROM answer_cache"
    ).fetchall()
    assert key == cache.cache_key(QUESTION, store.digest(), governance_policy_hash(policy()), 2)
    assert (question, digest, gov, sample) == (QUESTION, store.digest(), record.governance_policy_hash, 2)
    stored = AnswerRecord.model_validate_json(raw)
    assert stored.cache_hit is False and stored == record


def test_a_stale_verifier_hash_is_reverified_without_a_provider_call(store: CorpusStore) -> None:
    two_ids = claim_answer("Annual plans can be refunded within 30 days", "E1", "E2")
    provider = ScriptedProvider(two_ids)
    # stricter: one id per claim, judged as cited (re-anchoring would narrow the claim to the block of its quote)
    old_verifier, new_verifier = VerifierPolicy(), VerifierPolicy(max_evidence_ids=1, reanchor_quotes=False)
    first = ask(store, policy(), provider, old_verifier)
    assert len(first.evidence) >= 2 and first.verifier_policy_hash == verifier_policy_hash(old_verifier)
    assert first.verification is not None and first.verification.label.value != "UNGROUNDED"

    reverified = ask(store, policy(), provider, new_verifier)
    assert len(provider.history) == 1  # not regenerated
    assert reverified.cache_hit is True and reverified.record_id == first.record_id
    assert reverified.completion == first.completion and reverified.contract == first.contract
    assert reverified.governance_policy_hash == first.governance_policy_hash
    assert reverified.verifier_policy_hash == verifier_policy_hash(new_verifier) != first.verifier_policy_hash
    assert reverified.verification is not None
    assert reverified.verification.label.value == "UNGROUNDED"  # the stricter policy's own label
    assert any(r.value == "TOO_MANY_EVIDENCE_IDS" for c in reverified.verification.claims for r in c.reasons)

    # the cache now holds the re-verified record, so the next query under the new policy is a plain hit
    [raw] = [r[0] for r in store.db.execute("SELECT record FROM answer_cache")]
    assert AnswerRecord.model_validate_json(raw).verifier_policy_hash == verifier_policy_hash(new_verifier)
    again = ask(store, policy(), provider, new_verifier)
    assert again.verification == reverified.verification and len(provider.history) == 1

    # and going back re-verifies back, still without the model
    back = ask(store, policy(), provider, old_verifier)
    assert back.verification == first.verification and len(provider.history) == 1


def test_a_cached_record_without_verification_is_verified_on_read(store: CorpusStore) -> None:
    provider = ScriptedProvider(ANSWER_A)
    record = ask(store, policy(), provider)
    key = cache.cache_key(QUESTION, store.digest(), record.governance_policy_hash)
    cache.record_and_audit(store.db, key, record.model_copy(update={"verification": None}), 0, {"note": "legacy"})
    hit = ask(store, policy(), provider)
    assert hit.cache_hit and hit.verification == record.verification and len(provider.history) == 1


def test_cache_get_and_put(store: CorpusStore) -> None:
    assert cache.get(store.db, "sha256:nothing") is None
    provider = ScriptedProvider(ANSWER_A)
    record = ask(store, policy(), provider)
    key = cache.cache_key(QUESTION, store.digest(), record.governance_policy_hash)
    got = cache.get(store.db, key)
    assert got is not None and got.cache_hit is True
    assert got.model_copy(update={"cache_hit": False}) == record


# --- ask (single document) and query share one cache table -----------------------------------------------


@pytest.fixture
def no_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    """`answer_document` embeds its temporary store; keep the embedding model out of these tests."""
    import arborist.answer.pipeline as pipeline

    monkeypatch.setattr(pipeline, "embed_missing", lambda store, progress=None: 0)


@pytest.fixture
def one_doc_store(tmp_path: Path) -> Iterator[CorpusStore]:
    folder = tmp_path / "one"
    folder.mkdir()
    (folder / "refund.md").write_text(REFUND, encoding="utf-8")
    db = tmp_path / "one.db"
    ingest_paths(db, [folder], ChunkingSettings(), embed=False)
    with open_store(db) as s:
        yield s


def test_a_second_identical_ask_is_a_cache_hit(no_embedder: None, one_doc_store: CorpusStore) -> None:
    doc = next(one_doc_store.iter_documents())
    provider = ScriptedProvider(ANSWER_A)
    first = engine.ask(one_doc_store, doc, QUESTION, policy(), provider, VerifierPolicy())
    second = engine.ask(one_doc_store, doc, QUESTION, policy(), provider, VerifierPolicy())
    assert not first.cache_hit and second.cache_hit and second.record_id == first.record_id
    assert len(provider.history) == 1


def test_query_never_serves_an_ask_answer(no_embedder: None, one_doc_store: CorpusStore) -> None:
    doc = next(one_doc_store.iter_documents())
    asked = engine.ask(one_doc_store, doc, QUESTION, policy(), ScriptedProvider(ANSWER_A), VerifierPolicy())
    assert "| document) ===" in asked.prompt.messages[1].content
    provider = ScriptedProvider(ANSWER_A)
    queried = ask(one_doc_store, policy(), provider)
    assert queried.record_id != asked.record_id
    assert not queried.cache_hit and len(provider.history) == 1
    assert "| retrieved) ===" in queried.prompt.messages[1].content


def test_corpus_weights_are_inverse_chunk_frequencies(store: CorpusStore) -> None:
    from arborist.answer.verification import corpus_weights

    n = store.counts()[1]
    w = corpus_weights(store, "Do annual plans ship from the Berlin warehouse or from Narnia?")
    assert w["annual"] == pytest.approx(math.log((n + 1) / 3))  # in two chunks (porter: plans, plan)
    assert w["berlin"] == pytest.approx(math.log((n + 1) / 2))  # in one
    assert w["narnia"] == w["berlin"]  # in none: weighs as one chunk's word, not more
    assert "from" not in w and "or" not in w  # stopwords have no stem
    # question text never reaches MATCH as syntax: FTS5 operators, quotes and column filters are words or nothing
    odd = corpus_weights(store, 'NEAR("annual" plans) AND * body:refund ^Berlin OR "x')
    assert odd["berlin"] == pytest.approx(math.log((n + 1) / 2)) and odd["annual"] == w["annual"]


def test_an_off_topic_answer_is_withheld_by_the_governed_path_and_counted_as_abstained(
    store: CorpusStore, capsys: pytest.CaptureFixture[str]
) -> None:
    from arborist.lab.rows import abstained

    question = "Which courier delivers orders to Reykjavik customers?"
    provider = ScriptedProvider(claim_answer("Passwords are rotated every 90 days by couriers"))
    record = ask(store, policy(), provider, question=question)
    v = record.verification
    assert v is not None and v.label.value == "ABSTAINED" and v.answerability is not None
    assert any(r.value == "EVIDENCE_DOES_NOT_ANSWER" for r in v.reasons) and abstained(record)
    assert record.contract.abstention != "full"  # the model did not abstain; the verifier did
    from arborist.cli.answer_cmd import render

    render(record, show_prompt=False)
    shown = capsys.readouterr().out
    assert "label: ABSTAINED" in shown and "withheld: Rule 13" in shown and "Passwords are rotated" in shown
    # the refund question's words are in the refund policy: an answer to it is not withheld
    right = ask(store, policy(), ScriptedProvider(ANSWER_A))
    assert right.verification is not None and right.verification.label.value != "ABSTAINED"
    assert not abstained(right)
