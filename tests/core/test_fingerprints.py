"""One document's fingerprints and their stability (ALGORITHMS.md §2-5)."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

from sverka.core import fingerprints as fp
from sverka.core.hashing import hash_text
from sverka.core.settings import Settings
from sverka.core.text import Tokens


def simple_tokens(text: str) -> Tokens:
    """Tokens by a plain split (lower-cased words, sentences on . ! ?): no morphology."""
    starts, ends, lemmas, ids, spans = [], [], [], [], []
    for sentence in re.finditer(r"[^.!?]+[.!?]*", text):
        words = list(re.finditer(r"\w+", sentence.group()))
        if not words:
            continue
        spans.append((sentence.start(), sentence.end()))
        for m in words:
            starts.append(sentence.start() + m.start())
            ends.append(sentence.start() + m.end())
            lemmas.append(m.group().lower())
            ids.append(len(spans) - 1)
    hashes = np.array([hash_text(w) for w in lemmas], dtype=np.uint64)
    return Tokens(
        text=text,
        starts=np.array(starts, dtype=np.int64),
        ends=np.array(ends, dtype=np.int64),
        lemmas=tuple(lemmas),
        hashes=hashes,
        word_hashes=hashes.copy(),
        sentence_ids=np.array(ids, dtype=np.int32),
        sentence_spans=np.array(spans, dtype=np.int64).reshape(-1, 2),
        word_count=len(lemmas),
        language="ru",
    )


TEXT = (
    "Старый рыбак каждое утро выходил в море на лодке. Его жена ждала мужа на берегу и чинила сети. "
    "Однажды рыбак поймал золотую рыбку. Рыбка попросила отпустить её домой, обещая любой выкуп. "
    "Старик отпустил рыбку и вернулся к жене. "
) * 3


def test_document_fingerprints_shapes_and_dtypes():
    tokens = simple_tokens(TEXT)
    settings = Settings()
    doc = fp.fingerprint_document(tokens, settings)
    w, k = settings.shingle_words, fp.WINNOW_WINDOW
    assert (doc.shingle_words, doc.winnow_window) == (w, k)
    assert doc.token_count == len(tokens)
    assert doc.shingle_count == len(tokens) - w + 1
    assert doc.distinct_shingles == len(np.unique(fp.shingle_hashes(tokens.hashes, w)))
    for name, dtype in [
        ("shingle_hashes", np.uint64),
        ("shingle_positions", np.int64),
        ("sentence_seq1", np.uint64),
        ("sentence_index", np.int64),
        ("sentence_seq2", np.uint64),
        ("long_words", np.uint64),
        ("minhash", np.uint64),
        ("super_shingles", np.uint64),
        ("mega_shingles", np.uint64),
    ]:
        array = getattr(doc, name)
        assert array.dtype == dtype, name
        assert not array.flags.writeable, name
    assert len(doc.shingle_hashes) == len(doc.shingle_positions) > 0
    assert doc.minhash.shape == (fp.MINHASH_FUNCTIONS,)
    assert doc.super_shingles.shape == (6,) and doc.mega_shingles.shape == (15,)
    assert len(doc.sentence_seq1) == len(doc.sentence_seq2) == len(doc.sentence_index) == 15
    assert len(doc.long_words) == 15
    assert doc.text_hash == fp.full_text_hash(TEXT)
    # every winnowed hash is the shingle at its position, and maps back to the text
    for h, p in zip(doc.shingle_hashes.tolist(), doc.shingle_positions.tolist()):
        assert h == fp.shingle_hashes(tokens.hashes[p : p + w], w)[0]
        passage = TEXT[tokens.starts[p] : tokens.ends[p + w - 1]]
        assert passage.split()[0].lower().strip(".,") == tokens.lemmas[p]
    # the repeated text repeats its fingerprints; a copy of the text is a near-duplicate of it
    copy = fp.fingerprint_document(simple_tokens(TEXT.upper()), settings)
    assert np.array_equal(copy.minhash, doc.minhash)
    assert fp.near_duplicate(doc.super_shingles, copy.super_shingles)


@pytest.mark.parametrize("text", ["", "   ", "Раз два.", "Раз, два, три!"])
def test_document_too_short_for_shingles(text):
    doc = fp.fingerprint_document(simple_tokens(text), Settings())
    assert doc.shingle_count == 0 and len(doc.shingle_hashes) == 0 and doc.shingle_hashes.dtype == np.uint64
    assert np.all(doc.minhash == fp.EMPTY)
    assert doc.super_shingles.shape == (0,) and doc.mega_shingles.shape == (0,)


def test_settings_are_used():
    tokens = simple_tokens(TEXT)
    doc = fp.fingerprint_document(tokens, Settings(shingle_words=3))
    assert doc.shingle_count == len(tokens) - 2
    assert doc.distinct_shingles == len(np.unique(fp.shingle_hashes(tokens.hashes, 3)))


def test_containment_of_a_copied_fragment():
    other = " ".join(f"Предложение номер {i} о совсем другом предмете." for i in range(30))
    source = simple_tokens(other + TEXT)
    fragment = simple_tokens("Совсем другое начало текста. " + TEXT[100:300] + " И другой конец.")
    a = fp.fingerprint_document(fragment, Settings())
    b = fp.fingerprint_document(source, Settings())
    assert 0.4 < fp.containment(a.shingle_hashes, b.shingle_hashes) < 1.0
    assert fp.containment(b.shingle_hashes, a.shingle_hashes) < 0.2


STABILITY_SCRIPT = r"""
import numpy as np
from sverka.core import fingerprints as fp
from sverka.core.hashing import hash_text
t = np.array([hash_text(w) for w in "a rose is a rose is a rose".split()], dtype=np.uint64)
s = fp.shingle_hashes(t, 4)
sig = fp.minhash_signature(s)
sup = fp.super_shingles(sig)
print(" ".join(str(int(x)) for x in np.concatenate([s, sig, sup, fp.mega_shingles(sup), fp.longest_words(["розы", "роза"])])))
"""


def test_hashes_are_the_same_in_another_process():
    out = subprocess.run(
        [sys.executable, "-c", STABILITY_SCRIPT],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "12345"},
    ).stdout.split()
    namespace: dict = {}
    here = STABILITY_SCRIPT.replace("print(", "result = (")
    exec(compile(here, "<stability>", "exec"), namespace)
    assert out == namespace["result"].split()
    t = np.array([hash_text(w) for w in "a rose is a rose is a rose".split()], dtype=np.uint64)
    sig = fp.minhash_signature(fp.shingle_hashes(t, 4))
    # pinned values: the documented formulas, on any machine
    assert int(sig[0]) == 0x688FF1EA6D1EEBDD
    sup = fp.super_shingles(sig)
    assert int(sup[0]) == 0x514E5202FF9DBAF7
    assert int(fp.mega_shingles(sup)[0]) == 0x08EE56A96513490A
