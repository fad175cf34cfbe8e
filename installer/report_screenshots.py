"""Pictures of the reports of one Russian essay, in Russian and English, for the README.

    python installer/report_screenshots.py docs/screenshots

The essay is the sample's (resources/sample/suspect.txt) with one long quotation added, checked
against the sample collection copied into a teacher's folder (so the reports show paths
relative to it). HTML: headless Chromium (``chromium``); PDF pages: ``pdftoppm``. Writes
report-html-{ru,en}.png, report-pdf-{ru,en}-N.png (old pages of a longer PDF removed) and
report-crosscheck.png (the class of three essays cross-checked, Russian).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "resources" / "sample"

QUOTATION = (
    "\n\nЛермонтов передаёт голос солдата почти целиком, и я приведу его слова полностью: «{}» "
    "Так говорит человек, который был среди своих.\n\n"
)


def essay() -> str:
    text = (SAMPLE / "suspect.txt").read_text(encoding="utf-8")
    borodino = (SAMPLE / "collection" / "Лермонтов — Бородино.txt").read_text(encoding="utf-8")
    lines = [ln.strip() for ln in borodino.splitlines() if ln.strip()][2:16]  # after the title
    quoted = " ".join(ln.lstrip("—– ").rstrip() for ln in lines)
    cut = text.index("Список литературы")
    return text[:cut].rstrip() + QUOTATION.format(quoted) + text[cut:]


def _shot(chromium: str, html: Path, png: Path, size: str) -> None:
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--screenshot={png}", f"--window-size={size}", html.as_uri()],
                   check=True, capture_output=True, timeout=120)


def main(out: Path) -> None:
    from sverka.core import api, report

    out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None or shutil.which("pdftoppm") is None:
        sys.exit("needs chromium and pdftoppm (apt-get install chromium poppler-utils)")
    with tempfile.TemporaryDirectory() as tmp:
        teacher = Path(tmp) / "Мария Петровна"
        shutil.copytree(SAMPLE / "collection", teacher / "Архив кафедры" / "хрестоматия")
        suspect = teacher / "Проверка 9Б" / "Иванова — Ванька.txt"
        suspect.parent.mkdir(parents=True)
        suspect.write_text(essay(), encoding="utf-8")
        with api.Collection(Path(tmp) / "c.sverka") as coll:
            coll.add([teacher / "Архив кафедры"])
            result = coll.check(api.load_document(suspect))
        for lang in ("ru", "en"):
            html = Path(tmp) / f"report-{lang}.html"
            html.write_text(report.render_html(result, lang=lang), encoding="utf-8")
            _shot(chromium, html, out / f"report-html-{lang}.png", "1100,2600")
            pdf = Path(tmp) / f"report-{lang}.pdf"
            report.render_pdf(result, pdf, lang=lang)
            for old in out.glob(f"report-pdf-{lang}-*.png"):
                old.unlink()
            subprocess.run(["pdftoppm", "-r", "80", "-png", str(pdf), str(out / f"report-pdf-{lang}")], check=True)
            for page in sorted(out.glob(f"report-pdf-{lang}-*.png")):  # pdftoppm pads: -01.png -> -1.png
                number = int(page.stem.rsplit("-", 1)[1])
                page.rename(out / f"report-pdf-{lang}-{number}.png")
            print(lang, f"{result.borrowed_percent:.1f} / {result.cited_percent:.1f} / {result.original_percent:.1f}",
                  [w.code for w in result.warnings], sorted(p.name for p in out.glob(f"report-*-{lang}*.png")))
        # the class: this essay, the sample's (copied from the same stories) and one of its own
        other = suspect.parent / "Петров — Ванька.txt"
        shutil.copy(SAMPLE / "suspect.txt", other)
        own = suspect.parent / "Сидорова — Бородино.txt"
        own.write_text("Моё сочинение о стихотворении Лермонтова «Бородино». " * 3 + essay()[-900:], encoding="utf-8")
        cross = api.crosscheck([suspect, other, own])
        html = Path(tmp) / "crosscheck.html"
        html.write_text(report.render_html(cross, lang="ru"), encoding="utf-8")
        _shot(chromium, html, out / "report-crosscheck.png", "1100,1100")
        print("crosscheck", [(p.a, p.b, round(p.a_in_b, 3)) for p in cross.pairs])


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"))
