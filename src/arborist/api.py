"""The Python API: one object over one store that ingests, searches, answers and verifies.

`arborist.open(db)` is what a script imports instead of the CLI: the same
library calls the commands make (`ingest`, `search`, `query`, `verify`),
with typed results (`IngestReport`, `SearchResult`, `AnswerRecord`,
`Verification`). It sits on the engine like the CLI does and imports
nothing of the lab or the CLI. See docs/python-api.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arborist import engine
from arborist.answer.record import AnswerRecord
from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.loaders import load_documents
from arborist.corpus.store import CorpusStore, IngestReport, open_store
from arborist.ingest import embed_missing
from arborist.models.base import Provider
from arborist.models.registry import make_provider
from arborist.policy.answer import AnswerPolicy, build_policy
from arborist.retrieval.search import SearchResult, SearchSettings, search
from arborist.verify import Evidence, Verification, VerifierPolicy, verify_answer


class Arborist:
    """A store, a model and the policies answers are made and judged under.

    The model is built on first use, so searching and verifying never load
    one. `policy` holds the answer policy's values (`arborist.policy.answer.
    AnswerPolicy` fields, e.g. `{"layout": "bookend"}`); its model id comes
    from the provider.
    """

    def __init__(
        self, db: Path | str, *, model: str | None = None, provider: Provider | None = None,
        policy: Mapping[str, Any] | None = None, verifier: VerifierPolicy | None = None,
    ) -> None:
        self.store: CorpusStore = open_store(db, create=True)
        self._model = model
        self._provider = provider
        self._policy_values = dict(policy or {})
        self.verifier = verifier or VerifierPolicy()

    def __enter__(self) -> Arborist:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.store.close()

    @property
    def provider(self) -> Provider:
        """The model answers come from (`model="scripted"` gives the test double, whose `enqueue` queues replies)."""
        if self._provider is None:
            self._provider = make_provider(self._model)
        return self._provider

    @property
    def policy(self) -> AnswerPolicy:
        return build_policy(model_id=f"{self.provider.name}:{self.provider.model_id}", **self._policy_values)

    def ingest(self, *paths: Path | str, embed: bool = False) -> IngestReport:
        """Add or update the documents under `paths` (idempotent); `embed` also computes dense vectors."""
        chunking = ChunkingSettings.model_validate(self._policy_values.get("chunking", {}))
        report = self.store.ingest(load_documents([Path(p) for p in paths]), chunking)
        if embed:
            embed_missing(self.store)
        return report

    def search(self, question: str, k: int = 10, routes: tuple[str, ...] | None = None) -> SearchResult:
        """Ranked chunks with each route's own ranking; needs no model."""
        values: dict[str, Any] = {"k": k} if routes is None else {"k": k, "routes": routes}
        return search(self.store, question, SearchSettings(**values))

    def ask(self, question: str, burn: bool = False) -> AnswerRecord:
        """A verified, audited answer over the store (from the answer cache unless `burn`)."""
        return engine.query(self.store, question, self.policy, self.provider, self.verifier, burn=burn)

    def verify(
        self, question: str, mode: str, evidence: list[Evidence] | list[dict[str, Any]], answer: dict[str, Any]
    ) -> Verification:
        """Label an answer from anywhere against its evidence: no model, no store."""
        return verify_answer(question, mode, evidence, answer, self.verifier)

