"""Word 97-2003 (.doc) files read as LibreOffice reads them, list numbers included.

    .venv/bin/python bench/bench_doc_lists.py [--keep DIR]

realdocs has no .doc file. So the DOCX and ODT files of ``../shared/data/realdocs`` are saved as
.doc by LibreOffice (``soffice --headless --convert-to "doc:MS Word 97"``), and LibreOffice's
text of each .doc (``--convert-to "txt:Text (encoded):UTF8"``, which writes list numbers as
Word shows them) is the reference. Each .doc is read by Sverka's reader (``extract``, in this
process) twice: as it is, and with the list numbers left out (catdoc's text alone, as before
they were written), and scored as ``score.py`` scores an office file: words counted by its
``words()``, recall and precision against the reference. Printed: every file whose two
readings differ, the totals, and the files whose recall or precision is below 0.9.

Skips with a message when ../shared/data/realdocs, LibreOffice or catdoc is absent.
"""

from __future__ import annotations

import argparse
import collections
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REALDOCS = ROOT.parent / "shared" / "data" / "realdocs"


def _convert(files: list[Path], target: str, folder: Path) -> None:
    for k in range(0, len(files), 20):  # one soffice per 20 files
        subprocess.run(["soffice", "--headless", "--convert-to", target, "--outdir", str(folder),
                        *map(str, files[k:k + 20])], capture_output=True, timeout=1800, check=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keep", type=Path, help="keep the .doc files and LibreOffice's texts here")
    args = ap.parse_args(argv)
    if not (REALDOCS / "files").is_dir() or not shutil.which("soffice") or not shutil.which("catdoc"):
        print("skipped: ../shared/data/realdocs, soffice or catdoc is missing")
        return 0
    sys.path.insert(0, str(REALDOCS))
    from score import words

    from sverka.core.errors import ExtractError
    from sverka.core.extract import doc_text, extract

    with tempfile.TemporaryDirectory(prefix="sverka-doc-lists-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        sources = [*sorted((REALDOCS / "files" / "docx").glob("*.docx")),
                   *sorted((REALDOCS / "files" / "odt").glob("*.odt"))]
        _convert(sources, "doc:MS Word 97", folder)
        docs = sorted(folder.glob("*.doc"))
        _convert(docs, "txt:Text (encoded):UTF8", folder)
        numbered = doc_text.number_lines
        totals = collections.Counter()
        low = []
        print(f"{len(sources)} DOCX/ODT files, {len(docs)} saved as .doc by LibreOffice")
        print("| file | reference words | without numbers: recall / precision | with: recall / precision |")
        print("|---|---|---|---|")
        for doc in docs:
            ref_path = doc.with_suffix(".txt")
            if not ref_path.is_file():
                continue
            ref = collections.Counter(words(ref_path.read_text("utf-8-sig", errors="replace")))
            texts = []
            for write_numbers in (False, True):
                doc_text.number_lines = numbered if write_numbers else (lambda text, paragraphs: text)
                try:
                    texts.append(collections.Counter(words(extract(doc).text)))
                except ExtractError:
                    texts.append(collections.Counter())
                finally:
                    doc_text.number_lines = numbered
            scores = []
            for got in texts:
                common = sum((got & ref).values())
                scores.append((common / max(1, sum(ref.values())), common / max(1, sum(got.values()))))
            totals["files"] += 1
            totals["reference words"] += sum(ref.values())
            for name, got in zip(("without", "with"), texts):
                totals[f"{name} common"] += sum((got & ref).values())
                totals[f"{name} words"] += sum(got.values())
            if texts[0] != texts[1]:
                totals["files with numbers"] += 1
                print(f"| {doc.stem} | {sum(ref.values())} | {scores[0][0]:.3f} / {scores[0][1]:.3f} "
                      f"| {scores[1][0]:.3f} / {scores[1][1]:.3f} |")
            if sum(ref.values()) >= 50 and min(scores[1]) < 0.9:
                low.append(f"{doc.stem} {scores[1][0]:.3f}/{scores[1][1]:.3f}")
        for name in ("without", "with"):
            print(f"{name} numbers: recall {totals[f'{name} common'] / max(1, totals['reference words']):.4f}, "
                  f"precision {totals[f'{name} common'] / max(1, totals[f'{name} words']):.4f} over "
                  f"{totals['files']} files ({totals['reference words']} reference words)")
        print(f"files whose numbers were written: {totals['files with numbers']}")
        print("files of 50 words or more below 0.9: " + (", ".join(low) or "none"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
