"""What a word of raw text is: two senses, each defined once.

* **A word** is the canonizer's (:func:`sverka.core.text.word_starts`, ``words_within``,
  ``words_in``, the tokens of :func:`sverka.core.text.canonize`): letters with their combining
  marks, run on across invisible characters and line-end hyphens; a number is not a word.
  Passages and shares are measured in these ("a passage of 8 words", "12 % of the words are
  borrowed"), so a changed number or a hyphenated line cannot change a score.
* **A written word** (:data:`WRITTEN_WORD`): ``\\w+`` as it stands on the page, digits
  included. Used where two wordings are compared (is what is left of an edited passage a copy
  word for word? which words of a passage did the paraphrase leave unpaired?) and where a
  short piece of text is judged by how many words a reader sees in it (a quotation rather than
  a name, a heading line): there "в 1812 году" differs from "в 1813 году", and "Глава 1" is
  two words. (The tampering check reads words with their invisible characters inside, which
  is what it looks for: :mod:`sverka.core.tampering`.)
"""

from __future__ import annotations

import itertools
import re

__all__ = ["IGNORABLE", "IGNORABLE_RANGES", "WRITTEN_WORD"]

#: A written word: letters, digits and "_" as they stand (module docstring); the window
#: compares two passages' wording by it too (sverka.gui.compare_view, through the API).
WRITTEN_WORD = re.compile(r"\w+")

#: Unicode's other default-ignorable code points (Default_Ignorable_Code_Point): neither format
#: characters (Cf) nor fillers, yet drawn as nothing: the combining grapheme joiner, Khmer's
#: inherent vowels, Mongolian free variation selectors, the variation selectors and their
#: supplement (combining marks to Unicode) and the code points kept unassigned as ignorable
#: (U+2065, U+FFF0-FFF8, U+E0000-E0FFF beside the tags). Put after letters they hid a copy
#: as whole words of their own ("кни\ufe0fга"), so they are taken as format characters
#: (:mod:`sverka.core.scan`'s table, :mod:`sverka.core.text`'s exact splitter, :mod:`sverka.core.tampering`).
IGNORABLE_RANGES = ((0x034F, 0x034F), (0x17B4, 0x17B5), (0x180B, 0x180D), (0x180F, 0x180F), (0x2065, 0x2065),
                    (0xFE00, 0xFE0F), (0xFFF0, 0xFFF8), (0xE0000, 0xE0FFF))  # first and last, each
IGNORABLE = frozenset(itertools.chain.from_iterable(range(first, last + 1) for first, last in IGNORABLE_RANGES))
