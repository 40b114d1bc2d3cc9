"""What seeded arena games cost, and a fingerprint of every decision in them.

``python -m lab.gamecost A B --preset PRESET --games 500,501`` plays games 500
and 501 of ``forties arena A B --seed 1`` (each in both rotations, as the arena does)
and prints how many actions were taken, a digest of all of them in order, and the CPU
seconds the games took. Run from two checkouts (``PYTHONPATH=OTHER/src``), it measures a
change meant to make a player faster without changing it: the same digest says every
decision was the same, and the two CPU times are the gain::

    python -m lab.gamecost expert basic --preset forty-one --games 502,503,504
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import lab.levels  # noqa: F401  (the comparison players join PLAYERS)
from forties.arena import play_game
from forties.players import PLAYERS, unavailable
from forties.rules import RulesError, build_rules
from forties.state import GameState


@dataclass(frozen=True)
class Cost:
    actions: int
    digest: str
    cpu: float


def game_cost(preset: str, a: str, b: str, games: Sequence[int], seed: int = 1) -> Cost:
    """Games ``games`` of ``forties arena a b --seed seed``, each in every rotation."""
    rules = build_rules(preset)
    h = hashlib.sha256()
    count = 0

    def seen(st: GameState) -> None:
        nonlocal count
        h.update(str(st.history[-1]).encode() + b"\n")
        count += 1

    t0 = time.process_time()
    for g in games:
        play_game(rules, a, b, seed, g, on_action=seen)
    return Cost(count, h.hexdigest()[:16], time.process_time() - t0)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m lab.gamecost",
                                description="CPU and a digest of every action of seeded games")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--preset", default="forty-one")
    p.add_argument("--games", default="0", help="game numbers, comma-separated")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    try:
        games = [int(x) for x in args.games.split(",")]
        if min(games) < 0:
            raise ValueError
    except ValueError:
        print("gamecost: --games takes game numbers (0 or more) separated by commas, "
              f"not {args.games!r}", file=sys.stderr)
        return 2
    players = tuple(PLAYERS)
    for level in (args.a, args.b):
        why = (f"no player {level!r}; the players are {', '.join(players)}"
               if level not in players else unavailable(level))
        if why:
            print(f"gamecost: {why}", file=sys.stderr)
            return 2
    try:
        c = game_cost(args.preset, args.a, args.b, games, args.seed)
    except RulesError as e:
        print(f"gamecost: {e}", file=sys.stderr)
        return 2
    print(f"{args.preset}: {args.a} vs {args.b}, games {args.games} of seed {args.seed}: "
          f"{c.actions} actions, digest {c.digest}, {c.cpu:.1f} s of CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
