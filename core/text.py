"""Canonization: text in, canonical tokens with character spans out (ALGORITHMS.md §1).

Contract (the rest of Sverka relies on it):

* ``canonize(text, ...)`` never raises on any ``str`` and returns :class:`Tokens`.
* Token ``i`` came from ``text[starts[i]:ends[i]]`` (the original text, not a normalised copy);
  that slice is the word as the user sees it, including any invisible characters or a
  line-end hyphen inside it.
* ``hashes[i] == hash_text(lemmas[i])`` (see :mod:`sverka.core.hashing`).
* ``word_hashes[i]`` is WH of ALGORITHMS.md §5: the sum modulo 2**64 of ``hash_text`` of
  every possible lemma of the word (a single lemma for words the dictionary does not know).
* Stop words are not tokens (unless ``drop_stop_words=False``); ``word_count`` counts every word.

Rules:

* A word is a run of letters (any script) with its combining marks; digits, other numbers
  (², ½, Ⅻ) and punctuation are not words, so "северо-западный" is two words. A word goes on
  across format characters (zero-width space/joiners, U+2060, U+FEFF, soft hyphen, every
  Unicode Cf) and across a hyphen (-, U+2010, U+00AD) at the end of a line ("кни-\\nга",
  "-\\r\\n", spaces allowed around the break) when a letter follows.
* Each word, not the text, is normalised: those characters removed, NFKC, lower case, ё->е,
  generic diacritics (U+0300-U+036F, e.g. stress marks) removed; then Latin look-alikes inside
  a word with at least as many Cyrillic letters are folded to Cyrillic ("Kнига" -> "книга"),
  and Cyrillic look-alikes inside a mostly Latin word to Latin. Letters of every other script
  (Greek "ο", Armenian "օ", Cherokee, Coptic, ...; mathematical and fullwidth letters through
  NFKC) that Unicode's confusables data (TR39, shipped by ``confusable_homoglyphs``) gives as
  look-alikes of a Cyrillic or Latin letter are folded first, in a word that holds Cyrillic or
  Latin letters and no letter of another script without such a look-alike ("вοда" -> "вода";
  a Greek word stays Greek). Folded letters, invisible
  characters and line-end joins are counted per occurrence; the first two are tampering and
  produce ``warnings`` (joins are ordinary typography and do not).
* Lemmas come from :mod:`sverka.core.morph`: Cyrillic words are read as Ukrainian when the
  text has more of і ї є ґ than of ы э ъ ё, else as Russian; in a text holding both, a
  sentence with at least two of them is read by its own majority (a Russian quotation in a
  Ukrainian essay); a word holding letters of only one of the two sets is read in that
  language whatever the text. Latin words are English.
* Russian in the spelling before 1918 (an old edition of a novel) is read as today's: ѣ -> е,
  ѳ -> ф, ѵ -> и, a hard sign ending a word dropped ("домъ" -> "дом"), і -> и in a word that
  also holds a mark of Russian (ы э ъ ё ѣ ѳ ѵ: "міръ") or anywhere in a text in the old
  spelling (at least 5 of ѣ or a word-final ъ, and one per 200 characters: "Россія");
  a form the dictionary does not know ending in -аго/-яго/-ыя/-ия is read as
  -ого/-его/-ые/-ие, or with a prefix без-/раз-/из-/воз-/низ-/чрез- before a voiceless
  consonant as бес-/рас-/..., when the dictionary knows that ("добраго" -> "доброго",
  "новыя" -> "новые", "разсказъ" -> "рассказ"), and -аго/-яго always in the old spelling
  ("полуживаго"); so is о after ж ч ш щ of editions of 1918-1956 ("чорт", "шопот", "жолтый")
  and a few words of theirs (итти, оне).
* ``language`` from the words' scripts: "ru"/"uk" when under 15 % of the Cyrillic+Latin words
  are Latin, "en" when under 15 % are Cyrillic, "mixed" otherwise, "unknown" when there are no
  such words or other scripts are the majority.
* Sentences end at . ! ? … (with closing quotes) followed by spaces and a capital (optionally
  after an opening quote or dash), and at blank lines; a full stop after a one-letter word
  (but a lower-case "я": "– сказал я.") or a listed abbreviation ("т. е.", "т.д.", "г.",
  "А. С. Пушкин", "e.g.", "Mr.") is not an end.
  ``sentence_spans`` lists the sentences that contain a word (stop words included), without
  surrounding spaces; ``sentence_ids`` index it.
* Speed: forms are analysed once per machine: the table of analysed raw forms starts from
  :mod:`sverka.core.formcache` and what is new goes back to it; an ordinary text's words,
  sentences and marks are found by the compiled engine in one pass (:mod:`sverka.core.scan`,
  the same words) and its tokens gathered by it; see docs/BENCHMARKS.md and docs/ENGINE.md.
"""

from __future__ import annotations

import functools
import itertools
import re
import threading
import unicodedata

import numpy as np

from sverka.core import formcache, formdict, morph, scan
from sverka.core.engine import i64, native, u64
from sverka.core.hashing import hash_text
from sverka.core.messages import Message, message
from sverka.core.tokens import Tokens  # canonize's result, plain data (the store keeps it)
from sverka.core.versions import CANON_VERSION  # noqa: F401  (raise it there with any change of the output)


# ---------------------------------------------------------------------------------------------
# Implementation.
#
# Speed plan (target >= 5 000 000 words/s once the forms are known): one pass of the engine
# over a text (:func:`sverka.core.scan.read`) finds the marks of Ukrainian and Russian, the
# sentence pieces and, for a text of ordinary characters, every word with a hash of its raw form;
# the raw forms are looked up in the engine's index of this process's table and the engine
# gathers the tokens' arrays and lemmas (``FormTable.tokens``) in one call. Any other text is
# split by ONE compiled regex (``re.split`` with a capturing group, so offsets are the running
# sum of the pieces' lengths, all in C) and its raw words looked up by string. Only a raw form
# never seen before goes through the slow path (joiners, NFKC, look-alikes, dictionaries), once
# per process, and once per machine when the machine-wide table (:mod:`sverka.core.formcache`)
# keeps it.

_LINE_BREAK = scan.LINE_BREAKS  # "\n\r\x0b\x0c\x85\u2028", not U+2029: a paragraph ends a sentence
_HYPHENS = "-\u2010\u00ad"  # hyphen-minus, hyphen, soft hyphen
#: Hangul fillers: letters to Unicode, drawn as nothing: invisible characters, as format ones are
#: (a word of them padded a copied text with "words" no reader sees).
FILLERS = scan.FILLERS


def _ranges(codepoints: list[int]) -> str:
    """The inside of a regex character class of ``codepoints`` (sorted), ranges collapsed."""
    out = []
    i = 0
    while i < len(codepoints):
        j = i
        while j + 1 < len(codepoints) and codepoints[j + 1] == codepoints[j] + 1:
            j += 1
        first, last = re.escape(chr(codepoints[i])), re.escape(chr(codepoints[j]))
        out.append(first if i == j else f"{first}-{last}")
        i = j + 1
    return "".join(out)


def _class_of(codepoints: list[int]) -> str:
    """A regex matching one character of ``codepoints`` (sorted), built for speed: re compiles a
    class of BMP characters to a constant-time table but tests ranges beyond the BMP one by
    one, so those are only looked at (by a lookbehind) for the rare character beyond U+FFFF."""
    bmp = _ranges([cp for cp in codepoints if cp < 0x10000])
    beyond = _ranges([cp for cp in codepoints if cp >= 0x10000])
    if not beyond:
        return f"[{bmp}]"
    return f"(?:[{bmp}]|[\U00010000-\U0010ffff](?<=[{beyond}]))"


def _unicode_classes() -> tuple[str, str, str]:
    """(format characters Cf with the fillers and the other default-ignorable code points
    (:data:`sverka.core.words.IGNORABLE`), combining marks Mn/Mc/Me, numbers No/Nl that ``\\w``
    matches) as regexes, from this Python's Unicode database. Planes 3-13 hold none of them."""
    fmt, marks, numbers = [], [], []
    for cp in itertools.chain(range(0x30000), range(0xE0000, 0xE1000)):
        cat = unicodedata.category(chr(cp))
        if cat == "Cf" or chr(cp) in FILLERS or cp in scan.IGNORABLE:
            fmt.append(cp)
        elif cat[0] == "M":
            marks.append(cp)
        elif cat in ("No", "Nl"):
            numbers.append(cp)
    return _class_of(fmt), _class_of(marks), _class_of(numbers)


def _unicode_classes_kept() -> tuple[str, str, str]:
    """:func:`_unicode_classes`, kept in the form cache's folder per Unicode and Python
    version (checked by an xxh64 of its text): walking 200 000 code points costs 0.15-0.2 s
    of every process's start."""
    import json
    import sys

    import xxhash

    def digest(parts) -> str:
        return xxhash.xxh64_hexdigest("\n".join(parts).encode("utf-8"))

    v = sys.version_info
    try:
        path = formcache.cache_dir() / f"unicode-classes-{unicodedata.unidata_version}-py{v[0]}.{v[1]}-3.json"
        kept = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(kept, list) and len(kept) == 4 and all(isinstance(x, str) for x in kept) \
                and kept[3] == digest(kept[:3]):
            return kept[0], kept[1], kept[2]
    except (OSError, ValueError):
        pass
    found = _unicode_classes()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with formcache.replacing(path) as tmp, open(tmp, "w", encoding="utf-8") as out:
            json.dump([*found, digest(found)], out)
    except (OSError, NameError):  # no cache folder here: computed again next time
        pass
    return found


_FORMAT, _MARK, _NUMBER = _unicode_classes_kept()
#: A letter: what ``\w`` matches but digits, "_" and the fillers.
_LETTER = rf"[^\W\d_{FILLERS}]"
_filler = re.compile(f"[{FILLERS}]")
#: A hyphen at the end of a line (spaces allowed around the line break) inside a word.
_LINE_END_HYPHEN = rf"[{re.escape(_HYPHENS)}][ \t]*(?:\r\n|[{_LINE_BREAK}])[ \t]*"


def _word_splitter(letter: str):
    """``re.split`` by words of ``letter``s: letters with their combining marks, continued
    across invisible characters and line-end hyphens when a letter follows. Possessive
    quantifiers: no backtracking on ordinary text."""
    word = (
        rf"{letter}++(?:{_MARK}++{letter}*+)*+"
        rf"(?:(?:{_LINE_END_HYPHEN}|{_FORMAT})++{letter}++(?:{_MARK}++{letter}*+)*+)*+"
    )
    return re.compile(f"({word})").split


#: Fast: a letter is what ``\w`` matches minus digits and "_"; that includes other numbers
#: (², ½, Ⅻ), so a text where such a "word" turns up is split again by the exact splitter.
_split_words = _word_splitter(_LETTER)


def _split_words_exactly(text: str) -> list[str]:
    """``_split_words`` without the other numbers among letters (compiled when a text first
    needs it: its class of every number of Unicode takes ~8 ms to compile, at every start)."""
    return _exact_splitter()(text)


@functools.cache
def _exact_splitter():
    return _word_splitter(rf"(?:(?!{_NUMBER}){_LETTER})")


_number = re.compile(_NUMBER)
_line_end_hyphen = re.compile(_LINE_END_HYPHEN)
_format_char = re.compile(_FORMAT)
_diacritic = re.compile("[\u0300-\u036f]")  # stress marks and other generic diacritics
_cyrillic = re.compile("[\u0400-\u052f\u1c80-\u1c8f\u2de0-\u2dff\ua640-\ua69f]")
_latin = re.compile("[a-z\u00c0-\u024f\u1e00-\u1eff]")
#: A letter that is neither Cyrillic nor Latin (either case): a word holding one may need
#: :func:`_fold_other_scripts`.
_other_letter = re.compile("(?![\u0400-\u052f\u1c80-\u1c8f\u2de0-\u2dff\ua640-\ua69fA-Za-z"
                           "\u00c0-\u024f\u1e00-\u1eff])[^\\W\\d_]")

#: Latin letters that look like Cyrillic ones (lower case: capitals are lowered first).
_LATIN_TO_CYRILLIC = {
    "a": "а", "b": "в", "c": "с", "e": "е", "h": "н", "i": "і", "ï": "ї", "j": "ј", "k": "к",
    "m": "м", "o": "о", "p": "р", "s": "ѕ", "t": "т", "x": "х", "y": "у",
}  # fmt: skip
_CYRILLIC_TO_LATIN = {
    "а": "a", "в": "b", "с": "c", "е": "e", "н": "h", "і": "i", "ї": "ï", "ј": "j", "к": "k",
    "м": "m", "о": "o", "р": "p", "ѕ": "s", "т": "t", "х": "x", "у": "y", "ԁ": "d", "һ": "h",
    "ԛ": "q", "ԝ": "w",
}  # fmt: skip
_TO_CYRILLIC = str.maketrans(_LATIN_TO_CYRILLIC)
_TO_LATIN = str.maketrans(_CYRILLIC_TO_LATIN)


@functools.cache
def _other_script_lookalikes() -> tuple[dict[int, str], dict[int, str]]:
    """(to Cyrillic, to Latin): ``str.translate`` tables from letters of other scripts to the
    basic Cyrillic (U+0400-U+045F) or ASCII Latin letter they look like, both cases.

    From Unicode's confusables data (``confusables.txt`` of UTS #39, as shipped offline by
    ``confusable_homoglyphs``): characters with one prototype look alike; a group holding a
    letter of another script and a basic Cyrillic (or Latin) letter gives one pair. Loaded on
    the first word that needs it (a word with a letter of neither script)."""
    try:
        from confusable_homoglyphs import confusables
    except ImportError:  # pragma: no cover - a dependency; without it only Latin/Cyrillic fold
        return {}, {}
    groups: dict[str, set[str]] = {}
    for char, entries in confusables.confusables_data.items():
        if len(char) != 1:
            continue
        for entry in entries:
            other = entry.get("c", "")
            if len(other) == 1:
                group = groups.get(char) or groups.get(other) or set()
                group.update((char, other))
                for member in (char, other):
                    old = groups.get(member)
                    if old is not None and old is not group:
                        group.update(old)
                        for moved in old:
                            groups[moved] = group
                    groups[member] = group
    to_cyrillic: dict[int, str] = {}
    to_latin: dict[int, str] = {}
    seen: set[int] = set()
    for group in groups.values():
        if id(group) in seen:
            continue
        seen.add(id(group))
        cyrillic = sorted(c for c in group if "\u0400" <= c <= "\u045f" and c.isalpha())
        latin = sorted(c for c in group if c.isascii() and c.isalpha())
        for c in group:
            if not c.isalpha() or _cyrillic.match(c.lower()) or _latin.match(c.lower()) or c.isascii():
                continue
            if cyrillic:
                to_cyrillic[ord(c)] = _same_case(cyrillic, c)
            if latin:
                to_latin[ord(c)] = _same_case(latin, c)
    return to_cyrillic, to_latin


def _same_case(targets: list[str], c: str) -> str:
    """The target letter with the case of ``c`` when the group holds one, else the first."""
    for t in targets:
        if t.isupper() == c.isupper():
            return t
    return targets[0]


def _fold_other_scripts(form: str) -> tuple[str, int, int]:
    """(form, letters folded to Cyrillic, letters folded to Latin): letters of scripts other
    than Cyrillic and Latin that look like a letter of the word's own script (Cyrillic when it
    has at least as many Cyrillic letters as Latin ones) become that letter, when the word has
    letters of its own script and every letter of another script has such a look-alike."""
    low = form.lower()
    cyrillic = len(_cyrillic.findall(low))
    latin = len(_latin.findall(low))
    if not cyrillic and not latin:
        return form, 0, 0
    table = _other_script_lookalikes()[0 if cyrillic >= latin else 1]
    folded = []
    changed = 0
    for c in form:
        lc = c.lower()
        if c.isalpha() and not _cyrillic.match(lc) and not _latin.match(lc):
            t = table.get(ord(c))
            if t is None:
                return form, 0, 0  # a letter of another script with no look-alike: its own word
            folded.append(t)
            changed += 1
        else:
            folded.append(c)
    if not changed:
        return form, 0, 0
    return "".join(folded), (changed if cyrillic >= latin else 0), (0 if cyrillic >= latin else changed)
_UKRAINIAN_LETTERS = frozenset("іїєґ")
_UKRAINIAN_ONLY = frozenset("їєґ")  # і is also Russian before 1918
_RUSSIAN_LETTERS = frozenset("ыэъё")
#: Letters of Russian's spelling before 1918, and what they are today.
_PRE_REFORM = frozenset("ѣѳѵ")
_PRE_REFORM_TODAY = str.maketrans("ѣѳѵ", "ефи")
#: Endings of the old spelling (adjectives' genitive singular; plural feminine and neuter)
#: and today's, tried only on a form the dictionary does not know; the last two (-ия is also
#: a noun's ending today) only when the dictionary knows today's form.
_OLD_ENDINGS = (("аго", "ого"), ("яго", "его"), ("ыя", "ые"), ("ия", "ие"))
_OLD_ENDING_TAILS = tuple(e for e, _ in _OLD_ENDINGS)  # one call tells most words have none
#: A prefix the old spelling wrote with з before a voiceless consonant (today с).
_old_prefix = re.compile(r"(?:без|раз|воз|низ|из|чрез|через)(?=[кпстфхцчшщ])")
#: о after ж ч ш щ where today writes ё (е here): editions of 1918-1956 (чорт, шопот, жолтый).
_sibilant_o = re.compile(r"(?<=[жчшщ])о")
#: Words of those spellings no rule gives.
_OLD_WORDS = {"итти": "идти", "притти": "прийти", "оне": "они", "одне": "одни"}


_OLD_LETTERS_TODAY = (("ѣ", "е"), ("ѳ", "ф"), ("ѵ", "и"), ("і", "и"))
_hard_sign_at_end = re.compile(r"ъ(?![^\W\d_])")


def spelling_key(text: str) -> str:
    """``text`` lower-cased, ё as е, and Russian's old spelling as today's (ѣ ѳ ѵ і -> е ф и
    и, no hard sign ending a word): two spans that read the same by it are the same words,
    whatever the edition ("Въ домѣ" and "В доме"). For labels, not for lemmas. (Each letter
    is looked for and replaced on its own: ``str.translate`` costs ten times as much on
    Cyrillic.)"""
    t = text.lower().replace("ё", "е")
    for old, today in _OLD_LETTERS_TODAY:
        if old in t:
            t = t.replace(old, today)
    if "ъ" in t:
        t = _hard_sign_at_end.sub("", t)
    return t


def word_analyses(words: list[str], language: str = "ru") -> list[tuple[int, int]]:
    """(lemma hash, WH: the sum of the hashes of every possible lemma) of each written word, as
    canonization reads it in a text of ``language`` (``Tokens.language``), stop words too. From
    the canonizer's table and the machine-wide one: a word a text held before costs no
    dictionary. For labels (:func:`sverka.core.align.forms_of_one_word`)."""
    if not words:
        return []
    table = _table
    table.load()
    ids = table.lookup(list(words), "uk" if language == "uk" else "ru")
    lemma_hash, word_hash, _flags, _scripts = table.columns(ids)
    return list(zip(lemma_hash.tolist(), word_hash.tolist()))


@functools.lru_cache(maxsize=4096)
def lemma_hashes(word: str, language: str = "ru") -> frozenset[int]:
    """The hashes of every lemma the dictionaries allow the written ``word``, normalised as
    canonization normalises it (look-alike letters, ё; a Russian word read in today's
    spelling and in the old one: "полуживаго" is "полуживого"). For labels; opens the
    dictionary of the word's language."""
    out: set[int] = set()
    for mode in ("uk",) if language == "uk" else ("ru", "ru-old"):
        form, _script, _tampering, lang, _free = _normalise(word, mode)
        out.update(map(hash_text, morph.lemmas_of(form, lang)))
    return frozenset(out)


def _today_form(form: str, old: bool) -> str:
    """``form`` as spelled today when the Russian dictionary does not know it and knows that:
    a prefix без-/раз-/из-/воз-/низ-/чрез- with з before a voiceless consonant ("разсказ",
    "безпокойство"), an ending of the old spelling ("добраго" -> "доброго"), or both; о after
    a hushing consonant ("чорт", "шопот"); a few words (итти, оне); for -аго/-яго in a word or
    text ``old`` (in the old spelling) the ending is changed even when the dictionary knows
    neither ("полуживаго": the predictor reads today's form); else ``form``."""
    today = _OLD_WORDS.get(form)
    if today is not None:
        return today
    prefix = _old_prefix.match(form)
    ending = None if not form.endswith(_OLD_ENDING_TAILS) else next(
        ((k, e, t) for k, (e, t) in enumerate(_OLD_ENDINGS) if form.endswith(e) and len(form) > len(e)), None)
    sibilant = _sibilant_o.search(form) is not None
    if (prefix is None and ending is None and not sibilant) or morph.is_known(form, "ru"):
        return form
    if sibilant:
        today = _sibilant_o.sub("е", form)
        if morph.is_known(today, "ru"):
            return today
        if prefix is None and ending is None:
            return form
    bases = [form[:prefix.end() - 1] + "с" + form[prefix.end():], form] if prefix else [form]
    for base in bases:
        if ending is not None:
            today = base[: -len(ending[1])] + ending[2]
            if morph.is_known(today, "ru"):
                return today
        if base is not form and morph.is_known(base, "ru"):
            return base
    if ending is not None and old and ending[0] < 2:
        return bases[0][: -len(ending[1])] + ending[2]
    return form


# Entry flags.
_STOP, _ADJECTIVE, _TAMPERED, _NUMERIC = 1, 2, 4, 8
# Entry scripts.
_OTHER, _CYRILLIC, _LATIN = 0, 1, 2


#: The reading modes of the canonizer's table, in the engine's order (its indexes 0, 1, 2).
_MODES = ("ru", "uk", "ru-old")
_EVERY_MODE = (1 << len(_MODES)) - 1


class _Table:
    """Per-process table of analysed raw word forms; grows, never shrinks.

    ``ids[mode][raw]`` is the entry of ``raw`` (a word exactly as found in a text) when the
    document's Cyrillic words are read as ``mode`` ("ru", "uk" or "ru-old"). The entries'
    columns (lemma, lemma hash, word hash, flags, script) and the index of the raw forms by
    :mod:`sverka.core.scan`'s hash are the engine's (``native.FormTable``), which gives a
    text's token arrays in one call (``entries.tokens``). Entries are written before their id is
    published in ``ids``, so readers need no lock; writers take ``lock``.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ids: dict[str, dict[str, int]] = {mode: {} for mode in _MODES}
        self.entries = native.FormTable()
        # tampering per occurrence of the entries flagged _TAMPERED (few): [Latin in Cyrillic,
        # Cyrillic in Latin, invisible, joins, other scripts in Cyrillic, other scripts in Latin]
        self.tampering: dict[int, tuple[int, ...]] = {}
        self.size = 0
        self.loaded = False

    def load(self) -> None:
        """Open the machine-wide table (:mod:`sverka.core.formcache`): every raw form an
        earlier Sverka process met is taken from it when a text first holds it, not analysed
        again (and not read into this process before a text holds it)."""
        with self.lock:
            if not self.loaded:
                formcache.find_rows([], "raw-*")  # reads the file once
                self.loaded = True

    def hashed(self, mode: str, hashes: np.ndarray) -> np.ndarray:
        """The entry of each raw form's hash (:func:`sverka.core.scan.words`) read as ``mode``, -1 for none."""
        return self.entries.get(_MODES.index(mode), u64(hashes))

    def columns(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(lemma hashes, word hashes, flags, scripts) of the entries ``ids``."""
        return self.entries.columns(i64(ids))

    def lemmas(self, ids: np.ndarray) -> tuple[str, ...]:
        return self.entries.lemmas(i64(ids))

    def lookup(self, words: list[str], mode: str) -> np.ndarray:
        """The entry ids of the raw forms ``words`` read as ``mode``, those not in the table yet
        taken from the machine-wide table or analysed first."""
        ids_of = self.ids[mode]
        try:
            return np.fromiter(map(ids_of.__getitem__, words), np.intp, len(words))
        except KeyError:
            self.add_missing(words, mode)
            return np.fromiter(map(ids_of.__getitem__, words), np.intp, len(words))

    def words_at(self, text: str, starts: np.ndarray, ends: np.ndarray, hashes: np.ndarray, mode: str) -> np.ndarray:
        """The entry ids of the words ``text[starts:ends]`` whose hashes
        (:func:`sverka.core.scan.words`) are ``hashes``, read as ``mode``: each distinct word
        made a string and looked up once (a text new to the process holds each of its forms
        several times: a 1 MB novel's 88 000 words not in the table are 26 000 forms)."""
        out = np.empty(len(hashes), np.intp)
        keyed = np.flatnonzero(hashes != 0)  # 0: a word too long to hash, each looked up as it is
        if len(keyed):  # the distinct hashes, by a sort (np.unique would import numpy.ma: ~10-80 ms of a cold start)
            order = np.argsort(hashes[keyed], kind="stable")
            ranked = hashes[keyed][order]
            first = np.empty(len(order), bool)
            first[0] = True
            np.not_equal(ranked[1:], ranked[:-1], out=first[1:])
            inverse = np.empty(len(order), np.intp)
            inverse[order] = np.cumsum(first) - 1
            at = keyed[order[first]]
            found = self.lookup([text[a:b] for a, b in zip(starts[at].tolist(), ends[at].tolist())], mode)
            out[keyed] = found[inverse]
        rest = np.flatnonzero(hashes == 0)
        if len(rest):
            out[rest] = self.lookup([text[a:b] for a, b in zip(starts[rest].tolist(), ends[rest].tolist())], mode)
        return out

    def add_missing(self, words: list[str], mode: str) -> None:
        """Take the raw forms of ``words`` not in the table yet from the machine-wide table,
        analyse the others, then publish their ids."""
        ids = self.ids[mode]
        with self.lock:
            missing = list(set(words).difference(ids))
            if missing:
                missing = self._from_file(missing, mode)
            if missing:
                self._add(missing, mode)
                # the pages of the table of dictionary forms the lookups touched (the kernel maps
                # 64 KB around each: a text of new forms made the whole Russian part, 27 MB,
                # resident) go back; they stay in the system's file cache
                formdict.table().release()

    def _from_file(self, raws: list[str], mode: str) -> list[str]:
        """Entries of ``raws`` an earlier process kept in the machine-wide table, added as
        :meth:`_add` adds new ones; returns the raws it does not hold."""
        state = formcache.snapshot()
        rows = formcache.find_rows(raws, "raw-" + mode, state)
        everywhere = rows < 0
        rows[everywhere] = formcache.find_rows([raws[k] for k in np.flatnonzero(everywhere).tolist()], "raw-*", state)
        found = np.flatnonzero(rows >= 0)
        if not len(found):
            return raws
        lemmas, lemma_hash, word_hash, flags = formcache.row_entries(rows[found], state)
        if None in lemmas:  # a row the file cannot give (damage made to pass its checksum): analysed
            good = np.array([x is not None for x in lemmas])
            rows[found[~good]] = -1
            found, lemma_hash, word_hash, flags = found[good], lemma_hash[good], word_hash[good], flags[good]
            lemmas = [x for x in lemmas if x is not None]
            if not len(found):
                return raws
        self._append([raws[x] for x in found.tolist()], lemmas, lemma_hash, word_hash, flags & 0x0F, flags >> 4,
                     everywhere[found].tolist(), mode)
        return [raws[x] for x in np.flatnonzero(rows < 0).tolist()]

    def _append(self, raws: list[str], lemmas, lemma_hash, word_hash, flags, scripts, everywhere, mode: str,
                tampered=()) -> None:
        """Entries of ``raws`` written to the arrays in one go, then their ids published (readers
        take no lock): in every reading mode's dict where ``everywhere[k]``, else in ``mode``'s."""
        i, n = self.size, len(raws)
        for k, tampering in tampered:
            self.tampering[i + k] = tampering
        modes = np.where(np.asarray(everywhere, dtype=bool), _EVERY_MODE, 1 << _MODES.index(mode)).astype(np.uint8)
        self.entries.append(list(lemmas), u64(np.asarray(lemma_hash, dtype=np.uint64)),
                            u64(np.asarray(word_hash, dtype=np.uint64)), np.ascontiguousarray(flags, dtype=np.uint8),
                            np.ascontiguousarray(scripts, dtype=np.uint8), u64(scan.hash_strings(raws)), modes)
        self.size = i + n
        tables = tuple(self.ids.values())
        own = self.ids[mode]
        for k, raw in enumerate(raws):
            if everywhere[k]:
                for table in tables:
                    table[raw] = i + k
            else:
                own[raw] = i + k

    def _add(self, raws: list[str], mode: str) -> None:
        """Entries of the new raw forms ``raws`` (:meth:`_append`), then offered to the
        machine-wide table."""
        found, scripts, flags, tampered, everywhere = [], [], [], [], []
        analysed = morph.analyze_fields
        for raw in raws:
            form, script, tampering, lang, mode_free = _normalise(raw, mode)
            a = analysed(form, lang)  # (lemma, lemma hash, word hash, is stop, is adjective)
            found.append(a)
            scripts.append(script)
            everywhere.append(mode_free)
            f = (_STOP if a[3] else 0) | (_ADJECTIVE if a[4] else 0)
            if tampering is not _NO_TAMPERING:  # a word of the Russian alphabet alone has neither
                if _number.search(raw):
                    f |= _NUMERIC
                if any(tampering):
                    f |= _TAMPERED
                    tampered.append((len(flags), tampering))
            flags.append(f)
        lemmas, lemma_hash, word_hash = [a[0] for a in found], [a[1] for a in found], [a[2] for a in found]
        self._append(raws, lemmas, lemma_hash, word_hash, flags, scripts, everywhere, mode, tampered)
        if tampered:  # tampering counts are not kept machine-wide
            kept = [k for k, f in enumerate(flags) if not f & _TAMPERED]
            raws, lemmas, lemma_hash, word_hash, flags, scripts, everywhere = (
                [x[k] for k in kept] for x in (raws, lemmas, lemma_hash, word_hash, flags, scripts, everywhere))
        formcache.record_raw_many(raws, ["*" if e else mode for e in everywhere], lemmas, lemma_hash, word_hash,
                                  [f | s << 4 for f, s in zip(flags, scripts)])


#: A word of the Russian alphabet's letters alone, either case (most words of a Russian text).
_plain_russian = re.compile("[а-яёА-ЯЁ]+")
_NO_TAMPERING = (0, 0, 0, 0, 0, 0)


def _normalise(raw: str, mode: str) -> tuple[str, int, tuple[int, ...], str, bool]:
    """(normalised form, script, tampering counts, lemmatizer language, same in every mode)
    of one raw word. Tampering counts: Latin letters folded to Cyrillic, Cyrillic letters
    folded to Latin, invisible characters, line-end hyphen joins, letters of other scripts
    folded to Cyrillic, to Latin.

    A word of the Russian alphabet alone (most words of a Russian text) takes a short way to
    what :func:`_normalise_any` gives it (tests/core/test_text.py compares the two): NFKC, the
    folds and the letter counts change nothing in it; each word never seen costs a process
    ~40 us, of which this was a fifth."""
    if not _plain_russian.fullmatch(raw):
        return _normalise_any(raw, mode)
    form = raw.lower()
    old_spelling = len(form) > 1 and form.endswith("ъ")  # "домъ"
    russian = old_spelling or not _RUSSIAN_LETTERS.isdisjoint(form)
    if old_spelling:
        form = form[:-1]
    form = form.replace("ё", "е")
    if russian:
        return _today_form(form, old_spelling), _CYRILLIC, _NO_TAMPERING, "ru", True
    if mode == "uk":
        return form, _CYRILLIC, _NO_TAMPERING, "uk", False
    return _today_form(form, mode == "ru-old"), _CYRILLIC, _NO_TAMPERING, "ru", False


def _normalise_any(raw: str, mode: str) -> tuple[str, int, tuple[int, ...], str, bool]:
    """:func:`_normalise` of any word."""
    invisible = joins = 0
    form = raw
    if not form.isalpha() or _filler.search(form):  # invisible characters, marks or a line-end hyphen
        form, joins = _line_end_hyphen.subn("", form)
        form, invisible = _format_char.subn("", form)
    form = unicodedata.normalize("NFKC", form)
    other_to_cyrillic = other_to_latin = 0
    if not form.isascii() and _other_letter.search(form):
        form, other_to_cyrillic, other_to_latin = _fold_other_scripts(form)
    form = form.lower()
    old_spelling = not _PRE_REFORM.isdisjoint(form) or (len(form) > 1 and form.endswith("ъ"))
    russian = old_spelling or not _RUSSIAN_LETTERS.isdisjoint(form)
    if old_spelling:  # Russian before 1918: "домъ", "лѣсъ", "Ѳома"
        form = form.translate(_PRE_REFORM_TODAY)
        if len(form) > 1 and form.endswith("ъ"):
            form = form[:-1]
    form = form.replace("ё", "е")
    if not form.isalpha():
        form = _diacritic.sub("", form)
    cyrillic = len(_cyrillic.findall(form))
    latin = len(_latin.findall(form))
    to_cyrillic = to_latin = 0
    if cyrillic and latin:
        if cyrillic >= latin:
            folded = form.translate(_TO_CYRILLIC)
            to_cyrillic = sum(a != b for a, b in zip(form, folded))
        else:
            folded = form.translate(_TO_LATIN)
            to_latin = sum(a != b for a, b in zip(form, folded))
        form = folded
        cyrillic = len(_cyrillic.findall(form))
        latin = len(_latin.findall(form))
    tampering = (to_cyrillic, to_latin, invisible, joins, other_to_cyrillic, other_to_latin)
    if cyrillic and not latin:
        ukrainian = not _UKRAINIAN_LETTERS.isdisjoint(form)
        i_only = ukrainian and _UKRAINIAN_ONLY.isdisjoint(form)  # і its only Ukrainian letter
        if i_only and (russian or mode == "ru-old"):
            # і of the old Russian spelling ("міръ"; "Россія" in a text in that spelling): the
            # same in every mode only when the word itself shows it is Russian
            form = _today_form(form.replace("і", "и"), old_spelling or not russian)
            return form, _CYRILLIC, tampering, "ru", russian
        if ukrainian != russian:
            if russian:
                return _today_form(form, old_spelling), _CYRILLIC, tampering, "ru", True
            # Ukrainian; a word whose only mark is і is Russian in a text of the old spelling
            return form, _CYRILLIC, tampering, "uk", not i_only
        if mode == "uk":
            return form, _CYRILLIC, tampering, "uk", False
        return _today_form(form, mode == "ru-old"), _CYRILLIC, tampering, "ru", False
    if latin and not cyrillic:
        return form, _LATIN, tampering, "en", True
    return form, _OTHER, tampering, "", True


_table = _Table()

#: Raw forms a read-only process (an indexing worker) keeps in its table between documents.
TRIMMED_TABLE_FORMS = 1 << 16


def trim_table(max_forms: int = TRIMMED_TABLE_FORMS) -> None:
    """In a process that reads the machine-wide table and never writes it
    (:func:`sverka.core.formcache.read_only_in_this_process`: an indexing worker, which hands
    its analyses to the adding process), start a new table of raw forms once this one holds
    more than ``max_forms``: the file answers what it forgets and held when the worker read it
    (a few microseconds a form; the rest is analysed again), and two workers canonizing a whole
    collection do not each keep every form they met beside the file's bytes. Canonizations
    under way keep the table they started with."""
    global _table
    if formcache.read_only() and _table.size > max_forms:
        _table = _Table()


_UK_MARKS = "іїєґІЇЄҐ"
_RU_MARKS = "ыэъёЫЭЪЁ"
#: A hard sign ending a word (after a letter, before none): the old spelling's "домъ".
_final_hard_sign = re.compile(r"[ъЪ](?<=[^\W\d_][ъЪ])(?![^\W\d_])")


def _reading_mode(text: str) -> str:
    """How to read the Cyrillic words of ``text`` that could be either language (:func:`_reading`)."""
    return _reading(text)[0]


def _reading(text: str, marks: tuple[np.ndarray, np.ndarray] | None = None,
             counts: list[int] | None = None) -> tuple[str, bool]:
    """(How to read Cyrillic words that could be either language, whether the text holds
    marks of both languages). How: "uk" when Ukrainian-only
    letters (і ї є ґ) outnumber Russian-only ones (ы э ъ ё); "ru-old" for Russian in the
    spelling before 1918 (at least 5 of ѣ or a word-final ъ, and one per 200 characters: such a
    text has one every 20-30 characters, a text of today quoting an old title a few), where і
    is Russian; else "ru". ``marks``, ``counts``: those of :data:`_COUNTED` in the text
    (:func:`sverka.core.scan.read`), when already found."""
    if marks is None or counts is None:
        found = scan.read(text, _rules(), False)
        marks, counts = (found.uk_at, found.ru_at), found.counts
    uk_at, ru_at = marks
    uk, ru = len(uk_at), len(ru_at)
    if uk and uk > ru:
        return "uk", ru > 0
    need = max(5, len(text) // 200)
    old, hard, hard_capital = counts  # (a capital Ѣ is rare: an old text has ѣ and final ъ in plenty)
    if old < need <= old + hard + hard_capital:  # enough hard signs to look at
        old += sum(1 for _ in itertools.islice(_final_hard_sign.finditer(text), need - old))
    return ("ru-old", False) if old >= need else ("ru", uk > 0 and ru > 0)


#: Letters counted by the engine for :func:`_reading`: ѣ, ъ, Ъ.
_COUNTED = "ѣъЪ"
#: The Cyrillic letters a Latin i standing for і is written beside (а-я without ё, ґ є і ї).
_BESIDE_I = "".join(map(chr, range(0x430, 0x450))) + "ґєіїАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯҐЄІЇ"


@functools.cache
def _rules():
    """The engine's rules of sentence boundaries and marks (:func:`sverka.core.scan.text_rules`)."""
    return scan.text_rules(ABBREVIATIONS, _UK_MARKS, _RU_MARKS, "iIïÏ", _BESIDE_I, _COUNTED)


def _marks(text: str) -> tuple[np.ndarray, np.ndarray]:
    """(positions of the marks of Ukrainian: і ї є ґ and a Latin i written before or after one
    of а-я ґ є і ї, either case; positions of the marks of Russian: ы э ъ ё), both
    cases, each sorted (by the engine, with the sentences: :func:`sverka.core.scan.read`)."""
    found = scan.read(text, _rules(), False)
    return found.uk_at, found.ru_at


def _by_sentence(text: str, mode: str, starts: np.ndarray, ends: np.ndarray, ids: np.ndarray,
                 sentence_of_word: np.ndarray, spans: np.ndarray, table: "_Table",
                 marks: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """``ids`` with the words of each sentence that has at least two marks of the other
    language than ``mode`` (``marks``: :func:`_marks` of the text), and more of them than of
    ``mode``'s, read in that language."""
    other = "ru" if mode == "uk" else "uk"
    uk_at, ru_at = marks
    first = spans[:, 0]

    def per_sentence(at: np.ndarray) -> np.ndarray:
        k = np.maximum(np.searchsorted(first, at, "right") - 1, 0)
        return np.bincount(k, minlength=len(first))

    uk, ru = per_sentence(uk_at), per_sentence(ru_at)
    flip = (uk + ru >= 2) & ((uk > ru) if other == "uk" else (ru > uk))
    if not flip.any():
        return ids
    w = np.flatnonzero(flip[sentence_of_word])
    ids = ids.copy()
    ids[w] = table.lookup([text[a:b] for a, b in zip(starts[w].tolist(), ends[w].tolist())], other)
    return ids


def canonize(text: str, *, drop_stop_words: bool = True, drop_adjectives: bool = False) -> Tokens:
    """Canonical tokens of ``text`` (see the module docstring for the contract)."""
    read = scan.read(text, _rules(), len(text) >= _SCAN_FROM)
    marks = (read.uk_at, read.ru_at)
    mode, mixed = _reading(text, marks, read.counts)
    table = _table
    if not table.loaded:
        table.load()
    found = read.words
    if found is not None:  # an ordinary text: its words found by the engine, looked up by hash
        all_starts, all_ends, hashes = found
        ids = table.hashed(mode, hashes)
        missing = np.flatnonzero(ids < 0)
        if len(missing):
            ids[missing] = table.words_at(text, all_starts[missing], all_ends[missing], hashes[missing], mode)
    else:
        all_starts, all_ends, ids = _words(text, _split_words, mode, table)
        if (table.columns(ids)[2] & _NUMERIC).any():  # "x²", "Ⅻвек": split without the numbers
            all_starts, all_ends, ids = _words(text, _split_words_exactly, mode, table)
    n = len(ids)
    sentence_of_word, sentence_spans = scan.sentences(read.piece_starts, read.piece_ends, all_starts)
    if mixed and len(sentence_spans) > 1:  # Russian and Ukrainian: each sentence by its own marks
        ids = _by_sentence(text, mode, all_starts, all_ends, ids, sentence_of_word, sentence_spans, table,
                           marks)

    drop = (_STOP if drop_stop_words else 0) | (_ADJECTIVE if drop_adjectives else 0)
    starts, ends, sentence_ids, lemmas, hashes, word_hashes, scripts, tampered_at = table.entries.tokens(
        i64(ids), i64(all_starts), i64(all_ends), sentence_of_word, drop, _TAMPERED)
    tampering = (0, 0, 0, 0, 0, 0)
    if len(tampered_at):
        counts = table.tampering
        tampering = tuple(map(sum, zip(*(counts[i] for i in ids[tampered_at].tolist()))))
    language = _language(np.array(scripts), mode)
    return Tokens(
        text=text,
        starts=starts,
        ends=ends,
        lemmas=lemmas,
        hashes=hashes,
        word_hashes=word_hashes,
        sentence_ids=sentence_ids,
        sentence_spans=sentence_spans,
        word_count=n,
        language=language,
        lookalike_letters=tampering[0] + tampering[1] + tampering[4] + tampering[5],
        invisible_chars=tampering[2],
        hyphen_joins=tampering[3],
        warnings=_warnings(tampering, language) + ((message("warning.no_words"),) if n == 0 and text.strip() else ()),
        word_starts=all_starts,
    )


@functools.lru_cache(maxsize=16)
def word_starts(text: str) -> np.ndarray:
    """Start offsets of every word of ``text`` (stop words included), sorted; read-only.

    The words of :func:`canonize` (``Tokens.word_count`` of them), found without looking any
    word up: what passages and shares are measured in ("a passage of 8 words", "12 % of the
    words are borrowed"), never whitespace or punctuation. Cached per text.
    """
    found = scan.bounds(text) if len(text) >= _SCAN_FROM else None
    out = np.ascontiguousarray(_word_ends_of_parts(text)[0:-1:2] if found is None else found[0])
    out.flags.writeable = False
    return out


#: Texts at least this long are first offered to :mod:`sverka.core.scan` (numpy's fixed costs
#: are those of the regular expression on ~300 characters).
_SCAN_FROM = 1000


def _word_ends_of_parts(text: str) -> np.ndarray:
    """Ends of the pieces (separator, word, separator, ..., word, separator) of ``text``."""
    parts = _split_words(text)
    if len(parts) > 1 and _number.search(text) and any(_number.search(w) for w in parts[1::2]):
        parts = _split_words_exactly(text)
    return np.cumsum(np.fromiter(map(len, parts), np.int64, len(parts)))


def words_within(text: str, ranges) -> int:
    """How many words of ``text`` (as :func:`word_starts` finds them) lie in the disjoint
    ``[start, end)`` ``ranges``, each range starting at a word's start (as a passage's pieces
    do); reads only the ranges, not the whole text (a source met by a check may be a novel)."""
    return sum(len(_word_ends_of_parts(text[s:e])) // 2 for s, e in ranges)


def words_in(starts: np.ndarray, intervals) -> int:
    """How many of the word ``starts`` lie in the disjoint ``[start, end)`` ``intervals``."""
    total = 0
    find = np.asarray(starts).searchsorted  # the method: np.searchsorted's dispatch costs more than the search
    for s, e in intervals:
        total += int(find(e, "left") - find(s, "left"))
    return total


def _words(text: str, split, mode: str, table: _Table) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(starts, ends, ids in ``table``) of every word of ``text``."""
    parts = split(text)  # [separator, word, separator, ..., word, separator]
    words = parts[1::2]
    ends_of_parts = np.cumsum(np.fromiter(map(len, parts), np.int64, len(parts)))
    return ends_of_parts[0:-1:2], ends_of_parts[1::2], table.lookup(words, mode)


def _language(scripts: np.ndarray, mode: str) -> str:
    """"ru"/"uk" (Cyrillic words, read by ``mode``), "en" (Latin), "mixed" (both scripts
    with at least 15 % each), "unknown" (no words, or mostly other scripts)."""
    other, cyrillic, latin = (int(x) for x in scripts[:3])
    ours = cyrillic + latin
    if ours == 0 or other > ours:
        return "unknown"
    if latin < 0.15 * ours:
        return "uk" if mode == "uk" else "ru"
    if cyrillic < 0.15 * ours:
        return "en"
    return "mixed"


def _warnings(tampering: tuple[int, ...], language: str) -> tuple[Message, ...]:
    to_cyrillic, to_latin, invisible, _joins, other_to_cyrillic, other_to_latin = tampering  # joins: typography
    out = []
    if to_cyrillic:
        out.append(message("warning.lookalike_latin", n=to_cyrillic,
                           language=language if language in ("ru", "uk") else "cyrillic"))
    if to_latin:
        out.append(message("warning.lookalike_cyrillic", n=to_latin))
    if other_to_cyrillic:
        out.append(_other_script_lookalike_warning(other_to_cyrillic, language))
    if other_to_latin:
        out.append(_other_script_lookalike_warning(other_to_latin, "latin"))
    if invisible:
        out.append(message("warning.invisible_chars", n=invisible))
    return tuple(out)


def _other_script_lookalike_warning(n: int, language: str) -> Message:
    """The warning for letters of other scripts (Greek, Armenian, Cherokee, ...) folded to
    Cyrillic inside words of ``language`` (or to Latin: ``language`` "latin")."""
    if language == "latin":
        return message("warning.lookalike_other_latin", n=n)
    return message("warning.lookalike_other_cyrillic", n=n,
                   language=language if language in ("ru", "uk") else "cyrillic")


# --- sentences ---------------------------------------------------------------------------------

#: Words whose full stop does not end a sentence (without the stop; any case). Every one-letter
#: word is one too: initials ("А. С. Пушкин") and pieces of "т. е.", "т.д.", "e.g.", except the
#: pronoun "я" in lower case, which ends sentences ("– сказал я. Потом..."): two sentences
#: read as one would let a passage run over a sentence of the student's own. The rest of the
#: rule (module docstring) is the engine's (``engine/core/src/split.rs``).
ABBREVIATIONS = (
    "гг вв см ср стр им ул пр просп обл тыс млн млрд руб коп проф акад доц рис табл гл англ лат "
    "напр изд др мр ок св тов гр нач зам пер "
    "mr mrs ms dr prof st vs cf fig no jr sr inc ltd co al eg ie approx dept vol pp ed eds "
    "gen col lt sgt capt rev hon"
).split()


def _sentences(text: str, word_starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(sentence index of every word, [start, end) of every sentence that has a word).

    Sentences are the pieces between cuts; a cut is the whitespace after a sentence's last
    character up to the next sentence's first one, so spans have no space at either end."""
    found = scan.read(text, _rules(), False)
    return scan.sentences(found.piece_starts, found.piece_ends, word_starts)
