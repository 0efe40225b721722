"""The answer path with real local models (marked `model`).

smollm2-135m checks the machinery for every mode and layout: a record with a
documented contract reason and the raw response kept (a 135M model may well
answer badly; that is a finding, not a failure). The default profile
(qwen2.5-1.5b) answers one demo question end to end and one `arborist ask`;
it is loaded at most once per process (the provider caches loaded models).

Skipped when the weights are not prepared, unless ARBORIST_REQUIRE_MODELS asks
for a failure instead.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from arborist.answer.contract import REASONS
from arborist.answer.pipeline import answer_question
from arborist.cli import cli
from arborist.corpus import ChunkingSettings, CorpusStore, open_store
from arborist.ingest import ingest_paths
from arborist.models import profiles
from arborist.models.base import GenerationSettings, Provider
from arborist.models.registry import make_provider
from arborist.policy.answer import build_policy
from arborist.prompting.layouts import LAYOUTS
from arborist.prompting.modes import MODES, json_schema
from arborist.retrieval.search import SearchSettings

DEMO = Path(__file__).resolve().parents[1] / "src" / "arborist" / "demo"
REFUND_QUESTION = "How long is the refund window for annual plans?"
LEXICAL = SearchSettings(routes=("bm25", "title", "phrase"))


def ready_or_skip(profile: str) -> None:
    """Skip when the weights are not prepared, unless ARBORIST_REQUIRE_MODELS asks to fail."""
    required = os.environ.get("ARBORIST_REQUIRE_MODELS", "") not in {"", "0"}
    state = profiles.status(profile)
    message = None
    if state != "ready":
        message = f"model {profile} is {state}; run `arborist models prepare {profile}`"
    else:
        try:
            import llama_cpp  # noqa: F401
        except ImportError:
            message = "llama-cpp-python is not installed"
    if message is not None:
        if required:
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CorpusStore]:
    db = tmp_path_factory.mktemp("local-model") / "demo.db"
    ingest_paths(db, [DEMO / "corpus"], ChunkingSettings(), embed=False)
    store = open_store(db)
    yield store
    store.close()


@pytest.fixture(scope="module")
def smol() -> Provider:
    ready_or_skip("smollm2-135m")
    return make_provider("smollm2-135m")


@pytest.mark.model
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("mode", MODES)
def test_smollm2_answer_record_for_every_mode_and_layout(
    demo_store: CorpusStore, smol: Provider, mode: str, layout: str
) -> None:
    policy = build_policy(
        model_id=f"{smol.name}:{smol.model_id}", mode=mode, layout=layout, search=LEXICAL, evidence_k=3,
        context_runes=2500, generation=GenerationSettings(max_tokens=200),
    )
    record = answer_question(demo_store, REFUND_QUESTION, policy, smol)

    assert record.completion.provider == "local"
    assert record.completion.model_id == profiles.PROFILES["smollm2-135m"].model_id
    assert record.completion.error is None, record.completion.error
    assert record.completion.text, "the raw response is kept in the record"
    assert record.completion.prompt_tokens and record.completion.completion_tokens
    assert record.completion.completion_tokens <= 200

    contract = record.contract
    assert contract.reason in REASONS and contract.reason != "PROVIDER_ERROR"
    assert contract.valid == (contract.reason in {"OK", "ABSTAINED"})
    if contract.reason not in {"PARSE_FAILURE", "SCHEMA_VIOLATION"}:
        assert contract.answer is not None  # the parsed answer is kept, valid or not
    assert set(record.citation_chunk_ids) <= set(record.admitted_chunk_ids)

    assert record.prompt.layout == policy.effective_layout()
    assert record.prompt.json_schema == json_schema(mode, [e.evidence_id for e in record.evidence])
    assert ("[for: " in record.prompt.messages[1].content) == (policy.effective_layout() == "per_chunk")
    assert {"retrieve", "admit", "assemble", "generate", "contract", "total"} <= set(record.timings)


@pytest.mark.model
def test_default_model_answers_the_refund_question_with_a_cited_30_days(demo_store: CorpusStore) -> None:
    """Slow: the default 1.5B profile (~15-20 s on 2 cores)."""
    ready_or_skip(profiles.DEFAULT_PROFILE)
    provider = make_provider(None)
    assert provider.model_id == profiles.PROFILES[profiles.DEFAULT_PROFILE].model_id
    policy = build_policy(
        model_id=f"{provider.name}:{provider.model_id}", mode="claim_lattice", search=LEXICAL, evidence_k=3,
        generation=GenerationSettings(max_tokens=300),
    )
    record = answer_question(demo_store, REFUND_QUESTION, policy, provider)

    assert record.contract.valid and record.contract.reason == "OK", (record.contract, record.completion.text)
    evidence = {e.evidence_id: e for e in record.evidence}
    answer = record.contract.answer
    assert answer is not None
    supported = [
        claim for claim in answer["claims"]
        if ("30 days" in claim["text"] or "30 days" in claim["quote"])
        and any(eid in evidence and "30 days" in evidence[eid].text for eid in claim["evidence_ids"])
    ]
    assert supported, record.completion.text
    assert set(record.citation_chunk_ids) <= set(record.admitted_chunk_ids)


@pytest.mark.model
def test_ask_on_the_refund_policy_with_the_default_model() -> None:
    """Slow: `arborist ask` with no --model uses the default profile (already loaded by the test above)."""
    ready_or_skip(profiles.DEFAULT_PROFILE)
    doc = DEMO / "corpus" / "billing" / "refund-policy.md"
    result = CliRunner().invoke(
        cli, ["ask", str(doc), REFUND_QUESTION, "--routes", "bm25,title,phrase", "--max-tokens", "300", "--json"]
    )
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["policy"]["model_id"].startswith(f"local:{profiles.DEFAULT_PROFILE}@")
    assert record["contract"]["valid"] is True, (record["contract"], record["completion"]["text"])
    assert "| document) ===" in record["prompt"]["messages"][1]["content"]
    assert set(record["citation_chunk_ids"]) <= set(record["admitted_chunk_ids"])
