"""An online duplicate session, without a browser, against ``forties serve``: four
partnerships (one with a computer in its second seat, one all computers) play four
boards of Auction 45 at board tables. Each person's seat finds its table from its play
link, plays with a websocket client, and the next board and the next round open by
themselves. Every frame a seat received is that seat's view of its own board table and
names no card it may not know then (so no board's cards from another table); a board's
page shows a partnership its cards only once it has played that board; the standings
are the test's own matchpoint arithmetic over the hands the tables' records hold."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

import httpx
import pytest

from forties.duplicate import scores_of_hand
from forties.record import Record, replay_record
from forties.table import Table

from .client import SeatClient
from .helpers_engine import leaks
from .helpers_web import (
    ServerProcess,
    basic_player,
    knowledge_by_version,
    serving,
    stop_all,
)


def board_frames(frames: list[dict[str, Any]], seat: int, board: int,
                 record: dict[str, Any]) -> int:
    """Every frame of a board table's seat is the engine's view of that seat (the board
    over once its hand is), of that board, naming no card the seat may not know then.
    Returns the frames checked."""
    known = knowledge_by_version(record)
    assert frames[0]["type"] == "snapshot" and frames[0]["table"]["board"] == board
    checked = 0
    for f in frames:
        if "view" not in f:
            continue
        v = dict(f["view"])
        version = v.pop("version")
        state, allowed = known[version]
        expected = dict(Table.seat_view(state, seat))
        if state.hand_over:
            expected["over"] = True  # (the board table's own word: its one hand is over)
        assert v == expected, f"seat {seat}: the frame at version {version}"
        bad = leaks({k: x for k, x in f.items() if k != "table"}, allowed[seat])
        assert not bad, f"seat {seat} received {bad} at version {version}"
        checked += 1
    over = [f for f in frames if f.get("event", {}).get("kind") == "over"]
    assert len(over) == 1 and over[0]["version"] == max(known)  # (it saw the board end)
    return checked


PAIRS = [{"name": "Ann & Bob"}, {"name": "Cy & Di", "one_computer": "basic"},
         {"name": "Bots", "computer": "basic"}, {"name": "Ed & Flo"}]


@pytest.mark.asyncio
async def test_an_online_session_plays_its_boards_and_hides_them(
        live_server: Any, api: httpx.AsyncClient) -> None:
    r = await api.post("/api/dup", json={"game": "auction-45", "boards": 4, "mode": "online",
                                         "partnerships": PAIRS, "title": "Online pairs"})
    assert r.status_code == 200, r.text
    made = r.json()
    sid = made["session"]
    keys = {(p["pair"], p["member"]): p["url"].split("#key=")[1] for p in made["players"]}
    # a key for each person: pair 2's second seat and pair 3 are computers
    assert sorted(keys) == [(1, 0), (1, 1), (2, 0), (4, 0), (4, 1)]
    clients: dict[str, SeatClient] = {}  # by table address
    # address -> (pair, member, board, seat, table number)
    seated: dict[str, tuple[int, int, int, int, int]] = {}
    hidden_checked = 0
    deadline = time.monotonic() + 60
    try:
        while True:
            view = (await api.get(f"/api/dup/{sid}")).json()
            if view["status"] == "over":
                break
            assert time.monotonic() < deadline, f"the session is stuck: {view}"
            for (pair, member), key in keys.items():
                s = (await api.post(f"/api/dup/{sid}/seat", json={"key": key})).json()
                if s["status"] != "playing" or s["url"] in clients:
                    continue
                table, token = s["url"].removeprefix("/t/").split("#token=")
                # before it plays this board, its partnership is not shown its cards
                b = (await api.post(f"/api/dup/{sid}/board/{s['board']}",
                                    json={"key": key})).json()
                if not any(x["board"] == s["board"] and x["done"] for x in s["boards"]):
                    assert not b["shown"] and "hands" not in b
                    hidden_checked += 1
                c = SeatClient(live_server.ws, table, token).autoplay(basic_player).start()
                clients[s["url"]] = c
                seat = (0 if any(x["board"] == s["board"] and x["direction"] == "N-S"
                                 for x in s["boards"]) else 1) + 2 * member
                seated[s["url"]] = (pair, member, s["board"], seat, s["table"])
            await asyncio.sleep(0.2)
    finally:
        await stop_all(list(clients.values()))
    assert hidden_checked >= 5
    # 4 boards at 2 tables; the people of pairs 1, 2 and 4 sat at every board table
    # of theirs (pair 2 with its one person, the others with both)
    tables_seen = Counter((p, b) for p, _m, b, _s, _t in seated.values())
    assert tables_seen == {**{(p, b): 2 for p in (1, 4) for b in range(1, 5)},
                           **{(2, b): 1 for b in range(1, 5)}}
    # every frame: the seat's own view of its board table, no card it may not know
    results: dict[tuple[int, int], tuple[int, int]] = {}
    for url, c in clients.items():
        table, token = url.removeprefix("/t/").split("#token=")
        rec = (await api.get(f"/api/tables/{table}/record", params={"token": token})).json()
        _pair, _member, board, seat, number = seated[url]
        assert board_frames(c.frames, seat, board, rec) >= 2  # (its first view, its own act)
        state = replay_record(Record.from_json(rec))
        assert state is not None
        results[(board, number)] = scores_of_hand(state)
    # once over, every board is shown to anyone, with each table's play
    played = 0
    for n in range(1, 5):
        b = (await api.post(f"/api/dup/{sid}/board/{n}", json={})).json()
        assert b["shown"] and len(b["rows"]) == 2 and len(b["hands"]) == 4
        for row in b["rows"]:  # (a hand nobody bid on is thrown in: no tricks)
            bid = row["contract"]["bidder"] is not None
            assert len(row["tricks"]) == (5 if bid else 0)
            assert all(len(t["cards"]) == 4 for t in row["tricks"])
            played += bid
    assert played >= 4
    # the standings: the test's own arithmetic over the results the board tables played
    view = (await api.get(f"/api/dup/{sid}")).json()
    assert {(int(b), r["table"]): (r["ns_score"], r["ew_score"])
            for b, rows in view["results"].items() for r in rows} == results
    mp: Counter[int] = Counter()
    for rows in view["results"].values():
        for r in rows:
            net = r["ns_score"] - r["ew_score"]
            for o in rows:
                if o is not r:
                    onet = o["ns_score"] - o["ew_score"]
                    mp[r["ns"]] += 2 if net > onet else 1 if net == onet else 0
                    mp[r["ew"]] += 2 if net < onet else 1 if net == onet else 0
    assert {s["pair"]["number"]: s["matchpoints"] for s in view["standings"]} == dict(mp)


@pytest.mark.asyncio
async def test_a_session_of_computers_plays_itself_and_each_table_has_its_par(
        tmp_path: Any) -> None:
    """Four partnerships of computers: nobody sits, the board tables play themselves; the
    board page then shows each table's double-dummy par (worked out in the pars'
    process), the bidders' side and what it could take, beside the contract and play."""
    with serving(ServerProcess(tmp_path, par=True)) as srv:
        async with httpx.AsyncClient(base_url=srv.http, timeout=30) as api:
            r = await api.post("/api/dup", json={
                "game": "merrimack-valley", "boards": 2, "mode": "online",
                "partnerships": [{"name": f"Bots {i}", "computer": "basic"}
                                 for i in range(1, 5)]})
            assert r.status_code == 200, r.text
            sid = r.json()["session"]
            assert r.json()["players"] == []
            deadline = time.monotonic() + 60
            while True:
                b = (await api.post(f"/api/dup/{sid}/board/1", json={})).json()
                if b["shown"] and all(row["par"] for row in b["rows"] if row["tricks"]):
                    break
                assert time.monotonic() < deadline, f"no par came: {b}"
                await asyncio.sleep(0.3)
    assert len(b["rows"]) == 2
    for row in b["rows"]:
        if row["tricks"]:
            bidder = row["contract"]["bidder"]
            assert row["par"]["side"] == [bidder % 2, bidder % 2 + 2]
            assert 0 <= row["par"]["points"] <= 30 and row["par"]["points"] % 5 == 0


def test_an_odd_count_online_is_filled_by_computers_or_sits_one_out(tmp_path: Any) -> None:
    """Five partnerships online: with ``fill``, a sixth of computers at that level is
    added (marked), so nobody sits out; without, one partnership sits out each round,
    and its link says so."""
    from starlette.testclient import TestClient

    from forties.web.app import ServerSettings, create_app
    from forties.web.limits import Limits, Rates

    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'app.db'}",
                                    limits=Limits(par=False, **Rates.lifted())))
    five = [{"name": f"Pair {i}"} for i in range(1, 6)]
    with TestClient(app) as c:
        made = c.post("/api/dup", json={"game": "forty-one", "boards": 5, "mode": "online",
                                        "partnerships": five, "fill": "expert"}).json()
        v = c.get(f"/api/dup/{made['session']}").json()
        assert [(p["number"], p["computer"]) for p in v["partnerships"]][-1] == (6, "expert")
        assert v["filled"] == 6 and all(r["sit_out"] is None for r in v["rounds"])
        assert len(made["players"]) == 10  # (two people in each of the five)
        made = c.post("/api/dup", json={"game": "forty-one", "boards": 5, "mode": "online",
                                        "partnerships": five}).json()
        v = c.get(f"/api/dup/{made['session']}").json()
        out = v["rounds"][0]["sit_out"]
        assert len(v["partnerships"]) == 5 and out is not None
        link = next(p for p in made["players"] if p["pair"] == out)["url"]
        seat = c.post(f"/api/dup/{made['session']}/seat",
                      json={"key": link.split("#key=")[1]}).json()
        assert seat["status"] == "sitting out" and seat["url"] is None
        other = next(p for p in made["players"] if p["pair"] != out)["url"]
        seat = c.post(f"/api/dup/{made['session']}/seat",
                      json={"key": other.split("#key=")[1]}).json()
        assert seat["status"] == "playing" and seat["url"].startswith("/t/")
