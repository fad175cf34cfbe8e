"""Time of the reports of one check result: JSON, HTML, PDF, beside ``bench/ref5gram.py``.

Builds a result by hand (no engine run): a suspect of ``--quotes`` short quotations
(« » around 6-word phrases) between own sentences, each quotation marked, one source with a
passage every tenth quotation. Times ``check_result_to_dict`` + ``json.dumps``,
``render_html`` and (``--pdf``) ``render_pdf``; the reference figure is
``ref5gram.spans(suspect, suspect)`` (all exact 5-grams of the same text) from the same run.

    .venv/bin/python bench/bench_report.py --quotes 30000 [--pdf]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ref5gram  # noqa: E402

from sverka.core import report  # noqa: E402
from sverka.core.results import CheckResult, Passage, SourceMatch, Span, SuspectInfo  # noqa: E402
from sverka.core.settings import Settings  # noqa: E402

OWN = "Автор этой работы рассуждает о том, как меняется чтение классики. "
QUOTE = "мой дядя самых честных правил {}"


def build(n: int) -> CheckResult:
    parts, marks, passages, at = [], [], [], 0
    for i in range(n):
        parts.append(OWN)
        at += len(OWN)
        q = "«" + QUOTE.format(i) + "» "
        marks.append(Span(at, at + len(q) - 1, "quote"))
        if i % 10 == 0:
            passages.append(Passage(at, at + len(q) - 1, 0, 10, 6, "exact", "quote"))
        parts.append(q)
        at += len(q)
    text = "".join(parts)
    src = SourceMatch(source_id=1, path="/c/src.txt", title="src", text=text[:5000], sha256="a" * 64,
                      containment=0.1, resemblance=0.1, sentence_score=0.1, passages=tuple(passages))
    return CheckResult(
        suspect=SuspectInfo(path="/e/essay.txt", title="essay", chars=len(text), words=len(text.split()),
                            language="ru", warnings=(), sha256="c" * 64),
        suspect_text=text, sources=(src,), borrowed_percent=1.0, original_percent=99.0,
        marked=tuple(marks), settings=Settings())


def timed(func) -> float:
    t = time.perf_counter()
    func()
    return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quotes", type=int, default=30000)
    ap.add_argument("--pdf", action="store_true")
    args = ap.parse_args()
    result = build(args.quotes)
    report.render_html(build(10))  # warm up jinja2
    ref = timed(lambda: ref5gram.spans(result.suspect_text, result.suspect_text))
    rows = [("JSON (dict + dumps)", timed(lambda: json.dumps(report.check_result_to_dict(result)))),
            ("HTML", timed(lambda: report.render_html(result)))]
    if args.pdf:
        with tempfile.TemporaryDirectory() as tmp:
            rows.append(("PDF", timed(lambda: report.render_pdf(result, Path(tmp) / "r.pdf"))))
    print(f"suspect: {len(result.suspect_text):,} characters, {args.quotes:,} quotations")
    print(f"reference ref5gram.spans(text, text): {ref:.2f} s")
    for name, t in rows:
        print(f"| {name} | {t:.2f} s | {ref:.2f} s | {t / ref:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
