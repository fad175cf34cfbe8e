"""``--db postgresql://...``: every command that takes --db works on a shared collection, and a
server that cannot be reached is one clear line, not a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SVERKA = Path(sys.executable).with_name("sverka")
RIVER = ("Река текла медленно между низкими берегами, поросшими ивняком и осокой. По утрам над водой "
         "поднимался туман, и рыбаки выходили на лодках ещё до рассвета. Старый паромщик помнил времена, "
         "когда через реку не было моста и весь торговый путь шёл через его переправу.")


def run(*args: str, rc: int = 0, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home)}  # never the user's collection
    out = subprocess.run([str(SVERKA), *args], capture_output=True, text=True, encoding="utf-8", env=env, timeout=300)
    assert "Traceback" not in out.stderr, out.stderr
    assert out.returncode == rc, f"rc={out.returncode}\n{out.stdout}\n{out.stderr}"
    return out


def test_every_db_command_takes_a_server_url(postgres_server, tmp_path):
    url = postgres_server.create_database()
    (tmp_path / "river.txt").write_text(RIVER, encoding="utf-8")
    (tmp_path / "other.txt").write_text("Совсем другой текст о горах и снеге зимой.", encoding="utf-8")
    suspect = tmp_path / "essay.txt"
    suspect.write_text("Моё вступление. " + RIVER[:200] + " Мой вывод.", encoding="utf-8")

    out = run("index", "--db", url, str(tmp_path / "river.txt"), str(tmp_path / "other.txt"), home=tmp_path)
    assert "added 2" in out.stdout and "sverka-test-password" not in out.stdout + out.stderr
    listed = [json.loads(line) for line in run("list", "--db", url, "--json", home=tmp_path).stdout.splitlines()]
    assert sorted(d["title"] for d in listed) == ["other", "river"]
    report = json.loads(run("check", "--db", url, "--json", str(suspect), home=tmp_path).stdout)
    assert [s["title"] for s in report["sources"]] == ["river"] and report["borrowed_percent"] > 50
    cross = run("crosscheck", "--db", url, "--json", str(suspect), str(tmp_path / "other.txt"), home=tmp_path)
    assert "river" in cross.stdout
    run("remove", "--db", url, str(tmp_path / "river.txt"), home=tmp_path)
    assert len(run("list", "--db", url, "--json", home=tmp_path).stdout.splitlines()) == 1
    out = run("rebuild", "--db", url, rc=1, home=tmp_path)
    assert "empty database" in out.stderr


def test_a_server_that_is_down_is_one_clear_line(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = run("list", "--db", f"postgresql://teacher:pw@127.0.0.1:{port}/archive", rc=1, home=tmp_path)
    assert f"cannot reach the PostgreSQL server 127.0.0.1:{port}" in out.stderr and ":pw@" not in out.stderr
