"""`lab repair` measured: a run per dataset, its repair, the same repair again (from the cache), and a --burn repeat
that checks the recovered verdicts reproduce when the model is asked again at temperature 0.

Usage: .venv/bin/python bench/lab_repair.py [--dataset squad-single-hop musique] [--limit 20] [--model PROFILE]
                                            [--max-calls N] [--work DIR] [--run DATASET=RUN_DIR ...]
                                            [-- extra options for `lab run`, e.g. --base-url URL --model NAME]

Per dataset:
1. imports it from ../shared/data (`arborist lab import-dataset`, once per --work folder);
2. `arborist lab run --limit N --temperature 0` with the default model (or --model), unless --run names a run;
3. `arborist lab repair RUN` (timed): every lost question gets a verdict, the best setting a whole-run check;
4. the same repair again in a new directory: every re-run is a cache hit (provider calls 0); the ratio of the two
   times is the cache's speed-up;
5. a reproduction: each SETTING=VALUE that recovered a question is run again over the questions it recovered,
   `arborist lab run --question-ids FILE --burn` with that one setting (temperature 0, the model asked again);
   a recovered verdict reproduces when its row recovers the question again (`lab.repair.reached`). Only the
   recovering cells are asked, so it costs one call per recovered verdict (`lab repair --burn` re-walks every
   ladder and the whole-run check).

It prints, per dataset, the verdict counts, the per-setting table (markdown, for the closing note), the whole-run
check, the times and the reproduction count, and writes them to WORK/<dataset>/repair-report.json.
Runs, repairs and the cache live under --work (delete it to measure from scratch).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from arborist.governance.options import OPTIONS_BY_NAME
from arborist.lab.repair import QuestionRepair, load_repair, reached
from arborist.lab.report import load_rows
from lab_run import EXE, prepare


def arborist(*args: str | Path) -> tuple[float, dict[str, Any], str]:
    """`arborist ARGS --json`: (seconds, the JSON it printed, its stderr); exits on failure."""
    t = time.monotonic()
    out = subprocess.run([EXE, *map(str, args), "--json"], capture_output=True, text=True, check=False)
    seconds = time.monotonic() - t
    if out.returncode not in (0, 6):
        sys.exit(f"failed ({out.returncode}): arborist {' '.join(map(str, args))}\n{out.stderr[-3000:]}")
    return seconds, json.loads(out.stdout), out.stderr


def calls(stderr: str) -> tuple[int, int]:
    """(provider calls, cache hits) from the repair's closing line on stderr."""
    found = re.search(r"provider calls (\d+), cache hits (\d+)", stderr)
    return (int(found.group(1)), int(found.group(2))) if found else (-1, -1)


def recovered(report: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(q["id"], a["setting"], str(a["value"])) for q in report["questions"] for a in q["recovered_by"]}


def settings_table(report: dict[str, Any]) -> str:
    lines = ["| setting | value | tried | recovered |", "|---|---|---|---|"]
    lines += [f"| {s['setting']} | {s['value']} | {s['tried']} | {s['recovered']} |" for s in report["settings"]]
    return "\n".join(lines)


def run_flag(setting: str) -> str | None:
    """The `lab run` option for a `lab repair` setting (the policy options' own flags, and --prompt); None for
    fusion, which `lab run` has no option for (its verdicts are not rechecked)."""
    if setting == "prompt":
        return "--prompt"
    option = OPTIONS_BY_NAME.get(setting.replace("-", "_"))
    return option.cli_flag if option is not None else None


def latest(root: Path) -> Path:
    return max((p for p in root.iterdir() if p.is_dir()), key=lambda p: p.name)


def reproduce(repair_dir: Path, data: Path, args: argparse.Namespace,
              out: Path) -> tuple[float, set[tuple[str, str, str]], int]:
    """Each recovering SETTING=VALUE run again with --burn over the questions it recovered: (seconds, the
    recovered verdicts that recovered again, the questions asked)."""
    record = load_repair(repair_dir)
    cells: dict[tuple[str, str], list[QuestionRepair]] = {}
    for q in record.questions:
        for a in q.recovered_by():
            cells.setdefault((a.setting, str(a.value)), []).append(q)
    t = time.monotonic()
    again: set[tuple[str, str, str]] = set()
    asked = 0
    for (setting, value), qs in sorted(cells.items()):
        flag = run_flag(setting)
        if flag is None:
            print(f"  {setting}={value}: no `lab run` option; {len(qs)} verdict(s) not rechecked", flush=True)
            continue
        out.mkdir(parents=True, exist_ok=True)
        ids = out / f"{setting}={value}.txt".replace("/", "_").replace(",", "+")
        ids.write_text("".join(f"{q.id}\n" for q in qs), encoding="utf-8")
        model = ["--model", args.model] if args.model else []
        _, made, _ = arborist("lab", "run", "--corpus", data / "corpus.json", "--evaluation", data / "evaluation.json",
                              "--out", out / "runs", "--cache-directory", args.work / "cache", "--question-ids", ids,
                              "--temperature", "0", "--burn", flag, value, *model, *args.extra)
        rows = {r.query_id: r for r in load_rows(Path(made["run_dir"]))[0] if r.sample == 0}
        asked += len(qs)
        for q in qs:
            row = rows.get(q.id)
            if row is not None and q.goal is not None and reached(q.goal, row):
                again.add((q.id, setting, value))
    return time.monotonic() - t, again, asked


def measure(dataset: str, args: argparse.Namespace, run_dir: Path | None) -> dict[str, Any]:
    work = args.work / dataset
    data = prepare(dataset, args.work)
    if run_dir is None:
        model = ["--model", args.model] if args.model else []
        seconds, made, _ = arborist("lab", "run", "--corpus", data / "corpus.json", "--evaluation",
                                    data / "evaluation.json", "--out", work / "runs", "--cache-directory",
                                    args.work / "cache", "--limit", str(args.limit), "--temperature", "0", *model,
                                    *args.extra)
        run_dir = Path(made["run_dir"])
        print(f"[{dataset}] run {run_dir} ({args.limit} questions) in {seconds:.0f} s", flush=True)
    budget = ["--max-calls", str(args.max_calls)] if args.max_calls is not None else []
    first_s, first, first_err = arborist("lab", "repair", run_dir, "-o", work / "repairs", *budget)
    again_s, again, again_err = arborist("lab", "repair", run_dir, "-o", work / "repairs-again")
    burn_s, kept, tried_again = reproduce(latest(work / "repairs"), data, args, work / "reproduce")
    verdicts: dict[str, int] = {}
    for q in first["questions"]:
        verdicts[q["verdict"]] = verdicts.get(q["verdict"], 0) + 1
    result = {
        "dataset": dataset, "run": str(run_dir), "questions_taken": len(first["questions"]), "verdicts": verdicts,
        "by_boundary": {b: sum(q["boundary"] == b for q in first["questions"])
                        for b in dict.fromkeys(q["boundary"] for q in first["questions"])},
        "settings": first["settings"], "whole_run": first["whole_run"],
        "seconds": {"first": round(first_s, 1), "again": round(again_s, 1), "reproduce": round(burn_s, 1)},
        "calls": {"first": calls(first_err), "again": calls(again_err), "reproduce": tried_again},
        "same_verdicts_from_cache": [q["verdict"] for q in first["questions"]] == [q["verdict"] for q in
                                                                                  again["questions"]],
        "recovered": len(recovered(first)), "recovered_again_under_burn": len(kept),
        "not_reproduced": sorted(map(list, recovered(first) - kept)),
    }
    (work / "repair-report.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"[{dataset}] {result['questions_taken']} questions taken {result['by_boundary']}; verdicts {verdicts}")
    print(f"[{dataset}] repair {first_s:.0f} s (calls, hits {result['calls']['first']}); again "
          f"{again_s:.1f} s (calls, hits {result['calls']['again']}): x{first_s / max(again_s, 1e-9):.0f} faster")
    print(f"[{dataset}] --burn {burn_s:.0f} s ({tried_again} calls): {len(kept)} of {len(recovered(first))} "
          "recovered verdicts reproduce")
    print(f"[{dataset}] whole run: {first['whole_run']}")
    print(settings_table(first), flush=True)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", nargs="+", choices=["squad-single-hop", "musique"],
                    default=["squad-single-hop", "musique"])
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--model", default=None, help="default: arborist's default profile")
    ap.add_argument("--max-calls", type=int)
    ap.add_argument("--work", type=Path, default=Path("/tmp/arborist-repair-bench"))
    ap.add_argument("--run", action="append", default=[], metavar="DATASET=RUN_DIR",
                    help="repair this run instead of making one")
    ap.add_argument("extra", nargs="*")
    args = ap.parse_args()
    given = dict(r.split("=", 1) for r in args.run)
    results = [measure(d, args, Path(given[d]) if d in given else None) for d in args.dataset]
    total = sum(r["recovered_again_under_burn"] for r in results)
    print(f"recovered verdicts reproduced under --burn, all datasets: {total}")


if __name__ == "__main__":
    main()
