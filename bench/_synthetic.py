"""Synthetic essays for the million-document benchmark (bench/bench_million.py), without
canonizing gigabytes.

The ruslit prose files (all but the held-out ones) are canonized ONCE by the real canonizer
(:func:`sverka.core.text.canonize`); every sentence that stands on its own (one line, a capital
first, a full stop, question or exclamation mark last, at least three tokens) becomes an entry
of a sentence pool, with its tokens relative to the sentence. An essay is then assembled
from randomly drawn pool sentences joined by a space, and its tokens from theirs, shifted:
text and tokens agree, so a check canonizing the essay finds exactly these tokens
(:func:`verify` canonizes a sample of essays again and compares every field).

A pool of ~100 000 sentences drawn for a million essays would put every sentence in hundreds
of essays, and every pair of words of the pool into every posting list: no archive looks like
that. So each inner token of a drawn sentence (never the first or the last one, which the
sentence splitter looks at) is replaced, with probability ``novel``, by a token drawn from
every lower-case token of the pool (so by its frequency in the prose): its word in the text,
its canonical hash, word hash and lemma in the tokens. Canonization is a per-word table
lookup, so the replaced tokens are what the canonizer gives for the new text (checked by
:func:`verify`). The replacements give an essay its own word pairs and sentence hashes, as
real essays have, while common word pairs stay common.

Essay ``n`` is a pure function of ``(seed, n)``: a build can stop and go on, and the
benchmark can rebuild any essay to plant its passages in a suspect.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

_CLEAN_START = re.compile(r"^[«\"„“(—–-]?\s*[A-ZА-ЯЁ]")
_CLEAN_END = re.compile(r"[.!?…][»\"”’)]*$")


@dataclass
class Pool:
    """Pool sentences, their tokens flattened (offsets relative to the sentence)."""

    texts: list[str]
    first: np.ndarray  # int64 (s,): first token of each sentence in the flat arrays
    count: np.ndarray  # int64 (s,): tokens of each sentence
    words: np.ndarray  # int64 (s,): words of each sentence, stop words included
    starts: np.ndarray  # int64 (t,)
    ends: np.ndarray
    hashes: np.ndarray  # uint64 (t,)
    word_hashes: np.ndarray  # uint64 (t,)
    lemmas: list[str]
    sentence_of: np.ndarray  # int64 (t,): pool sentence of each token
    replacements: np.ndarray  # int64: tokens that may replace another (lower-case words)
    chars: int  # characters of the prose canonized
    language: str

    @property
    def size(self) -> int:
        return len(self.texts)


def build_pool(texts: list[str], drop_adjectives: bool = False) -> Pool:
    """Canonize each text once and keep its self-standing sentences (module docstring)."""
    from sverka.core.text import canonize

    sent_texts: list[str] = []
    first, count, words = [], [], []
    starts, ends, hashes, whs, lemmas, languages = [], [], [], [], [], []
    total = 0
    chars = 0
    for text in texts:
        chars += len(text)
        tok = canonize(text, drop_adjectives=drop_adjectives)
        languages.append(tok.language)
        sid = np.asarray(tok.sentence_ids)
        spans = np.asarray(tok.sentence_spans)
        if not len(sid):
            continue
        bounds = np.flatnonzero(np.r_[True, sid[1:] != sid[:-1], True])
        ws = np.asarray(tok.word_starts)
        word_sent = np.searchsorted(spans[:, 0], ws, side="right") - 1
        words_per = np.bincount(word_sent, minlength=len(spans))
        for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
            j = int(sid[a])
            s, e = int(spans[j, 0]), int(spans[j, 1])
            st = text[s:e]
            if b - a < 3 or any(c in st for c in "\n\r\u2029\u2028\x0b\x0c\x85") \
                    or not _CLEAN_START.match(st) or not _CLEAN_END.search(st):
                continue
            if len(canonize(st + " Да.").sentence_spans) != 2:  # ends at an abbreviation: not a cut
                continue
            sent_texts.append(st)
            first.append(total)
            count.append(b - a)
            words.append(int(words_per[j]))
            starts.append(np.asarray(tok.starts[a:b]) - s)
            ends.append(np.asarray(tok.ends[a:b]) - s)
            hashes.append(np.asarray(tok.hashes[a:b]))
            whs.append(np.asarray(tok.word_hashes[a:b]))
            lemmas.extend(tok.lemmas[a:b])
            total += b - a
    starts_a = np.concatenate(starts).astype(np.int64)
    ends_a = np.concatenate(ends).astype(np.int64)
    count_a = np.asarray(count, np.int64)
    sentence_of = np.repeat(np.arange(len(sent_texts)), count_a)
    lower = np.fromiter((sent_texts[k][s0:s0 + 1].islower() and sent_texts[k][s0:e0].isalpha()
                         for k, s0, e0 in zip(sentence_of.tolist(), starts_a.tolist(), ends_a.tolist())),
                        dtype=bool, count=total)
    language = max(set(languages), key=languages.count) if languages else "unknown"
    return Pool(texts=sent_texts, first=np.asarray(first, np.int64), count=count_a,
                words=np.asarray(words, np.int64), starts=starts_a, ends=ends_a,
                hashes=np.concatenate(hashes).astype(np.uint64),
                word_hashes=np.concatenate(whs).astype(np.uint64), lemmas=lemmas,
                sentence_of=sentence_of, replacements=np.flatnonzero(lower), chars=chars,
                language=language)


class Essays:
    """Essay ``n`` as (text, Tokens), reproducibly (module docstring)."""

    def __init__(self, pool: Pool, *, chars: int = 3000, novel: float = 0.25, seed: int = 2026) -> None:
        self.pool, self.chars, self.novel, self.seed = pool, chars, novel, seed
        p = pool
        t = len(p.hashes)
        first_of = p.first[p.sentence_of]
        # every sentence is gap(token 0) word(token 0) gap(token 1) ... word(last) tail
        prev_end = np.where(np.arange(t) == first_of, 0, np.r_[0, p.ends[:-1]])
        self._gaps = [p.texts[k][a:b] for k, a, b in zip(p.sentence_of.tolist(), prev_end.tolist(), p.starts.tolist())]
        self._words = [p.texts[k][a:b] for k, a, b in zip(p.sentence_of.tolist(), p.starts.tolist(), p.ends.tolist())]
        last = p.first + p.count - 1
        self._tails = [p.texts[k][e:] for k, e in zip(range(p.size), p.ends[last].tolist())]
        self._gap_len = p.starts - prev_end
        self._word_len = p.ends - p.starts
        self._tail_len = np.array([len(x) for x in self._tails], np.int64)
        self._sent_len = np.array([len(x) for x in p.texts], np.int64)
        self._lemmas = np.array(p.lemmas, dtype=object)
        self._strings = self._gaps + self._words + self._tails + [" "]
        self._inner = np.ones(t, bool)
        self._inner[p.first] = False
        self._inner[last] = False
        # a word right before a full stop may be what keeps it from ending the sentence ("гг.")
        after = np.array([p.texts[k][e:e + 1] for k, e in zip(p.sentence_of.tolist(), p.ends.tolist())])
        self._inner &= ~np.isin(after, list(".!?…"))

    def essay(self, n: int):
        """(text, Tokens) of essay ``n``: pool sentences until a length drawn around ``chars``,
        inner tokens replaced with probability ``novel`` (module docstring)."""
        from sverka.core.text import Tokens

        p = self.pool
        rng = np.random.default_rng([self.seed, n])
        target = int(rng.integers(self.chars // 2, self.chars * 3 // 2 + 1))
        draw = rng.integers(p.size, size=max(4, 3 * target // 80))
        total = np.cumsum(self._sent_len[draw] + 1)
        while total[-1] < target:  # rare: short sentences drawn
            more = rng.integers(p.size, size=len(draw))
            draw = np.r_[draw, more]
            total = np.cumsum(self._sent_len[draw] + 1)
        ks = draw[:int(np.searchsorted(total, target)) + 1]
        cnt = p.count[ks]
        sid = np.repeat(np.arange(len(ks), dtype=np.int32), cnt)
        within = np.arange(len(sid)) - np.repeat(np.cumsum(cnt) - cnt, cnt)
        tok = p.first[ks][sid] + within  # pool token of every essay token
        src = tok.copy()  # pool token whose word stands there
        if self.novel > 0:
            swap = self._inner[tok] & (rng.random(len(tok)) < self.novel)
            src[swap] = p.replacements[rng.integers(len(p.replacements), size=int(swap.sum()))]
        # lengths of the pieces: per token gap + word; per sentence tail + one space
        gap_len, word_len = self._gap_len[tok], self._word_len[src]
        tail_len = self._tail_len[ks]
        piece = gap_len + word_len
        per_sent = np.bincount(sid, weights=piece, minlength=len(ks)).astype(np.int64)
        sent_len = per_sent + tail_len
        sent_start = np.r_[0, np.cumsum(sent_len + 1)[:-1]]
        ends = sent_start[sid] + np.cumsum(piece) - np.repeat(np.cumsum(per_sent) - per_sent, cnt)
        starts = ends - word_len
        # the text: gap, word of every token, the tail and a space after every sentence, as ids
        # into one list of strings (gaps, then words, then tails, then " ")
        t = len(self._word_len)
        ids = np.empty(2 * len(tok) + 2 * len(ks), np.int64)
        slot = 2 * np.arange(len(tok)) + 2 * sid
        ids[slot] = tok
        ids[slot + 1] = t + src
        tail_slot = 2 * np.cumsum(cnt) + 2 * np.arange(len(ks))
        ids[tail_slot] = 2 * t + ks
        ids[tail_slot + 1] = 2 * t + p.size
        text = "".join(map(self._strings.__getitem__, ids[:-1].tolist()))
        spans = np.stack([sent_start, sent_start + sent_len], 1).astype(np.int64)
        tokens = Tokens(text=text, starts=starts.astype(np.int64), ends=ends.astype(np.int64),
                        lemmas=tuple(self._lemmas[src].tolist()), hashes=p.hashes[src], word_hashes=p.word_hashes[src],
                        sentence_ids=sid, sentence_spans=spans, word_count=int(p.words[ks].sum()),
                        language=p.language)
        return text, tokens


def verify(essays: Essays, ns, drop_adjectives: bool = False) -> list[str]:
    """Canonize essays ``ns`` for real and list every field that differs from the assembled
    tokens (empty: text and tokens agree)."""
    from sverka.core.text import canonize

    problems = []
    for n in ns:
        text, tok = essays.essay(n)
        real = canonize(text, drop_adjectives=drop_adjectives)
        for name in ("starts", "ends", "hashes", "word_hashes", "sentence_ids", "sentence_spans"):
            a, b = np.asarray(getattr(tok, name)), np.asarray(getattr(real, name))
            if a.shape != b.shape or not np.array_equal(a, b):
                problems.append(f"essay {n}: {name} differs")
        if tok.lemmas != real.lemmas:
            problems.append(f"essay {n}: lemmas differ")
        if tok.word_count != real.word_count or tok.language != real.language:
            problems.append(f"essay {n}: word count {tok.word_count}/{real.word_count}, "
                            f"language {tok.language}/{real.language}")
    return problems


def prose_files(root: Path) -> list[Path]:
    return sorted((root / "prose").rglob("*.txt"))
