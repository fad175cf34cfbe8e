"""The package installs as one namespace, and the core knows no screen."""

from __future__ import annotations

import ast
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]


def test_core_never_imports_qt():
    offenders = []
    for path in sorted((PROJECT / "core").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for n in names:
                if n.split(".")[0] in {"PySide6", "PyQt5", "PyQt6", "shiboken6"}:
                    offenders.append(f"{path.relative_to(PROJECT)}: {n}")
    assert offenders == []


def test_importing_the_core_api_loads_no_qt():
    code = "import sys, sverka.core.api, sverka.core.cli; print(any(m.startswith('PySide6') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.slow
def test_wheel_installs_one_namespace(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(PROJECT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("sverka-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith((".dist-info", ".data"))}
    assert tops == {"sverka"}
    for pkg in ("sverka/core/__init__.py", "sverka/gui/__init__.py", "sverka/resources/__init__.py",
                "sverka/core/extract/__init__.py"):
        assert pkg in names
    assert not any(n.startswith("sverka/__init__.py") for n in names)


@pytest.mark.slow
def test_engine_wheel_adds_one_module_to_the_namespace(tmp_path):
    """The compiled engine's wheel (engine/python, maturin) holds sverka/_engine and its stub,
    and no sverka/__init__.py that would hide the editable sverka.core and sverka.gui."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(PROJECT / "engine" / "python")],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("sverka_engine-*.whl")
    names = [n for n in zipfile.ZipFile(wheel).namelist() if not n.split("/")[0].endswith(".dist-info")]
    assert sorted(names) == ["sverka/_engine.abi3.so", "sverka/_engine.pyi"]


def test_engine_and_core_share_the_namespace():
    code = ("import sverka, sverka.core, sverka._engine, sverka.core.engine as e; "
            "print(e.native is sverka._engine, len(list(sverka.__path__)) >= 1)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True"]
