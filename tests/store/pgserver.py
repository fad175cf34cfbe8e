"""A throw-away PostgreSQL server for the store tests and bench/bench_store.py.

Debian's ``postgresql`` package (installed by ``installer/bootstrap.sh --test``): ``initdb`` +
``pg_ctl`` on a temporary data folder, a Unix socket in that folder and a free TCP port on
127.0.0.1 with password logins, run as an unprivileged user (``nobody`` when run as root,
since PostgreSQL refuses root). No durability settings: it is thrown away.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
from pathlib import Path

SUPERUSER = "sverka"
PASSWORD = "sverka-test-password"


def binaries() -> Path | None:
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

    def start(self, *, durable: bool = False, settings: dict[str, object] | None = None) -> None:
        """initdb (unless the data folder holds a server already: a benchmark going on) and
        start; ``durable`` keeps PostgreSQL's own fsync settings (benchmarks), else the server
        skips fsync (tests); ``settings`` are more ``-c name=value`` server settings."""
        if not (self.data / "PG_VERSION").exists():
            pwfile = self.root / "pw"
            pwfile.write_text(PASSWORD)
            if self._as_user:
                shutil.chown(pwfile, "nobody")
            self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "--pwfile", str(pwfile),
                      "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C.UTF-8",
                      *([] if durable else ["--no-sync"]))
        opts = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} -c max_connections=40"
        if not durable:
            opts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        for name, value in (settings or {}).items():
            opts += f" -c {name}={value}"
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-o", opts, "-l", str(self.root / "log"),
                  "-w", "-t", "60", "start")

    def stop(self, mode: str = "immediate") -> None:
        """Stop the server (``immediate``: thrown away; ``fast``: cleanly, to start it again)."""
        try:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")
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
