"""A collection written by an earlier Sverka (format 1) is refused with "rebuild", and
``sverka rebuild`` rebuilds it from the texts it keeps, the files not needed."""

from __future__ import annotations

import json
import sqlite3
import zlib

import pytest

from sverka.core import api, cli
from sverka.core.document import Document
from sverka.core.errors import CollectionVersionError

TEXTS = {
    "/old/essay.txt": "Лес встретил нас тишиной и прохладой. Высокие сосны поднимались к самому небу, "
                      "и солнечные лучи с трудом пробивались сквозь густые кроны деревьев.",
    "/old/task.txt": "Напишите сочинение о походе в лес и о том, что вы там увидели и услышали.",
}


def format_one(path) -> None:
    """A collection file as Sverka 0.1 wrote it (the tables the rebuild reads)."""
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE documents(id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT UNIQUE, title TEXT NOT NULL,"
        " format TEXT NOT NULL, sha256 TEXT NOT NULL UNIQUE, chars INTEGER, words INTEGER, size_bytes INTEGER,"
        " mtime REAL, added TEXT NOT NULL, language TEXT, is_template INTEGER NOT NULL DEFAULT 0,"
        " warnings TEXT NOT NULL DEFAULT '[]', fulltext_hash INTEGER, short_length INTEGER, minhash BLOB);"
        "CREATE TABLE document_data(doc_id INTEGER PRIMARY KEY, text BLOB NOT NULL, tokens BLOB NOT NULL);"
        "CREATE TABLE shingles(hash INTEGER, doc_id INTEGER, pos INTEGER, PRIMARY KEY(hash, doc_id, pos)) WITHOUT ROWID;")
    db.executemany("INSERT INTO meta VALUES(?, ?)", [("shingle_words", "4"), ("winnow_window", "4"),
                                                       ("minhash_functions", "84"), ("drop_adjectives", "false"),
                                                       ("canon_version", "1")])
    for k, (p, text) in enumerate(TEXTS.items()):
        doc = Document(text, path=p)
        db.execute("INSERT INTO documents(path, title, format, sha256, size_bytes, mtime, added, is_template, warnings)"
                   " VALUES(?,?,?,?,?,?,?,?,?)", (p, p.rsplit("/", 1)[1], "txt", doc.sha256, 123 + k, 1700000000.0 + k,
                                                 f"2025-09-0{k + 1}T10:00:00+03:00", int("task" in p), json.dumps([])))
        db.execute("INSERT INTO document_data VALUES(?,?,?)", (k + 1, zlib.compress(text.encode()), b"old"))
    db.execute(f"PRAGMA user_version={1 << 16}")
    db.commit()
    db.close()


def test_old_collection_is_refused_then_rebuilt_from_its_texts(tmp_path, capsys):
    path = tmp_path / "c.sverka"
    format_one(path)
    with pytest.raises(CollectionVersionError, match="sverka rebuild"):
        api.Collection(path)
    assert cli.main(["rebuild", "--db", str(path)]) == 0
    assert "rebuilt, 2 documents" in capsys.readouterr().out
    assert (tmp_path / "c.sverka.format1.bak").exists()
    with api.Collection(path) as col:
        docs = {d.path: d for d in col.documents()}
        assert set(docs) == set(TEXTS)  # the files themselves do not exist: the stored texts served
        assert docs["/old/task.txt"].is_template and not docs["/old/essay.txt"].is_template
        assert docs["/old/essay.txt"].added.startswith("2025-09-01") and docs["/old/essay.txt"].size_bytes == 123
        r = col.check(Document("Моё вступление к работе. " + TEXTS["/old/essay.txt"]))
        assert [s.path for s in r.sources if not s.is_template] == ["/old/essay.txt"] and r.borrowed_percent > 80
    assert cli.main(["rebuild", "--db", str(path)]) == 1  # up to date: nothing to rebuild
