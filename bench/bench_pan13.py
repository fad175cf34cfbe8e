"""PAN 2013 text alignment sample: how many annotated cases Sverka finds, how precisely.

    .venv/bin/python bench/bench_pan13.py [--limit N] [--mode pairs|index]

``pairs``: every (suspicious, source) pair of ``pairs`` is compared directly (the PAN text
alignment task). ``index``: all source documents are put in one collection and every
suspicious document is checked against it (source retrieval + alignment); only the
reported passages of the annotated source count for recall, but every reported passage
counts for precision.

Cases are re-located by text (the README's caveat: offsets in this copy are a few dozen
characters off): the annotated source passage, whitespace-normalised, is searched in the
whitespace-normalised suspicious document, the occurrence nearest the annotated offset wins.

* case found: at least half of its characters lie in reported passages of its source;
* passage precision: characters of reported passages (union per suspicious document) that
  lie in some re-located case of that document, over all reported characters.

The reference script (bench/ref5gram.py, exact word-5-grams) is scored the same way in the
same run: its shared 5-grams of each pair, or of each source its own index finds.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT.parent / "shared" / "data" / "pan13-dev"
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Case:
    susp: str
    src: str
    start: int  # re-located span in the suspicious document
    end: int


def _normalised(text: str) -> tuple[str, list[int]]:
    """Text with every run of white space as one space, and the original offset of each char."""
    out, where = [], []
    pos = 0
    for m in _SPACE.finditer(text):
        out.append(text[pos : m.start()])
        where.extend(range(pos, m.start()))
        out.append(" ")
        where.append(m.start())
        pos = m.end()
    out.append(text[pos:])
    where.extend(range(pos, len(text)))
    where.append(len(text))
    return "".join(out), where


_WORD = re.compile(r"\w+")


def _find_near(probe: str, hay: str, hint_n: int) -> int | None:
    hits = [m.start() for m in re.finditer(re.escape(probe), hay)]
    return min(hits, key=lambda h: abs(h - hint_n)) if hits else None


def _relocate(needle: str, hay: str, hint: int, probe_words: int = 6) -> tuple[int, int] | None:
    """Span of ``needle`` in ``hay`` (both whitespace-normalised), tolerant to the altered
    characters of this copy: the whole needle if it occurs; otherwise its start is placed by
    the first run of ``probe_words`` words that occurs, its end by the last such run."""
    if not needle:
        return None
    k = _find_near(needle, hay, hint)
    if k is not None:
        return k, k + len(needle)
    words = list(_WORD.finditer(needle))
    if len(words) < probe_words:
        return None
    probes = [(words[i].start(), words[i + probe_words - 1].end()) for i in range(len(words) - probe_words + 1)]
    start = end = None
    for a, b in probes:
        pos = _find_near(needle[a:b], hay, hint + a)
        if pos is not None:
            start = pos - a
            break
    for a, b in reversed(probes):
        pos = _find_near(needle[a:b], hay, hint + a)
        if pos is not None:
            end = pos + (len(needle) - a)
            break
    if start is None or end is None or end <= start:
        return None
    start, end = max(0, start), min(len(hay), end)
    while start < end and hay[start].isspace():  # the estimate may be a character or two off
        start += 1
    while end > start and hay[end - 1].isspace():
        end -= 1
    return start, end


def read_cases(root: Path, pairs: list[tuple[str, str]]) -> tuple[list[Case], int, int]:
    """Re-located cases, how many annotated, how many could not be re-located."""
    cases: list[Case] = []
    annotated = lost = 0
    norm_cache: dict[str, tuple[str, list[int]]] = {}
    for susp, src in pairs:
        truth = root / "truth" / f"{susp[:-4]}-{src[:-4]}.xml"
        s_text = (root / "susp" / susp).read_text(encoding="utf-8", errors="replace")
        r_text = (root / "src" / src).read_text(encoding="utf-8", errors="replace")
        if susp not in norm_cache:
            norm_cache[susp] = _normalised(s_text)
        ns, where = norm_cache[susp]
        for f in ET.parse(truth).getroot().iter("feature"):
            if f.get("name") != "plagiarism":
                continue
            annotated += 1
            so, sl = int(f.get("source_offset")), int(f.get("source_length"))
            needle = " ".join(r_text[so : so + sl].split())
            span = _relocate(needle, ns, int(f.get("this_offset")))
            if span is None:
                lost += 1
                continue
            cases.append(Case(susp, src, where[span[0]], where[max(span[0], span[1] - 1)] + 1))
    return cases, annotated, lost


def _union(iv):
    out = []
    for s, e in sorted(iv):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        elif e > s:
            out.append([s, e])
    return out


def _overlap(a, b) -> int:
    """Characters shared by two sorted disjoint interval lists."""
    i = j = n = 0
    while i < len(a) and j < len(b):
        s, e = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if e > s:
            n += e - s
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return n


def evaluate(root: Path = DEFAULT, *, limit: int | None = None, mode: str = "pairs", settings=None) -> dict:
    from sverka.core import api
    from sverka.core.document import Document

    settings = settings or api.Settings()
    pairs = [tuple(line.split()) for line in (root / "pairs").read_text().splitlines() if line.strip()]
    pairs = sorted(pairs)[:limit] if limit else sorted(pairs)
    cases, annotated, lost = read_cases(root, pairs)
    docs: dict[str, Document] = {}

    def doc(kind: str, name: str) -> Document:
        key = f"{kind}/{name}"
        if key not in docs:
            text = (root / kind / name).read_text(encoding="utf-8", errors="replace")
            docs[key] = Document(text, path=name, title=name)
        return docs[key]

    reported: dict[tuple[str, str], list] = defaultdict(list)  # (susp, src) -> passages' suspect spans
    t0 = time.perf_counter()
    if mode == "pairs":
        for susp, src in pairs:
            r = api.compare(doc("susp", susp), doc("src", src), settings)
            reported[(susp, src)] = [
                (p.suspect_start, p.suspect_end) for s in r.sources for p in s.passages if p.excluded is None
            ]
    else:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            col = api.Collection(Path(tmp) / "pan.sverka", settings)
            sources = sorted({src for _, src in pairs})
            for name in sources:
                col.add_document(doc("src", name))
            for susp in sorted({s for s, _ in pairs}):
                r = col.check(doc("susp", susp), settings)
                for s in r.sources:
                    reported[(susp, s.title)] += [
                        (p.suspect_start, p.suspect_end) for p in s.passages if p.excluded is None
                    ]
            col.close()
    elapsed = time.perf_counter() - t0
    ours = _score(cases, reported)
    # the reference (bench/ref5gram.py) on the same pairs, or with its own index of the sources
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import ref5gram

    ref_reported: dict[tuple[str, str], list] = defaultdict(list)
    t0 = time.perf_counter()
    if mode == "pairs":
        for susp, src in pairs:
            ref_reported[(susp, src)] = ref5gram.spans(doc("susp", susp).text, doc("src", src).text)[0]
    else:
        ref = ref5gram.Collection()
        for name in sorted({src for _, src in pairs}):
            ref.add(name, doc("src", name).text)
        texts = dict(zip(ref.names, ref.texts))
        for susp in sorted({s for s, _ in pairs}):
            text = doc("susp", susp).text
            for name, _ in ref.check(text):
                ref_reported[(susp, name)] += ref5gram.spans(text, texts[name])[0]
    ref_elapsed = time.perf_counter() - t0
    return {
        "mode": mode,
        "pairs": len(pairs),
        "annotated": annotated,
        "not_relocated": lost,
        "cases": len(cases),
        **ours,
        "seconds": elapsed,
        "ref": {**_score(cases, ref_reported), "seconds": ref_elapsed},
    }


def _score(cases: list[Case], reported: dict[tuple[str, str], list]) -> dict:
    found = 0
    for c in cases:
        spans = _union(reported.get((c.susp, c.src), []))
        if 2 * _overlap(spans, [[c.start, c.end]]) >= c.end - c.start:
            found += 1
    true_by_susp = defaultdict(list)
    rep_by_susp = defaultdict(list)
    for c in cases:
        true_by_susp[c.susp].append((c.start, c.end))
    for (susp, _), spans in reported.items():
        rep_by_susp[susp] += spans
    rep_chars = inside = 0
    for susp, spans in rep_by_susp.items():
        u = _union(spans)
        rep_chars += sum(e - s for s, e in u)
        inside += _overlap(u, _union(true_by_susp.get(susp, [])))
    return {"found": found, "recall": found / len(cases) if cases else 0.0,
            "precision": inside / rep_chars if rep_chars else 1.0}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=DEFAULT)
    ap.add_argument("--limit", type=int, default=None, help="first N pairs only")
    ap.add_argument("--mode", choices=("pairs", "index"), default="pairs")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a Settings field")
    args = ap.parse_args(argv)
    from sverka.core.settings import Settings

    changes = {}
    for item in args.set:
        k, v = item.split("=", 1)
        changes[k] = type(getattr(Settings(), k))(float(v) if "." in v else int(v))
    r = evaluate(args.root, limit=args.limit, mode=args.mode, settings=Settings().replace(**changes))
    print(
        f"PAN13 {r['mode']}: {r['pairs']} pairs, {r['annotated']} annotated cases, "
        f"{r['not_relocated']} not re-located; found {r['found']}/{r['cases']} = {r['recall']:.1%}, "
        f"passage precision {r['precision']:.3f}, {r['seconds']:.1f} s"
    )
    ref = r["ref"]
    print(f"reference (bench/ref5gram.py): found {ref['found']}/{r['cases']} = {ref['recall']:.1%}, "
          f"passage precision {ref['precision']:.3f}, {ref['seconds']:.1f} s; time ratio {r['seconds'] / ref['seconds']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
