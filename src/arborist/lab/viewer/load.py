"""Read a run directory's files into plain JSON data for the page; nothing here imports the engine.

The file names come from `arborist.lab.runfiles`, plain constants shared
with the runner (`arborist.lab.rundir` itself pulls in the policy models).
"""

from __future__ import annotations

import base64
import json
import stat
from collections import Counter
from pathlib import Path
from typing import Any

from arborist.lab import runfiles
from arborist.lab.runfiles import (
    BOUNDARIES,
    BOUNDARY_MEANING,
    CHUNKS,
    CONFIG,
    EVALUATION,
    REPAIR_JSON,
    ROWS,
    STATUS,
    SUMMARY_MD,
)
from arborist.lab.runfiles import SWEEP_JSON as SWEEP

LADDER_JSON = "results/ladder.json"  # a sentinel ladder's result (lab.sentinels.ladder writes it)
BENCH_JSON = "bench.json"  # a layout bench's result (lab.layout_bench writes it)

Json = dict[str, Any]


class ViewerError(Exception):
    """A path that is not what the viewer can show; the message says what was wrong."""


def _obj(value: Any) -> Json:
    """`value` if it is a JSON object, else an empty one (a damaged field reads as absent)."""
    return value if isinstance(value, dict) else {}


def _seq(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def inside(base: Path, path: Path, what: str) -> Path:
    """`path` with every link followed; a ViewerError when that leads outside `base` (the directory the viewer
    was given), so no link, `..` or absolute path in a record makes it embed a file from elsewhere."""
    try:
        real, top = path.resolve(), base.resolve()
    except (OSError, ValueError, RuntimeError) as exc:  # a NUL byte, a link loop
        raise ViewerError(f"'{path}' cannot be read ({exc}); the {what} is damaged") from None
    if not real.is_relative_to(top):
        raise ViewerError(f"'{path}' leads outside the {what} '{base}'; it is not shown")
    return real


def _exists(path: Path) -> bool:
    """Whether `path` is there (a link counts, wherever it leads: `inside` refuses one that leads out)."""
    try:
        return path.exists() or path.is_symlink()
    except (OSError, ValueError):
        return False


def regular(path: Path, real: Path, what: str) -> bool:
    """Whether `real` (the resolved `path`) is there: True for a regular file, False for nothing (a link to
    nothing); a ViewerError naming `path` for anything else (a FIFO, whose read would wait for ever for a
    writer, a directory, a device), looked at without opening it."""
    try:
        mode = real.stat().st_mode
    except FileNotFoundError:
        return False
    except (OSError, ValueError) as exc:
        raise ViewerError(f"'{path}' cannot be read ({getattr(exc, 'strerror', None) or exc}); the {what} is "
                          "damaged") from None
    if not stat.S_ISREG(mode):
        raise ViewerError(f"'{path}' is not a regular file; the {what} is damaged")
    return True


def read_text(base: Path, rel: str, what: str) -> str | None:
    """The UTF-8 text of `base/rel`, None when there is no such file; a ViewerError naming the file when it is
    not a readable UTF-8 regular file inside `base`."""
    path = base / rel
    if not _exists(path):
        return None
    real = inside(base, path, what)
    if not regular(path, real, what):
        return None
    try:
        return real.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None  # a link to nothing
    except UnicodeDecodeError:
        raise ViewerError(f"'{path}' is not UTF-8 text; the {what} is damaged") from None
    except OSError as exc:  # a directory, no permission
        raise ViewerError(f"'{path}' cannot be read ({exc.strerror or type(exc).__name__}); the {what} is "
                          "damaged") from None


def _read_json(base: Path, rel: str, what: str, *, required: bool = True, kind: type = dict) -> Any:
    """The JSON value of `base/rel` (an object unless `kind` says otherwise); None when an optional file is
    absent; a ViewerError naming the file otherwise."""
    path = base / rel
    text = read_text(base, rel, what)
    if text is None:
        if required:
            raise ViewerError(f"'{base}' is not a {what}: it has no {rel}")
        return None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ViewerError(f"'{path}' is not valid JSON ({exc}); the {what} is damaged") from None
    if not isinstance(data, kind):
        raise ViewerError(f"'{path}' is not a JSON {'object' if kind is dict else 'list'}; the {what} is damaged")
    return data


# What a row must hold, by field, for the pages to read it: anything else is not a row (counted, not shown).
_ROW_SHAPE: dict[str, type | tuple[type, ...]] = {
    "retrieval": dict, "context": dict, "verifier": dict, "timings": dict, "trace": dict, "contract": dict,
    "selected_chunk_ids": list, "arm": str, "question": str, "sample": int,
}


def _is_row(r: Json) -> bool:
    return (isinstance(r.get("query_id"), str) and isinstance(r.get("diagnosis"), dict)
            and all(r.get(k) is None or isinstance(r[k], t) for k, t in _ROW_SHAPE.items()))


def read_rows(path: Path, base: Path | None = None) -> tuple[list[Json], list[int], int]:
    """Rows of per-query.jsonl, the line numbers that were torn, and how many objects were not rows (or had
    a field of another shape than a row's)."""
    if _exists(path):
        real = inside(base, path, "run directory") if base is not None else path
        if not regular(path, real, "run directory"):
            return [], [], 0
    try:
        rows, bad = runfiles.read_rows(path)
    except OSError as exc:
        raise ViewerError(f"'{path}' cannot be read ({exc.strerror or type(exc).__name__}); the run directory is "
                          "damaged") from None
    good = [r for r in rows if _is_row(r)]
    return good, bad, len(rows) - len(good)


def markdown_tables(text: str) -> list[Json]:
    """The tables of summary.md, each under the heading (or paragraph) that precedes it, as cells of text."""
    tables: list[Json] = []
    title = ""
    current: Json | None = None
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("|") and s.endswith("|"):
            cells = [c.strip() for c in s[1:-1].split("|")]
            if current is None:
                current = {"title": title, "headers": cells, "rows": []}
                tables.append(current)
            elif not all(set(c) <= set("-: ") and c for c in cells):
                current["rows"].append(cells)
            continue
        current = None
        if s.startswith("#"):
            title = s.lstrip("#").strip()
        elif s:
            title = s.rstrip(":")
    return tables


def diagnosis_counts(rows: list[Json]) -> dict[str, dict[str, int]]:
    """Arm -> boundary -> rows, with "not measured" for rows without a boundary (recomputed from the rows)."""
    counts: dict[str, Counter[str]] = {}
    for r in rows:
        b = r["diagnosis"].get("boundary")
        counts.setdefault(str(r.get("arm", "")), Counter())[b if isinstance(b, str) and b else "not measured"] += 1
    return {arm: {b: c.get(b, 0) for b in (*BOUNDARIES, "not measured")} for arm, c in counts.items()}


def _ids(value: Any) -> list[str]:
    return [x for x in _seq(value) if isinstance(x, str)]


def _chunk_table(run_dir: Path, rows: list[Json]) -> dict[str, Json]:
    """Title and source of every ranked chunk; the text only of those that went past EvidenceK."""
    wanted_text: set[str] = set()
    ranked: set[str] = set()
    for r in rows:
        context = _obj(r.get("context"))
        ranked.update(_ids(_obj(r.get("retrieval")).get("ranked_chunk_ids")))
        wanted_text.update(_ids(r.get("selected_chunk_ids")))
        wanted_text.update(_ids(context.get("admitted_chunk_ids")))
        wanted_text.update(_ids(context.get("omitted_chunk_ids")))
    table: dict[str, Json] = {}
    data = _read_json(run_dir, CHUNKS, "run directory", required=False, kind=list) or []
    for ch in data:
        cid = _obj(ch).get("chunk_id")
        if isinstance(cid, str) and (cid in ranked or cid in wanted_text):
            entry: Json = {"title": ch.get("title", ""), "source_id": ch.get("source_id", ""),
                           "n_runes": ch.get("n_runes")}
            if cid in wanted_text:
                entry["text"] = ch.get("text", "")
            table[cid] = entry
    return table


def _questions(run_dir: Path, rows: list[Json]) -> dict[str, Json]:
    data = _read_json(run_dir, EVALUATION, "run directory", required=False)
    if data is None:
        return {}
    ids = {r["query_id"] for r in rows}
    out: dict[str, Json] = {}
    for q in _seq(data.get("questions")):
        qid = _obj(q).get("id")
        if isinstance(qid, str) and qid in ids:
            out[qid] = {"relevant_source_ids": q.get("relevant_source_ids", []), "requests": q.get("requests", [])}
    return out


# Run-level settings that change rows (an arm's own are its policy's); ids, times and paths are left out.
_RUN_SETTINGS = ("samples", "prompt", "corpus_digest", "evaluation_sha256", "verifier_policy_hash", "burn")


def _flat(obj: Any, prefix: str) -> Json:
    if isinstance(obj, dict):
        out: Json = {}
        for k, v in obj.items():
            out.update(_flat(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return {prefix: obj}


def run_settings(config: Json) -> dict[str, Json]:
    """Arm name -> every setting that shapes its rows, flattened ("evidence_k", "search.routes", "model_id"),
    so two runs' arms can be set side by side and their differences named."""
    base = {k: config.get(k) for k in _RUN_SETTINGS} | {"model": _obj(config.get("model")).get("model_id")}
    out: dict[str, Json] = {}
    for arm in _seq(config.get("arms")):
        if isinstance(arm, dict):
            policy = {k: v for k, v in _obj(arm.get("policy")).items() if k != "system_prompt"}
            out[str(arm.get("name"))] = base | {"treatment": arm.get("treatment")} | _flat(policy, "")
    return out


# The fields of config.json the pages read, and the JSON type each must have.
_CONFIG_SHAPE: dict[str, type | tuple[type, ...]] = {
    "model": (dict, type(None)), "arms": list, "question_ids": list, "samples": int,
}


def _check_config(run_dir: Path, config: Json) -> None:
    for key, kind in _CONFIG_SHAPE.items():
        if key in config and (not isinstance(config[key], kind) or isinstance(config[key], bool)):
            raise ViewerError(f"'{run_dir / CONFIG}' has a damaged \"{key}\" ({type(config[key]).__name__}); the "
                              "run directory is damaged")
    if not all(isinstance(a, dict) for a in config.get("arms", [])):
        raise ViewerError(f"'{run_dir / CONFIG}' has a damaged \"arms\" (not a list of objects); the run "
                          "directory is damaged")


def load_run(run_dir: Path) -> Json:
    """Everything the run and question pages show, from the run directory alone (no file outside it)."""
    if not run_dir.is_dir():
        raise ViewerError(f"run directory '{run_dir}' does not exist")
    config = _read_json(run_dir, CONFIG, "run directory")
    _check_config(run_dir, config)
    status = _read_json(run_dir, STATUS, "run directory", required=False)
    if isinstance(status, dict) and runfiles.live_state(status) == runfiles.DEAD:
        status = {**status, "state": runfiles.DEAD, "message": "status.json says running, but its process "
                  f"(pid {status.get('pid')}) is gone; continue with `{runfiles.continue_command(run_dir)}`"}
    rows, bad, foreign = read_rows(run_dir / ROWS, run_dir)
    summary = read_text(run_dir, SUMMARY_MD, "run directory")
    tables = markdown_tables(summary) if summary else []
    arms = config.get("arms", [])
    return {
        "name": run_dir.name,
        "path": str(run_dir.resolve()),
        "config": {k: config.get(k) for k in (
            "run_id", "created_at", "arborist_version", "git", "corpus_digest", "evaluation_sha256",
            "output_digest", "samples", "continue_from", "question_selection", "prompt")}
        | {"model_id": _obj(config.get("model")).get("model_id"),
           "arms": [a.get("name") for a in arms],
           "rows_total": len(config.get("question_ids", [])) * len(arms) * config.get("samples", 1)},
        "status": status,
        "settings": run_settings(config),
        "rows": rows,
        "unreadable_lines": bad,
        "foreign_rows": foreign,
        "diagnosis": diagnosis_counts(rows),
        "boundaries": [{"name": b, "meaning": m} for b, m in BOUNDARY_MEANING.items()],
        "summary_tables": [t for t in tables if not t["title"].startswith("Where support")],
        "summary_missing": None if summary else f"no {SUMMARY_MD} (the run's state is "
                                                 f"{(status or {}).get('state', 'unknown')}; it is written when a run stops)",
        "chunks": _chunk_table(run_dir, rows),
        "questions": _questions(run_dir, rows),
    }


def load_sweep_dir(sweep_dir: Path) -> Json:
    """A sweep record with its plots inlined as PNG data (so the page stays one file); a plot must be a file
    inside the sweep directory."""
    record = _read_json(sweep_dir, SWEEP, "sweep directory")
    plots: dict[str, str] = {}
    for metric, rel in _obj(record.get("plots")).items():
        if not isinstance(rel, str):
            raise ViewerError(f"'{sweep_dir / SWEEP}' names a plot for {metric!r} that is not a path; the sweep "
                              "directory is damaged")
        try:
            png = inside(sweep_dir, sweep_dir / rel, "sweep directory")
        except ViewerError as exc:
            raise ViewerError(f"'{sweep_dir / SWEEP}' names the plot of {metric!r}: {exc}") from None
        if png.is_file():
            try:
                plots[str(metric)] = "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode("ascii")
            except OSError as exc:
                raise ViewerError(f"'{png}' cannot be read ({exc.strerror}); the sweep directory is damaged") from None
    if runfiles.live_state(record) == runfiles.DEAD:
        record = {**record, "state": runfiles.DEAD, "message": f"sweep.json says running, but its process (pid "
                  f"{record.get('pid')}) is gone; continue with `arborist lab sweep --continue-from "
                  f"{sweep_dir.resolve()}`"}
    return {"name": sweep_dir.name, "path": str(sweep_dir.resolve()), "record": record, "plots": plots}


def is_ladder_dir(path: Path) -> bool:
    """A sentinel ladder's run directory: a config.json naming its sentinel store."""
    try:
        if not (path.is_dir() and (path / CONFIG).is_file()):
            return False
        config = _read_json(path, CONFIG, "sentinel ladder directory")
    except (ViewerError, OSError, ValueError):
        return False
    return "sentinel_db" in config


def is_bench_dir(path: Path) -> bool:
    return path.is_dir() and (path / BENCH_JSON).is_file()


def is_run_dir(path: Path) -> bool:
    return path.is_dir() and (path / CONFIG).is_file() and not is_ladder_dir(path)


def _doc(kind: str, title: str, path: Path, facts: list[tuple[str, Any]], state: str | None,
         warnings: list[str], links: list[tuple[str, str]]) -> Json:
    summary = read_text(path, SUMMARY_MD, f"{kind} directory")
    tables = markdown_tables(summary) if summary else []
    return {"kind": kind, "title": title, "name": path.name, "path": str(path.resolve()),
            "facts": [[k, "" if v is None else str(v)] for k, v in facts], "state": state, "warnings": warnings,
            "links": links, "tables": tables}


def load_ladder(path: Path) -> Json:
    """A sentinel ladder run: its model and store, state, each fact's warning and the rung tables."""
    what = "sentinel ladder directory"
    config = _read_json(path, CONFIG, what)
    status = _read_json(path, STATUS, what, required=False) or {}
    ladder = _read_json(path, LADDER_JSON, what, required=False) or {}
    state = runfiles.live_state(status) if status else None
    facts = [f for f in _seq(ladder.get("facts")) if isinstance(f, dict)]
    try:
        return _doc("sentinel ladder", f"Sentinel ladder {path.name}", path, [
            ("model", config.get("model_id")), ("runs per rung", config.get("runs")),
            ("sentinel store", config.get("sentinel_db")), ("created", config.get("created_at")),
            ("state", (state or "unknown") + (f" — {status.get('message')}" if status.get("message") else "")),
            ("answers", f"{status.get('rows_done', 0)} of {status.get('rows_total', '?')}"),
            ("facts", ", ".join(f"{f.get('id')} ({f.get('status')}" + (f", control {f['control']}" if f.get("control")
                                                                      else "") + ")" for f in facts) or "—"),
        ], state, [f"{f.get('id')}: {f['warning']}" for f in facts if f.get("warning")], [])
    except (AttributeError, TypeError, ValueError) as exc:
        raise ViewerError(f"'{path / LADDER_JSON}' or '{path / STATUS}' holds a damaged field ({exc}); the {what} "
                          "is damaged") from None


def load_bench(path: Path) -> Json:
    """A layout bench: its control, sizes, timing and its layouts' run directories (each viewable as a run)."""
    what = "layout bench directory"
    bench = _read_json(path, BENCH_JSON, what)
    layouts = [r for r in _seq(bench.get("layouts")) if isinstance(r, dict)]
    try:
        return _doc("layout bench", f"Layout bench {path.name}", path, [
            ("control", bench.get("control")), ("questions", bench.get("questions")), ("samples", bench.get("samples")),
            ("quantifier classes", ", ".join(bench.get("quantifiers") or []) or "all"), ("floor", bench.get("floor")),
            ("seconds answering (preparation excluded)", ", ".join(f"{k} {v:.0f}" for k, v in
                                                                   _obj(bench.get("seconds")).items())),
        ], "complete", [], [(f"{r.get('layout')} run", str(Path(str(r.get("run_dir", ""))).resolve())) for r in layouts])
    except (AttributeError, TypeError, ValueError) as exc:
        raise ViewerError(f"'{path / BENCH_JSON}' holds a damaged field ({exc}); the {what} is damaged") from None


def load_doc(path: Path) -> Json:
    """The page data of a ladder or bench directory."""
    return load_ladder(path) if is_ladder_dir(path) else load_bench(path)


def is_sweep_dir(path: Path) -> bool:
    return path.is_dir() and (path / SWEEP).is_file()


def _listed_run(p: Path) -> Json:
    st = _read_json(p, STATUS, "run directory", required=False) or {}
    _read_json(p, CONFIG, "run directory")
    rows, _, _ = read_rows(p / ROWS, p)
    return {"name": p.name, "state": runfiles.live_state(st) if st else None, "rows_done": len(rows),
            "rows_total": st.get("rows_total"), "diagnosis": diagnosis_counts(rows)}


def _listed_sweep(p: Path) -> Json:
    rec = _read_json(p, SWEEP, "sweep directory")
    return {"name": p.name, "state": runfiles.live_state(rec), "family": rec.get("family"),
            "values": rec.get("values")}


def list_root(root: Path) -> Json:
    """Runs and sweeps directly under a run root, with their state and row counts (for the served index). A
    damaged one is listed with what is wrong with it; one that leads outside the root is not listed."""
    if not root.is_dir():
        raise ViewerError(f"run root '{root}' does not exist")
    runs: list[Json] = []
    sweeps: list[Json] = []
    top = root.resolve()
    for p in sorted(root.iterdir()):
        try:
            if not p.resolve().is_relative_to(top):
                continue
            if is_run_dir(p):
                try:
                    runs.append(_listed_run(p))
                except ViewerError as exc:
                    runs.append({"name": p.name, "state": "damaged", "damaged": str(exc), "rows_done": 0,
                                 "rows_total": None, "diagnosis": {}})
            elif is_sweep_dir(p):
                try:
                    sweeps.append(_listed_sweep(p))
                except ViewerError as exc:
                    sweeps.append({"name": p.name, "state": "damaged", "damaged": str(exc), "family": None,
                                   "values": None})
        except (OSError, RuntimeError):
            continue  # an entry that cannot even be looked at (a link loop, no permission)
    return {"root": str(top), "runs": runs, "sweeps": sweeps}


def is_repair_dir(path: Path) -> bool:
    return path.is_dir() and (path / REPAIR_JSON).is_file()


def _funnel_row(row: Json | None) -> Json | None:
    """What the repair page shows of one answer: its funnel, diagnosis, label and answer text."""
    if row is None:
        return None
    retrieval, context = _obj(row.get("retrieval")), _obj(row.get("context"))
    return {"query_id": row.get("query_id"), "arm": row.get("arm"),
            "retrieval": {k: retrieval.get(k) for k in ("ranked_chunk_ids", "retrieve_k", "evidence_k")},
            "selected_chunk_ids": row.get("selected_chunk_ids", []),
            "context": {k: context.get(k) for k in ("admitted_chunk_ids", "omitted_chunk_ids", "used_runes",
                                                     "max_runes")},
            "citation_chunk_ids": _obj(row.get("trace")).get("citation_chunk_ids", []),
            "diagnosis": row.get("diagnosis"), "verifier": {"label": _obj(row.get("verifier")).get("label")},
            "answer": _obj(row.get("answer")).get("text", "")}


def _check_repair(path: Path, record: Json) -> None:
    """A ViewerError naming repair.json when a field the page reads has another shape than `lab repair` writes
    (a list of objects, each question with a string id and a list of attempt objects)."""
    def wrong(field: str) -> ViewerError:
        return ViewerError(f"'{path}' has a {field} of the wrong shape; the repair directory is damaged")

    for field in ("questions", "cells", "settings", "notes"):
        if record.get(field) is not None and not isinstance(record[field], list):
            raise wrong(repr(field))
    if not all(isinstance(c, dict) for c in record.get("cells") or []):
        raise wrong("cell")
    for q in record.get("questions") or []:
        if not isinstance(q, dict) or not isinstance(q.get("id"), str):
            raise wrong("question (an object with a string id)")
        attempts = q.get("attempts")
        if attempts is not None and not (isinstance(attempts, list) and all(isinstance(a, dict) for a in attempts)):
            raise wrong(f"question {q['id']!r}'s attempts")


def load_repair_dir(repair_dir: Path, base: Path | None = None) -> Json:
    """A repair: its questions by verdict, each recovered one with its answer before (the source run's row, shown
    when that run is inside `base`) and after (the row of each cell that recovered it), the settings table, the
    whole-run check and the plot."""
    record = _read_json(repair_dir, REPAIR_JSON, "repair directory")
    _check_repair(repair_dir / REPAIR_JSON, record)
    source = Path(str(record.get("run", "")))
    arm = record.get("arm")
    # The run it repaired is read only inside `base` (the folder the viewer serves; by default the folder holding
    # the repair, where `lab repair` puts it beside the run), never wherever repair.json points.
    try:
        inside(base or repair_dir.parent, source, "folder the viewer was given")
        source_rows = [r for r in read_rows(source / ROWS, base=source)[0]
                       if r.get("arm") == arm and not r.get("sample")]
        source_problem = None if source_rows else f"the source run '{source}' has no rows to show"
    except ViewerError as exc:
        source_rows, source_problem = [], str(exc)
    before = {r["query_id"]: r for r in source_rows}
    cells = {c.get("key"): c for c in record.get("cells") or [] if isinstance(c, dict)}
    cell_rows: dict[str, dict[str, Json]] = {}

    def row_of(cell_key: str, qid: str) -> Json | None:
        if cell_key not in cell_rows:
            rel = (cells.get(cell_key) or {}).get("run_dir")
            rows = read_rows(repair_dir / str(rel) / ROWS, base=repair_dir)[0] if rel else []
            cell_rows[cell_key] = {r["query_id"]: r for r in rows if not r.get("sample")}
        return cell_rows[cell_key].get(qid)

    questions: list[Json] = []
    shown: list[Json] = []
    for q in record.get("questions") or []:
        after = []
        for a in q.get("attempts") or []:
            if a.get("outcome") == "recovered":
                row = row_of(str(a.get("cell")), q["id"])
                if row is not None:
                    shown.append(row)
                after.append({"setting": a.get("setting"), "value": a.get("value"), "gold": a.get("gold"),
                              "strict": a.get("strict"), "row": _funnel_row(row)})
        first = before.get(q["id"])
        if first is not None and after:
            shown.append(first)
        questions.append({k: q.get(k) for k in ("id", "question", "boundary", "goal", "verdict", "why", "label",
                                                "gold")}
                         | {"tried": len(q.get("attempts") or []), "after": after,
                            "before": _funnel_row(first) if after else None})
    plots: dict[str, str] = {}
    for name, rel in _obj(record.get("plots")).items():
        png = inside(repair_dir, repair_dir / str(rel), "repair directory")
        if png.is_file():
            plots[str(name)] = "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode("ascii")
    state = runfiles.live_state(record)
    message = record.get("message", "")
    if state == runfiles.DEAD:
        message = (f"repair.json says running, but its process (pid {record.get('pid')}) is gone; continue with "
                   f"`arborist lab repair --continue-from {repair_dir.resolve()}`")
    return {"name": repair_dir.name, "path": str(repair_dir.resolve()), "run": str(source), "arm": arm,
            "model_id": record.get("model_id"), "prompt": record.get("prompt"), "state": state, "message": message,
            "notes": record.get("notes", []), "questions": questions,
            "source_missing": source_problem,
            "settings": record.get("settings", []), "whole_run": record.get("whole_run"),
            "plots": plots, "chunks": _chunk_table(source, shown) if source_rows else {},
            "needed": {k: v["relevant_source_ids"] for k, v in _questions(source, shown).items()} if source_rows else {}}
