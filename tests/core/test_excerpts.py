"""A long source's excerpts (results.Excerpts): sliced by whole-text offsets, shown with an
elision mark, their offsets put at their places in what is shown; the ranges a result keeps."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sverka.core.results import ELISION, Excerpts, Passage, SourceMatch, shown_offset
from sverka.core.windows import EXCERPT_CONTEXT, cut_excerpts, excerpt_ranges

WHOLE = "".join(f"Предложение номер {k} о том и о сём. " for k in range(2000))  # ~70 000 characters


def _source(excerpts: Excerpts | None, passages=()) -> SourceMatch:
    return SourceMatch(source_id=1, path=None, title="novel", text="" if excerpts else WHOLE, sha256="0" * 64,
                       containment=0.5, resemblance=0.1, sentence_score=0.1, passages=tuple(passages),
                       excerpts=excerpts)


def test_excerpts_slice_like_the_whole_text_where_they_hold_it():
    ex = Excerpts(len(WHOLE), ((100, WHOLE[100:900]), (5000, WHOLE[5000:5100])))
    assert len(ex) == len(WHOLE)
    assert ex[100:900] == WHOLE[100:900] and ex[250:260] == WHOLE[250:260] and ex[5000:5100] == WHOLE[5000:5100]
    assert ex[300:300] == ""
    assert ex.covers(5010, 5100) and not ex.covers(850, 950) and not ex.covers(0, 120)
    for a, b in ((850, 950), (0, 120), (5050, 5101), (2000, 2001)):
        with pytest.raises(IndexError):
            ex[a:b]
    with pytest.raises(TypeError):
        ex[5]


def test_excerpts_are_shown_with_a_mark_where_text_is_left_out():
    ex = Excerpts(len(WHOLE), ((100, WHOLE[100:900]), (5000, WHOLE[5000:5100])))
    text, where = ex.shown()
    assert text == ELISION + WHOLE[100:900] + ELISION + WHOLE[5000:5100] + ELISION
    assert "[\u2026]" in ELISION
    for a, b in ((100, 900), (120, 130), (5000, 5100), (5050, 5060)):
        assert text[shown_offset(where, a):shown_offset(where, b)] == WHOLE[a:b]
    # nothing left out at the edges: no mark there
    whole_ex = Excerpts(300, ((0, WHOLE[:300]),))
    assert whole_ex.shown()[0] == WHOLE[:300]


def test_a_source_match_shows_its_excerpts_or_its_whole_text():
    p = Passage(0, 40, 5010, 5050, 8, "exact")
    ex = Excerpts(len(WHOLE), ((5000, WHOLE[5000:5100]),))
    long, short = _source(ex, [p]), _source(None, [p])
    assert long.source_text[5010:5050] == short.source_text[5010:5050] == WHOLE[5010:5050]
    assert short.shown_text() == (WHOLE, None)
    text, where = long.shown_text()
    assert ELISION in text and text[shown_offset(where, 5010):shown_offset(where, 5050)] == WHOLE[5010:5050]


def _starts(text: str) -> np.ndarray:
    out, at = [0], text.find(". ")
    while at >= 0:
        out.append(at + 2)
        at = text.find(". ", at + 2)
    return np.array([s for s in out if s < len(text)], np.int64)


def test_excerpt_ranges_keep_the_context_the_quotation_rule_reads_widened_to_sentences():
    starts = _starts(WHOLE)
    a, b = 30_000, 30_500
    p = Passage(0, 100, a, b, 20, "bridged", pieces=((0, 40, a, a + 200), (60, 100, b - 100, b)))
    (r0, r1), = excerpt_ranges([p], len(WHOLE), starts)
    assert r0 <= a - EXCERPT_CONTEXT and r1 >= b + EXCERPT_CONTEXT
    assert r0 in starts and r1 in starts  # whole sentences, and no more than one more on each side
    assert a - EXCERPT_CONTEXT - r0 < 60 and r1 - b - EXCERPT_CONTEXT < 60
    # near the edges: clipped; far apart: two ranges; close: one
    q = Passage(0, 10, 10, 50, 8, "exact")
    far = Passage(200, 300, len(WHOLE) - 1000, len(WHOLE) - 900, 8, "exact")
    ranges = excerpt_ranges([q, p, far], len(WHOLE), starts)
    assert ranges[0][0] == 0 and ranges[-1][1] == len(WHOLE) and len(ranges) == 3
    near = Passage(200, 300, b + 2 * EXCERPT_CONTEXT - 50, b + 2 * EXCERPT_CONTEXT, 8, "exact")
    assert len(excerpt_ranges([p, near], len(WHOLE), starts)) == 1


def test_a_sentence_longer_than_the_context_is_cut_not_kept_whole():
    text = "слово " * 20_000  # no sentence end at all
    p = Passage(0, 30, 60_000, 60_030, 5, "exact")
    ex = cut_excerpts(text, [[0, len(text)]], [p])
    (at, part), = ex.parts
    assert at == 60_000 - EXCERPT_CONTEXT and len(part) == 30 + 2 * EXCERPT_CONTEXT
    assert ex[60_000:60_030] == text[60_000:60_030]


def test_a_class_check_sends_a_long_sources_excerpts_with_each_result():
    """Essays of a class share their sources' texts (sent once, put back by SHA-256); a long
    source's excerpts are each result's own and come back as they went."""
    from sverka.core import batch
    from sverka.core.results import CheckResult, SuspectInfo

    p = Passage(0, 40, 5010, 5050, 8, "exact")
    long = _source(Excerpts(len(WHOLE), ((5000, WHOLE[5000:5100]),)), [p])
    whole = dataclasses.replace(_source(None, [p]), sha256="1" * 64, source_id=2)
    result = CheckResult(suspect=SuspectInfo(None, "essay", 40, 8, "ru", (), "2" * 64), suspect_text="x" * 40,
                         sources=(long, dataclasses.replace(whole, text="")), borrowed_percent=50.0,
                         original_percent=50.0)
    back = batch._with_texts(result, {whole.sha256: WHOLE})
    assert back is not None and back.sources[0] == long and back.sources[1].text == WHOLE


def test_excerpts_hold_their_passages_whatever_order_the_sentences_come_in():
    p = Passage(0, 40, 30_000, 30_400, 8, "exact")
    spans = [[k, k + 30] for k in range(0, len(WHOLE), 35)]
    shuffled = spans[1::2] + spans[::2]  # sentences that do not rise with the text
    for given in (spans, shuffled, []):
        ex = cut_excerpts(WHOLE, given, [p])
        assert ex.covers(30_000 - EXCERPT_CONTEXT, 30_400 + EXCERPT_CONTEXT)
        assert ex[30_000:30_400] == WHOLE[30_000:30_400]
    assert cut_excerpts(WHOLE, spans, [p]) == cut_excerpts(WHOLE, shuffled, [p])
