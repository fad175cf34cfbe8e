"""The PyInstaller bundle builds and works (installer/smoke.sh).

Skipped unless SVERKA_BUNDLE_TEST=1 (it builds the whole bundle, about a minute on two cores);
CI (.ci/run) sets it:
    SVERKA_BUNDLE_TEST=1 .venv/bin/python -m pytest tests/test_bundle.py
See installer/README.md for what the smoke test checks.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("SVERKA_BUNDLE_TEST") != "1", reason="builds the bundle: set SVERKA_BUNDLE_TEST=1")
def test_bundle_builds_and_runs():
    done = subprocess.run(
        ["bash", str(PROJECT / "installer" / "smoke.sh")],
        cwd=PROJECT, capture_output=True, text=True, timeout=1800,
    )
    assert done.returncode == 0, f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    assert "window shown" in done.stdout
    assert "smoke: bundle OK" in done.stdout
