"""``oracle``: the expert's search on the true deal. It sees every card (and the order
of the stock), so it is no fair player: it measures how much a player could gain from
perfect knowledge, the ceiling against which the other levels are judged."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..actions import Action
from ..rules import FortyFivesRules
from ..state import Deal, GameState
from .expert import ExpertBot


class OracleBot(ExpertBot):
    name = "oracle"
    needs_state = True

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng, worlds=1)
        self.truth: GameState | None = None

    def choose_from_state(self, state: GameState) -> Action:
        self.truth = state
        seat = state.turn
        assert seat is not None
        return self.decide(state.view(seat), state.legal_actions()).action

    def _state(self) -> GameState:
        assert self.truth is not None, "the oracle plays through choose_from_state"
        return self.truth

    def _play_worlds(self, view: dict[str, Any]) -> list[GameState]:
        return [self._state().clone()]

    def _deal_for_contract(self, rules: FortyFivesRules, seat: int, hand: int,
                           kitty_known: Sequence[str]) -> Deal:
        return self._state().deal

    def _draw_world(self, view: dict[str, Any], rules: FortyFivesRules) -> Any:
        return self._state().clone()

    def _forty_one_deal(self, seat: int, hand: int) -> Deal:
        return self._state().deal
