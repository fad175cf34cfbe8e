"""Hostile input, round four: a report never replaces what the command reads, document numbers
in ASCII digits only, a full disk on standard output, a cross-check's count of what it read,
linear style sheets, and text files, HTML and escapes that were refused or hid text for no
reason. Every input is generated here."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


SVERKA = Path(sys.executable).with_name("sverka")
ESSAY = "Это обычный текст сочинения для проверки, в нём несколько честных предложений подряд."


def sverka(*args: str, rc: int | None = None) -> subprocess.CompletedProcess:
    out = subprocess.run([str(SVERKA), *args], capture_output=True, text=True, encoding="utf-8", timeout=300,
                         env={**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
    assert "Traceback" not in out.stderr, out.stderr
    if rc is not None:
        assert out.returncode == rc, (out.returncode, out.stdout[-1000:], out.stderr[-1000:])
    return out


@pytest.fixture
def collection(tmp_path) -> tuple[Path, Path]:
    essay = tmp_path / "essay.txt"
    essay.write_text(ESSAY, encoding="utf-8")
    db = tmp_path / "class.sverka"
    sverka("index", "--db", str(db), str(essay), rc=0)
    return db, essay


# -- the command line -------------------------------------------------------------------------

needs_cli = pytest.mark.skipif(not SVERKA.exists(), reason=f"console script not installed at {SVERKA}")


@needs_cli
def test_a_report_never_replaces_the_collection_or_a_document_read(collection, tmp_path):
    db, essay = collection
    before = db.read_bytes()
    out = sverka("check", "--defaults", "--db", str(db), str(essay), "--html", str(db), rc=2)
    assert "replace the collection" in out.stderr and str(db) in out.stderr
    assert db.read_bytes() == before
    assert "essay.txt" in sverka("list", "--db", str(db), rc=0).stdout
    out = sverka("check", "--defaults", "--db", str(db), str(essay), "--html", str(db), "--lang", "ru", rc=2)
    assert "отчёт заменил бы коллекцию" in out.stderr
    copy = tmp_path / "copy.txt"
    copy.write_text(ESSAY, encoding="utf-8")
    for args in (["compare", str(essay), str(copy), "--html", str(copy)],
                 ["crosscheck", str(essay), str(copy), "--html", str(essay)],
                 ["check", "--defaults", "--db", str(db), str(copy), "--template", str(essay), "--html", str(essay)]):
        out = sverka(*args, rc=2)
        assert "replace a document it reads" in out.stderr, args
    assert essay.read_text(encoding="utf-8") == ESSAY and copy.read_text(encoding="utf-8") == ESSAY
    # a report elsewhere is written, and written again over the earlier report
    report = tmp_path / "report.html"
    for _ in range(2):
        sverka("check", "--defaults", "--db", str(db), str(essay), "--html", str(report), rc=0)
    assert report.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")


@needs_cli
@pytest.mark.parametrize("item", ["²", "١", "99999999999999999999999", "1x", "+1"])
def test_remove_takes_a_document_number_in_ascii_digits_only(collection, item):
    db, _ = collection
    out = sverka("remove", "--db", str(db), item, rc=1)
    assert "removed 0" in out.stdout and "not in the collection" in out.stderr
    assert "essay.txt" in sverka("list", "--db", str(db), rc=0).stdout
    assert "removed 1" in sverka("remove", "--db", str(db), "1", rc=0).stdout


@needs_cli
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize("command", [["extract", "{essay}"], ["list", "--db", "{db}"], ["check", "--db", "{db}",
                                     "--json", "{essay}"]])
def test_a_full_disk_on_standard_output_is_an_error_not_a_traceback(collection, command):
    db, essay = collection
    args = [a.format(db=db, essay=essay) for a in command]
    with open("/dev/full", "w") as full:
        out = subprocess.run([str(SVERKA), *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert "cannot write the output" in out.stderr


@needs_cli
def test_a_cross_check_counts_the_documents_it_read(tmp_path):
    bad = [tmp_path / "a.docx", tmp_path / "b.rtf"]
    bad[0].write_bytes(b"PK\x03\x04 not a zip")
    bad[1].write_bytes(b"{\\rtf1 {{{{")
    out = sverka("crosscheck", *map(str, bad), rc=1)
    assert out.stdout.startswith("0 documents compared") and "2 files could not be read" in out.stdout
    good = tmp_path / "c.txt"
    good.write_text(ESSAY, encoding="utf-8")
    out = sverka("crosscheck", *map(str, bad), str(good), "--lang", "ru", rc=1)
    assert out.stdout.startswith("сравнено 1 документ:") and "2 файла прочитать не удалось" in out.stdout
