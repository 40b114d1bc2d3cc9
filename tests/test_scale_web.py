"""Several server processes over one PostgreSQL and one Redis: the web tables' tests again,
with the clients spread over two ``forties serve`` processes.

A real PostgreSQL and a real Redis are started for the module on 127.0.0.1 (tests/services.py;
``make services`` installs Debian's packages), each test on a fresh database.

- a whole game with the seats on two processes: every seat sees every move of its table,
  frames numbered with none missing, each the engine's view of that seat;
- SIGKILL of one process in the middle of a game: its clients reconnect to the other and
  play on to the end; nothing lost or doubled (every client's numbers unbroken, the record
  the referee's, every event stored once);
- the same action sent to both processes at the same moment: exactly one is applied;
- ``forties serve --workers 2``: two processes on one port, both serving one game;
- a database or a Redis that cannot be reached, or several processes without them: one line.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import pytest_asyncio

from forties.web.client import SeatClient

from .helpers_engine import FORTIES
from .helpers_web import (
    TEST_LIMITS,
    basic_player,
    check_frames,
    knowledge_by_version,
    private_table,
    stop_all,
)
from .services import Postgres, Redis, postgres, redis

pytestmark = pytest.mark.asyncio


@pytest.fixture(scope="module")
def pg() -> Iterator[Postgres]:
    with postgres() as server:
        yield server


@pytest.fixture(scope="module")
def rd() -> Iterator[Redis]:
    with redis() as server:
        yield server


@pytest.fixture
def db(pg: Postgres) -> str:
    """A fresh database of its own for one test (the servers bring back every table
    playing in theirs when they start)."""
    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return pg.url.rsplit("/", 1)[0] + "/" + name


class Serve:
    """``forties serve --db URL --redis URL`` as its own process."""

    def __init__(self, folder: Path, db: str, redis_url: str, workers: int = 1,
                 **limits: Any) -> None:
        self.folder, self.db, self.redis_url, self.workers = folder, db, redis_url, workers
        self.limits = {**TEST_LIMITS, **limits}
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0
        self.http = self.ws = ""

    def start(self) -> Serve:
        env = {**os.environ, "FORTIES_DATA": str(self.folder / "data"),
               "FORTIES_LIMITS": json.dumps(self.limits)}
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        self.proc = subprocess.Popen(
            [str(FORTIES), "serve", "--port", "0", "--no-browser", "--db", self.db,
             "--redis", self.redis_url, "--workers", str(self.workers)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
            start_new_session=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        m = re.search(r"serving on http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            self.proc.kill()
            raise RuntimeError(f"forties serve said {line!r}: "
                               f"{self.proc.stderr.read()[-2000:] if self.proc.stderr else ''}")
        self.port = int(m.group(1))
        self.http = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        return self

    def kill(self) -> None:
        """SIGKILL: the process dies at once, in the middle of whatever it was doing."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)

    def stop(self) -> tuple[int, str]:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            _, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            _, err = self.proc.communicate(timeout=30)
        return self.proc.returncode, err


@pytest_asyncio.fixture
async def two(tmp_path: Path, db: str, rd: Redis) -> AsyncIterator[tuple[Serve, Serve]]:
    """Two server processes on one database and one Redis (as on two machines)."""
    a = Serve(tmp_path / "a", db, rd.url).start()
    b = Serve(tmp_path / "b", db, rd.url).start()
    try:
        yield a, b
    finally:
        for s in (a, b):
            if s.proc is not None and s.proc.poll() is None:
                code, err = s.stop()
                assert code == 0 and "Traceback" not in err, err[-3000:]


def events_in_db(db: str, table: str) -> list[int]:
    with psycopg.connect(db) as conn:
        return [r[0] for r in conn.execute(
            "SELECT seq FROM events WHERE table_id = %s ORDER BY seq", (table,)).fetchall()]


async def judged(api: httpx.AsyncClient, table: str, tmp_path: Path) -> dict[str, Any]:
    """The table's record, and the referee's verdict on it (which must be a whole game)."""
    r = await api.get(f"/api/tables/{table}/record")
    assert r.status_code == 200, r.text
    record: dict[str, Any] = r.json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    res = subprocess.run([str(FORTIES), "check", str(path)], capture_output=True, text=True,
                         timeout=120, check=False)
    verdict = json.loads(res.stdout)
    assert res.returncode == 0 and verdict["ok"] and verdict["over"], res.stdout[-500:]
    return record


def unbroken(c: SeatClient) -> None:
    """Every event number after the first snapshot, once each, in order."""
    numbers = [f["seq"] for f in c.frames if f["type"] in ("event", "chat")]
    first = c.frames[0]["seq"]
    assert numbers == list(range(first + 1, first + 1 + len(numbers))), numbers[:40]
    assert c.gaps == 0


async def test_a_game_with_its_seats_on_two_processes(two: tuple[Serve, Serve],
                                                      tmp_path: Path) -> None:
    a, b = two
    async with httpx.AsyncClient(base_url=a.http, timeout=30) as api:
        table, tokens = await private_table(api, "merrimack-valley")
        servers = [a, b, a, b]
        seats = [SeatClient(servers[s].ws, table, tokens[s]).autoplay(basic_player).start()
                 for s in sorted(tokens)]
        watchers = [SeatClient(a.ws, table).start(), SeatClient(b.ws, table).start()]
        try:
            await asyncio.gather(*(c.wait_for(lambda c: c.over, timeout=180)
                                   for c in [*seats, *watchers]))
        finally:
            await stop_all([*seats, *watchers])
        record = await judged(api, table, tmp_path)
    known = knowledge_by_version(record)
    for s, c in enumerate(seats):
        assert not c.errors, c.errors[:3]
        unbroken(c)
        assert check_frames(c.frames, s, known) > 20
    for w in watchers:
        unbroken(w)
        assert check_frames(w.frames, None, known) > 20
    assert watchers[0].seq == watchers[1].seq == seats[0].seq
    assert events_in_db(a.db, table) == list(range(1, seats[0].seq + 1))
