"""One HTML file per page: inline CSS and script, the data as JSON in a non-executable script element.

Run rows go in one such element each (the list reads a light copy), so a
long run opens by parsing its list only. The JSON is escaped so no byte sequence in a document or an answer can
close its script element (`<`, `>`, `&` and the line separators become
\\u escapes); the script reads it with JSON.parse and writes every string
with textContent, never as markup.
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from importlib.resources import files
from typing import Any

from arborist import __version__

_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def _finite(data: Any) -> Any:
    """`data` with every NaN or infinity as null: JSON has no such numbers, and the browser's JSON.parse refuses
    the whole page's data over one (a config.json or row holding NaN left the page at "Loading...")."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {k: _finite(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_finite(v) for v in data]
    return data


def embed_json(data: Any) -> str:
    """JSON that is inert inside <script type="application/json">: nothing in it can end the element, and every
    number in it is one JSON has (NaN and infinities are null)."""
    try:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError:
        text = json.dumps(_finite(data), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for raw, esc in _ESCAPES.items():
        text = text.replace(raw, esc)
    return text


def _static(name: str) -> str:
    return (files("arborist.lab.viewer") / "static" / name).read_text(encoding="utf-8")


# What the run page's list, filters and header read of a row; the rest is parsed when its question opens.
_LIST_FIELDS = ("query_id", "arm", "sample", "question", "source")


def _list_row(row: dict[str, Any]) -> dict[str, Any]:
    diagnosis = row.get("diagnosis") or {}
    return {**{k: row.get(k) for k in _LIST_FIELDS},
            "diagnosis": {"boundary": diagnosis.get("boundary"), "gold_in_answer": diagnosis.get("gold_in_answer")},
            "verifier": {"label": (row.get("verifier") or {}).get("label")},
            "timings": {"total": (row.get("timings") or {}).get("total")}}


def _split_rows(run: dict[str, Any], prefix: str) -> tuple[dict[str, Any], list[str]]:
    """The run with light list rows, and one JSON element per full row: a 10,000-row page parses only
    the list when it opens, and a row's detail when its question page does."""
    light = {**run, "rows": [_list_row(r) for r in run["rows"]], "row_prefix": prefix}
    elements = [f'<script type="application/json" id="{prefix}{i}">{embed_json(r)}</script>'
                for i, r in enumerate(run["rows"])]
    return light, elements


def _html(kind: str, title: str, data: dict[str, Any], row_elements: list[str] | None = None) -> str:
    payload = {"kind": kind, "viewer_version": __version__,
               "generated_at": datetime.now(UTC).isoformat(timespec="seconds"), **data}
    # The title is the only text placed as markup; escape it like any HTML text.
    safe_title = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; connect-src 'none'\">"
        f"<title>{safe_title}</title><style>{_static('viewer.css')}</style></head>\n"
        "<body><div id=\"app\">Loading…</div>\n"
        f"<script type=\"application/json\" id=\"arborist-data\">{embed_json(payload)}</script>\n"
        + "\n".join(row_elements or []) + "\n"
        f"<script>{_static('viewer.js')}</script>\n</body></html>\n"
    )


def run_page(run: dict[str, Any], links: dict[str, str] | None = None) -> str:
    """The run page with its question pages (hash routes #q=N in the same file)."""
    light, rows = _split_rows(run, "row-")
    return _html("run", f"arborist run {run['name']}", {"run": light, "links": links or {}}, rows)


def differences(a: dict[str, Any], b: dict[str, Any], comparison: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The settings whose values differ between the two compared arms: what A and B each hold."""
    def side(run: dict[str, Any], key: str) -> dict[str, Any]:
        settings: dict[str, dict[str, Any]] = run.get("settings") or {}
        arm = (comparison or {}).get(key, {}).get("arm") or next(iter(settings), None)
        return settings.get(arm, {}) if arm is not None else {}

    sa, sb = side(a, "a"), side(b, "b")
    return [{"setting": k, "a": sa.get(k), "b": sb.get(k)} for k in sorted(set(sa) | set(sb)) if sa.get(k) != sb.get(k)]


def compare_page(a: dict[str, Any], b: dict[str, Any], comparison: dict[str, Any] | None,
                 comparison_error: str | None = None) -> str:
    """Two runs over the same evaluation: which settings differ, then the questions whose outcome changed."""
    light_a, rows_a = _split_rows(a, "a-row-")
    light_b, rows_b = _split_rows(b, "b-row-")
    return _html("compare", f"arborist compare {a['name']} vs {b['name']}",
                 {"a": light_a, "b": light_b, "comparison": comparison, "comparison_error": comparison_error,
                  "differences": differences(a, b, comparison)},
                 rows_a + rows_b)


def doc_page(doc: dict[str, Any]) -> str:
    """A sentinel ladder or a layout bench directory: its facts, warnings and summary tables."""
    return _html("doc", doc["title"], {"doc": doc})


def sweep_page(sweep: dict[str, Any], links: dict[str, str] | None = None) -> str:
    return _html("sweep", f"arborist sweep {sweep['name']}", {"sweep": sweep, "links": links or {}})


def repair_page(repair: dict[str, Any]) -> str:
    """A repair: its questions by verdict, the funnel before and after for each recovered one."""
    return _html("repair", f"arborist repair {repair['name']}", {"repair": repair})


def index_page(listing: dict[str, Any]) -> str:
    return _html("index", f"arborist runs under {listing['root']}", {"listing": listing})
