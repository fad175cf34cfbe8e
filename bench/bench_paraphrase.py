"""Paraphrase benchmark: sentences rewritten with synonyms, beside the exact 5-gram reference.

    .venv/bin/python bench/bench_paraphrase.py [--language ru|en] [--essays 24] [--seed 7] [--verbose]

Russian (the default) is built from ``../shared/data/ruslit`` (skips cleanly without it): the
collection holds the prose of Chekhov and Gorky; each suspect is an "essay" of 12 sentences: 6
borrowed from the collection and PARAPHRASED, 6 original (from Pushkin's prose, outside the
collection), interleaved at random. English (``--language en``) takes the PAN-2013 source
documents of ``../shared/data/pan13-dev``: every other one is the collection, the rest give
the original sentences. A paraphrased sentence is a sentence of 10-40 words with:

* every word found in ``bench/data/synonyms_<language>_handmade.tsv`` replaced by its
  synonym, put into the replaced word's form (at least one replacement per sentence; English:
  -s, -ed, -ing carried over, an irregular form left alone). The lists were written by hand
  for this benchmark, independently of the thesauri Sverka matches with;
* the first clause moved to the end (reordering), when the sentence has clauses;
* 15 % of the other words in another form (English: not the function words, which have
  none), 5 % deleted, two words of other prose inserted.

Each essay is checked against the collection (``api.Collection.check``, retrieval
included); the reference is ``bench/ref5gram.py`` (exact word-5-grams) over the same
collection. A sentence is *found* / *highlighted* when at least half of its words lie inside
a counted passage (and, stricter for originals, when any word does). Also printed: the
kinds Sverka gave the passages over paraphrased sentences, and the time of the checks.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import ref5gram  # noqa: E402
from bench_detection import DATA, WORD, Rewriter, _merge, _texts, sentences, use_synonym_table  # noqa: E402
from bench_pan13 import _overlap  # noqa: E402

HANDMADE = HERE / "data" / "synonyms_{language}_handmade.tsv"
_KEEP = ("nomn", "gent", "datv", "accs", "ablt", "loct", "sing", "plur", "masc", "femn", "neut",
         "past", "pres", "futr", "1per", "2per", "3per", "impr", "indc")


def load_handmade(language: str = "ru") -> dict[str, str]:
    out = {}
    for line in Path(str(HANDMADE).format(language=language)).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            a, b = line.split("\t")
            out[a.replace("ё", "е")] = b
    return out


def _with_ending(base: str, ending: str) -> str:
    """An English base form with -s, -ed or -ing (the regular spellings)."""
    if ending in ("s", "es"):
        if re.search(r"(s|x|z|ch|sh)$", base):
            return base + "es"
        return base[:-1] + "ies" if re.search(r"[^aeiou]y$", base) else base + "s"
    if ending in ("ed", "d"):
        if base.endswith("e"):
            return base + "d"
        return base[:-1] + "ied" if re.search(r"[^aeiou]y$", base) else base + "ed"
    if ending == "ing":
        return (base[:-1] if base.endswith("e") and not base.endswith("ee") else base) + "ing"
    return base


class Paraphraser:
    def __init__(self, rng: np.random.Generator, filler: list[str], language: str = "ru") -> None:
        import pymorphy3
        import simplemma

        self.rng = rng
        self.language = language
        self.letters = re.compile(r"[а-яёА-ЯЁ]+" if language == "ru" else r"[A-Za-z]+")
        self.morph = pymorphy3.MorphAnalyzer()
        self.simplemma = simplemma
        self.subs = load_handmade(language)
        # words without other forms (English "to", "and": the rewriter would make "tos"):
        # left as they are, as the Russian inflection leaves prepositions
        from sverka.core.morph import stop_words

        self.function_words = stop_words("en") if language == "en" else frozenset()
        self.filler = filler
        self.rewriter = Rewriter(rng, filler)

    def synonym(self, word: str) -> str | None:
        """``word`` replaced by its hand-made synonym in the same form, or None."""
        if self.language == "en":
            return self._english_synonym(word)
        p = self.morph.parse(word.lower())[0]
        target = self.subs.get(p.normal_form.replace("ё", "е"))
        if target is None:
            return None
        q = next((x for x in self.morph.parse(target) if x.tag.POS == p.tag.POS or
                  {x.tag.POS, p.tag.POS} <= {"ADJF", "ADJS", "ADVB", "COMP"}), None)
        if q is None:
            return None
        grams = {g for g in _KEEP if g in p.tag}
        for attempt in (grams, grams - {"masc", "femn", "neut"}, grams & {"sing", "plur", "nomn", "gent", "datv",
                                                                           "accs", "ablt", "loct"}):
            try:
                r = q.inflect(attempt) if attempt else q
            except ValueError:
                r = None
            if r is not None:
                w = r.word
                if word[:1].isupper():
                    w = w[:1].upper() + w[1:]
                return w
        return None

    def _english_synonym(self, word: str) -> str | None:
        w = word.lower()
        base = self.simplemma.lemmatize(w, lang="en")
        target = self.subs.get(base)
        if target is None:
            return None
        ending = next((e for e in ("", "s", "es", "ed", "d", "ing") if _with_ending(base, e) == w), None)
        if ending is None:  # an irregular form (ran, children): left alone
            return None
        out = _with_ending(target, ending)
        return out[:1].upper() + out[1:] if word[:1].isupper() else out

    def rewrite(self, sentence: str) -> tuple[str, int]:
        """The paraphrased sentence and how many words were replaced by synonyms."""
        out, pos, replaced = [], 0, 0
        for m in WORD.finditer(sentence):
            out.append(sentence[pos:m.start()])
            pos = m.end()
            w = m.group()
            s = self.synonym(w) if self.letters.fullmatch(w) else None
            if s is not None and s.lower() != w.lower():
                out.append(s)
                replaced += 1
                continue
            r = self.rng.random()
            if r < 0.05:
                continue  # deleted
            if r < 0.20 and self.letters.fullmatch(w) and w.lower() not in self.function_words:
                w = self.rewriter.other_form(w)
            out.append(w)
        out.append(sentence[pos:])
        text = self.rewriter.rotate_clauses("".join(out))
        ws = list(WORD.finditer(text))
        for _ in range(2):  # two words of other prose inserted
            at = ws[int(self.rng.integers(1, len(ws)))].start() if len(ws) > 1 else 0
            text = text[:at] + self.filler[int(self.rng.integers(len(self.filler)))].lower() + " " + text[at:]
            ws = list(WORD.finditer(text))
        return text, replaced


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--language", choices=("ru", "en"), default="ru")
    ap.add_argument("--essays", type=int, default=24)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--verbose", action="store_true", help="print misses and highlighted originals")
    ap.add_argument("--diagnose", action="store_true",
                    help="print why each paraphrased sentence was missed, and the causes counted (bench/_para_diagnose.py)")
    ap.add_argument("--no-synonyms", action="store_true", help="the same run with an empty synonym table (ablation)")
    ap.add_argument("--synonyms", metavar="FILE", help="check with this synonym table instead of the shipped one "
                    "(bench/build_synonyms.py)")
    args = ap.parse_args()
    corpus = DATA / ("ruslit" if args.language == "ru" else "pan13-dev")
    if not corpus.is_dir():
        print(f"no corpus at {corpus}")
        return 2
    from sverka.core import api, synonyms

    if args.no_synonyms or args.synonyms:  # lemmas only (what the table adds), or another table
        use_synonym_table("" if args.no_synonyms else args.synonyms)

    rng = np.random.default_rng(args.seed)
    if args.language == "ru":
        coll = _texts(DATA / "ruslit" / "prose" / "Chekhov") + _texts(DATA / "ruslit" / "prose" / "Gorky")
        outside = _texts(DATA / "ruslit" / "prose" / "Pushkin")
    else:
        pan = _texts(corpus / "src")
        coll, outside = pan[::2], pan[1::2]
    filler = WORD.findall(" ".join(t for _, t in outside[-3:])[:200000])
    para = Paraphraser(rng, [w for w in filler if len(w) > 3], args.language)
    pools_b = [sentences(t) for _, t in coll]
    pools_o = [sentences(t) for _, t in outside]
    print(f"collection: {len(coll)} texts, {sum(len(t) for _, t in coll) / 1e6:.1f} M characters; "
          f"synonym table {synonyms.table().version}, {len(synonyms.table())} lemmas; "
          f"hand-made list {len(para.subs)} pairs")

    def pick(pools, need_synonym: bool):
        """(original sentence, what the essay holds, words replaced, index of its text)."""
        for _ in range(10000):
            k = int(rng.integers(len(pools)))
            pool = pools[k]
            s = pool[int(rng.integers(len(pool)))]
            if not (10 <= len(WORD.findall(s)) <= 40) or "\n" in s:
                continue
            if not need_synonym:
                return s, s, 0, k
            text, replaced = para.rewrite(s)
            if replaced:
                return s, text, replaced, k
        raise RuntimeError("no sentence")

    diagnoser = None
    if args.diagnose:
        from _para_diagnose import Diagnoser

        diagnoser = Diagnoser(para.subs, WORD)

    stats = {"Sverka": [0, 0, 0, 0, 0], "5-gram": [0, 0, 0, 0, 0]}  # orig, orig half, orig any, para, found
    kinds: Counter[str] = Counter()
    replaced_total = 0
    check_time = ref_time = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        folder = tmp / "collection"
        folder.mkdir()
        for name, t in coll:
            (folder / name).write_text(t, encoding="utf-8")
        t0 = time.perf_counter()
        ref = ref5gram.Collection()
        for name, t in coll:
            ref.add(name, t)
        ref_index = time.perf_counter() - t0
        t0 = time.perf_counter()
        with api.Collection(tmp / "para.sverka") as col:
            col.add([str(folder)])
            index_time = time.perf_counter() - t0
            for _ in range(args.essays):
                order = rng.permutation([True] * 6 + [False] * 6).tolist()
                parts, spans, pos = [], [], 0
                for borrowed in order:
                    original, s, k, doc = pick(pools_b, True) if borrowed else pick(pools_o, False)
                    replaced_total += k
                    parts.append(s)
                    spans.append((pos, pos + len(s), borrowed, (original, doc)))
                    pos += len(s) + 1
                text = " ".join(parts)
                t0 = time.perf_counter()
                r = col.check(api.document_from_text(text, "essay"))
                check_time += time.perf_counter() - t0
                counted = [p for src in r.sources for p in src.passages if p.excluded is None]
                sv = _merge((p.suspect_start, p.suspect_end) for p in counted)
                t0 = time.perf_counter()
                found = ref.check(text, min_shared=1)
                rf = _merge(iv for n, _ in found[:10] for iv in ref5gram.spans(text, ref.texts[ref.names.index(n)])[0])
                ref_time += time.perf_counter() - t0
                for s, e, borrowed, _ in spans:
                    if borrowed:
                        kinds.update(p.kind for p in counted if p.suspect_start < e and s < p.suspect_end)
                for who, rep in (("Sverka", sv), ("5-gram", rf)):
                    st = stats[who]
                    for s, e, borrowed, (original, doc) in spans:
                        ws = [(m.start() + s, m.end() + s) for m in WORD.finditer(text[s:e])]
                        inside = sum(1 for a, b in ws if _overlap(rep, [(a, b)]) > 0)
                        if borrowed:
                            st[3] += 1
                            st[4] += inside * 2 >= len(ws)
                            missed = who == "Sverka" and inside * 2 < len(ws)
                            if (args.verbose or diagnoser) and missed:
                                print(f"  missed: {text[s:e]!r}\n     was: {original!r}")
                            if diagnoser and missed:
                                cause, detail = diagnoser.diagnose(col, r, text, s, e, coll[doc][0], coll[doc][1],
                                                                   original)
                                diagnoser.causes[cause] += 1
                                print(f"     why: {cause}: {detail}")
                        else:
                            st[0] += 1
                            st[1] += inside * 2 >= len(ws)
                            st[2] += inside > 0
                            if args.verbose and who == "Sverka" and inside:
                                print(f"  original highlighted: {text[s:e]!r}")
                                for src in r.sources:
                                    for p in src.passages:
                                        if p.excluded is None and p.suspect_start < e and s < p.suspect_end:
                                            print(f"     by a passage ({p.method}, {p.kind}, {p.words} words, "
                                                  f"{p.matched_words} matched): {text[p.suspect_start:p.suspect_end]!r}"
                                                  f"\n     of {src.title}: {src.source_text[p.source_start:p.source_end]!r}")
    print(f"{args.essays} essays: {stats['Sverka'][3]} paraphrased sentences ({replaced_total} words replaced by "
          f"hand-made synonyms), {stats['Sverka'][0]} original sentences")
    res = {}
    for who, (n_o, half, anyw, n_p, found) in stats.items():
        print(f"{who:<8} paraphrased sentences found: {100 * found / n_p:5.1f} % of {n_p}; original sentences "
              f"highlighted: {100 * half / n_o:.1f} % (any word: {100 * anyw / n_o:.1f} %) of {n_o}")
        res[who] = (found / n_p, half / n_o, anyw / n_o)
    sv, rf = res["Sverka"], res["5-gram"]
    print(f"ratio Sverka / 5-gram, found: {sv[0] / rf[0] if rf[0] else float('inf'):.1f}")
    print("kinds of Sverka's passages over paraphrased sentences: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    if diagnoser:
        print("causes of the misses: " + ", ".join(f"{k} {n}" for k, n in diagnoser.causes.most_common()))
        print("source lemmas without a partner in missed sentences: "
              + ", ".join(f"{k} {n}" for k, n in diagnoser.lost.most_common()))
    print(f"time: index {index_time:.1f} s, checks {check_time:.1f} s; 5-gram: index {ref_index:.1f} s, checks "
          f"{ref_time:.1f} s; ratio of checks {check_time / ref_time:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
