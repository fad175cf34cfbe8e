"""Two sources over one sentence: the one the sentence was copied from word for word keeps
it; the other, which holds it edited, gives those words up (no "changed words" on a copy)."""

from __future__ import annotations

from sverka.core import api
from sverka.core.document import Document

SENT = "Данко вырвал из груди своё сердце, и оно пылало ярко, как солнце, освещая путь людям через тёмный лес."
EDITED = "Данко вырвал из груди горячее сердце, и оно горело ярко, как солнце, освещая дорогу людям через тёмный лес."
OPENING = ("Легенда о Данко рассказывает о юноше, который вывел свой народ из тёмного леса. "
           "Люди жили в степи, но пришли сильные племена и прогнали их в глубину леса, где были болота. ")
A = OPENING + EDITED + " Когда люди вышли из леса, Данко упал и умер, а его сердце рассыпалось искрами по степи."
B = ("Совсем другой текст о море и кораблях, который никак не связан с лесом. " + SENT +
     " И ещё одна строка о кораблях и пристанях старого порта.")
ESSAY = OPENING + SENT + " Мне кажется, каждый человек должен помогать другим, даже если ему страшно."


def test_the_source_copied_word_for_word_keeps_the_sentence(tmp_path):
    with api.Collection(tmp_path / "c.sverka") as col:
        col.add_document(Document(A, path="/a.txt", title="A"))
        col.add_document(Document(B, path="/b.txt", title="B"))
        r = col.check(Document(ESSAY, title="essay"))
    by = {s.title: s for s in r.sources}
    at = ESSAY.index(SENT)
    inside = lambda p: p.suspect_start < at + len(SENT) and p.suspect_end > at  # noqa: E731
    assert [p.kind for p in by["B"].passages if inside(p)] == ["verbatim"]
    assert not [p for p in by["A"].passages if inside(p)], by["A"].passages
    # A keeps the opening it explains, word for word
    assert [p.kind for p in by["A"].passages] == ["verbatim"] and by["A"].passages[0].suspect_start == 0
    assert r.borrowed_percent > 70  # the same words borrowed as before, from the source that explains them
