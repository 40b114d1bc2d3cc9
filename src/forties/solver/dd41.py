"""Forty One's double-dummy tricks, exact from the first lead: the partnership solver.

What a partnership takes with every card seen and best play by all four, in a
game of four hands of thirteen cards with one trump suit and the duty to follow
suit (Forty One; hearts trump). ``kernel.py`` solves the whole Forty-Fives
family, whose hands are five tricks; from the first lead of a thirteen-trick
hand its search does not finish in minutes. This one is written for the long
hand, with what makes double-dummy solvers of four-hand trick games fast:

- **Positions by relative rank.** At the start of each trick the position is
  stored under a key that keeps, for each suit, only *who holds the
  remaining cards in rank order* (which cards have gone does not matter, only
  how the rest rank among themselves), the three plain suits in a canonical
  order (they differ only in their cards). Positions reached by different
  plays meet in the table far more often than under a key of the cards.
- **Bounds, not values.** Each stored position keeps the least and the most
  the partnership can still take there; each search asks one question ("can
  it take at least *n* more?", a null-window search) and a binary search over
  *n* finds the value, every question using what the earlier ones stored.
- **Sure tricks.** At the start of a trick, the leader's cashable top cards
  (top trumps; top cards of a plain suit that no one holding trumps could ruff
  first) and, for every hand, the top trumps it holds (each of them wins
  whenever it is played) bound the answer, often deciding it at once.
- **Moves in a good order**: first the card that decided the position when it
  was met before (kept in the table), then leads by a score (cash a winner no
  one can ruff, draw trumps from the top, a low card to partner's winner or for
  partner to ruff; a suit an opponent can ruff last), a cheap win, a low card
  when partner wins the trick; and one card of each run of cards that rank
  next to each other among those left (playing one or another of them comes
  to the same).

Cards are bits of one int64, ``16 * suit + rank`` (rank 12 the ace). The search
runs on an explicit stack (numba's disk cache cannot hold a recursive
function), with a table of its own. With a budget (positions searched), it
gives up rather than run long: ``analysis.par_forty_one`` then falls back to
an estimate and says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..cards import HEARTS
from ..jit import jit
from .search import ENTER, NEXT, PROBES, RETURN, bit_length, popcount

# frame columns
(F_SEAT, F_K, F_WON, F_REM, F_LED, F_WCARD, F_WSEAT, F_H, F_N, F_I, F_RES, F_MAX, F_K0,
 F_K1, F_LO, F_HI, F_NEED, F_PRESENT, F_PERM, F_BEST) = range(20)
FRAME_COLS = 20
MAX_DEPTH = 56
# cfg slots
C_TRUMP, C_MAXMASK, C_TARGET, C_GEN, C_MASK, C_NODES, C_LIMIT, C_OVER = range(8)
CFG_SIZE = 8
SUIT = 0x1FFF


@jit(inline=True, refcount=False)
def _beats(c: int, w: int, trump: int) -> bool:
    """Whether card ``c`` beats the card ``w`` winning the trick so far."""
    if c >> 4 == w >> 4:
        return c > w
    return c >> 4 == trump


@jit(inline=True, refcount=False)
def _top_run(hand: int, cards: int) -> int:
    """How many of the highest of ``cards`` (one suit) ``hand`` holds, from the top down."""
    n = 0
    while cards:
        top = bit_length(cards) - 1
        if not hand >> top & 1:
            break
        n += 1
        cards ^= 1 << top
    return n


@jit(inline=True, refcount=False)
def _word(hands: Any, present: int, s: int) -> int:
    """One suit by relative rank: the holders of its remaining cards from the top down
    (two bits each), then how many there are (four bits)."""
    sm = present >> (16 * s) & SUIT
    n = 0
    word = 0
    while sm:
        top = bit_length(sm) - 1
        sm ^= 1 << top
        b = 1 << (16 * s + top)
        o = 0
        if hands[1] & b:
            o = 1
        elif hands[2] & b:
            o = 2
        elif hands[3] & b:
            o = 3
        word = word << 2 | o
        n += 1
    return word << 4 | n


@jit(inline=True, refcount=False)
def _key(hands: Any, present: int, leader: int, trump: int) -> Any:
    """The position by relative rank, the plain suits in a canonical order (they differ
    only in their cards): the key's two words and the order (slot i holds suit
    ``perm >> 2 * i & 3``; slot 0 is trump)."""
    a = -1
    b = -1
    c = -1
    wa = -1
    wb = -1
    wc = -1
    for s in range(4):
        if s == trump:
            continue
        w = _word(hands, present, s)
        if w > wa:
            wc, c = wb, b
            wb, b = wa, a
            wa, a = w, s
        elif w > wb:
            wc, c = wb, b
            wb, b = w, s
        else:
            wc, c = w, s
    k0 = _word(hands, present, trump) << 30 | wa
    k1 = (leader << 30 | wb) << 30 | wc
    perm = trump | a << 2 | b << 4 | c << 6
    return k0, k1, perm


@jit(inline=True, refcount=False)
def _encode(card: int, perm: int, present: int) -> int:
    """A card as the table keeps it: its suit's slot in the key and how many cards left
    rank above it (-1: none)."""
    if card < 0:
        return -1
    s = card >> 4
    slot = 0
    while (perm >> (2 * slot) & 3) != s:
        slot += 1
    above = present >> (card + 1) & (SUIT >> ((card & 15) + 1))
    return int(slot << 4 | popcount(above))


@jit(inline=True, refcount=False)
def _decode(code: int, perm: int, present: int) -> int:
    """The card ``_encode`` kept, in a position with the same key."""
    if code < 0:
        return -1
    s = perm >> (2 * (code >> 4)) & 3
    sm = present >> (16 * s) & SUIT
    for _ in range(code & 15):
        sm ^= 1 << (bit_length(sm) - 1)
    if sm == 0:
        return -1
    return 16 * s + bit_length(sm) - 1


@jit(inline=True, refcount=False)
def _slot(k0: int, k1: int, cfg: Any, ttkey: Any, store: bool) -> int:
    x = (k0 ^ 0x5851F42D4C957F2D) * 0x2545F4914F6CDD1D
    x ^= x >> 29
    x = (x ^ k1) * 0x2545F4914F6CDD1D
    x ^= x >> 32
    mask = cfg[C_MASK]
    gen = cfg[C_GEN]
    home = x & mask
    free = -1
    for p in range(PROBES):
        r = (home + p) & mask
        if ttkey[r, 2] != gen:
            if free < 0:
                free = r
            continue
        if ttkey[r, 0] == k0 and ttkey[r, 1] == k1:
            return int(r)
    if not store:
        return -1
    if free < 0:
        free = home
    ttkey[free, 0] = k0
    ttkey[free, 1] = k1
    ttkey[free, 2] = gen
    return int(free)


@jit(inline=True, refcount=False)
def _sure(hands: Any, present: int, leader: int, trump: int) -> Any:
    """Tricks the leader's side and the other side are sure of: the leader's cashable top
    cards, and each hand's top trumps."""
    tm = SUIT << (16 * trump)
    pt = present & tm
    part = (leader + 2) & 3
    o1 = (leader + 1) & 3
    o2 = (leader + 3) & 3
    cash = _top_run(hands[leader], pt)
    for s in range(4):
        if s == trump:
            continue
        sm = present & (SUIT << (16 * s))
        a = _top_run(hands[leader], sm)
        if a == 0:
            continue
        for q in (o1, o2, part):
            if hands[q] & tm:
                ln = popcount(hands[q] & sm)
                if ln < a:
                    a = ln
        cash += a
    p_top = _top_run(hands[part], pt)
    mine = cash if cash > p_top else p_top
    t1 = _top_run(hands[o1], pt)
    t2 = _top_run(hands[o2], pt)
    theirs = t1 if t1 > t2 else t2
    return mine, theirs


@jit(inline=True, refcount=False)
def _lead_score(hands: Any, present: int, c: int, seat: int, part: int, o1: int, o2: int,
                trump: int, tm: int) -> int:
    """How promising leading ``c`` looks (higher: tried sooner)."""
    s = c >> 4
    rank = c & 15
    suit = SUIT << (16 * s)
    sm = present & suit
    top = bit_length(sm) - 1
    if s == trump:
        if hands[seat] >> top & 1 or hands[part] >> top & 1:
            return 90 + rank  # draw trumps from the top
        return 20 - rank
    ruff1 = (hands[o1] & suit) == 0 and (hands[o1] & tm) != 0
    ruff2 = (hands[o2] & suit) == 0 and (hands[o2] & tm) != 0
    if ruff1 or ruff2:
        if (hands[part] & suit) == 0 and (hands[part] & tm) != 0:
            return 40 - rank  # partner ruffs too
        return 5 - rank // 4
    if c == top:
        return 100 + rank  # a winner no one can ruff
    if hands[part] >> top & 1:
        return 80 - rank  # low to partner's winner
    if (hands[part] & suit) == 0 and (hands[part] & tm) != 0:
        return 70 - rank  # for partner to ruff
    return 30 - rank


@jit(inline=True, refcount=False)
def _append(mv: Any, sp: int, n: int, cards: int) -> int:
    """``cards`` after the ``n`` moves already in ``mv[sp]``, lowest first; how many now."""
    while cards:
        low = cards & -cards
        cards ^= low
        mv[sp, n] = bit_length(low) - 1
        n += 1
    return n


@jit(inline=True, refcount=False)
def _moves(hands: Any, fr: Any, mv: Any, sp: int, present: int, trump: int,
           maxmask: int) -> int:
    """The seat's moves in ``mv[sp]``, best first, one card per run of equal ones."""
    seat = fr[sp, F_SEAT]
    k = fr[sp, F_K]
    h = hands[seat]
    legal = h
    if k > 0:
        f = h & (SUIT << (16 * fr[sp, F_LED]))
        if f:
            legal = f
    # one card of each run: skip a card when the next card up among those left is ours
    reps = 0
    m = legal
    while m:
        low = m & -m
        m ^= low
        x = bit_length(low) - 1
        s = x >> 4
        above = (present & (SUIT << (16 * s))) >> (x + 1)
        if above:
            y = x + bit_length(above & -above)
            if h >> y & 1:
                continue
        reps |= low
    n = 0
    ismax = maxmask >> seat & 1
    if k == 0:
        # leads by a score, best first (insertion sort; at most 13 of them)
        part = (seat + 2) & 3
        o1 = (seat + 1) & 3
        o2 = (seat + 3) & 3
        tm = SUIT << (16 * trump)
        m = reps
        while m:
            low = m & -m
            m ^= low
            c = bit_length(low) - 1
            sc = _lead_score(hands, present, c, seat, part, o1, o2, trump, tm)
            j = n
            while j > 0 and mv[sp, 16 + j - 1] < sc:
                mv[sp, j] = mv[sp, j - 1]
                mv[sp, 16 + j] = mv[sp, 16 + j - 1]
                j -= 1
            mv[sp, j] = c
            mv[sp, 16 + j] = sc
            n += 1
        return n
    wcard = fr[sp, F_WCARD]
    wseat = fr[sp, F_WSEAT]
    if (maxmask >> wseat & 1) == ismax:  # partner is winning: low cards first
        return _append(mv, sp, 0, reps)
    # the cheapest card that wins, then the low ones, then the other winners
    win = 0
    m = reps
    while m:
        low = m & -m
        m ^= low
        c = bit_length(low) - 1
        if _beats(c, wcard, trump):
            win |= low
    if win:
        low = win & -win
        mv[sp, 0] = bit_length(low) - 1
        n = 1
        reps ^= low
        win ^= low
    n = _append(mv, sp, n, reps & ~win)
    return _append(mv, sp, n, win)


@jit(inline=True, refcount=False)
def _enter(hands: Any, cfg: Any, ttkey: Any, ttb: Any, fr: Any, mv: Any, sp: int) -> int:
    """0 or 1 when the node is decided at once, else 2 with its moves set up."""
    cfg[C_NODES] += 1
    if cfg[C_NODES] > cfg[C_LIMIT]:  # over the budget: the search is abandoned
        cfg[C_OVER] = 1
        return 0
    trump = cfg[C_TRUMP]
    maxmask = cfg[C_MAXMASK]
    seat = fr[sp, F_SEAT]
    ismax = maxmask >> seat & 1
    fr[sp, F_MAX] = ismax
    fr[sp, F_RES] = 1 - ismax
    if fr[sp, F_K] == 0:
        rem = fr[sp, F_REM]
        need = cfg[C_TARGET] - fr[sp, F_WON]
        if need <= 0:
            return 1
        if need > rem:
            return 0
        present = hands[0] | hands[1] | hands[2] | hands[3]
        fr[sp, F_PRESENT] = present
        if rem == 1:
            lead = bit_length(hands[seat]) - 1
            best = lead
            who = seat
            for i in range(1, 4):
                q = (seat + i) & 3
                h = hands[q]
                f = h & (SUIT << (16 * (lead >> 4)))
                c = bit_length(f if f else h) - 1
                if not f:  # void: its best chance is its highest trump
                    t = h & (SUIT << (16 * trump))
                    if t:
                        c = bit_length(t) - 1
                if _beats(c, best, trump):
                    best = c
                    who = q
            return 1 if maxmask >> who & 1 else 0
        k0, k1, perm = _key(hands, present, seat, trump)
        fr[sp, F_K0] = k0
        fr[sp, F_K1] = k1
        fr[sp, F_PERM] = perm
        fr[sp, F_NEED] = need
        fr[sp, F_BEST] = -1
        lo = 0
        hi = rem
        r = _slot(k0, k1, cfg, ttkey, False)
        if r >= 0:
            lo = int(ttb[r, 0])
            hi = int(ttb[r, 1])
            if lo >= need:
                return 1
            if hi < need:
                return 0
            fr[sp, F_BEST] = _decode(int(ttb[r, 2]), perm, present)
        mine, theirs = _sure(hands, present, seat, trump)
        if ismax:
            if mine >= need:
                return 1
            if rem - theirs < need:
                return 0
        else:
            if theirs >= need:
                return 1
            if rem - mine < need:
                return 0
        fr[sp, F_LO] = lo
        fr[sp, F_HI] = hi
    n = _moves(hands, fr, mv, sp, fr[sp, F_PRESENT], trump, maxmask)
    fr[sp, F_N] = n
    fr[sp, F_I] = 0
    if fr[sp, F_K] == 0 and fr[sp, F_BEST] >= 0:  # the move that decided it last time first
        best = fr[sp, F_BEST]
        for i in range(n):
            if mv[sp, i] == best:
                for j in range(i, 0, -1):
                    mv[sp, j] = mv[sp, j - 1]
                mv[sp, 0] = best
                break
    return 2


@jit(inline=True, refcount=False)
def _finish(cfg: Any, ttkey: Any, ttb: Any, fr: Any, sp: int) -> bool:
    res = fr[sp, F_RES] == 1
    if fr[sp, F_K] == 0:
        need = fr[sp, F_NEED]
        lo = fr[sp, F_LO]
        hi = fr[sp, F_HI]
        if res:
            if need > lo:
                lo = need
        elif need - 1 < hi:
            hi = need - 1
        r = _slot(fr[sp, F_K0], fr[sp, F_K1], cfg, ttkey, True)
        ttb[r, 0] = lo
        ttb[r, 1] = hi
        ttb[r, 2] = _encode(fr[sp, F_BEST], fr[sp, F_PERM], fr[sp, F_PRESENT])
    return bool(res)


@jit(inline=True, refcount=False)
def _child(hands: Any, cfg: Any, fr: Any, mv: Any, sp: int) -> bool:
    i = fr[sp, F_I]
    if i >= fr[sp, F_N]:
        return False
    fr[sp, F_I] = i + 1
    c = mv[sp, i]
    trump = cfg[C_TRUMP]
    seat = fr[sp, F_SEAT]
    k = fr[sp, F_K]
    h = hands[seat]
    fr[sp, F_H] = h
    hands[seat] = h ^ (1 << c)
    q = sp + 1
    won = fr[sp, F_WON]
    if k == 0:
        wcard = c
        wseat = seat
        led = c >> 4
    else:
        wcard = fr[sp, F_WCARD]
        wseat = fr[sp, F_WSEAT]
        led = fr[sp, F_LED]
        if _beats(c, wcard, trump):
            wcard = c
            wseat = seat
    rem = fr[sp, F_REM]
    if k < 3:
        fr[q, F_SEAT] = (seat + 1) & 3
        fr[q, F_K] = k + 1
        fr[q, F_WON] = won
        fr[q, F_REM] = rem
        fr[q, F_LED] = led
        fr[q, F_WCARD] = wcard
        fr[q, F_WSEAT] = wseat
        fr[q, F_PRESENT] = fr[sp, F_PRESENT]
        return True
    if cfg[C_MAXMASK] >> wseat & 1:
        won += 1
    fr[q, F_SEAT] = wseat
    fr[q, F_K] = 0
    fr[q, F_WON] = won
    fr[q, F_REM] = rem - 1
    return True


@jit(refcount=False)
def _search(hands: Any, cfg: Any, ttkey: Any, ttb: Any, fr: Any, mv: Any) -> bool:
    sp = 0
    mode = ENTER
    ret = False
    while True:
        if mode == ENTER:
            e = _enter(hands, cfg, ttkey, ttb, fr, mv, sp)
            if e == 2:
                mode = NEXT
            else:
                ret = e == 1
                mode = RETURN
        elif mode == NEXT:
            if _child(hands, cfg, fr, mv, sp):
                sp += 1
                mode = ENTER
            else:
                ret = _finish(cfg, ttkey, ttb, fr, sp)
                mode = RETURN
        else:
            if sp == 0:
                return ret
            sp -= 1
            hands[fr[sp, F_SEAT]] = fr[sp, F_H]
            if fr[sp, F_MAX]:
                if ret:
                    fr[sp, F_RES] = 1
                    fr[sp, F_BEST] = mv[sp, fr[sp, F_I] - 1]
                    ret = _finish(cfg, ttkey, ttb, fr, sp)
                    continue
            elif not ret:
                fr[sp, F_RES] = 0
                fr[sp, F_BEST] = mv[sp, fr[sp, F_I] - 1]
                ret = _finish(cfg, ttkey, ttb, fr, sp)
                continue
            mode = NEXT


@jit(nogil=True, refcount=False)  # a long search in a thread leaves the others (a screen) running
def _solve(hands: Any, trick: Any, nt: int, leader: int, rem: int, cfg: Any, ttkey: Any,
           ttb: Any, fr: Any, mv: Any) -> int:
    """The tricks the side ``cfg[C_MAXMASK]`` takes of the ``rem`` left (the trick in
    progress, ``trick[:nt]`` led by ``leader``, counted)."""
    trump = cfg[C_TRUMP]
    present = hands[0] | hands[1] | hands[2] | hands[3]
    wcard = -1
    wseat = -1
    for i in range(nt):
        c = trick[i]
        present |= 1 << c
        if i == 0 or _beats(c, wcard, trump):
            wcard = c
            wseat = (leader + i) & 3
    lo = 0
    hi = rem
    while lo < hi:
        mid = (lo + hi + 1) // 2
        cfg[C_TARGET] = mid
        fr[0, F_SEAT] = (leader + nt) & 3
        fr[0, F_K] = nt
        fr[0, F_WON] = 0
        fr[0, F_REM] = rem
        fr[0, F_LED] = trick[0] >> 4 if nt else 0
        fr[0, F_WCARD] = wcard
        fr[0, F_WSEAT] = wseat
        fr[0, F_PRESENT] = present
        ok = _search(hands, cfg, ttkey, ttb, fr, mv)
        if cfg[C_OVER]:
            return -1
        if ok:
            lo = mid
        else:
            hi = mid - 1
    return lo


class _Table:
    """A search's table and stacks. Made for each search and dropped after it: the table's
    pages are taken from the system as the search first writes them (``np.zeros``), so a
    short search costs little memory and a long one gives its back when it ends."""

    def __init__(self, bits: int) -> None:
        size = 1 << bits
        self.key = np.zeros((size, 3), dtype=np.int64)
        self.bounds = np.zeros((size, 3), dtype=np.int8)
        self.cfg = np.zeros(CFG_SIZE, dtype=np.int64)
        self.cfg[C_MASK] = size - 1
        self.cfg[C_GEN] = 1
        self.frames = np.zeros((MAX_DEPTH, FRAME_COLS), dtype=np.int64)
        self.moves = np.zeros((MAX_DEPTH, 32), dtype=np.int64)


TABLE_BITS = 22  # four million positions (about 110 MB when full)
_NODES = 0  # positions searched by this process, for the benchmarks


def _wide(card: int) -> int:
    """An engine card (``13 * suit + rank``) as this module numbers it."""
    return (card // 13) * 16 + card % 13


def _wide_mask(mask: int) -> int:
    out = 0
    for s in range(4):
        out |= (mask >> (13 * s) & SUIT) << (16 * s)
    return out


def team_tricks(hands: Sequence[int], leader: int, trick: Sequence[int], team: int,
                trump: int = HEARTS, budget: int | None = None) -> int | None:
    """The tricks the partnership ``team`` (5: seats 0 and 2; 10: seats 1 and 3) takes from
    here with every card seen and best play, the trick in progress counted. ``hands``: the
    four hands as engine card masks (``13 * suit + rank``, rank 12 the ace); ``trick``: the
    cards played to the trick in progress, led by ``leader``. With a ``budget`` (positions
    searched), None when the search would need more."""
    if len(hands) != 4 or not 0 <= leader < 4 or not 0 <= trump < 4 or len(trick) > 3:
        raise ValueError("four hands, a leader from 0 to 3, a trump suit from 0 to 3 and at "
                         "most three cards in the trick are needed")
    if team not in (5, 10):
        raise ValueError("the team is a partnership: 5 (seats 0 and 2) or 10 (1 and 3)")
    seen = 0
    for x in [*hands, *(1 << c for c in trick)]:
        if x < 0 or x >> 52 or seen & x:
            raise ValueError("the hands and the trick must hold different cards of one pack")
        seen |= x
    rem = max(h.bit_count() for h in hands) if any(hands) else 0
    for i in range(4):
        if hands[(leader + i) % 4].bit_count() != rem - (1 if i < len(trick) else 0):
            raise ValueError("the hands must be as long as each other, less one for each "
                             "seat that has played to the trick")
    if rem == 0:
        return 0
    global _NODES
    t = _Table(TABLE_BITS if rem > 8 else 16)
    cfg = t.cfg
    cfg[C_TRUMP] = trump
    cfg[C_MAXMASK] = team
    cfg[C_LIMIT] = (1 << 62) if budget is None else budget
    h = np.array([_wide_mask(x) for x in hands], dtype=np.int64)
    tr = np.zeros(4, dtype=np.int64)
    for i, c in enumerate(trick):
        tr[i] = _wide(c)
    got = int(_solve(h, tr, len(trick), leader, rem, cfg, t.key, t.bounds, t.frames,
                     t.moves))
    _NODES += int(cfg[C_NODES])
    return None if got < 0 else got


def nodes() -> int:
    """Positions searched by this process so far."""
    return _NODES


__all__ = ["nodes", "team_tricks"]
