"""`arborist lab eval-retrieval`: digest binding, unmeasurable questions, per-route rows, per-query output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arborist.corpus.store import open_store
from arborist.evaluation.format import FORMAT

LEXICAL = "bm25,title,phrase"


def _evaluation(digest: str, questions: list[dict]) -> dict:
    return {"format": FORMAT, "corpus_digest": digest, "questions": questions}


@pytest.fixture
def demo_eval(tmp_path: Path, demo_db: Path) -> Path:
    with open_store(demo_db) as store:
        digest = store.digest()
    path = tmp_path / "evaluation.json"
    path.write_text(json.dumps(_evaluation(digest, [
        {"id": "refund", "question": "How long is the refund window for annual plans?",
         "relevant_source_ids": ["billing/refund-policy.md"]},
        {"id": "nothing", "question": "What does the company sell?", "relevant_source_ids": []},
        {"id": "ghost", "question": "Where is the moon base?", "relevant_source_ids": ["nowhere/moon.md"]},
    ])))
    return path


def test_reports_fused_and_each_route_with_counts_and_unmeasured_ids(run_cli, demo_db: Path, demo_eval: Path, tmp_path: Path) -> None:
    per_query = tmp_path / "pq.jsonl"
    result = run_cli("lab", "eval-retrieval", "--db", demo_db, "--evaluation", demo_eval, "--routes", LEXICAL,
                     "--per-query", per_query, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [r["list"] for r in report["rows"]] == ["fused", "bm25", "title", "phrase"]
    assert report["measured"] == 1 and all(r["n"] == 1 for r in report["rows"])
    fused = report["rows"][0]
    assert fused["hit"] == 1.0 and fused["recall"] == 1.0 and 0 < fused["mrr"] <= 1
    unmeasured = {u["id"]: u["reason"] for u in report["unmeasured"]}
    assert unmeasured["nothing"] == "no relevant source ids"
    assert "nowhere/moon.md" in unmeasured["ghost"]  # unknown ids are listed, never scored as misses
    lines = [json.loads(line) for line in per_query.read_text().splitlines()]
    assert [row["id"] for row in lines] == ["refund"]
    assert "billing/refund-policy.md" in lines[0]["ranked_source_ids"]
    assert set(lines[0]["scores"]) == {"fused", "bm25", "title", "phrase"}


def test_text_output_lists_unmeasured_questions(run_cli, demo_db: Path, demo_eval: Path) -> None:
    result = run_cli("lab", "eval-retrieval", "--db", demo_db, "--evaluation", demo_eval, "--routes", LEXICAL)
    assert result.exit_code == 0, result.output
    assert "1 questions measured" in result.stdout
    assert "ghost: source ids not in the store: nowhere/moon.md" in result.stdout


def test_an_evaluation_for_another_corpus_is_refused_naming_both_digests(run_cli, demo_db: Path, tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text(json.dumps(_evaluation("sha256:" + "ab" * 32, [{"id": "q", "question": "x"}])))
    result = run_cli("lab", "eval-retrieval", "--db", demo_db, "--evaluation", path)
    assert result.exit_code == 1
    line = result.stderr.strip()
    assert line.startswith("Error:") and "\n" not in line
    assert "sha256:" + "ab" * 32 in line
    with open_store(demo_db) as store:
        assert store.digest() in line


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ("{not json", "not valid JSON"),
        (json.dumps({"format": "other/1"}), "is not an arborist-evaluation/1 file"),
        (json.dumps({"format": FORMAT, "corpus_digest": "x", "questions": [{"id": "q"}]}), "questions.0.question"),
    ],
)
def test_malformed_evaluation_files_give_one_line_errors(run_cli, demo_db: Path, tmp_path: Path, content: str, needle: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = run_cli("lab", "eval-retrieval", "--db", demo_db, "--evaluation", path)
    assert result.exit_code == 1
    assert needle in result.stderr and result.stderr.count("\n") == 1


def test_dense_route_is_reported_unavailable_without_vectors(run_cli, tmp_path: Path) -> None:
    corpus = Path(__file__).resolve().parents[1] / "src" / "arborist" / "demo" / "corpus"
    db = tmp_path / "lexical.db"
    assert run_cli("ingest", corpus, "--db", db, "--no-embed").exit_code == 0
    result = run_cli("search", "refund window", "--db", db, "--json")
    assert result.exit_code == 0
    payload = json.loads(result.stdout)
    assert "dense" in payload["unavailable_routes"]
    assert "Warning: route 'dense' unavailable" in result.stderr
    assert all("dense" not in r["routes"] for r in payload["results"])


def test_reingest_embeds_only_new_or_changed_chunks(run_cli, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Alpha\n\nThe alpha service answers on port 8080.\n")
    (docs / "b.md").write_text("# Beta\n\nThe beta service keeps logs for 14 days.\n")
    db = tmp_path / "s.db"
    first = json.loads(run_cli("ingest", docs, "--db", db, "--json").stdout)
    assert first["embedded"] == 2
    assert json.loads(run_cli("ingest", docs, "--db", db, "--json").stdout)["embedded"] == 0
    (docs / "b.md").write_text("# Beta\n\nThe beta service keeps logs for 30 days.\n")
    third = json.loads(run_cli("ingest", docs, "--db", db, "--json").stdout)
    assert (third["updated"], third["embedded"]) == (1, 1)
    with open_store(db) as store:
        assert store.info()["vectors"] == {"all-MiniLM-L6-v2-onnx-int8": 2}
    hit = json.loads(run_cli("search", "how long are beta logs kept", "--db", db, "--routes", "dense", "--json").stdout)
    assert hit["results"][0]["source_id"] == "b.md" and hit["results"][0]["routes"] == {"dense": 1}


def test_an_evaluation_mixing_kinds_is_reported_per_kind(run_cli, demo_db: Path, tmp_path: Path) -> None:
    with open_store(demo_db) as store:
        digest = store.digest()
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps(_evaluation(digest, [
        {"id": "one", "question": "How long is the refund window for annual plans?",
         "relevant_source_ids": ["billing/refund-policy.md"]},
        {"id": "two", "question": "What is the refund window and the Team plan's price per seat?",
         "relevant_source_ids": ["billing/refund-policy.md", "plans/pricing.md"]},
    ])))
    result = run_cli("lab", "eval-retrieval", "--db", demo_db, "--evaluation", path, "--routes", LEXICAL, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert set(report["by_kind"]) == {"single-hop", "multi-hop"}
    assert [r["n"] for r in report["by_kind"]["single-hop"]] == [1, 1, 1, 1]
    assert [r["list"] for r in report["by_kind"]["multi-hop"]] == ["fused", "bm25", "title", "phrase"]
    text = run_cli("lab", "eval-retrieval", "--db", demo_db, "--evaluation", path, "--routes", LEXICAL)
    assert "single-hop questions" in text.stdout and "multi-hop questions" in text.stdout


def test_a_single_kind_evaluation_has_no_per_kind_rows(run_cli, demo_db: Path, demo_eval: Path) -> None:
    report = json.loads(run_cli("lab", "eval-retrieval", "--db", demo_db, "--evaluation", demo_eval,
                                "--routes", LEXICAL, "--json").stdout)
    assert report["by_kind"] == {}
