"""The run viewer: pages built from run directories alone, inert text, paging, the served index, a real browser.

The runs are real (store, retrieval, engine, verifier) with the scripted
model. The browser tests drive Debian's `chromium` through playwright (no
browser download); they skip, saying why, when either is missing.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from arborist.corpus.documents import corpus_digest
from arborist.corpus.loaders import load_documents
from arborist.lab import rundir
from arborist.lab.compare import compare_runs
from arborist.lab.sweep import execute_sweep, load_sweep, plan_sweep
from arborist.lab.viewer import load_run, run_page
from arborist.lab.viewer.load import markdown_tables
from arborist.lab.viewer.page import embed_json
from arborist.lab.viewer.serve import render_path
from arborist.models.scripted import ScriptedProvider
from test_lab import DOCS, GOOD, QUESTIONS, claim, do_run, request, rows_of

PWNED_SCRIPT = "<script>window.__pwned = 1</script>"
PWNED_IMG = '<img src=x onerror="window.__pwned = 2">'
EVIL_DOC = {"id": "evil", "title": "Zanzibar notes </script><script>window.__pwned = 4</script>",
            "text": f"The Zanzibar marker {PWNED_SCRIPT} is kept here. {PWNED_IMG} The marker colour is vermilion."}
EVIL_Q = {"id": "q5", "question": "What is the Zanzibar marker colour? </script>", "answers": ["vermilion"],
          "relevant_source_ids": ["evil"]}
# The answer repeats the markup in its claim and quotes the document (so the quote is highlighted inside it).
EVIL_ANSWER = claim(f"The marker colour is vermilion {PWNED_IMG}", "E1",
                    f"The Zanzibar marker {PWNED_SCRIPT} is kept here.")
ANSWERS = [*GOOD, EVIL_ANSWER]


@pytest.fixture
def evil_inputs(tmp_path: Path) -> tuple[Path, Path]:
    corpus = tmp_path / "corpus.json"
    corpus.write_text(json.dumps([*DOCS, EVIL_DOC]), encoding="utf-8")
    evaluation = tmp_path / "evaluation.json"
    evaluation.write_text(json.dumps({"format": "arborist-evaluation/1",
                                      "corpus_digest": corpus_digest(load_documents([corpus])),
                                      "questions": [*QUESTIONS, EVIL_Q]}), encoding="utf-8")
    return corpus, evaluation


@pytest.fixture
def run_dir(tmp_path: Path, evil_inputs: tuple[Path, Path]) -> Path:
    path, status, _ = do_run(request(tmp_path, evil_inputs), *ANSWERS)
    assert status.state == "complete"
    return path


def page_data(html: str, element: str = "arborist-data") -> dict[str, Any]:
    found = re.search(rf'<script type="application/json" id="{element}">(.*?)</script>', html, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


# -- without a browser ------------------------------------------------------------------------


def test_the_viewer_imports_nothing_of_the_engine() -> None:
    code = ("import sys, arborist.lab.viewer, arborist.lab.viewer.serve; "
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('arborist'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert set(out) <= {"arborist", "arborist.lab", "arborist.lab.runfiles", "arborist.lab.viewer",
                        "arborist.lab.viewer.load", "arborist.lab.viewer.page", "arborist.lab.viewer.serve"}, out


def test_run_data_comes_from_the_run_directory_and_markup_cannot_close_its_element(run_dir: Path) -> None:
    html = run_page(load_run(run_dir))
    rows = rows_of(run_dir)
    # Only the page's own script elements (the data, one per row, the code): the document's and the
    # answer's markup are JSON escapes.
    assert html.count("<script") == len(rows) + 2 and html.count("</script") == len(rows) + 2
    assert "<img" not in html and "onerror" in html  # the attribute text is there, as escaped JSON text
    data = page_data(html)["run"]
    assert [page_data(html, f"row-{i}") for i in range(len(rows))] == rows
    assert [r["query_id"] for r in data["rows"]] == [r["query_id"] for r in rows]
    (arm,) = {r["arm"] for r in rows}
    counts = data["diagnosis"][arm]
    assert sum(counts.values()) == len(rows) and counts["not measured"] == 1  # q4 has no relevant ids
    assert all(n == sum(r["diagnosis"]["boundary"] == b for r in rows) for b, n in counts.items() if b != "not measured")
    evil = next(r for r in rows if r["query_id"] == "q5")
    assert PWNED_SCRIPT in data["chunks"][evil["context"]["admitted_chunk_ids"][0]]["text"]
    # The trace the viewer needs is in the row: evidence map, prompt as sent, per-claim verdicts.
    trace = evil["trace"]
    assert trace["evidence"][0] == {"evidence_id": "E1", "chunk_id": evil["context"]["admitted_chunk_ids"][0]}
    assert PWNED_SCRIPT in trace["prompt_messages"][-1]["content"] and trace["claims"][0]["verdict"]


def test_embedded_json_escapes_every_way_out_of_a_script_element() -> None:
    nasty = {"t": "</script><!-- <script> & \u2028 \u2029 </SCRIPT>"}
    text = embed_json(nasty)
    assert not re.search(r"[<>&\u2028\u2029]", text) and json.loads(text) == nasty


def test_summary_tables_are_read_from_summary_md(run_dir: Path) -> None:
    tables = markdown_tables((run_dir / rundir.SUMMARY_MD).read_text(encoding="utf-8"))
    titles = [t["title"] for t in tables]
    assert titles[0] == "Where support for the gold answer disappeared" and "Cost" in titles
    assert tables[0]["headers"][:2] == ["boundary", "meaning"] and tables[0]["rows"][0][0] == "retrieval"


def test_cli_writes_one_file_and_refuses_bad_paths_in_one_line(
    tmp_path: Path, run_dir: Path, run_cli: Callable[..., Result]
) -> None:
    out = tmp_path / "page" / "run.html"
    result = run_cli("lab", "view", run_dir, "--output", out)
    assert result.exit_code == 0, result.stderr
    assert out.is_file() and "wrote" in result.stdout and not list(out.parent.glob("*.tmp"))
    html = out.read_text(encoding="utf-8")
    # Nothing outside the data element reaches for the network: no URLs, no src or href attributes in markup.
    shell = re.sub(r'(<script type="application/json" id="[a-z0-9-]+">).*?</script>', r"\1", html, flags=re.S)
    assert not re.search(r"https?://|\bsrc=|\bhref=|@import|url\(", shell)
    for args, message in [
        ([run_dir], "give --output FILE.html to write the page, or --serve"),
        ([tmp_path / "nope", "--output", out], "does not exist or is not a directory"),
        ([tmp_path, "--output", out], "is neither a run directory (config.json), a sweep directory"),
        ([run_dir, "--compare", tmp_path, "--output", out], "--compare needs two run directories"),
    ]:
        bad = run_cli("lab", "view", *args)
        assert bad.exit_code != 0 and bad.stderr.startswith("Error: ") and message in bad.stderr, bad.stderr
        assert bad.stderr.count("\n") == 1


def test_a_damaged_run_is_a_clear_error(tmp_path: Path, run_dir: Path, run_cli: Callable[..., Result]) -> None:
    (run_dir / rundir.CONFIG).write_text("{not json", encoding="utf-8")
    bad = run_cli("lab", "view", run_dir, "--output", tmp_path / "x.html")
    assert bad.exit_code == 1 and "config.json' is not valid JSON" in bad.stderr and "the run directory is damaged" in bad.stderr


def test_torn_and_foreign_lines_are_reported_not_fatal(run_dir: Path) -> None:
    with (run_dir / rundir.ROWS).open("a", encoding="utf-8") as fh:
        fh.write('{"some": "object"}\n{"query_id": "torn", "diag')
    data = load_run(run_dir)
    assert len(data["rows"]) == 5 and data["unreadable_lines"] == [7] and data["foreign_rows"] == 1


def test_served_routes_stay_under_the_run_root(run_dir: Path) -> None:
    root = run_dir.parent

    def no_compare(a: Path, b: Path) -> tuple[None, str]:
        return None, "not needed here"

    status, html = render_path(root, "/", no_compare)
    assert status == 200 and page_data(html)["listing"]["runs"][0]["name"] == run_dir.name
    assert render_path(root, f"/run?path={run_dir.name}", no_compare)[0] == 200
    for url in ["/run?path=..", "/run?path=../../etc", f"/run?path={root}/../..", "/secret", "/run"]:
        assert render_path(root, url, no_compare)[0] == 404, url


def test_serve_answers_on_localhost_only(run_dir: Path) -> None:
    proc = subprocess.Popen([str(Path(sys.executable).parent / "arborist"), "lab", "view", str(run_dir),
                             "--serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"at (http://127\.0\.0\.1:(\d+)/)run\?path=", line)
        assert found, line + (proc.stderr.read() if proc.poll() is not None and proc.stderr else "")
        base = found.group(1)
        with urllib.request.urlopen(base, timeout=10) as resp:
            assert resp.status == 200 and run_dir.name in resp.read().decode("utf-8")
        with urllib.request.urlopen(f"{base}run?path={run_dir.name}", timeout=10) as resp:
            assert page_data(resp.read().decode("utf-8"))["run"]["name"] == run_dir.name
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(f"{base}run?path=../..", timeout=10)
        assert err.value.code == 404
    finally:
        proc.terminate()
        proc.wait(timeout=10)


# -- in a real browser ------------------------------------------------------------------------


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH (Debian: apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    pg = browser.new_page(viewport={"width": 1300, "height": 1000})
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    pg.close()
    assert not errors, errors


def open_page(page: Any, html_file: Path, fragment: str = "") -> None:
    page.goto(html_file.as_uri() + fragment)
    page.wait_for_selector("body[data-ready=yes]")


def test_clicking_a_diagnosis_row_lists_exactly_that_boundarys_questions(
    tmp_path: Path, run_dir: Path, page: Any, run_cli: Callable[..., Result]
) -> None:
    out = tmp_path / "run.html"
    assert run_cli("lab", "view", run_dir, "--output", out).exit_code == 0
    open_page(page, out)
    rows = rows_of(run_dir)
    assert page.locator("tr.q-row").count() == len(rows)
    page.screenshot(path=str(tmp_path / "run.png"), full_page=True)
    for boundary in {r["diagnosis"]["boundary"] or "not measured" for r in rows}:
        page.click(f"tr.diag-row[data-boundary='{boundary}']")
        page.wait_for_selector(f"tr.diag-row.active[data-boundary='{boundary}']")
        shown = page.eval_on_selector_all("tr.q-row", "els => els.map(e => e.dataset.query)")
        assert shown == [r["query_id"] for r in rows if (r["diagnosis"]["boundary"] or "not measured") == boundary]
        page.click(f"tr.diag-row[data-boundary='{boundary}']")  # a second click clears the filter
        # not wait_for_function with a string: when it has to poll it evals the string, which the page's CSP
        # refuses (seen on a loaded machine); waiting for the last row uses no eval
        page.locator("tr.q-row").nth(len(rows) - 1).wait_for(state="attached")
        assert page.locator("tr.q-row").count() == len(rows)


def test_a_question_page_shows_the_funnel_of_its_row_and_keeps_markup_inert(
    tmp_path: Path, run_dir: Path, page: Any
) -> None:
    out = tmp_path / "run.html"
    out.write_text(run_page(load_run(run_dir)), encoding="utf-8")
    rows = rows_of(run_dir)
    index = next(i for i, r in enumerate(rows) if r["query_id"] == "q5")
    evil = rows[index]
    open_page(page, out)
    page.click("tr.q-row[data-query='q5']")
    page.wait_for_selector("#question[data-query='q5']")
    assert page.evaluate("window.__pwned") is None
    assert page.evaluate("document.querySelectorAll('script:not([type=\"application/json\"])').length") == 1
    assert page.evaluate("document.querySelectorAll('img').length") == 0
    assert "</script>" in page.inner_text("#question-text")
    ev_text = page.inner_text(".evidence[data-evidence='E1'] .ev-text")
    assert PWNED_SCRIPT in ev_text and PWNED_IMG in ev_text
    assert PWNED_SCRIPT in page.inner_text("mark.q-ok")  # the quote, highlighted inside its cited block
    assert "<img src=x onerror=" in page.inner_text("pre.raw-answer") and PWNED_IMG in page.inner_text("#claims")
    page.click("#prompt summary")
    assert PWNED_SCRIPT in page.inner_text("#prompt")
    # The funnel table against the row: every ranked chunk once, stages as the id sets say.
    stages = page.eval_on_selector_all("#funnel-table tbody tr", "els => els.map(e => [e.dataset.chunk, e.dataset.stage])")
    assert [c for c, _ in stages] == evil["retrieval"]["ranked_chunk_ids"]
    got = dict(stages)
    cited = set(evil["trace"]["citation_chunk_ids"])
    assert {c for c, s in got.items() if s in ("admitted", "cited")} == set(evil["context"]["admitted_chunk_ids"])
    assert {c for c, s in got.items() if s == "cited"} == cited
    assert {c for c, s in got.items() if s != "ranked"} == set(evil["selected_chunk_ids"])
    assert page.evaluate("window.__pwned") is None
    page.goto(out.as_uri() + f"#row={index}")  # the question page opened directly by its address
    page.wait_for_selector("#question[data-query='q5']")
    assert page.evaluate("window.__pwned") is None


def test_a_miscited_quote_is_shown_in_the_block_that_holds_it(tmp_path: Path, evil_inputs: tuple[Path, Path],
                                                               page: Any) -> None:
    # Cite E2 for a quote that sits in another admitted block.
    miscited = claim("The marker colour is vermilion.", "E2", "The marker colour is vermilion.")
    path, _, _ = do_run(request(tmp_path, evil_inputs, policy_values={"evidence_k": 3}), *GOOD, miscited)
    out = tmp_path / "run.html"
    out.write_text(run_page(load_run(path)), encoding="utf-8")
    index = next(i for i, r in enumerate(rows_of(path)) if r["query_id"] == "q5")
    open_page(page, out, f"#row={index}")
    holder = page.eval_on_selector("mark.q-miscited", "m => m.closest('.evidence').dataset.evidence")
    assert holder != "E2" and "MISCITED: cited E2" in page.inner_text("#claims")


def test_the_compare_page_lists_changed_outcomes_first_with_the_paired_verdict(
    tmp_path: Path, evil_inputs: tuple[Path, Path], page: Any, run_cli: Callable[..., Result]
) -> None:
    provider = ScriptedProvider(*ANSWERS, *[claim("Nobody knows.")] * 5)
    base = dataclasses.replace(request(tmp_path, evil_inputs), run_root=tmp_path / "sweeps")
    sweep_dir = execute_sweep(plan_sweep(base, "evidence-k=1,3", provider), provider).sweep_dir
    a, b = (sweep_dir / str(c.run_dir) for c in load_sweep(sweep_dir).cells)
    out = tmp_path / "compare.html"
    result = run_cli("lab", "view", a, "--compare", b, "--output", out)
    assert result.exit_code == 0, result.stderr
    open_page(page, out)
    expected = compare_runs(a, b)  # what `experiments compare` says about the same two runs
    verdict = page.inner_text("#verdict")
    assert f"Paired verdict: {expected.verdict}" in verdict and f"{expected.delta:.3f}" in verdict
    assert expected.moves and f"same boundary {expected.unmoved}" in verdict
    assert all(f"{m.replace(' -> ', ' → ')} {n}" in verdict for m, n in expected.moves.items())
    changed = page.eval_on_selector_all("tr.pair", "els => els.map(e => e.dataset.changed)")
    assert len(changed) == 5 and "yes" in changed and changed == sorted(changed, reverse=True)
    page.click("tr.pair >> nth=0")
    page.wait_for_selector(".side #question")
    assert page.locator(".side #question").count() == 2
    # The sweep page shows its plots, inlined.
    sweep_html = tmp_path / "sweep.html"
    assert run_cli("lab", "view", sweep_dir, "--output", sweep_html).exit_code == 0
    open_page(page, sweep_html)
    plots = page.eval_on_selector_all("img.plot", "els => els.map(e => e.naturalWidth)")
    assert plots and all(w > 0 for w in plots)
    assert page.locator("#cells tbody tr").count() == 2


def test_a_treated_rows_page_shows_its_treatment_and_request_completeness(
    tmp_path: Path, evil_inputs: tuple[Path, Path], page: Any
) -> None:
    abstain = json.dumps({"claims": [], "abstained_requests": ["the question"]})
    answers = [a for g in GOOD for a in (g, abstain)] + [EVIL_ANSWER, abstain]
    path, status, _ = do_run(request(tmp_path, evil_inputs, treatments=("withheld",)), *answers)
    assert status.state == "complete"
    out = tmp_path / "treated.html"
    out.write_text(run_page(load_run(path)), encoding="utf-8")
    rows = rows_of(path)
    index = next(i for i, r in enumerate(rows) if r["query_id"] == "q1" and r["arm"].endswith("+withheld"))
    open_page(page, out, f"#row={index}")
    page.wait_for_selector("#question[data-query='q1']")
    text = page.inner_text("#question")
    assert "Treatment: withheld" in text and "abstained" in text
    control = next(i for i, r in enumerate(rows) if r["query_id"] == "q1" and r["arm"] == "claim_lattice")
    open_page(page, out, f"#row={control}")
    page.wait_for_selector("#completeness")
    assert "answered_supported" in page.inner_text("#completeness")


def test_a_repaired_rows_page_shows_the_models_quote_beside_the_span_and_the_first_answer_beside_the_revision(
    tmp_path: Path, evil_inputs: tuple[Path, Path], page: Any,
) -> None:
    paris = "Paris is the capital of France."
    misquote = "Paris is the capitol of France"  # two edits off E1's sentence: snapped
    first = claim("Paris, the capital of France, lies on the Loire.", "E1", misquote)
    revised = claim(paris, "E1", paris)
    provider = ScriptedProvider(first, *GOOD[1:], EVIL_ANSWER, revisions=(revised,))
    from arborist.lab.runner import execute, plan_run

    path = execute(plan_run(request(tmp_path, evil_inputs), provider), provider).run_dir
    row = next(r for r in rows_of(path) if r["query_id"] == "q1")
    assert [a["kind"] for a in row["trace"]["attempts"]] == ["first", "revision"]
    out = tmp_path / "run.html"
    out.write_text(run_page(load_run(path)), encoding="utf-8")
    open_page(page, out, f"#row={rows_of(path).index(row)}")
    repairs = page.inner_text("#repairs-table")
    assert "snapped" in repairs and misquote in repairs and paris.rstrip(".") in repairs.replace(misquote, "")
    attempts = page.inner_text("#attempts")
    assert "first" in attempts and "not kept" in attempts and "Loire" in attempts and "revision" in attempts
