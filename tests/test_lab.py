"""The lab's answer-quality runs: run directories, status and resume, rows, diagnosis, summaries, checks.

Everything around the model runs for real (store, retrieval, engine, cache,
verifier); the model is the scripted provider, which replays queued answers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from arborist import engine
from arborist.answer.pipeline import answer_question
from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.documents import corpus_digest
from arborist.corpus.loaders import load_documents
from arborist.corpus.store import open_store
from arborist.errors import InputError
from arborist.evaluation.format import Question, Request
from arborist.evidence.admission import EvidenceChunk, admit
from arborist.governance.options import POLICY_OPTIONS, policy_from_options
from arborist.lab import rundir
from arborist.lab.checks import list_runs, validate_run
from arborist.lab.diagnosis import PathView, diagnose, locate
from arborist.lab.report import load_rows
from arborist.lab.runner import RunRequest, execute, plan_run
from arborist.models.scripted import ScriptedProvider
from arborist.policy.answer import AnswerPolicy, build_policy
from arborist.verify import VerifierPolicy, verifier_policy_hash

DOCS = [
    {"id": "paris", "title": "Paris", "text": "Paris is the capital of France. It lies on the Seine river."},
    {"id": "berlin", "title": "Berlin", "text": "Berlin is the capital of Germany. The Spree flows through it."},
    {"id": "rome", "title": "Rome", "text": "Rome is the capital of Italy. The Tiber flows through Rome."},
    {"id": "madrid", "title": "Madrid", "text": "Madrid is the capital of Spain. Its river is the Manzanares."},
    {"id": "oslo", "title": "Oslo", "text": "Oslo is the capital of Norway. The Akerselva runs through Oslo."},
]
QUESTIONS = [
    {"id": "q1", "question": "What is the capital of France?", "answers": ["Paris"],
     "relevant_source_ids": ["paris"],
     "requests": [{"id": "q1#1", "text": "capital of France", "answers": ["Paris"], "supporting_source_ids": ["paris"]}]},
    {"id": "q2", "question": "Which river flows through Rome?", "answers": ["Tiber"], "relevant_source_ids": ["rome"]},
    {"id": "q3", "question": "What is the capital of Spain?", "answers": ["Madrid"], "relevant_source_ids": ["madrid"]},
    {"id": "q4", "question": "Who painted the ceiling?", "answers": ["Michelangelo"], "relevant_source_ids": []},
]
LEXICAL = {"routes": "bm25,title"}


def claim(text: str, eid: str = "E1", quote: str = "") -> str:
    return json.dumps({"claims": [{"text": text, "evidence_ids": [eid], "quote": quote}], "abstained_requests": []})


GOOD = [claim("Paris is the capital of France."), claim("The Tiber flows through Rome."),
        claim("Spain's capital is Barcelona."), claim("Nobody knows.")]


@pytest.fixture
def inputs(tmp_path: Path) -> tuple[Path, Path]:
    corpus = tmp_path / "corpus.json"
    corpus.write_text(json.dumps(DOCS), encoding="utf-8")
    digest = corpus_digest(load_documents([corpus]))
    evaluation = tmp_path / "evaluation.json"
    evaluation.write_text(json.dumps({"format": "arborist-evaluation/1", "corpus_digest": digest,
                                      "questions": QUESTIONS}), encoding="utf-8")
    return corpus, evaluation


def request(tmp_path: Path, inputs: tuple[Path, Path], **kw: Any) -> RunRequest:
    values = {**LEXICAL, **kw.pop("policy_values", {})}
    return RunRequest(run_root=tmp_path / "runs", corpus=inputs[0], evaluation=inputs[1],
                      cache_directory=tmp_path / "cache", policy_values=values, **kw)


def do_run(req: RunRequest, *answers: str) -> tuple[Path, rundir.Status, ScriptedProvider]:
    provider = ScriptedProvider(*answers)
    outcome = execute(plan_run(req, provider), provider)
    return outcome.run_dir, outcome.status, provider


def rows_of(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / rundir.ROWS).read_text().splitlines()]


def test_a_run_writes_exactly_the_documented_layout_and_validates(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    run_dir, status, provider = do_run(request(tmp_path, inputs), *GOOD)
    assert status.state == "complete" and status.exit_code == 0 and status.rows_done == 4
    assert provider.pending == 0
    files = sorted(str(p.relative_to(run_dir)) for p in run_dir.rglob("*") if p.is_file())
    assert files == sorted([
        "config.json", "status.json", "inputs/corpus.json", "inputs/evaluation.json", "inputs/prompt.txt",
        "preparation/chunks.json", "preparation/representations.json", "indexes/indexes.json",
        "results/per-query.jsonl", "results/generated-answers.json", "results/answer-contract-summary.json",
        "results/retrieval-summary.json", "summary.md",
    ])
    assert (run_dir / "inputs/corpus.json").read_bytes() == inputs[0].read_bytes()
    assert (run_dir / "inputs/prompt.txt").read_text() == provider.history[0].messages[0].content
    config = json.loads((run_dir / "config.json").read_text())
    assert config["arms"][0]["policy"]["evidence_k"] == 5 and config["arms"][0]["policy"]["search"]["routes"] == [
        "bm25", "title"]
    assert config["question_ids"] == ["q1", "q2", "q3", "q4"] and config["arborist_version"]
    assert all(c.ok for c in validate_run(run_dir)), [c for c in validate_run(run_dir) if not c.ok]
    summary = (run_dir / "summary.md").read_text()
    assert summary.index("Where support for the gold answer disappeared") < summary.index("Retrieval")


def test_rows_carry_every_boundary_and_a_diagnosis(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    run_dir, _, _ = do_run(request(tmp_path, inputs, policy_values={"evidence_k": 2}), *GOOD)
    rows = {r["query_id"]: r for r in rows_of(run_dir)}
    q1 = rows["q1"]
    assert q1["retrieval"]["ranked_source_ids"][0] == "paris" and q1["retrieval"]["evidence_k"] == 2
    assert len(q1["selected_chunk_ids"]) == 2 and q1["context"]["admitted_chunk_ids"] == q1["selected_chunk_ids"]
    assert q1["contract"]["valid"] and q1["verifier"]["label"] and q1["source"] == "provider"
    assert q1["tokens"] == {"prompt": None, "completion": None, "cached_prompt": None} and "generate" in q1["timings"]
    assert q1["diagnosis"]["boundary"] == "none" and q1["diagnosis"]["requests"][0]["boundary"] == "none"
    assert rows["q2"]["diagnosis"]["boundary"] == "none"
    assert rows["q3"]["diagnosis"]["boundary"] == "generation"  # Madrid admitted, answer says Barcelona
    assert rows["q4"]["diagnosis"]["boundary"] is None
    assert rows["q4"]["diagnosis"]["unmeasured"] == "no relevant source ids"
    summary = json.loads((run_dir / rundir.CONTRACT_SUMMARY).read_text())["arms"]["claim_lattice"]
    assert summary["diagnosis"]["counts"]["none"] == 2 and summary["diagnosis"]["counts"]["generation"] == 1
    assert [n["row"] for n in summary["diagnosis"]["rows_not_measured"]] == ["q4 [claim_lattice, sample 0]"]
    assert summary["usage"]["provider_calls"] == 4 and summary["usage"]["cache_hits"] == 0


def test_diagnosis_walks_the_boundaries_in_order() -> None:
    def view(ranked: list[str], selected: list[str], admitted: list[str], valid: bool = True,
             text: str | None = "x") -> PathView:
        return PathView(ranked_source_ids=ranked, selected_source_ids=selected, admitted_source_ids=admitted,
                        contract_valid=valid, answer_text=text)

    needed, golds = ["a", "b"], ["Gold"]
    assert locate(needed, golds, view(["a"], ["a"], ["a"])).boundary == "retrieval"
    assert locate(needed, golds, view(["a"], ["a"], ["a"])).missing_source_ids == ["b"]
    assert locate(needed, golds, view(["a", "b"], ["a"], ["a"])).boundary == "evidence_k"
    assert locate(needed, golds, view(["a", "b"], ["a", "b"], ["b"])).boundary == "context_admission"
    assert locate(needed, golds, view(["a", "b"], ["a", "b"], ["a", "b"], valid=False, text=None)).boundary == "contract"
    assert locate(needed, golds, view(["a", "b"], ["a", "b"], ["a", "b"], text="no")).boundary == "generation"
    assert locate(needed, golds, view(["a", "b"], ["a", "b"], ["a", "b"], text="the GOLD one")).boundary == "none"
    # Right without its evidence: the boundary is where support went, the answer's correctness is beside it.
    lost = locate(needed, golds, view(["a"], ["a"], ["a"], text="gold"))
    assert (lost.boundary, lost.gold_in_answer) == ("retrieval", True)
    q = Question(id="q", question="?", answers=["Gold"], relevant_source_ids=["a", "b"], requests=[
        Request(id="q#1", text="1", answers=["Hop"], supporting_source_ids=["a"]),
        Request(id="q#2", text="2", answers=["Gold"], supporting_source_ids=["b"])])
    d = diagnose(q, view(["a", "b"], ["a"], ["a"], text="hop"))
    assert d.boundary == "evidence_k"
    assert [(r.id, r.boundary) for r in d.requests] == [("q#1", "none"), ("q#2", "evidence_k")]


def test_retrieval_metrics_do_not_move_when_only_evidence_k_changes(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    summaries = []
    admitted = []
    for k in (1, 4):
        run_dir, _, _ = do_run(request(tmp_path, inputs, policy_values={"evidence_k": k}), *GOOD)
        summaries.append(json.loads((run_dir / rundir.RETRIEVAL_SUMMARY).read_text())["arms"]["claim_lattice"])
        admitted.append(sum(len(r["context"]["admitted_chunk_ids"]) for r in rows_of(run_dir)))
    assert admitted[0] < admitted[1]  # the cutoff did change what reached the prompt
    assert summaries[0]["metrics"] == summaries[1]["metrics"]
    assert summaries[0]["metrics"]["recall"]["rows_covered"] == 3
    assert [n["row"] for n in summaries[0]["metrics"]["mrr"]["rows_not_measured"]] == ["q4 [claim_lattice, sample 0]"]


def test_a_repeated_run_is_served_from_the_cache(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    first, _, _ = do_run(request(tmp_path, inputs), *GOOD)
    second, status, provider = do_run(request(tmp_path, inputs))
    assert second != first and provider.history == []
    assert status.cache_hits == 4 and status.provider_calls == 0
    assert {r["source"] for r in rows_of(second)} == {"cache"}
    assert [r["answer"]["raw"] for r in rows_of(second)] == [r["answer"]["raw"] for r in rows_of(first)]
    assert all(c.ok for c in validate_run(second))


def test_budget_ends_the_run_and_a_continuation_finishes_it_without_duplicates(
    tmp_path: Path, inputs: tuple[Path, Path]
) -> None:
    first, status, provider = do_run(request(tmp_path, inputs, generation_budget=2), *GOOD)
    assert status.state == "budget_exhausted" and status.exit_code == 5 and status.rows_done == 2
    assert len(provider.history) == 2
    assert not all(c.ok for c in validate_run(first))
    # A kill -9 while writing leaves a torn last line: it must be skipped, not reused.
    with (first / rundir.ROWS).open("a") as fh:
        fh.write('{"query_id": "q3", "arm": "claim_lat')
    second, status, provider = do_run(RunRequest(run_root=None, continue_from=first), *GOOD[2:])
    assert second.parent == first.parent and second != first
    assert status.state == "complete" and status.rows_reused == 2 and len(provider.history) == 2
    rows = rows_of(second)
    assert sorted(r["query_id"] for r in rows) == ["q1", "q2", "q3", "q4"]
    assert [r["source"] for r in rows] == ["reused", "reused", "provider", "provider"]
    assert rows[0]["reused_from"] == first.name
    config = json.loads((second / "config.json").read_text())
    assert config["continue_from"] == str(first.resolve())
    assert config["cache_directory"] == str((tmp_path / "cache").resolve())  # the continued run's cache
    assert all(c.ok for c in validate_run(second))
    assert json.loads((first / "status.json").read_text())["state"] == "budget_exhausted"  # never rewritten


def test_a_continuation_refuses_changed_inputs(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    first, _, _ = do_run(request(tmp_path, inputs, generation_budget=1), *GOOD)
    inputs[1].write_text(inputs[1].read_text() + "\n", encoding="utf-8")  # same digest, other bytes
    with pytest.raises(InputError, match="changed since run"):
        do_run(RunRequest(run_root=None, continue_from=first, cache_directory=tmp_path / "cache"))


def test_an_evaluation_for_other_documents_is_refused_before_anything_is_written(
    tmp_path: Path, inputs: tuple[Path, Path], run_cli: Callable[..., Result]
) -> None:
    other = tmp_path / "other.json"
    other.write_text(json.dumps(DOCS[:2]), encoding="utf-8")
    result = run_cli("lab", "run", "--corpus", other, "--evaluation", inputs[1],
                     "--out", tmp_path / "runs", "--model", "scripted", "--cache-directory", tmp_path / "c")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and result.stderr.count("sha256:") == 2
    assert not (tmp_path / "runs").exists() and not (tmp_path / "c").exists()


def test_cli_run_validate_and_list(tmp_path: Path, inputs: tuple[Path, Path], run_cli: Callable[..., Result]) -> None:
    result = run_cli("lab", "run", "--corpus", inputs[0], "--evaluation", inputs[1],
                     "--out", tmp_path / "runs", "--model", "scripted", "--routes", "bm25",
                     "--cache-directory", tmp_path / "c", "--limit", "2", "--json")
    # The scripted provider has nothing queued: every row is a provider error, so the run failed, as
    # validation says too.
    assert result.exit_code == 1 and "every row failed" in result.stderr
    run_dir = Path(json.loads(result.stdout)["run_dir"])
    assert json.loads(result.stdout)["status"]["rows_done"] == 2
    checked = run_cli("lab", "validate", run_dir)
    assert checked.exit_code == 1 and "FAIL provider errors" in checked.stdout
    listed = run_cli("lab", "list", tmp_path / "runs", "--json")
    assert listed.exit_code == 0
    assert [(r["state"], r["rows_done"], r["rows_total"]) for r in json.loads(listed.stdout)] == [("failed", 2, 2)]
    again = run_cli("lab", "run", "--continue-from", run_dir, "--evidence-k", "3")
    assert again.exit_code == 1 and "drop --evidence-k" in again.stderr
    missing = run_cli("lab", "validate", tmp_path / "nope")
    assert missing.exit_code == 1 and missing.stderr.startswith("Error: ")


def test_samples_need_temperature_and_draw_with_distinct_seeds(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    with pytest.raises(InputError, match="--temperature above 0"):
        do_run(request(tmp_path, inputs, samples=2))
    req = request(tmp_path, inputs, samples=3, limit=1, policy_values={"temperature": 0.7, "seed": 10})
    run_dir, status, provider = do_run(req, *GOOD[:1] * 3)
    assert status.state == "complete" and status.rows_done == 3
    assert [c.settings.seed for c in provider.history] == [10, 11, 12]
    assert len({c.messages[1].content for c in provider.history}) == 1  # one prompt, three draws
    assert [r["sample"] for r in rows_of(run_dir)] == [0, 1, 2]
    _again, status, provider = do_run(req)
    assert status.cache_hits == 3 and provider.history == []


def test_arms_answer_every_question_under_each_mode(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    quote = json.dumps({"quotes": [{"evidence_id": "E1", "text": "Paris is the capital of France."}],
                        "abstained_requests": []})
    run_dir, status, _provider = do_run(request(tmp_path, inputs, arms=("claim_lattice", "quote"), limit=1),
                                       GOOD[0], quote)
    assert status.rows_done == 2
    assert [(r["arm"], r["mode"], r["diagnosis"]["boundary"]) for r in rows_of(run_dir)] == [
        ("claim_lattice", "claim_lattice", "none"), ("quote", "quote", "none")]
    assert all(c.ok for c in validate_run(run_dir))
    assert list_runs(tmp_path / "runs")[0].rows_total == 2


def test_generation_workers_answer_in_parallel_without_losing_rows(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    run_dir, status, _ = do_run(request(tmp_path, inputs, generation_workers=3), *GOOD)
    assert status.state == "complete"
    rows, bad = load_rows(run_dir)
    assert not bad and sorted(r.query_id for r in rows) == ["q1", "q2", "q3", "q4"]


def test_policy_options_take_their_defaults_from_the_policy_model() -> None:
    policy = policy_from_options({}, "m")
    assert policy == build_policy(model_id="m")
    for opt in POLICY_OPTIONS:
        value: Any = policy
        for step in opt.path:
            value = getattr(value, step)
        assert (",".join(value) if isinstance(value, tuple) else value) == opt.default, opt.name
    custom = policy_from_options({"evidence_k": 3, "routes": "bm25", "chunk_runes": 600, "overlap_runes": 60}, "m")
    assert (custom.evidence_k, custom.search.routes, custom.chunking.chunk_runes) == (3, ("bm25",), 600)
    with pytest.raises(InputError, match="unknown route"):
        policy_from_options({"routes": "bm25,nope"}, "m")


def test_a_policy_whose_chunking_is_not_the_stores_is_refused(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    with open_store(tmp_path / "s.db", create=True) as store:
        store.ingest(load_documents([inputs[0]]), ChunkingSettings(chunk_runes=600, overlap_runes=60))
        policy = build_policy(model_id="scripted:scripted", search={"routes": ("bm25",)})
        with pytest.raises(InputError, match="store was chunked at 600"):
            answer_question(store, "capital of France?", policy, ScriptedProvider())


def test_a_treatment_after_admission_has_its_own_cache_slot(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    with open_store(tmp_path / "s.db", create=True) as store:
        store.ingest(load_documents([inputs[0]]), ChunkingSettings())
        policy = build_policy(model_id="scripted:scripted", search={"routes": ("bm25",)})
        verifier = VerifierPolicy()
        chunks = [EvidenceChunk(chunk_id=c.chunk_id, source_id=c.source_id, title=c.title, text=c.text)
                  for c in store.all_chunks()[:2]]
        provider = ScriptedProvider(GOOD[0], GOOD[0], GOOD[0])
        base = engine.query(store, "What is the capital of France?", policy, provider, verifier)
        rev = engine.answer_admitted(store, "What is the capital of France?", admit(chunks[::-1], 5, 12_000),
                                     "reversed", policy, provider, verifier)
        again = engine.answer_admitted(store, "What is the capital of France?", admit(chunks[::-1], 5, 12_000),
                                       "reversed", policy, provider, verifier, sample_index=1)
        assert not base.cache_hit and not rev.cache_hit and not again.cache_hit and provider.pending == 0
        assert (rev.treatment, rev.sample_index, again.sample_index) == ("reversed", 0, 1)
        assert rev.admitted_chunk_ids == [c.chunk_id for c in chunks[::-1]]
        hit = engine.answer_admitted(store, "What is the capital of France?", admit(chunks[::-1], 5, 12_000),
                                     "reversed", policy, provider, verifier)
        assert hit.cache_hit and hit.record_id == rev.record_id
        provider.enqueue(GOOD[0])
        other = engine.answer_admitted(store, "What is the capital of France?", admit(chunks[:1], 5, 12_000),
                                       "reversed", policy, provider, verifier)
        assert not other.cache_hit  # same treatment name, other evidence: another slot
        with pytest.raises(InputError, match="treatment"):
            engine.answer_admitted(store, "q?", admit(chunks, 5, 12_000), "none", policy, provider, verifier)


def test_a_cached_record_of_another_format_is_a_miss(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    from arborist.governance import cache

    with open_store(tmp_path / "s.db", create=True) as store:
        store.ingest(load_documents([inputs[0]]), ChunkingSettings())
        policy = build_policy(model_id="scripted:scripted", search={"routes": ("bm25",)})
        record = engine.query(store, "What is the capital of France?", policy, ScriptedProvider(GOOD[0]),
                              VerifierPolicy())
        key = cache.cache_key(record.question, store.digest(), record.governance_policy_hash)
        assert cache.get(store.db, key) is not None
        raw = json.loads(store.db.execute("SELECT record FROM answer_cache WHERE key = ?", (key,)).fetchone()[0])
        # The format check itself (an edited row is refused earlier, by its audit attestation).
        assert cache.parse_row(cache.CachedRow(json.dumps(raw), None)) is not None
        assert cache.parse_row(cache.CachedRow(json.dumps({**raw, "format": "arborist-answer/0"}), None)) is None
        assert cache.parse_row(cache.CachedRow('{"format": "arborist-answer/1"}', None)) is None
        store.db.execute("UPDATE answer_cache SET record = ? WHERE key = ?",
                         (json.dumps({**raw, "format": "arborist-answer/0"}), key))
        assert cache.get(store.db, key) is None


def test_a_policy_model_id_is_part_of_every_arm(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    plan = plan_run(request(tmp_path, inputs), ScriptedProvider())
    assert plan.config.arms[0].policy.model_id == "scripted:scripted"
    assert isinstance(plan.config.arms[0].policy, AnswerPolicy)
    assert not (tmp_path / "runs").exists()  # planning writes nothing


def test_sample_sharing_compares_first_and_later_samples_of_a_prompt(
    tmp_path: Path, inputs: tuple[Path, Path]
) -> None:
    from arborist.models.base import Completion

    def done(prompt_eval_s: float) -> Completion:
        return Completion(text=GOOD[0], model_id="scripted", provider="scripted",
                          timings={"prompt_eval_s": prompt_eval_s, "eval_s": 1.0})

    req = request(tmp_path, inputs, samples=3, limit=1, policy_values={"temperature": 0.5})
    run_dir, _, _ = do_run(req, done(2.0), done(0.1), done(0.3))
    sharing = json.loads((run_dir / rundir.CONTRACT_SUMMARY).read_text())["arms"]["claim_lattice"]["samples"]
    assert sharing["first_sample_prompt_eval_s"]["value"] == 2.0
    assert sharing["later_samples_prompt_eval_s"]["value"] == pytest.approx(0.2)
    assert sharing["ratio_prompt_eval"] == pytest.approx(0.1)
    assert sharing["samples_per_group"] == 3 and sharing["groups"] == 1
    assert "Samples sharing their prompt" in (run_dir / "summary.md").read_text()


@pytest.mark.model
def test_a_real_local_model_run_with_shared_samples(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    """smollm2-135m, one question, two samples: the second reuses the evaluated prompt."""
    from arborist.models.registry import make_provider
    from test_answer_local_model import ready_or_skip

    ready_or_skip("smollm2-135m")
    provider = make_provider("smollm2-135m")
    req = request(tmp_path, inputs, samples=2, limit=1,
                  policy_values={"temperature": 0.8, "max_tokens": 24, "evidence_k": 2})
    outcome = execute(plan_run(req, provider), provider)
    assert outcome.status.state == "complete"
    rows = rows_of(outcome.run_dir)
    assert [r["sample"] for r in rows] == [0, 1] and {r["source"] for r in rows} == {"provider"}
    assert rows[0]["model_id"].startswith("local:") and rows[0]["tokens"]["prompt"] > 50
    # llama.cpp kept the prompt's KV state: the second sample evaluates (almost) nothing of it again.
    assert rows[1]["tokens"]["cached_prompt"] >= rows[1]["tokens"]["prompt"] - 2
    evaluated = [r["tokens"]["prompt"] - r["tokens"]["cached_prompt"] for r in rows]
    assert evaluated[0] > 20 > evaluated[1]


def test_ctrl_c_leaves_an_interrupted_run_with_its_finished_rows(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    from arborist.models.base import Completion, GenerationSettings, Message

    class InterruptedSecondCall(ScriptedProvider):
        def complete(self, messages: list[Message], settings: GenerationSettings,
                     json_schema: dict[str, Any] | None = None) -> Completion:
            if len(self.history) == 1:
                raise KeyboardInterrupt
            return super().complete(messages, settings, json_schema)

    provider = InterruptedSecondCall(*GOOD)
    outcome = execute(plan_run(request(tmp_path, inputs), provider), provider)
    assert (outcome.status.state, outcome.status.exit_code, outcome.status.rows_done) == ("interrupted", 130, 1)
    status = json.loads((outcome.run_dir / "status.json").read_text())
    assert status["state"] == "interrupted" and "--continue-from" in status["message"]
    assert [r["query_id"] for r in rows_of(outcome.run_dir)] == ["q1"]
    assert json.loads((outcome.run_dir / rundir.CONTRACT_SUMMARY).read_text())["rows"] == 1


def test_question_ids_select_and_unknown_ids_are_refused(tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("q3\n# a comment\nq1\n", encoding="utf-8")
    run_dir, status, _ = do_run(request(tmp_path, inputs, question_ids=ids), GOOD[2], GOOD[0])
    assert [r["query_id"] for r in rows_of(run_dir)] == ["q3", "q1"] and status.rows_total == 2
    ids.write_text("q1\nq9\n", encoding="utf-8")
    with pytest.raises(InputError, match="'q9'"):
        do_run(request(tmp_path, inputs, question_ids=ids))


def test_a_row_the_judge_failed_on_is_labelled_by_the_rules_and_validate_names_it(
        tmp_path: Path, inputs: tuple[Path, Path]) -> None:
    from arborist.verify.judge import JudgeSpec
    from fault_server import FaultServer

    server = FaultServer().start()
    try:
        for _ in range(8):
            server.queue("400")  # the served judge fails at once (a client error is not retried)
        spec = JudgeSpec(kind="openai", model="judge", threshold=0.7, base_url=server.base_url)
        paraphrase = claim("France has its seat of government in Paris.", quote="Paris is the capital of France.")
        run_dir, status, _ = do_run(request(tmp_path, inputs, limit=1,
                                            verifier=VerifierPolicy(entailment=spec)), paraphrase)
        assert server.requests  # the judge was asked, and failed
    finally:
        server.stop()
    assert status.state == "complete"  # the answer was kept, labelled by the rules alone
    rules_hash = verifier_policy_hash(VerifierPolicy())
    (row,) = rows_of(run_dir)
    assert row["verifier"]["policy_hash"] == rules_hash != json.loads((run_dir / "config.json").read_text())[
        "verifier_policy_hash"]
    rederived = next(c for c in validate_run(run_dir) if c.name == "rows re-derived")
    assert not rederived.ok and "labelled by the rules alone" in rederived.detail
    assert "re-verified" not in rederived.detail  # re-derived as it was labelled, so its label agrees
