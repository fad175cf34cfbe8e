"""Word 97-2003 documents (.doc) through the ``catdoc`` program (Debian package catdoc,
installed by installer/bootstrap.sh).

Sverka runs it without a shell on a private copy of the file's bytes (the reader already
holds them; a file swapped after the check is not read), with no input, a clean
environment and the reader's time limit; it runs inside the sandboxed reader process, whose
memory limit it inherits. Without the program a .doc is refused with the reason and what to
do, and the rest of a batch goes on.

Before catdoc sees the copy, Sverka reads the document's own structure (olefile; the FIB and
the piece table of [MS-DOC], and the Word 6/95 FIB) to show the text as Word does:

* Word 6/95 files keep their text in one 8-bit code page, that of the language the FIB names
  (``lid``): Russian Word 95 text is Windows-1251, and catdoc is told so (``-s cp1251``).
  When the language says nothing of the code page (English, or none), the code page is guessed
  from the text's bytes (charset-normalizer) and a warning says so.
* Field codes (``HYPERLINK "http..."``, ``PAGEREF _Toc1 \\h``, ``FORMTEXT``, ``TOC ...``) are
  not text: Word shows the field's result. In the copy, each field's start mark, code and
  separator, and its end mark, become characters catdoc skips (0x02, the footnote mark), so
  the result stays where Word shows it. Object and picture anchors (0x01, 0x08), which make
  catdoc drop the paragraph they stand in, are skipped the same way.
* Automatic list numbers ("1.", "a)", "1.1.", bullets), which catdoc does not give, are
  computed from the list tables and written before their paragraphs in catdoc's text
  (:mod:`.doc_lists`; Word 97-2003 files only: the lists of Word 6/95, ANLD autonumbering, are
  not read).

When that structure cannot be read (a damaged file), catdoc reads the file as it is; damaged
list tables only leave the numbers out.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

from ..errors import CorruptFile, TooLarge, UnsupportedFormat
from ..limits import read_limits
from ..messages import message
from .doc_lists import labelled_paragraphs, number_lines

TOOL = "catdoc"


def tool() -> str | None:
    """The path of catdoc, or None when it is not installed."""
    return shutil.which(TOOL, path=os.environ.get("SVERKA_DOC_TOOL_PATH") or os.defpath + ":/usr/local/bin")


def is_word_document(path: Path) -> bool:
    """An OLE2 file holding a ``WordDocument`` stream (its directory names it in UTF-16)."""
    try:
        with open(path, "rb") as f:
            data = f.read(4 * 1024 * 1024)
    except OSError:
        return False
    return "WordDocument".encode("utf-16-le") in data


def extract_doc(path: Path, data: bytes) -> tuple[str, str, list[str], list[tuple[str, str]]]:
    exe = tool()
    if exe is None:
        raise UnsupportedFormat(
            path, "an old Word 97-2003 document (.doc); reading it needs the catdoc program, which is not "
            "installed (Debian/Ubuntu: apt-get install catdoc); or save it as .docx")
    seconds = read_limits()[1]
    warnings: list = []
    meta = [("reader", "catdoc")]
    options: list[str] = []
    try:
        prepared = prepare(data)
    except Exception:  # damaged structure: catdoc reads the file as it is, and says what it finds
        prepared = None
    if prepared is not None:
        data, codepage, guessed, paragraphs = prepared
        if codepage:
            options = ["-s", codepage]
            meta.append(("encoding", codepage))
            if guessed:
                warnings.append(message("warning.doc_codepage_guessed", encoding=codepage))
    with tempfile.TemporaryDirectory(prefix="sverka-doc-") as folder:
        copy = Path(folder) / "document.doc"
        fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        try:
            done = subprocess.run([exe, "-w", *options, "-d", "utf-8", str(copy)], stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=seconds, env={"LC_ALL": "C.UTF-8", "PATH": os.defpath},
                                  check=False)
        except subprocess.TimeoutExpired:
            raise TooLarge(path, f"reading the Word document took longer than {seconds:g} s") from None
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise CorruptFile(path, "the Word 97-2003 document is damaged or encrypted"
                          + (f" (catdoc: {why[0][:200]})" if why else ""))
    text = done.stdout.decode("utf-8", "replace").replace("\f", "\n")
    if prepared is not None and prepared[3]:
        text = number_lines(text, prepared[3])
    return text, "", warnings, meta


#: Windows code page of the text of a Word 6/95 file by the primary language of its FIB's
#: ``lid`` (the ANSI code page Windows uses for that language); a language not here: none known.
_CODEPAGE_OF_LANGUAGE = {
    **dict.fromkeys((0x19, 0x22, 0x23, 0x02, 0x2F, 0x3F, 0x44, 0x40, 0x50, 0x28), "cp1251"),
    **dict.fromkeys((0x05, 0x15, 0x0E, 0x1B, 0x24, 0x18, 0x1C), "cp1250"),
    0x08: "cp1253", 0x1F: "cp1254", 0x0D: "cp1255", 0x01: "cp1256", 0x29: "cp1256", 0x20: "cp1256",
    **dict.fromkeys((0x25, 0x26, 0x27), "cp1257"), 0x2A: "cp1258", 0x1E: "cp874",
}
#: Languages of Windows-1252 (Western European): the lid says the code page, but a Russian text
#: typed in an English Word is common, so the bytes are looked at too.
_WESTERN = frozenset((0x09, 0x07, 0x0C, 0x0A, 0x10, 0x13, 0x16, 0x1D, 0x14, 0x06, 0x0B, 0x0F, 0x03, 0x2D, 0x36,
                      0x56, 0x00))
#: Serbian, Bosnian and Croatian share a primary id: the sub-language says the script.
_SERBIAN_CYRILLIC = frozenset((0x0C1A, 0x1C1A, 0x201A, 0x281A, 0x301A))
#: Code pages catdoc knows (files under /usr/share/catdoc) that a guess may give.
_GUESSABLE = ("cp1251", "cp1250", "cp1253", "cp1254", "cp1257", "koi8_r", "cp866")
_CATDOC_NAME = {"koi8_r": "koi8-r"}
#: Marks of Word's text stream: field start, separator and end; object and picture anchors.
_FIELD_START, _FIELD_SEPARATOR, _FIELD_END = 0x13, 0x14, 0x15
_ANCHORS = frozenset((0x01, 0x08))
_SKIPPED_BY_CATDOC = 0x02
#: The marks in 8-bit and in UTF-16 text (a zero-width match at every place one starts, so
#: that a match at an odd byte, set aside, never hides one at the even byte after it).
_MARKS_8 = re.compile(rb"[\x01\x08\x13\x14\x15]")
_MARKS_16 = re.compile(rb"(?=[\x01\x08\x13\x14\x15]\x00)")


def prepare(data: bytes) -> tuple[bytes, str | None, bool, list] | None:
    """(the file's bytes with field codes and anchors made skippable, catdoc's name of the text's
    8-bit code page or None, whether that code page was guessed, the main text's paragraphs with
    their list labels (:func:`doc_lists.labelled_paragraphs`; [] when none or unreadable)), or
    None when the file's structure is not one read here (catdoc then reads it as it is)."""
    import io

    import olefile

    if not olefile.isOleFile(io.BytesIO(data)):
        return None
    with olefile.OleFileIO(io.BytesIO(data)) as ole:
        word = bytearray(ole.openstream("WordDocument").read())
        if len(word) < 0x60 or struct.unpack_from("<H", word, 0)[0] != 0xA5EC:
            return None
        nfib, lid, flags = (struct.unpack_from("<H", word, at)[0] for at in (2, 6, 10))
        old = nfib <= 105  # Word 6.0 and Word 95: one 8-bit code page, no table stream
        if flags & 0x0100:  # encrypted: catdoc says so
            return None
        if old:
            pieces = _pieces_word6(word, flags)
        else:
            table_name = "1Table" if flags & 0x0200 else "0Table"
            if not ole.exists(table_name):
                return None
            table = ole.openstream(table_name).read()
            pieces = _pieces_word97(word, table)
        if pieces is None:
            return None
        changed = _blank_field_codes(word, pieces)
        codepage, guessed = None, False
        paragraphs: list = []
        if old:
            codepage, guessed = _codepage(word, pieces, lid)
        else:
            try:
                paragraphs = labelled_paragraphs(word, table, pieces)
            except Exception:  # a damaged list table: the text without its numbers
                paragraphs = []
        if not changed:
            return data, codepage, guessed, paragraphs
        out = io.BytesIO(data)
    with olefile.OleFileIO(out, write_mode=True) as ole:
        ole.write_stream("WordDocument", bytes(word))
    return out.getvalue(), codepage, guessed, paragraphs


def _pieces_word97(word: bytes, table: bytes) -> list[tuple[int, int, int, bool]] | None:
    """[(first character position, byte offset in WordDocument, characters, 8-bit?)] of the
    document's text (every story:
    body, footnotes, headers, ...), from the piece table of the CLX ([MS-DOC] 2.9.38)."""
    fc_clx, lcb_clx = struct.unpack_from("<II", word, 0x1A2)
    if lcb_clx == 0 or fc_clx + lcb_clx > len(table):
        return None
    clx = table[fc_clx:fc_clx + lcb_clx]
    pos = 0
    while pos < len(clx) and clx[pos] == 0x01:  # Prc: property modifiers, skipped
        pos += 3 + struct.unpack_from("<H", clx, pos + 1)[0]
    if pos + 5 > len(clx) or clx[pos] != 0x02:
        return None
    size = struct.unpack_from("<I", clx, pos + 1)[0]
    plc = clx[pos + 5:pos + 5 + size]
    n = (len(plc) - 4) // 12
    if n <= 0 or 4 * (n + 1) + 8 * n > len(plc):
        return None
    cps = struct.unpack_from(f"<{n + 1}I", plc, 0)
    out = []
    total = 0  # characters of all pieces: no more than the stream's bytes (pieces named again and again)
    for k in range(n):
        fc = struct.unpack_from("<I", plc, 4 * (n + 1) + 8 * k + 2)[0]
        count = cps[k + 1] - cps[k]
        if count <= 0:
            continue
        compressed = bool(fc & 0x40000000)
        start = (fc & 0x3FFFFFFF) // 2 if compressed else fc
        total += count
        if start + count * (1 if compressed else 2) > len(word) or total > len(word):
            return None
        out.append((cps[k], start, count, compressed))
    return out


def _pieces_word6(word: bytes, flags: int) -> list[tuple[int, int, int, bool]] | None:
    """The text of a Word 6/95 file: one 8-bit run from fcMin to fcMac (a file saved in full;
    a fast-saved one, fComplex, is read by catdoc as it is)."""
    if flags & 0x0004:
        return None
    fc_min, fc_mac = struct.unpack_from("<II", word, 0x18)
    if not 0 < fc_min <= fc_mac <= len(word):
        return None
    return [(0, fc_min, fc_mac - fc_min, True)]


def _blank_field_codes(word: bytearray, pieces) -> bool:
    """Turn every field's start mark, code, separator and end mark, and every object anchor, into
    the character catdoc skips, in place; whether anything changed. Field codes nest (a field
    inside another's code is code too); a result is shown, fields inside it included. Only the
    marks are looked at one by one (found by a regular expression); the code between them is
    blanked a stretch at a time."""
    depth_in_code: list[bool] = []  # one entry per open field: still in its code?
    in_code = 0  # open fields still in their code
    changed = False
    for _, start, count, narrow in pieces:
        width = 1 if narrow else 2
        blank = bytes([_SKIPPED_BY_CATDOC]) if narrow else bytes([_SKIPPED_BY_CATDOC, 0])
        raw = bytes(word[start:start + count * width])
        done = 0  # characters of this piece dealt with
        for m in (_MARKS_8 if narrow else _MARKS_16).finditer(raw):
            if m.start() % width:
                continue
            k = m.start() // width
            c = raw[m.start()]
            if in_code and k > done:  # the code up to this mark
                word[start + done * width:start + k * width] = blank * (k - done)
                changed = True
            mark = False
            if c == _FIELD_START:
                depth_in_code.append(True)
                in_code += 1
                mark = True
            elif c == _FIELD_SEPARATOR and depth_in_code:
                in_code -= depth_in_code[-1]
                depth_in_code[-1] = False
                mark = True
            elif c == _FIELD_END and depth_in_code:
                in_code -= depth_in_code.pop()
                mark = True
            elif c in _ANCHORS or in_code:
                mark = True
            if mark:
                word[start + k * width:start + (k + 1) * width] = blank
                changed = True
            done = k + 1
        if in_code and count > done:
            word[start + done * width:start + count * width] = blank * (count - done)
            changed = True
    return changed


def _codepage(word: bytes, pieces, lid: int) -> tuple[str | None, bool]:
    """(catdoc's name of the 8-bit code page of a Word 6/95 file's text, guessed?)."""
    primary = lid & 0x3FF
    if lid in _SERBIAN_CYRILLIC:
        return "cp1251", False
    if primary in _CODEPAGE_OF_LANGUAGE:
        return _CODEPAGE_OF_LANGUAGE[primary], False
    sample = b"".join(bytes(word[s:s + n]) for _, s, n, _ in pieces)[:256 * 1024]
    if not any(b >= 0x80 for b in sample):
        return None, False  # ASCII: every code page reads it alike
    from charset_normalizer import from_bytes

    best = from_bytes(sample, cp_isolation=["cp1252", *_GUESSABLE]).best()
    if best is None or best.encoding in ("cp1252", "ascii") or best.encoding not in _GUESSABLE:
        return None, False
    if primary in _WESTERN and primary != 0x00 and _latin_reading_plausible(sample):
        return None, False
    return _CATDOC_NAME.get(best.encoding, best.encoding), True


def _latin_reading_plausible(sample: bytes) -> bool:
    """Do the bytes read as Windows-1252 make words of Western European letters (é, ü, ß between
    Latin letters), rather than runs of À-ÿ letters only (Cyrillic text read as Latin)?"""
    text = sample.decode("cp1252", "replace")
    mixed = len(re.findall(r"[A-Za-z][\u00c0-\u00ff][A-Za-z]", text))
    runs = len(re.findall(r"[\u00c0-\u00ff]{4,}", text))
    return mixed > runs
