"""The window survives opening and adding every hostile input of issue 15 (offscreen)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from test_hostile_round2 import ESSAY, make_form_bomb, make_inflate_bomb, make_odt_space_bomb  # noqa: E402

TIMEOUT = 60000


@pytest.fixture
def hostile(tmp_path, monkeypatch):
    monkeypatch.setenv("SVERKA_READ_SECONDS", "3")
    monkeypatch.setenv("SVERKA_READ_MEMORY_MB", "300")
    folder = tmp_path / "hostile"
    folder.mkdir()
    paths = [
        make_form_bomb(folder / "forms.pdf"),
        make_inflate_bomb(folder / "inflate.pdf", 400),
        make_odt_space_bomb(folder / "spaces.odt"),
    ]
    fifo = folder / "pipe.txt"
    os.mkfifo(fifo)
    zero = folder / "zero.txt"
    zero.symlink_to("/dev/zero")
    rtf = folder / "emoji.rtf"
    rtf.write_bytes(b"{\\rtf1\\ansi{\\info{\\title \\u-10179?\\u-8704?}}Body \\u-10179?\\u-8704? and \\u-10179? one.}")
    odd = os.fsdecode(os.path.join(os.fsencode(folder), b"\xc0\xe1\xe2.txt"))
    Path(odd).write_text(ESSAY, encoding="utf-8")
    escape = folder / "x\x1b[31m.txt"
    escape.write_text("Другое сочинение о походе в горы с друзьями. " * 20, encoding="utf-8")
    return folder, paths + [fifo, zero, rtf, Path(odd), escape]


def test_window_survives_opening_and_adding_every_hostile_input(qtbot, window, hostile):
    folder, paths = hostile
    for path in paths:
        with qtbot.waitSignal(window.jobFinished, timeout=TIMEOUT):
            window.load_suspect(path)
        assert window.isVisible()
    with qtbot.waitSignal(window.collectionChanged, timeout=TIMEOUT):
        window.add_paths([folder])
    titles = {d.path for d in window.documents}
    assert any(p.endswith("emoji.rtf") for p in titles)
    assert sum(1 for p in titles if p.endswith(".txt")) == 2
    # and it still works afterwards
    window.load_suspect(paths[-1])
    qtbot.waitUntil(lambda: window.suspect_document is not None, timeout=TIMEOUT)
