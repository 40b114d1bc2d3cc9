"""Hints and analysis: the expert's advice for the seat to act, and the par of a hand.

``hint`` asks the expert what the seat to act should do and what each legal
action is worth; it sees only that seat's view, and is told nothing of the seats (it
never counts on ``basic``'s mistakes, as the expert facing two ``basic`` computers does).
``par`` replays a hand with every card seen: what the bidders (or, without a bid, the
first side) could take against the best defence; in Forty One (``par_forty_one``), the
tricks each partnership could take, beside what each of its seats bid.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action, Verb, bid_text
from .bots.expert import Choice, ExpertBot
from .cards import SUIT_NAMES
from .fortyfives import FortyFivesState
from .fortyone import FortyOneState
from .position import forty_fives_position, forty_one_position, plays_of, start_hands_of
from .state import GameState, Phase


@dataclass(frozen=True)
class Hint:
    """The expert's advice: the ``action``, what each option considered is worth in points
    of this hand (``values``: the seat's side's points over the others', averaged over the
    imagined deals; no bonus for ending the game folded in), and why, in words: ``reason``
    alone, and ``explanation`` naming the action first; ``for_game``: the action is not
    the best by this hand's points, for the better chance of winning the game."""

    action: Action
    values: dict[Action, float]
    explanation: str
    reason: str = ""
    for_game: bool = False


def hint(state: GameState, seat: int | None = None, worlds: int = 24,
         seed: int = 0, deals: int | None = None) -> Hint:
    """The expert's advice for ``seat`` (default: the seat to act): ``worlds`` imagined
    deals for a card in Forty-Fives, ``deals`` for every other choice and for Forty One's
    cards (None: the expert's own counts)."""
    seat = state.turn if seat is None else seat
    if seat is None or seat != state.turn:
        raise ValueError("it is not that seat's turn" if seat is not None else
                         "nobody is to act: the hand is over")
    view, legal = state.view(seat), state.legal_actions()
    points = _expert(seed, worlds, deals, win_bonus=0.0).decide(view, legal)
    action = points.action
    for_game = None
    if _game_may_end(state):  # ending the game may weigh more than this hand's points
        for_game = _expert(seed, worlds, deals).decide(view, legal).action
        action = for_game
    values = {a: v for a, v in points.values.items() if math.isfinite(v)}
    reason = _reason(action, Choice(points.action, values, points.samples), for_game)
    return Hint(action, values, f"{action_words(action)}: {reason}", reason,
                for_game is not None and for_game != points.action)


def _expert(seed: int, worlds: int, deals: int | None, **kw: Any) -> ExpertBot:
    bot = ExpertBot(random.Random(seed), worlds=worlds, **kw)
    if deals is not None:  # the bids, trump and discards; Forty One's bids and cards
        bot.deals = bot.bid_deals41 = bot.worlds41 = deals
    return bot


def _game_may_end(state: GameState) -> bool:
    """Whether a side could reach the game's target in this hand (60 is the most a hand
    can score: 30 for 60)."""
    return max(state.scores) + 60 >= state.rules.target


def _reason(action: Action, choice: Choice, for_game: Action | None) -> str:
    """Why ``action``, in points of this hand, saying so where it is not the best by them."""
    values = choice.values
    ranked = sorted(values, key=lambda a: -values[a])
    if choice.samples == 0 or len(ranked) < 2:
        return "the only sensible choice here."
    n = choice.samples
    best = ranked[0]
    if for_game is not None and for_game != choice.action:
        return (f"it gives your side the better chance of winning the game. For this "
                f"hand's points alone, {action_words(best)} is worth {values[best]:+.1f} "
                f"and this {values.get(action, float('nan')):+.1f} (your side's points over "
                f"the others', averaged over {n} imagined deals).")
    if action != best:  # the sound default: the search is not sure enough to leave it
        return (f"the sound choice: over {n} imagined deals {action_words(best)} comes to "
                f"{values[best]:+.1f} points this hand and this to "
                f"{values[action]:+.1f}, too close to prefer it.")
    nxt = ranked[1]
    return (f"worth {values[action]:+.1f} points this hand (your side's over the others', "
            f"averaged over {n} imagined deals); next best, {action_words(nxt)}: "
            f"{values[nxt]:+.1f}.")


def action_words(a: Action) -> str:
    """An action as a player says it, cards as written at the table: "play 10H",
    "name spades trump", "bid 30 for 60", "go alone"."""
    words = str(a).split()[1:]
    cards = " ".join(("10" + c[1:]) if c.startswith("T") else c for c in words[1:])
    verb = a.verb
    if verb is Verb.TRUMP:
        return f"name {SUIT_NAMES[a.arg]} trump"
    if verb is Verb.BID:
        return "bid " + {"30for60": "30 for 60", "60for120": "60 for 120"}.get(
            bid_text(a.arg), bid_text(a.arg))
    if verb is Verb.RAISE:
        return "raise to 30"
    if verb is Verb.CALL:
        return "go alone" if a.arg == 0 else f"call {cards}"
    if verb is Verb.DISCARD:
        return f"discard {cards}" if cards else "keep every card"
    return " ".join([words[0], cards]) if cards else words[0]


@dataclass(frozen=True)
class TeamPar:
    """Forty One: what a partnership would take with every card seen and best play."""

    seats: tuple[int, ...]
    tricks: int
    bids: tuple[int, ...]  # each seat's bid, in the order of ``seats``


@dataclass(frozen=True)
class Par:
    side: tuple[int, ...]  # the seats the figure is for
    points: int  # what they could take with every card seen (tricks in Forty One)
    text: str
    teams: tuple[TeamPar, ...] = ()  # Forty One: both partnerships, beside their bids
    exact: bool = True  # False: the solver's estimate beyond what it searched

    def words(self, names: Sequence[str] | None = None) -> str:
        """The par in a player's words, seats named by ``names`` (else "seat 1"...)."""
        if not self.teams:
            return self.text
        return forty_one_words(self.teams, self.exact, names)


PAR_41_DEPTH = 6  # Forty One's fallback estimate: tricks searched, estimated beyond
# Forty One's exact par: the most positions searched (about two minutes of a core) before
# falling back to the estimate (see docs/lab-notes.md)
PAR_41_BUDGET = 1_000_000_000


def par(state: GameState, budget: int | None = None) -> Par | None:
    """Double-dummy par of the current hand from its first lead, or None when there was
    no play (a thrown-in hand) or the solver is missing. ``budget``: Forty One's, as
    ``par_forty_one`` takes it."""
    try:
        from .solver import solve
    except ImportError:
        return None
    if not state.tricks and state.phase is not Phase.PLAY:
        return None
    if isinstance(state, FortyOneState):
        return par_forty_one(state, budget)
    assert isinstance(state, FortyFivesState)
    st = state
    pos = forty_fives_position(st.rules, dealer=st.dealer, start_hands=start_hands_of(st),
                               trump=st.trump, bidder=st.bidder, bid=st.bid,
                               scores=st.start_scores, plays=[], called=st.called,
                               up_card=st.up_card)
    who = pos.bidder if pos.bidder >= 0 else pos.turn
    assert who is not None
    side = pos.sides[pos.side_of[who]]
    pts = int(solve(pos, pos.side_of[who]))
    name = "the bidders" if pos.bidder >= 0 else "the side that led"
    return Par(side, pts, f"With all cards seen, {name} could take {pts}.")


def par_forty_one(state: GameState, budget: int | None = None) -> Par | None:
    """Forty One's par (state -> Par): with every card seen and best play from the first
    lead, the tricks each partnership would take, beside what each of its seats bid.

    Exact, from ``forties.solver.dd41`` (the partnership double-dummy solver). A hand whose
    search would pass ``budget`` positions (default ``PAR_41_BUDGET``) gets the estimate of
    ``forties.solver.solve_forty_one`` instead (``PAR_41_DEPTH`` tricks searched, the rest
    estimated), and the par says so (``exact`` False). None for a hand with no play."""
    from .solver import solve_forty_one
    from .solver.dd41 import team_tricks

    if not isinstance(state, FortyOneState):
        raise TypeError("par_forty_one is for a Forty One hand")
    if not state.tricks and state.phase is not Phase.PLAY:
        return None
    bids = [b or 0 for b in state.bids]  # all made: the hand is in play
    start = start_hands_of(state)
    leader = (state.dealer + 1) % 4
    mine = (leader % 2, leader % 2 + 2)
    theirs = (1 - leader % 2, 3 - leader % 2)
    got = team_tricks(start, leader, [], (1 << mine[0]) | (1 << mine[1]),
                      budget=PAR_41_BUDGET if budget is None else budget)
    exact = got is not None
    if got is None:
        first = forty_one_position(state.rules, dealer=state.dealer,
                                   start_hands=start, bids=bids, scores=state.start_scores,
                                   plays=[])
        got = int(solve_forty_one(first, leader, exact_tricks=6, depth=PAR_41_DEPTH))
    teams = (TeamPar(mine, got, tuple(int(bids[s] or 0) for s in mine)),
             TeamPar(theirs, 13 - got, tuple(int(bids[s] or 0) for s in theirs)))
    return Par(mine, got, forty_one_words(teams, exact, None), teams, exact)


# The par at each card of a replayed hand: Forty One's positions searched for each step
# before it is left unworked (about a fifth of a second), and for the whole hand (the late
# positions, cheap, first); the solver's estimate is not used there: it can be tricks
# away from the exact figure, which would show tricks given away that were not
STEP_41_BUDGET = 2_000_000
HAND_41_BUDGET = 20_000_000


def pars_by_card(state: GameState, step_budget: int = STEP_41_BUDGET,
                 hand_budget: int = HAND_41_BUDGET) -> list[dict[str, Any] | None]:
    """The par of a finished hand at each point of its card play, from the first lead
    (index 0) to the position after its last card (index ``len(plays)``): with every card
    seen and best play from there, tricks taken included, ``{"side": seats, "points": n}``
    (Forty-Fives: the bidders, or the side that led, as ``par``) or ``{"teams": [{"seats",
    "tricks"}, ...]}`` (Forty One: both partnerships, as ``par_forty_one``). Forty One's
    searches are bounded (``step_budget`` positions each, ``hand_budget`` for the hand,
    the last positions first): a position past them is None, never guessed. Empty for a
    hand with no play or not finished, or without the solver."""
    try:
        from .solver import solve
        from .solver.dd41 import nodes, team_tricks
    except ImportError:
        return []
    if not state.hand_over or not state.tricks:
        return []
    start, plays = start_hands_of(state), plays_of(state)
    out: list[dict[str, Any] | None] = [None] * (len(plays) + 1)
    if isinstance(state, FortyOneState):
        bids = [b or 0 for b in state.bids]
        leader = (state.dealer + 1) % 4
        mine = (leader % 2, leader % 2 + 2)
        theirs = (1 - leader % 2, 3 - leader % 2)
        left = hand_budget
        pos = forty_one_position(state.rules, dealer=state.dealer, start_hands=start,
                                 bids=bids, scores=state.start_scores, plays=plays)
        for k in range(len(plays), -1, -1):  # (from the end: each search cheaper)
            if k < len(plays):
                pos = forty_one_position(state.rules, dealer=state.dealer,
                                         start_hands=start, bids=bids,
                                         scores=state.start_scores, plays=plays[:k])
            budget = min(step_budget, left)
            if budget <= 0:
                break
            taken = sum(pos.taken[s] for s in mine)
            if pos.phase is Phase.PLAY:
                before = nodes()
                got = team_tricks(list(pos.hands), pos.trick_leader, list(pos.trick_cards),
                                  (1 << mine[0]) | (1 << mine[1]), budget=budget)
                left -= max(1, nodes() - before)
                if got is None:
                    break  # (earlier positions need more still)
                taken += got
            out[k] = {"teams": [{"seats": list(mine), "tricks": taken},
                                {"seats": list(theirs), "tricks": 13 - taken}]}
        return out
    assert isinstance(state, FortyFivesState)
    side: tuple[int, ...] = ()
    index = 0
    for k in range(len(plays) + 1):
        ff = forty_fives_position(state.rules, dealer=state.dealer, start_hands=start,
                                 trump=state.trump, bidder=state.bidder, bid=state.bid,
                                 scores=state.start_scores, plays=plays[:k],
                                 called=state.called, up_card=state.up_card)
        if k == 0:
            who = ff.bidder if ff.bidder >= 0 else ff.turn
            assert who is not None
            index = ff.side_of[who]
            side = ff.sides[index]
        out[k] = {"side": list(side), "points": int(solve(ff, index))}
    return out


def forty_one_words(teams: Sequence[TeamPar], exact: bool,
                    names: Sequence[str] | None) -> str:
    """"With every card seen and best play, seats 1 and 3 would take 7 tricks (they bid 4
    and 1), seats 2 and 4 would take 6 (they bid 3 and 5)." (``names``: seats by name)."""
    def who(seats: tuple[int, ...]) -> str:
        if names is None:
            return "seats " + " and ".join(str(s + 1) for s in seats)
        return " and ".join(names[s] for s in seats)

    parts = [f"{who(tm.seats)} would take {'about ' if not exact else ''}{tm.tricks} "
             f"trick{'s' if tm.tricks != 1 else ''} (they bid "
             f"{' and '.join(str(b) for b in tm.bids)})" for tm in teams]
    how = "With every card seen and best play" + (
        "" if exact else " (the computer's estimate, looking "
                         f"{PAR_41_DEPTH} tricks ahead)")
    return f"{how}, {', '.join(parts)}."
