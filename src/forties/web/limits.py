"""What a client may do and how fast the tables go: the server's ``Limits`` (changed by
the environment variable FORTIES_LIMITS), a connection's message ``Bucket``, and
``PerMinute``, the one limit on new tables, pads and evenings from one address.
"""

from __future__ import annotations

import json
import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any


@dataclass
class Limits:
    """What a connection and a client may do, and the pace of the tables; the
    environment variable FORTIES_LIMITS (a JSON object) changes any of them."""

    message_bytes: int = 4096
    messages_per_second: float = 20.0
    message_burst: float = 40.0
    tables_per_minute: int = 20
    expire_minutes: float = 30.0
    sweep_seconds: float = 60.0
    # a table nobody is at, on which nothing happened for this long, leaves memory (it
    # stays in the database, and comes back when someone opens it)
    idle_minutes: float = 10.0
    # how often the server looks in the database for its tables changed from outside it
    # (``forties admin close`` and ``silence``)
    watch_seconds: float = 5.0
    bot_delay: float | None = None  # None: each table's own setting
    review_seconds: float | None = None
    grace_seconds: float | None = None
    par: bool = True
    par_budget: int | None = None  # Forty One: positions searched before the estimate
    par_nice: int = 10  # the pars' process's niceness (above 0: it yields to the play)
    workers: int = 1
    # a server told to stop ends at once after this many seconds, whatever it still waits
    # on (``commands.end_at_once_after``)
    stop_seconds: float = 20.0
    # strangers at the door (``web.transport``, ``web.guard``): open connections from one
    # address (a proxy the operator names is not counted) and in all, open websockets
    # from one address (counted behind a proxy too), and the seconds a client has to send
    # a request's headers, and then its body
    connections_per_address: int = 64
    connections_total: int = 1024
    websockets_per_address: int = 64
    header_seconds: float = 10.0
    body_seconds: float = 30.0
    # a server told to stop drains first (``forties.web.drain``) for at least this long:
    # no new tables, /readyz 503, every page told to reconnect
    drain_seconds: float = 0.0

    @classmethod
    def from_env(cls) -> Limits:
        raw = os.environ.get("FORTIES_LIMITS", "").strip()
        out = cls()
        if not raw:
            return out
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as e:
            raise ValueError(f"FORTIES_LIMITS is not JSON: {e.msg}") from None
        names = {f.name for f in fields(cls)}
        if not isinstance(obj, dict) or not set(obj) <= names:
            raise ValueError(f"FORTIES_LIMITS must be an object with keys among "
                             f"{', '.join(sorted(names))}")
        types = {f.name: str(f.type) for f in fields(cls)}
        for k, v in obj.items():
            kind, *none = types[k].split(" | ")  # e.g. "float | None"
            if not ((v is None and none) or _is_a(v, kind)):
                raise ValueError(f"FORTIES_LIMITS: {k} must be {_KIND_WORDS[kind]}"
                                 f"{' or null' if none else ''}, not {json.dumps(v)}")
            setattr(out, k, v)
        if not out.stop_seconds > 0:
            raise ValueError(f"FORTIES_LIMITS: stop_seconds must be above 0, not "
                             f"{json.dumps(out.stop_seconds)}")
        if not 0 <= out.drain_seconds < out.stop_seconds:
            raise ValueError(f"FORTIES_LIMITS: drain_seconds must be 0 or more and under "
                             f"stop_seconds ({out.stop_seconds:g}), not "
                             f"{json.dumps(out.drain_seconds)}")
        return out


_KIND_WORDS = {"int": "a whole number", "float": "a number", "bool": "true or false"}


def _is_a(value: Any, kind: str) -> bool:
    """Whether a JSON value is of a limit's kind (a whole number is a number too)."""
    if isinstance(value, bool) or kind == "bool":
        return isinstance(value, bool) and kind == "bool"
    return isinstance(value, int) or (kind == "float" and isinstance(value, float))


class Bucket:
    """A token bucket: ``rate`` messages a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level >= 1:
            self.level -= 1
            return True
        return False


class PerMinute:
    """At most ``count`` of something (new tables, pads, evenings) in any minute for each
    key: a client's address, or one key for every client."""

    def __init__(self, count: int, clock: Callable[[], float] | None = None) -> None:
        self.count = count
        self.clock = clock or (lambda: time.monotonic())
        self._at: dict[str, deque[float]] = {}
        self._pruned = self.clock()

    def take(self, key: str = "") -> bool:
        """Count one more for ``key`` if the minute has room for it (True), else False."""
        now = self.clock()
        if now - self._pruned >= 60:
            self.prune()
        recent = self._at.setdefault(key, deque())
        while recent and recent[0] <= now - 60:
            recent.popleft()
        if len(recent) >= self.count:
            return False
        recent.append(now)
        return True

    def prune(self) -> None:
        """Forget the keys whose last minute is over (an address that came once is not
        kept for ever); ``take`` does it at most once a minute, the sweep too."""
        now = self.clock()
        self._pruned = now
        for key in [k for k, d in self._at.items() if not d or d[-1] <= now - 60]:
            del self._at[key]

    @property
    def held(self) -> int:
        """How many keys are held now."""
        return len(self._at)


__all__ = ["Bucket", "Limits", "PerMinute"]
