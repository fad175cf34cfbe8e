"""Detection on real Russian text (issue 4, "Done when"): a suspect made of 5 fragments of
different collection files plus original text is traced back to exactly those 5 sources,
verbatim and rewritten. Skipped when ../shared/data/ruslit is absent.

The collection is a small slice of the corpus (every third Chekhov story, 26 files) so the
test stays fast; the original text comes from other stories that are NOT in it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from _corpus import WORD, covered, fragment, rewrite, splice  # noqa: E402

from sverka.core import api  # noqa: E402
from sverka.core.document import Document  # noqa: E402
from sverka.core.exclusions import find_quotes  # noqa: E402
from sverka.core.intervals import merge, subtract, total  # noqa: E402

SIZES = (300, 700, 1200, 2000, 3000)  # words per fragment


@pytest.fixture(scope="module")
def corpus(ruslit: Path, tmp_path_factory):
    stories = sorted((ruslit / "prose" / "Chekhov").glob("*.txt"))
    if len(stories) < 60:
        pytest.skip("the Chekhov part of ruslit is incomplete")
    files = stories[0::3][:26]
    held_out = stories[1::3][:8]
    path = tmp_path_factory.mktemp("ruslit") / "collection.sverka"
    col = api.Collection(path, api.Settings())
    summary = col.add([str(f) for f in files])
    assert not summary.failed and len(summary.added) == len(files)
    texts = {str(f): f.read_text(encoding="utf-8") for f in files}
    original = " ".join(f.read_text(encoding="utf-8") for f in held_out).split()
    yield col, texts, original
    col.close()


def build(corpus, seed: int, rewritten: bool):
    col, texts, original = corpus
    rng = np.random.default_rng(seed)
    names = sorted(texts)
    counts = {n: len(WORD.findall(texts[n])) for n in names}
    chosen: list[str] = []
    for size in sorted(SIZES, reverse=True):
        ok = [n for n in names if counts[n] >= size + 100 and n not in chosen]
        chosen.append(ok[int(rng.integers(len(ok)))])
    chosen = chosen[::-1]
    filler = [w for w in WORD.findall(" ".join(original[-5000:])) if len(w) > 3]
    frags = []
    if rewritten:
        import pymorphy3

        morph = pymorphy3.MorphAnalyzer()
    for name, size in zip(chosen, SIZES):
        text = fragment(texts[name], size, rng)
        if rewritten:
            text = rewrite(text, rng, morph, filler)
        frags.append((name, text))
    start = int(rng.integers(0, 10_000))
    originals = [" ".join(original[start + k * 500 : start + (k + 1) * 500]) for k in range(6)]
    return splice(originals, frags)


def words_between(text: str, a: int, b: int) -> int:
    return len(WORD.findall(text[min(a, b) : max(a, b)]))


@pytest.mark.parametrize("seed", [0, 1])
def test_verbatim_fragments_found_exactly(corpus, seed):
    col = corpus[0]
    text, pieces = build(corpus, seed, rewritten=False)
    settings = api.Settings()
    result = col.check(Document(text, title="suspect"), settings)
    assert sorted(s.path for s in result.sources) == sorted(p.source for p in pieces)
    for piece in pieces:
        (src,) = [s for s in result.sources if s.path == piece.source]
        inside = [p for p in src.passages if p.suspect_end > piece.start and p.suspect_start < piece.end]
        assert inside, piece
        assert words_between(text, min(p.suspect_start for p in inside), piece.start) <= 1
        assert words_between(text, max(p.suspect_end for p in inside), piece.end) <= 1
        # the source side points at the fragment's text in the source
        first = min(inside, key=lambda p: p.suspect_start)
        assert src.text[first.source_start : first.source_start + 40] == text[first.suspect_start : first.suspect_start + 40]
    # quoted text inside the fragments does not count (default settings)
    quotes = merge(find_quotes(text))
    true = total(subtract(merge((p.start, p.end) for p in pieces), quotes)) / len(text) * 100
    assert abs(result.borrowed_percent - true) <= 2.0
    assert abs(result.original_percent - (100 - true)) <= 2.0
    # and counts in full when quotations are not excluded
    plain = api.apply_exclusions(result, settings.replace(exclude_quotes=False))
    true_all = sum(p.end - p.start for p in pieces) / len(text) * 100
    assert abs(plain.borrowed_percent - true_all) <= 2.0


@pytest.mark.parametrize("seed", [0, 1])
def test_rewritten_fragments_still_found(corpus, seed):
    col = corpus[0]
    text, pieces = build(corpus, seed, rewritten=True)
    result = col.check(Document(text, title="suspect"), api.Settings())
    assert sorted(s.path for s in result.sources) == sorted(p.source for p in pieces)
    for piece in pieces:
        (src,) = [s for s in result.sources if s.path == piece.source]
        spans = [(p.suspect_start, p.suspect_end) for p in src.passages]
        share = covered(spans, piece.start, piece.end) / (piece.end - piece.start)
        assert share >= 0.80, (piece, share)
