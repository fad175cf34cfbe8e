"""Kept results: a check result survives the round trip whole; the last result of a document
is found by its text's SHA-256 and path; damaged or newer files are handled."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone

import pytest

from sverka.core import api
from sverka.core.document import Document
from sverka.core.errors import SverkaError
from sverka.core.store.history import History, history_path, result_from_data, result_to_data

SOURCE = ("Глобальное потепление вызвано прежде всего деятельностью человека: сжиганием угля, нефти "
          "и газа, вырубкой лесов и интенсивным сельским хозяйством. Концентрация углекислого газа в "
          "атмосфере выросла почти на пятьдесят процентов с начала промышленной революции. ")


@pytest.fixture
def result(tmp_path):
    with api.Collection(tmp_path / "c.sverka") as c:
        c.add_document(Document(SOURCE, path="/src/climate.txt", title="climate"))
        doc = Document("Моё вступление. «" + SOURCE[:120] + "» " + SOURCE[120:], path="/essays/a.txt", title="a")
        return c.check(doc, c.settings.replace(min_passage_words=6))


def test_a_result_survives_the_round_trip_whole(result):
    assert result.sources and result.sources[0].passages
    back = result_from_data(result_to_data(result))
    assert back == result
    assert back.settings.min_passage_words == 6
    assert back.sources[0].text == result.sources[0].text  # the side-by-side view needs no file


def test_a_result_kept_with_settings_that_are_gone_still_opens(result):
    """Results kept before the winnowing window, the min-hash functions and the shared
    fingerprints stopped being settings carry them in their settings: they are dropped."""
    data = result_to_data(result)
    data["settings"] |= {"winnow_window": 6, "minhash_functions": 50, "min_shared_fingerprints": 3}
    assert result_from_data(data) == result


def test_last_result_by_sha_and_path(tmp_path, result):
    path = history_path(tmp_path / "c.sverka")
    assert path.name == "c.sverka.history"
    with History(path) as h:
        assert h.last(result.suspect.sha256, "/essays/a.txt") is None
        t0 = datetime(2026, 11, 1, 9, 30, tzinfo=timezone.utc)
        h.save(result, when=t0)
        kept = h.last(result.suspect.sha256, "/essays/a.txt")
        assert kept.result == result and kept.checked == "2026-11-01T09:30:00+00:00"
        assert kept.settings.min_passage_words == 6 and kept.path == "/essays/a.txt"
        # the same text moved elsewhere: still found by its SHA-256
        assert h.last(result.suspect.sha256, "/moved/a.txt").result == result
        # a changed text is another document
        assert h.last("0" * 64, "/essays/a.txt") is None
        # checking again replaces the kept result
        h.save(result, when=t0 + timedelta(days=1))
        assert h.count() == 1
        assert h.last(result.suspect.sha256, "/essays/a.txt").checked.startswith("2026-11-02")


def test_texts_are_kept_once_however_many_results_cite_them(tmp_path, result):
    import dataclasses

    with History(tmp_path / "h.history") as h:
        h.save(result)
        other = dataclasses.replace(result, suspect=dataclasses.replace(result.suspect, sha256="f" * 64,
                                                                        path="/essays/b.txt"))
        h.save(other)
        assert h.count() == 2
        # two checked texts (keyed by their SHA-256) and one source text, stored once for both
        assert h.db.execute("SELECT count(*) FROM texts").fetchone()[0] == 3
        assert len(result.sources) == 1
        assert h.last("f" * 64, "/essays/b.txt").result == other
        assert h.last(result.suspect.sha256, "/essays/a.txt").result == result


def test_damaged_row_is_as_if_never_checked_and_newer_file_is_refused(tmp_path, result):
    path = tmp_path / "h.history"
    with History(path) as h:
        h.save(result)
        h.db.execute("UPDATE results SET result = ?", (b"not zlib",))
        h.db.commit()
        assert h.last(result.suspect.sha256, result.suspect.path) is None
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(SverkaError, match="newer Sverka"):
        History(path)


def test_unknown_types_are_refused():
    with pytest.raises(ValueError):
        result_from_data({"__type": "os:system"})
    with pytest.raises(ValueError):
        result_from_data({"__type": "Settings"})  # not a check result
