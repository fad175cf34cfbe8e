"""Hostile input, round two, part b (issue 15, class 6): encodings. Inputs generated here."""

from __future__ import annotations

import pytest

from sverka.core.extract.html_text import decode_html
from sverka.core.extract.plain_text import decode_bytes

RUSSIAN = "Привет, как дела? Это проверка текста на русском языке без метки порядка байтов.\n" * 5


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_russian_utf16_without_bom_is_read(encoding):
    decoded = decode_bytes(RUSSIAN.encode(encoding))
    assert decoded.encoding == encoding
    assert decoded.text == RUSSIAN


def test_gb18030_is_not_read_as_cyrillic():
    chinese = "这是一个中文文本的测试，我们用它来检查编码检测是否正确。学生提交的作业可能使用各种编码。" * 10
    decoded = decode_bytes(chinese.encode("gb18030"))
    assert decoded.text == chinese


@pytest.mark.parametrize("encoding", ["cp1251", "koi8_r", "cp866"])
def test_single_byte_russian_still_detected(encoding):
    text = "Привет, как дела? Это проверка текста на русском языке." * 5
    assert decode_bytes(text.encode(encoding)).text == text


def test_binary_with_zero_bytes_still_refused():
    from sverka.core.extract.plain_text import BinaryData

    data = bytes(range(256)) * 8
    with pytest.raises(BinaryData):
        decode_bytes(data)


@pytest.mark.parametrize("declared", ["utf-16", "UTF-16LE", "utf-16be", "utf-32"])
def test_meta_utf16_on_ascii_html_means_utf8(declared):
    page = f"<html><head><meta charset={declared}></head><body>Привет мир, hello</body></html>"
    text, encoding, _ = decode_html(page.encode("utf-8"))
    assert encoding == "utf-8"
    assert "Привет мир" in text
