r"""RTF through striprtf, with the document's code page honoured.

striprtf decodes ``\'xx`` escapes with the code page of the current font's ``\fcharset``
and maps ``\fcharset0`` to CP1252 whatever ``\ansicpgNNNN`` says. Russian RTF written by
many programs declares ``\ansicpg1251`` with ``\fcharset0`` fonts, which striprtf would turn
into Latin-1 mojibake. So ``\fcharset0`` (the ANSI charset, i.e. "the document's code
page") is rewritten to the charset number of ``\ansicpg`` before striprtf runs, and raw
8-bit bytes are decoded with that code page too.

Before striprtf, one linear pass over the RTF (:func:`_prepass`) leaves out hidden text
(``\\v`` up to ``\\v0`` or the end of its group; counted and reported) and moves footnotes
(``{\\footnote ...}``, which striprtf drops) and the text of drawing shapes (text boxes,
``{\\shptxt ...}`` inside ``{\\*\\shpinst ...}``, which striprtf skips) after the body. The
drawing-object copy Word writes beside it for old readers (``\\shprslt``, ``\\dptxbxtext``)
is not read, so a shape's text is read once.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from ..errors import CorruptFile
from .hidden import hidden_text_warnings

_ANSICPG = re.compile(rb"\\ansicpg(\d+)")
_FCHARSET0 = re.compile(r"\\fcharset0(?![0-9])")
_TITLE = re.compile(r"\{\\title\s?([^{}]*)\}")
_TOKEN = re.compile(r"\\([a-zA-Z]+)(-?\d+)? ?|\\'[0-9a-fA-F]{2}|\\[^a-zA-Z]|[{}]|[^\\{}]+")
_WORD = re.compile(r"\w+")
#: Groups that hold no text of the page (tables, styles, metadata, pictures): hidden
#: formatting inside them (a hidden character style) is not hidden text.
_NOT_TEXT = {"fonttbl", "colortbl", "stylesheet", "info", "listtable", "listoverridetable", "rsidtbl",
             "generator", "pict", "object", "themedata", "colorschememapping", "latentstyles",
             "datastore", "xmlnstbl", "mmathPr", "filetbl", "revtbl", "pgdsctbl"}
# Windows code page -> RTF \fcharset number (the inverse of striprtf's charset_map for ANSI pages).
_CHARSET_OF_CODEPAGE = {1250: 238, 1251: 204, 1253: 161, 1254: 162, 1255: 177, 1256: 178, 1257: 186, 874: 222}


_UNICODE_ESCAPE = re.compile(r"\\u(-?\d{6,})")


def _in_range(m: re.Match) -> str:
    """``\\uN`` as it is, or U+FFFD when N is no character (``\\u99999999``: striprtf's chr()
    refused the whole document for it, Word shows the rest)."""
    return m.group(0) if -32768 <= int(m.group(1)) <= 0x10FFFF else "\\u65533"


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
    source, hidden_words = _prepass(source)
    source = _UNICODE_ESCAPE.sub(_in_range, source)
    try:
        text = rtf_to_text(source, encoding=encoding, errors="replace")
    except (ValueError, LookupError, IndexError) as e:
        raise CorruptFile(path, f"the RTF file is damaged ({type(e).__name__}: {e})") from None
    tm = _TITLE.search(source)
    title = rtf_to_text("{\\rtf1 " + tm.group(1) + "}", encoding=encoding, errors="replace").strip() if tm else ""
    return text, title, hidden_text_warnings({"hidden formatting": hidden_words} if hidden_words else {}, text)


def _prepass(source: str) -> tuple[str, int]:
    """(RTF without its hidden text and with its footnotes and shape text moved to the end,
    words left out)."""
    out: list[str] = []
    notes: list[str] = []
    note: list[str] | None = None
    note_depth = 0
    hidden = [False]  # per open group: is \v on
    not_text = [False]  # per open group: a table, style sheet, picture ... (no text of the page)
    fresh = False  # the previous token opened a group
    depth = 0
    gone: list[str] = []  # hidden text left out (escaped characters as "x"), to count its words
    after_u = False
    for m in _TOKEN.finditer(source):
        tok = m.group(0)
        target = note if note is not None else out
        after_u, was_u = m.group(1) == "u", after_u
        if fresh and (tok == "\\*" or m.group(1) in _NOT_TEXT):
            not_text[-1] = True
        fresh = tok == "{"
        if tok == "{":
            depth += 1
            hidden.append(hidden[-1])
            not_text.append(not_text[-1])
            target.append(tok)
        elif tok == "}":
            depth -= 1
            if hidden[-1]:
                gone.append(" ")
            if len(hidden) > 1:
                hidden.pop()
                not_text.pop()
            target.append(tok)
            if note is not None and depth < note_depth:
                notes.append("".join(note))
                note = None
        elif m.group(1) == "shptxt" and note is None and out and out[-1] == "{":
            # the text of a drawing shape (a text box), inside {\*\shpinst ...} that striprtf
            # skips: read after the body, like a footnote
            out.pop()
            note, note_depth = ["{"], depth
            not_text[-1] = False
        elif not_text[-1]:
            target.append(tok)  # kept as it is: striprtf skips these groups itself
        elif m.group(1) == "v":
            hidden[-1] = m.group(2) != "0"
            gone.append(" ")
        elif m.group(1) == "footnote" and note is None and out and out[-1] == "{":
            out.pop()  # the group opened just before: it becomes a note read after the body
            note, note_depth = ["{"], depth
        elif hidden[-1] and not tok.startswith("\\"):
            gone.append(tok[1:] if was_u else tok)  # (the fallback character after \u)
        elif hidden[-1] and (tok.startswith("\\'") or m.group(1) == "u"):
            gone.append("x")  # an escaped character of hidden text: a letter, as far as counting goes
        elif hidden[-1] and m.group(1) == "uc":
            continue
        else:
            target.append(tok)
    if note is not None:  # an unclosed footnote: keep what it held
        notes.append("".join(note))
    body = "".join(out)
    if notes:
        end = body.rfind("}")
        end = end if end >= 0 else len(body)
        body = body[:end] + "".join("\\par " + n for n in notes) + body[end:]
    return body, len(_WORD.findall("".join(gone)))
