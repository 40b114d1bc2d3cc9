"""``python -m bench.solver``: the double-dummy solver's time per full deal.

Forty-Fives: Merrimack Valley, four players, a random deal and a random trump; a
random seat bids, takes the kitty and throws exactly it away, so the 20 cards
dealt are the 20 in play; the value the bidding side can force is solved from
the first lead. The figure is the median CPU time of one ``solve`` call, for the
compiled kernel (after a warm-up that compiles or loads it) and for the
pure-Python twin. Targets: kernel 0.3 ms, twin 15 ms.

Forty One: a random hand at the first lead searched two tricks deep (the
default bounded search), and at the eighth trick (six tricks left) exactly.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from forties import Deal, GameState, Phase, build_rules, new_game
from forties.cards import SUITS, format_mask
from forties.fortyfives import FortyFivesState
from forties.solver import kernel, solve, solve_forty_one

TARGETS_MS = {"kernel": 0.3, "python": 15.0}
clock: Callable[[], float] = time.process_time


def forty_fives_deal(rng: random.Random) -> FortyFivesState:
    """A Merrimack Valley hand at its first lead: a random deal, bidder and trump."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = tuple(tuple(deck[5 * i:5 * i + 5]) for i in range(4))
    kitty = tuple(deck[20:23])
    g = new_game(build_rules("merrimack-valley"), deal=Deal(hands, kitty, tuple(deck[23:])))
    bidder = rng.randrange(4)
    while g.phase is Phase.AUCTION:
        s = g.turn
        g.apply(f"{s} bid 15" if s == bidder else f"{s} pass")
    g.apply(f"{bidder} trump {SUITS[rng.randrange(4)]}")
    while g.phase is Phase.DRAW:
        s = g.turn
        g.apply(f"{s} discard {format_mask(g.hands[s] & sum(1 << c for c in kitty))}"
                if s == bidder else f"{s} discard")
    assert isinstance(g, FortyFivesState) and g.phase is Phase.PLAY
    return g


def forty_one_deal(rng: random.Random, tricks: int, seed: int | None = None) -> GameState:
    """A Forty One hand (dealt from ``seed``, else from a seed ``rng`` draws) bid and
    played at random by ``rng`` up to ``tricks`` tricks."""
    g = new_game(build_rules("forty-one"),
                 seed=rng.randrange(1 << 30) if seed is None else seed)
    while g.phase is not Phase.PLAY:
        if g.hand_over:
            g.next_hand()
            continue
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    while len(g.tricks) < tricks:
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    return g


def timed(call: Callable[..., int], *args: Any) -> tuple[int, float]:
    """What ``call(*args)`` returns and the CPU milliseconds it took."""
    t0 = clock()
    value = call(*args)
    return value, 1000 * (clock() - t0)


def forty_fives(deals: int, seed: int) -> dict[str, Any]:
    """Median, mean and worst CPU milliseconds per deal for each engine, and the kernel's
    nodes per deal; the two engines must agree on every deal."""
    rng = random.Random(seed)
    states = [forty_fives_deal(rng) for _ in range(deals)]
    warm = forty_fives_deal(random.Random(seed + 1))
    solve(warm, 0, "kernel")  # compile, or load the compiled code from disk
    out: dict[str, Any] = {"deals": deals}
    values: dict[str, list[int]] = {}
    for engine in ("kernel", "python"):
        nodes0 = kernel.nodes()
        ms: list[float] = []
        vals: list[int] = []
        for g in states:
            v, t = timed(solve, g, g.side_of[g.bidder], engine)
            vals.append(v)
            ms.append(t)
        values[engine] = vals
        out[engine] = {"median_ms": statistics.median(ms), "mean_ms": statistics.mean(ms),
                       "max_ms": max(ms)}
        if engine == "kernel":
            out[engine]["nodes_per_deal"] = (kernel.nodes() - nodes0) / deals
    if values["kernel"] != values["python"]:
        raise SystemExit("the kernel and the twin disagree: run the solver tests")
    return out


def forty_one(hands: int, seed: int) -> dict[str, Any]:
    """Median CPU milliseconds: a whole hand (bounded search) and six tricks left (exact)."""
    rng = random.Random(seed)
    out: dict[str, Any] = {}
    for label, tricks in (("whole hand, depth 2", 0), ("six tricks left, exact", 7)):
        states = [forty_one_deal(rng, tricks) for _ in range(hands)]
        for engine in ("kernel", "python"):
            ms = [timed(solve_forty_one, g, 0, False, 6, 2, engine)[1] for g in states]
            out[f"{label}, {engine}"] = statistics.median(ms)
    return out


def report(deals: int = 300, seed: int = 1) -> dict[str, Any]:
    """Run both benchmarks and print them; returns the figures."""
    ff = forty_fives(deals, seed)
    print(f"double-dummy solver, Merrimack Valley, 4 players, {deals} random deals solved "
          "from the first lead (CPU ms per deal):")
    for engine in ("kernel", "python"):
        f = ff[engine]
        target = TARGETS_MS[engine]
        extra = f", {f['nodes_per_deal']:,.0f} nodes/deal" if "nodes_per_deal" in f else ""
        print(f"  {engine:<7} median {f['median_ms']:.3f}  mean {f['mean_ms']:.3f}  "
              f"max {f['max_ms']:.2f}{extra}  (target {target:g}: "
              f"{'met' if f['median_ms'] <= target else 'not met'})")
    fo = forty_one(max(deals // 10, 5), seed)
    print("Forty One, seat 0's team (CPU ms, median):")
    for label, v in fo.items():
        print(f"  {label:<36} {v:.2f}")
    return {"forty_fives": ff, "forty_one": fo}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.solver",
                                description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--deals", type=int, default=300, help="deals per engine (default 300)")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals")
    args = p.parse_args(argv)
    report(args.deals, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
