"""Small plain-text files are read in the calling process (no sandbox to start: most of a
command line's wait); everything else, and whatever only looks like plain text by its name,
still goes to the sandbox, with the same result."""

from __future__ import annotations

import zipfile

import pytest

from sverka.core import api, extract as extract_module, workers
from sverka.core.cli import _needs_reader, build_parser
from sverka.core.errors import ExtractError
from sverka.core.extract import extract, extract_small_plain, is_small_plain


@pytest.fixture
def sandbox_calls(monkeypatch):
    """The sandbox's calls, recorded and answered as the sandbox would (by extract)."""
    calls = []

    def call(self, func, path, *args):
        calls.append(path)
        return extract(path)

    monkeypatch.setattr(workers.Sandbox, "call", call)
    return calls


def _outcome(path, read=api.load_document):
    try:
        return read(path)
    except ExtractError as e:
        return type(e), str(e)


def test_small_text_files_are_read_here_as_the_sandbox_reads_them(tmp_path, sandbox_calls):
    files = {"utf8.txt": "Сочинение о лете. Ёлки и «кавычки».\r\n".encode("utf-8"),
             "cp1251.txt": "Сочинение о лете, написанное в старой кодировке Windows.\n".encode("cp1251"),
             "bom.md": "\ufeff# Заголовок\n\nТекст.".encode("utf-8"),
             "nul.txt": "Текст с одним нулевым символом внутри строки.".encode("utf-8") + b"\x00" + b"and more" * 20}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        doc = api.load_document(tmp_path / name)
        assert doc == extract(tmp_path / name)
        assert extract_small_plain(tmp_path / name) == doc
    assert sandbox_calls == []
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    with pytest.raises(ExtractError, match="empty"):
        api.load_document(empty)
    assert sandbox_calls == []


def test_other_content_large_text_and_other_formats_go_to_the_sandbox(tmp_path, sandbox_calls, monkeypatch):
    zipped = tmp_path / "zipped.txt"
    with zipfile.ZipFile(zipped, "w") as zf:
        zf.writestr("word/document.xml", "<w:document/>")
    pdf = tmp_path / "pdf.txt"
    pdf.write_bytes(b"%PDF-1.4\n%broken")
    html = tmp_path / "page.html"
    html.write_text("<p>Текст страницы</p>", encoding="utf-8")
    large = tmp_path / "large.txt"
    large.write_text("Длинный текст. " * 200, encoding="utf-8")
    monkeypatch.setattr(extract_module, "IN_PROCESS_BYTES", 1000)
    for path in (zipped, pdf, html, large):
        assert extract_small_plain(path) is None
        before = len(sandbox_calls)
        outcome = _outcome(path)
        assert sandbox_calls[before:] == [str(path)]
        assert outcome == _outcome(path, extract)


def test_the_command_line_starts_the_reader_only_for_what_it_reads_there(tmp_path):
    small = tmp_path / "essay.txt"
    small.write_text("Сочинение.", encoding="utf-8")
    other = tmp_path / "essay.docx"
    other.write_bytes(b"PK\x03\x04")
    parser = build_parser()
    assert is_small_plain(small) and not is_small_plain(other) and not is_small_plain(tmp_path)
    assert not _needs_reader(parser.parse_args(["check", str(small)]))
    assert not _needs_reader(parser.parse_args(["compare", str(small), str(small)]))
    assert not _needs_reader(parser.parse_args(["extract", str(small)]))
    assert _needs_reader(parser.parse_args(["check", str(small), str(other)]))
    assert _needs_reader(parser.parse_args(["crosscheck", str(tmp_path)]))
