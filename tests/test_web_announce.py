"""Several processes: who hears of a table's moves. The process that runs a table (its
lease's owner) announces a move on Redis only where another process needs it: one that
holds connections to the table (a seat present there, or its note that it watches), or
when the move was not the owner's to make. Every other move costs Redis and the other
processes nothing. A copy of a table loaded for a page or the API on a process that does
not run it is brought up to date from the database when asked for, since nobody announces
the owner's moves to it.

In one process, with stand-ins for Redis, the leases and the database (the whole path
over two real processes is tests/test_affinity.py's)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from forties import build_rules
from forties.table import PERSON, Event, Settings, Table
from forties.web.catchup import CatchUp
from forties.web.limits import Limits
from forties.web.live import Conn, Live, LiveTables
from forties.web.presence import Presence
from forties.web.turns import Turns

pytestmark = pytest.mark.asyncio


class Bus:
    """What a process says on Redis."""

    def __init__(self) -> None:
        self.published: list[tuple[str, int]] = []
        self.notes: list[tuple[str, dict[str, Any]]] = []

    async def publish(self, table_id: str, seq: int) -> None:
        self.published.append((table_id, seq))

    async def note(self, table_id: str, fields: dict[str, Any]) -> None:
        self.notes.append((table_id, fields))

    async def here(self, *args: Any, **kwargs: Any) -> None:
        pass

    async def present(self, table_ids: list[str]) -> dict[str, set[int]]:
        return {t: set() for t in table_ids}


class Owners:
    def __init__(self, *mine: str) -> None:
        self.mine = set(mine)

    def runs(self, table_id: str) -> bool:
        return table_id in self.mine


class Store:
    """The database: commits taken, and the events stored after a number."""

    def __init__(self) -> None:
        self.later: list[Event] = []  # the events after number ``base``
        self.base = 0
        self.asked = 0

    async def append(self, *args: Any) -> None:
        pass

    async def events_after(self, table_id: str, seq: int) -> list[Event]:
        self.asked += 1
        return [e for i, e in enumerate(self.later) if seq < self.base + i + 1]


def _table() -> Table:
    t = Table("t1", build_rules("merrimack-valley"), 7, Settings())
    for i in range(t.n):
        t.apply({"kind": "sit", "seat": i, "as": PERSON, "name": f"P{i}"})
    t.apply({"kind": "start"})
    return t


def _process(*mine: str, store: Store | None = None) -> tuple[LiveTables, Bus, Live]:
    tables = LiveTables(store=store or Store(), limits=Limits())  # type: ignore[arg-type]
    bus = Bus()
    tables.bus = bus  # type: ignore[assignment]
    tables.owners = Owners(*mine)  # type: ignore[assignment]
    live = tables.tables["t1"] = Live(_table())
    return tables, bus, live


async def _settled(tables: LiveTables) -> None:
    while tables.tasks:
        await asyncio.gather(*tables.tasks)


async def _move(tables: LiveTables, live: Live) -> None:
    """A change committed here (a seat away, then back)."""
    seat = 1
    kind = "back" if live.table.seats[seat].away else "away"
    async with live.lock:
        await tables.commit(live, [{"kind": kind, "seat": seat}])
    await _settled(tables)


async def test_the_owner_announces_no_move_while_every_connection_is_its_own() -> None:
    tables, bus, live = _process("t1")
    await _move(tables, live)
    await _move(tables, live)
    assert bus.published == []
    live.remote = {2}  # seat 2 is connected on another process: it hears every move
    await _move(tables, live)
    assert bus.published == [("t1", live.table.seq)]


async def test_a_process_that_watches_is_told_at_once_and_while_it_says_so() -> None:
    tables, bus, live = _process("t1")
    await _move(tables, live)
    catch_up = CatchUp(tables, Turns(tables, pools=None),  # type: ignore[arg-type]
                       Presence(tables, None), None)  # type: ignore[arg-type]
    await catch_up.noted("t1", {"t": "t1", "w": 1, "o": "other"})
    await _settled(tables)
    assert bus.published == [("t1", live.table.seq)]  # where the table is now
    await _move(tables, live)
    assert bus.published[-1] == ("t1", live.table.seq) and len(bus.published) == 2
    live.watched_until = 0.0  # its note lapsed (it said nothing for PRESENCE_SECONDS)
    await _move(tables, live)
    assert len(bus.published) == 2


async def test_a_move_to_a_table_another_process_runs_is_announced() -> None:
    tables, bus, live = _process()  # (the API's change: a guest's seat, the host's start)
    await _move(tables, live)
    assert bus.published == [("t1", live.table.seq)]


async def test_connections_to_a_table_another_process_runs_are_said_on_redis() -> None:
    tables, bus, live = _process()
    presence = Presence(tables, None)  # type: ignore[arg-type]
    live.conns.add(Conn(seat=None, bucket=None))  # type: ignore[arg-type]  # a spectator
    presence.seen(live)
    await presence.beat()  # and again at every beat
    await _settled(tables)
    assert bus.notes == [("t1", {"w": 1})] * 2
    owner, its_bus, its_live = _process("t1")
    its_live.conns.add(Conn(seat=None, bucket=None))  # type: ignore[arg-type]
    Presence(owner, None).seen(its_live)  # type: ignore[arg-type]
    await _settled(owner)
    assert its_bus.notes == []


async def test_a_copy_another_process_runs_is_brought_up_to_date_when_asked_for() -> None:
    store = Store()
    tables, _, live = _process(store=store)
    ahead = _table()
    ahead.apply({"kind": "away", "seat": 3})  # what the owner committed since
    store.later = [{"kind": "away", "seat": 3}]
    store.base = live.table.seq
    got = await tables.live("t1")
    assert got is live and live.table.seq == ahead.seq and live.table.seats[3].away
    # one that runs here, or has connections here, hears its moves: not asked again
    live.conns.add(Conn(seat=None, bucket=None))  # type: ignore[arg-type]
    await tables.live("t1")
    owner, _, _ = _process("t1", store=store)
    await owner.live("t1")
    assert store.asked == 1
