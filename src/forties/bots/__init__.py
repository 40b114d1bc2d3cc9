"""Computer players. They see a game only through the public API: the legal actions
and the per-seat view."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action
from ..record import Recorder


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


def play_out(rec: Recorder, rng: random.Random, max_hands: int = 500) -> None:
    """Computer players play ``rec``'s game to its end (or ``max_hands`` hands)."""
    bot = RandomBot(rng)
    st = rec.state
    hands = 1
    while True:
        while not st.hand_over:
            rec.apply(bot.choose(st.legal_actions()))
        if st.over or hands >= max_hands:
            return
        rec.next_hand()
        hands += 1
