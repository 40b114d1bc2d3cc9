"""Who is at the table and how long a turn has left: a seat that drops or comes back is told
to every other seat and spectator at once (and carries nothing but the seat), and every
event frame carries the turn timer as the server's deadline and the seconds left, so a
client with a wrong clock still counts down right."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import pytest_asyncio

from forties.rules import build_rules
from forties.table import COMPUTER, PERSON, Settings, Table
from tests.client import SeatClient

from .helpers_web import (
    BACKENDS,
    ServerProcess,
    expect,
    private_table,
    serving,
    stop_all,
    web_server,
)

ASYNC = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module", params=BACKENDS)
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server, or two processes over PostgreSQL and Redis (the seats and the
    spectator of a table spread over both: presence is heard across them)."""
    with serving(web_server(request, tmp_path_factory.mktemp("presence"),
                            bot_delay=0.3)) as srv:
        yield srv


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def http(server: ServerProcess) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as client:
        yield client


def presence(c: SeatClient) -> list[dict[str, Any]]:
    return [f for f in c.frames if f["type"] == "presence"]


@ASYNC
async def test_every_other_seat_and_spectator_hears_a_seat_leave_and_come_back(
        http: httpx.AsyncClient, server: ServerProcess) -> None:
    table, tokens = await private_table(http, "merrimack-valley")
    host = SeatClient(server.ws, table, tokens[0]).start()
    watcher = SeatClient(server.ws, table).start()
    guest = SeatClient(server.ws, table, tokens[1])
    try:
        for c in (host, watcher):
            await c.wait_for(lambda c: c.view is not None)
        guest.start()  # the guest comes after them (on two processes, it could be first)
        await guest.wait_for(lambda c: c.view is not None)
        came = {"type": "presence", "seat": 1, "connected": True}
        for c in (host, watcher):
            await c.wait_for(lambda c: came in presence(c), timeout=10)
        await guest.stop()
        gone = {"type": "presence", "seat": 1, "connected": False}
        for c in (host, watcher):
            await c.wait_for(lambda c: gone in presence(c), timeout=10)
        again = SeatClient(server.ws, table, tokens[1]).start()
        try:
            for c in (host, watcher):
                await c.wait_for(lambda c: presence(c).count(came) == 2, timeout=10)
        finally:
            await again.stop()
        # nothing but the seat and whether it is here: no seq (it is not a table event),
        # no name, no card; and a seat is not told of itself
        for c in (host, watcher):
            assert all(set(f) == {"type", "seat", "connected"} for f in presence(c))
        assert {f["seat"] for f in presence(host)} == {1}  # (the watcher may hear the host come)
        assert all(f["seat"] != 1 for f in presence(guest))
    finally:
        await stop_all([host, watcher, guest])


@ASYNC
async def test_event_frames_carry_the_turn_deadline_and_the_seconds_left(
        http: httpx.AsyncClient, server: ServerProcess) -> None:
    before = time.time()
    r = await http.post("/api/tables", json={"preset": "merrimack-valley", "name": "Ann",
                                             "turn_seconds": 60})
    made = r.json()
    await http.post(f"/api/tables/{made['table']}/start", json={"token": made["token"]})
    me = SeatClient(server.ws, made["table"], made["token"]).start()
    try:
        await me.wait_for(lambda c: bool(c.view and c.view["legal"]))
        first = me.frames[-1]
        assert first["view"]["to_act"] == 0
        at, left = first["deadline"], first["left"]
        # the server's clock (this machine's here) as an absolute time, and what is left
        # when the frame was made: the deadline less what was left is the moment the
        # frame was made, after the test began and before it read the frame (an order,
        # where a bound of 5 s on the frame's way here was a window under load; left is
        # rounded to the millisecond)
        assert 0 < left <= 60 and before - 0.001 <= at - left <= time.time() + 0.001
        assert first.get("table", me.table)["deadline"] == at  # type: ignore[index]
        await me.send({"type": "away"})  # a computer's turn: no timer
        await me.wait_for(lambda c: any(f["type"] == "event" and f["event"]["kind"] == "away"
                                        for f in c.frames))
        away = next(f for f in me.frames if f["type"] == "event"
                    and f["event"]["kind"] == "away")
        assert away["deadline"] is None and away["left"] is None
        await me.send({"type": "back"})
        await me.wait_for(lambda c: any(f["type"] == "event" and f["event"]["kind"] == "back"
                                        for f in c.frames))
        acts = [f for f in me.frames if f["type"] == "event" and f["event"]["kind"] == "act"]
        for f in acts:  # a computer's turn has no timer
            if f["view"]["to_act"] not in (0, None):
                assert f["deadline"] is None and f["left"] is None
        back = next(f for f in me.frames if f["type"] == "event"
                    and f["event"]["kind"] == "back")
        if back["view"]["to_act"] == 0:  # the seat taken back on its turn: a new full turn
            assert back["deadline"] > at and 55 < back["left"] <= 60
    finally:
        await me.stop()


def test_a_turn_keeps_its_deadline_until_it_ends() -> None:
    """The table's clock (pure: the time comes from whoever runs it)."""
    t = Table("t", build_rules("merrimack-valley"), 7, Settings(turn_seconds=30), 3)
    for i in range(4):
        t.apply({"kind": "sit", "seat": i, "as": PERSON if i == 0 else COMPUTER,
                 "name": "Ann" if i == 0 else "Computer", "level": "basic"})
    t.turn_clock(100.0)
    assert t.deadline is None and t.timer(100.0) == {"deadline": None, "left": None}
    t.apply({"kind": "start"})
    assert t.state.turn == 0
    t.turn_clock(100.0)
    assert t.timer(110.0) == {"deadline": 130.0, "left": 20.0}
    t.apply({"kind": "chat", "seat": 0, "name": "Ann", "text": "hm"})
    t.turn_clock(120.0)  # the same turn: the same deadline
    assert t.timer(125.0) == {"deadline": 130.0, "left": 5.0}
    assert t.timer(140.0)["left"] == 0.0
    t.apply({"kind": "away", "seat": 0})
    t.turn_clock(121.0)
    assert t.deadline is None
    t.apply({"kind": "back", "seat": 0})
    t.turn_clock(122.0)  # back on the same turn: a full turn again
    assert t.deadline == 152.0
    t.apply({"kind": "act", "seat": 0, "action": str(t.state.legal_actions()[0])})
    t.turn_clock(123.0)  # seat 1 (a computer) to act: no timer
    assert t.state.turn == 1 and t.deadline is None
    frame = t.event_frame(0, {"kind": "act", "seat": 0, "action": "x"}, now=123.0)
    assert frame["deadline"] is None and frame["left"] is None
    untimed = Table("u", build_rules("merrimack-valley"), 7, Settings(), 3)
    untimed.apply({"kind": "sit", "seat": 0, "as": PERSON, "name": "Ann"})
    untimed.apply({"kind": "start"})
    untimed.turn_clock(5.0)
    assert untimed.snapshot(0, now=5.0)["deadline"] is None


def test_a_seat_that_acts_again_gets_a_new_full_turn() -> None:
    """The dealer, stuck with the bid when everyone passes, bids and then names trump:
    two turns of one seat in a row, and the second has its own full deadline (as has a
    person who wins a trick and leads to the next)."""
    t = Table("t", build_rules("merrimack-valley"), 7, Settings(turn_seconds=30), 0)
    for i in range(4):
        t.apply({"kind": "sit", "seat": i, "as": PERSON if i == 0 else COMPUTER,
                 "name": "Ann" if i == 0 else "Computer", "level": "basic"})
    t.apply({"kind": "start"})
    while t.state.turn != 0:
        seat = t.state.turn
        t.apply({"kind": "act", "seat": seat, "action": f"{seat} pass"})
    t.turn_clock(100.0)
    assert t.deadline == 130.0
    bid = str(t.state.legal_actions()[0])
    assert bid == "0 bid 15", bid  # (stuck: the dealer may not pass)
    t.apply({"kind": "act", "seat": 0, "action": bid})
    assert t.state.turn == 0  # the same seat to act again: trump to name
    t.turn_clock(120.0)
    assert t.timer(120.0) == {"deadline": 150.0, "left": 30.0}, \
        "the dealer's second turn kept the first turn's deadline"


def first_legal(view: dict[str, Any]) -> str:
    """Pass where the bidding allows it: the dealer is stuck with the bid, and names trump
    next."""
    return str(view["legal"][0])


@ASYNC
async def test_a_person_who_acts_again_gets_a_new_full_turn_at_a_live_table(
        http: httpx.AsyncClient, server: ServerProcess) -> None:
    """Everyone passes, the dealer (seat 3) bids and names trump: the event frame of the
    bid gives the dealer's next turn a deadline of its own, a full turn from then."""
    table, tokens = await private_table(http, "merrimack-valley", turn_seconds=60)
    seats = [SeatClient(server.ws, table, tokens[s]).start() for s in sorted(tokens)]
    dealer = seats[3]

    def acts() -> list[dict[str, Any]]:
        return [f for f in dealer.frames if f["type"] == "event"
                and f["event"]["kind"] == "act"]

    try:
        for c in seats:  # everyone here before the first pass: each hears every action
            await c.wait_for(lambda c: c.view is not None)
        for c in seats:
            await c.autoplay(first_legal).play_now()
        await expect(dealer, lambda c: len(acts()) >= 5, "five actions (three passes, the "
                     "dealer's bid and trump)", seen=lambda c: [f["event"] for f in acts()])
        passed, bid = acts()[2], acts()[3]
        assert [f["event"]["text"] for f in acts()[:4]] == [
            "0 pass", "1 pass", "2 pass", "3 bid 15"]
        assert passed["view"]["to_act"] == 3 and bid["view"]["to_act"] == 3
        assert passed["deadline"] is not None and bid["deadline"] is not None
        assert bid["deadline"] > passed["deadline"], \
            f"the dealer's second turn kept the first's deadline {passed['deadline']}"
        assert 55 < bid["left"] <= 60, bid["left"]
    finally:
        await stop_all(seats)
