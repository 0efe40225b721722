"""Experiments on the development sets: EvidenceK and context-budget sweeps, multipart vs baseline with a verdict.

Usage: .venv/bin/python bench/experiments_dev.py [--datasets musique,hotpotqa,squad] [--limit 30]
                                                 [--model qwen2.5-1.5b] [--work DIR] [--no-repeat]
                                                 [--families evidence-k,context-runes,prompt]
                                                 [-- extra options for every sweep]

For each dataset (imported from ../shared/data with `arborist lab import-dataset`):
1. `lab sweep --family evidence-k=1,3,5,8,12`;
2. `lab sweep --family context-runes=1500,3000,6000,24000,40000`;
3. `lab sweep --family prompt=baseline,multipart`, then
   `lab compare` of its two cells on gold, strict, valid and completeness;
4. (`--families ...,treatments`) one `answer-quality run` with
   `--evidence-order reversed --withhold-relevant --plant-falsehood`: request
   completeness, evidence-order sensitivity, withheld and planted outcomes;
5. (`--families ...,pooled`) the default EvidenceK and prompt against every
   other value, pooled over the datasets' newest complete sweeps
   (`lab compare --also`), per dataset beside it.
Then (unless --no-repeat) the first dataset's EvidenceK sweep once more: every
cell must come from the answer cache; its time is set against the same sweep's
first run (the baseline of the ratio, measured in this invocation).

Every sweep answers the first --limit questions of each set (30 by default,
so it fits a 2-core machine); the figures printed are the sweeps' own
(sweep.json) and the comparisons' (compare --json), with the PNG paths.
Runs, sweeps and the cache live under --work (delete it to measure cold).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from _common import cli_json, dataset_names, import_dataset, require_shared_data
from arborist.lab.runfiles import BOUNDARIES
from arborist.lab.sweep import FAMILIES as SWEEP_FAMILIES
from arborist.models.profiles import DEFAULT_PROFILE

EXE = str(Path(sys.executable).parent / "arborist")
FAMILIES = ("evidence-k=1,3,5,8,12", "context-runes=1500,3000,6000,24000,40000", "prompt=baseline,multipart")
SHOWN = ("valid", "gold", "strict", "strict_right", "completeness", "admitted_chunks", "answer_runes")


def sweep(data: Path, work: Path, family: str, args: argparse.Namespace) -> tuple[float, Path, dict[str, Any]]:
    cmd = [EXE, "lab", "sweep", "--family", family, "--corpus", str(data / "corpus.json"),
           "--evaluation", str(data / "evaluation.json"), "--out", str(work / "sweeps" / data.name),
           "--cache-directory", str(work / "cache"), "--model", args.model, "--limit", str(args.limit),
           *args.extra, "--json"]
    elapsed, result = cli_json(cmd, "sweep")
    return elapsed, Path(result["sweep_dir"]), result["sweep"]


def fmt(metric: dict[str, Any] | None) -> str:
    if not metric or metric.get("value") is None:
        return "n/a"
    ci = f" [{metric['low']:.2f}, {metric['high']:.2f}]" if metric.get("low") is not None else ""
    return f"{metric['value']:.3f}{ci} n={metric['rows_covered']}"


def show(name: str, elapsed: float, sweep_dir: Path, record: dict[str, Any]) -> None:
    print(f"\n## {name}: sweep {record['family']} ({elapsed:.0f} s) — {sweep_dir}")
    print("| value | " + " | ".join(SHOWN) + " | calls | cache hits |")
    print("|---|" + "---|" * len(SHOWN) + "---|---|")
    for cell in record["cells"]:
        for arm, metrics in (cell["metrics"] or {"-": {}}).items():
            label = cell["value"] if len(cell["metrics"]) < 2 else f"{cell['value']} [{arm}]"
            print(f"| {label} | " + " | ".join(fmt(metrics.get(m)) for m in SHOWN)
                  + f" | {cell['provider_calls']} | {cell['cache_hits']} |")
    print("\nwhere answers lost the gold answer's support (rows per boundary):\n")
    print(f"| value | {' | '.join(BOUNDARIES)} | not measured |\n|---|" + "---|" * (len(BOUNDARIES) + 1))
    for cell in record["cells"]:
        for arm, d in (cell.get("diagnosis") or {}).items():
            label = cell["value"] if len(cell["diagnosis"]) < 2 else f"{cell['value']} [{arm}]"
            print(f"| {label} | " + " | ".join(str(d["counts"].get(b, 0)) for b in BOUNDARIES)
                  + f" | {d['not_measured']} |")
    for metric, path in record["plots"].items():
        print(f"plot {metric}: {sweep_dir / path}")


def compare(sweep_dir: Path, record: dict[str, Any]) -> None:
    runs = {c["value"]: sweep_dir / c["run_dir"] for c in record["cells"] if c["run_dir"]}
    if set(runs) != {"baseline", "multipart"}:
        print("compare: the prompt sweep did not finish both cells")
        return
    print("\n| metric | baseline | multipart | delta (multipart - baseline) | 95% CI | McNemar p | paired | verdict |")
    print("|---|---|---|---|---|---|---|---|")
    for metric in ("gold", "strict", "valid", "completeness"):
        out = subprocess.run([EXE, "lab", "compare", str(runs["baseline"]), str(runs["multipart"]),
                              "--metric", metric, "--json"], capture_output=True, text=True, check=False)
        if out.returncode != 0:
            print(f"| {metric} | compare failed: {out.stderr.strip()} |")
            continue
        c = json.loads(out.stdout)
        iv = c["interval"]
        p = c["mcnemar"]["p_value"] if c["mcnemar"] else None
        interval = "n/a" if iv is None else "[{:+.3f}, {:+.3f}]".format(iv["low"], iv["high"])
        delta = "n/a" if c["delta"] is None else format(c["delta"], "+.3f")
        means = [("n/a" if side["mean"] is None else format(side["mean"], ".3f")) for side in (c["a"], c["b"])]
        print(f"| {metric} | {means[0]} | {means[1]} | {delta} | {interval} | "
              f"{'n/a' if p is None else format(p, '.3g')} | {c['questions_paired']} | {c['verdict']} |")


def latest_sweep(work: Path, name: str, family: str) -> Path | None:
    """The newest complete sweep of `family` on dataset `name` under --work (made by this script or a user)."""
    done = []
    for path in (work / "sweeps" / name).glob(f"*-sweep-{family}-*/sweep.json"):
        record = json.loads(path.read_text())
        if record.get("state") == "complete":
            done.append(path.parent)
    return max(done, default=None)


def pooled(names: list[str], work: Path) -> None:
    """The shipped default against every other value, pooled over the datasets' newest complete sweeps
    (`lab compare --also`): a default must hold on the single-hop and the multi-hop sets together."""
    for family in ("evidence-k", "prompt"):
        default = SWEEP_FAMILIES[family].default
        cells: dict[str, dict[str, Path]] = {}
        for name in names:
            sweep_dir = latest_sweep(work, name, family)
            if sweep_dir is not None:
                record = json.loads((sweep_dir / "sweep.json").read_text())
                cells[name] = {c["value"]: sweep_dir / c["run_dir"] for c in record["cells"]}
        if len(cells) < 2:
            print(f"\npooled {family}: needs complete sweeps on two datasets or more (have {', '.join(cells) or 'none'})")
            continue
        values = [v for v in next(iter(cells.values())) if v != default and all(v in c for c in cells.values())]
        print(f"\n## pooled over {', '.join(cells)}: {family} {default} (default) vs each other value\n")
        print("| value | metric | pooled delta [95% CI] | McNemar | per dataset | verdict |\n|---|---|---|---|---|---|")
        for value in values:
            pairs = [(c[default], c[value]) for c in cells.values()]
            for metric in ("gold", "strict"):
                cmd = [EXE, "lab", "compare", str(pairs[0][0]), str(pairs[0][1]), "--metric", metric, "--json"]
                for a, b in pairs[1:]:
                    cmd += ["--also", str(a), str(b)]
                out = subprocess.run(cmd, capture_output=True, text=True, check=False)
                if out.returncode != 0:
                    print(f"| {value} | {metric} | compare failed: {out.stderr.strip()} |")
                    continue
                c = json.loads(out.stdout)
                iv, mc = c["interval"], c["mcnemar"]
                each = ", ".join(f"{n} {s['delta']:+.3f}" for n, s in zip(cells, c["sets"], strict=True))
                print(f"| {value} | {metric} | {c['delta']:+.3f} [{iv['low']:+.3f}, {iv['high']:+.3f}] | "
                      f"{mc['only_a']} vs {mc['only_b']}, p = {mc['p_value']:.3g} | {each} | {c['verdict']} |")


def treatments(data: Path, work: Path, args: argparse.Namespace) -> None:
    """One run with every treatment as a twin arm; prints completeness and the treatments' outcomes."""
    cmd = [EXE, "lab", "run", "--corpus", str(data / "corpus.json"),
           "--evaluation", str(data / "evaluation.json"), "--out", str(work / "treatments" / data.name),
           "--cache-directory", str(work / "cache"), "--model", args.model, "--limit", str(args.limit),
           "--evidence-order", "reversed", "--withhold-relevant", "--plant-falsehood", *args.extra, "--json"]
    elapsed, result = cli_json(cmd, "treatments run")
    run_dir = Path(result["run_dir"])
    summary = json.loads((run_dir / "results" / "answer-contract-summary.json").read_text())
    print(f"\n## {data.name}: treatments ({elapsed:.0f} s) — {run_dir}")
    for arm, a in summary["arms"].items():
        c = a.get("completeness") or {}
        if arm.count("+") == 0 and c:
            print(f"request completeness [{arm}]: {c['answered']}/{c['requests']} answered, {c['supported']} "
                  f"supported; cases {c['cases']}")
    for t_ in summary["treatments"]:
        extra = (f"gold changed {t_['gold_changed']}/{t_['pairs']}, label changed {t_['label_changed']}/{t_['pairs']}"
                 if not t_["outcomes"] else f"outcomes {t_['outcomes']} (STRICT answered: {t_['strict_answered']})")
        print(f"{t_['arm']}: applied {t_['applied']}/{t_['rows']}; {extra}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", default="musique,hotpotqa,squad",
                    help="comma-separated: musique, hotpotqa, squad (squad-single-hop)")
    ap.add_argument("--limit", type=int, default=30, help="questions per cell")
    ap.add_argument("--model", default=DEFAULT_PROFILE)
    ap.add_argument("--work", type=Path, default=Path("/tmp/arborist-experiments-bench"))
    ap.add_argument("--families", default="evidence-k,context-runes,prompt,treatments,pooled",
                    help="which of the sweeps (and the treatments run) to do (comma-separated family names); "
                    "pooled: the default EvidenceK and prompt against the other values over every dataset given")
    ap.add_argument("--no-repeat", action="store_true", help="skip the repeated (cached) sweep")
    ap.add_argument("extra", nargs="*", help="extra options for every sweep (after --)")
    args = ap.parse_args()
    data = require_shared_data()
    names = dataset_names(args.datasets)
    print(f"# experiments on the development sets: model {args.model}, {args.limit} questions per cell")
    first: tuple[float, Path, str] | None = None
    for name in names:
        folder = import_dataset(name, data, args.work)
        for family in [f for f in FAMILIES if f.split("=", 1)[0] in args.families.split(",")]:  # sweeps
            elapsed, sweep_dir, record = sweep(folder, args.work, family, args)
            show(name, elapsed, sweep_dir, record)
            if family.startswith("prompt="):
                compare(sweep_dir, record)
            if first is None:
                first = (elapsed, folder, family)
        if "treatments" in args.families.split(","):
            treatments(folder, args.work, args)
    if "pooled" in args.families.split(","):
        pooled(names, args.work)
    if first is not None and not args.no_repeat:
        cold, folder, family = first
        elapsed, sweep_dir, record = sweep(folder, args.work, family, args)
        calls = sum(c["provider_calls"] for c in record["cells"])
        hits = sum(c["cache_hits"] for c in record["cells"])
        print(f"\n## repeated sweep {family} on {folder.name}: {elapsed:.1f} s vs {cold:.1f} s the first time "
              f"({cold / elapsed:.1f}x), provider calls {calls}, cache hits {hits} — {sweep_dir}")


if __name__ == "__main__":
    main()
