"""The ``sverka`` console script, run in a subprocess on real files of every format with the
real engine: JSON against the schema of issue 6, offsets checked against ``sverka extract``,
safe HTML reports, exit codes 0/1/2."""

from __future__ import annotations

import html
import importlib.util
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

SVERKA = Path(sys.executable).with_name("sverka")

_spec = importlib.util.spec_from_file_location("_sverka_report_checks", Path(__file__).with_name("test_report.py"))
_checks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_checks)
assert_check_schema = _checks.assert_check_schema
assert_crosscheck_schema = _checks.assert_crosscheck_schema
assert_safe_html = _checks.assert_safe_html
parse_html = _checks.parse_html

pytestmark = pytest.mark.skipif(not SVERKA.exists(), reason=f"console script not installed at {SVERKA}")

# --------------------------------------------------------------------------------------
# Documents: pseudo-random prose from distinct vocabularies, so that sources do not share
# word sequences by chance, written in every format Sverka reads.

RU = (
    "берег река лодка рыбак утро туман ветер волна парус сеть песок камень сосна дорога деревня "
    "мельница колодец поле пшеница телега лошадь кузнец молот наковальня искра огонь печь хлеб "
    "мука соль ярмарка купец товар лавка прилавок весы монета кошелёк дорожка холм овраг ручей "
    "мост перила фонарь сторож ночь звезда луна облако гроза молния дождь лужа зонт калоша "
    "крыльцо ступенька дверь замок ключ сундук платок шаль бусы зеркало гребень лента коса "
    "учитель ученик тетрадь чернила перо страница книга библиотека полка переплёт буква слово "
    "строка рассказ повесть роман автор читатель письмо конверт марка почтальон станция поезд "
    "вагон рельсы семафор машинист кочегар уголь паровоз свисток перрон носильщик чемодан билет"
).split()
VERBS = (
    "видит несёт строит чинит ищет находит теряет продаёт покупает рисует читает пишет ждёт "
    "зовёт везёт держит греет моет режет шьёт ловит открывает закрывает помнит считает"
).split()
EN = (
    "harbour lantern copper meadow orchard thimble pepper saddle compass glacier quarry velvet "
    "parchment tavern chimney walnut ledger beacon furnace hammock kettle marble nectar oyster "
    "pebble quilt rafter sapphire tinder umbrella vessel wagon yarn zephyr anchor bramble cobalt "
    "dagger ember falcon garnet hazel ivory juniper kestrel lilac mortar nutmeg"
).split()
EN_VERBS = "carries mends paints finds loses sells buys reads writes keeps warms washes counts opens".split()


def prose(seed: int, words: int, vocab=RU, verbs=VERBS) -> str:
    """Sentences of 8..14 words (noun noun verb noun ...), deterministic for a seed."""
    rnd = random.Random(seed)
    out, n = [], 0
    while n < words:
        k = rnd.randint(8, 14)
        ws = [rnd.choice(vocab) for _ in range(k)]
        ws[2] = rnd.choice(verbs)
        out.append(" ".join(ws).capitalize() + ".")
        n += k
    return " ".join(out)


def paragraphs(text: str, size: int = 60) -> list[str]:
    """Split prose into paragraphs of about ``size`` words at sentence ends."""
    out, cur = [], []
    for sentence in re.findall(r"[^.]+\.", text):
        cur.append(sentence.strip())
        if sum(len(s.split()) for s in cur) >= size:
            out.append(" ".join(cur))
            cur = []
    if cur:
        out.append(" ".join(cur))
    return out


def write_txt(path: Path, paras: list[str]) -> None:
    path.write_text("\n\n".join(paras) + "\n", encoding="utf-8")


def write_cp1251(path: Path, paras: list[str]) -> None:
    path.write_bytes(("\r\n\r\n".join(paras) + "\r\n").encode("cp1251"))


def write_docx(path: Path, paras: list[str]) -> None:
    import docx

    d = docx.Document()
    for p in paras:
        d.add_paragraph(p)
    d.save(str(path))


def write_odt(path: Path, paras: list[str]) -> None:
    from odf.opendocument import OpenDocumentText
    from odf.text import P

    d = OpenDocumentText()
    for p in paras:
        d.text.addElement(P(text=p))
    d.save(str(path))


def write_rtf(path: Path, paras: list[str]) -> None:
    def esc(s: str) -> str:
        out = []
        for ch in s:
            if ch in "\\{}":
                out.append("\\" + ch)
            elif ord(ch) > 127:
                code = ord(ch)
                out.append(f"\\u{code if code < 32768 else code - 65536}?")
            else:
                out.append(ch)
        return "".join(out)

    body = "\n".join(f"\\pard {esc(p)}\\par" for p in paras)
    path.write_text("{\\rtf1\\ansi\\ansicpg1251\\deff0{\\fonttbl{\\f0 Times New Roman;}}\\f0\\fs24\n" + body + "\n}",
                    encoding="ascii")


def write_html(path: Path, paras: list[str]) -> None:
    body = "\n".join(f"<p>{html.escape(p)}</p>" for p in paras)
    path.write_text(f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{path.stem}</title></head>"
                    f"<body>{body}</body></html>", encoding="utf-8")


def write_pdf(path: Path, paras: list[str]) -> None:
    """A text PDF made by Qt (in a child process: the test process stays free of Qt)."""
    code = (
        "import sys\n"
        "from PySide6.QtGui import QGuiApplication, QPdfWriter, QTextDocument, QFont, QPageSize\n"
        "app = QGuiApplication([])\n"
        "w = QPdfWriter(sys.argv[1]); w.setPageSize(QPageSize(QPageSize.A4)); w.setResolution(150)\n"
        "d = QTextDocument(); d.setDefaultFont(QFont('DejaVu Sans', 11))\n"
        "d.setPlainText(sys.stdin.read()); d.print_(w)\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    subprocess.run([sys.executable, "-c", code, str(path)], input="\n\n".join(paras), text=True,
                   env=env, check=True, capture_output=True, timeout=120)


WRITERS = {
    "txt": write_txt, "docx": write_docx, "odt": write_odt, "rtf": write_rtf, "html": write_html, "pdf": write_pdf,
}
EVIL = "<script>alert(1)</script> <img src=x onerror=alert(1)>"


def run(*args: str, check_rc: int | None = 0, env_home: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if env_home is not None:  # never touch the user's own collection
        env["XDG_DATA_HOME"] = str(env_home)
        env["HOME"] = str(env_home)
    out = subprocess.run([str(SVERKA), *args], capture_output=True, text=True, encoding="utf-8",
                         env=env, timeout=300)
    assert "Traceback" not in out.stderr, out.stderr
    if check_rc is not None:
        assert out.returncode == check_rc, f"rc={out.returncode}\nstdout:{out.stdout[-2000:]}\nstderr:{out.stderr[-2000:]}"
    return out


def _engine_ready() -> bool:
    from sverka.core import api

    try:
        api.compare(api.document_from_text("раз два три четыре пять"), api.document_from_text("раз два три"))
        return True
    except NotImplementedError:
        return False


def _collection_ready(tmp: Path) -> bool:
    from sverka.core import api

    try:
        api.Collection(tmp / "probe.sverka").close()
        return True
    except NotImplementedError:
        return False


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Six sources (one per format), six suspects (one per format) that each borrow a
    paragraph from every source, plus a hostile suspect; the sources indexed with ``sverka index``."""
    if not _engine_ready():
        pytest.skip("the engine is not implemented yet")
    root = tmp_path_factory.mktemp("cli")
    if not _collection_ready(root):
        pytest.skip("the collection is not implemented yet")
    (root / "sources").mkdir()
    (root / "suspects").mkdir()
    sources, borrowed = {}, {}
    for seed, fmt in enumerate(WRITERS):
        vocab, verbs = (EN, EN_VERBS) if fmt == "html" else (RU, VERBS)
        paras = paragraphs(prose(100 + seed, 320, vocab, verbs))
        path = root / "sources" / f"source_{fmt}.{fmt}"
        WRITERS[fmt](path, paras)
        sources[fmt] = path
        borrowed[fmt] = paras[1]
    own = paragraphs(prose(999, 360), 50)
    body = []
    for k, fmt in enumerate(WRITERS):
        body += [own[k], borrowed[fmt]]
    suspects = {}
    for fmt in WRITERS:
        path = root / "suspects" / f"suspect_{fmt}.{fmt}"
        WRITERS[fmt](path, body)
        suspects[fmt] = path
    evil = root / "suspects" / "hostile.txt"
    write_txt(evil, [own[0], EVIL + " " + borrowed["docx"], own[1]])
    db = root / "collection.sverka"
    out = run("index", "--db", str(db), str(root / "sources"), env_home=root)
    return {"root": root, "db": db, "sources": sources, "suspects": suspects, "evil": evil,
            "borrowed": borrowed, "index_out": out}


_extracted: dict[str, str] = {}


def extract(path: str | Path) -> str:
    key = str(path)
    if key not in _extracted:
        out = subprocess.run([str(SVERKA), "extract", key], capture_output=True, timeout=120)
        assert out.returncode == 0, out.stderr.decode("utf-8", "replace")
        _extracted[key] = out.stdout.decode("utf-8")
    return _extracted[key]


def words(s: str) -> list[str]:
    return re.findall(r"\w+", s.lower().replace("ё", "е"))


def assert_passages_match(result: dict) -> int:
    """Every passage's suspect slice and source slice are the same words (up to edges)."""
    suspect_text = extract(result["suspect"]["path"])
    assert len(suspect_text) == result["suspect"]["chars"]
    n = 0
    for src in result["sources"]:
        source_text = extract(src["path"])
        for p in src["passages"]:
            a = words(suspect_text[p["suspect_start"]:p["suspect_end"]])
            b = words(source_text[p["source_start"]:p["source_end"]])
            assert a and b, p
            common = len(set(a) & set(b))
            assert common >= 0.8 * min(len(set(a)), len(set(b))), (p, a[:12], b[:12])
            if p["method"] == "exact":
                assert a == b or abs(len(a) - len(b)) <= 2, (p, a[:12], b[:12])
            n += 1
    return n


# --------------------------------------------------------------------------------------


def test_index_summary_and_list(corpus):
    out = corpus["index_out"]
    assert "added 6" in out.stdout and "failed 0" in out.stdout
    again = run("index", "--db", str(corpus["db"]), str(corpus["root"] / "sources"))
    assert "unchanged 6" in again.stdout and "added 0" in again.stdout
    listed = run("list", "--db", str(corpus["db"]), "--json")
    docs = [json.loads(line) for line in listed.stdout.splitlines()]
    assert len(docs) == 6
    assert {Path(d["path"]).name for d in docs} == {p.name for p in corpus["sources"].values()}


def test_check_every_format_json_schema_and_offsets(corpus):
    suspects = [str(p) for p in corpus["suspects"].values()]
    out = run("check", "--db", str(corpus["db"]), "--json", *suspects)
    lines = out.stdout.splitlines()
    assert len(lines) == len(suspects), "one JSON object per suspect per line"
    for line, path in zip(lines, suspects):
        result = json.loads(line)
        assert_check_schema(result)
        assert Path(result["suspect"]["path"]).name == Path(path).name
        found = {Path(s["path"]).name for s in result["sources"] if s["containment"] > 0}
        assert found == {p.name for p in corpus["sources"].values()}, (path, found)
        assert 30 <= result["borrowed_percent"] <= 80, result["borrowed_percent"]
        assert assert_passages_match(result) >= 6


def test_check_readable_summary(corpus):
    out = run("check", "--db", str(corpus["db"]), str(corpus["suspects"]["docx"]))
    assert "% borrowed" in out.stdout and "source_pdf" in out.stdout
    assert out.stdout.count("%") >= 8


def test_compare_json_and_html(corpus, tmp_path):
    report = tmp_path / "cmp.html"
    out = run("compare", str(corpus["suspects"]["odt"]), str(corpus["sources"]["rtf"]), "--json", "--html", str(report))
    result = json.loads(out.stdout)
    assert_check_schema(result)
    assert len(result["sources"]) == 1 and Path(result["sources"][0]["path"]).name == "source_rtf.rtf"
    assert assert_passages_match(result) >= 1
    assert_safe_html(report.read_text(encoding="utf-8"))


def test_hostile_suspect_html_has_no_executable_markup(corpus, tmp_path):
    report = tmp_path / "hostile.html"
    out = run("check", "--db", str(corpus["db"]), "--json", "--html", str(report), str(corpus["evil"]))
    result = json.loads(out.stdout)
    assert any(Path(s["path"]).name == "source_docx.docx" for s in result["sources"])
    page = report.read_text(encoding="utf-8")
    m = assert_safe_html(page)
    assert EVIL in "".join(m.text)  # shown as text
    assert "script" not in m.tags and "img" not in m.tags
    shown = "".join(m.text)
    for sha in re.findall(r"[0-9a-f]{64}", page):
        assert sha in shown
    assert len(set(re.findall(r"[0-9a-f]{64}", shown))) >= 2  # the suspect and its source


def test_several_suspects_html_go_into_a_folder(corpus, tmp_path):
    out_dir = tmp_path / "reports"
    run("check", "--db", str(corpus["db"]), "--html", str(out_dir),
        str(corpus["suspects"]["txt"]), str(corpus["suspects"]["html"]))
    assert sorted(p.name for p in out_dir.iterdir()) == ["suspect_html.html", "suspect_txt.html"]


def test_template_and_exclusion_flags(corpus):
    suspect = str(corpus["suspects"]["txt"])
    base = json.loads(run("check", "--db", str(corpus["db"]), "--json", suspect).stdout)
    tpl = corpus["root"] / "assignment.txt"
    write_txt(tpl, [corpus["borrowed"]["docx"]])
    with_tpl = json.loads(run("check", "--db", str(corpus["db"]), "--json", "--template", str(tpl), suspect).stdout)
    assert with_tpl["borrowed_percent"] < base["borrowed_percent"]
    docx = [s for s in with_tpl["sources"] if Path(s["path"]).name == "source_docx.docx"][0]
    assert docx["passages"] and all(p["excluded"] == "template" for p in docx["passages"])
    # An excluded source stays listed with its passages marked, and counts for nothing.
    excl = json.loads(run("check", "--db", str(corpus["db"]), "--json", "--exclude-source",
                          str(corpus["sources"]["pdf"]), suspect).stdout)
    pdf = [s for s in excl["sources"] if Path(s["path"]).name == "source_pdf.pdf"]
    assert not pdf or (pdf[0]["containment"] == 0 and all(p["excluded"] == "source" for p in pdf[0]["passages"]))
    assert excl["borrowed_percent"] < base["borrowed_percent"]
    # A larger minimum passage length drops every passage.
    none = json.loads(run("check", "--db", str(corpus["db"]), "--json", "--min-words", "500", suspect).stdout)
    assert none["borrowed_percent"] == 0


def test_crosscheck_json_and_html(corpus, tmp_path):
    report = tmp_path / "x.html"
    files = [str(corpus["suspects"]["txt"]), str(corpus["sources"]["docx"]), str(corpus["sources"]["html"])]
    out = run("crosscheck", "--json", "--html", str(report), *files)
    result = json.loads(out.stdout)
    assert_crosscheck_schema(result)
    assert len(result["documents"]) == 3
    names = {(Path(p["a"]).name, Path(p["b"]).name) for p in result["pairs"]}
    assert any("suspect_txt.txt" in pair and "source_docx.docx" in pair for pair in names)
    m = assert_safe_html(report.read_text(encoding="utf-8"))
    assert m.tags.count("table") >= 3


def test_remove(corpus, tmp_path):
    db = tmp_path / "small.sverka"
    run("index", "--db", str(db), str(corpus["sources"]["txt"]), str(corpus["sources"]["odt"]))
    out = run("remove", "--db", str(db), str(corpus["sources"]["txt"]))
    assert "removed 1" in out.stdout
    listed = run("list", "--db", str(db), "--json")
    assert [Path(json.loads(x)["path"]).name for x in listed.stdout.splitlines()] == ["source_odt.odt"]
    gone = run("remove", "--db", str(db), "/no/such/file.txt", check_rc=1)
    assert "/no/such/file.txt" in gone.stderr


# --------------------------------------------------------------------------------------
# Exit codes


def test_unreadable_files_exit_1_and_the_others_are_processed(corpus, tmp_path):
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"PK\x03\x04 this is not a real docx")
    out = run("check", "--db", str(corpus["db"]), "--json", str(broken), "/no/such.txt",
              str(corpus["suspects"]["txt"]), check_rc=1)
    assert len(out.stdout.splitlines()) == 1
    assert_check_schema(json.loads(out.stdout))
    assert str(broken) in out.stderr and "/no/such.txt" in out.stderr


def test_index_reports_failures_with_reasons(corpus, tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    write_txt(folder / "good.txt", paragraphs(prose(5, 120)))
    (folder / "copy.txt").write_bytes((folder / "good.txt").read_bytes().replace(b"\n", b"\r\n"))
    (folder / "bad.pdf").write_bytes(b"%PDF-1.4 garbage")
    out = run("index", "--db", str(tmp_path / "m.sverka"), str(folder), check_rc=1)
    assert "bad.pdf" in out.stderr and "failed 1" in out.stdout
    assert re.search(r"added [12]", out.stdout)


def test_extract_errors(tmp_path):
    out = run("extract", str(tmp_path / "missing.txt"), check_rc=1)
    assert "missing.txt" in out.stderr


def test_usage_errors_exit_2(tmp_path):
    for args in (["check"], ["frobnicate"], ["check", "x.txt", "--shingle", "abc"],
                 ["compare", "only-one.txt"], ["check", "x.txt", "--min-words", "-3"], []):
        out = run(*args, check_rc=2, env_home=tmp_path)
        assert out.stderr.startswith("usage:") or "error" in out.stderr


def test_check_without_a_collection_says_how_to_make_one(tmp_path):
    suspect = tmp_path / "s.txt"
    write_txt(suspect, ["просто текст"])
    out = run("check", "--db", str(tmp_path / "none.sverka"), str(suspect), check_rc=1)
    assert "sverka index" in out.stderr


def test_help_for_every_command():
    for cmd in ("extract", "index", "list", "remove", "check", "compare", "crosscheck"):
        out = run(cmd, "--help")
        assert "usage: sverka " + cmd in out.stdout
    check = run("check", "--help").stdout
    for flag in ("--shingle", "--min-words", "--no-quotes", "--no-bibliography", "--template", "--exclude-source",
                 "--json", "--html", "--db"):
        assert flag in check


def test_every_setting_has_a_flag():
    import dataclasses

    from sverka.core.cli import build_parser
    from sverka.core.settings import Settings

    check = build_parser()._subparsers._group_actions[0].choices["check"]
    dests = {a.dest for a in check._actions}
    for f in dataclasses.fields(Settings):
        assert f"setting__{f.name}" in dests, f.name
    args = build_parser().parse_args(["check", "x", "--shingle", "5", "--no-quotes", "--exclude-source", "a",
                                      "--exclude-source", "b", "--min-words", "3"])
    from sverka.core.cli import _settings_from

    s = _settings_from(args)
    assert (s.shingle_words, s.exclude_quotes, s.excluded_sources, s.min_passage_words) == (5, False, ("a", "b"), 3)
    assert s.exclude_bibliography is True


def test_progress_bar_only_on_a_terminal(capsys):
    from sverka.core.cli import _Progress

    quiet = _Progress(enabled=False)
    quiet(1, 2, "adding")
    quiet.finish()
    bar = _Progress(enabled=True)
    bar(1, 4, "adding a.txt")
    bar(4, 4, "done")
    bar.finish()
    err = capsys.readouterr().err
    assert "\r[" in err and "1/4 adding a.txt" in err and "4/4" in err


def test_check_without_html_does_not_import_jinja2(corpus):
    code = (
        "import sys, io, contextlib\n"
        "from sverka.core import cli\n"
        "sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding='utf-8')\n"
        f"rc = cli.main(['check', '--db', {str(corpus['db'])!r}, '--json', {str(corpus['suspects']['txt'])!r}])\n"
        "sys.stdout = sys.__stdout__\n"
        "print(rc, 'jinja2' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["0", "False"], out.stderr


def test_check_of_many_suspects_equals_checking_each_alone(corpus):
    """Several suspects run on every core; the output is what one run per suspect gives, in order."""
    suspects = [str(p) for p in corpus["suspects"].values()]
    together = run("check", "--db", str(corpus["db"]), "--json", *suspects).stdout.splitlines()
    alone = [run("check", "--db", str(corpus["db"]), "--json", s).stdout.strip() for s in suspects]
    assert [json.loads(x) for x in together] == [json.loads(x) for x in alone]


def test_lang_and_pdf_reports(corpus, tmp_path):
    import shutil

    html_ru, pdf_ru = tmp_path / "ru.html", tmp_path / "ru.pdf"
    out = run("check", "--db", str(corpus["db"]), "--lang", "ru", "--html", str(html_ru), "--pdf", str(pdf_ru),
              str(corpus["suspects"]["txt"]))
    assert "заимствования" in out.stdout and "цитирования" in out.stdout and "borrowed" not in out.stdout
    assert '<html lang="ru">' in html_ru.read_text(encoding="utf-8")
    assert pdf_ru.read_bytes().startswith(b"%PDF")
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(pdf_ru), "-"], capture_output=True, text=True, check=True).stdout
        assert "Заимствования".upper() in text.upper() and "Borrowed".upper() not in text.upper()
    out = run("check", "--db", str(corpus["db"]), "--lang", "en", str(corpus["suspects"]["txt"]))
    assert "% borrowed" in out.stdout and "% cited" in out.stdout
    # several suspects: one PDF each in the folder
    out_dir = tmp_path / "pdfs"
    run("check", "--db", str(corpus["db"]), "--pdf", str(out_dir) + "/",
        str(corpus["suspects"]["txt"]), str(corpus["suspects"]["html"]))
    assert sorted(p.name for p in out_dir.iterdir()) == ["suspect_html.pdf", "suspect_txt.pdf"]


def test_program_ends_at_once_with_its_status_output_and_exit_work(corpus, tmp_path):
    """The ``sverka`` program (cli.entry) ends its process without tearing the interpreter
    down: the same status and output as main() ending the usual way, long output through a
    pipe whole, and what runs at exit done (the forms it analysed written to the form table)."""
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    # words this machine's form table has never met: the command analyses and records them
    made_up = " ".join(f"зверкатовали{i} пыркнулась{i}" for i in range(40))
    a.write_text(prose(1, 400) + " " + made_up + ".", "utf-8")
    b.write_text(prose(2, 300) + " " + prose(1, 400) + " " + made_up + ".", "utf-8")
    outs = {}
    for how in ("main", "entry"):
        cache = tmp_path / f"cache-{how}"
        cache.mkdir()
        env = {**os.environ, "SVERKA_CACHE_DIR": str(cache)}
        env.pop("SVERKA_FORM_CACHE", None)
        code = f"import sys; from sverka.core.cli import {how}; sys.exit({how}())"
        for args in (["compare", "--json", str(a), str(b)],
                     ["check", "--db", str(corpus["db"]), "--json", str(corpus["suspects"]["txt"])],
                     ["check", "--db", str(tmp_path / "none.sverka"), str(a)]):
            out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, timeout=300, env=env)
            assert b"Traceback" not in out.stderr, out.stderr
            outs.setdefault(how, []).append((out.returncode, out.stdout, out.stderr))
        forms = {p.name: p.stat().st_size for p in cache.rglob("forms-*.bin")}
        assert forms and all(forms.values()), forms  # the form table flushed at exit
        outs[how].append(sorted(p.name for p in cache.rglob("*")))
    assert outs["entry"] == outs["main"]
    json.loads(outs["entry"][1][1])  # the check's long JSON came through the pipe whole
    assert outs["entry"][2][0] == 1  # no collection there: the status of an input error


def test_a_closed_standard_output_is_an_output_error_not_a_crash(tmp_path):
    """``sverka compare A B >&-``: Python starts without a standard output (sys.stdout is None);
    the command says it cannot write its output and exits 1, as for a full disk."""
    a = tmp_path / "a.txt"
    a.write_text(prose(3, 200), "utf-8")
    runs = [(args, "C.UTF-8", "cannot write the output: standard output is closed")
            for args in (["compare", "--json", str(a), str(a)], ["compare", str(a), str(a)], ["extract", str(a)])]
    runs.append((["compare", str(a), str(a)], "ru_RU.UTF-8", "не удаётся вывести результат: стандартный вывод закрыт"))
    for args, locale_name, said in runs:
        out = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", str(SVERKA), *args], capture_output=False,
                             stderr=subprocess.PIPE, text=True, encoding="utf-8", timeout=120,
                             env={**os.environ, "LC_ALL": locale_name})
        assert "Traceback" not in out.stderr, out.stderr
        assert out.returncode == 1 and said in out.stderr, (args, out.stderr)


def test_a_name_holding_a_newline_stays_on_its_line(tmp_path):
    """A file whose name holds a newline: its summary line, its duplicate line and its error line
    are one line each (the newline shown as \\x0a), so no name can break or forge a line."""
    folder = tmp_path / "essays"
    folder.mkdir()
    text = prose(4, 300)
    (folder / "one\nfake: 0.0% borrowed.txt").write_text(text, "utf-8")
    (folder / "two\nline.txt").write_text(text, "utf-8")  # the same text: a duplicate
    (folder / "bad\nfile.docx").write_bytes(b"not a zip")
    db = tmp_path / "c.sverka"
    out = run("index", "--db", str(db), str(folder), check_rc=1)
    assert "\\x0a" in out.stdout and not any(line.startswith("fake") for line in out.stdout.splitlines())
    assert [line for line in out.stderr.splitlines() if "bad" in line][0].startswith("sverka: ")
    assert not any(line.startswith("file.docx") for line in out.stderr.splitlines())
    suspect = tmp_path / "s\nuspect.txt"
    suspect.write_text(text, "utf-8")
    out = run("check", "--db", str(db), str(suspect), check_rc=None)
    first = out.stdout.splitlines()[0]
    assert first.startswith(str(tmp_path)) and "s\\x0auspect.txt" in first and "borrowed" in first
    assert not any(line.startswith("uspect") or line.startswith("fake") for line in out.stdout.splitlines())
