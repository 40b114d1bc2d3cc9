"""``bots.model``'s search compiled: the opponents play ``basic``'s card, one side searches.

On bit masks: the opponents' cards are ``envs.basic_kernel.play_card``, ``basic.play_card``
compiled (the rule the vector environments' ``basic`` plays by); ``tests/test_model.py``
checks the search against the engine and ``BasicBot`` itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from ..envs.basic_kernel import play_card
from ..vector import kernel as k

_F = TypeVar("_F", bound=Callable[..., Any])

AH = 38
HEARTS = 2


def _jit(f: _F) -> _F:
    jit: Any = njit
    return cast(_F, jit(cache=True)(f))


@_jit
def follow(hand: int, led: int, trump: int, priv: int, suit_or_trump: bool, hoh: bool) -> int:
    """``fortyfives.follow_mask``."""
    tm: int = k.T_TRUMPS[trump]
    if (1 << led) & tm:
        mine = hand & tm
        if led == AH and hoh:
            if mine:
                return mine
            hearts: int = k.T_SUIT[HEARTS]
            if trump != HEARTS and hand & hearts:
                return hand & hearts
        elif mine & ~(priv & k.T_ABOVE[trump, led]):
            return mine
    elif suit_or_trump:
        suit: int = k.T_SUIT[led // 13]
        f = hand & suit & ~tm
        if f:
            return f | (hand & tm)
    return hand


@njit(cache=False)  # a recursive function read back from numba's cache crashes
def search(hands: Any, tc: Any, tn: int, leader: int, turn: int, played: int, p0: int,
           p1: int, trump: int, priv: int, suit_or_trump: bool, hoh: bool, bonus: int,
           side_of: Any, bidding: Any, side: int) -> int:
    """Each side's points at the end of the hand from here, ``side`` choosing its cards
    for itself and the other side playing ``basic``'s: side 0's times 256 plus side 1's."""
    n = 4
    if tn == n:
        led = tc[0]
        ls = trump if (1 << led) & k.T_TRUMPS[trump] else led // 13
        best_i = 0
        best_key = -1
        pts = 5
        for i in range(n):
            key = k.T_KEY[trump, ls, tc[i]]
            if key > best_key:
                best_key = key
                best_i = i
            if tc[i] == bonus:
                pts = 10
        w = (leader + best_i) % n
        if side_of[w] == 0:
            p0 += pts
        else:
            p1 += pts
        if hands[w] == 0:
            return p0 * 256 + p1
        t2 = np.empty(4, dtype=np.int64)
        return search(hands, t2, 0, w, w, played, p0, p1, trump, priv, suit_or_trump, hoh,
                      bonus, side_of, bidding, side)
    hand = hands[turn]
    opts = hand if tn == 0 else follow(hand, tc[0], trump, priv, suit_or_trump, hoh)
    nxt = (turn + 1) % n
    if side_of[turn] != side:
        c = play_card(turn, hand, played, tc, tn, leader, n, trump, side_of,
                      bidding[turn], opts)
        b = 1 << c
        hands[turn] ^= b
        tc[tn] = c
        got = search(hands, tc, tn + 1, leader, nxt, played | b, p0, p1, trump, priv,
                     suit_or_trump, hoh, bonus, side_of, bidding, side)
        hands[turn] ^= b
        return got
    # the most this side can end with: every point still to be taken
    left = 0
    for x in range(n):
        left += k.popcount(hands[x])
    top = (p0 if side == 0 else p1) + 5 * ((left + tn + n - 1) // n)
    if bonus >= 0:
        for x in range(n):
            if hands[x] >> bonus & 1:
                top += 5
        for i in range(tn):
            if tc[i] == bonus:
                top += 5
    best = -1
    best_mine = -1
    m = opts
    while m:
        b = m & -m
        c = k.low_index(b)
        hands[turn] ^= b
        tc[tn] = c
        got = search(hands, tc, tn + 1, leader, nxt, played | b, p0, p1, trump, priv,
                     suit_or_trump, hoh, bonus, side_of, bidding, side)
        hands[turn] ^= b
        mine = got // 256 if side == 0 else got % 256
        if mine > best_mine:
            best_mine = mine
            best = got
            if mine >= top:
                break
        m ^= b
    return best
