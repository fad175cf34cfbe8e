"""Messages as data: the core gives codes and numbers, the faces word them in Russian or English."""

from __future__ import annotations

import pickle
import re

import pytest

from sverka.core import messages
from sverka.core.errors import CorruptFile, UnreadableFile
from sverka.core.extract import extract
from sverka.core.messages import CATALOGUE, Message, from_json, message, text, to_json
from sverka.core.text import canonize

#: Arguments that fill every template of the catalogue.
SAMPLE_ARGS = dict(n=3, words=21, share=4.5, ways=(("white text", 2),), suffix=".txt", format="pdf", encoding="cp1251",
                   empty=2, pages=10, shown="3, 7", why="x", limit=40, count=2, percent=30.0, detail="d",
                   levels=64, language="ru", text="t", path="/c.sverka", key="k", found="1.0", wanted="2",
                   reads="2.x", what="w", server="host:5432", user="teacher", database="sverka",
                   original="/a.txt", added=2, updated=0, unchanged=1, duplicates=0, failed=1, total=3, name="n",
                   flags="--min-words", names="a, b", resemblance=12.5, option="html", mb=1024, seconds="300",
                   pdfium=11, mates=4, documents=5, reason="r", line=1, column=2, value="-5", default="8")


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_every_code_is_worded_in_both_languages(code):
    en, ru = CATALOGUE[code]
    m = Message(code, tuple(sorted(SAMPLE_ARGS.items())))
    for lang in ("en", "ru"):
        out = text(m, lang)
        assert out and "{" not in out and "}" not in out, (code, lang, out)
    names = lambda t: set(re.findall(r"\{(\w+)", t))  # noqa: E731
    assert names(en) <= set(SAMPLE_ARGS) and names(ru) <= set(SAMPLE_ARGS)
    if code.startswith(("warning.", "phase.")) and code != "warning.format_mismatch":
        # Russian words of our own, not English left over (numbers and names aside)
        left = set(re.findall(r"[A-Za-z]{3,}", text(m, "ru"))) - {"NUL", "FFFD", "pdfminer", "six", "PDFium", "txt", "PDF", "UTF",
                                                                 "Word", "Windows"}
        assert not left, (code, left)


def test_russian_plurals_follow_the_number():
    said = lambda n: text(message("warning.invisible_chars", n=n), "ru").split(" (")[0]  # noqa: E731
    assert said(1) == "1 невидимый символ"
    assert said(2) == "2 невидимых символа"
    assert said(5) == "5 невидимых символов"
    assert said(11) == "11 невидимых символов"
    assert said(21) == "21 невидимый символ"
    assert text(message("warning.invisible_chars", n=1)).startswith("1 invisible character ")
    assert text(message("warning.invisible_chars", n=2)).startswith("2 invisible characters ")


def test_unknown_codes_are_refused_and_json_round_trips():
    with pytest.raises(KeyError):
        message("warning.no_such_thing")
    m = message("warning.hidden_text", words=7, share=1.5, ways=(("white text", 5), ("hidden formatting", 2)))
    data = to_json(m)
    assert data == {"code": "warning.hidden_text",
                    "args": {"share": 1.5, "ways": [["white text", 5], ["hidden formatting", 2]], "words": 7},
                    "text": "hidden text left out: 7 words, 1.5 % of the document (white text: 5, hidden formatting: 2)"}
    assert from_json(data) == m
    assert str(m) == data["text"]
    assert "белый текст: 5" in m.text("ru")
    # an English sentence stored by an earlier Sverka is kept and shown as it is
    old = from_json("3 Latin letters that look like Cyrillic inside Russian words")
    assert old.code == "text" and text(old, "ru") == "3 Latin letters that look like Cyrillic inside Russian words"


def test_tampering_warnings_are_codes():
    tokens = canonize("Этот тeкст написан с подменой бyкв и невидимыми\u200bсимволами внутри сло\u200bв.")
    codes = {w.code: w.kw for w in tokens.warnings}
    assert codes["warning.lookalike_latin"] == {"n": 2, "language": "ru"}
    assert codes["warning.invisible_chars"]["n"] >= 1
    assert text(tokens.warnings[0], "ru").startswith("2 латинские буквы, похожие на кириллицу")


def test_extraction_warnings_and_errors_are_codes(tmp_path):
    f = tmp_path / "a.txt"
    f.write_bytes("Текст с нулём\x00 внутри.".encode("utf-8"))
    doc = extract(f)
    assert [w.code for w in doc.warnings] == ["warning.nul_removed"]
    assert text(doc.warnings[0], "ru") == "удалён 1 символ NUL"

    with pytest.raises(UnreadableFile) as missing:
        extract(tmp_path / "nope.txt")
    assert missing.value.message.code == "error.missing"
    assert text(missing.value.message, "ru") == "файла не существует"
    with pytest.raises(UnreadableFile) as folder:
        extract(tmp_path)
    assert folder.value.message.code == "error.folder"

    e = CorruptFile("x.pdf", "the PDF is damaged (KeyError)")
    assert e.message == message("error.corrupt", detail="the PDF is damaged (KeyError)")
    assert text(e.message, "en") == "the PDF is damaged (KeyError)"  # the reader's detail, as before
    assert text(e.message, "ru") == "файл повреждён или обрезан"
    back = pickle.loads(pickle.dumps(e))  # crosses from the reader process intact
    assert type(back) is CorruptFile and back.message == e.message and str(back) == str(e)


def test_a_failed_file_of_a_batch_is_a_code(tmp_path):
    from sverka.core.api import Collection

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "good.txt").write_text("Обычный текст сочинения о природе и погоде. " * 20, encoding="utf-8")
    (tmp_path / "docs" / "bad.docx").write_bytes(b"PK\x03\x04 not really a zip")
    with Collection(tmp_path / "c.sverka") as coll:
        summary = coll.add([tmp_path / "docs", tmp_path / "missing.txt"])
    failed = dict(summary.failed)
    assert isinstance(failed[str(tmp_path / "docs" / "bad.docx")], Message)
    assert failed[str(tmp_path / "missing.txt")] == message("error.no_such_path")
    assert text(failed[str(tmp_path / "missing.txt")], "ru") == "нет такого файла или папки"


def test_progress_phases_are_codes():
    from sverka.core.api import compare, document_from_text

    seen = []
    compare(document_from_text("Один текст для сравнения. " * 5), document_from_text("Другой текст. " * 5),
            progress=lambda done, total, msg: seen.append(msg))
    assert seen and all(m.startswith("phase.") for m in seen)
    assert [messages.phase_text(m, "ru") for m in seen][-1] == "Готово"
    assert messages.phase_text("ivanov.docx", "ru") == "ivanov.docx"  # a document's name as it is


def test_collection_errors_carry_codes(tmp_path):
    import sqlite3

    from sverka.core.api import Collection
    from sverka.core.errors import Cancelled, CollectionVersionError

    Collection(tmp_path / "c.sverka").close()
    db = sqlite3.connect(tmp_path / "c.sverka")
    db.execute(f"PRAGMA user_version={99 << 16}")
    db.commit()
    db.close()
    with pytest.raises(CollectionVersionError) as newer:
        Collection(tmp_path / "c.sverka")
    m = newer.value.message
    assert m.code == "error.collection_newer" and str(newer.value) == str(m)
    assert "update Sverka" in str(newer.value)
    assert text(m, "ru").startswith("коллекция ") and "обновите Сверку" in text(m, "ru")
    assert pickle.loads(pickle.dumps(newer.value)).message == m
    assert Cancelled().message.code == "error.cancelled" and text(Cancelled().message, "ru") == "Отменено"
