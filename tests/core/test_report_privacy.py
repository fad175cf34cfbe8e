"""Reports handed on do not give away the teacher's folders: documents are shown by their
path relative to the collection's folder (the checked file by its name) unless full paths
are asked for."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sverka.core import api, report
from sverka.core.report import shown_path

BOOK = ("Старый дом стоял на высоком берегу реки, и по утрам туман поднимался к его окнам. "
        "Мы жили там каждое лето, пока дед не продал сад соседям из города. ") * 12
ESSAY = ("Сочинение другого ученика о лете в деревне и о том, как мы ловили рыбу у моста. "
         "Вечером мы сидели на крыльце и слушали, как шумит дождь по крыше сарая. ") * 12


@pytest.fixture
def teacher(tmp_path):
    home = tmp_path / "home" / "Мария Петровна"
    archive = home / "Архив кафедры"
    (archive / "книги").mkdir(parents=True)
    (archive / "ученики 2025").mkdir()
    (archive / "книги" / "Повесть.txt").write_text(BOOK, encoding="utf-8")
    (archive / "ученики 2025" / "Иванов.txt").write_text(ESSAY, encoding="utf-8")
    klass = home / "Проверка 9Б"
    klass.mkdir()
    suspect = klass / "Петров.txt"
    suspect.write_text("Моё начало. " + BOOK[:600] + " " + ESSAY[:500] + " Мой конец.", encoding="utf-8")
    coll = api.Collection(tmp_path / "c.sverka")
    summary = coll.add([archive])
    assert len(summary.added) == 2
    result = coll.check(api.load_document(suspect))
    coll.close()
    assert len(result.sources) == 2
    return home, archive, suspect, result


def _pdf_text(result, path: Path, **kw) -> str:
    report.render_pdf(result, path, lang="ru", **kw)
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_shown_path_rules():
    assert shown_path("/a/b/c/d.txt", "/a/b") == "c/d.txt"
    assert shown_path("/a/bc/d.txt", "/a/b") == "d.txt"  # not inside /a/b: the name only
    assert shown_path("/x/y.txt", None) == "y.txt"
    assert shown_path("/x/y.txt", "/a", full=True) == "/x/y.txt"
    assert shown_path(None, "/a") is None


def test_reports_show_paths_relative_to_the_collection_by_default(teacher, tmp_path):
    home, archive, suspect, result = teacher
    assert result.collection_root == str(archive)
    for lang in ("ru", "en"):
        page = report.render_html(result, lang=lang)
        assert str(tmp_path) not in page and str(home) not in page, lang
        assert "книги/Повесть.txt" in page and "ученики 2025/Иванов.txt" in page
        assert "Петров.txt" in page
    settings = result.settings.replace(excluded_sources=(str(archive / "книги" / "Повесть.txt"),))
    page = report.render_html(api.apply_exclusions(result, settings), lang="ru")
    assert str(tmp_path) not in page  # the settings table too
    if shutil.which("pdftotext"):
        text = _pdf_text(result, tmp_path / "r.pdf")
        assert str(tmp_path) not in text and "Мария Петровна" not in text
        assert "Петров.txt" in text


def test_full_paths_on_request(teacher, tmp_path):
    home, archive, suspect, result = teacher
    page = report.render_html(result, lang="ru", full_paths=True)
    assert str(suspect) in page and str(archive / "книги" / "Повесть.txt") in page
    if shutil.which("pdftotext"):
        text = _pdf_text(result, tmp_path / "full.pdf", full_paths=True)
        assert "Петровна/" in text  # (a full path wraps across lines)


def test_crosscheck_report_shows_paths_relative_to_the_folder(teacher, tmp_path):
    home, archive, suspect, result = teacher
    r = api.crosscheck([suspect, archive / "ученики 2025" / "Иванов.txt"])
    page = report.render_html(r, lang="ru")
    assert str(tmp_path) not in page
    assert "Проверка 9Б/Петров.txt" in page and "Архив кафедры/ученики 2025/Иванов.txt" in page
    assert str(suspect) in report.render_html(r, lang="ru", full_paths=True)


def test_cli_reports_relative_unless_full_paths(teacher, tmp_path):
    home, archive, suspect, result = teacher
    sverka = [sys.executable, "-m", "sverka.core.cli"]
    out = tmp_path / "out.html"
    subprocess.run([*sverka, "check", "--db", str(tmp_path / "c.sverka"), str(suspect), "--html", str(out)],
                   check=True, capture_output=True, timeout=300)
    page = out.read_text(encoding="utf-8")
    assert str(tmp_path) not in page and "книги/Повесть.txt" in page
    subprocess.run([*sverka, "check", "--db", str(tmp_path / "c.sverka"), str(suspect), "--html", str(out),
                    "--full-paths"], check=True, capture_output=True, timeout=300)
    assert str(archive / "книги" / "Повесть.txt") in out.read_text(encoding="utf-8")
