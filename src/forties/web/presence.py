"""Who is at each table: the seats with a connection in this process and, with several
processes, on the others (Redis, renewed every beat). A person's seat that loses its last
connection keeps a grace period where the table has turn timers, then a computer plays it
until the person is back; every other connection hears at once that the seat came or
went.
"""

from __future__ import annotations

import asyncio
import logging

from ..table import CLOSED, OVER, PERSON
from .live import Live, LiveTables, encode
from .turns import Turns

log = logging.getLogger("forties.web")


class Presence:
    """The seats' presence at the tables in play here."""

    def __init__(self, tables: LiveTables, turns: Turns) -> None:
        self.tables = tables
        self.turns = turns
        self.here_lock = asyncio.Lock()  # one write to Redis at a time

    def seen(self, live: Live) -> None:
        """This process's connections to ``live`` changed: its seats' presence is
        updated, and written to Redis for the other processes; where another process runs
        the table, that one is told that this one watches it (``watching``)."""
        self.watching(live)
        mine = {c.seat for c in live.conns if c.seat is not None}
        if mine != live.here:
            if self.tables.bus is not None and not self.tables.closing:
                gone = live.here - mine
                tid = live.table.id
                self.tables.spawn(self._write_here({tid: mine} if mine else {},
                                                   {tid: gone} if gone else {}))
            live.here = mine
        self._update(live)

    def watching(self, live: Live) -> None:
        """A table with connections here that another process runs: that process is told
        (a note ``{"w": 1}``, again every beat while they stay) to announce its moves,
        which it announces to nobody while every connection is its own."""
        bus = self.tables.bus
        if bus is not None and live.conns and not self.tables.runs(live) and \
                not self.tables.closing:
            self.tables.spawn(bus.note(live.table.id, {"w": 1}))

    async def _write_here(self, tables: dict[str, set[int]], gone: dict[str, set[int]],
                          tell: bool = True) -> None:
        assert self.tables.bus is not None
        async with self.here_lock:  # one write at a time: a seat's come and go in order
            await self.tables.bus.here(tables, gone, tell)

    async def gone(self) -> None:
        """The server stops: its seats are gone from Redis at once, not in seconds."""
        assert self.tables.bus is not None
        gone = {tid: live.here for tid, live in self.tables.tables.items() if live.here}
        async with self.here_lock:
            await self.tables.bus.here({}, gone)

    def _update(self, live: Live) -> None:
        """Set each seat's ``connected`` from this process's connections and the others';
        a person's seat that lost its last connection starts its grace period (turn
        timers only), one that is back ends it."""
        t = live.table
        present = live.here | live.remote
        for i, s in enumerate(t.seats):
            now = i in present
            if s.connected == now:
                continue
            s.connected = now
            old = live.grace.pop(i, None)
            if old is not None:
                old.cancel()
            if not now and t.settings.turn_seconds and s.kind == PERSON and \
                    not self.tables.closing:
                live.grace[i] = asyncio.get_running_loop().call_later(
                    t.settings.grace_seconds, self._grace_over, live, i)
            self.changed(live, i, now)

    def changed(self, live: Live, seat: int, connected: bool) -> None:
        """A seat's person came (``connected``) or went, on whichever process: the one
        place that tells the table of it. Every other seat and spectator here gets
        ``{"type": "presence", "seat", "connected"}`` at once (no game data, no number:
        it is not an event of the table)."""
        if live.table.seats[seat].kind != PERSON or self.tables.closing:
            return
        text = encode({"type": "presence", "seat": seat, "connected": connected})
        for c in live.conns:
            if c.seat != seat:
                c.send(text)

    def rearm(self, live: Live) -> None:
        """The table is run here from now on (taken over): each person's seat with no
        connection anywhere and no grace period under way starts one (a grace period
        that ended while another process ran the table did nothing here)."""
        t = live.table
        if not t.settings.turn_seconds or self.tables.closing or not self.tables.runs(live):
            return
        for i, s in enumerate(t.seats):
            if s.kind == PERSON and not s.connected and not s.away and i not in live.grace:
                live.grace[i] = asyncio.get_running_loop().call_later(
                    t.settings.grace_seconds, self._grace_over, live, i)

    def _grace_over(self, live: Live, seat: int) -> None:
        live.grace.pop(seat, None)
        if not live.table.seats[seat].connected and self.tables.runs(live):
            self.tables.spawn(self.turns.away(live, seat, None))

    async def look(self, live: Live) -> None:
        """Read the table's presence on the other processes from Redis."""
        assert self.tables.bus is not None
        got = await self.tables.bus.present([live.table.id])
        if got is not None:
            live.remote = got.get(live.table.id, set())
            self._update(live)

    async def beating(self) -> None:
        """Every BEAT: renew this process's seats in Redis, and read the others' (a
        process that died has its seats lapse)."""
        from .bus import BEAT

        while True:
            await asyncio.sleep(BEAT)
            try:
                await self.beat()
            except Exception:
                log.exception("presence could not be renewed")

    async def beat(self) -> None:
        bus = self.tables.bus
        assert bus is not None
        tables = self.tables.tables
        mine = {tid: set(live.here) for tid, live in tables.items() if live.here}
        await self._write_here(mine, {}, tell=False)
        for held in list(tables.values()):
            self.watching(held)
        watched = [tid for tid, live in tables.items()
                   if live.table.status not in (OVER, CLOSED) or live.conns]
        got = await bus.present(watched)
        for tid, seats in (got or {}).items():
            live = tables.get(tid)
            if live is not None and live.remote != seats:
                live.remote = seats
                self._update(live)


__all__ = ["Presence"]
