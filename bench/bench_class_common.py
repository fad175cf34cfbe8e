"""A class whose essays open with the same text, checked with its essays compared: the rule
setting aside what most of a class shares at its opening (``Settings.exclude_class_common``,
:func:`sverka.core.crosscheck.class_common`), on and off, beside the reference script.

    .venv/bin/python bench/bench_class_common.py [--essays 25] [--seeds 3] [--archive]

Built from ruslit (texts written by others), a class per seed and scenario:

* ``assignment``: every essay is a 2.5-4 KB stretch of its own ruslit text; 80 % of them open
  with the same "assignment" (the first ~500 characters of another ruslit text; a third of those
  under a title line of their own), the rest do not have it. Six essays copy 2-3 consecutive
  sentences from a classmate into a random place of their own text (its opening included).
* ``ring``: no assignment; 60 % of the essays open with the same paragraph of a text that is not
  in the collection (everyone copied the same introduction): a copy that must show. Six planted
  copies as above.

With ``--archive``, the same scenarios one year later: last year's class (drawn as above, no
planted copies) is the collection (a department's archive); this year's class (its own ruslit
texts, the same "assignment" or "introduction" in the same shares) is checked essay by essay
against it (``Settings.exclude_class_common``: :func:`sverka.core.exclusions.collection_common`),
six of its essays copying 2-3 sentences of a last-year essay; the reference counts words in a
5-gram shared with any archive essay.

Figures, per scenario: essays **wrongly accused** (at least 8 words counted as shared with a
classmate outside the planted copies and, for ``ring``, the copied introduction), words of the
**planted copies found** (the copier's side, counted), the **ring's introduction counted**, and the
time of the class's check with its essays compared (against an empty collection; the class
checked once before, untimed, so that its new word forms are analysed for both), beside the reference (``ref5gram.py``: words in a 5-gram shared
with any classmate; its time for the same comparisons) from the same run.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ref5gram  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RUSLIT = ROOT.parent / "shared" / "data" / "ruslit"
WORD = re.compile(r"\w+")
SENTENCE_END = re.compile(r"(?<=[.!?…])\s+(?=[А-ЯЁA-Z«—])")


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END.split(re.sub(r"\s+", " ", text)) if s.strip()]


def _stretch(text: str, chars: int, rng: np.random.Generator) -> str:
    sents = _sentences(text)
    k = int(rng.integers(0, max(1, len(sents) // 2)))
    out: list[str] = []
    while k < len(sents) and sum(len(s) + 1 for s in out) < chars:
        out.append(sents[k])
        k += 1
    return " ".join(out)


def _spans_of(text: str, piece: str | None) -> list[tuple[int, int]]:
    """Where ``piece`` (None: nothing) first stands in ``text``."""
    if piece is None:
        return []
    a = text.index(piece)
    return [(a, a + len(piece))]


def make_class(files: list[Path], n: int, scenario: str, rng: np.random.Generator):
    """(texts, planted spans per essay: [(start, end)], the ring's spans per essay)."""
    picks = rng.choice(len(files), size=n + 1, replace=False)
    bodies = [_stretch(files[i].read_text(encoding="utf-8"), int(rng.integers(2500, 4000)), rng) for i in picks[:n]]
    common = _stretch(files[picks[n]].read_text(encoding="utf-8"), 500, rng)
    heads = [""] * n
    ring: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    share = 0.8 if scenario == "assignment" else 0.6
    having = rng.random(n) < share
    for k in range(n):
        if having[k]:
            title = f"Сочинение ученика {k + 1}\n\n" if scenario == "assignment" and rng.random() < 1 / 3 else ""
            heads[k] = title + common + "\n\n"
    # planted copies: sentences of a classmate's body into a random place of the copier's body
    bodies_sents = [_sentences(b) for b in bodies]
    copied_from: dict[int, tuple[int, str]] = {}
    for copier in rng.choice(n, size=6, replace=False):
        other = int(rng.integers(0, n - 1))
        other += other >= copier
        sents = bodies_sents[other]
        m = int(rng.integers(2, 4))
        at = int(rng.integers(0, max(1, len(sents) - m)))
        piece = " ".join(sents[at:at + m])
        copied_from[int(copier)] = (other, piece)
    texts, planted = [], [[] for _ in range(n)]
    for k in range(n):
        sents = list(bodies_sents[k])
        piece = None
        if k in copied_from:
            piece = copied_from[k][1]
            where = int(rng.integers(0, len(sents) + 1))
            sents.insert(where, piece)
        body = " ".join(sents)
        text = heads[k] + body
        ring[k] += _spans_of(text, common if heads[k] and scenario == "ring" else None)
        planted[k] += _spans_of(text, piece)
        texts.append(text)
    for k, (other, piece) in copied_from.items():  # the copied-from essay's side is planted too
        a = texts[other].find(piece)
        if a >= 0:
            planted[other].append((a, a + len(piece)))
    return texts, planted, ring


def make_archive(files: list[Path], n: int, scenario: str, rng: np.random.Generator):
    """(last year's texts, this year's texts, planted spans per essay of this year, the ring's spans)."""
    picks = rng.choice(len(files), size=2 * n + 1, replace=False)
    bodies = [_stretch(files[i].read_text(encoding="utf-8"), int(rng.integers(2500, 4000)), rng) for i in picks[:2 * n]]
    common = _stretch(files[picks[2 * n]].read_text(encoding="utf-8"), 500, rng)
    share = 0.8 if scenario == "assignment" else 0.6

    def head() -> str:
        if rng.random() >= share:
            return ""
        title = f"Сочинение ученика {int(rng.integers(1, 40))}\n\n" if scenario == "assignment" and rng.random() < 1 / 3 else ""
        return title + common + "\n\n"

    archive = [head() + b for b in bodies[:n]]
    copiers = set(int(k) for k in rng.choice(n, size=6, replace=False))
    texts, planted, ring = [], [[] for _ in range(n)], [[] for _ in range(n)]
    for k in range(n):
        sents = _sentences(bodies[n + k])
        piece = None
        if k in copiers:
            other = _sentences(bodies[int(rng.integers(0, n))])
            m = int(rng.integers(2, 4))
            at = int(rng.integers(0, max(1, len(other) - m)))
            piece = " ".join(other[at:at + m])
            sents.insert(int(rng.integers(0, len(sents) + 1)), piece)
        top = head()
        text = top + " ".join(sents)
        ring[k] += _spans_of(text, common if top and scenario == "ring" else None)
        planted[k] += _spans_of(text, piece)
        texts.append(text)
    return archive, texts, planted, ring


def _written(texts: list[str], folder: Path, name: str = "essay") -> list[Path]:
    paths = []
    for k, t in enumerate(texts):
        p = folder / f"{name}{k:02d}.txt"
        p.write_text(t, encoding="utf-8")
        paths.append(p)
    return paths


def run_sverka_archive(archive: list[str], texts: list[str], on: bool, folder: Path):
    from sverka.core import api

    (folder / "archive").mkdir()
    _written(archive, folder / "archive", "last")
    paths = _written(texts, folder)
    settings = api.Settings(exclude_class_common=on)
    with api.Collection(folder / "archive.sverka") as col:
        col.add([str(folder / "archive")])
        t0 = time.perf_counter()
        batch = col.check_files(paths, settings, cross=False, workers=1)
        took = time.perf_counter() - t0
    spans = [[iv for s in it.result.sources for p in s.passages if p.excluded is None for iv in p.matched_spans()]
             for it in batch.items]
    return spans, took


def run_reference_archive(archive: list[str], texts: list[str]):
    t0 = time.perf_counter()
    spans = [[iv for u in archive for iv in ref5gram.spans(t, u)[0]] for t in texts]
    return spans, time.perf_counter() - t0


def _words_in(text: str, spans) -> set[int]:
    starts = [m.start() for m in WORD.finditer(text)]
    out = set()
    for a, b in spans:
        out.update(i for i, s in enumerate(starts) if a <= s < b)
    return out


def _figures(texts, planted, ring, counted_spans) -> dict:
    wrong, found, total, ring_in, ring_all = 0, 0, 0, 0, 0
    for k, text in enumerate(texts):
        counted = _words_in(text, counted_spans[k])
        known = _words_in(text, planted[k]) | _words_in(text, ring[k])
        if len(counted - known) >= 8:
            wrong += 1
        if planted[k]:
            mine = _words_in(text, planted[k][:1])
            found += len(mine & counted)
            total += len(mine)
        r = _words_in(text, ring[k])
        ring_in += len(r & counted)
        ring_all += len(r)
    return {"wrong": wrong, "found": found / max(1, total), "ring": ring_in / ring_all if ring_all else None}


def run_sverka(texts: list[str], on: bool, folder: Path):
    from sverka.core import api

    paths = _written(texts, folder)
    settings = api.Settings(exclude_class_common=on)
    with api.Collection(folder / "empty.sverka") as col:
        t0 = time.perf_counter()
        batch = col.check_files(paths, settings, cross=True, workers=1)
        took = time.perf_counter() - t0
    spans = []
    for it in batch.items:
        spans.append([iv for s in it.result.sources if s.classmate for p in s.passages if p.excluded is None
                      for iv in p.matched_spans()])
    return spans, took


def run_reference(texts: list[str]):
    t0 = time.perf_counter()
    spans = []
    for k, t in enumerate(texts):
        mine = []
        for m, u in enumerate(texts):
            if m != k:
                mine.extend(ref5gram.spans(t, u)[0])
        spans.append(mine)
    return spans, time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--essays", type=int, default=25)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--archive", action="store_true",
                    help="this year's essays checked one by one against last year's class in the collection")
    args = ap.parse_args()
    files = sorted(p for p in (RUSLIT / "prose").rglob("*.txt") if p.stat().st_size > 20_000)
    if not files:
        print(f"no ruslit prose under {RUSLIT}: nothing to measure")
        return 0
    print(f"{args.essays} essays a class, {len(files)} ruslit texts to draw from, seeds 0..{args.seeds - 1}")
    print(f"{'scenario':<11} {'seed':>4} | {'wrongly accused (of n)':>28} | {'planted copies found':>26} | "
          f"{'ring counted':>22} | time on / off / ref (ratio on/ref)")
    print(f"{'':<11} {'':>4} | {'on':>8} {'off':>8} {'ref':>8}   | {'on':>7} {'off':>7} {'ref':>7}   | "
          f"{'on':>6} {'off':>6} {'ref':>6}   |")
    with tempfile.TemporaryDirectory() as d:  # imports, the encoder and the form table loaded before any clock
        run_sverka(make_class(files, 6, "assignment", np.random.default_rng(99))[0], True, Path(d))
    for scenario in ("assignment", "ring"):
        for seed in range(args.seeds):
            rng = np.random.default_rng(1000 * (scenario == "ring") + seed)
            if args.archive:
                archive, texts, planted, ring = make_archive(files, args.essays, scenario, rng)
                with tempfile.TemporaryDirectory() as d0, tempfile.TemporaryDirectory() as d1, \
                        tempfile.TemporaryDirectory() as d2:
                    run_sverka_archive(archive, texts, True, Path(d0))  # new word forms analysed once
                    on, t_on = run_sverka_archive(archive, texts, True, Path(d1))
                    off, t_off = run_sverka_archive(archive, texts, False, Path(d2))
                ref, t_ref = run_reference_archive(archive, texts)
            else:
                texts, planted, ring = make_class(files, args.essays, scenario, rng)
                with tempfile.TemporaryDirectory() as d0, tempfile.TemporaryDirectory() as d1, \
                        tempfile.TemporaryDirectory() as d2:
                    run_sverka(texts, True, Path(d0))  # the class's new word forms analysed once, as in a window
                    on, t_on = run_sverka(texts, True, Path(d1))
                    off, t_off = run_sverka(texts, False, Path(d2))
                ref, t_ref = run_reference(texts)
            f_on, f_off, f_ref = (_figures(texts, planted, ring, s) for s in (on, off, ref))

            def pct(x):
                return "   -" if x is None else f"{100 * x:5.1f}%"

            print(f"{scenario:<11} {seed:>4} | {f_on['wrong']:>8} {f_off['wrong']:>8} {f_ref['wrong']:>8}   | "
                  f"{pct(f_on['found']):>7} {pct(f_off['found']):>7} {pct(f_ref['found']):>7}   | "
                  f"{pct(f_on['ring']):>6} {pct(f_off['ring']):>6} {pct(f_ref['ring']):>6}   | "
                  f"{t_on:.2f} / {t_off:.2f} / {t_ref:.2f} s ({t_on / t_ref:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
