"""Forty One solved for what it scores: each seat's own bid, with every card seen.

Forty One scores each seat on its own bid (made: its value, doubled from
``double_from``; missed: minus it), and the game ends when a player reaches the
target with his partner above zero (ties as the rules say). So the outcome of a
hand that matters is only *which seats make their bids*: four yes-or-no facts,
sixteen possible outcomes. A team's value of an outcome (``outcome_values``) is
its own two score changes minus the other team's, plus ``WIN_VALUE`` if the hand
ends the game in its favour (minus it if against): the hand's scores go through
``score_forty_one``, the one copy of the scoring rules, so the target, the
partner-positive rule and the tie rules are exactly the game's. The two teams'
values are opposite (a zero-sum game of two players), and the search below is
plain minimax on it.

The state the search carries beyond the cards is each seat's *need*: the tricks
it still lacks for its bid (0 once made; more tricks are then worth nothing).
At the start of each trick it knows which seats have made their bids and which
can no longer (more need than tricks left), and which sets of seats could still
all make theirs (their needs add up to no more than the tricks left); the best
and worst such outcome bound the value, which often decides a node at once.

``solve`` finds the value with a binary search over the (at most sixteen)
distinct outcome values, each step a null-window search ("can the team reach at
least this?") with alpha-beta cut-offs and a transposition table keyed on every
hand, the seat to lead and the needs, as the team-trick solver (``kernel.py``)
is; one card of each run of equivalent cards is searched. Compiled with numba on
an explicit stack (numba's disk cache cannot hold a recursive function).

Exact when the search reaches the end of the hand; with a ``horizon`` (a trick
number) it stops there and estimates each seat's remaining tricks
(``_estimate``): top cards of each suit for their holders, the rest shared out
by trumps held.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..actions import Action
from ..fortyone import PLAY_ACTIONS, FortyOneState
from ..jit import jit
from ..rules import FortyOneRules
from ..scoring import FortyOneHand, score_forty_one
from ..state import Phase
from .position import Position, forty_one_position
from .search import (
    ENTER,
    F_GOAL,
    F_H,
    F_ISMAX,
    F_K,
    F_LED,
    F_OWN,
    F_PRESENT,
    F_RESULT,
    F_SEAT,
    F_TMASK,
    F_TNO,
    F_WCARD,
    F_WSEAT,
    NEXT,
    RETURN,
    beats,
    bit_length,
    finish,
    last_trick_winner,
    next_card,
    popcount,
    probe,
    set_frame,
    set_up_moves,
    trick_so_far,
)

# What ending the game is worth, in points of a hand (the players' ``WIN_BONUS``).
WIN_VALUE = 200


# ----- the outcome values -----------------------------------------------------------------


def outcome_values(rules: FortyOneRules, bids: Sequence[int], scores: Sequence[int],
                   team: int, win_value: int = WIN_VALUE) -> list[int]:
    """The value for ``team`` (0: seats 0 and 2; 1: seats 1 and 3) of each outcome, indexed
    by the set of seats that make their bids (bit s: seat s makes it)."""
    # A player asks this for every imagined deal of a decision, with the same bids and
    # scores each time: the sixteen hands are scored once (this was 40% of a Forty One
    # expert's time).
    return list(_outcome_values(rules, tuple(bids), tuple(scores), team, win_value))


@functools.lru_cache(maxsize=4096)
def _outcome_values(rules: FortyOneRules, bids: tuple[int, ...], scores: tuple[int, ...],
                    team: int, win_value: int) -> tuple[int, ...]:
    out = []
    mine = rules.teams[team]
    theirs = rules.teams[1 - team]
    for made in range(16):
        tricks = tuple(bids[s] if made >> s & 1 else 0 for s in range(4))
        o = score_forty_one(rules, FortyOneHand(tuple(bids), tricks), scores)
        v = sum(o.deltas[s] for s in mine) - sum(o.deltas[s] for s in theirs)
        if isinstance(o.winner, tuple):
            v += win_value if set(o.winner) == set(mine) else -win_value
        out.append(v)
    return tuple(out)


def made_mask(bids: Sequence[int], tricks: Sequence[int]) -> int:
    """The seats that made their bids with ``tricks``, as outcome_values indexes them."""
    return sum(1 << s for s in range(4) if tricks[s] >= bids[s])


# ----- the compiled search ------------------------------------------------------------------

# cfg slots
(TSEG, HORIZON, LEADER, TNO, K0, MM, TTMASK, GEN, NODES, NVALS) = range(10)
CFG_SIZE = 16
# buf: hands 0..3, segmask 4..7, trick 8..11, seg 12..63, values 64..79, sorted 80..95
B_HANDS, B_SEGMASK, B_TRICK, B_SEG, B_VAL, B_SORTED = 0, 4, 8, 12, 64, 80
BUF_SIZE = 96
KEY_COLS = 6  # four hands, the meta word, the generation

# the search frame: the shared columns (``search.py``), then each seat's need
F_THR = F_GOAL  # the rank, among the sorted outcome values, of the value asked for
F_NEEDS = F_OWN  # the tricks each seat still lacks for its bid, four bits a seat
FRAME_COLS = 20
MAX_DEPTH = 60


@jit(inline=True, refcount=False)
def _bounds(needs: int, rem: int, vals: Any) -> Any:
    """The best and the worst outcome value still possible with ``rem`` tricks left."""
    made = 0
    open_ = 0
    for s in range(4):
        nd = needs >> (4 * s) & 15
        if nd == 0:
            made |= 1 << s
        elif nd <= rem:
            open_ |= 1 << s
    best = -(1 << 40)
    worst = 1 << 40
    sub = open_
    while True:
        total = 0
        for s in range(4):
            if sub >> s & 1:
                total += needs >> (4 * s) & 15
        if total <= rem:
            v = vals[made | sub]
            if v > best:
                best = v
            if v < worst:
                worst = v
        if sub == 0:
            break
        sub = (sub - 1) & open_
    return best, worst


@jit(refcount=False)
def _estimate(hands: Any, present: int, tseg: int, segmask: Any, needs: int, rem: int,
              vals: Any) -> int:
    """A guess at the outcome: each seat takes the top cards it holds in each suit (a run
    from the top), the tricks left over go by trumps held; a seat makes its bid when the
    guess covers its need."""
    est = 0  # four 4-bit counts
    claimed = 0
    for su in range(4):
        sm = present & segmask[su]
        while sm:
            top = bit_length(sm) - 1
            o = -1
            for q in range(4):
                if hands[q] >> top & 1:
                    o = q
            if o < 0:
                break
            est += 1 << (4 * o)
            claimed += 1
            sm &= ~(1 << top)
            nxt = bit_length(sm) - 1
            if nxt < 0 or not hands[o] >> nxt & 1:
                break
    if claimed > rem:
        claimed = rem
    spare = rem - claimed
    weight = 0
    for q in range(4):
        weight += popcount(hands[q] & tseg) + 1
    made = 0
    for q in range(4):
        share = (spare * (popcount(hands[q] & tseg) + 1)) // weight
        nd = needs >> (4 * q) & 15
        if (est >> (4 * q) & 15) + share >= nd:
            made |= 1 << q
    return int(vals[made])


@jit(inline=True, refcount=False)
def _set(fr: Any, q: int, seat: int, k: int, needs: int, tno: int, present: int, tmask: int,
         led: int, wcard: int, wseat: int, thr: int) -> None:
    set_frame(fr, q, seat, k, thr, tno, present, tmask, led, wcard, wseat)
    fr[q, F_NEEDS] = needs


@jit(inline=True, refcount=False)
def _enter(hands: Any, seg: Any, segmask: Any, vals: Any, srt: Any, cfg: Any, ttkey: Any,
           ttb: Any, fr: Any, sp: int) -> int:
    """0 or 1 when the node is decided at once (value below / at least the threshold),
    else 2 with its moves set up."""
    cfg[NODES] += 1
    tseg = cfg[TSEG]
    mm = cfg[MM]
    seat = fr[sp, F_SEAT]
    k = fr[sp, F_K]
    needs = fr[sp, F_NEEDS]
    tno = fr[sp, F_TNO]
    present = fr[sp, F_PRESENT]
    led = fr[sp, F_LED]
    thr = fr[sp, F_THR]
    want = srt[thr]
    h = hands[seat]
    ismax = mm >> seat & 1
    meta = 0
    lo = 0
    hi = 0
    if k == 0:
        rem = 13 - tno
        best, worst = _bounds(needs, rem, vals)
        if worst >= want:
            return 1
        if best < want:
            return 0
        if tno >= cfg[HORIZON]:
            est = _estimate(hands, present, tseg, segmask, needs, rem, vals)
            return 1 if est >= want else 0
        if rem == 1:
            o = last_trick_winner(hands, h, present, tseg, segmask, seg)
            made = 0
            for s in range(4):
                nd = needs >> (4 * s) & 15
                if nd == 0 or (s == o and nd == 1):
                    made |= 1 << s
            return 1 if vals[made] >= want else 0
        meta = seat | (needs << 4)
        r = probe(hands, 4, meta, ttkey, cfg[TTMASK], cfg[GEN], False)
        lo = 0
        hi = cfg[NVALS] - 1
        if r >= 0:
            lo = int(ttb[r, 0])
            hi = int(ttb[r, 1])
            if lo >= thr:
                return 1
            if hi < thr:
                return 0
        legal = h
    else:
        legal = h
        f = h & segmask[seg[led]]
        if f:
            legal = f
    # a card's class is its suit: Forty One has no card of its own rank
    set_up_moves(fr, sp, h, ismax, meta, lo, hi, legal, present, tseg, segmask, seg, seg, mm)
    return 2


@jit(inline=True, refcount=False)
def _child(hands: Any, seg: Any, cfg: Any, fr: Any, sp: int) -> bool:
    c = next_card(fr, sp)
    if c < 0:
        return False
    tseg = cfg[TSEG]
    seat = fr[sp, F_SEAT]
    k = fr[sp, F_K]
    needs = fr[sp, F_NEEDS]
    tno = fr[sp, F_TNO]
    present = fr[sp, F_PRESENT]
    tmask = fr[sp, F_TMASK]
    wcard = fr[sp, F_WCARD]
    wseat = fr[sp, F_WSEAT]
    thr = fr[sp, F_THR]
    b = 1 << c
    hands[seat] = fr[sp, F_H] ^ b
    nxt = (seat + 1) & 3
    q = sp + 1
    if k == 0:
        _set(fr, q, nxt, 1, needs, tno, present, b, c, c, seat, thr)
        return True
    if beats(c, wcard, tseg, seg):
        nw = c
        ns = seat
    else:
        nw = wcard
        ns = wseat
    if k < 3:
        _set(fr, q, nxt, k + 1, needs, tno, present, tmask | b, fr[sp, F_LED], nw, ns, thr)
        return True
    if needs >> (4 * ns) & 15:
        needs -= 1 << (4 * ns)
    _set(fr, q, ns, 0, needs, tno + 1, present & ~(tmask | b), 0, -1, -1, -1, thr)
    return True


@jit(refcount=False)
def _search(hands: Any, seg: Any, segmask: Any, vals: Any, srt: Any, cfg: Any, ttkey: Any,
            ttb: Any, fr: Any) -> bool:
    sp = 0
    mode = ENTER
    ret = False
    while True:
        if mode == ENTER:
            e = _enter(hands, seg, segmask, vals, srt, cfg, ttkey, ttb, fr, sp)
            if e == 2:
                mode = NEXT
            else:
                ret = e == 1
                mode = RETURN
        elif mode == NEXT:
            if _child(hands, seg, cfg, fr, sp):
                sp += 1
                mode = ENTER
            else:
                ret = finish(hands, 4, ttkey, ttb, cfg[TTMASK], cfg[GEN], fr, sp)
                mode = RETURN
        else:
            if sp == 0:
                return ret
            sp -= 1
            hands[fr[sp, F_SEAT]] = fr[sp, F_H]
            if fr[sp, F_ISMAX]:
                if ret:
                    fr[sp, F_RESULT] = 1
                    ret = finish(hands, 4, ttkey, ttb, cfg[TTMASK], cfg[GEN], fr, sp)
                    continue
            elif not ret:
                fr[sp, F_RESULT] = 0
                ret = finish(hands, 4, ttkey, ttb, cfg[TTMASK], cfg[GEN], fr, sp)
                continue
            mode = NEXT


@jit(refcount=False)
def _value(buf: Any, needs: int, cfg: Any, ttkey: Any, ttb: Any, fr: Any) -> int:
    """The value of the position in ``buf``/``cfg`` for the team ``cfg[MM]``: a binary
    search over the sorted outcome values, each step a null-window search."""
    hands = buf[B_HANDS:B_HANDS + 4]
    segmask = buf[B_SEGMASK:B_SEGMASK + 4]
    trick = buf[B_TRICK:B_TRICK + 4]
    seg = buf[B_SEG:B_SEG + 52]
    vals = buf[B_VAL:B_VAL + 16]
    srt = buf[B_SORTED:B_SORTED + 16]
    tseg = cfg[TSEG]
    leader = cfg[LEADER]
    k0 = cfg[K0]
    seat0 = (leader + k0) & 3
    present0 = hands[0] | hands[1] | hands[2] | hands[3]
    tmask0, led0, wcard0, wseat0 = trick_so_far(trick, k0, leader, 4, tseg, seg)
    present0 |= tmask0
    lo = 0
    hi = cfg[NVALS] - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        _set(fr, 0, seat0, k0, needs, cfg[TNO], present0, tmask0, led0, wcard0, wseat0, mid)
        if _search(hands, seg, segmask, vals, srt, cfg, ttkey, ttb, fr):
            lo = mid
        else:
            hi = mid - 1
    return int(srt[lo])


class _Table:
    def __init__(self, bits: int = 18) -> None:
        size = 1 << bits
        self.key = np.zeros((size, KEY_COLS), dtype=np.int64)
        self.bounds = np.zeros((size, 2), dtype=np.int8)
        self.cfg = np.zeros(CFG_SIZE, dtype=np.int64)
        self.cfg[TTMASK] = size - 1
        self.frames = np.zeros((MAX_DEPTH, FRAME_COLS), dtype=np.int64)
        self.buf = np.zeros(BUF_SIZE, dtype=np.int64)


_TABLE: _Table | None = None


def _table() -> _Table:
    global _TABLE
    if _TABLE is None:
        _TABLE = _Table()
    return _TABLE


def _pack(needs: Sequence[int]) -> int:
    return sum(max(0, min(15, n)) << (4 * s) for s, n in enumerate(needs))


def position_value(pos: Position, needs: Sequence[int], values: Sequence[int],
                   new_search: bool = True) -> int:
    """The value of ``pos`` (a Forty One position, ``position.forty_one_position``) for the
    team of ``pos.maxmask`` when the seats still need ``needs`` tricks and ``values`` are
    that team's values of the sixteen outcomes. Positions valued without ``new_search``
    share the table with the one before (same deal, same values, same team)."""
    t = _table()
    cfg = t.cfg
    if new_search:
        cfg[GEN] += 1
    srt = sorted(set(values))
    cfg[TSEG] = pos.tseg
    cfg[HORIZON] = pos.horizon
    cfg[LEADER] = pos.leader
    cfg[TNO] = pos.tno
    cfg[K0] = len(pos.trick)
    cfg[MM] = pos.maxmask
    cfg[NVALS] = len(srt)
    buf = t.buf
    buf[:] = 0
    buf[B_HANDS:B_HANDS + 4] = pos.hands
    buf[B_SEGMASK:B_SEGMASK + 4] = pos.segmask
    buf[B_TRICK:B_TRICK + len(pos.trick)] = pos.trick
    buf[B_SEG:B_SEG + len(pos.seg)] = pos.seg
    buf[B_VAL:B_VAL + 16] = values
    buf[B_SORTED:B_SORTED + len(srt)] = srt
    return int(_value(buf, _pack(needs), cfg, t.key, t.bounds, t.frames))


def nodes() -> int:
    return int(_table().cfg[NODES])


# ----- from a game -----------------------------------------------------------------------------


def _check(state: Any) -> FortyOneState:
    if not isinstance(state, FortyOneState):
        raise TypeError("a Forty One game is needed")
    if state.phase is not Phase.PLAY:
        raise ValueError(f"the hand is not being played (phase {state.phase.value})")
    return state


def _horizon(state: FortyOneState, exact_tricks: int, depth: int) -> int:
    left = 13 - state.trick_no
    if left <= exact_tricks:
        return 13
    return state.trick_no + max(depth, 1)


def needs_of(state: FortyOneState) -> list[int]:
    return [max(0, (state.bids[s] or 0) - state.taken[s]) for s in range(4)]


def _values(state: FortyOneState, team: int, win_value: int) -> list[int]:
    return outcome_values(state.rules, [b or 0 for b in state.bids], state.start_scores, team,
                          win_value)


def solve_score(state: Any, team: int, exact_tricks: int = 13, depth: int = 3,
                win_value: int = WIN_VALUE) -> int:
    """The value of the hand in play for ``team`` (0: seats 0 and 2; 1: seats 1 and 3) with
    every card seen and best play by all four: its seats' score changes minus the other
    team's, plus ``win_value`` if the hand ends the game for it (minus, against it). Exact
    when at most ``exact_tricks`` tricks are left (the default: always); otherwise searched
    ``depth`` tricks deep and estimated beyond."""
    g = _check(state)
    mask = 5 << team
    pos = forty_one_position(g, mask, _horizon(g, exact_tricks, depth))
    return position_value(pos, needs_of(g), _values(g, team, win_value))


def best_moves_score(state: Any, exact_tricks: int = 13, depth: int = 3,
                     win_value: int = WIN_VALUE) -> dict[Action, int]:
    """Each legal card of the seat to play with its team's value (as ``solve_score``) if it
    plays that card and all play best from then on."""
    g = _check(state)
    seat = g.turn
    assert seat is not None
    team = seat % 2
    mask = 5 << team
    pos = forty_one_position(g, mask, _horizon(g, exact_tricks, depth))
    values = _values(g, team, win_value)
    needs = needs_of(g)
    reps = pos.representatives(seat)
    out: dict[int, int] = {}
    first = True
    for c in sorted(set(reps.values())):
        child = pos.play(c)
        nd = list(needs)
        if child.tno > pos.tno and nd[child.leader] > 0:
            nd[child.leader] -= 1
        if child.tno >= 13:
            out[c] = values[sum(1 << s for s in range(4) if nd[s] == 0)]
        else:
            out[c] = position_value(child, nd, values, new_search=first)
            first = False
    return {PLAY_ACTIONS[seat][pos.cards[c]]: out[r] for c, r in sorted(reps.items())}


__all__ = ["WIN_VALUE", "best_moves_score", "made_mask", "outcome_values", "position_value",
           "solve_score"]
