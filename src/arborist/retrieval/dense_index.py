"""An approximate dense index (HNSW, faiss-cpu) for stores past `ANN_MIN_VECTORS` vectors.

Why a threshold. Exact search is one (chunks x 384) matrix-vector product
and an argpartition: measured here (bench/ann_dense.py, 2 cores shared with
other jobs) 11 ms a question at 61k vectors on a quiet moment, 61 ms under
heavy load, growing linearly. HNSW answers in 0.3-0.8 ms at recall@10 1.0 on
61k clustered synthetic vectors, but building it costs 46-60 s of one core at 61k (415 s
under that load), on every ingest that changes chunks, and its recall is below
1 on unstructured data. Below `ANN_MIN_VECTORS` the scan costs about what
embedding the question costs (~17 ms) and needs no build, and recall stays 1:
the retrieval figures of the development sets (61k passages and fewer) stay
exactly what they were. Above it the scan grows linearly and HNSW with log n.

Why faiss-cpu over hnswlib. Measured on 61k clustered 384-d unit vectors
(M=16, efConstruction=100, one thread): the same recall (1.0 at ef >= 64) and
query time (0.47 vs 0.50 ms at ef=64); hnswlib built 25% faster (46 s vs 60 s).
faiss-cpu ships wheels (hnswlib 0.8.0, its last release in 2023, builds from
source), is released regularly, and serialises an index to bytes without
pickle, so the index can live in the store as a derived blob like the lexical
index: read back with no code run from the file.

Like the lexical index it is derived from the store, never the source of
truth: saved in `derived_indexes` under the store generation and the number of
vectors it covers (vectors are added by `embed_missing` after an ingest without
a new generation), rebuilt when either moved.
"""

from __future__ import annotations

import json
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from arborist import embedding
from arborist.corpus.store import CorpusStore
from arborist.errors import ArboristError

INDEX_NAME = "hnsw-minilm/1"
ANN_MIN_VECTORS = 250_000  # below this the exact numpy scan answers (see the module docstring)
HNSW_M = 16
EF_CONSTRUCTION = 100
EF_SEARCH = 128  # recall@10 0.988 on 40,978 real MiniLM sentences, 0.994 on 1M clustered vectors (docs/scaling.md)
BUILD_THREADS = 1  # other jobs share the cores; an ingest may pass more


def _faiss() -> Any:
    try:
        import faiss
    except ImportError:
        raise ArboristError(
            f"the dense route over {ANN_MIN_VECTORS:,} or more vectors uses an HNSW index: install faiss-cpu "
            "(pip install 'arborist[ann]')") from None
    return faiss


@dataclass
class DenseIndex:
    """HNSW over unit vectors (inner product = cosine) and the store rowid of each vector."""

    rowids: np.ndarray  # int64, position -> chunk rowid
    index: Any  # faiss.IndexHNSWFlat
    generation: int
    counted: int = -1  # how many of the store's vectors it was built from

    @classmethod
    def build(cls, rowids: np.ndarray, matrix: np.ndarray, generation: int, counted: int = -1,
              threads: int = BUILD_THREADS, ef_construction: int = EF_CONSTRUCTION) -> DenseIndex:
        faiss = _faiss()
        faiss.omp_set_num_threads(threads)
        index = faiss.IndexHNSWFlat(matrix.shape[1], HNSW_M, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = ef_construction
        index.add(np.ascontiguousarray(matrix, dtype=np.float32))
        index.hnsw.efSearch = EF_SEARCH
        return cls(np.asarray(rowids, dtype=np.int64), index, generation, counted)

    def search(self, query: np.ndarray, depth: int, ef: int = EF_SEARCH) -> list[tuple[int, float]]:
        """The `depth` nearest rowids with their cosine, best first."""
        self.index.hnsw.efSearch = max(ef, depth)
        scores, positions = self.index.search(np.asarray(query, dtype=np.float32).reshape(1, -1), depth)
        return [(int(self.rowids[p]), float(s)) for p, s in zip(positions[0], scores[0], strict=True) if p >= 0]

    def to_bytes(self) -> bytes:
        header = json.dumps({"generation": self.generation, "vectors": len(self.rowids),
                             "counted": self.counted}).encode()
        graph = _faiss().serialize_index(self.index).tobytes()
        return len(header).to_bytes(4, "little") + header + self.rowids.tobytes() + graph

    @staticmethod
    def header(data: bytes) -> dict[str, int]:
        size = int.from_bytes(data[:4], "little")
        return {k: int(v) for k, v in json.loads(data[4:4 + size]).items()}

    @classmethod
    def from_bytes(cls, data: bytes) -> DenseIndex:
        size = int.from_bytes(data[:4], "little")
        header = cls.header(data)
        start = 4 + size
        n = int(header["vectors"])
        rowids = np.frombuffer(data, dtype=np.int64, count=n, offset=start)
        graph = np.frombuffer(data, dtype=np.uint8, offset=start + 8 * n)
        return cls(rowids, _faiss().deserialize_index(graph), header["generation"], header["counted"])


NAME = f"{INDEX_NAME}:{embedding.MODEL_ID}"


# One index per open store, keyed on (generation, vectors).
_CACHE: weakref.WeakKeyDictionary[CorpusStore, tuple[tuple[int, int], DenseIndex]] = weakref.WeakKeyDictionary()


def dense_index(store: CorpusStore, min_vectors: int = ANN_MIN_VECTORS) -> DenseIndex | None:
    """The store's HNSW index when it holds `min_vectors` vectors or more (from memory, else from the
    store, else built and saved); None below that, where the exact scan answers.

    The vectors are counted from the store's in-memory matrix (loaded once per store object, dropped when
    vectors are added): a COUNT over the vectors table costs ~12 ms at 61k rows, too much per question.
    """
    rowids, matrix = store.vectors(embedding.MODEL_ID, embedding.DIM)
    vectors = len(rowids)
    if vectors < min_vectors:
        return None
    state = (store.generation(), vectors)
    cached = _CACHE.get(store)
    if cached is not None and cached[0] == state:
        return cached[1]
    data = store.derived(NAME, state[0])
    if data is not None and DenseIndex.header(data).get("counted") == vectors:
        index = DenseIndex.from_bytes(data)
    else:  # none yet, or vectors were added since (an embedding pass adds them without a new generation)
        index = DenseIndex.build(rowids, matrix, state[0], counted=vectors)
        store.put_derived(NAME, state[0], index.to_bytes())
    _CACHE[store] = (state, index)
    return index
