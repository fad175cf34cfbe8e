"""The engine's house: how the modules of sverka.core and sverka.gui import one another.

* No import cycle among the modules of the core, counting the imports inside functions too: an
  import put inside a function to dodge a cycle is a cycle all the same. (Imports inside
  functions that keep heavy modules off the command line's cold start stay: they point down.)
  Imports under ``if TYPE_CHECKING:`` are annotations, never run, and are not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"core": "sverka.core", "gui": "sverka.gui"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    parts[0] = PACKAGES[parts[0]]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(top: str) -> dict[str, Path]:
    return {_module_name(p): p for p in sorted((ROOT / top).rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(path: Path, module: str) -> list[tuple[str, str | None, int]]:
    """``(imported module, imported name or None, line)`` for every import of the file that is
    run (at module level or inside a function), the ``if TYPE_CHECKING:`` ones left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: list[tuple[str, str | None, int]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            out.extend((a.name, None, node.lineno) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.extend((target, a.name, node.lineno) for a in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def import_graph(top: str = "core") -> dict[str, set[str]]:
    """Module -> the modules of ``top`` it imports (``from sverka.core import text`` imports
    the module sverka.core.text)."""
    modules = _modules(top)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        for target, name, _line in _imports(path, module):
            if name is not None and f"{target}.{name}" in modules:
                target = f"{target}.{name}"
            if target in modules and target != module:
                graph[module].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as the list of its modules (the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := walk(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := walk(node)):
            return found
    return None


def test_no_import_cycle_among_the_core_modules():
    graph = import_graph("core")
    assert len(graph) > 40 and graph["sverka.core.check"]  # the walk found the modules and their imports
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_no_import_cycle_in_the_window():
    cycle = find_cycle(import_graph("gui"))
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_a_cycle_is_found(tmp_path):
    """The finder finds a cycle, and an import inside a function is an edge like any other
    (an ``if TYPE_CHECKING:`` one is not)."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    module = tmp_path / "mod.py"
    module.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .check import Prepared\n"
                      "def f():\n    from . import text\n    from .store.sqlite import SQLiteStore\n", encoding="utf-8")
    seen = {(t, n) for t, n, _ in _imports(module, "sverka.core.mod")}
    assert ("sverka.core", "text") in seen and ("sverka.core.store.sqlite", "SQLiteStore") in seen
    assert ("sverka.core.check", "Prepared") not in seen
