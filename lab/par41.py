"""``python -m lab.par41``: Forty One's par from the first lead, hand by hand.

For each of ``--deals`` random hands (bid at random, at the first lead): the exact
partnership solver (``forties.solver.dd41``) with the par's budget, its positions
and CPU seconds, and beside it, in the same run, the estimate the par gave before
(``solve_forty_one`` searching ``PAR_41_DEPTH`` tricks and estimating the rest):
its seconds and how far its figure is from the exact one. Then the distribution:
median, 90th percentile and worst time, and how many hands passed the budget.
``--log FILE`` keeps a line per hand (JSON) and resumes from it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

from bench.solver import forty_one_deal
from forties.analysis import PAR_41_BUDGET, PAR_41_DEPTH
from forties.fortyone import FortyOneState
from forties.solver import dd41, solve_forty_one


def first_lead(seed: int) -> FortyOneState:
    """Hand ``seed``, bid at random (by a generator seeded the same), at its first lead."""
    g = forty_one_deal(random.Random(seed), 0, seed)
    assert isinstance(g, FortyOneState)
    return g


def one(seed: int, budget: int) -> dict[str, float | int | None]:
    g = first_lead(seed)
    leader = g.turn
    assert leader is not None
    team = 5 << (leader % 2)
    n0 = dd41.nodes()
    t = time.process_time()
    exact = dd41.team_tricks(list(g.hands), leader, [], team, budget=budget)
    secs = time.process_time() - t
    nodes = dd41.nodes() - n0
    t = time.process_time()
    est = solve_forty_one(g, leader, exact_tricks=6, depth=PAR_41_DEPTH)
    est_secs = time.process_time() - t
    return {"seed": seed, "exact": exact, "nodes": nodes, "s": round(secs, 3),
            "estimate": int(est), "estimate_s": round(est_secs, 3)}


def summary(rows: list[dict[str, float | int | None]], budget: int) -> str:
    done = [r for r in rows if r["exact"] is not None]
    secs = sorted(float(r["s"] or 0) for r in rows)
    est = sorted(float(r["estimate_s"] or 0) for r in rows)
    off = [abs(int(r["estimate"] or 0) - int(r["exact"] or 0)) for r in done]

    def pct(xs: list[float], q: float) -> float:
        return xs[min(len(xs) - 1, int(q * len(xs)))]

    return (f"{len(rows)} hands: exact {len(done)}, past the budget of {budget:,} positions "
            f"{len(rows) - len(done)}\n"
            f"  exact solver, CPU s: median {statistics.median(secs):.2f}, 90th percentile "
            f"{pct(secs, 0.9):.2f}, worst {secs[-1]:.2f}; positions: median "
            f"{int(statistics.median(int(r['nodes'] or 0) for r in rows)):,}\n"
            f"  the old estimate, CPU s: median {statistics.median(est):.2f}, worst "
            f"{est[-1]:.2f}; its figure off by {statistics.mean(off):.2f} tricks on average, "
            f"exact in {sum(1 for x in off if x == 0)} of {len(off)} hands")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=40_000)
    ap.add_argument("--budget", type=int, default=PAR_41_BUDGET)
    ap.add_argument("--log")
    args = ap.parse_args(argv)
    rows: list[dict[str, float | int | None]] = []
    if args.log and os.path.exists(args.log):
        with open(args.log, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
    dd41.team_tricks([1, 2, 4, 8], 0, [], 5)  # compile or load the solver first
    for i in range(len(rows), args.deals):
        row = one(args.seed + i, args.budget)
        rows.append(row)
        print(json.dumps(row), flush=True)
        if args.log:
            with open(args.log, "a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
    print(summary(rows, args.budget))


if __name__ == "__main__":
    main()
