"""The walls around the store and the faces.

* Only core/store speaks SQL: no other module of the core or the window imports a database
  driver, reaches into a store's connection or holds an SQL statement.
* core/store imports no extraction, canonization, fingerprinting or file walking, not even
  through another module: it keeps what it is given.
* The code that checks, indexes and serves the faces calls only the store protocol's operations.
* The window imports only the core's API (see :func:`test_the_window_imports_only_the_core_api`).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from sverka.core.store import STORE_METHODS

CORE = Path(__file__).resolve().parents[2] / "core"
GUI = CORE.parent / "gui"
#: What a store offers besides its methods (attributes read by callers).
STORE_ATTRIBUTES = {"settings", "path"}
#: ``index.name`` or ``self.index.name`` (not ``core.index.Index``, a module path).
CALL = r"(?:\bself\.|(?<![.\w]))index\.([a-z_]\w*)"
#: The stages a store must not sit above.
STAGES = {"extract", "text", "fingerprints", "files", "indexing", "preparing", "check", "morph"}
#: A statement of SQL in a string (upper-case keywords, as every statement of Sverka is written).
SQL = re.compile(r"\b(?:SELECT\b.+\bFROM|INSERT INTO|DELETE FROM|UPDATE \w+ SET|CREATE (?:TABLE|INDEX)|"
                 r"PRAGMA \w+|BEGIN IMMEDIATE|COPY \w+)\b", re.S)
#: What the window may import from sverka.core: the API, and modules of plain data (frozen
#: dataclasses, messages and their wording, settings with their labels, errors, the progress
#: and cancel types) that the API's calls take and return. Everything else the window needs
#: (the history of results, saved preferences, report colours, tampered words, word counts,
#: writing a class's reports) is offered by sverka.core.api.
GUI_MAY_IMPORT = {"api", "results", "messages", "settings", "errors", "progress", "document"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            out.add(base)
            out.update(f"{base}.{a.name}" if node.module else f"{base}{a.name}" for a in node.names)
    return out


def _outside_the_store() -> list[Path]:
    core = [p for p in sorted(CORE.rglob("*.py")) if p.relative_to(CORE).parts[0] != "store"]
    return core + sorted(GUI.rglob("*.py"))


def test_core_store_imports_no_stage():
    for path in sorted((CORE / "store").glob("*.py")):
        for name in _imports(path):
            parts = re.split(r"\.+", name.strip("."))
            assert not STAGES & set(parts), f"core/store/{path.name} imports {name}"


def test_opening_either_store_loads_no_stage():
    """The same wall, transitively: importing both stores loads none of the stages."""
    probe = ("import sys\nimport sverka.core.store.sqlite, sverka.core.store.postgres, sverka.core.store.history\n"
             "print(' '.join(sorted(m for m in sys.modules if m.startswith('sverka.'))))\n")
    loaded = set(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                                timeout=120).stdout.split())
    assert "sverka.core.store.sqlite" in loaded  # the probe ran
    assert not {f"sverka.core.{s}" for s in STAGES} & loaded, sorted(loaded)


def test_only_the_store_speaks_sql():
    for path in _outside_the_store():
        rel = path.relative_to(CORE.parent)
        names = _imports(path)
        assert not any(n.split(".")[0] in ("sqlite3", "psycopg") for n in names), f"{rel} imports a database driver"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                assert node.attr not in ("_db", "_conn", "_cursor", "_write", "transaction") or \
                    rel.name == "workers.py" and node.attr == "_conn", f"{rel}:{node.lineno} reaches into a store"
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert not SQL.search(node.value), f"{rel}:{node.lineno} holds SQL: {node.value[:60]!r}"


def test_the_walls_see_sql_where_it_is():
    """The patterns above find what they forbid (a wall that cannot fail guards nothing)."""
    sqlite = (CORE / "store" / "sqlite.py").read_text(encoding="utf-8")
    postgres = (CORE / "store" / "postgres.py").read_text(encoding="utf-8")
    assert "sqlite3" in {n.split(".")[0] for n in _imports(CORE / "store" / "sqlite.py")}
    assert SQL.search(sqlite) and SQL.search(postgres) and "._db." in sqlite


def test_callers_use_only_the_store_protocol():
    """Every ``index.X`` that checking, batch checking, the API and the add pipeline use is an
    operation of the protocol, so both stores serve them."""
    allowed = set(STORE_METHODS) | STORE_ATTRIBUTES
    used: dict[str, set[str]] = {}
    for name in ("check.py", "candidates.py", "crosscheck.py", "batch.py", "api.py", "indexing.py", "rebuild.py"):
        text = (CORE / name).read_text(encoding="utf-8")
        used[name] = set(re.findall(CALL, text))
    assert used["check.py"] and used["candidates.py"] and used["api.py"] and used["indexing.py"]  # the pattern finds the calls at all
    for where, names in used.items():
        assert names <= allowed, f"{where} calls {sorted(names - allowed)} outside the store protocol"


def test_the_window_imports_only_the_core_api():
    """The window (gui/) imports from sverka.core only the API and plain data.

    The API is :mod:`sverka.core.api`: opening a collection, adding, checking, comparing,
    cross-checking, rebuilding, and the few services a face needs beside them (the history of
    results, saved preferences, report colours, tampered words, word counts, writing a class's
    reports). Plain data are the modules whose values the API takes and gives
    (:data:`GUI_MAY_IMPORT`): results, messages, settings, errors, progress, document; they
    import nothing of the core but one another, which is checked too.
    """
    seen = set()
    for path in sorted(GUI.rglob("*.py")):
        for name in _imports(path):
            if not name.startswith("sverka.core"):
                continue
            parts = name.split(".")
            if len(parts) == 2:  # "sverka.core" of "from sverka.core import api"
                continue
            seen.add(parts[2])
            assert parts[2] in GUI_MAY_IMPORT, f"gui/{path.relative_to(GUI)} imports {name}: use sverka.core.api"
    assert "api" in seen  # the window does use the API
    for module in GUI_MAY_IMPORT - {"api"}:
        for name in _imports(CORE / f"{module}.py"):
            if name.startswith("."):
                inner = name.lstrip(".").split(".")[0]
                assert inner in GUI_MAY_IMPORT | {""}, f"core/{module}.py (plain data) imports .{inner}"
            else:
                assert name.split(".")[0] not in ("PySide6", "sqlite3", "psycopg", "numpy"), \
                    f"core/{module}.py (plain data) imports {name}"
