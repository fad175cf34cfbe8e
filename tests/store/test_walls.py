"""The walls around the store: the code that checks, indexes and serves the faces calls only
the store protocol's operations, only the store modules speak SQL, and core/store imports no
extraction, canonization or fingerprinting."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from sverka.core.store import STORE_METHODS

CORE = Path(__file__).resolve().parents[2] / "core"
#: The modules that speak SQL today. core/index.py is the SQLite store until it moves into
#: core/store/sqlite.py; core/rebuild.py reads an old collection file (SQLite only).
SQL_MODULES = {"index.py", "rebuild.py"}
#: What a store offers besides its methods (attributes read by callers).
STORE_ATTRIBUTES = {"settings", "path"}
#: ``index.name`` or ``self.index.name`` (not ``core.index.Index``, a module path).
CALL = r"(?:\bself\.|(?<![.\w]))index\.([a-z_]\w*)"


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


def test_core_store_imports_no_extraction_canonization_or_fingerprints():
    for path in sorted((CORE / "store").glob("*.py")):
        for name in _imports(path):
            parts = re.split(r"\.+", name.strip("."))
            assert not {"extract", "text", "fingerprints"} & set(parts), f"{path.name} imports {name}"


def test_only_the_stores_speak_sql():
    for path in sorted(CORE.rglob("*.py")):
        rel = path.relative_to(CORE)
        if rel.parts[0] == "store" or str(rel) in SQL_MODULES:
            continue
        names = _imports(path)
        assert not any(n.split(".")[0] in ("sqlite3", "psycopg") for n in names), f"core/{rel} speaks SQL"
    for path in sorted((CORE.parent / "gui").rglob("*.py")):
        assert not any(n.split(".")[0] in ("sqlite3", "psycopg") for n in _imports(path)), path.name


def test_callers_use_only_the_store_protocol():
    """Every ``index.X`` that checking, batch checking, the API and the add pipeline use is an
    operation of the protocol, so both stores serve them."""
    allowed = set(STORE_METHODS) | STORE_ATTRIBUTES | {"_sverka_kept"}  # check.py's cache rides on the store
    used: dict[str, set[str]] = {}
    for name in ("check.py", "batch.py", "api.py"):
        text = (CORE / name).read_text(encoding="utf-8")
        used[name] = set(re.findall(CALL, text))
    for path in sorted(CORE.glob("*.py")):  # the add pipeline, wherever it lives
        text = path.read_text(encoding="utf-8")
        if "\ndef add_paths(" in text:
            pipeline = text[text.index("\ndef add_paths("):]  # add_paths and what follows it
            used[f"{path.name} (add pipeline)"] = set(re.findall(CALL, pipeline))
    assert any("add pipeline" in k for k in used)
    assert used["check.py"] and used["api.py"]  # the pattern finds the calls at all
    for where, names in used.items():
        assert names <= allowed, f"{where} calls {sorted(names - allowed)} outside the store protocol"
