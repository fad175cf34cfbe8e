"""Word 97-2003 documents (.doc) through the ``catdoc`` program (Debian package catdoc,
installed by installer/bootstrap.sh).

Sverka runs it without a shell on a private copy of the file's bytes (the reader already
holds them; a file swapped after the check is not read), with no input, a clean
environment and the reader's time limit; it runs inside the sandboxed reader process, whose
memory limit it inherits. Without the program a .doc is refused with the reason and what to
do, and the rest of a batch goes on.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..errors import CorruptFile, TooLarge, UnsupportedFormat

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
    from ..workers import read_limits

    seconds = read_limits()[1]
    with tempfile.TemporaryDirectory(prefix="sverka-doc-") as folder:
        copy = Path(folder) / "document.doc"
        fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        try:
            done = subprocess.run([exe, "-w", "-d", "utf-8", str(copy)], stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=seconds, env={"LC_ALL": "C.UTF-8", "PATH": os.defpath},
                                  check=False)
        except subprocess.TimeoutExpired:
            raise TooLarge(path, f"reading the Word document took longer than {seconds:g} s") from None
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise CorruptFile(path, "the Word 97-2003 document is damaged or encrypted"
                          + (f" (catdoc: {why[0][:200]})" if why else ""))
    text = done.stdout.decode("utf-8", "replace").replace("\f", "\n")
    return text, "", [], [("reader", "catdoc")]
