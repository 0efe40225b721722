"""How long the run viewer's page takes to open in headless Chromium, by number of rows.

Usage: .venv/bin/python bench/viewer_load.py RUN_DIR [--rows 10 1000 10000] [--repeats 3]

RUN_DIR is a real run directory (e.g. a MuSiQue run). For each row count N
the script writes a copy of it whose per-query.jsonl holds N rows (the
run's rows repeated under suffixed query ids, their questions likewise in
inputs/evaluation.json). Rows written before the viewer carry no trace;
those get one sized like a real prompt (the run's system prompt plus the
admitted chunks' texts), so the page carries what a new run's page does.
It then writes the page with `run_page` and opens it in Debian's chromium
through playwright: "open" is the time from navigation to the first render
of the run page (the browser's performance.now() when the script marks the
page ready: HTML parse, JSON.parse of the data, rendering page 1 of the
questions); "filter" is one click on a diagnosis row until the filtered
list is drawn. Medians over --repeats fresh pages. The figures are given
against the smallest N measured in the same run (the baseline).
Goal (issue 15): 1,000 rows open in under 2 s.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from arborist.lab.runfiles import CHUNKS, CONFIG, EVALUATION, ROWS, STATUS, SUMMARY_MD
from arborist.lab.viewer import load_run, run_page


def scaled_run(src: Path, dst: Path, n: int) -> None:
    """A copy of `src` with `n` rows (repeats of its rows under new ids), each with a trace."""
    for name in (CONFIG, STATUS, SUMMARY_MD, CHUNKS, "inputs/prompt.txt"):
        if (src / name).exists():
            (dst / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src / name, dst / name)
    rows = [json.loads(line) for line in (src / ROWS).read_text(encoding="utf-8").splitlines() if line.strip()]
    chunks = {c["chunk_id"]: c["text"] for c in json.loads((src / CHUNKS).read_text(encoding="utf-8"))}
    system = (src / "inputs/prompt.txt").read_text(encoding="utf-8") if (src / "inputs/prompt.txt").exists() else ""
    questions = {q["id"]: q for q in json.loads((src / EVALUATION).read_text(encoding="utf-8"))["questions"]}
    out_rows: list[dict[str, Any]] = []
    out_questions: list[dict[str, Any]] = []
    for i in range(n):
        row = json.loads(json.dumps(rows[i % len(rows)]))
        qid = f"{row['query_id']}~{i // len(rows)}"
        if row["query_id"] in questions:
            out_questions.append({**questions[row["query_id"]], "id": qid})
        row["query_id"] = qid
        if row.get("trace") is None:
            admitted = row["context"]["admitted_chunk_ids"]
            evidence = "\n\n".join(f"[E{k + 1}] {chunks.get(c, '')}" for k, c in enumerate(admitted))
            row["trace"] = {
                "evidence": [{"evidence_id": f"E{k + 1}", "chunk_id": c} for k, c in enumerate(admitted)],
                "omissions": [], "citation_chunk_ids": [], "prompt_layout": "tail",
                "prompt_messages": [{"role": "system", "content": system},
                                    {"role": "user", "content": f"{evidence}\n\nQuestion: {row['question']}"}],
                "claims": [], "guard": None, "instruction_guard": None, "verifier_notes": [],
            }
        out_rows.append(row)
    (dst / "results").mkdir(parents=True, exist_ok=True)
    (dst / ROWS).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in out_rows), encoding="utf-8")
    (dst / EVALUATION).write_text(json.dumps({"format": "arborist-evaluation/1", "questions": out_questions}),
                                  encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run_dir", type=Path)
    ap.add_argument("--rows", type=int, nargs="+", default=[10, 1000, 10000])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--chromium", default=shutil.which("chromium") or "")
    args = ap.parse_args()
    if not (args.run_dir / CONFIG).is_file():
        sys.exit(f"Error: '{args.run_dir}' is not a run directory (no {CONFIG})")
    if not args.chromium:
        sys.exit("Error: no chromium on PATH (Debian: apt-get install chromium); or pass --chromium PATH")
    from playwright.sync_api import sync_playwright

    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="viewer-bench-") as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        for n in sorted(args.rows):
            run = Path(tmp) / f"run-{n}"
            scaled_run(args.run_dir, run, n)
            t0 = time.perf_counter()
            html = run_page(load_run(run))
            build_s = time.perf_counter() - t0
            page_file = Path(tmp) / f"run-{n}.html"
            page_file.write_text(html, encoding="utf-8")
            opens: list[float] = []
            filters: list[float] = []
            for _ in range(args.repeats):
                page = browser.new_page(viewport={"width": 1300, "height": 1000})
                page.goto(page_file.as_uri())
                page.wait_for_selector("body[data-ready=yes]", timeout=120_000)
                opens.append(page.evaluate("performance.now()") / 1000)
                boundary = page.eval_on_selector("tr.q-row", "e => e.dataset.boundary")
                t1 = time.perf_counter()
                page.click(f"tr.diag-row[data-boundary='{boundary}']")
                page.wait_for_selector(f"tr.diag-row.active[data-boundary='{boundary}']")
                filters.append(time.perf_counter() - t1)
                page.close()
            results.append({"rows": n, "html_mb": round(len(html.encode("utf-8")) / 1e6, 2),
                            "build_s": round(build_s, 3), "open_s": round(statistics.median(opens), 3),
                            "filter_s": round(statistics.median(filters), 3)})
        browser.close()
    base = results[0]
    print(f"run: {args.run_dir}  chromium: {args.chromium}  repeats: {args.repeats} (medians)")
    print(f"{'rows':>6} {'html MB':>8} {'build s':>8} {'open s':>7} {'x base':>7} {'filter s':>9} {'x base':>7}")
    for r in results:
        print(f"{r['rows']:>6} {r['html_mb']:>8} {r['build_s']:>8} {r['open_s']:>7} "
              f"{r['open_s'] / base['open_s']:>7.1f} {r['filter_s']:>9} {r['filter_s'] / base['filter_s']:>7.1f}")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
