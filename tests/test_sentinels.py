"""Sentinel stores and ladders: patched values live only in sentinel stores; ladders count what answers do."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.store import open_store
from arborist.errors import InputError, StoreError
from arborist.ingest import ingest_paths
from arborist.lab.sentinels.facts import Facts, demo_facts_path, load_facts
from arborist.lab.sentinels.ladder import run_ladder
from arborist.lab.sentinels.store import build_sentinel_store, load_map, patch_into
from arborist.lab.values import states_value
from arborist.models.scripted import ScriptedProvider
from arborist.policy.answer import build_policy
from fault_server import FaultServer

DEMO = Path(__file__).resolve().parents[1] / "src" / "arborist" / "demo" / "corpus"
FACTS = load_facts(demo_facts_path())
RUNG_VALUES = [r.value for f in FACTS.facts for r in f.rungs]


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("demo") / "demo.db"
    ingest_paths(db, [DEMO], ChunkingSettings(), embed=False)
    return db


@pytest.fixture
def real(demo_db: Path, tmp_path: Path) -> Path:
    """A fresh copy of the real (non-sentinel) demo store for tests that try to write into it."""
    copy = tmp_path / "real.db"
    shutil.copy(demo_db, copy)
    return copy


@pytest.fixture
def sentinel_db(demo_db: Path, tmp_path: Path) -> Path:
    out = tmp_path / "sentinel.db"
    build_sentinel_store(demo_db, FACTS, out)
    return out


def holds_a_rung_value(db: Path) -> bool:
    """Any patched value anywhere in the store file's text: documents, chunks, cache, audit."""
    with open_store(db) as store:
        texts = [d.text for d in store.iter_documents()]
        texts += [str(row) for row in store.db.execute("SELECT * FROM answer_cache").fetchall()]
        texts += [str(row) for row in store.db.execute("SELECT * FROM audit_events").fetchall()]
    return any(v in t for v in RUNG_VALUES for t in texts)


def lattice(text: str) -> str:
    return json.dumps({"claims": [{"text": text, "evidence_ids": ["E1"], "quote": text}], "abstained_requests": []})


def test_the_demo_facts_build_a_sentinel_store_with_one_variant_per_rung(sentinel_db: Path, demo_db: Path) -> None:
    with open_store(sentinel_db) as store:
        assert store.role() == "sentinel"
        mapping = load_map(store)
        docs = {d.source_id: d.text for d in store.iter_documents()}
    assert len(mapping.variants) == sum(len(f.rungs) for f in FACTS.facts) == 11
    variant = docs["plans/pricing.md@sentinel/team-monthly-price/$79"]
    assert "$79 per seat per month" in variant and "$29" not in variant
    assert "$29" in docs["plans/pricing.md"]  # the original stays, for the other facts' rungs
    with open_store(demo_db) as src:
        assert src.role() == "corpus" and src.counts()[0] == len(docs) - 11
    assert not holds_a_rung_value(demo_db)


@pytest.mark.parametrize(("change", "message"), [
    ({"source_id": "nope.md"}, "fact 'webhook-signature-header': no document with source id 'nope.md'"),
    ({"true_value": "Not-There"}, "fact 'webhook-signature-header': true value 'Not-There' is not in"),
    ({"rungs": [{"label": "old", "value": "Idempotency-Key"}]}, "rung 'old' value 'Idempotency-Key' already occurs"),
    ({"rungs": [{"label": "old", "value": "idempotency-key"}]}, "rung 'old' value 'idempotency-key' already occurs"),
    ({"true_value": "24 hours"}, "true value '24 hours' is also in"),
])
def test_facts_that_cannot_be_patched_are_refused_by_name(demo_db: Path, tmp_path: Path, change: dict[str, object],
                                                          message: str) -> None:
    data = FACTS.model_dump(mode="json")
    data["facts"][0].update(change)
    with pytest.raises(InputError, match=message.replace("$", r"\$")):
        build_sentinel_store(demo_db, Facts.model_validate(data), tmp_path / "s.db")
    assert not (tmp_path / "s.db").exists() and not list(tmp_path.glob("s.db*"))


def test_a_sentinel_store_is_never_copied_into_another_store(sentinel_db: Path, tmp_path: Path,
                                                              run_cli: Callable[..., Result]) -> None:
    with pytest.raises(InputError, match="is a sentinel store"):
        build_sentinel_store(sentinel_db, FACTS, tmp_path / "again.db")
    from arborist.lab.fixtures import demo_fixtures_path

    benched = run_cli("lab", "layout-bench", "--db", sentinel_db, "--evaluation", demo_fixtures_path(),
                      "--out", tmp_path / "b", "--model", "scripted", "--cache-directory", tmp_path / "c")
    assert benched.exit_code == 1 and "is a sentinel store" in benched.stderr
    assert not (tmp_path / "c").exists() and not (tmp_path / "b").exists()


def test_a_facts_file_is_checked_with_one_line_errors(tmp_path: Path) -> None:
    bad = tmp_path / "f.json"
    bad.write_text('{"facts": [{"id": "x"}]}')
    with pytest.raises(InputError, match=r"facts file '.*f.json': facts.0.question: Field required"):
        load_facts(bad)
    bad.write_text("{")
    with pytest.raises(InputError, match="is not JSON"):
        load_facts(bad)
    data = FACTS.model_dump(mode="json")
    data["facts"][0]["id"] = "a/b"
    bad.write_text(json.dumps(data))
    with pytest.raises(InputError, match="may not hold '/'"):
        load_facts(bad)


def test_no_entry_point_writes_a_patched_value_into_a_real_store(
    real: Path, demo_db: Path, tmp_path: Path, run_cli: Callable[..., Result],
) -> None:
    before = real.read_bytes()
    facts_file = str(demo_facts_path())
    # the library: build over the source itself, or over another real store; patch or mark a real store
    with pytest.raises(InputError, match="is the source store"):
        build_sentinel_store(real, FACTS, real)
    with pytest.raises(InputError, match="already exists"):
        build_sentinel_store(demo_db, FACTS, real)
    with open_store(real, write=True) as store:
        with pytest.raises(StoreError, match="not a sentinel store"):
            patch_into(store, list(store.iter_documents()), FACTS, real)
        with pytest.raises(StoreError, match="holds documents"):
            store.mark_sentinel()
        with pytest.raises(StoreError, match="not a sentinel store"):
            run_ladder(store, FACTS, build_policy(model_id="scripted:scripted"), ScriptedProvider(), 1, tmp_path / "o")
    # the CLI: every sentinel command pointed at the real store
    for args in (("sentinel-build", "--db", real, "--facts", facts_file, "--output", real),
                 ("sentinel-build", "--db", demo_db, "--facts", facts_file, "--output", real),
                 ("sentinel-run", "--db", real, "--facts", facts_file, "--out", tmp_path / "o", "--model", "scripted",
                  "--history", tmp_path / "h.jsonl")):
        result = run_cli("lab", *args)
        assert result.exit_code != 0 and result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1
    assert real.read_bytes() == before and not holds_a_rung_value(real)


def test_a_ladder_counts_each_rung_and_reads_competing_facts_only_after_the_control(
    sentinel_db: Path, tmp_path: Path,
) -> None:
    answers = [lattice(f"The header is {v}.") for v in ("X-Qm-Sig-7", "Kestrel-Auth-Mac", "Wren-Delivery-Seal")]
    answers += [lattice("The Team plan costs $29 per seat."), lattice("The Team plan costs $79 per seat."),
                lattice("It costs $99, which looks like a typo."), lattice("It costs $149.")]
    answers += [lattice("Within 14 days.")] * 4
    provider = ScriptedProvider(*answers)
    policy = build_policy(model_id="scripted:scripted", search={"routes": ("bm25", "title")})
    with open_store(sentinel_db, write=True) as store:
        run_dir, ladder = run_ladder(store, FACTS, policy, provider, 1, tmp_path / "ladders")
    assert provider.pending == 0
    for call in provider.history:  # every prompt holds exactly one rung's value: its own
        prompt = call.messages[1].content
        assert sum(v in prompt for v in RUNG_VALUES) == 1
    by_id = {f.id: f for f in ladder.facts}
    control = by_id["webhook-signature-header"]
    assert control.control == "passed" and all(r.used_sentinel == 1 and not r.void for r in control.rungs)
    price = by_id["team-monthly-price"]
    assert price.status == "ok"
    assert [(r.used_sentinel, r.used_memory, r.objected) for r in price.rungs] == [
        (0, 1, 0), (1, 0, 0), (1, 0, 1), (1, 0, 0)]
    assert [r.used_memory for r in by_id["monthly-refund-window"].rungs] == [1, 1, 1, 1]
    assert ladder.facts[0].id == "webhook-signature-header"  # zero-prior first
    files = sorted(str(p.relative_to(run_dir)) for p in run_dir.rglob("*") if p.is_file())
    assert files == ["config.json", "results/answers.jsonl", "results/ladder.json", "status.json", "summary.md"]
    assert json.loads((run_dir / "status.json").read_text())["state"] == "complete"
    # the same ladder again is served from the answer cache
    again = ScriptedProvider()
    with open_store(sentinel_db, write=True) as store:
        _, second = run_ladder(store, FACTS, policy, again, 1, tmp_path / "ladders")
    assert not again.history and second == ladder


def test_a_failed_control_makes_competing_ladders_uninterpretable_and_void_rungs_ask_nothing(
    sentinel_db: Path, tmp_path: Path,
) -> None:
    provider = ScriptedProvider(*[lattice("I do not know.")] * 11)
    policy = build_policy(model_id="scripted:scripted", search={"routes": ("bm25", "title")})
    with open_store(sentinel_db, write=True) as store:
        _, ladder = run_ladder(store, FACTS, policy, provider, 1, tmp_path / "l")
    assert ladder.facts[0].control == "failed"
    assert {f.status for f in ladder.facts[1:]} == {"uninterpretable"}
    starved = build_policy(model_id="scripted:scripted", search={"routes": ("bm25",)}, context_runes=100)
    none = ScriptedProvider()
    with open_store(sentinel_db, write=True) as store:
        _, void = run_ladder(store, FACTS, starved, none, 2, tmp_path / "l")
    assert not none.history and all(r.void and r.runs == 0 for f in void.facts for r in f.rungs)


@pytest.fixture
def server() -> Iterator[FaultServer]:
    srv = FaultServer(reply=lattice("The signature header is X-Qm-Sig-7.")).start()
    yield srv
    srv.stop()


def test_the_cli_ladder_runs_against_an_openai_compatible_server_with_history_and_plot(
    sentinel_db: Path, tmp_path: Path, server: FaultServer, run_cli: Callable[..., Result],
) -> None:
    hist = tmp_path / "history.jsonl"
    args = ("lab", "sentinel-run", "--db", sentinel_db, "--facts", str(demo_facts_path()), "--out",
            tmp_path / "ladders", "--base-url", server.base_url, "--model", "served-model", "--routes", "bm25,title",
            "--history", hist, "--json")
    result = run_cli(*args)
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert list(out) == ["facts"] and len(server.requests) == 11
    first = out["facts"][0]
    assert set(first) == {"id", "kind", "status", "control", "rungs", "warning"}
    assert set(first["rungs"][0]) == {"label", "value", "runs", "used_sentinel", "used_memory", "objected", "void",
                                      "unusable", "neither"}
    assert [r["used_sentinel"] for r in first["rungs"]] == [1, 0, 0] and first["control"] == "failed"
    assert run_cli(*args[:-1], "--burn").exit_code == 0
    shown = run_cli("lab", "sentinel-history", "--history", hist, "--fact", "webhook-signature-header", "--json")
    assert shown.exit_code == 0 and len(json.loads(shown.stdout)) == 6  # two runs x three rungs
    png = tmp_path / "curve.png"
    plotted = run_cli("lab", "sentinel-report", "--history", hist, "--output", png)
    assert plotted.exit_code == 0 and png.read_bytes().startswith(b"\x89PNG")
    assert run_cli("lab", "sentinel-history", "--history", hist, "--fact", "nope").exit_code == 1


def test_ctrl_c_leaves_an_interrupted_ladder_and_a_rerun_reuses_its_answers(sentinel_db: Path, tmp_path: Path) -> None:
    from arborist.models.base import Completion, GenerationSettings, Message

    class InterruptedThirdCall(ScriptedProvider):
        def complete(self, messages: list[Message], settings: GenerationSettings,
                     json_schema: dict[str, object] | None = None) -> Completion:
            if len(self.history) == 2:
                raise KeyboardInterrupt
            return super().complete(messages, settings, json_schema)

    policy = build_policy(model_id="scripted:scripted", search={"routes": ("bm25", "title")})
    with open_store(sentinel_db, write=True) as store, pytest.raises(KeyboardInterrupt):
        run_ladder(store, FACTS, policy, InterruptedThirdCall(*[lattice("X-Qm-Sig-7.")] * 11), 1, tmp_path / "l")
    (run_dir,) = (tmp_path / "l").iterdir()
    status = json.loads((run_dir / "status.json").read_text())
    assert (status["state"], status["exit_code"], status["rows_done"]) == ("interrupted", 130, 2)
    assert len((run_dir / "results" / "answers.jsonl").read_text().splitlines()) == 2
    again = ScriptedProvider(*[lattice("X-Qm-Sig-7.")] * 9)
    with open_store(sentinel_db, write=True) as store:
        run_ladder(store, FACTS, policy, again, 1, tmp_path / "l")
    assert len(again.history) == 9  # the two finished answers came from the cache


# -- values are read, not matched as strings ----------------------------------------

READINGS = [  # (answer, value, states it)
    ("The Quillmate API allows 8 file uploads per minute.", "8 uploads per minute", True),
    ("Eight uploads a minute are allowed.", "8 uploads per minute", True),
    ("8 downloads per minute", "8 uploads per minute", False),
    ("18 uploads per minute", "8 uploads per minute", False),
    ("Within 13 days of the charge.", "3 days", False),
    ("A refund is possible for 72 hours.", "3 days", True),
    ("It costs $499 per seat.", "$49", False),
    ("It costs $49 per seat.", "$49", True),
    ("Revenue was $2m.", "2,000,000", True),
    ("Revenue was 2 million dollars.", "$2,000,000", True),
    ("Revenue was 2 dollars.", "2 million", False),
    ("The header is X-Qm-Sig-7.", "X-Qm-Sig-7", True),
]


@pytest.mark.parametrize(("answer", "value", "states"), READINGS)
def test_an_answer_states_a_value_when_it_reads_as_that_value(answer: str, value: str, states: bool) -> None:
    assert states_value(answer, value) is states


UPLOADS = Facts.model_validate({"facts": [
    FACTS.facts[0].model_dump(mode="json"),
    {"id": "upload-rate", "question": "How many file uploads per minute does the API allow?",
     "source_id": "engineering/api-rate-limits.md", "true_value": "20 uploads per minute", "kind": "competing",
     "rungs": [{"label": "8-per-min", "value": "8 uploads per minute"}, {"label": "40-per-min", "value": "40 uploads per minute"}]},
]})


def test_the_models_own_words_count_as_the_sentinel_and_neither_is_counted_and_warned(
    demo_db: Path, tmp_path: Path,
) -> None:
    db = tmp_path / "uploads.db"
    build_sentinel_store(demo_db, UPLOADS, db)
    control = [lattice(f"The header is {v}.") for v in ("X-Qm-Sig-7", "Kestrel-Auth-Mac", "Wren-Delivery-Seal")]
    policy = build_policy(model_id="scripted:scripted", search={"routes": ("bm25", "title")})
    provider = ScriptedProvider(*control, lattice("The Quillmate API allows 8 file uploads per minute."),
                                lattice("Uploads are limited to twenty uploads a minute."))
    with open_store(db, write=True) as store:
        run_dir, ladder = run_ladder(store, UPLOADS, policy, provider, 1, tmp_path / "ladders")
    rate = ladder.facts[1]
    assert [(r.used_sentinel, r.used_memory, r.neither) for r in rate.rungs] == [(1, 0, 0), (0, 1, 0)]
    assert rate.status == "ok" and rate.warning is None and not ladder.warnings
    # answers that state neither value: counted, and the fact is not read
    vague = ScriptedProvider(*control, lattice("Uploads are rate limited."), lattice("There is a limit per minute."))
    with open_store(db, write=True) as store:
        run_dir, ladder = run_ladder(store, UPLOADS, policy, vague, 1, tmp_path / "ladders", burn=True)
    rate = ladder.facts[1]
    assert [r.neither for r in rate.rungs] == [1, 1] and rate.status == "uninterpretable"
    assert ladder.warnings == [f"upload-rate: {rate.warning}"] and "2 of 2 usable answers" in str(rate.warning)
    assert f"**Warning:** {rate.warning}" in (run_dir / "summary.md").read_text()
