"""One declaration of every setting; the command line starts from the settings saved in the
window (and says so) unless --defaults; the collection's own properties are not check settings."""

from __future__ import annotations

import dataclasses
import json

import pytest

from sverka.core import api, cli
from sverka.core.document import Document
from sverka.core.preferences import load_saved_settings, save_settings, saved_settings_path
from sverka.core.settings import COLLECTION_FIELDS, GROUPS, SETTINGS_INFO, Settings, describe_changes

SOURCE = ("Глобальное потепление вызвано прежде всего деятельностью человека: сжиганием угля, нефти "
          "и газа, вырубкой лесов и интенсивным сельским хозяйством. Концентрация углекислого газа в "
          "атмосфере выросла почти на пятьдесят процентов с начала промышленной революции. ")


def test_every_setting_is_declared_once_with_words_for_the_user():
    assert set(SETTINGS_INFO) == {f.name for f in dataclasses.fields(Settings)}
    for name, info in SETTINGS_INFO.items():
        assert info.group in GROUPS
        assert info.label_en and info.label_ru and info.help_en and info.help_ru, name
        assert "_" not in info.label_en and not any("a" <= c <= "z" for c in info.label_ru.lower()), name
        default = getattr(Settings(), name)
        if info.minimum is not None:
            shown = default * 100 if info.percent else default
            assert info.minimum <= shown <= info.maximum, name
    assert set(COLLECTION_FIELDS) == {"shingle_words", "drop_adjectives"}


def test_what_is_fixed_at_indexing_is_read_from_the_one_declaration():
    from sverka.core.store import common

    assert Settings.indexing_fields() == COLLECTION_FIELDS
    assert common.INDEXING_KEYS == COLLECTION_FIELDS  # stored with a collection, compared on opening
    assert COLLECTION_FIELDS == tuple(n for n, i in SETTINGS_INFO.items() if i.group == "collection")


def test_settings_that_changed_nothing_are_not_offered(capsys):
    """The winnowing window, the number of min-hash functions and the shared fingerprints a
    candidate needed changed no result: no setting, no flag, no label for them."""
    gone = {"winnow_window", "minhash_functions", "min_shared_fingerprints"}
    assert not gone & {f.name for f in dataclasses.fields(Settings)}
    assert not gone & set(SETTINGS_INFO)
    with pytest.raises(SystemExit):
        cli.main(["check", "--help"])
    help_text = capsys.readouterr().out
    assert "--min-passage-words" in help_text
    for flag in ("--winnow-window", "--window", "--minhash-functions", "--min-shared-fingerprints"):
        assert flag not in help_text.split(), flag
    # settings saved by an earlier Sverka that still name them load as the rest of them
    old = json.loads(Settings(min_passage_words=12).to_json()) | {"winnow_window": 6, "minhash_functions": 50,
                                                                   "min_shared_fingerprints": 3}
    assert Settings.from_json(json.dumps(old)) == Settings(min_passage_words=12)


def test_describe_changes_in_both_languages():
    old, new = Settings(), Settings(min_passage_words=12, crosscheck_threshold=0.25, exclude_quotes=False)
    assert describe_changes(old, new, "en") == [
        "Shortest passage that counts: 8 words \u2192 12 words",
        "Essays compared with each other: list pairs from: 10 % \u2192 25 %",
        "Quotations in quotation marks are cited, not borrowed: yes \u2192 no"]
    assert describe_changes(old, new, "ru")[0] == "Самый короткий учитываемый фрагмент: 8 слов \u2192 12 слов"
    assert describe_changes(old, old) == []


def test_saved_settings_file_round_trip(tmp_path):
    path = tmp_path / "settings.json"
    assert load_saved_settings(path) is None
    save_settings(Settings(min_passage_words=11, excluded_sources=("/a.txt",)), path)
    assert load_saved_settings(path) == Settings(min_passage_words=11, excluded_sources=("/a.txt",))
    path.write_text("{not json", encoding="utf-8")
    assert load_saved_settings(path) is None


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "c.sverka"
    with api.Collection(path) as c:
        c.add_document(Document(SOURCE * 2, path="/src/climate.txt", title="climate"))
    suspect = tmp_path / "essay.txt"
    suspect.write_text("Моё вступление к докладу о климате. " + SOURCE[:200], encoding="utf-8")
    return path, suspect


def run(capsys, *argv):
    rc = cli.main(list(argv))
    out = capsys.readouterr()
    return rc, json.loads(out.out.splitlines()[0]), out.err


def test_command_line_uses_the_windows_saved_settings_and_says_so(db, capsys, monkeypatch, tmp_path):
    path, suspect = db
    monkeypatch.setenv("SVERKA_SETTINGS", str(tmp_path / "saved.json"))
    rc, plain, err = run(capsys, "check", "--db", str(path), "--json", str(suspect))
    assert rc == 0 and "settings: Sverka's defaults (none saved in the window)" in err
    assert plain["borrowed_percent"] > 50

    # the window saved a minimum passage longer than the copied sentence, and a shingle length
    # (a property of the collection, not of a check: ignored, the collection keeps its own)
    save_settings(Settings(min_passage_words=60, shingle_words=7), saved_settings_path())
    rc, saved, err = run(capsys, "check", "--db", str(path), "--json", str(suspect))
    assert rc == 0 and f"settings: the settings saved in the window ({tmp_path / 'saved.json'})" in err
    assert saved["borrowed_percent"] == 0

    rc, defaults, err = run(capsys, "check", "--db", str(path), "--json", "--defaults", str(suspect))
    assert "settings: Sverka's defaults (--defaults)" in err
    assert defaults["borrowed_percent"] == plain["borrowed_percent"]

    rc, flagged, err = run(capsys, "check", "--db", str(path), "--json", "--min-words", "8", str(suspect))
    assert "changed by --min-passage-words" in err and flagged["borrowed_percent"] == plain["borrowed_percent"]


def test_the_window_saves_where_the_command_line_reads(tmp_path, monkeypatch):
    pytest.importorskip("PySide6")
    from PySide6.QtCore import QSettings

    from sverka.gui.preferences import Preferences

    prefs = Preferences(QSettings(str(tmp_path / "Sverka.conf"), QSettings.Format.IniFormat))
    assert prefs.settings_path() == tmp_path / "settings.json"
    prefs.set_engine_settings(Settings(min_passage_words=9))
    monkeypatch.setenv("SVERKA_SETTINGS", str(tmp_path / "settings.json"))
    assert load_saved_settings() == Settings(min_passage_words=9) == prefs.engine_settings()


# -- a settings file that cannot be used is said so, and never written over ------------------

def test_a_damaged_settings_file_is_named_with_why_and_left_as_it_is(db, capsys, monkeypatch, tmp_path):
    """``{bad json``: the command line said "Sverka's defaults (none saved in the window)", a
    false message that dropped the teacher's settings without a word."""
    path, suspect = db
    saved = tmp_path / "saved.json"
    monkeypatch.setenv("SVERKA_SETTINGS", str(saved))
    rc, plain, _ = run(capsys, "check", "--db", str(path), "--json", "--defaults", str(suspect))
    saved.write_bytes(b"{bad json")
    rc, damaged, err = run(capsys, "check", "--db", str(path), "--json", str(suspect))
    first = err.splitlines()[0]
    assert rc == 0 and "none saved" not in err
    assert first == (f"sverka: settings: Sverka's defaults: the settings saved in the window ({saved}) could not "
                     "be read: it is not valid JSON (line 1, column 2); the file is left as it is")
    assert damaged["borrowed_percent"] == plain["borrowed_percent"]
    assert saved.read_bytes() == b"{bad json"  # reading never writes it

    rc, _, err = run(capsys, "check", "--db", str(path), "--json", "--lang", "ru", str(suspect))
    assert err.splitlines()[0].startswith(f"sverka: настройки: по умолчанию Сверки: сохранённые в окне настройки "
                                          f"({saved}) не удалось прочитать: это неправильный JSON")


@pytest.mark.parametrize("data, code", [(b"[1, 2]", "settings.not_object"), (b"\xff\xfe{}", "settings.not_utf8"),
                                        (b"[" * 100_000, "settings.not_object")])
def test_why_a_settings_file_could_not_be_read(tmp_path, data, code):
    from sverka.core.preferences import read_saved_settings

    path = tmp_path / "settings.json"
    assert read_saved_settings(path).settings is None and read_saved_settings(path).problem is None  # none saved
    path.write_bytes(data)
    read = read_saved_settings(path)
    assert read.settings is None and read.problem.code == code and read.path == path
    assert path.read_bytes() == data
    assert read_saved_settings(tmp_path).problem.code == "error.folder"


def test_a_saved_value_the_window_could_not_save_is_named_not_taken_for_a_flag(db, capsys, monkeypatch, tmp_path):
    """``{"min_passage_words": -5}`` was a usage error, "--min-passage-words must be positive,
    got -5", for a flag the user never typed; the run stopped."""
    path, suspect = db
    saved = tmp_path / "saved.json"
    monkeypatch.setenv("SVERKA_SETTINGS", str(saved))
    rc, plain, _ = run(capsys, "check", "--db", str(path), "--json", "--defaults", str(suspect))
    saved.write_text('{"min_passage_words": -5, "max_candidates": 20}', encoding="utf-8")
    rc, result, err = run(capsys, "check", "--db", str(path), "--json", str(suspect))
    assert rc == 0 and "must be positive" not in err
    lines = err.splitlines()
    assert lines[0] == f"sverka: settings: the settings saved in the window ({saved})"
    assert lines[1] == (f'sverka: settings: {saved}: the saved value of "Shortest passage that counts" '
                        "(min_passage_words: -5) is not one the window offers; Sverka's default (8) is used instead")
    assert result["borrowed_percent"] == plain["borrowed_percent"]
    assert load_saved_settings(saved) == Settings(max_candidates=20)  # the rest of the file is used
    # a flag the user types is still refused as one
    with pytest.raises(SystemExit) as stopped:
        cli.main(["check", "--db", str(path), "--json", "--min-words", "-5", str(suspect)])
    assert stopped.value.code == 2 and "--min-passage-words must be positive, got -5" in capsys.readouterr().err


def test_a_gap_of_zero_words_saved_in_the_window_is_no_usage_error(db, capsys, monkeypatch, tmp_path):
    """The window offers a gap of 0 words (SETTINGS_INFO: 0..50); the command line refused it
    as "--max-gap-words must be positive, got 0"."""
    path, suspect = db
    monkeypatch.setenv("SVERKA_SETTINGS", str(tmp_path / "saved.json"))
    save_settings(Settings(max_gap_words=0), saved_settings_path())
    rc, _, err = run(capsys, "check", "--db", str(path), "--json", str(suspect))
    assert rc == 0 and "must be positive" not in err and "saved value" not in err
