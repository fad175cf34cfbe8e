"""Text extraction: a file path in, a :class:`~sverka.core.document.Document` out.

One module per format; :func:`extract` sniffs the content (not only the suffix) and
dispatches. Unknown, binary, corrupt, encrypted or empty input raises an
:class:`~sverka.core.errors.ExtractError` subclass naming the file and the reason.

The content decides the format when it is recognisable: a PDF, a zip archive (.docx or
.odt by its members) or an RTF file is read as what it is whatever its name says (with a
warning). Otherwise the suffix decides among .txt/.md, .html/.htm and .mht/.mhtml (a web page
saved as one file) and .fb2 (FictionBook; a zip of one, .fb2.zip, by its content); an
EPUB book is a zip archive recognised by its container; other suffixes are refused. Newlines in the result are always ``\\n``; NUL characters are removed (with a
warning); the text is otherwise exactly what the format reader produced, so extracting the
same file twice gives the same string. Safety limits live in :mod:`.safety`.
"""

from __future__ import annotations

import os
import re
import stat as _stat
import unicodedata
import zipfile
from pathlib import Path

from ..document import Document
from ..messages import message
from ..errors import (
    CorruptFile,
    EmptyDocument,
    EncryptedFile,
    ExtractError,
    TooLarge,
    UnreadableFile,
    UnsupportedFormat,
)
from .safety import MAX_FILE_BYTES, MAX_TEXT_CHARS, check_file_size, check_text_size
# Each reader (and its library: pypdfium2, python-docx, selectolax...) is imported inside the
# function that reads its format: a start, and a worker reading one format, load only that one.

__all__ = ["Document", "ExtractError", "extract", "extract_small_plain", "is_small_plain", "IN_PROCESS_BYTES",
           "SUPPORTED_SUFFIXES", "MAX_FILE_BYTES", "MAX_TEXT_CHARS"]

#: File name endings Sverka offers in file dialogs and picks up when adding a folder.
SUPPORTED_SUFFIXES = (".txt", ".md", ".docx", ".doc", ".pdf", ".odt", ".rtf", ".html", ".htm", ".mht", ".mhtml",
                      ".fb2", ".fb2.zip", ".epub")

_TEXT_SUFFIXES = {".txt": "txt", ".md": "md"}
_HTML_SUFFIXES = {".html", ".htm"}
_MHTML_SUFFIXES = {".mht", ".mhtml"}
_HEAD_BYTES = 8192
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_KNOWN_BINARY = (
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"\x7fELF", "a program (ELF)"),
    (b"MZ", "a Windows program"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!", "a RAR archive"),
    (b"%!PS", "a PostScript file"),
    (b"\xffWPC", "a WordPerfect document"),
)
_WORDPERFECT = "a WordPerfect document"
_FORMAT_NAMES = {"pdf": "a PDF", "docx": "a Word .docx document", "doc": "a Word 97-2003 .doc document", "odt": "an OpenDocument text", "rtf": "an RTF document", "epub": "an EPUB book"}


def extract(path: str | Path) -> Document:
    """Extract the plain text of the file at ``path``."""
    path = Path(path)
    try:
        st = path.stat()  # follows links: a link to /dev/zero is a device, refused below
        if _stat.S_ISDIR(st.st_mode):
            raise UnreadableFile(path, code="error.folder")
        if not _stat.S_ISREG(st.st_mode):
            raise UnreadableFile(path, code="error.not_regular")
        size = st.st_size
        check_file_size(path, size)
        # O_NONBLOCK: a file swapped for a pipe after the check must not block the reader.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not _stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise UnreadableFile(path, code="error.not_regular")
            head = f.read(_HEAD_BYTES)
    except ExtractError:
        raise
    except FileNotFoundError:
        raise UnreadableFile(path, code="error.missing") from None
    except PermissionError:
        raise UnreadableFile(path, code="error.permission") from None
    except OSError as e:
        raise UnreadableFile(path, f"the file cannot be opened ({e.strerror or e})") from None
    return _extract_from(path, head)


#: A plain-text file of at most this many bytes may be read without the sandbox
#: (:func:`extract_small_plain`).
IN_PROCESS_BYTES = 4 * 1024 * 1024


def is_small_plain(path: str | Path) -> bool:
    """Is ``path`` named as plain text (.txt, .md) and a regular file of at most
    :data:`IN_PROCESS_BYTES`? (What :func:`extract_small_plain` will read, unless the
    content turns out to be another format's.)"""
    path = Path(path)
    try:
        st = path.stat()
    except (OSError, ValueError):
        return False
    return path.suffix.lower() in _TEXT_SUFFIXES and _stat.S_ISREG(st.st_mode) and st.st_size <= IN_PROCESS_BYTES


def extract_small_plain(path: str | Path) -> Document | None:
    """:func:`extract` of a plain-text file (.txt or .md by name, no other format's signature
    in its first bytes) of at most :data:`IN_PROCESS_BYTES`, else None. Reading one is
    decoding its bytes (the encoding guessed from the first 256 KB): time and memory bounded
    by its size, nothing a format library parses, so it needs no sandbox (whose start costs
    a command line more than the rest of reading). Its bytes are read once, from one open
    file: a file changed meanwhile is read as it was or not at all."""
    path = Path(path)
    if path.suffix.lower() not in _TEXT_SUFFIXES:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not _stat.S_ISREG(st.st_mode) or st.st_size > IN_PROCESS_BYTES:
                return None
            data = f.read(IN_PROCESS_BYTES + 1)
    except (OSError, ValueError):
        return None  # extract says why
    if len(data) > IN_PROCESS_BYTES or _signature(data[:_HEAD_BYTES]) is not None:
        return None
    return _extract_from(path, data[:_HEAD_BYTES], data)


def _extract_from(path: Path, head: bytes, data: bytes | None = None) -> Document:
    """:func:`extract` once the file's first bytes are read (``data``: all of them, if read)."""
    if not head:
        raise EmptyDocument(path, "the file is empty (0 bytes)")

    fmt = _sniff(path, head)
    warnings: list[str] = []
    suffix_format = _format_of_suffix(path)
    if fmt in _FORMAT_NAMES and suffix_format not in (fmt, None):
        warnings.append(message("warning.format_mismatch", suffix=path.suffix, format=fmt))

    try:
        text, title, more_warnings, meta = _read(path, fmt, data)
    except ExtractError:
        raise
    except RecursionError:
        raise CorruptFile(path, "the document is nested too deeply to read") from None
    except MemoryError:
        raise TooLarge(path, "not enough memory to read the file") from None
    except OSError as e:
        raise UnreadableFile(path, f"the file cannot be read ({e.strerror or e})") from None
    except Exception as e:  # a format library choking on hostile input: a damaged file, not a crash
        raise CorruptFile(path, f"the file is damaged ({type(e).__name__}: {e})") from e
    warnings.extend(more_warnings)
    text, fix_warnings = _normalise(text)
    warnings.extend(fix_warnings)
    title, _ = repair_surrogates(title or "")
    check_text_size(path, text)
    if not text.strip():
        raise EmptyDocument(path, "the file contains no text")
    if _ANY_WORD.search(text) is None and _no_words(text):
        raise EmptyDocument(path, "the file contains no words")
    if fmt in ("txt", "md") and suffix_format in ("txt", "md"):
        fmt = suffix_format
    if fmt == "fb2zip":
        fmt = "fb2"  # the text of a zipped book is the book's
    return Document(
        text=text,
        path=str(path),
        title=title or path.stem,
        format=fmt,
        warnings=tuple(warnings),
        meta=tuple(meta),
    )


def _format_of_suffix(path: Path) -> str | None:
    suffix = path.suffix.lower()
    if suffix in _TEXT_SUFFIXES:
        return _TEXT_SUFFIXES[suffix]
    if suffix in _HTML_SUFFIXES:
        return "html"
    if suffix in _MHTML_SUFFIXES:
        return "mhtml"
    if suffix == ".fb2":
        return "fb2"
    if suffix == ".epub":
        return "epub"
    if suffix in (".pdf", ".docx", ".doc", ".odt", ".rtf"):
        return suffix[1:]
    return None


def _sniff(path: Path, head: bytes) -> str:
    """The format by content first, then by suffix; raises for what Sverka cannot read."""
    suffix_format = _format_of_suffix(path)
    signature = _signature(head)
    if signature is not None and suffix_format in ("txt", "md", "html", "mhtml", "fb2") and _plain_text(head):
        # a text file whose first words look like a signature: an essay about PDF quoting
        # "%PDF-1.7" in its first lines, "MZ-формат ...", "GIF89a — версия формата ...". A real
        # PDF named .txt begins with "%PDF-"; a picture or a program holds control bytes.
        if signature == "pdf" and not head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"%PDF-"):
            signature = None
        elif signature in _BINARY_NAMES:
            signature = None
    if signature == "pdf":
        return "pdf"
    if signature == "zip":
        try:
            with zipfile.ZipFile(path) as zf:
                names = set(zf.namelist())
                mimetype = zf.read("mimetype")[:64].strip() if "mimetype" in names else b""
        except (zipfile.BadZipFile, EOFError, ValueError, OSError, RuntimeError) as e:  # RuntimeError: encrypted member
            if suffix_format in ("docx", "odt", "epub"):
                return suffix_format  # its reader reports the damaged archive in its own words
            raise CorruptFile(path, f"a damaged zip archive ({e})") from None
        if "word/document.xml" in names:
            return "docx"
        if "META-INF/container.xml" in names and (mimetype == b"application/epub+zip" or suffix_format == "epub"):
            return "epub"
        if "content.xml" in names and ("mimetype" in names or "META-INF/manifest.xml" in names
                                       or suffix_format == "odt"):
            return "odt"  # (LibreOffice opens one without its mimetype, or its manifest, too)
        if sum(1 for n in names if n.lower().endswith(".fb2")) == 1:
            return "fb2zip"  # a FictionBook as libraries give it: book.fb2.zip
        # an office package that lost the part holding its text is a damaged document, not
        # "a zip archive": say which part is missing
        if "[Content_Types].xml" in names and (suffix_format == "docx" or any(n.startswith("word/") for n in names)):
            raise CorruptFile(path, code="error.docx_no_document")
        if mimetype.startswith(b"application/vnd.oasis.opendocument.text") or (
                suffix_format == "odt" and (mimetype.startswith(b"application/vnd.oasis.opendocument.")
                                            or "META-INF/manifest.xml" in names)):
            raise CorruptFile(path, code="error.odt_no_content")
        raise UnsupportedFormat(path, "a zip archive, not a document Sverka reads (.docx, .odt, .epub or one .fb2)")
    if signature == "rtf":
        return "rtf"
    if signature == "ole2":
        if suffix_format in ("docx", "odt") and _contains_encryption_info(path):
            raise EncryptedFile(path, "the document is password-protected")
        from .doc_text import is_word_document

        if is_word_document(path):
            return "doc"
        raise UnsupportedFormat(
            path, "an old Microsoft Office 97-2003 file (.doc/.xls); save it as .docx in Word or LibreOffice"
        )
    if signature == _WORDPERFECT:
        raise UnsupportedFormat(path, code="error.wordperfect")
    if signature is not None:
        raise UnsupportedFormat(path, f"{signature}, not a text document")
    if suffix_format in ("pdf", "docx", "doc", "odt", "rtf", "epub"):
        raise CorruptFile(path, f"the content is not {_FORMAT_NAMES[suffix_format]} (damaged or misnamed file)")
    if suffix_format is None:
        raise UnsupportedFormat(
            path, f"unsupported file type {path.suffix or '(no suffix)'}; Sverka reads {', '.join(SUPPORTED_SUFFIXES)}"
        )
    return suffix_format


_ANY_WORD = re.compile(r"[^\W_]")


def _no_words(text: str) -> bool:
    """Only combining marks, invisible format characters, spaces of every width and punctuation:
    nothing to check (a text layer of private-use or control characters is not this: its own
    warning says what it is)."""
    import unicodedata

    return all(unicodedata.category(ch)[0] in "MZP" or unicodedata.category(ch) == "Cf" or ch.isspace()
               for ch in set(text))
_BINARY_NAMES = frozenset(what for _, what in _KNOWN_BINARY)
#: Bytes no text file holds (controls but tab, line feed, form feed and carriage return).
_CONTROL_BYTES = re.compile(rb"[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f\x7f]")


def _plain_text(head: bytes) -> bool:
    """The first bytes of a file read as text in some 8-bit or UTF-8 encoding: no control
    bytes (ESC aside: terminal colours in a log). UTF-16 text, with its zero bytes, is not
    taken for a signature anyway."""
    return _CONTROL_BYTES.search(head) is None


def _signature(head: bytes) -> str | None:
    """The format a file's first bytes announce, whatever its name: "pdf", "zip", "rtf",
    "ole2" (Office 97-2003), the name of a known binary format, or None."""
    if b"%PDF-" in head[:1024]:
        return "pdf"
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "zip"
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{\\rtf"):
        return "rtf"
    if head.startswith(_OLE2):
        return "ole2"
    for magic, what in _KNOWN_BINARY:
        if head.startswith(magic):
            return what
    return None


def _contains_encryption_info(path: Path) -> bool:
    """An encrypted .docx is an OLE2 container with an 'EncryptionInfo' stream (name in UTF-16)."""
    marker = "EncryptionInfo".encode("utf-16-le")
    with path.open("rb") as f:
        return marker in f.read(min(MAX_FILE_BYTES, 16 * 1024 * 1024))


def _read(path: Path, fmt: str, data: bytes | None = None) -> tuple[str, str, list[str], list[tuple[str, str]]]:
    """(text, title, warnings, meta) of a file whose format is decided (``data``: its bytes,
    when read already)."""
    if fmt == "pdf":
        from .pdf_text import extract_pdf

        return extract_pdf(path)
    if fmt == "docx":
        from .docx_text import extract_docx

        return (*extract_docx(path), [])
    if fmt == "odt":
        from .odt_text import extract_odt

        return (*extract_odt(path), [])
    if fmt == "epub":
        from .epub_text import extract_epub

        return (*extract_epub(path), [])
    if fmt == "fb2zip":
        from .fb2_text import extract_fb2_zip

        return (*extract_fb2_zip(path), [], [])
    if data is None:
        data = path.read_bytes()
    if fmt == "doc":
        from .doc_text import extract_doc

        return extract_doc(path, data)
    if fmt == "rtf":
        from .rtf_text import extract_rtf

        return (*extract_rtf(path, data), [])
    if fmt == "fb2":
        from .fb2_text import extract_fb2

        return (*extract_fb2(path, data), [], [])
    from .plain_text import BinaryData, decode_bytes

    try:
        if fmt in ("html", "mhtml"):
            from .hidden import hidden_text_warnings
            from .html_text import decode_html, html_to_text_and_hidden

            if fmt == "mhtml":
                from .mhtml_text import NotMhtml, mhtml_to_html

                try:
                    markup, encoding, warnings = mhtml_to_html(data)
                except NotMhtml as e:
                    raise CorruptFile(path, f"not a web page saved as one file: {e}") from None
            else:
                markup, encoding, warnings = decode_html(data)
            del data
            text, title, hidden = html_to_text_and_hidden(markup)
            return text, title, warnings + hidden_text_warnings(hidden, text), [("encoding", encoding)]
        decoded = decode_bytes(data)
    except BinaryData:
        raise UnsupportedFormat(path, "binary data, not a text file") from None
    return decoded.text, "", list(decoded.warnings), [("encoding", decoded.encoding)]


def _normalise(text: str) -> tuple[str, list[str]]:
    """Newlines to ``\\n``, NUL characters and a leading BOM removed, text stored backwards
    under a right-to-left override put in the order it is shown (:func:`undo_overrides`)."""
    warnings = []
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x00" in text:
        warnings.append(message("warning.nul_removed", n=text.count(chr(0))))
        text = text.replace("\x00", "")
    if text.startswith("\ufeff"):
        text = text[1:]
    text, fixed = repair_surrogates(text)
    if fixed:
        warnings.append(message("warning.surrogates_replaced", n=fixed))
    text, turned = undo_overrides(text)
    if turned:
        warnings.append(message("warning.reversed_text", n=turned))
    return text, warnings


#: A right-to-left override (U+202E) and what it governs: up to its pop (U+202C), the end of an
#: isolate (U+2069) or of the paragraph.
_OVERRIDE = re.compile("\u202e([^\u202c\u2069\n\u2029]*)\u202c?")
#: Letters of the scripts written right to left, and the controls that would nest another level.
_RTL_OR_NESTED = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\u202a-\u202e\u2066-\u2068]")
_LETTER = re.compile(r"[^\W\d_]")


def undo_overrides(text: str) -> tuple[str, int]:
    """``text`` with each run under a right-to-left override (U+202E) that holds letters of a
    left-to-right script (and no right-to-left letters, no nested control) reversed, character
    by character with its combining marks: what a reader sees (U+202E then "ьнед" is shown
    "день"), stored backwards to hide a copy from a checker; the override and its pop (U+202C)
    are taken out, or a browser showing the report would turn the run again. Returns the text
    and how many letters were turned."""
    if "\u202e" not in text:
        return text, 0
    turned = 0

    def forwards(m: re.Match) -> str:
        nonlocal turned
        run = m.group(1)
        if not _LETTER.search(run) or _RTL_OR_NESTED.search(run):
            return m.group()
        clusters: list[str] = []
        for ch in run:
            if clusters and unicodedata.combining(ch):
                clusters[-1] += ch
            else:
                clusters.append(ch)
        turned += len(_LETTER.findall(run))
        return "".join(reversed(clusters))

    return _OVERRIDE.sub(forwards, text), turned


_SURROGATE = re.compile("[\ud800-\udfff]")


def repair_surrogates(text: str) -> tuple[str, int]:
    """Combine UTF-16 surrogate pairs (RTF writes an emoji as ``\\u-10179?\\u-8704?``) into the
    real character and replace lone surrogates by U+FFFD; (text, number replaced)."""
    if not _SURROGATE.search(text):
        return text, 0
    repaired = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    lone = len(_SURROGATE.findall(text)) - 2 * (len(text) - len(repaired))
    return repaired, lone
