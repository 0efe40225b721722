"""Dependencies point one way (DESIGN §1): read every module's imports and check the package graph.

A package is a direct child of `arborist` (a sub-package, or a top-level module).
Four facts: the graph of packages has no cycle (no two packages reach each
other), nothing but the CLI imports the lab, the corpus layer imports
nothing above it, and the guards the verifier consults import nothing but the
leaves below them (never the verifier, the lab, the CLI, providers or a store).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "arborist"
# What the corpus layer may import: the leaves that sit under every layer.
BELOW_CORPUS = frozenset({"errors"})
# What the guards (`arborist.guards`) may import: the shared text rules; the verifier imports them, not they it.
BELOW_GUARDS = frozenset({"errors", "text"})


def _package(path: Path, src: Path) -> str:
    rel = path.relative_to(src)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _imported(path: Path) -> Iterator[tuple[str, int]]:
    """(arborist package imported, line) for every import in the module, function-level ones included."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [f"{node.module}.{a.name}" for a in node.names] if node.module == "arborist" else [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "arborist" and len(parts) > 1:
                yield parts[1], node.lineno


def package_graph(src: Path = SRC) -> dict[str, dict[str, list[str]]]:
    """package -> imported package -> ['module.py:line', ...] (imports of itself left out)."""
    graph: dict[str, dict[str, list[str]]] = {}
    for path in sorted(src.rglob("*.py")):
        pkg = _package(path, src)
        edges = graph.setdefault(pkg, {})
        for target, line in _imported(path):
            if target != pkg:
                edges.setdefault(target, []).append(f"{path.relative_to(src)}:{line}")
    return graph


def cycles(graph: dict[str, dict[str, list[str]]]) -> list[list[str]]:
    """The strongly connected groups of more than one package (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _where(graph: dict[str, dict[str, list[str]]], group: list[str]) -> str:
    return "; ".join(f"{a} -> {b} ({graph[a][b][0]})" for a in group for b in group if b in graph.get(a, {}))


@pytest.fixture(scope="module")
def graph() -> dict[str, dict[str, list[str]]]:
    return package_graph()


def test_no_two_packages_import_each_other(graph: dict[str, dict[str, list[str]]]) -> None:
    assert not (found := cycles(graph)), "package cycles: " + " | ".join(_where(graph, g) for g in found)


def test_nothing_but_the_cli_imports_the_lab(graph: dict[str, dict[str, list[str]]]) -> None:
    importers = {pkg: edges["lab"] for pkg, edges in graph.items() if "lab" in edges and pkg != "cli"}
    assert not importers


def test_nothing_below_the_cli_imports_it(graph: dict[str, dict[str, list[str]]]) -> None:
    assert not {pkg: edges["cli"] for pkg, edges in graph.items() if "cli" in edges and pkg not in ("cli", "__main__")}


def test_the_corpus_layer_imports_nothing_above_it(graph: dict[str, dict[str, list[str]]]) -> None:
    assert not {t: where for t, where in graph["corpus"].items() if t not in BELOW_CORPUS}


def test_the_guards_import_only_the_leaves_below_them(graph: dict[str, dict[str, list[str]]]) -> None:
    assert set(graph["verify"]) >= {"guards"}  # the verifier consults them
    assert not {t: where for t, where in graph["guards"].items() if t not in BELOW_GUARDS}


def test_the_cycle_finder_names_a_cycle(tmp_path: Path) -> None:
    # The check itself can fail: a two-package and a three-package loop are both found.
    for name, body in {"a/x.py": "from arborist.b import y\n", "b/y.py": "import arborist.a.x\n",
                       "c/z.py": "from arborist import d\n", "d/__init__.py": "from arborist.e.w import v\n",
                       "e/w.py": "def f():\n    from arborist.c import z\n", "f.py": "import arborist.a\n"}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(body)
    assert sorted(cycles(package_graph(tmp_path))) == [["a", "b"], ["c", "d", "e"]]


# Issue 33: a verifier package a newcomer reads in an hour; `verify/polarity.py` had grown to 2,342 lines.
MAX_VERIFY_MODULE_LINES = 1000


def test_no_verifier_module_is_over_a_thousand_lines() -> None:
    long = {p.name: n for p in sorted((SRC / "verify").rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_VERIFY_MODULE_LINES}
    assert not long, f"modules of arborist.verify over {MAX_VERIFY_MODULE_LINES} lines: {long}"


def modules_importing(top: str, src: Path = SRC) -> list[str]:
    """Modules with an import of the third-party package `top` anywhere in them (function-level ones too)."""
    found = []
    for path in sorted(src.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else []
            if any(n == top or n.startswith(top + ".") for n in names):
                found.append(str(path.relative_to(src)))
                break
    return found


def test_only_the_ray_executor_imports_ray() -> None:
    """Ray is an optional extra: one module imports it, and only the CLI imports that module, when asked to."""
    assert modules_importing("ray") == ["lab/ray_executor.py"]
    lazy = [str(p.relative_to(SRC)) for p in SRC.rglob("*.py") if "lab.ray_executor import" in p.read_text()]
    assert lazy == ["cli/lab_cmd.py"]
