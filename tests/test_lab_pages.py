"""Paths printed for reuse are absolute; the compare page names each side's differing settings; the viewer
shows a sentinel ladder and a layout bench with their own pages (not as an empty run)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from arborist.corpus.store import open_store
from arborist.lab.compare import compare_runs
from arborist.lab.config import ModelSpec
from arborist.lab.fixtures import demo_fixtures_path
from arborist.lab.layout_bench import run_layout_bench
from arborist.lab.runner import RunRequest
from arborist.lab.sentinels.facts import demo_facts_path, load_facts
from arborist.lab.sentinels.ladder import run_ladder
from arborist.lab.viewer import compare_page, load_run
from arborist.models.scripted import ScriptedProvider
from arborist.policy.answer import build_policy
from fault_server import FaultServer
from test_lab import claim, do_run, inputs, request  # noqa: F401  (inputs is a fixture)
from test_sentinels import demo_db, lattice, sentinel_db  # noqa: F401  (fixtures)
from test_viewer import page_data

Run = Callable[..., Result]


@pytest.fixture
def server() -> Iterator[FaultServer]:
    srv = FaultServer(reply=claim("Paris is the capital of France.")).start()
    yield srv
    srv.stop()


def test_a_sweep_prints_absolute_cell_paths_that_compare_takes_from_anywhere(
    tmp_path: Path, inputs: tuple[Path, Path], server: FaultServer, run_cli: Run,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    work, elsewhere = tmp_path / "work", tmp_path / "elsewhere"
    work.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(work)
    args = ("--corpus", inputs[0], "--evaluation", inputs[1], "--routes", "bm25", "--model", "served",
            "--base-url", server.base_url, "--retries", "0", "--cache-directory", "cache", "--limit", "2")
    result = run_cli("lab", "sweep", "--family", "evidence-k=1,3", *args, "--out", "sweeps")
    assert result.exit_code == 0, result.stderr
    cells = [line.rsplit(" · ", 1)[1] for line in result.stdout.splitlines() if line.startswith("  evidence-k=")]
    assert len(cells) == 2 and all(Path(c).is_absolute() and Path(c).is_dir() for c in cells), result.stdout
    assert Path(result.stdout.splitlines()[0].removeprefix("sweep: ")).is_absolute()
    monkeypatch.chdir(elsewhere)  # pasted into compare from another directory
    compared = run_cli("lab", "compare", *cells)
    assert compared.exit_code == 0, compared.stderr
    listed = run_cli("lab", "sweep", "--family", "evidence-k=1,3", *args, "--out", work / "sweeps",
                     "--json")
    assert all(Path(p).is_absolute() for p in json.loads(listed.stdout)["run_dirs"].values())


def test_the_compare_page_names_what_each_side_holds_where_they_differ(
    tmp_path: Path, inputs: tuple[Path, Path],  # noqa: F811
) -> None:
    a, _, _ = do_run(request(tmp_path, inputs, policy_values={"evidence_k": 1}), claim("Nobody knows."))
    b, _, _ = do_run(request(tmp_path, inputs, policy_values={"evidence_k": 3}), claim("Nobody knows."))
    data = page_data(compare_page(load_run(a), load_run(b), compare_runs(a, b).model_dump(mode="json")))
    assert data["differences"] == [{"setting": "evidence_k", "a": 1, "b": 3}]
    same = page_data(compare_page(load_run(a), load_run(a), None))
    assert same["differences"] == []


def test_a_ladder_directory_has_its_own_page(sentinel_db: Path, tmp_path: Path, run_cli: Run) -> None:  # noqa: F811
    policy = build_policy(model_id="scripted:scripted", search={"routes": ("bm25", "title")})
    provider = ScriptedProvider(*[lattice("I do not know.")] * 11)
    with open_store(sentinel_db, write=True) as store:
        ladder_dir, _ = run_ladder(store, load_facts(demo_facts_path()), policy, provider, 1, tmp_path / "ladders")
    out = tmp_path / "ladder.html"
    result = run_cli("lab", "view", ladder_dir, "--output", out)
    assert result.exit_code == 0, result.stderr
    data = page_data(out.read_text())
    assert data["kind"] == "doc" and data["doc"]["title"] == f"Sentinel ladder {ladder_dir.name}"
    facts = dict(data["doc"]["facts"])
    assert facts["model"] == "scripted:scripted" and facts["state"] == "complete" and facts["answers"] == "11 of 11"
    assert [t["title"] for t in data["doc"]["tables"]][:1] == ["webhook-signature-header (zero_prior, uninterpretable, control failed)"]
    assert len(data["doc"]["warnings"]) == 3  # every usable answer stated neither value


def test_a_layout_bench_directory_has_its_own_page(demo_db: Path, tmp_path: Path, run_cli: Run) -> None:  # noqa: F811
    provider = ScriptedProvider(*[lattice("Nobody knows.")] * 6)
    base = RunRequest(run_root=None, policy_values={"routes": "bm25,title"}, cache_directory=tmp_path / "cache",
                      model=ModelSpec(model="scripted", base_url=None, provider="scripted", model_id="scripted:scripted"),
                      limit=3)
    bench = run_layout_bench(demo_db, demo_fixtures_path(), ["tail", "per_chunk"], base, provider, tmp_path / "out",
                             section="list")
    out = tmp_path / "bench.html"
    result = run_cli("lab", "view", bench.bench_dir, "--output", out)
    assert result.exit_code == 0, result.stderr
    doc = page_data(out.read_text())["doc"]
    assert doc["title"].startswith("Layout bench ") and dict(doc["facts"])["control"] == "tail"
    assert [label for label, _ in doc["links"]] == ["tail run", "per_chunk run"]
    assert doc["tables"] and doc["tables"][0]["headers"][0] == "layout"
