"""Safety limits for extraction and the checks that enforce them.

Every limit is a module constant so that tests, the documentation (docs/ROBUSTNESS.md)
and the code agree. A file that breaks a limit raises :class:`~sverka.core.errors.TooLarge`
(or :class:`~sverka.core.errors.CorruptFile` for malformed archives) before the expensive
work starts.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from ..errors import CorruptFile, TooLarge

#: Largest input file Sverka opens, in bytes.
MAX_FILE_BYTES = 200 * 1024 * 1024
#: Largest extracted text, in characters (Python ``str`` length).
MAX_TEXT_CHARS = 50_000_000
#: Largest total declared uncompressed size of a .docx/.odt archive, in bytes.
MAX_ZIP_UNCOMPRESSED = 300 * 1024 * 1024
#: Largest number of members in a .docx/.odt archive.
MAX_ZIP_MEMBERS = 10_000
#: Largest compression ratio (uncompressed / compressed) of any member larger than
#: :data:`ZIP_RATIO_MIN_BYTES`; real documents stay far below it, zip bombs far above.
MAX_ZIP_RATIO = 200
ZIP_RATIO_MIN_BYTES = 1024 * 1024
#: How many bytes of each XML member's prolog (what comes before its root element) are read
#: looking for entity declarations; a prolog longer than this is refused.
XML_PROLOG_SCAN_BYTES = 1024 * 1024
#: One XML part of a .docx or .odt at most: its parsed tree takes ~14 times its size (a
#: document.xml of 150 MB padded past the compression-ratio check took 2 GB), and the reader
#: may use 1 GB (:data:`sverka.core.limits.READ_MEMORY_BYTES`).
MAX_XML_PART_BYTES = 48 * 1024 * 1024


def check_file_size(path: Path, size: int) -> None:
    if size > MAX_FILE_BYTES:
        raise TooLarge(
            path,
            f"the file is {size / 2**20:,.1f} MB, more than Sverka's limit of {MAX_FILE_BYTES / 2**20:.0f} MB",
        )


def check_text_size(path: Path, text: str) -> None:
    if len(text) > MAX_TEXT_CHARS:
        raise TooLarge(
            path,
            f"the extracted text has {len(text):,} characters, more than Sverka's limit of {MAX_TEXT_CHARS:,}",
        )


def open_checked_zip(path: Path) -> zipfile.ZipFile:
    """Open an office archive after checking its declared sizes (zip bombs) and its XML prologs.

    Python's zipfile never inflates a member beyond its declared size, so checking the
    declared sizes bounds memory. XML members must not declare entities: that is how
    entity-expansion attacks ("billion laughs") and external entities start. A document type
    declaration without entities is harmless and is read (OpenOffice.org 1.x/2.x writes one
    naming its DTD file in its manifest, formula objects and Basic macro modules; no parser
    Sverka uses loads such a file).
    """
    try:
        zf = zipfile.ZipFile(path)
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError) as e:
        raise CorruptFile(path, f"the file is damaged or truncated (not a readable zip archive: {e})") from None
    try:
        if len(infos) > MAX_ZIP_MEMBERS:
            raise TooLarge(path, f"the archive has {len(infos):,} members, more than the limit of {MAX_ZIP_MEMBERS:,}")
        seen: set[str] = set()
        for i in infos:
            if i.filename in seen:  # zipfile reads the last; which one Word or LibreOffice shows is not certain
                raise CorruptFile(path, code="error.zip_same_name", name=i.filename)
            seen.add(i.filename)
        total = sum(i.file_size for i in infos)
        if total > MAX_ZIP_UNCOMPRESSED:
            raise TooLarge(
                path,
                f"the archive would unpack to {total / 2**20:,.0f} MB, more than the limit of "
                f"{MAX_ZIP_UNCOMPRESSED / 2**20:.0f} MB (a zip bomb?)",
            )
        for i in infos:
            if i.filename.endswith(".xml") and i.file_size > MAX_XML_PART_BYTES:
                raise TooLarge(
                    path,
                    f"archive member {i.filename!r} unpacks to {i.file_size / 2**20:,.0f} MB of XML, more than the "
                    f"{MAX_XML_PART_BYTES / 2**20:.0f} MB Sverka reads in one part (reading it would take more "
                    f"memory than Sverka may use)",
                )
            if i.file_size > ZIP_RATIO_MIN_BYTES and i.file_size > MAX_ZIP_RATIO * max(i.compress_size, 1):
                raise TooLarge(
                    path,
                    f"archive member {i.filename!r} is compressed {i.file_size // max(i.compress_size, 1):,} "
                    f"times, more than the limit of {MAX_ZIP_RATIO} (a zip bomb?)",
                )
        doctypes = []
        for i in infos:
            if i.filename.endswith((".xml", ".rels")):
                try:
                    with zf.open(i) as f:
                        if check_xml_prolog(path, i.filename, f):
                            doctypes.append(i.filename)
                except (zipfile.BadZipFile, EOFError, OSError, ValueError, NotImplementedError) as e:
                    raise CorruptFile(path, f"the file is damaged or truncated ({i.filename}: {e})") from None
    except BaseException:
        zf.close()
        raise
    zf.sverka_doctype_parts = doctypes  # parts with a (harmless) document type declaration
    return zf


class _PrologRead(Exception):
    """The root element started: the prolog, where any entity is declared, is over."""


def check_xml_prolog(path: Path, name: str, f) -> bool:
    """Whether the XML member ``name`` (open as ``f``) has a document type declaration; refuse it the XML member ``name`` (open as ``f``) if its prolog declares an entity (general
    or parameter, internal or external) or is longer than :data:`XML_PROLOG_SCAN_BYTES`. Read with
    expat (so UTF-16 parts are judged too) up to the root element's start tag; expat is told
    never to read an external DTD or entity. Malformed XML is left to the format's reader,
    which reports it in its own words. (A limit of 0 switches the check off.)"""
    import xml.parsers.expat

    if XML_PROLOG_SCAN_BYTES <= 0:
        return False
    parser = xml.parsers.expat.ParserCreate()
    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def refuse(*_args) -> None:
        raise CorruptFile(path, f"{name} declares XML entities in its DTD; refused for safety (entity expansion)")

    def root(*_args) -> None:
        raise _PrologRead

    parser.EntityDeclHandler = refuse
    parser.UnparsedEntityDeclHandler = refuse
    parser.StartElementHandler = root
    doctype = []
    parser.StartDoctypeDeclHandler = lambda *_args: doctype.append(True)
    read = 0
    try:
        while chunk := f.read(1 << 14):
            read += len(chunk)
            parser.Parse(chunk, False)
            if read >= XML_PROLOG_SCAN_BYTES:
                raise CorruptFile(path, f"{name} has no root element in its first "
                                        f"{XML_PROLOG_SCAN_BYTES // 1024:,} KB; refused for safety")
        parser.Parse(b"", True)
    except _PrologRead:
        pass
    except xml.parsers.expat.ExpatError:
        pass  # damaged XML: its reader says so
    return bool(doctype)


_DOCTYPE = re.compile(rb"<!DOCTYPE\s[^\[>]*(?:\[[^\]]*\])?\s*>")


def without_doctype(data: bytes) -> bytes:
    """XML part ``data`` without its document type declaration (one that declares no entity,
    :func:`check_xml_prolog`): a library that refuses any DTD (odfpy parses with defusedxml)
    reads it as the application does."""
    return _DOCTYPE.sub(b"", data, count=1)
