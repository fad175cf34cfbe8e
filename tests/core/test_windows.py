"""A long source read in windows (sverka.core.windows) gives the judgments of the whole source.

* The tokens blob's windows section: written for long documents, read back part by part as
  the whole blob gives it; a blob of an older collection (no section) is read whole.
* Differential: suspects cut from long ruslit texts (several fragments of two novels with text
  of another between them, words dropped, inserted, swapped, replaced by synonyms) are
  checked against a collection of those texts in windows and whole
  (``check_document(..., whole_sources=True)``): the same sources, passages, spans and scores.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

from sverka.core import api, candidates, check, windows
from sverka.core.check import check_document
from sverka.core.document import document_from_text
from sverka.core.results import Passage
from sverka.core.settings import Settings
from sverka.core.sourcecache import SourceCache
from sverka.core.store import codecs
from sverka.core.text import canonize

RUSLIT = Path(__file__).resolve().parents[3] / "shared" / "data" / "ruslit"
HANDMADE = Path(__file__).resolve().parents[2] / "bench" / "data" / "synonyms_ru_handmade.tsv"
WORD = re.compile(r"\w+")


def _novel(words: int = 9000, seed: int = 1) -> str:
    rng = random.Random(seed)
    vocab = ["лес", "река", "дом", "окно", "старик", "девочка", "дорога", "ветер", "свет", "огонь", "шёл",
             "смотрел", "говорил", "тихо", "долго", "снова", "город", "поле", "небо", "вода", "письмо"]
    out, sentence = [], []
    for k in range(words):
        sentence.append(rng.choice(vocab))
        if len(sentence) >= rng.randint(5, 14):
            out.append(" ".join(sentence).capitalize() + rng.choice([".", "!", "?", "…"]))
            sentence = []
        if k % 400 == 399:
            out.append("\n")
    return " ".join(out) + "."


def _read(read_bytes: bytes):
    def read(offset: int, length: int) -> bytes:
        assert 0 <= offset and offset + length <= len(read_bytes)
        return read_bytes[offset:offset + length]
    return read


def test_blob_windows_read_as_the_whole_blob_gives_them():
    text = _novel()
    t = canonize(text)
    from sverka.core.align import sort_orders

    whole = windows.whole_stats(t)
    assert whole is not None
    blob = codecs.encode_tokens(t, sort_orders(t.hashes), whole)
    back, orders = codecs.decode_stored(blob, text)
    assert orders is not None  # the section after the orders does not hide them
    layout = codecs.tokens_layout(_read(blob), len(blob))
    assert layout is not None and (layout.n, layout.m) == (len(t), len(t.sentence_spans))
    got = codecs.read_whole(_read(blob), layout)
    for name in ("sentence_tokens", "sentence_bytes", "lemmas", "lemma_sentences", "common_pairs", "common_sentences"):
        assert np.array_equal(getattr(got, name), getattr(whole, name)), name
    raw = codecs.encode_text(text)[len(codecs.TEXT_MARK):]
    assert codecs.decode_text(codecs.encode_text(text)) == text
    assert codecs.decode_text(text.encode("utf-8")) == text  # a text stored before (UTF-8)
    spans = np.asarray(t.sentence_spans)
    for s0, s1 in [(0, 3), (5, 40), (len(spans) - 7, len(spans))]:
        t0, t1 = int(got.sentence_tokens[s0]), int(got.sentence_tokens[s1])
        part = codecs.window_arrays(layout, codecs.read_parts(_read(blob), codecs.window_parts(layout, t0, t1, s0, s1)))
        for name in ("starts", "ends", "hashes", "word_hashes", "sentence_ids"):
            assert np.array_equal(part[name], np.asarray(getattr(back, name))[t0:t1]), name
        assert np.array_equal(part["spans"], spans[s0:s1])
        # the bytes of whole sentences decode to the same characters
        c0 = int(spans[s0][0]) if s0 else 0
        c1 = int(spans[s1][0]) if s1 < len(spans) else len(text)
        b0 = int(got.sentence_bytes[s0]) if s0 else 0
        assert raw[b0:int(got.sentence_bytes[s1])].decode(layout.text_codec) == text[c0:c1]


def test_blobs_without_the_section_are_read_whole():
    text = _novel(2000)
    t = canonize(text)
    from sverka.core.align import sort_orders

    for blob in (codecs.encode_tokens(t), codecs.encode_tokens(t, sort_orders(t.hashes))):
        assert codecs.tokens_layout(_read(blob), len(blob)) is None
    # a damaged section: the orders are not trusted, the blob still reads
    blob = codecs.encode_tokens(t, sort_orders(t.hashes), windows.whole_stats(t))[:-3]
    back, orders = codecs.decode_stored(blob, text)
    assert orders is None and np.array_equal(back.hashes, t.hashes)
    assert codecs.tokens_layout(_read(blob), len(blob)) is None


def test_windows_cover_the_keys_with_margins_and_merge():
    text = _novel()
    t = canonize(text)
    whole = windows.whole_stats(t)
    s = Settings()
    n = len(t)
    ranges = windows.sentence_windows(np.array([100, 120, 5000], np.int64), whole, n, s)
    first = whole.sentence_tokens
    assert len(ranges) == 2
    margin = windows.margin_tokens(s)
    for (a, b), hit in zip(ranges, (100, 5000)):
        assert first[a] <= hit - margin and first[b] >= hit + margin
    # near keys make one window
    assert len(windows.sentence_windows(np.array([100, 260], np.int64), whole, n, s)) == 1


def test_passages_go_back_to_the_whole_text():
    w = windows.Window(tokens=None, side=None, stats=None, at=np.array([0, 50, 120]),
                       chars=np.array([1000, 5000, 9000]), share=0.1)
    p = Passage(3, 30, 55, 120, 5, "exact", pieces=((3, 10, 55, 70), (12, 30, 80, 120)))
    q = windows.to_whole([p], w)[0]
    assert (q.source_start, q.source_end) == (5005, 5070)  # an end at a window's last character stays in it
    assert q.pieces == ((3, 10, 5005, 5020), (12, 30, 5030, 5070))
    assert (q.suspect_start, q.suspect_end, q.words) == (3, 30, 5)


# ---- differential, on real long texts


def _long_texts() -> list[Path]:
    if not RUSLIT.is_dir():
        pytest.skip("../shared/data/ruslit is absent")
    files = sorted(RUSLIT.rglob("*.txt"), key=lambda p: (-p.stat().st_size, str(p)))
    return [p for p in files if 300_000 <= p.stat().st_size <= 1_100_000][:3]


def _synonyms() -> dict[str, str]:
    out = {}
    if HANDMADE.exists():
        for line in HANDMADE.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#") and "\t" in line:
                a, b = line.split("\t")[:2]
                out[a.strip()] = b.strip()
    return out


def _edit(text: str, rng: random.Random, synonyms: dict[str, str]) -> str:
    words = list(WORD.finditer(text))
    pool = [m.group() for m in words]
    out, pos = [], 0
    for k, m in enumerate(words):
        out.append(text[pos:m.start()])
        pos = m.end()
        w, r = m.group(), rng.random()
        if r < 0.04:
            continue
        if r < 0.08:
            w = w + " " + rng.choice(pool)
        elif r < 0.10 and k + 1 < len(words):
            w = words[k + 1].group() + " " + w
        elif w.lower() in synonyms and rng.random() < 0.7:
            w = synonyms[w.lower()]
        out.append(w)
    out.append(text[pos:])
    return "".join(out)


@pytest.fixture(scope="module")
def long_collection(tmp_path_factory):
    files = _long_texts()
    if len(files) < 3:
        pytest.skip("ruslit has too few long texts")
    root = tmp_path_factory.mktemp("long")
    coll = api.Collection(root / "long.sverka")
    coll.add([str(p) for p in files[:2]])
    yield coll, [p.read_text(encoding="utf-8") for p in files[:2]], files[2].read_text(encoding="utf-8")
    coll.close()


def _key(result):
    return [(s.path, s.text, s.excerpts, s.passages, s.resemblance, s.sentence_score) for s in result.sources]


def _same_or_better(got, want) -> bool:
    """The one difference windows make on purpose (docs/BENCHMARKS.md, "Long sources"): a run
    of one seed inside a copied passage that the whole source loses, because the alignment
    looks for its neighbour among the next eight runs in suspect order and, in a whole novel,
    chance runs elsewhere crowd them. Such a passage keeps its spans, method and kind and
    gains the piece (inside its spans on both sides): more of it is matched."""
    if [s.path for s in got.sources] != [s.path for s in want.sources]:
        return False
    for s, t in zip(got.sources, want.sources):
        if (s.text, s.excerpts, s.resemblance, s.sentence_score) != (t.text, t.excerpts, t.resemblance, t.sentence_score) or \
                len(s.passages) != len(t.passages):
            return False
        for p, q in zip(s.passages, t.passages):
            if p == q:
                continue
            if (p.suspect_start, p.suspect_end, p.source_start, p.source_end, p.method) != \
                    (q.suspect_start, q.suspect_end, q.source_start, q.source_end, q.method):
                return False
            extra = set(p.pieces) - set(q.pieces)
            if not set(q.pieces) <= set(p.pieces) or p.matched_words < q.matched_words or not all(
                    p.suspect_start <= x0 < x1 <= p.suspect_end and p.source_start <= y0 < y1 <= p.source_end
                    for x0, x1, y0, y1 in extra):
                return False
    return True


def test_windowed_checks_judge_as_whole_ones(long_collection, monkeypatch):
    coll, texts, other = long_collection
    used = []
    read = check.read_windows

    def spy(*args, **kwargs):
        w = read(*args, **kwargs)
        used.append(w is not None)
        return w

    monkeypatch.setattr(check, "read_windows", spy)
    rng = random.Random(37)
    synonyms = _synonyms()
    differ, same = [], 0
    for k in range(24):
        parts = []
        for _ in range(rng.randint(1, 3)):
            t = rng.choice(texts)
            a = rng.randrange(0, len(t) - 6000)
            size = rng.randint(400, 5000)
            piece = t[a:a + size]
            parts.append(_edit(piece, rng, synonyms) if rng.random() < 0.6 else piece)
            b = rng.randrange(0, len(other) - 3000)
            parts.append(other[b:b + rng.randint(0, 2500)])
        doc = document_from_text("\n\n".join(parts), title=f"suspect {k}")
        got = check_document(coll.index, doc, coll.settings)
        want = check_document(coll.index, doc, coll.settings, whole_sources=True)
        if _key(got) == _key(want):
            same += 1
        elif not _same_or_better(got, want):
            differ.append(k)
    assert any(used), "no source was read in windows"
    assert not differ, f"suspects {differ} were judged differently in windows"
    assert same >= 16, f"only {same} of 24 suspects were judged exactly alike"


def test_a_long_source_met_again_is_kept_whole_with_the_same_result(long_collection):
    coll, texts, other = long_collection
    doc = document_from_text(texts[0][20_000:26_000] + "\n\n" + other[:1500], title="twice")
    want = check_document(coll.index, doc, coll.settings, whole_sources=True)
    kept = SourceCache()
    first = check_document(coll.index, doc, coll.settings, cache=kept)  # in windows, remembered
    assert len(kept) == 0 and first.sources
    second = check_document(coll.index, doc, coll.settings, cache=kept)  # met again: read whole, kept
    assert len(kept) >= 1
    third = check_document(coll.index, doc, coll.settings, cache=kept)  # aligned prepared
    assert _key(first) == _key(second) == _key(third) == _key(want)


def test_worth_keeping_the_second_time_and_only_what_fits_beside_the_rest():
    kept = SourceCache(1_000_000)
    assert not kept.worth_keeping(1, "a", 1000, 100)
    assert kept.worth_keeping(1, "a", 1000, 100)
    assert not kept.worth_keeping(1, "b", 1000, 100)  # another text under the same id
    assert not kept.worth_keeping(2, "c", 1_000_000, 10) and not kept.worth_keeping(2, "c", 1_000_000, 10)
    nothing = SourceCache(0)
    assert not nothing.worth_keeping(3, "d", 10, 10) and not nothing.worth_keeping(3, "d", 10, 10)


def test_windows_read_in_one_call_a_blob_are_the_windows_read_part_by_part():
    """A check asks a blob for every part of its windows at once (``codecs.read_parts``: one
    query on a PostgreSQL server); the windows are those read part by part."""
    text = _novel(20_000, seed=5)
    t = canonize(text)
    from sverka.core.align import sort_orders

    blob = codecs.encode_tokens(t, sort_orders(t.hashes), windows.whole_stats(t))
    raw = codecs.encode_text(text)
    calls = {"one": 0, "many": 0}

    def reader(data: bytes, batched: bool):
        read = _read(data)

        def one(offset: int, length: int) -> bytes:
            calls["one"] += 1
            return read(offset, length)

        def many(parts):
            calls["many"] += 1
            return [read(o, n) for o, n in parts]

        if batched:
            one.many = many
        return one

    settings = Settings()
    rng = np.random.default_rng(3)
    seen = 0
    for trial in range(6):
        hits = np.sort(rng.choice(len(t), size=int(rng.integers(2, 40)), replace=False)).astype(np.int64)
        plain = windows.read_windows(reader(blob, False), len(blob), reader(raw, False), hits, settings)
        calls.update(one=0, many=0)
        batched = windows.read_windows(reader(blob, True), len(blob), reader(raw, True), hits, settings)
        if plain is None:
            assert batched is None
            continue
        seen += len(plain.at) > 1
        assert calls["many"] == 2  # the tokens blob once, the text once (the layout and the section by parts)
        assert batched.tokens.text == plain.tokens.text
        for name in ("starts", "ends", "hashes", "word_hashes", "sentence_ids", "sentence_spans"):
            assert np.array_equal(getattr(batched.tokens, name), getattr(plain.tokens, name)), (trial, name)
        assert np.array_equal(batched.at, plain.at) and np.array_equal(batched.chars, plain.chars)
        assert np.array_equal(batched.side.pairs, plain.side.pairs) and batched.share == plain.share
    assert seen, "no draw had more than one window"


def test_what_windows_need_of_the_whole_source_is_read_once_and_kept(long_collection, monkeypatch):
    coll, texts, other = long_collection
    doc = document_from_text(texts[0][40_000:46_000] + "\n\n" + other[:1500], title="whole once")
    reads = []
    read_known = windows.read_known

    def spy(*args):
        reads.append(1)
        return read_known(*args)

    monkeypatch.setattr(windows, "read_known", spy)
    monkeypatch.setattr(SourceCache, "worth_keeping", lambda *a: False)  # always in windows
    kept = SourceCache()
    results = [check_document(coll.index, doc, coll.settings, cache=kept)]
    candidates = len(reads)  # the long sources the first check read in windows
    results += [check_document(coll.index, doc, coll.settings, cache=kept) for _ in range(2)]
    assert results[0].sources and _key(results[0]) == _key(results[1]) == _key(results[2])
    assert candidates >= 1 and len(reads) == candidates  # once a source, not once a check
    # nothing kept where the cache keeps nothing (a check without one), or past its limit
    reads.clear()
    for _ in range(2):
        check_document(coll.index, doc, coll.settings, cache=SourceCache(0))
    assert len(reads) == 2 * candidates
    small = SourceCache(1)
    assert small.whole_of(1, "a", lambda: "x", lambda v: 10) == "x"
    assert small.whole_of(1, "a", lambda: "y", lambda v: 10) == "y"  # too large to keep: read again
    some = SourceCache(4000)  # 2000 bytes for the whole sections
    assert some.whole_of(1, "a", lambda: "x", lambda v: 400) == "x"
    assert some.whole_of(1, "a", lambda: "y", lambda v: 400) == "x"
    assert some.whole_of(1, "b", lambda: "z", lambda v: 400) == "z"  # another text under the id
    for k in range(2, 8):
        some.whole_of(k, "a", lambda: k, lambda v: 400)
    assert some.whole_of(1, "a", lambda: "again", lambda v: 400) == "again"  # the least recently used went


def _assert_excerpts_of(src, whole: str) -> None:
    """``src`` carries excerpts of ``whole`` (not the text), each at its place, holding every
    passage and piece with the context the quotation rule reads."""
    assert src.text == "" and src.excerpts is not None and src.excerpts.length == len(whole)
    for at, part in src.excerpts.parts:
        assert part and whole[at:at + len(part)] == part
    assert sum(len(part) for _, part in src.excerpts.parts) < len(whole) / 4
    for p in src.passages:
        for b0, b1 in ((p.source_start, p.source_end), *p.source_spans()):
            assert src.source_text[b0:b1] == whole[b0:b1]
            lo, hi = max(0, b0 - windows.EXCERPT_CONTEXT), min(len(whole), b1 + windows.EXCERPT_CONTEXT)
            assert src.excerpts.covers(lo, hi)


def test_a_long_source_comes_with_excerpts_around_its_passages_not_its_whole_text(long_collection, tmp_path):
    from sverka.core.report import render_html
    from sverka.core.store.history import History

    coll, texts, other = long_collection
    copied = texts[0][40_000:44_000]
    doc = document_from_text(other[:1500] + "\n\n" + copied + "\n\n" + other[5000:6000], title="essay")
    result = coll.check(doc)
    src = next(s for s in result.sources if s.title and texts[0].startswith(coll.index.text(s.source_id)[:200]))
    _assert_excerpts_of(src, texts[0])
    assert any(src.source_text[p.source_start:p.source_end] in copied for p in src.passages)
    # the report shows the passage and the source text around it
    from markupsafe import escape

    html = render_html(result)
    p = src.passages[0]
    assert str(escape(src.source_text[p.source_start:p.source_end][:60])) in html
    assert str(escape(src.source_text[p.source_start - 100:p.source_start])) in html  # its context before
    # a class's cross-check measures the share of the source its passages hold from the excerpts
    from sverka.core import crosscheck
    from sverka.core.intervals import merge
    from sverka.core.text import word_starts, words_in

    starts = word_starts(texts[0])
    spans = merge(iv for p in src.passages for iv in p.source_spans())
    assert src.excerpts.words == len(starts)
    assert crosscheck._source_share(src, spans) == words_in(starts, spans) / len(starts) > 0
    # kept and reopened: the same excerpts, no text needed from the collection
    with History(tmp_path / "h.history") as h:
        h.save(result)
        back = h.last(result.suspect.sha256, result.suspect.path).result
    assert back.sources == result.sources


def test_excerpts_read_from_a_text_with_characters_beyond_the_basic_plane(long_collection, tmp_path, monkeypatch):
    """A text holding characters beyond U+FFFF takes more than two bytes a character: the
    sentences' starts are read, not computed, and the excerpts are still the text's."""
    _, texts, _ = long_collection
    read = []
    starts = windows.read_sentence_starts
    monkeypatch.setattr(windows, "read_sentence_starts", lambda *a: read.append(1) or starts(*a))
    text = "".join(texts[1][k:k + 5000] + "\U0001F600" for k in range(0, len(texts[1]), 5000))
    (tmp_path / "wide.txt").write_text(text, encoding="utf-8")
    coll = api.Collection(tmp_path / "wide.sverka")
    try:
        coll.add([str(tmp_path / "wide.txt")])
        start = text.index("\U0001F600", 90_000) + 1
        doc = document_from_text(text[start:start + 5000], title="from far in")
        got = check_document(coll.index, doc, coll.settings)
        want = check_document(coll.index, doc, coll.settings, whole_sources=True)  # cut from the whole text
        assert got.sources and _key(got) == _key(want) and read
        _assert_excerpts_of(got.sources[0], text)
    finally:
        coll.close()


def test_window_sentence_ids_are_the_stored_ones_without_reading_them(long_collection):
    """A window's tokens' sentences come from the first token of each sentence (the blob's
    WholeStats), not from a read of the stored ids: the same ids, token for token."""
    coll, _, _ = long_collection
    doc_id = coll.index.find_by_sha256(coll.index.infos([1])[1].sha256)
    stored = coll.index.load(doc_id, coll.index.infos([doc_id])[doc_id])
    with coll.index.blob_readers(doc_id) as (read_tokens, size, _):
        layout = codecs.tokens_layout(read_tokens, size)
        first = codecs.read_whole(read_tokens, layout).sentence_tokens
    ids = np.asarray(stored.tokens.sentence_ids, np.int64)
    assert np.array_equal(windows._sentence_ids(first, 0, len(ids)), ids)
    assert np.array_equal(windows._sentence_ids(first, 1000, 5000), ids[1000:5000])
    common = np.array([3, 9, 200], np.uint64)
    values = np.array([9, 1, 200, 201, 3, 0], np.uint64)
    assert windows._member(values, common).tolist() == np.isin(values, common).tolist()
    assert not windows._member(values, common[:0]).any()


def _places(keys, sentence_of=None):
    """kept_hits of pair keys ``[(suspect position, source position)]``; ``sentence_of``: the
    suspect's sentences as (first token, one past the last) per token, else one long sentence."""
    i = np.array([k[0] for k in keys], np.int64)
    j = np.array([k[1] for k in keys], np.int64)
    n = 200
    bounds = sentence_of if sentence_of is not None else (np.zeros(n, np.int64), np.full(n, n, np.int64))
    got = windows.kept_hits(i, j, np.zeros(len(i), np.int64), Settings(), bounds)
    return sorted(got.tolist())


def test_only_places_that_can_be_passages_are_read():
    # two keys a few words apart in both texts: 4 tokens inside a long sentence, no passage
    assert _places([(10, 1000), (13, 1003)]) == []
    # the same two with the keys between them: a run of 5 tokens
    assert _places([(10, 1000), (11, 1001), (12, 1002), (13, 1003)]) == [1000, 1001, 1002, 1003]
    # three keys in a row: a shingle of 4 tokens both texts hold (the resemblance counts it)
    assert _places([(40, 7000), (41, 7001), (42, 7002)]) == [7000, 7001, 7002]
    # linked one to the next, the first and the last too far apart to be linked directly
    assert _places([(60, 9000), (66, 9040), (72, 9080)]) == [9000, 9040, 9080]
    # a place of 4 tokens kept when it is half of its suspect sentence (tokens 20-27) or more
    starts, ends = np.zeros(200, np.int64), np.full(200, 200, np.int64)
    starts[20:28], ends[20:28] = 20, 28
    assert _places([(20, 5000), (22, 5002)], (starts, ends)) == [5000, 5002]
    starts[20:40], ends[20:40] = 20, 40
    assert _places([(20, 5000), (22, 5002)], (starts, ends)) == []
    # a shared sentence is kept alone; a key repeated at one place in the source is no place
    i, j = np.array([5, 90], np.int64), np.array([300, 800], np.int64)
    got = windows.kept_hits(i, j, np.array([0, 9], np.int64), Settings())
    assert got.tolist() == [800]
    assert _places([(10, 1000), (10, 1003), (13, 1003)]) == []


def _oracle_places(i, j, settings, bounds=None):
    """What ``seed_places`` computes, in numpy (the code it replaced): the places' keys by
    linking, grouping and counting them one array at a time."""
    w = max(1, settings.align_seed_words)
    near_a = windows.NEAR_FACTOR * (settings.max_gap_words + 2 * w)
    near_b = windows.NEAR_FACTOR * (settings.max_gap_words * windows.SOURCE_WINDOW + 2 * w)
    if not len(i):
        return np.zeros(0, np.int64)
    order = np.lexsort((j, i))
    i, j = i[order], j[order]
    once = np.concatenate(([True], (i[1:] != i[:-1]) | (j[1:] != j[:-1])))
    i, j = i[once], j[once]
    first, second = [], []
    for shift in range(1, 17):
        if shift >= len(i):
            break
        ok = (i[shift:] - i[:-shift] <= near_a) & (np.abs(j[shift:] - j[:-shift]) <= near_b) & (j[shift:] != j[:-shift])
        at = np.flatnonzero(ok)
        first.append(at)
        second.append(at + shift)
    if not first or not sum(len(x) for x in first):
        return np.zeros(0, np.int64)
    a, b = np.concatenate(first), np.concatenate(second)
    group = np.arange(len(i))
    while True:  # links hooked onto their least group, paths halved, until none joins two
        ga, gb = group[a], group[b]
        lo, hi = np.minimum(ga, gb), np.maximum(ga, gb)
        if not (lo != hi).any():
            break
        np.minimum.at(group, hi[lo != hi], lo[lo != hi])
        while not np.array_equal(group[group], group):
            group = group[group]
    linked = np.unique(np.concatenate([a, b]))
    place = group[linked]
    by = np.lexsort((i[linked], place))
    place, pos, src = place[by], i[linked][by], j[linked][by]
    same = np.concatenate(([False], place[1:] == place[:-1]))
    step = np.where(same, np.minimum(np.diff(pos, prepend=0), w), 0)
    new = np.flatnonzero(~same)
    number = np.cumsum(~same) - 1
    covered = np.add.reduceat(step, new) + w
    counts = covered >= candidates.MIN_TOKENS
    d = src - pos  # runs of keys one token apart in both texts
    o = np.lexsort((pos, d))
    step_on = np.concatenate(([False], (d[o][1:] == d[o][:-1]) & (pos[o][1:] == pos[o][:-1] + 1)))
    starts_of = np.flatnonzero(~step_on)
    size = np.diff(np.append(starts_of, len(o)))
    counts[np.unique(number[o[np.repeat(size, size) >= max(1, settings.shingle_words - 1)]])] = True
    small = ~counts & (covered >= 3)
    if small.any():
        lo = pos[new][small]
        hi = pos[np.append(new[1:], len(pos)) - 1][small] + w
        if bounds is None:
            counts[small] = True
        else:
            starts, ends = bounds
            top = len(starts) - 1
            f, tail = np.minimum(lo, top), np.minimum(hi - 1, top)
            counts[small] = ((starts[f] >= lo) & (ends[tail] <= hi)) | \
                ((starts[f] == starts[tail]) & (covered[small] >= candidates.PARAPHRASE_SHARE * (ends[f] - starts[f])))
    return np.sort(src[counts[number]])


def test_the_engine_keeps_the_places_numpy_keeps():
    from hypothesis import given, settings as hsettings, strategies as st

    settings = Settings()

    @hsettings(max_examples=300, deadline=None, derandomize=True)
    @given(st.lists(st.tuples(st.integers(0, 120), st.integers(0, 600)), max_size=60),
           st.lists(st.integers(1, 12), min_size=1, max_size=20), st.booleans())
    def same(keys, sentence_sizes, with_bounds):
        i = np.array([k[0] for k in keys], np.int64)
        j = np.array([k[1] for k in keys], np.int64)
        # diagonal runs and near pairs are rare in random keys: add a few
        if len(keys) > 3:
            i = np.concatenate([i, i[:3] + 1, i[:2] + 2])
            j = np.concatenate([j, j[:3] + 1, j[:2] + 2])
        bounds = None
        if with_bounds:
            sizes = np.repeat(np.array(sentence_sizes), 1)
            ends = np.cumsum(sizes)
            while ends[-1] < 130:
                ends = np.append(ends, ends[-1] + 7)
            first = np.concatenate(([0], ends[:-1]))
            which = np.searchsorted(ends, np.arange(130), "right")
            bounds = (first[which].astype(np.int64), ends[which].astype(np.int64))
        got = windows.kept_hits(i, j, np.zeros(len(i), np.int64), settings, bounds)
        assert got.tolist() == _oracle_places(i, j, settings, bounds).tolist()

    same()
