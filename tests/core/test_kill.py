"""A SIGKILL in the middle of adding a folder (issue 4): the collection opens, passes
``PRAGMA integrity_check`` and holds every document of the batches committed before the kill."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from sverka.core.store.sqlite import SQLiteStore

from test_collection import essay, write

CHILD = textwrap.dedent("""
    import json, sys
    from sverka.core import indexing
    from sverka.core.store.sqlite import SQLiteStore

    if __name__ == "__main__":
        db, folder, batch, workers = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        indexing.BATCH_FILES = batch
        idx = SQLiteStore(db)

        def on_commit(statuses):
            print("COMMIT " + json.dumps([name for _, name, _ in statuses]), flush=True)

        summary = indexing.add_paths(idx, [folder], workers=workers, on_commit=on_commit)
        print("DONE " + json.dumps({"added": len(summary.added), "failed": summary.failed}), flush=True)
""")


def run_child(tmp_path, db, folder, *, batch: int, workers: int) -> subprocess.Popen:
    script = tmp_path / "child.py"
    script.write_text(CHILD, encoding="utf-8")
    return subprocess.Popen([sys.executable, str(script), str(db), str(folder), str(batch), str(workers)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # its own process group: the pool dies with it


@pytest.mark.slow
def test_sigkill_mid_add_keeps_committed_batches(tmp_path):
    folder = tmp_path / "docs"
    for i in range(150):
        write(folder / f"d{i:03}.txt", essay(i, 30))
    db = tmp_path / "c.sverka"
    proc = run_child(tmp_path, db, folder, batch=4, workers=2)
    committed: list[str] = []
    commits = 0
    try:
        for line in proc.stdout:
            if line.startswith("COMMIT "):
                committed += json.loads(line[7:])
                commits += 1
                if commits == 3:
                    os.killpg(proc.pid, signal.SIGKILL)  # the child and its workers, mid-add
                    break
            assert not line.startswith("DONE"), "the child finished before it could be killed"
    finally:
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read()
    assert len(committed) == 12
    with SQLiteStore(db) as index:
        assert index.integrity_check() == "ok"
        stored = {d.path for d in index.documents()}
        assert set(committed) <= stored
        assert len(stored) < 150
        # ... and the collection goes on: the rest is added, the committed ones are unchanged
        from sverka.core.indexing import add_paths

        s = add_paths(index, [folder], workers=1)
        assert set(committed) <= set(s.unchanged) and index.count() == 150
