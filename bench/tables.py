"""Load test of one ``forties serve`` on its embedded SQLite: many tables of four
websocket clients at once (``make loadtest-tables``; ``make loadtest`` is the scale-out
test over PostgreSQL and Redis, ``bench.load``).

    python -m bench.tables [--tables N] [--seconds S] [--think T] [--preset P]
                                 [--url URL [--pid PID]]
                                 [--via-caddy | --compare-caddy [--rounds R]] [--json]

Starts ``forties serve`` on 127.0.0.1 (a free port, a fresh SQLite database in a
temporary folder) unless ``--url`` names a running one (``--pid``: its process, to
measure); makes N private tables through the API (a host and three guests by their
invites), connects four seat clients to each and lets them play random legal actions: as
fast as the server answers, or after a pause of about ``--think`` seconds each (people's
pace). The tables and the players are ``bench.driver``'s, as in ``make loadtest``.
After ``--seconds`` it reports:

- actions per second (every seat's actions at every table),
- p50 and p99 of the time from an action sent to the moment the last of the table's
  four seats has the event (the whole round trip through the database and the sends),
- the server's resident memory per table (its RSS grown from before the tables to
  after every client has its snapshot, divided by N),
- the server's CPU time per action, and this process's (the 2,000 clients'), errors
  (refusals) and reconnections.

``--via-caddy`` puts Debian's Caddy with the shipped ``deploy/Caddyfile`` in front of the
server (``tests/caddy.py``: its internal CA, 127.0.0.1, a free port), the server run as
``deploy/forties@.service`` runs it (``--public-url`` Caddy's address, ``--trusted-proxy
127.0.0.1``), and the clients reach it over https and wss, as a public site's players do;
Caddy's CPU time per action is reported too. ``--compare-caddy`` runs the same load twice
in one run, direct and then through Caddy (a fresh server each), and gives the ratios,
through Caddy over direct; ``--rounds R`` runs R such pairs, the order swapped each round
(direct first, then Caddy first, ...), each with its own ratios.

Everything stays on the loopback interface and ends within the time given.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from forties.web.limits import Rates

from . import driver

LIMITS = {**Rates.lifted(), "messages_per_second": 1000.0,
          "message_burst": 1000.0, "bot_delay": 0.0, "review_seconds": 1.0, "par": False,
          # every loader's connection comes from this machine's one address
          "connections_per_address": 100000, "websockets_per_address": 100000,
          "connections_total": 100000}


class Server:
    """``forties serve`` in its own process, for the length of the test."""

    def __init__(self, options: list[str] | None = None, module: str = "forties.cli",
                 extra_env: dict[str, str] | None = None) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="forties-tables-"))
        env = {**os.environ, "FORTIES_DATA": str(self.folder),
               "FORTIES_LIMITS": json.dumps(LIMITS), **(extra_env or {})}
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        self.errors = (self.folder / "server.err").open("w")  # read only if it fails
        self.proc = subprocess.Popen(
            [sys.executable, "-m", module, "serve", "--port", "0", "--no-browser",
             "--db", f"sqlite:///{self.folder / 'load.db'}", *(options or [])],
            stdout=subprocess.PIPE, stderr=self.errors, text=True, env=env)
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
        self.errors.close()
        shutil.rmtree(self.folder, ignore_errors=True)


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
              client_cpus: str | None = None, pid: int | None = None,
              via_caddy: bool = False) -> dict[str, Any]:

    driver.raise_file_limit()
    # behind Caddy the server is run as the shipped unit runs it: told the site's public
    # address (Caddy's, its port chosen now) and that Caddy's X-Forwarded-For is believed
    front_port = 0
    options: list[str] = []
    if via_caddy:
        from tests.services import free_port

        front_port = free_port()
        options = ["--public-url", f"https://127.0.0.1:{front_port}",
                   "--trusted-proxy", "127.0.0.1"]
    server = Server(options) if url is None else None
    if server is not None and _cpus(server_cpus):
        os.sched_setaffinity(server.proc.pid, _cpus(server_cpus) or set())
    if _cpus(client_cpus):
        os.sched_setaffinity(0, _cpus(client_cpus) or set())
    base = url.rstrip("/") if url else server.url  # type: ignore[union-attr]
    if server is not None:
        pid = server.proc.pid
    verify: ssl.SSLContext | bool = True
    front_pid: int | None = None
    with contextlib.ExitStack() as stack:
        if via_caddy:
            from tests.caddy import caddy

            try:
                front = stack.enter_context(caddy([base.split("//", 1)[1]],
                                                  https_port=front_port))
            except BaseException:
                if server is not None:
                    server.stop()
                raise
            base, front_pid = front.url, front.proc.pid
            # the clients trust Caddy's own CA: httpx by this context, the websockets by
            # the default context, which reads SSL_CERT_FILE when each is made
            verify = ssl.create_default_context(cafile=str(front.root))
            stack.callback(_restore_env, "SSL_CERT_FILE", os.environ.get("SSL_CERT_FILE"))
            os.environ["SSL_CERT_FILE"] = str(front.root)
        try:
            result = await _measure(tables, seconds, think, preset, base, verify, pid,
                                    front_pid, server, server_cpus, client_cpus)
        except Exception:
            if via_caddy:  # what Caddy said of it (a proxy error is only named in its log)
                print(f"forties: Caddy's log ends:\n{front.said()}", file=sys.stderr)
            raise
    return result


def _restore_env(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


async def _measure(tables: int, seconds: float, think: float, preset: str, base: str,
                   verify: ssl.SSLContext | bool, pid: int | None, front_pid: int | None,
                   server: Server | None, server_cpus: str | None,
                   client_cpus: str | None) -> dict[str, Any]:
    import httpx

    players: driver.Players | None = None
    try:
        rss0 = driver.rss_kib(pid) if pid else None
        async with httpx.AsyncClient(base_url=base, timeout=60, verify=verify,
                                     limits=httpx.Limits(max_connections=50)) as http:
            made = await driver.make_tables(http, tables, preset)
        players = driver.Players(made, ["ws" + base[4:]], think)
        await players.connect()
        rss1 = driver.rss_kib(pid) if pid else None
        cpu0 = driver.cpu_of([pid]) if pid else None
        front0 = driver.cpu_of([front_pid]) if front_pid else None
        me0 = time.process_time()
        players.measure()
        t0 = time.perf_counter()
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - t0
        figures = players.figures(elapsed)
        cpu1 = driver.cpu_of([pid]) if pid else None
        front1 = driver.cpu_of([front_pid]) if front_pid else None
        me1 = time.process_time()
    finally:
        if players is not None:
            await players.stop()
        if server is not None:
            server.stop()
    done = figures["actions"]
    out: dict[str, Any] = {
        "tables": tables, "clients": len(players.clients),
        "players_per_table": max(len(tok) for _, tok in made),
        "preset": preset, "think": think, "seconds": round(elapsed, 1),
        "actions": done, "actions_per_second": figures["actions_per_second"],
        "p50_ms": figures["p50_ms"], "p99_ms": figures["p99_ms"],
        "server_rss_per_table_kib": round((rss1 - rss0) / tables, 1)
        if rss0 is not None and rss1 is not None else None,
        "server_cpu_ms_per_action": round(1000 * (cpu1 - cpu0) / done, 2)
        if cpu0 is not None and cpu1 is not None and done else None,
        "caddy_cpu_ms_per_action": round(1000 * (front1 - front0) / done, 2)
        if front0 is not None and front1 is not None and done else None,
        "clients_cpu_ms_per_action": round(1000 * (me1 - me0) / done, 2) if done else None,
        "via": "caddy (https, wss)" if front_pid else "direct (http, ws)",
        "errors": figures["errors"], "error_messages": figures["error_messages"],
        "reconnections": figures["reconnections"],
        "machine": driver.machine(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "server_cpus": server_cpus, "client_cpus": client_cpus,
    }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.tables",
                                 description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--think", type=float, default=0.0,
                    help="seconds a player takes to choose (0: as fast as possible)")
    ap.add_argument("--preset", default="merrimack-valley")
    ap.add_argument("--url", default=None, help="a running server (default: start one)")
    ap.add_argument("--pid", type=int, default=None,
                    help="with --url: the server's process, to measure its CPU and memory")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    front = ap.add_mutually_exclusive_group()
    front.add_argument("--via-caddy", action="store_true",
                       help="the clients reach the server through Caddy (deploy/Caddyfile), "
                            "over https and wss")
    front.add_argument("--compare-caddy", action="store_true",
                       help="the same load direct, then through Caddy, and the ratios")
    ap.add_argument("--rounds", type=int, default=1,
                    help="with --compare-caddy: this many pairs, the order swapped each round")
    ap.add_argument("--server-cpus", default=None, metavar="LIST",
                    help="pin the server to these CPUs, e.g. 0,1 (Linux)")
    ap.add_argument("--client-cpus", default=None, metavar="LIST",
                    help="pin the clients to these CPUs, e.g. 2-9 (Linux)")
    args = ap.parse_args(argv)
    if args.pid is not None and args.url is None:
        print("forties: --pid names the process of the server given by --url",
              file=sys.stderr)
        return 2
    if args.tables < 1 or args.seconds <= 0 or args.think < 0 or args.rounds < 1:
        print("forties: --tables and --rounds must be at least 1, --seconds above 0, "
              "--think 0 or more", file=sys.stderr)
        return 2
    if args.url is not None and (args.via_caddy or args.compare_caddy):
        print("forties: --via-caddy and --compare-caddy start their own server (no --url)",
              file=sys.stderr)
        return 2
    if args.compare_caddy:  # direct then Caddy, Caddy then direct, ...
        fronts = [via for r in range(args.rounds)
                  for via in ((False, True) if r % 2 == 0 else (True, False))]
    else:
        fronts = [args.via_caddy]
    runs = []
    try:
        for via in fronts:
            random.seed(0)
            runs.append(asyncio.run(run(args.tables, args.seconds, args.think, args.preset,
                                        args.url, args.server_cpus, args.client_cpus,
                                        args.pid, via)))
    except KeyboardInterrupt:
        print("forties: stopped", file=sys.stderr)
        return 1
    result: dict[str, Any]
    if not args.compare_caddy:
        result = runs[0]
    else:
        rounds = []
        for r in range(args.rounds):
            pair = runs[2 * r:2 * r + 2]
            direct = next(x for x in pair if x["caddy_cpu_ms_per_action"] is None)
            caddy = next(x for x in pair if x is not direct)
            rounds.append({"direct": direct, "caddy": caddy, "ratios (caddy / direct)": {
                k: round(caddy[k] / direct[k], 2) if caddy[k] and direct[k] else None
                for k in ("actions_per_second", "p50_ms", "p99_ms",
                          "server_cpu_ms_per_action")}})
        result = rounds[0] if args.rounds == 1 else {"rounds": rounds}
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for k, v in result.items():
            print(f"{k:28} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
