"""Jobs shared with a helper thread (sverka.core.ahead): each runs once, the caller gets every
result as if it had run them itself, a job's error reaches the caller, and the helper stops
when the caller is gone. A check sharing its alignments gives the same result as one that
runs them all itself."""

from __future__ import annotations

import os
import threading
import time

import pytest

from sverka.core import ahead as ahead_module
from sverka.core import api
from sverka.core.ahead import Ahead
from sverka.core.document import Document

two_cores = pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the helper runs on a machine of two cores")


def _jobs(n: int, ran: list, pause: float = 0.02) -> dict:
    def job(k: int):
        def run():
            time.sleep(pause)  # releases the GIL, as the engine's calls do
            ran.append((k, threading.get_ident()))
            return k * k
        return run
    return {k: job(k) for k in range(n)}


@two_cores
def test_each_job_runs_once_and_the_caller_gets_every_result_in_its_order():
    ran: list = []
    ahead = Ahead.start(_jobs(8, ran))
    assert [ahead.result(k) for k in range(8)] == [k * k for k in range(8)]
    assert sorted(k for k, _ in ran) == list(range(8))  # once each
    me = threading.get_ident()
    helped = [k for k, who in ran if who != me]
    assert helped and max(helped) == 7  # the helper took the last first
    assert 0 in [k for k, who in ran if who == me]  # the caller the first


def test_a_job_s_error_is_raised_to_the_caller():
    def bad():
        raise ValueError("damaged")
    ahead = Ahead.start({"x": bad, "y": lambda: 1, "z": lambda: 2})
    with pytest.raises(ValueError, match="damaged"):
        ahead.result("x")
    assert ahead.result("y") == 1 and ahead.result("z") == 2


def test_few_jobs_are_the_caller_s_alone():
    ran: list = []
    ahead = Ahead.start(_jobs(ahead_module.MIN_JOBS - 1, ran))
    assert [ahead.result(k) for k in range(ahead_module.MIN_JOBS - 1)] == [k * k for k in range(ahead_module.MIN_JOBS - 1)]
    assert {who for _, who in ran} <= {threading.get_ident()}
    assert "missing" not in ahead


@two_cores
def test_the_helper_stops_when_the_caller_is_gone():
    ran: list = []
    ahead = Ahead.start(_jobs(20, ran))
    assert ahead.result(0) == 0
    del ahead  # a check that returned (or raised) early
    time.sleep(0.5)
    assert len(ran) < 20


SOURCES = [
    "Глобальное потепление вызывает таяние ледников в Арктике и Антарктиде, что приводит к повышению "
    "уровня Мирового океана. Учёные прогнозируют затопление прибрежных территорий во многих странах мира "
    "уже к концу нынешнего столетия.",
    "Шахматы развивают логическое мышление, память и усидчивость. Регулярные занятия помогают детям "
    "лучше учиться в школе и принимать взвешенные решения в трудных ситуациях.",
    "Особенно уязвимы островные государства Тихого океана, где большая часть суши находится всего в "
    "нескольких метрах над уровнем моря. Жители многих атоллов уже думают о переселении на материк.",
    "Регулярные прогулки на свежем воздухе укрепляют здоровье детей и взрослых, улучшают сон и "
    "настроение. Врачи советуют гулять не меньше часа в день в любую погоду.",
]


def _shape(r):
    return r.borrowed_percent, [(s.source_id, s.resemblance, s.sentence_score, s.passages) for s in r.sources]


def test_a_check_sharing_its_alignments_gives_the_same_result(tmp_path, monkeypatch):
    with api.Collection(tmp_path / "a.sverka") as c:
        for k, text in enumerate(SOURCES):
            c.add_document(Document(text, title=f"s{k}"))
        suspect = Document("Моё мнение таково. " + SOURCES[0] + " " + SOURCES[2] + " Шахматы развивают "
                           "логическое мышление и память. Врачи советуют гулять не меньше часа в день.",
                           title="essay")
        first = c.check(suspect)  # the sources prepared and kept
        assert len(c.source_cache) >= ahead_module.MIN_JOBS
        shared = c.check(suspect)
        monkeypatch.setattr(ahead_module, "MIN_JOBS", 10**9)
        alone = c.check(suspect)
    assert {s.title for s in first.sources} >= {"s0", "s2"}
    assert _shape(shared) == _shape(alone) == _shape(first)
