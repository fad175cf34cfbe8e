"""Workers: every answer and every error reaches the GUI thread; cancel; one writer thread."""

from __future__ import annotations

import threading
import time

import pytest

from sverka.core.api import Cancelled
from sverka.gui.jobs import EtaEstimator, JobRunner, format_time_left


@pytest.fixture
def runner(qtbot):
    r = JobRunner()
    yield r
    r.shutdown(5000)


def run_and_wait(qtbot, runner, func, **kwargs):
    answers = []
    job = runner.run(func, lambda result, error: answers.append((result, error, threading.current_thread())), **kwargs)
    qtbot.waitUntil(lambda: bool(answers), timeout=5000)
    return job, answers[0]


def test_result_comes_back_in_the_gui_thread(qtbot, runner):
    job, (result, error, thread) = run_and_wait(qtbot, runner, lambda progress, cancel: 6 * 7)
    assert (result, error) == (42, None)
    assert thread is threading.main_thread()
    assert job.done and runner.jobs == []


def test_every_exception_is_handed_back(qtbot, runner):
    def boom(progress, cancel):
        raise KeyError("lost?")

    _, (result, error, _) = run_and_wait(qtbot, runner, boom)
    assert result is None and isinstance(error, KeyError)
    assert "KeyError" in error.__sverka_traceback__


def test_cancel_stops_a_running_job(qtbot, runner):
    started = threading.Event()

    def long(progress, cancel):
        started.set()
        for i in range(1000):
            cancel.raise_if_cancelled()
            progress(i, 1000, "working")
            time.sleep(0.005)
        return "finished"

    answers = []
    job = runner.run(long, lambda r, e: answers.append((r, e)))
    assert started.wait(5)
    job.cancel()
    qtbot.waitUntil(lambda: bool(answers), timeout=5000)
    assert answers[0][0] is None and isinstance(answers[0][1], Cancelled)


def test_progress_is_throttled_and_delivered(qtbot, runner):
    seen = []

    def chatty(progress, cancel):
        for i in range(20000):
            progress(i + 1, 20000, "step")
        return True

    _, (result, _, _) = run_and_wait(qtbot, runner, chatty, progress=lambda d, t, m: seen.append(d))
    qtbot.waitUntil(lambda: bool(seen) and seen[-1] == 20000, timeout=2000)
    assert result is True
    assert len(seen) < 200  # not one signal per call


def test_writes_run_one_at_a_time_on_one_thread(qtbot, runner):
    threads, active, overlap = set(), [0], [False]
    lock = threading.Lock()

    def write(progress, cancel):
        with lock:
            active[0] += 1
            overlap[0] |= active[0] > 1
        threads.add(threading.get_ident())
        time.sleep(0.02)
        with lock:
            active[0] -= 1

    done = []
    for _ in range(5):
        runner.run(write, lambda r, e: done.append(e), write=True)
    qtbot.waitUntil(lambda: len(done) == 5, timeout=5000)
    assert done == [None] * 5 and len(threads) == 1 and not overlap[0]


def test_shutdown_cancels_waits_and_drops_late_answers(qtbot, runner):
    answers = []

    def long(progress, cancel):
        while not cancel.cancelled:
            time.sleep(0.01)
        return "stopped"

    runner.run(long, lambda r, e: answers.append(r))
    time.sleep(0.05)
    t0 = time.monotonic()
    assert runner.shutdown(5000)
    assert time.monotonic() - t0 < 2
    qtbot.wait(50)
    assert answers == []


def test_time_left():
    eta = EtaEstimator()
    assert eta.update(0, 100, now=0.0) is None
    assert eta.update(50, 100, now=10.0) == pytest.approx(10.0)
    assert format_time_left(None) == ""
    assert format_time_left(12.2) == "about 12 s left"
    assert format_time_left(185) == "about 3 min left"


def test_a_job_outliving_its_signals_ends_quietly(qtbot):
    """A worker that reports after the objects it reports to are gone with the application
    (its signals' object deleted) ends without an error in the log: nobody is left to tell."""
    import shiboken6

    from sverka.gui.jobs import Job

    job = Job(lambda progress, cancel: progress(1, 1, "done") or 42)
    shiboken6.delete(job.signals)
    job.run()  # raised "Signal source has been deleted" from the worker thread
    assert not shiboken6.isValid(job.signals)


def test_quitting_the_application_closes_the_window_first(qtbot, window):
    """The application quitting (not the window's close button: the session ending, a quit()
    from elsewhere) closes the window first, so its jobs are cancelled and waited for."""
    from PySide6.QtWidgets import QApplication

    from sverka.gui.app import close_on_quit

    started, release = threading.Event(), threading.Event()
    window.runner.run(lambda progress, cancel: started.set() or release.wait(5) or 1)
    assert started.wait(5)
    close_on_quit(QApplication.instance(), window)
    release.set()
    QApplication.instance().aboutToQuit.emit()
    assert window._closing and not window.isVisible()
    assert window.runner.wait(0), "the window waited for its jobs before the application went on quitting"
