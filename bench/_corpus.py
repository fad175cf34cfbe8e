"""Building suspects from real text, for detection tests and benchmarks.

A suspect is original text with fragments of source files spliced in; the true fragment
positions are known, so what the engine reports can be scored exactly. A fragment can be
rewritten the way students do it: words inflected differently (pymorphy3), some words
deleted, others inserted, two sentences swapped, Cyrillic letters replaced by Latin
look-alikes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

WORD = re.compile(r"\w+", re.UNICODE)
SENTENCE_END = re.compile(r"(?<=[.!?…])\s+(?=[«\"„“—–-]?\s*[A-ZА-ЯЁ])")
LOOKALIKE = {"а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x"}


@dataclass(frozen=True)
class Piece:
    """Where a fragment ended up in the suspect and where it came from."""

    source: str  # name of the source file
    start: int  # character span in the suspect
    end: int
    words: int


def fragment(text: str, n_words: int, rng: np.random.Generator) -> str:
    """``n_words`` consecutive words of ``text`` starting at a sentence start, ending after a word."""
    words = list(WORD.finditer(text))
    n_words = min(n_words, len(words))
    starts = [0] + [m.end() for m in SENTENCE_END.finditer(text)]
    ok = [s for s in starts if s < len(text)]
    word_starts = np.array([m.start() for m in words])
    for _ in range(50):
        s = ok[int(rng.integers(len(ok)))]
        k = int(np.searchsorted(word_starts, s))
        if k + n_words <= len(words):
            break
    else:
        k = max(0, len(words) - n_words)
    a = words[k].start()
    b = words[k + n_words - 1].end()
    return text[a:b]


def swap_two_sentences(text: str, rng: np.random.Generator) -> str:
    parts = SENTENCE_END.split(text)
    if len(parts) < 4:
        return text
    k = int(rng.integers(1, len(parts) - 2))
    parts[k], parts[k + 1] = parts[k + 1], parts[k]
    return " ".join(parts)


def _same_case(new: str, old: str) -> str:
    if old.isupper() and len(old) > 1:
        return new.upper()
    if old[:1].isupper():
        return new[:1].upper() + new[1:]
    return new


_CASES = ("nomn", "gent", "datv", "accs", "ablt", "loct")


def inflect_other(word: str, morph, rng: np.random.Generator) -> str:
    """The word in another case or number (nouns, adjectives, participles) or person/tense
    form (verbs), if pymorphy3 can; otherwise the word itself."""
    p = morph.parse(word.lower())[0]
    tag = p.tag
    options = []
    if tag.POS in ("NOUN", "ADJF", "PRTF", "NPRO"):
        options = [{c} for c in _CASES if c != tag.case] + [{"plur" if tag.number == "sing" else "sing"}]
    elif tag.POS == "VERB":
        options = [{"plur" if tag.number == "sing" else "sing"}]
    rng.shuffle(options)
    for grams in options:
        try:
            q = p.inflect(grams)
        except ValueError:
            q = None
        if q is not None and q.word != word.lower():
            return _same_case(q.word, word)
    return word


def rewrite(
    text: str,
    rng: np.random.Generator,
    morph,
    filler: list[str],
    *,
    inflect: float = 0.30,
    delete: float = 0.10,
    insert: float = 0.10,
    lookalikes: int = 5,
) -> str:
    """Rewrite a fragment: inflect, delete and insert words, swap two sentences, swap letters."""
    text = swap_two_sentences(text, rng)
    out: list[str] = []
    pos = 0
    for m in WORD.finditer(text):
        out.append(text[pos : m.start()])
        pos = m.end()
        w = m.group()
        r = rng.random()
        if r < delete:
            continue
        if r < delete + inflect and re.fullmatch(r"[а-яёА-ЯЁ]+", w):
            w = inflect_other(w, morph, rng)
        out.append(w)
        if rng.random() < insert:
            out.append(" " + filler[int(rng.integers(len(filler)))])
    out.append(text[pos:])
    result = "".join(out)
    # a few Cyrillic letters replaced by Latin look-alikes, inside words
    chars = list(result)
    idx = [k for k, c in enumerate(chars) if c in LOOKALIKE]
    for k in rng.choice(idx, size=min(lookalikes, len(idx)), replace=False).tolist() if idx else []:
        chars[k] = LOOKALIKE[chars[k]]
    return "".join(chars)


def splice(originals: list[str], fragments: list[tuple[str, str]]) -> tuple[str, list[Piece]]:
    """Original text and fragments alternately, separated by blank lines.

    ``originals`` has one more element than ``fragments`` (original before, between, after).
    """
    assert len(originals) == len(fragments) + 1
    parts: list[str] = []
    pieces: list[Piece] = []
    pos = 0
    for k, orig in enumerate(originals):
        if orig:
            parts.append(orig + "\n\n")
            pos += len(orig) + 2
        if k < len(fragments):
            name, frag = fragments[k]
            parts.append(frag + "\n\n")
            pieces.append(Piece(name, pos, pos + len(frag), len(WORD.findall(frag))))
            pos += len(frag) + 2
    return "".join(parts), pieces


def covered(intervals: list[tuple[int, int]], start: int, end: int) -> int:
    """Characters of [start, end) inside the union of ``intervals``."""
    n = 0
    last = start
    for s, e in sorted(intervals):
        s, e = max(s, last), min(e, end)
        if e > s:
            n += e - s
            last = e
    return n
