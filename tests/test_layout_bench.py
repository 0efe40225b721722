"""The layout bench: one run per layout over the same questions, one table of verifier labels from their rows."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from arborist.corpus.chunking import ChunkingSettings
from arborist.errors import InputError
from arborist.ingest import ingest_paths
from arborist.lab.config import ModelSpec
from arborist.lab.fixtures import demo_fixtures_path, parse_fixtures, sections
from arborist.lab.layout_bench import run_layout_bench
from arborist.lab.runner import RunRequest
from arborist.models.scripted import ScriptedProvider

DEMO = Path(__file__).resolve().parents[1] / "src" / "arborist" / "demo" / "corpus"


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("demo") / "demo.db"
    ingest_paths(db, [DEMO], ChunkingSettings(), embed=False)
    return db


def claim(text: str, quote: str) -> str:
    return json.dumps({"claims": [{"text": text, "evidence_ids": ["E1"], "quote": quote}], "abstained_requests": []})


def test_the_fixture_format_has_sections_comments_and_errors_by_line(tmp_path: Path) -> None:
    questions = parse_fixtures(demo_fixtures_path())
    assert sections(questions) == ["list", "allusion"] and len(questions) == 7
    first = questions[0]
    assert (first.id, first.section, first.source_ids) == ("f-list-01", "list", ["security/sso-and-access-control.md"])
    assert first.answers[0] == "Business and Enterprise"
    bad = tmp_path / "q.txt"
    bad.write_text("[s]\n# fine\nno colon here\n")
    with pytest.raises(InputError, match=r"q.txt:3: not a question line"):
        parse_fixtures(bad)
    bad.write_text("a: one?\na: two?\n")
    with pytest.raises(InputError, match=r"q.txt:2: question id 'a' is used twice"):
        parse_fixtures(bad)


def test_a_bench_runs_each_layout_and_tables_their_labels(demo_db: Path, tmp_path: Path) -> None:
    sso = claim("Business and Enterprise admins can require SAML single sign-on.",
                "Admins on Business and Enterprise can require that members sign in through SAML only")
    answers = [sso, claim("Webhooks retry.", "nothing like this"), claim("x", "y")] * 2  # auto replays per_chunk
    provider = ScriptedProvider(*answers)
    base = RunRequest(run_root=None, policy_values={"routes": "bm25,title"}, cache_directory=tmp_path / "cache",
                      model=ModelSpec(model="scripted", base_url=None, provider="scripted", model_id="scripted:scripted"),
                      limit=3)
    bench = run_layout_bench(demo_db, demo_fixtures_path(), ["tail", "per_chunk", "auto"], base, provider,
                             tmp_path / "out", section="list")
    assert provider.pending == 0 and bench.questions == 3 and bench.control == "tail"
    by = {r.layout: r for r in bench.layouts}
    assert by["tail"].rows == 3 and by["tail"].labels["STRICT"] == 1 and by["tail"].delta_strict is None
    assert by["per_chunk"].delta_strict == 0.0 and by["per_chunk"].verdict == "noise"
    assert sum(b["rows"] for b in by["tail"].buckets.values()) == 3 and "0-16 KB" in by["tail"].buckets
    assert "QUOTE_NOT_FOUND" in by["tail"].violations
    # only the SSO answer holds its question's gold: a third of the rows, in every layout
    assert by["tail"].gold_rate == pytest.approx(1 / 3) and by["tail"].delta_gold is None
    assert by["per_chunk"].delta_gold == 0.0 and by["per_chunk"].gold_verdict == "noise"
    bench_dir = Path(bench.bench_dir)
    assert sorted(p.name for p in bench_dir.iterdir()) == ["bench.json", "inputs", "runs", "summary.md"]
    md = (bench_dir / "summary.md").read_text()
    assert "Violations by reason" in md and "By prompt size" in md and "Gold answer in the answer" in md
    # auto is per_chunk for these list questions: its prompts carry the reminders
    run = Path(by["auto"].run_dir)
    rows = [json.loads(line) for line in (run / "results" / "per-query.jsonl").read_text().splitlines()]
    assert all(r["trace"]["prompt_layout"] == "per_chunk" for r in rows)
    assert by["auto"].resolved == {"per_chunk": 3} and by["tail"].resolved == {"tail": 3}
    assert "`auto` resolved per question to: per_chunk 3 rows." in md
    # the seconds are the answering; the index building is timed apart (the first layout builds it)
    assert set(bench.preparation_seconds) == set(bench.seconds) == {"tail", "per_chunk", "auto"}
    assert "building the index and embeddings is left out" in md
    # ... so its prompts are per_chunk's, and their completions are replayed, not asked again or timed
    assert [r["source"] for r in rows] == ["replay"] * 3 and by["auto"].latency_s is None
    assert all(r["replayed"] for r in rows)  # and stay marked when a later run serves them from the cache
    assert by["per_chunk"].latency_s is not None


def test_bad_bench_options_are_refused_before_any_answer(demo_db: Path, tmp_path: Path,
                                                         run_cli: Callable[..., Result]) -> None:
    base = ("lab", "layout-bench", "--db", demo_db, "--evaluation", demo_fixtures_path(), "--out", tmp_path / "o",
            "--model", "scripted", "--samples", "1")
    for extra, message in ((("--layouts", "tail,diagonal"), "unknown layout(s) diagonal"),
                           (("--layouts", "tail"), "at least two layouts"),
                           (("--quantifier", "MANY"), "unknown quantifier class(es) MANY"),
                           (("--section", "nope"), "no question in section 'nope'")):
        result = run_cli(*base, *extra)
        assert result.exit_code == 1 and message in result.stderr, result.stderr
        assert not (tmp_path / "o").exists()  # refused before anything was written


def test_fixture_lines_keep_hashes_and_addresses_in_their_text(tmp_path: Path) -> None:
    f = tmp_path / "q.txt"
    f.write_text("q1: Who do I email? => support@quillmate.com @ support/channels.md\nq2: What does issue #12 say?\n")
    one, two = parse_fixtures(f)
    assert (one.question, one.answers, one.source_ids) == ("Who do I email?", ["support@quillmate.com"],
                                                           ["support/channels.md"])
    assert two.question == "What does issue #12 say?" and two.answers == [] and two.source_ids == []
