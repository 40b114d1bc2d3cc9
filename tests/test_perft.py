"""Golden counts ("perft"): the number of legal action sequences to a fixed depth from
fixed deals. Each count is also computed by an independent move generator written from
rules.md (tests/helpers_engine.py), and the shallow ones are worked out by hand below.
A silent change to the following rules, robbing or trick winners changes these numbers."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from forties import Deal, GameState, Phase, new_game
from forties.cards import CARD_NAMES, cards_of

from .helpers_engine import (
    MV_OPENING,
    ff_follow_cards,
    ff_trick_winner,
    forty_one_follow_cards,
    forty_one_trick_winner,
    mask,
    mv_deal_json,
)


def perft(state: GameState, depth: int) -> int:
    """Legal action sequences of length ``depth`` (fewer where the hand ends first)."""
    if depth == 0 or state.turn is None:
        return 1
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply(a)
        total += perft(child, depth - 1)
    return total


Follow = Callable[[int, list[int]], int]
Winner = Callable[[list[int]], int]


def ref_perft(hands: list[int], turn: int, leader: int, trick: list[int], depth: int,
              follow: Follow, winner: Winner) -> int:
    """The same count from the reference following rules and trick winners."""
    if depth == 0:
        return 1
    n = len(hands)
    total = 0
    for c in cards_of(follow(hands[turn], trick)):
        rest = list(hands)
        rest[turn] &= ~(1 << c)
        played = [*trick, c]
        if len(played) == n:
            w = (leader + winner(played)) % n
            total += ref_perft(rest, w, w, [], depth - 1, follow, winner)
        else:
            total += ref_perft(rest, (turn + 1) % n, leader, played, depth - 1, follow, winner)
    return total


# ----- Merrimack Valley: spades trump, seat 0 leads --------------------------------------

SPADES, DIAMONDS = 3, 1


def mv_play_start() -> GameState:
    state = new_game("merrimack-valley", first_dealer=3, deal=Deal.from_json(mv_deal_json()))
    for a in MV_OPENING:
        state.apply(a)
    assert state.phase is Phase.PLAY and state.turn == 0
    return state


def mv_reference(depth: int) -> int:
    hands = [mask(h) for h in ("JS 4S KD 9C 3H", "5S 2D 7C 8H QD", "AH 4D 5C 6H TD",
                               "9S 8D TC 2H JD")]
    return ref_perft(hands, 0, 0, [], depth,
                     lambda h, t: ff_follow_cards(h, t, SPADES, "trump-only", "top3"),
                     lambda t: ff_trick_winner(t, SPADES))


# By hand, the first trick (trump spades; follow trump-only; renege top3):
#   seat 0 holds JS 4S KD 9C 3H: 5 leads.
#   seat 1 holds 5S as its only trump: on JS or 4S the 5 outranks the card led, so it may
#     be withheld: always 5 cards.
#   seat 2 holds AH as its only trump: on 4S it may be withheld (5 cards), on JS it does
#     not outrank the card led and must be played (1 card); off-suit leads: 5 cards.
#   seat 3 holds 9S, not privileged: on a trump lead it must be played (1); else 5.
#   depth 1 = 5; depth 2 = 5 * 5 = 25;
#   depth 3 = JS: 5*1 + 4S: 5*5 + three off leads: 3*5*5 = 5 + 25 + 75 = 105;
#   depth 4 = JS: 5*1*1 + 4S: 5*5*1 + off: 3*5*5*5 = 5 + 25 + 375 = 405.
#   depth 5 = 405 * 4: whoever wins the trick leads any of his 4 cards.
MV_COUNTS = {1: 5, 2: 25, 3: 105, 4: 405, 5: 1620, 6: 6312, 7: 23284}


@pytest.mark.parametrize("depth", sorted(MV_COUNTS))
def test_merrimack_valley_perft(depth: int) -> None:
    """Counts of play sequences from the fixed Merrimack Valley deal."""
    assert perft(mv_play_start(), depth) == MV_COUNTS[depth]
    assert mv_reference(depth) == MV_COUNTS[depth]


# ----- Nova Scotia from the deal: the 7D turned up, seat 1 holds AD and may rob -----------

NS_HANDS = ("5D QH 2S 8S JC", "AD KC 3S 9H 2C", "8C 4C JH 6S TS", "AH 3D KS 7C 4H")


def ns_start() -> GameState:
    used = mask(" ".join(NS_HANDS) + " 7D")
    stock = ["7D"] + [CARD_NAMES[c] for c in range(52) if not used >> c & 1]
    deal = Deal.from_json({"hands": [h.split() for h in NS_HANDS], "stock": stock})
    state = new_game("nova-scotia", first_dealer=0, deal=deal)
    assert state.phase is Phase.ROB and state.turn == 1
    return state


def ns_reference(depth: int) -> int:
    """Robbing by hand (pass, or give any one card for 7D), then the reference play."""
    hands = [mask(h) for h in NS_HANDS]
    choices = [hands[1]] + [(hands[1] & ~(1 << c)) | mask("7D") for c in cards_of(hands[1])]
    total = 0
    for robber_hand in choices:
        now = list(hands)
        now[1] = robber_hand
        total += ref_perft(now, 1, 1, [], depth - 1,
                           lambda h, t: ff_follow_cards(h, t, DIAMONDS, "suit-or-trump", "top3"),
                           lambda t: ff_trick_winner(t, DIAMONDS))
    return total


# By hand (trump diamonds; follow suit-or-trump; seat 1 robs or passes, then leads):
#   depth 1 = pass + 5 cards to give for 7D = 6.
#   depth 2 = 6 hands of 5 cards, any may be led = 30.
#   depth 3: seat 2 holds 8C 4C JH 6S TS, no trump. On a club lead it follows with 8C or
#     4C (2), a spade 6S or TS (2), a heart JH (1), a trump anything (5). Seat 1's hands:
#     pass AD KC 3S 9H 2C: 5+2+2+1+2 = 12;  give AD: 7D KC 3S 9H 2C: 12;
#     give KC: 5+5+2+1+2 = 15;  give 3S: 15;  give 9H: 5+2+2+5+2 = 16;  give 2C: 15;
#     total 12+12+15+15+16+15 = 85.
#   depth 6 = depth 5 * 4: the first trick is over and its winner leads any of 4 cards.
NS_COUNTS = {1: 6, 2: 30, 3: 85, 4: 205, 5: 740, 6: 2960}


@pytest.mark.parametrize("depth", sorted(NS_COUNTS))
def test_nova_scotia_perft(depth: int) -> None:
    """Counts of rob-then-play sequences from the fixed Nova Scotia deal."""
    assert perft(ns_start(), depth) == NS_COUNTS[depth]
    assert ns_reference(depth) == NS_COUNTS[depth]


# ----- Forty One: seat s holds the 13 cards whose index is s mod 4 ------------------------

FO_HANDS = [[c for c in range(52) if c % 4 == s] for s in range(4)]


def fo_start() -> GameState:
    deal = Deal(tuple(tuple(h) for h in FO_HANDS))
    state = new_game("forty-one", first_dealer=0, deal=deal)
    for a in ("1 bid 3", "2 bid 3", "3 bid 3", "0 bid 3"):  # 12 in all: the hand is played
        state.apply(a)
    assert state.phase is Phase.PLAY and state.turn == 1
    return state


def fo_reference(depth: int) -> int:
    hands = [sum(1 << c for c in h) for h in FO_HANDS]
    return ref_perft(hands, 1, 1, [], depth, forty_one_follow_cards, forty_one_trick_winner)


# By hand: card index = 13 * suit + rank (suits C D H S), so seat s holds rank r of suit u
# when (u + r) % 4 == s: 4 cards of suit s (ranks 2, 6, T, A) and 3 of each other suit.
# Seat 1 leads; everyone must follow suit and can.
#   depth 1 = 13;  depth 2 = sum over the led suit of n1*n2 = C 9 + D 12 + H 12 + S 9 = 42;
#   depth 3 = C 27 + D 36 + H 36 + S 36 = 135;  depth 4 = 4 suits * (4*3*3*3) = 432.
#   depth 5 = 432 * 12: the trick's winner leads any of his 12 cards.
FO_COUNTS = {1: 13, 2: 42, 3: 135, 4: 432, 5: 5184, 6: 15696}


@pytest.mark.parametrize("depth", sorted(FO_COUNTS))
def test_forty_one_perft(depth: int) -> None:
    """Counts of play sequences from the fixed Forty One deal after bids of 3 each."""
    assert perft(fo_start(), depth) == FO_COUNTS[depth]
    assert fo_reference(depth) == FO_COUNTS[depth]
