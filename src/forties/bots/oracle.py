"""``oracle``: plays every card as the double-dummy solver would, seeing every card.

It is no fair player: it measures how much perfect knowledge is worth in the play,
the ceiling against which the other levels are judged. Its bidding, trump,
discards and calls are ``basic``'s, so that the difference between oracle and
basic is the value of playing the cards with every hand seen.

Forty One: it plays every card, and bids, by the solver of Forty One's real score
(``forties.solver.score41``) on the true deal: exact over the last ``exact41``
tricks, searched ``depth41`` tricks deep before that. It bids as ``basic`` does:
bidding by the solver's value of each bid on the true deal (``bid41 = "solver"``,
the later seats bidding what their cards promise, the whole hand searched three
tricks deep and estimated beyond) lost 0.90 points a hand to ``basic``'s bids
(paired, 300 deals; see docs/lab-notes.md), the estimate beyond the horizon being
too rough to choose a bid by. ``forty_one="tricks"`` keeps the earlier oracle
(team tricks), for comparison.
"""

from __future__ import annotations

import random
from typing import Any

from ..actions import Action
from ..fortyfives import FortyFivesState
from ..fortyone import FortyOneState
from ..state import GameState, Phase
from .expert import Choice, ExpertBot, bid_by_solver

# Forty One: tricks left searched exactly, tricks searched before that.
ORACLE_EXACT_41 = 7
ORACLE_DEPTH_41 = 3


class OracleBot(ExpertBot):
    name = "oracle"
    needs_state = True

    def __init__(self, rng: random.Random, forty_one: str = "score") -> None:
        super().__init__(rng, worlds=1, deals=1, forty_one=forty_one)
        self.truth: GameState | None = None
        self.exact41 = ORACLE_EXACT_41
        self.depth41 = ORACLE_DEPTH_41
        self.bid41 = "basic"  # or "solver", "playout": see bid_by_solver

    def choose_from_state(self, state: GameState) -> Action:
        self.truth = state
        seat = state.turn
        assert seat is not None
        return self.decide(state.view(seat), state.legal_actions()).action

    def decide(self, view: dict[str, Any], legal: Any) -> Choice:
        t = self.truth
        if (isinstance(t, FortyOneState) and self.forty_one == "score" and self.bid41 != "basic"
                and t.phase is Phase.AUCTION and len(legal) > 1):
            return bid_by_solver([t.clone()], view["seat"], legal,
                                 self.exact41, self.depth41, int(self.win_bonus), self.bid41)
        if t is None or t.phase is not Phase.PLAY:
            a = self.basic.choose(view, legal)
            return Choice(a, {a: 0.0}, 0)
        return super().decide(view, legal)

    def _play_worlds(self, view: dict[str, Any]) -> list[GameState]:
        assert self.truth is not None
        return [self.truth.clone()]

    def weighs(self, view: dict[str, Any]) -> bool:
        """Never: its one deal is the true one (weighing would draw imagined deals)."""
        return False

    def _worlds_41(self, view: dict[str, Any]) -> list[GameState]:
        assert self.truth is not None
        return [self.truth.clone()]


class BlindOracleBot(OracleBot):
    """The oracle, but for the first ``blind_tricks`` tricks of a 45s hand, where it plays
    as the default expert does, from its own seat's view alone (the levels
    ``oracle-blind1`` to ``oracle-blind4``). Between the expert (every trick blind) and the
    oracle (none), it measures how much of the oracle's edge rests on seeing the cards in
    the early tricks (docs/lab-notes.md). Forty One: the oracle."""

    def __init__(self, rng: random.Random, blind_tricks: int) -> None:
        super().__init__(rng)
        if blind_tricks < 0:
            raise ValueError(f"blind_tricks is at least 0, not {blind_tricks}")
        self.blind_tricks = blind_tricks
        self.worlds = None  # the default expert's count in the blind tricks (the oracle's
        # own deal, the true one, takes no count)

    def blind(self) -> bool:
        """Whether the card to play now is chosen without seeing the others' cards."""
        t = self.truth
        return isinstance(t, FortyFivesState) and t.trick_no < self.blind_tricks

    def _play_worlds(self, view: dict[str, Any]) -> list[GameState]:
        if self.blind():
            return ExpertBot._play_worlds(self, view)
        return super()._play_worlds(view)

    def weighs(self, view: dict[str, Any]) -> bool:
        return ExpertBot.weighs(self, view) if self.blind() else False
