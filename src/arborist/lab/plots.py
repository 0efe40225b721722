"""One PNG per metric against a sweep's varied value (matplotlib, Agg canvas, no pyplot state)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol

from arborist.lab.stats import Interval


def plot_metric(
    path: Path, *, family: str, values: Sequence[str], title: str,
    series: Mapping[str, Sequence[float | None]], intervals: Mapping[str, Sequence[Interval | None]],
    counts: Mapping[str, Sequence[int]], subtitle: str = "", share: bool = False,
) -> None:
    """A line per arm: the metric at each value (gaps where not measured), 95% intervals as error bars, n beside each point."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # here: matplotlib costs ~0.3 s to import
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 4.0), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    xs = list(range(len(values)))
    for arm, ys in series.items():
        points = [(x, y, iv, n) for x, y, iv, n in zip(xs, ys, intervals[arm], counts[arm], strict=True) if y is not None]
        if not points:
            continue
        px = [p[0] for p in points]
        py = [p[1] for p in points]
        # A percentile interval need not hold the mean itself; an error bar cannot be negative.
        low = [max(0.0, y - iv.low) if iv else 0.0 for _, y, iv, _ in points]
        high = [max(0.0, iv.high - y) if iv else 0.0 for _, y, iv, _ in points]
        ax.errorbar(px, py, yerr=[low, high], marker="o", capsize=4, label=arm if len(series) > 1 else None)
        for x, y, _, n in points:
            ax.annotate(f"n={n}", (x, y), textcoords="offset points", xytext=(6, 6), fontsize=7, color="0.35")
    ax.set_xticks(xs, list(values))
    ax.set_xlim(-0.5, len(values) - 0.5)
    if share:  # a rate or share: the whole 0..1 scale, so cells and sweeps read alike
        ax.set_ylim(-0.03, 1.08)
    ax.set_xlabel(family)
    ax.set_ylabel(title)
    ax.set_title(f"{title} vs {family}" + (f"\n{subtitle}" if subtitle else ""), fontsize=10)
    ax.grid(True, alpha=0.3)
    if len(series) > 1:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, format="png")


# Losses in warm colours, ordered along the answer path; a kept answer in green.
BOUNDARY_COLOURS = {"retrieval": "#b2182b", "evidence_k": "#ef8a62", "context_admission": "#fddbc7",
                    "generation": "#8073ac", "contract": "#999999", "none": "#4dac26"}


def plot_boundaries(
    path: Path, *, family: str, values: Sequence[str], boundaries: Sequence[str], title: str,
    counts: Mapping[str, Sequence[Mapping[str, int] | None]],
) -> None:
    """One stacked bar per cell (and arm, side by side): the share of diagnosed rows at each boundary, n on top."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.2, 4.2), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    arms = list(counts)
    width = 0.8 / max(1, len(arms))
    drawn: set[str] = set()
    for i, arm in enumerate(arms):
        for x, cell in enumerate(counts[arm]):
            total = sum(cell.values()) if cell else 0
            if not cell or not total:
                continue
            pos = x - 0.4 + width * (i + 0.5)
            bottom = 0.0
            for b in boundaries:
                share = cell.get(b, 0) / total
                if share:
                    ax.bar(pos, share, width * 0.9, bottom=bottom, color=BOUNDARY_COLOURS.get(b, "#cccccc"),
                           edgecolor="white", linewidth=0.5, label=None if b in drawn else b)
                    drawn.add(b)
                    bottom += share
            ax.annotate(f"n={total}" + (f"\n{arm}" if len(arms) > 1 else ""), (pos, 1.0), textcoords="offset points",
                        xytext=(0, 3), ha="center", fontsize=7, color="0.35")
    ax.set_xticks(list(range(len(values))), list(values))
    ax.set_xlim(-0.5, len(values) - 0.5)
    ax.set_ylim(0, 1.12)
    ax.set_xlabel(family)
    ax.set_ylabel("share of diagnosed rows")
    ax.set_title(f"{title} vs {family}\nthe first boundary of the answer path that lost it, per row", fontsize=10)
    handles, labels = ax.get_legend_handles_labels()
    order = [labels.index(b) for b in boundaries if b in labels]
    ax.legend([handles[k] for k in order], [labels[k] for k in order], fontsize=7, loc="center left",
              bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    fig.savefig(path, format="png")


class Recoveries(Protocol):
    """One setting at one value of a repair: the questions re-run at it and those it recovered."""

    @property
    def setting(self) -> str: ...
    @property
    def value(self) -> int | str: ...
    @property
    def tried(self) -> int: ...
    @property
    def recovered(self) -> int: ...


def plot_recoveries(path: Path, rows: Sequence[Recoveries]) -> None:
    """A horizontal pair of bars per SETTING=VALUE (tried, recovered), grouped by setting in the order tried."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    labels = [f"{r.setting}={r.value}" for r in rows]
    fig = Figure(figsize=(7.2, max(2.8, 0.42 * len(rows) + 1.9)), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ys = list(range(len(rows)))
    ax.barh([y + 0.2 for y in ys], [r.tried for r in rows], 0.4, color="#cccccc", label="re-run at this value")
    ax.barh([y - 0.2 for y in ys], [r.recovered for r in rows], 0.4, color="#4dac26", label="recovered")
    for y, r in zip(ys, rows, strict=True):
        ax.annotate(f"{r.recovered} of {r.tried}", (max(r.tried, r.recovered), y), textcoords="offset points",
                    xytext=(4, -3), fontsize=7, color="0.35")
    ax.set_yticks(ys, labels, fontsize=8)
    ax.set_ylim(max(len(rows), 3) - 0.5, -0.5)  # the first on top; a bar keeps its height with few rows
    top = max((r.tried for r in rows), default=1)
    ax.set_xlim(0, top * 1.25 + 0.5)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("questions")
    ax.set_title("questions recovered per setting and value\n(each setting's ladder stops at its first recovering "
                 "value)", fontsize=10)
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16 if len(rows) > 3 else -0.3), ncol=2,
              frameon=False)
    fig.tight_layout()
    fig.savefig(path, format="png")
