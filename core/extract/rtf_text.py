r"""RTF through striprtf, with the document's code page honoured.

striprtf decodes ``\'xx`` escapes with the code page of the current font's ``\fcharset``
and maps ``\fcharset0`` to CP1252 whatever ``\ansicpgNNNN`` says. Russian RTF written by
many programs declares ``\ansicpg1251`` with ``\fcharset0`` fonts, which striprtf would turn
into Latin-1 mojibake. So ``\fcharset0`` (the ANSI charset, i.e. "the document's code
page") is rewritten to the charset number of ``\ansicpg`` before striprtf runs, and raw
8-bit bytes are decoded with that code page too.

Before striprtf, one linear pass over the RTF (:func:`_prepass`) leaves out hidden text
(``\\v`` up to ``\\v0`` or the end of its group, a font of 1 pt or less, white text in a
document that shades nothing; counted and reported), tracked deletions (``\\deleted``) and
``\\bin`` data, and moves footnotes (``{\\footnote ...}``, which striprtf drops) and the text of
drawing shapes (text boxes, ``{\\shptxt ...}`` inside ``{\\*\\shpinst ...}``, which striprtf skips) after the body. The
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
_COLORTBL = re.compile(r"\{\\colortbl\s*([^{}]*)\}")
_RGB = re.compile(r"\\(red|green|blue)(\d+)")
#: Background colours and shading of cells, paragraphs and characters (a non-zero value).
_SHADING = re.compile(r"\\(?:clcbpat|clshdng|cbpat|shading|chcbpat|chshdng|highlight|cb)0*[1-9]")
_FORMAT_WORDS = frozenset({"plain", "v", "fs", "cf", "deleted"})
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
    source, hidden = _prepass(source)
    source = _UNICODE_ESCAPE.sub(_in_range, source)
    try:
        text = rtf_to_text(source, encoding=encoding, errors="replace")
    except (ValueError, LookupError, IndexError) as e:
        raise CorruptFile(path, f"the RTF file is damaged ({type(e).__name__}: {e})") from None
    tm = _TITLE.search(source)
    title = rtf_to_text("{\\rtf1 " + tm.group(1) + "}", encoding=encoding, errors="replace").strip() if tm else ""
    return text, title, hidden_text_warnings(hidden, text)


def _white_colours(source: str) -> frozenset[int]:
    """Indexes of the colour table's white entries (each of red, green, blue 245 or more), none at
    all when the document shades anything (a table cell, a paragraph, characters: where, this
    pass does not follow, and white text on it is seen). Index 0 is the automatic colour, never
    white, whatever the table says."""
    m = _COLORTBL.search(source)
    if not m or _SHADING.search(source):
        return frozenset()
    white = set()
    for k, entry in enumerate(m.group(1).split(";")):
        rgb = dict((name, int(v)) for name, v in _RGB.findall(entry))
        if k and rgb and all(rgb.get(c, 0) >= 245 for c in ("red", "green", "blue")):  # white, or all but
            white.add(k)
    return frozenset(white)


#: Character formatting that hides text, per open group: \v, \fs (half-points), \cf (colour),
#: \deleted (a tracked deletion). A colour under white text (\highlight, \cb, cell and paragraph
#: shading) is not followed: a document that shades anything has no white text
#: (:func:`_white_colours`).
_PLAIN = (False, 24, 0, False)


def _prepass(source: str) -> tuple[str, dict[str, int]]:
    """(RTF without its hidden text and tracked deletions and with its footnotes and shape text
    moved to the end, words left out by why). Hidden: ``\\v``, a font of 1 pt or less
    (``\\fs1``, ``\\fs2``) and white text (a white ``\\cf`` in a document that shades nothing),
    as a Word document's; ``\\bin N`` data is skipped."""
    out: list[str] = []
    notes: list[str] = []
    note: list[str] | None = None
    note_depth = 0
    white = _white_colours(source)
    fmt = [_PLAIN]  # per open group: (\v, \fs, \cf, \deleted)
    not_text = [False]  # per open group: a table, style sheet, picture ... (no text of the page)
    fresh = False  # the previous token opened a group
    depth = 0
    gone: dict[str, list[str]] = {}  # hidden text left out (escaped characters as "x"), to count its words
    after_u = False
    pos, n = 0, len(source)

    def why(f) -> str | None:
        if f[0]:
            return "hidden formatting"
        if f[3]:
            return "deleted"
        if 1 <= f[1] <= 2:
            return "text of 1 pt or less"
        if f[2] in white:
            return "white text"
        return None

    reason = None
    while pos < n:
        m = _TOKEN.match(source, pos)
        pos = m.end()
        tok = m.group(0)
        word = m.group(1)
        target = note if note is not None else out
        after_u, was_u = word == "u", after_u
        if fresh and (tok == "\\*" or word in _NOT_TEXT):
            not_text[-1] = True
        fresh = tok == "{"
        if tok == "{":
            depth += 1
            fmt.append(fmt[-1])
            not_text.append(not_text[-1])
            target.append(tok)
        elif tok == "}":
            depth -= 1
            if reason is not None:
                gone.setdefault(reason, []).append(" ")
            if len(fmt) > 1:
                fmt.pop()
                not_text.pop()
            reason = why(fmt[-1])
            target.append(tok)
            if note is not None and depth < note_depth:
                notes.append("".join(note))
                note = None
        elif word == "bin":  # N bytes of binary data, no text: skipped whole
            pos = min(n, pos + max(0, int(m.group(2) or 0)))
        elif word == "shptxt" and note is None and out and out[-1] == "{":
            # the text of a drawing shape (a text box), inside {\*\shpinst ...} that striprtf
            # skips: read after the body, like a footnote
            out.pop()
            note, note_depth = ["{"], depth
            not_text[-1] = False
        elif not_text[-1]:
            target.append(tok)  # kept as it is: striprtf skips these groups itself
        elif word in _FORMAT_WORDS:
            v, fs, cf, deleted = fmt[-1]
            value = m.group(2)
            if word == "plain":
                fmt[-1] = _PLAIN
            elif word == "v":
                fmt[-1] = (value != "0", fs, cf, deleted)
            elif word == "fs":
                fmt[-1] = (v, int(value) if value else 24, cf, deleted)
            elif word == "cf":
                fmt[-1] = (v, fs, int(value) if value else 0, deleted)
            else:  # deleted
                fmt[-1] = (v, fs, cf, value != "0")
            new_reason = why(fmt[-1])
            if new_reason != reason and reason is not None:
                gone.setdefault(reason, []).append(" ")
            reason = new_reason
            target.append(tok)  # striprtf ignores them; the \v kept is never on here
            if word == "v" and fmt[-1][0]:
                target.pop()
        elif word == "footnote" and note is None and out and out[-1] == "{":
            out.pop()  # the group opened just before: it becomes a note read after the body
            note, note_depth = ["{"], depth
        elif reason is not None and not tok.startswith("\\"):
            gone.setdefault(reason, []).append(tok[1:] if was_u else tok)  # (the fallback character after \u)
        elif reason is not None and (tok.startswith("\\'") or word == "u"):
            gone.setdefault(reason, []).append("x")  # an escaped character of hidden text: a letter, for counting
        elif reason is not None and word == "uc":
            continue
        else:
            target.append(tok)
    if note is not None:  # an unclosed footnote: keep what it held
        notes.append("".join(note))
    body = "".join(out)
    if notes:
        end = body.rfind("}")
        end = end if end >= 0 else len(body)
        body = body[:end] + "".join("\\par " + x for x in notes) + body[end:]
    counts = {r: len(_WORD.findall("".join(t))) for r, t in gone.items() if r != "deleted"}
    return body, {r: c for r, c in counts.items() if c}
