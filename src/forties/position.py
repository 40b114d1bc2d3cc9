"""Play positions built from what a seat knows plus a guess at the hidden cards.

A search player imagines the unseen hands ("worlds") and needs a real game
state for each, in the play phase, to solve. ``forty_fives_position`` and
``forty_one_position`` build one from the holdings at the first lead and the
cards played since, replaying every play through the engine, so a world in
which some play would have been illegal is refused (IllegalActionError).
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, Verb
from .cards import FULL_DECK
from .cards import cards_of as _bits
from .fortyfives import FortyFivesState, on_green
from .fortyone import FortyOneState
from .rules import FortyFivesRules, FortyOneRules
from .state import Deal, GameState


def _set_scores(st: GameState, scores: Sequence[int]) -> None:
    """Put a freshly dealt hand at ``scores`` (the game's scores before it)."""
    st.scores = list(scores)
    st.start_scores = list(scores)


def forty_fives_position(rules: FortyFivesRules, *, dealer: int, start_hands: Sequence[int],
                         trump: int, bidder: int, bid: int, scores: Sequence[int],
                         plays: Sequence[Action], called: int = -1,
                         up_card: int = -1) -> FortyFivesState:
    """The state after ``plays`` from a first lead with ``start_hands`` (masks, by seat).

    ``bidder`` and ``bid`` are -1 and 0 in Traditional 45; ``called`` is the
    called card's bit (0: none) in Call Your Partner.
    """
    held = 0
    for h in start_hands:
        held |= h
    rest = _bits(FULL_DECK & ~held)
    if up_card >= 0 and up_card in rest:
        rest.remove(up_card)
        rest.insert(0, up_card)
    k = rules.kitty
    deal = Deal(tuple(tuple(_bits(h)) for h in start_hands), tuple(rest[:k]), tuple(rest[k:]))
    st = FortyFivesState(rules, seed=None, first_dealer=dealer, deal=deal)
    _set_scores(st, scores)
    st.on_green = on_green(rules, scores)
    st.trump, st.bidder, st.bid, st.called = trump, bidder, bid, called
    st.up_card = up_card
    st.kitty_taken = True
    st._start_play()
    for a in plays:
        st.apply(a)
    return st


def forty_one_position(rules: FortyOneRules, *, dealer: int, start_hands: Sequence[int],
                       bids: Sequence[int], scores: Sequence[int],
                       plays: Sequence[Action]) -> FortyOneState:
    """The Forty One state after the bids and ``plays`` from a deal of ``start_hands``."""
    deal = Deal(tuple(tuple(_bits(h)) for h in start_hands))
    st = FortyOneState(rules, seed=None, first_dealer=dealer, deal=deal)
    _set_scores(st, scores)
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        st.apply(Action(seat, Verb.BID, bids[seat]))
    for a in plays:
        st.apply(a)
    return st


def start_hands_of(state: GameState) -> list[int]:
    """Each seat's holding at the first lead: what it holds now plus what it has played."""
    hands = list(state.hands)
    for t in state.tricks:
        for i, c in enumerate(t.cards):
            hands[(t.leader + i) % state.n] |= 1 << c
    for i, c in enumerate(state.trick_cards):
        hands[(state.trick_leader + i) % state.n] |= 1 << c
    return hands


def plays_of(state: GameState) -> list[Action]:
    """The cards played this hand, in order, as actions."""
    out = []
    for t in state.tricks:
        out += [Action((t.leader + i) % state.n, Verb.PLAY, 1 << c) for i, c in enumerate(t.cards)]
    out += [Action((state.trick_leader + i) % state.n, Verb.PLAY, 1 << c)
            for i, c in enumerate(state.trick_cards)]
    return out


def forty_fives_at_trump(rules: FortyFivesRules, *, deal: Deal, dealer: int, bidder: int,
                         bid: int, scores: Sequence[int]) -> FortyFivesState:
    """A hand of ``deal`` whose auction ``bidder`` has won at ``bid``: he names trump next.

    For simulating a bid: what happens if this seat names this trump at this bid.
    """
    st = FortyFivesState(rules, seed=None, first_dealer=dealer, deal=deal)
    _set_scores(st, scores)
    st.on_green = on_green(rules, scores)
    st.bidder = st.high_bidder = bidder
    st.bid = st.high = bid
    st._to_trump()
    return st
