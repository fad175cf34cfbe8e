"""A PDF's text as paragraphs: the lines a paragraph was wrapped at, and a page break inside a
sentence, leave no breaks in the extracted text (what the side-by-side view shows); headings
and paragraphs keep theirs; page offsets stay right."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from sverka.core.extract.pdf_text import _assemble, join_wrapped_lines

from test_cli import write_pdf  # a text PDF made by Qt in a child process

PARA = ("В рассказе Горького «Старуха Изергиль» есть легенда о юноше Данко, который вывел людей из "
        "тёмного леса, когда они уже отчаялись и были готовы сдаться своим врагам. Он вырвал из груди "
        "своё сердце и осветил им путь, и люди пошли за ним, забыв о страхе и усталости.")


def test_wrapped_lines_are_joined_headings_and_paragraphs_kept():
    page = ("Горящее сердце\nСидоров Дмитрий, 9 «Б»\n"
            "В рассказе Горького «Старуха Изергиль» есть легенда о юноше Данко, который\n"
            "вывел людей из тёмного леса. Он вырвал из груди своё сердце и осветил им путь\n"
            "Людям, которые шли за ним. Когда они вышли, он упал и умер.\n"
            "Новый абзац начинается здесь и продолжается долго, очень долго, и пере-\n"
            "носится.")
    assert join_wrapped_lines(page).split("\n") == [
        "Горящее сердце", "Сидоров Дмитрий, 9 «Б»",
        "В рассказе Горького «Старуха Изергиль» есть легенда о юноше Данко, который вывел людей из тёмного "
        "леса. Он вырвал из груди своё сердце и осветил им путь Людям, которые шли за ним. Когда они вышли, "
        "он упал и умер.",
        "Новый абзац начинается здесь и продолжается долго, очень долго, и переносится."]


def test_a_sentence_over_a_page_break_has_no_gap_and_offsets_follow():
    pages = ["Первая страница кончается на середине предложения, которое\nпродолжается", "на второй странице.",
             "Третья страница.", "Четвёртая."]
    text, _, _, meta = _assemble(Path("x.pdf"), pages, "", [])
    assert text == ("Первая страница кончается на середине предложения, которое продолжается на второй странице."
                    "\n\nТретья страница.\n\nЧетвёртая.")
    offsets = [int(x) for x in dict(meta)["page_offsets"].split()]
    assert [text[o:o + 6] for o in offsets] == ["Первая", "на вто", "Третья", "Четвёр"]


@pytest.mark.skipif(importlib.util.find_spec("PySide6") is None, reason="PySide6 makes the PDF")
def test_a_real_pdf_reads_as_paragraphs(tmp_path):
    from sverka.core import api

    path = tmp_path / "sidorov.pdf"
    write_pdf(path, ["Горящее сердце\nСидоров Дмитрий, 9 «Б»\n" + PARA + "\n" + PARA])
    doc = api.load_document(path)
    lines = [x for x in doc.text.split("\n") if x.strip() and not x.strip().isdigit()]  # not the page number
    assert lines[:2] == ["Горящее сердце", "Сидоров Дмитрий, 9 «Б»"]
    assert lines[2:] == [PARA, PARA], lines
