"""Hostile: taking an action back over the websocket ({"type": "act", "action": "0 undo"}).

A stranger's undo (a spectator, another seat's, a malformed one, one on an old or absurd
version) is refused in one line and changes nothing; the person alone with computer players
takes back his bid before the next seat acts, and once it has acted he is refused."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from tests.helpers_web import ServerProcess, serving

WAIT = 30.0  # seconds for any one frame: a frame that never comes fails, never hangs
DELAY = 2.0  # the computer players' pause: the undo comes within it


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serving(ServerProcess(tmp_path_factory.mktemp("undo"), bot_delay=DELAY)) as s:
        yield s


async def frame(ws: Any, want: str | None = None) -> dict[str, Any]:
    """The next frame (of type ``want``, the others skipped), within WAIT seconds."""
    async def read() -> dict[str, Any]:
        while True:
            f = json.loads(await ws.recv())
            if want is None or f["type"] == want:
                return dict(f)
    return await asyncio.wait_for(read(), WAIT)


async def refusal(ws: Any, msg: dict[str, Any]) -> dict[str, Any]:
    await ws.send(json.dumps(msg))
    f = await frame(ws, "error")
    assert isinstance(f["message"], str) and f["message"] and "\n" not in f["message"]
    assert "Traceback" not in f["message"] and len(f["message"]) < 200, f
    return f


async def undo_game(srv: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=srv.http, timeout=WAIT) as http:
        made = (await http.post("/api/play", json={"preset": "merrimack-valley",
                                                   "level": "random"})).json()
    table, token = made["table"], made["token"]
    async with websockets.connect(f"{srv.ws}/ws/{table}?token={token}") as ws, \
            websockets.connect(f"{srv.ws}/ws/{table}") as spectator:
        await ws.send(json.dumps({"type": "hello", "seq": 0}))
        snap = await frame(ws, "snapshot")
        v = snap["view"]
        assert v["to_act"] == 0 and v["history"] == [], v  # seat 0 bids first
        version = v["version"]
        await spectator.send(json.dumps({"type": "hello", "seq": 0}))
        await frame(spectator, "snapshot")
        # strangers' undos, and nothing of his to take back yet
        assert (await refusal(spectator, {"type": "act", "action": "0 undo",
                                          "version": version}))["code"] == "seat"
        for action, ver, code in (("1 undo", version, "bad"), ("0 undo 1", version, "bad"),
                                  ("0 undo", "7", "bad"), ("0 undo", 10**40, "stale"),
                                  ("0 undo", version - 1, "stale"), ("0 undo", None, "bad"),
                                  (["0", "undo"], version, "bad"), ("0 undo", version, "undo")):
            got = await refusal(ws, {"type": "act", "action": action, "version": ver})
            assert got["code"] == code, (action, ver, got)
        assert got.get("refusal") == "undo-none", got
        # his bid, taken back before the next seat acts: the game as it was
        bid = next(a for a in v["legal"] if a.split()[1] == "bid")
        await ws.send(json.dumps({"type": "act", "action": bid, "version": version}))
        await ws.send(json.dumps({"type": "act", "action": "0 undo", "version": version + 1}))
        acted = await frame(ws, "event")
        assert acted["event"]["kind"] == "act" and acted["view"]["history"] == [bid], acted
        undone = await frame(ws, "event")
        assert undone["event"] == {"kind": "undo", "seat": 0}, undone
        assert undone["view"]["history"] == [] and undone["view"]["to_act"] == 0
        assert undone["view"]["hand"] == v["hand"] and undone["view"]["legal"] == v["legal"]
        watched = [await frame(spectator, "event") for _ in range(2)]
        assert [f["event"]["kind"] for f in watched] == ["act", "undo"]
        # his bid again; once the next seat has acted, the undo is refused
        version = undone["view"]["version"]
        await ws.send(json.dumps({"type": "act", "action": bid, "version": version}))
        while True:
            f = await frame(ws, "event")
            if f["event"].get("seat") == 1:
                break
        got = await refusal(ws, {"type": "act", "action": "0 undo", "version": f["version"]})
        assert (got["code"], got.get("refusal")) == ("undo", "undo-acted"), got
    async with httpx.AsyncClient(base_url=srv.http, timeout=WAIT) as http:
        record = (await http.get(f"/api/tables/{table}")).json()
    assert record["status"] == "playing", record


def test_undo_over_the_websocket(srv: ServerProcess) -> None:
    asyncio.run(undo_game(srv))


