"""Simulation tools of the search players: what a hand is worth once its cards are fixed.

The expert imagines worlds (complete deals consistent with its view) and asks
here how each would play out. A world is a full-information game state built
by the expert itself, so these functions may look at every card of it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action, Verb
from ..cards import FULL_DECK, SUIT_MASKS
from ..cards import cards_of as bits
from ..fortyfives import KEY, TRUMP_ORDER, TRUMPS, FortyFivesState
from ..fortyone import KEY as KEY41
from ..fortyone import FortyOneState
from ..position import forty_fives_at_trump
from ..rules import FortyFivesRules
from ..state import Deal, GameState, Phase
from .basic import card_worth, discard

WIN_BONUS = 200.0  # what ending the game is worth, in points of this hand


# ----- quick policies for the imagined draw --------------------------------------------------


def draw_discard(st: FortyFivesState, seat: int) -> Action:
    """``basic``'s discard for ``seat`` in the draw."""
    return discard(seat, st.hands[seat], st.trump, st.legal_actions())


def drive_to_play(st: FortyFivesState) -> None:
    """From a named trump to the first lead: the draw, robbing the pack, the call."""
    while st.phase is not Phase.PLAY and not st.hand_over:
        seat = st.turn
        assert seat is not None
        if st.phase is Phase.DRAW:
            st.apply(draw_discard(st, seat))
        elif st.phase is Phase.CALL:
            st.apply(call_choice(st, seat))
        else:
            st.apply(Action(seat, Verb.PASS, 0))


def call_choice(st: FortyFivesState, seat: int) -> Action:
    """Call the best trump the bidder does not hold, if he may (Call Your Partner's custom)."""
    hand = st.hands[seat]
    for c in TRUMP_ORDER[st.trump]:
        if not hand >> c & 1 and st.may_call(c):
            return Action(seat, Verb.CALL, 1 << c)
    return Action(seat, Verb.CALL, 0)


# ----- playouts ------------------------------------------------------------------------------


def greedy_card(st: GameState, seat: int) -> int:
    """A quick card for playouts: win the trick cheaply unless a partner has it, else
    throw the cheapest card."""
    legal = st.legal_play_mask(seat)
    cards = bits(legal)
    if len(cards) == 1:
        return cards[0]
    tc = st.trick_cards
    t = st.trump if isinstance(st, FortyFivesState) else -1

    def val(c: int) -> int:
        return card_worth(c, t) if t >= 0 else (100 if c // 13 == 2 else 0) + c % 13

    if not tc:
        return max(cards, key=val)
    led = tc[0]
    if t >= 0:
        key = KEY[t][t if (1 << led) & TRUMPS[t] else led // 13]
    else:
        key = KEY41[led // 13]
    best = max(range(len(tc)), key=lambda i: key[tc[i]])
    best_seat = (st.trick_leader + best) % st.n
    mates = _mates(st, seat)
    cheapest = min(cards, key=val)
    if best_seat in mates:
        return cheapest
    winners = [c for c in cards if key[c] > key[tc[best]]]
    return min(winners, key=lambda c: key[c]) if winners else cheapest


def _mates(st: GameState, seat: int) -> set[int]:
    if isinstance(st, FortyOneState):
        return {seat, (seat + 2) % 4}
    return set(st.sides[st.side_of[seat]])


def playout(st: GameState) -> None:
    """Play the hand out with the greedy policy (in place)."""
    while st.phase is Phase.PLAY:
        seat = st.turn
        assert seat is not None
        st.apply(Action(seat, Verb.PLAY, 1 << greedy_card(st, seat)))


def taken_forty_one(st: FortyOneState) -> list[int]:
    """The tricks each seat will have taken when the Forty One hand in play is played out
    with ``greedy_card`` at every seat, card for card as ``playout`` plays it (``st`` is
    left as it is). The expert's bidding plays a hundred of these a bid: this plays on the
    bare card sets, without the engine's actions."""
    if not isinstance(st, FortyOneState):
        raise TypeError("taken_forty_one plays out a Forty One hand")
    hands = list(st.hands)
    taken = list(st.taken)
    tc = list(st.trick_cards)
    leader = st.trick_leader
    seat = st.turn
    if st.phase is not Phase.PLAY or seat is None:
        return taken
    tricks_left = 13 - st.trick_no
    while tricks_left:
        hand = hands[seat]
        if tc:
            led = tc[0] // 13
            legal = hand & SUIT_MASKS[led] or hand
        else:
            legal = hand
        cards = bits(legal)
        card = cards[0]
        if len(cards) > 1:
            if not tc:  # lead the highest by greedy_card's worth (hearts over all)
                best_v = -1
                for c in cards:
                    v = (100 if c // 13 == 2 else 0) + c % 13
                    if v > best_v:
                        card, best_v = c, v
            else:
                key = KEY41[led]
                win = 0
                for i in range(1, len(tc)):
                    if key[tc[i]] > key[tc[win]]:
                        win = i
                cheapest, low = cards[0], 1000
                for c in cards:
                    v = (100 if c // 13 == 2 else 0) + c % 13
                    if v < low:
                        cheapest, low = c, v
                card = cheapest
                if (leader + win - seat) % 2:  # the trick is the other team's so far
                    top = key[tc[win]]
                    least = 1000
                    for c in cards:
                        if top < key[c] < least:
                            card, least = c, key[c]
        hands[seat] ^= 1 << card
        tc.append(card)
        if len(tc) < 4:
            seat = (seat + 1) % 4
            continue
        key = KEY41[tc[0] // 13]
        win = 0
        for i in range(1, 4):
            if key[tc[i]] > key[tc[win]]:
                win = i
        seat = leader = (leader + win) % 4
        taken[seat] += 1
        tc = []
        tricks_left -= 1
    return taken


# ----- utilities -----------------------------------------------------------------------------


def team_of(st: GameState, seat: int) -> set[int]:
    """The sides (score indices) that rejoice with ``seat``."""
    if isinstance(st, FortyOneState):
        return {seat, (seat + 2) % 4}
    sides = {st.side_of[seat]}
    if isinstance(st, FortyFivesState) and st.rules.call_partner:
        group = set(st.bidding_sides())
        if sides & group:
            return group
    return sides


# ----- imagined deals for the auction ---------------------------------------------------------


def random_deal_with(rules: FortyFivesRules, seat: int, hand: int, rng: random.Random,
                     kitty: int = 0) -> Deal:
    """A deal in which ``seat`` holds ``hand`` (and the kitty is ``kitty``, if known) and
    every other card is shuffled."""
    rest = bits(FULL_DECK & ~hand & ~kitty)
    rng.shuffle(rest)
    n, k = rules.players, rules.kitty
    hands = []
    pos = 0
    for s in range(n):
        if s == seat:
            hands.append(tuple(bits(hand)))
        else:
            hands.append(tuple(rest[pos:pos + 5]))
            pos += 5
    if kitty:
        return Deal(tuple(hands), tuple(bits(kitty)), tuple(rest[pos:]))
    return Deal(tuple(hands), tuple(rest[pos:pos + k]), tuple(rest[pos + k:]))


def simulate_contract(rules: FortyFivesRules, deal: Deal, dealer: int, bidder: int, bid: int,
                      trump: int, scores: Sequence[int]) -> FortyFivesState | None:
    """The imagined hand where ``bidder`` won at ``bid`` and names ``trump``, drawn and
    ready for the first lead (None if that trump may not be named with these cards)."""
    st = forty_fives_at_trump(rules, deal=deal, dealer=dealer, bidder=bidder, bid=bid,
                              scores=scores)
    act = Action(bidder, Verb.TRUMP, trump)
    if st.reason(act) is not None:
        return None
    st.apply(act)
    drive_to_play(st)
    return st


def suits_by_promise(hand: int) -> list[int]:
    """Suits in order of how good they look as trump for ``hand``."""
    def score(t: int) -> float:
        return sum(14 - i for i, c in enumerate(TRUMP_ORDER[t]) if hand >> c & 1) + \
            (hand & SUIT_MASKS[t]).bit_count()
    return sorted(range(4), key=score, reverse=True)
