"""Progress off a terminal: a line when a phase starts, at least every 30 s while it runs (also when nothing
advances), and when it ends -- checked with an injected clock, never wall time -- and the lab's long
commands report through it, `--json` or not."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from arborist.lab.sentinels.facts import demo_facts_path
from arborist.progress import Reporter
from test_lab import inputs  # noqa: F401  (a fixture)
from test_sentinels import demo_db, sentinel_db  # noqa: F401  (fixtures)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def lines(stream: io.StringIO) -> list[str]:
    return stream.getvalue().splitlines()


def test_off_a_terminal_a_phase_prints_at_start_every_30_s_and_at_the_end() -> None:
    clock, out = Clock(), io.StringIO()
    reporter = Reporter(out, terminal=False, clock=clock, heartbeat=None)
    phase = reporter.phase("answering", 40)
    assert lines(out) == ["answering: started, 0/40"]
    clock.now += 10
    phase.advance(note="calls 1")
    clock.now += 10
    phase.advance(note="calls 2")
    assert len(lines(out)) == 1  # 20 s in: nothing yet
    clock.now += 10
    phase.advance(note="calls 3")  # 30 s: a line, with rate and ETA
    assert lines(out)[-1] == "answering: 3/40 · 6.0/min · ETA 6m10s · 30s elapsed · calls 3"
    clock.now += 95  # a slow row: nothing advances, the heartbeat's poll still prints
    reporter.poll()
    assert lines(out)[-1] == "answering: 3/40 · 1.4/min · ETA 25m42s · 2m05s elapsed · calls 3"
    clock.now += 5
    reporter.poll()  # 5 s after the last line: nothing
    assert len(lines(out)) == 3
    phase.advance(37)
    phase.close()
    assert lines(out)[-1] == "answering: 40/40 · finished in 2m10s · calls 3"
    reporter.close()
    assert len(lines(out)) == 4


def test_a_continued_phase_counts_its_rate_from_where_it_started() -> None:
    clock, out = Clock(), io.StringIO()
    reporter = Reporter(out, terminal=False, clock=clock, heartbeat=None)
    phase = reporter.phase("answering", 10, done=6)
    assert lines(out) == ["answering: started, 6/10"]
    clock.now += 30
    reporter.poll()
    assert lines(out)[-1] == "answering: 6/10 · rate ? · ETA ? · 30s elapsed"
    clock.now += 30
    phase.advance()
    assert lines(out)[-1] == "answering: 7/10 · 1.0/min · ETA 3m00s · 1m00s elapsed"


def test_an_ingest_callback_shows_each_step_as_its_own_phase() -> None:
    clock, out = Clock(), io.StringIO()
    report = Reporter(out, terminal=False, clock=clock, heartbeat=None).callback("preparing")
    report("chunking", 2, 3)
    report("chunking", 1, 3)
    report("embedding", 5, 5)
    assert lines(out) == ["preparing: chunking: started, 0/3", "preparing: chunking: 3/3 · finished in 0s",
                          "preparing: embedding: started, 0/5", "preparing: embedding: 5/5 · finished in 0s"]


def test_a_run_under_json_reports_preparation_and_rows_on_stderr(
    tmp_path: Path, inputs: tuple[Path, Path], run_cli: Callable[..., Result],  # noqa: F811
) -> None:
    result = run_cli("lab", "run", "--corpus", inputs[0], "--evaluation", inputs[1],
                     "--out", tmp_path / "runs", "--model", "scripted", "--routes", "bm25",
                     "--cache-directory", tmp_path / "c", "--json")
    assert json.loads(result.stdout)["run_dir"]  # stdout stays one JSON document
    err = result.stderr.splitlines()
    assert "preparing the index (chunks of 1200 runes): chunking: started, 0/5" in err
    assert "answering: started, 0/4" in err
    assert any(line.startswith("answering: 4/4 · finished in") for line in err), err


def test_a_sentinel_ladder_under_json_reports_progress_on_stderr(
    sentinel_db: Path, tmp_path: Path, run_cli: Callable[..., Result],  # noqa: F811
) -> None:
    result = run_cli("lab", "sentinel-run", "--db", sentinel_db, "--facts", str(demo_facts_path()), "--out",
                     tmp_path / "ladders", "--model", "scripted", "--routes", "bm25,title",
                     "--history", tmp_path / "h.jsonl", "--json")
    assert result.exit_code == 0, result.stderr
    assert "ladder answers: started, 0/11" in result.stderr.splitlines()
    assert any(line.startswith("ladder answers: 11/11 · finished in") for line in result.stderr.splitlines())
