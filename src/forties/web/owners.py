"""Each table on one process: a lease in Redis names the process that runs a table.

With several server processes (``--workers N`` on one port, or several ``forties serve``
over one PostgreSQL and one Redis), a table's seats used to land on every process, and
each move cost every one of them (each read the move back from the database and applied
it). Now a table has one owner: the process holding its lease, ``forties:owner:TABLE`` in
Redis, whose value names the process (its ``origin``, its machine and its process id),
the address of its
private door and the key that door asks for. Only the owner runs the table: applies the
actions of its connections, plays its computers' turns, keeps its timers. A websocket
that reaches another process is handed over whole to the owner through its door
(``forties.web.relay``); any process still serves every page and the HTTP API, whose
changes (a guest's seat, the host's start) go through the database as before and reach
the owner through Redis.

- A lease is taken (``claim``) by the process that first needs the table to run: the one
  a websocket for a table without an owner reaches, the one that makes a table that
  starts at once, the one that starts a table nobody runs, and at start-up the one that
  brings back a table that was playing.
- The owner renews its leases every ``BEAT`` seconds; a lease that is not renewed lapses
  after ``LEASE_SECONDS``. A process that finds the owner's door shut (the owner died:
  its socket went with it) takes the lease over at once, by compare-and-set on the dead
  owner's value; otherwise the lease lapses and the next claim takes it.
- A stopping process lets its leases go, so that the next connection is served at once.
- Every ``LEASE_SECONDS`` each process looks for tables in play that nobody holds (their
  owner died, and no connection came back to take them over) and takes them, so that
  their computers, timers and grace periods go on.
- A process that learns its lease was taken (it stalled past ``LEASE_SECONDS``) closes its
  connections to that table, which reconnect and are handed over to the new owner.

The database stays the authority: two processes that both believed they owned a table
(a stall, a Redis restart) still could not apply a move twice or lose one; the lease only
makes the usual case cheap. If Redis does not answer, a process serves the connections it
receives itself and runs their tables, as before.

Why a lease and a hand-over rather than a redirect or SO_REUSEPORT: a page cannot be sent
to another port behind a proxy that publishes one address, and the kernel's spread of
connections over processes knows nothing of tables (the table is named only in the
request, read after the connection was accepted); relaying the frames through the process
that accepted the connection cost that process about half of what running the table
itself did. Hashing the table id in the proxy (the shipped Caddyfile does) makes
hand-overs rare but cannot take a table over when a process dies, which the lease does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("forties.web")
LEASE = "forties:owner:"  # + table id: the owner's value
LEASE_SECONDS = 5.0  # a lease not renewed in this long lapses
BEAT = 1.0  # seconds between an owner's renewals

# Renew the lease if it is still this process's, or take it again if it lapsed (Redis was
# restarted, or the owner stalled and nobody took it): 1; another's: 0.
_RENEW = """
local v = redis.call('get', KEYS[1])
if v == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if not v then redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2]) return 1 end
return 0
"""
# Replace the value ARGV[1] (a dead owner's) with ARGV[2], or take a lapsed lease: 1.
_TAKE_OVER = """
local v = redis.call('get', KEYS[1])
if v == ARGV[1] or not v then redis.call('set', KEYS[1], ARGV[2], 'px', ARGV[3]) return 1 end
return 0
"""
# Let the lease go if it is still this process's.
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


def this_machine() -> str:
    """This machine and its network namespace: a private door is reachable only from a
    process where this is the same."""
    try:
        space = str(os.stat("/proc/self/ns/net").st_ino)
    except OSError:
        space = ""
    return f"{socket.gethostname()}/{space}"


@dataclass(frozen=True)
class Owner:
    """Another process's lease on a table."""

    value: str  # as stored: a takeover compares and sets it
    origin: str
    machine: str
    address: str | None  # its private door (None: it has none)
    key: str

    @classmethod
    def parse(cls, raw: Any) -> Owner | None:
        text = raw.decode() if isinstance(raw, bytes) else str(raw)
        try:
            got = json.loads(text)
            return cls(text, str(got["o"]), str(got["m"]),
                       None if got["a"] is None else str(got["a"]), str(got["k"]))
        except (ValueError, KeyError, TypeError):
            return None


async def door_shut(owner: Owner, machine: str) -> bool:
    """Whether the owner's private door refuses a connection from this machine: its
    process is gone (False: it answers, or cannot be tried from here)."""
    if owner.address is None or owner.machine != machine:
        return False
    try:
        s = await connect_door(owner.address, 2.0)
    except (ConnectionRefusedError, FileNotFoundError):
        return True
    except OSError:
        return False
    with contextlib.suppress(OSError):
        s.close()
    return False


async def connect_door(address: str, seconds: float) -> socket.socket:
    """A socket connected to a private door (raises ConnectionRefusedError where nothing
    listens there). Connected here rather than by the event loop, which may not take an
    address in the abstract namespace (uvloop does not)."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        s.setblocking(False)
        try:
            s.connect(address)  # at once, unless the door's backlog is full
        except BlockingIOError:
            s.settimeout(seconds)
            await asyncio.get_running_loop().run_in_executor(None, s.connect, address)
        s.setblocking(False)
        return s
    except BaseException:
        s.close()
        raise


def valid_table_id(table_id: Any) -> bool:
    """What a table id can be (``secrets.token_urlsafe``): anything else has no lease."""
    return isinstance(table_id, str) and 0 < len(table_id) <= 32 and all(
        c.isascii() and (c.isalnum() or c in "-_") for c in table_id)


class Owners:
    """This process's leases: which tables it runs, taken and renewed in Redis."""

    def __init__(self, redis: Any, origin: str) -> None:
        self.redis = redis
        self.origin = origin
        self.machine = this_machine()
        self.key = secrets.token_urlsafe(32)  # the key the private door asks for
        self.address: str | None = None  # the private door, once it is bound
        self.door: socket.socket | None = None
        self.mine: set[str] = set()
        self.taken_over = 0  # leases taken from a dead owner (for the tests' and logs' sake)
        self._unloaded: set[str] = set()  # claimed, and not loaded at the last renewal
        self._down = False

    @property
    def value(self) -> str:
        return json.dumps({"o": self.origin, "m": self.machine, "p": os.getpid(),
                           "a": self.address, "k": self.key}, separators=(",", ":"))

    def runs(self, table_id: str) -> bool:
        return table_id in self.mine

    async def claim(self, table_id: str) -> Owner | None:
        """The table's owner, taking the lease if nobody holds it: None when it is this
        process (or Redis did not answer: this process then serves the table itself)."""
        if table_id in self.mine:
            return None
        ms = int(LEASE_SECONDS * 1000)
        try:
            for _ in range(3):
                if await self.redis.set(LEASE + table_id, self.value, nx=True, px=ms):
                    self.mine.add(table_id)
                    return None
                raw = await self.redis.get(LEASE + table_id)
                if raw is None:  # it lapsed between the two: try again
                    continue
                owner = Owner.parse(raw)
                if owner is None or owner.origin == self.origin:  # unreadable: replaced
                    await self.redis.set(LEASE + table_id, self.value, px=ms)
                    self.mine.add(table_id)
                    return None
                self._down = False
                return owner
        except Exception as e:  # redis raises its own kinds and OSError
            self._say_down(e)
        self.mine.add(table_id)
        return None

    async def take_over(self, table_id: str, dead: Owner) -> bool:
        """Take the lease from ``dead`` (its door is shut): whether this process has it
        now (False: another process was first)."""
        try:
            got = await self.redis.eval(_TAKE_OVER, 1, LEASE + table_id, dead.value,
                                        self.value, int(LEASE_SECONDS * 1000))
        except Exception as e:
            self._say_down(e)
            got = 1
        if got:
            self.mine.add(table_id)
            self.taken_over += 1
            log.warning("table %s: its process stopped answering; run here now", table_id)
        return bool(got)

    async def renew(self, loaded: set[str]) -> set[str]:
        """Renew the leases of the tables still loaded here, let the others go: the tables
        whose lease another process holds now (this one stalled). A table claimed and
        not loaded at two renewals running goes (one is being loaded as it is claimed)."""
        unloaded = self.mine - loaded
        for table_id in unloaded & self._unloaded:
            await self.release(table_id)
        self._unloaded = unloaded - self._unloaded
        ids = sorted(self.mine)
        if not ids:
            return set()
        try:
            pipe = self.redis.pipeline(transaction=False)
            for table_id in ids:
                pipe.eval(_RENEW, 1, LEASE + table_id, self.value,
                          int(LEASE_SECONDS * 1000))
            answers = await pipe.execute()
        except Exception as e:  # kept: the next beat tries again
            self._say_down(e)
            return set()
        self._down = False
        lost = {t for t, ok in zip(ids, answers, strict=True) if not ok}
        self.mine -= lost
        return lost

    async def unowned(self, table_ids: list[str]) -> list[str]:
        """The tables among ``table_ids`` that no process holds a lease on ([] where
        Redis does not answer)."""
        if not table_ids:
            return []
        try:
            pipe = self.redis.pipeline(transaction=False)
            for table_id in table_ids:
                pipe.exists(LEASE + table_id)
            held = await pipe.execute()
        except Exception as e:
            self._say_down(e)
            return []
        return [t for t, h in zip(table_ids, held, strict=True) if not h]

    async def release(self, table_id: str) -> None:
        """This process no longer runs the table."""
        if table_id not in self.mine:
            return
        self.mine.discard(table_id)
        try:
            await self.redis.eval(_RELEASE, 1, LEASE + table_id, self.value)
        except Exception as e:  # it lapses by itself
            self._say_down(e)

    async def release_all(self) -> None:
        """The process stops: every lease goes at once, so another serves the next
        connection without waiting for the lease to lapse."""
        ids = sorted(self.mine)
        self.mine.clear()
        if not ids:
            return
        try:
            pipe = self.redis.pipeline(transaction=False)
            for table_id in ids:
                pipe.eval(_RELEASE, 1, LEASE + table_id, self.value)
            await pipe.execute()
        except Exception as e:
            self._say_down(e)

    def _say_down(self, e: BaseException) -> None:
        if not self._down:
            self._down = True
            text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            log.warning("Redis: %s; tables are run where their connections are until it "
                        "answers", text)


__all__ = ["BEAT", "LEASE", "LEASE_SECONDS", "Owner", "Owners", "connect_door", "door_shut",
           "this_machine", "valid_table_id"]
