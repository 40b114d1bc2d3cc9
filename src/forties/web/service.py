"""The web service: the tables in play in this process over one store, in rooms of their
own, wired together here.

- ``live``: the tables in play (one lock each) and the websockets at them; every change
  committed to the database, then applied, told to every connection and announced to
  the other processes;
- ``messages``: what a connection's message asks, and what answers it;
- ``turns``: the computers' turns, the turn timers, the reviews' ends and the pars;
- ``presence``: who is at each table, here and on the other processes;
- ``seating``: new tables, guests taking seats, the host's seating and start;
- ``rematch``: the next table with the same seats;
- ``catchup``: the moves and notes of the other processes (PostgreSQL and Redis);
- ``owners``: which process runs each table (a lease in Redis), and ``relay``: a
  websocket that reaches another process handed over to that one;
- ``pools``: the computers', hints' and pars' worker processes;
- ``limits``: what a client may do, and how fast the tables go.

The ``Service`` itself starts and stops them, forgets finished and idle tables (they stay
in the database), watches the database for its tables changed from outside (``forties
admin``), and is what the routes (``forties.web.app``, the hall's and the pad's) ask.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

from ..table import CLOSED, OVER, PLAYING
from . import account_admin, heap
from .catchup import CatchUp
from .http import Refused
from .limits import Bucket, Limits, RateLimited, Rates
from .live import Conn, Live, LiveTables, OnOver
from .messages import Messages
from .pools import ParPool, Pools
from .presence import Presence
from .rematch import Rematches
from .seating import Seating
from .store import Store
from .turns import Turns

if TYPE_CHECKING:
    from .bus import Bus
    from .owners import Owners

log = logging.getLogger("forties.web")
# what a new table asked of a server that is stopping is answered (``forties.web.drain``)
RESTARTING = "the server is restarting: try again in a moment"


class Service:
    """Every live table of this process over one store."""

    def __init__(self, store: Store, limits: Limits | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.live_tables = LiveTables(store, self.limits)
        self.pools = Pools(int(self.limits.workers), int(self.limits.par_nice))
        self.rates = Rates(self.limits)
        self.replaying = 0  # replays worked out or waiting now (``app.replay``)
        self.turns = Turns(self.live_tables, self.pools)
        self.presence = Presence(self.live_tables, self.turns)
        self.live_tables.on_load = self.presence.look
        self.seating = Seating(self.live_tables, self.turns)
        self.rematches = Rematches(self.live_tables, self.seating)
        self.catch_up = CatchUp(self.live_tables, self.turns, self.presence, self.rematches)
        self.messages = Messages(self.live_tables, self.turns, self.presence,
                                 self.rematches, self.catch_up, self.pools, self.rates)
        self._sweeper: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._beat: asyncio.Task[None] | None = None
        self._leases: asyncio.Task[None] | None = None
        self.draining = False  # told to stop: no new tables (``forties.web.drain``)

    @property
    def bus(self) -> Bus | None:
        """Several processes: Redis, which tells each of the others' moves."""
        return self.live_tables.bus

    @bus.setter
    def bus(self, bus: Bus | None) -> None:
        self.live_tables.bus = bus

    @property
    def owners(self) -> Owners | None:
        """Several processes: the tables this one runs (``forties.web.owners``)."""
        return self.live_tables.owners

    @owners.setter
    def owners(self, owners: Owners | None) -> None:
        self.live_tables.owners = owners

    @property
    def closing(self) -> bool:
        return self.live_tables.closing

    @property
    def tables(self) -> dict[str, Live]:
        return self.live_tables.tables

    @property
    def par_pool(self) -> ParPool:
        return self.pools.pars

    @property
    def pool(self) -> Executor:
        return self.pools.computers

    # ----- life ---------------------------------------------------------------------

    async def start(self) -> None:
        """Bring back every table that was playing (computer turns go on), start the
        sweep of unfilled tables."""
        if self.bus is not None:
            await self.bus.start(self.catch_up.moved_elsewhere, self.catch_up.noted)
            self._beat = asyncio.create_task(self.presence.beating())
        if self.owners is not None:
            self._leases = asyncio.create_task(self._renewing(self.owners))
        for table_id in await self.store.ids_with_status(PLAYING):
            if self.owners is not None and not await self._ours(self.owners, table_id):
                continue  # another process runs it
            try:
                live = await self.live(table_id)
            except Exception:  # one unreadable table must not keep the others down
                log.exception("table %s could not be brought back", table_id)
                continue
            if live is not None:
                # the others may be playing it (unless this process holds its lease)
                live.standby = self.bus is not None and self.owners is None
                self.turns.after(live)
        self._sweeper = asyncio.create_task(self._sweep())
        self._watcher = asyncio.create_task(self._watch())

    async def _ours(self, owners: Owners, table_id: str) -> bool:
        """Whether this process runs the table now: its lease was free, or its owner's
        door is shut (that process died) and the lease is taken over."""
        from .owners import door_shut

        owner = await owners.claim(table_id)
        if owner is None:
            return True
        return await door_shut(owner, owners.machine) and \
            await owners.take_over(table_id, owner)

    async def _renewing(self, owners: Owners) -> None:
        """Every BEAT: renew the leases of the tables run here; a table whose lease
        another process took (this one stalled) is forgotten here, and its connections
        closed, to come back through that process."""
        from .owners import BEAT, LEASE_SECONDS

        beats = 0
        while True:
            await asyncio.sleep(BEAT)
            beats += 1
            if beats % round(LEASE_SECONDS / BEAT) == 0:
                try:
                    await self._adopt_orphans(owners)
                except Exception:
                    log.exception("the tables nobody runs could not be looked for")
            try:
                for table_id in await owners.renew(set(self.tables)):
                    live = self.tables.get(table_id)
                    if live is not None:
                        self.live_tables.forget(live)
                # connections served here to a table run by a process that is gone (one
                # on another machine, which could not be handed over): run it here now
                for live in list(self.tables.values()):
                    if live.conns and not owners.runs(live.table.id) and \
                            await owners.claim(live.table.id) is None:
                        self.turns.after(live)
            except Exception:
                log.exception("the tables' leases could not be renewed")

    async def _adopt_orphans(self, owners: Owners) -> None:
        """Run here the tables in play that no process holds a lease on (their owner
        died and nobody came back to them), if no other process is first."""
        playing = [t for t in await self.store.ids_with_status(PLAYING)
                   if not owners.runs(t)]
        for table_id in await owners.unowned(playing):
            if self.closing or await owners.claim(table_id) is not None:
                continue
            live = await self.live(table_id)
            if live is not None:
                await self.catch_up.refresh(live, wake=True)

    async def close(self) -> None:
        self.live_tables.closing = True
        for task in (self._sweeper, self._watcher):
            if task is not None:
                task.cancel()
        if self._beat is not None:
            self._beat.cancel()
        if self._leases is not None:
            self._leases.cancel()
        if self.owners is not None:  # the next connection is served elsewhere at once
            with contextlib.suppress(Exception):
                await self.owners.release_all()
        if self.bus is not None:
            with contextlib.suppress(Exception):
                await self.presence.gone()
        for live in list(self.tables.values()):
            self.turns.stop(live)
            for c in list(live.conns):
                c.close()
        for t in list(self.live_tables.tasks):
            t.cancel()
        self.pools.close()
        if self.bus is not None:
            await self.bus.close()

    async def _sweep(self) -> None:
        """Expire tables nobody filled, and forget idle tables no one is watching."""
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep failed")

    async def sweep(self) -> list[str]:
        """Expire the tables nobody filled; forget the tables here that are over (or
        closed) with nobody at them, and those that waited on nobody for
        ``idle_minutes``: they stay in the database, and a page or a link that opens one
        again loads it. The limits' per-address records that ran out go too, and the
        memory the C allocator keeps free goes back to the system (``heap``). The
        accounts' expired sessions, challenges and invitations are forgotten
        (``account_admin.prune``: one DELETE each, as any other process may at once)."""
        gone = await self.store.expire(time.time() - 60 * self.limits.expire_minutes)
        for table_id in gone:
            live = self.tables.pop(table_id, None)
            if live is not None:
                self.turns.stop(live)
                for c in list(live.conns):
                    c.close()
        now = time.monotonic()
        idle = 60 * self.limits.idle_minutes
        for table_id, live in list(self.tables.items()):
            waited = live.idle_for(now)
            if waited is None:
                continue
            if live.table.status in (OVER, CLOSED) or waited >= idle:
                self.turns.stop(live)
                del self.tables[table_id]
        self.rates.prune()
        await self.store.run(account_admin.prune)
        heap.give_back()
        if self.owners is not None:  # the leases of the tables forgotten go
            for table_id in [t for t in self.owners.mine if t not in self.tables]:
                await self.owners.release(table_id)
        return gone

    async def _watch(self) -> None:
        """Every ``watch_seconds``: ``watch``."""
        while True:
            await asyncio.sleep(self.limits.watch_seconds)
            try:
                await self.watch()
            except Exception:
                log.exception("the tables could not be compared with the database")

    async def watch(self) -> int:
        """Bring up to date the tables in play here that the database has further on
        than this process: the operator's ``forties admin close`` and ``silence`` (or
        another process's moves that Redis did not tell), told to their connections.
        How many there were."""
        if not self.tables:
            return 0
        stored = await self.store.seqs(list(self.tables))
        moved = 0
        for table_id, seq in stored.items():
            live = self.tables.get(table_id)
            if live is None or live.table.seq >= seq or self.closing:
                continue
            moved += 1
            if self.bus is not None:
                await self.catch_up.moved_elsewhere(table_id, seq)
            else:  # (its own commit under way finds nothing new, and does nothing)
                self.live_tables.spawn(self.catch_up.refresh(live))
        return moved

    # ----- what the routes ask ------------------------------------------------------

    async def live(self, table_id: str) -> Live | None:
        """The table ``table_id`` in play here (loaded from the store if need be)."""
        return await self.live_tables.live(table_id)

    async def allow_create(self, client: str) -> bool:
        """Table creation is limited per client address (tables_per_minute) and in total
        (``Rates``): whether one more may be made now (it is counted)."""
        try:
            await self.rates.take("tables", client)
        except RateLimited:
            return False
        return True

    async def create_table(self, preset: str, options: dict[str, Any] | None = None,
                           seats: list[dict[str, Any]] | None = None, public: bool = False,
                           start: bool = True, dealer: int | None = None,
                           on_over: OnOver | None = None,
                           settings: dict[str, Any] | None = None,
                           board: dict[str, Any] | None = None) -> dict[str, Any]:
        """A new table (``Seating.create_table``; ``board``: a duplicate board's, which
        deals that board and ends with it); none while the server drains."""
        if self.draining:
            raise Refused(RESTARTING, 503, "restarting")
        return await self.seating.create_table(preset, options, seats, public, start,
                                               dealer, on_over, settings, board=board)

    async def table_summary(self, table_id: str) -> dict[str, Any] | None:
        """{"status", "scores", "winner", ...} of a table (None: no such table); a board
        table's "board", and once it is over "record", "ns" and "ew"
        (``Table.board_result``)."""
        return await self.seating.table_summary(table_id)

    async def join(self, table_id: str, invite: Any, name: Any,
                   seat: Any = None) -> dict[str, Any]:
        """A guest takes a seat (``Seating.join``): {"token", "seat"}."""
        return await self.seating.join(table_id, invite, name, seat)

    async def host_seat(self, table_id: str, token: Any, seat: Any, level: Any) -> None:
        """The host puts a computer player in ``seat`` (``level``) or takes it out (None)."""
        await self.seating.host_seat(table_id, token, seat, level)

    async def host_start(self, table_id: str, token: Any) -> None:
        await self.seating.host_start(table_id, token)

    async def seat_of(self, table_id: str, token: str) -> int | None:
        """The seat whose key ``token`` is (None: no seat of this table)."""
        return await self.seating.seat_of(table_id, token)

    # ----- connections --------------------------------------------------------------

    def connect(self, seat: int | None, token: str | None = None,
                address: str = "") -> Conn:
        return Conn(seat, Bucket(self.limits.messages_per_second, self.limits.message_burst),
                    token=token if seat is not None else None, address=address)

    def open_seat(self, live: Live, seat: int | None) -> bool:
        """One more connection for ``seat`` at ``live``'s table if it has fewer than
        ``seat_connections`` here (True; ``close_seat`` when it is gone), else False: the
        newest is refused, so that a copied link cannot push out the page in play (a page
        whose connection died unseen is dropped by the websocket's own pings)."""
        if seat is None:
            return True
        now = live.seat_conns.get(seat, 0)
        if now >= self.limits.seat_connections:
            return False
        live.seat_conns[seat] = now + 1
        return True

    def close_seat(self, live: Live, seat: int | None) -> None:
        if seat is None:
            return
        left = live.seat_conns.get(seat, 0) - 1
        if left > 0:
            live.seat_conns[seat] = left
        else:
            live.seat_conns.pop(seat, None)

    async def receive(self, conn: Conn, live: Live, raw: str) -> None:
        """One message from a connection (``Messages.receive``)."""
        await self.messages.receive(conn, live, raw)

    def leave(self, conn: Conn) -> None:
        """A connection is gone: if it was its seat's last (on every process), the seat
        keeps a grace period where the table has turn timers, then a computer plays it
        until its person is back."""
        conn.close()
        live = conn.live
        if live is None:
            return
        live.conns.discard(conn)
        live.touched = time.monotonic()
        self.presence.seen(live)


__all__ = ["RESTARTING", "Conn", "Limits", "Live", "Service"]
