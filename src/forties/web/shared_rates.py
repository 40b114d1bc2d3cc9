"""The limits a minute (``limits.Rates``) counted in Redis, so that every server process of
a site counts the same minute: with ``--workers N``, or processes on several machines
(they always share Redis: ``workers.check_scale_out``), an address that made its tables
through one process is refused by the next.

Each kind has a sorted set for each address and one for every address together,
``forties:rate:KIND:ADDRESS`` and ``forties:rate:KIND``, whose members are the takes of
the last minute scored with their moment by Redis's own clock (the processes' clocks
need not agree). One script, run by Redis at once for both sets, drops the takes older
than a minute, refuses where either set is full and else counts the take in both: the
same moving window as ``limits.PerMinute``, in one round trip, and every key expires a
minute after its last take, so nothing is left to prune.

Where Redis does not answer, the process counts alone (its own ``PerMinute``s) until it
answers again, and says so once in the log: a stranger is still limited, by each process.
A Redis that hangs costs one wait (the client's timeout, ``bus.COMMAND_SECONDS``), not
one for each request: after a failure the process counts alone for ``RETRY_SECONDS``
before it asks Redis again.
Imported only when ``--redis`` is given.
"""

from __future__ import annotations

import itertools
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("forties.web")
PREFIX = "forties:rate:"

# KEYS: this address's minute, every address's; ARGV: their limits, the take's own name.
# 0: counted; 1: this address's minute is full; 2: every address's is.
TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 60000)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 1 end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 60000)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 2 end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('ZADD', KEYS[2], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], 60000)
redis.call('PEXPIRE', KEYS[2], 60000)
return 0
"""

COUNTED, MINE_FULL, ALL_FULL = 0, 1, 2
RETRY_SECONDS = 10.0  # counted alone this long after Redis failed to answer


class SharedMinutes:
    """The takes of every process in one Redis (``redis``: an asyncio client)."""

    def __init__(self, redis: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.script = redis.register_script(TAKE)
        self.clock = clock
        self.retry_at = 0.0  # (the clock's) Redis is not asked before then, after a failure
        self.origin = secrets.token_hex(6)  # this process (each take's name is its own)
        self.numbers = itertools.count()
        self.down = False  # said once while Redis does not answer

    async def take(self, kind: str, address: str, mine: int, total: int) -> int | None:
        """Count one ``kind`` for ``address`` (``COUNTED``), or say which minute is full
        (``MINE_FULL``, ``ALL_FULL``: nothing counted); None where Redis did not answer
        (the caller counts alone), and for ``RETRY_SECONDS`` after it did not."""
        if self.down and self.clock() < self.retry_at:
            return None
        name = f"{self.origin}:{next(self.numbers)}"
        try:
            got = int(await self.script(keys=[f"{PREFIX}{kind}:{address}", f"{PREFIX}{kind}"],
                                        args=[mine, total, name]))
        except Exception as e:  # redis's own errors, OSError, a timeout
            self.retry_at = self.clock() + RETRY_SECONDS
            if not self.down:
                self.down = True
                log.warning("the limits a minute are counted by this process alone: Redis "
                            "does not answer (%s)", str(e).splitlines()[0] if str(e) else
                            type(e).__name__)
            return None
        if self.down:
            self.down = False
            log.warning("the limits a minute are counted in Redis again")
        return got


__all__ = ["ALL_FULL", "COUNTED", "MINE_FULL", "RETRY_SECONDS", "SharedMinutes"]
