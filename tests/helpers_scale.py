"""The tests' PostgreSQL, Redis and server processes over them.

One PostgreSQL cluster (fsync off) and one Redis serve a whole test session (of each
test worker), started the first time a test asks; each test or module gets a database
of its own. ``Pair`` is two ``forties serve`` processes over one database and one Redis,
standing in for one server in the web tests: each ``ws`` it gives is the other process's,
so the seats of a table are spread over both.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from .helpers_web import TEST_LIMITS, launch_serve, serving_port
from .services import Postgres, Redis, postgres, redis


@pytest.fixture(scope="session")
def pg() -> Iterator[Postgres]:
    with postgres() as server:
        yield server


@pytest.fixture(scope="session")
def rd() -> Iterator[Redis]:
    with redis() as server:
        yield server


def new_database(pg: Postgres) -> str:
    """A fresh database on the session's cluster: its URL."""
    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return pg.url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture
def db(pg: Postgres) -> str:
    """A fresh database of its own for one test (the servers bring back every table
    playing in theirs when they start)."""
    return new_database(pg)


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
        return self.launch().ready()

    def launch(self) -> Serve:
        """Start the process (``ready`` waits for it to serve)."""
        self.proc = launch_serve(self.folder, self.limits,
                                 ["--port", "0", "--db", self.db, "--redis", self.redis_url,
                                  "--workers", str(self.workers)], new_session=True)
        return self

    def ready(self) -> Serve:
        assert self.proc is not None
        self.port = serving_port(self.proc)
        self.http = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        return self

    def kill(self) -> None:
        """SIGKILL: the process dies at once, in the middle of whatever it was doing."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)

    def stop(self, signalled: bool = False) -> tuple[int, str]:
        """Ctrl-C (once: a second one would cut its shutdown short), and its exit status
        and what it printed on stderr."""
        assert self.proc is not None
        if self.proc.poll() is None and not signalled:
            self.proc.send_signal(signal.SIGINT)
        try:
            _, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            _, err = self.proc.communicate(timeout=30)
        return self.proc.returncode, err



class Shared:
    """A ``Pair`` kept for the whole session by ``pairs`` and lent to a module: starting
    and stopping it are the session's business (it is checked when the session ends)."""

    def __init__(self, pair: Pair) -> None:
        self.pair = pair

    def start(self) -> Shared:
        return self

    def stop(self) -> tuple[int, str, str]:
        return 0, "", ""

    @property
    def http(self) -> str:
        return self.pair.http

    @property
    def ws(self) -> str:
        return self.pair.ws

    @property
    def db(self) -> str:
        return self.pair.db


@pytest.fixture(scope="session")
def pairs(tmp_path_factory: pytest.TempPathFactory, pg: Postgres,
          rd: Redis) -> Iterator[Callable[[dict[str, Any]], Shared]]:
    """The web modules' pairs of server processes, one for each set of limits, started
    when first asked for and stopped (cleanly, no traceback) at the end of the session."""
    made: dict[str, Pair] = {}

    def pair(limits: dict[str, Any]) -> Shared:
        key = json.dumps(limits, sort_keys=True)
        if key not in made:
            made[key] = Pair(tmp_path_factory.mktemp("pair"), new_database(pg), rd.url,
                             **limits).start()
        return Shared(made[key])

    try:
        yield pair
    finally:
        for p in made.values():
            code, _, err = p.stop()
            assert code == 0 and "Traceback" not in err, err[-3000:]


class Pair:
    """Two server processes over one PostgreSQL database and one Redis, used where the
    web tests use one server: HTTP goes to the first, and each websocket address asked
    for is the other process's than the last (the seats of a table land on both)."""

    def __init__(self, folder: Path, db: str, redis_url: str, **limits: Any) -> None:
        self.a = Serve(folder / "a", db, redis_url, **limits)
        self.b = Serve(folder / "b", db, redis_url, **limits)
        self.db = db
        self.turn = 0

    def start(self) -> Pair:
        self.a.launch()
        self.b.launch()  # both start at once (the database lets one migrate it)
        self.a.ready()
        self.b.ready()
        return self

    @property
    def http(self) -> str:
        return self.a.http

    @property
    def ws(self) -> str:
        self.turn += 1
        return (self.a, self.b)[self.turn % 2].ws

    def stop(self) -> tuple[int, str, str]:
        codes, errs = [], []
        for s in (self.a, self.b):
            if s.proc is not None and s.proc.poll() is None:
                s.proc.send_signal(signal.SIGINT)  # both stop at once
        for s in (self.a, self.b):
            if s.proc is not None:
                code, err = s.stop(signalled=True)
                codes.append(code)
                errs.append(err)
        return max(codes, key=abs, default=0), "", "\n".join(errs)
