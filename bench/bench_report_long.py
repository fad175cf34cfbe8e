"""Time of the PDF report of hostile texts: one long unbroken word, one line of short words,
ordinary paragraphs, each of a given size (sweep 35, section 4: WeasyPrint's layout was
quadratic in the longest word and in the longest run of text it got in one piece).

Builds the result by hand (no engine run, no collection): the suspect text, one source with a
passage over the first sentence. Each case runs ``render_pdf`` in a child process with a time
limit, so a case that does not finish is reported as ``> limit`` rather than waited for.

    .venv/bin/python bench/bench_report_long.py [--sizes 10000,100000] [--kinds word,line,paras]
                                                [--limit 120] [--repeat 1]

Prints one line per case: kind, characters, seconds of ``render_html(paper=True)``, seconds of
``render_pdf``, pages, the child's peak memory.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

START = "Обычное начало эссе. "
SENTENCE = "Мой дедушка держит пасеку за деревней, и каждое лето я помогаю ему качать мёд. "


def text_of(kind: str, chars: int) -> str:
    if kind == "word":  # one unbroken word
        return START + "а" * chars + " конец."
    if kind == "line":  # short words, no line end at all
        return START + ("слово " * (chars // 6)) + "конец."
    if kind == "paras":  # ordinary paragraphs of five sentences
        para = SENTENCE * 5 + "\n\n"
        return START + para * max(1, chars // len(para))
    raise ValueError(kind)


def child(kind: str, chars: int, out: str) -> None:
    import resource

    from sverka.core import report
    from sverka.core.results import CheckResult, Passage, SourceMatch, SuspectInfo
    from sverka.core.settings import Settings

    text = text_of(kind, chars)
    src = SourceMatch(source_id=1, path="/c/src.txt", title="src", text=START, sha256="a" * 64,
                      containment=0.01, resemblance=0.01, sentence_score=0.01,
                      passages=(Passage(0, len(START) - 1, 0, len(START) - 1, 3, "exact", "verbatim"),))
    result = CheckResult(
        suspect=SuspectInfo(path="/e/essay.txt", title="essay", chars=len(text), words=len(text.split()),
                            language="ru", warnings=(), sha256="c" * 64),
        suspect_text=text, sources=(src,), borrowed_percent=1.0, original_percent=99.0, settings=Settings())
    t = time.perf_counter()
    report.render_html(result, paper=True)
    html_s = time.perf_counter() - t
    t = time.perf_counter()
    report.render_pdf(result, out)
    pdf_s = time.perf_counter() - t
    import pypdfium2

    pdf = pypdfium2.PdfDocument(out)
    pages = len(pdf)
    pdf.close()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(json.dumps({"html": html_s, "pdf": pdf_s, "pages": pages, "rss": rss}))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,20000,50000,100000")
    ap.add_argument("--kinds", default="word,line,paras")
    ap.add_argument("--limit", type=float, default=120)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]), args.child[2])
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.kinds.split(","):
            for chars in (int(s) for s in args.sizes.split(",")):
                for _ in range(args.repeat):
                    out = str(Path(tmp) / f"{kind}{chars}.pdf")
                    try:
                        run = subprocess.run([sys.executable, __file__, "--child", kind, str(chars), out],
                                             capture_output=True, text=True, timeout=args.limit)
                    except subprocess.TimeoutExpired:
                        print(f"{kind:6} {chars:>9}  pdf > {args.limit:.0f} s (killed)", flush=True)
                        continue
                    if run.returncode:
                        print(f"{kind:6} {chars:>9}  failed: {run.stderr.strip().splitlines()[-1:]}", flush=True)
                        continue
                    r = json.loads(run.stdout.strip().splitlines()[-1])
                    print(f"{kind:6} {chars:>9}  html {r['html']:6.2f} s  pdf {r['pdf']:7.2f} s  "
                          f"pages {r['pages']:>5}  rss {r['rss']} MB", flush=True)
                leftovers = [p.name for p in Path(tmp).glob("*.tmp")]
                if leftovers:
                    print("  left behind:", leftovers, flush=True)
                    for p in Path(tmp).glob("*.tmp"):
                        p.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
