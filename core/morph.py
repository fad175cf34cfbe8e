"""Lemmas, all possible lemmas and stop words of one normalised word form (ALGORITHMS.md §1, §5).

* Russian and Ukrainian: pymorphy3 (``lang="ru"`` / ``"uk"``); English: simplemma (``"en"``).
  Words of any other script are their own lemma.
* Input is a NORMALISED form (lower case, NFKC, ё->е, look-alikes folded: see
  :mod:`sverka.core.text`); output lemmas are normalised the same way (ё->е).
* The analyzers are created lazily, once per process; :func:`warm_up` loads them up front.
  Recent results are cached per (form, language) (bounded: the canonizer keeps them all).
* Every analysis is also kept machine-wide by :mod:`sverka.core.formcache` (versioned with
  the dictionaries): a form analysed by any earlier Sverka process is not analysed again.
* A form of the Russian or Ukrainian dictionary is first looked up in the table of every
  dictionary form (:mod:`sverka.core.formdict`, made once per machine by
  :func:`build_dictionary_table` with this module's own analysis): the same answer, without
  the dictionaries' Python.
* Stop words: a form is one when it or its lemma is on the language's list, and every
  one-letter word is one (prepositions, conjunctions, initials, pieces of "т. е.").
* Adjectives (``drop_adjectives``) are pymorphy's ADJF and ADJS (full and short adjectives;
  participles and comparatives are kept). English has no offline part-of-speech tagger in
  our dependencies, so no English word is marked as an adjective.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from importlib import resources

from sverka.core import formcache, formdict
from sverka.core.hashing import hash_text

__all__ = ["Analysis", "LANGUAGES", "analyze", "analyze_fields", "build_dictionary_table", "dictionary_forms", "lemmas_of",
           "stop_words", "warm_up"]

#: Languages with a lemmatizer and a stop-word list.
LANGUAGES = ("ru", "uk", "en")

_MASK64 = (1 << 64) - 1
_ADJECTIVE_POS = frozenset({"ADJF", "ADJS"})

_lock = threading.RLock()
_analyzers: dict[str, object] = {}
_stop_words: dict[str, frozenset[str]] = {}
#: (form, lang): analyze's; (form, lang, 1): analyze_fields's; (form, lang, "proper"): is_proper's
_cache: dict[tuple, "Analysis | tuple | bool"] = {}
#: The canonizer keeps every analysed raw form for the life of the process; this cache only
#: spares the dictionaries a form met again in another spelling ("Книга" after "книга"),
#: which happens near its first sighting. Bounded, so memory does not grow twice per form.
_CACHE_LIMIT = 20_000


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the dictionaries say about one normalised word form."""

    lemma: str  # the most likely base form
    lemma_hash: int  # hash_text(lemma)
    word_hash: int  # WH: sum mod 2**64 of hash_text of every possible lemma
    is_stop: bool  # one letter long, or the form or its lemma is on the stop-word list
    is_adjective: bool  # pymorphy's most likely part of speech is ADJF or ADJS
    #: every lemma, the most likely first, when the dictionaries were asked (not from the table)
    lemmas: tuple[str, ...] = field(default=(), compare=False, repr=False)


def stop_words(lang: str) -> frozenset[str]:
    """The stop-word list of ``lang`` ("ru", "uk", "en") from ``core/data/stopwords_<lang>.txt``."""
    words = _stop_words.get(lang)
    if words is None:
        with _lock:
            words = _stop_words.get(lang)
            if words is None:
                words = _stop_words[lang] = _load_stop_words(lang)
    return words


def _load_stop_words(lang: str) -> frozenset[str]:
    if lang not in LANGUAGES:
        return frozenset()
    data = resources.files("sverka.core").joinpath("data", f"stopwords_{lang}.txt")
    words = set()
    for line in data.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip().lower().replace("ё", "е")
        if line:
            words.update(line.split())
    return frozenset(words)


def _analyzer(lang: str):
    morph = _analyzers.get(lang)
    if morph is None:
        with _lock:
            morph = _analyzers.get(lang)
            if morph is None:
                if lang == "en":
                    morph = _English()
                    morph.lemmatize("warm", lang="en")  # loads its dictionary
                else:
                    import pymorphy3

                    morph = pymorphy3.MorphAnalyzer(lang=lang)
                _analyzers[lang] = morph
    return morph


class _English:
    """simplemma's lemmatizer over its English dictionary kept as a MARISA trie, built once
    per machine in Sverka's cache folder (simplemma's own ``TrieDictionaryFactory``): a new
    process opens the 1.3 MB trie in ~1 ms instead of decoding the 26 MB dictionary (~0.5 s,
    more than a cold ``sverka check`` may take), and worker processes do not each hold it.
    The same dictionary, the same lemmas (pinned by tests/core/test_morph.py). Without
    ``marisa-trie`` simplemma's default in-memory dictionary is used."""

    def __init__(self) -> None:
        from simplemma import Lemmatizer
        from simplemma.strategies import DefaultStrategy, DictionaryLookupStrategy

        factory = _trie_factory()
        if factory is None:
            from simplemma.strategies import DEFAULT_DICTIONARY_FACTORY as factory
        self._lemmatizer = Lemmatizer(lemmatization_strategy=DefaultStrategy(dictionary_factory=factory))
        self._lookup = DictionaryLookupStrategy(factory)

    def lemmatize(self, form: str, lang: str) -> str:
        return self._lemmatizer.lemmatize(form, lang=lang)

    def is_known(self, form: str, lang: str) -> bool:
        from simplemma.utils import normalize_token

        return self._lookup.get_lemma(normalize_token(form), lang) is not None


def _trie_factory():
    """simplemma's trie dictionaries in ``<cache folder>/simplemma-<version>``, written
    atomically (two indexing workers may build it at once), or None without marisa-trie."""
    try:
        from simplemma.__metadata__ import __version__
        from simplemma.strategies.dictionaries.trie_dictionary_factory import TrieDictionaryFactory
        import marisa_trie  # noqa: F401
    except ImportError:
        return None

    class _AtomicTries(TrieDictionaryFactory):
        def _write_trie_to_disk(self, lang, trie) -> None:
            self._cache_dir.mkdir(parents=True, exist_ok=True)
            with formcache.replacing(self._cache_dir / f"{lang}.dic") as tmp:
                trie.save(tmp)

    folder = formcache.cache_dir() / f"simplemma-{__version__}"
    return _AtomicTries(disk_cache_dir=str(folder))


def warm_up(languages: tuple[str, ...] = LANGUAGES) -> None:
    """Load the dictionaries and stop-word lists now rather than on the first word."""
    for lang in languages:
        _analyzer(lang)
        stop_words(lang)


def is_known(form: str, lang: str) -> bool:
    """Whether the dictionary of ``lang`` ("ru", "uk", "en") holds the lower-case ``form``
    (not a guess of the predictor). Never raises."""
    try:
        if lang == "en":
            return bool(_analyzer("en").is_known(form, lang="en"))
        if lang in ("ru", "uk"):
            if lang == "ru" and "ё" not in form and form.islower():
                # the table holds every form a key of the dictionary gives with ё read as е:
                # exactly those pymorphy3 knows (its е/ё substitutes)
                held = formdict.table().holds(form, "ru")
                if held is not None:
                    return held
            return bool(_analyzer(lang).word_is_known(form))
    except Exception:  # a dictionary library must not take the caller down
        pass
    return False


def analyze(form: str, lang: str) -> Analysis:
    """Analysis of a normalised ``form`` in ``lang`` ("ru", "uk", "en"; anything else: the form
    is its own lemma). Never raises: a failing analyzer leaves the form as its own lemma."""
    key = (form, lang)
    found = _cache.get(key)
    if found is not None:
        return found
    known = formdict.table().lookup(form, lang) if lang in formdict.LANGUAGES else None
    if known is None and lang in LANGUAGES:
        known = formcache.lookup(form, lang)
    if known is not None:  # analysed before on this machine, by this dictionary version
        found = Analysis(*known)
    else:
        found = _analyze(form, lang)
        if lang in LANGUAGES:
            formcache.record(form, lang, *_fields(found))
            _record_lemmas(form, lang, found)
    if len(_cache) >= _CACHE_LIMIT:
        _cache.clear()
    _cache[key] = found
    return found


def analyze_fields(form: str, lang: str) -> tuple[str, int, int, bool, bool]:
    """:func:`analyze`'s answer as (lemma, lemma hash, word hash, is stop, is adjective): the
    canonizer's way, which needs no :class:`Analysis` object for a form of the table of
    dictionary forms (most forms new to a machine)."""
    key = (form, lang, 1)  # beside analyze's own (form, lang) in the same cache, cleared with it
    found = _cache.get(key)
    if found is None:
        found = formdict.table().lookup(form, lang) if lang in formdict.LANGUAGES else None
        if found is None:
            found = _fields(analyze(form, lang))
        if len(_cache) >= _CACHE_LIMIT:
            _cache.clear()
        _cache[key] = found
    return found


def _fields(a: Analysis) -> tuple:
    return a.lemma, a.lemma_hash, a.word_hash, a.is_stop, a.is_adjective


def _analyze(form: str, lang: str) -> Analysis:
    """What the dictionaries say (the slow path: no cache)."""
    try:
        lemma, lemmas, is_adjective = _lemmas(form, lang)
    except Exception:  # a dictionary library must not take canonization down
        lemma, lemmas, is_adjective = form, (form,), False
    stops = stop_words(lang)
    lemma_hash = hash_text(lemma)
    if len(lemmas) == 1 and lemmas[0] == lemma:
        word_hash = lemma_hash
    else:  # a sum, so the order of the lemmas does not matter
        word_hash = sum(map(hash_text, set(lemmas))) & _MASK64
    return Analysis(
        lemma=lemma,
        lemma_hash=lemma_hash,
        word_hash=word_hash,
        is_stop=len(form) == 1 or form in stops or lemma in stops,
        is_adjective=is_adjective,
        lemmas=tuple(lemmas),
    )


def _record_lemmas(form: str, lang: str, a: Analysis) -> None:
    """Keep machine-wide every lemma of a form that has others than its most likely one (its
    WH is then not its lemma's hash): :func:`lemmas_of` answers from the table."""
    if a.word_hash != a.lemma_hash and a.lemmas and lang in _LEMMA_ROWS:
        formcache.record(form, _LEMMA_ROWS[lang], formcache.LEMMA_SEPARATOR.join(a.lemmas), a.lemma_hash,
                         a.word_hash, False, False)


#: The form table's rows of every lemma of a form (:mod:`sverka.core.formcache`), by language.
_LEMMA_ROWS = {"ru": "lemmas-ru", "uk": "lemmas-uk"}


def lemmas_of(form: str, lang: str) -> tuple[str, ...]:
    """Every lemma the dictionary of ``lang`` allows the normalised ``form``, the most likely
    first (a form of no language it reads: itself). Never raises. Not cached: for the few
    words of a passage's label, not for canonization.

    From the machine-wide table when it knows the form (loading pymorphy3's dictionary costs a
    process 0.1-0.3 s, more than the rest of a label): a form whose WH is its lemma's hash has
    that lemma alone; one of several has them kept in a row of their own
    (:func:`_record_lemmas`). Else the dictionary is asked, and the form's analysis kept."""
    if lang not in LANGUAGES:
        return (form,)
    try:
        rows = _LEMMA_ROWS.get(lang)
        kept = formcache.lookup(form, rows) if rows else None
        if kept is not None:
            return tuple(kept[0].split(formcache.LEMMA_SEPARATOR))
        found = analyze(form, lang)  # kept machine-wide, with its lemmas, when analysed now
        if found.word_hash == found.lemma_hash:
            return (found.lemma,)
        if not found.lemmas:  # analysed before its lemmas were kept
            found = _analyze(form, lang)
            _record_lemmas(form, lang, found)
        return found.lemmas
    except Exception:  # a dictionary library must not take the caller down
        return (form,)


#: pymorphy3's grammemes of a proper noun: a first name, a surname, a patronymic, a place, an
#: organisation, a trade mark. Compared with a tag's ``grammemes`` set: ``"Geox" in tag`` asks
#: the tag class's known grammemes, which another language's dictionary loaded in the process
#: can leave without it (a ValueError, met in the test suite).
_PROPER = frozenset(("Name", "Surn", "Patr", "Geox", "Orgn", "Trad"))


def is_proper(form: str, lang: str) -> bool:
    """Whether the lower-case ``form`` of ``lang`` ("ru", "uk") may be a proper noun: a parse of
    the dictionary says so ("иран", "госдума", "песков"; also "роман", "вера", which may be
    names), or the dictionary does not hold the word at all (a name it lacks: "яндекс" in an
    older one, a surname). The Ukrainian dictionary tags few names ("київ" is a plain noun there),
    so in Ukrainian it is mostly the second. English, with no such tags, and anything else:
    False. Never raises."""
    if lang not in ("ru", "uk"):
        return False
    key = (form, lang, "proper")  # beside analyze's own (form, lang) in the same cache, cleared with it
    found = _cache.get(key)
    if found is None:
        try:
            analyzer = _analyzer(lang)
            found = not analyzer.word_is_known(form) or any(
                not _PROPER.isdisjoint(p.tag.grammemes) for p in analyzer.parse(form))
        except Exception:  # a dictionary library must not take the caller down (not kept)
            return False
        if len(_cache) >= _CACHE_LIMIT:
            _cache.clear()
        _cache[key] = found
    return found


def _lemmas(form: str, lang: str) -> tuple[str, tuple[str, ...], bool]:
    """(most likely lemma, every possible lemma, is the most likely parse an adjective)."""
    if lang == "en":
        lemma = _analyzer("en").lemmatize(form, lang="en").lower() or form
        return lemma, (lemma,), False
    if lang not in ("ru", "uk"):
        return form, (form,), False
    analyzer = _analyzer(lang)
    # a Russian form the table of every dictionary form lacks is not in the dictionary: straight
    # to the predictor (tests/core/test_formdict.py pins both to the dictionary)
    absent = lang == "ru" and formdict.table().holds(form, "ru") is False
    known = None if absent else _dictionary_parses(analyzer, form)
    if known is not None:  # every parse comes from the dictionary
        lemmas, tag = known
        lemma = lemmas[0] or form
    else:  # guesses of the predictor: the word is its own single lemma
        parses = analyzer.parse(form)
        if not parses:
            return form, (form,), False
        lemma = parses[0].normal_form.replace("ё", "е") or form
        lemmas, tag = (lemma,), parses[0].tag
    return lemma, lemmas, tag.POS in _ADJECTIVE_POS


def _dictionary_parses(analyzer, form: str):
    """(every lemma, most likely first; the most likely parse's tag) of a ``form`` the
    dictionary holds, or None for a form it does not (left to pymorphy3's predictor).

    What ``MorphAnalyzer.parse`` returns for a dictionary word, without building its parse
    objects and method stacks (half of its cost): pymorphy3's own dictionary lookup (with its
    ё/е substitutes), normal forms and tags, ordered by its own P(tag | word) estimate (a
    stable sort, so ties keep the dictionary's order). Pinned to ``parse`` by
    tests/core/test_morph.py over every form of a text.
    """
    d = analyzer.dictionary
    found = d.words.similar_items(form, analyzer.char_substitutes)
    if not found:
        return None
    paradigms, gramtab, normal_form = d.paradigms, d.gramtab, d.build_normal_form
    lemmas, tags = [], []
    for fixed_word, pairs in found:
        for para_id, idx in pairs:
            paradigm = paradigms[para_id]
            tags.append(gramtab[paradigm[len(paradigm) // 3 + idx]])
            lemmas.append(normal_form(para_id, idx, fixed_word).replace("ё", "е"))
    estimator = analyzer.prob_estimator
    if estimator is not None and len(tags) > 1:
        prob = estimator.p_t_given_w.prob
        probs = [prob(form, tag) for tag in tags]
        if any(probs):
            order = sorted(range(len(tags)), key=probs.__getitem__, reverse=True)
            return tuple(lemmas[i] for i in order), tags[order[0]]
    return tuple(lemmas), tags[0]


def dictionary_forms(lang: str) -> list[str]:
    """Every normalised form (lower case, ё as е) for which pymorphy3's dictionary of ``lang``
    ("ru", "uk") has parses of its own, sorted: its keys with ё read as е (Russian: pymorphy3
    looks a form up with each е as е or ё), or with any of its ґ read as г (Ukrainian: its
    г/ґ substitutes; a Ukrainian key with ё is never asked for, canonization writing е)."""
    d = _analyzer(lang).dictionary
    out: set[str] = set()
    for key in d.words.iterkeys():
        if lang == "ru":
            out.add(key.replace("ё", "е"))
        elif "ё" not in key:
            out.add(key)
            at = [k for k, c in enumerate(key) if c == "ґ"]
            if at:
                subsets = range(1, 1 << len(at)) if len(at) <= 4 else ((1 << len(at)) - 1,)
                for bits in subsets:
                    chars = list(key)
                    for j, k in enumerate(at):
                        if bits >> j & 1:
                            chars[k] = "г"
                    out.add("".join(chars))
    return sorted(out)


def _analyze_many(job: tuple[str, list[str]]) -> tuple[list[str], list[int], list[int], bytes]:
    """(lemmas, lemma hashes, word hashes, flags) of ``forms`` by :func:`_analyze` (a worker's
    share of :func:`build_dictionary_table`)."""
    lang, forms = job
    lemmas, lh, wh, flags = [], [], [], bytearray()
    for form in forms:
        a = _analyze(form, lang)
        lemmas.append(a.lemma)
        lh.append(a.lemma_hash)
        wh.append(a.word_hash)
        flags.append((formdict.STOP if a.is_stop else 0) | (formdict.ADJECTIVE if a.is_adjective else 0))
    return lemmas, lh, wh, bytes(flags)


def build_dictionary_table(languages: tuple[str, ...] = formdict.LANGUAGES, processes: int | None = None,
                           progress=None, forms: dict[str, list[str]] | None = None):
    """Analyse every form of the dictionaries of ``languages`` (:func:`dictionary_forms`) with
    this module's analysis and write :mod:`sverka.core.formdict`'s table; returns its folder.
    Once per machine and dictionary version (minutes of CPU: ~30 us a form, 6.7 M forms for
    both languages), on ``processes`` processes (all cores by default).
    ``progress(lang, done, total)`` is called as chunks finish. ``forms``: the forms of each
    language to analyse instead of every dictionary form (tests)."""
    import multiprocessing

    processes = max(1, processes or os.cpu_count() or 1)
    parts, chosen = {}, forms
    for lang in languages:
        forms = sorted(set(chosen[lang])) if chosen else dictionary_forms(lang)
        stop_words(lang)
        chunk = 20_000
        jobs = [(lang, forms[at:at + chunk]) for at in range(0, len(forms), chunk)]
        lemmas, lh, wh, flags = [], [], [], bytearray()

        def take(done):
            lemmas.extend(done[0])
            lh.extend(done[1])
            wh.extend(done[2])
            flags.extend(done[3])
            if progress is not None:
                progress(lang, len(lemmas), len(forms))

        if processes == 1:
            for job in jobs:
                take(_analyze_many(job))
        else:
            context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
            with context.Pool(processes) as pool:
                for done in pool.imap(_analyze_many, jobs):
                    take(done)
        parts[lang] = (forms, lemmas, lh, wh, flags)
    return formdict.write(parts)


if __name__ == "__main__":  # python -m sverka.core.morph build-dictionary-table
    import sys
    import time

    if sys.argv[1:2] != ["build-dictionary-table"]:
        sys.exit("usage: python -m sverka.core.morph build-dictionary-table [--if-missing] [ru uk]")
    args = sys.argv[2:]
    if "--if-missing" in args:
        args.remove("--if-missing")
        if all(formdict.table().has(lang) for lang in args or formdict.LANGUAGES):
            print(f"{formdict.folder()} is there")
            sys.exit(0)
    started = time.perf_counter()
    where = build_dictionary_table(tuple(args) or formdict.LANGUAGES,
                                   progress=lambda lang, done, total: print(f"{lang}: {done:,} of {total:,} forms",
                                                                            flush=True) if done % 500_000 < 20_000 or done == total else None)
    print(f"{where} in {time.perf_counter() - started:.0f} s")
