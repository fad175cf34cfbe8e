"""Real documents made by others (``../shared/data/realdocs``): no file lost, no hidden text read.

Every file is read as the command line and the window read it (the sandboxed reader) and scored
with the folder's own ``score.py`` against the text Chromium, LibreOffice or pdftotext gives
(its README says exactly how). The full figures are ``bench/bench_realdocs.py``'s; here the
targets are asserted: a file lost is a failure; text dropped (recall < 0.9) or read where a
person sees none (precision < 0.9) only where the reference itself is known to be wrong,
each listed with its reason in docs/ROBUSTNESS.md ("Real documents").

Skips when the folder is absent.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

REALDOCS = Path(__file__).resolve().parents[3] / "shared" / "data" / "realdocs"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (REALDOCS / "manifest.jsonl").exists(), reason=f"{REALDOCS} is absent"),
]

#: Files whose reference is wrong where Sverka is right, found by looking at the file by hand
#: (docs/ROBUSTNESS.md, "Real documents", gives each reason), beyond the manifest's own
#: ``oracle_known_wrong``: id -> why.
REFERENCE_WRONG: dict[str, str] = {}


def _score_module():
    spec = importlib.util.spec_from_file_location("realdocs_score", REALDOCS / "score.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def rows():
    from sverka.core.errors import ExtractError
    from sverka.core.workers import sandboxed_extract

    score = _score_module()
    out = []
    for line in (REALDOCS / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        if not line:
            continue
        rec = json.loads(line)
        try:
            text = sandboxed_extract(REALDOCS / rec["file"]).text
        except ExtractError as e:
            text = None
            rec = dict(rec, error=str(e))
        row = score.score_one(rec, text)
        row["why"] = rec.get("error")
        out.append(row)
    return out


def _known_wrong(row) -> bool:
    return bool(row["reference_known_wrong"]) or row["id"] in REFERENCE_WRONG


def _show(rs) -> str:
    return "\n".join(f"{r['id']} ({r['source']}): recall {r['recall']}, precision {r['precision']}, "
                     f"{r['n_sverka']} words read of {r['n_reference']}; {r['why'] or ''}" for r in rs)


def test_no_document_is_lost(rows):
    lost = [r for r in rows if r["lost"]]
    assert not lost, "lost:\n" + _show(lost)


def test_text_is_dropped_only_where_the_reference_is_wrong(rows):
    dropped = [r for r in rows if r["dropped"] and not _known_wrong(r)]
    assert not dropped, "dropped:\n" + _show(dropped)


def test_no_hidden_text_is_read(rows):
    invented = [r for r in rows if r["invented"] and not _known_wrong(r)]
    assert not invented, "read where nothing shows:\n" + _show(invented)


def test_every_format_is_scored(rows):
    assert {r["format"] for r in rows} >= {"html", "docx", "odt", "rtf", "pdf"}
    assert sum(1 for r in rows if r["n_reference"] and r["n_reference"] >= 50) > 300
