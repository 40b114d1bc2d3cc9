"""Soak test of one ``forties serve``: does its memory level off over a long run?

    python -m bench.soak [--tables 300] [--minutes 60] [--think 1.0] [--sample 10]
                         [--warmup MIN] [--preset P] [--target N] [--json FILE]

Starts ``forties serve`` on 127.0.0.1 (a free port, a fresh SQLite database in a
temporary folder, ``bench.tables``' server) and keeps ``--tables`` tables in play for
``--minutes``: each is a private table of four people (a host and three guests by their
invites, ``bench.driver``), whose seat clients (``tests.client``) play the basic player's
move after about ``--think`` seconds each and say "ready" at each review; when its game
ends (``--target`` points: shorter games end more often) its clients leave and a new
table takes its place, so that games end and new ones start all through the run, as on a
site. The tables start spread over the first minute.

Every ``--sample`` seconds it reads the server process's resident memory (RSS, from
/proc), and prints a table of the samples and, as JSON, the summary: RSS at the end of
the warm-up (``--warmup`` minutes, a fifth of the run by default) and at the end, the
least-squares slope of the RSS after the warm-up in MB a minute, the moves played and
the games ended and started, the errors (refusals) and reconnections. Everything stays
on the loopback interface and ends within the time given (and a minute to stop).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import driver
from .tables import Server

TABLES_MAX = 2000
MINUTES_MAX = 24 * 60.0


@dataclass
class Stats:
    """What the tables did so far."""

    started: int = 0
    ended: int = 0
    moves: int = 0
    errors: int = 0
    reconnections: int = 0
    error_messages: set[str] = field(default_factory=set)
    running: int = 0


def basic_move(view: dict[str, Any]) -> str:
    """The basic computer player's move for ``view`` (games of sensible length: random
    bidding can throw hands in for a long time)."""
    from forties.actions import Action
    from forties.table import computer_choice

    legal = [Action.parse(a) for a in view["legal"]]
    return str(computer_choice("basic", str(view["version"]), view, legal))


async def keep_a_table(http: Any, ws_base: str, preset: str, options: dict[str, Any],
                       think: float, start_after: float, deadline: float,
                       stats: Stats, rng: random.Random) -> None:
    """One place at the site until ``deadline``: a table played to its end by its four
    people, who then leave; then another."""
    import httpx

    from tests.client import SeatClient

    await asyncio.sleep(start_after)
    while time.monotonic() < deadline:
        try:
            table, tokens = await driver.make_table(http, preset, True, options)
        except httpx.HTTPError as e:  # (counted; the place tries again)
            stats.errors += 1
            stats.error_messages.add(f"a new table: {e!r}")
            await asyncio.sleep(1.0)
            continue
        stats.started += 1
        stats.running += 1
        clients = []
        for seat in sorted(tokens):
            c = SeatClient(ws_base, table, tokens[seat], keep_frames=False)
            c.think = think
            c.rng = random.Random(rng.random())
            if seat == 0:  # one seat counts the table's moves
                c.on_frame = lambda _c, f: _count(stats, f)
            clients.append(c.autoplay(basic_move))
        for c in clients:
            c.start()
        try:
            await clients[0].wait_for(lambda c: c.over,
                                      timeout=max(0.1, deadline - time.monotonic()))
            stats.ended += 1
        except TimeoutError:
            pass  # the run is over: the game with it
        finally:
            stats.running -= 1
            for c in clients:
                stats.errors += len(c.errors)
                stats.error_messages.update(f"{e.get('code')}: {e.get('message')}"
                                            for e in c.errors)
                stats.reconnections += max(0, c.connections - 1)
            await asyncio.gather(*(c.stop() for c in clients), return_exceptions=True)


def _count(stats: Stats, frame: dict[str, Any]) -> None:
    if frame.get("type") == "event" and frame["event"].get("kind") == "act":
        stats.moves += 1


def rss_parts_mb(pid: int) -> dict[str, float]:
    """The resident memory of process ``pid`` by kind, in MB: anonymous (the heap: Python's
    objects, the C allocator's arenas, SQLite's page cache), file-backed (the program's and
    libraries' pages, mapped files) and shared (SQLite's WAL index); empty if it is gone."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return {}
    out = {}
    for key, name in (("RssAnon", "anon_mb"), ("RssFile", "file_mb"), ("RssShmem", "shmem_mb")):
        m = re.search(key + r":\s+(\d+) kB", text)
        if m:
            out[name] = round(int(m.group(1)) / 1024, 1)
    return out


def slope(points: list[tuple[float, float]]) -> float | None:
    """The least-squares slope of ``points`` (x, y); None with fewer than two."""
    if len(points) < 2:
        return None
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if sxx == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in points) / sxx


# two-sided 95% points of Student's t, by degrees of freedom (the block fit's)
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
       9: 2.262, 10: 2.228}


def slope_interval(points: list[tuple[float, float]], blocks: int = 6
                   ) -> tuple[float, float] | None:
    """A 95% interval for the slope of ``points`` (x, y; in x's order) that does not take
    neighbouring samples for independent (memory read every few seconds is not): the
    points cut into ``blocks`` runs of consecutive samples, the line fitted to the runs'
    means, and its slope's standard error times Student's t with ``blocks`` - 2 degrees of
    freedom. None with fewer than two samples a block."""
    if not 3 <= blocks <= 12 or len(points) < 2 * blocks:
        return None
    n = len(points)
    means = []
    for b in range(blocks):
        run_ = points[b * n // blocks:(b + 1) * n // blocks]
        means.append((sum(x for x, _ in run_) / len(run_), sum(y for _, y in run_) / len(run_)))
    k = len(means)
    mx = sum(x for x, _ in means) / k
    my = sum(y for _, y in means) / k
    sxx = sum((x - mx) ** 2 for x, _ in means)
    if sxx == 0:
        return None
    b1 = sum((x - mx) * (y - my) for x, y in means) / sxx
    b0 = my - b1 * mx
    resid = sum((y - b0 - b1 * x) ** 2 for x, y in means)
    half = T95[k - 2] * (resid / (k - 2) / sxx) ** 0.5
    return (b1 - half, b1 + half)


async def run(tables: int, minutes: float, think: float, sample: float, warmup: float,
              preset: str, target: int | None, trace: str | None = None) -> dict[str, Any]:
    import httpx

    driver.raise_file_limit()
    server = (Server() if trace is None else
              Server(module="bench.memtrace",
                     extra_env={"FORTIES_MEMTRACE": str(Path(trace).resolve()),
                                "FORTIES_MEMTRACE_EVERY": str(max(sample, 30.0)),
                                **{k: v for k, v in os.environ.items()
                                   if k.startswith("FORTIES_MEMTRACE_")}}))
    pid = server.proc.pid
    stats = Stats()
    samples: list[dict[str, Any]] = []
    options = {"target": target} if target is not None else {}
    t0 = time.monotonic()
    deadline = t0 + 60 * minutes
    rng = random.Random(0)
    spread = min(60.0, 60 * minutes / 2)
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=60,
                                     limits=httpx.Limits(max_connections=50)) as http:
            ws_base = "ws" + server.url[4:]
            places = [asyncio.create_task(keep_a_table(
                http, ws_base, preset, options, think, spread * i / tables, deadline, stats,
                random.Random(rng.random()))) for i in range(tables)]
            while True:
                now = time.monotonic()
                rss = driver.rss_kib(pid)
                if rss is None:
                    raise SystemExit("forties: the server stopped during the soak")
                samples.append({"seconds": round(now - t0, 1), "rss_mb": round(rss / 1024, 1),
                                "moves": stats.moves, "started": stats.started,
                                "ended": stats.ended, "running": stats.running,
                                "load": round(os.getloadavg()[0], 2), **rss_parts_mb(pid)})
                if now >= deadline:
                    break
                await asyncio.sleep(min(sample, max(0.0, deadline - now)))
            done = await asyncio.gather(*places, return_exceptions=True)
            failed = [repr(d) for d in done if isinstance(d, BaseException)]
    finally:
        server.stop()
    settled = [(s["seconds"] / 60, s["rss_mb"]) for s in samples if s["seconds"] >= 60 * warmup]
    first = next((s for s in samples if s["seconds"] >= 60 * warmup), samples[-1])
    rate = slope(settled)
    interval = slope_interval(settled)
    moves_after = samples[-1]["moves"] - first["moves"]
    minutes_after = (samples[-1]["seconds"] - first["seconds"]) / 60
    loads = [s["load"] for s in samples]
    return {
        "tables": tables, "minutes": minutes, "think": think, "preset": preset,
        "target": target, "sample_seconds": sample, "warmup_minutes": warmup,
        "rss_mb_after_warmup": first["rss_mb"], "rss_mb_at_end": samples[-1]["rss_mb"],
        "rss_mb_max": max(s["rss_mb"] for s in samples),
        "slope_mb_per_minute": None if rate is None else round(rate, 3),
        "slope_mb_per_hour_95": None if interval is None else
        [round(60 * interval[0], 2), round(60 * interval[1], 2)],
        # the slope as bytes for each move played after the warm-up
        "bytes_per_move": None if rate is None or moves_after <= 0 else
        round(rate * 2**20 * minutes_after / moves_after, 1),
        "load_average": [min(loads), round(sum(loads) / len(loads), 2), max(loads)],
        "moves": stats.moves, "games_started": stats.started, "games_ended": stats.ended,
        "errors": stats.errors, "error_messages": sorted(stats.error_messages)[:5],
        "reconnections": stats.reconnections, "failures": failed[:3],
        "machine": driver.machine(), "samples": samples,
    }


def table_text(result: dict[str, Any]) -> str:
    """The samples as a table (at most about 30 rows), then the summary."""
    rows = result["samples"]
    step = max(1, len(rows) // 30)
    shown = rows[::step] + ([rows[-1]] if (len(rows) - 1) % step else [])
    out = [f"{'minute':>7} {'RSS MB':>8} {'anon MB':>8} {'moves':>9} {'running':>8} "
           f"{'started':>8} {'ended':>6} {'load':>5}"]
    for s in shown:
        out.append(f"{s['seconds'] / 60:>7.1f} {s['rss_mb']:>8.1f} {s.get('anon_mb', 0):>8.1f} "
                   f"{s['moves']:>9} {s['running']:>8} {s['started']:>8} {s['ended']:>6} "
                   f"{s['load']:>5.1f}")
    rate = result["slope_mb_per_minute"]
    iv = result["slope_mb_per_hour_95"]
    out.append(f"RSS after the warm-up ({result['warmup_minutes']:g} min) "
               f"{result['rss_mb_after_warmup']} MB, at the end {result['rss_mb_at_end']} MB, "
               f"slope since the warm-up "
               f"{'n/a' if rate is None else f'{rate:+.3f}'} MB a minute"
               f"{'' if iv is None else f' (95%: {iv[0]:+.1f} to {iv[1]:+.1f} MB an hour)'}; "
               f"{result['games_ended']} games ended, {result['games_started']} started, "
               f"{result['moves']} moves, {result['errors']} errors")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.soak",
                                 description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--tables", type=int, default=300, help="tables in play at once (300)")
    ap.add_argument("--minutes", type=float, default=60.0, help="length of the run (60)")
    ap.add_argument("--think", type=float, default=1.0,
                    help="seconds a player takes to choose, about (1.0)")
    ap.add_argument("--sample", type=float, default=10.0,
                    help="seconds between two readings of the server's memory (10)")
    ap.add_argument("--warmup", type=float, default=None,
                    help="minutes before the memory counts (default: a fifth of the run)")
    ap.add_argument("--preset", default="merrimack-valley")
    ap.add_argument("--target", type=int, default=None,
                    help="the games' target score (default: the preset's)")
    ap.add_argument("--json", dest="json_path", default=None,
                    help="also write the result, every sample with it, here")
    ap.add_argument("--trace", default=None, metavar="DIR",
                    help="run the server with Python's allocations traced (bench.memtrace),"
                         " its samples and snapshots written in DIR (slower: for finding "
                         "what grows, not for the figures)")
    args = ap.parse_args(argv)
    warmup = args.minutes / 5 if args.warmup is None else args.warmup
    bad = None
    if not 1 <= args.tables <= TABLES_MAX:
        bad = f"--tables must be from 1 to {TABLES_MAX}"
    elif not 0 < args.minutes <= MINUTES_MAX:
        bad = f"--minutes must be above 0 and at most {MINUTES_MAX:g}"
    elif not 0 <= args.think <= 60:
        bad = "--think must be from 0 to 60 seconds"
    elif not 0.2 <= args.sample <= 600:
        bad = "--sample must be from 0.2 to 600 seconds"
    elif not 0 <= warmup < args.minutes:
        bad = "--warmup must be 0 or more and shorter than the run"
    elif args.target is not None and not 5 <= args.target <= 10000:
        bad = "--target must be from 5 to 10000"
    if bad:
        print(f"forties: {bad}", file=sys.stderr)
        return 2
    try:
        result = asyncio.run(run(args.tables, args.minutes, args.think, args.sample, warmup,
                                 args.preset, args.target, args.trace))
    except KeyboardInterrupt:
        print("forties: stopped", file=sys.stderr)
        return 1
    print(table_text(result))
    summary = {k: v for k, v in result.items() if k != "samples"}
    print(json.dumps(summary))
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
