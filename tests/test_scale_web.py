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
import signal
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import pytest_asyncio

from tests.client import SeatClient

from .helpers_engine import FORTIES
from .helpers_scale import Serve
from .helpers_web import (
    basic_player,
    check_frames,
    knowledge_by_version,
    pinged,
    private_table,
    stop_all,
)
from .services import Postgres, Redis

pytestmark = pytest.mark.asyncio


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
        table, tokens = await private_table(api, "merrimack-valley", options={"target": 60})
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


async def test_sigkill_one_process_its_clients_go_on_on_the_other(
        two: tuple[Serve, Serve], tmp_path: Path) -> None:
    """A game with seats on both processes, and a game of one person against computers
    whose every connection is on the process that dies: each goes on to its end."""
    a, b = two
    async with httpx.AsyncClient(base_url=a.http, timeout=30) as api:
        table, tokens = await private_table(api, "merrimack-valley", options={"target": 60})
        solo = (await api.post("/api/play", json={"preset": "auction-45",
                                                  "level": "basic"})).json()
    servers = [a, b, a, b]
    seats = [SeatClient(servers[s].ws, table, tokens[s]).autoplay(basic_player).start()
             for s in sorted(tokens)]
    watchers = [SeatClient(a.ws, table).start(), SeatClient(b.ws, table).start()]
    me = SeatClient(a.ws, solo["table"], solo["token"]).autoplay(basic_player).start()
    on_a = [seats[0], seats[2], watchers[0], me]
    try:
        await asyncio.gather(*(c.wait_for(lambda c: c.seq >= 40, timeout=120)
                               for c in [*seats, me]))
        a.kill()  # in the middle of the game: no goodbye, no flush
        for c in on_a:
            c.url = c.url.replace(a.ws, b.ws)  # as a browser's next try lands on another
        # each client, back on the other process, sends again by itself what it had sent
        # to the dead one if the table shows it was not applied
        await asyncio.gather(*(c.wait_for(lambda c: c.over, timeout=240)
                               for c in [*seats, *watchers, me]))
    finally:
        await stop_all([*seats, *watchers, me])
    async with httpx.AsyncClient(base_url=b.http, timeout=30) as api:
        record = await judged(api, table, tmp_path)
        await judged(api, solo["table"], tmp_path)
    known = knowledge_by_version(record)
    for s, c in enumerate(seats):
        unbroken(c)  # nothing lost, nothing twice
        assert check_frames(c.frames, s, known) > 20
        assert not [e for e in c.errors if e["code"] != "stale"], c.errors
    for c in [*watchers, me]:
        unbroken(c)
    assert all(c.connections >= 2 for c in on_a)
    assert events_in_db(b.db, table) == list(range(1, seats[1].seq + 1))
    assert events_in_db(b.db, solo["table"]) == list(range(1, me.seq + 1))


async def test_an_action_lost_with_a_dead_process_is_sent_again(
        two: tuple[Serve, Serve]) -> None:
    """The process a player is connected to freezes with the player's move unread in its
    socket, then dies (SIGKILL): the client reconnects to the other process, learns from
    the table that the move was never applied, and sends it again; it is played once.
    A move the dead process had applied is not sent again."""
    a, b = two
    async with httpx.AsyncClient(base_url=a.http, timeout=30) as api:
        play = (await api.post("/api/play", json={"preset": "merrimack-valley",
                                                  "level": "random"})).json()
    table = play["table"]
    me = SeatClient(a.ws, table, play["token"]).start()
    try:
        def my_turn(c: SeatClient) -> bool:
            return bool(c.view and c.view.get("legal"))

        await me.wait_for(my_turn, timeout=60)
        assert me.view is not None
        applied, version = me.view["legal"][0], me.view["version"]
        await me.act(applied, version)  # this one the process applies before it dies
        await me.wait_for(lambda c: my_turn(c) and c.view is not None and
                          c.view["version"] > version, timeout=60)
        assert me.view is not None
        lost, version = me.view["legal"][-1], me.view["version"]
        assert a.proc is not None
        os.killpg(a.proc.pid, signal.SIGSTOP)  # frozen: the move stays unread
        assert await me.act(lost, version)
        await asyncio.sleep(0.3)
        a.kill()
        me.url = me.url.replace(a.ws, b.ws)
        await me.wait_for(lambda c: c.view is not None and c.view["version"] > version,
                          timeout=60)
        assert me.connections == 2 and me.resent == 1 and not me.errors, me.errors
    finally:
        await stop_all([me])
    mine = [e["action"] for e in record_events(b.db, table)
            if e["kind"] == "act" and e["seat"] == 0]
    assert mine == [applied, lost]  # each once: the lost one played, nothing doubled


async def test_the_same_action_on_two_processes_at_once_is_applied_once(
        two: tuple[Serve, Serve]) -> None:
    """One seat connected to both processes sends its move to both at the same moment,
    turn after turn: each time one is applied and the other refused as stale."""
    a, b = two
    async with httpx.AsyncClient(base_url=a.http, timeout=30) as api:
        play = (await api.post("/api/play", json={"preset": "merrimack-valley",
                                                  "level": "random"})).json()
    table, token = play["table"], play["token"]
    ca = SeatClient(a.ws, table, token).start()
    cb = SeatClient(b.ws, table, token).start()
    turns = 0
    try:
        while turns < 6:
            await asyncio.gather(*(c.wait_for(
                lambda c: bool(c.view and (c.view.get("legal") or c.view.get("over"))),
                timeout=60) for c in (ca, cb)))
            await cb.wait_for(lambda c: c.seq == ca.seq and ca.seq == c.seq, timeout=30)
            assert ca.view is not None
            if ca.view.get("over"):
                break
            version, legal = ca.view["version"], ca.view["legal"]
            acts_before = [e for e in record_events(a.db, table) if e["kind"] == "act"]
            errors_before = len(ca.errors) + len(cb.errors)
            await asyncio.gather(ca.act(legal[0], version), cb.act(legal[-1], version))
            await asyncio.gather(*(c.wait_for(lambda c, v=version: c.view is not None and (
                c.view["version"] > v), timeout=60) for c in (ca, cb)))
            # (each connection's messages are answered in order: once each has its pong,
            # the refusal of the move that lost is here, however long it took)
            await asyncio.gather(*(pinged(c) for c in (ca, cb)))
            acts = [e for e in record_events(a.db, table) if e["kind"] == "act"]
            mine = [e for e in acts[len(acts_before):] if e["seat"] == 0]
            assert len(mine) == 1, mine  # exactly one of the two
            assert mine[0]["action"] in (legal[0], legal[-1])
            new_errors = [e for c in (ca, cb) for e in c.errors][errors_before:]
            if legal[0] != legal[-1]:
                assert [e["code"] for e in new_errors] == ["stale"], new_errors
            turns += 1
    finally:
        await stop_all([ca, cb])
    assert turns == 6


async def test_a_rematch_asked_on_two_processes_at_once_makes_one_table(
        two: tuple[Serve, Serve]) -> None:
    """Ann on one process and Bob on the other ask for a rematch at the same moment: the
    database keeps one new table, both are sent to it, each with the key of his own seat."""
    a, b = two
    async with httpx.AsyncClient(base_url=a.http, timeout=30) as api:
        r = await api.post("/api/tables", json={"preset": "merrimack-valley",
                                                "options": {"target": 5}, "name": "Ann"})
        made = r.json()
        table, host = made["table"], made["token"]
        code = made["invites"][0]["url"].split("#invite=")[1]
        guest = (await api.post(f"/api/tables/{table}/join",
                                json={"invite": code, "name": "Bob"})).json()["token"]
        await api.post(f"/api/tables/{table}/start", json={"token": host})
    ann = SeatClient(a.ws, table, host).autoplay(basic_player).start()
    bob = SeatClient(b.ws, table, guest).autoplay(basic_player).start()
    try:
        await asyncio.gather(*(c.wait_for(lambda c: c.over, timeout=120) for c in (ann, bob)))
        await asyncio.gather(ann.send({"type": "rematch"}), bob.send({"type": "rematch"}))
        await asyncio.gather(*(c.wait_for(lambda c: c.rematch_url is not None)
                               for c in (ann, bob)))
        await asyncio.sleep(0.5)  # any second rematch on its way
        urls = [f["url"] for c in (ann, bob) for f in c.frames if f["type"] == "rematch"]
        new = {u.split("/t/")[1].split("#")[0] for u in urls}
        assert len(new) == 1, urls  # one table, whichever process made it
        assert ann.rematch_url == f"/t/{new.pop()}#token={host}"
        assert bob.rematch_url is not None and bob.rematch_url.endswith(f"#token={guest}")
        for c, seat, server in ((ann, 0, b), (bob, 1, a)):  # each opens it on the other
            assert c.rematch_url is not None
            new_id, tok = c.rematch_url.split("/t/")[1].split("#token=")
            there = SeatClient(server.ws, new_id, tok).start()
            await there.wait_for(lambda c: c.view is not None)
            assert there.view is not None and there.view["seat"] == seat
            assert there.table is not None and there.table["status"] == "playing"
            await there.stop()
    finally:
        await stop_all([ann, bob])
    with psycopg.connect(a.db) as conn:
        rows = conn.execute("SELECT id, rematch_of FROM tables ORDER BY created").fetchall()
    assert len(rows) == 2 and rows[1][1] == table, rows


async def seats_connected(server: Serve, table: str) -> list[bool]:
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as api:
        r = await api.get(f"/api/tables/{table}")
    return [s["connected"] for s in r.json()["seats"]]


async def until(test: Any, seconds: float = 15.0) -> None:
    """Wait until the coroutine function ``test`` answers true (polls)."""
    end = asyncio.get_running_loop().time() + seconds
    while not await test():
        assert asyncio.get_running_loop().time() < end, f"{test.__name__}: still not so"
        await asyncio.sleep(0.1)


def aways(c: SeatClient) -> list[int]:
    return [f["event"]["seat"] for f in c.frames
            if f["type"] == "event" and f["event"]["kind"] == "away"]


async def test_presence_is_shared_between_processes(tmp_path: Path, db: str,
                                                    rd: Redis) -> None:
    """A seat connected to one process is connected for the other too (its summaries and
    its grace periods); a person who moves from one process to the other keeps the seat;
    the seats of a process that dies lapse within seconds, and the other process, which
    takes the table over though nobody comes back to it, runs their grace periods and
    hands them to a computer player. (Every seat's connection is held by the process
    that runs the table, a: b hands over those that reach it.)"""
    # (8 s of grace: the move of seat 1 from a to b must reach a, through b and Redis,
    # before a's grace period ends, and a loaded machine may take seconds over it)
    grace = 8.0
    a = Serve(tmp_path / "a", db, rd.url, grace_seconds=grace).start()
    b = Serve(tmp_path / "b", db, rd.url, grace_seconds=grace).start()
    clients: list[SeatClient] = []
    try:
        async with httpx.AsyncClient(base_url=a.http, timeout=30) as api:
            table, tokens = await private_table(api, "merrimack-valley", turn_seconds=120)
        on = {0: b, 1: a, 2: a, 3: a}
        seats = [SeatClient(on[s].ws, table, tokens[s]).start() for s in range(4)]
        watcher = SeatClient(a.ws, table).start()
        clients = [*seats, watcher]
        await asyncio.gather(*(c.wait_for(lambda c: c.view is not None) for c in clients))

        async def everyone_here() -> bool:
            return await seats_connected(a, table) == [True] * 4 == \
                await seats_connected(b, table)
        await until(everyone_here)  # seat 0 (on b) is there for a; 1 to 3 for b
        late = SeatClient(a.ws, table).start()
        clients.append(late)
        await late.wait_for(lambda c: c.table is not None)
        assert late.table is not None
        assert [s["connected"] for s in late.table["seats"]] == [True] * 4

        seats[1].url = seats[1].url.replace(a.ws, b.ws)  # seat 1 moves from a to b
        await seats[1].drop()
        await seats[1].wait_for(lambda c: c.connections == 2 and c.ws is not None)
        # a must not give seat 1 away: the wait, from after the move (so after the drop),
        # outlasts a grace period started at the drop (load can only delay a's timer
        # beyond it, making the test miss a fault, never fail a server that is right)
        await asyncio.sleep(grace + 1.0)
        assert aways(watcher) == []
        assert await everyone_here()

        for c in clients:  # nobody comes back: each tries a, which dies
            c.url = c.url.replace(b.ws, a.ws)
        a.kill()  # every connection was held by a, which ran the table
        async def gone_from_b() -> bool:
            return await seats_connected(b, table) == [False] * 4
        await until(gone_from_b, 20.0)
        # b takes the table over; after the grace period, a computer player takes each
        # seat whose person is gone
        async def all_away() -> bool:
            return [s["away"] for s in (await api_summary(b, table))["seats"]] == [True] * 4
        await until(all_away, 25.0 + grace)
    finally:
        await stop_all(clients)
        for s in (a, b):
            if s.proc is not None and s.proc.poll() is None:
                code, err = s.stop()
                assert code == 0 and "Traceback" not in err, err[-3000:]


async def api_summary(server: Serve, table: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as api:
        r = await api.get(f"/api/tables/{table}")
    summary: dict[str, Any] = r.json()
    return summary


def record_events(db: str, table: str) -> list[dict[str, Any]]:
    with psycopg.connect(db) as conn:
        return [json.loads(r[0]) for r in conn.execute(
            "SELECT body FROM events WHERE table_id = %s ORDER BY seq", (table,)).fetchall()]


async def test_the_database_applies_one_of_two_racing_commits(db: str) -> None:
    """Two stores (as in two processes) append to the same table at the same event number
    and version from many threads at once: exactly one append is stored each time."""
    from forties.web.store import Conflict, Store

    stores = [Store(db), Store(db)]
    try:
        await stores[0].create_table(
            {"id": "race", "preset": "merrimack-valley", "rules": "{}", "seed": 1,
             "first_dealer": 0, "version": 0, "status": "playing", "settings": "{}",
             "public": False}, [], [])
        for seq in range(20):
            results = await asyncio.gather(*(
                stores[i % 2].append("race", seq, seq, [{"kind": "chat", "n": i}], seq + 1,
                                     "playing") for i in range(4)), return_exceptions=True)
            assert sum(r is None for r in results) == 1, results
            assert all(isinstance(r, Conflict) for r in results if r is not None)
        assert events_in_db(db, "race") == list(range(1, 21))
    finally:
        for s in stores:
            s.close()


def serve_fails(*args: str) -> str:
    res = subprocess.run([str(FORTIES), "serve", "--no-browser", "--port", "0", *args],
                         capture_output=True, text=True, timeout=60, check=False)
    assert res.returncode == 2, (res.stdout, res.stderr)
    assert res.stderr.startswith("forties: ") and res.stderr.count("\n") == 1, res.stderr
    return res.stderr


async def test_several_processes_need_postgresql_and_redis(tmp_path: Path, pg: Postgres,
                                                     rd: Redis) -> None:
    sqlite = f"sqlite:///{tmp_path / 'f.db'}"
    assert "--workers 2: several processes share" in serve_fails("--workers", "2")
    assert "--workers 3: several" in serve_fails("--workers", "3", "--db", pg.url)
    assert "give --db postgresql" in serve_fails("--db", sqlite, "--redis", rd.url)
    assert "cannot reach Redis at redis://127.0.0.1:1/0" in serve_fails(
        "--db", pg.url, "--redis", "redis://127.0.0.1:1/0")
    assert "--redis nowhere" in serve_fails("--db", pg.url, "--redis", "nowhere")
    assert "cannot open the database" in serve_fails(
        "--db", "postgresql://forties@127.0.0.1:1/forties", "--redis", rd.url)
    assert "--workers" in serve_fails("--workers", "0")
    # a URL SQLAlchemy cannot read (the port no number): one line, not a traceback
    assert "cannot open the database" in serve_fails(
        "--db", "postgresql://forties@127.0.0.1:notaport/forties")


def server_processes(pid: int) -> list[int]:
    """The worker processes of ``forties serve --workers`` (spawned children of ``pid``)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == pid and b"spawn_main" in cmdline:
            out.append(int(stat.parent.name))
    return sorted(out)


async def test_serve_workers_two_processes_on_one_port(tmp_path: Path, db: str,
                                                      rd: Redis) -> None:
    """``--workers 2``: two server processes answer on one port, and a game played through
    connections that land on both goes to its end; a worker killed in the middle of it is
    replaced, and its clients go on through the other."""
    server = Serve(tmp_path, db, rd.url, workers=2).start()
    try:
        assert server.proc is not None
        workers = server_processes(server.proc.pid)
        assert len(workers) == 2, (workers, server.proc.pid)
        async with httpx.AsyncClient(base_url=server.http, timeout=30) as api:
            table, tokens = await private_table(api, "forty-one", options={"target": 12})
            seats = [SeatClient(server.ws, table, tokens[s]).autoplay(basic_player).start()
                     for s in sorted(tokens)]
            try:
                await asyncio.gather(*(c.wait_for(lambda c: c.seq >= 20, timeout=120)
                                       for c in seats))
                os.kill(workers[0], signal.SIGKILL)
                await asyncio.sleep(1.0)  # the dropped connections notice
                for c in seats:
                    await c.wait_for(lambda c: c.ws is not None, timeout=60)
                await asyncio.gather(*(c.wait_for(lambda c: c.over, timeout=240)
                                       for c in seats))
            finally:
                await stop_all(seats)
            await judged(api, table, tmp_path)
        for c in seats:
            unbroken(c)
        after = server_processes(server.proc.pid)
        assert len(after) == 2 and workers[0] not in after and workers[1] in after, (
            workers, after)
    finally:
        code, err = server.stop()
        assert code == 0, err[-3000:]


async def test_the_load_test_measures_one_and_two_processes(tmp_path: Path, pg: Postgres,
                                                            rd: Redis) -> None:
    """``make loadtest``'s run, tiny: moves are played and counted, latencies and the CPU
    of every part measured, and the report compares the counts of processes."""
    from bench.load import one_run, report

    # two seconds, or longer until four moves are heard: the suite's other workers may
    # hold the machine's two cores for a while
    rows = [await one_run(n, 2, 2.0, pg, rd, tmp_path, at_least=4) for n in (1, 2)]
    for n, row in zip((1, 2), rows, strict=True):
        assert row["workers"] == n and row["clients"] == 8
        assert row["moves"] > 0 and row["latency_ms"]["samples"] >= 4, row
        assert row["seconds"] >= 2.0
        assert row["latency_ms"]["p50"] <= row["latency_ms"]["p99"]
        assert row["cpu_seconds"]["server processes"] > 0
        assert row["cpu_seconds"]["PostgreSQL"] > 0
        assert row["errors"] == 0 and row["reconnections"] == 0
    text = report(rows)
    assert "| 1 |" in text and "| 2 |" in text and "2 processes / 1:" in text
