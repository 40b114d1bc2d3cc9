"""The tables in play in this process (``LiveTables``) and the websockets at them
(``Conn``): each table loaded once from the store and changed under its own lock; every
change is committed to the database before it is applied here, told to every connection
at the table (one frame built per seat) and announced to the other processes.

The database's version of a table is the authority: a commit that finds the table moved
by another process first takes that process's events, and is refused as stale unless it
does not depend on them (``Table.still_wanted``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..rules import rules_from_json
from ..state import DealKey
from ..table import CLOSED_WORDS, GAME_EVENTS, Event, Settings, Table, TableError
from . import metrics
from .limits import Bucket, Limits
from .store import Conflict, Store

if TYPE_CHECKING:
    from .bus import Bus
    from .owners import Owners

log = logging.getLogger("forties.web")
HOST = 0  # the seat of the table's host (who made it)
RETRIES = 5  # tries of a chat line or a "ready" that another process's event got before

OnOver = Callable[[str, dict[str, Any]], Awaitable[None]]
QUEUE_MAX = 512  # frames waiting for a slow connection before it is dropped

# Frames are written compactly, and without the check for circular data (a frame is built
# of plain data, fresh for each event): every frame of every event goes through here.
encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


@dataclass(eq=False)
class Conn:
    """One websocket at a table: a seat (None: a spectator) and its outgoing frames."""

    seat: int | None
    bucket: Bucket
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    live: Live | None = None
    closed: bool = False
    token: str | None = None  # the seat's key, as its link gave it (a rematch keeps it)
    close_code: int = 1000  # the websocket's, once closed (1012: reconnect, we restart)
    address: str = ""  # the client's address (its chat and hints are limited by it)
    pace: str | None = None  # the pace this page follows the table at (``web.pace``)
    # the account its cookie signs in (``web.regulars``, at the connect), the table it is
    # at, the accounts it blocks and the seats of this table they hold: their chat lines
    # reach this connection without their words (``muted``)
    account: str | None = None
    table_id: str | None = None
    deaf_to: frozenset[str] = frozenset()
    deaf_seats: frozenset[int] = frozenset()

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= QUEUE_MAX:  # too slow: drop it; it reconnects and catches up
            self.close()
            return
        self.queue.put_nowait(text)

    def send_json(self, obj: Mapping[str, Any]) -> None:
        self.send(encode(obj))

    def error(self, code: str, message: str, refusal: str | None = None,
              params: dict[str, Any] | None = None) -> None:
        """A refusal, to this connection only: ``message`` in English; ``refusal`` and
        ``params``, where the engine's reason has a code, for the page's own words."""
        metrics.refused(code)
        out: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if refusal:
            out["refusal"] = refusal
            out["params"] = params or {}
        self.send_json(out)

    def deaf(self, live: Live, seat: Any) -> bool:
        """Whether this connection's account blocks the account at ``seat`` (a chat line's):
        the seat is one of theirs here (``deaf_seats``), or a connection of theirs sits
        there now."""
        if not self.deaf_to or seat is None:
            return False
        return seat in self.deaf_seats or any(
            c.seat == seat and c.account in self.deaf_to for c in live.conns)

    def close(self, code: int = 1000) -> None:
        """Closed after the frames already queued, with the websocket's close ``code``."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.queue.put_nowait(None)


@dataclass(eq=False)
class Live:
    """A table in play in this process."""

    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Conn] = field(default_factory=set)
    task: asyncio.Task[None] | None = None  # the computer's turn or the review's end
    turn_timer: asyncio.TimerHandle | None = None
    grace: dict[int, asyncio.TimerHandle] = field(default_factory=dict)
    rematch: str | None = None  # the table made as this one's rematch
    on_over: OnOver | None = None
    told_over: bool = False
    par_asked: set[int] = field(default_factory=set)
    par_lost: dict[int, int] = field(default_factory=dict)  # a hand: its pars lost so far
    # several processes: the last events came from another one, which plays the computer
    # turns; this one waits longer before playing them itself (if that process died)
    standby: bool = False
    catching_up: bool = False
    again: bool = False
    # presence: the seats with a connection here, and on the other processes (Redis)
    here: set[int] = field(default_factory=set)
    remote: set[int] = field(default_factory=set)
    # each seat's open websockets here (``Service.open_seat``), and whether a hint is
    # being worked out for the table (one at a time: one table cannot fill the pool)
    seat_conns: dict[int, int] = field(default_factory=dict)
    hinting: bool = False
    par_running: bool = False  # a par of this table's is in the pars' process
    # when something last happened at the table here (an event, a connection gone), on
    # the monotonic clock: a table nobody is at leaves memory after a while (the sweep)
    touched: float = field(default_factory=lambda: time.monotonic())
    # several processes: until when (monotonic) another process has said it holds
    # connections to this table, which this one runs: its commits are announced till then
    watched_until: float = 0.0

    def idle_for(self, now: float) -> float | None:
        """How long the table has waited on nobody (None: it is not idle: someone is at
        it, here or on another process, or it waits on a computer, a review or a timer)."""
        if self.conns or self.remote or (self.task is not None and not self.task.done()):
            return None
        if self.grace:
            return None
        timer = self.turn_timer
        if timer is not None and not timer.cancelled() and \
                timer.when() > asyncio.get_running_loop().time():
            return None
        return now - self.touched

    def stop_waiting(self) -> None:
        """Cancel everything the table waits for: the computer's turn or the review's end,
        the turn timer, the seats' grace periods."""
        if self.task is not None:
            self.task.cancel()
        if self.turn_timer is not None:
            self.turn_timer.cancel()
        for h in self.grace.values():
            h.cancel()
        self.grace.clear()


class LiveTables:
    """Every table in play in this process over one store, and the background work done
    for them (``spawn``: logged if it fails, cancelled when the server stops)."""

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.limits = limits
        self.tables: dict[str, Live] = {}
        self.bus: Bus | None = None  # several processes: Redis tells each of the others' moves
        # several processes: which tables this one runs (``forties.web.owners``)
        self.owners: Owners | None = None
        self.closing = False
        self.tasks: set[asyncio.Task[Any]] = set()
        # what a table loaded here does first (``Presence.look``: who sits at it on the
        # other processes), set where the service is wired
        self.on_load: Callable[[Live], Awaitable[None]] | None = None
        self._loading = asyncio.Lock()

    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background work failed", exc_info=task.exception())

    def runs(self, live: Live) -> bool:
        """Whether this process runs the table (plays its computers, keeps its timers):
        always on its own, and with several processes where it holds the table's lease."""
        return self.owners is None or self.owners.runs(live.table.id)

    async def adopt(self, live: Live) -> None:
        """This process runs the table from now on if no other one does (it has just
        started it, or made it to start at once)."""
        if self.owners is not None and not self.owners.runs(live.table.id):
            await self.owners.claim(live.table.id)

    # ----- loading ------------------------------------------------------------------

    async def live(self, table_id: str) -> Live | None:
        """The table ``table_id`` in play here (loaded from the store if need be). A table
        that another process runs and that has no connection here is brought up to date
        from the database first: its owner announces its moves only to the processes
        that hold connections to it (``announce``)."""
        live = self.tables.get(table_id)
        if live is not None:
            if self.bus is not None and not live.conns and not self.runs(live) and \
                    not self.closing:
                async with live.lock:
                    await self.catch_up(live)
            return live
        async with self._loading:
            live = self.tables.get(table_id)
            if live is None:
                table = await self._load(table_id)
                if table is None:
                    return None
                live = self.tables[table_id] = Live(table)
                fresh = True
            else:
                fresh = False
        if fresh and self.bus is not None and self.on_load is not None:
            await self.on_load(live)
        return live

    def forget(self, live: Live) -> None:
        """The table leaves this process's memory (it stays in the database)."""
        if self.tables.get(live.table.id) is live:
            del self.tables[live.table.id]
        live.stop_waiting()
        for c in list(live.conns):
            c.close()

    async def _load(self, table_id: str) -> Table | None:
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
            return None
        got = await self.store.load(table_id)
        if got is None:
            return None
        row, events = got
        if row["status"] == "expired":
            return None
        # a table made before deal keys deals on from its seed, as it always has
        key = row.get("deal_key")
        seed = int(row["seed"]) if key is None else DealKey.from_hex(key)
        board = row.get("board")  # a duplicate board's table deals that board again
        table = Table(row["id"], rules_from_json(json.loads(row["rules"])), seed,
                      Settings.from_json(json.loads(row["settings"])),
                      int(row["first_dealer"] or 0),
                      board=None if board is None else json.loads(board))
        self.pace(table)
        for e in events:  # (stored as the table made them: the database knows no table)
            table.apply(cast(Event, e))
        return table

    def pace(self, table: Table) -> None:
        """The server's own pace (``Limits``), where it has one, over the table's."""
        lim = self.limits
        for name in ("bot_delay", "review_seconds", "grace_seconds"):
            v = getattr(lim, name)
            if v is not None:
                setattr(table.settings, name, float(v))

    # ----- committing ---------------------------------------------------------------

    async def commit(self, live: Live, events: list[Event]) -> None:
        """Store ``events`` (under ``live.lock``), then apply them and tell everyone. A
        table the operator closed (``forties admin close``) takes nothing more."""
        t = live.table
        hand = t.state.hand_index
        for attempt in range(RETRIES):
            if t.closed:
                raise TableError("closed", CLOSED_WORDS)
            new_version = t.version + sum(e["kind"] in GAME_EVENTS for e in events)
            began = time.perf_counter()
            try:
                await self.store.append(t.id, t.seq, t.version, events, new_version,
                                        t.stored_status(events))
                metrics.COMMIT_SECONDS.observe(time.perf_counter() - began)
                break
            except Conflict:
                await self.catch_up(live)  # another process moved the table first
                if t.closed:
                    raise TableError("closed", CLOSED_WORDS) from None
                if attempt + 1 == RETRIES or not t.still_wanted(hand, events):
                    raise TableError("stale", "the game has moved on since: that was not "
                                              "done") from None
        for e in events:
            t.apply(e)
            t.turn_clock(time.time())
            self.broadcast(live, e)
            if e["kind"] == "act":
                metrics.ACTIONS.inc()
        live.touched = time.monotonic()
        live.standby = False
        self.announce(live)

    async def catch_up(self, live: Live) -> int:
        """The events committed since this process's last (under ``live.lock``): applied
        and told to this process's connections, in order. How many there were."""
        t = live.table
        events = [cast(Event, e) for e in await self.store.events_after(t.id, t.seq)]
        for e in events:
            t.apply(e)
            t.turn_clock(time.time())
            self.broadcast(live, e)
        if events:
            live.touched = time.monotonic()
        return len(events)

    def broadcast(self, live: Live, event: Event) -> None:
        """Tell every connection of ``event``: one frame built per seat, sent as is. A chat
        line reaches a connection whose account blocks the speaker's (``Conn.deaf``)
        without its words: only its number, so that the page knows it missed nothing."""
        t = live.table
        texts: dict[int | None, str] = {}
        now = time.time()
        chat = event["kind"] == "chat"
        for c in live.conns:
            if chat and c.deaf(live, event.get("seat")):
                c.send(encode(muted_line(t.seq)))
                continue
            text = texts.get(c.seat)
            if text is None:
                text = texts[c.seat] = encode(t.event_frame(c.seat, event,
                                                            host=c.seat == HOST, now=now))
            c.send(text)

    def announce(self, live: Live, always: bool = False) -> None:
        """Tell the other processes that the table moved (its events are committed): those
        that hold connections to it hear its moves from here. A table this process runs
        whose every connection is here (no seat present on another process, and no
        other process has said it watches: ``watched_until``) is announced to nobody, each
        of its moves costing Redis and the other processes nothing; ``always``: announced
        anyway."""
        if self.bus is None or self.closing:
            return
        if not always and self.owners is not None and self.owners.runs(live.table.id) and \
                not live.remote and live.watched_until <= time.monotonic():
            return
        self.spawn(self.bus.publish(live.table.id, live.table.seq))


def muted_line(seq: int) -> dict[str, Any]:
    """A chat line as a connection that does not hear its speaker gets it: its number."""
    return {"type": "chat", "seq": seq}


__all__ = ["HOST", "QUEUE_MAX", "Conn", "Live", "LiveTables", "OnOver", "encode",
           "muted_line"]
