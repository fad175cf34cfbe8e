"""Sverka never opens a network connection: a full run with socket creation made to fail.

The run happens in a fresh interpreter whose ``sitecustomize`` (on PYTHONPATH) installs a
guard before anything else is imported, so every Python process of the run has it, the
index's worker processes too (they are spawned, and a spawned interpreter reads
sitecustomize as well). The guard

* patches ``socket.socket.__init__``, ``connect``, ``connect_ex``, ``bind``, ``sendto``,
  ``socket.create_connection``, ``create_server``, ``getaddrinfo``, ``gethostbyname(_ex)``,
  ``gethostbyaddr`` and ``getnameinfo`` to raise, and
* adds an audit hook (``sys.addaudithook``) on ``socket.__new__``, ``socket.connect``,
  ``socket.bind``, ``socket.sendto`` and the name look-ups, which also catches sockets made
  through ``_socket`` directly;

every attempt is written to a log before raising, so an attempt that the code caught and
swallowed is still seen. Only AF_UNIX sockets are allowed: ``multiprocessing`` makes
``socket.socketpair()`` pairs for its pipes between processes of this machine; that is
inter-process communication, not a network connection.

Native code (Qt, pdfium) does not pass through Python's socket module: the last test runs
the same flows under ``strace -f`` (when strace is installed) and fails on any
AF_INET/AF_INET6/AF_PACKET socket made by any thread of any process.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]

GUARD = r'''
"""Test guard (tests/core/test_privacy.py): no network from any Python process of this run."""
import os as _os
import socket as _socket_mod
import sys as _sys

_LOG = _os.environ["SVERKA_NETWORK_LOG"]
with open(_os.environ["SVERKA_PROCESS_LOG"], "a", encoding="utf-8") as _f:
    _f.write(f"{_os.getpid()} {' '.join(_sys.argv)[:200]}\n")


class NetworkAttempt(RuntimeError):
    pass


def _attempt(what):
    with open(_LOG, "a", encoding="utf-8") as f:
        f.write(f"{_os.getpid()} {what}\n")
    raise NetworkAttempt(f"Sverka must not use the network: {what}")


_UNIX = getattr(_socket_mod, "AF_UNIX", None)
_orig_init = _socket_mod.socket.__init__


def _init(self, family=-1, type=-1, proto=-1, fileno=None):
    if fileno is None and family != _UNIX:
        _attempt(f"socket.socket(family={family!r}, type={type!r})")
    _orig_init(self, family, type, proto, fileno)
    if self.family != _UNIX:
        self.close()
        _attempt(f"socket.socket(fileno=...) of family {self.family!r}")


def _guard_method(name):
    orig = getattr(_socket_mod.socket, name)

    def method(self, *args, **kwargs):
        if self.family != _UNIX:
            _attempt(f"socket.{name}{args!r}")
        return orig(self, *args, **kwargs)

    return method


_socket_mod.socket.__init__ = _init
for _name in ("connect", "connect_ex", "bind", "sendto"):
    setattr(_socket_mod.socket, _name, _guard_method(_name))
for _name in ("create_connection", "create_server", "getaddrinfo", "gethostbyname",
              "gethostbyname_ex", "gethostbyaddr", "getnameinfo"):
    setattr(_socket_mod, _name, (lambda n: lambda *a, **k: _attempt(f"socket.{n}{a!r}"))(_name))

_LOOKUPS = {"socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr", "socket.getnameinfo"}


def _audit(event, args):
    if event == "socket.__new__":
        family = args[1]
        if family not in (_UNIX, -1):  # -1 (default or "from fileno"): the patched __init__ decides
            _attempt(f"audit {event} family={family!r}")
    elif event in ("socket.connect", "socket.bind", "socket.sendto"):
        if getattr(args[0], "family", None) != _UNIX:
            _attempt(f"audit {event} {args[1:]!r}")
    elif event in _LOOKUPS:
        _attempt(f"audit {event} {args!r}")


_sys.addaudithook(_audit)
'''

# The flow of a user: a collection from a folder of every format (big enough for the index's
# worker processes), a check with its HTML report, a direct comparison, a cross-check.
FLOW = r'''
import json, sys
from pathlib import Path
from sverka.core import api

docs, db = Path(sys.argv[1]), Path(sys.argv[2])
with api.Collection(db) as collection:
    added = collection.add([docs / "collection"])
    assert not added.failed, added.failed
    assert len(added.added) >= 6, added
    suspect = api.load_document(docs / "suspect.txt")
    result = collection.check(suspect)
    assert result.sources and result.borrowed_percent > 10, result.borrowed_percent
    html = api.render_html(result)
    assert "<html" in html.lower()
    json.dumps(api.result_to_json(result))
    again = api.apply_exclusions(result, api.Settings(exclude_quotes=False))
    json.dumps(api.result_to_json(again))
pair = api.compare(suspect, api.load_document(docs / "collection" / "source.docx"))
assert pair.sources and pair.sources[0].passages
api.render_html(pair)
cross = api.crosscheck(sorted((docs / "collection").iterdir()) + [docs / "suspect.txt"])
json.dumps(api.crosscheck_to_json(cross))
api.render_html(cross)
print("FLOW OK", len(added.added), round(result.borrowed_percent, 1))
'''

# The window's main flow, driven through the same public methods and signals the GUI tests use:
# add the sample collection, open the sample suspect, check, export HTML and PDF, compare two
# files, cross-check a folder, close.
GUI_FLOW = r'''
import os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from pathlib import Path
from PySide6.QtCore import QEventLoop, QSettings, QTimer
from sverka.gui.app import create_app
from sverka.gui.main_window import MainWindow
from sverka.gui.preferences import Preferences

app = create_app(["sverka-gui"])
tmp, sample = Path(sys.argv[1]), Path(sys.argv[2])
prefs = Preferences(QSettings(str(tmp / "sverka.ini"), QSettings.Format.IniFormat))
window = MainWindow(tmp / "collection.sverka", prefs)


def until(done, what, timeout=120):
    # short nested event loops, as pytest-qt waits: QCoreApplication.processEvents() called
    # from Python while a worker thread runs Python corrupts reference counts in PySide6 6.12
    end = time.monotonic() + timeout
    while not done():
        if time.monotonic() > end:
            raise SystemExit(f"timed out waiting for {what}")
        loop = QEventLoop()
        QTimer.singleShot(20, loop.quit)
        loop.exec()


def run(signal, start, what):
    got = []
    signal.connect(lambda *args: got.append(args))
    start()
    until(lambda: got, what)
    return got[0]


run(window.collectionChanged, window.show, "the window")
run(window.collectionChanged, lambda: window.add_paths([sample / "collection"]), "adding the sample collection")
assert len(window.documents) >= 2, window.documents
window.load_suspect(sample / "suspect.txt")
until(lambda: window.suspect_document is not None, "the suspect")
(result,) = run(window.resultShown, window.check, "the check")
assert result.sources, "the sample suspect borrows from the sample collection"
window.export(tmp / "report.html")
run(window.jobFinished, lambda: window.export(tmp / "report.pdf"), "the PDF export")  # a background job
files = sorted(p for p in (sample / "collection").iterdir() if p.is_file())
run(window.resultShown, lambda: window.compare_files(sample / "suspect.txt", files[0]), "the comparison")
run(window.crossCheckShown, lambda: window.crosscheck([sample / "collection"]), "the cross-check")
window.close()
window.runner.shutdown()
print("GUI FLOW OK", len(window.documents), round(result.borrowed_percent, 1))
'''

BORROWED = (
    "Студенты написали курсовые работы по истории родного края и сдали их преподавателю "
    "в последний день семестра, хотя многие из них начали писать только накануне вечером. "
)


def _filler(seed: int, words: int) -> str:
    """Text of its own (no borrowing): made-up Russian-looking words from syllables, seeded."""
    import random

    syllables = "ба ве ги до жу за ко ле ми но пу ро са ти фу ха це чи ша ще ры ня ль ска про сто вер мин".split()
    r = random.Random(seed)
    sentences = []
    for _ in range(words // 8):
        ws = ["".join(r.choice(syllables) for _ in range(r.randint(2, 4))) for _ in range(8)]
        sentences.append(" ".join(ws).capitalize() + ".")
    return " ".join(sentences)


def _write_documents(folder: Path) -> None:
    """One file of every format Sverka reads, and plain texts enough for the worker processes
    (the index prepares files in a pool from 4 files and 1 MB on)."""
    coll = folder / "collection"
    coll.mkdir(parents=True)
    for k in range(4):
        (coll / f"archive_{k}.txt").write_text(_filler(k, 25_000), encoding="utf-8")
    import docx

    d = docx.Document()
    d.add_paragraph(_filler(10, 200))
    d.add_paragraph(BORROWED * 2)
    d.save(coll / "source.docx")
    from odf.opendocument import OpenDocumentText
    from odf.text import P

    odt = OpenDocumentText()
    odt.text.addElement(P(text=_filler(11, 200)))
    odt.save(str(coll / "essay.odt"))
    rtf_text = _filler(12, 100).encode("cp1251")
    rtf_body = "".join(f"\\'{b:02x}" if b > 127 else chr(b) for b in rtf_text)
    (coll / "notes.rtf").write_text("{\\rtf1\\ansi\\ansicpg1251 " + rtf_body + "}", encoding="ascii")
    (coll / "page.html").write_text(
        f"<html><head><title>Page</title><script>fetch('http://example.invalid')</script></head>"
        f"<body><p>{_filler(13, 150)}</p><img src='http://example.invalid/x.png'></body></html>",
        encoding="utf-8",
    )
    (coll / "readme.md").write_text("# Заметки\n\n" + _filler(14, 120), encoding="utf-8")
    (folder / "suspect.txt").write_bytes((_filler(20, 100) + " " + BORROWED * 2).encode("cp1251"))


def _run_guarded(tmp_path: Path, args: list[str], extra_env: dict[str, str] | None = None, timeout: int = 600):
    guard_dir = tmp_path / "guard"
    guard_dir.mkdir(exist_ok=True)
    (guard_dir / "sitecustomize.py").write_text(GUARD, encoding="utf-8")
    net_log, proc_log = tmp_path / "network.log", tmp_path / "processes.log"
    env = dict(os.environ)
    env.update(
        PYTHONPATH=os.pathsep.join([str(guard_dir)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])),
        SVERKA_NETWORK_LOG=str(net_log),
        SVERKA_PROCESS_LOG=str(proc_log),
        HOME=str(tmp_path / "home"),
        XDG_DATA_HOME=str(tmp_path / "home" / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "home" / "config"),
        XDG_CACHE_HOME=str(tmp_path / "home" / "cache"),
        **(extra_env or {}),
    )
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=timeout)
    attempts = net_log.read_text(encoding="utf-8") if net_log.exists() else ""
    processes = proc_log.read_text(encoding="utf-8").splitlines() if proc_log.exists() else []
    return done, attempts, processes


def test_the_guard_catches_network_and_allows_unix_pairs(tmp_path):
    code = textwrap.dedent(
        """
        import socket, _socket
        a, b = socket.socketpair()          # AF_UNIX: allowed (multiprocessing uses it)
        a.sendall(b"x"); assert b.recv(1) == b"x"
        caught = 0
        for attempt in (lambda: socket.socket(),
                        lambda: socket.create_connection(("127.0.0.1", 9), timeout=0.1),
                        lambda: socket.getaddrinfo("localhost", 80),
                        lambda: _socket.socket(socket.AF_INET, socket.SOCK_STREAM),
                        lambda: socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)):
            try:
                attempt()
            except RuntimeError:
                caught += 1
        print(caught)
        """
    )
    done, attempts, _ = _run_guarded(tmp_path, ["-c", code])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "5"
    assert len(attempts.splitlines()) >= 5


@pytest.mark.slow
def test_full_run_opens_no_socket(tmp_path):
    docs = tmp_path / "docs"
    _write_documents(docs)
    done, attempts, processes = _run_guarded(tmp_path, ["-c", FLOW, str(docs), str(tmp_path / "c.sverka")])
    assert attempts == "", f"network attempted:\n{attempts}\n{done.stderr[-3000:]}"
    assert done.returncode == 0, done.stderr[-5000:]
    assert "FLOW OK" in done.stdout
    # the guard ran in the worker processes too (spawned by the index), not only in the main one
    workers = [p for p in processes if "--multiprocessing-fork" in p]
    assert workers, processes


def _gui_smoke_args() -> list[str]:
    return [str(PROJECT / "installer" / "launch" / "sverka_gui.py"), "--smoke-test"]


@pytest.mark.slow
def test_window_starts_without_a_socket(tmp_path):
    """The window's start (settings, collection, first-run sample, dictionaries warming up in
    a worker during the 4 s it stays open) under the guard, offscreen."""
    done, attempts, processes = _run_guarded(
        tmp_path, _gui_smoke_args(), {"QT_QPA_PLATFORM": "offscreen", "SVERKA_SMOKE_TIMEOUT": "60", "SVERKA_SMOKE_LINGER": "4"}, timeout=180
    )
    assert attempts == "", f"network attempted:\n{attempts}\n{done.stderr[-3000:]}"
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "window shown" in done.stdout
    assert processes, "the guard did not run"


@pytest.mark.slow
def test_window_main_flow_opens_no_socket(tmp_path):
    """Through the window: add the sample collection, check the sample suspect, export HTML and
    PDF, compare two files, cross-check a folder; offscreen, under the guard."""
    sample = tmp_path / "sample"
    shutil.copytree(PROJECT / "resources" / "sample", sample)
    done, attempts, processes = _run_guarded(tmp_path, ["-c", GUI_FLOW, str(tmp_path), str(sample)],
                                             {"QT_QPA_PLATFORM": "offscreen"}, timeout=300)
    assert attempts == "", f"network attempted:\n{attempts}\n{done.stderr[-3000:]}"
    assert done.returncode == 0, done.stdout + done.stderr[-5000:]
    assert "GUI FLOW OK" in done.stdout
    assert (tmp_path / "report.html").stat().st_size > 0 and (tmp_path / "report.pdf").stat().st_size > 0
    assert processes


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed (apt-get install strace)")
def test_no_internet_socket_at_the_system_call_level(tmp_path):
    """Every thread of every process (Python, Qt, pdfium): no AF_INET/AF_INET6/AF_PACKET socket,
    in the core flow, the window's start and the window's main flow."""
    docs = tmp_path / "docs"
    _write_documents(docs)
    env = dict(os.environ, HOME=str(tmp_path / "home"), XDG_DATA_HOME=str(tmp_path / "home" / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "home" / "config"), QT_QPA_PLATFORM="offscreen",
               SVERKA_SMOKE_TIMEOUT="60", SVERKA_SMOKE_LINGER="4")
    sample = tmp_path / "sample"
    shutil.copytree(PROJECT / "resources" / "sample", sample)
    (tmp_path / "gui").mkdir()
    runs = {
        "flow": [sys.executable, "-c", FLOW, str(docs), str(tmp_path / "c.sverka")],
        "window": [sys.executable, *_gui_smoke_args()],
        "window flow": [sys.executable, "-c", GUI_FLOW, str(tmp_path / "gui"), str(sample)],
    }
    for name, cmd in runs.items():
        trace = tmp_path / f"{name}.strace"
        done = subprocess.run(["strace", "-f", "--seccomp-bpf", "-qq", "-e", "trace=socket,connect", "-o", str(trace), *cmd],
                              capture_output=True, text=True, env=env, timeout=600)
        if done.returncode != 0 and "ptrace" in done.stderr and not trace.exists():
            pytest.skip(f"strace cannot trace here: {done.stderr.strip()[:200]}")
        assert done.returncode == 0, done.stdout + done.stderr[-3000:]
        lines = trace.read_text(encoding="utf-8", errors="replace").splitlines()
        bad = [ln for ln in lines if any(f in ln for f in ("AF_INET", "AF_PACKET", "sin_port", "sin6_port"))]
        assert bad == [], f"{name}: " + "\n".join(bad[:20])
        print(name, json.dumps({"socket/connect calls": len(lines)}))
