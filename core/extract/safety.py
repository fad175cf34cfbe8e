"""Safety limits for extraction and the checks that enforce them.

Every limit is a module constant so that tests, the documentation (docs/ROBUSTNESS.md)
and the code agree. A file that breaks a limit raises :class:`~sverka.core.errors.TooLarge`
(or :class:`~sverka.core.errors.CorruptFile` for malformed archives) before the expensive
work starts.
"""

from __future__ import annotations

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
#: A DTD or an entity declaration in an XML part, in UTF-8 (or ASCII) or in UTF-16 either way
#: (an XML part may be UTF-16: its DTD then escaped a byte scan for the UTF-8 spelling).
_DTD_MARKS = tuple(mark.encode(enc) for mark in ("<!DOCTYPE", "<!ENTITY")
                   for enc in ("utf-8", "utf-16-le", "utf-16-be"))
MAX_ZIP_MEMBERS = 10_000
#: Largest compression ratio (uncompressed / compressed) of any member larger than
#: :data:`ZIP_RATIO_MIN_BYTES`; real documents stay far below it, zip bombs far above.
MAX_ZIP_RATIO = 200
ZIP_RATIO_MIN_BYTES = 1024 * 1024
#: How many bytes at the start of each XML member are scanned for a DTD.
XML_PROLOG_SCAN_BYTES = 64 * 1024
#: One XML part of a .docx or .odt at most: its parsed tree takes ~14 times its size (a
#: document.xml of 150 MB padded past the compression-ratio check took 2 GB, the reader's limit).
MAX_XML_PART_BYTES = 96 * 1024 * 1024


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
    declared sizes bounds memory. XML members must not carry a DTD: real .docx/.odt files
    never do, and a DTD is how entity-expansion attacks ("billion laughs") start.
    """
    try:
        zf = zipfile.ZipFile(path)
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError) as e:
        raise CorruptFile(path, f"the file is damaged or truncated (not a readable zip archive: {e})") from None
    try:
        if len(infos) > MAX_ZIP_MEMBERS:
            raise TooLarge(path, f"the archive has {len(infos):,} members, more than the limit of {MAX_ZIP_MEMBERS:,}")
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
        for i in infos:
            if i.filename.endswith((".xml", ".rels")):
                try:
                    with zf.open(i) as f:
                        head = f.read(XML_PROLOG_SCAN_BYTES)
                except (zipfile.BadZipFile, EOFError, OSError, ValueError, NotImplementedError) as e:
                    raise CorruptFile(path, f"the file is damaged or truncated ({i.filename}: {e})") from None
                if any(mark in head for mark in _DTD_MARKS):
                    raise CorruptFile(
                        path, f"{i.filename} declares a DTD or XML entities; refused for safety (entity expansion)"
                    )
    except BaseException:
        zf.close()
        raise
    return zf
