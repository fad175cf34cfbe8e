"""Reading speed per MB of DOCX, PDF and DOC: this tree's readers beside an earlier commit's,
same files, same machine, same run; each beside the reference script's pass over the same text.

    python bench/bench_readers.py [--old COMMIT] [--repeat 3] [--rounds 1] [--doc-from-docx] [FILE ...]

The earlier commit's ``core/`` is taken with ``git archive`` into a temporary folder and
imported from there (``PYTHONPATH``), so both readers run the same way: in a fresh process,
``sverka.core.extract.extract`` on each file in-process (no sandbox), the best of
``--repeat`` runs per file; ``--rounds N`` times both readers N times, alternating, and the
fastest time of each file counts. Files, unless named: the DOCX and PDF files of
``../shared/data/realdocs`` when present, the .doc files of ``tests/core/fixtures`` (saved by
LibreOffice; with ``--doc-from-docx`` also the realdocs DOCX files saved as .doc by
LibreOffice), and three made here every run (a DOCX of numbered lists and paragraphs written
by python-docx, the same saved as Word 97-2003 .doc by LibreOffice when ``soffice`` is
installed, a PDF of 60 text pages written by ``tests/core/pdfgen.py``). Printed per format:
MB read, seconds and MB/s of each reader, the ratio (this tree's time / the earlier one's),
and the seconds ``bench/ref5gram.py`` takes to cut the same texts into word 5-grams (the
reference peer of every figure in docs/BENCHMARKS.md); then the same over the files both
readers read (the earlier one found at least half the words of this one: a file it lost is
not the same job).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REALDOCS = ROOT.parent / "shared" / "data" / "realdocs" / "files"

_TIMER = r"""
import json, sys, time
from sverka.core.extract import extract
out = {}
for path in sys.argv[2:]:
    best, words = None, 0
    for _ in range(int(sys.argv[1])):
        t = time.perf_counter()
        try:
            doc = extract(path)
            text = doc.text
        except Exception as e:  # a file this reader refuses: timed all the same
            text = ""
        spent = time.perf_counter() - t
        best = spent if best is None else min(best, spent)
    out[path] = {"seconds": best, "chars": len(text), "text": text}
print(json.dumps(out))
"""


def _made_files(folder: Path) -> list[Path]:
    import docx

    sys.path.insert(0, str(ROOT / "tests" / "core"))
    from pdfgen import build, stream, HELVETICA

    d = docx.Document()
    for k in range(1500):
        d.add_paragraph(f"Пункт {k}: студент описывает опыт номер {k} и его итоги подробно и ясно.",
                        style="List Number" if k % 3 else None)
    docx_path = folder / "made-lists.docx"
    d.save(str(docx_path))
    made = [docx_path]
    if shutil.which("soffice"):
        subprocess.run(["soffice", "--headless", "--convert-to", "doc:MS Word 97", "--outdir", str(folder),
                        str(docx_path)], capture_output=True, timeout=300, check=False)
        if (folder / "made-lists.doc").is_file():
            made.append(folder / "made-lists.doc")
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", None, HELVETICA]
    kids = []
    for page in range(60):
        lines = b" ".join(b"(Line %d of page %d: the essay goes on about rivers and towns.) Tj 0 -12 Td" % (k, page)
                          for k in range(60))
        objects.append(stream(b"BT /F1 10 Tf 40 800 Td " + lines + b" ET", deflate=True))
        content = len(objects)
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents %d 0 R "
                       b"/Resources << /Font << /F1 3 0 R >> >> >>" % content)
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % k for k in kids) + b"] /Count %d >>" % len(kids)
    pdf_path = folder / "made-pages.pdf"
    pdf_path.write_bytes(build(objects))
    return [*made, pdf_path]


def _old_tree(commit: str, folder: Path) -> Path:
    root = folder / "old"
    (root / "sverka").mkdir(parents=True)
    archive = folder / "core.tar"
    with open(archive, "wb") as f:
        subprocess.run(["git", "-C", str(ROOT), "archive", commit, "core"], stdout=f, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(root / "sverka", filter="data")
    return root


def _time(files: list[Path], repeat: int, pythonpath: str | None) -> dict:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    done = subprocess.run([sys.executable, "-c", _TIMER, str(repeat), *map(str, files)], env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    import ref5gram

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", default="c06556d", help="the commit whose readers are the comparison (default c06556d)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--doc-from-docx", action="store_true",
                    help="also the realdocs DOCX files saved as .doc by LibreOffice (soffice)")
    ap.add_argument("--rounds", type=int, default=1, help="old and new timed this many times, alternating; "
                    "the fastest of all counts")
    ap.add_argument("files", nargs="*", type=Path)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="sverka-bench-readers-") as tmp:
        tmp = Path(tmp)
        files = list(args.files)
        if not files:
            for fmt in ("docx", "pdf"):
                if (REALDOCS / fmt).is_dir():
                    files += sorted((REALDOCS / fmt).glob(f"*.{fmt}"))
            files += sorted((ROOT / "tests" / "core" / "fixtures").rglob("*.doc"))
            if args.doc_from_docx and shutil.which("soffice") and (REALDOCS / "docx").is_dir():
                made = tmp / "doc"
                subprocess.run(["soffice", "--headless", "--convert-to", "doc:MS Word 97", "--outdir", str(made),
                                *map(str, sorted((REALDOCS / "docx").glob("*.docx")))],
                               capture_output=True, timeout=1800, check=False)
                files += sorted(made.glob("*.doc"))
            files += _made_files(tmp)
        old_tree = str(_old_tree(args.old, tmp))
        old, new = {}, {}
        for _ in range(args.rounds):  # alternating, so that the machine's drifting speed falls on both
            for timed, tree in ((old, old_tree), (new, None)):
                for f, row in _time(files, args.repeat, tree).items():
                    if f not in timed or row["seconds"] < timed[f]["seconds"]:
                        timed[f] = row
        sizes = {str(f): f.stat().st_size for f in files}
    print(f"readers of this tree vs {args.old}; {len(files)} files; best of {args.repeat} runs per file"
          f" in each of {args.rounds} alternating round(s)")
    print("| format | files | MB | old s | old MB/s | new s | new MB/s | new/old time | ref5gram s (same texts) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for fmt in ("docx", "pdf", "doc"):
        chosen = [str(f) for f in files if str(f).endswith("." + fmt)]
        if not chosen:
            continue
        mb = sum(sizes[f] for f in chosen) / 2**20
        old_s = sum(old[f]["seconds"] for f in chosen)
        new_s = sum(new[f]["seconds"] for f in chosen)
        t = time.perf_counter()
        for f in chosen:
            ref5gram.grams(ref5gram.words(new[f]["text"]))
        ref_s = time.perf_counter() - t
        print(f"| {fmt} | {len(chosen)} | {mb:.2f} | {old_s:.2f} | {mb / old_s:.2f} | {new_s:.2f} | {mb / new_s:.2f} "
              f"| {new_s / old_s:.2f} | {ref_s:.3f} |")
        # the same job: files the earlier reader read (at least half the words of this one's)
        same = [f for f in chosen if len(old[f]["text"].split()) >= 0.5 * len(new[f]["text"].split())]
        if len(same) < len(chosen):
            mb = sum(sizes[f] for f in same) / 2**20
            old_s = sum(old[f]["seconds"] for f in same)
            new_s = sum(new[f]["seconds"] for f in same)
            print(f"| {fmt}, files both read | {len(same)} | {mb:.2f} | {old_s:.2f} | {mb / old_s:.2f} | {new_s:.2f} "
                  f"| {mb / new_s:.2f} | {new_s / old_s:.2f} | |")
    more = sorted(((new[str(f)]["seconds"] - old[str(f)]["seconds"], str(f)) for f in files), reverse=True)[:8]
    print("most time added: " + ", ".join(f"{Path(f).name} +{d:.3f} s" for d, f in more))
    slow = sorted(((new[str(f)]["seconds"] / max(old[str(f)]["seconds"], 1e-6), str(f)) for f in files), reverse=True)[:5]
    print("slowest against the earlier reader: " + ", ".join(
        f"{Path(f).name} {r:.2f}x ({old[f]['seconds']:.3f} s -> {new[f]['seconds']:.3f} s)" for r, f in slow))


if __name__ == "__main__":
    main()
