"""The compiled engine: ``fortyfives.py`` and ``fortyone.py``, rule for rule, in numba, for
many tables at once.

Each table's whole state is one row of an int64 array (the ``F_`` columns below) and
its deck one row of another; the rules are an int64 vector (the ``R_`` slots), made
from a ``Rules`` value by ``vector.rules_vector``. A table's legal actions are counted
and numbered in exactly the order ``GameState.legal_actions()`` lists them, so the
k-th action here is the k-th action there (the tests play both side by side). An
action is a verb (``Verb`` in declaration order) and an argument, as ``Action`` has.

The functions here trust their callers: ``*_apply`` is given a legal action.
Checked entry points are in ``vector/__init__.py``. Compiled on first use and cached
on disk.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..cards import HEARTS, SUIT_MASKS
from ..fortyfives import ABOVE, KEY, PRIVILEGED, TRUMP_ORDER, TRUMPS
from ..fortyone import KEY as KEY41
from ..jit import jit

# ----- codes ------------------------------------------------------------------------------

# Phases, in the order of ``state.Phase``.
(AUCTION, RAISE, TRUMP, DRAW, PACK, ROB, CALL, PLAY, HAND_OVER, GAME_OVER, BOOKED, ANSWER,
 FOLD) = range(13)
# Verbs, in the order of ``actions.Verb``.
(V_PASS, V_BID, V_HOLD, V_RAISE, V_TRUMP, V_DISCARD, V_ROB, V_CALL, V_PLAY, V_ASK, V_ANSWER,
 V_FOLD, V_STAY) = range(13)
# Games.
G_FORTY_FIVES, G_FORTY_ONE = 0, 1
# Option values.
AU_SINGLE, AU_NONE, AU_HOLD_REOPENS, AU_OPEN = range(4)
LEAD_BIDDER, LEAD_LEFT_OF_BIDDER, LEAD_LEFT_OF_DEALER = range(3)
RENEGE_TOP3, RENEGE_FIVE_ONLY, RENEGE_NONE = range(3)
NEVER = 1 << 60  # lock_at when there is none

# The rules vector.
(R_GAME, R_N, R_NSIDES, R_KITTY, R_AUCTION, R_MIN_BID, R_B3060, R_B60120, R_MAY_HOLD,
 R_REDEAL, R_MIN100, R_MAY_RAISE, R_NEEDS_CARD, R_KITTY_FIRST, R_GO_KITTY, R_GO_TOP,
 R_KEEP_MIN, R_FLIP, R_BY_THREES, R_ROBS_PACK, R_ROBBING, R_LEAD, R_SUIT_OR_TRUMP,
 R_RENEGE, R_HOH, R_BONUS_FIVE, R_SCORES_BID, R_MADE30, R_LOCK, R_TARGET, R_RESETS,
 R_GREEN, R_BEST3, R_CALL_PARTNER, R_MIN_TOTAL, R_DOUBLE_FROM, R_PARTNER_POS, R_TIE_TOTAL,
 R_STOCK0, R_STOCK_LEN, R_HAND_SIZE) = range(41)
R_STOCK_TIGHT = 41  # the stock could run short: each discard is limited to what it holds
R_BOOKED = 42  # "booked?": after the draw (and the call) the bidder may ask an opponent
MAX_SEATS = 10  # the seats a table's row has room for: every player count the rules allow
R_SIDE_OF = 48  # MAX_SEATS slots: each seat's side
R_SIDE_SEATS = R_SIDE_OF + MAX_SEATS  # MAX_SEATS slots: each side's seats, as a bitmask
R_SIZE = R_SIDE_SEATS + MAX_SEATS

# A table's row.
(F_PHASE, F_TURN, F_OVER, F_WKIND, F_WVAL, F_NEW_GAME, F_HAND_INDEX, F_DEALER, F_FIRST_DEALER,
 F_THROWN, F_KITTY, F_STOCK_POS, F_TRUMP, F_BIDDER, F_BID, F_HIGH, F_HIGH_BIDDER, F_PASSED,
 F_REOPENED, F_KITTY_TAKEN, F_WENT_KITTY, F_WENT_TOP, F_PILE, F_FACEUP, F_UP, F_ROBBER,
 F_ROBBED, F_ROB_GIVEN, F_PACK_TAKEN, F_CALLED, F_PARTNER, F_BONUS, F_TRICK_NO, F_LEADER,
 F_ON_GREEN, F_TRICK_N, F_HANDS_DONE, F_GAMES_DONE, F_RNG, F_THROWN_DONE) = range(40)
# Blocks of MAX_SEATS slots: a side's (scores, start, games, points) or a seat's.
F_SCORES = 40
F_START = F_SCORES + MAX_SEATS
F_GAMES = F_START + MAX_SEATS
F_HANDS = F_GAMES + MAX_SEATS
F_DISCARDED = F_HANDS + MAX_SEATS
F_POINTS = F_DISCARDED + MAX_SEATS
F_TAKEN = F_POINTS + MAX_SEATS
F_TRICK = F_TAKEN + MAX_SEATS
F_BIDS = F_TRICK + MAX_SEATS
# "booked?": the seat the bidder asked (-1 none), its answer (1 yes, 0 no, -1 not yet),
# whether the bidder folded.
F_ASKED = F_BIDS + MAX_SEATS
F_ANSWER = F_ASKED + 1
F_FOLDED = F_ANSWER + 1
NF = F_FOLDED + 1

# Winner kinds: none, a side (an int in GameState.winner), seats (a tuple there).
W_NONE, W_SIDE, W_SEATS = 0, 1, 2

# ----- tables -----------------------------------------------------------------------------

T_TRUMPS = np.array(TRUMPS, dtype=np.int64)
T_KEY = np.array(KEY, dtype=np.int64)  # [trump][led suit][card]
T_ABOVE = np.array(ABOVE, dtype=np.int64)  # [trump][card]
T_ORDER = np.full((4, 14), -1, dtype=np.int64)  # [trump][i]: trumps high to low, -1 after
for _t in range(4):
    T_ORDER[_t, :len(TRUMP_ORDER[_t])] = TRUMP_ORDER[_t]
T_PRIV = np.array([PRIVILEGED["top3"], PRIVILEGED["five-only"], PRIVILEGED["none"]],
                  dtype=np.int64)  # [renege][trump]
T_SUIT = np.array(SUIT_MASKS, dtype=np.int64)
T_KEY41 = np.array(KEY41, dtype=np.int64)  # [led suit][card]
T_COMB = np.zeros((64, 64), dtype=np.int64)
for _m in range(64):
    T_COMB[_m, 0] = 1
    for _k in range(1, _m + 1):
        T_COMB[_m, _k] = T_COMB[_m - 1, _k - 1] + (T_COMB[_m - 1, _k] if _k < _m else 0)
# 2**i % 67 is different for every i < 64: the index of a single bit, by a lookup.
T_LOG67 = np.zeros(67, dtype=np.int64)
for _i in range(63):
    T_LOG67[(1 << _i) % 67] = _i
FULL_DECK = (1 << 52) - 1
AH = 38
ACE, FIVE = 12, 3

# ----- bits -------------------------------------------------------------------------------


@jit(refcount=False)
def popcount(x: int) -> int:
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@jit(refcount=False)
def low_index(x: int) -> int:
    """The index of the lowest set bit of ``x`` (> 0)."""
    return T_LOG67[(x & -x) % 67]


@jit(refcount=False)
def nth_bit(x: int, k: int) -> int:
    """The ``k``-th lowest set bit of ``x``, as a mask."""
    for _ in range(k):
        x &= x - 1
    return x & -x


@jit(refcount=False)
def unrank(cards: int, m: int, k: int, i: int) -> int:
    """The ``i``-th ``k``-subset, in lexicographic order, of the ``m`` bits of ``cards``
    (lowest first), as ``itertools.combinations`` lists them."""
    mask = 0
    left = k
    j = 0
    rem = cards
    while left > 0 and rem:
        low = rem & -rem
        rem ^= low
        block = T_COMB[m - j - 1, left - 1]
        if i < block:
            mask |= low
            left -= 1
        else:
            i -= block
        j += 1
    return mask


# ----- Forty-Fives: the hand --------------------------------------------------------------


@jit(refcount=False)
def _seat_mask(n: int) -> int:
    return (1 << n) - 1


@jit(refcount=False)
def ff_begin(S: Any, D: Any, R: Any, t: int) -> None:
    """Deal the hand from ``D[t]`` and start it (``_start_hand`` and ``_begin``)."""
    n = R[R_N]
    ns = R[R_NSIDES]
    for x in range(MAX_SEATS):
        S[t, F_START + x] = S[t, F_SCORES + x]
        S[t, F_POINTS + x] = 0
        S[t, F_TAKEN + x] = 0
        S[t, F_DISCARDED + x] = 0
        S[t, F_HANDS + x] = 0
        S[t, F_TRICK + x] = -1
    for s in range(n):
        m = 0
        for j in range(5):
            m |= 1 << D[t, 5 * s + j]
        S[t, F_HANDS + s] = m
    kitty = 0
    for j in range(R[R_KITTY]):
        kitty |= 1 << D[t, 5 * n + j]
    S[t, F_KITTY] = kitty
    S[t, F_THROWN] = 0
    S[t, F_TRICK_N] = 0
    S[t, F_STOCK_POS] = 0
    S[t, F_TRUMP] = -1
    S[t, F_BIDDER] = -1
    S[t, F_BID] = 0
    S[t, F_HIGH] = 0
    S[t, F_HIGH_BIDDER] = -1
    S[t, F_PASSED] = 0
    S[t, F_REOPENED] = 0
    S[t, F_KITTY_TAKEN] = 0
    S[t, F_WENT_KITTY] = 0
    S[t, F_WENT_TOP] = 0
    S[t, F_PILE] = 0
    S[t, F_FACEUP] = 0
    S[t, F_UP] = -1
    S[t, F_ROBBER] = -1
    S[t, F_ROBBED] = 0
    S[t, F_ROB_GIVEN] = 0
    S[t, F_PACK_TAKEN] = 0
    S[t, F_CALLED] = -1
    S[t, F_PARTNER] = -1
    S[t, F_BONUS] = -1
    S[t, F_TRICK_NO] = 0
    S[t, F_LEADER] = -1
    S[t, F_ASKED] = -1
    S[t, F_ANSWER] = -1
    S[t, F_FOLDED] = 0
    green = 0
    if R[R_GREEN]:
        near = 0
        for x in range(ns):
            if S[t, F_SCORES + x] >= R[R_TARGET] - 30:
                near += 1
        green = 1 if near >= 2 else 0
    S[t, F_ON_GREEN] = green
    dealer = S[t, F_DEALER]
    if R[R_AUCTION] == AU_NONE:
        up = D[t, R[R_STOCK0]]
        S[t, F_UP] = up
        S[t, F_STOCK_POS] = 1
        trump = up // 13
        S[t, F_TRUMP] = trump
        robber = -1
        if R[R_ROBBING]:
            if up % 13 == ACE:
                robber = dealer
            else:
                ace = trump * 13 + ACE
                for s in range(n):
                    if S[t, F_HANDS + s] >> ace & 1:
                        robber = s
                        break
        S[t, F_ROBBER] = robber
        if robber >= 0:
            S[t, F_PHASE] = ROB
            S[t, F_TURN] = robber
        else:
            ff_start_play(S, R, t)
    else:
        S[t, F_PHASE] = AUCTION
        S[t, F_TURN] = (dealer + 1) % n


@jit(refcount=False)
def ff_min_bid_for(S: Any, R: Any, t: int, seat: int) -> int:
    lo = R[R_MIN_BID]
    if R[R_MIN100] and S[t, F_SCORES + R[R_SIDE_OF + seat]] >= 100:
        return max(lo, R[R_MIN100])
    return lo


@jit(refcount=False)
def ff_dealer_bagged(S: Any, R: Any, t: int, seat: int) -> bool:
    dealer = S[t, F_DEALER]
    if seat != dealer or S[t, F_HIGH]:
        return False
    others = _seat_mask(R[R_N]) & ~(1 << dealer)
    return R[R_REDEAL] == 0 and S[t, F_PASSED] == others


@jit(refcount=False)
def ff_may_hold(S: Any, R: Any, t: int, seat: int) -> bool:
    high = S[t, F_HIGH]
    return bool(seat == S[t, F_DEALER] and R[R_MAY_HOLD] and high > 0
                and S[t, F_HIGH_BIDDER] != seat and high >= ff_min_bid_for(S, R, t, seat))


@jit(refcount=False)
def ff_ladder_count(R: Any) -> int:
    return (30 - R[R_MIN_BID]) // 5 + 1 + R[R_B3060] + R[R_B60120]


@jit(refcount=False)
def ff_ladder(R: Any, i: int) -> int:
    """The ``i``-th bid of the ladder, lowest first."""
    plain = (30 - R[R_MIN_BID]) // 5 + 1
    if i < plain:
        return R[R_MIN_BID] + 5 * i
    if i == plain and R[R_B3060]:
        return 60
    return 120


@jit(refcount=False)
def ff_trump_ok(S: Any, R: Any, t: int, suit: int) -> bool:
    if R[R_NEEDS_CARD] or S[t, F_WENT_KITTY]:
        return bool(S[t, F_HANDS + S[t, F_BIDDER]] & T_TRUMPS[suit])
    return True


@jit(refcount=False)
def ff_may_go_on(S: Any, R: Any, t: int) -> bool:
    went = S[t, F_WENT_KITTY]
    return bool((R[R_GO_KITTY] and not went)
                or (R[R_GO_TOP] and went and not S[t, F_WENT_TOP]))


@jit(refcount=False)
def ff_discard_sizes(S: Any, R: Any, t: int, s: int) -> tuple[int, int]:
    """How many cards seat ``s`` may discard: lo <= k < hi."""
    have = popcount(S[t, F_HANDS + s])
    keep = 0 if R[R_FLIP] else min(R[R_KEEP_MIN], have)
    hi = min(have - keep + 1, have + 1)
    if R[R_STOCK_TIGHT]:  # as FortyFivesState.stock_room
        room = R[R_STOCK_LEN] - S[t, F_STOCK_POS]
        for x in range(R[R_N]):
            if x != s:
                room -= max(0, 5 - popcount(S[t, F_HANDS + x]))
        hi = min(hi, room + have - 5 + 1)
    return max(have - 5, 0), hi


@jit(refcount=False)
def ff_call_ok(S: Any, t: int) -> int:
    """The cards the bidder may call (every card but the trumps above his best)."""
    tr = S[t, F_TRUMP]
    tm = T_TRUMPS[tr]
    mine = S[t, F_HANDS + S[t, F_BIDDER]] & tm
    ok = FULL_DECK & ~tm
    for i in range(14):
        c = T_ORDER[tr, i]
        if c < 0:
            break
        if mine >> c & 1:
            ok |= tm & ~T_ABOVE[tr, c]
            break
    return ok & ~(1 << T_ORDER[tr, 0])  # never the 5 of trumps


@jit(refcount=False)
def follow_mask(hand: int, led: int, tr: int, priv: int, suit_or_trump: bool,
                hoh: bool) -> int:
    """The cards of ``hand`` that may be played to a trick led with ``led``
    (``fortyfives.follow_mask``; ``priv``: the trumps that may be kept back)."""
    tm = T_TRUMPS[tr]
    if (1 << led) & tm:
        mine = hand & tm
        if led == AH and hoh:
            if mine:
                return mine
            if tr != HEARTS and hand & T_SUIT[HEARTS]:
                return hand & T_SUIT[HEARTS]
        elif mine & ~(priv & T_ABOVE[tr, led]):
            return mine
    elif suit_or_trump:
        follow = hand & T_SUIT[led // 13] & ~tm
        if follow:
            return follow | (hand & tm)
    return hand


@jit(refcount=False)
def trick_taken(cards: Any, n: int, leader: int, tr: int, bonus: int) -> tuple[int, int]:
    """The seat that takes the trick of ``cards[:n]`` led by ``leader``, and its points
    (10 with the bonus card in it)."""
    led = cards[0]
    ls = tr if (1 << led) & T_TRUMPS[tr] else led // 13
    best = -1
    bi = 0
    pts = 5
    for i in range(n):
        c = cards[i]
        key = T_KEY[tr, ls, c]
        if key > best:
            best = key
            bi = i
        if c == bonus:
            pts = 10
    return (leader + bi) % n, pts


@jit(refcount=False)
def ff_play_mask(S: Any, R: Any, t: int, s: int) -> int:
    """The cards seat ``s`` may play (``legal_play_mask``)."""
    hand = S[t, F_HANDS + s]
    tr = S[t, F_TRUMP]
    if S[t, F_TRICK_N]:
        hand = follow_mask(hand, S[t, F_TRICK], tr, T_PRIV[R[R_RENEGE], tr],
                           R[R_SUIT_OR_TRUMP] != 0, R[R_HOH] != 0)
    c = S[t, F_CALLED]
    if c > 0 and S[t, F_TRICK_NO] == 1 and hand & c:
        hand = c
    return hand


@jit(refcount=False)
def ff_count(S: Any, R: Any, t: int) -> int:
    """How many legal actions table ``t`` has (0 once the hand is over)."""
    s = S[t, F_TURN]
    if s < 0:
        return 0
    ph = S[t, F_PHASE]
    if ph == PLAY:
        return popcount(ff_play_mask(S, R, t, s))
    if ph == AUCTION:
        c = 0 if ff_dealer_bagged(S, R, t, s) else 1
        lo = max(ff_min_bid_for(S, R, t, s), S[t, F_HIGH] + 1)
        for i in range(ff_ladder_count(R)):
            if ff_ladder(R, i) >= lo:
                c += 1
        if ff_may_hold(S, R, t, s):
            c += 1
        return c
    if ph == DRAW:
        m = popcount(S[t, F_HANDS + s])
        lo, hi = ff_discard_sizes(S, R, t, s)
        c = 0
        for k in range(lo, hi):
            c += T_COMB[m, k]
        return c
    if ph == TRUMP:
        c = 0
        for suit in range(4):
            if ff_trump_ok(S, R, t, suit):
                c += 1
        if ff_may_go_on(S, R, t):
            c += 1
        return c
    if ph == RAISE:
        if R[R_KITTY_FIRST]:
            return 2
        c = 2
        for suit in range(4):
            if ff_trump_ok(S, R, t, suit):
                c += 1
        if ff_may_go_on(S, R, t):
            c += 1
        return c
    if ph == ROB:
        return 1 + popcount(S[t, F_HANDS + s])
    if ph == CALL:
        return 1 + popcount(ff_call_ok(S, t))
    if ph == PACK:
        h = popcount(S[t, F_HANDS + s])
        p = popcount(S[t, F_PILE])
        c = 1
        for k in range(1, min(h, p) + 1):
            c += T_COMB[h, k] * T_COMB[p, k]
        return c
    if ph == BOOKED:  # pass, or ask one of the opponents
        return 1 + popcount(ff_opponents(R, S[t, F_BIDDER]))
    if ph == ANSWER:  # the truth alone
        return 1
    if ph == FOLD:  # stay, fold
        return 2
    return 0


@jit(refcount=False)
def ff_nth(S: Any, R: Any, t: int, k: int) -> tuple[int, int]:
    """The ``k``-th legal action of table ``t``: (verb, argument)."""
    s = S[t, F_TURN]
    ph = S[t, F_PHASE]
    if ph == PLAY:
        return V_PLAY, nth_bit(ff_play_mask(S, R, t, s), k)
    if ph == AUCTION:
        if not ff_dealer_bagged(S, R, t, s):
            if k == 0:
                return V_PASS, 0
            k -= 1
        lo = max(ff_min_bid_for(S, R, t, s), S[t, F_HIGH] + 1)
        for i in range(ff_ladder_count(R)):
            b = ff_ladder(R, i)
            if b >= lo:
                if k == 0:
                    return V_BID, b
                k -= 1
        return V_HOLD, 0
    if ph == DRAW:
        hand = S[t, F_HANDS + s]
        m = popcount(hand)
        lo, hi = ff_discard_sizes(S, R, t, s)
        for size in range(lo, hi):
            block = T_COMB[m, size]
            if k < block:
                return V_DISCARD, unrank(hand, m, size, k)
            k -= block
        return -1, 0
    if ph == RAISE:
        if k == 0:
            return V_PASS, 0
        if k == 1:
            return V_RAISE, 30
        k -= 2  # declining the raise: the trump phase's actions follow
        ph = TRUMP
    if ph == TRUMP:
        for suit in range(4):
            if ff_trump_ok(S, R, t, suit):
                if k == 0:
                    return V_TRUMP, suit
                k -= 1
        return V_DISCARD, S[t, F_HANDS + s]
    if ph == ROB:
        if k == 0:
            return V_PASS, 0
        return V_ROB, nth_bit(S[t, F_HANDS + s], k - 1)
    if ph == CALL:
        if k == 0:
            return V_CALL, 0
        return V_CALL, nth_bit(ff_call_ok(S, t), k - 1)
    if ph == PACK:
        if k == 0:
            return V_PASS, 0
        k -= 1
        hand = S[t, F_HANDS + s]
        pile = S[t, F_PILE]
        h = popcount(hand)
        p = popcount(pile)
        for size in range(1, min(h, p) + 1):
            takes = T_COMB[p, size]
            block = T_COMB[h, size] * takes
            if k < block:
                give = unrank(hand, h, size, k // takes)
                take = unrank(pile, p, size, k % takes)
                return V_ROB, give | take
            k -= block
    if ph == BOOKED:
        if k == 0:
            return V_PASS, 0
        return V_ASK, low_index(nth_bit(ff_opponents(R, S[t, F_BIDDER]), k - 1))
    if ph == ANSWER:
        return V_ANSWER, 1 if ff_is_booked(S, t, s) else 0
    if ph == FOLD:
        return (V_STAY, 0) if k == 0 else (V_FOLD, 0)
    return -1, 0


@jit(refcount=False)
def ff_end_auction(S: Any, R: Any, t: int) -> None:
    if S[t, F_HIGH] == 0:
        S[t, F_THROWN] = 1
        S[t, F_PHASE] = HAND_OVER
        S[t, F_TURN] = -1
        return
    S[t, F_BIDDER] = S[t, F_HIGH_BIDDER]
    S[t, F_BID] = S[t, F_HIGH]
    if R[R_MAY_RAISE] and (S[t, F_BID] == 20 or S[t, F_BID] == 25):
        S[t, F_PHASE] = RAISE
        S[t, F_TURN] = S[t, F_BIDDER]
    else:
        ff_to_trump(S, R, t)


@jit(refcount=False)
def ff_take_kitty(S: Any, t: int) -> None:
    if not S[t, F_KITTY_TAKEN]:
        S[t, F_HANDS + S[t, F_BIDDER]] |= S[t, F_KITTY]
        S[t, F_KITTY_TAKEN] = 1


@jit(refcount=False)
def ff_to_trump(S: Any, R: Any, t: int) -> None:
    if R[R_KITTY_FIRST]:
        ff_take_kitty(S, t)
    S[t, F_PHASE] = TRUMP
    S[t, F_TURN] = S[t, F_BIDDER]


@jit(refcount=False)
def ff_auction_apply(S: Any, R: Any, t: int, s: int, verb: int, arg: int) -> None:
    n = R[R_N]
    if verb == V_PASS:
        S[t, F_PASSED] |= 1 << s
    elif verb == V_BID:
        S[t, F_HIGH] = arg
        S[t, F_HIGH_BIDDER] = s
    else:
        S[t, F_HIGH_BIDDER] = s
    mode = R[R_AUCTION]
    if mode != AU_OPEN and not S[t, F_REOPENED]:
        if s != S[t, F_DEALER]:
            S[t, F_TURN] = (s + 1) % n
            return
        others_in = _seat_mask(n) & ~S[t, F_PASSED] & ~(1 << s)
        if not (mode == AU_HOLD_REOPENS and verb == V_HOLD and others_in):
            ff_end_auction(S, R, t)
            return
        S[t, F_REOPENED] = 1
    active = _seat_mask(n) & ~S[t, F_PASSED]
    hb = S[t, F_HIGH_BIDDER]
    if active == 0 or (hb >= 0 and active == 1 << hb):
        ff_end_auction(S, R, t)
        return
    nxt = (s + 1) % n
    while active >> nxt & 1 == 0 or nxt == hb:
        nxt = (nxt + 1) % n
    S[t, F_TURN] = nxt


@jit(refcount=False)
def ff_replenish(S: Any, D: Any, R: Any, t: int) -> None:
    """The dealer restores every hand to five from the stock, from his left."""
    n = R[R_N]
    pos = S[t, F_STOCK_POS]
    base = R[R_STOCK0]
    end = R[R_STOCK_LEN]
    flip = R[R_FLIP]
    empty = 0
    for s in range(n):
        if S[t, F_HANDS + s] == 0:
            empty |= 1 << s
    dealer = S[t, F_DEALER]
    for rnd in range(2):
        if rnd == 0 and not R[R_BY_THREES]:
            continue
        cap = 3 if rnd == 0 else 5
        for i in range(n):
            s = (dealer + 1 + i) % n
            h = S[t, F_HANDS + s]
            give = min(cap, 5 - popcount(h))
            for _ in range(give):
                if pos >= end:  # the rules keep this from happening (``conflicts``)
                    break
                c = D[t, base + pos]
                pos += 1
                h |= 1 << c
                if flip and empty >> s & 1 and popcount(h) == 5:
                    S[t, F_FACEUP] |= 1 << c
            S[t, F_HANDS + s] = h
    S[t, F_STOCK_POS] = pos


@jit(refcount=False)
def ff_after_draw(S: Any, R: Any, t: int) -> None:
    if R[R_CALL_PARTNER]:
        S[t, F_PHASE] = CALL
        S[t, F_TURN] = S[t, F_BIDDER]
    else:
        ff_before_play(S, R, t)


# ----- "booked?" ----------------------------------------------------------------------------


@jit(refcount=False)
def ff_before_play(S: Any, R: Any, t: int) -> None:
    """With ``booked``, the bidder may ask an opponent before the first lead."""
    if R[R_BOOKED]:
        S[t, F_PHASE] = BOOKED
        S[t, F_TURN] = S[t, F_BIDDER]
    else:
        ff_start_play(S, R, t)


@jit(refcount=False)
def ff_opponents(R: Any, bidder: int) -> int:
    """The seats not on the bidder's side, as a mask."""
    return _seat_mask(R[R_N]) & ~R[R_SIDE_SEATS + R[R_SIDE_OF + bidder]]


@jit(refcount=False)
def ff_is_booked(S: Any, t: int, s: int) -> bool:
    """Seat ``s`` holds only trumps (the AH among them)."""
    return (S[t, F_HANDS + s] & ~T_TRUMPS[S[t, F_TRUMP]]) == 0


@jit(refcount=False)
def ff_booked_apply(S: Any, R: Any, t: int, verb: int, arg: int) -> None:
    ph = S[t, F_PHASE]
    if ph == BOOKED:
        if verb == V_ASK:
            S[t, F_ASKED] = arg
            S[t, F_PHASE] = ANSWER
            S[t, F_TURN] = arg
        else:
            ff_start_play(S, R, t)
    elif ph == ANSWER:
        S[t, F_ANSWER] = arg
        if arg:
            S[t, F_PHASE] = FOLD
            S[t, F_TURN] = S[t, F_BIDDER]
        else:
            ff_start_play(S, R, t)
    elif verb == V_FOLD:  # his side goes down the bid; nobody else scores the hand
        S[t, F_FOLDED] = 1
        side = R[R_SIDE_OF + S[t, F_BIDDER]]
        S[t, F_SCORES + side] -= S[t, F_BID]
        if R[R_RESETS] and S[t, F_SCORES + side] == 45:
            S[t, F_SCORES + side] = 0
        close_hand(S, t)
    else:
        ff_start_play(S, R, t)


@jit(refcount=False)
def ff_start_play(S: Any, R: Any, t: int) -> None:
    n = R[R_N]
    lead = R[R_LEAD]
    if lead == LEAD_BIDDER:
        leader = S[t, F_BIDDER]
    elif lead == LEAD_LEFT_OF_BIDDER:
        leader = (S[t, F_BIDDER] + 1) % n
    else:
        leader = (S[t, F_DEALER] + 1) % n
    held = 0
    for s in range(n):
        held |= S[t, F_HANDS + s]
    tr = S[t, F_TRUMP]
    trumps = held & T_TRUMPS[tr]
    bonus = -1
    if R[R_BONUS_FIVE]:
        five = tr * 13 + FIVE
        if trumps >> five & 1:
            bonus = five
    else:
        for i in range(14):
            c = T_ORDER[tr, i]
            if c < 0:
                break
            if trumps >> c & 1:
                bonus = c
                break
    S[t, F_BONUS] = bonus
    S[t, F_PHASE] = PLAY
    S[t, F_TURN] = leader
    S[t, F_LEADER] = leader


@jit(refcount=False)
def ff_bidding_sides(S: Any, R: Any, t: int) -> tuple[int, int]:
    """The bidding sides: the bidder's, and his called partner's if another; -1 if none."""
    b = S[t, F_BIDDER]
    if b < 0:
        return -1, -1
    bs = R[R_SIDE_OF + b]
    p = S[t, F_PARTNER]
    if p >= 0 and R[R_SIDE_OF + p] != bs:
        return bs, R[R_SIDE_OF + p]
    return bs, -1


@jit(refcount=False)
def game_won(S: Any, R: Any, t: int, kind: int, val: int) -> None:
    """A game is won (``_game_won``): in a best-of-3 match the next game may be due."""
    if R[R_BEST3]:
        first = val if kind == W_SIDE else R[R_SIDE_OF + low_index(val)]
        S[t, F_GAMES + first] += 1
        if S[t, F_GAMES + first] < 2:
            S[t, F_NEW_GAME] = 1
            return
    S[t, F_OVER] = 1
    S[t, F_WKIND] = kind
    S[t, F_WVAL] = val


@jit(refcount=False)
def close_hand(S: Any, t: int) -> None:
    S[t, F_PHASE] = GAME_OVER if S[t, F_OVER] else HAND_OVER
    S[t, F_TURN] = -1


@jit(refcount=False)
def ff_finish_trick(S: Any, R: Any, t: int) -> None:
    n = R[R_N]
    leader = S[t, F_LEADER]
    w, pts = trick_taken(S[t, F_TRICK:F_TRICK + n], n, leader, S[t, F_TRUMP], S[t, F_BONUS])
    side = R[R_SIDE_OF + w]
    S[t, F_POINTS + side] += pts
    S[t, F_TAKEN + w] += 1
    called = S[t, F_CALLED]
    if called > 0 and S[t, F_TRICK_NO] < 2:
        c = low_index(called)
        for i in range(n):
            if S[t, F_TRICK + i] == c:
                holder = (leader + i) % n
                if holder != S[t, F_BIDDER]:
                    S[t, F_PARTNER] = holder
    for i in range(MAX_SEATS):
        S[t, F_TRICK + i] = -1
    S[t, F_TRICK_N] = 0
    S[t, F_TRICK_NO] += 1
    if R[R_AUCTION] == AU_NONE:
        S[t, F_SCORES + side] += pts
        if S[t, F_SCORES + side] >= R[R_TARGET]:
            game_won(S, R, t, W_SIDE, side)
            close_hand(S, t)
            return
    if S[t, F_TRICK_NO] == 5:
        ff_score_hand(S, R, t)
        return
    S[t, F_TURN] = w
    S[t, F_LEADER] = w


@jit(refcount=False)
def ff_delta(S: Any, R: Any, t: int, x: int) -> int:
    """What side ``x``'s score moves by for the hand just played (``hand_deltas``)."""
    b0, b1 = ff_bidding_sides(S, R, t)
    if x == b0 or x == b1:  # noqa: SIM109 (numba: no tuple membership needed)
        took = S[t, F_POINTS + b0] + (S[t, F_POINTS + b1] if b1 >= 0 else 0)
        bid = S[t, F_BID]
        if took >= min(bid, 30):
            if bid == 60 or bid == 120:
                return bid
            if bid == 30 and R[R_MADE30]:
                return 60
            if not R[R_SCORES_BID]:
                return took
            return bid
        return -bid
    if S[t, F_START + x] >= R[R_LOCK]:
        return 0
    return S[t, F_POINTS + x]


@jit(refcount=False)
def ff_score_hand(S: Any, R: Any, t: int) -> None:
    none = R[R_AUCTION] == AU_NONE
    for x in range(R[R_NSIDES]):  # a delta reads the points and the start scores only
        d = 0 if none else ff_delta(S, R, t, x)
        moved = S[t, F_POINTS + x] != 0 if none else d != 0
        S[t, F_SCORES + x] += d
        if R[R_RESETS] and moved and S[t, F_SCORES + x] == 45:
            S[t, F_SCORES + x] = 0
    if not none:
        ff_going_out(S, R, t)
    close_hand(S, t)


@jit(refcount=False)
def ff_going_out(S: Any, R: Any, t: int) -> None:
    """Whether a side has gone out, and who wins (``_going_out``)."""
    ns = R[R_NSIDES]
    b0, b1 = ff_bidding_sides(S, R, t)
    green = S[t, F_ON_GREEN]
    if green:  # and still on it after the hand: a side fallen off ends the green
        near = 0
        for x in range(ns):
            if S[t, F_SCORES + x] >= R[R_TARGET] - 30:
                near += 1
        green = 1 if near >= 2 else 0
    reached = 0
    for x in range(ns):
        if S[t, F_SCORES + x] >= R[R_TARGET]:
            if green and x != b0 and x != b1:
                continue
            reached |= 1 << x
    if reached == 0:
        return
    bidders_in = (b0 >= 0 and reached >> b0 & 1) or (b1 >= 0 and reached >> b1 & 1)
    if R[R_CALL_PARTNER] and bidders_in:
        seats = R[R_SIDE_SEATS + b0] | (R[R_SIDE_SEATS + b1] if b1 >= 0 else 0)
        game_won(S, R, t, W_SEATS, seats)
        return
    if not R[R_CALL_PARTNER]:
        if popcount(reached) == 1:
            game_won(S, R, t, W_SIDE, low_index(reached))
            return
        if b0 >= 0 and reached >> b0 & 1:
            game_won(S, R, t, W_SIDE, b0)
            return
    top = -(1 << 60)
    for x in range(ns):
        if reached >> x & 1 and S[t, F_SCORES + x] > top:
            top = S[t, F_SCORES + x]
    best = -1
    count = 0
    for x in range(ns):
        if reached >> x & 1 and S[t, F_SCORES + x] == top:
            if best < 0:
                best = x
            count += 1
    if count > 1:
        return  # a tie plays on
    if R[R_CALL_PARTNER]:
        game_won(S, R, t, W_SEATS, 1 << best)  # (side,): a side of one, its seat
    else:
        game_won(S, R, t, W_SIDE, best)


@jit(refcount=False)
def ff_trump_apply(S: Any, R: Any, D: Any, t: int, s: int, verb: int, arg: int) -> None:
    """Name trump, or go on the kitty (or the top card)."""
    n = R[R_N]
    if verb == V_DISCARD:
        S[t, F_PILE] |= arg
        S[t, F_DISCARDED + s] |= arg
        if not S[t, F_WENT_KITTY]:
            S[t, F_HANDS + s] = S[t, F_KITTY]
            S[t, F_KITTY_TAKEN] = 1
            S[t, F_WENT_KITTY] = 1
        else:
            S[t, F_HANDS + s] = 1 << D[t, R[R_STOCK0] + S[t, F_STOCK_POS]]
            S[t, F_STOCK_POS] += 1
            S[t, F_WENT_TOP] = 1
        return
    S[t, F_TRUMP] = arg
    ff_take_kitty(S, t)
    S[t, F_PHASE] = DRAW
    S[t, F_TURN] = (S[t, F_DEALER] + 1) % n


@jit(refcount=False)
def ff_apply(S: Any, D: Any, R: Any, t: int, verb: int, arg: int) -> None:
    """Apply a legal action to table ``t``."""
    s = S[t, F_TURN]
    n = R[R_N]
    ph = S[t, F_PHASE]
    if ph == PLAY:
        S[t, F_HANDS + s] ^= arg
        S[t, F_TRICK + S[t, F_TRICK_N]] = low_index(arg)
        S[t, F_TRICK_N] += 1
        if S[t, F_TRICK_N] < n:
            S[t, F_TURN] = (s + 1) % n
        else:
            ff_finish_trick(S, R, t)
    elif ph == AUCTION:
        ff_auction_apply(S, R, t, s, verb, arg)
    elif ph == DRAW:
        S[t, F_HANDS + s] &= ~arg
        S[t, F_DISCARDED + s] |= arg
        S[t, F_PILE] |= arg
        if s != S[t, F_DEALER]:
            S[t, F_TURN] = (s + 1) % n
            return
        ff_replenish(S, D, R, t)
        if R[R_ROBS_PACK] and S[t, F_PILE]:
            S[t, F_PHASE] = PACK
            S[t, F_TURN] = S[t, F_DEALER]
        else:
            ff_after_draw(S, R, t)
    elif ph == RAISE:
        if verb == V_RAISE:
            S[t, F_BID] = 30
        ff_to_trump(S, R, t)
        if verb in (V_TRUMP, V_DISCARD):  # the raise declined
            ff_trump_apply(S, R, D, t, s, verb, arg)
    elif ph == TRUMP:
        ff_trump_apply(S, R, D, t, s, verb, arg)
    elif ph == ROB:
        if verb == V_ROB:
            S[t, F_HANDS + s] = (S[t, F_HANDS + s] & ~arg) | (1 << S[t, F_UP])
            S[t, F_ROB_GIVEN] = arg
            S[t, F_ROBBED] = 1
        ff_start_play(S, R, t)
    elif ph == CALL:
        S[t, F_CALLED] = arg
        ff_before_play(S, R, t)
    elif ph == PACK:
        if verb == V_ROB:
            give = arg & S[t, F_HANDS + s]
            take = arg & S[t, F_PILE]
            S[t, F_HANDS + s] = (S[t, F_HANDS + s] & ~give) | take
            S[t, F_PILE] = (S[t, F_PILE] & ~take) | give
            S[t, F_PACK_TAKEN] = take
            S[t, F_DISCARDED + s] |= give
        ff_after_draw(S, R, t)
    elif ph >= BOOKED:  # "booked?", its answer, folding
        ff_booked_apply(S, R, t, verb, arg)


# ----- Forty One ---------------------------------------------------------------------------


@jit(refcount=False)
def fo_begin(S: Any, D: Any, R: Any, t: int) -> None:
    for x in range(MAX_SEATS):
        S[t, F_START + x] = S[t, F_SCORES + x]
        S[t, F_TAKEN + x] = 0
        S[t, F_BIDS + x] = 0
        S[t, F_HANDS + x] = 0
        S[t, F_TRICK + x] = -1
    for s in range(4):
        m = 0
        for j in range(13):
            m |= 1 << D[t, 13 * s + j]
        S[t, F_HANDS + s] = m
    S[t, F_THROWN] = 0
    S[t, F_TRICK_N] = 0
    S[t, F_TRICK_NO] = 0
    S[t, F_TRUMP] = HEARTS
    S[t, F_PHASE] = AUCTION
    S[t, F_TURN] = (S[t, F_DEALER] + 1) % 4
    S[t, F_LEADER] = -1


@jit(refcount=False)
def fo_play_mask(S: Any, t: int, s: int) -> int:
    hand = S[t, F_HANDS + s]
    if S[t, F_TRICK_N]:
        follow = hand & T_SUIT[S[t, F_TRICK] // 13]
        if follow:
            return follow
    return hand


@jit(refcount=False)
def fo_count(S: Any, R: Any, t: int) -> int:
    s = S[t, F_TURN]
    if s < 0:
        return 0
    if S[t, F_PHASE] == AUCTION:
        return 13
    return popcount(fo_play_mask(S, t, s))


@jit(refcount=False)
def fo_nth(S: Any, R: Any, t: int, k: int) -> tuple[int, int]:
    if S[t, F_PHASE] == AUCTION:
        return V_BID, k + 1
    return V_PLAY, nth_bit(fo_play_mask(S, t, S[t, F_TURN]), k)


@jit(refcount=False)
def fo_qualifies(S: Any, R: Any, t: int, a: int, b: int) -> bool:
    target = R[R_TARGET]
    pa = S[t, F_SCORES + a]
    pb = S[t, F_SCORES + b]
    pos = R[R_PARTNER_POS]
    return bool((pa >= target and (not pos or pb > 0)) or (pb >= target and (not pos or pa > 0)))


@jit(refcount=False)
def fo_score_hand(S: Any, R: Any, t: int) -> None:
    for s in range(4):
        bid = S[t, F_BIDS + s]
        v = 2 * bid if bid >= R[R_DOUBLE_FROM] else bid
        S[t, F_SCORES + s] += v if S[t, F_TAKEN + s] >= bid else -v
    q0 = fo_qualifies(S, R, t, 0, 2)
    q1 = fo_qualifies(S, R, t, 1, 3)
    if q0 or q1:
        if q0 and q1:
            sc0, sc1 = S[t, F_SCORES], S[t, F_SCORES + 2]
            sc2, sc3 = S[t, F_SCORES + 1], S[t, F_SCORES + 3]
            if R[R_TIE_TOTAL]:
                m0, m1 = sc0 + sc1, sc2 + sc3
            else:
                m0, m1 = min(sc0, sc1), min(sc2, sc3)
            if m0 != m1:
                game_won(S, R, t, W_SEATS, 0b0101 if m0 > m1 else 0b1010)
        else:
            game_won(S, R, t, W_SEATS, 0b0101 if q0 else 0b1010)
    close_hand(S, t)


@jit(refcount=False)
def fo_apply(S: Any, D: Any, R: Any, t: int, verb: int, arg: int) -> None:
    s = S[t, F_TURN]
    if S[t, F_PHASE] == AUCTION:
        S[t, F_BIDS + s] = arg
        if s != S[t, F_DEALER]:
            S[t, F_TURN] = (s + 1) % 4
            return
        total = 0
        for x in range(4):
            total += S[t, F_BIDS + x]
        if total < R[R_MIN_TOTAL]:
            S[t, F_THROWN] = 1
            S[t, F_PHASE] = HAND_OVER
            S[t, F_TURN] = -1
            return
        S[t, F_PHASE] = PLAY
        leader = (S[t, F_DEALER] + 1) % 4
        S[t, F_TURN] = leader
        S[t, F_LEADER] = leader
        return
    S[t, F_HANDS + s] ^= arg
    S[t, F_TRICK + S[t, F_TRICK_N]] = low_index(arg)
    S[t, F_TRICK_N] += 1
    if S[t, F_TRICK_N] < 4:
        S[t, F_TURN] = (s + 1) % 4
        return
    ls = S[t, F_TRICK] // 13
    best = -1
    bi = 0
    for i in range(4):
        key = T_KEY41[ls, S[t, F_TRICK + i]]
        if key > best:
            best = key
            bi = i
    w = (S[t, F_LEADER] + bi) % 4
    S[t, F_TAKEN + w] += 1
    for i in range(4):
        S[t, F_TRICK + i] = -1
    S[t, F_TRICK_N] = 0
    S[t, F_TRICK_NO] += 1
    if S[t, F_TRICK_NO] == 13:
        fo_score_hand(S, R, t)
    else:
        S[t, F_TURN] = w
        S[t, F_LEADER] = w


# ----- both games ----------------------------------------------------------------------------


@jit(refcount=False)
def count(S: Any, R: Any, t: int) -> int:
    if R[R_GAME] == G_FORTY_ONE:
        return fo_count(S, R, t)
    return ff_count(S, R, t)


@jit(refcount=False)
def nth(S: Any, R: Any, t: int, k: int) -> tuple[int, int]:
    if R[R_GAME] == G_FORTY_ONE:
        return fo_nth(S, R, t, k)
    return ff_nth(S, R, t, k)


@jit(refcount=False)
def find(S: Any, R: Any, t: int, verb: int, arg: int) -> int:
    """The index of (verb, arg) among table ``t``'s legal actions, or -1."""
    for i in range(count(S, R, t)):
        v, a = nth(S, R, t, i)
        if v == verb and a == arg:
            return i
    return -1


@jit(refcount=False)
def apply(S: Any, D: Any, R: Any, t: int, verb: int, arg: int) -> None:
    if R[R_GAME] == G_FORTY_ONE:
        fo_apply(S, D, R, t, verb, arg)
    else:
        ff_apply(S, D, R, t, verb, arg)


@jit(refcount=False)
def begin(S: Any, D: Any, R: Any, t: int) -> None:
    if R[R_GAME] == G_FORTY_ONE:
        fo_begin(S, D, R, t)
    else:
        ff_begin(S, D, R, t)


@jit(refcount=False)
def new_game(S: Any, D: Any, R: Any, t: int, first_dealer: int) -> None:
    """Start a new game on table ``t`` with the deck already in ``D[t]``."""
    for x in range(MAX_SEATS):
        S[t, F_SCORES + x] = 0
        S[t, F_GAMES + x] = 0
    S[t, F_OVER] = 0
    S[t, F_WKIND] = W_NONE
    S[t, F_WVAL] = 0
    S[t, F_NEW_GAME] = 0
    S[t, F_HAND_INDEX] = 0
    S[t, F_FIRST_DEALER] = first_dealer
    S[t, F_DEALER] = first_dealer
    begin(S, D, R, t)


@jit(refcount=False)
def next_hand(S: Any, D: Any, R: Any, t: int) -> None:
    """Deal the next hand on table ``t`` from ``D[t]`` (``GameState.next_hand``)."""
    S[t, F_HAND_INDEX] += 1
    S[t, F_DEALER] = (S[t, F_DEALER] + 1) % R[R_N]
    if S[t, F_NEW_GAME]:
        for x in range(MAX_SEATS):
            S[t, F_SCORES + x] = 0
        S[t, F_NEW_GAME] = 0
    begin(S, D, R, t)


@jit(refcount=False)
def rand_below(S: Any, t: int, bound: int) -> int:
    """A uniform draw from 0..bound-1 by table ``t``'s own generator (xorshift64*)."""
    x = S[t, F_RNG]
    x ^= (x >> 12) & 0xFFFFFFFFFFFFF
    x ^= x << 25
    x ^= (x >> 27) & 0x1FFFFFFFFF
    S[t, F_RNG] = x
    u = ((x * 2685821657736338717) >> 11) & 0x1FFFFFFFFFFFFF  # the top 53 bits
    return min(int(u * (1.0 / 9007199254740992.0) * bound), bound - 1)


@jit(refcount=False)
def shuffle(S: Any, D: Any, t: int) -> None:
    for i in range(52):
        D[t, i] = i
    for i in range(51, 0, -1):
        j = rand_below(S, t, i + 1)
        c = D[t, i]
        D[t, i] = D[t, j]
        D[t, j] = c


@jit(refcount=False)
def deal_on(S: Any, D: Any, R: Any, t: int) -> None:
    """After a hand: shuffle, then deal on as ``deal_from_deck``."""
    shuffle(S, D, t)
    deal_from_deck(S, D, R, t)


@jit(refcount=False)
def deal_from_deck(S: Any, D: Any, R: Any, t: int) -> None:
    """After a hand: count it, and deal the next one from ``D[t]``, or a new game once the
    game is over (its first dealer one seat on from the last game's)."""
    S[t, F_HANDS_DONE] += 1
    S[t, F_THROWN_DONE] += S[t, F_THROWN]
    if S[t, F_OVER]:
        S[t, F_GAMES_DONE] += 1
        new_game(S, D, R, t, (S[t, F_FIRST_DEALER] + 1) % R[R_N])
    else:
        next_hand(S, D, R, t)


@jit(refcount=False)
def new_games(S: Any, D: Any, R: Any, first_dealer: int, shuffle_decks: bool) -> None:
    for t in range(S.shape[0]):
        if shuffle_decks:
            shuffle(S, D, t)
        new_game(S, D, R, t, first_dealer)
        S[t, F_HANDS_DONE] = 0
        S[t, F_GAMES_DONE] = 0
        S[t, F_THROWN_DONE] = 0


@jit(refcount=False)
def counts(S: Any, R: Any, out: Any) -> None:
    """Every table's count of legal actions, into ``out``."""
    for t in range(S.shape[0]):
        out[t] = count(S, R, t)


@jit(refcount=False)
def step(S: Any, D: Any, R: Any, choice: Any, counts: Any, auto: bool) -> int:
    """Every table with a legal action applies its ``choice[t]``-th; with ``auto``, a hand
    that ends is followed by the next deal. ``counts`` holds each table's count of legal
    actions, and is brought up to date. Returns the first table whose choice is out of
    range (nothing is applied then), or -1."""
    for t in range(S.shape[0]):
        c = counts[t]
        if c and not 0 <= choice[t] < c:
            return t
    for t in range(S.shape[0]):
        if counts[t] == 0:
            continue
        verb, arg = nth(S, R, t, choice[t])
        apply(S, D, R, t, verb, arg)
        if auto and S[t, F_TURN] < 0:
            deal_on(S, D, R, t)
        counts[t] = count(S, R, t)
    return -1


@jit(refcount=False)
def play_random(S: Any, D: Any, R: Any, steps: int) -> None:
    """``steps`` rounds: every table plays a uniformly random legal action, dealing on."""
    for _ in range(steps):
        for t in range(S.shape[0]):
            c = count(S, R, t)
            if c == 0:
                deal_on(S, D, R, t)
                continue
            verb, arg = nth(S, R, t, rand_below(S, t, c))
            apply(S, D, R, t, verb, arg)
            if S[t, F_TURN] < 0:
                deal_on(S, D, R, t)
