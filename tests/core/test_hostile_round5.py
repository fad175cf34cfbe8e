"""Hostile input, round five: a settings file edited by hand or written by another version (the
wrong JSON shape, a string where a number belongs); a collection path whose folder cannot be made,
or that is a folder; a 10 MB inline style attribute; index, remove and rebuild started without a
standard output. None is a traceback. Every input is generated here."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# the command line as round four runs it (the `sverka` program), its essay and its collection
from test_hostile_round4 import ESSAY, collection, sverka  # noqa: E402,F401


# -- settings saved by the window, edited by hand or written by another version --------------

@pytest.mark.parametrize("saved", ["null", "5", '"text"', "[1, 2]", '{"max_gap_words": "x"}',
                                   '{"min_source_containment": "0.5"}', '{"max_candidates": 1e308}',
                                   '{"excluded_sources": {"a": 1}}', '{"crosscheck_threshold": NaN}',
                                   '{"exclude_quotes": "no", "max_candidates": true}'])
def test_saved_settings_of_the_wrong_shape_are_not_a_traceback(saved):
    from sverka.core.preferences import load_saved_settings
    from sverka.core.settings import Settings

    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "settings.json"
        path.write_text(saved, encoding="utf-8")
        loaded = load_saved_settings(path)
    assert loaded is None or loaded == Settings()  # wrong values take their defaults


def test_saved_settings_keep_their_good_values_beside_a_bad_one():
    from sverka.core.settings import Settings

    s = Settings.from_json('{"max_gap_words": 3, "min_passage_words": "x", "min_source_containment": 1,'
                           ' "excluded_sources": ["a", "b"], "exclude_quotes": false}')
    assert (s.max_gap_words, s.min_passage_words, s.min_source_containment) == (3, Settings().min_passage_words, 1.0)
    assert s.excluded_sources == ("a", "b") and s.exclude_quotes is False
    assert Settings.from_json(Settings(max_gap_words=9).to_json()) == Settings(max_gap_words=9)


@pytest.mark.parametrize("saved", ["[1]", '{"max_candidates": 1e308}', '{"min_source_containment": "0.5"}'])
def test_a_check_with_a_damaged_settings_file_runs(collection, tmp_path, saved):
    db, essay = collection
    settings = tmp_path / "settings.json"
    settings.write_text(saved, encoding="utf-8")
    out = sverka("check", "--db", str(db), str(essay), env={"SVERKA_SETTINGS": str(settings)}, rc=0)
    assert "essay.txt" in out.stdout


# -- where the collection is --------------------------------------------------------------------

def test_a_collection_in_a_folder_that_cannot_be_made_is_named(tmp_path):
    essay = tmp_path / "essay.txt"
    essay.write_text(ESSAY, encoding="utf-8")
    db = essay / "sub" / "class.sverka"  # a file where a folder is asked for (a read-only disk alike)
    out = sverka("index", "--db", str(db), str(essay), rc=1)
    assert "cannot open the collection" in out.stderr and str(essay / "sub") in out.stderr
    data = tmp_path / "data"
    data.write_text("", encoding="utf-8")  # the window's data folder cannot be made
    out = sverka("index", str(essay), env={"XDG_DATA_HOME": str(data), "HOME": str(tmp_path)}, rc=1)
    assert "cannot open the collection" in out.stderr


@pytest.mark.parametrize("command", [["index", "ESSAY"], ["list"], ["check", "ESSAY"], ["remove", "1"], ["rebuild"]])
def test_a_folder_given_as_the_collection_is_named_as_a_folder(tmp_path, command):
    essay = tmp_path / "essay.txt"
    essay.write_text(ESSAY, encoding="utf-8")
    folder = tmp_path / "folder"
    folder.mkdir()
    args = [str(essay) if a == "ESSAY" else a for a in command]
    out = sverka(*args, "--db", str(folder), rc=1)
    assert "is a folder" in out.stderr and str(folder) in out.stderr
    assert list(folder.iterdir()) == []


# -- a huge inline style -------------------------------------------------------------------------

@pytest.mark.parametrize("unit", ["a:b;", "color:red;"])
def test_a_ten_megabyte_style_attribute_is_reduced_before_it_is_parsed(unit):
    """tinycss2 makes an object of every token: the whole attribute parsed took the reader's
    memory limit (1 GB) and minutes; what is parsed is the declarations that count."""
    from sverka.core.extract import html_css
    from sverka.core.extract.html_text import html_to_text

    style = unit * (10_000_000 // len(unit))
    assert len(";".join(html_css.kept_declarations(style, html_css.RELEVANT))) <= len(unit)
    text, _ = html_to_text(f'<html><body><p style="{style}">{ESSAY}</p></body></html>')
    assert ESSAY in text


def test_a_long_style_attribute_hides_and_shows_as_a_short_one():
    from sverka.core.extract.html_text import html_to_text

    pad = "a:b;" * 2000
    page = (f"<p>{ESSAY}</p>"
            f'<p style="{pad}display:none;{pad}">Скрытый текст.</p>'
            f'<p style="{pad}display:none !important;display:block">Ещё скрытый.</p>'
            f'<p style="{pad}display:none;display:block">Видимый.</p>'
            f'<p style="{pad}display:none;display:var(--x)">Тоже скрытый.</p>')
    short = page.replace(pad, "")
    assert html_to_text(page)[0] == html_to_text(short)[0]
    assert "Видимый" in html_to_text(page)[0] and "Скрытый" not in html_to_text(page)[0]


# -- no standard output ------------------------------------------------------------------------

def closed_stdout(*args: str) -> subprocess.CompletedProcess:
    """The command of the code under test with its standard output closed."""
    return subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", sys.executable, "-m", "sverka.core.cli", *args],
                          stderr=subprocess.PIPE, text=True, timeout=300,
                          env={**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})


def test_index_remove_and_rebuild_without_a_standard_output(tmp_path):
    essay = tmp_path / "essay.txt"
    essay.write_text(ESSAY, encoding="utf-8")
    db = tmp_path / "class.sverka"
    for args in (["index", "--db", str(db), str(essay)], ["remove", "--db", str(db), str(essay)]):
        out = closed_stdout(*args)
        assert "Traceback" not in out.stderr, out.stderr
        assert out.returncode == 1 and "standard output is closed" in out.stderr, (args, out.stderr)
    out = closed_stdout("rebuild", "--db", str(db))  # up to date: an error on stderr, no output
    assert "Traceback" not in out.stderr, out.stderr
    assert out.returncode == 1
    listed = subprocess.run([sys.executable, "-m", "sverka.core.cli", "list", "--db", str(db)],
                            capture_output=True, text=True, timeout=120)
    assert "0 documents" in listed.stdout + listed.stderr  # the index was done, then the remove


# -- an office file with two parts of one name -----------------------------------------------------

def test_an_office_file_with_two_parts_of_one_name_is_refused(tmp_path):
    """A .docx whose archive holds word/document.xml twice: Python reads the last, an office
    program perhaps the first, so the text Sverka checks might not be the one a reader sees; the
    file is refused, named, with the reason, and the rest of a batch goes on."""
    import warnings
    import zipfile

    import docx

    made = tmp_path / "made.docx"
    d = docx.Document()
    d.add_paragraph(ESSAY)
    d.save(made)
    crafted = tmp_path / "crafted.docx"
    with zipfile.ZipFile(made) as src, zipfile.ZipFile(crafted, "w") as out, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate name it is asked to write
        for info in src.infolist():
            out.writestr(info, src.read(info))
        other = src.read("word/document.xml").decode("utf-8").replace("Это обычный текст", "Совсем другой текст")
        out.writestr("word/document.xml", other)
    fine = tmp_path / "fine.txt"
    fine.write_text("Другое сочинение, написанное другим учеником совсем о другом.", encoding="utf-8")
    out = sverka("index", "--db", str(tmp_path / "c.sverka"), str(crafted), str(made), str(fine), rc=1)
    assert "crafted.docx" in out.stderr and "two members named 'word/document.xml'" in out.stderr
    assert "added 2" in out.stdout  # made.docx and fine.txt
    out = sverka("index", "--db", str(tmp_path / "ru.sverka"), str(crafted), rc=1, locale="ru_RU.UTF-8")
    assert "в архиве две части с одним именем (word/document.xml)" in out.stderr
