"""The pure-Python search: the twin of the compiled kernel (``kernel.py``), line for line
the same algorithm, so the two give the same value on every position.

The search asks yes-or-no questions: "can the side maximised take at least
``need`` more units from here?" (a null-window alpha-beta). The value is found
by a binary search over ``need``. What it uses:

* a transposition table at the start of each trick, keyed on every hand, the
  leader and the side's make-up, holding the lower and upper bound proved so far
  (bounds hold whatever ``need`` asked for them, so every question shares them);
* equivalent cards: of a run of equivalent cards in one hand only the highest is
  tried (``position.py`` says when cards are equivalent);
* sure tricks: a seat whose top trumps are above every trump of the other seats
  takes a trick with each, so his side cannot take fewer, the other more;
* the last trick is counted, not searched;
* move order: the leader tries his trumps and the top card of each suit first,
  then his other cards, each run from the highest down; a follower whose side
  holds the trick plays low, one whose side does not tries the cheapest card that
  takes the trick first, then the others from the lowest up;
* Forty One beyond the exact depth: at the trick ``horizon`` the search stops
  and ``estimate`` stands in for the tricks still to come.
"""

from __future__ import annotations

from collections.abc import Callable

from ..cards import cards_of
from .position import FOLLOW_SUIT_OR_TRUMP, Position

Table = dict[tuple[int, ...], tuple[int, int]]


def estimate(hands: list[int], present: int, n: int, maxmask: int, leader: int, rem: int,
             segmask: tuple[int, int, int, int]) -> int:
    """A guess at the tricks the side maximised takes of the ``rem`` left (Forty One's
    bounded search): in each suit, the cards of the side holding its top card that are
    above every card of the other side in it (at most as many as one of its hands holds
    in the suit) are its winners; the tricks nobody has a winner for are shared, the
    leader's side getting the odd one."""
    won = [0, 0]
    for s in range(4):
        sm = present & segmask[s]
        if not sm:
            continue
        top = sm.bit_length() - 1
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
                k = (hands[q] & sm).bit_count()
                if k > longest:
                    longest = k
        opp_best = (sm & ~coal).bit_length() - 1
        over = sm & coal
        if opp_best >= 0:
            over &= ~((2 << opp_best) - 1)
        cnt = over.bit_count()
        won[side] += cnt if cnt < longest else longest
    wmax = won[1] if won[1] < rem else rem
    wmin = won[0] if won[0] < rem - wmax else rem - wmax
    odd = maxmask >> leader & 1
    return wmax + (rem - wmax - wmin + odd) // 2


def make_search(pos: Position, tt: Table) -> Callable[[int], bool]:
    """The question ``ge(need)`` for ``pos`` (sharing ``tt``)."""
    n = pos.n
    hands = list(pos.hands)
    seg, segmask, tseg, cls = pos.seg, pos.segmask, pos.tseg, pos.cls
    priv, ah, hearts, follow = pos.priv, pos.ah, pos.hearts, pos.follow
    bonusbit = 1 << pos.bonus if pos.bonus >= 0 else 0
    called, tricks, horizon = pos.called, pos.tricks, pos.horizon

    def search(seat: int, k: int, need: int, tno: int, present: int, tmask: int, led: int,
               wcard: int, wseat: int, mm: int, pend: int, pu: int) -> bool:
        h = hands[seat]
        ismax = mm >> seat & 1
        key: tuple[int, ...] = ()
        lo = 0
        if k == 0:
            # ----- the start of a trick: bounds, the table, the last trick ---------------
            if need <= 0:
                return True
            rem = tricks - tno
            bonus_left = 1 if present & bonusbit else 0
            hi = rem + bonus_left + pu
            if need > hi:
                return False
            if tno >= horizon:
                return estimate(hands, present, n, mm, seat, rem, segmask) >= need
            tp = present & tseg
            if tp:
                top = tp.bit_length() - 1
                o = 0
                while not hands[o] >> top & 1:
                    o += 1
                mine = hands[o] & tseg
                below = ((tp & ~mine).bit_length() - 1)
                sure = (mine >> (below + 1)).bit_count() + bonus_left
                if o != pend:
                    if mm >> o & 1:
                        if sure >= need:
                            return True
                    elif hi - sure < need:
                        return False
            if rem == 1:
                lead = h.bit_length() - 1
                t = present & tseg or present & segmask[seg[lead]]
                w = t.bit_length() - 1
                o = 0
                while not hands[o] >> w & 1:
                    o += 1
                return (1 + bonus_left if mm >> o & 1 else 0) >= need
            key = (*hands, seat, mm, pend, pu)
            e = tt.get(key)
            if e is not None:
                lo, hi = e
                if lo >= need:
                    return True
                if hi < need:
                    return False
            legal = h
        else:
            legal = h
            if tseg >> led & 1:
                mine = h & tseg
                if led == ah:
                    if mine:
                        legal = mine
                    elif h & hearts:
                        legal = h & hearts
                elif mine & ~(priv & ~((2 << led) - 1)):
                    legal = mine
            elif follow:
                f = h & segmask[seg[led]]
                if f:
                    legal = f | (h & tseg) if follow == FOLLOW_SUIT_OR_TRUMP else f
        if called and tno == 1 and legal & called:
            legal = called
        # ----- one card of each run of equivalent cards ----------------------------------
        reps = 0
        m = legal
        while m:
            low = m & -m
            m ^= low
            x = low.bit_length() - 1
            above = present >> (x + 1)
            if above:
                y = x + (above & -above).bit_length()
                if h >> y & 1 and cls[y] == cls[x]:
                    continue
            reps |= low
        # ----- move order ----------------------------------------------------------------
        if k == 0:
            tops = tseg
            for sm in segmask:
                sm &= present
                if sm:
                    tops |= 1 << (sm.bit_length() - 1)
            order = cards_of(reps & tops)
            order.reverse()
            rest = cards_of(reps & ~tops)
            rest.reverse()
            order += rest
        elif (mm >> wseat & 1) == ismax:
            order = cards_of(reps)
        else:
            beat = reps & (segmask[seg[wcard]] | tseg) & ~((2 << wcard) - 1)
            order = cards_of(beat) + cards_of(reps & ~beat)
        # ----- the children --------------------------------------------------------------
        nxt = seat + 1 if seat + 1 < n else 0
        last = k == n - 1
        result = not ismax
        for c in order:
            b = 1 << c
            hands[seat] = h ^ b
            if k == 0:
                r = search(nxt, 1, need, tno, present, b, c, c, seat, mm, pend, pu)
            else:
                if c > wcard and (tseg >> c & 1 or seg[c] == seg[wcard]):
                    nw, ns = c, seat
                else:
                    nw, ns = wcard, wseat
                if last:
                    tm = tmask | b
                    units = 2 if tm & bonusbit else 1
                    need2, mm2, pend2, pu2 = need, mm, pend, pu
                    if pend >= 0:
                        if tm & called:
                            need2 -= pu
                            pend2, pu2 = -1, 0
                            if mm >> ns & 1:
                                need2 -= units
                        else:
                            if ns == pend:
                                pu2 += units
                            elif mm >> ns & 1:
                                need2 -= units
                            if tno + 1 >= 2:
                                mm2 = mm & ~(1 << pend)
                                pend2, pu2 = -1, 0
                    elif mm >> ns & 1:
                        need2 -= units
                    r = search(ns, 0, need2, tno + 1, present & ~tm, 0, -1, -1, -1, mm2,
                               pend2, pu2)
                else:
                    r = search(nxt, k + 1, need, tno, present, tmask | b, led, nw, ns, mm,
                               pend, pu)
            hands[seat] = h
            if ismax:
                if r:
                    result = True
                    break
            elif not r:
                result = False
                break
        if k == 0:
            if result:
                if need > lo:
                    lo = need
            elif need - 1 < hi:
                hi = need - 1
            tt[key] = (lo, hi)
        return result

    root_trick = pos.trick
    k0 = len(root_trick)
    seat0 = pos.turn
    present0 = pos.present
    tmask0 = 0
    led0 = wcard0 = wseat0 = -1
    if k0:
        led0 = wcard0 = root_trick[0]
        wseat0 = pos.leader
        for i, c in enumerate(root_trick):
            tmask0 |= 1 << c
            if c > wcard0 and (tseg >> c & 1 or seg[c] == seg[wcard0]):
                wcard0, wseat0 = c, (pos.leader + i) % n

    def ge(need: int) -> bool:
        return search(seat0, k0, need, pos.tno, present0, tmask0, led0, wcard0, wseat0,
                      pos.maxmask, pos.pend, pos.pu)

    return ge


def future(pos: Position, tt: Table | None = None) -> int:
    """Units the side maximised takes from ``pos`` on with best play by all (bounded by
    ``pos.horizon``), the pending holder's banked units included if he turns out partner."""
    ge = make_search(pos, {} if tt is None else tt)
    lo, hi = 0, pos.units_left()
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if ge(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo
