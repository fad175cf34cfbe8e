"""The engine's house: how the modules of sverka.core and sverka.gui import one another.

* The layers contract (``.importlinter``: the core's layers, its plain data below them all,
  no face imported by the core, the window through the API only) holds: ``lint-imports``.
* No import cycle among the modules of the core, counting the imports inside functions too: an
  import put inside a function to dodge a cycle is a cycle all the same. (Imports inside
  functions that keep heavy modules off the command line's cold start stay: they point down.)
  Imports under ``if TYPE_CHECKING:`` are annotations, never run, and are not counted.
* No private name (a leading underscore) of one module used by another in core/ or gui/, neither
  imported (``from .x import _y``) nor reached through the module (``x._y``): what modules
  share is a public name of the module it belongs to. (The tests may touch internals.) The
  compiled engine's module ``sverka._engine`` is private by name so that one module alone,
  core/engine.py, wraps it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
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
    out: list[tuple[str, str | None, int]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            out.extend((a.name, None, node.lineno) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            out.extend(_imports_of(node, path, module))
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


#: (importing module, the private name it may import): the compiled engine's module, private by
#: name so that core/engine.py alone wraps it.
PRIVATE_ALLOWED = {("sverka.core.engine", "sverka._engine")}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_uses(path: Path, module: str, modules: set[str]) -> list[str]:
    """Each private name of another Sverka module that ``path`` imports or reaches through a module."""
    found = []
    bound: dict[str, str] = {}  # local name -> the Sverka module it names
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for (target, name, line), alias in zip(_imports_of(node, path, module), node.names):
                if not target.startswith("sverka"):
                    continue
                full = f"{target}.{name}"
                if _private(name) and (module, full) not in PRIVATE_ALLOWED:
                    found.append(f"{line}: from {target} import {name}")
                if full in modules:
                    bound[alias.asname or name] = full
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("sverka.") and alias.asname:
                    bound[alias.asname] = alias.name
                if any(_private(part) for part in alias.name.split(".")):
                    found.append(f"{node.lineno}: import {alias.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound \
                and _private(node.attr) and bound[node.value.id] != module:
            found.append(f"{node.lineno}: {node.value.id}.{node.attr} ({bound[node.value.id]})")
    return found


def _imports_of(node: ast.ImportFrom, path: Path, module: str) -> list[tuple[str, str, int]]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    if node.level:
        base = package.split(".")
        base = base[:len(base) - node.level + 1]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    return [(target, a.name, node.lineno) for a in node.names]


def test_no_private_name_crosses_modules():
    modules = set(_modules("core")) | set(_modules("gui"))
    bad = []
    for top in ("core", "gui"):
        for module, path in _modules(top).items():
            bad += [f"{path.relative_to(ROOT)}:{use}" for use in private_uses(path, module, modules)]
    assert not bad, "private names used across modules:\n" + "\n".join(bad)


def test_a_private_name_across_modules_is_seen(tmp_path):
    module = tmp_path / "mod.py"
    module.write_text("from .store.sqlite import _damage\nfrom . import check\nfrom .store import common as c\n"
                      "from . import __version__\nx = check._common_folder\ny = c.READ + c._KEYS\n", encoding="utf-8")
    modules = {"sverka.core.check", "sverka.core.store.common", "sverka.core.store.sqlite", "sverka.core.mod"}
    uses = private_uses(module, "sverka.core.mod", modules)
    assert [u.split(": ", 1)[1] for u in uses] == [
        "from sverka.core.store.sqlite import _damage", "check._common_folder (sverka.core.check)",
        "c._KEYS (sverka.core.store.common)"]


LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint_imports(config: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", str(config)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def test_the_layers_contract_holds():
    assert LINT_IMPORTS.exists(), "import-linter is missing: pip install -e '.[test]'"
    run = _lint_imports(ROOT / ".importlinter")
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout and "kept" in run.stdout


def test_a_broken_layer_is_reported(tmp_path):
    """The same contract with two layers swapped (check over the API) fails: lint-imports sees
    what the contract forbids."""
    config = (ROOT / ".importlinter").read_text(encoding="utf-8")
    swapped = config.replace("    api\n    batch\n", "    batch\n    api\n", 1)
    assert swapped != config
    (tmp_path / "swapped.ini").write_text(swapped, encoding="utf-8")
    run = _lint_imports(tmp_path / "swapped.ini")
    assert run.returncode != 0 and "sverka.core.api -> sverka.core.batch" in run.stdout, run.stdout[-4000:]
