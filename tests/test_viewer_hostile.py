"""The viewer under attack (issue 49): it reads only inside the directory it was given, answers only to its own
address, and turns a bad request or a damaged run into a 4xx with a one-line reason, never a traceback.

The server runs in this process on a free port (`make_server`); no assertion depends on how long anything took.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from arborist.lab import runfiles as rundir
from arborist.lab.viewer import serve
from arborist.lab.viewer.serve import render_path
from test_viewer import evil_inputs, page_data, run_dir  # noqa: F401 -- the fixtures are used by name

SECRET = "TOP-SECRET-7f3a outside the run directory"


def no_compare(a: Path, b: Path) -> tuple[None, str]:
    return None, "not needed here"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "outside" / "passwd"
    path.parent.mkdir()
    path.write_text(f"| secret |\n|---|\n| {SECRET} |\n", encoding="utf-8")
    return path


def leaked(text: str) -> bool:
    """Whether the secret file's content is in `text`, as text or base64 (a plot is embedded as base64)."""
    encoded = base64.b64encode(f"| secret |\n|---|\n| {SECRET} |\n".encode()).decode()
    return SECRET in text or encoded[:40] in text


@pytest.fixture
def root(tmp_path: Path, run_dir: Path) -> Path:  # noqa: F811
    """A run root holding the good run (under its own name) and room for damaged copies beside it."""
    return run_dir.parent


def copy_run(run_dir: Path, name: str) -> Path:  # noqa: F811
    target = run_dir.parent / name
    shutil.copytree(run_dir, target)
    return target


def make_sweep(root: Path, plots: dict[str, str]) -> Path:
    sweep = root / "sweep-x"
    (sweep / "plots").mkdir(parents=True)
    (sweep / "sweep.json").write_text(json.dumps({"state": "complete", "family": "evidence-k", "values": ["1"],
                                                  "cells": [], "plots": plots}), encoding="utf-8")
    return sweep


# -- row 4: nothing outside the directory is embedded ------------------------------------------------------


@pytest.mark.parametrize("how", ["absolute", "dotdot", "symlink"])
def test_a_sweep_plot_outside_the_sweep_is_never_embedded(
        root: Path, secret: Path, how: str, tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    if how == "symlink":
        sweep = make_sweep(root, {"gold": "plots/gold.png"})
        (sweep / "plots" / "gold.png").symlink_to(secret)
    else:
        sweep = make_sweep(root, {"gold": str(secret) if how == "absolute" else f"../{secret.parent.name}/passwd"})
        if how == "dotdot":
            shutil.copytree(secret.parent, root / secret.parent.name)
    status, body = render_path(root, f"/sweep?path={sweep.name}", no_compare)
    assert not leaked(body) and (status >= 400 or not page_data(body)["sweep"]["plots"])
    out = tmp_path / "sweep.html"
    result = run_cli("lab", "view", sweep, "--output", out)
    assert not (out.exists() and leaked(out.read_text(encoding="utf-8")))
    if result.exit_code != 0:
        assert result.stderr.count("\n") == 1 and "gold" in result.stderr and "unexpected" not in result.stderr


@pytest.mark.parametrize("name", [rundir.SUMMARY_MD, rundir.CONFIG, rundir.STATUS, rundir.ROWS, rundir.CHUNKS])
def test_a_run_file_that_links_outside_the_run_is_never_read(
        root: Path, run_dir: Path, secret: Path, name: str, tmp_path: Path,  # noqa: F811
        run_cli: Callable[..., Result]) -> None:
    target = run_dir / name
    target.unlink()
    target.symlink_to(secret)
    status, body = render_path(root, f"/run?path={run_dir.name}", no_compare)
    assert not leaked(body) and status == 400 and name in body and body.count("\n") == 0, body
    index_status, index = render_path(root, "/", no_compare)
    assert index_status == 200 and not leaked(index)
    out = tmp_path / "run.html"
    result = run_cli("lab", "view", run_dir, "--output", out)
    assert result.exit_code == 1 and not out.exists()
    assert result.stderr.count("\n") == 1 and name in result.stderr and "outside" in result.stderr, result.stderr


# -- row 6 and row 11: bad requests and damaged runs --------------------------------------------------------


def _config_a_list(run: Path) -> str:
    (run / rundir.CONFIG).write_text("[1, 2, 3]", encoding="utf-8")
    return rundir.CONFIG


def _retrieval_a_string(run: Path) -> str:
    rows = (run / rundir.ROWS).read_text(encoding="utf-8").splitlines()
    row = json.loads(rows[0])
    row["retrieval"] = "oops"
    row["context"] = ["not", "an", "object"]
    row["verifier"] = "text"
    (run / rundir.ROWS).write_text("\n".join([json.dumps(row), *rows[1:]]) + "\n", encoding="utf-8")
    return rundir.ROWS


def _summary_a_directory(run: Path) -> str:
    (run / rundir.SUMMARY_MD).unlink()
    (run / rundir.SUMMARY_MD).mkdir()
    return rundir.SUMMARY_MD


def _summary_not_utf8(run: Path) -> str:
    (run / rundir.SUMMARY_MD).write_bytes(b"| a |\n|---|\n| \xff\xfe\xfa |\n")
    return rundir.SUMMARY_MD


def _status_invalid(run: Path) -> str:
    (run / rundir.STATUS).write_text("{not json", encoding="utf-8")
    return rundir.STATUS


def _config_fields_wrong(run: Path) -> str:
    config = json.loads((run / rundir.CONFIG).read_text(encoding="utf-8"))
    config.update(model="a string", arms=["not an object", 3], question_ids=7, samples="many")
    (run / rundir.CONFIG).write_text(json.dumps(config), encoding="utf-8")
    return rundir.CONFIG


def _a_fifo(name: str) -> Callable[[Path], str]:
    """`name` replaced by a FIFO: opening it to read would wait for ever for a writer (the viewer must not)."""
    def damage(run: Path) -> str:
        (run / name).unlink(missing_ok=True)
        os.mkfifo(run / name)
        return name
    return damage


DAMAGE: dict[str, Callable[[Path], str]] = {
    "config a list": _config_a_list, "retrieval a string": _retrieval_a_string,
    "summary a directory": _summary_a_directory, "summary not UTF-8": _summary_not_utf8,
    "status invalid": _status_invalid, "config fields wrong": _config_fields_wrong,
    **{f"{name} a FIFO": _a_fifo(name) for name in (rundir.SUMMARY_MD, rundir.ROWS, rundir.CHUNKS, rundir.EVALUATION,
                                                      rundir.STATUS)},
}


@pytest.mark.parametrize("damage", DAMAGE, ids=str)
def test_a_damaged_run_is_a_4xx_naming_its_file_and_the_others_still_show(
        root: Path, run_dir: Path, damage: str, tmp_path: Path, run_cli: Callable[..., Result]) -> None:  # noqa: F811
    bad = copy_run(run_dir, "zz-damaged")
    name = DAMAGE[damage](bad)
    status, body = render_path(root, f"/run?path={bad.name}", no_compare)
    if status == 200:  # shown with what could be read (a row's odd field is left out, not fatal)
        assert damage == "retrieval a string", damage
    else:
        assert 400 <= status < 500 and name in body and "\n" not in body, body
    index_status, index = render_path(root, "/", no_compare)
    assert index_status == 200
    listed = {r["name"]: r for r in page_data(index)["listing"]["runs"]}
    assert set(listed) == {run_dir.name, bad.name}
    assert listed[run_dir.name]["state"] == "complete"
    out = tmp_path / "page.html"
    result = run_cli("lab", "view", bad, "--output", out)
    if result.exit_code != 0:
        assert result.exit_code == 1 and result.stderr.count("\n") == 1, result.stderr
        assert name in result.stderr and "unexpected" not in result.stderr, result.stderr
    else:
        assert damage == "retrieval a string"


def test_a_run_with_an_invalid_status_is_listed_as_damaged(root: Path, run_dir: Path) -> None:  # noqa: F811
    bad = copy_run(run_dir, "zz-damaged")
    _status_invalid(bad)
    status, index = render_path(root, "/", no_compare)
    assert status == 200
    listed = {r["name"]: r for r in page_data(index)["listing"]["runs"]}
    assert listed[bad.name]["state"] == "damaged" and rundir.STATUS in listed[bad.name]["damaged"]


@pytest.mark.parametrize("url", ["/run?path=%00", "/run?path=" + "a" * 300, "/sweep?path=%00x",
                                 "/compare?a=%00&b=" + "b" * 300, "/run?path=" + "a/" * 200, "/run?path=%ff%fe"])
def test_a_bad_path_is_a_4xx_not_a_traceback(root: Path, url: str) -> None:
    status, body = render_path(root, url, no_compare)
    assert 400 <= status < 500 and "\n" not in body


def test_compare_of_damaged_runs_is_a_4xx(root: Path, run_dir: Path) -> None:  # noqa: F811
    bad = copy_run(run_dir, "zz-damaged")
    _config_a_list(bad)
    status, body = render_path(root, f"/compare?a={run_dir.name}&b={bad.name}", no_compare)
    assert 400 <= status < 500 and rundir.CONFIG in body


# -- row 5: only the bound address -------------------------------------------------------------------------


@pytest.fixture
def server(root: Path) -> Iterator[tuple[str, int]]:
    httpd = serve.make_server(root, 0, no_compare)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield "127.0.0.1", httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def get(server: tuple[str, int], path: str, host: str | None = None) -> tuple[int, str]:
    conn = http.client.HTTPConnection(*server, timeout=10)
    try:
        conn.putrequest("GET", path, skip_host=True)
        if host is not None:
            conn.putheader("Host", host)
        conn.endheaders()
        resp = conn.getresponse()
        return resp.status, resp.read().decode("utf-8", "replace")
    finally:
        conn.close()


def test_the_server_answers_only_to_its_own_address(server: tuple[str, int], run_dir: Path) -> None:  # noqa: F811
    _, port = server
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost", "127.0.0.1"):
        status, body = get(server, "/", host)
        assert status == 200 and run_dir.name in body, host
    for host in (f"attacker.example:{port}", "attacker.example", f"127.0.0.1.attacker.example:{port}", "", None,
                 f"localhost:{port + 1 if port < 65535 else 1}"):
        status, body = get(server, f"/run?path={run_dir.name}", host)
        assert 400 <= status < 500 and run_dir.name not in body and "Host" in body, (host, status)


def test_the_server_survives_bad_requests_and_damaged_runs_without_a_traceback(
        server: tuple[str, int], run_dir: Path, capfd: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    _, port = server
    bad = copy_run(run_dir, "zz-damaged")
    _config_a_list(bad)
    for path in ["/run?path=%00", "/run?path=" + "a" * 300, f"/run?path={bad.name}", f"/compare?a={bad.name}&b=x"]:
        status, body = get(server, path, f"127.0.0.1:{port}")
        assert 400 <= status < 500 and body.count("\n") == 0, (path, status, body)
    status, index = get(server, "/", f"127.0.0.1:{port}")
    assert status == 200 and bad.name in index and run_dir.name in index
    err = capfd.readouterr().err
    assert "Traceback" not in err, err


# -- row 11: lab view's own messages -----------------------------------------------------------------------


def test_serving_a_compare_with_a_run_outside_the_root_is_one_line(
        tmp_path: Path, run_dir: Path, run_cli: Callable[..., Result]) -> None:  # noqa: F811
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    other = shutil.copytree(run_dir, elsewhere / "other-run")
    result = run_cli("lab", "view", run_dir, "--serve", "--port", "0", "--compare", other)
    assert result.exit_code != 0 and result.stderr.count("\n") == 1, result.stderr
    assert "--compare" in result.stderr and "unexpected" not in result.stderr, result.stderr


def test_a_plain_run_still_views(run_dir: Path) -> None:  # noqa: F811
    """A run directory with no links at all still views (the containment check does not refuse it)."""
    status, body = render_path(run_dir.parent, f"/run?path={run_dir.name}", no_compare)
    assert status == 200 and page_data(body)["run"]["name"] == run_dir.name
    assert not any(p.is_symlink() for p in run_dir.rglob("*"))
    assert os.path.realpath(run_dir) == str(run_dir.resolve())


# -- damaged records: one-line errors or a dead process, never an unexpected exception ----------------------


def test_an_impossible_pid_is_a_dead_process_not_an_error(root: Path, run_dir: Path) -> None:  # noqa: F811
    bad = copy_run(run_dir, "zz-running")
    status = json.loads((bad / rundir.STATUS).read_text(encoding="utf-8"))
    (bad / rundir.STATUS).write_text(json.dumps({**status, "state": "running", "pid": 10**30}), encoding="utf-8")
    sweep = make_sweep(root, {})
    record = json.loads((sweep / "sweep.json").read_text(encoding="utf-8"))
    (sweep / "sweep.json").write_text(json.dumps({**record, "state": "running", "pid": -(10**30)}), encoding="utf-8")
    assert not rundir.process_alive(10**30) and not rundir.process_alive(2**63)
    index_status, index = render_path(root, "/", no_compare)
    assert index_status == 200
    listing = page_data(index)["listing"]
    assert {r["name"]: r["state"] for r in listing["runs"]}[bad.name] == rundir.DEAD
    assert render_path(root, f"/run?path={bad.name}", no_compare)[0] == 200
    assert render_path(root, f"/sweep?path={sweep.name}", no_compare)[0] == 200
    repair = write_repair(root, {"state": "running", "pid": 10**30})
    status_code, body = render_path(root, f"/repair?path={repair.name}", no_compare)
    assert status_code == 200 and page_data(body)["repair"]["state"] == rundir.DEAD


def write_repair(root: Path, fields: dict[str, object]) -> Path:
    repair = root / "repair-x"
    repair.mkdir(exist_ok=True)
    record = {"run": "", "arm": "a", "state": "complete", "questions": [
        {"id": "q1", "verdict": "recovered", "attempts": [{"cell": "c1", "outcome": "recovered"}]}],
        "cells": [{"key": "c1", "run_dir": "cells/c1"}], "settings": [], "notes": []}
    (repair / "repair.json").write_text(json.dumps({**record, **fields}), encoding="utf-8")
    return repair


REPAIR_DAMAGE: dict[str, dict[str, object]] = {
    "questions a number": {"questions": 5}, "a question a string": {"questions": ["a"]},
    "a question without id": {"questions": [{"verdict": "recovered", "attempts": []}]},
    "attempts not objects": {"questions": [{"id": "q1", "attempts": [1]}]},
    "attempts a string": {"questions": [{"id": "q1", "attempts": "x"}]},
    "cells a number": {"cells": 7}, "a cell a string": {"cells": ["c1"]},
}


@pytest.mark.parametrize("damage", REPAIR_DAMAGE, ids=str)
def test_a_damaged_repair_record_is_a_one_line_error(root: Path, damage: str) -> None:
    from arborist.lab.viewer import load_repair_dir
    from arborist.lab.viewer.load import ViewerError

    assert load_repair_dir(write_repair(root, {}), root)["questions"]  # the undamaged record shows
    repair = write_repair(root, REPAIR_DAMAGE[damage])
    with pytest.raises(ViewerError) as caught:
        load_repair_dir(repair, root)
    assert "repair.json" in str(caught.value) and "\n" not in str(caught.value)
    status, body = render_path(root, f"/repair?path={repair.name}", no_compare)
    assert 400 <= status < 500 and "repair.json" in body and "\n" not in body, body


def test_a_row_nested_too_deep_is_an_unreadable_line(root: Path, run_dir: Path) -> None:  # noqa: F811
    bad = copy_run(run_dir, "zz-deep")
    lines = (bad / rundir.ROWS).read_text(encoding="utf-8").splitlines()
    deep = "[" * 100_000 + "]" * 100_000
    (bad / rundir.ROWS).write_text("\n".join([lines[0], deep, *lines[1:]]) + "\n", encoding="utf-8")
    rows, bad_lines = rundir.read_rows(bad / rundir.ROWS)
    assert bad_lines == [2] and len(rows) == len(lines)
    status, body = render_path(root, f"/run?path={bad.name}", no_compare)
    assert status == 200 and page_data(body)["run"]["unreadable_lines"] == [2]
    index_status, index = render_path(root, "/", no_compare)
    assert index_status == 200
    assert {r["name"]: r["rows_done"] for r in page_data(index)["listing"]["runs"]}[bad.name] == len(lines)


def _strict_json(text: str) -> object:
    def refuse(name: str) -> object:
        raise ValueError(f"{name} is not JSON")
    return json.loads(text, parse_constant=refuse)


def test_nan_and_infinity_in_a_run_embed_as_valid_json(root: Path, run_dir: Path) -> None:  # noqa: F811
    """The browser's JSON.parse refuses NaN and Infinity: the page's data must hold none (they embed as null)."""
    import re

    from arborist.lab.viewer.page import embed_json

    bad = copy_run(run_dir, "zz-nan")
    config = json.loads((bad / rundir.CONFIG).read_text(encoding="utf-8"))
    config.update(created_at=float("nan"), prompt={"temperature": float("inf")})
    (bad / rundir.CONFIG).write_text(json.dumps(config), encoding="utf-8")
    lines = (bad / rundir.ROWS).read_text(encoding="utf-8").splitlines()
    row = json.loads(lines[0])
    row["timings"] = {"total_s": float("nan"), "answer_s": float("-inf")}
    row["sample"] = 0
    row["question"] = "NaN Infinity"
    (bad / rundir.ROWS).write_text("\n".join([json.dumps(row), *lines[1:]]) + "\n", encoding="utf-8")
    assert "NaN" in (bad / rundir.ROWS).read_text(encoding="utf-8")
    status, body = render_path(root, f"/run?path={bad.name}", no_compare)
    assert status == 200
    embedded = re.findall(r'<script type="application/json" id="[^"]*">(.*?)</script>', body, re.S)
    assert len(embedded) > 1
    for text in embedded:
        _strict_json(text)
    data = _strict_json(embedded[0])
    assert isinstance(data, dict) and data["run"]["config"]["created_at"] is None
    assert _strict_json(embed_json({"a": [float("nan"), (1.5, float("inf"))], "b": "NaN"})) == {
        "a": [None, [1.5, None]], "b": "NaN"}
