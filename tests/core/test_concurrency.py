"""Two processes adding to one collection at once lose nothing and corrupt nothing (issue 7)."""

from __future__ import annotations

import json

import pytest

from sverka.core.store.sqlite import SQLiteStore

from test_collection import essay, write
from test_kill import run_child


@pytest.mark.slow
def test_two_writers_at_once(tmp_path):
    shared = [write(tmp_path / "shared" / f"s{i}.txt", essay(1000 + i)) for i in range(8)]
    for name in "ab":
        for i in range(25):
            write(tmp_path / name / f"{name}{i:02}.txt", essay(hash_free_seed(name, i)))
        for s in shared:  # both add the same files too: each must be stored once
            (tmp_path / name / "shared").mkdir(exist_ok=True)
            # copies, not links: links leading outside an added folder are not followed
            (tmp_path / name / "shared" / s.name).write_bytes(s.read_bytes())
    db = tmp_path / "c.sverka"
    procs = [run_child(tmp_path, db, tmp_path / name, batch=3, workers=1) for name in "ab"]
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
        done = json.loads(out.strip().splitlines()[-1][5:])
        assert done["failed"] == []
    with SQLiteStore(db) as index:
        assert index.integrity_check() == "ok"
        paths = {d.path for d in index.documents()}
        for name in "ab":
            for i in range(25):
                assert str(tmp_path / name / f"{name}{i:02}.txt") in paths
        shas = [d.sha256 for d in index.documents()]
        assert len(shas) == len(set(shas)) == 58  # 50 own + 8 shared content, once each


def hash_free_seed(name: str, i: int) -> int:
    return (ord(name) - ord("a") + 1) * 100 + i
