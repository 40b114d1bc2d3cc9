"""``python -m bench``: random full hands per second for every preset and for OpenSpiel's
euchre and spades, in one run, with the ratios the project aims at.

Each preset is played four ways: by ``GameState`` one action at a time; by the compiled
engine with 256 tables stepped at once from Python ``[vector]``; by it with one table
stepped from Python ``[vector 1]``; and by it entirely in compiled code, actions drawn
there too ``[compiled]``. OpenSpiel's games are played from Python (chance drawn among
``legal_actions()`` ``[legal]`` or ``chance_outcomes()`` ``[outcomes]``) and entirely in
C++ by its uniform random bots ``[C++]``. The ratios set each way against its like.

Rounds go through every game in turn, so a slow spell on the machine touches all of
them; each figure is the median of the rounds, and each ratio the median of the
ratios taken within a round.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import json
import os
import platform
import statistics
import sys
from collections.abc import Sequence
from typing import Any

from forties import PRESETS

from .loops import (
    CHANCES,
    DRAWS,
    VECTOR_TABLES,
    check_seeded_deals,
    check_spiel_chance,
    compiled_hands,
    compiled_steps_per_hand,
    cpp_hands,
    forties_hands,
    load_pyspiel,
    mid_game_state,
    spiel_hands,
    spiel_steps_per_episode,
    state_bytes,
    vector_hands,
)

SPIEL_GAMES = ("euchre", "spades")
VECTOR = "vector"  # a preset's row on the compiled engine: "merrimack-valley [vector]"
VECTOR_1 = "vector 1"  # the same with one table
COMPILED = "compiled"  # the compiled engine's own random play, no Python between steps
CPP = "C++"  # OpenSpiel's own random play: pyspiel.evaluate_bots, uniform random bots
# (numerator preset, denominator, the least ratio aimed at)
TARGETS = (("merrimack-valley", "euchre", 1.3), ("forty-one", "spades", 1.0))
# Which row of the preset is set against which row of OpenSpiel's game, and what it says.
COMPARISONS = (
    (VECTOR, "legal", "256 tables stepped from Python / one game driven from Python"),
    (VECTOR, "outcomes", "the same, OpenSpiel's chance drawn from chance_outcomes()"),
    (VECTOR_1, "legal", "one table stepped from Python / one game driven from Python"),
    ("", "legal", "GameState / one game driven from Python"),
    ("", "outcomes", "GameState / the same, chance from chance_outcomes()"),
    (COMPILED, CPP, "random play entirely in compiled code / entirely in C++"),
)
# Entirely compiled against entirely C++, per step: the least ratio aimed at.
STEP_TARGET = 2.0
STATE_LIMIT = 2048


def machine() -> dict[str, Any]:
    """What the figures were taken on."""
    model = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        spiel = importlib.metadata.version("open_spiel")
    except importlib.metadata.PackageNotFoundError:
        spiel = None
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "nproc": os.cpu_count(),
        "cpu": model,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "open_spiel": spiel,
    }


def per_step(pyspiel: Any, rates: dict[str, list[float]],
             ratios: dict[str, float]) -> dict[str, Any]:
    """Print (and add to ``ratios``) the entirely compiled rows against OpenSpiel's C++
    per step: each side's hand ratio (the same run's) times its steps a hand. Two counts:
    every step either side applies, OpenSpiel's chance nodes included (the deal is 22 of
    euchre's and 52 of spades'; the compiled engine deals inside one step, and its deal
    counts for nothing): the stricter; and the players' decisions alone. Returns the steps
    a hand, by row."""
    steps: dict[str, Any] = {}
    lines = []
    for num_name, den_name, _ in TARGETS:
        num, den = f"{num_name} [{COMPILED}]", f"{den_name} [{CPP}]"
        key = f"{num} / {den}"
        if key not in ratios:
            continue
        ours = compiled_steps_per_hand(num_name)
        chance, decisions = spiel_steps_per_episode(pyspiel, den_name)
        steps[num] = ours
        steps[den] = {"chance": chance, "decisions": decisions}
        strict = ratios[key] * ours / (chance + decisions)
        lenient = ratios[key] * ours / decisions
        ratios[f"{key} per step"] = strict
        ratios[f"{key} per decision"] = lenient
        ours_rate = statistics.median(rates[num]) * ours
        theirs_rate = statistics.median(rates[den]) * (chance + decisions)
        verdict = "met" if strict >= STEP_TARGET else "not met"
        lines.append(
            f"{key} per step: {strict:.2f} (target {STEP_TARGET:g}: {verdict}); "
            f"{ours_rate / 1e6:.1f} million steps a second ({ours:.1f} actions a hand, the "
            f"deal inside one) against {theirs_rate / 1e6:.1f} million ({chance:.1f} chance "
            f"nodes and {decisions:.1f} decisions an episode); per decision alone {lenient:.2f}")
    if lines:
        print()
        print("entirely compiled / entirely C++, per step (the hand ratio above times the "
              "steps a hand on each side):")
        for line in lines:
            print("  " + line)
    return steps


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m bench", description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Examples (from the repository root):\n  make bench\n  python -m bench --games "
               "merrimack-valley,euchre --rounds 3")
    p.add_argument("--seconds", type=float, default=1.0,
                   help="CPU seconds per game per round (default 1)")
    p.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    p.add_argument("--games", default="",
                   help="comma-separated presets and OpenSpiel games (default: all)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random players")
    p.add_argument("--draw", choices=DRAWS, default="float",
                   help="how an action is drawn, on both sides: int(random() * n) (default) "
                        "or randrange(n), as random.choice does")
    p.add_argument("--chance", choices=(*CHANCES, "both"), default="both",
                   help="how an OpenSpiel chance node is sampled: among legal_actions() "
                        "(the fewest calls), among chance_outcomes(), or both, a row each "
                        "(default)")
    p.add_argument("--engine", choices=("state", VECTOR, "both"), default="both",
                   help="the presets' rows: GameState one action at a time, the compiled "
                        "many-table engine (forties.vector), or both (default)")
    p.add_argument("--tables", type=int, default=VECTOR_TABLES,
                   help=f"tables the compiled engine plays at once (default {VECTOR_TABLES})")
    p.add_argument("--json", metavar="FILE", help="also write the figures to FILE as JSON")
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    pyspiel = load_pyspiel()
    names: list[str] = list(PRESETS)
    if pyspiel is not None:
        names += SPIEL_GAMES
        for name in SPIEL_GAMES:
            check_spiel_chance(pyspiel, name)
    if args.games:
        wanted = [g.strip() for g in args.games.split(",") if g.strip()]
        unknown = [g for g in wanted if g not in names]
        if unknown:
            print(f"unknown or unavailable game(s): {', '.join(unknown)}; "
                  f"games: {', '.join(names)}", file=sys.stderr)
            return 2
        names = wanted
    if args.tables < 1:
        print("--tables must be at least 1", file=sys.stderr)
        return 2
    # One row per preset and engine, and per OpenSpiel game and way of playing it.
    modes = (*(CHANCES if args.chance == "both" else (args.chance,)), CPP)
    compiled = (VECTOR, VECTOR_1, COMPILED)
    engines = {"state": ("",), VECTOR: compiled, "both": ("", *compiled)}[args.engine]
    games = [f"{g} [{m}]" if m else g
             for g in names for m in (modes if g in SPIEL_GAMES else engines)]

    def run(row: str, seconds: float, seed: int) -> tuple[int, int, float]:
        name, _, mode = row.partition(" [")
        mode = mode.rstrip("]")
        if name in SPIEL_GAMES:
            if mode == CPP:
                return cpp_hands(pyspiel, name, seconds, seed)
            return spiel_hands(pyspiel, name, seconds, seed, args.draw, mode)
        if mode == VECTOR:
            return vector_hands(name, seconds, seed, args.draw, args.tables)
        if mode == VECTOR_1:
            return vector_hands(name, seconds, seed, args.draw, 1)
        if mode == COMPILED:
            return compiled_hands(name, seconds, seed)
        return forties_hands(name, seconds, seed, args.draw)

    info = machine()
    print(f"forties bench: random full hands per CPU second, one core; median of "
          f"{args.rounds} rounds of {args.seconds:g} s per game; actions drawn by "
          + ("int(random() * n)" if args.draw == "float" else "randrange(n)"))
    print(f"{info['cpu']}, nproc {info['nproc']}, {info['implementation']} {info['python']}, "
          f"open_spiel {info['open_spiel'] or 'not installed'}, {info['date']}")
    if pyspiel is None:
        print("pyspiel is not installed (pip install -e '.[bench]'): OpenSpiel rows skipped")
    else:
        print("OpenSpiel chance nodes: [legal] draws among legal_actions() (the fewest calls "
              "into OpenSpiel), [outcomes] among chance_outcomes()")
    if args.engine != "state":
        print(f"[vector]: forties.vector, {args.tables} tables at once; each step Python draws "
              "every table's action and the compiled engine applies them all; [vector 1]: "
              "the same with one table; [compiled]: one table, VectorGame.play_random, "
              "actions drawn in compiled code")
    if pyspiel is not None:
        print("[C++]: OpenSpiel's own random play, pyspiel.evaluate_bots with "
              "make_uniform_random_bot, one call an episode")
    print(f"seeded deals checked against random.Random(...).shuffle: "
          f"{check_seeded_deals():,} decks identical")
    for row in games:  # warm up: imports, tables, caches
        run(row, 0.05, args.seed)

    rates: dict[str, list[float]] = {g: [] for g in games}
    thrown: dict[str, float] = dict.fromkeys(games, 0.0)
    for r in range(args.rounds):
        for row in games:
            hands, thrown_in, secs = run(row, args.seconds, args.seed + r)
            rates[row].append(hands / secs)
            thrown[row] += thrown_in / hands / args.rounds
        print(f"  round {r + 1}/{args.rounds}: " + ", ".join(
            f"{g} {rates[g][-1]:,.0f}" for g in games), flush=True)

    print()
    print(f"{'game':<30}{'hands/s':>10}{'min':>10}{'max':>10}  {'thrown in':>9}")
    for row in games:
        label = f"{row} OpenSpiel" if row.partition(" [")[0] in SPIEL_GAMES else row
        xs = rates[row]
        print(f"{label:<30}{statistics.median(xs):>10,.0f}{min(xs):>10,.0f}{max(xs):>10,.0f}"
              f"  {thrown[row]:>8.1%}")

    ratios: dict[str, float] = {}
    print()
    for num_name, den_name, target in TARGETS:
        for num_mode, den_mode, what in COMPARISONS:
            num = f"{num_name} [{num_mode}]" if num_mode else num_name
            den = f"{den_name} [{den_mode}]"
            if num not in rates or den not in rates:
                continue
            per_round = [a / b for a, b in zip(rates[num], rates[den], strict=True)]
            ratio = statistics.median(per_round)
            ratios[f"{num} / {den}"] = ratio
            verdict = "met" if ratio >= target else "not met"
            print(f"{num} / {den}: {ratio:.2f} (rounds {min(per_round):.2f}-"
                  f"{max(per_round):.2f}; target {target:g}: {verdict}) {what}")

    steps = per_step(pyspiel, rates, ratios)

    sizes = {p: state_bytes(mid_game_state(p)) for p in PRESETS}
    print()
    print("serialized mid-game state (to_json, compact JSON; third hand, half the tricks "
          f"played), limit {STATE_LIMIT} bytes:")
    print("  " + ", ".join(f"{p} {n} B" for p, n in sizes.items())
          + f"; largest {max(sizes.values())} B "
          + ("(met)" if max(sizes.values()) < STATE_LIMIT else "(not met)"))

    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"machine": info, "seconds": args.seconds, "rounds": args.rounds,
                       "draw": args.draw, "chance": args.chance,
                       "rates": rates, "median": {g: statistics.median(x)
                                                  for g, x in rates.items()},
                       "thrown_in": thrown, "ratios": ratios, "steps_per_hand": steps,
                       "state_bytes": sizes},
                      f, indent=1)
            f.write("\n")

    # ----- the double-dummy solver: its own figures (bench/solver.py) --------------------
    if not args.games:
        from .solver import report as solver_report

        print()
        solver_report()
        from .expert import report as expert_report

        print()
        expert_report()
    return 0


if __name__ == "__main__":
    sys.exit(main())
