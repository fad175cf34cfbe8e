"""The table of every form of the Russian and Ukrainian dictionaries, analysed once per machine.

pymorphy3 answers a form it holds in 25-40 us of Python (its DAWG walked in Python, normal
forms built, tags ordered by its probability estimate); a text new to the machine holds tens of
thousands of forms. This table holds :func:`sverka.core.morph.analyze`'s answer for every form
the dictionaries can give one without their predictor, made by that very function
(:func:`sverka.core.morph.build_dictionary_table`), so a lookup gives exactly what the analysis
gives, in a few microseconds. What is left to the dictionaries: words they do not hold (names,
misprints, rare and old words: pymorphy3's predictor), English (simplemma), and a form's every
lemma for a label (:func:`sverka.core.morph.lemmas_of`).

* One folder per dictionary version beside the machine's form table
  (:func:`sverka.core.formcache.cache_dir`): ``dictionary-<key>`` with the key of
  :func:`sverka.core.formcache.version_key` (pymorphy3's and its dictionaries' versions, the
  stop-word lists, the rules): another version is another folder, never a stale answer.
* Per language: ``<lang>.forms`` (a MARISA trie of the normalised forms: ё as е, lower case;
  each form's id is its place in the trie), ``<lang>.lemmas`` (a trie of the lemmas), and
  ``<lang>.npz``-like arrays saved as ``.npy``: ``lemma`` (u4, the lemma's id of each form),
  ``flags`` (u1: 1 a stop word, 2 an adjective, 4 a word hash that is not its lemma's),
  ``lemma_hash`` (u8 per lemma: ``hash_text``), ``wh_forms``/``wh`` (the forms whose word
  hash is not their lemma's, sorted, and their word hashes). Russian ~9 MB of trie for 3.06 M
  forms; both languages 59 MB. Tries and arrays are mapped, not read: a process pays for the
  pages its lookups touch (the kernel maps 64 KB around each fault: a text of new forms makes
  the whole Russian part resident), and gives them back once a canonization that looked forms
  up is done, and an indexing worker after each file (:meth:`DictionaryTable.release`).
* Written into a temporary folder renamed into place at the end (``COMPLETE`` last): a
  reader sees a whole table or none. Without one every form goes to the dictionaries, as before.
* The bundle carries the table its build made (``installer/sverka.spec``: ``sverka-dictionary/``
  in the bundle's folder, :func:`shipped_folder`), so a teacher's computer never spends the
  minutes of building it; the machine's own folder, when whole, is read first.
* ``SVERKA_DICTIONARY_TABLE``: ``0``/``off``/``no`` reads no table (every form to the
  dictionaries); ``require`` makes a missing table an error (the bundle's smoke test).
"""

from __future__ import annotations

import bisect
import mmap
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

import numpy as np

from . import formcache

__all__ = ["LANGUAGES", "DictionaryTable", "STOP", "ADJECTIVE", "OTHER_WH", "SHIPPED", "folder", "shipped_folder",
           "table", "write"]

#: The languages whose dictionaries the table holds.
LANGUAGES = ("ru", "uk")
STOP, ADJECTIVE, OTHER_WH = 1, 2, 4
_DONE = "COMPLETE"
#: The folder of a bundle that holds the table built with it (``installer/sverka.spec``).
SHIPPED = "sverka-dictionary"


def folder() -> Path:
    """Where this machine's table of this dictionary version lives (it may not exist yet)."""
    return formcache.cache_dir() / f"dictionary-{formcache.version_key()[:16].decode()}"


def shipped_folder() -> Path | None:
    """The table of this dictionary version a bundle carries (it may not exist), or None when
    Sverka does not run from a bundle (PyInstaller sets ``sys._MEIPASS`` to the bundle's folder)."""
    base = getattr(sys, "_MEIPASS", None)
    return None if base is None else Path(base) / SHIPPED / folder().name


def _setting() -> str:
    return os.environ.get("SVERKA_DICTIONARY_TABLE", "1").strip().lower()


def enabled() -> bool:
    return _setting() not in ("0", "off", "no")


def _whole(where: Path | None, lang: str) -> bool:
    return where is not None and (where / _DONE).exists() and (where / f"{lang}.forms").exists()


class _Language:
    """One language's part of the table, mapped."""

    def __init__(self, where: Path, lang: str) -> None:
        import marisa_trie

        self.maps: list[mmap.mmap] = []  # every mapping, to give its pages back (release)
        self.forms = marisa_trie.Trie()
        self.forms.map(self._map(where / f"{lang}.forms"))
        self.lemmas = marisa_trie.Trie()
        self.lemmas.map(self._map(where / f"{lang}.lemmas"))

        def array(name: str) -> np.ndarray:
            file = where / f"{lang}.{name}.npy"
            with open(file, "rb") as f:
                major, _minor = np.lib.format.read_magic(f)
                read = np.lib.format.read_array_header_1_0 if major == 1 else np.lib.format.read_array_header_2_0
                shape, fortran, dtype = read(f)
                at = f.tell()
            if fortran or len(shape) != 1:
                raise ValueError(f"{file}: not a flat array")
            return np.frombuffer(self._map(file), dtype, shape[0], at)

        self.lemma_of, self.flags, self.lemma_hash = array("lemma"), array("flags"), array("lemma_hash")
        self.wh_forms, self.wh = array("wh_forms"), array("wh")
        if not (len(self.lemma_of) == len(self.flags) == len(self.forms)
                and len(self.lemma_hash) == len(self.lemmas) and len(self.wh_forms) == len(self.wh)):
            raise ValueError(f"{where}: the {lang} arrays do not match its tries")
        # indexed one form at a time: a memoryview gives Python ints ~10x faster than numpy's scalars
        self.lemma_at, self.flags_at, self.lemma_hash_at, self.wh_forms_at, self.wh_at = (
            memoryview(a) for a in (self.lemma_of, self.flags, self.lemma_hash, self.wh_forms, self.wh))
        self.names: dict[int, str] = {}  # lemma ids restored lately (a text repeats its lemmas)

    def _map(self, file: Path) -> mmap.mmap:
        with open(file, "rb") as f:
            m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        self.maps.append(m)
        return m

    def release(self) -> None:
        """Give back the pages the lookups touched (they stay in the system's file cache: the
        next lookup maps them again at the cost of a page fault)."""
        self.names.clear()
        if hasattr(mmap, "MADV_DONTNEED"):
            for m in self.maps:
                m.madvise(mmap.MADV_DONTNEED)

    def get(self, form: str):
        """(lemma, lemma hash, word hash, is stop, is adjective) of ``form``, or None."""
        try:
            k = self.forms.key_id(form)
        except KeyError:
            return None
        lemma_id = self.lemma_at[k]
        lemma = self.names.get(lemma_id)
        if lemma is None:
            if len(self.names) >= 20_000:
                self.names.clear()
            lemma = self.names[lemma_id] = self.lemmas.restore_key(lemma_id)
        f = self.flags_at[k]
        lh = self.lemma_hash_at[lemma_id]
        wh = lh
        if f & OTHER_WH:
            wh = self.wh_at[bisect.bisect_left(self.wh_forms_at, k)]  # (numpy's search cast the array per call)
        return lemma, lh, wh, bool(f & STOP), bool(f & ADJECTIVE)


class DictionaryTable:
    """The table as this process sees it: opened on the first lookup, None parts when absent."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._langs: dict[str, _Language | None] | None = None

    def _open(self) -> dict:
        langs = self._langs
        if langs is not None:
            return langs
        with self._lock:
            if self._langs is None:
                found: dict[str, _Language | None] = {}
                places = [folder(), shipped_folder()] if enabled() else []
                for lang in LANGUAGES:
                    found[lang] = None
                    for where in places:
                        try:
                            if _whole(where, lang):
                                found[lang] = _Language(where, lang)
                                break
                        except (OSError, ValueError, ImportError, RuntimeError):  # RuntimeError: marisa's  # damaged or half a table: the next place, or the dictionaries
                            continue
                if _setting() == "require" and not all(found.values()):
                    missing = ", ".join(lang for lang, part in found.items() if part is None)
                    raise RuntimeError(f"no table of dictionary forms for {missing} in "
                                       f"{', '.join(str(p) for p in places if p is not None)}")
                self._langs = found
            return self._langs

    def has(self, lang: str) -> bool:
        return self._open().get(lang) is not None

    def lookup(self, form: str, lang: str):
        """(lemma, lemma hash, word hash, is stop, is adjective) of the normalised ``form`` in
        ``lang``, as :func:`sverka.core.morph.analyze` gives it, or None when the table does
        not hold it (or there is no table)."""
        part = self._open().get(lang)
        return None if part is None else part.get(form)

    def holds(self, form: str, lang: str) -> bool | None:
        """Whether the table holds ``form`` (None without a table of ``lang``)."""
        part = self._open().get(lang)
        return None if part is None else form in part.forms

    def release(self) -> None:
        """Give back the memory of the pages this process's lookups touched (an indexing worker,
        between files: the tables' pages it touched, up to ~50 MB for a collection, are counted
        in its resident size; they stay in the system's file cache)."""
        for part in (self._langs or {}).values():
            if part is not None:
                part.release()

    def reset(self) -> None:
        with self._lock:
            self._langs = None


_table = DictionaryTable()


def table() -> DictionaryTable:
    """This process's :class:`DictionaryTable`."""
    return _table


def write(parts: dict, where: Path | None = None) -> Path:
    """Write the table: ``parts[lang]`` = (forms, lemmas, lemma hashes, word hashes, flags)
    with one lemma, lemma hash, word hash and flags (:data:`STOP`, :data:`ADJECTIVE`) per form.
    Returns the folder."""
    import marisa_trie

    where = where or folder()
    where.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=where.name + "-", suffix=".tmp", dir=where.parent))
    try:
        for lang, (forms, lemmas, lemma_hash, word_hash, flags) in parts.items():
            trie = marisa_trie.Trie(forms)
            trie.save(str(tmp / f"{lang}.forms"))
            names = marisa_trie.Trie(set(lemmas))
            names.save(str(tmp / f"{lang}.lemmas"))
            order = np.fromiter(map(trie.key_id, forms), np.int64, len(forms))  # form k's id in the trie
            lemma_ids = np.fromiter(map(names.key_id, lemmas), np.int64, len(lemmas))
            lemma_hash = np.asarray(lemma_hash, np.uint64)
            word_hash = np.asarray(word_hash, np.uint64)
            by_lemma = np.zeros(len(names), np.uint64)
            by_lemma[lemma_ids] = lemma_hash
            lemma_of = np.zeros(len(trie), np.uint32)
            lemma_of[order] = lemma_ids
            other = word_hash != lemma_hash
            f = np.zeros(len(trie), np.uint8)
            f[order] = np.asarray(flags, np.uint8) | np.where(other, OTHER_WH, 0).astype(np.uint8)
            wh_forms = order[other]
            sort = np.argsort(wh_forms)
            for name, a in (("lemma", lemma_of), ("flags", f), ("lemma_hash", by_lemma),
                            ("wh_forms", wh_forms[sort].astype(np.uint32)), ("wh", word_hash[other][sort])):
                np.save(tmp / f"{lang}.{name}.npy", a, allow_pickle=False)
        (tmp / _DONE).write_text("\n".join(sorted(parts)) + "\n", encoding="utf-8")
        if where.exists() and not (where / _DONE).exists():  # half a table left by a killed writer
            shutil.rmtree(where, ignore_errors=True)
        try:
            os.rename(tmp, where)
        except OSError:
            if not (where / _DONE).exists():
                raise
            shutil.rmtree(tmp, ignore_errors=True)  # another process wrote the same table meanwhile
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    for old in where.parent.glob("dictionary-*"):  # other dictionary versions
        if old != where and not old.name.endswith(".tmp"):
            shutil.rmtree(old, ignore_errors=True)
    _table.reset()
    return where
