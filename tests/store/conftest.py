"""A real PostgreSQL server for the store tests, and the ``store_location`` fixture that gives
every test a fresh collection on each backend (an SQLite file, a new PostgreSQL database).

The server is Debian's ``postgresql`` package (installed by ``installer/bootstrap.sh --test``):
``initdb`` + ``pg_ctl`` on a temporary data folder, a Unix socket in that folder and a free
TCP port on 127.0.0.1 with password logins, run as an unprivileged user (``nobody`` when the
tests run as root, since PostgreSQL refuses root). Without the binaries the PostgreSQL tests
are skipped with the reason; CI installs them, so there they run.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from pgserver import PostgresServer, binaries

@pytest.fixture(scope="session")
def postgres_server():
    bindir = binaries()
    if bindir is None or not (bindir / "initdb").exists():
        pytest.skip("PostgreSQL server binaries not found (Debian package 'postgresql'; "
                    "installer/bootstrap.sh --test installs it)")
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        pytest.skip("running as root without runuser: cannot start PostgreSQL as another user")
    root = Path(tempfile.mkdtemp(prefix="sverka-pg-"))
    server = PostgresServer(bindir, root)
    try:
        server.start()
    except Exception:
        log = root / "log"
        detail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        shutil.rmtree(root, ignore_errors=True)
        raise RuntimeError(f"the test PostgreSQL server did not start:\n{detail}") from None
    yield server
    server.stop()
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request) -> str:
    return request.param


@pytest.fixture
def store_location(backend, request, tmp_path) -> str:
    """Where a new, empty collection of the backend lives: an SQLite path or a PostgreSQL URL."""
    if backend == "sqlite":
        return str(tmp_path / "collection.sverka")
    return request.getfixturevalue("postgres_server").create_database()
