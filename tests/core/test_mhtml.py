"""Web pages saved as one file (MHTML, .mht/.mhtml), read as the browser showed them."""

from __future__ import annotations

import base64
import quopri

import pytest

from sverka.core.errors import CorruptFile
from sverka.core.extract import SUPPORTED_SUFFIXES, extract

PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Сочинение о маяке</title>
<link rel="stylesheet" href="https://example.ru/site.css"></head>
<body><nav class="menu">Главная Новости Контакты</nav>
<article><h1>Старый маяк</h1><p>Старый смотритель маяка каждый вечер поднимался по лестнице,
чтобы зажечь большую лампу.</p><p class="promo">Подпишитесь на рассылку!</p>
<p>Корабли полагались на её луч — «ёлки-палки», сказал капитан.</p></article>
<iframe src="cid:frame-1@mhtml.blink"></iframe></body></html>"""
CSS = ".menu { display: none } .promo { visibility: hidden }"
FRAME = "<html><body><p>Реклама в рамке, которой нет в тексте страницы.</p></body></html>"


def blink_mhtml(page: str = PAGE, css: str = CSS, charset: str = "utf-8", boundary: str = "----MultipartBoundary--x1") -> bytes:
    """A page saved as Chromium saves it ("Webpage, Single File"): quoted-printable HTML with
    its charset, the style sheet and a frame at their addresses, a base64 picture."""
    qp = quopri.encodestring(page.encode(charset)).decode("ascii")
    frame = quopri.encodestring(FRAME.encode("utf-8")).decode("ascii")
    picture = base64.encodebytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256))).decode("ascii")
    return f"""From: <Saved by Blink>
Snapshot-Content-Location: https://example.ru/essay.html
Subject: =?utf-8?Q?=D0=A1=D0=BE=D1=87=D0=B8=D0=BD=D0=B5=D0=BD=D0=B8=D0=B5?=
Date: Sat, 28 Nov 2026 05:00:00 -0000
MIME-Version: 1.0
Content-Type: multipart/related;
\ttype="text/html";
\tboundary="{boundary}"


--{boundary}
Content-Type: text/html; charset={charset}
Content-ID: <frame-0@mhtml.blink>
Content-Transfer-Encoding: quoted-printable
Content-Location: https://example.ru/essay.html

{qp}
--{boundary}
Content-Type: text/css
Content-Transfer-Encoding: quoted-printable
Content-Location: https://example.ru/site.css

{css}
--{boundary}
Content-Type: text/html
Content-ID: <frame-1@mhtml.blink>
Content-Transfer-Encoding: quoted-printable

{frame}
--{boundary}
Content-Type: image/png
Content-Transfer-Encoding: base64
Content-Location: https://example.ru/lamp.png

{picture}
--{boundary}--
""".replace("\n", "\r\n").encode("ascii")


def test_a_page_saved_as_one_file_is_read_as_the_browser_showed_it(tmp_path):
    """The page's text, its title and its Cyrillic (quoted-printable UTF-8) are read; what its
    saved style sheet hides (a menu, a hidden promo) and the frame's own page are not."""
    assert ".mhtml" in SUPPORTED_SUFFIXES and ".mht" in SUPPORTED_SUFFIXES
    f = tmp_path / "essay.mhtml"
    f.write_bytes(blink_mhtml())
    doc = extract(f)
    assert "Старый смотритель маяка каждый вечер поднимался по лестнице" in doc.text
    assert "«ёлки-палки»" in doc.text and "Старый маяк" in doc.text
    assert doc.title == "Сочинение о маяке"
    for hidden in ("Главная", "Подпишитесь", "Реклама"):
        assert hidden not in doc.text
    assert not any(ch in doc.text for ch in "=\r")  # no transfer encoding left


def test_a_windows_1251_page_saved_by_internet_explorer(tmp_path):
    """An .mht in Windows-1251 (Internet Explorer, Word's "Web page, single file") is decoded by
    the charset its part declares."""
    f = tmp_path / "old.mht"
    f.write_bytes(blink_mhtml(PAGE.replace('<meta charset="utf-8">', ""), charset="windows-1251"))
    doc = extract(f)
    assert "Корабли полагались на её луч" in doc.text and "Главная" not in doc.text


def test_a_saved_page_with_its_sheet_in_place_hides_without_the_sheet_part(tmp_path):
    """Without a saved style sheet the page reads as it is (its menu then shows), and a file
    named .mhtml that is no saved page is refused with the reason."""
    f = tmp_path / "plain.mhtml"
    f.write_bytes(blink_mhtml(css=""))
    assert "Главная" in extract(f).text
    bad = tmp_path / "notes.mhtml"
    bad.write_text("Просто заметки, сохранённые не тем именем.\n", encoding="utf-8")
    with pytest.raises(CorruptFile, match="not a web page saved as one file"):
        extract(bad)
