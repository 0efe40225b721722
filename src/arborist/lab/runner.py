"""`answer-quality run`: plan, prepare the index, answer every (question, arm, sample), summarise.

Order matters for trust:
1. everything that can be refused is checked before anything is written
   (evaluation bound to the corpus digest, question ids, options, the run
   being continued) and before any provider call;
2. the run directory is created fresh, inputs are copied, status is `running`;
3. rows are appended one by one (reused rows first), each flushed to disk;
4. summaries are computed from the rows on disk; status gets its final state.

The answers themselves go through the governed engine (cache, verify,
audit), so a repeated run is served from the answer cache and a continued
run re-pays only for rows that were never finished.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import uuid4

from arborist import embedding, engine
from arborist.answer.pipeline import ranked_chunks, retrieve, retrieve_and_admit
from arborist.answer.record import NO_TREATMENT
from arborist.corpus.chunking import ChunkingSettings
from arborist.corpus.documents import SourceDocument, corpus_digest
from arborist.corpus.loaders import load_documents
from arborist.corpus.store import CorpusStore, open_store
from arborist.errors import ArboristError, InputError
from arborist.evaluation.format import (
    Evaluation,
    Question,
    check_binding,
    load_evaluation,
)
from arborist.governance.options import policy_from_options
from arborist.ingest import embed_missing
from arborist.lab import rundir, treatments
from arborist.lab.config import Arm, JudgeSpec, ModelSpec, RunConfig, git_revision, output_digest
from arborist.lab.executors import Executor, InProcess, Produced, produce_here
from arborist.lab.judge import Judge, run_judge
from arborist.lab.replay import CompletionStore, ReplayingProvider
from arborist.lab.report import load_rows, write_summaries
from arborist.lab.rows import Row, build_row
from arborist.lab.rundir import RowWriter, State, Status, utc_now, write_json
from arborist.models.base import Completion, GenerationSettings, Message, Provider, abort_calls
from arborist.models.fleet import ServerFleet
from arborist.models.profiles import cache_dir
from arborist.policy.answer import AnswerPolicy, governance_policy_hash
from arborist.progress import Phase, Reporter
from arborist.prompting.modes import BASELINE_PROMPT, prompt_names, system_prompt
from arborist.verify import VerifierPolicy, verifier_policy_hash

EXIT_CODES: dict[State, int] = {"complete": 0, "failed": 1, "budget_exhausted": 5, "interrupted": 130, "running": 1}
# A complete run in which some rows have no answer (the provider call failed) or the judge failed on some rows:
# every row is there, but not every figure covers every row.
COMPLETE_WITH_FAILURES = 6
PROVIDER_ERROR = "PROVIDER_ERROR"
STATUS_EVERY_S = 1.0
WINDOW_PER_WORKER = 4  # items looked up ahead of the writer, per worker


def default_cache_directory() -> Path:
    return cache_dir() / "lab"


@dataclass(frozen=True)
class RunRequest:
    """What the user asked for. With `continue_from`, the old run's config supplies the rest."""

    run_root: Path | None
    corpus: Path | None = None
    evaluation: Path | None = None
    question_ids: Path | None = None
    limit: int | None = None
    arms: tuple[str, ...] = ()
    policy_values: dict[str, Any] = field(default_factory=dict)
    verifier: VerifierPolicy = field(default_factory=VerifierPolicy)  # a new run's; a continued one keeps its own
    prompt: str | None = None  # a shipped prompt name (see prompting.modes.prompt_names) or a system prompt file
    samples: int = 1
    model: ModelSpec | None = None
    generation_workers: int = 1
    generation_budget: int | None = None
    cache_directory: Path | None = None
    burn: bool = False
    continue_from: Path | None = None
    treatments: tuple[str, ...] = ()  # see lab.treatments: each adds a treated twin of every arm
    judge: JudgeSpec | None = None
    # The arms' policies as they are, one arm per policy named by its mode (`lab repair`: a run's own policy with
    # one setting changed); they replace policy_values, arms and the prompt's text (`prompt` is only recorded).
    policies: tuple[AnswerPolicy, ...] = ()


class BudgetExhausted(ArboristError):
    exit_code = 5


class BudgetedProvider:
    """Counts provider calls and refuses the one past the budget (before it is made)."""

    def __init__(self, inner: Provider, budget: int | None) -> None:
        self.inner = inner
        self.name = inner.name
        self.model_id = inner.model_id
        self.budget = budget
        self.calls = 0
        self._lock = threading.Lock()

    def count(self) -> None:
        """One more call, or BudgetExhausted before it is made."""
        with self._lock:
            if self.budget is not None and self.calls >= self.budget:
                raise BudgetExhausted(f"the generation budget of {self.budget} provider calls is used up")
            self.calls += 1

    def complete(
        self, messages: list[Message], settings: GenerationSettings, json_schema: dict[str, Any] | None = None
    ) -> Completion:
        self.count()
        return self.inner.complete(messages, settings, json_schema)


@dataclass
class Plan:
    config: RunConfig
    run_root: Path
    documents: list[SourceDocument]
    evaluation: Evaluation
    questions: list[Question]
    reused: list[Row]
    prompt_text: str
    corpus_bytes: bytes
    evaluation_bytes: bytes


@dataclass
class Outcome:
    run_dir: Path
    status: Status
    preparation_seconds: float = 0.0  # building or topping up the indexes and embeddings
    answering_seconds: float = 0.0  # the rows (and the judge), without the preparation


# -- planning (nothing is written) ------------------------------------------


def _read_bytes(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{what} '{path}' does not exist") from None
    except IsADirectoryError:
        raise InputError(f"{what} '{path}' is a directory; give a file") from None


def _select(evaluation: Evaluation, ids_file: Path | None, limit: int | None) -> list[Question]:
    questions = evaluation.questions
    if ids_file is not None:
        wanted = [line.strip() for line in _read_bytes(ids_file, "question ids file").decode("utf-8").splitlines()
                  if line.strip() and not line.startswith("#")]
        by_id = {q.id: q for q in questions}
        unknown = [w for w in wanted if w not in by_id]
        if unknown:
            raise InputError(
                f"question ids file '{ids_file}' names {len(unknown)} id(s) not in the evaluation, e.g. "
                f"{', '.join(repr(u) for u in unknown[:3])}; put one evaluation question id per line"
            )
        questions = [by_id[w] for w in dict.fromkeys(wanted)]
    if limit is not None:
        questions = questions[:limit]
    if not questions:
        raise InputError("no questions selected: the evaluation is empty or --limit/--question-ids select none")
    return questions


def resolve_prompt(value: str | None) -> tuple[str, str | None]:
    """--prompt as given -> (what to record, the file's text or None for a shipped prompt).

    A shipped prompt's name (`baseline`, `multipart`, ...) picks the package's
    file for each arm's mode; anything else is a file path (write `./multipart`
    for a file that happens to share a shipped name).
    """
    if value is None or value in prompt_names():
        return value or BASELINE_PROMPT, None
    path = Path(value)
    if not path.exists():
        raise InputError(f"--prompt '{value}' is neither a shipped prompt ({', '.join(prompt_names())}) nor a file")
    text = _read_bytes(path, "prompt file").decode("utf-8")
    if not text.strip():
        raise InputError(f"prompt file '{path}' is empty")
    return value, text


def _arms(request: RunRequest, model_id: str, prompt: str, prompt_file_text: str | None) -> list[Arm]:
    """One arm per answer mode named in --arms (default: the --mode option).

    The baseline prompt leaves the policy's system prompt unset (the shipped
    file of its mode and prompt version, as `query` uses); another shipped
    prompt or a file puts its text into the policy, so the governance hash and
    the answer cache follow the exact words sent.
    """
    names = request.arms or (str(request.policy_values.get("mode") or AnswerPolicy.model_fields["mode"].default),)
    arms = []
    for name in dict.fromkeys(names):
        values = {**request.policy_values, "mode": name}
        policy = policy_from_options(values, model_id)
        text = prompt_file_text
        if text is None and prompt != BASELINE_PROMPT:
            text = system_prompt(policy.mode, policy.prompt_version, prompt)
        if text is not None:
            policy = policy.model_copy(update={"system_prompt": text})
        arms.append(Arm(name=name, policy=policy, governance_policy_hash=governance_policy_hash(policy)))
    twins = [Arm(name=f"{a.name}+{t}", policy=a.policy, governance_policy_hash=a.governance_policy_hash, treatment=t)
             for a in arms for t in dict.fromkeys(request.treatments)]
    return arms + twins


def _given_arms(request: RunRequest, model_id: str) -> list[Arm]:
    """RunRequest.policies as arms, each named by its mode, with the treated twins as `_arms` makes them."""
    wrong = [p.model_id for p in request.policies if p.model_id != model_id]
    if wrong:
        raise InputError(f"a policy names model {wrong[0]}, but the run answers with {model_id}")
    names = [p.mode for p in request.policies]
    shared = sorted({n for n in names if names.count(n) > 1})
    if shared:
        raise InputError(f"two policies of one run share the answer mode {shared[0]!r}; an arm is named by its mode")
    arms = [Arm(name=p.mode, policy=p, governance_policy_hash=governance_policy_hash(p)) for p in request.policies]
    twins = [Arm(name=f"{a.name}+{t}", policy=a.policy, governance_policy_hash=a.governance_policy_hash, treatment=t)
             for a in arms for t in dict.fromkeys(request.treatments)]
    return arms + twins


def _prompt_text(arms: list[Arm]) -> str:
    if len(arms) == 1:
        return arms[0].policy.system_prompt_text
    return "".join(f"=== arm {a.name} ===\n{a.policy.system_prompt_text}\n" for a in arms)


def _reusable(old_dir: Path, config: RunConfig, keys: set[tuple[str, str, int]]) -> list[Row]:
    """Finished rows of the run being continued: whole, in this plan, not a provider failure, first of each key."""
    rows, _torn = rundir.read_rows(old_dir / rundir.ROWS)
    out: dict[tuple[str, str, int], Row] = {}
    for raw in rows:
        try:
            row = Row.model_validate(raw)
        except ValueError:
            continue
        if row.key in keys and row.key not in out and row.contract.reason != PROVIDER_ERROR:
            out[row.key] = row.model_copy(update={
                "source": "reused", "reused_from": old_dir.name, "run_id": config.run_id,
            })
    return list(out.values())


def plan_run(request: RunRequest, provider: Provider) -> Plan:
    """Resolve every default and check every input; raises InputError before anything is written."""
    old: RunConfig | None = None
    if request.continue_from is not None:
        old = rundir.load_config(request.continue_from)
    corpus_path = request.corpus or (Path(old.corpus_path) if old else None)
    evaluation_path = request.evaluation or (Path(old.evaluation_path) if old else None)
    if corpus_path is None or evaluation_path is None:
        raise InputError("give --corpus FILE and --evaluation FILE (or --continue-from RUN_DIR)")
    run_root = request.run_root or (request.continue_from.parent if request.continue_from else None)
    if run_root is None:
        raise InputError("give --out DIR: where the new run directory goes")
    corpus_bytes = _read_bytes(corpus_path, "corpus file")
    evaluation_bytes = _read_bytes(evaluation_path, "evaluation file")
    evaluation = load_evaluation(evaluation_path)
    documents = load_documents([corpus_path])
    digest = corpus_digest(documents)
    check_binding(evaluation, digest, evaluation_path)
    evaluation_sha = "sha256:" + hashlib.sha256(evaluation_bytes).hexdigest()
    model_id = f"{provider.name}:{provider.model_id}"
    if old is not None:
        if old.corpus_digest != digest or old.evaluation_sha256 != evaluation_sha:
            raise InputError(
                f"the corpus or evaluation file changed since run '{request.continue_from}' was made "
                f"(corpus {old.corpus_digest} -> {digest}); a continued run must answer the same questions"
            )
        if old.model.model_id != model_id:
            raise InputError(f"run '{request.continue_from}' used model {old.model.model_id}, not {model_id}")
        by_id = {q.id: q for q in evaluation.questions}
        questions = [by_id[i] for i in old.question_ids]
        arms, samples, verifier = list(old.arms), old.samples, old.verifier_policy
        prompt: str | None = old.prompt
        selection = dict(old.question_selection)
    else:
        questions = _select(evaluation, request.question_ids, request.limit)
        if request.policies:
            prompt = request.prompt or BASELINE_PROMPT
            arms = _given_arms(request, model_id)
        else:
            prompt, prompt_file_text = resolve_prompt(request.prompt)
            arms = _arms(request, model_id, prompt, prompt_file_text)
        samples = request.samples
        if samples > 1 and any(a.policy.generation.temperature == 0 for a in arms):
            raise InputError(
                f"--samples {samples} needs --temperature above 0: at temperature 0 every sample is the same answer"
            )
        verifier = request.verifier
        selection = {"question_ids_file": str(request.question_ids) if request.question_ids else None,
                     "limit": request.limit}
    model = request.model or (old.model if old else None) or ModelSpec(
        model=None, base_url=None, provider=provider.name, model_id=model_id)
    model = model.model_copy(update={"provider": provider.name, "model_id": model_id})
    if isinstance(provider, ServerFleet):  # config.json names the servers the run was sent to
        model = model.model_copy(update={"servers": provider.servers, "per_server": provider.per_server})
    created = datetime.now(UTC)
    question_ids = [q.id for q in questions]
    v_hash = verifier_policy_hash(verifier)
    config = RunConfig(
        run_id=uuid4().hex, created_at=created.isoformat(timespec="seconds"), git=git_revision(),
        corpus_path=str(corpus_path.resolve()), corpus_digest=digest,
        evaluation_path=str(evaluation_path.resolve()), evaluation_sha256=evaluation_sha,
        question_ids=question_ids, question_selection=selection, prompt=prompt, arms=arms, samples=samples,
        model=model,
        verifier_policy=verifier, verifier_policy_hash=v_hash,
        generation_workers=request.generation_workers, generation_budget=request.generation_budget,
        cache_directory=str((request.cache_directory or (Path(old.cache_directory) if old else None)
                             or default_cache_directory()).resolve()),
        burn=request.burn,
        continue_from=str(request.continue_from.resolve()) if request.continue_from else None,
        judge=request.judge,
        output_digest=output_digest(digest, evaluation_sha, question_ids, arms, samples, v_hash),
    )
    if old is not None and old.output_digest != config.output_digest:
        raise InputError(f"run '{request.continue_from}' has other settings than this run; cannot continue it")
    reused: list[Row] = []
    if request.continue_from is not None:
        keys = {(q, a.name, s) for q in question_ids for a in arms for s in range(samples)}
        reused = _reusable(request.continue_from, config, keys)
    return Plan(config=config, run_root=run_root, documents=documents, evaluation=evaluation, questions=questions, reused=reused,
                prompt_text=_prompt_text(arms), corpus_bytes=corpus_bytes, evaluation_bytes=evaluation_bytes)


# -- preparation: one store per (corpus, chunking), reused across runs --------


def store_path(cache_directory: Path, digest: str, chunking: ChunkingSettings) -> Path:
    return cache_directory / "stores" / (
        f"{digest.removeprefix('sha256:')[:16]}-c{chunking.chunk_runes}-o{chunking.overlap_runes}.db"
    )


def prepare_store(plan: Plan, chunking: ChunkingSettings, dense: bool, progress: Reporter | None = None) -> Path:
    """The store for this corpus and chunking: built once, reused (and topped up) by every later run.

    The answer cache lives in it too, so a repeated run is served from cache.
    """
    path = store_path(Path(plan.config.cache_directory), plan.config.corpus_digest, chunking)
    path.parent.mkdir(parents=True, exist_ok=True)
    label = f"preparing the index (chunks of {chunking.chunk_runes} runes)"
    report = progress.callback(label) if progress is not None else None
    with open_store(path, create=True) as store:
        if store.digest() != plan.config.corpus_digest or store.chunking() != chunking:
            docs = len(plan.documents)
            store.ingest(plan.documents, chunking,
                         progress=(lambda n: report("chunking", n, docs)) if report is not None else None)
        if dense:
            embed_missing(store, report)
    return path


def _write_preparation(run_dir: Path, stores: dict[ChunkingSettings, Path]) -> None:
    chunks_out: list[dict[str, Any]] = []
    reps: dict[str, Any] = {"stores": []}
    indexes: list[dict[str, Any]] = []
    for chunking, path in stores.items():
        with open_store(path) as store:
            info = store.info()
            for c in store.all_chunks():
                chunks_out.append({"chunk_id": c.chunk_id, "doc_id": c.doc_id, "source_id": c.source_id,
                                   "title": c.title, "n_runes": len(c.text), "chunking": chunking.model_dump(),
                                   "text": c.text})
        reps["stores"].append({
            "chunking": chunking.model_dump(),
            "lexical": {"index": "SQLite FTS5 over chunk bodies and titles", "chunks": info["chunks"]},
            "dense": {"model": embedding.MODEL_ID, "dimensions": embedding.DIM, "vectors": info["vectors"]},
        })
        indexes.append(info)
    write_json(run_dir / "preparation" / "chunks.json", chunks_out)
    write_json(run_dir / "preparation" / "representations.json", reps)
    write_json(run_dir / "indexes" / "indexes.json", {
        "note": "the indexes live in the lab's cache directory, shared by runs over the same corpus and chunking",
        "stores": indexes,
    })


# -- execution ----------------------------------------------------------------


@dataclass
class _Item:
    question: Question
    arm: Arm
    samples: list[int]


class _Counters:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.done = 0
        self.calls = 0
        self.hits = 0
        self.failed = 0
        self.reused = 0


def execute(
    plan: Plan, provider: Provider, progress: Reporter | None = None,
    started: Callable[[Path], None] | None = None, judge: Judge | None = None,
    executor: Executor | None = None,
) -> Outcome:
    """Prepare the stores, create the run directory (`started` hears of it at once), answer, summarise;
    with `judge`, judge the rows of a complete run (see `lab.judge`). `executor` generates and verifies
    (default: threads of this process, `generation_workers` of them); the caller closes it."""
    if judge is not None:
        plan.config = plan.config.model_copy(update={"judge": judge.spec})
    cfg = plan.config
    replays = CompletionStore(Path(cfg.cache_directory))  # a broken cache file stops the run before it starts
    try:
        outcome = _execute(plan, provider, replays, progress, started, judge, executor or InProcess())
    finally:
        replays.close()
    return outcome


def _execute(
    plan: Plan, provider: Provider, replays: CompletionStore, progress: Reporter | None,
    started: Callable[[Path], None] | None, judge: Judge | None, executor: Executor,
) -> Outcome:
    chunkings = {a.policy.chunking for a in plan.config.arms}
    dense = any("dense" in a.policy.search.routes for a in plan.config.arms)
    t0 = time.monotonic()
    stores = {c: prepare_store(plan, c, dense, progress) for c in chunkings}
    plan.config = plan.config.model_copy(update={"executor": executor.start(plan.config.generation_workers)})
    cfg = plan.config
    t1 = time.monotonic()
    # absolute, so every message that names it (--continue-from ...) works from any directory
    run_dir = rundir.create_run_dir(plan.run_root.resolve(), datetime.fromisoformat(cfg.created_at),
                                    cfg.output_digest)
    write_json(run_dir / rundir.CONFIG, cfg.model_dump(mode="json"))
    status = Status(state="running", started_at=utc_now(), rows_total=cfg.rows_total)
    write_json(run_dir / rundir.STATUS, status.model_dump())
    (run_dir / "inputs" / "corpus.json").write_bytes(plan.corpus_bytes)
    (run_dir / "inputs" / "evaluation.json").write_bytes(plan.evaluation_bytes)
    (run_dir / "inputs" / "prompt.txt").write_text(plan.prompt_text, encoding="utf-8")
    _write_preparation(run_dir, stores)
    if started is not None:
        started(run_dir)

    writer = RowWriter(run_dir / rundir.ROWS)
    counters = _Counters()
    last_status = [0.0]
    written: set[tuple[str, str, int]] = set()

    def flush_status(final: bool = False) -> None:
        now = time.monotonic()
        if final or now - last_status[0] >= STATUS_EVERY_S:
            last_status[0] = now
            status.rows_done, status.provider_calls, status.cache_hits = counters.done, counters.calls, counters.hits
            status.rows_reused = counters.reused
            if not final:  # the final count is read from the rows on disk
                status.rows_failed = counters.failed
            write_json(run_dir / rundir.STATUS, status.model_dump())

    def emit(row: Row) -> None:
        with counters.lock:
            if row.key in written:  # never twice, whatever an executor delivers more than once
                return
            written.add(row.key)
            writer.write(row.model_dump(mode="json"))
            counters.done += 1
            counters.calls += row.source == "provider"
            counters.hits += row.from_cache
            counters.failed += row.contract.reason == PROVIDER_ERROR
            counters.reused += row.source == "reused"
            if row.source == "provider" and row.server is not None:
                status.rows_by_server[row.server] = status.rows_by_server.get(row.server, 0) + 1
            if row.source == "provider" and row.worker is not None:
                status.rows_by_worker[row.worker] = status.rows_by_worker.get(row.worker, 0) + 1
            flush_status()
        if rows_phase is not None:
            rows_phase.advance(note=f"cache hits {counters.hits} · calls {counters.calls} · failed {counters.failed}")

    rows_phase: Phase | None = None
    for row in plan.reused:
        emit(row)
    flush_status(final=True)  # status.json counts the reused rows before the first provider call
    if progress is not None:
        rows_phase = progress.phase("answering", cfg.rows_total, counters.done)

    done = {r.key for r in plan.reused}
    items = []
    for q in plan.questions:
        for arm in cfg.arms:
            todo = [s for s in range(cfg.samples) if (q.id, arm.name, s) not in done]
            if todo:
                items.append(_Item(q, arm, todo))
    budgeted = BudgetedProvider(provider, cfg.generation_budget)
    # --burn asks the model again: nothing is replayed, and what it answers is kept for later runs
    asking = ReplayingProvider(budgeted, replays, serve=not cfg.burn)
    verifier = cfg.verifier_policy
    stop = threading.Event()
    doc_sources: dict[ChunkingSettings, dict[str, str]] = {}
    for c, path in stores.items():
        with open_store(path) as s:
            doc_sources[c] = s.source_ids()

    pool = treatments.PlantPool.of(plan.evaluation.questions)

    def prepare(item: _Item, store: CorpusStore) -> _Prepared:
        """The driver's part before generation: retrieval, admission, treatment, cache lookups."""
        arm, question = item.arm, item.question
        part: treatments.TreatmentPart | None = None
        jobs: list[engine.Job] = []
        if arm.treatment == NO_TREATMENT:
            ranked = retrieve(store, question.question, arm.policy)
            for sample in item.samples:
                jobs.append(engine.query_job(store, question.question, arm.policy, asking, verifier, ranked,
                                             burn=cfg.burn, sample_index=sample, run_id=cfg.run_id))
        else:
            result, admission = retrieve_and_admit(store, question.question, arm.policy)
            admitted, part = treatments.apply(arm.treatment, question, ranked_chunks(result), admission,
                                              arm.policy, pool)
            if part.withheld_chunk_ids:  # the record's ranked list is the one admission saw
                gone = set(part.withheld_chunk_ids)
                result = result.keeping(lambda h: h.chunk_id not in gone)
            for sample in item.samples:
                jobs.append(engine.admitted_job(store, question.question, admitted, arm.treatment, arm.policy,
                                                asking, verifier, burn=cfg.burn, sample_index=sample,
                                                run_id=cfg.run_id, ranked=result))
        return _Prepared(item, jobs, part)

    def write(prepared: _Prepared, produced: Produced, store: CorpusStore) -> None:
        """The driver's part after generation: cache row, audit event and row, in plan order."""
        item = prepared.item
        for sample, job, (fresh, worker) in zip(item.samples, prepared.jobs, produced, strict=True):
            record = job.pending.record if fresh is None else fresh
            if record is None:
                return  # stopped before this sample was asked
            record = engine.settle(store, job.pending, record)
            if record.cache_hit or executor.remote:  # a remote worker replays nothing: keep what it heard here
                replays.remember(record)
            row = build_row(item.question, item.arm.name, sample, record, doc_sources[item.arm.policy.chunking],
                            cfg.run_id, treatment=prepared.treatment)
            emit(row if worker is None else row.model_copy(update={"worker": worker}))

    state: State = "complete"
    message = ""
    try:
        for chunking, path in stores.items():
            mine = [i for i in items if i.arm.policy.chunking == chunking]
            with open_store(path) as store:
                _drive(mine, store, prepare, write, executor, cfg.generation_workers, budgeted, stop)
    except BudgetExhausted as exc:
        state, message = "budget_exhausted", f"{exc}; continue with --continue-from {run_dir}"
    except KeyboardInterrupt:
        state, message = "interrupted", f"interrupted; continue with --continue-from {run_dir}"
    except ArboristError as exc:
        state, message = "failed", str(exc)
    except Exception as exc:
        state, message = "failed", f"unexpected {type(exc).__name__}: {exc}"
        raise
    finally:
        stop.set()
        if state == "interrupted":  # end the calls in flight now: their rows are not written, a continuation asks again
            abort_calls(provider)
        executor.finish(cancel=state != "complete")
        writer.close()
        if rows_phase is not None:
            rows_phase.close()
        # Count what is on disk: an interrupt may land between a row's write and its count.
        on_disk = load_rows(run_dir)[0]
        counters.done = len(on_disk)
        failed_rows = [r for r in on_disk if r.contract.reason == PROVIDER_ERROR]
        status.rows_failed = len(failed_rows)
        if state == "complete" and counters.done != cfg.rows_total:
            state, message = "failed", f"{counters.done} rows written, {cfg.rows_total} expected"
        elif state == "complete" and failed_rows and len(failed_rows) == counters.done:
            state, message = "failed", (f"every row failed: the provider call failed ({failed_rows[0].contract.detail}); "
                                        f"once the model answers, --continue-from {run_dir} asks again")
        elif state == "complete" and failed_rows:
            message = (f"{len(failed_rows)} of {counters.done} rows failed: the provider call failed "
                       f"({failed_rows[0].contract.detail}); --continue-from {run_dir} asks them again")
        write_summaries(run_dir, cfg)
        if state != "complete" or judge is None:
            _settle(status, state, message)
            flush_status(final=True)
    if judge is not None and state == "complete":
        status.message = "judging"
        flush_status(final=True)
        try:
            judged = run_judge(run_dir, load_rows(run_dir)[0], judge, cfg.model.model_id, progress)
        except KeyboardInterrupt:
            _settle(status, "interrupted", f"interrupted while judging; every row is answered: continue with "
                                           f"--continue-from {run_dir} to judge them")
            flush_status(final=True)
            raise
        status.judge_failed = judged.status.get("judge_failed", 0)
        if status.judge_failed:
            note = f"the judge failed on {status.judge_failed} of {judged.rows} rows (results/judge-per-query.jsonl)"
            message = f"{message}; {note}" if message else note
        write_summaries(run_dir, cfg)
        _settle(status, state, message)
        flush_status(final=True)
    return Outcome(run_dir=run_dir, status=status, preparation_seconds=round(t1 - t0, 3),
                   answering_seconds=round(time.monotonic() - t1, 3))


def _settle(status: Status, state: State, message: str) -> None:
    """The run's final state, message and exit status: a complete run with failed rows or judge calls exits
    COMPLETE_WITH_FAILURES, so a script sees what a person reads in the warning."""
    status.state, status.message, status.ended_at = state, message, utc_now()
    partial = state == "complete" and (status.rows_failed or status.judge_failed)
    status.exit_code = COMPLETE_WITH_FAILURES if partial else EXIT_CODES[state]


@dataclass
class _Prepared:
    item: _Item
    jobs: list[engine.Job]  # one per sample of the item, looked up
    treatment: treatments.TreatmentPart | None


def _drive(
    items: list[_Item], store: CorpusStore, prepare: Callable[[_Item, CorpusStore], _Prepared],
    write: Callable[[_Prepared, Produced, CorpusStore], None], executor: Executor, workers: int,
    budget: BudgetedProvider, stop: threading.Event,
) -> None:
    """The driver: it alone reads and writes the store (retrieval, cache, audit) and writes rows, in plan order.

    With one in-process worker everything runs inline (Ctrl-C interrupts the call in progress). Otherwise up
    to `workers` items are generated at once by the executor while the driver keeps a window of items
    looked up ahead and writes each as soon as every item before it is written: the rows, the audit chain and
    the cache come out as a one-worker run writes them. A remote executor's calls are counted against the
    generation budget here, before an item is sent (its provider is not this process's).
    """
    if isinstance(executor, InProcess) and executor.inline:
        for item in items:
            if stop.is_set():
                return
            prepared = prepare(item, store)
            write(prepared, produce_here(prepared.jobs, stop), store)
        return
    window: deque[tuple[_Prepared, Future[Produced]]] = deque()
    pending = iter(items)
    spent = False
    while True:
        while len(window) < WINDOW_PER_WORKER * workers and not stop.is_set() and not spent:
            upcoming = next(pending, None)
            if upcoming is None:
                break
            prepared = prepare(upcoming, store)
            try:
                if executor.remote:
                    for _ in range(sum(not j.served for j in prepared.jobs)):
                        budget.count()
                future = executor.submit(prepared.jobs, stop)
            except BudgetExhausted as exc:  # raised when its turn to be written comes, as in process
                future, spent = Future(), True
                future.set_exception(exc)
            window.append((prepared, future))
        if not window:
            break
        prepared, future = window[0]
        while True:
            try:
                produced = future.result(timeout=0.5)  # a short wait keeps Ctrl-C prompt
                break
            except TimeoutError:
                continue
        window.popleft()
        write(prepared, produced, store)
