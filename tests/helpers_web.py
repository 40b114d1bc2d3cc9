"""Helpers of the web tests: a live server (``forties serve`` as its own process on
127.0.0.1, any free port, a fresh SQLite file), tables made through the API, and the
replay of what every seat may know at each version of a game."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio

from forties import Action, Record, new_game
from forties.table import Table, computer_choice
from forties.web.limits import Rates
from tests.client import SeatClient

from .helpers_engine import FORTIES, Knowledge, leaks

# The pace of the tables in tests: computers at once, no par (the solver takes a while
# to load in a fresh process), a review that waits for the people; and no limit on new
# tables (nor anything else a minute) from one address that a module's tests, sharing a
# pair of server processes, could reach on a fast machine (the limits' own tests set them).
TEST_LIMITS: dict[str, Any] = {"bot_delay": 0.0, "review_seconds": 30.0, "par": False,
                               "messages_per_second": 1000.0, "message_burst": 1000.0,
                               "grace_seconds": 30.0, **Rates.lifted()}


def launch_serve(folder: Path, limits: dict[str, Any], args: list[str],
                 new_session: bool = False) -> subprocess.Popen[str]:
    """``forties serve --no-browser ARGS`` as its own process, its data in ``folder``, with
    ``limits``, and no display to open a browser on (``serving_port`` waits for it)."""
    env = {**os.environ, "FORTIES_DATA": str(folder / "data"),
           "FORTIES_LIMITS": json.dumps(limits)}
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return subprocess.Popen([str(FORTIES), "serve", "--no-browser", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=new_session)


def serving_port(proc: subprocess.Popen[str]) -> int:
    """The port ``proc`` (``launch_serve``) says it serves on; RuntimeError with what it
    said when it does not."""
    assert proc.stdout is not None
    line = proc.stdout.readline()
    m = re.search(r"serving on http://127\.0\.0\.1:(\d+)/", line)
    if not m:
        proc.kill()
        raise RuntimeError(f"forties serve said {line!r}: "
                           f"{proc.stderr.read()[-2000:] if proc.stderr else ''}")
    return int(m.group(1))


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie does not: it is only waiting to be reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


class ServerProcess:
    """``forties serve`` as its own process, on a database that outlives it."""

    def __init__(self, folder: Path, db: Path | None = None, **limits: Any) -> None:
        self.folder = folder
        self.db = db or folder / "forties.db"
        self.limits = {**TEST_LIMITS, **limits}
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0
        self.http = self.ws = ""

    def start(self, port: int = 0) -> ServerProcess:
        self.proc = launch_serve(self.folder, self.limits,
                                 ["--port", str(port), "--db", f"sqlite:///{self.db}"])
        self.port = serving_port(self.proc)
        self.http = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        return self

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)

    def stop(self) -> tuple[int, str, str]:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        out, err = self.proc.communicate(timeout=30)
        return self.proc.returncode, out, err


# The test server is its own process, as `forties serve` runs for players: a server and
# its clients in one process share one interpreter's threads, which is not what is tested.
LiveServer = ServerProcess

# The web tests' modules run twice: against one server on its SQLite file, and against two
# server processes over one PostgreSQL and one Redis (tests/helpers_scale.py: ``Pair``),
# the seats of each table spread over both.
BACKENDS = ["sqlite", "postgresql-2"]


def web_server(request: pytest.FixtureRequest, folder: Path, **limits: Any) -> Any:
    """The (not yet started) server of a module fixture parametrized over BACKENDS."""
    if request.param == "sqlite":
        return ServerProcess(folder, **limits)
    return request.getfixturevalue("pairs")(limits)  # one a session for each set of limits


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path).start()
    try:
        yield server
    finally:
        code, _, err = server.stop()
        assert code == 0 and "Traceback" not in err, err[-3000:]


@pytest_asyncio.fixture
async def api(live_server: ServerProcess) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=live_server.http, timeout=30) as client:
        yield client


# ----- tables through the API ---------------------------------------------------------------


async def private_table(api: httpx.AsyncClient, preset: str, **extra: Any
                        ) -> tuple[str, dict[int, str]]:
    """A table made by a host whose guests all join by their invites, started:
    (table id, {seat: token})."""
    r = await api.post("/api/tables", json={"preset": preset, "name": "Ann", **extra})
    assert r.status_code == 200, r.text
    made = r.json()
    table = made["table"]
    tokens = {0: made["token"]}
    for i, inv in enumerate(made["invites"]):
        code = inv["url"].split("#invite=")[1]
        j = await api.post(f"/api/tables/{table}/join", json={"invite": code,
                                                              "name": f"Guest {i}"})
        assert j.status_code == 200, j.text
        tokens[j.json()["seat"]] = j.json()["token"]
    s = await api.post(f"/api/tables/{table}/start", json={"token": tokens[0]})
    assert s.status_code == 200, s.text
    return table, tokens


def basic_player(view: dict[str, Any]) -> str:
    """What the basic computer player would do, seeing ``view`` (games of sensible
    length: random bidding can throw hands in for a long time)."""
    legal = [Action.parse(a) for a in view["legal"]]
    return str(computer_choice("basic", str(view["version"]), view, legal))


async def stop_all(clients: list[SeatClient]) -> None:
    await asyncio.gather(*(c.stop() for c in clients))


def lately(c: SeatClient, frames: int = 6) -> list[Any]:
    """What ``c`` heard last, in short: each frame's type, and an event's kind and seat."""
    return [(f["type"], f["event"].get("kind"), f["event"].get("seat"))
            if f["type"] == "event" else f["type"] for f in c.frames[-frames:]]


async def expect(c: SeatClient, test: Callable[[SeatClient], bool], what: str,
                 timeout: float = 30.0, seen: Callable[[SeatClient], Any] = lately) -> None:
    """Wait until ``test(c)`` holds; after ``timeout`` seconds, fail with ``what`` was
    expected and what ``c`` had seen (``seen(c)``), rather than with a bare timeout."""
    try:
        await c.wait_for(test, timeout)
    except TimeoutError:
        raise AssertionError(f"expected {what} within {timeout} s; {c.url} saw "
                             f"{seen(c)}") from None


async def pinged(c: SeatClient) -> None:
    """Return once the server has answered a ping on ``c``'s connection: every message
    ``c`` sent before is answered, and every frame the server had for it is here (one
    connection's messages are handled, and its frames sent, in order)."""
    pongs = sum(f["type"] == "pong" for f in c.frames)
    assert await c.send({"type": "ping"}), f"{c.url}: not connected"
    await expect(c, lambda c: sum(f["type"] == "pong" for f in c.frames) > pongs,
                 "the answer to a ping")


# ----- what each seat may know at each version ----------------------------------------------


def knowledge_by_version(record_json: dict[str, Any]) -> dict[int, tuple[Any, dict[Any, int]]]:
    """For every version of a table's game (1: the first deal; +1 an action or a deal),
    the state then and the cards each seat (None: a spectator) may know."""
    record = Record.from_json(record_json)
    st = new_game(record.rules, first_dealer=record.first_dealer, deal=record.hands[0].deal)
    out: dict[int, tuple[Any, dict[Any, int]]] = {}
    version = 1
    know = Knowledge(st)

    def note() -> None:
        know.update(st)
        out[version] = (st.clone(), {s: know.allowed(st, s) for s in [None, *range(st.n)]})

    note()
    for h, hand in enumerate(record.hands):
        if h:
            st.next_hand(hand.deal)
            version += 1
            know = Knowledge(st)
            note()
        for text in hand.actions:
            st.apply(text)
            version += 1
            note()
    return out


def check_frames(frames: list[dict[str, Any]], seat: int | None,
                 known: dict[int, tuple[Any, dict[Any, int]]]) -> int:
    """Every frame a seat received holds the engine's view of that seat at the frame's
    version, and names no card the seat may not know then. Returns frames checked."""
    checked = 0
    for f in frames:
        if "view" not in f:
            continue
        v = dict(f["view"])
        version = v.pop("version")
        assert version == f["version"]
        state, allowed = known[version]
        assert v == Table.seat_view(state, seat), \
            f"seat {seat}: frame at version {version} is not its view"
        body = {k: x for k, x in f.items() if k != "table"}
        bad = leaks(body, allowed[seat])
        assert not bad, f"seat {seat} received {bad} at version {version}"
        if seat is None:
            assert v["hand"] == []
        checked += 1
    return checked


@contextlib.contextmanager
def serving(srv: Any) -> Iterator[Any]:
    """A test server started, given to the test, then stopped: it must exit cleanly and
    print no traceback."""
    srv.start()
    try:
        yield srv
    finally:
        code, _, err = srv.stop()
        assert code == 0 and "Traceback" not in err, err[-3000:]
