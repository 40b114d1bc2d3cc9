"""Each table on one process: two ``forties serve`` over one PostgreSQL and one Redis, a
table's four seats connected to both (two to each process's own port), and one process
runs the table (``forties.web.owners``, ``forties.web.relay``).

- every move of the table is committed by one process, the one whose lease names it, and
  every seat's connection is held there: the other process handed its two over whole
  (it holds no connection open; the owner holds all four);
- a connection handed to the owner's private door with a key that is not its own is
  closed unread;
- connections handed over are counted under their clients' own addresses: three
  watchers from three addresses pass a limit of two per address;
- the owner killed (SIGKILL) in the middle of the game: the other process takes the
  table over, every seat plays on through it, and nothing acknowledged is lost or
  doubled.

- the owner holding every connection of the table announces none of its moves on Redis
  (the other process has nothing to hear); a process holding a connection to a table it
  does not run says so, and from then on hears every move of it.

What a process does is seen from outside: the actions each process committed (its
``/metrics``), what is announced on Redis's channel with the process's origin, and each
seat's connection written in the table's presence set with the origin of the process
that holds it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import pytest_asyncio
import redis.asyncio as aioredis
import websockets

from tests.client import SeatClient

from .helpers_scale import Serve
from .helpers_web import basic_player, private_table, stop_all
from .services import Redis
from .test_scale_web import events_in_db, unbroken

pytestmark = pytest.mark.asyncio
CHANNEL = "forties:tables"


@pytest_asyncio.fixture
async def two(tmp_path: Path, db: str, rd: Redis) -> AsyncIterator[tuple[Serve, Serve]]:
    a = Serve(tmp_path / "a", db, rd.url).launch()
    b = Serve(tmp_path / "b", db, rd.url).launch()
    a.ready()
    b.ready()
    try:
        yield a, b
    finally:
        for s in (a, b):
            if s.proc is not None and s.proc.poll() is None:
                code, err = s.stop()
                assert code == 0 and "Traceback" not in err, err[-3000:]


class Commits:
    """Who announces each commit of one table on Redis's channel: {origin: count}."""

    def __init__(self, url: str, table: str) -> None:
        self.redis = aioredis.Redis.from_url(url)
        self.table = table
        self.by: Counter[str] = Counter()
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> Commits:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(CHANNEL)

        async def listen() -> None:
            async for m in pubsub.listen():
                body = json.loads(m["data"])
                if body.get("t") == self.table and "s" in body:
                    self.by[body["o"]] += 1

        self.task = asyncio.ensure_future(listen())
        return self

    async def owner(self) -> tuple[str, int]:
        """The origin and the process id of the process whose lease names the table."""
        raw = await self.redis.get(f"forties:owner:{self.table}")
        assert raw is not None, "the table has no owner's lease in Redis"
        lease = json.loads(raw)
        return str(lease["o"]), int(lease["p"])

    async def holders(self) -> set[str]:
        """The processes holding the seats' connections now (the table's presence set,
        each member lapsing at its score, on Redis's clock)."""
        sec, usec = await self.redis.time()
        members = await self.redis.zrangebyscore(f"forties:here:{self.table}",
                                                 sec + usec / 1e6, "+inf")
        return {m.decode().partition(":")[2] for m in members}

    async def held_by(self, origins: set[str], timeout: float) -> None:
        """Wait until ``holders()`` is ``origins``; AssertionError after ``timeout`` s."""
        end = asyncio.get_running_loop().time() + timeout
        while (got := await self.holders()) != origins:
            assert asyncio.get_running_loop().time() < end, \
                f"the seats are held by {got}, not {origins}, after {timeout} s"
            await asyncio.sleep(0.1)

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        await self.redis.aclose()


async def seated(a: Serve, b: Serve) -> tuple[str, list[SeatClient]]:
    """A started table of four people whose seats 0 and 2 connect to ``a``'s port, 1 and 3
    to ``b``'s, each playing by itself."""
    async with httpx.AsyncClient(base_url=a.http, timeout=30) as api:
        table, tokens = await private_table(api, "merrimack-valley", options={"target": 500})
    servers = [a, b, a, b]
    return table, [SeatClient(servers[s].ws, table, tokens[s]).autoplay(basic_player)
                   for s in sorted(tokens)]


async def playing(seats: list[SeatClient], events: int) -> None:
    """Start the seats and wait until each has heard ``events`` events."""
    for c in seats:
        c.start()
    await asyncio.gather(*(c.wait_for(lambda c: c.seq >= events, timeout=60)
                           for c in seats))


async def test_one_process_runs_a_table_whose_seats_reach_both(
        two: tuple[Serve, Serve], rd: Redis) -> None:
    a, b = two
    table, seats = await seated(a, b)
    commits = await Commits(rd.url, table).start()
    try:
        await playing(seats, 50)
        assert all(c.connections == 1 for c in seats)
        # every move since the seats came was committed (and so applied first) by one
        # process, the one the lease names, and all four connections are held by it
        owner, owner_pid = await commits.owner()
        other = b if owner_pid == a_pid(a) else a
        owning = a if other is b else b
        assert await actions(owning) >= 40 and await actions(other) == 0
        assert await commits.holders() == {owner}
        # and the process that is not the owner holds none of the connections its port
        # took: each was handed over whole to the owner, which holds them all
        assert held_on(other, other.port) == 0
        assert held_on(owning, other.port) == 2 and held_on(owning, owning.port) == 2
        # so the owner announced none of those moves: nobody else had to hear them
        assert not commits.by, commits.by
    finally:
        await stop_all(seats)
        await commits.close()
    for c in seats:
        assert not c.errors, c.errors[:3]
        unbroken(c)


async def test_a_connection_handed_over_with_a_wrong_key_is_closed_unread(
        two: tuple[Serve, Serve], rd: Redis) -> None:
    a, _ = two
    async with httpx.AsyncClient(base_url=a.http, timeout=30) as api:
        play = (await api.post("/api/play", json={"preset": "auction-45",
                                                  "level": "basic"})).json()
    commits = Commits(rd.url, play["table"])
    try:
        raw = await commits.redis.get(f"forties:owner:{play['table']}")
        assert raw is not None
        door = json.loads(raw)["a"]
    finally:
        await commits.close()
    request = (f"GET /ws/{play['table']}?token={play['token']} HTTP/1.1\r\n"
               "host: 127.0.0.1\r\nupgrade: websocket\r\nconnection: Upgrade\r\n"
               "sec-websocket-version: 13\r\n"
               "sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n").encode()
    mine, theirs = socket.socketpair()
    with mine, theirs, socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as s:
        s.settimeout(10)
        s.connect(door)
        socket.send_fds(s, [b"guess\n" + request], [theirs.fileno()])
        theirs.close()  # the owner has the only other copy: it closes it, unanswered
        mine.settimeout(10)
        assert mine.recv(1024) == b""
    # the same packet with the owner's own key is served (the handshake answered)
    mine, theirs = socket.socketpair()
    with mine, theirs, socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as s:
        s.settimeout(10)
        s.connect(door)
        key = json.loads(raw)["k"].encode()
        socket.send_fds(s, [key + b"\n" + request], [theirs.fileno()])
        theirs.close()
        mine.settimeout(10)
        assert mine.recv(1024).startswith(b"HTTP/1.1 101")


async def test_relayed_connections_count_under_their_own_addresses(
        tmp_path: Path, db: str, rd: Redis) -> None:
    caps = {"connections_per_address": 2, "websockets_per_address": 2}
    a = Serve(tmp_path / "a", db, rd.url, **caps).launch()
    b = Serve(tmp_path / "b", db, rd.url, **caps).launch()
    try:
        a.ready()
        b.ready()
        async with httpx.AsyncClient(base_url=a.http, timeout=30) as api:
            table, _ = await private_table(api, "merrimack-valley")  # started: a runs it
        url = f"{b.ws}/ws/{table}"
        async with contextlib.AsyncExitStack() as stack:
            firsts = []
            for i in range(3):  # each from an address of its own, all handed by b to a
                ws = await stack.enter_async_context(websockets.connect(
                    url, local_addr=(f"127.0.0.{2 + i}", 0), open_timeout=10))
                await ws.send(json.dumps({"type": "hello", "seq": 0}))
                firsts.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
        assert [f["type"] for f in firsts] == ["snapshot"] * 3, firsts
    finally:
        for s in (a, b):
            if s.proc is not None and s.proc.poll() is None:
                code, err = s.stop()
                assert code == 0 and "Traceback" not in err, err[-3000:]


async def test_the_owner_killed_the_other_takes_the_table_over(
        two: tuple[Serve, Serve], rd: Redis) -> None:
    a, b = two
    table, seats = await seated(a, b)
    commits = await Commits(rd.url, table).start()
    try:
        await playing(seats, 30)
        first, pid = await commits.owner()
        dead, alive = (a, b) if a.proc is not None and a.proc.pid == pid else (b, a)
        assert dead.proc is not None and dead.proc.pid == pid
        assert await actions(dead) > 0 and await actions(alive) == 0
        dead.kill()  # in the middle of the game: no goodbye, no flush
        for c in seats:  # a page whose process died reconnects to the one left
            c.url = c.url.replace(dead.ws, alive.ws)
        at = max(c.seq for c in seats)
        await asyncio.gather(*(c.wait_for(lambda c: c.seq >= at + 30, timeout=60)
                               for c in seats))
        second, pid = await commits.owner()
        assert alive.proc is not None and alive.proc.pid == pid
        assert second != first and await actions(alive) >= 20
        # the dead process's seats lapse from the presence set (within 4 s), and every
        # seat is held by the new owner
        await commits.held_by({second}, timeout=10)
    finally:
        await stop_all(seats)
        await commits.close()
    for c in seats:
        unbroken(c)  # nothing lost, nothing twice
        assert c.connections >= 2  # every seat's connection went with the owner
        assert not [e for e in c.errors if e["code"] != "stale"], c.errors
    # every event the seats heard is stored, once each (the table may have gone on since)
    stored = events_in_db(alive.db, table)
    assert stored == list(range(1, len(stored) + 1))
    assert len(stored) >= max(c.seq for c in seats)


async def actions(s: Serve) -> int:
    """The actions that the process ``s`` has committed (its ``/metrics``)."""
    async with httpx.AsyncClient(base_url=s.http, timeout=30) as api:
        text = (await api.get("/metrics")).text
    return sum(int(float(line.rpartition(" ")[2])) for line in text.splitlines()
               if line.startswith("forties_actions_total"))


def a_pid(s: Serve) -> int:
    assert s.proc is not None
    return s.proc.pid


def held_on(s: Serve, port: int) -> int:
    """How many established TCP connections to ``port`` the process ``s`` holds open
    (its open files that are sockets, matched with /proc/net/tcp)."""
    inodes = set()
    fds = Path(f"/proc/{a_pid(s)}/fd")
    for fd in fds.iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    held = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        cols = line.split()
        local_port = int(cols[1].rsplit(":", 1)[1], 16)
        if local_port == port and cols[3] == "01" and cols[9] in inodes:
            held += 1
    return held
