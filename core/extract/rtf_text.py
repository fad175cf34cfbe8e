r"""RTF through striprtf, with the document's code page honoured.

striprtf decodes ``\'xx`` escapes with the code page of the current font's ``\fcharset``
and maps ``\fcharset0`` to CP1252 whatever ``\ansicpgNNNN`` says. Russian RTF written by
many programs declares ``\ansicpg1251`` with ``\fcharset0`` fonts, which striprtf would turn
into Latin-1 mojibake. So ``\fcharset0`` (the ANSI charset, i.e. "the document's code
page") is rewritten to the charset number of ``\ansicpg`` before striprtf runs, and raw
8-bit bytes are decoded with that code page too.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from ..errors import CorruptFile

_ANSICPG = re.compile(rb"\\ansicpg(\d+)")
_FCHARSET0 = re.compile(r"\\fcharset0(?![0-9])")
_TITLE = re.compile(r"\{\\title\s?([^{}]*)\}")
# Windows code page -> RTF \fcharset number (the inverse of striprtf's charset_map for ANSI pages).
_CHARSET_OF_CODEPAGE = {1250: 238, 1251: 204, 1253: 161, 1254: 162, 1255: 177, 1256: 178, 1257: 186, 874: 222}


def extract_rtf(path: Path, data: bytes) -> tuple[str, str, list[str]]:
    """Return (text, title, warnings)."""
    from striprtf.striprtf import rtf_to_text

    m = _ANSICPG.search(data[:4096])
    codepage = int(m.group(1)) if m else 1252
    encoding = f"cp{codepage}"
    try:
        codecs.lookup(encoding)
    except LookupError:
        codepage, encoding = 1252, "cp1252"
    source = data.decode(encoding, errors="replace")
    if codepage in _CHARSET_OF_CODEPAGE:
        source = _FCHARSET0.sub(rf"\\fcharset{_CHARSET_OF_CODEPAGE[codepage]}", source)
    try:
        text = rtf_to_text(source, encoding=encoding, errors="replace")
    except (ValueError, LookupError, IndexError) as e:
        raise CorruptFile(path, f"the RTF file is damaged ({type(e).__name__}: {e})") from None
    tm = _TITLE.search(source)
    title = rtf_to_text("{\\rtf1 " + tm.group(1) + "}", encoding=encoding, errors="replace").strip() if tm else ""
    return text, title, []
