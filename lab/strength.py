"""A long duplicate match that keeps every result as it comes (for `docs/lab-notes.md`).

``forties arena`` prints its figures when the match is over; a match of slow players
on a busy machine may have to stop first. This plays the same deals and games as
``forties arena A B --seed S`` (deal i and game i of seed S are the same, played by
the arena's own ``play_deal`` and ``play_game``), one at a time, appending each
result to a log, and resumes where the log stops; ``--summary`` prints what the log
holds with the arena's 95% intervals. ``--kind play`` measures the card play alone: the
same deals with the auction fixed (``play_deal_fixed``: every decision before the first
card made by ``--auction`` players, ``basic`` unless told, the same at every table).
``--share LOG`` also says what share of the margin in another log of the same deals
(the same seed) this one reaches, paired deal by deal; ``--over LOG`` how much more a
hand this log's player took than another log's, both against the same opponent on the
same deals, paired deal by deal. With ``--summary``, ``--log`` may be named more than
once to pool logs of other seeds (the same match on more deals); ``--share`` and
``--over`` are then named once per log, in the same order, each paired with its own::

    python -m lab.strength oracle basic --kind deal --count 1000 --log o.jsonl
    python -m lab.strength oracle basic --kind deal --log o.jsonl --summary
    python -m lab.strength expert basic --kind play --count 500 --log e.jsonl
    python -m lab.strength expert basic --kind play --log e.jsonl --summary \
        --share o-play.jsonl
    python -m lab.strength expert basic --kind play --log e.jsonl --summary \
        --over e-before.jsonl
    python -m lab.strength expert basic --summary --log e1.jsonl --log e7.jsonl \
        --share o1.jsonl --share o7.jsonl

``--jobs N`` plays the deals (or games) the log lacks in N worker processes; each
result is appended as soon as it is known, in whatever order they finish, so the log
is keyed by ``n``, not by its order, and a match stopped at any moment keeps every
deal finished. The solvers are compiled (or loaded from numba's cache) once, before
the workers start, and shared with them where the platform can fork. ``--stop-after
SECONDS`` ends the match after that long (the deals then in hand are dropped, to be
played by the next run on the same log); Ctrl-C ends it the same way. The match needs
only numpy and numba besides the package's own sources, so a borrowed machine with many
cores can run it from a clone without installing anything else::

    PYTHONPATH=src python -m lab.strength expert basic --preset merrimack-valley \
        --count 2000 --jobs 16 --stop-after 600 --log e.jsonl
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

import lab.levels  # noqa: F401  (the comparison players join PLAYERS)
from forties.arena import (
    mean_interval,
    play_deal,
    play_deal_fixed,
    play_game,
    share_interval,
    wilson_interval,
)
from forties.players import PLAYERS, unavailable
from forties.rules import Rules, RulesError, build_rules

# Players that never search with the compiled solvers: nothing to warm up for them.
UNCOMPILED = ("random", "basic")


def _read(path: str) -> list[dict[str, float]]:
    """The log's lines; a last line cut short (a run killed while writing it) is left out."""
    if not os.path.exists(path):
        return []
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                if line.endswith("\n"):
                    raise
    return rows


def _paths(paths: str | Sequence[str]) -> list[str]:
    return [paths] if isinstance(paths, str) else list(paths)


def _margins(paths: Sequence[str]) -> dict[tuple[int, int], float]:
    """Each deal's (or game's) result in the logs, keyed by the log's place and ``n``."""
    return {(i, int(r["n"])): r["x"] for i, path in enumerate(paths) for r in _read(path)}


def summary(paths: str | Sequence[str], kind: str) -> str:
    """What the log holds (several logs: pooled), with the arena's 95% intervals."""
    rows = [r for path in _paths(paths) for r in _read(path)]
    xs = [r["x"] for r in rows]
    secs = sum(r["s"] for r in rows)
    if kind in ("deal", "play"):
        iv = mean_interval(xs)
        what = "deals" if kind == "deal" else "deals, the auction fixed (card play alone)"
        return (f"{len(xs)} {what}: points per hand {iv.mean:+.2f} ({iv.low:+.2f} .. "
                f"{iv.high:+.2f}), {secs:.0f} s of play")
    iv = wilson_interval(sum(xs) * 2, 2 * len(xs))
    return (f"{len(xs)} games (each in 2 rotations): won {iv.mean:.1%} ({iv.low:.1%} .. "
            f"{iv.high:.1%}), {secs:.0f} s of play")


def _paired(paths: str | Sequence[str], others: str | Sequence[str]
            ) -> tuple[list[float], list[float]]:
    """This log's results and the other's over the deals both hold, deal by deal (several
    logs: each with the other log in its place)."""
    mine, theirs = _margins(_paths(paths)), _margins(_paths(others))
    both = sorted(mine.keys() & theirs.keys())
    return [mine[k] for k in both], [theirs[k] for k in both]


def _named(others: str | Sequence[str]) -> str:
    return " + ".join(_paths(others))


def share(paths: str | Sequence[str], others: str | Sequence[str]) -> str:
    """What share of ``others``' margin this log's reaches, over the deals both hold."""
    xs, ys = _paired(paths, others)
    iv = share_interval(xs, ys)
    return (f"share of the margin in {_named(others)} reached, over the {len(xs)} deals "
            f"both logs hold: {iv.mean:.1%} (95%: {iv.low:.1%} .. {iv.high:.1%})")


def over(paths: str | Sequence[str], others: str | Sequence[str]) -> str:
    """How much more a hand this log's player took than ``others``', over the deals both
    hold (both logs against the same opponent on the same deals), paired deal by deal."""
    xs, ys = _paired(paths, others)
    diff = [x - y for x, y in zip(xs, ys, strict=True)]
    iv = mean_interval(diff)
    return (f"over {_named(others)}, the {len(diff)} deals both logs hold: {iv.mean:+.2f} a "
            f"hand (95%: {iv.low:+.2f} .. {iv.high:+.2f}), {sum(d != 0 for d in diff)} scored "
            "differently")


def missing(path: str, count: int) -> list[int]:
    """The deal (or game) numbers below ``count`` that the log does not hold yet."""
    done = {int(r["n"]) for r in _read(path)}
    return [i for i in range(count) if i not in done]


Result = tuple[int, float, float]  # a deal's number, a's result and the seconds of play

# What a worker plays: set in each worker by _serve (and in the parent for --jobs 1).
_MATCH: dict[str, Any] = {}


def _play(i: int) -> Result:
    """Deal (or game) ``i`` of the match: its number, ``a``'s result and the seconds."""
    m = _MATCH
    t = time.perf_counter()
    if m["kind"] == "play":
        x = play_deal_fixed(m["rules"], m["a"], m["b"], m["seed"], i, m["auction"])
    elif m["kind"] == "deal":
        x = play_deal(m["rules"], m["a"], m["b"], m["seed"], i)
    else:
        x = play_game(m["rules"], m["a"], m["b"], m["seed"], i)
    return i, x, round(time.perf_counter() - t, 3)


def _results(todo: list[int], jobs: int, deadline: float | None) -> Iterator[Result]:
    """The results of ``todo`` as they finish; past ``deadline`` (a perf_counter time), no
    more (with --jobs 1 the deal in hand is finished first)."""
    if jobs == 1:
        for i in todo:
            if deadline is not None and time.perf_counter() >= deadline:
                raise TimeoutError
            yield _play(i)
        return
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    # Workers of our own, one pipe each, rather than ``multiprocessing.Pool``: a pool's
    # ``terminate()`` can hang (CPython issues 78178, 73945, 96995), and a Ctrl-C must
    # always end the match. Each worker holds one deal at a time.
    try:  # the workers ignore Ctrl-C from their first moment (it reaches them all)
        before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: the worker's set-up does it
        before = None
    procs: list[Any] = []
    busy: dict[Any, int] = {}  # each worker's pipe, and the deal it is playing
    rest = iter(todo)

    def hand_out(conn: Any) -> None:
        """Send the worker on ``conn`` the next deal, or let it rest if none is left."""
        nxt = next(rest, None)
        if nxt is None:
            busy.pop(conn, None)
        else:
            conn.send(nxt)
            busy[conn] = nxt

    try:  # the workers are stopped however this ends, even half started
        try:
            for _ in range(min(jobs, len(todo))):
                mine, theirs = ctx.Pipe()
                proc = ctx.Process(target=_serve, args=(theirs, dict(_MATCH)), daemon=True)
                proc.start()
                theirs.close()
                procs.append(proc)
                hand_out(mine)
        finally:
            if before is not None:
                signal.signal(signal.SIGINT, before)
        while busy:
            # waits of at most a second, so that Ctrl-C is seen at once
            wait = 1.0 if deadline is None else min(1.0, deadline - time.perf_counter())
            if wait <= 0:
                raise TimeoutError
            for conn in multiprocessing.connection.wait(list(busy), timeout=wait):
                assert isinstance(conn, multiprocessing.connection.Connection)
                try:
                    r = conn.recv()
                except EOFError:
                    raise RuntimeError(f"a worker stopped while playing {busy[conn]}") from None
                if isinstance(r, BaseException):
                    raise r
                hand_out(conn)
                yield r
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.join(5)
            if proc.is_alive():
                proc.kill()
                proc.join()


def _serve(conn: Any, match: dict[str, Any]) -> None:
    """A worker: plays each deal (or game) number it is sent, sending back its result (or
    the error it raised), until the pipe closes. Ctrl-C is the parent's to handle."""
    _MATCH.update(match)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            i = conn.recv()
        except (EOFError, OSError):
            return
        try:
            r: Result | BaseException = _play(i)
        except Exception as e:  # sent to the parent, which raises it
            r = e
        conn.send(r)


def _drop_cut_line(path: str) -> None:
    """Take off the end of the log a line cut short (a run killed while writing it)."""
    if not os.path.exists(path):
        return
    with open(path, "rb+") as f:
        data = f.read()
        if data and not data.endswith(b"\n"):
            f.truncate(data.rfind(b"\n") + 1)


def play(path: str, count: int, jobs: int = 1, stop_after: float | None = None) -> str | None:
    """Play the deals (or games) below ``count`` the log lacks, appending each result as it
    comes. None when all are played; else why the match stopped short."""
    todo = missing(path, count)
    if not todo:
        return None
    start = time.perf_counter()
    deadline = None if stop_after is None else start + stop_after
    if jobs > 1 and not {_MATCH["a"], _MATCH["b"], _MATCH["auction"]} <= set(UNCOMPILED):
        from forties.warmup import warm_up

        warm_up()  # compiled once here, shared with the workers (or loaded from the cache)
    played = 0
    _drop_cut_line(path)
    with open(path, "a", encoding="utf-8") as f:
        try:
            for i, x, secs in _results(todo, jobs, deadline):
                f.write(json.dumps({"n": i, "x": x, "s": secs}) + "\n")
                f.flush()
                played += 1
        except TimeoutError:
            why = f"stopped after {time.perf_counter() - start:.0f} s (--stop-after)"
        except KeyboardInterrupt:
            why = "interrupted"
        else:
            return None
    return f"{why}: {played} played, {len(todo) - played} of {count} left for the next run"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """One line, no usage: the mistake is what the reader needs."""
        self.exit(2, f"{self.prog}: error: {message}\n")


def _fail(message: str) -> NoReturn:
    print(f"strength: error: {message}", file=sys.stderr)
    raise SystemExit(2)


def _check_player(level: str) -> None:
    if level not in PLAYERS:
        _fail(f"unknown player {level!r}; players: {', '.join(PLAYERS)}")
    why = unavailable(level)
    if why:
        _fail(why)


def _rules(preset: str) -> Rules:
    try:
        return build_rules(preset)
    except RulesError as e:
        _fail(str(e))


def main(argv: list[str] | None = None) -> None:
    p = _Parser(prog="strength", description=__doc__.splitlines()[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--preset", default="forty-one")
    p.add_argument("--kind", choices=("deal", "game", "play"), default="deal")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--log", required=True, action="append",
                   help="the match's log; with --summary, name it again to pool more logs")
    p.add_argument("--auction", default="basic",
                   help="--kind play: the player who makes every decision before the first card")
    p.add_argument("--jobs", type=int, default=1,
                   help="worker processes playing the deals at once (default 1)")
    p.add_argument("--stop-after", type=float, metavar="SECONDS",
                   help="end the match this long after it starts (the warm-up counted), keeping "
                        "every deal finished")
    p.add_argument("--summary", action="store_true")
    p.add_argument("--share", metavar="LOG", action="append",
                   help="also the share of LOG's margin (the same deals) this log reaches; "
                        "once per --log")
    p.add_argument("--over", metavar="LOG", action="append",
                   help="also how much more a hand this log's player took than LOG's (the "
                        "same deals, the same opponent); once per --log")
    args = p.parse_args(argv)
    logs: list[str] = args.log
    if len(logs) > 1 and not args.summary:
        _fail(f"--log named {len(logs)} times: a match plays into one log (several only "
              "with --summary, to pool them)")
    for flag, others in (("--share", args.share), ("--over", args.over)):
        if others is not None and len(others) != len(logs):
            _fail(f"{flag} named {len(others)} times for {len(logs)} --log: once per log, "
                  "in the same order")
    for flag, others in (("--share", args.share), ("--over", args.over),
                         ("--log", logs if args.summary else None)):
        for other in others or ():
            if not os.path.isfile(other):
                _fail(f"{flag} {other}: no such log")
    if args.jobs < 1:
        _fail(f"--jobs {args.jobs}: at least 1 worker")
    if args.count < 0:
        _fail(f"--count {args.count}: not a number of deals")
    if args.stop_after is not None and args.stop_after < 0:
        _fail(f"--stop-after {args.stop_after:g}: not a number of seconds")
    stopped = None
    if not args.summary:
        for level in (args.a, args.b) + ((args.auction,) if args.kind == "play" else ()):
            _check_player(level)
        _MATCH.clear()
        _MATCH.update(rules=_rules(args.preset), a=args.a, b=args.b, seed=args.seed,
                      kind=args.kind, auction=args.auction if args.kind == "play" else "basic")
        stopped = play(logs[0], args.count, args.jobs, args.stop_after)
        if stopped:
            print(stopped, file=sys.stderr)
    which = f"seed {args.seed}" if len(logs) == 1 else f"{len(logs)} logs pooled"
    print(f"{args.preset}: {args.a} vs {args.b}, {which}: {summary(logs, args.kind)}")
    if args.share:
        print(f"  {share(logs, args.share)}")
    if args.over:
        print(f"  {over(logs, args.over)}")
    if stopped and stopped.startswith("interrupted"):
        raise SystemExit(130)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # Ctrl-C outside the match itself (the summary, the warm-up)
        print("interrupted", file=sys.stderr)
        raise SystemExit(130) from None
