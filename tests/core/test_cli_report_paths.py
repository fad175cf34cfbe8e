"""Where ``--html OUT`` and ``--pdf OUT`` may write: over an earlier report of Sverka's or an
empty file, never over a document (OUT forgotten, ``sverka crosscheck --html essays/*`` wrote
over the first essay), never over a device, a pipe or a folder, and through a symbolic link
into its target, the link kept. A FIFO or standard output as OUT is refused at once: sniffing
it for a collection hung for ever. Every run has a time limit, so that a hang fails the test."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

SVERKA = Path(sys.executable).with_name("sverka")
ESSAY = "Это обычный текст сочинения для проверки, в нём несколько честных предложений подряд."
OTHER = "Совсем другое сочинение о летних каникулах, где рассказано про реку, лес и походы с друзьями."
#: Long enough for a check under load; a refusal takes a second, a hang is cut here.
LIMIT = 120

pytestmark = pytest.mark.skipif(not SVERKA.exists(), reason=f"console script not installed at {SVERKA}")


def sverka(*args: str, rc: int, locale: str = "C.UTF-8") -> subprocess.CompletedProcess:
    try:
        out = subprocess.run([str(SVERKA), *args], capture_output=True, text=True, encoding="utf-8", timeout=LIMIT,
                             env={**os.environ, "LANG": locale, "LC_ALL": locale})
    except subprocess.TimeoutExpired:
        pytest.fail(f"sverka {' '.join(args)}: still running after {LIMIT} s")
    assert "Traceback" not in out.stderr, out.stderr
    assert out.returncode == rc, (out.returncode, out.stdout[-1000:], out.stderr[-1000:])
    return out


@pytest.fixture
def essays(tmp_path) -> Path:
    """A class's folder: a Word essay (its bytes are never read: the refusal comes first), two
    text essays, a student's web page and a student's PDF; and a collection of one essay."""
    folder = tmp_path / "essays"
    folder.mkdir()
    (folder / "a.docx").write_bytes(b"PK\x03\x04 a student's Word essay")
    (folder / "b.txt").write_text(ESSAY, encoding="utf-8")
    (folder / "c.txt").write_text(OTHER, encoding="utf-8")
    (folder / "b.html").write_text(f"<!DOCTYPE html><html><body><p>{ESSAY}</p></body></html>", encoding="utf-8")
    (folder / "page.pdf").write_bytes(b"%PDF-1.4\n1 0 obj\n<</Creator (LibreOffice)>>\nendobj\n%%EOF\n")
    sverka("index", "--db", str(tmp_path / "class.sverka"), str(folder / "c.txt"), rc=0)
    return folder


def contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_forgotten_out_never_replaces_a_document(essays, tmp_path):
    db, before = str(tmp_path / "class.sverka"), contents(essays)
    a, b, c = (str(essays / n) for n in ("a.docx", "b.txt", "c.txt"))
    for args in (["crosscheck", "--defaults", "--html", a, b, c],  # the essays/* of finding 2
                 ["check", "--defaults", "--db", db, "--html", a, b],
                 ["compare", "--defaults", b, c, "--html", a],
                 ["compare", "--defaults", b, c, "--pdf", a]):
        out = sverka(*args, rc=2)
        assert "a report would replace this file, and it is not a report (its name does not end in" in out.stderr, args
        assert args[args.index("--html" if "--html" in args else "--pdf") + 1] in out.stderr
    out = sverka("crosscheck", "--defaults", "--lang", "ru", "--html", a, b, c, rc=2)
    assert "отчёт заменил бы этот файл, а это не отчёт (его имя не оканчивается на .html / .htm)" in out.stderr
    # named as a report, but a student's: a web page, a PDF (check writes OUT.pdf: the same file)
    page, pdf = str(essays / "b.html"), str(essays / "page.pdf")
    for args in (["compare", "--defaults", b, c, "--html", page],
                 ["check", "--defaults", "--db", db, "--pdf", pdf, b],
                 ["check", "--defaults", "--db", db, "--html", str(essays), b, c]):  # essays/b.html
        out = sverka(*args, rc=2)
        assert "it is not a report Sverka wrote: choose another file for --" in out.stderr, args
    assert contents(essays) == before


def test_an_earlier_report_or_an_empty_file_is_replaced(essays, tmp_path):
    b, c = str(essays / "b.txt"), str(essays / "c.txt")
    report, pdf, empty = tmp_path / "report.htm", tmp_path / "report.pdf", tmp_path / "tmp.Xa81"
    empty.touch()  # mktemp's: nothing to lose
    for _ in range(2):
        sverka("compare", "--defaults", b, c, "--html", str(report), "--pdf", str(pdf), rc=0)
    sverka("compare", "--defaults", b, c, "--html", str(empty), rc=0)
    for page in (report, empty):
        assert '<meta name="generator" content="Sverka ' in page.read_text(encoding="utf-8")
    assert pdf.read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize("option", ["html", "pdf"])
@pytest.mark.parametrize("kind", ["fifo", "standard output", "device", "folder"])
def test_a_pipe_a_device_or_a_folder_is_refused_at_once_and_kept(essays, tmp_path, option, kind):
    out_path = tmp_path / f"report.{option}"
    if kind == "fifo":
        os.mkfifo(out_path)
    elif kind == "standard output":  # finding 3's `--html /dev/stdout | less`, in a folder of the test's
        out_path.symlink_to("/proc/self/fd/1")
    elif kind == "device":  # a link, so that a regression replaces the link, never the device
        out_path.symlink_to(os.devnull)
    else:
        out_path.mkdir()
    before = os.lstat(out_path)
    b, c = str(essays / "b.txt"), str(essays / "c.txt")
    out = sverka("compare", "--defaults", b, c, f"--{option}", str(out_path), rc=2)
    assert f"{out_path}: not a regular file (a folder, a device, a pipe or a socket)" in out.stderr
    assert f"choose a file for --{option}" in out.stderr
    after = os.lstat(out_path)
    assert (stat.S_IFMT(after.st_mode), after.st_ino) == (stat.S_IFMT(before.st_mode), before.st_ino)
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_a_fifo_given_to_check_is_refused_at_once(essays, tmp_path):
    fifo = tmp_path / "report.html"
    os.mkfifo(fifo)
    out = sverka("check", "--defaults", "--db", str(tmp_path / "class.sverka"), "--html", str(fifo),
                 str(essays / "b.txt"), rc=2)
    assert "not a regular file" in out.stderr and stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_report_through_a_link_goes_to_its_target_and_the_link_stays(essays, tmp_path):
    db, b, c = str(tmp_path / "class.sverka"), str(essays / "b.txt"), str(essays / "c.txt")
    target, link = tmp_path / "reports" / "latest-report.html", tmp_path / "report.html"
    target.parent.mkdir()
    sverka("check", "--defaults", "--db", db, "--html", str(target), c, rc=0)
    link.symlink_to(target)
    sverka("check", "--defaults", "--db", db, "--html", str(link), b, rc=0)
    assert link.is_symlink() and "b.txt" in target.read_text(encoding="utf-8")
    # a link to a report still to be made: it is made there
    dangling = tmp_path / "new.html"
    dangling.symlink_to(tmp_path / "reports" / "new-report.html")
    sverka("compare", "--defaults", b, c, "--html", str(dangling), rc=0)
    assert dangling.is_symlink() and "b.txt" in (tmp_path / "reports" / "new-report.html").read_text(encoding="utf-8")
    # a link to a document: refused, the document and the link as they were
    to_essay, before = tmp_path / "essay.html", (essays / "a.docx").read_bytes()
    to_essay.symlink_to(essays / "a.docx")
    out = sverka("compare", "--defaults", b, c, "--html", str(to_essay), rc=2)
    assert "its name does not end in .html / .htm" in out.stderr
    assert to_essay.is_symlink() and (essays / "a.docx").read_bytes() == before
