"""What `lab validate` re-derives: a run checked against what its config.json promises.

A run directory is only files: anyone who can write them can flip a label,
forge an answer marked STRICT, edit an input or a summary. So the check does
not trust any derived value it can recompute. From the copied inputs it
rebuilds the corpus (and so the chunks every row was answered from) and the
evaluation, compares their digests with config.json, re-parses each row's raw
response, re-verifies its answer against those chunks under the run's
verifier policy, re-diagnoses it against the evaluation, and recomputes every
summary from the rows. Each function returns the mismatches it found, named.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arborist.answer.contract import ContractReason, ContractResult, check_contract
from arborist.answer.record import Repair
from arborist.answer.repair import apply_repairs
from arborist.answer.verification import corpus_weights, verify_contract_answer
from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.documents import SourceDocument, corpus_digest
from arborist.corpus.loaders import load_documents
from arborist.corpus.store import CorpusStore, open_store
from arborist.errors import ArboristError
from arborist.evaluation.format import Question, load_evaluation
from arborist.lab import rundir, treatments
from arborist.lab.config import RunConfig
from arborist.lab.diagnosis import PathView, answer_text, diagnose
from arborist.lab.report import summary_files
from arborist.lab.rows import Row, sources_of
from arborist.lab.runfiles import CHUNKS, EVALUATION
from arborist.verify import verifier_policy_hash

CORPUS = "inputs/corpus.json"
INDEXES = "indexes/indexes.json"
MAX_NAMED = 5  # mismatches named per check; the count says how many there were


@dataclass
class Inputs:
    """The run's own copies of its inputs, read back (None where they could not be read; `problems` says why)."""

    documents: list[SourceDocument] | None
    questions: dict[str, Question] | None
    problems: list[str]


def read_inputs(run_dir: Path, cfg: RunConfig) -> Inputs:
    """inputs/corpus.json and inputs/evaluation.json against the digests config.json recorded for them."""
    problems: list[str] = []
    documents: list[SourceDocument] | None = None
    questions: dict[str, Question] | None = None
    try:
        documents = load_documents([run_dir / CORPUS])
        digest = corpus_digest(documents)
        if digest != cfg.corpus_digest:
            problems.append(f"{CORPUS} has corpus digest {digest}, config.json {cfg.corpus_digest}: it was edited")
    except (ArboristError, OSError) as exc:
        problems.append(f"{CORPUS} cannot be read: {exc}")
    try:
        sha = "sha256:" + hashlib.sha256((run_dir / EVALUATION).read_bytes()).hexdigest()
        if sha != cfg.evaluation_sha256:
            problems.append(f"{EVALUATION} has sha256 {sha}, config.json {cfg.evaluation_sha256}: it was edited")
        evaluation = load_evaluation(run_dir / EVALUATION)
        if evaluation.corpus_digest != cfg.corpus_digest:
            problems.append(f"{EVALUATION} is bound to corpus {evaluation.corpus_digest}, the run to {cfg.corpus_digest}")
        questions = {q.id: q for q in evaluation.questions}
        absent = [q for q in cfg.question_ids if q not in questions]
        if absent:
            problems.append(f"{EVALUATION} lacks {len(absent)} of the run's questions (e.g. {absent[0]!r})")
    except (ArboristError, OSError) as exc:
        problems.append(f"{EVALUATION} cannot be read: {exc}")
    return Inputs(documents=documents, questions=questions, problems=problems)


@contextmanager
def rebuilt_stores(documents: list[SourceDocument], cfg: RunConfig) -> Iterator[dict[ChunkingSettings, CorpusStore]]:
    """One temporary store per chunking of the run's arms, ingested from the run's own corpus copy:
    the chunks the rows were answered from, whatever happened to the lab's cache directory since."""
    with tempfile.TemporaryDirectory(prefix="arborist-validate-") as tmp:
        stores: dict[ChunkingSettings, CorpusStore] = {}
        try:
            for n, chunking in enumerate(dict.fromkeys(a.policy.chunking for a in cfg.arms)):
                store = open_store(Path(tmp) / f"c{n}.db", create=True)
                stores[chunking] = store
                store.ingest(documents, chunking)
            yield stores
        finally:
            for s in stores.values():
                s.close()


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def preparation_problems(run_dir: Path, stores: Mapping[ChunkingSettings, CorpusStore], cfg: RunConfig) -> list[str]:
    """preparation/chunks.json and indexes/indexes.json against the chunks rebuilt from the corpus."""
    problems: list[str] = []
    listed = _read_json(run_dir / CHUNKS)
    if not isinstance(listed, list):
        problems.append(f"{CHUNKS} is missing or not a JSON list")
    else:
        have = {(json.dumps(c.get("chunking"), sort_keys=True), c.get("chunk_id"), c.get("text"))
                for c in listed if isinstance(c, dict)}
        want = {(json.dumps(ch.model_dump(), sort_keys=True), c.chunk_id, c.text)
                for ch, s in stores.items() for c in s.all_chunks()}
        if have != want:
            problems.append(f"{CHUNKS} differs from the corpus chunked as configured: {len(want - have)} chunk(s) "
                            f"missing or changed, {len(have - want)} not from the corpus")
    index = _read_json(run_dir / INDEXES)
    if not (run_dir / "indexes").is_dir():
        problems.append("indexes/ was deleted")
    elif not isinstance(index, dict) or not isinstance(index.get("stores"), list):
        problems.append(f"{INDEXES} is missing or not an index description")
    else:
        for ch, s in stores.items():
            entry = next((e for e in index["stores"] if isinstance(e, dict) and e.get("chunking") == ch.model_dump()),
                         None)
            _, chunks = s.counts()
            if entry is None:
                problems.append(f"{INDEXES} describes no index for chunking {ch.model_dump()}")
            elif (entry.get("corpus_digest"), entry.get("chunks")) != (cfg.corpus_digest, chunks):
                problems.append(f"{INDEXES} says chunking {ch.model_dump()} indexed {entry.get('chunks')} chunks of "
                                f"corpus {entry.get('corpus_digest')}; the run's corpus gives {chunks} of {cfg.corpus_digest}")
    return problems


def _evidence(row: Row, store: CorpusStore, question: Question) -> list[dict[str, str]] | None:
    """The evidence blocks the row's answer was given, rebuilt from the store (planted chunks planted again)."""
    if row.trace is None:
        return None
    chunks = store.chunks_by_id(e.chunk_id for e in row.trace.evidence)
    t = row.treatment
    planted = set(t.planted_chunk_ids) if t is not None and t.planted_value is not None else set()
    out = []
    for ref in row.trace.evidence:
        c = chunks.get(ref.chunk_id)
        if c is None:
            return None
        title, text = c.title, c.text
        if ref.chunk_id in planted and t is not None and t.planted_value is not None:
            title, text = (treatments.planted(question, title, t.planted_value),
                           treatments.planted(question, text, t.planted_value))
        out.append({"id": ref.evidence_id, "title": title, "text": text})
    return out


def row_problems(row: Row, question: Question, store: CorpusStore, cfg: RunConfig) -> list[str]:
    """What in one row is not what its raw answer, its evidence and its question give."""
    problems: list[str] = []
    if (row.question, row.gold_answers) != (question.question, question.answers):
        problems.append("question or gold answers differ from the evaluation")
    evidence = _evidence(row, store, question)
    if evidence is None:
        return [*problems, "its evidence cannot be rebuilt (no trace, or a chunk not in the corpus)"]
    if row.contract.reason == ContractReason.PROVIDER_ERROR:  # no response to re-parse: the error is the row's
        contract = ContractResult(valid=False, reason=ContractReason.PROVIDER_ERROR, detail=row.contract.detail)
    else:
        contract = check_contract(row.mode, row.answer.raw, [e["id"] for e in evidence])
        repairs = [Repair.model_validate(r) for r in row.trace.repairs] if row.trace is not None else []
        repaired, bad = apply_repairs(contract.answer, repairs, {e["id"]: e["text"] for e in evidence})
        problems += bad
        if repaired is not contract.answer:
            contract = contract.model_copy(update={"answer": repaired})
    if (contract.reason, contract.valid, contract.answer) != (row.contract.reason, row.contract.valid,
                                                               row.answer.parsed):
        problems.append(f"its contract ({row.contract.reason}) or parsed answer is not what its raw response "
                        f"gives, with its recorded repairs ({contract.reason})")
    text = answer_text(contract.answer) if contract.valid else None
    if row.answer.text != (text or ""):
        problems.append("its answer text is not what its parsed answer asserts")
    v = cfg.verifier_policy
    labelled_by = row.verifier.policy_hash
    if labelled_by is not None and labelled_by != cfg.verifier_policy_hash:
        rules = v.model_copy(update={"entailment": None})
        if v.entailment is not None and labelled_by == verifier_policy_hash(rules):
            problems.append("labelled by the rules alone: the entailment judge failed when it was verified (its "
                            "record's notes say why), so its label is not the run's verifier's; ask it again in a "
                            "new run once the judge works")
            v = rules  # re-derived as it was labelled
        else:
            problems.append(f"labelled by verifier policy {labelled_by[:19]}…, not the run's "
                            f"{cfg.verifier_policy_hash[:19]}…")
    weights = corpus_weights(store, row.question) if v.answerability_threshold > 0 else None
    verification = verify_contract_answer(row.question, row.mode, contract, evidence, v, weights)
    got = (verification.label.value, [r.value for r in verification.reasons], verification.audit_mode.value)
    if got != (row.verifier.label, row.verifier.reasons, row.verifier.audit_mode):
        problems.append(f"label {row.verifier.label}, but its answer re-verified against the run's corpus is {got[0]}")
    doc_source = store.source_ids()
    path = PathView(
        ranked_source_ids=sources_of(row.retrieval.ranked_chunk_ids, doc_source),
        selected_source_ids=sources_of(row.selected_chunk_ids, doc_source),
        admitted_source_ids=sources_of(row.context.admitted_chunk_ids, doc_source),
        contract_valid=contract.valid, answer_text=text,
    )
    if diagnose(question, path) != row.diagnosis:
        d = row.diagnosis
        problems.append(f"diagnosis {d.boundary} (gold_in_answer {d.gold_in_answer}) is not what its answer and "
                        "boundaries give")
    return problems


def rows_problems(rows: list[Row], inputs: Inputs, stores: Mapping[ChunkingSettings, CorpusStore],
                  cfg: RunConfig) -> tuple[list[str], int]:
    """Per-row mismatches as 'row: problem', and how many rows were re-derived."""
    problems: list[str] = []
    checked = 0
    for row in rows:
        question = (inputs.questions or {}).get(row.query_id)
        arm = next((a for a in cfg.arms if a.name == row.arm), None)
        if question is None or arm is None:
            continue  # a stray row: "rows unique and complete" names it
        checked += 1
        problems += [f"{row.query_id} [{row.arm}, sample {row.sample}]: {p}"
                     for p in row_problems(row, question, stores[arm.policy.chunking], cfg)]
    return problems, checked


def summary_problems(run_dir: Path, cfg: RunConfig) -> list[str]:
    """Each summary file that is not what its rows give."""
    problems = []
    for name, value in summary_files(run_dir, cfg).items():
        path = run_dir / name
        if not path.is_file():
            continue  # the layout check names it
        on_disk: Any = path.read_text(encoding="utf-8") if isinstance(value, str) else _read_json(path)
        if on_disk != value:
            problems.append(f"{name} is not what the rows give: it was edited, or written from other rows")
    return problems


def status_problems(status: rundir.Status, rows: list[Row]) -> list[str]:
    """status.json's counts against the rows."""
    counts = {"rows_done": len(rows), "provider_calls": sum(r.source == "provider" for r in rows),
              "cache_hits": sum(r.from_cache for r in rows), "rows_reused": sum(r.source == "reused" for r in rows)}
    said = status.model_dump()
    return [f"status.json says {k} {said[k]}, the rows {v}" for k, v in counts.items() if said[k] != v]
