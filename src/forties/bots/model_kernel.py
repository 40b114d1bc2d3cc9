"""``bots.model``'s search compiled: the opponents play ``basic``'s card, one side searches.

The same search as ``model._Hand.search`` on bit masks, with ``basic.play_card`` ported
rule for rule (``envs.basic_kernel`` holds ``basic``'s compiled card worths);
``tests/test_model.py`` checks both against the engine and ``BasicBot`` itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from ..envs.basic_kernel import cheapest
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


@_jit
def basic_card(s: int, hand: int, played: int, tc: Any, tn: int, leader: int, n: int,
               trump: int, side_of: Any, bidding: bool, options: int) -> int:
    """``basic.play_card``."""
    out_first = -1
    for i in range(14):
        c = k.T_ORDER[trump, i]
        if c < 0:
            break
        if not (played | hand) >> c & 1:
            out_first = c
            break
    if tn == 0:
        mine_first = -1
        mine_count = 0
        mine_i = -1
        out_i = -1
        for i in range(14):
            c = k.T_ORDER[trump, i]
            if c < 0:
                break
            if hand >> c & 1:
                if mine_first < 0:
                    mine_first = c
                    mine_i = i
                mine_count += 1
            if c == out_first:
                out_i = i
        if mine_first >= 0 and (out_first < 0 or mine_i < out_i) and (
                bidding or mine_count >= 2):
            return mine_first
        off = options & ~k.T_TRUMPS[trump]
        kings = 0
        m = off
        while m:
            low = m & -m
            if k.low_index(low) % 13 == 11:
                kings |= low
            m ^= low
        if kings:
            return cheapest(kings, trump, False)
        if off:
            return cheapest(off, trump, False)
        return cheapest(options, trump, False)
    led = tc[0]
    ls = trump if (1 << led) & k.T_TRUMPS[trump] else led // 13
    best_i = 0
    best_key = -1
    for i in range(tn):
        key = k.T_KEY[trump, ls, tc[i]]
        if key > best_key:
            best_key = key
            best_i = i
    best_seat = (leader + best_i) % n
    partner_wins = side_of[s] == side_of[best_seat]
    last = tn == n - 1
    low_win = -1
    high_win = -1
    lo_key = 1 << 40
    hi_key = -1
    m = options
    while m:
        low = m & -m
        c = k.low_index(low)
        key = k.T_KEY[trump, ls, c]
        if key > best_key:
            if key < lo_key:
                lo_key = key
                low_win = c
            if key > hi_key:
                hi_key = key
                high_win = c
        m ^= low
    cheap = cheapest(options, trump, True)
    if partner_wins and (last or out_first < 0
                         or best_key >= k.T_KEY[trump, ls, out_first]):
        return cheap
    if low_win >= 0:
        if tn == 1 and not last and lo_key < 100:
            return cheap
        if last:
            return low_win
        return high_win if tn >= 2 else low_win
    return cheap


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
        c = basic_card(turn, hand, played, tc, tn, leader, n, trump, side_of,
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
