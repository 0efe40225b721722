"""`lab compare`: two runs (or two arms) over the same evaluation, paired per question and sample.

Pairing: a row of run A and a row of run B pair when they answer the same
question with the same sample index, under the arm chosen in each run. The
arm defaults to the run's only arm; a run with several arms needs `--arm`
(and `--arm-b` for run B when its arm has another name). Comparing two arms
of one run is RUN RUN --arm X --arm-b Y.

Delta is B - A over the paired rows, averaged per question first, so a
question with five samples weighs as much as one with one. The interval is
a seeded percentile bootstrap over questions; McNemar's exact test (binary
metrics) counts discordant pairs. Rows that do not pair (a question in one
run only, or a metric not measured on one side) are reported, never dropped
silently.

Beside the verdict, `moves` says why a delta happened: per paired row, the
boundary where A's answer lost the gold answer's support and where B's did
(`evidence_k -> generation`: B admitted the source and still missed it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from arborist.errors import InputError
from arborist.lab import rundir
from arborist.lab.config import RunConfig
from arborist.lab.metrics.headline import COMPARABLE, METRICS, row_identity
from arborist.lab.stats import (
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    SIGNAL_ALPHA,
    Interval,
    Verdict,
    bootstrap_mean,
    mcnemar_exact,
    verdict,
)

DEFAULT_FLOOR = 0.05


class Side(BaseModel):
    run_dir: str
    arm: str
    state: str
    model_id: str
    governance_policy_hash: str
    verifier_policy_hash: str = Field(default="", description="the verifier that labelled the run's rows")
    mean: float | None = Field(description="the metric over the paired rows (per-question means, averaged)")


class McNemar(BaseModel):
    only_a: int = Field(description="pairs where A succeeded and B did not")
    only_b: int = Field(description="pairs where B succeeded and A did not")
    both: int
    neither: int
    p_value: float


class Unpaired(BaseModel):
    only_in_a: list[str] = Field(default_factory=list)
    only_in_b: list[str] = Field(default_factory=list)
    not_measured: list[str] = Field(default_factory=list, description="rows present in both, metric unmeasured on a side")


class Comparison(BaseModel):
    metric: str
    metric_title: str
    a: Side
    b: Side
    questions_paired: int
    pairs: int
    unpaired: Unpaired
    delta: float | None = Field(description="B - A")
    interval: Interval | None
    resamples: int
    seed: int
    floor: float
    mcnemar: McNemar | None = Field(description="binary metrics only")
    verdict: Verdict
    moves: dict[str, int] = Field(
        default_factory=dict, description="'A boundary -> B boundary' -> paired rows, where the two differ")
    unmoved: int = Field(default=0, description="paired rows whose answers lost the gold at the same boundary in A and B")
    note: str = ""
    sets: list[Comparison] = Field(
        default_factory=list, description="pooled over several pairs (--also): each pair's own comparison, in order")


def _arm(cfg: RunConfig, run_dir: Path, wanted: str | None, flag: str) -> str:
    names = [a.name for a in cfg.arms]
    if wanted is not None:
        if wanted not in names:
            raise InputError(f"run '{run_dir}' has no arm '{wanted}'; its arms: {', '.join(names)}")
        return wanted
    if len(names) == 1:
        return names[0]
    raise InputError(f"run '{run_dir}' has arms {', '.join(names)}; pick one with {flag}")


def _rows(run_dir: Path, arm: str) -> dict[tuple[str, int], Mapping[str, Any]]:
    raw, _bad = rundir.read_rows(run_dir / rundir.ROWS)
    out: dict[tuple[str, int], Mapping[str, Any]] = {}
    for r in raw:
        q, a, s = row_identity(r)
        if a == arm:
            out.setdefault((q, s), r)
    return out


def _state(run_dir: Path) -> str:
    try:
        return rundir.load_status(run_dir).state
    except InputError:
        return "unknown"


@dataclass
class _Paired:
    """One pair of runs, paired per question and sample (the pieces a comparison and a pooled one are made of)."""

    a: Side
    b: Side
    diffs: dict[str, list[float]]
    sides: dict[str, list[tuple[float, float]]]
    table: Counter[str]
    moves: Counter[str]
    unpaired: Unpaired

    @property
    def per_q(self) -> dict[str, float]:
        return {q: sum(d) / len(d) for q, d in self.diffs.items()}

    def mean(self, i: int) -> float | None:
        if not self.sides:
            return None
        return sum(sum(p[i] for p in ps) / len(ps) for ps in self.sides.values()) / len(self.sides)


def _pair(run_a: Path, run_b: Path, metric: str, arm_a: str | None, arm_b: str | None) -> _Paired:
    cfg_a, cfg_b = rundir.load_config(run_a), rundir.load_config(run_b)
    if cfg_a.evaluation_sha256 != cfg_b.evaluation_sha256 or cfg_a.corpus_digest != cfg_b.corpus_digest:
        raise InputError(
            f"runs '{run_a}' and '{run_b}' answer different evaluations (evaluation {cfg_a.evaluation_sha256[:19]}… "
            f"vs {cfg_b.evaluation_sha256[:19]}…, corpus {cfg_a.corpus_digest[:19]}… vs {cfg_b.corpus_digest[:19]}…); "
            "compare runs made from the same corpus and evaluation files")
    name_a = _arm(cfg_a, run_a, arm_a, "--arm")
    if arm_b is None and arm_a is not None and arm_a in [a.name for a in cfg_b.arms]:
        arm_b = arm_a
    name_b = _arm(cfg_b, run_b, arm_b, "--arm-b")
    if run_a.resolve() == run_b.resolve() and name_a == name_b:
        raise InputError(f"both sides are arm '{name_a}' of run '{run_a}'; give another run or --arm-b")
    spec = METRICS[metric]
    rows_a, rows_b = _rows(run_a, name_a), _rows(run_b, name_b)
    unpaired = Unpaired(
        only_in_a=[f"{q} [sample {s}]" for q, s in rows_a if (q, s) not in rows_b],
        only_in_b=[f"{q} [sample {s}]" for q, s in rows_b if (q, s) not in rows_a],
    )
    diffs: dict[str, list[float]] = {}
    sides: dict[str, list[tuple[float, float]]] = {}
    table: Counter[str] = Counter(dict.fromkeys(("only_a", "only_b", "both", "neither"), 0))
    moves: Counter[str] = Counter()
    for key, ra in rows_a.items():
        rb = rows_b.get(key)
        if rb is None:
            continue
        ba, bb = _boundary(ra), _boundary(rb)
        if ba is not None and bb is not None:
            moves[f"{ba} -> {bb}" if ba != bb else ""] += 1
        va, vb = spec.read(ra), spec.read(rb)
        if va is None or vb is None:
            unpaired.not_measured.append(f"{key[0]} [sample {key[1]}]: {spec.why_unmeasured}")
            continue
        diffs.setdefault(key[0], []).append(vb - va)
        sides.setdefault(key[0], []).append((va, vb))
        if spec.binary:
            table[("both" if vb else "only_a") if va else ("only_b" if vb else "neither")] += 1

    def side(run_dir: Path, cfg: RunConfig, arm: str) -> Side:
        a = cfg.arm(arm)
        return Side(run_dir=str(run_dir), arm=arm, state=_state(run_dir), model_id=a.policy.model_id,
                    governance_policy_hash=a.governance_policy_hash, verifier_policy_hash=cfg.verifier_policy_hash,
                    mean=None)

    return _Paired(a=side(run_a, cfg_a, name_a), b=side(run_b, cfg_b, name_b), diffs=diffs, sides=sides,
                   table=table, moves=moves, unpaired=unpaired)


def _pooled(sets: list[_Paired]) -> _Paired:
    """Every pair's questions side by side (keyed by pair, so one question id in two sets stays two questions)."""
    first = sets[0]
    for i, p in enumerate(sets[1:], start=2):
        for name, mine, theirs in (("A", p.a, first.a), ("B", p.b, first.b)):
            if mine.governance_policy_hash != theirs.governance_policy_hash:
                raise InputError(
                    f"pair {i}'s {name} ({mine.run_dir}) answers under another policy than pair 1's "
                    f"({mine.governance_policy_hash[:19]}… vs {theirs.governance_policy_hash[:19]}…); pooling "
                    "needs the same change in every pair (the same A and B settings over different evaluations)")
    out = _Paired(a=first.a, b=first.b, diffs={}, sides={}, table=Counter(), moves=Counter(), unpaired=Unpaired())
    for i, p in enumerate(sets, start=1):
        tag = f"pair {i}: " if len(sets) > 1 else ""
        out.diffs.update({tag + q: d for q, d in p.diffs.items()})
        out.sides.update({tag + q: s for q, s in p.sides.items()})
        out.table.update(p.table)
        out.moves.update(p.moves)
        out.unpaired.only_in_a += [tag + r for r in p.unpaired.only_in_a]
        out.unpaired.only_in_b += [tag + r for r in p.unpaired.only_in_b]
        out.unpaired.not_measured += [tag + r for r in p.unpaired.not_measured]
    return out


def compare_runs(
    run_a: Path, run_b: Path, metric: str = "gold", floor: float = DEFAULT_FLOOR, seed: int = DEFAULT_SEED,
    arm_a: str | None = None, arm_b: str | None = None, resamples: int = DEFAULT_RESAMPLES,
    also: Sequence[tuple[Path, Path]] = (),
) -> Comparison:
    """B - A over the pair (run_a, run_b), or pooled over it and every pair in `also` (the same change measured
    on several evaluations: each pair is paired on its own, then the questions of all pairs are resampled
    together); `sets` then holds each pair's own comparison."""
    if metric not in COMPARABLE:
        raise InputError(f"unknown metric '{metric}'; valid: {', '.join(COMPARABLE)}")
    if floor < 0:
        raise InputError(f"--floor must be 0 or more, not {floor}")
    sets = [_pair(a, b, metric, arm_a, arm_b) for a, b in ((run_a, run_b), *also)]
    pooled = _pooled(sets)
    out = _comparison(pooled, metric, floor, seed, resamples)
    if len(sets) > 1:
        out.sets = [_comparison(p, metric, floor, seed, resamples) for p in sets]
        out.note = "; ".join(x for x in (f"pooled over {len(sets)} pairs of runs (each pair's own figures: sets)",
                                         out.note) if x)
    return out


def _comparison(p: _Paired, metric: str, floor: float, seed: int, resamples: int) -> Comparison:
    spec = METRICS[metric]
    per_q = p.per_q
    delta = sum(per_q.values()) / len(per_q) if per_q else None
    interval = bootstrap_mean(list(per_q.values()), seed=seed, resamples=resamples)
    mc = (McNemar(only_a=p.table["only_a"], only_b=p.table["only_b"], both=p.table["both"],
                  neither=p.table["neither"], p_value=mcnemar_exact(p.table["only_a"], p.table["only_b"]))
          if spec.binary else None)
    notes = []
    if len(per_q) < 2:
        notes.append("fewer than two paired questions: no interval, the verdict is noise")
    if max((len(d) for d in p.diffs.values()), default=1) > 1 and spec.binary:
        notes.append("several samples per question: McNemar treats each pair as independent; trust the interval")
    if metric == "strict" and p.a.verifier_policy_hash != p.b.verifier_policy_hash:
        notes.append(f"A and B were labelled by different verifier policies ({p.a.verifier_policy_hash[:19]}… vs "
                     f"{p.b.verifier_policy_hash[:19]}…): the STRICT delta holds the verifier's change too")
    if any(s.state != "complete" for s in (p.a, p.b)):
        notes.append(f"run states: A {p.a.state}, B {p.b.state} (not both complete)")
    return Comparison(
        metric=metric, metric_title=spec.title, a=p.a.model_copy(update={"mean": p.mean(0)}),
        b=p.b.model_copy(update={"mean": p.mean(1)}), questions_paired=len(per_q),
        pairs=sum(len(d) for d in p.diffs.values()), unpaired=p.unpaired, delta=delta, interval=interval,
        resamples=resamples, seed=seed, floor=floor, mcnemar=mc,
        verdict=verdict(delta or 0.0, interval, floor, mc.p_value if mc else None),
        moves={k: n for k, n in p.moves.most_common() if k}, unmoved=p.moves[""], note="; ".join(notes),
    )


def _boundary(row: Mapping[str, Any]) -> str | None:
    diagnosis = row.get("diagnosis")
    boundary = diagnosis.get("boundary") if isinstance(diagnosis, Mapping) else None
    return boundary if isinstance(boundary, str) else None


def render(c: Comparison) -> str:
    def num(v: float | None) -> str:
        return "n/a" if v is None else f"{v:.3f}"

    ci = (f"[{c.interval.confidence:.0%} CI {c.interval.low:+.3f}, {c.interval.high:+.3f}]"
          if c.interval else "[no interval]")
    delta = "n/a" if c.delta is None else f"{c.delta:+.3f}"
    lines = [
        f"metric: {c.metric} ({c.metric_title})",
        *((f"A: {c.a.run_dir} [{c.a.arm}] {num(c.a.mean)}", f"B: {c.b.run_dir} [{c.b.arm}] {num(c.b.mean)}")
          if not c.sets else (f"A: the A runs of {len(c.sets)} pairs [{c.a.arm}] {num(c.a.mean)} pooled",
                              f"B: the B runs [{c.b.arm}] {num(c.b.mean)} pooled")),
        f"delta B - A: {delta} {ci} (bootstrap over questions, {c.resamples} resamples, seed {c.seed})",
    ]
    if c.mcnemar is not None:
        m = c.mcnemar
        lines.append(f"McNemar exact p = {m.p_value:.4g} (A only {m.only_a}, B only {m.only_b}, "
                     f"both {m.both}, neither {m.neither})")
    unpaired = len(c.unpaired.only_in_a) + len(c.unpaired.only_in_b) + len(c.unpaired.not_measured)
    lines.append(f"paired: {c.questions_paired} questions, {c.pairs} pairs; unpaired rows: {unpaired}"
                 + (f" (only in A {len(c.unpaired.only_in_a)}, only in B {len(c.unpaired.only_in_b)}, "
                    f"not measured {len(c.unpaired.not_measured)})" if unpaired else ""))
    for name, rows in (("only in A", c.unpaired.only_in_a), ("only in B", c.unpaired.only_in_b),
                       ("not measured", c.unpaired.not_measured)):
        if rows:
            more = f" … {len(rows) - 5} more (--json lists all)" if len(rows) > 5 else ""
            lines.append(f"  {name}: {'; '.join(rows[:5])}{more}")
    if c.moves or c.unmoved:
        moved = ", ".join(f"{k} {n}" for k, n in c.moves.items()) or "none"
        lines.append(f"where the gold was lost, A -> B: {moved}; same boundary {c.unmoved}")
    for i, one in enumerate(c.sets, start=1):
        one_ci = f"[{one.interval.low:+.3f}, {one.interval.high:+.3f}]" if one.interval else "[no interval]"
        one_delta = "n/a" if one.delta is None else f"{one.delta:+.3f}"
        mc = (f", McNemar A only {one.mcnemar.only_a}, B only {one.mcnemar.only_b}, p = {one.mcnemar.p_value:.4g}"
              if one.mcnemar else "")
        lines.append(f"  pair {i}: {one.a.run_dir} -> {one.b.run_dir}: {num(one.a.mean)} -> {num(one.b.mean)}, "
                     f"delta {one_delta} {one_ci}, {one.questions_paired} questions{mc}; {one.verdict} alone"
                     + (f" (note: {one.note})" if one.note else ""))
    test = f" and McNemar p < {SIGNAL_ALPHA:g}" if c.mcnemar is not None else ""
    lines.append(f"verdict: {c.verdict} (signal needs the interval to exclude 0, |delta| >= {c.floor:g}{test})")
    if c.note:
        lines.append(f"note: {c.note}")
    return "\n".join(lines)
