"""Detection benchmark: Sverka beside the exact word-5-gram reference script, in one run.

    .venv/bin/python bench/bench_detection.py [--only a,b,c,d] [--seed 7]

Every figure is printed for Sverka AND for ``bench/ref5gram.py`` on the same inputs.
Inputs are built here from ``../shared/data`` (ruslit; PAN-2013 source documents for
English) by rewriting real text the way students do; nothing is tuned to them.

(a) **1 MB pairs.** A source text of ~1 MB and a suspect of ~1 MB of OTHER prose with 30
    passages (20-120 words, from a sentence start) of the source planted between its
    paragraphs (filler paragraphs that already share a 5-word run with the source are left
    out: they hold real copies, e.g. the same web boilerplate on two pages), each rewritten one way: ``verbatim``; ``edited`` (every 7th word replaced by
    another word); ``reordered`` (the passage's sentences reversed, and in each sentence the
    first clause moved to its end); ``inflected`` (Russian: every other inflectable word in
    another case/number/person). Found = at least half of a passage's characters inside
    reported passages; character precision = reported characters inside planted passages /
    reported characters. English uses the PAN-2013 source documents (two halves, ~0.85 MB each).
(b) **Four levels of rewriting.** Source passages of ~200 words (Russian and English) in a
    collection with distractors; for each, four suspects: ``verbatim`` (a cut: 70 % of the
    sentences, in order), ``light`` (a cut with 15 % of words in another form, 5 % deleted,
    5 % inserted), ``heavy`` (sentences shuffled, clauses rotated, 40 % of words in another
    form, 20 % deleted, 15 % inserted, 20 % replaced), ``original`` (prose from a text not in
    the collection). Each suspect is checked against the collection; the share is
    ``borrowed_percent`` (reference: share of the suspect's words inside a 5-gram of its best
    source). Spearman of share with level (3, 2, 1, 0); AUC copied (levels 1-3) vs original.
(c) **Essays.** 24 essays of 12 sentences, borrowed sentences (from collection texts,
    verbatim or lightly edited) and original ones (from texts outside it) interleaved at
    random; Russian (Chekhov in the collection, Gorky and Pushkin outside), then English (every
    other PAN-2013 source page in the collection, the rest outside). Original sentences highlighted: at least half of their words inside a counted
    passage (and, stricter, any word). Borrowed sentences found likewise.
(d) **Copied dialogue.** Pages (~2 000 characters) of novels rich in « » dialogue, copied
    exactly; the collection holds the novel and another edition of it (ё as е, other dashes
    and quotation marks, 2 % of words changed). Containment of the copy in its own edition,
    and whether that edition is listed first.
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
from _corpus import inflect_other  # noqa: E402
from bench_pan13 import _overlap, _union  # noqa: E402

DATA = HERE.parent.parent / "shared" / "data"
VERBOSE = False
WORD = re.compile(r"\w+")
SENT = re.compile(r"(?<=[.!?…])[»\"”)]*\s+(?=[«\"„“—–-]?\s*[A-ZА-ЯЁ])")
PARA = re.compile(r"\n\s*\n")


def _read(p: Path) -> str:
    return p.read_text(encoding="utf-8", errors="replace")


def _texts(folder: Path, pattern: str = "*.txt") -> list[tuple[str, str]]:
    return [(p.name, _read(p)) for p in sorted(folder.rglob(pattern)) if p.name != "README.md"]


def _take(texts: list[tuple[str, str]], limit: int) -> str:
    out, size = [], 0
    for _, t in texts:
        if size >= limit:
            break
        t = t[: limit - size + 1000]
        out.append(t)
        size += len(t.encode("utf-8"))
    s = "\n\n".join(out).encode("utf-8")[:limit].decode("utf-8", "ignore")
    return s


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENT.split(text) if s.strip()]


def _merge(iv):
    return [tuple(x) for x in _union(iv)]


# -- rewriting -------------------------------------------------------------------------

class Rewriter:
    def __init__(self, rng: np.random.Generator, filler: list[str]) -> None:
        import pymorphy3
        import simplemma

        self.rng = rng
        self.morph = pymorphy3.MorphAnalyzer()
        self.simplemma = simplemma
        self.filler = filler

    def other_form(self, w: str) -> str:
        if re.fullmatch(r"[а-яёА-ЯЁ]+", w):
            return inflect_other(w, self.morph, self.rng)
        if re.fullmatch(r"[A-Za-z]+", w):
            lemma = self.simplemma.lemmatize(w.lower(), lang="en")
            if lemma != w.lower():
                return lemma if w.islower() else lemma.capitalize()
            return w + "s" if not w.endswith("s") else w[:-1]
        return w

    def words(self, text: str, *, form=0.0, delete=0.0, insert=0.0, replace=0.0, every=0) -> str:
        out, pos, k = [], 0, 0
        for m in WORD.finditer(text):
            out.append(text[pos : m.start()])
            pos = m.end()
            w = m.group()
            k += 1
            r = self.rng.random()
            if every and k % every == 0:
                w = self.filler[int(self.rng.integers(len(self.filler)))]
            elif r < delete:
                continue
            elif r < delete + replace:
                w = self.filler[int(self.rng.integers(len(self.filler)))]
            elif r < delete + replace + form:
                w = self.other_form(w)
            out.append(w)
            if insert and self.rng.random() < insert:
                out.append(" " + self.filler[int(self.rng.integers(len(self.filler)))])
        out.append(text[pos:])
        return "".join(out)

    @staticmethod
    def rotate_clauses(sentence: str) -> str:
        end = re.search(r"[.!?…]+[»\"”)]*$", sentence)
        tail = end.group() if end else ""
        body = sentence[: len(sentence) - len(tail)]
        parts = [p for p in re.split(r",\s+", body) if p]
        if len(parts) < 2:
            return sentence
        first = parts[0]
        rest = parts[1:]
        rest[0] = rest[0][:1].upper() + rest[0][1:]
        first = first[:1].lower() + first[1:] if not first[:2].isupper() else first
        return ", ".join(rest + [first]) + tail

    def reorder(self, text: str, shuffle: bool = False) -> str:
        ss = sentences(text)
        if shuffle:
            order = self.rng.permutation(len(ss)).tolist()
            ss = [ss[k] for k in order]
        else:
            ss = ss[::-1]
        return " ".join(self.rotate_clauses(s) for s in ss)


def passage(text: str, rng: np.random.Generator, lo: int, hi: int, prose: bool = True) -> str:
    """lo..hi words of ``text`` from a sentence start, ending at a sentence end if one is near.

    ``prose``: sentences of 6 words or more on average (a paragraph of an essay, not the
    one-word lines of a play)."""
    starts = [0] + [m.end() for m in SENT.finditer(text)]
    for attempt in range(200):
        s = starts[int(rng.integers(len(starts)))]
        ws = list(WORD.finditer(text, s, min(len(text), s + 2000)))
        n = int(rng.integers(lo, hi + 1))
        if len(ws) < n:
            continue
        end = ws[n - 1].end()
        stop = re.search(r"[.!?…][»\"”)]*", text[end : end + 200])
        if stop:
            end += stop.end()
        chunk = text[s:end]
        if prose and attempt < 150 and len(WORD.findall(chunk)) < 6 * len(sentences(chunk)):
            continue
        if "\n\n" not in chunk:
            return re.sub(r"\s+", " ", chunk).strip()
    return re.sub(r"\s+", " ", text[:2000]).strip()


# -- Sverka and the reference ----------------------------------------------------------

_LAST_KINDS: list[tuple[int, int, str]] = []  # (start, end, kind) of the last sverka_compare's passages


def sverka_compare(suspect: str, source: str):
    from sverka.core import api

    r = api.compare(api.document_from_text(suspect, "suspect"), api.document_from_text(source, "source"))
    counted = [p for s in r.sources for p in s.passages if p.excluded is None]
    _LAST_KINDS[:] = [(p.suspect_start, p.suspect_end, p.kind) for p in counted]
    return [(p.suspect_start, p.suspect_end) for p in counted]


def kinds_of_planted(planted) -> dict[str, int]:
    """The kind label of the passage holding most of each planted passage (last compare)."""
    from collections import Counter

    out: Counter = Counter()
    for s0, e0 in planted:
        best = max(_LAST_KINDS, key=lambda k: min(e0, k[1]) - max(s0, k[0]), default=None)
        if best is not None and min(e0, best[1]) > max(s0, best[0]):
            out[best[2]] += 1
    return dict(out)


def ref_compare(suspect: str, source: str):
    return ref5gram.spans(suspect, source)[0]


def _grams(text: str, n: int) -> set:
    w = [x.lower() for x in WORD.findall(text)]
    return {tuple(w[i : i + n]) for i in range(len(w) - n + 1)}


def score_planted(reported, planted, n_chars):
    rep = _merge(reported)
    found = sum(1 for s, e in planted if _overlap(rep, [(s, e)]) * 2 >= e - s)
    inside = _overlap(rep, _merge(planted))
    total = sum(e - s for s, e in rep)
    return found, (inside / total if total else 1.0)


# -- (a) ----------------------------------------------------------------------------

def pairs_1mb(rng, kinds_by_lang):
    print("\n(a) 1 MB pairs, 30 planted passages each: found / 30, character precision")
    print(f"{'pair':<22} {'Sverka found':>12} {'prec':>6} {'time s':>7} | {'5-gram found':>12} {'prec':>6} {'time s':>7}")
    out = []
    for lang, (source, filler_text, kinds) in kinds_by_lang.items():
        filler_words = WORD.findall(filler_text[:200000])
        rw = Rewriter(rng, filler_words)
        # Paragraphs of the filler that already share a run of 5 words with the source (the
        # same web boilerplate on two pages, quotations of one book in another) hold real
        # copies: left out, so precision counts only what was planted.
        src_grams = _grams(source, 5)
        paras = [p for p in PARA.split(filler_text) if p.strip() and not (_grams(p, 5) & src_grams)]
        for kind in kinds:
            planted_texts = []
            for _ in range(30):
                p = passage(source, rng, 20, 120)
                if kind == "edited":
                    p = rw.words(p, every=7)
                elif kind == "reordered":
                    p = rw.reorder(p)
                elif kind == "inflected":
                    p = rw.words(p, form=0.5)
                planted_texts.append(p)
            slots = sorted(rng.choice(np.arange(1, len(paras)), size=30, replace=False).tolist())
            parts, planted, pos, k = [], [], 0, 0
            for idx, para in enumerate(paras):
                if k < 30 and idx == slots[k]:
                    t = planted_texts[k]
                    planted.append((pos, pos + len(t)))
                    parts.append(t + "\n\n")
                    pos += len(t) + 2
                    k += 1
                parts.append(para + "\n\n")
                pos += len(para) + 2
            suspect = "".join(parts)
            t0 = time.perf_counter()
            sv = sverka_compare(suspect, source)
            t1 = time.perf_counter()
            rf = ref_compare(suspect, source)
            t2 = time.perf_counter()
            f1, p1 = score_planted(sv, planted, len(suspect))
            if VERBOSE:
                rep = _merge(sv)
                for s0, e0 in planted:
                    if _overlap(rep, [(s0, e0)]) * 2 < e0 - s0:
                        print(f"  missed ({kind}): {suspect[s0:e0][:300]!r}")
            f2, p2 = score_planted(rf, planted, len(suspect))
            name = f"{lang} {kind}"
            labels = kinds_of_planted(planted)
            print(f"{name:<22} {f1:>9} /30 {p1:>6.3f} {t1 - t0:>7.2f} | {f2:>9} /30 {p2:>6.3f} {t2 - t1:>7.2f}"
                  f"   labels: {', '.join(f'{k} {v}' for k, v in sorted(labels.items(), key=lambda kv: -kv[1]))}")
            out.append((name, f1, p1, f2, p2))
    return out


# -- (b) ----------------------------------------------------------------------------

def spearman(x, y) -> float:
    def ranks(v):
        v = np.asarray(v, dtype=float)
        order = np.argsort(v, kind="stable")
        r = np.empty(len(v))
        r[order] = np.arange(len(v))
        for val in np.unique(v):  # average ties
            m = v == val
            r[m] = r[m].mean()
        return r

    rx, ry = ranks(x), ranks(y)
    return float(np.corrcoef(rx, ry)[0, 1])


def auc(pos, neg) -> float:
    pos, neg = np.asarray(pos, float), np.asarray(neg, float)
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(wins / (len(pos) * len(neg)))


def four_levels(rng, ru_texts, en_texts, ru_outside, en_outside, tmp: Path):
    from sverka.core import api

    print("\n(b) four levels of rewriting, checked against a collection")
    sources, suspects = [], []  # suspects: (text, level, source index, language)
    for lang, texts, outside in (("ru", ru_texts, ru_outside), ("en", en_texts, en_outside)):
        rw = Rewriter(rng, WORD.findall(" ".join(t for _, t in texts[:5])[:100000]))
        for k in range(12):
            _, text = texts[(k * 7) % len(texts)]
            src = passage(text, rng, 180, 240)
            sources.append(src)
            si = len(sources) - 1
            ss = sentences(src)
            keep = sorted(rng.choice(len(ss), size=max(1, int(round(0.7 * len(ss)))), replace=False).tolist())
            cut = " ".join(ss[i] for i in keep)
            suspects.append((cut, 3, si, lang))
            suspects.append((rw.words(cut, form=0.15, delete=0.05, insert=0.05), 2, si, lang))
            heavy = rw.words(rw.reorder(src, shuffle=True), form=0.4, delete=0.2, insert=0.15, replace=0.2)
            suspects.append((heavy, 1, si, lang))
            _, other = outside[k % len(outside)]
            suspects.append((passage(other, rng, 120, 200), 0, si, lang))
    folder = tmp / "levels"
    folder.mkdir()
    for k, s in enumerate(sources):
        (folder / f"source{k:02d}.txt").write_text(s, encoding="utf-8")
    for name, t in (ru_texts[1::9] + en_texts[1::9])[:40]:  # distractors
        (folder / f"other-{name}").write_text(t, encoding="utf-8")
    ref = ref5gram.Collection()
    for p in sorted(folder.iterdir()):
        ref.add(p.name, _read(p))
    t_sv = t_ref = 0.0
    sv_share, ref_share, levels = [], [], []
    with api.Collection(tmp / "levels.sverka") as col:
        col.add([str(folder)])
        for text, level, si, lang in suspects:
            t0 = time.perf_counter()
            r = col.check(api.document_from_text(text, "suspect"))
            t1 = time.perf_counter()
            found = ref.check(text, min_shared=1)
            best = max((ref5gram.word_share(text, ref.texts[ref.names.index(n)]) for n, _ in found[:5]), default=0.0)
            t2 = time.perf_counter()
            t_sv += t1 - t0
            t_ref += t2 - t1
            sv_share.append(r.borrowed_percent)
            ref_share.append(100 * best)
            levels.append(level)
    levels = np.array(levels)
    print(f"{len(suspects)} suspects ({len(sources)} sources, {len(sources) * 4} suspects)")
    print(f"{'level':<10} {'Sverka mean share %':>20} {'5-gram mean share %':>20}")
    for lv, name in ((3, "verbatim"), (2, "light"), (1, "heavy"), (0, "original")):
        m = levels == lv
        print(f"{name:<10} {np.mean(np.array(sv_share)[m]):>20.1f} {np.mean(np.array(ref_share)[m]):>20.1f}")
    res = {}
    for who, share in (("Sverka", sv_share), ("5-gram", ref_share)):
        share = np.array(share)
        rho = spearman(share, levels)
        a = auc(share[levels > 0], share[levels == 0])
        res[who] = (rho, a)
        print(f"{who:<8} Spearman(share, level) = {rho:.3f}   AUC copied vs original = {a:.3f}")
    print(f"time: Sverka {t_sv:.2f} s, 5-gram {t_ref:.2f} s (ratio {t_sv / max(t_ref, 1e-9):.2f})")
    return res


# -- (c) ----------------------------------------------------------------------------

def essays(rng, coll_texts, outside_texts, tmp: Path, lang: str = "ru"):
    from sverka.core import api

    print(f"\n(c) essays ({lang}): original sentences between borrowed ones")
    folder = tmp / f"essays-collection-{lang}"
    folder.mkdir()
    for name, t in coll_texts:
        (folder / name).write_text(t, encoding="utf-8")
    ref = ref5gram.Collection()
    for name, t in coll_texts:
        ref.add(name, t)
    rw = Rewriter(rng, WORD.findall(" ".join(t for _, t in coll_texts[:3])[:100000]))
    pools_b = [sentences(t) for _, t in coll_texts]
    pools_o = [sentences(t) for _, t in outside_texts]

    def pick(pools):
        for _ in range(1000):
            pool = pools[int(rng.integers(len(pools)))]
            s = pool[int(rng.integers(len(pool)))]
            if 8 <= len(WORD.findall(s)) <= 40 and "\n" not in s:
                return s
        raise RuntimeError("no sentence")

    stats = {"Sverka": [0, 0, 0, 0, 0], "5-gram": [0, 0, 0, 0, 0]}  # orig, orig half, orig any, borrowed, found
    with api.Collection(tmp / f"essays-{lang}.sverka") as col:
        col.add([str(folder)])
        for _ in range(24):
            kinds = rng.permutation([True] * 6 + [False] * 6).tolist()
            parts, spans, pos = [], [], 0
            for borrowed in kinds:
                s = pick(pools_b) if borrowed else pick(pools_o)
                if borrowed and rng.random() < 0.5:
                    s = rw.words(s, form=0.15, delete=0.05)
                parts.append(s)
                spans.append((pos, pos + len(s), borrowed))
                pos += len(s) + 1
            text = " ".join(parts)
            r = col.check(api.document_from_text(text, "essay"))
            sv = _merge((p.suspect_start, p.suspect_end) for src in r.sources for p in src.passages if p.excluded is None)
            found = ref.check(text, min_shared=1)
            rf = _merge(iv for n, _ in found[:10] for iv in ref5gram.spans(text, ref.texts[ref.names.index(n)])[0])
            for who, rep in (("Sverka", sv), ("5-gram", rf)):
                st = stats[who]
                for s, e, borrowed in spans:
                    ws = [(m.start() + s, m.end() + s) for m in WORD.finditer(text[s:e])]
                    inside = sum(1 for a, b in ws if _overlap(rep, [(a, b)]) > 0)
                    if borrowed:
                        st[3] += 1
                        st[4] += inside * 2 >= len(ws)
                    else:
                        st[0] += 1
                        st[1] += inside * 2 >= len(ws)
                        st[2] += inside > 0
                        if inside and VERBOSE:
                            hit = [text[a:b] for a, b in rep if a < e and s < b]
                            print(f"  {who} highlights original words: {text[s:e]!r} in {hit!r}")
    res = {}
    for who, (n_o, half, anyw, n_b, found) in stats.items():
        print(f"{who:<8} original sentences highlighted: {100 * half / n_o:.1f} % (any word: {100 * anyw / n_o:.1f} %) of {n_o};"
              f" borrowed sentences found: {100 * found / n_b:.1f} % of {n_b}")
        res[who] = (half / n_o, anyw / n_o, found / n_b)
    return res


# -- (d) ----------------------------------------------------------------------------

def other_edition(text: str, rng) -> str:
    t = text.replace("ё", "е").replace("Ё", "Е").replace("«", "„").replace("»", "“").replace("—", "–")
    ws = list(WORD.finditer(t))
    change = set(rng.choice(len(ws), size=max(1, len(ws) // 50), replace=False).tolist())
    out, pos = [], 0
    for k, m in enumerate(ws):
        out.append(t[pos : m.start()])
        out.append(m.group()[::-1] if k in change else m.group())
        pos = m.end()
    out.append(t[pos:])
    return "".join(out)


def dialogue(rng, novels, tmp: Path):
    from sverka.core import api

    print("\n(d) copied dialogue: exact copies of pages rich in « »")
    folder = tmp / "dialogue"
    folder.mkdir()
    pages = []
    for name, text in novels:
        (folder / name).write_text(text, encoding="utf-8")
        (folder / ("edition2-" + name)).write_text(other_edition(text, rng), encoding="utf-8")
        best, at = -1, 0
        for k in range(0, max(1, len(text) - 2000), 500):
            c = text.count("«", k, k + 2000)
            if c > best:
                best, at = c, k
        s = text.rfind("\n", 0, at) + 1
        e = text.find("\n", s + 2000)
        pages.append((name, text[s : e if e > 0 else s + 2000].strip(), best))
    ref = ref5gram.Collection()
    for p in sorted(folder.iterdir()):
        ref.add(p.name, _read(p))
    cont_sv, first_sv, cont_rf, first_rf = [], 0, [], 0
    with api.Collection(tmp / "dialogue.sverka") as col:
        col.add([str(folder)])
        for name, page, marks in pages:
            r = col.check(api.document_from_text(page, "page"))
            own = [s for s in r.sources if s.title == name or (s.path or "").endswith("/" + name)]
            cont_sv.append(own[0].containment if own else 0.0)
            first_sv += bool(r.sources) and r.sources[0] is (own[0] if own else None)
            found = ref.check(page, min_shared=1)
            shares = {n: ref5gram.word_share(page, ref.texts[ref.names.index(n)]) for n, _ in found[:4]}
            cont_rf.append(shares.get(name, 0.0))
            top = max(shares.items(), key=lambda kv: (kv[1], kv[0] == name)) if shares else ("", 0)
            first_rf += top[0] == name
    print(f"{len(pages)} pages, {sum(p[2] for p in pages) / len(pages):.0f} « per page on average")
    print(f"Sverka  containment of exact copies: min {min(cont_sv):.3f} mean {np.mean(cont_sv):.3f}; own edition first {first_sv}/{len(pages)}")
    print(f"5-gram  word share of exact copies:  min {min(cont_rf):.3f} mean {np.mean(cont_rf):.3f}; own edition first {first_rf}/{len(pages)}")
    return min(cont_sv), first_sv, len(pages)


def use_synonym_table(path: str | None) -> None:
    """Check with the synonym table of ``path`` instead of the shipped one (an experiment:
    bench/build_synonyms.py builds others); an empty one when ``path`` is "" (lemmas only)."""
    import gzip

    from sverka.core import paraphrase, synonyms

    if path == "":
        path = str(Path(tempfile.mkdtemp()) / "synonyms_empty.tsv.gz")
        Path(path).write_bytes(gzip.compress(f"# sverka synonyms ru format={synonyms.FORMAT_VERSION}\n".encode()))
    t = synonyms.load(Path(path))
    synonyms.table = paraphrase.table = lambda: t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="a,b,c,d")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--verbose", action="store_true", help="print each original sentence highlighted")
    ap.add_argument("--synonyms", metavar="FILE", help="check with this synonym table instead of the shipped one")
    args = ap.parse_args()
    if args.synonyms is not None:
        use_synonym_table(args.synonyms)
    global VERBOSE
    VERBOSE = args.verbose
    if not (DATA / "ruslit").is_dir():
        print(f"no corpus at {DATA}")
        return 2
    only = set(args.only.split(","))
    def rng_of(section: str) -> np.random.Generator:  # each section the same whatever else runs
        return np.random.default_rng([args.seed, ord(section)])

    chekhov = _texts(DATA / "ruslit" / "prose" / "Chekhov")
    gorky = _texts(DATA / "ruslit" / "prose" / "Gorky")
    pushkin = _texts(DATA / "ruslit" / "prose" / "Pushkin")
    pan = _texts(DATA / "pan13-dev" / "src")
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if "a" in only:
            half = len(pan) // 2
            en_source, en_filler = pan[:half], pan[half:]
            pairs_1mb(rng_of("a"), {
                "ru": (_take(chekhov, 1_000_000), _take(gorky + pushkin, 1_000_000),
                       ("verbatim", "edited", "reordered", "inflected")),
                "en": (_take(en_source, 1_000_000), _take(en_filler, 1_000_000),
                       ("verbatim", "edited", "reordered")),
            })
        if "b" in only:
            four_levels(rng_of("b"), chekhov[::2], pan[::2], gorky, pan[1::2], tmp)
        if "c" in only:
            essays(rng_of("c"), chekhov[::3], gorky + pushkin, tmp)
            # English: the PAN-2013 source pages, every other one in the collection, the rest outside
            essays(rng_of("e"), pan[::2], pan[1::2], tmp, lang="en")
        if "d" in only:
            novels = sorted(gorky + pushkin + chekhov, key=lambda nt: -nt[1].count("«"))[:10]
            dialogue(rng_of("d"), novels, tmp)
    print(f"\ntotal {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
