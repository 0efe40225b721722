"""Progress of long phases, one reporter for all of them: a rich bar on a terminal, lines in a log.

Every phase that can take more than a few seconds (preparing indexes and
embeddings, answering rows, judging, sentinel ladders, benches) reports
through a `Reporter`. On a terminal it draws a rich progress bar. Off a
terminal (a log, a pipe, CI, `--json` runs whose stdout is a file) it writes
lines on stderr:

    answering: 12/40 · 1.4/min · ETA 20m · 8m34s elapsed · cache hits 3 · calls 9

one when a phase starts, then whenever `every` seconds (30 by default) have
passed since the phase's last line -- on an advance, or from a heartbeat
thread when nothing advances (one answer of a local model can take
minutes) -- and one when it ends. Nothing is printed more often, so a
fast phase costs a line at each end.

The clock is a parameter (`time.monotonic` by default), so what is printed
when can be tested without waiting.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

Clock = Callable[[], float]
EVERY_S = 30.0  # at most this long between two lines of a phase off a terminal
HEARTBEAT_S = 1.0  # how often the heartbeat thread looks for a phase that is due


def _duration(seconds: float) -> str:
    s = round(seconds)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{(s % 3600) // 60:02d}m"


class Phase:
    """One long phase: `advance` as work finishes, `close` (or leave the `with` block) when it ends."""

    def __init__(self, reporter: Reporter, label: str, total: int | None, done: int) -> None:
        self.reporter, self.label, self.total = reporter, label, total
        self.done = self.start_done = done
        self.note = ""
        self.started = self.last_line = reporter.clock()
        self.closed = False
        self.task: TaskID | None = None

    def advance(self, n: int = 1, note: str | None = None) -> None:
        self.reporter._advance(self, n, note)

    def close(self) -> None:
        self.reporter._close(self)

    def __enter__(self) -> Phase:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def line(self, now: float, final: bool = False) -> str:
        """done/total · rate · ETA · elapsed · note, as of `now`."""
        elapsed = now - self.started
        moved = self.done - self.start_done
        parts = [f"{self.label}: {self.done}/{self.total}" if self.total is not None else f"{self.label}: {self.done}"]
        if final:
            parts.append(f"finished in {_duration(elapsed)}")
        else:
            rate = moved / elapsed if elapsed > 0 else 0.0
            parts.append("rate ?" if moved == 0 else (f"{rate:.1f}/s" if rate >= 1 else f"{rate * 60:.1f}/min"))
            if self.total is not None:
                left = self.total - self.done
                parts.append("ETA ?" if moved == 0 else f"ETA {_duration(left / rate)}" if rate > 0 else "ETA ?")
            parts.append(f"{_duration(elapsed)} elapsed")
        if self.note:
            parts.append(self.note)
        return " · ".join(parts)


class Reporter:
    """Opens phases and shows them: a rich bar when `terminal`, else lines on `stream` at least every `every` s.

    `terminal` defaults to whether stderr is a terminal; `heartbeat` is how often a background thread
    looks for a phase that is due a line (None: only advances print, as in tests with their own clock).
    """

    def __init__(self, stream: TextIO | None = None, *, terminal: bool | None = None, clock: Clock = time.monotonic,
                 every: float = EVERY_S, heartbeat: float | None = HEARTBEAT_S) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.console = Console(file=self.stream)
        self.terminal = self.console.is_terminal if terminal is None else terminal
        self.clock, self.every, self.heartbeat = clock, every, heartbeat
        self._lock = threading.RLock()
        self._phases: list[Phase] = []
        self._bar: Progress | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- phases --------------------------------------------------------------

    def phase(self, label: str, total: int | None, done: int = 0) -> Phase:
        """A new phase, shown at once."""
        with self._lock:
            p = Phase(self, label, total, done)
            self._phases.append(p)
            if self.terminal:
                if self._bar is None:
                    self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                         TextColumn("{task.fields[note]}"), TimeRemainingColumn(),
                                         console=self.console, transient=True)
                    self._bar.start()
                p.task = self._bar.add_task(label, total=total, completed=done, note="")
            else:
                self._write(f"{label}: started" + (f", {done}/{total}" if total is not None else ""))
                self._start_heartbeat()
            return p

    def callback(self, label: str) -> Callable[[str, int, int], None]:
        """An `(step, advance, total)` callback (as `ingest` takes) that shows each step as a phase of `label`."""
        current: dict[str, Phase] = {}

        def report(step: str, advance: int, total: int) -> None:
            phase = current.get(step)
            if phase is None:
                for old in current.values():
                    old.close()
                phase = current[step] = self.phase(f"{label}: {step}", total)
            phase.advance(advance)
            if phase.total is not None and phase.done >= phase.total:
                phase.close()

        return report

    def poll(self) -> None:
        """Write a line for every open phase that has had none for `every` seconds (off a terminal)."""
        if self.terminal:
            return
        with self._lock:
            now = self.clock()
            for p in self._phases:
                if now - p.last_line >= self.every:
                    self._line(p, now)

    def close(self) -> None:
        """End every open phase and stop the bar and the heartbeat."""
        for p in list(self._phases):
            p.close()
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __enter__(self) -> Reporter:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    # -- inside ----------------------------------------------------------------

    def _advance(self, p: Phase, n: int, note: str | None) -> None:
        with self._lock:
            if p.closed:
                return
            p.done += n
            if note is not None:
                p.note = note
            if self._bar is not None and p.task is not None:
                self._bar.update(p.task, advance=n, note=p.note)
            elif not self.terminal and self.clock() - p.last_line >= self.every:
                self._line(p, self.clock())

    def _close(self, p: Phase) -> None:
        with self._lock:
            if p.closed:
                return
            p.closed = True
            self._phases.remove(p)
            if self._bar is not None and p.task is not None:
                self._bar.remove_task(p.task)
            elif not self.terminal:
                self._write(p.line(self.clock(), final=True))

    def _line(self, p: Phase, now: float) -> None:
        p.last_line = now
        self._write(p.line(now))

    def _write(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()

    def _start_heartbeat(self) -> None:
        if self.heartbeat is None or self._thread is not None:
            return
        self._stop.clear()
        beat = self.heartbeat

        def run() -> None:
            while not self._stop.wait(beat):
                self.poll()

        self._thread = threading.Thread(target=run, name="arborist-progress", daemon=True)
        self._thread.start()
