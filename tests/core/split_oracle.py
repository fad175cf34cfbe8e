"""The Python implementation of the canonizer's sentence boundaries and marks of Ukrainian and
Russian that the compiled engine replaced (``engine/core/src/split.rs``).

It left the product (:mod:`sverka.core.text` now calls ``sverka.core.scan.read``) and stays here
as it was, as the oracle of the differential tests (tests/core/test_engine_split.py): the
engine must cut the same sentences and find the same marks.
"""

from __future__ import annotations

import re

import numpy as np

from sverka.core.text import ABBREVIATIONS

_CAPITAL = "A-Z\u00c0-\u00de\u0391-\u03a9\u0400-\u042f\u0490\u0404\u0406\u0407"
_UK_MARKS = "іїєґІЇЄҐ"
_RU_MARKS = "ыэъёЫЭЪЁ"


def _not_after_abbreviation() -> str:
    """Lookbehinds (one per length, as re wants them fixed-width) refusing a full stop that
    follows an abbreviation or a one-letter word."""
    by_length: dict[int, list[str]] = {1: [r"(?-i:(?!я)[^\W\d_])"]}  # any letter but a lower-case "я"
    for word in ABBREVIATIONS:
        by_length.setdefault(len(word), []).append(re.escape(word))
    return "".join(
        rf"(?<!\b(?i:{'|'.join(words)})\.)" for _, words in sorted(by_length.items())
    )


#: A sentence ends at . ! ? … (closing quotes/brackets included) when spaces and then a capital
#: follow (optionally after an opening quote, bracket or dash), and at a blank line. A cut is
#: two groups: the sentence's last characters (for a blank line or a paragraph separator, that
#: character alone) and the spaces up to the next sentence. The pattern begins with one
#: character class so that re scans for it quickly; ``re.split`` by it gives every offset with
#: no Python object per match (finditer's matches cost as much again as the matching).
_sentence_cut = re.compile(
    r"([.!?…\n\u2029](?:"
    rf"(?:(?<=[!?…])[.!?…]*|(?<=\.)(?:[.!?…]+|{_not_after_abbreviation()}))[\"'»”’)\]]*"
    rf"(?=\s++[\"'«„“(\[—–-]?\s*[{_CAPITAL}])"
    r"|(?<=\n)(?=[^\S\n\u2029]*\n)|(?<=\u2029)))(\s*+)"
)
_space = re.compile(r"\s*")
_BREAKS = "\n\u2029"


def sentences(text: str, word_starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(sentence index of every word, [start, end) of every sentence that has a word).

    Sentences are the pieces between cuts; a cut is the whitespace after a sentence's last
    character up to the next sentence's first one, so spans have no space at either end."""
    starts, ends = pieces(text)
    piece = np.searchsorted(starts, word_starts, side="right") - 1
    if len(piece) == 0:
        return np.zeros(0, np.int32), np.zeros((0, 2), np.int64)
    first = np.empty(len(piece), dtype=bool)
    first[0] = True
    np.not_equal(piece[1:], piece[:-1], out=first[1:])
    used = piece[first]
    spans = np.empty((len(used), 2), dtype=np.int64)
    spans[:, 0] = starts[used]
    spans[:, 1] = ends[used]
    return (np.cumsum(first) - 1).astype(np.int32), spans


def pieces(text: str) -> tuple[np.ndarray, np.ndarray]:
    """(starts, ends) of every piece between cuts, words or not (:func:`sentences`)."""
    parts = _sentence_cut.split(text)  # [piece, last characters, spaces, piece, ..., piece]
    offsets = np.zeros(len(parts) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, parts), np.int64, len(parts)), out=offsets[1:])
    at_break = np.fromiter(map(_BREAKS.__contains__, parts[1::3]), bool, len(parts) // 3)
    ends = offsets[2:-1:3].copy()  # after the sentence's last characters
    for k in np.flatnonzero(at_break).tolist():  # a blank line: the last non-space before it
        piece = parts[3 * k]
        ends[k] = offsets[3 * k + 1] - (len(piece) - len(piece.rstrip()))
    ends = np.append(ends, len(text.rstrip()))
    starts = offsets[3:-1:3]
    starts = np.concatenate([np.array([_space.match(text).end()], dtype=np.int64), starts])
    return starts, ends


def _code_table(*groups: tuple[str, int]) -> np.ndarray:
    """A code for every character (1.1 MB: numpy takes it for every character of a text
    without clipping them first)."""
    table = np.zeros(0x110000, dtype=np.uint8)
    for chars, code in groups:
        table[[ord(c) for c in chars]] = code
    return table


_MARK_CODE = _code_table((_UK_MARKS, 1), (_RU_MARKS, 2), ("iIïÏ", 3))
#: The Cyrillic letters a Latin i standing for і is written beside (а-я without ё, ґ є і ї).
_BESIDE_I = _code_table(("".join(map(chr, range(0x430, 0x450))) + "ґєіїАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯҐЄІЇ", 1))


def marks(text: str) -> tuple[np.ndarray, np.ndarray]:
    """(positions of the marks of Ukrainian: і ї є ґ and a Latin i written before or after one
    of а-я ґ є і ї, either case; positions of the marks of Russian: ы э ъ ё), both
    cases, each sorted. By numpy: ~2 ms a megabyte, where re's matches took 10-20."""
    cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    code = _MARK_CODE[cps]
    uk_at, ru_at, i_at = (np.flatnonzero(code == k) for k in (1, 2, 3))
    if len(i_at):
        beside = np.zeros(len(i_at), dtype=bool)
        before = i_at > 0
        beside[before] = _BESIDE_I[cps[i_at[before] - 1]] != 0
        after = i_at + 1 < len(cps)
        beside[after] |= _BESIDE_I[cps[i_at[after] + 1]] != 0
        if beside.any():
            uk_at = np.sort(np.concatenate([uk_at, i_at[beside]]))
    return uk_at, ru_at
