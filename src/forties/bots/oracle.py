"""``oracle``: plays every card as the double-dummy solver would, seeing every card.

It is no fair player: it measures how much perfect knowledge is worth in the play,
the ceiling against which the other levels are judged. Its bidding, trump,
discards and calls are ``basic``'s, so that the difference between oracle and
basic is the value of playing the cards with every hand seen.
"""

from __future__ import annotations

import random
from typing import Any

from ..actions import Action
from ..state import GameState, Phase
from .expert import Choice, ExpertBot


class OracleBot(ExpertBot):
    name = "oracle"
    needs_state = True

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng, worlds=1, deals=1)
        self.truth: GameState | None = None

    def choose_from_state(self, state: GameState) -> Action:
        self.truth = state
        seat = state.turn
        assert seat is not None
        return self.decide(state.view(seat), state.legal_actions()).action

    def decide(self, view: dict[str, Any], legal: Any) -> Choice:
        if self.truth is None or self.truth.phase is not Phase.PLAY:
            a = self.basic.choose(view, legal)
            return Choice(a, {a: 0.0}, 0)
        return super().decide(view, legal)

    def _play_worlds(self, view: dict[str, Any]) -> list[GameState]:
        assert self.truth is not None
        return [self.truth.clone()]
