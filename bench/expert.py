"""Decision time of the ``expert`` player at its default strength, on one core.

``python -m bench.expert [HANDS] [PRESET] [MODE]`` plays
HANDS hands of PRESET (Merrimack Valley by default; Forty One's player for the score by
default, with ``tricks`` the earlier one, ``expert-tricks``; with ``infer``, the 45s player
whose imagined deals are weighed by what the others did, ``expert-infer``; with
``alphamu``, the 45s player that plays its last cards by alpha-mu, ``expert-alphamu``;
with ``wide``, the 45s player that plays its cards on 256 imagined deals whatever the
players, ``expert-wide``; with ``narrow``, the expert of 96 deals a card, ``expert-narrow``;
with ``policy``, the 45s player that reads the opponents' cards as ``basic``'s,
``expert-policy``; with ``wide-bids``, the 45s player that values its choices before the
play on 480 imagined deals, ``expert-wide-bids``; with ``calib``, the 45s player whose
deals are weighed by the calibrated table, ``expert-calib``; with ``model``, the 45s player
that searches against ``basic``'s rule whoever its opponents are, ``expert-model``; with
``untold``, the expert told nothing of the seats, ``expert-untold``;
experts at seats 0 and 2, ``basic`` at 1 and 3, each player told so, as a table tells
it: the default expert then searches against ``basic``'s rule where the hand allows it) and
prints the median, 95th percentile and worst time of the expert's decisions, by
phase. The first decision, which loads the compiled solver, is left out.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

import lab.levels  # noqa: F401  (the modes but score are comparison players)
from forties import new_game
from forties.actions import Action
from forties.bots import Bot, play_hand
from forties.bots.basic import BasicBot
from forties.bots.expert import ExpertBot
from forties.players import make_bot

# Each mode's player, by its level's name (``players.make_bot``).
MODES: dict[str, str] = {
    "score": "expert",
    "tricks": "expert-tricks",
    "infer": "expert-infer",
    "alphamu": "expert-alphamu",
    "wide": "expert-wide",
    "narrow": "expert-narrow",
    "policy": "expert-policy",
    "types": "expert-types",
    "pool": "expert-pool",
    "partner": "expert-partner",
    "wide-bids": "expert-wide-bids",
    "calib": "expert-calib",
    "model": "expert-model",
    "untold": "expert-untold",
}


def decision_times(preset: str = "merrimack-valley", hands: int = 40,
                   mode: str = "tricks") -> dict[str, list[float]]:
    level = MODES[mode]
    by_phase: dict[str, list[float]] = {}
    g = new_game(preset, seed=0)
    warm = make_bot(level, random.Random(0), seats=["basic"] * g.n)  # (every search loaded)
    warm.choose(g.view(g.turn or 0), g.legal_actions())  # load the solver once
    play_hand(g, [BasicBot()] * g.n, to_play=True)
    if g.phase.value == "play":
        warm.choose(g.view(g.turn or 0), g.legal_actions())
    for seed in range(hands):
        g = new_game(preset, seed=10_000 + seed)
        seats = [level if s % 2 == 0 else "basic" for s in range(g.n)]
        bots: list[Bot] = [Timed(make_bot(level, random.Random(seed), seats=seats), by_phase)
                           if s % 2 == 0 else BasicBot() for s in range(g.n)]
        play_hand(g, bots)
    return by_phase


class Timed:
    """An expert whose decisions with a choice are timed (CPU seconds), by phase."""

    def __init__(self, bot: Bot, by_phase: dict[str, list[float]]) -> None:
        self.bot, self.by_phase, self.name = bot, by_phase, bot.name

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        t = time.process_time()
        a = self.bot.choose(view, legal)
        dt = time.process_time() - t
        if isinstance(self.bot, ExpertBot) and len(legal) > 1:
            self.by_phase.setdefault(view["phase"], []).append(dt)
        return a


def p95(sorted_times: list[float]) -> float:
    """The 95th percentile of ``sorted_times`` (sorted, not empty)."""
    return sorted_times[min(len(sorted_times) - 1, int(0.95 * len(sorted_times)))]


def report(preset: str = "merrimack-valley", hands: int = 40, mode: str = "tricks") -> None:
    by_phase = decision_times(preset, hands, mode)
    every = sorted(t for ts in by_phase.values() for t in ts)
    top = p95(every)
    name = MODES[mode]
    print(f"{name} decision time, {preset}, {hands} hands, {len(every)} decisions with a "
          f"choice (CPU seconds, one core): median {statistics.median(every):.3f}, "
          f"95th percentile {top:.3f} ({'met' if top <= 0.5 else 'not met'}: at most 0.5), "
          f"worst {every[-1]:.3f}")
    for phase, ts in by_phase.items():
        ts.sort()
        print(f"  {phase:<8} {len(ts):>4} decisions, median {statistics.median(ts):.3f}, "
              f"p95 {p95(ts):.3f}")


if __name__ == "__main__":
    mode = sys.argv[3] if len(sys.argv) > 3 else "score"
    if mode not in MODES:
        sys.exit(f"bench.expert: the mode is one of {', '.join(MODES)}, not {mode!r}")
    report(preset=sys.argv[2] if len(sys.argv) > 2 else "merrimack-valley",
           hands=int(sys.argv[1]) if len(sys.argv) > 1 else 40, mode=mode)
