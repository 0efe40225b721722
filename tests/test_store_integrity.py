"""Vectors never outlive or mismatch their chunks; read-only stores serve reads and name the problem."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import numpy as np
import pytest

from arborist.corpus import ChunkingSettings, SourceDocument, open_store
from arborist.retrieval import SearchSettings, search

DIM = 384


def docs(word: str = "alpha") -> list[SourceDocument]:
    return [SourceDocument.create(f"d{i}.md", f"Doc {i}", f"The {word} paragraph number {i} about gardens. " * 8)
            for i in range(5)]


def orphans(db: sqlite3.Connection) -> int:
    return db.execute("SELECT COUNT(*) FROM vectors WHERE chunk_rowid NOT IN (SELECT id FROM chunks)").fetchone()[0]


def unit(n: int) -> np.ndarray:
    m = np.random.default_rng(0).normal(size=(n, DIM)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def test_vectors_computed_before_a_concurrent_rechunk_are_not_stored(tmp_path: Path) -> None:
    """Finding 2: an embed that started before another process re-chunked the same documents."""
    path = tmp_path / "c.db"
    with open_store(path, create=True) as a:
        a.ingest(docs(), ChunkingSettings(chunk_runes=120, overlap_runes=10))
        missing = a.chunks_without_vectors("m")
        with open_store(path) as b:  # the other ingest, between A's read and A's write
            b.ingest(docs(), ChunkingSettings(chunk_runes=200, overlap_runes=0))
        stored = a.put_vectors("m", [(r, c, t) for r, c, _, t in missing], unit(len(missing)))
        chunks = a.counts()[1]
        assert orphans(a.db) == 0
        n_vectors = a.db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]
        assert n_vectors == stored <= chunks
        # every stored vector belongs to a chunk whose text it was computed from
        texts = {r: t for r, _, _, t in missing}
        for (rowid,) in a.db.execute("SELECT chunk_rowid FROM vectors"):
            assert a.db.execute("SELECT text FROM chunks WHERE id = ?", (rowid,)).fetchone()[0] == texts[rowid]


def test_deleting_chunks_deletes_their_vectors_whoever_deletes(tmp_path: Path) -> None:
    with open_store(tmp_path / "c.db", create=True) as s:
        s.ingest(docs(), ChunkingSettings())
        rows = s.chunks_without_vectors("m")
        s.put_vectors("m", [(r, c, t) for r, c, _, t in rows], unit(len(rows)))
        s.db.execute("DELETE FROM chunks WHERE id = ?", (rows[0][0],))  # raw SQL, not the store's code path
        s.db.execute("INSERT INTO vectors(chunk_rowid, model, vec) VALUES (999999, 'm', x'00')")  # no such chunk
        assert orphans(s.db) == 0


def _store_with_orphans(path: Path) -> int:
    """A store as the old code could leave it: vectors for chunks that no longer exist, one vector damaged."""
    with open_store(path, create=True) as s:
        s.ingest(docs(), ChunkingSettings())
        rows = s.chunks_without_vectors("all-MiniLM-L6-v2-onnx-int8")
        s.put_vectors("all-MiniLM-L6-v2-onnx-int8", [(r, c, t) for r, c, _, t in rows], unit(len(rows)))
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("DROP TRIGGER vectors_need_chunk")
        top = conn.execute("SELECT MAX(id) FROM chunks").fetchone()[0]
        for extra in range(1, 40):
            conn.execute("INSERT INTO vectors VALUES (?, 'all-MiniLM-L6-v2-onnx-int8', ?)",
                         (top + extra, unit(1)[0].tobytes()))
        conn.execute("UPDATE vectors SET vec = x'0102' WHERE chunk_rowid = ?", (rows[0][0],))
        conn.commit()
        return conn.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]


def test_search_survives_orphan_and_damaged_vectors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "o.db"
    _store_with_orphans(path)
    from arborist.retrieval import routes

    class Fake:
        def embed(self, texts: list[str]) -> np.ndarray:
            return unit(len(texts))

    monkeypatch.setattr(routes.embedding, "get_embedder", lambda: Fake())
    with open_store(path) as s:
        result = search(s, "alpha gardens", SearchSettings(routes=("bm25", "dense")))
        assert result.results and "dense" not in result.unavailable_routes
        assert all(h.chunk_id for h in result.results)


def test_the_next_ingest_repairs_orphans(tmp_path: Path) -> None:
    path = tmp_path / "o.db"
    _store_with_orphans(path)
    with open_store(path, create=True) as s:
        assert orphans(s.db) > 0
        s.ingest(docs(), ChunkingSettings())
        assert orphans(s.db) == 0


# --- finding 6: read-only stores --------------------------------------------------------------------------


def _unprivileged(args: list[str]) -> subprocess.CompletedProcess[str]:
    """`arborist ARGS` without the power to override file permissions (root keeps it otherwise)."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: cannot drop CAP_DAC_OVERRIDE to test permissions")
        prefix = [setpriv, "--bounding-set=-dac_override,-dac_read_search",
                  "--inh-caps=-dac_override,-dac_read_search"]
    code = "import sys; from arborist.cli import main; sys.argv = ['arborist', *sys.argv[1:]]; main()"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop("ARBORIST_DEBUG", None)
    return subprocess.run([*prefix, sys.executable, "-c", code, *args], check=False, capture_output=True, text=True,
                          env=env, timeout=120)


@pytest.fixture
def readonly_store(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "c.db"
    with open_store(path, create=True) as s:
        s.ingest(docs(), ChunkingSettings())
    (folder / "more.md").write_text("# More\n\nanother document\n")
    if request.param == "file":
        path.chmod(0o444)
    else:
        folder.chmod(0o555)
    yield path
    folder.chmod(0o755)
    path.chmod(0o644)


@pytest.mark.parametrize("readonly_store", ["file", "folder"], indirect=True)
def test_read_only_store_serves_reads(readonly_store: Path) -> None:
    db = str(readonly_store)
    found = _unprivileged(["search", "alpha gardens", "--db", db, "--routes", "bm25", "--json"])
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["results"]
    info = _unprivileged(["info", "--db", db, "--json"])
    assert info.returncode == 0 and json.loads(info.stdout)["documents"] == 5
    verified = _unprivileged(["audit", "verify", "--db", db])
    assert verified.returncode == 0 and "intact" in verified.stdout


@pytest.mark.parametrize("readonly_store", ["file", "folder"], indirect=True)
def test_read_only_store_refuses_writes_before_any_model_call(readonly_store: Path) -> None:
    # an unroutable base URL: reaching the provider would be a (different) provider error, exit 3
    result = _unprivileged(["query", "what about gardens?", "--db", str(readonly_store), "--base-url",
                            "http://127.0.0.1:9/v1", "--model", "m", "--retries", "0"])
    assert result.returncode == 1, (result.stdout, result.stderr)
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("Error: store") and "read-only" in line and "unexpected" not in line
    ingest = _unprivileged(["ingest", str(readonly_store.parent / "more.md"), "--db", str(readonly_store), "--no-embed"])
    assert ingest.returncode == 1 and "read-only" in ingest.stderr and "unexpected" not in ingest.stderr


def test_creating_a_store_in_a_read_only_folder_names_the_folder(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    (tmp_path / "a.md").write_text("# A\n\nhello\n")
    folder.chmod(0o555)
    try:
        result = _unprivileged(["ingest", str(tmp_path / "a.md"), "--db", str(folder / "c.db"), "--no-embed"])
    finally:
        folder.chmod(0o755)
    assert result.returncode == 1
    assert "not writable" in result.stderr and str(folder) in result.stderr and "unexpected" not in result.stderr


def test_search_survives_chunks_vanishing_between_its_queries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process re-ingests between a route's ranking and the chunk fetch (separate statements)."""
    from arborist.corpus.store import CorpusStore

    with open_store(tmp_path / "c.db", create=True) as s:
        s.ingest(docs(), ChunkingSettings(chunk_runes=100, overlap_runes=0))
        original = CorpusStore.chunks_by_rowid

        def lossy(self: CorpusStore, rowids: object) -> dict[int, object]:
            found = original(self, rowids)  # type: ignore[arg-type]
            return {k: v for k, v in found.items() if k % 2}  # half of them are gone

        monkeypatch.setattr(CorpusStore, "chunks_by_rowid", lossy)
        result = search(s, "alpha paragraph gardens", SearchSettings(routes=("bm25", "keyword", "title", "bridge")))
        assert result.results and all(h.chunk_id for h in result.results)
