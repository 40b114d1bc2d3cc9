"""``basic`` (``basic.py`` beside it) compiled, as a fixed player for thousands of tables.

Rule for rule the same choices as ``BasicBot.choose`` given the seat's view and legal
actions (the tests compare the two at every decision of many random games). It reads
the compiled engine's table row only where the view shows the same thing: the seat's
hand, the auction, trump, scores and who bid; the cards played this hand are the
caller's (the vector environments keep them in ``envs.kernels.M_PLAYED``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..jit import jit
from ..vector import kernel as k
from .basic import TRUMP_WORTH

# numba's cache of this module is keyed on this file's text alone, yet it compiles in
# vector.kernel's row layout and rules (ten seats since the row grew from six; "booked?"
# since its three fields and phases came): a change to them must change this file too,
# or a cache from before it reads the rows wrongly.

T_WORTH = np.array(TRUMP_WORTH, dtype=np.float64)
HEARTS = 2
KING = 11


@jit(refcount=False)
def card_worth(c: int, trump: int) -> int:
    return k.T_KEY[trump, c // 13, c]


@jit(refcount=False)
def strength(hand: int, trump: int) -> float:
    pts = 0.0
    for i in range(14):
        c = k.T_ORDER[trump, i]
        if c < 0:
            break
        if hand >> c & 1:
            pts += T_WORTH[i]
    for s in range(4):
        if s == trump:
            continue
        king = 1 << (s * 13 + KING)
        if hand & king and hand & k.T_SUIT[s] & ~k.T_TRUMPS[trump] & ~king:
            pts += 1.5
    return pts


@jit(refcount=False)
def help_points(R: Any) -> float:
    partnered = False
    for x in range(R[k.R_NSIDES]):
        count = 0
        for s in range(R[k.R_N]):
            if R[k.R_SIDE_OF + s] == x:
                count += 1
        if count > 1:
            partnered = True
    return 2.0 + (2.0 if R[k.R_KITTY] else 0.0) + (6.0 if partnered else 0.0)


@jit(refcount=False)
def best_strength(hand: int) -> float:
    best = strength(hand, 0)
    for t in range(1, 4):
        best = max(best, strength(hand, t))
    return best


@jit(refcount=False)
def same_side(R: Any, a: int, b: int) -> bool:
    return bool(R[k.R_SIDE_OF + a] == R[k.R_SIDE_OF + b])


@jit(refcount=False)
def bid(S: Any, R: Any, t: int, s: int, target: int) -> tuple[int, int]:
    hand = S[t, k.F_HANDS + s]
    est = best_strength(hand) + help_points(R)
    mine = R[k.R_SIDE_OF + s]
    theirs_max = -(1 << 60)
    any_theirs = False
    for x in range(R[k.R_NSIDES]):
        if x != mine:
            any_theirs = True
            theirs_max = max(theirs_max, S[t, k.F_SCORES + x])
    if any_theirs and theirs_max >= target - 30 and target - 30 > S[t, k.F_SCORES + mine]:
        est += 5
    hb = S[t, k.F_HIGH_BIDDER]
    if hb >= 0 and same_side(R, hb, s):
        est -= 10
    high_v = S[t, k.F_HIGH]
    high = 30 if high_v == 60 else 60 if high_v == 120 else high_v
    if k.ff_may_hold(S, R, t, s) and est >= high:
        return k.V_HOLD, 0
    lo = max(k.ff_min_bid_for(S, R, t, s), S[t, k.F_HIGH] + 1)
    first = -1
    for i in range(k.ff_ladder_count(R)):
        b = k.ff_ladder(R, i)
        if b >= lo:
            if first < 0:
                first = b
            if min(b, 30) <= est:
                return k.V_BID, b
    if not k.ff_dealer_bagged(S, R, t, s):
        return k.V_PASS, 0
    return k.V_BID, first


@jit(refcount=False)
def discard(S: Any, R: Any, t: int, s: int) -> int:
    hand = S[t, k.F_HANDS + s]
    trump = S[t, k.F_TRUMP]
    keep = hand & k.T_TRUMPS[trump]
    if k.popcount(keep) <= 2:
        for x in range(4):
            if x != trump:
                keep |= hand & (1 << (x * 13 + KING))
    lo, hi = k.ff_discard_sizes(S, R, t, s)
    want = k.popcount(hand & ~keep)
    count = min(max(want, lo), hi - 1)
    # the cards by (kept, worth), the lower card first among equals: throw the first
    out = 0
    for _ in range(count):
        best = -1
        best_key = 1 << 40
        h = hand & ~out
        while h:
            low = h & -h
            c = k.low_index(low)
            key = (1 << 20 if keep >> c & 1 else 0) + card_worth(c, trump)
            if key < best_key:
                best_key = key
                best = c
            h ^= low
        out |= 1 << best
    return out


@jit(refcount=False)
def cheapest(options: int, trump: int, by_trump: bool) -> int:
    best = -1
    best_key = 1 << 40
    m = options
    while m:
        low = m & -m
        c = k.low_index(low)
        key = card_worth(c, trump)
        if by_trump and k.T_TRUMPS[trump] >> c & 1:
            key += 1 << 20
        if key < best_key:
            best_key = key
            best = c
        m ^= low
    return best


@jit(refcount=False)
def play_card(s: int, hand: int, played: int, tc: Any, tn: int, leader: int, n: int,
               trump: int, side_of: Any, bidding: bool, options: int) -> int:
    """``basic.play_card``: the trick's cards ``tc[:tn]``, led by ``leader``; each seat's
    side in ``side_of``; ``bidding``: whether the seat's side holds the contract."""
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
            if k.low_index(low) % 13 == KING:
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


@jit(refcount=False)
def play(S: Any, R: Any, t: int, s: int, played: int) -> int:
    n = R[k.R_N]
    bidder = S[t, k.F_BIDDER]
    return play_card(s, S[t, k.F_HANDS + s], played, S[t, k.F_TRICK:k.F_TRICK + n],
                     S[t, k.F_TRICK_N], S[t, k.F_LEADER], n, S[t, k.F_TRUMP],
                     R[k.R_SIDE_OF:k.R_SIDE_OF + n],
                     bidder >= 0 and same_side(R, bidder, s), k.ff_play_mask(S, R, t, s))


@jit(refcount=False)
def fo_tricks(hand: int) -> float:
    hearts = 0
    top = 0
    for r in range(13):
        if hand >> (HEARTS * 13 + r) & 1:
            hearts += 1
            if r >= 9:
                top += 1
    tricks = float(top) + max(0, hearts - 4)
    spare = max(0, hearts - top)
    for s in range(4):
        if s == HEARTS:
            continue
        count = 0
        for r in range(13):
            if hand >> (s * 13 + r) & 1:
                count += 1
        ace = hand >> (s * 13 + 12) & 1
        king = hand >> (s * 13 + 11) & 1
        queen = hand >> (s * 13 + 10) & 1
        if ace:
            tricks += 1
        if king and count >= 2:
            tricks += 0.75 if ace else 0.5
        if queen and count >= 3:
            tricks += 0.25
        if count <= 1 and spare >= 2:
            tricks += 0.5 * (2 - count)
            spare -= 1
    return tricks


@jit(refcount=False)
def fo_low(options: int) -> int:
    best = -1
    best_key = 1 << 40
    m = options
    while m:
        low = m & -m
        c = k.low_index(low)
        key = (100 if c // 13 == HEARTS else 0) + c % 13
        if key < best_key:
            best_key = key
            best = c
        m ^= low
    return best


@jit(refcount=False)
def fo_overtake(S: Any, t: int, s: int, options: int, ls: int, best_key: int, tn: int,
                played: int, voids: int) -> int:
    """``BasicBot._overtake_41``: the card that takes the trick the partner is winning
    (when it is worth nothing to him), or -1 to play low."""
    partner = (s + 2) % 4
    p_need = S[t, k.F_BIDS + partner] - S[t, k.F_TAKEN + partner]
    left = 13 - S[t, k.F_TRICK_NO]
    if 0 < p_need <= left:
        return -1
    # the winners, cheapest first
    seen = played | S[t, k.F_HANDS + s]
    best = -1
    best_win_key = 1 << 40
    last = tn == 3
    m = options
    while m:
        lowbit = m & -m
        c = k.low_index(lowbit)
        m ^= lowbit
        key = k.T_KEY41[ls, c]
        if key <= best_key or key >= best_win_key:
            continue
        if not last:
            suit = c // 13
            above = ((1 << (13 * suit + 13)) - 1) & ~((2 << c) - 1)
            if above & ~seen:
                continue  # a higher card of its suit is still out
            if suit != HEARTS:
                later_void = False
                for i in range(1, 4 - tn):
                    if voids >> (4 * ((s + i) % 4) + ls) & 1:
                        later_void = True
                if later_void:
                    continue
        best_win_key = key
        best = c
    return best


@jit(refcount=False)
def fo_choice(S: Any, R: Any, t: int, s: int, played: int = 0,
              voids: int = 0) -> tuple[int, int]:
    hand = S[t, k.F_HANDS + s]
    if S[t, k.F_PHASE] == k.AUCTION:
        want = int(fo_tricks(hand) + 0.5)
        return k.V_BID, max(1, min(13, want))
    need = S[t, k.F_BIDS + s] - S[t, k.F_TAKEN + s]
    options = k.fo_play_mask(S, t, s)
    low = fo_low(options)
    tn = S[t, k.F_TRICK_N]
    if tn == 0:
        if need > 0:
            best = -1
            best_key = -1
            m = options
            while m:
                lowbit = m & -m
                c = k.low_index(lowbit)
                key = 2 * (c % 13) + (1 if c // 13 != HEARTS else 0)
                if key > best_key:
                    best_key = key
                    best = c
                m ^= lowbit
            return k.V_PLAY, 1 << best
        return k.V_PLAY, 1 << low
    ls = S[t, k.F_TRICK] // 13
    best_i = 0
    best_key = -1
    for i in range(tn):
        key = k.T_KEY41[ls, S[t, k.F_TRICK + i]]
        if key > best_key:
            best_key = key
            best_i = i
    best_seat = (S[t, k.F_LEADER] + best_i) % 4
    if need <= 0:
        return k.V_PLAY, 1 << low
    if best_seat % 2 == s % 2:  # the partner's trick, ours when it is worth nothing to him
        sure = fo_overtake(S, t, s, options, ls, best_key, tn, played, voids)
        return k.V_PLAY, 1 << (sure if sure >= 0 else low)
    lo_win = -1
    hi_win = -1
    lo_key = 1 << 40
    hi_key = -1
    m = options
    while m:
        lowbit = m & -m
        c = k.low_index(lowbit)
        key = k.T_KEY41[ls, c]
        if key > best_key:
            if key < lo_key:
                lo_key = key
                lo_win = c
            if key > hi_key:
                hi_key = key
                hi_win = c
        m ^= lowbit
    if lo_win >= 0:
        return k.V_PLAY, 1 << (lo_win if tn == 3 else hi_win)
    return k.V_PLAY, 1 << low


@jit(refcount=False)
def choice(S: Any, R: Any, t: int, target: int, played: int,
           voids: int = 0) -> tuple[int, int]:
    """``BasicBot``'s action on table ``t`` for the seat to act: (verb, argument).
    ``target`` is the game score as ``BasicBot`` reads it from the view's rules (an
    overridden target, else 120); ``played`` the cards played so far this hand; ``voids``
    (Forty One) 4 bits a seat, the suits led that it did not follow this hand."""
    if k.count(S, R, t) == 1:
        return k.nth(S, R, t, 0)
    s = S[t, k.F_TURN]
    if R[k.R_GAME] == k.G_FORTY_ONE:
        return fo_choice(S, R, t, s, played, voids)
    ph = S[t, k.F_PHASE]
    hand = S[t, k.F_HANDS + s]
    if ph == k.AUCTION:
        return bid(S, R, t, s, target)
    if ph == k.RAISE:
        if best_strength(hand) + help_points(R) >= 30:
            return k.V_RAISE, 30
        return k.V_PASS, 0
    if ph == k.TRUMP:
        best = -1
        best_pts = -1.0
        for suit in range(4):
            if k.ff_trump_ok(S, R, t, suit):
                pts = strength(hand, suit)
                if pts > best_pts:
                    best_pts = pts
                    best = suit
        if best < 0:
            return k.nth(S, R, t, 0)
        return k.V_TRUMP, best
    trump = S[t, k.F_TRUMP]
    if ph == k.DRAW:
        return k.V_DISCARD, discard(S, R, t, s)
    if ph == k.ROB:
        return k.V_ROB, 1 << cheapest(hand, trump, False)
    if ph == k.CALL:
        ok = k.ff_call_ok(S, t)
        for i in range(14):
            c = k.T_ORDER[trump, i]
            if c < 0:
                break
            if not hand >> c & 1 and ok >> c & 1:
                return k.V_CALL, 1 << c
        return k.V_CALL, 0
    if ph == k.PLAY:
        return k.V_PLAY, 1 << play(S, R, t, s, played)
    if ph == k.BOOKED or ph == k.FOLD:  # never ask; told yes, stay and play
        return k.nth(S, R, t, 0)
    return k.V_PASS, 0
