"""One CLI shape (issue 36): product commands at the top, the lab under one group, no group with a single child,
nothing deeper than two words, and no flag with two meanings across commands."""

from __future__ import annotations

import json
from collections import defaultdict

import click

from arborist.cli import cli
from cli_walk import walk

PRODUCT = {"ingest", "search", "info", "query", "ask", "verify", "audit", "models"}


def test_the_top_level_is_the_product_and_one_lab_group() -> None:
    top = {path[0] for path, _ in walk() if len(path) == 1}
    assert top == PRODUCT | {"lab"}


def test_no_group_has_a_single_child_and_no_command_is_deeper_than_two_words() -> None:
    commands = walk()
    for path, command in commands:
        assert len(path) <= 2, " ".join(path)
        if isinstance(command, click.Group):
            children = command.list_commands(click.Context(command))
            assert len(children) > 1, f"`arborist {' '.join(path)}` has one child: {children}"


def _meaning(param: click.Option) -> str:
    """What a flag means to a user: its help, its type, and whether it is a switch or takes values."""
    return json.dumps({"help": param.help, "type": param.type.to_info_dict(), "flag": param.is_flag,
                       "multiple": param.multiple, "nargs": param.nargs}, sort_keys=True, default=str)


def meanings(root: click.Group = cli) -> dict[str, dict[str, list[str]]]:
    """flag -> {meaning -> the commands where the flag has it}."""
    found: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for path, command in [((), root), *walk(root)]:
        for param in command.get_params(click.Context(command)):
            if isinstance(param, click.Option):
                for flag in (*param.opts, *param.secondary_opts):
                    found[flag][_meaning(param)].append(" ".join(("arborist", *path)))
    return found


def clashes(root: click.Group = cli) -> dict[str, dict[str, list[str]]]:
    return {flag: dict(by) for flag, by in meanings(root).items() if len(by) > 1}


def test_no_flag_has_two_meanings() -> None:
    assert clashes() == {}


def test_the_walk_sees_the_shared_flags_everywhere() -> None:
    """The check above is only worth something if it sees the commands: --db is in the store commands and the
    lab's, --out in the lab's writers, and the old clashes (--k as a cutoff, --seed as a bootstrap seed) are gone."""
    found = meanings()
    db = {c for cmds in found["--db"].values() for c in cmds}
    assert {"arborist search", "arborist query", "arborist ask", "arborist info", "arborist audit log",
            "arborist lab sentinel-run", "arborist lab eval-retrieval", "arborist lab layout-bench"} <= db
    out = {c for cmds in found["--out"].values() for c in cmds}
    assert {"arborist lab run", "arborist lab sweep", "arborist lab import-dataset", "arborist lab sentinel-run",
            "arborist lab layout-bench"} <= out
    assert {c for cmds in found["--k"].values() for c in cmds} == {"arborist search"}
    assert "arborist lab compare" not in {c for cmds in found["--seed"].values() for c in cmds}


def test_a_flag_with_two_meanings_is_found() -> None:
    """The checker fails on the shape issue 36 reported: --k a result count in one command, a cutoff in another."""
    root = click.Group("root")
    sub = click.Group("sub")
    root.add_command(sub)

    @root.command("a")
    @click.option("--k", type=int, help="Results to return.")
    def a(k: int) -> None: ...

    @sub.command("b")
    @click.option("--k", type=int, help="Metric cutoff.")
    def b(k: int) -> None: ...

    assert set(clashes(root)) == {"--k"}
    assert sorted(c for cmds in clashes(root)["--k"].values() for c in cmds) == ["arborist a", "arborist sub b"]
