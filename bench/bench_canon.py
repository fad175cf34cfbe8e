"""Canonization speed on the Russian literature corpus (../shared/data/ruslit).

    .venv/bin/python bench/bench_canon.py [--repeat 3] [--corpus PATH]

Prints the cold pass (dictionaries loaded, every word form analysed for the first time) and
the best of ``--repeat`` warm passes (forms cached), in words per second; a "token" here is
every word of the text, stop words included (what canonize reads), and "tokens+lemmas" counts
the kept tokens that come out with a lemma. Files are read with errors="replace".
Both wall-clock and CPU time (``time.process_time``, this process only) are shown: on a
shared machine the CPU figure is the one that says what one core does. The warm pass is
printed beside the reference script's word split (``bench/ref5gram.py``'s ``words``) over the
same texts in the same run, best of as many passes, as a ratio of times.

Then the seen-forms path that the compiled engine runs: the words of each text with their
spans and hashes (``sverka.core.scan.words``) and their entries looked up in the table of
seen forms (``HashIndex.get``), best of as many passes, in words per second, beside the
NumPy code it replaced (tests/core/scan_oracle.py, its index filled with the same forms)
and beside the reference's word split, as ratios of times.

Then never-seen forms: a child process with an empty form-cache folder (``SVERKA_CACHE_DIR``
a new temporary folder: no form of the corpus analysed on this "machine"; the dictionaries,
the Unicode tables and simplemma's tries made before the clock starts) canonizes every text
once, in words per second, beside the reference's word split from the same run.

``--dictionary`` measures instead what a table of every dictionary form analysed once per
machine would take: pymorphy3's Russian and Ukrainian forms counted, a sample analysed, the
table's size estimated at the form cache's bytes per row, and the share of the corpus's
words whose form the dictionaries hold (what such a table would leave never-seen).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

DEFAULT_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "ruslit"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=3, help="warm passes; the best is reported")
    parser.add_argument("--never-seen-pass", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--dictionary", action="store_true", help="measure a table of every dictionary form")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"corpus not found at {args.corpus}; nothing measured", file=sys.stderr)
        return 0

    from sverka.core import morph
    from sverka.core.text import canonize

    files = sorted(args.corpus.rglob("*.txt"))
    texts = [f.read_text(encoding="utf-8", errors="replace") for f in files]
    chars = sum(map(len, texts))
    if args.never_seen_pass:
        return never_seen_pass(texts)
    if args.dictionary:
        return dictionary_table(texts)
    print(f"{len(files)} files, {chars:,} characters")

    start = time.perf_counter()
    morph.warm_up()
    print(f"dictionaries loaded in {time.perf_counter() - start:.2f} s")

    def one_pass() -> tuple[float, float, int, int]:
        wall, cpu = time.perf_counter(), time.process_time()
        words = kept = 0
        for text in texts:
            tokens = canonize(text)
            words += tokens.word_count
            kept += len(tokens)
        return time.perf_counter() - wall, time.process_time() - cpu, words, kept

    def show(label: str, seconds: float) -> None:
        print(
            f"{label:<22} {seconds:6.2f} s  {words / seconds:>10,.0f} words/s  "
            f"{kept / seconds:>10,.0f} tokens+lemmas/s  {chars / seconds / 1e6:5.1f} M chars/s"
        )

    cold_wall, cold_cpu, words, kept = one_pass()
    print(f"{words:,} words, {kept:,} tokens kept (stop words dropped)")
    show("cold, wall", cold_wall)
    show("cold, CPU", cold_cpu)
    warm = [one_pass() for _ in range(max(1, args.repeat))]
    show(f"warm best of {len(warm)}, wall", min(w[0] for w in warm))
    show(f"warm best of {len(warm)}, CPU", min(w[1] for w in warm))

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import ref5gram

    ref = []
    for _ in range(max(1, args.repeat)):
        wall = time.perf_counter()
        for text in texts:
            ref5gram.words(text)
        ref.append(time.perf_counter() - wall)
    best = min(w[0] for w in warm)
    print(f"reference (ref5gram.words), best of {len(ref)}, wall {min(ref):6.2f} s  "
          f"{words / min(ref):>10,.0f} words/s; ratio Sverka warm / reference {best / min(ref):.2f} (time)")
    seen_forms(texts, max(1, args.repeat), min(ref), words)
    never_seen(args.corpus, min(ref), words)
    return 0


def never_seen_pass(texts: list[str]) -> int:
    """(In the child, its form-cache folder empty.) One pass over every text, as JSON."""
    import json

    from sverka.core import morph
    from sverka.core.text import canonize

    from sverka.core import formcache, formdict
    from sverka.core import text as tx

    morph.warm_up()
    canonize("Слово.")  # the Unicode tables, kept per machine, made before the clock starts
    assert len(formcache.snapshot()["keys"]) == 0, "the machine's form table must be empty"
    table = formdict.table().has("ru")
    analysed = [0]
    slow = morph._analyze

    def counted(form, lang):
        analysed[0] += 1
        return slow(form, lang)

    morph._analyze = counted  # how many forms the dictionaries (or their predictor) analysed
    wall, cpu = time.perf_counter(), time.process_time()
    words = sum(canonize(text).word_count for text in texts)
    print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "words": words,
                      "raw_forms": tx._table.size, "analysed": analysed[0], "table": table}))
    return 0


def never_seen(corpus: Path, reference: float, words: int) -> None:
    """Every text canonized once by a process whose machine has seen none of its forms."""
    import json
    import os
    import subprocess
    import tempfile

    from sverka.core import formdict

    dictionary = formdict.folder()
    for with_table in (False, True):
        if with_table and not dictionary.is_dir():
            print(f"no table of dictionary forms at {dictionary} (python -m sverka.core.morph build-dictionary-table)")
            continue
        with tempfile.TemporaryDirectory(prefix="sverka-never-seen-") as folder:
            env = dict(os.environ, SVERKA_CACHE_DIR=folder)
            env.pop("SVERKA_FORM_CACHE", None)
            env.pop("SVERKA_DICTIONARY_TABLE", None)
            if with_table:  # this machine's table of dictionary forms, and no form of any text seen
                os.symlink(dictionary, Path(folder) / dictionary.name)
            out = subprocess.run([sys.executable, __file__, "--corpus", str(corpus), "--never-seen-pass"], env=env,
                                 capture_output=True, text=True, check=True).stdout
        got = json.loads(out.strip().splitlines()[-1])
        label = "with the table of dictionary forms" if got["table"] else "no table of dictionary forms"
        print(f"never-seen forms (a new form-cache folder; {label}), one pass, wall {got['wall']:6.2f} s  "
              f"{got['words'] / got['wall']:>10,.0f} words/s, CPU {got['cpu']:6.2f} s "
              f"{got['words'] / got['cpu']:>10,.0f} words/s; ratio / reference {got['wall'] / reference:.2f} (time); "
              f"{got['raw_forms']:,} raw forms new to the machine, {got['analysed']:,} normalised forms "
              f"analysed by the dictionaries or their predictor")


def dictionary_table(texts: list[str]) -> int:
    """What a table of every dictionary form analysed once per machine would take (module docstring)."""
    import itertools
    import random

    from sverka.core import formcache, morph
    from sverka.core import text as tx

    morph.warm_up()
    file = formcache.path()
    per_row = None
    if file.exists():
        rows = len(formcache.snapshot()["keys"])
        per_row = file.stat().st_size / max(1, rows)
        print(f"this machine's form cache: {rows:,} rows, {file.stat().st_size / 1e6:.1f} MB, "
              f"{per_row:.0f} bytes a row")
    total_forms, total_seconds = 0, 0.0
    for lang in ("ru", "uk"):
        d = morph._analyzer(lang).dictionary
        start = time.perf_counter()
        forms = {w.replace("ё", "е") for w in d.words.keys()}
        listed = time.perf_counter() - start
        sample = random.Random(1).sample(sorted(forms), 20_000)
        start = time.process_time()
        for form in sample:
            morph._analyze(form, lang)
        each = (time.process_time() - start) / len(sample)
        total_forms += len(forms)
        total_seconds += listed + each * len(forms)
        print(f"{lang}: {len(forms):,} distinct forms (ё as е), listed in {listed:.1f} s; "
              f"analysed {each * 1e6:.0f} µs a form (CPU, sample of {len(sample):,}) -> {each * len(forms):.0f} s")
    if per_row is not None:
        print(f"a table of every form: {total_forms:,} rows, ~{total_forms * per_row / 1e6:.0f} MB, "
              f"~{total_seconds:.0f} s of one core")
    # what it would leave never-seen: the corpus's words whose normalised form no dictionary holds
    words = known = 0
    distinct: dict[tuple[str, str], bool] = {}
    for text in texts:
        mode = tx._reading_mode(text)
        for raw in itertools.islice(tx._split_words(text), 1, None, 2):
            form, _script, _t, lang, _free = tx._normalise(raw, mode)
            key = (form, lang)
            hit = distinct.get(key)
            if hit is None:
                hit = distinct[key] = lang in ("ru", "uk") and morph.is_known(form, lang)
            words += 1
            known += hit
    forms_known = sum(distinct.values())
    print(f"corpus: {words:,} words, {known / words:.1%} of them in a dictionary; {len(distinct):,} distinct "
          f"normalised forms, {forms_known / len(distinct):.1%} in a dictionary")
    return 0


def seen_forms(texts: list[str], repeat: int, reference: float, words: int) -> None:
    """The seen-forms path (module docstring), by the engine and by the NumPy code it replaced."""
    import numpy as np

    from sverka.core import scan
    from sverka.core import text as tx

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "core"))
    try:
        import scan_oracle
    except ImportError:  # tests/ not beside bench/
        scan_oracle = None
    table = tx._table
    modes = [tx._reading_mode(text) for text in texts]

    def engine_pass() -> int:
        found = 0
        for text, mode in zip(texts, modes):
            hit = scan.words(text)
            if hit is not None:
                found += int((table.hashed(mode, hit[2]) >= 0).sum())
        return found

    def best_of(work) -> tuple[float, float, int]:
        walls, cpus, found = [], [], 0
        for _ in range(repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            found = work()
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        return min(walls), min(cpus), found

    engine, engine_cpu, found = best_of(engine_pass)
    print(f"seen forms (engine: scan + index), best of {repeat}, wall {engine:6.3f} s  "
          f"{found / engine:>10,.0f} words/s, CPU {engine_cpu:6.3f} s {found / engine_cpu:>10,.0f} words/s "
          f"({found:,} of {words:,} words scanned and found); ratio / reference {engine / reference:.3f} (time)")
    if scan_oracle is None:
        return
    index = {mode: scan_oracle.HashIndex() for mode in table.ids}
    for mode, ids in table.ids.items():
        forms = list(ids)
        index[mode].add(scan_oracle.hash_strings(forms), np.array([ids[f] for f in forms], dtype=np.int64))

    def numpy_pass() -> int:
        found = 0
        for text, mode in zip(texts, modes):
            hit = scan_oracle.words(text)
            if hit is not None:
                found += int((index[mode].get(hit[2]) >= 0).sum())
        return found

    former, former_cpu, found_before = best_of(numpy_pass)
    print(f"seen forms (the NumPy code it replaced), best of {repeat}, wall {former:6.3f} s  "
          f"{found_before / former:>10,.0f} words/s, CPU {former_cpu:6.3f} s; ratio engine / NumPy {engine / former:.2f}")


if __name__ == "__main__":
    sys.exit(main())
