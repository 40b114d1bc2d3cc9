"""The load driver of both web load tests: tables made through the API, four seat clients
each playing random legal actions, and what they measure.

``make loadtest-tables`` (``bench.tables``: one ``forties serve`` on its SQLite)
and ``make loadtest`` (``bench.load``: one or several processes over PostgreSQL and
Redis) start their servers their own way and drive them with this module:

- ``make_tables``: private tables of people, each made by a host who shares the invite
  links and guests who join by them (started at once, or later with ``start_tables``);
- ``Players``: a ``tests.client.SeatClient`` for every seat, connected round-robin
  to the servers' addresses (so that with several processes the seats of a table are
  spread over them), each playing a random legal action as soon as its view offers one
  (or after about ``think`` seconds) and saying "ready" at each review;
- what they measure: the actions whose event reached *every* seat of the table, and the
  time from the action sent to the moment the last seat has its event (through the
  database and the sends: the figure a player waits on), p50 and p99; refusals and
  reconnections; and, from ``/proc``, the CPU time and resident memory of processes.

Everything stays on the loopback interface; the callers bound every run in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import re
import resource
import statistics
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

Made = tuple[str, dict[int, str]]  # a table's id and each seat's token


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time used so far by the processes ``pids`` (those still there),
    and by their children that have ended."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
    return total / tick


def raise_file_limit() -> None:
    """As many open files as the system allows: every client is a socket."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def rss_kib(pid: int) -> int | None:
    """The resident memory of process ``pid`` (None: gone)."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    m = re.search(r"VmRSS:\s+(\d+) kB", text)
    return int(m.group(1)) if m else None


def cpu_of(pids: Iterable[int]) -> float:
    """CPU seconds used so far by ``pids`` (user and system)."""
    return cpu_seconds(list(pids))


def percentile(xs: list[float], q: float) -> float | None:
    """The ``q`` quantile of ``xs`` (the value below which that share lies); None if empty."""
    if not xs:
        return None
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


async def make_table(http: Any, preset: str, start: bool = True,
                     options: dict[str, Any] | None = None) -> Made:
    """A private table: a host, and a guest joining by each invite link."""
    r = await http.post("/api/tables", json={"preset": preset, "name": "Host",
                                             "options": options or {}})
    r.raise_for_status()
    made = r.json()
    tokens = {0: made["token"]}
    for i, inv in enumerate(made["invites"]):
        code = inv["url"].split("#invite=")[1]
        j = await http.post(f"/api/tables/{made['table']}/join",
                            json={"invite": code, "name": f"Guest {i + 1}"})
        j.raise_for_status()
        tokens[j.json()["seat"]] = j.json()["token"]
    if start:
        await start_tables(http, [(made["table"], tokens)])
    return made["table"], tokens


async def make_tables(http: Any, count: int, preset: str, start: bool = True,
                      at_once: int = 50, options: dict[str, Any] | None = None) -> list[Made]:
    """``count`` tables, ``at_once`` made together."""
    made: list[Made] = []
    for first in range(0, count, at_once):
        made += await asyncio.gather(*(make_table(http, preset, start, options)
                                       for _ in range(first, min(count, first + at_once))))
    return made


async def start_tables(http: Any, made: list[Made]) -> None:
    """The host of each table starts it."""
    for table, tokens in made:
        (await http.post(f"/api/tables/{table}/start",
                         json={"token": tokens[0]})).raise_for_status()


class Players:
    """A seat client for every seat of ``made``, connected round-robin to ``ws_bases``:
    the tests' ``tests.client.SeatClient``, or with ``lean`` the load tests' own
    ``bench.seats.Seat``, which costs the machine less a frame."""

    def __init__(self, made: list[Made], ws_bases: list[str], think: float = 0.0,
                 lean: bool = False) -> None:
        from tests.client import SeatClient

        from .seats import Seat

        self.clients: list[Any] = []
        self.sent: dict[tuple[str, int], float] = {}
        self.got: dict[tuple[str, int], list[float]] = {}
        self.latencies: list[float] = []
        self.actions = 0
        self.seeds: list[int] = []
        n = 0
        for table, tokens in made:
            for seat in sorted(tokens):
                base = ws_bases[n % len(ws_bases)]
                c = Seat(base, table, tokens[seat]) if lean else \
                    SeatClient(base, table, tokens[seat], keep_frames=False)
                c.table_id, c.players = table, len(tokens)
                c.on_frame, c.on_send = self._on_frame, self._on_send
                c.think = think
                self.seeds.append(hash((table, seat)) & 0xFFFF)
                self.clients.append(c)
                n += 1

    def _on_send(self, c: Any, version: int) -> None:
        self.sent[(c.table_id, version + 1)] = time.perf_counter()

    def _on_frame(self, c: Any, frame: dict[str, Any]) -> None:
        if frame.get("type") != "event" or frame["event"].get("kind") != "act":
            return
        key = (c.table_id, frame["version"])
        seen = self.got.setdefault(key, [])
        seen.append(time.perf_counter())
        if len(seen) == c.players:  # the last seat of the table has it
            t0 = self.sent.pop(key, None)
            if t0 is not None:
                self.latencies.append(max(seen) - t0)
                self.actions += 1
            del self.got[key]

    async def connect(self, at_once: int = 200, timeout: float = 120.0,
                      play: bool = True) -> None:
        """Connect every client, ``at_once`` together, each until it has its snapshot;
        then they all begin to play (had the first tables played while the last clients
        were connecting, this process, busy with their frames, could let the last ones'
        handshakes time out)."""
        for first in range(0, len(self.clients), at_once):
            group = self.clients[first:first + at_once]
            for c in group:
                c.start()
            await asyncio.gather(*(c.wait_for(lambda c: c.view is not None, timeout=timeout)
                                   for c in group))
        # The clients and their connections live as long as the test: the collector's
        # full rounds skip them, so that this process's own pauses stay out of the
        # latencies measured (the server does the same with what it made to start).
        gc.collect()
        gc.freeze()
        if play:
            await self.play()

    async def play(self) -> None:
        """Every client begins to play (``connect(play=False)``: once the tables are
        started; a table still waiting refuses a move)."""
        for c, seed in zip(self.clients, self.seeds, strict=True):
            c.autoplay(seed=seed)
        await asyncio.gather(*(c.play_now() for c in self.clients))

    def measure(self) -> None:
        """Count from now on."""
        self.actions = 0
        self.latencies.clear()

    def figures(self, elapsed: float) -> dict[str, Any]:
        """What was measured since ``measure()``, over ``elapsed`` seconds."""
        lat = self.latencies
        p50 = statistics.median(lat) if lat else None
        p99 = percentile(lat, 0.99)
        return {"actions": self.actions,
                "actions_per_second": round(self.actions / elapsed, 1) if elapsed else 0.0,
                "p50_ms": None if p50 is None else round(1000 * p50, 1),
                "p99_ms": None if p99 is None else round(1000 * p99, 1),
                "samples": len(lat),
                "errors": sum(len(c.errors) for c in self.clients),
                "error_messages": sorted({f"{e.get('code')}: {e.get('message')}"
                                          for c in self.clients for e in c.errors})[:5],
                "reconnections": sum(max(0, c.connections - 1) for c in self.clients)}

    async def stop(self) -> None:
        await asyncio.gather(*(c.stop() for c in self.clients), return_exceptions=True)


def machine() -> str:
    import platform

    return (f"{platform.machine()}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()}, {platform.system()}")


__all__ = ["Made", "Players", "cpu_of", "machine", "make_table", "make_tables", "percentile",
           "raise_file_limit", "rss_kib", "start_tables"]
