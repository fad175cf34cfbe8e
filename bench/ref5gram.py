"""The reference peer of every benchmark: exact word-5-grams, in plain Python.

This is what a 40-line script does and what Sverka must beat on its own ground: words are
runs of letters and digits, lower-cased (ё as е); a 5-gram is five consecutive words; a
suspect word is "copied" when it lies inside a 5-gram that also occurs in the source. No
lemmas, no stop words, no bridging, no reordering: exact runs only.

Used two ways:
* as a library by the benchmarks (``spans``, ``Collection``), so each figure of Sverka is
  printed beside the same figure of this script from the same run;
* from the shell, for timing: ``python bench/ref5gram.py SOURCE_DIR SUSPECT...`` indexes every
  ``.txt`` under SOURCE_DIR and prints, per suspect, the best source and its share.
"""

from __future__ import annotations

import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

WORD = re.compile(r"\w+")
N = 5


def words(text: str) -> list[tuple[int, int, str]]:
    """(start, end, normalised word) of every word of ``text``."""
    return [(m.start(), m.end(), m.group().lower().replace("ё", "е")) for m in WORD.finditer(text)]


def grams(ws: list[tuple[int, int, str]]) -> list[tuple[str, ...]]:
    seq = [w for _, _, w in ws]
    return [tuple(seq[i : i + N]) for i in range(len(seq) - N + 1)]


def covered(ws, gs, shared) -> list[tuple[int, int]]:
    """Merged character spans of the words inside shared 5-grams."""
    hit = [False] * len(ws)
    for i, g in enumerate(gs):
        if g in shared:
            for k in range(i, i + N):
                hit[k] = True
    spans: list[tuple[int, int]] = []
    run_start = None
    prev_end = 0
    for (s, e, _), h in zip(ws, hit):
        if h and run_start is None:
            run_start = s
        if not h and run_start is not None:
            spans.append((run_start, prev_end))
            run_start = None
        prev_end = e
    if run_start is not None:
        spans.append((run_start, prev_end))
    return spans


def spans(suspect: str, source: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(copied spans in the suspect, copied spans in the source)."""
    wa, wb = words(suspect), words(source)
    ga, gb = grams(wa), grams(wb)
    shared = set(ga) & set(gb)
    return covered(wa, ga, shared), covered(wb, gb, shared)


def word_share(suspect: str, source: str) -> float:
    """Share of the suspect's words that lie in a 5-gram of the source (0..1)."""
    wa = words(suspect)
    if not wa:
        return 0.0
    sp, _ = spans(suspect, source)
    starts = [s for s, _, _ in wa]
    hit = 0
    for s, e in sp:
        hit += sum(1 for x in starts if s <= x < e)
    return hit / len(wa)


class Collection:
    """Sources indexed by their 5-grams; ``check`` finds the sources sharing any."""

    def __init__(self) -> None:
        self.postings: dict[int, list[int]] = defaultdict(list)
        self.texts: list[str] = []
        self.names: list[str] = []

    def add(self, name: str, text: str) -> None:
        doc = len(self.texts)
        self.texts.append(text)
        self.names.append(name)
        for g in set(grams(words(text))):
            self.postings[hash(g)].append(doc)  # in-process only, never stored

    def check(self, suspect: str, min_shared: int = 2) -> list[tuple[str, int]]:
        """(source name, shared distinct 5-grams), most shared first."""
        count: Counter[int] = Counter()
        for g in set(grams(words(suspect))):
            for doc in self.postings.get(hash(g), ()):
                count[doc] += 1
        return [(self.names[d], c) for d, c in count.most_common() if c >= min_shared]


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__)
        return 2
    col = Collection()
    for p in sorted(Path(argv[0]).rglob("*.txt")):
        col.add(str(p), p.read_text(encoding="utf-8", errors="replace"))
    for s in argv[1:]:
        found = col.check(Path(s).read_text(encoding="utf-8", errors="replace"))
        print(s, found[0] if found else None)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
