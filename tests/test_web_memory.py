"""Memory levels off: once games end and their people go, every map the server keeps
(tables in play, background work, per-address limits, per-evening locks and caches) is
back to its size before them; the finished tables and the idle ones stay in the database
and come back when someone opens them.

The server is the real app over an SQLite file, in this process (requests through
httpx's ASGI transport, each from an address of its own; a websocket's session as
``app.websocket_session`` runs it: a connection that says hello, then goes), so that
its maps can be looked at. The clock the server reads is moved on, never waited for."""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from forties.web import hall as hall_module
from forties.web import limits as limits_module
from forties.web import live as live_module
from forties.web import service as service_module
from forties.web.app import ServerSettings, create_app
from forties.web.limits import PerMinute
from forties.web.service import Limits, Live, Service

GAMES = 4


class Clock:
    """``time`` as the server's modules read it, ``ahead`` seconds on."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def monotonic(self) -> float:
        return time.monotonic() + self.ahead

    def time(self) -> float:
        return time.time() + self.ahead

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


def maps(app: Starlette) -> dict[str, int]:
    """The size of every dict, set, list and deque held by the server's own objects
    (those of forties.web, found from the app's service and evenings through their
    attributes)."""
    out: dict[str, int] = {}
    seen: set[int] = set()

    def walk(obj: object, path: str) -> None:
        if id(obj) in seen:
            return
        seen.add(id(obj))
        for name, value in vars(obj).items():
            where = f"{path}.{name}"
            if isinstance(value, dict | set | list | deque):
                out[where] = len(value)
            elif type(value).__module__.startswith("forties.web") and hasattr(value,
                                                                                "__dict__"):
                walk(value, where)

    for root in (app.state.service, app.state.evenings):
        walk(root, type(root).__name__)
    return out


async def until(test: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Wait until ``test()`` holds (checked every few milliseconds); after ``timeout``
    seconds, fail saying what was expected."""
    end = time.monotonic() + timeout
    while not test():
        if time.monotonic() > end:
            raise AssertionError(f"expected {what} within {timeout} s")
        await asyncio.sleep(0.005)


@asynccontextmanager
async def client(app: Starlette, address: str) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        yield c


async def visit(service: Service, live: Live, seat: int | None, token: str | None) -> Any:
    """A page's connection to ``live`` (as ``websocket_session`` makes one) that has said
    hello; ``service.leave`` ends it."""
    conn = service.connect(seat, token)
    await service.receive(conn, live, '{"type": "hello", "seq": 0}')
    assert conn.live is live
    return conn


async def an_evening(app: Starlette, address: str) -> None:
    """A one-game evening of two couples, made, played and reported from ``address``,
    its board read as its pages read it."""
    async with client(app, address) as http:
        made = (await http.post("/api/hall", json={"games": 1})).json()
        eid, key = made["evening"], made["key"]
        tables = made["report"].split("#key=")[1]
        for names in (["Ann", "Bob"], ["Cy", "Di"]):
            r = await http.post(f"/api/hall/{eid}/register", json={"key": key, "names": names})
            assert r.status_code == 200, r.text
        assert (await http.post(f"/api/hall/{eid}/begin", json={"key": key})).status_code == 200
        board = (await http.get(f"/api/hall/{eid}")).json()
        first = board["current"]["tables"][0]["deals_first"]
        r = await http.post(f"/api/hall/{eid}/report", json={
            "key": tables, "game": 1, "table": 1, "winner": first})
        assert r.status_code == 200, r.text
        assert (await http.get(f"/api/hall/{eid}")).json()["status"]["phase"] == "finished"


@asynccontextmanager
async def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                 ) -> AsyncIterator[tuple[Starlette, Service, Clock]]:
    """The app over a fresh SQLite file, started, its clock ``Clock``; stopped after."""
    clock = Clock()
    for module in (hall_module, limits_module, live_module, service_module):
        monkeypatch.setattr(module, "time", clock)
    limits = Limits(bot_delay=0.0, review_seconds=0.0, par=False, tables_per_minute=1000,
                    sweep_seconds=3600.0)  # (the sweep is called here, not waited for)
    limits.idle_minutes = 10.0
    limits.watch_seconds = 3600.0
    app = create_app(ServerSettings(f"sqlite:///{tmp_path / 'memory.db'}", limits))
    service: Service = app.state.service
    await service.start()
    try:
        yield app, service, clock
    finally:
        await service.close()
        await asyncio.get_running_loop().run_in_executor(None, service.store.close)


IDLE = 60 * 11  # seconds past the default idle_minutes (10)


@pytest.mark.asyncio
async def test_every_map_is_back_to_its_size_once_the_games_end_and_the_people_go(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with server(tmp_path, monkeypatch) as (app, service, clock):
        async with client(app, "10.0.0.1") as http:  # (the hall's part is made at first use)
            assert (await http.get("/api/hall/nothing")).status_code == 404
        before = maps(app)
        ended: list[str] = []
        for i in range(GAMES):
            # a game that ends, watched from a page that then goes
            over = asyncio.Event()

            async def on_over(table_id: str, summary: Any, over: asyncio.Event = over) -> None:
                over.set()

            made = await service.create_table(
                "merrimack-valley", {"target": 5}, [{"kind": "computer", "level": "basic"}] * 4,
                on_over=on_over)
            live = await service.live(made["table"])
            assert live is not None
            page = await visit(service, live, None, None)
            await asyncio.wait_for(over.wait(), 30)
            service.leave(page)
            ended.append(made["table"])
            # a person who sits down against the computers and goes before the first move
            async with client(app, f"10.0.1.{i}") as http:
                r = await http.post("/api/play", json={"preset": "auction-45", "name": "Sam"})
                assert r.status_code == 200, r.text
                table, token = r.json()["table"], r.json()["token"]
            live = await service.live(table)
            assert live is not None
            me = await visit(service, live, 0, token)
            await until(lambda live=live: live.table.state.turn == 0 and (
                live.task is None or live.task.done()), "the person's turn")
            service.leave(me)
            ended.append(table)
            await an_evening(app, f"10.0.2.{i}")
        # a while later: the sweep, and the next request for an evening
        clock.ahead += IDLE
        await service.sweep()
        async with client(app, "10.0.0.1") as http:
            assert (await http.get("/api/hall/nothing")).status_code == 404
        after = maps(app)
        grown = {k: (before.get(k, 0), n) for k, n in after.items() if n != before.get(k, 0)}
        assert not grown, f"maps that kept what the ended games left: {grown}"
        # every table is still in the database, and comes back when opened
        for table_id in ended:
            live = await service.live(table_id)
            assert live is not None and live.table.seq > 0


@pytest.mark.asyncio
async def test_a_table_someone_is_at_stays_and_an_idle_one_comes_back_to_play(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with server(tmp_path, monkeypatch) as (app, service, clock):
        async with client(app, "10.0.0.1") as http:
            made = (await http.post("/api/play", json={"preset": "auction-45"})).json()
        table, token = made["table"], made["token"]
        live = await service.live(table)
        assert live is not None
        me = await visit(service, live, 0, token)
        await until(lambda: live.table.state.turn == 0 and (
            live.task is None or live.task.done()), "the person's turn")
        clock.ahead += IDLE
        await service.sweep()
        assert service.tables.get(table) is live, "a table with its player there was forgotten"
        service.leave(me)
        clock.ahead += IDLE
        await service.sweep()
        assert table not in service.tables
        back = await service.live(table)
        assert back is not None and back is not live
        assert back.table.version == live.table.version
        me = await visit(service, back, 0, token)
        legal = back.table.state.view(0)["legal"]
        await service.receive(me, back, json.dumps({"type": "act", "action": legal[0],
                                                    "version": back.table.version}))
        assert back.table.version > live.table.version, "the table did not play on"
        service.leave(me)


def test_a_per_minute_limit_forgets_an_address_only_once_its_minute_is_over() -> None:
    now = [1000.0]
    limit = PerMinute(2, clock=lambda: now[0])
    assert limit.take("a") and limit.take("a") and not limit.take("a")
    now[0] += 59
    limit.prune()
    assert not limit.take("a"), "an address forgotten within its minute"
    assert limit.held == 1
    now[0] += 2
    limit.prune()
    assert limit.held == 0
    assert limit.take("a")
