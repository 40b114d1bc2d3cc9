"""One card for all the imagined deals a seat cannot tell apart (45s play, the last tricks).

The expert values each card by its average, over its imagined deals, of what the
double-dummy solver makes of it. That assumes that at its next turn the seat will play
the best card *for the deal it is really in*, as if it could see the cards then: a
different card in each deal at a point where it cannot tell them apart ("strategy
fusion"). So it can prefer a line that only works because later it "guesses" right
every time.

This search, a relative of alpha-mu (Cazenave and Ventos, "The alpha-mu search
algorithm for the game of Bridge", 2019), searches the seat's own next ``m`` turns
keeping one card for all the imagined deals that agree with what it will have seen by
then:

- in each imagined deal, the other seats (partner and opponents) play the solver's best
  card for their side, as the expert already assumes they do; where several cards are
  equally good for them, one is drawn at random, so that a choice among equal cards
  tells the seat nothing about the deal;
- at its next turn the seat has seen those cards: the deals that agree with what it saw
  form one group, and the seat chooses one card for the whole group (the best on their
  weighted total), not one card for each deal;
- past its ``m``-th turn, each deal is valued by the solver alone.

With ``m = 1`` this is exactly the expert's weighted average. Alpha-mu proper also lets
each opponent choose, in each deal, the card that confuses the seat most; that search
is about fifty times dearer and is left out to keep a decision under half a second.

Used for two-side games of four seats without a called partner (the partnership
presets), near the end of the hand, where the tree is small.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..actions import Action
from ..fortyfives import FortyFivesState
from ..state import GameState
from .judge import Judge, utility


def applies(st: GameState, seat: int) -> bool:
    """Whether the search can take this position: a 45s hand of two sides of two seats
    each (so a seat's partner and opponents are the same in every imagined deal)."""
    return (isinstance(st, FortyFivesState) and st.n == 4 and len(st.sides) == 2
            and all(len(s) == 2 for s in st.sides) and not st.rules.call_partner)


class _Search:
    def __init__(self, seat: int, judge: Judge, weights: Sequence[float], win_bonus: float,
                 rng: random.Random) -> None:
        self.seat = seat
        self.judge = judge
        self.weights = weights
        self.win_bonus = win_bonus
        self.rng = rng
        self.solves = 0  # positions given to the solver (for the benchmark)
        self._utility: dict[tuple[int, tuple[int, ...]], float] = {}

    def _value(self, st: GameState, seat: int, outcome: Sequence[int]) -> float:
        """``utility`` for ``seat``'s side; in one search every imagined deal shares the
        bid, the scores and the sides, so a hand's outcome always has the same value."""
        key = (st.side_of[seat], tuple(outcome))
        v = self._utility.get(key)
        if v is None:
            v = self._utility[key] = utility(st, seat, outcome, self.win_bonus)
        return v

    def _outcomes(self, st: GameState) -> dict[Action, list[int]]:
        self.solves += 1
        return self.judge.play_outcomes(st)

    def _best(self, st: GameState) -> dict[Action, float]:
        """What each card of the seat to play is worth to its side in ``st``, by the
        solver: its side's points at the end (more is better for it, as the utility is)."""
        self.solves += 1
        # a judge that values every card at once (the solver's) has best_moves
        best: Callable[[GameState], dict[Action, float]] | None = getattr(
            self.judge, "best_moves", None)
        if best is not None:
            return best(st)
        mover = st.turn
        assert mover is not None
        return {a: self._value(st, mover, o) for a, o in self.judge.play_outcomes(st).items()}

    def advance(self, st: GameState) -> tuple[Action, ...]:
        """Play the other seats' cards in ``st`` (in place), each the solver's best for its
        side, until it is the seat's turn again or the hand is over; the cards played."""
        seen = []
        while st.turn is not None and st.turn != self.seat and not st.hand_over:
            values = self._best(st)
            top = max(values.values())
            best = [a for a in st.legal_actions() if values[a] == top]
            a = best[0] if len(best) == 1 else self.rng.choice(best)
            st.apply(a)
            seen.append(a)
        return tuple(seen)

    def totals(self, states: Sequence[GameState], idx: Sequence[int], m: int
               ) -> dict[Action, float]:
        """For each card of the seat (to play in every state of ``states``, the imagined
        deals ``idx``): its weighted total over those deals, the seat keeping one card for
        each group of deals it cannot tell apart over its next ``m - 1`` turns."""
        legal = states[0].legal_actions()
        out = dict.fromkeys(legal, 0.0)
        if m <= 1:
            for st, j in zip(states, idx, strict=True):
                outcomes = self._outcomes(st)
                for a in legal:
                    out[a] += self.weights[j] * self._value(st, self.seat, outcomes[a])
            return out
        for a in legal:
            groups: dict[tuple[Action, ...], tuple[list[GameState], list[int]]] = {}
            for st, j in zip(states, idx, strict=True):
                c = st.clone()
                c.apply(a)
                seen = self.advance(c)
                kids, sub = groups.setdefault(seen, ([], []))
                kids.append(c)
                sub.append(j)
            for kids, sub in groups.values():
                # the seat's turn again: it held m > 1 cards (``card_values`` sees to it)
                out[a] += max(self.totals(kids, sub, m - 1).values())
        return out


def card_values(worlds: Sequence[tuple[GameState, float]], seat: int, judge: Judge,
                m: int, win_bonus: float, rng: random.Random
                ) -> tuple[dict[Action, float], int]:
    """Each legal card of ``seat`` (to play in every imagined deal of ``worlds``, with their
    weights), with its value searching ``m`` turns of the seat with one card for all the
    deals it cannot tell apart; and how many positions the solver was given. ``m = 1``
    gives the expert's weighted average."""
    if not worlds:
        raise ValueError("the search needs at least one imagined deal")
    states = [w for w, _ in worlds]
    if any(st.turn != seat for st in states):
        raise ValueError(f"it is not seat {seat}'s turn in every imagined deal")
    held = states[0].hands[seat].bit_count()
    m = max(1, min(m, held))  # no turn of the seat's past its last card
    weights = [wt for _, wt in worlds]
    search = _Search(seat, judge, weights, win_bonus, rng)
    totals = search.totals(states, range(len(states)), m)
    whole = sum(weights)
    return {a: v / whole for a, v in totals.items()}, search.solves
