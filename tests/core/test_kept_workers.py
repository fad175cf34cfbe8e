"""Workers kept between classes (the window's): the second class against a collection uses
the processes the first one started, sees what was added meanwhile, follows a replaced file,
and the workers end when asked to, with nothing printed at exit."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import pytest

from sverka.core import api, batch
from sverka.core.api import result_to_json
from sverka.core.document import Document
from sverka.core.settings import Settings

SOURCE = ("Глобальное потепление вызывает таяние ледников в Арктике и Антарктиде, что приводит к "
          "повышению уровня мирового океана и затоплению прибрежных городов по всему миру. ")
POEM = ("Пушкин родился в Москве в семье небогатого дворянина и рано полюбил поэзию, читая книги "
        "из отцовской библиотеки долгими зимними вечерами. ")
OWN = "Летом мы с друзьями ходили в поход вдоль реки и каждый вечер разводили костёр. "


@pytest.fixture
def setup(tmp_path):
    db = tmp_path / "c.sverka"
    with api.Collection(db) as c:
        c.add_document(Document(SOURCE * 3, path=str(tmp_path / "climate.txt"), title="climate"))
    essays = []
    for k, text in enumerate([OWN * 4 + SOURCE, OWN * 5, POEM + OWN * 3, OWN * 2 + SOURCE + OWN]):
        f = tmp_path / f"essay{k}.txt"
        f.write_text(text, encoding="utf-8")
        essays.append(str(f))
    yield db, essays
    batch.close_workers()


def _pids() -> set[int]:
    pool = batch._kept.pool
    return set((pool._processes or {}).keys()) if pool is not None else set()


def _alive(pid: int) -> bool:
    """The process exists and is not a zombie; a process reaped while its /proc entry is read
    (ESRCH, or the entry gone) is not alive."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return not f.read().split(") ")[1].startswith("Z")
    except (FileNotFoundError, ProcessLookupError):
        return False


def _gone(pids, timeout=10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        alive = [p for p in pids if _alive(p)]
        if not alive:
            return True
        time.sleep(0.05)
    return False


def _titles(b):
    return [[s.title for s in it.result.sources] for it in b.items]


def test_a_second_class_uses_the_workers_of_the_first(setup):
    db, essays = setup
    with api.Collection(db) as c:
        plain = c.check_files(essays, workers=2)
        assert batch.kept_workers() == 0  # without keep_workers: joined when the class is done
        first = c.check_files(essays, workers=2, keep_workers=True)
        pool, pids = batch._kept.pool, _pids()
        assert pool is not None and len(pids) == 2
        nice = min(19, os.getpriority(os.PRIO_PROCESS, 0) + batch.WORKER_NICENESS)
        assert [os.getpriority(os.PRIO_PROCESS, p) for p in pids] == [nice, nice]  # the window comes first
        second = c.check_files(essays, workers=2, keep_workers=True)
        assert batch._kept.pool is pool and _pids() == pids  # the same processes
        # the same answers as workers started for the class, and as checking one by one
        assert ([result_to_json(it.result) for it in first.items]
                == [result_to_json(it.result) for it in second.items]
                == [result_to_json(it.result) for it in plain.items]
                == [result_to_json(c.check(api.load_document(e))) for e in essays])
        assert _titles(second) == [["climate"], [], [], ["climate"]]
        # a short list is checked in the kept workers too
        one = c.check_files(essays[:1], keep_workers=True)
        assert batch._kept.pool is pool and _titles(one) == [["climate"]]
    assert batch.close_workers() is True
    assert batch._kept.pool is None and _gone(pids)
    assert batch.close_workers() is True  # nothing kept: nothing to do


def test_kept_workers_see_what_was_added_and_the_settings_of_each_class(setup, tmp_path):
    db, essays = setup
    with api.Collection(db) as c:
        before = c.check_files(essays, workers=2, keep_workers=True)
        assert _titles(before)[2] == []
        pool = batch._kept.pool
        c.add_document(Document(POEM * 2, path=str(tmp_path / "pushkin.txt"), title="pushkin"))
        after = c.check_files(essays, workers=2, keep_workers=True)
        assert batch._kept.pool is pool
        assert _titles(after)[2] == ["pushkin"]  # added after the workers opened the collection
        strict = c.check_files(essays, c.settings.replace(min_passage_words=200), workers=2, keep_workers=True)
        assert batch._kept.pool is pool
        assert all(it.result.borrowed_percent == 0 for it in strict.items)
        assert strict.items[0].result.settings.min_passage_words == 200


def test_a_replaced_collection_file_gets_new_workers(setup, tmp_path):
    db, essays = setup
    with api.Collection(db) as c:
        c.check_files(essays, workers=2, keep_workers=True)
    old_pids = _pids()
    os.replace(db, tmp_path / "old.sverka")  # e.g. rebuilt: another file at the same path
    with api.Collection(db) as c:
        c.add_document(Document(POEM * 2, path=str(tmp_path / "pushkin.txt"), title="pushkin"))
        b = c.check_files(essays, workers=2, keep_workers=True)
    assert _titles(b) == [[], [], ["pushkin"], []]
    assert _pids() and not (_pids() & old_pids)
    assert _gone(old_pids)


def test_a_cancelled_class_leaves_the_kept_workers_usable(setup):
    db, essays = setup
    token = api.CancelToken()

    def progress(done, total, message):
        if done >= len(essays):  # every file read: cancel while the essays are checked
            token.cancel()

    with api.Collection(db) as c:
        with pytest.raises(api.Cancelled):
            c.check_files(essays, workers=2, keep_workers=True, progress=progress, cancel=token)
        pool = batch._kept.pool
        assert pool is not None
        b = c.check_files(essays, workers=2, keep_workers=True)
        assert batch._kept.pool is pool and _titles(b)[0] == ["climate"]


def test_a_worker_that_died_between_classes_is_replaced(setup):
    import signal

    db, essays = setup
    with api.Collection(db) as c:
        c.check_files(essays, workers=2, keep_workers=True)
        pids = _pids()
        os.kill(sorted(pids)[0], signal.SIGKILL)  # e.g. the system ran out of memory
        assert _gone([sorted(pids)[0]])
        time.sleep(0.5)  # the pool notices
        b = c.check_files(essays, workers=2, keep_workers=True)
    assert _titles(b)[0] == ["climate"]
    assert _pids() and not (_pids() & pids)
    assert _gone(pids)


def test_closing_while_a_class_runs_ends_the_workers_after_it(setup):
    db, essays = setup
    with api.Collection(db) as c:
        c.check_files(essays, workers=2, keep_workers=True)
        pids = _pids()
        with batch._kept_pool(db, 2, start=True) as pool:
            assert pool is batch._kept.pool
            assert batch.close_workers() is False  # in use: not ended under the class
            assert list(pool.map(abs, [1, -2])) == [1, 2]  # still working for its class
        assert batch._kept.pool is None and _gone(pids)


@pytest.mark.parametrize("close", [True, False])
def test_nothing_is_printed_at_exit_with_workers_kept(setup, tmp_path, close):
    """A program that keeps the workers exits cleanly whether or not it ends them first
    (no 'Bad file descriptor', no traceback, no process left)."""
    db, essays = setup
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        from sverka.core import api, batch
        if __name__ == "__main__":
            with api.Collection({str(db)!r}) as c:
                b = c.check_files({essays!r}, workers=2, keep_workers=True)
                b = c.check_files({essays!r}, workers=2, keep_workers=True)
            print(" ".join(map(str, batch._kept.pool._processes)), flush=True)
            if {close!r}:
                assert api.close_workers()
    """), encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr
    assert run.stderr.strip() == ""
    assert _gone([int(p) for p in run.stdout.split()])


def test_settings_reach_the_workers_with_each_essay(setup):
    """The workers open the collection with its own settings; each essay carries the class's."""
    db, essays = setup
    with api.Collection(db) as c:
        docs = [api.load_document(e) for e in essays]
        loose = c.check_many(docs, Settings(min_sentence_words=3), workers=2)
    assert all(r.settings.min_sentence_words == 3 for r in loose)


def test_kept_workers_and_the_reader_outlive_the_thread_that_started_them(setup):
    """The window starts the class workers and the reader from a job's thread, which its
    thread pool retires after 30 s idle. Workers die with their parent by PR_SET_PDEATHSIG,
    which Linux ties to the THREAD that started a process: started from that thread, they
    died with it (the pool broken; a worker killed holding the pool's queue lock hung the
    close). Started from the long-lived starter thread, they live on."""
    import threading

    from sverka.core import workers

    db, essays = setup
    reader = workers.Sandbox()

    answers = []

    def job():  # what the window's job does: check a class in kept workers, read a file
        with api.Collection(db) as c:
            answers.append(_titles(c.check_files(essays, workers=2, keep_workers=True)))
        answers.append(reader.call("extract", essays[1]).text[:5])

    thread = threading.Thread(target=job)
    thread.start()
    thread.join()
    assert answers == [[["climate"], [], [], ["climate"]], "Летом"]
    pids = _pids()
    assert len(pids) == 2
    time.sleep(1.0)  # a signal sent when the thread ended has been delivered by now
    assert all(_alive(p) for p in pids) and not batch._kept.pool._broken
    assert reader._proc.is_alive()
    with api.Collection(db) as c:
        assert _titles(c.check_files(essays, workers=2, keep_workers=True)) == [["climate"], [], [], ["climate"]]
    assert _pids() == pids  # the same processes served the class
    assert reader.call("extract", essays[0]).text.startswith("Летом")
    reader.close()
    assert batch.close_workers() is True and _gone(pids)
