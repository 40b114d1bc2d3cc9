"""How often a Forty One hand is thrown in (the bids under the minimum), by the players.

``python -m lab.throwins LEVELS [HANDS] [SEED]`` plays HANDS hands (200 by
default) of whole Forty One games, LEVELS being the four seats' players in seat order,
comma separated (``basic,expert,expert,expert``: a person's seat played by ``basic``
among three experts), each game after the first from the next seed, and prints the share
of hands thrown in with its 95% interval (Wilson) and how many games ended.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass

import lab.levels  # noqa: F401  (the comparison players join PLAYERS)
from forties import new_game
from forties.arena import wilson_interval
from forties.bots import Bot, play_hand
from forties.fortyone import FortyOneState
from forties.players import make_bot
from forties.state import Phase


@dataclass(frozen=True)
class ThrowIns:
    hands: int
    thrown: int
    games: int
    seconds: float

    def text(self, levels: list[str]) -> str:
        share = wilson_interval(self.thrown, self.hands)
        return (f"{','.join(levels)}: {self.thrown} of {self.hands} hands thrown in, "
                f"{share.mean:.1%} ({share.low:.1%} .. {share.high:.1%}); "
                f"{self.games} games ended; {self.seconds:.0f} s")


def throw_ins(levels: list[str], hands: int, seed: int = 1) -> ThrowIns:
    """Play ``hands`` hands of Forty One with ``levels`` at the seats."""
    rng = random.Random(seed)
    return count(
        [make_bot(lv, rng) for lv in levels], hands, seed)


def count(bots: list[Bot], hands: int, seed: int = 1) -> ThrowIns:
    """Play ``hands`` hands of Forty One with ``bots`` at the seats."""
    began = time.process_time()
    thrown = played = games = 0
    g = new_game("forty-one", seed=seed)
    while played + thrown < hands:
        assert isinstance(g, FortyOneState)
        play_hand(g, bots)
        if g.thrown_in:
            thrown += 1
        else:
            played += 1
        if g.phase is Phase.GAME_OVER:
            games += 1
            g = new_game("forty-one", seed=seed + games)
        else:
            g.next_hand()
    return ThrowIns(played + thrown, thrown, games, time.process_time() - began)


def main(argv: list[str]) -> None:
    if not argv or len(argv) > 3:
        sys.exit("usage: python -m lab.throwins LEVELS [HANDS] [SEED]")
    levels = argv[0].split(",")
    if len(levels) != 4:
        sys.exit("LEVELS: four players, one a seat, comma separated")
    try:
        hands = int(argv[1]) if len(argv) > 1 else 200
        seed = int(argv[2]) if len(argv) > 2 else 1
        if hands < 1:
            raise ValueError("HANDS: at least 1")
        result = throw_ins(levels, hands, seed)
    except ValueError as e:
        sys.exit(f"lab.throwins: {e}")
    print(result.text(levels))


if __name__ == "__main__":
    main(sys.argv[1:])
