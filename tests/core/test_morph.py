"""Lemmas, every possible lemma and stop words of one normalised form (sverka.core.morph)."""

from __future__ import annotations

import pytest

from sverka.core import morph
from sverka.core.hashing import hash_text


def test_warm_up_loads_every_language():
    morph.warm_up()
    for lang in morph.LANGUAGES:
        assert morph.stop_words(lang)


@pytest.mark.parametrize(
    ("form", "lang", "lemma"),
    [
        ("студенты", "ru", "студент"),
        ("написали", "ru", "написать"),
        ("ежа", "ru", "еж"),  # the dictionary says ёж; ё is read as е
        ("студенти", "uk", "студент"),
        ("wrote", "en", "write"),
        ("essays", "en", "essay"),
        ("日本", "", "日本"),
    ],
)
def test_lemma(form, lang, lemma):
    found = morph.analyze(form, lang)
    assert found.lemma == lemma
    assert found.lemma_hash == hash_text(lemma)


def test_word_hash_of_an_ambiguous_form_sums_its_lemmas():
    assert morph.analyze("стали", "ru").word_hash == (hash_text("стать") + hash_text("сталь")) % 2**64


def test_word_hash_of_an_unknown_form_is_its_lemma():
    found = morph.analyze("зюзюкать", "ru")
    assert found.word_hash == found.lemma_hash


@pytest.mark.parametrize("lang", morph.LANGUAGES)
def test_stop_word_lists_are_clean(lang):
    words = morph.stop_words(lang)
    assert len(words) > 200
    assert all(w == w.lower() and w.isalpha() and "ё" not in w for w in words)


def test_seed_003_stop_words_are_listed():
    seed = "это как так в на над к ко до за то с со для о ну же ж что он она б бы ли и у"
    assert set(seed.split()) <= morph.stop_words("ru")


def test_stop_word_by_form_or_lemma():
    assert morph.analyze("ему", "ru").is_stop  # lemma он
    assert morph.analyze("was", "en").is_stop  # lemma be
    assert morph.analyze("її", "uk").is_stop
    assert not morph.analyze("книга", "ru").is_stop
    assert morph.analyze("x", "en").is_stop  # every one-letter word


def test_adjectives():
    assert morph.analyze("красивая", "ru").is_adjective
    assert morph.analyze("красив", "ru").is_adjective  # short form
    assert not morph.analyze("книга", "ru").is_adjective
    assert not morph.analyze("beautiful", "en").is_adjective  # no English tagger offline


def test_cache_returns_the_same_object():
    assert morph.analyze("работы", "ru") is morph.analyze("работы", "ru")


def _by_parse(form: str, lang: str):
    """What morph computed with pymorphy3's ``parse`` alone (before its dictionary path)."""
    analyzer = morph._analyzer(lang)
    parses = analyzer.parse(form)
    lemma = parses[0].normal_form.replace("ё", "е") or form
    if analyzer.word_is_known(form):
        lemmas = tuple(p.normal_form.replace("ё", "е") for p in parses)
    else:
        lemmas = (lemma,)
    return lemma, lemmas, parses[0].tag.POS in morph._ADJECTIVE_POS


_RU = """Ещё вчера ёлки стояли у дома; стали говорить, что сталь дорожает. Её мужья и жёны
пели песни, а мы шли по лесу: берёзы, осины, клёны. Он писал письма, она их читала. Красивые
кони бежали быстрее ветра, и всё, что было, прошло. Люди, стекло, мою, печь, три, дни, душ,
белка, косой, лечу, вожу, мыла, стих, пила, течь, горю, рои, жаркое, самовары, бузотёры."""
_UK = "Вона пішла до школи, де їй розповіли про історію України; діти співали пісні й гралися."


def test_dictionary_path_equals_parse():
    """morph reads dictionary words without pymorphy3's parse objects: the lemmas, their order,
    the best parse's part of speech must be what ``parse`` says, for every form of the texts
    (and of a slice of ruslit when present)."""
    import re
    from pathlib import Path

    texts = [("ru", _RU), ("uk", _UK)]
    ruslit = Path(__file__).resolve().parents[3] / "shared" / "data" / "ruslit" / "prose"
    files = sorted(ruslit.rglob("*.txt"))[:3] if ruslit.is_dir() else []
    texts += [("ru", f.read_text(encoding="utf-8", errors="replace")[:60_000]) for f in files]
    checked = known = 0
    for lang, text in texts:
        for form in sorted({w.lower().replace("ё", "е") for w in re.findall(r"[^\W\d_]+", text)}):
            if not re.fullmatch(r"[а-яіїєґ']+", form):
                continue
            assert morph._lemmas(form, lang) == _by_parse(form, lang), form
            checked += 1
            known += morph._dictionary_parses(morph._analyzer(lang), form) is not None
    # the hand-written texts alone hold ~70 forms; three ruslit files, thousands
    assert checked > (1000 if files else 50) and known > 0.8 * checked


def test_english_trie_gives_simplemmas_lemmas(tmp_path, monkeypatch):
    """English lemmas come from simplemma's dictionary kept as a trie in the cache folder:
    built once (atomically), opened by later processes, the same lemmas as simplemma's default
    in-memory dictionary."""
    import re
    from pathlib import Path

    import simplemma

    monkeypatch.setenv("SVERKA_CACHE_DIR", str(tmp_path))
    words = ("wrote written children mice better running essays studies was were geese went "
             "analyses criteria phenomena teeth happily unhappiness organisations colour "
             "xylophones zzzqx").split()
    pan = Path(__file__).resolve().parents[3] / "shared" / "data" / "pan13-dev"
    for f in sorted(pan.rglob("*.txt"))[:4] if pan.is_dir() else []:
        words += re.findall(r"[a-z]+", f.read_text(encoding="utf-8", errors="replace").lower())[:3000]
    built = morph._English()
    built.lemmatize("warm", lang="en")  # the dictionary is read (here: built) on first use
    tries = list(tmp_path.glob("simplemma-*/en.dic"))
    assert len(tries) == 1 and tries[0].stat().st_size > 100_000
    assert not list(tmp_path.glob("simplemma-*/*.tmp"))
    opened = morph._English()  # a later process: opens the trie
    for w in sorted(set(words)):
        expected = simplemma.lemmatize(w, lang="en")
        assert built.lemmatize(w, lang="en") == expected == opened.lemmatize(w, lang="en"), w
        assert opened.is_known(w, lang="en") == simplemma.is_known(w, lang="en"), w


def test_proper_nouns_by_the_dictionary_whatever_was_loaded_before():
    """pymorphy3 keeps one set of known grammemes for its tag class, and loading the Ukrainian
    dictionary after the Russian one replaces it with Ukrainian's, which lacks "Geox": asking a
    Russian tag ``"Geox" in tag`` then raises. ``is_proper`` reads each tag's own grammemes, so
    the order the dictionaries were loaded in does not matter (a fresh process: loads both)."""
    import subprocess
    import sys

    code = (
        "from sverka.core import morph\n"
        "morph._analyzer('ru'); morph._analyzer('uk')\n"
        "print([morph.is_proper(w, 'ru') for w in ('госдума', 'иран', 'песков', 'facebook', 'писатель', 'танцоры')],\n"
        "      morph.is_proper('iran', 'en'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True).stdout
    assert out.split("\n")[0] == "[True, True, True, True, False, False] False"
