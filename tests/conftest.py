"""Shared fixtures: fixture corpora, store paths, a CLI runner, the shared data folder."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arborist.cli import cli
from arborist.corpus import ChunkingSettings, CorpusStore, open_store
from arborist.corpus.loaders import load_documents

TESTS = Path(__file__).resolve().parent
FIXTURES = TESTS / "fixtures"
REPO = TESTS.parent
DEMO = REPO / "src" / "arborist" / "demo"

# The allusion corpus is chunked small so "Notes on a Novel" spans several
# chunks and the allusion sits in a middle one, not the first.
ALLUSION_CHUNKING = ChunkingSettings(chunk_runes=400, overlap_runes=40)
ALLUSION_QUESTION = "has oceania always been at war with east asia"
ALLUSION_SENTENCE = "oceania had always been at war with eastasia"


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    """Where a test's store goes; the file does not exist yet."""
    return tmp_path / "corpus.db"


@pytest.fixture
def write_json(tmp_path: Path) -> Callable[[str, object], Path]:
    """Write `obj` as JSON to tmp_path/name and return the path."""

    def write(name: str, obj: object) -> Path:
        path = tmp_path / name
        path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
        return path

    return write


def build_store(path: Path, inputs: list[Path], settings: ChunkingSettings | None = None) -> CorpusStore:
    store = open_store(path, create=True)
    store.ingest(load_documents(inputs), settings or ChunkingSettings())
    return store


@pytest.fixture(scope="session")
def allusion_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store file built once from tests/fixtures/allusion (15 unrelated documents)."""
    path = tmp_path_factory.mktemp("allusion") / "allusion.db"
    build_store(path, [FIXTURES / "allusion"], ALLUSION_CHUNKING).close()
    return path


@pytest.fixture(scope="module")
def allusion_store(allusion_db: Path) -> Iterator[CorpusStore]:
    store = open_store(allusion_db)
    yield store
    store.close()


@pytest.fixture(scope="session")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("demo") / "demo.db"
    build_store(path, [DEMO / "corpus"]).close()
    return path


@pytest.fixture
def run_cli(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """Invoke `arborist ARGS...` in-process; stdout and stderr are kept apart."""
    monkeypatch.delenv("ARBORIST_DEBUG", raising=False)
    runner = CliRunner()

    def run(*args: str | Path) -> Result:
        return runner.invoke(cli, [str(a) for a in args], catch_exceptions=True)

    return run


@pytest.fixture
def shared_data() -> Path:
    """../shared/data next to the repository; evaluation data is not shipped with arborist."""
    path = Path(__file__).resolve().parents[1].parent / "shared" / "data"
    if not path.is_dir():
        pytest.skip("../shared/data is absent: evaluation data is not shipped with arborist")
    return path
