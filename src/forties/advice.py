"""Hints and pars for a game in progress, the one place both clients get them: the
expert's suggestion for the seat to act (``hint``; the web's answer, ``hint_json``) and
the double-dummy par of a hand at its first lead (``par``; the web's, ``par_json``). The
web runs them in its worker processes, the terminal on a thread; the expert and the
solver load when first asked."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .actions import Action, Verb
from .bots.basic import strength
from .cards import SUITS, mask_of_names, parse_card
from .fortyfives import TRUMPS, trick_winner_index
from .players import make_bot
from .reasons import reason
from .rules import Rules
from .state import Deal, GameState

if TYPE_CHECKING:
    from .analysis import Hint, Par


@dataclass(frozen=True)
class Advice:
    """A suggested action, why (in a player's words, the action not named again), and
    who suggests it ("expert" or "basic")."""

    action: Action
    explanation: str
    source: str


def expert_hint(state: GameState, seat: int, worlds: int = 24) -> Hint:
    """The expert's advice for ``seat`` (``forties.analysis.hint``)."""
    from .analysis import hint

    return hint(state, seat, worlds=worlds)


def solver_par(state: GameState, budget: int | None = None) -> Par | None:
    """The double-dummy par of the hand (``forties.analysis.par``)."""
    from .analysis import par as solve

    return solve(state, budget)


def hint(state: GameState, seat: int) -> Advice:
    """The expert's suggestion for ``seat`` and why; the basic player's, with its short
    reason, when the expert fails or suggests what the rules refuse (a hint key must
    never end a game, nor suggest an illegal action)."""
    try:
        got = expert_hint(state, seat)
        action = got.action if isinstance(got.action, Action) else \
            Action.parse(str(got.action))
    except Exception:  # (see the docstring: the game goes on with the basic player's)
        got = None
    if got is not None and state.reason(action) is None:
        why = str(getattr(got, "reason", "") or got.explanation)
        words = str(action).split(" ", 1)[1]
        if why.startswith(words + ": "):  # "play 2C: worth ..." says the action twice
            why = why[len(words) + 2:]
        return Advice(action, why.rstrip("."), "expert")
    view = state.view(seat)
    action = make_bot("basic", random.Random(0)).choose(view, state.legal_actions())
    return Advice(action, basic_reason(view, action), "basic")


def hint_json(state: GameState, seat: int) -> dict[str, Any]:
    """The web's hint: the expert's action, its explanation, every option's value (best
    first), one reason from what the seat sees (``forties.reasons``: a code and its params,
    which the page says in the reader's words), and, where the action is not the best by
    its value, why (``prefers``: "game", the better chance of winning the game; "sound",
    the usual choice kept where the values are too close to leave it)."""
    got = expert_hint(state, seat, worlds=16)
    action = got.action if isinstance(got.action, Action) else Action.parse(str(got.action))
    ranked = sorted(got.values.items(), key=lambda kv: -kv[1])
    prefers = None
    if ranked and ranked[0][0] != action and ranked[0][1] > got.values.get(action, -1e9):
        prefers = "game" if getattr(got, "for_game", False) else "sound"
    return {"action": str(action), "text": got.explanation,
            "values": [{"action": str(a), "points": round(v, 1)} for a, v in ranked],
            "reason": reason(state.view(seat), action), "prefers": prefers}


def par(state: GameState, budget: int | None = None) -> Par | None:
    """The par of the hand at its first lead, or None when the solver has no answer for
    this hand (thrown in, no bidder) or this game."""
    try:
        return solver_par(state, budget)
    except (TypeError, ValueError, NotImplementedError):  # no solver for this game (yet)
        return None


def par_json(state: GameState, budget: int | None = None) -> dict[str, Any] | None:
    """The web's par: the side, its points and the words; Forty One's teams too."""
    got = par(state, budget)
    if got is None:
        return None
    out: dict[str, Any] = {"side": list(got.side), "points": got.points, "text": got.text}
    if got.teams:  # Forty One: both partnerships, each with its seats' bids
        out["teams"] = [{"seats": list(tm.seats), "tricks": tm.tricks, "bids": list(tm.bids)}
                        for tm in got.teams]
        out["exact"] = got.exact
    return out


def basic_reason(view: dict[str, Any], a: Action) -> str:
    """A short reason for the basic player's choice, in a player's words."""
    phase = view["phase"]
    if view["game"] == "forty-one":
        if phase == "auction":
            return "your aces, kings and long hearts promise about that many tricks"
        return "win cheaply while you still need tricks, else keep out of the way"
    hand = mask_of_names(view["hand"])
    if phase == "auction":
        best = max(strength(hand, t) for t in range(4))
        worth = f"your hand alone is worth about {round(best / 5) * 5} points in its best suit"
        if a.verb is Verb.PASS:
            return worth + ": not enough to bid"
        return worth + ", with help expected from the kitty and your partner"
    if phase == "trump":
        return "your strongest suit: the most and highest trumps"
    if phase == "draw":
        return "keep your trumps (and kings if you are short of trumps); throw the rest"
    if phase == "play":
        return _play_reason(view, a)
    if phase == "raise":
        return "raise only with a hand worth 30"
    if phase == "rob":
        return "give up your least useful card for the turned-up trump"
    if phase == "call":
        return "call the best trump you do not hold"
    return "the basic player's choice"


def _play_reason(view: dict[str, Any], a: Action) -> str:
    trump = SUITS.index(view["trump"])
    card = a.arg.bit_length() - 1
    trick = [parse_card(c) for c in view["trick"]["cards"]]
    if not trick:
        if TRUMPS[trump] >> card & 1:
            return "lead your top trump to draw the others out"
        return "lead a king, or your cheapest card, and keep your trumps"
    n, leader, seat = view["players"], view["trick"]["leader"], view["seat"]
    if trick_winner_index([*trick, card], trump) == len(trick):
        return "it takes the trick so far"
    best = (leader + trick_winner_index(trick, trump)) % n
    if any(best in side and seat in side for side in view["sides"]):
        return "your partner is winning the trick: throw your cheapest card"
    return "you cannot take this trick: throw your cheapest card"


def contract_start(rules: Rules, deal: Deal, dealer: int,
                   contract: dict[str, Any]) -> GameState | None:
    """A board's hand (``deal``, ``dealer`` dealing, from 0-0) at its first lead, played in
    ``contract`` as ``forties.duplicate.check_contract`` gives it: what the double-dummy
    par of a hall table's result is worked out on (``par_json``). The Forty-Fives: the
    bidder names the trump, the kitty and the draw are taken with the basic player's
    discards (a table's own discards are not reported), so the hands at the first lead are
    those a computer would keep. Forty One: the four bids. None for a hand thrown in;
    ValueError (one line) where the bidder may not name that trump with the board's cards."""
    from .bots.simulate import simulate_contract
    from .duplicate import contract_bid
    from .fortyone import FortyOneState as FortyOne
    from .position import forty_one_position
    from .rules import FortyFivesRules, FortyOneRules

    if isinstance(rules, FortyOneRules):
        bids = list(contract["bids"])
        if sum(bids) < rules.min_total:
            return None
        hands = [sum(1 << c for c in h) for h in deal.hands]
        st: GameState = forty_one_position(rules, dealer=dealer, start_hands=hands,
                                           bids=bids, scores=[0] * 4, plays=[])
        assert isinstance(st, FortyOne)
        return st
    assert isinstance(rules, FortyFivesRules)
    if contract.get("bidder") is None:
        return None
    trump = SUITS.index(contract["trump"])
    got = simulate_contract(rules, deal, dealer, contract["bidder"],
                            contract_bid(rules, contract), trump, [0] * len(rules.sides))
    if got is None:
        raise ValueError(f"{SEAT_WORDS[contract['bidder']]} may not name that trump with "
                         "this board's cards")
    return got


SEAT_WORDS = ("North", "East", "South", "West")
