"""How a search player judges an imagined deal once every card is fixed.

``SolverJudge`` asks the double-dummy solver (both sides perfect);
``PlayoutJudge`` plays the hand out with a quick greedy policy. Both turn the
outcome into a utility for one seat's team: what the team gains on the score
minus what the others gain, plus a bonus for ending the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..actions import Action
from ..fortyfives import FortyFivesState
from ..fortyone import FortyOneState
from ..scoring import Outcome, score_forty_fives
from ..state import GameState
from . import simulate as sim


class Judge(Protocol):
    def outcome(self, st: GameState) -> list[int]:
        """Final points per side (Forty-Fives) or tricks per seat (Forty One)."""

    def play_outcomes(self, st: GameState) -> dict[Action, list[int]]:
        """For each legal card of the seat to play: the outcome if it is played."""


def deltas_of(st: GameState, outcome: Sequence[int]) -> list[int]:
    """Score changes of each side if the hand in ``st`` ends with ``outcome``."""
    if isinstance(st, FortyOneState):
        return [(v if outcome[s] >= (st.bids[s] or 0) else -v)
                for s in range(4) for v in [st.bid_value(st.bids[s] or 0)]]
    assert isinstance(st, FortyFivesState)
    if st.bidder < 0:
        return [p - q for p, q in zip(outcome, st.points, strict=True)] \
            if st.rules.auction == "none" else list(outcome)
    return list(hand_outcome(st, outcome).deltas)


def hand_outcome(st: FortyFivesState, outcome: Sequence[int]) -> Outcome:
    """The engine's scoring of the 45s hand bid for in ``st`` if it ends with each side's
    points ``outcome`` (the partner the one expected: ``expected_partner``)."""
    saved, saved_partner = st.points, st.partner
    st.points = list(outcome)
    st.partner = expected_partner(st)
    try:
        return score_forty_fives(st.rules, st.summary(), st.start_scores)
    finally:
        st.points, st.partner = saved, saved_partner


def expected_partner(st: FortyFivesState) -> int:
    """The bidder's partner, or in Call Your Partner before the called card is shown, its
    holder (who must show it by the second trick), if another seat holds it."""
    if st.partner >= 0 or not st.rules.call_partner or st.called <= 0 or st.trick_no >= 2:
        return st.partner
    for s in range(st.n):
        if st.hands[s] & st.called:
            return s if s != st.bidder else -1
    return -1


def utility(st: GameState, seat: int, outcome: Sequence[int],
            win_bonus: float = sim.WIN_BONUS) -> float:
    """How good ``outcome`` of the hand in ``st`` is for ``seat``'s team: its points of the
    hand over the others', and ``win_bonus`` for ending the game (0: the hand alone)."""
    mine = sim.team_of(st, seat)
    if isinstance(st, FortyFivesState) and st.bidder >= 0:
        return _auction_utility(st, seat, mine, outcome, win_bonus)
    deltas = deltas_of(st, outcome)
    others = [x for x in range(len(deltas)) if x not in mine]
    if isinstance(st, FortyOneState):
        u = float(sum(deltas[x] for x in mine) - sum(deltas[x] for x in others))
        return u + win_bonus * _forty_one_win(st, seat, deltas)
    u = sum(deltas[x] for x in mine) / len(mine) - (
        sum(deltas[x] for x in others) / len(others) if others else 0.0)
    target = st.rules.target
    now = st.scores
    if any(now[x] + deltas[x] >= target for x in mine):
        u += win_bonus
    elif any(now[x] + deltas[x] >= target for x in others):
        u -= win_bonus
    return u


def _auction_utility(st: FortyFivesState, seat: int, mine: set[int], outcome: Sequence[int],
                     win_bonus: float) -> float:
    """``utility`` of a 45s hand bid for, scored as the engine scores it: each side's score
    moves as it will (45 going back to 0 included), and the game's winner is the one the
    rules name (the bidder going out, a side shut out on the green, the highest)."""
    out = hand_outcome(st, outcome)
    moved = [a - b for a, b in zip(out.scores, st.start_scores, strict=True)]
    others = [x for x in range(len(moved)) if x not in mine]
    u = sum(moved[x] for x in mine) / len(mine) - (
        sum(moved[x] for x in others) / len(others) if others else 0.0)
    w = out.winner
    if w is not None:
        won = any(st.side_of[s] in mine for s in w) if isinstance(w, tuple) else w in mine
        u += win_bonus if won else -win_bonus
    return u


def _forty_one_win(st: FortyOneState, seat: int, deltas: Sequence[int]) -> float:
    after = [st.scores[s] + deltas[s] for s in range(4)]
    r = st.rules

    def wins(team: tuple[int, int]) -> bool:
        a, b = team
        return any(after[p] >= r.target and (not r.partner_positive or after[q] > 0)
                   for p, q in ((a, b), (b, a)))

    mine = (seat % 2, seat % 2 + 2)
    theirs = (1 - seat % 2, 3 - seat % 2)
    if wins(mine) and not wins(theirs):
        return 1.0
    if wins(theirs) and not wins(mine):
        return -1.0
    return 0.0


class PlayoutJudge:
    """Finishes each imagined hand with the greedy playout policy."""

    def outcome(self, st: GameState) -> list[int]:
        c = st.clone()
        sim.playout(c)
        if isinstance(c, FortyOneState):
            return list(c.taken)
        assert isinstance(c, FortyFivesState)
        return list(c.points)

    def play_outcomes(self, st: GameState) -> dict[Action, list[int]]:
        out = {}
        for a in st.legal_actions():
            c = st.clone()
            c.apply(a)
            out[a] = self.outcome(c)
        return out


class SolverJudge:
    """Double-dummy values: the solver's best play for both sides (playouts at a table
    of more players than the solver searches)."""

    def __init__(self, exact_tricks: int = 7, depth: int = 3) -> None:
        from .. import solver

        self.solver = solver
        self.exact_tricks = exact_tricks
        self.depth = depth

    def outcome(self, st: GameState) -> list[int]:
        if st.n > self.solver.MAX_SEATS:
            return PlayoutJudge().outcome(st)
        if isinstance(st, FortyOneState):
            seat = st.turn if st.turn is not None else 0
            team = self.solver.solve_forty_one(st, seat, exact_tricks=self.exact_tricks,
                                               depth=self.depth)
            return _split_tricks(st, seat, team)
        assert isinstance(st, FortyFivesState)
        mover = st.turn if st.turn is not None else 0
        side = st.side_of[st.bidder] if st.bidder >= 0 else st.side_of[mover]
        return self._points(st, side, self.solver.solve(st, side))

    def play_outcomes(self, st: GameState) -> dict[Action, list[int]]:
        seat = st.turn
        assert seat is not None
        if st.n > self.solver.MAX_SEATS:
            return PlayoutJudge().play_outcomes(st)
        if isinstance(st, FortyOneState):
            moves = self.solver.best_moves_forty_one(st, exact_tricks=self.exact_tricks,
                                                     depth=self.depth)
            return {a: _split_tricks(st, seat, v) for a, v in moves.items()}
        assert isinstance(st, FortyFivesState)
        side = st.side_of[seat]
        return {a: self._points(st, side, v) for a, v in self.solver.best_moves(st).items()}

    def best_moves(self, st: GameState) -> dict[Action, float]:
        """45s, four to six seats: each legal card of the seat to play, with the points
        its coalition holds at the end of the hand (more is better for that seat)."""
        return {a: float(v) for a, v in self.solver.best_moves(st).items()}

    def _points(self, st: FortyFivesState, side: int, value: int) -> list[int]:
        """A points vector in which ``side``'s coalition ends with ``value``."""
        mask, inside = self.solver.coalition_seats(st, side)
        group = [x for x in range(len(st.sides)) if any(mask >> s & 1 for s in st.sides[x])]
        total = 30 if st.bonus_card >= 0 else 25
        if st.rules.auction == "none":
            total = sum(st.points) + (5 - st.trick_no) * 5 + (
                5 if st.bonus_card >= 0 and not any(st.bonus_card in t.cards
                                                    for t in st.tricks) else 0)
        ours = value if inside else total - value
        rest = [x for x in range(len(st.sides)) if x not in group]
        pts = [0] * len(st.sides)
        for x in group:
            pts[x] = ours // len(group)
        pts[group[0]] += ours - sum(pts[x] for x in group)
        for x in rest:
            pts[x] = (total - ours) // len(rest)
        if rest:
            pts[rest[0]] += total - ours - sum(pts[x] for x in rest)
        return pts


def _split_tricks(st: FortyOneState, seat: int, team_tricks: int) -> list[int]:
    """Tricks per seat when ``seat``'s team takes ``team_tricks``: each partner gets his
    bid as far as they go (the bigger contract first), the other team the rest likewise."""
    out = [0] * 4

    def share(team: tuple[int, int], tricks: int) -> None:
        a, b = team
        ba, bb = st.bids[a] or 0, st.bids[b] or 0
        va, vb = st.bid_value(ba), st.bid_value(bb)
        if tricks >= ba + bb or (tricks >= ba and (va >= vb or tricks < bb)):
            out[a], out[b] = min(tricks, ba) + max(0, tricks - ba - bb), min(bb, tricks - ba)
            out[b] = tricks - out[a]
        elif tricks >= bb:
            out[b], out[a] = bb, tricks - bb
        else:
            out[a], out[b] = tricks, 0

    mine = (seat % 2, seat % 2 + 2)
    share(mine, team_tricks)
    share((1 - seat % 2, 3 - seat % 2), 13 - team_tricks)
    return out
