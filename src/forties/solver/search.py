"""The compiled steps the solvers' searches share: bit tricks for all three, and for the two
that search trick by trick on compact card numbers (``kernel.py`` and ``score41.py``) the
search frame's common columns, the transposition table's probe and a node's move order.

Each is compiled into its caller (``inline``), as it was when each solver had its own copy.
What differs stays with its solver: a node's value and cut-offs, its legal cards, the end of a
trick, and the loop that drives the search (numba inlines a step where the loop names it,
not where it is handed one, so each solver's loop names its own). ``dd41.py`` keys its table
by relative rank and orders moves by a score: it shares only the bit tricks.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.core.extending import intrinsic

from ..jit import jit


def _popcount_typer(typingctx: Any, x: Any) -> Any:
    sig = types.int64(types.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return sig, codegen


popcount: Any = intrinsic(_popcount_typer)  # the set bits of an int64


def _clz_typer(typingctx: Any, x: Any) -> Any:
    sig = types.int64(types.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


_clz: Any = intrinsic(_clz_typer)  # the leading zero bits of an int64 (64 for 0)


@jit(inline=True, refcount=False)
def bit_length(x: int) -> int:
    return int(64 - _clz(x))


# The search frame's columns that both trick-by-trick solvers keep; each solver's own
# columns start at F_OWN. F_GOAL is what the node's null-window question asks the side to
# reach: tricks or units still needed (``kernel``), an outcome value's rank (``score41``).
(F_SEAT, F_K, F_GOAL, F_TNO, F_PRESENT, F_TMASK, F_LED, F_WCARD, F_WSEAT, F_H, F_ISMAX,
 F_META, F_LO, F_HI, F_FIRST, F_SECOND, F_DESC, F_RESULT) = range(18)
F_OWN = 18
ENTER, NEXT, RETURN = 0, 1, 2  # the driver loop's modes
PROBES = 4  # table rows tried from a key's home row


@jit(inline=True, refcount=False)
def set_frame(fr: Any, q: int, seat: int, k: int, goal: int, tno: int, present: int,
              tmask: int, led: int, wcard: int, wseat: int) -> None:
    """Frame ``q``'s common columns: the seat to play the trick's ``k``-th card, and the
    trick so far."""
    fr[q, F_SEAT] = seat
    fr[q, F_K] = k
    fr[q, F_GOAL] = goal
    fr[q, F_TNO] = tno
    fr[q, F_PRESENT] = present
    fr[q, F_TMASK] = tmask
    fr[q, F_LED] = led
    fr[q, F_WCARD] = wcard
    fr[q, F_WSEAT] = wseat


@jit(inline=True, refcount=False)
def beats(c: int, wcard: int, tseg: int, seg: Any) -> bool:
    """Whether card ``c`` beats ``wcard``, the card winning the trick so far (compact
    numbers: a higher card of the same segment, or any trump)."""
    return bool(c > wcard and (tseg >> c & 1 or seg[c] == seg[wcard]))


@jit(inline=True, refcount=False)
def trick_so_far(trick: Any, k0: int, leader: int, n: int, tseg: int, seg: Any) -> Any:
    """The trick in progress (``trick[:k0]`` led by ``leader``): its cards as a mask, the
    card led, the winning card and its seat (-1 for each when no card is down)."""
    tmask = 0
    led = -1
    wcard = -1
    wseat = -1
    if k0 > 0:
        led = trick[0]
        wcard = trick[0]
        wseat = leader
        for i in range(k0):
            c = trick[i]
            tmask |= 1 << c
            if beats(c, wcard, tseg, seg):
                wcard = c
                wseat = (leader + i) % n
    return tmask, led, wcard, wseat


@jit(inline=True, refcount=False)
def last_trick_winner(hands: Any, h: int, present: int, tseg: int, segmask: Any,
                      seg: Any) -> int:
    """The seat that takes the last trick, led from ``h`` (each hand holds one card): the
    highest trump, else the highest card of the suit led."""
    lead = bit_length(h) - 1
    t = present & tseg
    if t == 0:
        t = present & segmask[seg[lead]]
    w = bit_length(t) - 1
    o = 0
    while not hands[o] >> w & 1:
        o += 1
    return o


@jit(inline=True, refcount=False)
def probe(hands: Any, n: int, meta: int, ttkey: Any, mask: int, gen: int, store: bool) -> int:
    """The table row holding the key (the ``n`` hands and ``meta``) in this generation (-1
    if absent); with ``store``, a row to write it in, the key written. A row holds the hands
    from column 0, ``meta`` in the last column but one and the generation in the last."""
    mcol = ttkey.shape[1] - 2
    gcol = mcol + 1
    x = (meta + 1) * 0x5851F42D4C957F2D
    for i in range(n):
        x = (x ^ hands[i]) * 0x2545F4914F6CDD1D
        x ^= x >> 29
    home = x & mask
    free = -1
    for p in range(PROBES):
        r = (home + p) & mask
        if ttkey[r, gcol] != gen:
            if free < 0:
                free = r
            continue
        same = ttkey[r, mcol] == meta
        i = 0
        while same and i < n:
            same = ttkey[r, i] == hands[i]
            i += 1
        if same:
            return int(r)
    if not store:
        return -1
    if free < 0:
        free = home
    for i in range(n):
        ttkey[free, i] = hands[i]
    ttkey[free, mcol] = meta
    ttkey[free, gcol] = gen
    return int(free)


@jit(inline=True, refcount=False)
def set_up_moves(fr: Any, sp: int, h: int, ismax: int, meta: int, lo: int, hi: int,
                 legal: int, present: int, tseg: int, segmask: Any, seg: Any, cls: Any,
                 mm: int) -> None:
    """A node's moves in its frame: one card of each run of equivalent ones (``cls``: the
    card's class), in two runs, each low to high (the leader's: high to low); first the
    leader's top cards and trumps, or the cards that can win the trick from an opponent."""
    reps = 0
    m = legal
    while m:
        low = m & -m
        m ^= low
        x = bit_length(low) - 1
        above = present >> (x + 1)
        if above:
            y = x + bit_length(above & -above)
            if h >> y & 1 and cls[y] == cls[x]:
                continue
        reps |= low
    desc = 1 if fr[sp, F_K] == 0 else 0
    if desc:
        tops = tseg
        for s in range(4):
            sm = segmask[s] & present
            if sm:
                tops |= 1 << (bit_length(sm) - 1)
        first = reps & tops
        second = reps & ~tops
    elif (mm >> fr[sp, F_WSEAT] & 1) == ismax:
        first = reps
        second = 0
    else:
        wcard = fr[sp, F_WCARD]
        first = reps & (segmask[seg[wcard]] | tseg) & ~((2 << wcard) - 1)
        second = reps & ~first
    fr[sp, F_H] = h
    fr[sp, F_ISMAX] = ismax
    fr[sp, F_META] = meta
    fr[sp, F_LO] = lo
    fr[sp, F_HI] = hi
    fr[sp, F_FIRST] = first
    fr[sp, F_SECOND] = second
    fr[sp, F_DESC] = desc
    fr[sp, F_RESULT] = 1 - ismax


@jit(inline=True, refcount=False)
def next_card(fr: Any, sp: int) -> int:
    """The frame's next card to try, taken off its list (-1 when none is left)."""
    first = fr[sp, F_FIRST]
    second = fr[sp, F_SECOND]
    if first == 0 and second == 0:
        return -1
    if first:
        if fr[sp, F_DESC]:
            c = bit_length(first) - 1
        else:
            c = bit_length(first & -first) - 1
        fr[sp, F_FIRST] = first ^ (1 << c)
    else:
        if fr[sp, F_DESC]:
            c = bit_length(second) - 1
        else:
            c = bit_length(second & -second) - 1
        fr[sp, F_SECOND] = second ^ (1 << c)
    return int(c)


@jit(inline=True, refcount=False)
def finish(hands: Any, n: int, ttkey: Any, ttb: Any, mask: int, gen: int, fr: Any,
           sp: int) -> bool:
    """A node's last act: a trick's first node records in the table what it proved of its
    goal (a new lower or upper bound)."""
    result = bool(fr[sp, F_RESULT] == 1)
    if fr[sp, F_K] == 0:
        goal = fr[sp, F_GOAL]
        lo = fr[sp, F_LO]
        hi = fr[sp, F_HI]
        if result:
            if goal > lo:
                lo = goal
        elif goal - 1 < hi:
            hi = goal - 1
        r = probe(hands, n, fr[sp, F_META], ttkey, mask, gen, True)
        ttb[r, 0] = lo
        ttb[r, 1] = hi
    return result
