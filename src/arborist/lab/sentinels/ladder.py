"""A ladder run: every fact's question asked once per rung, with that rung's variant as the fact's document.

For each rung the evidence is the ordinary path's (search, EvidenceK,
admission) over the sentinel store with every other variant and the fact's
original document filtered out, so the only copy of the fact the model can
read is the rung's. A rung is `void` unless the rung's value is in the
assembled prompt (nothing is asked then). Each of the N answers of a rung
counts towards

    used_sentinel  the answer states the rung's value
    used_memory    it states the true value and not the rung's
    neither        a usable answer that states neither value
    objected       it calls the supplied value wrong (`SentinelPolicy.objection_phrases`)

Values are read, not matched as strings (`lab.values`): "8 file uploads per
minute" states the rung "8 uploads per minute", and "13 days" does not state
"3 days". A fact most of whose usable answers state neither value is
`uninterpretable`, with a warning: its counts would say nothing about which
value the model used.

Zero-prior facts run first; a zero-prior control passes when every rung is
answered with its value in at least `control_pass_rate` of its usable runs
(answers that broke the contract are counted as `unusable`, in no rate).
Competing facts are `uninterpretable` unless the run has a zero-prior
control and every one passed. The work is ordered so that consecutive prompts share
their prefix, which a local llama.cpp model evaluates once: rungs of one fact
back to back, a rung's samples back to back, and the rung's own chunks last
among the admitted evidence (the ordinary admission, reordered), so the
prompt before the patched bytes is the same for every rung.
"""

from __future__ import annotations

import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from arborist import engine
from arborist.answer.pipeline import build_messages, check_question, ranked_chunks
from arborist.answer.record import AnswerRecord
from arborist.corpus.store import CorpusStore
from arborist.errors import InputError
from arborist.evidence.admission import Admission, admit
from arborist.lab import rundir
from arborist.lab.diagnosis import answer_text
from arborist.lab.sentinels.facts import Fact, Facts, Rung
from arborist.lab.sentinels.store import SentinelMap, load_map
from arborist.lab.treatments import OBJECTIONS, objects
from arborist.lab.values import states_value
from arborist.models.base import Provider
from arborist.policy.answer import AnswerPolicy, governance_policy_hash
from arborist.policy.canonical import tagged_digest
from arborist.progress import Reporter
from arborist.retrieval.search import SearchResult, search
from arborist.verify import VerifierPolicy

RUN_TAG = "arborist-sentinel-run/1"
SUBDIRS = ("results",)


class SentinelPolicy(BaseModel):
    """The ladder's own knobs (recorded in the run's config)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    objection_phrases: tuple[str, ...] = Field(default=OBJECTIONS, description="an answer holding one objects")
    control_pass_rate: float = Field(default=0.5, ge=0.0, le=1.0,
                                     description="share of a zero-prior rung's runs that must use its value")


class RungResult(BaseModel):
    label: str
    value: str
    runs: int
    used_sentinel: int
    used_memory: int
    objected: int
    void: bool
    unusable: int = Field(default=0, description="answers that broke the contract: counted in runs, in no rate")
    neither: int = Field(default=0, description="usable answers stating neither the rung's value nor the true one")

    @property
    def usable(self) -> int:
        return self.runs - self.unusable


class FactResult(BaseModel):
    id: str
    kind: str
    status: Literal["ok", "uninterpretable"]
    control: Literal["passed", "failed"] | None = Field(default=None, description="zero-prior facts only")
    rungs: list[RungResult]
    warning: str | None = Field(default=None, description="why the fact's counts cannot be read, when they cannot")


class LadderResult(BaseModel):
    facts: list[FactResult]

    @property
    def warnings(self) -> list[str]:
        return [f"{f.id}: {f.warning}" for f in self.facts if f.warning]


class LadderConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    run_id: str
    created_at: str
    sentinel_db: str
    facts_digest: str
    facts: Facts
    runs: int
    policy: AnswerPolicy
    governance_policy_hash: str
    sentinel_policy: SentinelPolicy
    model_id: str
    burn: bool


def rung_treatment(fact: Fact, rung: Rung) -> str:
    return f"sentinel:{fact.id}/{rung.label}"


def rung_evidence(
    store: CorpusStore, mapping: SentinelMap, fact: Fact, rung: Rung, policy: AnswerPolicy, chunks_per_source: Counter[str],
) -> tuple[SearchResult, Admission]:
    """The ordinary retrieval and admission, with the rung's variant as the only copy of the fact's document."""
    keep = mapping.variant_of(fact.id, rung.label)

    def visible(source_id: str) -> bool:  # other facts' originals stay; only this fact's document is swapped
        return source_id == keep or (source_id not in mapping.variants and source_id != fact.source_id)

    extra = sum(n for s, n in chunks_per_source.items() if not visible(s))
    # every hidden copy competes in each route's own list too: widen the routes as well as the fused list
    deep = policy.search.model_copy(update={"k": policy.search.k + extra,
                                            "route_depth": min(10_000, policy.search.route_depth + extra)})
    result = search(store, fact.question, deep).keeping(lambda h: visible(h.source_id), policy.search.k)
    admission = admit(ranked_chunks(result), policy.evidence_k, policy.context_runes)
    # The rung's chunks go last: the prompt before them is the same for every rung of the fact.
    last = [c for c in admission.admitted if c.source_id != keep] + [c for c in admission.admitted if c.source_id == keep]
    return result, admission.model_copy(update={"admitted": last})


def in_prompt(value: str, admission: Admission, question: str, policy: AnswerPolicy) -> bool:
    """Whether the rung's exact bytes are in the prompt as it would be sent."""
    return any(value in m.content for m in build_messages(question, admission.admitted, policy, "retrieved"))


class Reading(NamedTuple):
    """What one answer did with a rung."""

    used_sentinel: bool
    used_memory: bool
    objected: bool
    neither: bool


def read_answer(text: str, fact: Fact, rung: Rung, sp: SentinelPolicy, usable: bool = True) -> Reading:
    """How an answer's text counts for a rung: values read as quantities (`lab.values`)."""
    used = usable and states_value(text, rung.value)
    memory = usable and not used and states_value(text, fact.true_value)
    return Reading(used, memory, usable and objects(text, sp.objection_phrases), usable and not used and not memory)


def classify(record: AnswerRecord, fact: Fact, rung: Rung, sp: SentinelPolicy) -> Reading:
    """How one answer counts for a rung (an unusable answer counts for nothing)."""
    answer = record.contract.answer or {}
    text = " ".join([answer_text(answer), *[str(r) for r in answer.get("abstained_requests", [])]])
    return read_answer(text, fact, rung, sp, usable=record.contract.valid)


def run_ladder(
    store: CorpusStore, facts: Facts, policy: AnswerPolicy, provider: Provider, runs: int, out: Path,
    sentinel_policy: SentinelPolicy | None = None, burn: bool = False,
    progress: Reporter | None = None,
) -> tuple[Path, LadderResult]:
    """Run the ladder into a new run directory under `out`; (run directory, result). A rung asks whether the
    model reads the sentinel it was shown, so its answers are never repaired: a revision turn would tell the
    model which values its quote holds (the answer policy's repair is set to none, and config.json says so)."""
    policy = policy.model_copy(update={"repair": "none"})
    sp = sentinel_policy or SentinelPolicy()
    mapping = load_map(store)
    if mapping.facts_digest != facts.digest():
        raise InputError(f"sentinel store '{store.path}' was built from another facts file; build it again from "
                         "this one (`arborist lab sentinel-build`)")
    for fact in facts.facts:
        check_question(fact.question)
    created = datetime.now(UTC)
    digest = tagged_digest(RUN_TAG, {"store": store.digest(), "facts": facts.digest(), "runs": runs,
                                     "policy": governance_policy_hash(policy)})
    config = LadderConfig(
        run_id=digest.removeprefix("sha256:")[:16] + created.strftime("%H%M%S"), created_at=created.isoformat(
            timespec="seconds"), sentinel_db=str(store.path.resolve()), facts_digest=facts.digest(), facts=facts,
        runs=runs, policy=policy, governance_policy_hash=governance_policy_hash(policy), sentinel_policy=sp,
        model_id=policy.model_id, burn=burn)
    run_dir = rundir.create_fresh_dir(out, f"{created.strftime('%Y%m%dT%H%M%SZ')}-sentinel-"
                                           f"{digest.removeprefix('sha256:')[:8]}", SUBDIRS, "sentinel run")
    rundir.write_json(run_dir / "config.json", config.model_dump(mode="json"))
    total = sum(len(f.rungs) for f in facts.facts) * runs
    status = rundir.Status(state="running", started_at=rundir.utc_now(), rows_total=total)
    rundir.write_json(run_dir / "status.json", status.model_dump())
    writer = rundir.RowWriter(run_dir / "results" / "answers.jsonl")
    chunks_per_source: Counter[str] = Counter(c.source_id for c in store.all_chunks())
    verifier = VerifierPolicy()
    results: list[FactResult] = []
    t0 = time.monotonic()
    state: rundir.State = "failed"
    phase = progress.phase("ladder answers", total) if progress is not None else None
    try:
        for fact in facts.ordered():
            rungs = []
            for rung in fact.rungs:
                result, admission = rung_evidence(store, mapping, fact, rung, policy, chunks_per_source)
                if not in_prompt(rung.value, admission, fact.question, policy):
                    rungs.append(RungResult(label=rung.label, value=rung.value, runs=0, used_sentinel=0,
                                            used_memory=0, objected=0, void=True))
                    status.rows_done += runs
                    if phase is not None:
                        phase.advance(runs, note=f"{fact.id} / {rung.label}: void")
                    continue
                counts = [0, 0, 0, 0]
                unusable = 0
                for sample in range(runs):
                    record = engine.answer_admitted(
                        store, fact.question, admission, rung_treatment(fact, rung), policy, provider, verifier,
                        burn=burn, sample_index=sample, run_id=config.run_id, ranked=result)
                    flags = classify(record, fact, rung, sp)
                    counts = [c + f for c, f in zip(counts, flags)]
                    unusable += not record.contract.valid
                    writer.write({
                        "fact": fact.id, "kind": fact.kind, "rung": rung.label, "value": rung.value, "sample": sample,
                        "source": "cache" if record.cache_hit else "provider", "record_id": record.record_id,
                        "answer": answer_text(record.contract.answer), "contract": record.contract.reason,
                        "label": record.verification.label.value if record.verification else None,
                        "used_sentinel": flags.used_sentinel, "used_memory": flags.used_memory,
                        "objected": flags.objected, "neither": flags.neither,
                        "admitted_chunk_ids": record.admitted_chunk_ids, "seconds": record.timings.get("total"),
                        "prompt_tokens": record.completion.prompt_tokens,
                        "cached_prompt_tokens": record.completion.cached_prompt_tokens,
                    })
                    status.rows_done += 1
                    status.provider_calls += not record.cache_hit
                    status.cache_hits += record.cache_hit
                    rundir.write_json(run_dir / "status.json", status.model_dump())
                    if phase is not None:
                        phase.advance(note=f"{fact.id} / {rung.label}: sample {sample + 1} of {runs}")
                rungs.append(RungResult(label=rung.label, value=rung.value, runs=runs, used_sentinel=counts[0],
                                        used_memory=counts[1], objected=counts[2], void=False, unusable=unusable,
                                        neither=counts[3]))
            results.append(FactResult(id=fact.id, kind=fact.kind, status="ok", rungs=rungs))
        state = "complete"
    except KeyboardInterrupt:
        state = "interrupted"
        status.message = "interrupted; run the ladder again (finished answers are served from the cache)"
        raise
    finally:
        if phase is not None:
            phase.close()
        writer.close()
        status.state = state
        status.ended_at, status.exit_code = rundir.utc_now(), {"complete": 0, "interrupted": 130}.get(state, 1)
        rundir.write_json(run_dir / "status.json", status.model_dump())
    ladder = judge(results, sp)
    rundir.write_json(run_dir / "results" / "ladder.json", {
        **ladder.model_dump(mode="json"), "seconds": round(time.monotonic() - t0, 3)})
    (run_dir / "summary.md").write_text(render(config, ladder), encoding="utf-8")
    return run_dir, ladder


def mostly_neither(f: FactResult) -> str | None:
    """A warning when most of the fact's usable answers state neither value, else None."""
    usable = sum(r.usable for r in f.rungs if not r.void)
    neither = sum(r.neither for r in f.rungs if not r.void)
    if usable and neither * 2 > usable:
        return (f"{neither} of {usable} usable answers state neither the rung's value nor the true value, so the "
                "counts cannot say which one the model used; read its answers in results/answers.jsonl")
    return None


def judge(results: list[FactResult], sp: SentinelPolicy) -> LadderResult:
    """Mark zero-prior controls passed or failed, and competing facts uninterpretable unless all passed; a fact
    whose usable answers mostly state neither value is uninterpretable whatever its kind."""
    out: list[FactResult] = []
    controls_ok = True
    any_control = False
    results = [f.model_copy(update={"warning": w, "status": "uninterpretable"}) if (w := mostly_neither(f)) else f
               for f in results]
    for f in results:
        if f.kind == "zero_prior":
            any_control = True
            passed = all(not r.void and r.runs > r.unusable
                         and r.used_sentinel / (r.runs - r.unusable) >= sp.control_pass_rate for r in f.rungs)
            controls_ok = controls_ok and passed
            out.append(f.model_copy(update={"control": "passed" if passed else "failed"}))
    for f in results:
        if f.kind == "competing":
            ok = controls_ok and any_control and f.warning is None
            out.append(f.model_copy(update={"status": "ok" if ok else "uninterpretable"}))
    return LadderResult(facts=out)


def render(config: LadderConfig, ladder: LadderResult) -> str:
    lines = [f"# sentinel ladder {config.run_id}", "",
             f"model `{config.model_id}`, {config.runs} run(s) per rung, sentinel store `{config.sentinel_db}`.", ""]
    failed = [f.id for f in ladder.facts if f.control == "failed"]
    if failed:
        lines += [f"**Zero-prior control failed ({', '.join(failed)}):** the answers did not repeat values the model "
                  "could only have read in its documents (or were unusable, or the value never reached the prompt), "
                  "so the competing ladders below are not interpretable.", ""]
    for f in ladder.facts:
        extra = f", control {f.control}" if f.control else ""
        lines += [f"## {f.id} ({f.kind}, {f.status}{extra})", "",
                  "| rung | value | runs | used sentinel | used memory | neither | objected | unusable | void |",
                  "|---|---|---|---|---|---|---|---|---|"]
        lines += [f"| {r.label} | `{r.value}` | {r.runs} | {r.used_sentinel} | {r.used_memory} | {r.neither} | "
                  f"{r.objected} | {r.unusable} | {'yes' if r.void else ''} |" for r in f.rungs]
        lines.append("")
        if f.warning:
            lines += [f"**Warning:** {f.warning}.", ""]
    return "\n".join(lines)
