"""Real documents made by others, read as a person sees them (issue 35).

    .venv/bin/python bench/bench_realdocs.py [--format html,docx,odt,rtf,pdf] [--out DIR]
                                             [--speed] [--against REV] [--rows FILE]

``../shared/data/realdocs`` holds 465 web pages, office files and PDFs with the text headless
Chromium, LibreOffice and pdftotext give for each, and ``score.py``, its scorer (its README says
exactly how words are counted and which reference each format is scored against).

1. Every file is read as the command line and the window read it: by
   :func:`sverka.core.workers.sandboxed_extract` (the sandboxed reader with Sverka's own memory
   and time limits). The texts go to ``--out`` (``<id>.txt``; ``<id>.err`` with the reason when
   the file was refused) and ``score.py`` scores them: per format files, lost, dropped, invented,
   median recall and precision, the worst files, and whether the target is met.
2. ``--speed``: the readers' own speed, in this process without the sandbox (the reader alone,
   no process hop): MB of input per second per format, the fastest of three passes over the
   files in each of ``--rounds`` child processes. With ``--against REV`` the same is measured
   for the readers of git revision REV (checked out into a temporary folder and imported in
   a child process), the two alternating round by round so that the machine's drifting speed
   falls on both alike, and the ratio new / old of the fastest times printed: the reader
   that replaces another must be no slower than 1.5x.

Skips with a message when ../shared/data/realdocs is absent.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
REALDOCS = ROOT.parent / "shared" / "data" / "realdocs"
FORMATS = ("html", "docx", "odt", "rtf", "pdf")


def records(formats: tuple[str, ...]) -> list[dict]:
    out = []
    with open(REALDOCS / "manifest.jsonl", encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            if rec["format"] in formats:
                out.append(rec)
    return out


def extract_all(recs: list[dict], out: Path) -> tuple[int, float]:
    """Read every file through the sandboxed reader; write <id>.txt or <id>.err. (errors, seconds)."""
    from sverka.core.errors import ExtractError
    from sverka.core.workers import sandboxed_extract

    out.mkdir(parents=True, exist_ok=True)
    errors = 0
    t0 = time.perf_counter()
    for rec in recs:
        path = REALDOCS / rec["file"]
        try:
            text = sandboxed_extract(path).text
        except ExtractError as e:
            errors += 1
            (out / f"{rec['id']}.err").write_text(str(e), encoding="utf-8")
            text = None
        if text is not None:
            (out / f"{rec['id']}.txt").write_text(text, encoding="utf-8")
    return errors, time.perf_counter() - t0


# The timing child: imports sverka.core from a given folder (a checkout of another revision)
# or the installed one, reads each file three times in this process, prints JSON per format.
_TIMER = r"""
import importlib.util, json, sys, time
core, files = sys.argv[1], json.loads(sys.stdin.read())
if core:
    spec = importlib.util.spec_from_file_location("sverka.core", core + "/__init__.py",
                                                  submodule_search_locations=[core])
    mod = importlib.util.module_from_spec(spec)
    sys.modules["sverka.core"] = mod
    spec.loader.exec_module(mod)
from sverka.core.extract import extract
from sverka.core.errors import ExtractError
out = {}
for fmt, paths in files.items():
    passes = []
    size = 0
    for _ in range(3):
        t = time.perf_counter()
        size = 0
        for p, n in paths:
            try:
                extract(p)
            except ExtractError:
                pass
            size += n
        passes.append(time.perf_counter() - t)
    out[fmt] = [size, min(passes)]
print(json.dumps(out))
"""


def time_readers(recs: list[dict], core: str = "") -> dict[str, tuple[int, float]]:
    files: dict[str, list] = {}
    for rec in recs:
        files.setdefault(rec["format"], []).append([str(REALDOCS / rec["file"]), rec["bytes"]])
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    res = subprocess.run([sys.executable, "-c", _TIMER, core], input=json.dumps(files), text=True,
                         capture_output=True, env=env, check=True)
    return {k: (v[0], v[1]) for k, v in json.loads(res.stdout.strip().splitlines()[-1]).items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--format", default=",".join(FORMATS))
    ap.add_argument("--out", type=Path)
    ap.add_argument("--rows", type=Path)
    ap.add_argument("--speed", action="store_true", help="also time the readers (MB/s per format)")
    ap.add_argument("--against", metavar="REV", help="with --speed: time REV's readers in the same run")
    ap.add_argument("--no-score", action="store_true", help="only --speed")
    ap.add_argument("--rounds", type=int, default=3, help="with --speed: child processes per reader, alternating")
    args = ap.parse_args(argv)
    if not (REALDOCS / "manifest.jsonl").exists():
        print(f"skipped: {REALDOCS} is absent")
        return 0
    formats = tuple(f for f in args.format.split(",") if f)
    recs = records(formats)
    status = 0
    if not args.no_score:
        out = args.out or Path(tempfile.mkdtemp(prefix="sverka-realdocs-"))
        errors, secs = extract_all(recs, out)
        print(f"read {len(recs)} files in {secs:.1f} s through the sandboxed reader, {errors} refused; texts in {out}")
        cmd = [sys.executable, str(REALDOCS / "score.py"), str(out), "--format", ",".join(formats)]
        if args.rows:
            cmd += ["--rows", str(args.rows)]
        status = subprocess.run(cmd).returncode
    if args.speed:
        new: dict[str, tuple[int, float]] = {}
        old: dict[str, tuple[int, float]] = {}

        def fastest(into, got):
            for fmt, (size, secs) in got.items():
                into[fmt] = (size, min(secs, into.get(fmt, (size, secs))[1]))

        with tempfile.TemporaryDirectory(prefix="sverka-old-") as tmp:
            if args.against:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", tmp, args.against],
                               check=True)
            try:
                for _ in range(args.rounds):
                    fastest(new, time_readers(recs))
                    if args.against:
                        fastest(old, time_readers(recs, str(Path(tmp) / "core")))
            finally:
                if args.against:
                    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", tmp], check=False)
        print("\n| format | MB | this reader MB/s |" + (f" {args.against} MB/s | ratio time new/old |" if old else ""))
        print("|---|---|---|" + ("---|---|" if old else ""))
        for fmt in formats:
            if fmt not in new:
                continue
            size, secs = new[fmt]
            line = f"| {fmt} | {size / 1e6:.1f} | {size / 1e6 / secs:.2f} |"
            if fmt in old:
                line += f" {old[fmt][0] / 1e6 / old[fmt][1]:.2f} | {secs / old[fmt][1]:.2f} |"
            print(line)
    return status


if __name__ == "__main__":
    sys.exit(main())
