"""Where a text was tampered with to fool a checker: words mixing Cyrillic and Latin letters
(look-alike letters swapped in) and words carrying invisible characters (zero-width spaces,
soft hyphens...). The canonization undoes both and counts them (warnings); this module
finds their positions so the window can mark the words themselves.
"""

from __future__ import annotations

import re
import unicodedata

from .words import IGNORABLE, IGNORABLE_RANGES

__all__ = ["tampered_words"]

#: A word as a reader sees it: letters and digits with invisible characters inside (not
#: sverka.core.words.WRITTEN_WORD: the invisible characters inside a word are what this looks for).
_WORD = re.compile(r"[\w\u00ad\u200b-\u200f\u2060-\u2064\ufeff"
                   + "".join(f"{chr(first)}-{chr(last)}" for first, last in IGNORABLE_RANGES) + "]+")


def _script(ch: str) -> str:
    if "\u0400" <= ch <= "\u04ff":
        return "cyrillic"
    if ch.isascii() and ch.isalpha():
        return "latin"
    return ""


def tampered_words(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, kind)`` of every tampered word, in text order; ``kind`` is "lookalike"
    (Cyrillic and Latin letters in one word) or "invisible" (a format character or another
    default-ignorable code point inside: :data:`sverka.core.words.IGNORABLE`)."""
    out = []
    for m in _WORD.finditer(text):
        word = m.group()
        if word.isascii():
            continue
        if any(unicodedata.category(c) == "Cf" or ord(c) in IGNORABLE for c in word):
            start, end = m.span()
            out.append((start, end, "invisible"))
            continue
        scripts = {_script(c) for c in word} - {""}
        if len(scripts) > 1:
            out.append((*m.span(), "lookalike"))
    return out
