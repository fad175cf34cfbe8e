"""The window survives opening and adding every hostile input of issue 15 (offscreen)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from test_hidden_visible import (  # noqa: E402
    EN_FILLER, EN_SOURCE, FILLER, SOURCE, TEXTBOX, make_docx, make_pdf, p, r,
)
from test_hostile_round2 import ESSAY, make_form_bomb, make_inflate_bomb, make_odt_space_bomb  # noqa: E402
from test_hostile_round3 import (  # noqa: E402
    ESSAYS, LONG_RU, SOURCE_RU, _collection, TO_CYRILLIC, _coded, _disguise, _inflating_blob, _rtf_with_shape, _spoil_tokens,
    _sql, _text_pdf,
)

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
    utf16 = folder / "utf16.txt"
    utf16.write_bytes(("Сочинение о лете в деревне у бабушки, без метки порядка байтов. " * 20).encode("utf-16-le"))
    gb = folder / "gb.txt"
    gb.write_bytes(("这是一个中文文本的测试，我们用它来检查编码检测是否正确。" * 20).encode("gb18030"))
    meta = folder / "meta16.html"
    meta.write_text("<html><head><meta charset=utf-16></head><body>Сочинение о зиме и лыжах.</body></html>")
    hidden = [  # round two, classes 4 and 5: hidden filler and text kept in odd places
        make_docx(folder / "vanish.docx", p(r(SOURCE)) + p(r(FILLER, "<w:vanish/>"))
                  + p(r("Рисунок."), TEXTBOX.format(inner=p(r("Текст в надписи."))))),
        make_pdf(folder / "invisible.pdf", [(EN_SOURCE, {}), (EN_FILLER, {"mode": 3})]),
    ]
    page = folder / "hidden.html"
    page.write_text(f"<p>{SOURCE}</p><div style='display:none'>{FILLER}</div>", encoding="utf-8")
    round3 = []  # round three: 1 MB unterminated HTML constructs, look-alikes, lying PDFs, RTF shapes
    for name, unit in (("tags", "<a"), ("comments", "<!--"), ("quotes", "<a x='"), ("bogus", "<?"), ("ends", "</")):
        html = folder / f"{name}.html"
        html.write_text(f"<p>Начало сочинения {name}.</p>" + unit * ((1 << 20) // len(unit)), encoding="utf-8")
        round3.append(html)
    greek = folder / "greek.txt"
    greek.write_text(_disguise(SOURCE_RU, TO_CYRILLIC)[0], encoding="utf-8")
    codes, honest = _coded(LONG_RU)
    lying = _text_pdf(folder / "lying.pdf", codes, {c: (chr(0xE000 + c) if ch != " " else " ") for c, ch in honest.items()})
    shape = folder / "shape.rtf"
    shape.write_bytes(_rtf_with_shape(r"Текст в надписи.").encode("cp1251"))
    round3 += [greek, lying, shape]
    return folder, paths + [fifo, zero, rtf, Path(odd), *hidden, page, utf16, gb, meta, escape, *round3]


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
    assert sum(1 for p in titles if p.endswith(".txt")) == 5
    assert {Path(p).name for p in titles} >= {"vanish.docx", "invisible.pdf", "hidden.html", "meta16.html",
                                              "tags.html", "comments.html", "quotes.html", "bogus.html", "ends.html",
                                              "greek.txt", "lying.pdf", "shape.rtf"}
    # and it still works afterwards
    window.load_suspect(paths[-1])
    qtbot.waitUntil(lambda: window.suspect_document is not None, timeout=TIMEOUT)


def test_the_window_shows_how_much_text_was_hidden(qtbot, window, tmp_path):
    path = make_docx(tmp_path / "vanish.docx", p(r(SOURCE)) + p(r(FILLER, "<w:vanish/>")))
    with qtbot.waitSignal(window.jobFinished, timeout=TIMEOUT):
        window.load_suspect(path)
    qtbot.waitUntil(lambda: window.suspect_document is not None, timeout=TIMEOUT)
    banner = window.suspect_panel.warnings
    assert banner.isVisibleTo(window) and "hidden text left out: 4500 words" in banner.text()
    assert "слово1 " not in window.suspect_document.text


def _window_on(qtbot, tmp_path, prefs, db):
    from sverka.gui.main_window import MainWindow

    w = MainWindow(db, prefs)
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.collectionChanged, timeout=20000):
        w.show()
    return w


def _collection_of_essays(db: Path) -> None:
    _collection(db.parent, db.name)


def test_the_window_checks_against_a_read_only_collection_and_says_why_it_cannot_add(
        qtbot, tmp_path, prefs, monkeypatch):
    from sverka.core.store import sqlite

    db = tmp_path / "ro" / "class.sverka"
    db.parent.mkdir()
    _collection_of_essays(db)
    monkeypatch.setattr(sqlite, "_writable", lambda path: False)  # what a read-only medium gives
    w = _window_on(qtbot, tmp_path, prefs, db)
    try:
        assert len(w.documents) == 3
        new = tmp_path / "new.txt"
        new.write_text("Новое сочинение ученика о школьной жизни и друзьях. " * 5, encoding="utf-8")
        with qtbot.waitSignal(w.jobFinished, timeout=TIMEOUT):
            w.add_paths([new])
        assert "read-only" in w._last_message.text() and "checking" in w._last_message.text()
        w.set_suspect_text(ESSAYS[0] + " " + ESSAYS[1], "suspect")
        with qtbot.waitSignal(w.jobFinished, timeout=TIMEOUT):
            w.check()
        assert w.result is not None and {s.title for s in w.result.sources} == {"essay0", "essay1"}
    finally:
        w.runner.shutdown()


@pytest.mark.parametrize("damage", ["garbage", "inflates"])
def test_the_window_checks_past_a_damaged_document_and_names_it(qtbot, tmp_path, prefs, damage):
    db = tmp_path / "class.sverka"
    _collection_of_essays(db)
    _spoil_tokens(db, "essay1", b"\x02" + os.urandom(200) if damage == "garbage" else _inflating_blob(1.5))
    w = _window_on(qtbot, tmp_path, prefs, db)
    try:
        w.set_suspect_text(ESSAYS[0] + " " + ESSAYS[1], "suspect")
        with qtbot.waitSignal(w.jobFinished, timeout=TIMEOUT):
            w.check()
        assert w.result is not None and [s.title for s in w.result.sources] == ["essay0"]
        warning = [x for x in w.result.suspect.warnings if "not compared" in str(x)]
        assert warning and '"essay1"' in str(warning[0]) and "sverka rebuild" in str(warning[0])
    finally:
        w.runner.shutdown()


def test_the_window_opens_a_collection_with_bad_settings_json_with_a_message(qtbot, tmp_path, prefs):
    db = tmp_path / "class.sverka"
    _collection_of_essays(db)
    _sql(db, "UPDATE meta SET value='[[' WHERE key='shingle_words'")
    w = _window_on(qtbot, tmp_path, prefs, db)
    try:
        assert w.isVisible() and w.documents == []
        assert "sverka rebuild" in w._last_message.text()
    finally:
        w.runner.shutdown()


@pytest.mark.parametrize("saved, said", [
    (b"{bad json", "could not be read: it is not valid JSON (line 1, column 2)"),
    (b'{"min_passage_words": -5}', '"Shortest passage that counts" (min_passage_words: -5)'),
])
def test_a_settings_file_the_window_cannot_use_is_told_once_and_left_as_it_is(qtbot, tmp_path, prefs, saved, said):
    """The window took a damaged settings.json for "nothing saved" without a word (and would
    check with the defaults); it tells the user once, and never writes the file on reading."""
    from PySide6.QtWidgets import QMessageBox

    from sverka.core.api import Settings

    path = prefs.settings_path()
    path.write_bytes(saved)
    w = _window_on(qtbot, tmp_path, prefs, tmp_path / "c.sverka")
    try:
        boxes = [b for b in w.findChildren(QMessageBox) if str(path) in b.text()]
        assert len(boxes) == 1 and said in boxes[0].text()
        assert w.settings == Settings()
        assert path.read_bytes() == saved
    finally:
        w.runner.shutdown()


def test_good_saved_settings_are_no_message(qtbot, tmp_path, prefs):
    from PySide6.QtWidgets import QMessageBox

    from sverka.core.api import Settings

    prefs.set_engine_settings(Settings(min_passage_words=12))
    w = _window_on(qtbot, tmp_path, prefs, tmp_path / "c.sverka")
    try:
        assert w.settings.min_passage_words == 12 and not w.findChildren(QMessageBox)
    finally:
        w.runner.shutdown()
