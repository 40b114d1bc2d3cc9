"""Redis pub/sub between server processes: "table T has moved to event S".

Several ``forties serve`` processes, on one machine or many, share one PostgreSQL database,
which is the authority (each table's version, every event committed before anyone hears of
it). When a process commits events to a table it publishes the table's id and its new
event number here, where another process needs it (``LiveTables.announce``: the table's
owner publishes only while another process holds connections to it); every other process
holding that table reads the new events from the database and tells its own connections,
so a client sees every move of its table at once whichever process it is connected to.
The message carries no game data: nothing a seat may not see goes through Redis, and a
lost message costs only time (a client's hello, or the next message for the table, brings
the process up to date from the database).

Presence (which seats have a connection, on whichever process) is kept in Redis too: one
sorted set a table, ``forties:here:TABLE``, whose members are ``SEAT:PROCESS`` scored with
the moment they lapse (Redis's own clock). A process writes its seats when a seat comes or
goes, and again every ``BEAT`` seconds; a process that dies stops writing, and its seats
lapse within ``PRESENCE_SECONDS``. A note ``{"t": table, "p": 1}`` on the channel tells the
others to read the table's set at once.

Imported only when ``--redis`` is given, so one process on SQLite needs no Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from ..errors import FortiesError

log = logging.getLogger("forties.web")
CHANNEL = "forties:tables"
RETRY_SECONDS = 1.0
COMMAND_SECONDS = 5.0  # the longest a command waits for Redis's answer
HERE = "forties:here:"  # + table id: the seats connected, per process
BEAT = 1.0  # seconds between a process's renewals of its seats' presence
PRESENCE_SECONDS = 4.0  # a seat's presence lapses this long after its last renewal

OnMoved = Callable[[str, int], Awaitable[None]]
OnNote = Callable[[str, dict[str, Any]], Awaitable[None]]


class BusError(FortiesError):
    """Redis cannot be reached (a one-line message)."""


class Bus:
    """One process's link to the others: publish the tables it moved, hear of the rest."""

    def __init__(self, url: str, channel: str = CHANNEL) -> None:
        try:
            import redis.asyncio as aioredis
        except ImportError:
            raise BusError("--redis needs the redis package: pip install -e '.[scale]'") \
                from None
        self.url = url
        self.channel = channel
        self.origin = secrets.token_hex(8)  # this process: its own messages are skipped
        try:
            # commands wait at most COMMAND_SECONDS for Redis (a read never hangs, holding
            # the client's pool); the subscription has a client of its own, which waits
            # for messages as long as there are none
            self.redis: Any = aioredis.Redis.from_url(
                url, health_check_interval=10, socket_connect_timeout=5,
                socket_timeout=COMMAND_SECONDS)
            self.listening: Any = aioredis.Redis.from_url(url, health_check_interval=10,
                                                          socket_connect_timeout=5)
        except ValueError as e:
            raise BusError(f"--redis {url}: {e}") from None
        self._listener: asyncio.Task[None] | None = None
        self._presence_down = False  # said once while Redis does not answer, not every beat
        self.received = 0
        self.published = 0

    async def start(self, on_moved: OnMoved, on_note: OnNote | None = None) -> None:
        """Check that Redis answers, then hear every other process's moves (and its other
        notes about a table: ``on_note``)."""
        try:
            await self.redis.ping()
        except Exception as e:  # redis raises its own kinds and OSError
            raise BusError(f"cannot reach Redis at {self.url}: {_first_line(e)}") from None
        ready = asyncio.Event()
        self._listener = asyncio.create_task(self._listen(on_moved, on_note, ready))
        await ready.wait()

    async def _listen(self, on_moved: OnMoved, on_note: OnNote | None,
                      ready: asyncio.Event) -> None:
        while True:
            pubsub = self.listening.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                ready.set()
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    try:
                        body = json.loads(message["data"])
                        table_id, origin = str(body["t"]), body["o"]
                        seq = int(body["s"]) if "s" in body else None
                    except (ValueError, KeyError, TypeError):
                        log.warning("an unreadable message on %s was skipped", self.channel)
                        continue
                    if origin == self.origin:
                        continue
                    self.received += 1
                    try:
                        if seq is not None:
                            await on_moved(table_id, seq)
                        elif on_note is not None:
                            await on_note(table_id, body)
                    except Exception:
                        log.exception("table %s could not be brought up to date", table_id)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except Exception as e:  # Redis went away: try again, the database is the truth
                log.warning("Redis at %s: %s; trying again", self.url, _first_line(e))
                ready.set()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(RETRY_SECONDS)

    async def publish(self, table_id: str, seq: int) -> None:
        """Tell the other processes that ``table_id`` now has events up to ``seq``."""
        try:
            await self.redis.publish(self.channel, json.dumps(
                {"t": table_id, "s": seq, "o": self.origin}))
            self.published += 1
        except Exception as e:  # the move is committed; the others catch up on hello
            log.warning("Redis at %s: %s; table %s not announced", self.url,
                        _first_line(e), table_id)

    async def note(self, table_id: str, fields: dict[str, Any]) -> None:
        """Tell the other processes something else about ``table_id`` (never game data):
        {"r": id} its rematch is made; {"w": 1} this process holds connections to it (the
        owner announces its moves for a while)."""
        try:
            await self.redis.publish(self.channel, json.dumps(
                {**fields, "t": table_id, "o": self.origin}))
            self.published += 1
        except Exception as e:  # a lost note costs the others only time
            log.warning("Redis at %s: %s; note on table %s not sent", self.url,
                        _first_line(e), table_id)

    # ----- presence ---------------------------------------------------------------------

    async def _now(self) -> float:
        """Redis's clock (the same for every process, on any machine)."""
        sec, usec = await self.redis.time()
        return float(sec) + float(usec) / 1e6

    async def here(self, tables: dict[str, set[int]], gone: dict[str, set[int]] | None = None,
                   tell: bool = True) -> None:
        """This process has connections for the seats ``tables[table]`` (renewed), and no
        longer for ``gone[table]``; with ``tell``, the other processes are told to look."""
        gone = gone or {}
        if not tables and not gone:
            return
        try:
            lapse = await self._now() + PRESENCE_SECONDS
            pipe = self.redis.pipeline(transaction=False)
            for table_id in {*tables, *gone}:
                key = HERE + table_id
                seats = tables.get(table_id) or set()
                if seats:
                    pipe.zadd(key, {f"{s}:{self.origin}": lapse for s in seats})
                left = gone.get(table_id) or set()
                if left:
                    pipe.zrem(key, *[f"{s}:{self.origin}" for s in left])
                pipe.zremrangebyscore(key, "-inf", lapse - PRESENCE_SECONDS)
                pipe.expire(key, int(PRESENCE_SECONDS * 4))
                if tell:
                    pipe.publish(self.channel, json.dumps({"t": table_id, "p": 1,
                                                           "o": self.origin}))
            await pipe.execute()
            self._presence_down = False
        except Exception as e:  # presence is best effort; the next beat tries again
            self._down(e)

    async def present(self, table_ids: list[str]) -> dict[str, set[int]] | None:
        """The seats of each table connected on the other processes (None: Redis did not
        answer)."""
        if not table_ids:
            return {}
        try:
            now = await self._now()
            pipe = self.redis.pipeline(transaction=False)
            for table_id in table_ids:
                pipe.zrangebyscore(HERE + table_id, now, "+inf")
            got = await pipe.execute()
        except Exception as e:
            self._down(e)
            return None
        out: dict[str, set[int]] = {}
        for table_id, members in zip(table_ids, got, strict=True):
            seats: set[int] = set()
            for m in members:
                text = m.decode() if isinstance(m, bytes) else str(m)
                seat, _, origin = text.partition(":")
                if origin != self.origin and seat.isdigit():
                    seats.add(int(seat))
            out[table_id] = seats
        return out

    def _down(self, e: BaseException) -> None:
        if not self._presence_down:
            self._presence_down = True
            log.warning("Redis at %s: %s; who is connected elsewhere is not known until it "
                        "answers", self.url, _first_line(e))

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
            self._listener = None
        for client in (self.redis, self.listening):
            with contextlib.suppress(Exception):
                await client.aclose()


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__
