"""Every command of the README's tour runs (issue 36): the tour is parsed from README.md and each command is run
in a temporary folder that sees the repository's `src/` and `docs/`, in order, as a new user would type them.

The answer model is the scripted provider with answers queued (`--model scripted`), and verification uses the
rules alone (`--entailment none`), so this runs without weights; `test_the_tour_runs_verbatim` runs it exactly
as written, with the local model (marked `model`).
"""

from __future__ import annotations

import glob
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arborist.cli import answer_options, cli
from arborist.models.scripted import ScriptedProvider

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
ABSTAIN = json.dumps({"claims": [], "abstained_requests": ["The evidence does not answer this question."]})


def tour() -> list[list[str]]:
    """The tour's commands, as argument lists (comments dropped, globs not yet expanded)."""
    block = README.split("## Tour", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    return [shlex.split(line, comments=True) for line in block.strip().splitlines() if line.strip()]


def scripted(args: list[str]) -> list[str]:
    """`args` with the scripted model where the command calls one, and the rules-only verifier."""
    words = args[1:3]
    extra: list[str] = []
    if words[0] in {"query", "ask"} or words == ["lab", "layout-bench"]:
        extra += ["--model", "scripted"]
    if words[0] in {"query", "ask", "verify"}:
        extra += ["--entailment", "none"]
    return [*args, *extra]


def expand(args: list[str]) -> list[str]:
    """Shell globs expanded as the shell would (a pattern with no match stays as it is)."""
    out: list[str] = []
    for a in args:
        out.extend(sorted(glob.glob(a)) or [a] if any(c in a for c in "*?[") else [a])
    return out


@pytest.fixture
def tour_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("src", "docs"):
        (tmp_path / name).symlink_to(REPO / name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ARBORIST_DEBUG", raising=False)
    return tmp_path


def test_the_tour_is_ten_commands_of_the_cli() -> None:
    commands = tour()
    assert len(commands) == 10 and all(c[0] == "arborist" for c in commands)
    assert {c[1] for c in commands} >= {"ingest", "search", "query", "ask", "verify", "audit", "lab"}


def test_every_tour_command_runs(tour_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = answer_options.make_provider

    def provider(model: str | None, **kwargs: Any) -> Any:
        return ScriptedProvider(*[ABSTAIN] * 20) if model == "scripted" else real(model, **kwargs)

    monkeypatch.setattr(answer_options, "make_provider", provider)
    monkeypatch.setenv("ARBORIST_CACHE", str(tour_dir / "cache"))  # the lab's indexes and answer cache
    runner = CliRunner()
    for args in tour():
        argv = expand(scripted(args))
        result = runner.invoke(cli, argv[1:], catch_exceptions=True)
        assert result.exit_code == 0, f"{shlex.join(argv)}\n{result.stdout[-1500:]}\n{result.stderr[-1500:]}"
    assert (tour_dir / "bench.html").is_file() and (tour_dir / "demo.db").is_file()


@pytest.mark.model
def test_the_tour_runs_verbatim(tour_dir: Path) -> None:
    """The tour exactly as written, through a shell, with the default local model and judge."""
    from arborist.entailment.factory import DEFAULT_JUDGE_PROFILE
    from arborist.models import profiles

    missing = [name for name in (profiles.DEFAULT_PROFILE, DEFAULT_JUDGE_PROFILE)
               if profiles.status(profiles.get_profile(name)) != "ready"]
    if missing:
        message = f"not prepared: {', '.join(missing)} (`arborist models prepare NAME`)"
        if os.environ.get("ARBORIST_REQUIRE_MODELS", "") not in {"", "0"}:
            pytest.fail(message)
        pytest.skip(message)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for args in tour():
        done = subprocess.run(["bash", "-c", shlex.join(args[:1]) + " " + " ".join(
            a if "*" in a and not any(c.isspace() for c in a) else shlex.quote(a) for a in args[1:])],
            cwd=tour_dir, env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, f"{shlex.join(args)}\n{done.stderr[-1500:]}"
