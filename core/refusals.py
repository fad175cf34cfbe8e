"""Refusals: sentences the lexical layers paired although they say something else.

The paraphrase layer (:mod:`sverka.core.paraphrase`) pairs sentences that share enough rare
words, and the exact layer (:mod:`sverka.core.align`) bridges short runs across a sentence
edge. Headlines on one topic share their names and nouns and still say different things
("При пожаре в доме престарелых в Техасе погибли пять человек" is not "Два человека погибли
при пожаре в частном доме в Техасе"). A wrong accusation is the worst error Sverka can make, so after both layers
(:func:`sverka.core.check.align_prepared`) a passage made of several runs (method
"paraphrase" or "bridged") loses, sentence by sentence of the suspect:

* **a contradiction**, in a passage of the paraphrase layer (the exact layer's bridged runs
  are the source's own words in its order), between the sentence and its source sentence, as
  :func:`sverka.core.meaning.evidence` (the evidence the meaning layer refuses by) reads them:
  - *numbers*: both give figures (in digits or words) and share none, and none is another
    rounded (876 and "почти 900" agree). A figure only one of them gives is a detail added or
    dropped, as real paraphrases do ("в 2014 году", "на 9 Мая"): no contradiction;
  - *a denial*: one says не / нет / ни / not and the other does not, and neither denies with
    a word of :data:`DENYING_WORDS` ("не сыграет" is "отказался играть");
  each read over the matched stretch with :data:`AROUND_WORDS` words either side ("не" before
  a matched verb, a figure after "достигло"), not over the neighbour a sentence runs into, and
  over the whole sentences too: refused only when both readings contradict ("Сноудена не
  оказалось на борту" and "Журналисты не нашли Эдварда Сноудена на борту" both deny, the
  second three words before the matched stretch);
* **a thin edge**: at either end of a passage of several sentences, a sentence with fewer
  than :data:`~sverka.core.paraphrase.MIN_AGREE` content words matched, and fewer than half
  of those of the shorter of it and its source sentence (three words of the next headline are
  no borrowing of it; the paraphrase layer needs that many to pair two sentences; a short
  headline whose three words are half of it stays).

A copy is never refused for what it says: a sentence holding an unbroken run of ``min_words``
words written alike in both texts (what the exact layer alone would report), or a copy edited
(:func:`_edited_copy`: most of its words matched, in its source's order; a "не" dropped or a
figure changed in a copied sentence leaves its wording borrowed). What is left of a passage is
kept when it still spans ``min_words`` words.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Sequence

import numpy as np

from .intervals import merge
from .kinds import kind_after_cut
from .meaning import evidence
from .paraphrase import MIN_AGREE, SOURCE_KEPT
from .results import Passage
from .text import Tokens, spelling_key, words_in
from .words import WRITTEN_WORD

__all__ = ["AROUND_WORDS", "DENYING_WORDS", "REFUSED_METHODS", "piece_inside", "refuse_contradictions"]

#: The methods of the passages judged here: those made of several runs (the paraphrase layer's,
#: the exact layer's bridged ones). One unbroken run ("exact") or a sentence matched by its
#: words ("sentence") is what was copied.
REFUSED_METHODS = frozenset({"paraphrase", "bridged"})


def _sentence_at(first: np.ndarray, offset: int) -> int:
    """The index of the sentence holding ``offset``, of sentences beginning at ``first``
    (int64, sorted, contiguous: the first column of sentence spans)."""
    return max(0, int(first.searchsorted(offset, "right")) - 1)


def _copied_run(piece: tuple[int, int, int, int], a: Tokens, b: Tokens, min_words: int) -> bool:
    """Whether ``piece`` is an unbroken run of at least ``min_words`` words written alike (by
    :func:`~sverka.core.text.spelling_key`; a word written the same needs no key: a copied
    chapter's thousands of words cost a comparison each)."""
    mine = WRITTEN_WORD.findall(a.text, piece[0], piece[1])
    if len(mine) < min_words:
        return False
    theirs = WRITTEN_WORD.findall(b.text, piece[2], piece[3])
    return len(mine) == len(theirs) and all(x == y or spelling_key(x) == spelling_key(y) for x, y in zip(mine, theirs))


def _clip(piece: tuple[int, int, int, int], lo: int, hi: int, a: Tokens, b: Tokens) -> list[tuple[int, int, int, int]]:
    """``piece`` without the suspect's [lo, hi): its parts before and after that hold a token
    (:func:`piece_inside`)."""
    a0, a1 = piece[0], piece[1]
    if a1 <= lo or a0 >= hi:
        return [piece]
    starts = np.asarray(a.starts)
    parts = [(x, y) for x, y in ((a0, min(a1, lo)), (max(a0, hi), a1))
             if x < y and np.searchsorted(starts, y, "left") > np.searchsorted(starts, x, "left")]
    return [piece_inside(piece, x, y, a, b) for x, y in parts]


def _edited_copy(qs: list[tuple[int, int, int, int]], inside: list[tuple[int, int]], lo: int, hi: int,
                 a: Tokens, b: Tokens, word_starts: np.ndarray) -> bool:
    """Whether the suspect sentence [lo, hi) is a copy edited: its matched runs ``qs`` (inside
    it: ``inside``) hold :data:`~sverka.core.paraphrase.SOURCE_KEPT` of its words, each run
    reads as many words in the source (give or take one), and the runs follow one another there
    in their order. A copy with a word deleted, inserted or replaced (a "не" dropped, a figure
    changed) is still a copy; a rewording by another hand keeps fewer of the words or puts them
    in another order."""
    words = words_in(word_starts, [(lo, hi)])
    if not words or words_in(word_starts, inside) < SOURCE_KEPT * words:
        return False
    by_suspect = sorted(qs)
    if any(x[3] > y[2] for x, y in zip(by_suspect, by_suspect[1:])):
        return False
    return all(len(WRITTEN_WORD.findall(b.text, q[2], q[3])) <= len(WRITTEN_WORD.findall(a.text, q[0], q[1])) + 1
               for q in by_suspect)


def piece_inside(piece: tuple[int, int, int, int], lo: int, hi: int, a: Tokens, b: Tokens) -> tuple[int, int, int, int]:
    """The part of ``piece`` inside the suspect's [lo, hi), its source side cut after as many
    tokens as its suspect side was (a piece crossing a sentence's edge is a run of equal
    tokens: the exact layer's)."""
    a0, a1, b0, b1 = piece
    c0, c1 = max(a0, lo), min(a1, hi)
    if (c0, c1) == (a0, a1) or a1 <= a0:
        return piece
    sa, sb = np.asarray(a.starts), np.asarray(b.starts)
    first_a, first_b = int(sa.searchsorted(a0, "left")), int(sb.searchsorted(b0, "left"))
    last_b = int(sb.searchsorted(b1, "left"))  # one past the piece's last source token
    skip = int(sa.searchsorted(c0, "left")) - first_a
    keep = int(sa.searchsorted(c1, "left")) - first_a
    d0 = int(sb[first_b + skip]) if first_b + skip < last_b else b0
    d1 = int(np.asarray(b.ends)[first_b + keep - 1]) if 0 < keep and first_b + keep - 1 < last_b else b1
    return c0, c1, d0, max(d0, d1)


def _trimmed(piece: tuple[int, int, int, int], text: str) -> tuple[int, int, int, int] | None:
    """``piece`` with its suspect side from its first word to its last; None without a word."""
    words = [m.span() for m in WRITTEN_WORD.finditer(text, piece[0], piece[1])]
    if not words:
        return None
    return (words[0][0], words[-1][1], piece[2], piece[3])


#: Words that deny by their meaning, as "не" does by its place (отказался играть = не сыграет,
#: опроверг = сказал, что не; невозможно = не может). A pair in which one sentence says "не" and
#: the other one of these may say the same thing, so a denial is not refused there.
DENYING_WORDS = re.compile(
    r"(?<![^\W\d_])(?:отказ|опровер|отрица|отвер|невозмож|нельзя|отсутств|избе[жг]|"
    r"запрет|лиши|refus|den[iy]|reject|impossib|absen|avoid|fail)", re.IGNORECASE)


#: Words either side of the matched stretch of a sentence read with it (:func:`_around_span`):
#: "не" stands before the verb it denies, a figure right after "достигло" / "превысило".
AROUND_WORDS = 2


def _around_span(text: str, lo: int, hi: int, p0: int, p1: int) -> tuple[int, int]:
    """What is read of the sentence [lo, hi) whose matched stretch is [p0, p1): the stretch with
    at most :data:`AROUND_WORDS` words of the sentence either side of it, as (start, end). A
    sentence the splitter ran into the next (a headline without a full stop) lends its
    neighbour's "не" to no one."""
    before = [m.start() for m in WRITTEN_WORD.finditer(text, lo, p0)]
    after = [m.end() for m in WRITTEN_WORD.finditer(text, p1, hi)]
    start = before[-AROUND_WORDS] if len(before) >= AROUND_WORDS else lo
    end = after[AROUND_WORDS - 1] if len(after) >= AROUND_WORDS else hi
    return start, end


_FIGURE = re.compile(r"(?<![^\W_])\d+(?:[.,]\d+)?(?![^\W_])")


def _figures(sentence: str) -> list[float]:
    return [float(m.group().replace(",", ".")) for m in _FIGURE.finditer(sentence)]


def _round_to(x: float, y: float) -> bool:
    """Whether ``x`` rounded to the last significant digit of ``y`` is ``y`` (876 to 900, 27 to 30)."""
    if y <= 0 or x == y:
        return x == y
    step = 1.0
    while y % (step * 10) == 0:
        step *= 10
    return y % step == 0 and step > 1 and round(x / step) * step == y


def _rounded(a: str, b: str) -> bool:
    """Whether a figure of one sentence is a figure of the other rounded ("почти 900" for 876,
    "около 30" for 27): a paraphrase rounds, it does not contradict."""
    fa, fb = _figures(a), _figures(b)
    return any(_round_to(x, y) or _round_to(y, x) for x in fa for y in fb)


def _numbers(sentence: str) -> bool:
    """Whether ``sentence`` gives a number, in digits or in words (its numbers agree with its own)."""
    return evidence(sentence, sentence).numbers_agree


def _contradiction(suspect: str, source: str) -> str:
    """Why the two sentences contradict: "numbers" when each holds a number the other lacks
    (758 against 2260; a figure only one of them gives is a detail added or dropped, as
    paraphrases do), "denial" when one says не / нет / ни / not and the other does not and
    neither says it with a word of :data:`DENYING_WORDS`; "" when they do not."""
    e = evidence(suspect, source)
    if e.numbers_conflict and not e.numbers_agree and _numbers(suspect) and _numbers(source) \
            and not _rounded(suspect, source):
        return "numbers"
    if e.negation_differs and not DENYING_WORDS.search(suspect) and not DENYING_WORDS.search(source):
        return "denial"
    return ""


def refuse_contradictions(passages: Sequence[Passage], a: Tokens, b: Tokens, a_word_starts: np.ndarray,
                          min_words: int) -> list[Passage]:
    """``passages`` of suspect ``a`` in source ``b`` without the sentences refused (module
    docstring); a passage left with fewer than ``min_words`` words of the suspect is dropped."""
    if not any(p.method in REFUSED_METHODS for p in passages):
        return list(passages)
    a_spans = np.asarray(a.sentence_spans, dtype=np.int64).reshape(-1, 2)
    b_spans = np.asarray(b.sentence_spans, dtype=np.int64).reshape(-1, 2)
    out = []
    for p in passages:
        if p.method not in REFUSED_METHODS or not len(a_spans) or not len(b_spans):
            out.append(p)
            continue
        cut = _refused(p, a, b, a_spans, b_spans, a_word_starts, min_words)
        if not cut:
            out.append(p)
            continue
        kept = _without(p, cut, a, b, a_word_starts, min_words)
        if kept is not None:
            out.append(kept)
    return out


def _refused(p: Passage, a: Tokens, b: Tokens, a_spans: np.ndarray, b_spans: np.ndarray,
             a_word_starts: np.ndarray, min_words: int) -> list[tuple[int, int, str]]:
    """The suspect sentences of ``p`` refused: (start, end, why), why "numbers", "denial" or
    "thin edge", in suspect order. Each sentence is judged once, when it is needed, and only
    as far as needed: every sentence of a paraphrase-layer passage for contradictions (most are
    settled by a copied run in them, and an edited copy is never read for what it says), the
    thinness of only the edges (a copied chapter is one passage of hundreds of sentences)."""
    a_first = np.ascontiguousarray(a_spans[:, 0])
    by_sentence: dict[int, list[tuple[int, int, int, int]]] = {}
    for q in p.matched_pieces():
        first, last = _sentence_at(a_first, q[0]), _sentence_at(a_first, max(q[0], q[1] - 1))
        for s in range(first, last + 1):
            by_sentence.setdefault(s, []).append(q)
    starts = np.asarray(a.starts, dtype=np.int64)  # of the content tokens: words_in counts them
    b_starts = np.asarray(b.starts, dtype=np.int64)
    b_first = np.ascontiguousarray(b_spans[:, 0])
    copied: dict[tuple[int, int, int, int], bool] = {}  # a piece over several sentences is read once
    parts: dict[int, tuple[list[tuple[int, int, int, int]], list[tuple[int, int]]]] = {}
    kept: dict[int, bool] = {}
    said: dict[int, str] = {}

    def span(s: int) -> tuple[int, int]:
        return int(a_spans[s, 0]), int(a_spans[s, 1])

    def inside_of(s: int) -> tuple[list[tuple[int, int, int, int]], list[tuple[int, int]]]:
        """The parts of the sentence's pieces in it, and their suspect sides merged."""
        if s not in parts:
            lo, hi = span(s)
            qs = [piece_inside(q, lo, hi, a, b) for q in by_sentence[s]]
            parts[s] = (qs, merge((q[0], q[1]) for q in qs))
        return parts[s]

    def protected(s: int) -> bool:  # a copy: never refused
        if s not in kept:
            for q in by_sentence[s]:
                if q not in copied:
                    copied[q] = _copied_run(q, a, b, min_words)
            if any(copied[q] for q in by_sentence[s]):
                kept[s] = True
            else:
                lo, hi = span(s)
                qs, inside = inside_of(s)
                kept[s] = _edited_copy(qs, inside, lo, hi, a, b, a_word_starts)
        return kept[s]

    def source_sentences(qs: list[tuple[int, int, int, int]]) -> tuple[int, int, int, int]:
        """(first, one past the last source character of the parts; the source sentences' span)."""
        b0, b1 = min(q[2] for q in qs), max(q[3] for q in qs)
        return (b0, b1, int(b_spans[_sentence_at(b_first, b0), 0]),
                int(b_spans[_sentence_at(b_first, max(b0, b1 - 1)), 1]))

    def contradiction(s: int) -> str:  # of a paraphrase passage's sentence that is no copy
        if s not in said:
            said[s] = ""
            if p.method == "paraphrase" and not protected(s):
                lo, hi = span(s)
                qs, _ = inside_of(s)
                b0, b1, source_lo, source_hi = source_sentences(qs)
                c0, c1 = _around_span(a.text, lo, hi, min(q[0] for q in qs), max(q[1] for q in qs))
                d0, d1 = _around_span(b.text, source_lo, source_hi, b0, b1)
                why = _contradiction(a.text[c0:c1], b.text[d0:d1])
                if why and _contradiction(a.text[lo:hi], b.text[source_lo:source_hi]) != why:
                    why = ""  # whole, the sentences agree: "Сноудена не оказалось" / "не нашли Эдварда Сноудена"
                said[s] = why
        return said[s]

    def thin(s: int) -> bool:
        lo, hi = span(s)
        qs, inside = inside_of(s)
        matched = words_in(starts, inside)
        _, _, source_lo, source_hi = source_sentences(qs)
        shorter = min(words_in(starts, [(lo, hi)]), words_in(b_starts, [(source_lo, source_hi)]))
        return matched < MIN_AGREE and 2 * matched < shorter

    order = sorted(by_sentence)
    if p.method == "paraphrase":
        refused = [(s, contradiction(s)) for s in order if contradiction(s)]
        live = [s for s in order if not contradiction(s)]
    else:
        refused, live = [], order
    while len(live) > 1:  # thin edges, from either end
        if not protected(live[0]) and thin(live[0]):
            refused.append((live.pop(0), "thin edge"))
        elif not protected(live[-1]) and thin(live[-1]):
            refused.append((live.pop(), "thin edge"))
        else:
            break
    return sorted((*span(s), why) for s, why in refused)


def _without(p: Passage, cut: list[tuple[int, int, str]], a: Tokens, b: Tokens, starts: np.ndarray,
             min_words: int) -> Passage | None:
    """``p`` without the suspect's spans ``cut``, its kind told again of what is left
    (:func:`sverka.core.kinds.kind_after_cut`); None when fewer than ``min_words`` words are left."""
    pieces = list(p.matched_pieces())
    for lo, hi, _ in cut:
        pieces = [r for q in pieces for r in _clip(q, lo, hi, a, b)]
    pieces = [t for q in pieces for t in (_trimmed(q, a.text),) if t is not None]
    if not pieces:
        return None
    pieces.sort()
    c0, c1 = min(q[0] for q in pieces), max(q[1] for q in pieces)
    words = words_in(starts, [(c0, c1)])
    if words < min_words:
        return None
    matched = words_in(starts, merge((q[0], q[1]) for q in pieces))
    return dataclasses.replace(p, suspect_start=c0, suspect_end=c1, source_start=min(q[2] for q in pieces),
                               source_end=max(q[3] for q in pieces), words=words, matched=matched,
                               pieces=tuple(pieces), kind=kind_after_cut(p.method, p.kind, pieces, a, b))
