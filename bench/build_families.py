"""Build Sverka's table of word families (core/data/families_ru.tsv.gz): derivational families
of Russian lemmas (ритм / ритмичный / ритмический, отражение / отражать, потребность /
потребный / потребовать).

Run once by a developer when the rules change; the result is committed, so wordfreq is not a
dependency of Sverka:

    pip install wordfreq     # build-time only, any virtualenv
    .venv/bin/python bench/build_families.py [--words 400000] [--min-stem 4] [--max-family 8]
    .venv/bin/python bench/build_families.py --sample 100 --out /tmp/f.tsv.gz   # pairs to check by hand

How a family is found (measured against the alternatives in docs/BENCHMARKS.md, "Word
families in the lexical layers"): each lemma is reduced to a *family stem* by a small table of
Russian derivational suffixes and endings (:data:`SUFFIXES`: the longest that fits, by part of
speech as pymorphy3 reads the lemma), then by :data:`INNER` once or twice, while at least
``--min-stem`` letters stay (``--alternation`` also reads the final consonants of an
alternation, ж/з/г, ч/т/к, ш/с/х, щ/ст, as one: measured, it made more false families than it
found, so it is off). Prefixes are kept: отражать and выражать are not one family. Lemmas
sharing a stem are one family; a lemma left whole joins the family whose stem it is (ритм:
ритмичный). Rules
against false families (a wrong accusation is the worst error):

* the vocabulary is the ``--words`` commonest Russian words of wordfreq, reduced by Sverka's
  own canonization to the lemma the matcher sees (stop words and one-letter lemmas left out);
* a stem of fewer than ``--min-stem`` letters is never a family (мир / мирить, вод-а /
  вод-ить share only three letters);
* a family of more than ``--max-family`` lemmas is dropped (a large one is a loose root);
* families of one lemma are dropped;
* names of people, abbreviations and words the dictionary does not know are in no family; a
  place (pymorphy3's ``Geox`` noun) joins only the family of its adjective in -ский, when the
  place, its last vowel or soft sign dropped, -ия read as -ий or a final -ск dropped, plus
  "ский" is that adjective (Азербайджан / азербайджанский, Ставрополье / ставропольский,
  Смоленск / смоленский, Россия / российский): news and essays say "в Азербайджане" and
  "азербайджанский" for one another.

Output: the synonym table's format (:mod:`sverka.core.synonyms`, read by the same loader):
gzip UTF-8 text, ``#`` header lines, then ``lemma<TAB>family id``.
"""

from __future__ import annotations

import argparse
import gzip
import random
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "core" / "data" / "families_ru.tsv.gz"

#: Derivational suffixes with their endings, by the part of speech of the lemma (pymorphy3's
#: tag); stripped longest first, again and again. A noun's bare ending (нужд-а, жизн-ь) and a
#: verb's reflexive -ся are stripped first.
SUFFIXES = {
    "NOUN": ("ичность", "ичество", "ительство", "ность", "ость", "ение", "ание", "яние", "ствие", "ство", "ация",
             "яция", "иция", "ция", "изм", "ист", "итель", "атель", "тель", "ика", "ота", "ие"),
    "ADJF": ("ический", "ичный", "ческий", "ский", "ный", "ной", "ний", "ый", "ий", "ой"),
    "INFN": ("изировать", "ировать", "овать", "евать", "ывать", "ивать", "ать", "ять", "ить", "еть", "уть",
             "ти", "чь"),
    "ADVB": ("ически", "ично", "но", "о"),
}
#: Endings any later round may strip from what is left (ритмичн-ость -> ритмичн -> ритм).
INNER = ("ичн", "ическ", "н", "ск", "ова", "ирова")
#: Consonants that alternate at the end of a Russian stem (отраз-ить / отраж-ать, двиг-ать /
#: движ-ение, ответ-ить / отвеч-ать), read as one.
ALTERNATION = {"ж": "з", "г": "з", "ч": "т", "к": "т", "ш": "с", "х": "с", "щ": "ст"}
NOUN_ENDINGS = ("а", "я", "о", "е", "ь", "й")


def family_stem(lemma: str, pos: str | None, min_stem: int, alternation: bool = False) -> str:
    """The family stem of ``lemma`` (see the module docstring); the lemma itself when no rule
    leaves ``min_stem`` letters."""
    if pos == "-":
        return "-"
    w = lemma
    if pos == "INFN" and (w.endswith("ся") or w.endswith("сь")):
        w = w[:-2]
    suffixes = sorted(SUFFIXES.get(pos or "", ()), key=len, reverse=True)  # the longest that fits
    cut = False
    for s in suffixes:
        if w.endswith(s) and len(w) - len(s) >= min_stem:
            w = w[:-len(s)]
            cut = True
            break
    if not cut and pos == "NOUN" and w.endswith(NOUN_ENDINGS) and len(w) - 1 >= min_stem:
        w = w[:-1]
        cut = True
    if not cut:
        return lemma
    for _ in range(2):
        for s in INNER:
            if w.endswith(s) and len(w) - len(s) >= min_stem:
                w = w[:-len(s)]
                break
        else:
            break
    return "\x1f" + (alternated(w) if alternation else w)  # never equal to a lemma left whole


def alternated(stem: str) -> str:
    """``stem`` with its final consonant of an alternation read as one (:data:`ALTERNATION`)."""
    return stem[:-1] + ALTERNATION[stem[-1]] if stem[-1:] in ALTERNATION else stem


def place_adjective(place: str, lemmas: set[str]) -> str | None:
    """The adjective in -ский of the place ``place`` among ``lemmas`` (module docstring), or None."""
    stems = [place]
    if place[-1:] in "аяоеьй":
        stems.append(place[:-1])
    if place.endswith("ия"):
        stems.append(place[:-2] + "ий")
    if place.endswith("ск"):
        stems.append(place[:-2])
    return next((s + "ский" for s in stems if s + "ский" in lemmas), None)


def _is_place(analyzer, lemma: str) -> bool:
    a = analyzer.parse(lemma)[0]
    return a.is_known and a.tag.POS == "NOUN" and "Geox" in a.tag.grammemes


def _pos(analyzer, lemma: str) -> str | None:
    """The part of speech of ``lemma`` as its likeliest dictionary parse reads it; None for a
    word the dictionary does not know, a name, a place, an abbreviation (never in a family)."""
    p = analyzer.parse(lemma)
    for a in p[:1]:
        if not a.is_known or {"Name", "Surn", "Patr", "Geox", "Orgn", "Abbr", "Init"} & set(a.tag.grammemes):
            return "-"
        tag = a.tag.POS
        if tag in ("ADJF", "NOUN", "INFN", "ADVB"):
            return str(tag)
        if tag == "VERB":
            return "INFN"
    return None


def vocabulary(n_words: int) -> list[str]:
    """The lemmas of the ``n_words`` commonest Russian words, as Sverka's canonization reads them."""
    from wordfreq import top_n_list

    from sverka.core.text import canonize

    lemmas: dict[str, None] = {}
    words = [w for w in top_n_list("ru", n_words) if w.isalpha()]
    for k in range(0, len(words), 2000):
        t = canonize(" . ".join(words[k:k + 2000]))
        if t.language != "ru":
            continue
        for lemma in t.lemmas:
            if len(lemma) > 1 and lemma.isalpha():
                lemmas.setdefault(lemma, None)
    return sorted(lemmas)


def families(lemmas: list[str], min_stem: int, max_family: int, alternation: bool = False, places: bool = True
             ) -> tuple[dict[str, list[str]], int]:
    """Family stem -> its lemmas (two or more, at most ``max_family``), and how many were too large."""
    import pymorphy3

    analyzer = pymorphy3.MorphAnalyzer()
    by_stem: dict[str, list[str]] = defaultdict(list)
    for lemma in lemmas:
        stem = family_stem(lemma, _pos(analyzer, lemma), min_stem, alternation)
        by_stem[stem].append(lemma)
    kept = {s: m for s, m in by_stem.items() if 2 <= len(m) <= max_family and s.startswith("\x1f")}
    by_stem.pop("-", None)
    # a lemma left whole shares a family with the lemmas whose stem it is (ритм: ритмичный)
    for s, m in list(by_stem.items()):
        stem = "\x1f" + (alternated(s) if alternation else s)
        if not s.startswith("\x1f") and stem in by_stem:
            fam = kept.get(stem, by_stem[stem])
            if len(fam) + len(m) <= max_family:
                kept[stem] = sorted(set(fam) | set(m))
    too_large = sum(1 for m in by_stem.values() if len(m) > max_family)
    if places:
        known = set(lemmas)
        family_of = {w: s for s, m in kept.items() for w in m}
        for lemma in lemmas:
            adjective = place_adjective(lemma, known) if _is_place(analyzer, lemma) else None
            if adjective is None:
                continue
            s = family_of.get(adjective, "\x1e" + adjective)
            fam = kept.get(s, [adjective])
            if len(fam) < max_family:
                kept[s] = sorted(set(fam) | {lemma})
                family_of[adjective] = s
    return kept, too_large


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", type=int, default=400000)
    ap.add_argument("--min-stem", type=int, default=4)
    ap.add_argument("--max-family", type=int, default=8)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--alternation", action="store_true", help="read alternating final consonants as one (measured: off)")
    ap.add_argument("--no-places", action="store_true", help="leave places out (module docstring)")
    ap.add_argument("--sample", type=int, default=0, help="print this many random pairs of one family (seeded)")
    args = ap.parse_args(argv)
    lemmas = vocabulary(args.words)
    fams, too_large = families(lemmas, args.min_stem, args.max_family, args.alternation, not args.no_places)
    ordered = sorted(sorted(m) for m in fams.values())
    by_lemma: dict[str, list[int]] = defaultdict(list)
    for k, m in enumerate(ordered):
        for w in m:
            by_lemma[w].append(k)
    lines = [
        "# sverka word families format=1",
        f"# source=wordfreq top {args.words} Russian words, pymorphy3 lemmas; rules of bench/build_families.py",
        f"# min_stem={args.min_stem} max_family={args.max_family} families={len(ordered)} lemmas={len(by_lemma)}"
        f" dropped_large={too_large}",
    ]
    lines += [f"{w}\t{','.join(map(str, sorted(ids)))}" for w, ids in sorted(by_lemma.items())]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode("utf-8"), mtime=0))
    print(f"{args.out}: {len(ordered)} families, {len(by_lemma)} lemmas of {len(lemmas)}, dropped {too_large} large;"
          f" {args.out.stat().st_size} bytes", file=sys.stderr)
    if args.sample:
        rng = random.Random(7)
        pairs = [(a, b) for m in ordered for i, a in enumerate(m) for b in m[i + 1:]]
        for a, b in rng.sample(pairs, min(args.sample, len(pairs))):
            print(f"{a}\t{b}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
