"""Long sources (issue 37): a check's cost follows the suspect, not the length of its sources.

    .venv/bin/python bench/bench_long.py [--mb 40] [--fragments 1000] [--runs 1]
        [--stories-fragments 100] [--only main,stories] [--keep DIR] [--no-meaning]
        [--no-dictionary-table]

The collection: the longest texts of ``../shared/data/ruslit`` (300 KB and more) as they are,
and "novels" of 2-5 MB assembled from its texts (one author's texts in a shuffled order,
then anyone's when the author has too little), until ``--mb`` megabytes; everything is drawn
from a seeded generator, so a run makes the same collection every time. Fragments of 8-20 KB
are cut from its documents at word boundaries; a third of them lightly edited (a few words
replaced by words of the same text, two neighbouring words swapped, a word dropped).

* **main**: ``sverka index`` of the collection and ``sverka check --json`` of every fragment
  (one command each, as a user runs them), beside ``ref5gram.py`` doing the same in a child
  process (its index and its checks timed apart); ``--runs`` alternates the two and keeps the
  fastest of each. Detection: the share of fragments for which a document holding the
  fragment's text is listed, and the share for which its passages also cover at least 80 % of
  the fragment's characters in the suspect AND of its place in that source ("span").
* **stories**: the cost of one fragment when its candidates are long novels against when they
  are short stories: the same collection, and the same text cut into stories of about 20 KB
  (at line breaks), each indexed; ``--stories-fragments`` fragments cut from the long documents
  are checked warm, in-process, against each collection (alternating, after a warm-up; the
  collection keeps the sources it prepared, as the window does), and their mean and median
  times compared (issue 37's target: at most 1.5x); also the windows read of each long source.

* **short**: what a student's essay takes from a book: one to three sentences (10-40 words,
  beginning with a capital letter) of the long documents, verbatim or edited (a word replaced by another of its text, two
  neighbours swapped, a word dropped), each among four original sentences: Russian news
  headlines of ``../shared/data/paraphrase`` (ParaPhraser, written by others, in no book);
  ``--short-essays`` essays checked warm in-process, beside ``ref5gram.py``'s check of each.
  Found: half of a planted sentence's characters in a passage; originals flagged: any
  character. Also the windows a check read of each long source (what the chance places of a
  novel cost). Skipped when the headlines are absent.

* **postgres** (not in the default parts: it starts a PostgreSQL server, Debian's package, as
  ``tests/store`` does): the same novels added to a fresh database on a local server, and
  ``--stories-fragments`` fragments checked warm in-process against it and against the SQLite
  collection (alternating), beside ``ref5gram.py``'s check of each in the same process: a
  department's shared archive holding books.

The form cache lives in the run's folder, never the user's; the machine's table of every
dictionary form, which ``installer/bootstrap.sh`` builds, is linked into it (a machine that
installed Sverka and never analysed these texts), unless ``--no-dictionary-table``.

``--no-meaning``: indexed and checked with the meaning layer off (``sverka index
--no-find-by-meaning``, ``sverka check --no-find-by-meaning``), to state the layer's cost beside
the default (on).

Texts hold the same ruslit text in several novels (there is not 40 MB of it), so a fragment
usually has several true sources: each counts.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _machine import link_dictionary_table  # noqa: E402

ROOT = HERE.parent
RUSLIT = ROOT.parent / "shared" / "data" / "ruslit"
SVERKA = ROOT / ".venv" / "bin" / "sverka"
PY = sys.executable
REF = HERE / "ref5gram.py"

WORD = re.compile(r"\w+")
LONG_TEXT = 300_000  # bytes: a ruslit text this long stands as a document of its own


@dataclass
class Doc:
    name: str
    text: str
    parts: list[tuple[str, int]] = field(default_factory=list)  # (ruslit text, its offset in this document)


@dataclass
class Fragment:
    doc: str  # where it was cut
    start: int  # characters in that document
    end: int
    text: str  # as checked (edited or not)
    edited: bool


def ruslit_texts() -> dict[str, str]:
    out = {}
    for p in sorted(RUSLIT.rglob("*.txt")):
        t = p.read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n")
        if t.strip():
            out[str(p.relative_to(RUSLIT))] = t
    return out


def author_of(name: str) -> str:
    parts = Path(name).parts
    return parts[1] if len(parts) > 2 else parts[0]


def novel(rng: random.Random, texts: dict[str, str], names: list[str], target: int, name: str) -> Doc:
    """About ``target`` bytes of ``names``' texts in a shuffled order (then anyone's)."""
    own = names[:]
    rng.shuffle(own)
    rest = [n for n in texts if n not in set(own)]
    rng.shuffle(rest)
    doc = Doc(name, "")
    pieces, size, at = [], 0, 0
    for n in own + rest:
        if size >= target:
            break
        pieces.append(texts[n])
        doc.parts.append((n, at))
        at += len(texts[n]) + 2
        size += len(texts[n].encode())
    doc.text = "\n\n".join(pieces)
    return doc


def long_collection(mb: float, seed: int = 37) -> list[Doc]:
    """The longest ruslit texts, then novels, until ``mb`` MB (see the module docstring)."""
    rng = random.Random(seed)
    texts = ruslit_texts()
    docs = [Doc(f"long_{k:03d}.txt", t, [(n, 0)]) for k, (n, t) in
            enumerate(sorted(((n, t) for n, t in texts.items() if len(t.encode()) >= LONG_TEXT),
                             key=lambda x: (-len(x[1].encode()), x[0])))]
    by_author: dict[str, list[str]] = {}
    for n in texts:
        by_author.setdefault(author_of(n), []).append(n)
    authors = sorted(by_author)
    weights = [sum(len(texts[n].encode()) for n in by_author[a]) for a in authors]
    total = sum(len(d.text.encode()) for d in docs)
    k = 0
    while total < mb * 1e6:
        a = rng.choices(authors, weights)[0]
        d = novel(rng, texts, by_author[a], rng.randint(2_000_000, 5_000_000), f"novel_{k:03d}.txt")
        docs.append(d)
        total += len(d.text.encode())
        k += 1
    return docs


def cut(rng: random.Random, text: str, lo: int = 8_000, hi: int = 20_000) -> tuple[int, int]:
    """A span of ``lo``-``hi`` bytes of UTF-8 starting and ending at word boundaries."""
    size = rng.randint(lo, hi)
    chars = max(200, int(size * len(text) / max(1, len(text.encode()))))
    for _ in range(20):
        a = rng.randrange(0, max(1, len(text) - chars))
        m = WORD.search(text, a)
        if m is None:
            continue
        a = m.start()
        b = min(len(text), a + chars)
        while b < len(text) and (text[b - 1].isalnum() and text[b].isalnum()):
            b += 1
        if len(text[a:b].encode()) >= lo * 0.9:
            return a, b
    return 0, min(len(text), chars)


def edit(rng: random.Random, text: str) -> str:
    """A few words replaced by other words of the text, two neighbours swapped, a word dropped."""
    words = list(WORD.finditer(text))
    if len(words) < 40:
        return text
    pool = [m.group() for m in words]
    changes: dict[int, str] = {}
    for _ in range(rng.randint(2, 5)):
        k = rng.randrange(len(words))
        changes[k] = rng.choice(pool)
    for _ in range(rng.randint(1, 2)):
        k = rng.randrange(len(words) - 1)
        changes[k], changes[k + 1] = words[k + 1].group(), words[k].group()
    k = rng.randrange(len(words))
    changes[k] = ""
    return changed(text, words, changes)


def changed(text: str, words: list, changes: dict[int, str]) -> str:
    """``text`` with each word ``words[k]`` (a match) of ``changes`` written ``changes[k]``."""
    out, pos = [], 0
    for k in sorted(changes):
        m = words[k]
        out.append(text[pos:m.start()])
        out.append(changes[k])
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def fragments(docs: list[Doc], n: int, seed: int = 38) -> list[Fragment]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        d = rng.choice(docs)
        a, b = cut(rng, d.text)
        edited = rng.random() < 1 / 3
        text = d.text[a:b]
        out.append(Fragment(d.name, a, b, edit(rng, text) if edited else text, edited))
    return out


def holders(docs: list[Doc], f: Fragment) -> dict[str, tuple[int, int]]:
    """Every document holding the fragment's original text: {name: (start, end)}."""
    by_name = {d.name: d for d in docs}
    src = by_name[f.doc]
    out = {f.doc: (f.start, f.end)}
    # the ruslit text it was cut from, and where else that text stands
    inside = [(n, at) for n, at in src.parts if at <= f.start]
    if not inside:
        return out
    n, at = max(inside, key=lambda x: x[1])
    offset = f.start - at
    length = f.end - f.start
    for d in docs:
        for m, bt in d.parts:
            if m == n and d.name != f.doc and d.text[bt + offset:bt + offset + length] == src.text[f.start:f.end]:
                out[d.name] = (bt + offset, bt + offset + length)
    return out


def covered(spans: list[tuple[int, int]], lo: int, hi: int) -> float:
    spans = sorted((max(a, lo), min(b, hi)) for a, b in spans if b > lo and a < hi)
    total, end = 0, lo
    for a, b in spans:
        a = max(a, end)
        if b > a:
            total += b - a
            end = b
    return total / max(1, hi - lo)


def detection(docs: list[Doc], frags: list[Fragment], results: list[dict]) -> tuple[float, float]:
    listed = spanned = 0
    for f, r in zip(frags, results):
        where = holders(docs, f)
        found = [s for s in r["sources"] if Path(s["path"]).name in where]
        if found:
            listed += 1
        for s in found:
            lo, hi = where[Path(s["path"]).name]
            ps = [p for p in s["passages"] if not p["excluded"]]
            cov_a = covered([(p["suspect_start"], p["suspect_end"]) for p in ps], 0, len(f.text))
            cov_b = covered([(p["source_start"], p["source_end"]) for p in ps], lo, hi)
            if cov_a >= 0.8 and cov_b >= 0.8:
                spanned += 1
                break
    return listed / max(1, len(frags)), spanned / max(1, len(frags))


def write(folder: Path, docs: list[Doc]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for d in docs:
        (folder / d.name).write_text(d.text, encoding="utf-8")


REF_CHILD = r"""
import json, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import ref5gram
t = time.perf_counter()
c = ref5gram.Collection()
for p in sorted(Path(sys.argv[2]).rglob("*.txt")):
    c.add(str(p), p.read_text(encoding="utf-8", errors="replace"))
index = time.perf_counter() - t
t = time.perf_counter()
for p in Path(sys.argv[3]).read_text(encoding="utf-8").split("\n"):
    if p:
        c.check(Path(p).read_text(encoding="utf-8"))
print(json.dumps({"index": index, "check": time.perf_counter() - t}))
"""


def timed(cmd, env, out=subprocess.DEVNULL) -> float:
    t = time.perf_counter()
    subprocess.run([str(c) for c in cmd], check=True, stdout=out, stderr=subprocess.PIPE, env=env)
    return time.perf_counter() - t


def row(what: str, ours: float, ref: float, target: str = "") -> None:
    print(f"| {what} | {ours:.2f} s | {ref:.2f} s | {ours / ref if ref else float('nan'):.2f} | {target} |", flush=True)


def novels_db(args, work: Path, env: dict, novels: list[Doc], name: str) -> Path:
    """The collection of the long documents: the main part's when it ran in ``work``, else
    ``name`` there, indexed by ``sverka index`` when missing."""
    folder = work / "long"
    if not folder.exists():
        write(folder, novels)
    db = work / f"long-{args.runs - 1}.sverka"
    if not db.exists():
        db = work / name
        if not db.exists():
            subprocess.run([str(SVERKA), "index", "--db", str(db), *(["--no-find-by-meaning"] if args.no_meaning else []),
                            str(folder)], check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return db


@contextlib.contextmanager
def counted_windows():
    """A list receiving the number of windows each long source is read in while it is open (a
    spy on ``check.read_windows``)."""
    from sverka.core import check

    windows: list[int] = []
    read = check.read_windows

    def counted(*a, **k):
        w = read(*a, **k)
        if w is not None:
            windows.append(len(w.at))
        return w

    check.read_windows = counted
    try:
        yield windows
    finally:
        check.read_windows = read


def bench_main(args, work: Path, env: dict) -> None:
    t = time.perf_counter()
    docs = long_collection(args.mb)
    folder = work / "long"
    write(folder, docs)
    frags = fragments(docs, args.fragments)
    fdir = work / "frags"
    fdir.mkdir()
    paths = []
    for k, f in enumerate(frags):
        p = fdir / f"f{k:04d}.txt"
        p.write_text(f.text, encoding="utf-8")
        paths.append(p)
    (work / "frags.list").write_text("\n".join(map(str, paths)), encoding="utf-8")
    mb = sum(len(d.text.encode()) for d in docs) / 1e6
    kb = sum(len(f.text.encode()) for f in frags) / 1e3
    print(f"collection: {len(docs)} documents, {mb:.1f} MB (largest {max(len(d.text.encode()) for d in docs) / 1e6:.1f} MB); "
          f"{len(frags)} fragments, {kb:.0f} KB, {sum(f.edited for f in frags)} edited "
          f"(made in {time.perf_counter() - t:.1f} s)\n", flush=True)
    best: dict[str, float] = {}
    out = work / "check.jsonl"
    for r in range(args.runs):
        db = work / f"long-{r}.sverka"
        off = ["--no-find-by-meaning"] if args.no_meaning else []
        ti = timed([SVERKA, "index", "--db", db, *off, folder], env)
        with out.open("w", encoding="utf-8") as fh:
            tc = timed([SVERKA, "check", "--db", db, "--json", *off, *paths], env, out=fh)
        ref = json.loads(subprocess.run([PY, "-c", REF_CHILD, str(HERE), str(folder), str(work / "frags.list")],
                                        check=True, capture_output=True, text=True).stdout)
        print(f"run {r + 1}: Sverka index {ti:.1f} s + check {tc:.1f} s; reference {ref['index']:.1f} s + "
              f"{ref['check']:.1f} s", flush=True)
        for k, v in (("index", ti), ("check", tc), ("total", ti + tc), ("ref_index", ref["index"]),
                     ("ref_check", ref["check"]), ("ref_total", ref["index"] + ref["check"])):
            best[k] = min(best.get(k, v), v)
        if r + 1 < args.runs:
            db.unlink()
    results = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    by_path = {Path(r["suspect"]["path"]).name: r for r in results}
    ordered = [by_path.get(p.name, {"sources": []}) for p in paths]
    listed, spanned = detection(docs, frags, ordered)
    print(f"\n| figure (fastest of {args.runs}) | Sverka | reference | ratio | target |\n|---|---|---|---|---|")
    row("index", best["index"], best["ref_index"])
    row(f"check {len(frags)} fragments", best["check"], best["ref_check"])
    row("index + check", best["total"], best["ref_total"], "<= 0.5x")
    print(f"\ndetection: a true source listed for {100 * listed:.1f} % of the fragments; with >= 80 % of the "
          f"fragment and of its place in the source covered: {100 * spanned:.1f} %", flush=True)


def stories_of(docs: list[Doc]) -> list[Doc]:
    """The same text as ``docs``, cut into stories of about 20 KB at line breaks."""
    stories = []
    for d in docs:
        pos = 0
        while pos < len(d.text):
            end = min(len(d.text), pos + 11_000)  # ~20 KB of Cyrillic
            nl = d.text.find("\n", end)
            end = len(d.text) if nl < 0 or nl - end > 3_000 else nl + 1
            stories.append(Doc(f"{d.name[:-4]}_story_{len(stories):05d}.txt", d.text[pos:end], [(d.name, pos)]))
            pos = end
    return stories


def fastest_checks(cols: dict, frags: list, runs: int, settings, reference=None) -> dict[str, list[float]]:
    """Each fragment checked warm against both collections of ``cols`` (which goes first
    alternates fragment by fragment and run by run, so the machine's drift falls on both), the
    fastest of ``runs`` per fragment, by label; with ``reference`` (a ref5gram.Collection) its
    look-up of each fragment timed the same way, as "reference"."""
    from sverka.core.document import document_from_text

    for c in cols.values():  # warm-up: dictionaries, pages, a server's connection
        c.check(document_from_text(frags[0].text, title="warm-up"), settings=settings)
    first, second = cols
    best = {k: [float("inf")] * len(frags) for k in (*cols, *(("reference",) if reference is not None else ()))}
    for r in range(runs):
        for k, f in enumerate(frags):
            for label in ((first, second) if (k + r) % 2 == 0 else (second, first)):
                doc = document_from_text(f.text, title=f"f{k}")
                t = time.perf_counter()
                cols[label].check(doc, settings=settings)
                best[label][k] = min(best[label][k], time.perf_counter() - t)
            if reference is not None:
                t = time.perf_counter()
                reference.check(f.text)
                best["reference"][k] = min(best["reference"][k], time.perf_counter() - t)
    return best


def bench_stories(args, work: Path, env: dict) -> None:
    from sverka.core import api

    novels = long_collection(args.mb)
    stories = stories_of(novels)
    frags = fragments(novels, args.stories_fragments, seed=40)
    cols = {}
    for label, docs in (("novels", novels), ("stories", stories)):
        folder = work / ("long" if label == "novels" else "stories")
        if not folder.exists():
            write(folder, docs)
        db = work / f"st-{label}.sverka"
        if label == "novels" and (work / f"long-{args.runs - 1}.sverka").exists():
            db = work / f"long-{args.runs - 1}.sverka"  # the main part's
        if not db.exists():
            subprocess.run([str(SVERKA), "index", "--db", str(db), *(["--no-find-by-meaning"] if args.no_meaning else []),
                            str(folder)], check=True, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        cols[label] = api.Collection(db)
    sizes = {k: (len(v), sum(len(d.text.encode()) for d in v) / 1e6) for k, v in (("novels", novels), ("stories", stories))}
    print(f"\nper fragment: the same {sizes['novels'][1]:.1f} MB as {sizes['novels'][0]} long documents or "
          f"{sizes['stories'][0]} stories; {len(frags)} fragments cut from the long documents, checked warm "
          f"in-process\n", flush=True)
    os.environ["SVERKA_CACHE_DIR"] = env["SVERKA_CACHE_DIR"]
    checked = cols["novels"].settings.replace(find_by_meaning=not args.no_meaning)
    with counted_windows() as windows:  # stories are read whole
        times = fastest_checks(cols, frags, args.runs, checked)
    for c in cols.values():
        c.close()
    mean = {k: statistics.mean(v) for k, v in times.items()}
    med = {k: statistics.median(v) for k, v in times.items()}
    print("| per fragment (fastest of runs) | novels | stories | ratio | target |\n|---|---|---|---|---|")
    print(f"| mean | {1000 * mean['novels']:.1f} ms | {1000 * mean['stories']:.1f} ms | "
          f"{mean['novels'] / mean['stories']:.2f} | <= 1.5x |")
    print(f"| median | {1000 * med['novels']:.1f} ms | {1000 * med['stories']:.1f} ms | "
          f"{med['novels'] / med['stories']:.2f} | |", flush=True)
    if windows:
        print(f"\nlong sources read in windows: {len(windows)} (warm-up and runs), {sum(windows)} windows, "
              f"a source: median {statistics.median(windows):.0f}, mean {statistics.mean(windows):.1f}", flush=True)


HEADLINES = ROOT.parent / "shared" / "data" / "paraphrase" / "paraphraser_train.xml"


def edit_sentence(rng: random.Random, text: str) -> str:
    """One or two of: a word replaced by another word of the sentence, two neighbours swapped,
    a word dropped."""
    words = list(WORD.finditer(text))
    if len(words) < 6:
        return text
    pool = [m.group() for m in words]
    changes: dict[int, str] = {}
    for _ in range(rng.randint(1, 2)):
        k = rng.randrange(len(words) - 1)
        what = rng.random()
        if what < 1 / 3:
            changes[k] = rng.choice(pool)
        elif what < 2 / 3:
            changes[k], changes[k + 1] = words[k + 1].group(), words[k].group()
        else:
            changes[k] = ""
    return re.sub(r"  +", " ", changed(text, words, changes))


def short_essays(docs: list[Doc], heads: list[str], n: int, seed: int = 42) -> list[tuple[str, list]]:
    """Essays of headlines with one to three sentences of the long documents: (text, [(kind,
    start, end)]), kind "original", "verbatim" or "edited"."""
    rng = random.Random(seed)
    rng.shuffle(heads)
    out, h = [], 0
    for _ in range(n):
        parts = []
        for _ in range(rng.randint(1, 3)):
            for _ in range(4):
                parts.append(("original", heads[h % len(heads)]))
                h += 1
            d = rng.choice(docs)
            a = rng.randrange(0, max(1, len(d.text) - 6000))
            found = [x for x in re.split(r"(?<=[.!?])\s+", d.text[a:a + 6000])[1:-1]
                     if 10 <= len(x.split()) <= 40 and "\n" not in x and x[0].isupper()]
            if found:
                x = rng.choice(found)
                kind = "verbatim" if rng.random() < 0.4 else "edited"
                parts.append((kind, x if kind == "verbatim" else edit_sentence(rng, x)))
        for _ in range(2):
            parts.append(("original", heads[h % len(heads)]))
            h += 1
        text, spans = "", []
        for kind, x in parts:
            spans.append((kind, len(text), len(text) + len(x)))
            text += x + " "
        out.append((text, spans))
    return out


def bench_short(args, work: Path, env: dict) -> None:
    if not HEADLINES.is_file():
        print(f"short: {HEADLINES} is missing; skipped")
        return
    import ref5gram
    import numpy as np

    from sverka.core import api
    from sverka.core.document import document_from_text

    raw = re.findall(r'<value name="text_[12]">([^<]+)</value>', HEADLINES.read_text(encoding="utf-8"))
    heads = sorted({x.strip().rstrip(".") + "." for x in raw if len(x.split()) >= 4})
    novels = long_collection(args.mb)
    essays = short_essays(novels, heads, args.short_essays)
    db = novels_db(args, work, env, novels, "short.sverka")
    os.environ["SVERKA_CACHE_DIR"] = env["SVERKA_CACHE_DIR"]
    col = api.Collection(db)
    checked = col.settings.replace(find_by_meaning=not args.no_meaning)
    ref = ref5gram.Collection()
    for d in novels:
        ref.add(d.name, d.text)
    found = {"verbatim": [0, 0], "edited": [0, 0]}
    flagged = originals = 0
    ours = theirs = 0.0
    with counted_windows() as windows:
        col.check(document_from_text(essays[0][0], title="warm-up"), settings=checked)
        windows.clear()
        for k, (text, spans) in enumerate(essays):
            doc = document_from_text(text, title=f"essay {k}")
            t = time.perf_counter()
            result = col.check(doc, settings=checked)
            ours += time.perf_counter() - t
            t = time.perf_counter()
            ref.check(text)
            theirs += time.perf_counter() - t
            cover = np.zeros(len(text), bool)
            for src in result.sources:
                for p in src.passages:
                    if p.excluded is None:
                        cover[p.suspect_start:p.suspect_end] = True
            for kind, a, b in spans:
                if kind == "original":
                    originals += 1
                    flagged += bool(cover[a:b].any())
                else:
                    found[kind][1] += 1
                    found[kind][0] += cover[a:b].mean() >= 0.5
    col.close()
    n = len(essays)
    print(f"\nshort: {n} essays, sentences of the long documents among {originals} headlines, checked warm in-process")
    for kind, (hit, total) in found.items():
        print(f"  {kind:8s} sentences found: {100 * hit / max(total, 1):5.1f} % of {total}")
    print(f"  original sentences flagged: {100 * flagged / max(originals, 1):.1f} % of {originals}")
    print(f"  a check: {1000 * ours / n:.1f} ms, the reference's {1000 * theirs / n:.1f} ms (ratio {ours / theirs:.2f})")
    if windows:
        print(f"  long sources read in windows: {len(windows)}, windows a source: median {statistics.median(windows):.0f}, "
              f"mean {statistics.mean(windows):.1f}", flush=True)


def bench_postgres(args, work: Path, env: dict) -> None:
    """The per-fragment cost on a department's shared PostgreSQL archive holding the same novels,
    beside the same collection in SQLite and the reference (in-process, its own index in memory)."""
    sys.path.insert(0, str(ROOT / "tests" / "store"))
    import shutil

    import ref5gram
    from pgserver import PostgresServer, binaries

    from sverka.core import api

    bindir = binaries()
    if bindir is None:
        print("postgres: no PostgreSQL server binaries (apt-get install postgresql); skipped")
        return
    novels = long_collection(args.mb)
    frags = fragments(novels, args.stories_fragments, seed=41)
    folder = work / "long"
    db = novels_db(args, work, env, novels, "pg-sqlite.sverka")
    os.environ["SVERKA_CACHE_DIR"] = env["SVERKA_CACHE_DIR"]
    root = Path(tempfile.mkdtemp(prefix="sverka-bench-pg-"))
    os.chmod(root, 0o755)
    server = PostgresServer(bindir, root)  # runs as nobody when we are root
    server.start()
    try:
        pg = api.Collection(server.create_database())
        t = time.perf_counter()
        pg.add([str(folder)])
        print(f"\npostgres: the {len(novels)} long documents added to a local server in {time.perf_counter() - t:.1f} s; "
              f"{len(frags)} fragments checked warm in-process against it and against the same SQLite collection",
              flush=True)
        cols = {"sqlite": api.Collection(db), "postgres": pg}
        ref = ref5gram.Collection()
        for d in novels:
            ref.add(d.name, d.text)
        checked = cols["sqlite"].settings.replace(find_by_meaning=not args.no_meaning)
        best = fastest_checks(cols, frags, args.runs, checked, reference=ref)
        for c in cols.values():
            c.close()
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
    mean = {k: statistics.mean(v) for k, v in best.items()}
    print("| per fragment (fastest of runs), mean | SQLite | PostgreSQL | reference | ratio SQLite / PostgreSQL |\n"
          "|---|---|---|---|---|")
    print(f"| ms | {1000 * mean['sqlite']:.1f} | {1000 * mean['postgres']:.1f} | {1000 * mean['reference']:.1f} | "
          f"{mean['sqlite'] / mean['reference']:.2f} / {mean['postgres'] / mean['reference']:.2f} |", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=40.0, help="megabytes of the collection (40)")
    ap.add_argument("--fragments", type=int, default=1000)
    ap.add_argument("--stories-fragments", type=int, default=100)
    ap.add_argument("--runs", type=int, default=1, help="alternate runs; the fastest of each is kept")
    ap.add_argument("--short-essays", type=int, default=150)
    ap.add_argument("--only", default="main,stories,short",
                    help="main, stories, short, postgres (not in the default: starts a server)")
    ap.add_argument("--keep", help="a folder to keep the collections and fragments in")
    ap.add_argument("--no-meaning", action="store_true",
                    help="index and check without the meaning layer (Settings.find_by_meaning off)")
    ap.add_argument("--no-dictionary-table", action="store_true",
                    help="time a machine whose installation built no table of dictionary forms")
    args = ap.parse_args()
    if not RUSLIT.is_dir():
        print(f"{RUSLIT} is missing", file=sys.stderr)
        return 2
    only = set(args.only.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.keep) if args.keep else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "SVERKA_CACHE_DIR": str(work / "cache")}
        if not args.no_dictionary_table:
            linked = link_dictionary_table(work / "cache")
            print(f"dictionary table linked from the machine's cache: {', '.join(linked) or 'none built'}")
        if "main" in only:
            bench_main(args, work, env)
        if "stories" in only:
            bench_stories(args, work, env)
        if "short" in only:
            bench_short(args, work, env)
        if "postgres" in only:
            bench_postgres(args, work, env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
