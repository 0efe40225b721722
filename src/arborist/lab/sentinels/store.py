"""Sentinel stores: a copy of a real corpus with one patched variant of a document per fact and rung.

Safety is structural. A store is marked a sentinel store while it is still
empty (`CorpusStore.mark_sentinel` refuses a store that holds documents), and
`patch_into` - the only code here that writes a patched value - refuses any
store not so marked. `build_sentinel_store` never opens the source for
writing and refuses an --output that exists or is the source.

A variant's source id is `<source id>@sentinel/<fact>/<rung>`; the map from
variant to (fact, rung) and the facts' digest are kept in the store's notes,
so a ladder run can show each rung its own variant and nothing else.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel

from arborist import embedding
from arborist.corpus.documents import SourceDocument, corpus_digest
from arborist.corpus.store import CorpusStore, open_store
from arborist.errors import InputError, StoreError
from arborist.ingest import embed_missing
from arborist.lab.sentinels.facts import Fact, Facts

MAP_NOTE = "sentinel_map"


class Variant(BaseModel):
    fact: str
    rung: str
    base_source_id: str


class SentinelMap(BaseModel):
    source_store: str
    source_digest: str
    facts_digest: str
    variants: dict[str, Variant]  # variant source id -> what it patches

    def patched_sources(self) -> set[str]:
        return {v.base_source_id for v in self.variants.values()}

    def variant_of(self, fact: str, rung: str) -> str:
        return next(s for s, v in self.variants.items() if v.fact == fact and v.rung == rung)


def variant_id(fact: Fact, rung_label: str) -> str:
    return f"{fact.source_id}@sentinel/{fact.id}/{rung_label}"


def check_facts(facts: Facts, documents: list[SourceDocument]) -> None:
    """Every fact's document exists and holds its true value, which no other document holds (so an answer
    with it was not read elsewhere); no rung value occurs anywhere in the corpus already, case aside (so an
    answer can only have it from the patch). Errors name the fact."""
    by_source = {d.source_id: d for d in documents}
    everything = [d.text.casefold() for d in documents] + [d.title.casefold() for d in documents]
    for fact in facts.facts:
        doc = by_source.get(fact.source_id)
        if doc is None:
            raise InputError(f"fact '{fact.id}': no document with source id '{fact.source_id}' in the corpus")
        if fact.true_value not in doc.text:
            raise InputError(f"fact '{fact.id}': true value '{fact.true_value}' is not in '{fact.source_id}'")
        elsewhere = [d.source_id for d in documents if d.source_id != fact.source_id
                     and fact.true_value.casefold() in (d.text + " " + d.title).casefold()]
        if elsewhere:
            raise InputError(f"fact '{fact.id}': true value '{fact.true_value}' is also in {elsewhere[0]}; an answer "
                             "stating it could have read it there, not remembered it: pick a value only its document has")
        for rung in fact.rungs:
            if any(rung.value.casefold() in text for text in everything) or rung.value.casefold() in \
                    fact.question.casefold():
                raise InputError(f"fact '{fact.id}': rung '{rung.label}' value '{rung.value}' already occurs in "
                                 "the corpus or the question; pick a value that does not, so its presence in an "
                                 "answer means the model read the patch")
            if rung.value in (other.true_value for other in facts.facts):
                raise InputError(f"fact '{fact.id}': rung '{rung.label}' value is another fact's true value")


def patch_into(store: CorpusStore, documents: list[SourceDocument], facts: Facts, source: Path) -> SentinelMap:
    """Ingest `documents` plus one patched variant per fact and rung into `store`. Refuses a store that is
    not marked as a sentinel store: this is the one place that writes a patched value."""
    if store.role() != "sentinel":
        raise StoreError(f"store '{store.path}' is not a sentinel store; refusing to write patched values into it")
    by_source = {d.source_id: d for d in documents}
    variants: dict[str, Variant] = {}
    patched: list[SourceDocument] = []
    for fact in facts.facts:
        doc = by_source[fact.source_id]
        for rung in fact.rungs:
            vid = variant_id(fact, rung.label)
            variants[vid] = Variant(fact=fact.id, rung=rung.label, base_source_id=fact.source_id)
            patched.append(SourceDocument(source_id=vid, title=doc.title.replace(fact.true_value, rung.value),
                                          text=doc.text.replace(fact.true_value, rung.value)))
    chunking = store.chunking()
    if chunking is None:
        raise StoreError(f"sentinel store '{store.path}' has no chunking yet; build it with build_sentinel_store")
    store.ingest([*documents, *patched], chunking)
    mapping = SentinelMap(source_store=str(source), source_digest=corpus_digest(documents), facts_digest=facts.digest(),
                          variants=variants)
    store.set_note(MAP_NOTE, mapping.model_dump_json())
    return mapping


def load_map(store: CorpusStore) -> SentinelMap:
    """The store's sentinel map; refuses a store that is not a sentinel store."""
    raw = store.note(MAP_NOTE) if store.role() == "sentinel" else None
    if raw is None:
        raise StoreError(f"'{store.path}' is not a sentinel store; build one with `arborist lab sentinel-build`")
    return SentinelMap.model_validate(json.loads(raw))


def build_sentinel_store(
    source: Path, facts: Facts, out: Path, progress: Callable[[str], None] | None = None,
) -> SentinelMap:
    """Copy the corpus in `source` into a new sentinel store at `out` and patch every fact's rungs in."""
    if out.exists():
        if source.exists() and os.path.samefile(source, out):
            raise InputError(f"--output '{out}' is the source store; a sentinel store is always a new file")
        raise InputError(f"--output '{out}' already exists; remove it or choose another path (a sentinel store is "
                         "built new, never over a file)")
    with open_store(source) as src:  # read only: nothing here writes the source
        if src.role() == "sentinel":
            raise InputError(f"--db '{source}' is a sentinel store; build from the real corpus store")
        documents = list(src.iter_documents())
        chunking = src.chunking()
        dense = src.vector_count(embedding.MODEL_ID) > 0
    if chunking is None or not documents:
        raise InputError(f"source store '{source}' holds no documents; ingest the corpus first")
    check_facts(facts, documents)
    tmp = out.with_name(out.name + ".building")
    leftovers = (tmp, tmp.with_name(tmp.name + "-wal"), tmp.with_name(tmp.name + "-shm"))
    for stale in leftovers:  # a killed build's files must not be replayed into this one
        if stale.exists():
            stale.unlink()
    try:
        with open_store(tmp, create=True) as store:
            store.mark_sentinel()
            store.ingest([], chunking)  # records the chunking before any document is written
            mapping = patch_into(store, documents, facts, source.resolve())
            if dense:
                if progress is not None:
                    progress("embedding the sentinel store's chunks")
                embed_missing(store)
            store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        os.replace(tmp, out)
    finally:
        for leftover in leftovers:
            if leftover.exists():
                leftover.unlink()
    return mapping
