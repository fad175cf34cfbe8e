"""A check looks its suspect's synonyms and word families up once (``Prepared.related``) for
both the variant pair keys of retrieval and the paraphrase layer's keys: the same keys as
each looking them up itself."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sverka.core import candidates
from sverka.core.paraphrase import suspect_keys
from sverka.core.synonyms import related_of
from sverka.core.text import canonize

RUSLIT = Path(__file__).resolve().parents[3] / "shared" / "data" / "ruslit"
ESSAY = (
    "Большой дом стоял на краю деревни. Огромное здание видно было издалека, и дети бегали к нему "
    "смотреть на старый сад. Врач сказал, что доктор придёт завтра утром. Красивая девушка шла по "
    "дороге, а прекрасная погода радовала всех жителей. Быстро побежал мальчик, стремительно скрылся "
    "за углом. Ритмичный стук колёс и ритмический шум поезда отражали настроение путешественников."
)


def _texts() -> list[str]:
    texts = [ESSAY]
    if RUSLIT.is_dir():
        for f in sorted(RUSLIT.rglob("*.txt"))[:3]:
            texts.append(f.read_text("utf-8", errors="replace")[:20_000])
    return texts


@pytest.mark.parametrize("swaps,families", [(False, False), (True, False), (False, True)])
def test_the_keys_from_one_lookup_are_the_keys_of_two(monkeypatch, swaps, families):
    monkeypatch.setattr(candidates, "VARIANT_SWAPS", swaps)
    monkeypatch.setattr(candidates, "VARIANT_FAMILIES", families)
    for text in _texts():
        t = canonize(text)
        related = related_of(np.asarray(t.hashes, np.uint64))
        assert len(related[0])  # synonyms met: the filter is exercised
        for got, want in zip(candidates.variant_pair_keys(t, related), candidates.variant_pair_keys(t)):
            assert np.array_equal(got, want) and got.dtype == want.dtype
        once, alone = suspect_keys(t, related), suspect_keys(t)
        for name in ("hashes", "tokens", "token_keys", "key_start", "distinct", "distinct_start", "distinct_count",
                     "sentence_of", "sentence_len", "key_kind", "own"):
            assert np.array_equal(getattr(once, name), getattr(alone, name)), name
