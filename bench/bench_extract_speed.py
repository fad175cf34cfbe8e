"""Speed of the HTML reader per MB of real web pages, beside the reader it replaced.

The pages are the HTML files of ``../shared/data/realdocs`` (or any folder given): each is
decoded and read (``decode_html`` then ``html_to_text_and_hidden``, what ``sverka extract``
does inside its sandbox, without the sandbox's start) by the current reader and by the reader
of an older commit (default c06556d, the hand-written tokenizer), loaded from ``git show``
into a temporary module. Each reader reads every page ``--repeat`` times; the best time of
each page counts. Printed: MB read, seconds and MB/s of each reader, and the ratio.

    python bench/bench_extract_speed.py [--old c06556d] [--repeat 3] [FOLDER]
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FOLDER = ROOT.parent / "shared" / "data" / "realdocs" / "files" / "html"


def old_reader(commit: str):
    """The html_text module of ``commit``, importable beside the current one."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:core/extract/html_text.py"],
                            check=True, capture_output=True, text=True).stdout
    source = source.replace("from ..messages", "from sverka.core.messages").replace(
        "from .plain_text", "from sverka.core.extract.plain_text")
    folder = Path(tempfile.mkdtemp(prefix="sverka-old-reader-"))
    path = folder / "html_text_old.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("html_text_old", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def best_time(module, data: bytes, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        markup, _, _ = module.decode_html(data)
        module.html_to_text_and_hidden(markup)
        best = min(best, time.perf_counter() - t)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", default=str(DEFAULT_FOLDER))
    ap.add_argument("--old", default="c06556d", help="commit of the reader compared with (default c06556d)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    folder = Path(args.folder)
    files = sorted(p for p in folder.glob("*.htm*") if p.is_file())
    if not files:
        print(f"no .html files in {folder}", file=sys.stderr)
        return 2
    from sverka.core.extract import html_text as new

    old = old_reader(args.old)
    total = 0
    times = {"old": 0.0, "new": 0.0}
    slowest = []
    for path in files:
        data = path.read_bytes()
        total += len(data)
        t_old = best_time(old, data, args.repeat)
        t_new = best_time(new, data, args.repeat)
        times["old"] += t_old
        times["new"] += t_new
        slowest.append((t_new / max(t_old, 1e-6), path.name, len(data), t_old, t_new))
    mb = total / 1e6
    print(f"{len(files)} pages, {mb:.1f} MB, best of {args.repeat} per page")
    for name in ("old", "new"):
        print(f"  {name} reader ({args.old if name == 'old' else 'this tree'}): {times[name]:.2f} s, "
              f"{mb / times[name]:.2f} MB/s")
    print(f"  new / old time: {times['new'] / times['old']:.2f}")
    print("  pages the new reader is slowest on, relative to the old:")
    for ratio, name, size, t_old, t_new in sorted(slowest, reverse=True)[:5]:
        print(f"    {name} {size / 1e3:.0f} KB: old {t_old * 1e3:.0f} ms, new {t_new * 1e3:.0f} ms ({ratio:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
