"""The answer pipeline with the scripted provider: every boundary recorded, nothing re-run needed.

The scripted provider replays queued texts and records what it was sent
(`history`), so these tests can compare the record with what a model would
really have received, byte for byte.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from arborist.answer.contract import REASONS
from arborist.answer.pipeline import MAX_QUESTION_CHARS, answer_document, answer_question, check_question
from arborist.answer.record import RECORD_FORMAT, AnswerRecord
from arborist.corpus import ChunkingSettings, CorpusStore, SourceDocument, chunk_text, document_id, open_store
from arborist.errors import InputError
from arborist.ingest import ingest_paths
from arborist.models.base import Completion, GenerationSettings
from arborist.models.scripted import NO_RESPONSE, ScriptedProvider
from arborist.policy.answer import AnswerPolicy, build_policy, governance_policy_hash
from arborist.policy.canonical import canonical_json
from arborist.prompting.modes import MODES, json_schema
from arborist.retrieval.search import SearchSettings

DEMO = Path(__file__).resolve().parents[1] / "src" / "arborist" / "demo"
PROMPTS = Path(__file__).resolve().parents[1] / "src" / "arborist" / "prompts" / "v1"
QUESTION = "How long is the refund window for annual plans?"
MODEL_ID = "scripted:scripted"
LEXICAL = SearchSettings(routes=("bm25", "title", "phrase"))


def answer_json(mode: str, *eids: str) -> str:
    if mode == "quote":
        return json.dumps({"quotes": [{"evidence_id": e, "text": "30 days"} for e in eids], "abstained_requests": []})
    if mode == "claim_lattice":
        claims = [{"text": "30 days", "evidence_ids": [e], "quote": "30 days"} for e in eids]
    else:
        claims = [{"text": "30 days", "evidence_ids": [e]} for e in eids]
    return json.dumps({"claims": claims, "abstained_requests": []})


def policy(**values: object) -> AnswerPolicy:
    values.setdefault("model_id", MODEL_ID)
    values.setdefault("search", LEXICAL)
    return build_policy(**values)


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CorpusStore]:
    """The demo corpus without vectors (fast); the dense route is then reported unavailable."""
    db = tmp_path_factory.mktemp("pipeline") / "demo.db"
    report, embedded = ingest_paths(db, [DEMO / "corpus"], ChunkingSettings(), embed=False)
    assert embedded == 0 and report.documents == 32
    store = open_store(db)
    yield store
    store.close()


def ask(store: CorpusStore, pol: AnswerPolicy, *responses: str | Completion, question: str = QUESTION
        ) -> tuple[AnswerRecord, ScriptedProvider]:
    provider = ScriptedProvider(*responses)
    record = answer_question(store, question, pol, provider)
    return record, provider


def greedy(texts: list[str], budget: int) -> list[int]:
    """Indexes admitted by whole-chunk greedy admission: an independent restatement of the rule."""
    used, out = 0, []
    for i, t in enumerate(texts):
        if used + len(t) <= budget:
            out.append(i)
            used += len(t)
    return out


# --- the id sets, boundary by boundary ----------------------------------------------------------


def test_record_id_sets_are_consistent(demo_store: CorpusStore) -> None:
    pol = policy(evidence_k=6, context_runes=3000)
    record, provider = ask(demo_store, pol, answer_json("claim_lattice", "E2", "E1"))

    ranked, selected = record.ranked_chunk_ids, record.selected_chunk_ids
    admitted, omitted = record.admitted_chunk_ids, record.omitted_chunk_ids
    assert len(ranked) > 6 and len(ranked) == len(set(ranked)) <= pol.search.k
    assert selected == ranked[: pol.evidence_k]  # EvidenceK: a prefix of the ranking
    assert set(admitted) <= set(selected) and admitted == [c for c in selected if c in admitted]
    assert omitted == [c for c in selected if c not in admitted]  # omitted = selected - admitted
    assert omitted, "the budget should have dropped something"
    assert [o.chunk_id for o in record.omissions] == omitted

    # the budget: used/max runes exact, and the greedy whole-chunk rule gave this split
    texts = demo_store.chunks_by_id(selected)
    sizes = [len(texts[c].text) for c in selected]
    assert [selected[i] for i in greedy([texts[c].text for c in selected], 3000)] == admitted
    assert record.used_runes == sum(len(texts[c].text) for c in admitted) <= 3000
    assert record.max_runes == 3000
    for o in record.omissions:
        assert o.n_runes == sizes[selected.index(o.chunk_id)]
        assert o.reason.startswith("budget: ") and o.reason.endswith(f" runes left, chunk has {o.n_runes}")

    # the evidence map: E1.. in admitted order, whole chunk texts
    assert [e.evidence_id for e in record.evidence] == [f"E{i}" for i in range(1, len(admitted) + 1)]
    assert [e.chunk_id for e in record.evidence] == admitted
    for e in record.evidence:
        row = texts[e.chunk_id]
        assert (e.text, e.title, e.source_id) == (row.text, row.title, row.source_id)

    # citations: E2, E1 -> their chunk ids, in the order cited
    assert record.contract.valid and record.contract.cited_evidence_ids == ["E2", "E1"]
    assert record.citation_chunk_ids == [admitted[1], admitted[0]]
    assert set(record.citation_chunk_ids) <= set(admitted)
    assert len(provider.history) == 1


def test_route_ranks_cover_the_ranked_list_and_dense_is_reported_unavailable(demo_store: CorpusStore) -> None:
    record, _ = ask(demo_store, policy(search=SearchSettings()), answer_json("claim_lattice", "E1"))
    assert list(record.route_ranks) == record.ranked_chunk_ids
    assert all(ranks for ranks in record.route_ranks.values())
    assert "dense" in record.unavailable_routes  # the store has no vectors; said, not hidden


def test_the_refund_policy_is_admitted_for_the_refund_question(demo_store: CorpusStore) -> None:
    record, _ = ask(demo_store, policy(), answer_json("claim_lattice", "E1"))
    assert any("30 days" in e.text and e.source_id == "billing/refund-policy.md" for e in record.evidence)


def test_evidence_k_cuts_the_selection(demo_store: CorpusStore) -> None:
    record, _ = ask(demo_store, policy(evidence_k=2), answer_json("claim_lattice", "E1"))
    assert record.selected_chunk_ids == record.ranked_chunk_ids[:2]
    assert record.admitted_chunk_ids == record.selected_chunk_ids and record.omitted_chunk_ids == []


def test_citation_of_an_unadmitted_id_maps_only_admitted_ones(demo_store: CorpusStore) -> None:
    pol = policy(evidence_k=3, mode="claim_lattice_pointer")
    record, _ = ask(demo_store, pol, answer_json("claim_lattice_pointer", "E1", "E9"))
    assert record.contract.reason == "CITATION_NOT_ADMITTED"
    assert record.contract.cited_evidence_ids == ["E1", "E9"]
    assert record.citation_chunk_ids == [record.admitted_chunk_ids[0]]


# --- the prompt, byte for byte ------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_prompt_is_what_the_provider_received(demo_store: CorpusStore, mode: str) -> None:
    pol = policy(mode=mode, evidence_k=3, generation=GenerationSettings(max_tokens=77, seed=5))
    record, provider = ask(demo_store, pol, answer_json(mode, "E1"))
    [call] = provider.history

    assert call.messages == record.prompt.messages
    sent = canonical_json([m.model_dump() for m in call.messages]).encode("utf-8")
    kept = canonical_json([m.model_dump() for m in record.prompt.messages]).encode("utf-8")
    assert sent == kept
    admitted_ids = [e.evidence_id for e in record.evidence]
    assert call.schema == json_schema(mode, admitted_ids) == record.prompt.json_schema
    assert call.settings == pol.generation

    system, user = record.prompt.messages
    assert system.role == "system" and user.role == "user"
    assert system.content == (PROMPTS / f"system_{mode}.txt").read_text(encoding="utf-8")
    expected_user = (
        "EVIDENCE:\n"
        + "\n".join(f"=== {e.evidence_id} ({e.title} | retrieved) ===\n{e.text}\n" for e in record.evidence)
        + f"---\nQUESTION: {QUESTION}\n"
    )
    assert user.content == expected_user
    assert record.prompt.layout == "tail"
    digest = hashlib.sha256(b"arborist-prompt/1\x00" + sent).hexdigest()
    assert record.prompt.sha256 == "sha256:" + digest


def test_prompt_digest_changes_with_layout(demo_store: CorpusStore) -> None:
    digests = {}
    for layout in ("tail", "bookend", "per_chunk"):
        record, provider = ask(demo_store, policy(layout=layout, evidence_k=3), answer_json("claim_lattice", "E1"))
        assert record.prompt.layout == layout
        assert provider.history[0].messages[1].content == record.prompt.messages[1].content
        digests[layout] = record.prompt.sha256
    assert len(set(digests.values())) == 3


def test_per_chunk_reminders_in_the_sent_prompt(demo_store: CorpusStore) -> None:
    question = "How long is the refund window for annual plans, and what about " + "very " * 10 + "long questions?"
    pol = policy(layout="per_chunk", evidence_k=3, max_reminder_chars=20)
    record, provider = ask(demo_store, pol, answer_json("claim_lattice", "E1"), question=question)
    user = provider.history[0].messages[1].content
    n = len(record.evidence)
    assert n >= 2
    assert user.startswith(f"QUESTION: {question}\n---\nEVIDENCE:\n=== E1 (")
    assert user.endswith(f"---\nQUESTION: {question}\n")
    assert user.count(f"[for: {question[:20]}]\n=== E") == n - 1
    assert user.count(f"[for: {question[:21]}") == 0


def test_quote_mode_renders_per_chunk_as_bookend(demo_store: CorpusStore) -> None:
    asked = policy(mode="quote", layout="per_chunk", evidence_k=3)
    bookend = policy(mode="quote", layout="bookend", evidence_k=3)
    assert asked.effective_layout() == "bookend"
    record, provider = ask(demo_store, asked, answer_json("quote", "E1"))
    other, _ = ask(demo_store, bookend, answer_json("quote", "E1"))

    assert record.prompt.layout == "bookend"
    assert record.policy.layout == "per_chunk"  # what was asked stays in the policy
    user = provider.history[0].messages[1].content
    assert "[for:" not in user
    assert user.startswith(f"QUESTION: {QUESTION}\n---\nEVIDENCE:\n")
    assert record.prompt.messages == other.prompt.messages
    assert record.prompt.sha256 == other.prompt.sha256
    assert record.governance_policy_hash != other.governance_policy_hash


# --- the rest of the record ---------------------------------------------------------------------


def test_raw_completion_is_kept_whole(demo_store: CorpusStore) -> None:
    completion = Completion(
        text="Sure! The window is 30 days.", model_id="scripted", provider="scripted", prompt_tokens=321,
        completion_tokens=9, finish_reason="length", raw={"id": "x", "choices": []}, timings={"generate_s": 0.5},
    )
    record, _ = ask(demo_store, policy(), completion)
    assert record.completion == completion
    assert record.contract.reason == "PARSE_FAILURE" and not record.ok
    assert record.citation_chunk_ids == []
    dumped = json.loads(record.model_dump_json())
    assert dumped["completion"]["text"] == "Sure! The window is 30 days."
    assert dumped["completion"]["raw"] == {"id": "x", "choices": []}


def test_record_carries_question_policy_digest_and_timings(demo_store: CorpusStore) -> None:
    pol = policy(mode="claim_lattice_pointer", layout="bookend")
    record, _ = ask(demo_store, pol, answer_json("claim_lattice_pointer", "E1"))
    assert record.format == RECORD_FORMAT == "arborist-answer/1"
    assert record.question == QUESTION
    assert record.corpus_digest == demo_store.digest()
    assert record.policy == pol
    assert record.governance_policy_hash == governance_policy_hash(pol)
    assert {"retrieve", "admit", "assemble", "generate", "contract", "total"} <= set(record.timings)
    assert all(isinstance(v, float) for v in record.timings.values())
    assert record.contract.reason in REASONS
    assert record.ok is record.contract.valid is True


def test_record_round_trips_through_json(demo_store: CorpusStore) -> None:
    record, _ = ask(demo_store, policy(), answer_json("claim_lattice", "E1"))
    again = AnswerRecord.model_validate_json(record.model_dump_json())
    assert again == record


@pytest.mark.parametrize("mode", MODES)
def test_provider_error_is_recorded_not_raised(demo_store: CorpusStore, mode: str) -> None:
    record, provider = ask(demo_store, policy(mode=mode))  # empty queue
    assert len(provider.history) == 1
    assert record.completion.error == NO_RESPONSE and record.completion.text == ""
    assert (record.contract.valid, record.contract.reason, record.contract.detail) == (False, "PROVIDER_ERROR", NO_RESPONSE)
    assert record.citation_chunk_ids == []
    assert record.admitted_chunk_ids  # everything before the provider call is still recorded


def test_scripted_responses_are_consumed_in_order(demo_store: CorpusStore) -> None:
    provider = ScriptedProvider("not json", answer_json("claim_lattice", "E1"))
    first = answer_question(demo_store, QUESTION, policy(), provider)
    second = answer_question(demo_store, QUESTION, policy(), provider)
    third = answer_question(demo_store, QUESTION, policy(), provider)
    assert [first.contract.reason, second.contract.reason, third.contract.reason] == ["PARSE_FAILURE", "OK", "PROVIDER_ERROR"]
    assert provider.pending == 0 and len(provider.history) == 3
    assert first.record_id != second.record_id


# --- governance hash -----------------------------------------------------------------------------


def test_governance_hash_is_stable_for_equal_policies() -> None:
    a = policy(layout="bookend", evidence_k=4)
    b = policy(evidence_k=4, layout="bookend")
    assert a == b and a is not b
    assert governance_policy_hash(a) == governance_policy_hash(b)
    assert governance_policy_hash(a).startswith("sha256:") and len(governance_policy_hash(a)) == 71


@pytest.mark.parametrize(
    "change",
    [
        {"layout": "bookend"},
        {"layout": "per_chunk"},
        {"mode": "quote"},
        {"mode": "claim_lattice_pointer"},
        {"evidence_k": 6},
        {"context_runes": 11_999},
        {"model_id": "local:qwen2.5-1.5b@cc324af070c2"},
        {"generation": GenerationSettings(max_tokens=200)},
        {"search": SearchSettings(routes=("bm25",))},
        {"chunking": ChunkingSettings(chunk_runes=400, overlap_runes=40)},
        {"max_reminder_chars": 100},
    ],
)
def test_governance_hash_changes_with_every_knob(change: dict[str, object]) -> None:
    base = policy()
    changed = policy(**change)
    assert governance_policy_hash(base) != governance_policy_hash(changed)


def test_governance_hash_in_the_record_follows_the_policy(demo_store: CorpusStore) -> None:
    one, _ = ask(demo_store, policy(), answer_json("claim_lattice", "E1"))
    two, _ = ask(demo_store, policy(), answer_json("claim_lattice", "E1"))
    three, _ = ask(demo_store, policy(layout="bookend"), answer_json("claim_lattice", "E1"))
    assert one.governance_policy_hash == two.governance_policy_hash != three.governance_policy_hash


# --- bad policy values and bad questions -------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"layout": "diagonal"}, "unknown layout 'diagonal'; valid layouts: tail, bookend, per_chunk, auto"),
        ({"mode": "essay"}, "unknown answer mode 'essay'; valid modes: quote, claim_lattice, claim_lattice_pointer"),
        ({"evidence_k": 0}, "policy value evidence_k: Input should be greater than or equal to 1"),
    ],
)
def test_unknown_policy_values_are_one_line_input_errors(values: dict[str, object], expected: str) -> None:
    with pytest.raises(InputError) as info:
        policy(**values)
    assert str(info.value) == expected


def test_unknown_route_in_the_policy_lists_the_valid_routes() -> None:
    with pytest.raises(InputError) as info:
        build_policy(model_id=MODEL_ID, search={"routes": ("bm25", "telepathy")})
    message = str(info.value)
    assert "'telepathy'" in message and "\n" not in message
    assert all(r in message for r in ("bm25", "title", "phrase", "dense", "bridge"))


def test_extra_policy_field_is_a_one_line_input_error() -> None:
    with pytest.raises(InputError) as info:
        policy(colour="red")
    message = str(info.value)
    assert "colour" in message and "\n" not in message


def test_extra_policy_field_error_lists_the_valid_fields() -> None:
    with pytest.raises(InputError) as info:
        policy(colour="red")
    message = str(info.value)
    assert all(name in message for name in ("layout", "mode", "evidence_k", "context_runes", "model_id"))


@pytest.mark.parametrize("question", ["", "   ", "\n\t "])
def test_empty_question_is_refused_before_any_work(demo_store: CorpusStore, question: str) -> None:
    provider = ScriptedProvider(answer_json("claim_lattice", "E1"))
    with pytest.raises(InputError) as info:
        answer_question(demo_store, question, policy(), provider)
    assert str(info.value) == "the question is empty"
    assert provider.history == []


def test_100_kb_question_is_refused_in_one_line(demo_store: CorpusStore) -> None:
    question = "why " * 25_000  # 100,000 characters
    provider = ScriptedProvider(answer_json("claim_lattice", "E1"))
    with pytest.raises(InputError) as info:
        answer_question(demo_store, question, policy(), provider)
    message = str(info.value)
    assert "\n" not in message and "100,000" in message and f"{MAX_QUESTION_CHARS:,}" in message
    assert provider.history == []
    with pytest.raises(InputError):
        check_question(question)
    assert check_question("q" * MAX_QUESTION_CHARS) == "q" * MAX_QUESTION_CHARS


def test_awkward_question_reaches_the_provider_byte_identical(demo_store: CorpusStore) -> None:
    question = 'Refund "window" for annual plans?\nAlso: naïve 😀 — «ça»\t\\n {"x": 1}'
    record, provider = ask(demo_store, policy(layout="per_chunk", evidence_k=3), answer_json("claim_lattice", "E1"),
                           question=question)
    user = provider.history[0].messages[1].content
    assert record.question == question
    assert user.encode("utf-8").count(question.encode("utf-8")) == 2 + len(record.evidence) - 1


# --- with vectors ---------------------------------------------------------------------------------


def test_embedded_store_uses_every_default_route(tmp_path: Path) -> None:
    db = tmp_path / "demo-embedded.db"
    _, embedded = ingest_paths(db, [DEMO / "corpus" / "billing"], ChunkingSettings(), embed=True)
    assert embedded > 0
    with open_store(db) as store:
        record, _ = ask(store, policy(search=SearchSettings()), answer_json("claim_lattice", "E1"))
    assert record.unavailable_routes == {}
    assert any("dense" in ranks for ranks in record.route_ranks.values())
    assert record.contract.valid


# --- the single-document path -----------------------------------------------------------------------


LONG_DOC_SECTIONS = [
    "Refunds for annual plans can be requested within 30 days of the start of the term.",
    "Monthly plans are refundable within 14 days of the first charge.",
    "Enterprise contracts are excluded from the standard refund window.",
    "Approved refunds are paid to the original payment method within 10 business days.",
    "Seats removed mid-term are credited, never refunded.",
    "Service credits are applied to future invoices, not paid out as cash.",
]


def long_document() -> SourceDocument:
    filler = (
        "This paragraph exists to make the document long enough that it spans several chunks; "
        "it repeats ordinary words about billing, invoices, accounts and customers. "
    )
    paragraphs = [f"## Section {i + 1} — Café résumé\n\n{s} {filler * 2}" for i, s in enumerate(LONG_DOC_SECTIONS)]
    return SourceDocument.create("notes/long-billing.md", "Long Billing Notes", "\n\n".join(paragraphs))


DOC_CHUNKING = ChunkingSettings(chunk_runes=400, overlap_runes=40)


def test_answer_document_admits_whole_chunks_under_a_small_budget() -> None:
    doc = long_document()
    chunks = chunk_text(doc.text, DOC_CHUNKING)
    assert len(chunks) > 3
    pol = policy(chunking=DOC_CHUNKING, context_runes=1000, evidence_k=len(chunks), search=SearchSettings())
    provider = ScriptedProvider(answer_json("claim_lattice", "E1"))
    record = answer_document(doc, "How long is the refund window for annual plans?", pol, provider)

    doc_id = document_id(doc)
    all_ids = {f"{doc_id}#chunk-{c.ordinal}" for c in chunks}
    # every chunk of the document stays a candidate: found ones first, the rest in document order
    assert set(record.ranked_chunk_ids) == all_ids and len(record.ranked_chunk_ids) == len(chunks)
    assert record.selected_chunk_ids == record.ranked_chunk_ids
    texts = {f"{doc_id}#chunk-{c.ordinal}": c.text for c in chunks}

    # whole chunks only, within the budget, and the omissions recorded
    assert record.evidence and record.omitted_chunk_ids
    for e in record.evidence:
        assert e.text == texts[e.chunk_id] and e.source_id == "notes/long-billing.md"
    assert record.used_runes == sum(len(texts[c]) for c in record.admitted_chunk_ids) <= 1000
    assert record.max_runes == 1000
    assert set(record.admitted_chunk_ids) | set(record.omitted_chunk_ids) == all_ids
    assert [record.selected_chunk_ids[i] for i in greedy([texts[c] for c in record.selected_chunk_ids], 1000)] \
        == record.admitted_chunk_ids
    assert all(o.reason.startswith("budget: ") for o in record.omissions)

    # the evidence blocks say "document", and the provider got exactly the recorded prompt
    user = provider.history[0].messages[1].content
    assert user == record.prompt.messages[1].content
    assert user.count(" | document) ===\n") == len(record.evidence)
    assert " | retrieved) ===" not in user
    assert "30 days" in record.evidence[0].text  # the ranked chunk that answers comes first
    assert record.contract.valid and record.citation_chunk_ids == [record.admitted_chunk_ids[0]]
    assert {"retrieve", "admit", "assemble", "generate", "contract", "total"} <= set(record.timings)


def test_answer_document_refuses_bad_questions() -> None:
    provider = ScriptedProvider()
    for question in ("", "x" * 100_000):
        with pytest.raises(InputError) as info:
            answer_document(long_document(), question, policy(), provider)
        assert "\n" not in str(info.value)
    assert provider.history == []


# --- grounded by construction ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["quote", "claim_lattice"])
def test_grounded_quotes_schema_pairs_each_id_with_its_own_sentences(demo_store: CorpusStore, mode: str) -> None:
    from arborist.prompting.modes import grammar_safe
    from arborist.text import sentences
    from arborist.verify import Reason, verify_answer

    pol = policy(mode=mode, evidence_k=3, grounded_quotes=True)
    record, provider = ask(demo_store, pol, answer_json(mode, "E1"))
    [call] = provider.history
    assert call.schema == record.prompt.json_schema
    key = "quotes" if mode == "quote" else "claims"
    choices = call.schema["properties"][key]["items"]["anyOf"]
    assert len(choices) == len(record.evidence)
    for entry, choice in zip(record.evidence, choices, strict=True):
        props = choice["properties"]
        cite = props["evidence_id"] if mode == "quote" else props["evidence_ids"]["items"]
        quote = props["text"] if mode == "quote" else props["quote"]
        assert cite["enum"] == [entry.evidence_id]
        assert quote["enum"] == [s for s in dict.fromkeys(grammar_safe(s) for s in sentences(entry.text)) if s]
        assert not any('"' in s or "\\" in s or "\n" in s for s in quote["enum"])
        # every choice is found in its own block by the verifier's quote check (word for word)
        for choice_text in quote["enum"]:
            item = {"evidence_id": entry.evidence_id, "text": choice_text}
            v = verify_answer("q", "quote", [{"id": entry.evidence_id, "title": entry.title, "text": entry.text}],
                              {"quotes": [item]})
            check = v.claims[0].checks.quote
            assert check is not None
            assert check.passed or v.claims[0].reasons == [Reason.NO_CONTENT_TOKENS], (choice_text, check.detail)
        assert choice["required"] == list(props) and choice["additionalProperties"] is False
    # a different schema is a different answer policy
    assert governance_policy_hash(pol) != governance_policy_hash(policy(mode=mode, evidence_k=3))


def test_grounded_quotes_leave_the_pointer_mode_alone(demo_store: CorpusStore) -> None:
    record, provider = ask(demo_store, policy(mode="claim_lattice_pointer", evidence_k=3, grounded_quotes=True),
                           answer_json("claim_lattice_pointer", "E1"))
    assert provider.history[0].schema == json_schema("claim_lattice_pointer", [e.evidence_id for e in record.evidence])
