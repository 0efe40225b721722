"""Finding the Ray worker processes a test (or bench) started, to SIGKILL one mid-task: by their process title
(`ray::<task>` while a task runs) among this process's own descendants, never another session's."""

from __future__ import annotations

import os
from pathlib import Path


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def ray_workers_of_this_process(task: str = "generate") -> list[int]:
    """Pids of Ray workers running `task` that descend from this process (never another session's)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().split(b"\0", 1)[0]
        except OSError:
            continue
        if title != f"ray::{task}".encode():
            continue
        pid = ancestor = int(entry.name)
        while ancestor > 1 and ancestor != os.getpid():
            ancestor = _parent(ancestor)
        if ancestor == os.getpid():
            found.append(pid)
    return found
