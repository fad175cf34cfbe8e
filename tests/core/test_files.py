"""The one folder walker behind adding, and cross-checking in the window and the command line."""

from __future__ import annotations

import os

from sverka.core import api


def test_folders_are_walked_once_in_order_and_loops_are_reported(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "2.docx").write_bytes(b"")
    (tmp_path / "a.txt").write_text("a", encoding="utf-8")
    (tmp_path / "c.TXT").write_text("c", encoding="utf-8")
    (tmp_path / ".hidden.txt").write_text("h", encoding="utf-8")
    (tmp_path / "~$lock.docx").write_bytes(b"")
    (tmp_path / "picture.png").write_bytes(b"\x89PNG")
    os.symlink(tmp_path, tmp_path / "b" / "loop")

    files, failed = api.document_files([tmp_path, tmp_path / "missing.txt"])

    assert [os.path.relpath(f, tmp_path) for f in files] == ["a.txt", os.path.join("b", "2.docx"), "c.TXT"]
    reasons = {p: str(why) for p, why in failed}
    assert "loop" in reasons[str(tmp_path / "b" / "loop")]
    assert reasons[str(tmp_path / "missing.txt")] == "no such file or folder"


def test_a_file_named_explicitly_is_taken_whatever_its_suffix(tmp_path):
    f = tmp_path / "notes.log"
    f.write_text("x", encoding="utf-8")
    assert api.document_files([f]) == ([str(f)], [])


def test_a_saved_web_page_s_folder_of_resources_is_left_out(tmp_path):
    """A page saved "complete" (essay.html beside essay_files/ with its frames and style sheets)
    is one document: the frames and advertisements in its folder are not added; a folder that
    only looks alike (no page of its name beside it, or named explicitly) is walked."""
    (tmp_path / "Эссе.html").write_text("<p>Текст</p>", encoding="utf-8")
    for folder in ("Эссе_files", "other_files", "page.files"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "frame.html").write_text("<p>Реклама</p>", encoding="utf-8")
    (tmp_path / "PAGE.HTM").write_text("<p>x</p>", encoding="utf-8")

    files, failed = api.document_files([tmp_path])
    assert [os.path.relpath(f, tmp_path) for f in files] == [
        "PAGE.HTM", os.path.join("other_files", "frame.html"), "Эссе.html"]
    assert failed == []
    files, _ = api.document_files([tmp_path / "Эссе_files"])
    assert [os.path.basename(f) for f in files] == ["frame.html"]
