"""A long duplicate match that keeps every result as it comes (for `docs/benchmarks.md`).

``forties arena`` prints its figures when the match is over; a match of slow players
on a busy machine may have to stop first. This plays the same deals and games as
``forties arena A B --seed S`` (deal i and game i of seed S are the same, played by
the arena's own ``play_deal`` and ``play_game``), one at a time, appending each
result to a log, and resumes where the log stops; ``--summary`` prints what the log
holds with the arena's 95% intervals. ``--kind play`` measures the card play alone: the
same deals with the auction fixed (``play_deal_fixed``: every decision before the first
card made by ``--auction`` players, ``basic`` unless told, the same at every table).
``--share LOG`` also says what share of the margin in another log of the same deals
(the same seed) this one reaches, paired deal by deal::

    python -m forties.bench.strength oracle basic --kind deal --count 1000 --log o.jsonl
    python -m forties.bench.strength oracle basic --kind deal --log o.jsonl --summary
    python -m forties.bench.strength expert basic --kind play --count 500 --log e.jsonl
    python -m forties.bench.strength expert basic --kind play --log e.jsonl --summary \
        --share o-play.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import time

from ..arena import (
    mean_interval,
    play_deal,
    play_deal_fixed,
    play_game,
    share_interval,
    wilson_interval,
)
from ..rules import build_rules


def _read(path: str) -> list[dict[str, float]]:
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def summary(path: str, kind: str) -> str:
    rows = _read(path)
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


def share(path: str, other: str) -> str:
    """What share of ``other``'s margin this log's reaches, over the deals both hold."""
    mine = {int(r["n"]): r["x"] for r in _read(path)}
    theirs = {int(r["n"]): r["x"] for r in _read(other)}
    both = sorted(mine.keys() & theirs.keys())
    iv = share_interval([mine[n] for n in both], [theirs[n] for n in both])
    return (f"share of the margin in {other} reached, over the {len(both)} deals both "
            f"logs hold: {iv.mean:.1%} (95%: {iv.low:.1%} .. {iv.high:.1%})")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--preset", default="forty-one")
    p.add_argument("--kind", choices=("deal", "game", "play"), default="deal")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--log", required=True)
    p.add_argument("--auction", default="basic",
                   help="--kind play: the player who makes every decision before the first card")
    p.add_argument("--summary", action="store_true")
    p.add_argument("--share", metavar="LOG",
                   help="also the share of LOG's margin (the same deals) this log reaches")
    args = p.parse_args(argv)
    if not args.summary:
        rules = build_rules(args.preset)
        for i in range(len(_read(args.log)), args.count):
            t = time.perf_counter()
            if args.kind == "play":
                x = play_deal_fixed(rules, args.a, args.b, args.seed, i, args.auction)
            else:
                x = (play_deal if args.kind == "deal" else play_game)(rules, args.a, args.b,
                                                                       args.seed, i)
            with open(args.log, "a", encoding="utf-8") as f:
                f.write(json.dumps({"n": i, "x": x, "s": round(time.perf_counter() - t, 3)})
                        + "\n")
    print(f"{args.preset}: {args.a} vs {args.b}, seed {args.seed}: "
          f"{summary(args.log, args.kind)}")
    if args.share:
        print(f"  {share(args.log, args.share)}")


if __name__ == "__main__":
    main()
