"""Whole games through the websocket, every preset: four (or five) seat clients and a
spectator play a table to its end; every frame each of them received is checked against
what that seat may know at that moment (the engine's view, replayed beside), and the
table's record is the game the referee judges."""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
import pytest_asyncio

from forties import PRESETS
from tests.client import SeatClient

from .helpers_engine import FORTIES
from .helpers_web import (
    BACKENDS,
    LiveServer,
    basic_player,
    check_frames,
    knowledge_by_version,
    private_table,
    serving,
    stop_all,
    web_server,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module", params=BACKENDS)
def live_server(request: pytest.FixtureRequest,
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the module's games (each game at its own table), or two processes
    over PostgreSQL and Redis."""
    with serving(web_server(request, tmp_path_factory.mktemp("play"))) as srv:
        yield srv


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def api(live_server: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=live_server.http, timeout=30) as client:
        yield client


@pytest.mark.parametrize("preset", list(PRESETS))
async def test_a_whole_game_of_every_preset(preset: str, live_server: LiveServer,
                                            api: httpx.AsyncClient, tmp_path: Path) -> None:
    table, tokens = await private_table(api, preset)
    seats = [SeatClient(live_server.ws, table, tokens[s]).autoplay(basic_player).start()
             for s in sorted(tokens)]
    watcher = SeatClient(live_server.ws, table).start()
    try:
        for c in seats:
            await c.wait_for(lambda c: c.over, timeout=120)
        await watcher.wait_for(lambda c: c.over, timeout=30)
    finally:
        await stop_all([*seats, watcher])
    r = await api.get(f"/api/tables/{table}/record")
    assert r.status_code == 200
    record = r.json()
    assert "seed" not in record
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    res = subprocess.run([str(FORTIES), "check", str(path)], capture_output=True, text=True,
                         timeout=120, check=False)
    verdict = json.loads(res.stdout)
    assert res.returncode == 0 and verdict["ok"] and verdict["over"], res.stdout[-500:]
    known = knowledge_by_version(record)
    for s, c in enumerate(seats):
        assert not c.errors, c.errors[:3]
        assert c.gaps == 0
        assert check_frames(c.frames, s, known) > 20
        assert c.view is not None and c.view["deal"] is not None  # the last review
    assert check_frames(watcher.frames, None, known) > 20
    # the pad has a line for every hand, the last one's scores those of the game
    assert len(watcher.pad) == len(record["hands"])
    assert watcher.pad[-1]["scores"] == verdict["scores"]


async def test_the_spectator_sees_no_hand_and_a_seat_only_its_own(
        live_server: LiveServer, api: httpx.AsyncClient) -> None:
    r = await api.post("/api/play", json={"preset": "merrimack-valley", "level": "random"})
    play = r.json()
    me = SeatClient(live_server.ws, play["table"], play["token"]).start()
    watcher = SeatClient(live_server.ws, play["table"]).start()
    try:
        await me.wait_for(lambda c: c.view is not None)
        await watcher.wait_for(lambda c: c.view is not None)
        assert me.view is not None and watcher.view is not None
        assert len(me.view["hand"]) == 5 and me.view["seat"] == 0
        assert watcher.view["hand"] == [] and watcher.view["seat"] is None
        assert me.frames[0]["you"] == 0 and watcher.frames[0]["you"] is None
        assert me.table is not None and me.table["host"] is True
        assert watcher.table is not None and watcher.table["host"] is False
    finally:
        await stop_all([me, watcher])


async def test_frames_arrive_in_order_with_every_number(live_server: LiveServer,
                                                        api: httpx.AsyncClient) -> None:
    """Event numbers go 1, 2, 3... with none missing, for seats and spectators alike."""
    table, tokens = await private_table(api, "forty-one", options={"target": 12})
    seats = [SeatClient(live_server.ws, table, tokens[s]).autoplay(basic_player).start()
             for s in sorted(tokens)]
    watcher = SeatClient(live_server.ws, table).start()
    try:
        await asyncio.gather(*(c.wait_for(lambda c: c.over, timeout=120)
                               for c in [*seats, watcher]))
    finally:
        await stop_all([*seats, watcher])
    for c in [*seats, watcher]:
        numbers = [f["seq"] for f in c.frames if f["type"] in ("event", "chat")]
        first = c.frames[0]["seq"]
        assert numbers == list(range(first + 1, first + 1 + len(numbers)))
