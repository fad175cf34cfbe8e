"""Words of an ordinary text found by the compiled engine: where each word starts and ends, and a hash of each
word exactly as written, with no Python string made per word.

:mod:`sverka.core.text` defines the words (ALGORITHMS.md §1: runs of letters with their
combining marks, continued across invisible characters and line-end hyphens) and finds them
with one regular expression, whose engine costs ~60 ns a character: most of a canonization
whose forms are all known. Most texts hold none of what makes that definition subtle, and for
them a word is a run of letters and marks that starts with a letter, which the engine finds
from a table of the Basic Multilingual Plane's characters in about a millisecond a megabyte.

:func:`words` answers ``None`` for a text that holds anything else (a format character such
as a zero-width space or soft hyphen inside a word, a character beyond U+FFFF, a hyphen ending
a word at the end of a line with a letter on the next, a combining mark that follows no
letter), and the canonizer then splits it by its regular expression as before: the two give
the same words (tests/core/test_scan.py checks them on random texts, and the table against the
regular expressions' classes on every character).

The hash of a word is xxh3 of its UTF-16 code units with a seed drawn at random by every
process (so no file can be made whose words collide, and nothing stores these hashes). The
canonizer's table of raw forms is looked up by it (:class:`HashIndex`); two given words share
a hash with odds of the order of 2**-60, which the collection's 64-bit lemma hashes already
accept.

The scan, the hashes and the index are the compiled engine's (``engine/core/src/scan.rs``);
this module keeps the one definition of a letter (the table of classes, from Python's own
Unicode data) and hands it to the engine. The NumPy implementation it replaced is the oracle
of tests/core/test_engine_scan.py.
"""

from __future__ import annotations

import functools
import os
import sys
import unicodedata

import numpy as np
import xxhash

from sverka.core import formcache
from sverka.core.engine import i64, native, u32, u64

__all__ = ["HashIndex", "LINE_BREAKS", "MAX_HASHED", "bounds", "hash_strings", "words"]

#: Classes of a BMP character in :func:`_table`; 0 for anything else.
LETTER, MARK, HYPHEN, FORMAT = 1, 2, 4, 8
#: Hangul choseong and jungseong fillers, Hangul filler, halfwidth Hangul filler: letters to
#: Unicode that are drawn as nothing; words of them count as invisible characters, not words.
FILLERS = "\u115f\u1160\u3164\uffa0"
#: Words longer than this are not hashed (a miss: looked up by their string).
MAX_HASHED = native.MAX_HASHED
#: What ends a line for a line-end hyphen (:mod:`sverka.core.text`'s ``_LINE_BREAK``, which
#: imports this module); the engine's ``is_line_break`` holds the same characters.
LINE_BREAKS = "\n\r\x0b\x0c\x85\u2028"


def _build_table() -> np.ndarray:
    """Class of every BMP character: a letter is what :mod:`sverka.core.text`'s exact splitter
    takes for one (``[^\\W\\d_]`` without other numbers and the fillers: ``str.isalpha`` on the
    BMP), a mark any combining mark (Mn, Mc, Me), a format character any Cf and the fillers, a
    hyphen "-" or U+2010 (the soft hyphen is a format character)."""
    table = np.zeros(0x10000, dtype=np.uint8)
    for cp in range(0x10000):
        c = chr(cp)
        if c.isalpha():
            table[cp] = LETTER
        else:
            cat = unicodedata.category(c)
            if cat[0] == "M":
                table[cp] = MARK
            elif cat == "Cf":
                table[cp] = FORMAT
    table[[0x2D, 0x2010]] = HYPHEN
    table[[ord(c) for c in FILLERS]] = FORMAT
    return table


@functools.cache
def _table() -> np.ndarray:
    """:func:`_build_table`, kept in the form cache's folder per Unicode and Python version
    (checked by an xxh64): building it costs 10-15 ms of a process's first long text."""
    v = sys.version_info
    try:
        path = formcache.cache_dir() / f"bmp-classes-{unicodedata.unidata_version}-py{v[0]}.{v[1]}-2.bin"
        data = path.read_bytes()
        if len(data) == 0x10000 + 8 and xxhash.xxh64_digest(data[:0x10000]) == data[0x10000:]:
            table = np.frombuffer(data[:0x10000], dtype=np.uint8).copy()
            table.flags.writeable = False
            return table
    except (OSError, ValueError):
        pass
    table = _build_table()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with formcache.replacing(path) as tmp, open(tmp, "wb") as out:
            out.write(table.tobytes() + xxhash.xxh64_digest(table.tobytes()))
    except (OSError, NameError):  # no cache folder here: built again next time
        pass
    table.flags.writeable = False
    return table


@functools.cache
def _seed() -> int:
    """This process's secret seed of the word hashes (see the module docstring)."""
    return int.from_bytes(os.urandom(8), "little")


def hash_strings(strings: list[str]) -> np.ndarray:
    """The hash :func:`words` gives each of ``strings`` met in a text; 0 for one it would
    never give (empty, longer than :data:`MAX_HASHED`, or holding a character beyond U+FFFF)."""
    lengths = np.fromiter(map(len, strings), dtype=np.int64, count=len(strings))
    cps = u32(np.frombuffer("".join(strings).encode("utf-32-le", "surrogatepass"), dtype="<u4"))
    return native.hash_strings(cps, np.cumsum(lengths), _seed())


def bounds(text: str) -> tuple[np.ndarray, np.ndarray] | None:
    """(starts, ends) of every word of ``text``, or None when the text needs the canonizer's
    regular expression (see the module docstring)."""
    found = native.scan_words(text, _table(), 0, False)
    return None if found is None else found[:2]


def words(text: str) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(starts, ends, hashes) of every word of ``text`` (hashes as :func:`hash_strings`
    gives), or None when the text needs the canonizer's regular expression."""
    return native.scan_words(text, _table(), _seed(), True)


class HashIndex:
    """uint64 hash (never 0) -> id, for many hashes at a time (the engine's hash map). Readers
    may run while a writer adds: the engine takes a read or write lock without the GIL."""

    def __init__(self) -> None:
        self._index = native.HashIndex()

    def __len__(self) -> int:
        return len(self._index)

    def get(self, hashes: np.ndarray) -> np.ndarray:
        """The id of each hash, -1 for a hash not in the index (and for 0)."""
        return self._index.get(u64(hashes))

    def add(self, hashes: np.ndarray, ids: np.ndarray) -> None:
        """Set the id of each of ``hashes`` (0 skipped): a hash already in the index gets the
        new id, as a dict would."""
        self._index.add(u64(hashes), i64(ids))
