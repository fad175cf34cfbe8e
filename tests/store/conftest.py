"""A real PostgreSQL server for the store tests, and the ``store_location`` fixture that gives
every test a fresh collection on each backend (an SQLite file, a new PostgreSQL database).

The server is Debian's ``postgresql`` package (installed by ``installer/bootstrap.sh --test``):
``initdb`` + ``pg_ctl`` on a temporary data folder, a Unix socket in that folder and a free
TCP port on 127.0.0.1 with password logins, run as an unprivileged user (``nobody`` when the
tests run as root, since PostgreSQL refuses root). Without the binaries the PostgreSQL tests
are skipped with the reason; CI installs them, so there they run.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

SUPERUSER = "sverka"
PASSWORD = "sverka-test-password"


def _binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """A running server: ``url(db)`` for a database on it, ``create_database()`` for a new one."""

    def __init__(self, bindir: Path, root: Path) -> None:
        self.bindir, self.root = bindir, root
        self.data = root / "data"
        self.port = _free_port()
        self._as_user: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            self._as_user = ["runuser", "-u", "nobody", "--"]
            os.chmod(root, 0o755)
            shutil.chown(root, "nobody")
        self._names = itertools.count(1)

    def _run(self, *args: str) -> None:
        r = subprocess.run([*self._as_user, *args], capture_output=True, text=True, timeout=120, cwd=self.root)
        if r.returncode:
            raise RuntimeError(f"{args[0]} failed ({r.returncode}): {r.stdout}\n{r.stderr}")

    def start(self) -> None:
        pwfile = self.root / "pw"
        pwfile.write_text(PASSWORD)
        if self._as_user:
            shutil.chown(pwfile, "nobody")
        self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "--pwfile", str(pwfile),
                  "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C.UTF-8",
                  "--no-sync")
        opts = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off -c max_connections=40")
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-o", opts, "-l", str(self.root / "log"),
                  "-w", "-t", "60", "start")

    def stop(self) -> None:
        try:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except (RuntimeError, subprocess.TimeoutExpired):
            pass

    def url(self, db: str, *, user: str = SUPERUSER, password: str = PASSWORD) -> str:
        return f"postgresql://{user}:{password}@127.0.0.1:{self.port}/{db}"

    def create_database(self) -> str:
        import psycopg

        name = f"coll{next(self._names)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)


@pytest.fixture(scope="session")
def postgres_server():
    bindir = _binaries()
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
