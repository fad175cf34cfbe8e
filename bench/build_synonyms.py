"""Build Sverka's Russian synonym table (core/data/synonyms_ru.tsv.gz) from a thesaurus.

Run once by a developer when the source or the rules change; the result is committed (a
few hundred KB), so neither the 150 MB thesaurus nor wordfreq is a dependency of Sverka:

    pip install wiki-ru-wordnet wordfreq     # build-time only, any virtualenv
    .venv/bin/python bench/build_synonyms.py --db /path/to/wiki_ru_wordnet/database/wikiwordnet.db

Source: the ``synsets`` table of ``wiki-ru-wordnet`` (synonym sets from Russian Wiktionary:
век/столетие, команда/экипаж, заставлять/принуждать). Rules, each against merging
unrelated sentences (a wrong accusation is the worst error Sverka can make):

* members are single words, reduced by Sverka's own canonization to the lemma the matcher
  sees; stop words and multi-word entries are left out;
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True, help="wikiwordnet.db of the wiki-ru-wordnet package")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--max-class", type=int, default=8)
    ap.add_argument("--max-senses", type=int, default=3)
    ap.add_argument("--max-zipf", type=float, default=5.5)
    args = ap.parse_args(argv)

    from wordfreq import zipf_frequency

    from sverka.core.synonyms import FORMAT_VERSION
    from sverka.core.text import canonize

    db_bytes = Path(args.db).read_bytes()
    db = sqlite3.connect(args.db)
    rows = db.execute("SELECT synset_id, lemma FROM synsets ORDER BY synset_id, lemma").fetchall()
    members: dict[int, set[str]] = defaultdict(set)
    lemma_of: dict[str, str | None] = {}
    for sid, word in rows:
        w = word.strip().lower().replace("ё", "е")
        if not w or " " in w or not all(ch.isalpha() or ch == "-" for ch in w):
            continue
        if w not in lemma_of:
            t = canonize(w)
            lemma_of[w] = t.lemmas[0] if len(t) == 1 else None  # a stop word or several words: none
        if lemma_of[w]:
            members[sid].add(lemma_of[w])
    classes = {tuple(sorted(m)) for m in members.values() if 2 <= len(m) <= args.max_class}
    common = {w for c in classes for w in c if zipf_frequency(w, "ru") >= args.max_zipf}
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
        f"# sverka synonyms ru format={FORMAT_VERSION}",
        "# source=wiki-ru-wordnet 1.0.3 synsets (Russian Wiktionary) sha256=" + hashlib.sha256(db_bytes).hexdigest(),
        f"# rules: max_class={args.max_class} max_senses={args.max_senses} max_zipf={args.max_zipf} (wordfreq)",
        f"# classes={len(kept)} lemmas={len(by_lemma)} dropped_common={len(common)} dropped_hubs={len(hubs)}",
    ]
    lines += [f"{w}\t{','.join(map(str, sorted(ids)))}" for w, ids in sorted(by_lemma.items())]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    Path(args.out).write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    print(f"{args.out}: {len(kept)} classes, {len(by_lemma)} lemmas, {Path(args.out).stat().st_size} bytes; "
          f"dropped {len(common)} common lemmas, {len(hubs)} hubs", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
