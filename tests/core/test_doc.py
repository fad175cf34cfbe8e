"""Word 97-2003 .doc files: read through catdoc in the sandboxed reader, refused with the
reason (and what to do) when catdoc is missing, damaged ones named while the rest goes on.
The .doc files are built by tests/core/word97.py (no office suite on the test machines)."""

from __future__ import annotations

import pytest

from sverka.core import api
from sverka.core.errors import CorruptFile, UnsupportedFormat
from sverka.core.extract import SUPPORTED_SUFFIXES, extract
from sverka.core.extract.doc_text import tool

from word97 import word97

TEXT = ("Ванька Жуков, девятилетний мальчик, отданный три месяца тому назад в ученье к сапожнику "
        "Аляхину, в ночь под Рождество не ложился спать.\nДождавшись, когда хозяева и подмастерья "
        "ушли к заутрене, он достал из хозяйского шкапа пузырёк с чернилами.")

needs_catdoc = pytest.mark.skipif(tool() is None, reason="catdoc is not installed (installer/bootstrap.sh installs it)")


@needs_catdoc
def test_a_word97_document_is_read(tmp_path):
    path = tmp_path / "Сочинение.doc"
    path.write_bytes(word97(TEXT))
    doc = extract(path)
    assert doc.format == "doc" and doc.title == "Сочинение"
    assert " ".join(doc.text.split()) == " ".join(TEXT.split())
    # the same through the sandboxed reader the window and the command line use
    assert api.load_document(path).text == doc.text


@needs_catdoc
def test_a_folder_with_doc_files_is_added_and_a_damaged_one_is_named(tmp_path):
    folder = tmp_path / "refs"
    folder.mkdir()
    (folder / "good.doc").write_bytes(word97(TEXT))
    damaged = bytearray(word97(TEXT))
    damaged[512:1024] = bytes(512)  # the allocation table gone
    (folder / "damaged.doc").write_bytes(bytes(damaged))
    (folder / "other.txt").write_text("Другой текст о весне и ручьях.", encoding="utf-8")
    assert ".doc" in SUPPORTED_SUFFIXES
    with api.Collection(tmp_path / "c.sverka") as c:
        summary = c.add([folder])
    assert sorted(p.rsplit("/", 1)[1] for p in summary.added) == ["good.doc", "other.txt"]
    (failed_path, why), = summary.failed
    assert failed_path.endswith("damaged.doc") and "Word 97-2003" in api.message_text(why, "en")


def test_without_catdoc_a_doc_is_refused_with_the_reason(tmp_path, monkeypatch):
    monkeypatch.setenv("SVERKA_DOC_TOOL_PATH", str(tmp_path / "no-tools-here"))
    path = tmp_path / "old.doc"
    path.write_bytes(word97(TEXT))
    with pytest.raises(UnsupportedFormat) as e:
        extract(path)
    assert "old.doc" in str(e.value) and "catdoc" in str(e.value) and ".docx" in str(e.value)


def test_other_office_97_files_are_still_refused(tmp_path):
    path = tmp_path / "table.doc"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504) + "Workbook".encode("utf-16-le") + bytes(4096))
    with pytest.raises(UnsupportedFormat, match="97-2003"):
        extract(path)


@needs_catdoc
def test_catdoc_failing_is_a_damaged_file(tmp_path):
    path = tmp_path / "broken.doc"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + "WordDocument".encode("utf-16-le") + bytes(3000))
    with pytest.raises(CorruptFile, match="broken.doc"):
        extract(path)
