"""The meaning layer's headline cut as it was first written (a regex that begins with the word
before the stop, tried at every letter of the text): the oracle of the cheaper
:func:`sverka.core.meaning.split_headlines`, which must cut exactly where this does."""

from __future__ import annotations

import re

import numpy as np

from sverka.core.meaning import _ABBREVIATIONS, _MORE_ABBREVIATIONS

_HEADLINE_CUT = re.compile(r"([^\W\d_]{2,})\.[\"»”’')\]]*(\s+)(?=[«\"„“‘'(\[]?(?:\d|[^\W\d_]))")


def split_headlines(text: str, spans: np.ndarray) -> np.ndarray:
    spans = np.asarray(spans, np.int64).reshape(-1, 2)
    out: list[tuple[int, int]] = []
    for a, b in spans.tolist():
        at = a
        for m in _HEADLINE_CUT.finditer(text, a, b):
            first = text[m.end()] if text[m.end()].isalnum() else text[m.end() + 1]
            word = m.group(1).lower()
            if (not first.isdigit() and not first.islower()) or word in _ABBREVIATIONS or word in _MORE_ABBREVIATIONS:
                continue
            out.append((at, m.start(2)))
            at = m.end(2)
        out.append((at, b))
    return np.asarray(out, np.int64).reshape(-1, 2) if out else spans
