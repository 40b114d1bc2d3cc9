"""Seats at a live table: computer players, away and back, the grace period and the turn
timer, hints where allowed, rematch, stale and repeated actions, reconnecting, and a
restarted server that gives every seat exactly what it had."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import pytest_asyncio

from tests.client import SeatClient

from .helpers_web import (
    BACKENDS,
    ServerProcess,
    basic_player,
    expect,
    lately,
    pinged,
    private_table,
    serving,
    stop_all,
    web_server,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module", params=BACKENDS)
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serving(web_server(request, tmp_path_factory.mktemp("seats"), review_seconds=0.3,
                            grace_seconds=0.5, par=True, par_nice=0)) as srv:
        yield srv


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def http(server: ServerProcess) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as client:
        yield client


def acts(c: SeatClient, seat: int | None = None) -> list[dict[str, Any]]:
    return [f for f in c.frames if f["type"] == "event" and f["event"]["kind"] == "act"
            and (seat is None or f["event"]["seat"] == seat)]


def events(c: SeatClient, kind: str) -> list[dict[str, Any]]:
    return [f for f in c.frames if f["type"] == "event" and f["event"]["kind"] == kind]


def rematches(c: SeatClient) -> list[str]:
    """The links to a rematch ``c`` was given, in order."""
    return [f["url"] for f in c.frames if f["type"] == "rematch"]


def my_turn(c: SeatClient) -> bool:
    return bool(c.view and c.view["legal"])


async def play_now(http: httpx.AsyncClient, server: ServerProcess, **body: Any
                   ) -> tuple[dict[str, Any], SeatClient]:
    r = await http.post("/api/play", json={"preset": "merrimack-valley", "level": "basic",
                                           **body})
    assert r.status_code == 200, r.text
    play = r.json()
    return play, SeatClient(server.ws, play["table"], play["token"]).start()


async def test_computers_fill_the_other_seats_and_play(http: httpx.AsyncClient,
                                                       server: ServerProcess) -> None:
    _, me = await play_now(http, server)
    try:
        await me.wait_for(my_turn)
        assert me.table is not None
        assert [s["kind"] for s in me.table["seats"]] == ["person"] + ["computer"] * 3
        await me.act(me.view["legal"][0])  # type: ignore[index]
        await expect(me, lambda c: len({f["event"]["seat"] for f in acts(c)}) == 4,
                     "every seat to have played")
    finally:
        await me.stop()


async def test_a_stale_or_repeated_action_is_refused_without_effect(
        http: httpx.AsyncClient, server: ServerProcess) -> None:
    _, me = await play_now(http, server)
    try:
        await me.wait_for(my_turn)
        assert me.view is not None
        action, version = me.view["legal"][0], me.view["version"]
        await me.act(action, version)
        await me.act(action, version)  # a double click
        await expect(me, lambda c: bool(c.errors), "the double click refused")
        assert me.errors[0]["code"] == "stale"
        await expect(me, lambda c: c.view is not None and c.view["version"] > version,
                     "the action applied")
        history = me.view["history"]
        assert history.count(action) == 1
        await me.act(action, version - 1)
        await expect(me, lambda c: len(c.errors) == 2, "the stale action refused")
        assert me.errors[1]["code"] == "stale"
    finally:
        await me.stop()


async def test_away_a_computer_plays_the_seat_and_back_plays_nothing(
        http: httpx.AsyncClient, server: ServerProcess) -> None:
    _, me = await play_now(http, server)
    try:
        await me.wait_for(my_turn)
        await me.send({"type": "away"})
        await expect(me, lambda c: len(acts(c, 0)) >= 3, "a computer to play the seat 3 times",
                     timeout=60)
        await me.send({"type": "back"})
        await expect(me, lambda c: bool(events(c, "back")), "the seat taken back")
        back = events(me, "back")[0]
        assert back["table"]["seats"][0]["away"] is False
        i = me.frames.index(back)
        before = [f for f in me.frames[:i] if "version" in f][-1]
        assert back["version"] == before["version"]  # the tap moved nothing
        await me.wait_for(my_turn, timeout=60)
        later = [f for f in me.frames[i + 1:] if f["type"] == "event"
                 and f["event"]["kind"] == "act" and f["event"]["seat"] == 0]
        assert later == []  # nobody played for me since I came back
        await me.send({"type": "back"})
        await expect(me, lambda c: any(e["code"] == "back" for e in c.errors),
                     "a second \"back\" refused")
    finally:
        await me.stop()


async def test_a_dropped_seat_keeps_its_grace_then_a_computer_plays_it(
        http: httpx.AsyncClient, server: ServerProcess) -> None:
    table, tokens = await private_table(http, "merrimack-valley", turn_seconds=30)
    host = SeatClient(server.ws, table, tokens[0]).autoplay(basic_player).start()
    guest = SeatClient(server.ws, table, tokens[1]).start()
    others = [SeatClient(server.ws, table, tokens[s]).autoplay(basic_player).start()
              for s in (2, 3)]
    try:
        await guest.wait_for(lambda c: c.view is not None)
        await host.wait_for(lambda c: c.table is not None)
        await guest.stop()  # gone: after the grace period a computer takes the seat
        await expect(host, lambda c: any(f["event"].get("seat") == 1 for f in events(c, "away")),
                     "a computer to take seat 1 after its grace period")
        await expect(host, lambda c: len(acts(c, 1)) >= 2, "a computer to play seat 1 twice",
                     timeout=60)
        back = SeatClient(server.ws, table, tokens[1]).start()
        await back.wait_for(lambda c: c.table is not None)
        assert back.table is not None and back.table["seats"][1]["away"] is True
        await back.send({"type": "back"})
        await expect(host, lambda c: bool(events(c, "back")), "seat 1 taken back",
                     seen=lambda c: (lately(c), back.errors, lately(back)))
        await back.stop()
    finally:
        await stop_all([host, *others])


async def test_a_seat_back_within_its_grace_has_a_full_grace_at_its_next_drop(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """One process: a person drops, comes back within the grace period and drops again;
    the seat is kept for a full grace period from the second drop (the first drop's
    timer, ended by the return, must not take it early). Ann is away for a fifth of the
    grace period: her return must reach the server before the first drop's grace ends,
    which leaves 8 s to a machine under load (with 3 s of grace and half of it away, 1.5 s
    was too few); the first drop's timer, if it were not ended, would still take the seat
    some 7 s before a full grace from the second drop."""
    grace = 10.0
    srv = ServerProcess(tmp_path_factory.mktemp("grace"), grace_seconds=grace).start()
    try:
        async with httpx.AsyncClient(base_url=srv.http, timeout=30) as http:
            r = await http.post("/api/tables", json={"preset": "merrimack-valley",
                                                     "name": "Ann", "turn_seconds": 60})
            made = r.json()
            table = made["table"]
            await http.post(f"/api/tables/{table}/start", json={"token": made["token"]})
        heard: list[tuple[float, dict[str, Any]]] = []
        watcher = SeatClient(srv.ws, table).start()
        watcher.on_frame = lambda c, f: heard.append((time.monotonic(), f))

        def told(connected: bool) -> int:
            return sum(f == {"type": "presence", "seat": 0, "connected": connected}
                       for _, f in heard)

        try:
            await expect(watcher, lambda c: c.view is not None, "the watcher's snapshot")
            me = SeatClient(srv.ws, table, made["token"]).start()
            await expect(watcher, lambda c: told(True) == 1, "Ann at her seat")
            await me.stop()
            await expect(watcher, lambda c: told(False) == 1, "Ann gone")
            await asyncio.sleep(grace / 5)  # (away for a fifth of the grace period)
            me = SeatClient(srv.ws, table, made["token"]).start()
            await expect(watcher, lambda c: told(True) == 2, "Ann back")
            assert not events(watcher, "away")
            dropped = time.monotonic()
            await me.stop()
            await expect(watcher, lambda c: bool(events(c, "away")),
                         "a computer to take Ann's seat after the grace period",
                         timeout=grace + 30)
            at, away = next((t, f) for t, f in heard if f["type"] == "event"
                            and f["event"]["kind"] == "away")
            assert away["event"]["seat"] == 0
            assert at - dropped >= grace, \
                f"the seat was taken {at - dropped:.2f} s after the second drop, not {grace}"
        finally:
            await watcher.stop()
    finally:
        code, _, err = srv.stop()
        assert code == 0 and "Traceback" not in err, err[-3000:]


async def test_out_of_time_a_computer_plays_until_the_person_is_back(
        http: httpx.AsyncClient, server: ServerProcess) -> None:
    r = await http.post("/api/tables", json={"preset": "forty-one", "name": "Slow",
                                             "turn_seconds": 5})
    made = r.json()
    await http.post(f"/api/tables/{made['table']}/start", json={"token": made["token"]})
    me = SeatClient(server.ws, made["table"], made["token"]).start()
    try:
        await me.wait_for(my_turn)
        assert me.table is not None
        deadline = me.frames[-1].get("table", me.table)["deadline"]
        assert deadline is not None
        await expect(me, lambda c: bool(events(c, "away")), "a computer to take the seat in time")
        await expect(me, lambda c: len(acts(c, 0)) >= 1, "a computer to play the seat")
    finally:
        await me.stop()


async def test_hints_only_where_the_host_allows_them(http: httpx.AsyncClient,
                                                     server: ServerProcess) -> None:
    # a private table whose host did not allow hints (Play now has them on)
    r = await http.post("/api/tables", json={"preset": "merrimack-valley"})
    made = r.json()
    await http.post(f"/api/tables/{made['table']}/start", json={"token": made["token"]})
    me = SeatClient(server.ws, made["table"], made["token"]).start()
    try:
        await me.wait_for(my_turn)
        await me.send({"type": "hint"})
        await expect(me, lambda c: bool(c.errors), "the hint refused")
        assert me.errors[0]["code"] == "hints"
    finally:
        await me.stop()
    r = await http.post("/api/tables", json={"preset": "merrimack-valley", "hints": True})
    made = r.json()
    await http.post(f"/api/tables/{made['table']}/start", json={"token": made["token"]})
    me = SeatClient(server.ws, made["table"], made["token"]).start()
    try:
        await me.wait_for(my_turn)
        assert me.view is not None
        await me.send({"type": "hint"})
        await expect(me, lambda c: bool(c.hints), "a hint", timeout=120)
        hint = me.hints[0]
        assert hint["action"] in me.view["legal"] and hint["text"]
        assert all(v["action"] in me.view["legal"] for v in hint["values"])
    finally:
        await me.stop()


async def test_rematch_tokens_go_each_to_its_own_seat(http: httpx.AsyncClient,
                                                       server: ServerProcess) -> None:
    r = await http.post("/api/tables", json={"preset": "merrimack-valley",
                                             "options": {"target": 5}, "name": "Ann"})
    made = r.json()
    table, host = made["table"], made["token"]
    code = made["invites"][0]["url"].split("#invite=")[1]
    guest = (await http.post(f"/api/tables/{table}/join",
                             json={"invite": code, "name": "Bob"})).json()["token"]
    await http.post(f"/api/tables/{table}/start", json={"token": host})
    ann = SeatClient(server.ws, table, host).autoplay(basic_player).start()
    bob = SeatClient(server.ws, table, guest).autoplay(basic_player).start()
    watcher = SeatClient(server.ws, table).start()
    try:
        await ann.wait_for(lambda c: c.over, timeout=120)
        await bob.wait_for(lambda c: c.over, timeout=30)
        await watcher.wait_for(lambda c: c.over, timeout=30)
        await ann.send({"type": "rematch"})
        await expect(ann, lambda c: c.rematch_url is not None, "Ann's link to the rematch")
        await expect(bob, lambda c: c.rematch_url is not None, "Bob's link to the rematch")
        await pinged(watcher)  # (a rematch frame told to the watcher would be here by now)
        assert ann.rematch_url != bob.rematch_url
        new = ann.rematch_url.split("/t/")[1].split("#")[0]  # type: ignore[union-attr]
        ann_tok = ann.rematch_url.split("#token=")[1]  # type: ignore[union-attr]
        bob_tok = bob.rematch_url.split("#token=")[1]  # type: ignore[union-attr]
        assert new != table and bob.rematch_url.startswith(f"/t/{new}#")  # type: ignore[union-attr]
        for c, other in ((ann, bob_tok), (bob, ann_tok)):
            assert other not in str(c.frames)
        assert not any(f["type"] == "rematch" for f in watcher.frames)
        for tok, seat in ((ann_tok, 0), (bob_tok, 1)):
            c = SeatClient(server.ws, new, tok).start()
            await c.wait_for(lambda c: c.view is not None)
            assert c.view is not None and c.view["seat"] == seat
            assert c.table is not None and c.table["status"] == "playing"
            assert [s["name"] for s in c.table["seats"][:2]] == ["Ann", "Bob"]
            await c.stop()
        first = rematches(bob)
        assert first == [bob.rematch_url]
        await bob.send({"type": "rematch"})  # asked again: the same table
        await expect(bob, lambda c: len(rematches(c)) == 2, "a second answer to Bob's rematch",
                     timeout=10, seen=rematches)
        assert rematches(bob) == first * 2
    finally:
        await stop_all([ann, bob, watcher])


async def test_the_par_of_each_hand_is_told(http: httpx.AsyncClient,
                                            server: ServerProcess) -> None:
    table, tokens = await private_table(http, "merrimack-valley")
    seats = [SeatClient(server.ws, table, tokens[s]).autoplay(basic_player).start()
             for s in sorted(tokens)]
    try:
        await expect(seats[0], lambda c: bool(events(c, "par")), "the par", timeout=120)
        par = events(seats[0], "par")[0]["event"]
        assert par["hand"] == 0 and isinstance(par["value"]["points"], int)
        assert par["value"]["text"]
    finally:
        await stop_all(seats)


async def test_no_par_is_worked_out_for_a_table_nobody_is_at(http: httpx.AsyncClient,
                                                            server: ServerProcess) -> None:
    """Everyone gone, the computers play the table on: the hands that end then get no
    par (the pars' process takes one at a time, and those would hold up the pars of the
    tables people are at); someone back, the pars come again."""
    r = await http.post("/api/tables", json={"preset": "merrimack-valley", "name": "Gone",
                                             "turn_seconds": 30, "level": "basic"})
    made = r.json()
    table = made["table"]
    await http.post(f"/api/tables/{table}/start", json={"token": made["token"]})
    me = SeatClient(server.ws, table, made["token"]).start()
    await me.wait_for(lambda c: c.view is not None)
    await me.stop()  # half a second later a computer has the seat, and plays on alone

    async def hands_ended() -> int:
        return len((await http.get(f"/api/tables/{table}/record")).json()["hands"])

    end = asyncio.get_running_loop().time() + 60
    while await hands_ended() < 3:  # three hands ended with nobody there
        assert asyncio.get_running_loop().time() < end, "the computers did not play on"
        await asyncio.sleep(0.2)
    back = SeatClient(server.ws, table, made["token"]).start()
    try:
        await back.wait_for(lambda c: c.view is not None)
        snap = next(f for f in back.frames if f["type"] == "snapshot")
        # (hands 0 to 2 have ended: the table is at hand 3, or still reviewing hand 2)
        assert snap["view"]["hand_index"] >= 2 and snap["par"] == {}
        await expect(back, lambda c: bool(events(c, "par")), "the par again", timeout=60)
        assert events(back, "par")[0]["event"]["hand"] >= 2
    finally:
        await back.stop()


async def test_reconnecting_gets_exactly_the_missed_events(http: httpx.AsyncClient,
                                                           server: ServerProcess) -> None:
    table, tokens = await private_table(http, "merrimack-valley")
    players = [SeatClient(server.ws, table, tokens[s]).autoplay(basic_player).start()
               for s in (0, 2, 3)]
    late = SeatClient(server.ws, table, tokens[1]).autoplay(basic_player).start()
    try:
        await late.wait_for(lambda c: c.seq > 10)
        await late.drop()  # the phone sleeps; it comes back by itself
        await expect(late, lambda c: c.connections == 2, "the client back by itself")
        await expect(late, lambda c: c.seq > 60, "sixty events", timeout=60)
        assert [f["type"] for f in late.frames].count("snapshot") == 1
        assert late.gaps == 0
        numbers = [f["seq"] for f in late.frames if f["type"] != "snapshot" and "seq" in f]
        assert numbers == sorted(set(numbers))
    finally:
        await stop_all([*players, late])


async def test_a_restarted_server_gives_each_seat_what_it_had(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = tmp_path_factory.mktemp("restart")
    srv = ServerProcess(folder).start()
    async with httpx.AsyncClient(base_url=srv.http, timeout=30) as http:
        table, tokens = await private_table(http, "auction-45")
    clients = [SeatClient(srv.ws, table, tokens[s]).autoplay(basic_player).start()
               for s in sorted(tokens)]
    await clients[0].wait_for(lambda c: c.seq > 30)
    for c in clients:
        c.chooser = None  # nobody plays on
    for c in clients:
        await pinged(c)  # the last action (or "ready") each seat sent is answered

    def dealing(c: SeatClient) -> bool:
        """Everyone said "ready" to the hand in review: the next deal comes by itself."""
        v = c.view or {}
        return v.get("phase") == "hand-over" and not v.get("over") and \
            all(v.get("hand_index") in other.ready_sent for other in clients)

    await expect(clients[0], lambda c: not dealing(c), "the deal after everyone was ready")
    await stop_all(clients)
    before = {}
    for s in sorted(tokens):
        c = SeatClient(srv.ws, table, tokens[s]).start()
        await c.wait_for(lambda c: c.view is not None)
        before[s] = (c.seq, c.view, c.pad)
        await c.stop()
    srv.stop()
    srv = ServerProcess(folder, db=srv.db).start()
    try:
        for s in sorted(tokens):
            c = SeatClient(srv.ws, table, tokens[s]).start()
            await c.wait_for(lambda c: c.view is not None)
            assert (c.seq, c.view, c.pad) == before[s]
            await c.stop()
    finally:
        srv.stop()
