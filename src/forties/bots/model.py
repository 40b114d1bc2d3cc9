"""A 45s hand's card play searched against a model of the opponents (``expert-model``).

The expert values each card, in each imagined deal, by the double-dummy solver: both
sides perfect from then on. Its weighing of the deals already reads each card an
opponent played as ``basic`` would have played it (``infer``). ``ModelJudge`` carries
that model into the search itself, once a seat holds at most ``cards`` cards (every card
of a hand of five, by default: most of the gain is in the first two tricks): in each
imagined deal the opponents play ``basic``'s card (``basic.play_card``, the rule
``basic`` plays by, from what that seat would know), and the seat's own side plays
the best card for itself, seeing the deal (as the expert already assumes). Earlier in
the hand, and in any game this search does not take (more than two sides, a called
partner, points scored trick by trick, 45 going back to 0), it is the solver's value.

The level ``expert-model`` searches so whoever the opponents are (it measures how much of
the oracle's margin over ``basic`` comes from playing against ``basic``'s known rule; an
opponent unlike ``basic`` makes the model wrong: head to head with the expert it was
level). The default ``expert`` searches so only where the table shows both its opponents
as ``basic`` computers (``ExpertBot.models_basic``), as the people at the table see them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..actions import Action
from ..fortyfives import FortyFivesState
from ..rules import FortyFivesRules, Rules
from ..state import GameState
from .judge import Judge, SolverJudge

MODEL_CARDS = 5  # the search takes over once the seat holds this many cards or fewer


def takes(rules: Rules, n: int, sides: Sequence[Sequence[int]], bidder: int | None) -> bool:
    """Whether this search takes a hand of ``rules`` with ``n`` seats in ``sides``, bid for
    by ``bidder`` (None or -1: no one): a 45s hand of two sides of two seats, bid for,
    scored at the end of the hand, where more points are never worse for a side (the search
    keeps the card that takes most)."""
    return (isinstance(rules, FortyFivesRules) and n == 4 and len(sides) == 2
            and all(len(s) == 2 for s in sides) and not rules.call_partner
            and rules.auction != "none" and bidder is not None and bidder >= 0
            and not rules.forty_five_resets)  # there more points can be worse


def applies(st: GameState) -> bool:
    """Whether this search takes the hand of ``st`` (``takes``)."""
    return isinstance(st, FortyFivesState) and takes(st.rules, st.n, st.sides, st.bidder)


def model_outcomes(st: FortyFivesState) -> dict[Action, list[int]]:
    """For each legal card of the seat to play in ``st``: each side's points at the end of
    the hand if it is played, the opponents then playing ``basic``'s card and the seat's
    side the best card for itself (``model_kernel.search``)."""
    from . import model_kernel as mk

    seat = st.turn
    assert seat is not None
    side = st.side_of[seat]
    side_of = np.array(st.side_of, dtype=np.int64)
    bidding = np.array([any(st.bidder in s and x in s for s in st.sides) for x in range(st.n)],
                       dtype=np.bool_)
    played = 0
    for t in st.tricks:
        for c in t.cards:
            played |= 1 << c
    tn = len(st.trick_cards)
    for c in st.trick_cards:
        played |= 1 << c
    out = {}
    for a in st.legal_actions():
        hands = np.array(st.hands, dtype=np.int64)
        hands[seat] ^= a.arg
        tc = np.zeros(4, dtype=np.int64)
        tc[:tn] = st.trick_cards
        tc[tn] = a.arg.bit_length() - 1
        got = mk.search(hands, tc, tn + 1, st.trick_leader, (seat + 1) % st.n,
                        played | a.arg, st.points[0], st.points[1], st.trump, st._priv,
                        st._suit_or_trump, st._hearts_on_hearts, st.bonus_card, side_of,
                        bidding, side)
        out[a] = [got // 256, got % 256]
    return out


class ModelJudge:
    """The solver's values, but once the seat to play holds at most ``cards`` cards in a
    hand this search takes, the opponents play ``basic``'s card (``model_outcomes``)."""

    def __init__(self, base: Judge | None = None, cards: int = MODEL_CARDS) -> None:
        self.base: Judge = base or SolverJudge()
        self.cards = cards

    def outcome(self, st: GameState) -> list[int]:
        return self.base.outcome(st)

    def play_outcomes(self, st: GameState) -> dict[Action, list[int]]:
        seat = st.turn
        if (seat is not None and applies(st) and isinstance(st, FortyFivesState)
                and st.hands[seat].bit_count() <= self.cards):
            return model_outcomes(st)
        return self.base.play_outcomes(st)
