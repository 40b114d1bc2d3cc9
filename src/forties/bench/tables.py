"""Load test of one ``forties serve`` on its embedded SQLite: many tables of four
websocket clients at once (``make loadtest-tables``; ``make loadtest`` is the scale-out
test over PostgreSQL and Redis, ``forties.bench.load``).

    python -m forties.bench.tables [--tables N] [--seconds S] [--think T] [--preset P]
                                 [--url URL] [--json]

Starts ``forties serve`` on 127.0.0.1 (a free port, a fresh SQLite database in a
temporary folder) unless ``--url`` names a running one; makes N private tables through
the API (a host and three guests by their invites), connects four seat clients to each
and lets them play random legal actions: as fast as the server answers, or after a
pause of about ``--think`` seconds each (people's pace). After ``--seconds`` it reports:

- actions per second (every seat's actions at every table),
- p50 and p99 of the time from an action sent to the moment the last of the table's
  four seats has the event (the whole round trip through the database and the sends),
- the server's resident memory per table (its RSS grown from before the tables to
  after every client has its snapshot, divided by N),
- the server's CPU seconds per action, errors (refusals) and reconnections.

Everything stays on the loopback interface and ends within the time given.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

LIMITS = {"tables_per_minute": 1_000_000, "messages_per_second": 1000.0,
          "message_burst": 1000.0, "bot_delay": 0.0, "review_seconds": 1.0, "par": False}


def _rss_kib(pid: int) -> int | None:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    m = re.search(r"VmRSS:\s+(\d+) kB", text)
    return int(m.group(1)) if m else None


def _cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


class Server:
    """``forties serve`` in its own process, for the length of the test."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="forties-tables-"))
        env = {**os.environ, "FORTIES_DATA": str(self.folder),
               "FORTIES_LIMITS": json.dumps(LIMITS)}
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "forties.cli", "serve", "--port", "0", "--no-browser",
             "--db", f"sqlite:///{self.folder / 'load.db'}"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        m = re.search(r"serving on (http://127\.0\.0\.1:\d+)/", line)
        if not m:
            self.stop()
            raise SystemExit(f"forties: the server did not start: {line.strip()}")
        self.url = m.group(1)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.communicate()
        shutil.rmtree(self.folder, ignore_errors=True)


async def _make_table(http: Any, preset: str) -> tuple[str, dict[int, str]]:
    r = await http.post("/api/tables", json={"preset": preset, "name": "Host"})
    r.raise_for_status()
    made = r.json()
    tokens = {0: made["token"]}
    for i, inv in enumerate(made["invites"]):
        code = inv["url"].split("#invite=")[1]
        j = await http.post(f"/api/tables/{made['table']}/join",
                            json={"invite": code, "name": f"Guest {i + 1}"})
        j.raise_for_status()
        tokens[j.json()["seat"]] = j.json()["token"]
    (await http.post(f"/api/tables/{made['table']}/start",
                     json={"token": tokens[0]})).raise_for_status()
    return made["table"], tokens


def _cpus(text: str | None) -> set[int] | None:
    """"0,1" or "2-9" as a set of CPU numbers (None: leave it)."""
    if not text:
        return None
    out: set[int] = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


async def run(tables: int, seconds: float, think: float, preset: str,
              url: str | None = None, server_cpus: str | None = None,
              client_cpus: str | None = None) -> dict[str, Any]:
    import httpx

    from ..web.client import SeatClient

    _raise_file_limit()
    server = Server() if url is None else None
    if server is not None and _cpus(server_cpus):
        os.sched_setaffinity(server.proc.pid, _cpus(server_cpus) or set())
    if _cpus(client_cpus):
        os.sched_setaffinity(0, _cpus(client_cpus) or set())
    base = url.rstrip("/") if url else server.url  # type: ignore[union-attr]
    pid = server.proc.pid if server is not None else None
    ws_base = "ws" + base[4:]
    clients: list[SeatClient] = []
    try:
        rss0 = _rss_kib(pid) if pid else None
        async with httpx.AsyncClient(base_url=base, timeout=60,
                                     limits=httpx.Limits(max_connections=50)) as http:
            made: list[tuple[str, dict[int, str]]] = []
            for start in range(0, tables, 50):
                made += await asyncio.gather(*(_make_table(http, preset)
                                               for _ in range(start, min(tables, start + 50))))
        sent: dict[tuple[str, int], float] = {}
        got: dict[tuple[str, int], list[float]] = {}
        latencies: list[float] = []
        actions = [0]
        players = max(len(tok) for _, tok in made)

        def on_frame(c: SeatClient, frame: dict[str, Any]) -> None:
            if frame.get("type") != "event" or frame["event"].get("kind") != "act":
                return
            key = (c.table_id, frame["version"])
            seen = got.setdefault(key, [])
            seen.append(time.perf_counter())
            if len(seen) == c.players:
                t0 = sent.pop(key, None)
                if t0 is not None:
                    latencies.append(max(seen) - t0)
                    actions[0] += 1
                del got[key]

        def on_send(c: SeatClient, version: int) -> None:
            sent[(c.table_id, version + 1)] = time.perf_counter()

        for t, tok in made:
            for s in sorted(tok):
                c = SeatClient(ws_base, t, tok[s], keep_frames=False)
                c.table_id, c.players = t, len(tok)
                c.on_frame, c.on_send = on_frame, on_send
                c.think = think
                c.autoplay(seed=hash((t, s)) & 0xFFFF)
                clients.append(c)
        for i in range(0, len(clients), 200):
            for c in clients[i:i + 200]:
                c.start()
            await asyncio.gather(*(c.wait_for(lambda c: c.view is not None, timeout=120)
                                   for c in clients[i:i + 200]))
        rss1 = _rss_kib(pid) if pid else None
        cpu0 = _cpu_seconds(pid) if pid else None
        actions[0] = 0
        latencies.clear()
        t0 = time.perf_counter()
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - t0
        done, lat = actions[0], sorted(latencies)
        cpu1 = _cpu_seconds(pid) if pid else None
    finally:
        await asyncio.gather(*(c.stop() for c in clients), return_exceptions=True)
        if server is not None:
            server.stop()
    errors = sum(len(c.errors) for c in clients)
    out: dict[str, Any] = {
        "tables": tables, "clients": len(clients), "players_per_table": players,
        "preset": preset, "think": think, "seconds": round(elapsed, 1),
        "actions": done, "actions_per_second": round(done / elapsed, 1),
        "p50_ms": round(1000 * statistics.median(lat), 1) if lat else None,
        "p99_ms": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 1)
        if lat else None,
        "server_rss_per_table_kib": round((rss1 - rss0) / tables, 1)
        if rss0 is not None and rss1 is not None else None,
        "server_cpu_ms_per_action": round(1000 * (cpu1 - cpu0) / done, 2)
        if cpu0 is not None and cpu1 is not None and done else None,
        "errors": errors,
        "reconnections": sum(max(0, c.connections - 1) for c in clients),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
                   f"{platform.python_version()}, {platform.system()}",
        "server_cpus": server_cpus, "client_cpus": client_cpus,
    }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m forties.bench.tables",
                                 description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--think", type=float, default=0.0,
                    help="seconds a player takes to choose (0: as fast as possible)")
    ap.add_argument("--preset", default="merrimack-valley")
    ap.add_argument("--url", default=None, help="a running server (default: start one)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--server-cpus", default=None, metavar="LIST",
                    help="pin the server to these CPUs, e.g. 0,1 (Linux)")
    ap.add_argument("--client-cpus", default=None, metavar="LIST",
                    help="pin the clients to these CPUs, e.g. 2-9 (Linux)")
    args = ap.parse_args(argv)
    if args.tables < 1 or args.seconds <= 0 or args.think < 0:
        print("forties: --tables must be at least 1, --seconds above 0, --think 0 or more",
              file=sys.stderr)
        return 2
    random.seed(0)
    try:
        result = asyncio.run(run(args.tables, args.seconds, args.think, args.preset,
                                 args.url, args.server_cpus, args.client_cpus))
    except KeyboardInterrupt:
        print("forties: stopped", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for k, v in result.items():
            print(f"{k:28} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
