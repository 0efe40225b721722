"""The ladder history: one JSON line per ladder run, appended and never rewritten; its table and plot.

Counts over time show whether a model (or a new prompt, or a bigger
context) changed how it treats what its documents say.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from arborist.errors import InputError
from arborist.lab.sentinels.ladder import LadderConfig, LadderResult
from arborist.models.profiles import cache_dir


def default_history() -> Path:
    return cache_dir() / "sentinel" / "history.jsonl"


class HistoryEntry(BaseModel):
    run_dir: str
    created_at: str
    model_id: str
    runs: int
    facts_digest: str
    result: LadderResult


def append(path: Path, run_dir: Path, config: LadderConfig, result: LadderResult) -> None:
    entry = HistoryEntry(run_dir=str(run_dir.resolve()), created_at=config.created_at, model_id=config.model_id,
                         runs=config.runs, facts_digest=config.facts_digest, result=result)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as fh:
        fh.write(entry.model_dump_json() + "\n")
        fh.flush()
        os.fsync(fh.fileno())


def read(path: Path) -> list[HistoryEntry]:
    """Every whole entry; a torn last line (a killed append) is skipped."""
    if not path.exists():
        raise InputError(f"no sentinel history at '{path}' yet; `arborist lab sentinel-run` writes it")
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(HistoryEntry.model_validate_json(line))
        except ValueError:
            continue
    return out


def table(entries: list[HistoryEntry], fact: str | None = None) -> list[dict[str, Any]]:
    """One row per run, fact and rung, oldest first."""
    rows = []
    for e in entries:
        for f in e.result.facts:
            if fact is not None and f.id != fact:
                continue
            for r in f.rungs:
                rows.append({"created_at": e.created_at, "model_id": e.model_id, "fact": f.id, "kind": f.kind,
                             "status": f.status, "control": f.control, "rung": r.label, "runs": r.runs,
                             "used_sentinel": r.used_sentinel, "used_memory": r.used_memory, "neither": r.neither,
                             "objected": r.objected, "void": r.void, "run_dir": e.run_dir})
    if fact is not None and not rows:
        raise InputError(f"no fact '{fact}' in the sentinel history")
    return rows


def plot(entry: HistoryEntry, out: Path) -> Path:
    """The response curve of one run: a panel per fact, rungs on the x axis, rates on the y axis."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    facts = entry.result.facts
    fig, axes = plt.subplots(1, len(facts), figsize=(4.2 * len(facts), 3.6), squeeze=False)
    for ax, f in zip(axes[0], facts):
        labels = [r.label for r in f.rungs]
        xs = list(range(len(labels)))
        # lines that coincide (often all at 0) stay apart by marker and line style
        for key, colour, marker, style, size in (("used_sentinel", "tab:blue", "o", "-", 9),
                                                 ("used_memory", "tab:orange", "s", "--", 7),
                                                 ("objected", "tab:red", "^", ":", 5)):
            ys = [getattr(r, key) / r.runs if r.runs else float("nan") for r in f.rungs]
            ax.plot(xs, ys, marker=marker, markersize=size, linestyle=style, color=colour,
                    label=key.replace("_", " "))
        for x, r in zip(xs, f.rungs):
            if r.void:
                ax.annotate("void", (x, 0.5), ha="center", fontsize=8, color="grey")
        ax.set_xticks(xs, labels, rotation=30, ha="right")
        ax.set_ylim(-0.05, 1.05)
        ax.set_ylabel("share of runs")
        note = f", control {f.control}" if f.control else ("" if f.status == "ok" else ", uninterpretable")
        ax.set_title(f"{f.id}\n({f.kind}{note})", fontsize=9)
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8, loc="best")
    fig.suptitle(f"{entry.model_id}, {entry.runs} run(s) per rung, {entry.created_at}", fontsize=9)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
