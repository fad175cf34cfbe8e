"""Old editions: fragments of ruslit rewritten in Russian's spelling before 1918, checked
against the collection of ruslit in today's spelling, beside the exact 5-gram reference.

    .venv/bin/python bench/bench_old_spelling.py [--fragments 60] [--seed 5]

The rewriting follows the old rules mechanically (no dictionary of Sverka's is used): ъ after
a word's final hard consonant ("дом" -> "домъ"), і for и before a vowel or й ("Россия" ->
"Россія"), -аго/-яго for the genitive of adjectives (-ого/-его, by pymorphy3's tag), -ыя/-ія
for their plural feminine and neuter nominative and accusative, ѣ in 40 frequent roots and
words (дѣло, мѣсто, человѣкъ, свѣтъ, гдѣ, мнѣ, ...). Each fragment (2 000-5 000 characters of
prose) is checked twice, as printed today and in the old spelling; figures: the share of it
Sverka finds borrowed from its own text and whether that text comes first, and the
reference's word share against the same text.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import ref5gram  # noqa: E402
from bench_detection import DATA, _texts  # noqa: E402

WORD = re.compile(r"[А-Яа-яЁё]+")
HARD_FINAL = re.compile(r"[бвгджзклмнпрстфхцчшщБВГДЖЗКЛМНПРСТФХЦЧШЩ]$")
I_BEFORE_VOWEL = re.compile(r"и(?=[аеёиоуыэюяй])")
#: Frequent words and roots written with ѣ (a root at the start of a word).
YAT_ROOTS = ("дел", "мест", "человек", "свет", "лес", "снег", "бел", "бед", "вер", "ветер", "ветр",
             "рек", "цвет", "тел", "сев", "лет", "сед", "след", "смех", "смел", "хлеб", "желез",
             "звезд", "невест", "обед", "ответ", "совет", "стен", "тен", "мер", "пес", "резв",
             "сидел", "видел", "хотел", "смотрел", "летел", "умел", "сумел")
YAT_WORDS = {"где": "гдѣ", "нет": "нѣтъ", "мне": "мнѣ", "тебе": "тебѣ", "себе": "себѣ", "все": "всѣ",
             "те": "тѣ", "две": "двѣ", "несколько": "нѣсколько", "после": "послѣ", "вместе": "вмѣстѣ"}


class OldSpelling:
    def __init__(self) -> None:
        import pymorphy3

        self.morph = pymorphy3.MorphAnalyzer()

    def word(self, w: str) -> str:
        low = w.lower()
        out = YAT_WORDS.get(low)
        if out is None:
            out = low
            tag = self.morph.parse(low)[0].tag
            if tag.POS == "ADJF" and "gent" in tag and ("masc" in tag or "neut" in tag):
                out = re.sub(r"ого$", "аго", re.sub(r"его$", "яго", out))
            elif tag.POS == "ADJF" and "plur" in tag and ("nomn" in tag or "accs" in tag) and not {"anim"} <= set(
                    tag.grammemes):
                out = re.sub(r"ые$", "ыя", re.sub(r"ие$", "ія", out))
            for root in YAT_ROOTS:
                if out.startswith(root) and len(out) > len(root):
                    out = out.replace("е", "ѣ", 1) if root.count("е") == 1 else out
                    break
            out = I_BEFORE_VOWEL.sub("і", out)
            if HARD_FINAL.search(out):
                out += "ъ"
        if w[:1].isupper():
            out = out[:1].upper() + out[1:]
        if w.isupper() and len(w) > 1:
            out = out.upper()
        return out

    def text(self, t: str) -> str:
        return WORD.sub(lambda m: self.word(m.group()), t)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fragments", type=int, default=60)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    if not (DATA / "ruslit").is_dir():
        print(f"no corpus at {DATA}")
        return 2
    from sverka.core import api

    rng = np.random.default_rng(args.seed)
    prose = [(n, t) for n, t in _texts(DATA / "ruslit" / "prose") if len(t) > 20_000]
    old = OldSpelling()
    cases = []
    for _ in range(args.fragments):
        name, t = prose[int(rng.integers(len(prose)))]
        n = int(rng.integers(2_000, 5_000))
        at = int(rng.integers(0, len(t) - n))
        frag = t[at:at + n]
        cases.append((name, frag, old.text(frag)))
    sample = cases[0][2][:300].replace("\n", " ")
    print(f"{len(cases)} fragments of {len(prose)} prose texts; an old-spelling one begins: {sample!r}")
    stats = {"today": ([], [], []), "old": ([], [], [])}
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        with api.Collection(Path(tmp) / "ruslit.sverka") as coll:
            coll.add([str(DATA / "ruslit")])
            print(f"indexed ruslit in {time.perf_counter() - t0:.1f} s")
            texts = {Path(p).name: Path(p).read_text(encoding="utf-8", errors="replace")
                     for p in map(str, (DATA / "ruslit").rglob("*.txt"))}
            for name, today, old_text in cases:
                for label, frag in (("today", today), ("old", old_text)):
                    r = coll.check(api.document_from_text(frag, "fragment"))
                    own = [s for s in r.sources if Path(s.path or "").name == name]
                    shares, first, ref = stats[label]
                    shares.append(own[0].containment if own else 0.0)
                    first.append(bool(r.sources) and Path(r.sources[0].path or "").name == name)
                    ref.append(ref5gram.word_share(frag, texts[name]))
    print("| text | Sverka: share found in its own text (mean, min) | its own text first | "
          "5-gram reference: word share (mean, min) |\n|---|---|---|---|")
    for label, (shares, first, ref) in stats.items():
        print(f"| {label} | {100 * statistics.mean(shares):.1f} %, {100 * min(shares):.1f} % | "
              f"{sum(first)} / {len(first)} | {100 * statistics.mean(ref):.1f} %, {100 * min(ref):.1f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
