"""The web server under load, on one process and on several: ``make loadtest``.

    python -m bench.load [--workers 1,2] [--via ports|workers|caddy] [--tables T]
                         [--seconds S] [--rounds R] [--loader lean|tests]
                         [--against SRC [--against-loader lean|tests]] [--json FILE]

A throwaway PostgreSQL and Redis are started on 127.0.0.1 (``tests.services``),
then, for each count N of ``--workers`` in turn, N server processes over a fresh database,
reached as ``--via`` says:

- ``ports``: N ``forties serve --db ... --redis ...`` on N ports, each client connecting
  to a process in turn (round-robin: the four seats of a table are spread over the
  processes, and each process hands over its seats of the tables another one runs);
- ``workers``: one ``forties serve --workers N`` on one port, the kernel spreading the
  connections over its processes (most seats reach a process that hands them over);
- ``caddy``: the N processes of ``ports`` behind Debian's Caddy running the shipped
  ``deploy/Caddyfile`` (plain http on a port of its own), which sends every request of a
  table to one of them by a hash of the table id in its path, so that hand-overs are
  rare.

``--tables`` tables of four people each are played by websocket clients in this process
(``bench.seats``, lean on the machine's cores, which the load generator shares with what
it measures; ``--loader tests``: the tests' ``tests.client``, as before). Every client
plays a random legal action as soon as its view offers one, and says "ready" at each
review; the review closes when all four are ready. The games go to 10,000 points
(``GAME_OPTIONS``), so that no table's game ends within a run.

Measured over ``--seconds`` after a warm-up: moves committed a second (every action in the
database, from its events), the time from a client sending its action to the moment the
last of the table's four seats hears the event of it (p50 and p99: the same measure as
``make loadtest-tables``, whose tables and players, ``bench.driver``, these are),
and the CPU time of each part (the server processes, PostgreSQL, Redis, Caddy, and this
load generator) per move, from /proc, and what the rest of the machine used meanwhile (its
busy time from /proc/stat less those parts: other people's work on a shared machine).
Bounded: the run stops after its seconds, whatever the state of the games.

``--against SRC`` runs another tree's servers too (``SRC``: its ``src`` folder, for
example of a ``git worktree`` of an older commit; ``--against-loader`` its seat clients),
in the same rounds, the two trees taking turns and the first swapped each round.

``--rounds R`` runs every count R times, the order reversed each round (1, 2, 4, then 4,
2, 1, ...), so that the counts share a busy machine's noise; each round's ratios are
given, and their medians. Beside them, the ceiling each count could reach on this
machine from the CPU a move measured: N processes carry at most N cores' worth of the
server's CPU a move, and all the parts together at most the machine's cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from forties.web.limits import Rates

from . import driver

WARMUP_SECONDS = 4.0
# Random play ends a game to 120 in a few hundred moves, seconds on a quiet machine: a
# small run's tables would all be over before it measured. Its games go to 10,000 points,
# so that every table plays through the whole run.
GAME_OPTIONS = {"target": 10000}
LIMITS = {"bot_delay": 0.0, "review_seconds": 5.0, "par": False,
          "messages_per_second": 1000.0, "message_burst": 1000.0, "grace_seconds": 30.0,
          **Rates.lifted(),
          # every loader's connection comes from this machine's one address
          "connections_per_address": 100000, "websockets_per_address": 100000,
          "connections_total": 100000}


def forties_command() -> str:
    """The ``forties`` script beside this Python."""
    here = Path(sys.executable).parent / "forties"
    return str(here) if here.exists() else "forties"


VIAS = ("ports", "workers", "caddy")


class Server:
    """One ``forties serve`` process (with ``workers``: the parent of that many)."""

    def __init__(self, db: str, redis_url: str, folder: Path, workers: int = 1,
                 src: str | None = None) -> None:
        env = {**os.environ, "FORTIES_DATA": str(folder), "FORTIES_LIMITS": json.dumps(LIMITS)}
        if src is not None:  # another tree's package (--against)
            env["PYTHONPATH"] = src
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        self.proc = subprocess.Popen(
            [forties_command(), "serve", "--port", "0", "--no-browser", "--db", db,
             "--redis", redis_url, "--workers", str(workers)], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        m = re.search(r"serving on http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            self.proc.kill()
            err = self.proc.stderr.read() if self.proc.stderr else ""
            raise RuntimeError(f"forties serve did not start: {line!r} {err[-1000:]}")
        self.port = int(m.group(1))
        self.http = f"http://127.0.0.1:{m.group(1)}"
        self.ws = f"ws://127.0.0.1:{m.group(1)}"

    def pids(self) -> list[int]:
        """The server's processes (with ``--workers``, the parent and its workers)."""
        from tests.services import children

        return [self.proc.pid, *children(self.proc.pid)]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.communicate(timeout=30)


class Caddy:
    """Debian's Caddy in front of ``servers`` on a port of its own: the shipped
    ``deploy/Caddyfile`` unchanged, imported under the tests' global options
    (``tests.caddy``), its site plain http on 127.0.0.1 (the load is the proxying, not
    TLS)."""

    def __init__(self, servers: list[Server], folder: Path) -> None:
        from tests.caddy import caddy_exe, config_text
        from tests.services import free_port, wait_for_port

        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        conf = folder / "load.caddy"
        conf.write_text(config_text(folder, self.port, free_port()), encoding="utf-8")
        env = {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"),
               "XDG_CONFIG_HOME": str(folder / "config"),
               "FORTIES_SITE": f"http://127.0.0.1:{self.port}",
               "FORTIES_UPSTREAMS": " ".join(f"127.0.0.1:{s.port}" for s in servers)}
        self.log = folder / "caddy.log"
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen([caddy_exe(), "run", "--adapter", "caddyfile",
                                          "--config", str(conf)], stdin=subprocess.DEVNULL,
                                         stdout=out, stderr=out, env=env, cwd=folder,
                                         start_new_session=True)
        try:
            wait_for_port(self.port, 30)
        except OSError:
            self.stop()
            raise RuntimeError("caddy did not start: " +
                               self.log.read_text(errors="replace")[-1000:]) from None
        self.http = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(30)


def moves_in(db: str) -> int:
    import psycopg

    with psycopg.connect(db) as conn:
        row = conn.execute("SELECT count(*) FROM events WHERE kind = 'act'").fetchone()
        return int(row[0]) if row else 0


async def one_run(workers: int, tables: int, seconds: float, pg: Any, rd: Any,
                  folder: Path, at_least: int = 0, limit: float = 60.0,
                  via: str = "ports", warmup: float = WARMUP_SECONDS,
                  lean: bool = True, src: str | None = None) -> dict[str, Any]:
    """One measured run of ``workers`` processes. The window is ``seconds`` long, or longer
    until ``at_least`` moves have been heard by every seat of their table, but never past
    ``limit`` seconds (a small run on a busy machine still measures something)."""
    import httpx
    import psycopg

    folder.mkdir(parents=True, exist_ok=True)
    name = "load_" + uuid.uuid4().hex[:10]
    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    db = pg.url.rsplit("/", 1)[0] + "/" + name
    if via == "workers":
        servers = [Server(db, rd.url, folder / f"{via}{workers}", workers, src)]
    else:
        servers = [Server(db, rd.url, folder / f"{via}{workers}-{i}", src=src)
                   for i in range(workers)]
    caddy = Caddy(servers, folder / f"caddy{workers}") if via == "caddy" else None
    fronts: list[Any] = [caddy] if caddy is not None else servers
    players: driver.Players | None = None
    try:
        async with httpx.AsyncClient(base_url=fronts[0].http, timeout=60) as api:
            made = await driver.make_tables(api, tables, "merrimack-valley", start=False,
                                            options=GAME_OPTIONS)
            # the seats of each table round-robin over the fronts (ports: the processes)
            players = driver.Players(made, [s.ws for s in fronts], lean=lean)
            await players.connect(timeout=60, play=False)
            await driver.start_tables(api, made)
            await players.play()
        await asyncio.sleep(warmup)
        parts = {"server processes": [p for s in servers for p in s.pids()],
                 "PostgreSQL": pg.pids(), "Redis": [rd.pid]}
        if caddy is not None:
            parts["Caddy"] = [caddy.proc.pid]
        cpu0 = {k: driver.cpu_of(v) for k, v in parts.items()}
        busy0 = machine_busy()
        me0 = resource.getrusage(resource.RUSAGE_SELF)
        moves0, t0 = moves_in(db), time.perf_counter()
        players.measure()
        await asyncio.sleep(seconds)
        while players.actions < at_least and time.perf_counter() - t0 < limit:
            await asyncio.sleep(0.1)
        moves1, t1 = moves_in(db), time.perf_counter()
        parts["PostgreSQL"] = pg.pids()
        cpu1 = {k: driver.cpu_of(v) for k, v in parts.items()}
        busy1 = machine_busy()
        me1 = resource.getrusage(resource.RUSAGE_SELF)
        figures = players.figures(t1 - t0)
    finally:
        if players is not None:
            await players.stop()
        if caddy is not None:
            caddy.stop()
        for s in servers:
            s.stop()
    moves = moves1 - moves0
    elapsed = t1 - t0
    cpu = {k: cpu1[k] - cpu0[k] for k in parts}
    cpu["load generator"] = (me1.ru_utime + me1.ru_stime) - (me0.ru_utime + me0.ru_stime)
    others = max(0.0, busy1 - busy0 - sum(cpu.values()))
    return {"workers": workers, "via": via, "tables": tables,
            "clients": len(players.clients), "loader": "lean" if lean else "tests",
            "seconds": round(elapsed, 2), "moves": moves,
            "moves_per_second": round(moves / elapsed, 1),
            "latency_ms": {"p50": figures["p50_ms"], "p99": figures["p99_ms"],
                           "samples": figures["samples"]},
            "errors": figures["errors"], "error_messages": figures["error_messages"],
            "reconnections": figures["reconnections"],
            "cpu_ms_per_move": {k: round(1000 * v / max(1, moves), 2) for k, v in cpu.items()},
            "cpu_seconds": {k: round(v, 2) for k, v in cpu.items()},
            # the machine's other work meanwhile, in cores busy on average
            "other_cores_busy": round(others / elapsed, 2),
            "load_average": round(os.getloadavg()[0], 1)}


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (every core, user and system), from
    /proc/stat."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    ticks = [int(x) for x in fields]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle and iowait
    # guest time is counted in user time already
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def ceiling(row: dict[str, Any], cores: int) -> float:
    """The most moves a second ``row``'s count of processes could carry on ``cores`` cores
    from the CPU a move it measured: each process is one core at most (the server's CPU a
    move shared among them), and every part together fills at most every core."""
    ms = row["cpu_ms_per_move"]
    server, total = ms.get("server processes", 0.0), sum(ms.values())
    bounds = [1000.0 * cores / total] if total > 0 else []
    if server > 0:
        bounds.append(1000.0 * min(row["workers"], cores) / server)
    return round(min(bounds), 1) if bounds else 0.0


def report(rows: list[dict[str, Any]]) -> str:
    parts = list(rows[0]["cpu_ms_per_move"])
    cores = os.cpu_count() or 1
    how = {"ports": "round-robin over the processes' ports",
           "workers": "all to one port, forties serve --workers N",
           "caddy": "all to Caddy, which hashes the table id onto a process"}
    rounds = sorted({r.get("round", 1) for r in rows})
    out = [f"{rows[0]['tables']} tables of 4 people ({rows[0]['clients']} websocket clients, "
           f"{how[rows[0]['via']]}), {rows[0]['seconds']:.0f} s each"
           + (f", {len(rounds)} rounds, the order reversed each round" if len(rounds) > 1
              else "")
           + f", PostgreSQL and Redis on this machine ({cores} cores)", "",
           "| round | processes | moves/s | p50 ms | p99 ms | " +
           " | ".join(f"CPU ms/move: {p}" for p in parts) +
           " | ceiling moves/s | other work (cores) |",
           "| ---: | ---: | ---: | ---: | ---: | " + " | ".join("---:" for _ in parts) +
           " | ---: | ---: |"]
    for r in rows:
        lat = r["latency_ms"]
        out.append(f"| {r.get('round', 1)} | {r['workers']} | {r['moves_per_second']} | "
                   f"{lat['p50']} | {lat['p99']} | "
                   + " | ".join(str(r["cpu_ms_per_move"].get(p, "")) for p in parts)
                   + f" | {ceiling(r, cores)} | {r.get('other_cores_busy', '')} |")
    counts = list(dict.fromkeys(r["workers"] for r in rows))
    if len(counts) > 1:
        base = min(counts)
        out.append("")
        for n in counts:
            if n == base:
                continue
            ratios = []
            for k in rounds:
                got = {r["workers"]: r for r in rows if r.get("round", 1) == k}
                if n in got and base in got and got[base]["moves_per_second"]:
                    ratios.append(got[n]["moves_per_second"] / got[base]["moves_per_second"])
            if ratios:
                each = ", ".join(f"{x:.2f}" for x in ratios)
                out.append(f"{n} processes / {base}: {statistics.median(ratios):.2f} x the "
                           f"moves a second (same run" + (f"; each round: {each})"
                                                          if len(ratios) > 1 else ")"))
    return "\n".join(out)


def orders(counts: list[int], rounds: int) -> list[tuple[int, int]]:
    """(round, count) in the order run: the counts as given, then reversed, and so on."""
    return [(k + 1, n) for k in range(rounds)
            for n in (counts if k % 2 == 0 else counts[::-1])]


def schedule(trees: list[Any], counts: list[int], rounds: int) -> list[tuple[int, Any, int]]:
    """(round, tree, count) in the order run: in each round every tree in turn, the first
    swapped each round, and each tree's counts in that round's order (``orders``)."""
    return [(k, tree, n) for k, first in enumerate(range(rounds), 1)
            for tree in (trees if first % 2 == 0 else trees[::-1])
            for _, n in orders(counts, k)[-len(counts):]]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", default="1,2",
                    help="server processes, or a list of counts run in turn (default 1,2)")
    ap.add_argument("--via", choices=VIAS, default="ports",
                    help="how the clients reach the processes: their own ports, one port "
                         "(--workers N), or Caddy in front (default ports)")
    ap.add_argument("--tables", type=int, default=16, help="tables of four people (16)")
    ap.add_argument("--seconds", type=float, default=20.0, help="measured seconds a run (20)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="run every count this many times, the order reversed each round (1)")
    ap.add_argument("--loader", choices=("lean", "tests"), default="lean",
                    help="the seat clients: bench.seats (lean, the default) or the tests' "
                         "tests.client")
    ap.add_argument("--against", default=None, metavar="SRC",
                    help="another tree's src folder (e.g. a git worktree of an older "
                         "commit): its servers run in the same rounds, the two trees in "
                         "turn, the order swapped each round")
    ap.add_argument("--against-loader", choices=("lean", "tests"), default=None,
                    help="the seat clients of the --against runs (default: --loader's)")
    ap.add_argument("--json", dest="json_path", default=None, help="write the figures here")
    args = ap.parse_args(argv)
    try:
        counts = [int(x) for x in args.workers.split(",") if x.strip()]
    except ValueError:
        ap.error("--workers: a number of processes, or a list such as 1,2")
    if not counts or min(counts) < 1 or max(counts) > 64 or not 1 <= args.tables <= 500 \
            or not 1 <= args.seconds <= 600 or not 1 <= args.rounds <= 20:
        ap.error("--workers 1 to 64, --tables 1 to 500, --seconds 1 to 600, --rounds 1 to 20")
    if args.against is not None and not (Path(args.against) / "forties" / "web").is_dir():
        ap.error(f"--against {args.against}: not a tree's src folder (no forties/web in it)")
    trees: list[tuple[str, str | None, str]] = [("this", None, args.loader)]
    if args.against is not None:
        trees.append(("against", str(Path(args.against).resolve()),
                      args.against_loader or args.loader))

    import tempfile

    from tests.services import postgres, redis

    rows = []
    with tempfile.TemporaryDirectory(prefix="forties-load-") as folder, postgres() as pg, \
            redis() as rd:
        for k, (tree, src, loader), n in schedule(trees, counts, args.rounds):
            row = asyncio.run(one_run(n, args.tables, args.seconds, pg, rd,
                                      Path(folder) / f"{tree}{k}", via=args.via,
                                      lean=loader == "lean", src=src))
            rows.append({"round": k, "tree": tree, **row})
            print(json.dumps(rows[-1]), file=sys.stderr)
    for tree, src, _ in trees:
        if len(trees) > 1:
            print(f"\n{tree} tree ({src or 'this one'}):")
        print(report([r for r in rows if r["tree"] == tree]))
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
