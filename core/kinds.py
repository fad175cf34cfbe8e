"""The kind of a borrowed passage (``Passage.kind``, ``results.KINDS``): verbatim, inflected,
edited, synonyms, reordered or paraphrase, told from the passage's alignment.

Computed after alignment, never inside it: :func:`sverka.core.align.align` finds the passages
from token arrays alone and hands each one's matched runs (:class:`~sverka.core.align.Segment`)
and character pieces to the ``kind_of`` it is given (:func:`passage_kind`, passed by
:func:`sverka.core.check.align_prepared`). Telling a kind reads what alignment never needs: the
words as written around and between the pieces, the dictionary's analyses of the words that
differ (:func:`~sverka.core.text.word_analyses`, :func:`~sverka.core.text.lemma_hashes`) and the
synonym table (:mod:`sverka.core.synonyms`). The paraphrase layer
(:mod:`sverka.core.paraphrase`) labels its passages with :func:`analyses_in` and
:func:`paired_forms` too.
"""

from __future__ import annotations

import bisect
from collections import Counter
from typing import Sequence

import numpy as np

from .align import Segment
from .intervals import merge as merge_ranges
from .words import WRITTEN_WORD
from .synonyms import table
from .text import Tokens, lemma_hashes, spelling_key, word_analyses

__all__ = ["PAIRED_FORMS_LIMIT", "analyses_in", "forms_of_one_word", "kind_after_cut", "paired_forms",
           "passage_kind", "pieces_kind"]

#: A word in raw text, as the labels read it.
_WORD = WRITTEN_WORD  # a written word (sverka.core.words)

_norm = spelling_key  # words compared as the reader sees them: case, ё and the old spelling aside


#: Joins words to be normalised in one go: no word holds it, nor does lowering make it (nor is
#: it cased or case-ignorable, so a final sigma lowers as at the end of its own word).
_UNIT = "\x1f"


def _norms(words: list[str]) -> list[str]:
    """``[_norm(w) for w in words]``, with one ``lower`` for all (a passage of a novel has
    thousands of words)."""
    return _norm(_UNIT.join(words)).split(_UNIT) if words else []


def passage_kind(segs: Sequence[Segment], pieces: Sequence[tuple[int, int, int, int]], a: Tokens, b: Tokens) -> str:
    """What kind of borrowing a passage is, from its alignment (``results.KINDS``): verbatim;
    inflected (the same words in other forms); edited (words inserted, deleted or replaced,
    stop words included); synonyms (words replaced one for one by synonyms); reordered
    (sentences or words in another order); paraphrase (more than one of these at once)."""
    ta, tb = a.text, b.text
    found: set[str] = set()
    by_a = sorted(segs, key=lambda s: (s.a0, s.a1))
    if any(t.b0 < s.b0 and t.a0 >= s.a1 for s, t in zip(by_a, by_a[1:])):
        found.add("reordered")  # a later part of the suspect comes from earlier in the source

    def forms(tok: Tokens, i0: int, i1: int, text: str) -> list[str]:
        return _norms(list(map(text.__getitem__, map(slice, tok.starts[i0:i1].tolist(), tok.ends[i0:i1].tolist()))))

    def same_text(s: Segment) -> bool:  # the two spans read the same: so do their tokens
        return (s.a1 - s.a0 == s.b1 - s.b0 and s.a1 > s.a0
                and _read_alike(ta[a.starts[s.a0]:a.ends[s.a1 - 1]], tb[b.starts[s.b0]:b.ends[s.b1 - 1]]))

    reordered = "reordered" in found
    for s in by_a:
        if s.sentence:
            la, lb = a.hashes[s.a0:s.a1].tolist(), b.hashes[s.b0:s.b1].tolist()
            if la != lb:
                found.add("reordered" if sorted(la) == sorted(lb) else "edited")
            if not reordered and "inflected" not in found and not same_text(s) and \
                    sorted(forms(a, s.a0, s.a1, ta)) != sorted(forms(b, s.b0, s.b1, tb)):
                found.add("inflected")
        elif not reordered and "inflected" not in found and not same_text(s) and \
                forms(a, s.a0, s.a1, ta) != forms(b, s.b0, s.b1, tb):
            found.add("inflected")
    language = a.language
    c0, c1 = pieces[0][0], max(q[1] for q in pieces)
    d0, d1 = min(q[2] for q in pieces), max(q[3] for q in pieces)
    if reordered:
        # Parts in another order pair words by where they stand, and a short part may pair
        # another occurrence of a word ("руки" with the "руку" of the next sentence): the two
        # sides are compared as bags of words, each side's whole stretch.
        all_a, all_b = _words_at(ta, c0, c1), _words_at(tb, d0, d1)
        wa, wb = Counter(w for _, w in all_a), Counter(w for _, w in all_b)
        if wa != wb:
            # a clause moved to the other end of its sentence may lie outside the passage on
            # one side ("Муж ее, полковник ..." -> "Полковник ..., муж ее."): the words one side
            # lacks are looked for in the rest of the sentences the other side begins and ends in
            beyond_a, beyond_b = _sentence_ends(a, c0, c1), _sentence_ends(b, d0, d1)
            only_a, only_b = (wa - wb) - beyond_b, (wb - wa) - beyond_a
            rest_a, rest_b, inflected = paired_forms(only_a, only_b, analyses_in(a, all_a, only_a, language),
                                                     analyses_in(b, all_b, only_b, language), language)
            if inflected:
                found.add("inflected")
            if rest_a or rest_b:
                common = wa - (wa - wb)  # the words both sides hold
                found.add("synonyms" if _replaced_by_synonyms(_keeping(all_a, common + rest_a),
                                                              _keeping(all_b, common + rest_b), a, b) else "edited")
        return _label(found)
    # words of the suspect or of the source inside the passage that no matched part holds:
    # inserted, deleted or replaced words (stop words too: they are compared as written)
    # (the same words left over on both sides, such as a conjunction between rotated clauses,
    # were moved, not edited; a word left over on both sides in another form, one whose
    # lemma differs from the other's ("пошли": послать, "пошла": пойти) or a stop word,
    # was inflected)
    left_a = _words_outside(ta, c0, c1, [(q[0], q[1]) for q in pieces])
    left_b = _words_outside(tb, d0, d1, [(q[2], q[3]) for q in pieces])
    if Counter(w for _, w in left_a) != Counter(w for _, w in left_b):
        # a word in another form stands between the same two matched parts on both sides
        gaps_a, gaps_b = [q[0] for q in pieces], sorted(q[2] for q in pieces)
        in_gap_a = _by_gap(left_a, gaps_a)
        in_gap_b = _by_gap(left_b, gaps_b)
        both = sorted(set(in_gap_a) & set(in_gap_b))
        info_a = analyses_in(a, [w for k in both for w in in_gap_a[k]], None, language)
        info_b = analyses_in(b, [w for k in both for w in in_gap_b[k]], None, language)
        for k in both:
            wa, wb = Counter(w for _, w in in_gap_a[k]), Counter(w for _, w in in_gap_b[k])
            if wa == wb:
                continue
            rest_a, rest_b, inflected = paired_forms(wa - wb, wb - wa, info_a, info_b, language)
            if inflected:
                found.add("inflected")
                in_gap_a[k] = _keeping(in_gap_a[k], wa - (wa - wb) + rest_a)
                in_gap_b[k] = _keeping(in_gap_b[k], wb - (wb - wa) + rest_b)
        # words standing where the other side has none, and that the other side holds in the
        # same sentence before the passage's first matched word or after its last, were moved
        # ("Они жили в ветхой землянке" -> "В ветхой землянке они жили")
        moved_a = _moved(in_gap_a, in_gap_b, b, d0, d1)
        moved_b = _moved(in_gap_b, in_gap_a, a, c0, c1)
        if moved_a or moved_b:
            found.add("reordered")
            in_gap_a = {k: _keeping(v, Counter(w for _, w in v) - moved_a) for k, v in in_gap_a.items()}
            in_gap_b = {k: _keeping(v, Counter(w for _, w in v) - moved_b) for k, v in in_gap_b.items()}
        left_a = [w for k in sorted(in_gap_a) for w in in_gap_a[k]]
        left_b = [w for k in sorted(in_gap_b) for w in in_gap_b[k]]
        ca, cb = Counter(w for _, w in left_a), Counter(w for _, w in left_b)
        if ca != cb:
            found.add("synonyms" if _replaced_by_synonyms(left_a, left_b, a, b) else "edited")
    if "edited" not in found and "reordered" not in found:
        # stop words replaced inside a matched part: the canonical tokens agree, the words do
        # not (compared place by place: not when a sentence's words changed their order)
        for q in pieces:
            if _read_alike(ta[q[0]:q[1]], tb[q[2]:q[3]]):
                continue  # the same words, as written
            wa, wb = _words_at(ta, q[0], q[1]), _words_at(tb, q[2], q[3])
            if len(wa) != len(wb):
                found.add("edited")
                break
            differ = [(x, y) for x, y in zip(wa, wb) if x[1] != y[1]]
            if not differ:
                continue
            info_a = analyses_in(a, [x for x, _ in differ], None, language)
            info_b = analyses_in(b, [y for _, y in differ], None, language)
            if any(not forms_of_one_word(x[1], y[1], info_a[x[1]], info_b[y[1]], language) for x, y in differ):
                found.add("edited")
                break
            found.add("inflected")
    return _label(found)


def pieces_kind(pieces: Sequence[tuple[int, int, int, int]], a: Tokens, b: Tokens) -> str:
    """:func:`passage_kind` of an exact-layer passage known by its character pieces alone (one
    cut by the refusals or by the heading rule): each piece is one matched run of tokens, as
    :func:`sverka.core.align.align` makes a piece of each of its segments; a run whose tokens
    differ from the source's in order was found by sentence hashes (an exact run's tokens are
    the source's, in order)."""
    sa, sb = np.asarray(a.starts), np.asarray(b.starts)
    ha, hb = np.asarray(a.hashes), np.asarray(b.hashes)
    segs = []
    for q in pieces:
        a0, a1 = int(np.searchsorted(sa, q[0], "left")), int(np.searchsorted(sa, q[1], "left"))
        b0, b1 = int(np.searchsorted(sb, q[2], "left")), int(np.searchsorted(sb, q[3], "left"))
        if a1 > a0 and b1 > b0:
            segs.append(Segment(a0, a1, b0, b1, sentence=ha[a0:a1].tolist() != hb[b0:b1].tolist()))
    if not segs:
        return "verbatim"
    return passage_kind(segs, sorted(pieces), a, b)


def kind_after_cut(method: str, kind: str, pieces: Sequence[tuple[int, int, int, int]], a: Tokens, b: Tokens) -> str:
    """The kind of what is left of a passage of ``method`` and ``kind`` once part of it was cut
    (a sentence the refusals refused, the heading lines): ``pieces`` are what is left.

    A passage of the exact layer is labelled again as :func:`sverka.core.align.align` labels it
    (:func:`pieces_kind`): the sentence left may be copied word for word though the one cut was
    edited. A passage of the paraphrase layer is labelled by which words agreed through a
    synonym or a word of their family (:mod:`sverka.core.paraphrase`, step 6), a pairing the
    passage does not keep, so its label cannot be told again from the pieces; what can be
    told is that what is left is the source's words as written, in its order, nothing between
    (:func:`pieces_kind` says "verbatim" only then): it is "verbatim", else it keeps the label
    of the whole (its changes are among the whole's)."""
    if not pieces:
        return kind
    if method == "paraphrase":
        return "verbatim" if pieces_kind(pieces, a, b) == "verbatim" else kind
    return pieces_kind(pieces, a, b)


def _read_alike(x: str, y: str) -> bool:
    """Do two stretches of text read the same (:func:`_norm`)? Equal as written, they do: a
    copied passage of a novel is not lowered twice to find so."""
    return x == y or _norm(x) == _norm(y)


def _label(found: set[str]) -> str:
    if not found:
        return "verbatim"
    return found.pop() if len(found) == 1 else "paraphrase"


def forms_of_one_word(x: str, y: str, ax: tuple[int, int], ay: tuple[int, int], language: str) -> bool:
    """Are the written words ``x`` and ``y`` (their analyses ``ax``, ``ay``: (lemma hash, WH),
    :func:`analyses_in`) forms of one word: is the most likely lemma of one a lemma the
    dictionary allows the other? "пошла" is read as пойти, "пошли" as послать or пойти; "мне"
    and "меня" are both я. WH is the sum of the hashes of every lemma: it tells that a word
    has one lemma only, and the other of a word of two; the dictionary is asked
    (:func:`~sverka.core.text.lemma_hashes`) only about a word of more lemmas than one whose
    first is not the other word's."""
    (lx, wx), (ly, wy) = ax, ay
    if lx == ly:
        return True
    other_x, other_y = (wx - lx) & _MASK64, (wy - ly) & _MASK64
    if (other_x and other_x == ly) or (other_y and other_y == lx):
        return True
    if min(len(x), len(y)) < 2:  # a letter alone ("в" / "во") shares its most likely lemma: told above
        return False
    return bool((other_x and ly in lemma_hashes(x, language)) or (other_y and lx in lemma_hashes(y, language)))


_MASK64 = (1 << 64) - 1


def analyses_in(t: Tokens, words: list[tuple[int, str]], only: Counter | None, language: str
                ) -> dict[str, tuple[int, int]]:
    """(lemma hash, WH) of the words (start, normalised word) of ``t`` (of those in ``only``,
    unless None): a token's from the tokens (as canonization read it in its text: "полуживаго"
    of the old spelling is полуживой), a stop word's as canonization reads it
    (:func:`~sverka.core.text.word_analyses`)."""
    out: dict[str, tuple[int, int]] = {}
    words = [(x, w) for x, w in words if only is None or w in only]
    rest = []
    for (_, w), k in zip(words, _tokens_at(t, [x for x, _ in words])):
        if w in out:
            continue
        if k >= 0:
            out[w] = (int(t.hashes[k]), int(t.word_hashes[k]))
        else:
            rest.append(w)
    rest = [w for w in dict.fromkeys(rest) if w not in out]
    out.update(zip(rest, word_analyses(rest, language)))
    return out


def _tokens_at(t: Tokens, positions: list[int]) -> list[int]:
    """The token of ``t`` starting at each position, or -1 (a stop word is no token); looked up
    in the sorted starts: ``t`` may be a whole novel, the positions a handful."""
    if not positions:
        return []
    starts = np.asarray(t.starts)
    at = np.searchsorted(starts, positions).tolist()
    return [k if k < len(starts) and int(starts[k]) == x else -1 for x, k in zip(positions, at)]


def paired_forms(only_a: Counter, only_b: Counter, info_a: dict[str, tuple[int, int]],
                 info_b: dict[str, tuple[int, int]], language: str) -> tuple[Counter, Counter, bool]:
    """For labels (here and in :mod:`sverka.core.paraphrase`): the words of ``only_a`` and
    ``only_b`` (words one side has and the other has not) that are no other form of a word of
    the other side (:func:`forms_of_one_word`, their analyses in ``info_a`` and ``info_b``),
    and whether any was: each word pairs with at most one of the other side, in order of the
    words, the first that fits. Beyond :data:`PAIRED_FORMS_LIMIT` (word, word) pairs to try,
    the words stay unpaired: so many words changed are an edit whatever their forms."""
    rest_b = sorted(only_b.elements())
    rest_a: list[str] = []
    paired = False
    xs = sorted(only_a.elements())
    if len(xs) * len(rest_b) > PAIRED_FORMS_LIMIT:
        return Counter(xs), Counter(rest_b), False
    for x in xs:
        ix = info_a.get(x)
        k = None if ix is None else next(
            (k for k, y in enumerate(rest_b) if y in info_b and forms_of_one_word(x, y, ix, info_b[y], language)), None)
        if k is None:
            rest_a.append(x)
        else:
            del rest_b[k]
            paired = True
    return Counter(rest_a), Counter(rest_b), paired


#: (word, word) pairs :func:`paired_forms` tries at most.
PAIRED_FORMS_LIMIT = 2500


def _by_gap(words: list[tuple[int, str]], starts: list[int]) -> dict[int, list[tuple[int, str]]]:
    """``words`` (start, word) grouped by the gap between matched parts they stand in (the
    number of parts starting at or before them; ``starts`` sorted)."""
    out: dict[int, list[tuple[int, str]]] = {}
    for x, w in words:
        out.setdefault(bisect.bisect_right(starts, x), []).append((x, w))
    return out


def _moved(gaps: dict[int, list[tuple[int, str]]], other_gaps: dict[int, list[tuple[int, str]]], other: Tokens,
           start: int, end: int) -> Counter:
    """The words of ``gaps`` (words left over, by gap) standing in a gap the other side leaves
    empty and held by ``other`` in the sentences it begins and ends in, outside ``start:end``."""
    alone = Counter(w for k, words in gaps.items() if not other_gaps.get(k) for _, w in words)
    return alone & _sentence_ends(other, start, end) if alone else Counter()


def _sentence_ends(t: Tokens, start: int, end: int) -> Counter:
    """The words of ``t.text`` in the sentence holding ``start`` before it and in the sentence
    holding ``end`` after it."""
    if not len(t.starts):
        return Counter()
    spans = np.asarray(t.sentence_spans)
    first = int(t.sentence_ids[min(int(np.searchsorted(t.starts, start)), len(t.starts) - 1)])
    last = int(t.sentence_ids[max(int(np.searchsorted(t.ends, end, "right")) - 1, 0)])
    s0, s1 = min(int(spans[first][0]), start), max(int(spans[last][1]), end)
    return Counter(w for _, w in _words_at(t.text, s0, start) + _words_at(t.text, end, s1))


def _words_at(text: str, start: int, end: int) -> list[tuple[int, str]]:
    """(start, normalised word) of every word of ``text[start:end]``."""
    found = list(_WORD.finditer(text, start, end))
    return list(zip((m.start() for m in found), _norms([m.group() for m in found])))


def _keeping(words: list[tuple[int, str]], keep: Counter) -> list[tuple[int, str]]:
    """``words`` (in order) without those beyond the counts in ``keep`` (the last occurrences go)."""
    left = Counter(keep)
    out = []
    for x, w in words:
        if left[w] > 0:
            left[w] -= 1
            out.append((x, w))
    return out


def _words_outside(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> list[tuple[int, str]]:
    """(start, normalised word) of every word of ``text[start:end]`` (as ``_WORD`` finds them
    scanning from ``start``) that does not start inside one of ``spans``. Only the gaps between
    the spans are read: a passage is mostly spans."""
    out: list[tuple[int, str]] = []
    pos = start
    for s0, s1 in merge_ranges(spans) + [(end, end)]:
        if pos < s0:
            for m in _WORD.finditer(text, pos, end):
                if m.start() >= s0:
                    break
                out.append((m.start(), _norm(m.group())))
                if m.end() > s0:  # a word running into the span: the scan goes on after it
                    pos = m.end()
        if s1 > pos:
            pos = s1
            if start < pos < end and _WORD.match(text, pos - 1) and _WORD.match(text, pos):
                m = _WORD.match(text, pos)  # a word started inside the span runs on: skip its rest
                pos = m.end()
    return out


def _replaced_by_synonyms(left_a: list[tuple[int, str]], left_b: list[tuple[int, str]], a: Tokens, b: Tokens) -> bool:
    """Are the words left over on the two sides (bridged, not matched) content words replaced
    one for one by their synonyms (:mod:`sverka.core.synonyms`), the stop words among them
    the same?"""
    def split(left, t: Tokens) -> tuple[Counter, list[int]]:
        # Content words by their lemma's hash: the synonym table answers for hashes from the
        # arrays every check loads (its lemmas as words are read from the shipped file, 66 ms)
        stop, content = Counter(), []
        for (_, w), k in zip(left, _tokens_at(t, [x for x, _ in left])):
            if k >= 0:
                content.append(int(t.hashes[k]))
            else:
                stop[w] += 1
        return stop, content

    stop_a, content_a = split(left_a, a)
    stop_b, content_b = split(left_b, b)
    if stop_a != stop_b or len(content_a) != len(content_b) or not content_a:
        return False
    syn = table()
    rest = list(content_b)
    replaced = False
    for x in content_a:
        y = x if x in rest else next((y for y in rest if y in syn.alternatives(x)), None)
        if y is None:
            return False
        replaced |= y != x
        rest.remove(y)
    return replaced
