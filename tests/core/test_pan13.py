"""PAN 2013 text alignment sample (English, verbatim copies): cases found and precision.

A subset of the pairs keeps the test fast; ``bench/bench_pan13.py`` runs them all.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from bench_pan13 import _relocate, evaluate  # noqa: E402


def test_relocate_tolerates_altered_characters():
    hay = "intro text here. The BachelorUs degree program is open to students who possess a high school diploma. tail"
    needle = "The BachelorCls degree program is open to students who possess a high school diploma."
    s, e = _relocate(needle, hay, 0)
    assert hay[s:e] == "The BachelorUs degree program is open to students who possess a high school diploma."


def test_pan13_cases_found_precisely(pan13):
    r = evaluate(pan13, limit=80)
    assert r["not_relocated"] <= 0.05 * r["annotated"]
    assert r["recall"] >= 0.95, r
    assert r["precision"] >= 0.90, r
