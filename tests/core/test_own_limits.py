"""Sverka's own limits on a reader: a PDF whose forms draw each other in a tree and a Flate
bomb are refused by Sverka (its 1 GB memory ceiling, a message naming the bomb, in both
languages) on every command and through the reading path the window uses; the pdfminer
fallback keeps to its time; the CPU limit stops a reader. Every hostile file is built here."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from sverka.core import api
from sverka.core.errors import ExtractError
from sverka.core.limits import READ_MEMORY_BYTES, read_limits
from sverka.core.workers import LimitExceeded, Sandbox

from pdfgen import HELVETICA, build, stream

SVERKA = Path(sys.executable).with_name("sverka")
ESSAY = ("Первое честное сочинение о летних каникулах в деревне у бабушки, где мы ловили рыбу, "
         "собирали грибы в лесу и купались в холодной реке каждое утро до самой осени. ") * 6


def xobject_tree(path: Path, depth: int = 30) -> Path:
    """Forms each drawing the next twice, ``depth`` deep: 2**depth draws from a 6 KB file."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
               b"/Resources << /XObject << /X 6 0 R >> /Font << /F1 5 0 R >> >> >>",
               stream(b"BT /F1 12 Tf 72 700 Td (Visible words on the page.) Tj ET /X Do"), HELVETICA]
    for k in range(depth):
        if k < depth - 1:
            objects.append(stream(b"/X Do /X Do", f"/Type /XObject /Subtype /Form /BBox [0 0 600 800] "
                                                  f"/Resources << /XObject << /X {7 + k} 0 R >> >>"))
        else:
            objects.append(stream(b"BT /F1 12 Tf 72 600 Td (leaf) Tj ET", "/Type /XObject /Subtype /Form "
                                  "/BBox [0 0 600 800] /Resources << /Font << /F1 5 0 R >> >>"))
    path.write_bytes(build(objects))
    return path


def flate_bomb(path: Path, mb: int = 100, copies: int = 30) -> Path:
    """One content stream of ``mb`` MB of spaces (~100 KB compressed), named ``copies`` times by
    the page: 3 GB to draw."""
    c = zlib.compressobj(9)
    data = c.compress(b"BT /F1 12 Tf 72 700 Td (Visible words on the page.) Tj ET\n")
    data += b"".join(c.compress(b" " * (1 << 20)) for _ in range(mb)) + c.flush()
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents ["
               + b" ".join([b"4 0 R"] * copies) + b"] /Resources << /Font << /F1 5 0 R >> >> >>",
               b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream", HELVETICA]
    path.write_bytes(build(objects))
    return path


BOMBS = {"forms.pdf": (xobject_tree, "error.pdf_form_bomb", "forms inside forms"),
         "inflate.pdf": (flate_bomb, "error.pdf_inflate_bomb", "decompression bomb")}


@pytest.fixture(autouse=True)
def default_limits(monkeypatch):
    """The limits a user has: 1 GB and the time limit (the suite may set smaller ones)."""
    monkeypatch.delenv("SVERKA_READ_MEMORY_MB", raising=False)
    monkeypatch.setenv("SVERKA_READ_SECONDS", "60")


def test_the_memory_ceiling_is_1_gb():
    assert READ_MEMORY_BYTES == 1024 ** 3 and read_limits()[0] == 1024 ** 3


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_a_bomb_is_refused_by_sverka_naming_it_through_the_windows_reading_path(tmp_path, name):
    build_bomb, code, words = BOMBS[name]
    path = build_bomb(tmp_path / name)
    start = time.monotonic()
    with pytest.raises(LimitExceeded) as e:
        api.load_document(path)  # the window's single opens and every command read through this
    assert time.monotonic() - start < 60
    assert e.value.message.code == code and str(path) in str(e.value) and words in str(e.value)
    assert "1024 МБ" in e.value.message.text("ru")
    # the reader is started again: the next file reads
    good = tmp_path / "good.txt"
    good.write_text(ESSAY, encoding="utf-8")
    assert api.load_document(good).text == ESSAY


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, SVERKA_READ_SECONDS="60", HOME=str(cwd))
    env.pop("SVERKA_READ_MEMORY_MB", None)
    return subprocess.run([str(SVERKA), *args], capture_output=True, text=True, timeout=300, cwd=cwd, env=env)


@pytest.mark.skipif(not SVERKA.exists(), reason="the sverka command is not installed")
def test_every_command_refuses_the_bombs_and_goes_on(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name, (build_bomb, _, _) in BOMBS.items():
        build_bomb(folder / name)
    (folder / "essay.txt").write_text(ESSAY, encoding="utf-8")
    (folder / "copy.txt").write_text(ESSAY, encoding="utf-8")
    db = str(tmp_path / "c.sverka")
    runs = {
        "extract": [_cli("extract", str(folder / name), cwd=tmp_path) for name in BOMBS],
        "index": [_cli("index", "--db", db, str(folder), cwd=tmp_path)],
        "check": [_cli("check", "--db", db, *(str(folder / n) for n in BOMBS), cwd=tmp_path)],
        "compare": [_cli("compare", str(folder / name), str(folder / "essay.txt"), cwd=tmp_path) for name in BOMBS],
        "crosscheck": [_cli("crosscheck", str(folder), cwd=tmp_path)],
    }
    for command, results in runs.items():
        said = " ".join(r.stderr + r.stdout for r in results)
        for r in results:
            assert r.returncode == 1, (command, r.returncode, r.stderr[-2000:])
            assert "Traceback" not in r.stderr and "Killed" not in r.stderr, (command, r.stderr[-2000:])
        for name, (_, _, words) in BOMBS.items():
            assert name in said and words in said, (command, said[-3000:])
    assert "essay.txt" in runs["crosscheck"][0].stdout  # the rest of the class was compared


def test_the_cpu_limit_stops_a_reader_with_sverkas_message(tmp_path, monkeypatch):
    """A reader spinning in Python past the CPU time of a file is stopped in the worker by
    SIGXCPU (not by the system), and the worker answers with the time limit."""
    sandbox = Sandbox(seconds=60, cpu_seconds=2)  # the clock far away: the CPU limit acts
    try:
        good = tmp_path / "good.rtf"
        good.write_bytes(b"{\\rtf1 " + ESSAY.encode("ascii", "ignore") + b"\\par first words}")
        sandbox.call("extract", str(good))  # the worker is up
        pid = sandbox._proc.pid
        start = time.monotonic()
        with pytest.raises(LimitExceeded) as e:
            sandbox.call("extract", str(_spinning_file(tmp_path)))
        assert e.value.message.code == "error.read_time_limit" and "2 s" in str(e.value)
        assert "2 с" in e.value.message.text("ru")
        assert time.monotonic() - start < 45  # 2 s of CPU, on a busy machine; the clock's limit is 60 s
        # stopped by its own CPU limit, the worker answered and stays: no new process
        assert sandbox._proc is not None and sandbox._proc.pid == pid and sandbox._proc.is_alive()
    finally:
        sandbox.close()


def _spinning_file(tmp_path: Path) -> Path:
    """An RTF whose reading takes long in pure Python: one group nested 100 000 times, closed,
    repeated (the RTF reader walks every brace)."""
    path = tmp_path / "slow.rtf"
    path.write_bytes(b"{\\rtf1 " + (b"{\\b x}" * 3_000_000) + b"}")
    return path


# The fallback's alarm may land in a garbage collector's callback (hypothesis installs one in the
# test process) or a finaliser, where Python drops the exception: the product asks again a quarter
# second later and prints nothing (the next tests); this one checks the time is kept all the same.
def test_the_pdfminer_fallback_keeps_to_its_time(tmp_path, monkeypatch):
    from sverka.core.errors import TooLarge
    from sverka.core.extract import pdf_text

    monkeypatch.setattr(pdf_text, "PDFMINER_SECONDS", 1.0)
    path = xobject_tree(tmp_path / "forms.pdf", depth=40)
    start = time.monotonic()
    with pytest.raises(TooLarge) as e:
        pdf_text._extract_with_pdfminer(path, "PDFium could not open it (test)")
    assert time.monotonic() - start < 10
    assert e.value.message.code == "error.pdf_fallback_time" and "pdfminer" in str(e.value)
    assert "pdfminer" in e.value.message.text("ru")


def test_the_pdfminer_fallbacks_alarm_comes_again_when_one_is_lost(tmp_path, monkeypatch):
    """An alarm that lands where Python drops exceptions (a finaliser) is lost: the fallback's
    time is asked again a moment later, so a page that never ends is still stopped."""
    from sverka.core.errors import TooLarge
    from sverka.core.extract import pdf_text

    monkeypatch.setattr(pdf_text, "PDFMINER_SECONDS", 0.5)
    lost = []

    def a_page_that_never_ends(path, why, deadline, vertical=False):
        try:
            while True:
                time.sleep(0.01)
        except pdf_text._FallbackTimeUp:  # the first alarm, dropped as a finaliser drops it
            lost.append(time.monotonic())
        while time.monotonic() < lost[0] + 5:  # no deadline checked here: only an alarm ends it
            time.sleep(0.01)
        return "ran on"

    monkeypatch.setattr(pdf_text, "_pdfminer_pages", a_page_that_never_ends)
    with pytest.raises(TooLarge) as e:
        pdf_text._extract_with_pdfminer(tmp_path / "x.pdf", "PDFium could not open it (test)")
    assert lost and time.monotonic() - lost[0] < 2
    assert e.value.message.code == "error.pdf_fallback_time"


def test_an_alarm_dropped_in_a_finaliser_prints_nothing(tmp_path, monkeypatch):
    """Python hands an exception raised in a finaliser to ``sys.unraisablehook``, which prints
    "Exception ignored in ..." and a traceback on the user's terminal; the fallback's own alarm is
    kept quiet there (it is asked again), anything else still reaches the hook before it."""
    import sys

    from sverka.core.errors import TooLarge
    from sverka.core.extract import pdf_text

    monkeypatch.setattr(pdf_text, "PDFMINER_SECONDS", 0.3)
    heard = []
    monkeypatch.setattr(sys, "unraisablehook", heard.append)

    class Waits:
        def __del__(self):  # the first alarm lands here and is dropped
            while True:
                time.sleep(0.01)

    class Fails:
        def __del__(self):
            raise KeyError("a finaliser's own error")

    def a_page_with_finalisers(path, why, deadline, vertical=False):
        Fails()
        Waits()
        while True:  # the second alarm ends it
            time.sleep(0.01)

    monkeypatch.setattr(pdf_text, "_pdfminer_pages", a_page_with_finalisers)
    with pytest.raises(TooLarge):
        pdf_text._extract_with_pdfminer(tmp_path / "x.pdf", "PDFium could not open it (test)")
    assert [type(u.exc_value) for u in heard] == [KeyError]
    assert sys.unraisablehook == heard.append


def test_a_large_add_through_the_process_pool_names_the_bombs(tmp_path):
    """Adding many files uses a pool of workers: a bomb breaks its worker, is tried alone, and is
    reported with what it is; the essays are added."""
    from sverka.core.indexing import add_paths

    folder = tmp_path / "refs"
    folder.mkdir()
    for name, (build_bomb, _, _) in BOMBS.items():
        build_bomb(folder / name)
    for k in range(3):
        (folder / f"essay{k}.txt").write_text(f"Сочинение номер {k}. " + ESSAY, encoding="utf-8")
    with api.Collection(tmp_path / "c.sverka") as coll:
        summary = add_paths(coll.index, [folder], workers=2)
        assert sorted(Path(p).name for p in summary.added) == ["essay0.txt", "essay1.txt", "essay2.txt"]
        reasons = {Path(p).name: why for p, why in summary.failed}
    for name, (_, code, words) in BOMBS.items():
        assert reasons[name].code == code, reasons
        assert words in api.message_text(reasons[name], "en")
