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
import re
import sys
import unicodedata
from typing import NamedTuple

import numpy as np
import xxhash

from sverka.core import formcache
from sverka.core.engine import i64, native, u32, u64
from sverka.core.words import IGNORABLE, IGNORABLE_RANGES  # noqa: F401  (re-exported: the engine's table reads them)

__all__ = ["HashIndex", "IGNORABLE", "IGNORABLE_RANGES", "LINE_BREAKS", "MAX_HASHED", "Read", "bounds", "hash_strings", "read", "sentences", "text_rules", "words"]

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
    BMP), a mark any combining mark (Mn, Mc, Me) but :data:`IGNORABLE`, a format character any
    Cf, the fillers and :data:`IGNORABLE`, a hyphen "-" or U+2010 (the soft hyphen is a format
    character)."""
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
    table[[ord(c) for c in FILLERS] + [cp for cp in IGNORABLE if cp < 0x10000]] = FORMAT
    return table


@functools.cache
def _table() -> np.ndarray:
    """:func:`_build_table`, kept in the form cache's folder per Unicode and Python version
    (checked by an xxh64): building it costs 10-15 ms of a process's first long text."""
    v = sys.version_info
    try:
        path = formcache.cache_dir() / f"bmp-classes-{unicodedata.unidata_version}-py{v[0]}.{v[1]}-3.bin"
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


# --- sentences and the marks of Ukrainian and Russian ----------------------------------------

#: Classes of every code point in the table of :func:`text_rules` (the engine's split.rs):
#: Python's ``\s``, ``\w`` and ``[^\W\d_]``, then the marks the caller names.
SPACE, WORD, WORD_LETTER, UK_MARK, RU_MARK, LATIN_I, BESIDE_I = 1, 2, 4, 8, 16, 32, 64
#: The letters an abbreviation may hold (matched regardless of case, as ``re``'s ``(?i)`` does).
_FOLDABLE = "abcdefghijklmnopqrstuvwxyz" + "".join(map(chr, range(0x430, 0x460)))


def _every_character() -> str:
    """Every code point in order, lone surrogates included (what ``re`` classifies them by)."""
    return np.arange(0x110000, dtype="<u4").tobytes().decode("utf-32-le", "surrogatepass")


def _build_unicode_table() -> tuple[np.ndarray, np.ndarray]:
    """(the class of every code point by ``re`` itself: SPACE, WORD, WORD_LETTER; pairs
    (character, letter of :data:`_FOLDABLE`) of every character ``re`` matches as that letter
    under ``(?i)``, as uint32 rows)."""
    chars = _every_character()
    table = np.zeros(0x110000, dtype=np.uint8)
    for pattern, bit in ((r"\s+", SPACE), (r"\w+", WORD), (r"[^\W\d_]+", WORD_LETTER)):
        for m in re.finditer(pattern, chars):
            table[m.start():m.end()] |= bit
    pairs = []
    # a class under (?i) matches every character a letter of it does, and maybe more: each
    # candidate is then matched by every letter alone
    for m in re.finditer(f"(?i:[{re.escape(_FOLDABLE)}])", chars):
        for letter in _FOLDABLE:
            if re.fullmatch(f"(?i:{re.escape(letter)})", m.group()):
                pairs.append((m.start(), ord(letter)))
    return table, np.array(pairs, dtype=np.uint32).reshape(-1, 2)


@functools.cache
def _unicode_table() -> tuple[np.ndarray, np.ndarray]:
    """:func:`_build_unicode_table`, kept in the form cache's folder per Unicode and Python
    version (checked by an xxh64): building it costs ~0.1 s."""
    v = sys.version_info
    try:
        path = formcache.cache_dir() / f"text-classes-{unicodedata.unidata_version}-py{v[0]}.{v[1]}-1.bin"
        data = path.read_bytes()
        if len(data) > 0x110000 + 8 and xxhash.xxh64_digest(data[:-8]) == data[-8:] \
                and (len(data) - 0x110000 - 8) % 8 == 0:
            table = np.frombuffer(data, np.uint8, 0x110000).copy()
            pairs = np.frombuffer(data, "<u4", (len(data) - 0x110000 - 8) // 4, 0x110000)
            return table, pairs.astype(np.uint32).reshape(-1, 2)
    except (OSError, ValueError):
        pass
    table, pairs = _build_unicode_table()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        body = table.tobytes() + pairs.astype("<u4").tobytes()
        with formcache.replacing(path) as tmp, open(tmp, "wb") as out:
            out.write(body + xxhash.xxh64_digest(body))
    except (OSError, NameError):  # no cache folder here: built again next time
        pass
    return table, pairs


def text_rules(abbreviations: list[str], uk_marks: str, ru_marks: str, latin_i: str, beside_i: str,
               counted: str = ""):
    """The engine's rules of sentence boundaries and marks (:func:`read`): full stops after
    ``abbreviations`` (any case, two letters or more, of :data:`_FOLDABLE`'s letters) and after
    one-letter words but a lower-case "я" end no sentence; the marks of Ukrainian
    (``uk_marks``, and ``latin_i`` beside one of ``beside_i``) and of Russian (``ru_marks``);
    ``counted``: characters whose number in a text :func:`read` gives. The rules themselves are
    the canonizer's (:mod:`sverka.core.text`)."""
    table, pairs = _unicode_table()
    table = table.copy()
    for chars, bit in ((uk_marks, UK_MARK), (ru_marks, RU_MARK), (latin_i, LATIN_I), (beside_i, BESIDE_I)):
        table[[ord(c) for c in chars]] |= bit
    words = [w.lower() for w in abbreviations]
    if any(len(w) < 2 or not set(w) <= set(_FOLDABLE) for w in words):
        raise ValueError("an abbreviation is two letters or more of a-z, а-я")
    used = np.isin(pairs[:, 1], [ord(c) for c in set("".join(words))])
    return native.TextRules(table, np.ascontiguousarray(pairs[used, 0]), np.ascontiguousarray(pairs[used, 1]),
                            words, counted)


class Read(NamedTuple):
    """What :func:`read` finds in a text."""

    uk_at: np.ndarray  # int64: positions of the marks of Ukrainian, rising
    ru_at: np.ndarray  # int64: of Russian
    piece_starts: np.ndarray  # int64: the pieces between sentence cuts (:func:`sentences`)
    piece_ends: np.ndarray
    words: tuple[np.ndarray, np.ndarray, np.ndarray] | None  # :func:`words`, when asked and not declined
    counts: list[int]  # how many of each of the rules' counted characters the text holds


def read(text: str, rules, scan_words: bool) -> Read:
    """The marks, the sentence pieces and (``scan_words``) the words of ``text`` in one pass of
    the engine (``rules``: :func:`text_rules`)."""
    return Read(*rules.read(text, _table(), _seed(), scan_words))


def sentences(piece_starts: np.ndarray, piece_ends: np.ndarray, word_starts: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
    """(the sentence of every word: int32, [start, end) of every sentence holding a word:
    int64 (m, 2)): the words (their ``word_starts``, rising) among the pieces of :func:`read`."""
    ids, spans = native.sentence_of_words(piece_starts, piece_ends, i64(word_starts))
    return ids, spans.reshape(-1, 2)
