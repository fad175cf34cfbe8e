"""Hostile input, round three (issue 15): linear HTML tokenization, look-alikes from every
script, PDF text layers that are not text, read-only and damaged collections, RTF shape text,
workers that die with their parent. Every input is generated here."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_hostile_round2 import _bounded, _limits, _pdf  # noqa: E402,F401  (the 10 s / 1 GB limits; a PDF writer)


# -- class 2: HTML tokenization is linear on every unterminated construct ---------------------

MEGABYTE = 1 << 20
HTML_CONSTRUCTS = ["<a", "<!--", "<!", "<?", "</", "</a", "<![CDATA[", "<!DOCTYPE", "<a x='", '<a x="',
                   "<a b", "<a b=", "<a/", "<svg><text>", "<noscript>", "<div hidden>", "<script>",
                   "<style>", "<title>", "&#", "&amp"]


@pytest.mark.parametrize("unit", HTML_CONSTRUCTS)
def test_a_megabyte_of_an_unterminated_construct_is_read_in_linear_time(unit):
    from sverka.core.extract.html_text import html_to_text_and_hidden

    markup = "<p>Начало текста.</p>" + unit * (MEGABYTE // len(unit)) + "<p>Конец.</p>"
    _bounded(html_to_text_and_hidden, markup)
    # interleaved with text and closing marks, which makes the constructs end and restart
    markup = ("слово " + unit + " > ") * (MEGABYTE // (len(unit) + 10))
    _bounded(html_to_text_and_hidden, markup)


def test_deep_nesting_of_skipped_elements_is_linear():
    from sverka.core.extract.html_text import html_to_text

    n = 150_000
    markup = "<p>до</p>" + "<template>" * n + "x" + "</template>" * n + "<p>после</p>"
    text, _ = _bounded(html_to_text, markup)
    assert text.split() == ["до", "после"]
    markup = "<p>до</p>" + "<math>" * n + "x" + "</math>" * n + "<p>после</p>"  # read, as a browser shows it
    text, _ = _bounded(html_to_text, markup)
    assert text.split() == ["до", "x", "после"]
    markup = "<p>до</p>" + "<noscript><span>" * n + "x" + "</span></noscript>" * n + "<p>после</p>"
    text, _ = _bounded(html_to_text, markup)
    assert text.split() == ["до", "после"]


def test_html_file_of_unclosed_comments_is_read_through_the_sandbox(tmp_path):
    from sverka.core import api

    path = tmp_path / "comments.html"
    path.write_text("<p>Видимый текст работы.</p>" + "<!--" * 250_000, encoding="utf-8")
    doc = _bounded(api.load_document, path)
    assert doc.text.strip() == "Видимый текст работы."


def test_normal_pages_are_read_as_a_browser_shows_them():
    from sverka.core.extract.html_text import html_to_text, html_to_text_and_hidden

    page = (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Эссе &laquo;о море&raquo;</title>"
        "<style>p > b { color: red } .x { display:none }</style>"
        "<script>if (a < b && c > d) { document.write('<p>нет</p>') }</script></head>"
        "<body><!-- a comment with <p>tags</p> --><h1>Заголовок</h1>"
        "<p class=intro title='a > b'>Первый&nbsp;абзац, <b>жирный</b> и <i>курсив</i>.</p>"
        "<p>Сравнение: 3 < 5 и 7 > 2.</p>"
        "<p>Скрыто: <span class='x'>фильтр-слово</span>видно</p>"
        "<?php echo 'x' ?><p>После PHP.</p>"
        "<table><tr><td>a</td><td>b</td></tr></table>"
        "<pre>строка 1\nстрока 2</pre>"
        "<svg><text>в рисунке</text><![CDATA[ignored]]></svg>"
        "<svg><text><![CDATA[данные svg]]></text></svg>"
        "<p>Br<br/>после br</p>"
        "<p>a</ p>конец<!-->видно<!--->тоже<!-- x --!>и это</p>"
        "</body></html>"
    )
    text, title, hidden = html_to_text_and_hidden(page)
    assert title == "Эссе «о море»"
    assert text.split("\n") == [
        "Заголовок",
        "Первый\xa0абзац, жирный и курсив.",
        "Сравнение: 3 < 5 и 7 > 2.",
        "Скрыто: видно",
        "После PHP.",
        "a\tb",
        "строка 1",
        "строка 2",
        "в рисунке данные svg",
        "Br",
        "после br",
        "aконецвиднотожеи это",
    ]
    assert hidden == {"hidden by the page's styles": 2}  # "фильтр-слово": two words
    # an attribute value with quotes and ">" inside, an unquoted value, a tag split over lines
    assert html_to_text('<p data-x="a>b" id=q\nclass = "c">текст</p>')[0] == "текст"
    # the end of the file inside a tag or a quoted value drops that tag, as a browser does
    assert html_to_text("<p>видно</p><p title='без конца>не видно")[0] == "видно"
    assert html_to_text("<p>видно</p><p")[0] == "видно"


# -- class 6: look-alikes from every script ---------------------------------------------------

SOURCE_RU = ("Глобальное потепление вызывает таяние ледников в Арктике и Антарктиде, что приводит "
             "к повышению уровня мирового океана и затоплению прибрежных городов по всему миру.")
SOURCE_EN = ("Global warming melts the glaciers of the Arctic and the Antarctic, which raises the "
             "level of the world ocean and floods coastal cities all over the world.")
#: other-script stand-ins: Greek, Armenian, Cherokee, Coptic, Latin alpha; capital Greek letters
TO_CYRILLIC = {"о": ["\u03bf", "\u0585", "\u2c9f"], "а": ["\u03b1", "\u0251"], "р": ["\u03c1"],
               "е": ["\u0435"], "к": ["\u03ba"], "Г": ["\u0393"], "А": ["\u0391", "\u13aa"],
               "В": ["\u0392", "\u13f4"], "Т": ["\u03a4"]}
TO_LATIN = {"o": ["\u03bf", "\u0585"], "a": ["\u03b1"], "p": ["\u03c1"], "v": ["\u03bd"],
            "i": ["\u03b9"], "G": ["\u13c0"], "A": ["\u0391", "\u13aa"], "T": ["\u03a4"]}


def _disguise(text: str, table: dict[str, list[str]]) -> tuple[str, int]:
    """Letters swapped for look-alikes, except in one-letter words (a word of look-alikes
    only has no script of its own to fold to: it stays as written)."""
    out, n, k = [], 0, 0
    for i, ch in enumerate(text):
        subs = table.get(ch)
        alone = not text[i - 1:i].isalpha() and not text[i + 1:i + 2].isalpha()
        if subs and subs[0] != ch and not alone:
            out.append(subs[k % len(subs)])
            k += 1
            n += 1
        else:
            out.append(ch)
    return "".join(out), n


@pytest.mark.parametrize("source, table, script", [(SOURCE_RU, TO_CYRILLIC, "Cyrillic"),
                                                   (SOURCE_EN, TO_LATIN, "Latin")])
def test_lookalikes_of_every_script_are_folded_and_warned(source, table, script):
    from sverka.core.text import canonize

    disguised, swapped = _disguise(source, table)
    assert swapped > 20 and disguised != source
    plain, tokens = canonize(source), canonize(disguised)
    assert tokens.lemmas == plain.lemmas
    assert tokens.lookalike_letters == swapped
    warning = [w for w in tokens.warnings if "of other scripts" in str(w)]
    assert [str(w) for w in warning] == [f"{swapped} letters of other scripts (Greek, Armenian, Cherokee, ...) that look like "
                       f"{script} inside " + ("Russian words" if script == "Cyrillic" else "Latin-script words")]


def test_mathematical_and_fullwidth_letters_fold_through_nfkc():
    from sverka.core.text import canonize

    math_bold = "".join(chr(0x1D41A + ord(c) - ord("a")) for c in "glaciers")
    fullwidth = "".join(chr(0xFF41 + ord(c) - ord("a")) for c in "ocean")
    tokens = canonize(f"the {math_bold} and the {fullwidth}")
    assert tokens.lemmas == canonize("the glaciers and the ocean").lemmas
    # inside a Cyrillic word, a fullwidth Latin o is a Latin look-alike
    tokens = canonize("вод\uff41 и л\uff45д")
    assert tokens.lemmas == canonize("вода и лед").lemmas and tokens.lookalike_letters == 2


def test_words_of_other_scripts_stay_what_they_are():
    from sverka.core.text import canonize

    tokens = canonize("Слово λόγος и слово ολα, армянское բառ, а также οκ.")
    assert "λόγος" in tokens.lemmas and "ολα" in tokens.lemmas and "բառ" in tokens.lemmas
    assert "οκ" in tokens.lemmas  # a word of look-alikes only has no script to fold to
    assert tokens.lookalike_letters == 0 and tokens.warnings == ()
    # a Greek letter without a Cyrillic look-alike (λ) marks a mixed word as not a disguise
    assert canonize("вλοда").lookalike_letters == 0


def test_a_disguised_copy_scores_as_a_copy(tmp_path):
    from sverka.core import api
    from sverka.core.document import Document

    disguised, _ = _disguise(SOURCE_RU, TO_CYRILLIC)
    result = api.compare(Document(disguised, title="suspect"), Document(SOURCE_RU, title="source"))
    assert result.borrowed_percent > 90
    assert any("of other scripts" in str(w) for w in result.suspect.warnings)


# -- class 6: a PDF whose text layer is not text ----------------------------------------------

LONG_RU = (
    "Глобальное потепление вызывает таяние ледников в Арктике и Антарктиде, что приводит к "
    "повышению уровня мирового океана. Учёные давно наблюдают за изменением климата и предупреждают "
    "о последствиях для прибрежных городов. Жители островных государств уже сегодня вынуждены "
    "переселяться вглубь материка, а сельское хозяйство страдает от засухи и наводнений. "
    "Правительства многих стран подписали соглашения о сокращении выбросов углекислого газа, "
    "однако выполнение обещаний идёт медленно. Школьники выходят на улицы, требуя решительных "
    "действий, и журналисты пишут об этом каждый день."
)


def _text_pdf(path: Path, codes: bytes, to_unicode: dict[int, str] | None) -> Path:
    """A one-page PDF drawing ``codes`` in Helvetica, with a ToUnicode CMap when given."""
    lines = [codes[k:k + 80] for k in range(0, len(codes), 80)]
    content = b"BT /F1 10 Tf 40 800 Td 12 TL " + b" ".join(
        b"(" + line.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b") '" for line in lines
    ) + b" ET"
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
               b"/Resources << /Font << /F1 5 0 R >> >> >>",
               b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream"]
    if to_unicode is None:
        objects.append(font + b" >>")
    else:
        entries = sorted(to_unicode.items())
        blocks = []
        for k in range(0, len(entries), 100):
            chunk = entries[k:k + 100]
            blocks.append(b"%d beginbfchar\n" % len(chunk) + b"".join(
                b"<%02X> <%s>\n" % (code, "".join(f"{ord(u):04X}" for u in text).encode()) for code, text in chunk
            ) + b"endbfchar\n")
        cmap = (b"/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
                b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
                b"/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
                b"1 begincodespacerange\n<00> <FF>\nendcodespacerange\n" + b"".join(blocks)
                + b"endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend")
        objects.append(font + b" /ToUnicode 6 0 R >>")
        objects.append(b"<< /Length %d >>\nstream\n" % len(cmap) + cmap + b"\nendstream")
    return _pdf(path, objects)


def _coded(text: str) -> tuple[bytes, dict[int, str]]:
    """``text`` as one-byte codes 0x21.. per distinct character (spaces stay 0x20), and the
    honest code -> character map, as a subset font's ToUnicode gives it."""
    table: dict[str, int] = {" ": 0x20}
    for ch in text:
        if ch not in table:
            table[ch] = 0x21 + len(table) - 1
    return bytes(table[ch] for ch in text), {code: ch for ch, code in table.items()}


def test_an_honest_unicode_map_reads_without_a_warning(tmp_path):
    from sverka.core import api

    codes, honest = _coded(LONG_RU)
    doc = _bounded(api.load_document, _text_pdf(tmp_path / "honest.pdf", codes, honest))
    assert "".join(doc.text.split()) == "".join(LONG_RU.split())  # lines break mid-word
    assert not [w for w in doc.warnings if "text layer" in str(w)]
    english = _text_pdf(tmp_path / "plain.pdf", SOURCE_EN.encode("ascii") * 3, None)
    assert not [w for w in api.load_document(english).warnings if "text layer" in str(w)]


def test_a_lying_unicode_map_is_warned_with_the_share(tmp_path):
    import random

    from sverka.core import api

    codes, honest = _coded(LONG_RU)
    letters = [code for code, ch in honest.items() if ch.isalpha()]
    shuffled = letters[:]
    random.Random(15).shuffle(shuffled)
    lying = dict(honest)
    lying.update({a: honest[b] for a, b in zip(letters, shuffled)})  # letters swapped among themselves
    doc = _bounded(api.load_document, _text_pdf(tmp_path / "lying.pdf", codes, lying))
    assert doc.text != LONG_RU
    warning = [w for w in doc.warnings if "text layer" in str(w)]
    assert len(warning) == 1 and "does not look like text: only " in str(warning[0])
    share = int(str(warning[0]).split("only ")[1].split(" %")[0])
    assert share < 30


def test_private_use_and_control_characters_are_warned_with_the_share(tmp_path):
    from sverka.core import api

    codes, honest = _coded(LONG_RU)
    private = {code: (chr(0xE000 + code) if ch != " " else " ") for code, ch in honest.items()}
    doc = _bounded(api.load_document, _text_pdf(tmp_path / "private.pdf", codes, private))
    warning = [w for w in doc.warnings if "text layer" in str(w)]
    assert len(warning) == 1 and "100 % of its characters are private-use" in str(warning[0])
    control = {code: (chr(1 + code % 30) if ch != " " else " ") for code, ch in honest.items()}
    doc = api.load_document(_text_pdf(tmp_path / "control.pdf", codes, control))
    assert [w for w in doc.warnings if "text layer" in str(w) and "private-use, control" in str(w)]


# -- class 5: RTF drawing-shape text ------------------------------------------------------------

def _rtf_with_shape(shape_text: str) -> str:
    return (r"{\rtf1\ansi\ansicpg1251\deff0{\fonttbl{\f0\fcharset0 Times;}}"
            r"{\pard Первый абзац.\par}"
            r"{\pard До фигуры {\shp{\*\shpinst\shpleft0\shptop0{\sp{\sn fillColor}{\sv 255}}"
            r"{\shptxt \pard\plain " + shape_text + r"\par}}"
            r"{\shprslt{\*\do\dobxcolumn\dptxbx{\dptxbxtext\pard копия для старых программ\par}}}}"
            r" после фигуры.\par}"
            r"{\pard Последний абзац.\par}}")


def test_rtf_shape_text_is_read_once_after_the_body(tmp_path):
    from sverka.core import api

    path = tmp_path / "shape.rtf"
    path.write_bytes(_rtf_with_shape(r"Текст в надписи \'e0\'e1\'e2.").encode("cp1251"))
    doc = api.load_document(path)
    lines = [" ".join(line.split()) for line in doc.text.splitlines() if line.strip()]
    assert lines == ["Первый абзац.", "До фигуры после фигуры.", "Последний абзац.", "Текст в надписи абв."]
    assert "копия" not in doc.text


def test_rtf_hidden_text_inside_a_shape_is_left_out_and_reported(tmp_path):
    from sverka.core import api

    path = tmp_path / "shape-hidden.rtf"
    path.write_bytes(_rtf_with_shape(r"Видно {\v скрытый наполнитель из слов} тоже.").encode("cp1251"))
    doc = api.load_document(path)
    assert "Видно" in doc.text and "наполнитель" not in doc.text
    assert any("hidden text left out: 4 word" in str(w) for w in doc.warnings)


def test_rtf_shape_scan_is_linear():
    from sverka.core.extract.rtf_text import _prepass

    n = 100_000
    source = r"{\rtf1 " + r"{\shp{\*\shpinst{\shptxt x" * n + "}" * (3 * n) + "}"
    _bounded(_prepass, source)
    source = r"{\rtf1 " + r"{\shp{\*\shpinst{\shptxt x}}}" * n + "}"
    body, _ = _bounded(_prepass, source)
    assert body.count("x") == n


# -- class 7: workers die with their parent ---------------------------------------------------

def _wait_gone(pids: list[int], seconds: float = 10.0) -> list[int]:
    deadline = time.monotonic() + seconds
    alive = list(pids)
    while alive and time.monotonic() < deadline:
        for pid in list(alive):
            try:
                os.kill(pid, 0)
                with open(f"/proc/{pid}/stat") as f:
                    if f.read().split(") ")[1].startswith("Z"):
                        alive.remove(pid)  # a zombie: dead, waiting for init to reap it
            except (ProcessLookupError, FileNotFoundError):
                alive.remove(pid)
        time.sleep(0.1)
    return alive


def test_pool_workers_die_with_their_killed_parent(tmp_path):
    """The index's and the batch check's process pools end when their parent is SIGKILLed."""
    from sverka.core import api
    from sverka.core.document import Document

    db = tmp_path / "c.sverka"
    with api.Collection(db) as c:
        c.add_document(Document("Какой-то текст для коллекции, чтобы она была.", title="t"), template=False)
    script = (
        "import os, sys, time\n"
        "from sverka.core import batch, workers\n"
        "if __name__ == '__main__':\n"
        "    a = workers.process_pool(2, workers.pool_initializer, (os.getpid(),))\n"
        "    b = workers.process_pool(2, batch._init, (sys.argv[1], os.getpid()))\n"
        "    pids = {f.result() for f in [a.submit(os.getpid) for _ in range(4)] + [b.submit(os.getpid) for _ in range(4)]}\n"
        "    print(' '.join(map(str, pids)), flush=True)\n"
        "    time.sleep(120)\n"
    )
    main = tmp_path / "parent.py"
    main.write_text(script)
    proc = subprocess.Popen([sys.executable, str(main), str(db)], stdout=subprocess.PIPE, text=True)
    try:
        pids = [int(p) for p in proc.stdout.readline().split()]
        assert len(pids) >= 2
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        assert _wait_gone(pids) == [], "pool workers outlived their killed parent"
    finally:
        if proc.poll() is None:
            proc.kill()


# -- class 7: read-only and damaged collections -------------------------------------------------

ESSAYS = [
    "Глобальное потепление вызывает таяние ледников в Арктике и Антарктиде, что приводит к "
    "повышению уровня мирового океана и затоплению прибрежных городов по всему миру.",
    "Пушкин родился в Москве в семье небогатого дворянина и рано полюбил поэзию, читая книги "
    "из отцовской библиотеки долгими зимними вечерами.",
    "Фотосинтез происходит в хлоропластах растительных клеток, где энергия солнечного света "
    "превращается в энергию химических связей органических веществ.",
]


def _sql(db: Path, statement: str, *params) -> None:
    """Change the collection file behind Sverka's back (how the tests damage it)."""
    import sqlite3

    con = sqlite3.connect(db)
    con.execute(statement, params)
    con.commit()
    con.close()


def _collection(tmp_path: Path, name: str = "class.sverka") -> Path:
    from sverka.core import api
    from sverka.core.document import Document

    db = tmp_path / name
    with api.Collection(db) as c:
        for k, text in enumerate(ESSAYS):
            c.add_document(Document(text, path=str(tmp_path / f"essay{k}.txt"), title=f"essay{k}"), template=False)
    return db


def _suspect():
    from sverka.core.document import Document

    return Document(ESSAYS[0] + " " + ESSAYS[1], title="suspect")


def test_a_read_only_collection_opens_for_checking_and_refuses_changes(tmp_path, monkeypatch):
    """In-process: the file is taken as not writable (what os.access says on a read-only
    medium, and to anyone but root for mode 0o444), so it is opened with mode=ro."""
    from sverka.core import api
    from sverka.core.store import sqlite
    from sverka.core.document import Document

    db = _collection(tmp_path)
    monkeypatch.setattr(sqlite, "_writable", lambda path: False)
    with api.Collection(db) as c:
        assert c.index.read_only
        assert c.count() == 3
        result = c.check(_suspect())
        assert {s.title for s in result.sources} == {"essay0", "essay1"}
        for change in (lambda: c.add([tmp_path]), lambda: c.add_document(Document("Новый текст.", title="n")),
                       lambda: c.remove([1]), lambda: c.set_template(1, True)):
            with pytest.raises(api.CollectionReadOnly, match="read-only .* can be used for checking"):
                change()
    assert api.Collection(db).count() == 3  # nothing changed


@pytest.mark.skipif(os.geteuid() != 0 or not Path("/usr/bin/setpriv").exists(),
                    reason="needs root to drop to an unprivileged user with setpriv")
def test_a_collection_in_a_read_only_folder_as_an_ordinary_user(tmp_path):
    """The real thing: files 0o444 in a folder 0o555, opened by an unprivileged user (root
    would write anyway): a check works, adding is refused with the message."""
    import shutil
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="sverka-ro-", dir="/tmp"))
    try:
        base.chmod(0o755)
        folder = base / "ro"
        folder.mkdir()
        db = _collection(folder)
        (folder / "suspect.txt").write_text(ESSAYS[0], encoding="utf-8")
        cache = base / "home"
        cache.mkdir()
        os.chown(cache, 65534, 65534)
        for p in folder.iterdir():
            p.chmod(0o444)
        folder.chmod(0o555)
        env = {**os.environ, "HOME": str(cache), "XDG_CACHE_HOME": str(cache / ".cache"),
               "XDG_DATA_HOME": str(cache / ".local")}

        script = (
            "import sys\n"
            "from sverka.core import api\n"
            "from sverka.core.document import Document\n"
            "c = api.Collection(sys.argv[1])\n"
            "print('read_only', c.index.read_only)\n"
            "r = c.check(Document(sys.argv[2], title='suspect'))\n"
            "print('sources', ' '.join(s.title for s in r.sources))\n"
            "try:\n"
            "    c.add_document(Document('Новый текст ученика.', title='n'))\n"
            "except api.CollectionReadOnly as e:\n"
            "    print('refused', e)\n"
        )
        # the reader's worker process is not started: the venv's interpreter may live where
        # an unprivileged user cannot run it again; the file names go through the API directly
        run = subprocess.run(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                              sys.executable, "-c", script, str(db), _suspect().text],
                             capture_output=True, text=True, env=env, timeout=120, cwd=str(base))
        assert run.returncode == 0, run.stderr
        lines = dict(line.split(" ", 1) for line in run.stdout.splitlines())
        assert lines["read_only"] == "True"
        assert sorted(lines["sources"].split()) == ["essay0", "essay1"]
        assert "read-only" in lines["refused"] and "can be used for checking" in lines["refused"]
        assert not (folder / "class.sverka-wal").exists()
    finally:
        for root, dirs, files in os.walk(base):
            os.chmod(root, 0o755)
        shutil.rmtree(base, ignore_errors=True)


def test_bad_json_in_the_collection_settings_names_rebuild_and_rebuild_repairs_it(tmp_path):
    from sverka.core import api

    db = _collection(tmp_path)
    _sql(db, "UPDATE meta SET value='{not json' WHERE key='shingle_words'")
    with pytest.raises(api.CollectionDamaged, match="stored settings .* sverka rebuild"):
        api.Collection(db)
    assert api.rebuild_collection(db) == 3
    with api.Collection(db) as c:
        assert {s.title for s in c.check(_suspect()).sources} == {"essay0", "essay1"}


def _spoil_tokens(db: Path, title: str, blob: bytes) -> None:
    _sql(db, "UPDATE document_data SET tokens=? WHERE doc_id=(SELECT id FROM documents WHERE title=?)", blob, title)


def _inflating_blob(gigabytes: float) -> bytes:
    """Format 1 tokens: zlib of ``gigabytes`` GB of zeros (about 1.5 MB per GB)."""
    import zlib

    comp = zlib.compressobj(9)
    chunk = bytes(64 << 20)
    parts = [comp.compress(chunk) for _ in range(int(gigabytes * 16))]
    return b"\x01" + b"".join(parts) + comp.flush()


@pytest.mark.parametrize("kind", ["garbage", "truncated", "inflates-1.5GB"])
def test_a_damaged_stored_document_is_named_and_the_check_goes_on(tmp_path, kind):
    from sverka.core import api

    db = _collection(tmp_path)
    blob = {"garbage": b"\x02" + os.urandom(300), "truncated": b"\x02\x05\x00",
            "inflates-1.5GB": _inflating_blob(1.5) if kind == "inflates-1.5GB" else b""}[kind]
    _spoil_tokens(db, "essay1", blob)
    with api.Collection(db) as c:
        result = _bounded(c.check, _suspect())
        assert [s.title for s in result.sources] == ["essay0"]
        warning = [w for w in result.suspect.warnings if "not compared" in str(w)]
        assert len(warning) == 1 and '"essay1"' in str(warning[0]) and "sverka rebuild" in str(warning[0])
    skipped: list[str] = []
    assert api.rebuild_collection(db, skipped=skipped) == 3  # the texts are whole: all rebuilt
    with api.Collection(db) as c:
        assert {s.title for s in c.check(_suspect()).sources} == {"essay0", "essay1"}


def test_a_source_removed_by_another_desktop_during_a_check_is_left_out(tmp_path):
    """A shared archive: another teacher removes a document after this check's retrieval found
    it and before its comparison; the check goes on with the rest."""
    from sverka.core import api

    db = _collection(tmp_path)
    with api.Collection(db) as c:
        found = c.index.infos

        def removed_meanwhile(ids):
            with api.Collection(db) as other:
                assert other.remove([d.id for d in other.documents() if d.title == "essay1"]) == 1
            return found(ids)

        c.index.infos = removed_meanwhile
        result = _bounded(c.check, _suspect())
        assert [s.title for s in result.sources] == ["essay0"]
        assert not result.suspect.warnings


def test_a_source_removed_after_its_description_was_read_is_left_out_without_a_warning(tmp_path):
    """The same, one step later: the document goes after the check read its description and
    before it reads its text and tokens. It is left out; no warning calls the archive damaged."""
    from sverka.core import api

    db = _collection(tmp_path)
    with api.Collection(db) as c:
        found = c.index.infos

        def removed_after(ids):
            infos = found(ids)
            if len(infos) > 1:  # the check's read of all its candidates, not a later question
                with api.Collection(db) as other:
                    assert other.remove([d.id for d in other.documents() if d.title == "essay1"]) == 1
            return infos

        c.index.infos = removed_after
        result = _bounded(c.check, _suspect())
        assert [s.title for s in result.sources] == ["essay0"]
        assert not result.suspect.warnings


def test_a_damaged_stored_text_is_named_and_left_out_by_rebuild(tmp_path):
    from sverka.core import api

    db = _collection(tmp_path)
    _sql(db, "UPDATE document_data SET text=x'ffff00c3' WHERE doc_id=(SELECT id FROM documents WHERE title='essay2')")
    with api.Collection(db) as c:
        doc_id = next(d.id for d in c.documents() if d.title == "essay2")
        with pytest.raises(api.CollectionDamaged, match='"essay2".*sverka rebuild'):
            c.text(doc_id)
    skipped: list[str] = []
    assert api.rebuild_collection(db, skipped=skipped) == 2
    assert len(skipped) == 1 and "essay2" in skipped[0]


@pytest.mark.parametrize("seed", range(6))
def test_flipped_bytes_in_the_collection_file_end_in_a_message_not_a_traceback(tmp_path, seed):
    import random

    from sverka.core import api
    from sverka.core.document import Document
    from sverka.core.errors import SverkaError

    db = tmp_path / "big.sverka"
    rng = random.Random(seed)
    words = " ".join(ESSAYS).split()
    with api.Collection(db) as c:
        for k in range(40):
            text = " ".join(rng.choice(words) for _ in range(120)) + "."
            c.add_document(Document(text, path=str(tmp_path / f"d{k}.txt"), title=f"d{k}"), template=False)
    data = bytearray(db.read_bytes())
    page = 4096
    for _ in range(20):  # flip bytes on pages past the header
        at = rng.randrange(page, len(data))
        data[at] ^= 0xFF
    db.write_bytes(bytes(data))
    outcomes = []
    for step in ("open", "list", "check", "text", "rebuild"):
        try:
            if step == "rebuild":
                api.rebuild_collection(db, skipped=[])
            else:
                with api.Collection(db) as c:
                    if step == "list":
                        c.documents()
                    elif step == "check":
                        c.check(_suspect())
                    elif step == "text":
                        for d in c.documents():
                            c.text(d.id)
            outcomes.append((step, "ok"))
        except SverkaError as e:
            outcomes.append((step, str(e)))
            assert str(db) in str(e)
    # a message, never another exception; damage found by a read names the rebuild
    for step, outcome in outcomes:
        assert outcome == "ok" or "rebuil" in outcome, (step, outcome)


# -- class 2: a check and its HTML report with 30 000 quotations ---------------------------------

def test_thirty_thousand_quotations_are_checked_and_reported_in_linear_time():
    from sverka.core import api
    from sverka.core.document import Document

    source = ESSAYS[0] + " " + ESSAYS[1]
    suspect = " ".join(f"«цитата {k} одно слово»" for k in range(30_000)) + " " + source
    result = _bounded(api.compare, Document(suspect, title="suspect"), Document(source, title="source"))
    assert len(result.marked) == 30_000 and result.borrowed_percent > 0
    html = _bounded(api.render_html, result)
    assert html.count("цитата 29999") >= 1


def test_characters_inside_regions_are_counted_as_before():
    """The binary-search count equals the former double subtraction on random intervals."""
    import random

    from sverka.core.intervals import inside, merge, subtract, total

    rng = random.Random(15)
    for _ in range(2000):
        regions = merge((a, a + rng.randrange(0, 30)) for a in (rng.randrange(0, 400) for _ in range(rng.randrange(0, 20))))
        s = rng.randrange(0, 420)
        e = s + rng.randrange(0, 80)
        former = total(subtract([(s, e)], subtract([(s, e)], regions))) if regions and e > s else 0
        assert inside(s, e, regions) == former
