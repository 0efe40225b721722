"""The `arborist` CLI contract: ingest, search (single and batch), corpus info, one-line errors."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arborist.cli import cli
from arborist.corpus import CorpusStore, corpus_digest, open_store
from arborist.corpus.loaders import load_documents
from arborist.corpus.migrations import SCHEMA_VERSION
from conftest import ALLUSION_QUESTION, ALLUSION_SENTENCE, FIXTURES, REPO

RESULT_KEYS = {"rank", "chunk_id", "doc_id", "source_id", "title", "score", "routes", "text"}
INGEST_KEYS = {"added", "updated", "unchanged", "documents", "chunks", "corpus_digest"}
INFO_KEYS = {"documents", "chunks", "corpus_digest", "schema_version", "chunking"}
LEXICAL = "bm25,title,keyword,phrase"
ARBORIST = REPO / ".venv" / "bin" / "arborist"

Run = Callable[..., Result]


def assert_one_line_error(result: Result, *fragments: str) -> str:
    """Non-zero exit, exactly one stderr line starting 'Error:', no traceback, nothing on stdout."""
    assert result.exit_code != 0, result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: "), lines[0]
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="session")
def cli_allusion(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """The allusion corpus ingested once through the CLI with default options (embeddings included)."""
    db = tmp_path_factory.mktemp("cli") / "allusion.db"
    result = CliRunner().invoke(
        cli,
        ["ingest", str(FIXTURES / "allusion"), "--db", str(db), "--chunk-runes", "400", "--overlap-runes", "40", "--json"],
    )
    assert result.exit_code == 0, result.output
    return db, json.loads(result.stdout)


@pytest.fixture
def small_db(tmp_path: Path, run_cli: Run) -> Path:
    db = tmp_path / "small.db"
    result = run_cli("ingest", FIXTURES / "small", FIXTURES / "records" / "with_ids.json", "--db", db, "--no-embed")
    assert result.exit_code == 0, result.output
    return db


def store_state(db: Path) -> tuple:
    with open_store(db) as s:
        return s.counts(), s.digest(), s.chunking()


# -- ingest ----------------------------------------------------------------


def test_ingest_prints_counts_and_digest(tmp_path: Path, run_cli: Run) -> None:
    db = tmp_path / "c.db"
    inputs = [FIXTURES / "small", FIXTURES / "records" / "lines.jsonl"]
    expected_digest = corpus_digest(load_documents(inputs))
    first = run_cli("ingest", *inputs, "--db", db, "--no-embed")
    assert first.exit_code == 0, first.output
    assert "6 added, 0 updated, 0 unchanged" in first.stdout
    assert f"corpus digest: {expected_digest}" in first.stdout
    again = run_cli("ingest", *inputs, "--db", db, "--no-embed")
    assert again.exit_code == 0, again.output
    assert "0 added, 0 updated, 6 unchanged" in again.stdout
    assert f"corpus digest: {expected_digest}" in again.stdout


def test_ingest_json(tmp_path: Path, run_cli: Run) -> None:
    db = tmp_path / "c.db"
    inputs = [FIXTURES / "records" / "with_ids.json", FIXTURES / "records" / "without_ids.json"]
    result = run_cli("ingest", *inputs, "--db", db, "--json", "--no-embed")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= INGEST_KEYS
    assert (data["added"], data["updated"], data["unchanged"], data["documents"]) == (5, 0, 0, 5)
    assert data["corpus_digest"] == corpus_digest(load_documents(inputs))
    with open_store(db) as s:
        assert data["chunks"] == s.counts()[1] >= 5

    # Change one record under the same id: 1 updated, the rest unchanged, new digest.
    records = json.loads((FIXTURES / "records" / "with_ids.json").read_text())
    records[0]["text"] = "Harbour cranes now lift timber as well as containers."
    changed = tmp_path / "with_ids.json"
    changed.write_text(json.dumps(records))
    result = run_cli("ingest", changed, inputs[1], "--db", db, "--json", "--no-embed")
    data2 = json.loads(result.stdout)
    assert (data2["added"], data2["updated"], data2["unchanged"], data2["documents"]) == (0, 1, 4, 5)
    assert data2["corpus_digest"] != data["corpus_digest"]
    assert data2["corpus_digest"] == corpus_digest(load_documents([changed, inputs[1]]))


def test_ingest_with_new_chunk_settings_rechunks(small_db: Path, run_cli: Run) -> None:
    (_, chunks_before), digest, _ = store_state(small_db)
    result = run_cli("ingest", FIXTURES / "small", "--db", small_db, "--chunk-runes", "50", "--overlap-runes", "5", "--no-embed")
    assert result.exit_code == 0, result.output
    assert "re-chunked" in result.stdout
    (_, chunks_after), digest_after, chunking = store_state(small_db)
    assert chunks_after > chunks_before
    assert digest_after == digest
    assert (chunking.chunk_runes, chunking.overlap_runes) == (50, 5)


# -- search ----------------------------------------------------------------


@pytest.mark.parametrize(
    "extra", [(), ("--routes", LEXICAL), ("--routes", LEXICAL, "--title-filter")], ids=["defaults", "lexical", "filtered"]
)
def test_search_json_allusion(cli_allusion: tuple[Path, dict], run_cli: Run, extra: tuple[str, ...]) -> None:
    db, _ = cli_allusion
    routes = extra[1] if extra else None
    args = ["search", ALLUSION_QUESTION, "--db", db, "--json", *extra]
    result = run_cli(*args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"question", "results"} <= set(data)
    assert data["question"] == ALLUSION_QUESTION
    assert data["results"]
    for hit in data["results"]:
        assert set(hit) == RESULT_KEYS
    top = data["results"][0]
    assert top["rank"] == 1
    assert top["title"] == "Notes on a Novel"
    assert top["source_id"] == "notes-on-a-novel.md"
    assert ALLUSION_SENTENCE in top["text"]
    assert top["routes"].get("phrase") == 1
    assert top["chunk_id"] == f"{top['doc_id']}#chunk-{top['chunk_id'].rsplit('-', 1)[1]}"
    if routes:
        assert all(set(h["routes"]) <= set(routes.split(",")) for h in data["results"])


def test_search_k_limits_results(cli_allusion: tuple[Path, dict], run_cli: Run) -> None:
    db, _ = cli_allusion
    result = run_cli("search", "bees honey wheel clay", "--db", db, "--json", "--k", "2", "--routes", LEXICAL)
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["results"]) == 2


def test_search_text_output(cli_allusion: tuple[Path, dict], run_cli: Run) -> None:
    db, _ = cli_allusion
    result = run_cli("search", ALLUSION_QUESTION, "--db", db, "--k", "3", "--routes", LEXICAL)
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert first.lstrip().startswith("1. Notes on a Novel")
    assert "phrase:1" in first


def test_search_no_results(small_db: Path, run_cli: Run) -> None:
    result = run_cli("search", "xyzzy plugh", "--db", small_db, "--routes", LEXICAL)
    assert result.exit_code == 0
    assert result.stdout.strip() == "no results"


def test_batch_search_prints_one_json_line_per_query(small_db: Path, run_cli: Run, tmp_path: Path) -> None:
    queries = tmp_path / "q.jsonl"
    queries.write_text((FIXTURES / "records" / "queries.jsonl").read_text() + "\n\n")  # trailing blanks skipped
    result = run_cli("search", "--queries", queries, "--db", small_db, "--json", "--routes", LEXICAL, "--k", "3")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    rows = [json.loads(line) for line in lines]
    assert [r["id"] for r in rows] == ["q-otter", "q-windmill", "q-nothing"]
    for row in rows:
        assert {"id", "results"} <= set(row)
        assert len(row["results"]) <= 3
        for hit in row["results"]:
            assert set(hit) == RESULT_KEYS
    assert rows[0]["results"][0]["source_id"] == "alpha.md"
    assert rows[1]["results"][0]["source_id"] == "sub/deeper/beta.md"
    assert rows[2]["results"] == []


def test_batch_ids_default_to_line_numbers(small_db: Path, run_cli: Run, tmp_path: Path) -> None:
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"question": "otters"}\n\n{"id": 7, "question": "windmill"}\n')
    result = run_cli("search", "--queries", queries, "--db", small_db, "--json", "--routes", LEXICAL)
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == ["1", "7"]


# -- corpus info -----------------------------------------------------------


def test_corpus_info_json(small_db: Path, run_cli: Run) -> None:
    result = run_cli("info", "--db", small_db, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= INFO_KEYS
    (docs, chunks), digest, _ = store_state(small_db)
    assert docs == 7  # 4 files of the folder + 3 records
    assert (data["documents"], data["chunks"], data["corpus_digest"]) == (docs, chunks, digest)
    assert data["schema_version"] == SCHEMA_VERSION
    assert data["chunking"] == {"chunk_runes": 1200, "overlap_runes": 120}


def test_corpus_info_text(small_db: Path, run_cli: Run) -> None:
    result = run_cli("info", "--db", small_db)
    assert result.exit_code == 0
    assert "documents: 7" in result.stdout.splitlines()


# -- errors ----------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("search", "anything"),
        ("search", "--queries", FIXTURES / "records" / "queries.jsonl"),
        ("info",),
    ],
)
def test_missing_store(tmp_path: Path, run_cli: Run, args: tuple) -> None:
    db = tmp_path / "missing.db"
    assert_one_line_error(run_cli(*args, "--db", db), "no corpus store", str(db))
    assert not db.exists()


@pytest.mark.parametrize(
    "args",
    [
        ("search", "anything"),
        ("info",),
        ("ingest", FIXTURES / "small"),
    ],
)
@pytest.mark.parametrize("kind", ["text", "sqlite"])
def test_non_store_file(tmp_path: Path, run_cli: Run, args: tuple, kind: str) -> None:
    db = tmp_path / "foreign.db"
    if kind == "text":
        db.write_text("not a database\n")
    else:
        con = sqlite3.connect(db)
        con.execute("CREATE TABLE t (x)")
        con.commit()
        con.close()
    before = db.read_bytes()
    assert_one_line_error(run_cli(*args, "--db", db), "is not an arborist corpus store")
    assert db.read_bytes() == before


def test_newer_store(small_db: Path, run_cli: Run) -> None:
    con = sqlite3.connect(small_db)
    con.execute("INSERT INTO migrations(name, applied_at) VALUES ('m999_future', 'later')")
    con.commit()
    con.close()
    assert_one_line_error(run_cli("info", "--db", small_db), "newer")


@pytest.mark.parametrize(
    ("name", "fragments"),
    [
        ("bad_syntax.json", ("bad_syntax.json", "not valid JSON", "line 3, column")),
        ("bad_line.jsonl", ("bad_line.jsonl", "line 2")),
        ("no_text.json", ("no_text.json", "'text'")),
        ("dup_ids.json", ("duplicate document id 'twin'",)),
        ("latin1.txt", ("latin1.txt", "UTF-8")),
        ("table.csv", ("table.csv",)),
    ],
)
def test_malformed_corpus_leaves_no_store(tmp_path: Path, run_cli: Run, name: str, fragments: tuple) -> None:
    db = tmp_path / "new.db"
    assert_one_line_error(run_cli("ingest", FIXTURES / "malformed" / name, "--db", db), *fragments)
    if db.exists():
        with open_store(db) as s:
            assert s.counts() == (0, 0)


def test_malformed_corpus_leaves_existing_store_unchanged(small_db: Path, run_cli: Run) -> None:
    before = store_state(small_db)
    result = run_cli("ingest", FIXTURES / "records" / "lines.jsonl", FIXTURES / "malformed" / "bad_syntax.json",
                     "--db", small_db, "--no-embed")
    assert_one_line_error(result, "bad_syntax.json")
    assert store_state(small_db) == before


@pytest.mark.parametrize(("exc", "code"), [(RuntimeError("disk on fire"), 1), (KeyboardInterrupt(), 130)])
def test_failure_mid_ingest_rolls_back(
    small_db: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch, exc: BaseException, code: int
) -> None:
    before = store_state(small_db)
    calls: list[int] = []
    original = CorpusStore._write_chunks

    def flaky(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise exc
        return original(self, *args, **kwargs)

    monkeypatch.setattr(CorpusStore, "_write_chunks", flaky)
    result = run_cli("ingest", FIXTURES / "records" / "lines.jsonl", FIXTURES / "records" / "without_ids.json",
                     "--db", small_db, "--no-embed")
    assert result.exit_code == code
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
    if code == 1:
        assert result.stderr.startswith("Error: ") and "disk on fire" in result.stderr
    monkeypatch.undo()
    assert store_state(small_db) == before


def test_failure_mid_first_ingest_leaves_empty_store(tmp_path: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self, *args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(CorpusStore, "_write_chunks", boom)
    db = tmp_path / "new.db"
    assert_one_line_error(run_cli("ingest", FIXTURES / "small", "--db", db, "--no-embed"), "boom")
    monkeypatch.undo()
    if db.exists():
        with open_store(db) as s:
            assert s.counts() == (0, 0)


def test_missing_input_path(tmp_path: Path, run_cli: Run) -> None:
    db = tmp_path / "new.db"
    assert_one_line_error(run_cli("ingest", tmp_path / "nope", "--db", db), "does not exist", "nope")
    assert not db.exists()


def test_bad_chunk_settings_name_the_option(tmp_path: Path, run_cli: Run) -> None:
    db = tmp_path / "new.db"
    line = assert_one_line_error(run_cli("ingest", FIXTURES / "small", "--db", db,
                                         "--chunk-runes", "100", "--overlap-runes", "60"))
    assert "overlap" in line.lower()
    assert not db.exists()


@pytest.mark.parametrize(("args", "option"), [(("--chunk-runes", "10"), "--chunk-runes"),
                                              (("--overlap-runes", "-1"), "--overlap-runes")])
def test_chunk_settings_out_of_the_policy_range_are_usage_errors(tmp_path: Path, run_cli: Run, args: tuple,
                                                                   option: str) -> None:
    """ingest's chunking flags are the policy's own options (one meaning, one range, in every command)."""
    db = tmp_path / "new.db"
    result = run_cli("ingest", FIXTURES / "small", "--db", db, *args)
    assert result.exit_code == 2 and f"Invalid value for '{option}'" in result.stderr
    assert not db.exists()


def test_error_stays_one_line_for_ids_with_newlines(tmp_path: Path, run_cli: Run, write_json) -> None:
    path = write_json("nl.json", [{"id": "a\nb", "text": "x"}, {"id": "a\nb", "text": "y"}])
    assert_one_line_error(run_cli("ingest", path, "--db", tmp_path / "new.db"), "duplicate document id")


def test_bad_queries_file_line(small_db: Path, run_cli: Run) -> None:
    path = FIXTURES / "malformed" / "bad_queries.jsonl"
    result = run_cli("search", "--queries", path, "--db", small_db, "--json")
    assert_one_line_error(result, "bad_queries.jsonl", "line 2")  # nothing printed for line 1 either


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ('{"id": "a", "text": "no question key"}\n', "line 1"),
        ('["question"]\n', "line 1"),
        ('{"id": "a", "question": 5}\n', "line 1"),
    ],
)
def test_queries_line_of_wrong_shape(small_db: Path, run_cli: Run, tmp_path: Path, content: str, fragment: str) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(content)
    assert_one_line_error(run_cli("search", "--queries", path, "--db", small_db), fragment, "q.jsonl")


def test_missing_queries_file(small_db: Path, run_cli: Run, tmp_path: Path) -> None:
    assert_one_line_error(run_cli("search", "--queries", tmp_path / "none.jsonl", "--db", small_db), "none.jsonl")


@pytest.mark.parametrize("routes", ["bm25,nope", "vector", ","])
def test_unknown_route(small_db: Path, run_cli: Run, routes: str) -> None:
    line = assert_one_line_error(run_cli("search", "q", "--db", small_db, "--routes", routes), "valid routes")
    for name in ("bm25", "title", "keyword", "phrase"):
        assert name in line


def test_both_question_and_queries(small_db: Path, run_cli: Run) -> None:
    result = run_cli("search", "q", "--queries", FIXTURES / "records" / "queries.jsonl", "--db", small_db)
    assert_one_line_error(result, "QUESTION", "--queries")


def test_neither_question_nor_queries(small_db: Path, run_cli: Run) -> None:
    assert_one_line_error(run_cli("search", "--db", small_db), "QUESTION", "--queries")


# -- a real process --------------------------------------------------------


def _run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(ARBORIST), *map(str, args)], capture_output=True, text=True, timeout=120, check=False,
        env={"PATH": str(ARBORIST.parent), "HOME": str(Path.home()), "LANG": "C.UTF-8"},
    )


@pytest.mark.skipif(not ARBORIST.exists(), reason="the arborist console script is not installed in .venv")
def test_real_process(tmp_path: Path) -> None:
    db = tmp_path / "proc.db"
    ingest = _run("ingest", FIXTURES / "allusion", "--db", db, "--chunk-runes", "400", "--overlap-runes", "40",
                  "--json", "--no-embed")
    assert ingest.returncode == 0, ingest.stderr
    assert json.loads(ingest.stdout)["added"] == 15

    search = _run("search", ALLUSION_QUESTION, "--db", db, "--json", "--routes", LEXICAL, "--k", "3")
    assert search.returncode == 0, search.stderr
    assert search.stderr == ""
    top = json.loads(search.stdout)["results"][0]
    assert top["title"] == "Notes on a Novel" and "phrase" in top["routes"]

    error = _run("search", "q", "--db", tmp_path / "missing.db")
    assert error.returncode == 1
    assert error.stdout == ""
    assert error.stderr.count("\n") == 1 and error.stderr.startswith("Error: no corpus store")

    broken = _run("ingest", FIXTURES / "malformed" / "bad_syntax.json", "--db", tmp_path / "never.db")
    assert broken.returncode == 1
    assert broken.stderr.count("\n") == 1 and broken.stderr.startswith("Error: ")
    assert "Traceback" not in broken.stderr
    assert not (tmp_path / "never.db").exists()



# -- hostile folders and nesting (issue 34, findings 4 and 6) ----------------------------------


def test_ingest_skips_and_lists_what_a_folder_should_not_give(tmp_path: Path, run_cli: Run) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "good.md").write_text("# Good\n\nThe refund window is 30 days.")
    (folder / "passwd.md").symlink_to("/etc/passwd")
    (folder / "zeros.txt").write_bytes(b"\x00" * 100_000)
    try:
        with open(os.fsencode(folder) + b"/r\xe9sum\xe9.md", "wb") as f:
            f.write(b"# Resume\n\nLatin-1 name.")
        odd_name = True
    except OSError:
        odd_name = False  # a file system that refuses such names; the rest is still checked
    db = tmp_path / "c.db"
    result = run_cli("ingest", folder, "--db", db, "--no-embed", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["added"], data["documents"]) == (1, 1)
    skipped = {s["path"]: s["reason"] for s in data["skipped"]}
    assert "outside the folder" in skipped.pop("passwd.md")
    assert "NUL bytes" in skipped.pop("zeros.txt")
    if odd_name:
        assert "not UTF-8" in skipped.pop("r\\xe9sum\\xe9.md")
    assert skipped == {}
    assert "skipped 'passwd.md'" in result.stderr
    with open_store(db) as s:
        assert all("root:" not in row.text and "\x00" not in row.text for _, row in s.iter_chunks())
    followed = run_cli("ingest", folder, "--db", tmp_path / "f.db", "--no-embed", "--follow-symlinks")
    assert followed.exit_code == 0, followed.output
    assert "2 added" in followed.stdout


@pytest.mark.parametrize("name", ["deep.json", "deep.jsonl"])
def test_json_nested_too_deeply_names_the_file(tmp_path: Path, run_cli: Run, name: str) -> None:
    path = tmp_path / name
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    assert_one_line_error(run_cli("ingest", path, "--db", tmp_path / "c.db"), name, "nested too deeply")
