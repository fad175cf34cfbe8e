"""Canonization as the Python code before the engine assembled the tokens, word by word: the
oracle of tests/core/test_engine_canon.py.

Every word of the text is found by the canonizer's regular expression, analysed afresh
(``text._normalise`` and ``morph.analyze``: no table of seen forms, no file), its sentence
found by tests/core/split_oracle.py, and the tokens gathered by NumPy as ``canonize`` gathered
them from its own columns before the engine held them: what the engine's table, its index of
seen forms and its one-call assembly must give.
"""

from __future__ import annotations

import itertools

import numpy as np

import split_oracle
from sverka.core import morph
from sverka.core import text as tx


def _entry(raw: str, mode: str) -> tuple:
    form, script, tampering, lang, _free = tx._normalise(raw, mode)
    a = morph.analyze(form, lang)
    flags = (tx._STOP if a.is_stop else 0) | (tx._ADJECTIVE if a.is_adjective else 0)
    if tx._number.search(raw):
        flags |= tx._NUMERIC
    if any(tampering):
        flags |= tx._TAMPERED
    return a.lemma, a.lemma_hash, a.word_hash, flags, script, tampering


def reading(text: str, marks) -> tuple[str, bool]:
    """``text._reading`` as it counted the letters of the old spelling (``str.count``)."""
    uk_at, ru_at = marks
    uk, ru = len(uk_at), len(ru_at)
    if uk and uk > ru:
        return "uk", ru > 0
    need = max(5, len(text) // 200)
    old = text.count("ѣ")
    if old < need <= old + text.count("ъ") + text.count("Ъ"):
        old += sum(1 for _ in itertools.islice(tx._final_hard_sign.finditer(text), need - old))
    return ("ru-old", False) if old >= need else ("ru", uk > 0 and ru > 0)


def canonize(text: str, *, drop_stop_words: bool = True, drop_adjectives: bool = False) -> dict:
    marks = split_oracle.marks(text)
    mode, mixed = reading(text, marks)
    parts = tx._split_words(text)
    words = parts[1::2]
    entries = [_entry(w, mode) for w in words]
    if any(e[3] & tx._NUMERIC for e in entries):
        parts = tx._split_words_exactly(text)
        words = parts[1::2]
        entries = [_entry(w, mode) for w in words]
    ends_of_parts = np.cumsum(np.fromiter(map(len, parts), np.int64, len(parts)))
    starts, ends = ends_of_parts[0:-1:2], ends_of_parts[1::2]
    sentence_of_word, spans = split_oracle.sentences(text, starts)
    if mixed and len(spans) > 1:
        other = "ru" if mode == "uk" else "uk"
        first = spans[:, 0]
        uk_at, ru_at = marks

        def per_sentence(at):
            k = np.maximum(np.searchsorted(first, at, "right") - 1, 0)
            return np.bincount(k, minlength=len(first))

        uk, ru = per_sentence(uk_at), per_sentence(ru_at)
        flip = (uk + ru >= 2) & ((uk > ru) if other == "uk" else (ru > uk))
        for w in np.flatnonzero(flip[sentence_of_word]).tolist():
            entries[w] = _entry(words[w], other)
    n = len(entries)
    flags = np.array([e[3] for e in entries], dtype=np.uint8)
    drop = (tx._STOP if drop_stop_words else 0) | (tx._ADJECTIVE if drop_adjectives else 0)
    keep = (flags & drop) == 0
    kept = np.flatnonzero(keep)
    tampering = (0, 0, 0, 0, 0, 0)
    if (flags & tx._TAMPERED).any():
        tampering = tuple(map(sum, zip(*(entries[i][5] for i in np.flatnonzero(flags & tx._TAMPERED).tolist()))))
    scripts = np.bincount(np.array([e[4] for e in entries], dtype=np.int64), minlength=3)
    language = tx._language(scripts, mode)
    return dict(
        starts=starts[keep].tolist(), ends=ends[keep].tolist(),
        lemmas=tuple(entries[i][0] for i in kept.tolist()),
        hashes=[entries[i][1] for i in kept.tolist()], word_hashes=[entries[i][2] for i in kept.tolist()],
        sentence_ids=sentence_of_word[keep].tolist(), sentence_spans=spans.tolist(), word_count=n,
        language=language,
        lookalike_letters=tampering[0] + tampering[1] + tampering[4] + tampering[5],
        invisible_chars=tampering[2], hyphen_joins=tampering[3],
        warnings=[(w.code, w.args) for w in tx._warnings(tampering, language)], word_starts=starts.tolist(),
    )


def as_oracle(tokens) -> dict:
    """The same fields of a :class:`~sverka.core.tokens.Tokens`."""
    return dict(
        starts=tokens.starts.tolist(), ends=tokens.ends.tolist(), lemmas=tokens.lemmas,
        hashes=tokens.hashes.tolist(), word_hashes=tokens.word_hashes.tolist(),
        sentence_ids=tokens.sentence_ids.tolist(), sentence_spans=tokens.sentence_spans.tolist(),
        word_count=tokens.word_count, language=tokens.language, lookalike_letters=tokens.lookalike_letters,
        invisible_chars=tokens.invisible_chars, hyphen_joins=tokens.hyphen_joins,
        warnings=[(w.code, w.args) for w in tokens.warnings if w.code != "warning.no_words"],
        word_starts=tokens.word_starts.tolist(),
    )
