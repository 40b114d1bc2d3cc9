"""The compiled search: ``twin.py``'s algorithm, statement for statement, in numba.

Card sets are int64 bitmasks of compact card numbers (``position.py``). The
twin's recursion runs here on an explicit stack of frames (numba's disk cache
cannot hold a recursive function), and the functions are compiled without
reference counting (every array belongs to the caller). The transposition table
is an open-addressed array: four slots are probed, a stale or the first one is
overwritten, and a generation number stamped on each entry spares clearing the
table for each new position. An entry is found only on an exact match of every
hand, the leader and the side's make-up, so losing one costs time, never
exactness. ``future_ff`` numbers a game's cards in compiled code too (the
same numbering as ``position.forty_fives_position``, which the tests check), the
fast road from a game to its value. Compiled on first use and cached on disk.
The tables are module state: one search at a time per process.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..fortyfives import FortyFivesState
from ..jit import jit
from .position import FF_RANK, FF_SEG, FOLLOW_MODES, SPECIAL_CLASS, Position, ff_special_cards
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

# cfg slots: the rules and the position's scalars, then the table's state
(N, TSEG, PRIV, AH, PLAIN, FOLLOW, BONUSBIT, CALLED, TRICKS, HORIZON, LEADER, TNO, K0, MM,
 PEND, PU, TTMASK, GEN, NODES) = range(19)
CFG_SIZE = 32
# buf: the position's arrays
B_HANDS, B_SEGMASK, B_TRICK, B_SEG, B_CLS, B_INDEX, B_RAW = 0, 8, 12, 20, 84, 148, 200
# the raw Forty-Fives position (cards 0..51) that _compact_ff numbers
R_TRUMP, R_PRIV, R_PLAIN, R_AH, R_CALLED, R_BONUS, R_HANDS = range(B_RAW, B_RAW + 7)
R_TRICK = R_HANDS + 8
BUF_SIZE = 256
KEY_COLS = 8  # six hands, the meta word, the generation


@jit(refcount=False)
def _estimate(hands: Any, present: int, n: int, maxmask: int, leader: int, rem: int,
              segmask: Any) -> int:
    won0 = 0
    won1 = 0
    for s in range(4):
        sm = present & segmask[s]
        if sm == 0:
            continue
        top = bit_length(sm) - 1
        side = 0
        for q in range(n):
            if hands[q] >> top & 1:
                side = maxmask >> q & 1
                break
        coal = 0
        longest = 0
        for q in range(n):
            if (maxmask >> q & 1) == side:
                coal |= hands[q]
                k = popcount(hands[q] & sm)
                if k > longest:
                    longest = k
        opp_best = bit_length(sm & ~coal) - 1
        over = sm & coal
        if opp_best >= 0:
            over &= ~((2 << opp_best) - 1)
        cnt = popcount(over)
        if cnt > longest:
            cnt = longest
        if side == 1:
            won1 += cnt
        else:
            won0 += cnt
    wmax = won1 if won1 < rem else rem
    wmin = won0 if won0 < rem - wmax else rem - wmax
    odd = maxmask >> leader & 1
    return wmax + (rem - wmax - wmin + odd) // 2


# the search frame: the shared columns (``search.py``), then the side's make-up
F_NEED = F_GOAL  # the units the side still needs from here
F_MM, F_PEND, F_PU = range(F_OWN, F_OWN + 3)
FRAME_COLS = 24
MAX_DEPTH = 64


@jit(inline=True, refcount=False)
def _enter(hands: Any, seg: Any, cls: Any, segmask: Any, cfg: Any, ttkey: Any, ttb: Any,
           fr: Any, sp: int) -> int:
    """A node's first look: 0 or 1 when it is decided at once, else 2 with its moves set
    up in its frame (the twin's code from the top of ``search`` to the move order)."""
    cfg[NODES] += 1
    n = cfg[N]
    tseg = cfg[TSEG]
    bonusbit = cfg[BONUSBIT]
    called = cfg[CALLED]
    seat = fr[sp, F_SEAT]
    k = fr[sp, F_K]
    need = fr[sp, F_NEED]
    tno = fr[sp, F_TNO]
    present = fr[sp, F_PRESENT]
    led = fr[sp, F_LED]
    mm = fr[sp, F_MM]
    pend = fr[sp, F_PEND]
    pu = fr[sp, F_PU]
    h = hands[seat]
    ismax = mm >> seat & 1
    meta = 0
    lo = 0
    hi = 0
    if k == 0:
        if need <= 0:
            return 1
        rem = cfg[TRICKS] - tno
        bonus_left = 1 if present & bonusbit else 0
        hi = rem + bonus_left + pu
        if need > hi:
            return 0
        if tno >= cfg[HORIZON]:
            return 1 if _estimate(hands, present, n, mm, seat, rem, segmask) >= need else 0
        tp = present & tseg
        if tp:
            top = bit_length(tp) - 1
            o = 0
            while not hands[o] >> top & 1:
                o += 1
            mine = hands[o] & tseg
            below = bit_length(tp & ~mine) - 1
            sure = popcount(mine >> (below + 1)) + bonus_left
            if o != pend:
                if mm >> o & 1:
                    if sure >= need:
                        return 1
                elif hi - sure < need:
                    return 0
        if rem == 1:
            o = last_trick_winner(hands, h, present, tseg, segmask, seg)
            got = 1 + bonus_left if mm >> o & 1 else 0
            return 1 if got >= need else 0
        meta = seat | (mm << 4) | ((pend + 1) << 12) | (pu << 16)
        r = probe(hands, n, meta, ttkey, cfg[TTMASK], cfg[GEN], False)
        if r >= 0:
            lo = int(ttb[r, 0])
            hi = int(ttb[r, 1])
            if lo >= need:
                return 1
            if hi < need:
                return 0
        legal = h
    else:
        legal = h
        if tseg >> led & 1:
            mine = h & tseg
            if led == cfg[AH]:
                if mine:
                    legal = mine
                elif h & cfg[PLAIN]:
                    legal = h & cfg[PLAIN]
            elif mine & ~(cfg[PRIV] & ~((2 << led) - 1)):
                legal = mine
        elif cfg[FOLLOW]:
            f = h & segmask[seg[led]]
            if f:
                legal = f | (h & tseg) if cfg[FOLLOW] == 1 else f
    if called and tno == 1 and legal & called:
        legal = called
    set_up_moves(fr, sp, h, ismax, meta, lo, hi, legal, present, tseg, segmask, seg, cls, mm)
    return 2


@jit(inline=True, refcount=False)
def _child(hands: Any, seg: Any, cfg: Any, fr: Any, sp: int) -> bool:
    """Play the frame's next card and set up the child's frame; False when none is left."""
    c = next_card(fr, sp)
    if c < 0:
        return False
    n = cfg[N]
    tseg = cfg[TSEG]
    seat = fr[sp, F_SEAT]
    k = fr[sp, F_K]
    need = fr[sp, F_NEED]
    tno = fr[sp, F_TNO]
    present = fr[sp, F_PRESENT]
    tmask = fr[sp, F_TMASK]
    led = fr[sp, F_LED]
    wcard = fr[sp, F_WCARD]
    wseat = fr[sp, F_WSEAT]
    mm = fr[sp, F_MM]
    pend = fr[sp, F_PEND]
    pu = fr[sp, F_PU]
    b = 1 << c
    hands[seat] = fr[sp, F_H] ^ b
    nxt = seat + 1 if seat + 1 < n else 0
    q = sp + 1
    if k == 0:
        _set(fr, q, nxt, 1, need, tno, present, b, c, c, seat, mm, pend, pu)
        return True
    if beats(c, wcard, tseg, seg):
        nw = c
        ns = seat
    else:
        nw = wcard
        ns = wseat
    if k < n - 1:
        _set(fr, q, nxt, k + 1, need, tno, present, tmask | b, led, nw, ns, mm, pend, pu)
        return True
    tm = tmask | b
    units = 2 if tm & cfg[BONUSBIT] else 1
    need2 = need
    mm2 = mm
    pend2 = pend
    pu2 = pu
    if pend >= 0:
        if tm & cfg[CALLED]:
            need2 -= pu
            pend2 = -1
            pu2 = 0
            if mm >> ns & 1:
                need2 -= units
        else:
            if ns == pend:
                pu2 += units
            elif mm >> ns & 1:
                need2 -= units
            if tno + 1 >= 2:
                mm2 = mm & ~(1 << pend)
                pend2 = -1
                pu2 = 0
    elif mm >> ns & 1:
        need2 -= units
    _set(fr, q, ns, 0, need2, tno + 1, present & ~tm, 0, -1, -1, -1, mm2, pend2, pu2)
    return True


@jit(inline=True, refcount=False)
def _set(fr: Any, q: int, seat: int, k: int, need: int, tno: int, present: int, tmask: int,
         led: int, wcard: int, wseat: int, mm: int, pend: int, pu: int) -> None:
    set_frame(fr, q, seat, k, need, tno, present, tmask, led, wcard, wseat)
    fr[q, F_MM] = mm
    fr[q, F_PEND] = pend
    fr[q, F_PU] = pu


@jit(refcount=False)
def _search(hands: Any, seg: Any, cls: Any, segmask: Any, cfg: Any, ttkey: Any, ttb: Any,
            fr: Any) -> bool:
    """The twin's recursive ``search`` from the node in frame 0, run on an explicit stack
    (numba's cache cannot hold a recursive function)."""
    sp = 0
    mode = ENTER
    ret = False
    while True:
        if mode == ENTER:
            e = _enter(hands, seg, cls, segmask, cfg, ttkey, ttb, fr, sp)
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
                ret = finish(hands, cfg[N], ttkey, ttb, cfg[TTMASK], cfg[GEN], fr, sp)
                mode = RETURN
        else:
            if sp == 0:
                return ret
            sp -= 1
            hands[fr[sp, F_SEAT]] = fr[sp, F_H]
            if fr[sp, F_ISMAX]:
                if ret:
                    fr[sp, F_RESULT] = 1
                    ret = finish(hands, cfg[N], ttkey, ttb, cfg[TTMASK], cfg[GEN], fr, sp)
                    continue
            elif not ret:
                fr[sp, F_RESULT] = 0
                ret = finish(hands, cfg[N], ttkey, ttb, cfg[TTMASK], cfg[GEN], fr, sp)
                continue
            mode = NEXT


@jit(refcount=False)
def _future(buf: Any, cfg: Any, ttkey: Any, ttb: Any, fr: Any) -> int:
    """``twin.future`` on the position in ``buf`` and ``cfg``: a binary search on ``need``."""
    hands = buf[B_HANDS:B_HANDS + 8]
    segmask = buf[B_SEGMASK:B_SEGMASK + 4]
    trick = buf[B_TRICK:B_TRICK + 8]
    seg = buf[B_SEG:B_SEG + 64]
    cls = buf[B_CLS:B_CLS + 64]
    n = cfg[N]
    tseg = cfg[TSEG]
    leader = cfg[LEADER]
    k0 = cfg[K0]
    seat0 = (leader + k0) % n
    present0 = 0
    for i in range(n):
        present0 |= hands[i]
    tmask0, led0, wcard0, wseat0 = trick_so_far(trick, k0, leader, n, tseg, seg)
    present0 |= tmask0
    lo = 0
    hi = cfg[TRICKS] - cfg[TNO] + cfg[PU]
    if present0 & cfg[BONUSBIT]:
        hi += 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        _set(fr, 0, seat0, k0, mid, cfg[TNO], present0, tmask0, led0, wcard0, wseat0, cfg[MM],
             cfg[PEND], cfg[PU])
        if _search(hands, seg, cls, segmask, cfg, ttkey, ttb, fr):
            lo = mid
        else:
            hi = mid - 1
    return lo


@jit(refcount=False)
def _compact_ff(buf: Any, cfg: Any, order: Any, seg52: Any) -> None:
    """``position.forty_fives_position`` in compiled code: number the raw cards in
    ``buf[B_RAW:]`` and fill the rest of ``buf`` and ``cfg``."""
    n = cfg[N]
    t = buf[R_TRUMP]
    priv52 = buf[R_PRIV]
    hearts52 = buf[R_PLAIN]
    ah52 = buf[R_AH]
    called52 = buf[R_CALLED]
    bonus52 = buf[R_BONUS]
    k0 = cfg[K0]
    held = 0
    for s in range(n):
        held |= buf[R_HANDS + s]
    for i in range(k0):
        held |= 1 << buf[R_TRICK + i]
    for s in range(4):
        buf[B_SEGMASK + s] = 0
    priv = 0
    hearts = 0
    ah = -1
    bonusbit = 0
    called = 0
    i = 0
    for j in range(52):
        c = order[t, j]
        if not held >> c & 1:
            continue
        b = 1 << i
        buf[B_INDEX + c] = i
        es = seg52[t, c]
        buf[B_SEG + i] = es
        buf[B_SEGMASK + es] |= b
        p = priv52 >> c & 1
        if p:
            priv |= b
        if hearts52 >> c & 1:
            hearts |= b
        if c in (bonus52, called52, ah52):
            buf[B_CLS + i] = SPECIAL_CLASS + i
            if c == bonus52:
                bonusbit = b
            if c == called52:
                called = b
            if c == ah52:
                ah = i
        else:
            buf[B_CLS + i] = 2 * es + p
        i += 1
    for s in range(8):
        h = buf[R_HANDS + s] if s < n else 0
        out = 0
        while h:
            low = h & -h
            h ^= low
            out |= 1 << buf[B_INDEX + bit_length(low) - 1]
        buf[B_HANDS + s] = out
    for j in range(k0):
        buf[B_TRICK + j] = buf[B_INDEX + buf[R_TRICK + j]]
    cfg[TSEG] = buf[B_SEGMASK + t]
    cfg[PRIV] = priv
    cfg[AH] = ah
    cfg[PLAIN] = hearts
    cfg[BONUSBIT] = bonusbit
    cfg[CALLED] = called


@jit(refcount=False)
def _future_ff(buf: Any, cfg: Any, ttkey: Any, ttb: Any, fr: Any, order: Any,
               seg52: Any) -> int:
    _compact_ff(buf, cfg, order, seg52)
    return _future(buf, cfg, ttkey, ttb, fr)


class _Table:
    """One transposition table, its generation counter, the search stack and the
    position's buffers."""

    def __init__(self, bits: int) -> None:
        size = 1 << bits
        self.key = np.zeros((size, KEY_COLS), dtype=np.int64)
        self.bounds = np.zeros((size, 2), dtype=np.int8)
        self.cfg = np.zeros(CFG_SIZE, dtype=np.int64)
        self.cfg[TTMASK] = size - 1
        self.frames = np.zeros((MAX_DEPTH, FRAME_COLS), dtype=np.int64)
        self.buf = np.zeros(BUF_SIZE, dtype=np.int64)


_TABLES: dict[int, _Table] = {}


def _table(tricks: int) -> _Table:
    t = _TABLES.get(tricks)
    if t is None:
        t = _TABLES[tricks] = _Table(17 if tricks <= 5 else 18)
    return t


def _pad(values: Any, size: int) -> list[int]:
    out = list(values)
    return out + [0] * (size - len(out))


def _run(pos: Position, table: _Table) -> int:
    cfg = table.cfg
    cfg[N:PU + 1] = [pos.n, pos.tseg, pos.priv, pos.ah, pos.hearts, pos.follow,
                     1 << pos.bonus if pos.bonus >= 0 else 0, pos.called, pos.tricks,
                     pos.horizon, pos.leader, pos.tno, len(pos.trick), pos.maxmask, pos.pend,
                     pos.pu]
    table.buf[:B_INDEX] = (_pad(pos.hands, 8) + list(pos.segmask) + _pad(pos.trick, 8)
                           + _pad(pos.seg, 64) + _pad(pos.cls, 64))
    return int(_future(table.buf, cfg, table.key, table.bounds, table.frames))


def future_many(positions: list[Position]) -> list[int]:
    """``twin.future``, compiled, of positions from one deal (one numbering), sharing the
    table."""
    if not positions:
        return []
    table = _table(positions[0].tricks)
    table.cfg[GEN] += 1
    return [_run(p, table) for p in positions]


_ORDER = np.array([sorted(range(52), key=FF_RANK[t].__getitem__) for t in range(4)],
                  dtype=np.int64)
_SEG52 = np.array(FF_SEG, dtype=np.int64)


def future_ff(state: FortyFivesState, maxmask: int, pend: int, pu: int) -> int:
    """``future(forty_fives_position(state, ...))`` with the numbering done in compiled
    code: the fast road from a game to its value."""
    table = _table(5)
    cfg = table.cfg
    tc = state.trick_cards
    cfg[N:PU + 1] = [state.n, 0, 0, 0, 0, FOLLOW_MODES[state.rules.follow], 0, 0, 5, 5,
                     state.trick_leader, state.trick_no, len(tc), maxmask, pend, pu]
    cfg[GEN] += 1
    table.buf[B_RAW:R_TRICK + 8] = [state.trump, *ff_special_cards(state), state.bonus_card,
                                    *_pad(state.hands, 8), *_pad(tc, 8)]
    return int(_future_ff(table.buf, cfg, table.key, table.bounds, table.frames, _ORDER,
                          _SEG52))


def nodes() -> int:
    """Nodes searched since the tables were made (for the benchmark)."""
    return int(sum(t.cfg[NODES] for t in _TABLES.values()))
