"""``bots.model``'s search compiled: the opponents play ``basic``'s card, one side searches.

On bit masks: the opponents' cards are ``basic_kernel.play_card``, ``basic.play_card``
compiled (the rule the vector environments' ``basic`` plays by); ``tests/test_model.py``
checks the search against the engine and ``BasicBot`` itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..jit import jit
from ..vector import kernel as k
from .basic_kernel import play_card

# numba's cache of this module is keyed on this file's text alone, yet it compiles in
# vector.kernel's row layout (ten seats since the row grew from six): a change to that
# layout must change this file too, or a cache from before it reads the rows wrongly.


@jit()
def search(hands: Any, tc: Any, tn: int, leader: int, turn: int, played: int, p0: int,
           p1: int, trump: int, priv: int, suit_or_trump: bool, hoh: bool, bonus: int,
           side_of: Any, bidding: Any, side: int) -> int:
    """Each side's points at the end of the hand from here, ``side`` choosing its cards
    for itself and the other side playing ``basic``'s: side 0's times 256 plus side 1's.

    ``hands`` (changed while it runs, as it was when it returns), the trick's cards
    ``tc[:tn]`` led by ``leader``, ``turn`` the seat to play (unused once the trick is
    full: its winner leads). A depth-first search over an explicit stack, one level a card
    (a recursive compiled function cannot be kept in numba's cache)."""
    n = 4
    top_depth = 24
    seq = np.empty(tn + top_depth, dtype=np.int64)  # the cards from this trick's lead on
    for i in range(tn):
        seq[i] = tc[i]
    lead = np.empty(top_depth, dtype=np.int64)  # each level's trick leader
    pa = np.empty(top_depth, dtype=np.int64)  # each level's points of side 0
    pb = np.empty(top_depth, dtype=np.int64)  # and side 1
    seen = np.empty(top_depth, dtype=np.int64)  # the cards played before each level
    opts = np.zeros(top_depth, dtype=np.int64)  # the side's cards still to try there
    best = np.empty(top_depth, dtype=np.int64)
    best_mine = np.empty(top_depth, dtype=np.int64)
    top = np.empty(top_depth, dtype=np.int64)
    who = np.empty(top_depth, dtype=np.int64)  # the seat that played each level's card
    mine_side = np.zeros(top_depth, dtype=np.bool_)  # whether the side chose it
    d = 0
    lead[0], pa[0], pb[0], seen[0] = leader, p0, p1, played
    value = 0
    entering = True
    while True:
        if entering:
            pos = tn + d
            at = pos % n
            done = False
            if at == 0 and pos > 0:  # a trick is full: its winner takes it and leads
                w, pts = k.trick_taken(seq[pos - n:pos], n, lead[d], trump, bonus)
                if side_of[w] == 0:
                    pa[d] += pts
                else:
                    pb[d] += pts
                lead[d] = w
                if hands[w] == 0:
                    value = pa[d] * 256 + pb[d]
                    done = True
            if not done:
                s = (lead[d] + at) % n
                hand = hands[s]
                start = pos - at
                o = hand if at == 0 else k.follow_mask(hand, seq[start], trump, priv,
                                                       suit_or_trump, hoh)
                who[d] = s
                if side_of[s] != side:
                    mine_side[d] = False
                    c = play_card(s, hand, seen[d], seq[start:pos], at, lead[d], n, trump,
                                  side_of, bidding[s], o)
                else:
                    mine_side[d] = True
                    left = 0
                    for x in range(n):
                        left += k.popcount(hands[x])
                    t = (pa[d] if side == 0 else pb[d]) + 5 * ((left + at + n - 1) // n)
                    if bonus >= 0:
                        for x in range(n):
                            if hands[x] >> bonus & 1:
                                t += 5
                        for i in range(start, pos):
                            if seq[i] == bonus:
                                t += 5
                    top[d] = t
                    best[d] = -1
                    best_mine[d] = -1
                    low = o & -o
                    opts[d] = o ^ low
                    c = k.low_index(low)
                hands[s] ^= 1 << c
                seq[pos] = c
                lead[d + 1], pa[d + 1], pb[d + 1] = lead[d], pa[d], pb[d]
                seen[d + 1] = seen[d] | 1 << c
                d += 1
                continue
            # the hand is over at this level: its value goes up
            entering = False
            if d == 0:
                return value
            d -= 1
        # a value comes back to level d from the card played there
        hands[who[d]] ^= 1 << seq[tn + d]
        if mine_side[d]:
            m = value // 256 if side == 0 else value % 256
            if m > best_mine[d]:
                best_mine[d] = m
                best[d] = value
            if best_mine[d] < top[d] and opts[d]:
                low = opts[d] & -opts[d]
                opts[d] ^= low
                c = k.low_index(low)
                hands[who[d]] ^= low
                seq[tn + d] = c
                seen[d + 1] = seen[d] | low
                lead[d + 1], pa[d + 1], pb[d + 1] = lead[d], pa[d], pb[d]
                d += 1
                entering = True
                continue
            value = best[d]
        if d == 0:
            return value
        d -= 1
