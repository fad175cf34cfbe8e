"""The table of every dictionary form (sverka.core.formdict): what it gives is what the
dictionaries give, form by form, lemmas and labels unchanged."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from sverka.core import formcache, formdict, morph
from sverka.core import text as tx

RUSLIT = Path(__file__).resolve().parents[3] / "shared" / "data" / "ruslit"

_RU = """Ещё вчера ёлки стояли у дома; стали говорить, что сталь дорожает. Её мужья и жёны
пели песни, а мы шли по лесу: берёзы, осины, клёны. Он писал письма, она их читала. Красивые
кони бежали быстрее ветра, и всё, что было, прошло. Люди, стекло, мою, печь, три, дни, душ,
белка, косой, лечу, вожу, мыла, стих, пила, течь, горю, рои, жаркое, самовары, бузотёры.
Добраго разсказъ чорт шопот итти оне хорошо безпокойство новыя"""
_UK = "Вона пішла до школи, де їй розповіли про історію України; діти співали пісні й гралися ґанок."


def _forms(text: str) -> list[str]:
    return sorted({w.lower().replace("ё", "е") for w in re.findall(r"[^\W\d_]+", text)})


def _ruslit_forms(limit: int) -> list[str]:
    files = sorted(RUSLIT.rglob("*.txt"))[:4] if RUSLIT.is_dir() else []
    out = set()
    for f in files:
        out.update(_forms(f.read_text(encoding="utf-8", errors="replace")[:80_000]))
    return sorted(out)[:limit]


def _analyses(forms, lang):
    morph._cache.clear()
    return {f: (a.lemma, a.lemma_hash, a.word_hash, a.is_stop, a.is_adjective)
            for f in forms for a in [morph.analyze(f, lang)]}


@pytest.fixture(autouse=True)
def forgotten_table():
    """Each test's table is forgotten after it (the process keeps the one it opened)."""
    formdict.table().reset()
    yield
    formdict.table().reset()
    tx._table = tx._Table()
    morph._cache.clear()


def test_a_table_gives_what_the_dictionaries_give(empty_form_cache, monkeypatch):
    """A table made of some forms (by the same analysis, on two processes) answers each of them
    as the dictionaries do: lemma, lemma hash, word hash (ambiguous forms too), stop word,
    adjective; a form it lacks goes to the dictionaries as before."""
    ru = _forms(_RU) + _ruslit_forms(3000)
    uk = _forms(_UK)
    monkeypatch.setenv("SVERKA_DICTIONARY_TABLE", "0")
    formdict.table().reset()
    want_ru, want_uk = _analyses(ru, "ru"), _analyses(uk, "uk")
    lacking = ["неттакогословаа", "пушкинъ", "мамочкиных"]
    want_lacking = _analyses(lacking, "ru")
    formcache.reset()  # what the analyses above recorded is not written: the table alone answers
    monkeypatch.setenv("SVERKA_DICTIONARY_TABLE", "1")
    where = morph.build_dictionary_table(processes=2, forms={"ru": ru, "uk": uk})
    assert (where / "ru.forms").exists() and formdict.table().has("ru") and formdict.table().has("uk")
    assert sum(1 for v in want_ru.values() if v[1] != v[2]) > 3, "ambiguous forms among them"
    assert any(v[3] for v in want_ru.values()) and any(v[4] for v in want_ru.values())
    for form, want in want_ru.items():
        assert formdict.table().lookup(form, "ru") == want, form
    for form, want in want_uk.items():
        assert formdict.table().lookup(form, "uk") == want, form
    assert _analyses(ru, "ru") == want_ru
    for form in lacking:
        assert formdict.table().lookup(form, "ru") is None
    assert _analyses(lacking, "ru") == want_lacking


def test_canonize_is_the_same_with_the_table(empty_form_cache, monkeypatch):
    """Tokens of texts (lemmas, hashes, word hashes, stop words kept or not) are the same with
    and without a table of their forms, the old spelling's forms included."""
    texts = [_RU, _UK]
    if RUSLIT.is_dir():
        texts += [f.read_text(encoding="utf-8", errors="replace")[:30_000] for f in sorted(RUSLIT.rglob("*.txt"))[5:8]]

    def tokens():
        tx._table = tx._Table()
        morph._cache.clear()
        formcache.reset()
        out = []
        for t in texts:
            for drop in (True, False):
                k = tx.canonize(t, drop_stop_words=drop, drop_adjectives=drop)
                out.append((k.lemmas, k.hashes.tolist(), k.word_hashes.tolist(), k.starts.tolist(), k.language))
        return out

    monkeypatch.setenv("SVERKA_FORM_CACHE", "0")
    monkeypatch.setenv("SVERKA_DICTIONARY_TABLE", "0")
    formdict.table().reset()
    asked = set()  # the forms the old spelling's rules ask the dictionary about: the whole table holds them
    is_known = morph.is_known
    monkeypatch.setattr(morph, "is_known", lambda form, lang: asked.add(form) or is_known(form, lang))
    want = tokens()
    monkeypatch.setattr(morph, "is_known", is_known)
    analyzer = morph._analyzer("ru")
    ru = {f for f in asked if analyzer.word_is_known(f)}
    assert {"доброго", "рассказ", "черт", "шепот", "беспокойство", "новые"} <= ru
    for t in texts:
        ru.update(f for f in _forms(t) if re.fullmatch("[а-я]+", f) and analyzer.word_is_known(f))
    monkeypatch.setenv("SVERKA_DICTIONARY_TABLE", "1")
    monkeypatch.delenv("SVERKA_FORM_CACHE")
    morph.build_dictionary_table(("ru",), processes=1, forms={"ru": sorted(ru)})
    assert formdict.table().has("ru")
    monkeypatch.setenv("SVERKA_FORM_CACHE", "0")  # the table of dictionary forms stays on
    monkeypatch.setenv("SVERKA_DICTIONARY_TABLE", "1")
    assert tokens() == want
    tx._table = tx._Table()


@pytest.mark.slow
def test_the_whole_russian_table_is_the_dictionary(empty_form_cache):
    """The whole Russian table (every form, ~1 min on two cores): ruslit's words, random
    dictionary forms and random strings are analysed as pymorphy3's dictionary analyses them,
    and a form is known to the table exactly when pymorphy3 knows it."""
    where = morph.build_dictionary_table(("ru",))
    assert (where / "COMPLETE").exists()
    rng = random.Random(37)
    forms = _ruslit_forms(20_000) + _forms(_RU)
    part = formdict.table()._open()["ru"]
    forms += [part.forms.restore_key(rng.randrange(len(part.forms))) for _ in range(20_000)]
    letters = "абвгдежзийклмнопрстуфхцчшщъыьэюя"
    strings = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 7))) for _ in range(20_000)]
    strings += [f[:-1] for f in forms[:5000]] + [f + "а" for f in forms[:5000]]
    analyzer = morph._analyzer("ru")
    for form in forms + strings:
        assert morph.is_known(form, "ru") == bool(analyzer.word_is_known(form)), form
        got = formdict.table().lookup(form, "ru")
        if got is not None:
            a = morph._analyze(form, "ru")
            assert got == (a.lemma, a.lemma_hash, a.word_hash, a.is_stop, a.is_adjective), form
        else:
            assert morph._dictionary_parses(analyzer, form) is None, form


def test_a_table_written_twice_is_kept_whole(empty_form_cache):
    """Two processes making the table at once: the second finds the first's and keeps it."""
    forms = {"ru": ["дом", "дома", "стали"]}
    first = morph.build_dictionary_table(("ru",), processes=1, forms=forms)
    again = morph.build_dictionary_table(("ru",), processes=1, forms=forms)
    assert first == again and (first / "COMPLETE").exists()
    assert formdict.table().lookup("стали", "ru") == _analyses(["стали"], "ru")["стали"]
    assert [p.name for p in first.parent.iterdir() if p.name.startswith("dictionary-")] == [first.name]


def test_a_bundle_reads_the_table_it_carries(empty_form_cache, monkeypatch, tmp_path):
    """A bundle carries the table its build made (sverka-dictionary/ in the bundle's folder): a
    machine whose cache folder holds none reads that one; the machine's own, when whole, is
    read first; ``SVERKA_DICTIONARY_TABLE=require`` makes a missing table an error."""
    monkeypatch.setenv("SVERKA_DICTIONARY_TABLE", "1")
    monkeypatch.delattr("sys._MEIPASS", raising=False)
    assert formdict.shipped_folder() is None
    bundle = tmp_path / "bundle"
    monkeypatch.setattr("sys._MEIPASS", str(bundle), raising=False)
    shipped = formdict.shipped_folder()
    assert shipped == bundle / formdict.SHIPPED / formdict.folder().name
    monkeypatch.setenv("SVERKA_DICTIONARY_TABLE", "require")
    formdict.table().reset()
    with pytest.raises(RuntimeError, match="no table of dictionary forms for ru, uk"):
        formdict.table().has("ru")
    monkeypatch.setenv("SVERKA_DICTIONARY_TABLE", "1")
    formdict.table().reset()
    assert not formdict.table().has("ru")
    forms = {"ru": ["дома", "стали", "сталь"], "uk": ["пішла", "школи"]}
    want = {lang: _analyses(f, lang) for lang, f in forms.items()}
    formcache.reset()
    morph.build_dictionary_table(processes=1, forms=forms)  # written where a build writes it: the cache
    formdict.folder().rename(shipped.parent.mkdir(parents=True) or shipped)  # ... and moved into the bundle
    formdict.table().reset()
    monkeypatch.setenv("SVERKA_DICTIONARY_TABLE", "require")
    for lang, f in forms.items():
        for form in f:
            assert formdict.table().lookup(form, lang) == want[lang][form], form
    assert formdict.table().lookup("пушкинъ", "ru") is None
    # the machine's own table, once built, is the one read
    morph.build_dictionary_table(("ru", "uk"), processes=1, forms={"ru": ["дома"], "uk": ["пішла"]})
    assert formdict.table().has("ru") and formdict.table().lookup("стали", "ru") is None
    assert formdict.table().lookup("дома", "ru") == want["ru"]["дома"]
