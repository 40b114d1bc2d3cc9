"""Hints and analysis: the expert's advice for the seat to act, and the par of a hand.

``hint`` asks the expert what the seat to act should do and what each legal
action is worth; it sees only that seat's view. ``par`` replays a hand with
every card seen: what the bidders (or, without a bid, the first side) could
take against the best defence.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .actions import Action
from .bots.expert import ExpertBot
from .position import forty_fives_position, forty_one_position, start_hands_of
from .state import GameState, Phase


@dataclass(frozen=True)
class Hint:
    action: Action
    values: dict[Action, float]
    explanation: str


def hint(state: GameState, seat: int | None = None, worlds: int = 24,
         seed: int = 0) -> Hint:
    """The expert's advice for ``seat`` (default: the seat to act)."""
    seat = state.turn if seat is None else seat
    if seat is None or seat != state.turn:
        raise ValueError("it is not that seat's turn" if seat is not None else
                         "nobody is to act: the hand is over")
    bot = ExpertBot(random.Random(seed), worlds=worlds)
    choice = bot.decide(state.view(seat), state.legal_actions())
    ranked = sorted(choice.values.items(), key=lambda kv: -kv[1])
    if choice.samples == 0 or len(ranked) < 2:
        why = f"{_words(choice.action)}: the only sensible choice here."
    else:
        best, nxt = ranked[0], ranked[1]
        why = (f"{_words(best[0])}: worth {best[1]:+.1f} points on average over "
               f"{choice.samples} imagined deals; next best {_words(nxt[0])} "
               f"{nxt[1]:+.1f}.")
    return Hint(choice.action, choice.values, why)


def _words(a: Action) -> str:
    text = str(a)
    return text.split(" ", 1)[1] if " " in text else text


@dataclass(frozen=True)
class Par:
    side: tuple[int, ...]  # the seats the figure is for
    points: int  # what they could take with every card seen (tricks in Forty One)
    text: str


def par(state: GameState) -> Par | None:
    """Double-dummy par of the current hand from its first lead, or None when there was
    no play (a thrown-in hand) or the solver is missing."""
    try:
        from .solver import solve
    except ImportError:
        return None
    if not state.tricks and state.phase is not Phase.PLAY:
        return None
    start = start_hands_of(state)
    if state.game == "forty-one":
        pos41 = forty_one_position(state.rules, dealer=state.dealer,  # type: ignore[arg-type]
                                 start_hands=start, bids=state.bids,  # type: ignore[attr-defined]
                                 scores=state.start_scores, plays=[])
        leader = (state.dealer + 1) % 4
        team = (leader % 2, leader % 2 + 2)
        pts = int(solve(pos41, leader))
        return Par(team, pts, f"With all cards seen, seats {team[0]} and {team[1]} "
                   f"could take {pts} tricks.")
    st = state
    pos = forty_fives_position(st.rules, dealer=st.dealer, start_hands=start,  # type: ignore[arg-type]
                               trump=st.trump, bidder=st.bidder,  # type: ignore[attr-defined]
                               bid=st.bid, scores=st.start_scores, plays=[],  # type: ignore[attr-defined]
                               called=st.called, up_card=st.up_card)  # type: ignore[attr-defined]
    who = pos.bidder if pos.bidder >= 0 else pos.turn
    assert who is not None
    side = pos.sides[pos.side_of[who]]
    pts = int(solve(pos, pos.side_of[who]))
    name = "the bidders" if pos.bidder >= 0 else "the side that led"
    return Par(side, pts, f"With all cards seen, {name} could take {pts}.")
