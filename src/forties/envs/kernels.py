"""Compiled observations, action masks and fixed players for the vector environment.

They read the compiled engine's tables (``forties.vector.kernel``: a row of int64 per
table) and a second row per table, ``M``, of what the engine does not keep but a seat
has seen: the cards each seat played this hand, each seat's highest bid and holds,
and the picks of a dealer robbing the pack. An observation is built from the parts of
the row a seat's view shows (``GameState.view``), in ``encoding.Encoder.observe``'s
layout; the tests hold the two equal, and hold it blind to hidden cards.
"""

from __future__ import annotations

from typing import Any

from ..bots import basic_kernel as bk
from ..jit import jit
from ..vector import kernel as k

# numba's cache of this module is keyed on this file's text alone, yet it compiles in
# vector.kernel's row layout and rules (ten seats since the row grew from six; "booked?"
# since its three fields and phases came): a change to them must change this file too,
# or a cache from before it reads the rows wrongly.

# ----- the memory row ---------------------------------------------------------------------

MAXP = 10
M_PLAYED = 0  # MAXP slots: cards each seat played this hand
M_TOP = M_PLAYED + MAXP  # MAXP slots: each seat's highest bid this hand
M_HELD = M_TOP + MAXP  # seats that held
M_PICKS = M_HELD + 1  # the cards picked so far by a dealer robbing the pack
M_VOID = M_PICKS + 1  # MAXP slots: the suits led that each seat did not follow this hand
M_SEEING = M_VOID + MAXP  # 1: the hand is over, the learner to see it before the next deal
MF = M_SEEING + 1

# What ended on a table in a step (``hand_over``'s ``ended``).
END_NONE, END_HAND, END_GAME, END_MAX_HANDS = range(4)

# Fixed players' codes.
P_LEARNER, P_RANDOM, P_EXTERNAL, P_BASIC = 0, 1, 2, 3

# Action ids (as ``encoding``).
PASS, HOLD, RAISE, BID0, TRUMP0, GO_ON, CARD0, CALL_NONE, DISCARD0 = 0, 1, 2, 3, 11, 15, 16, 68, 69
PICK0 = 581
ROB_PACK = 633
ASK0, ANSWER0, FOLD, STAY = 634, 644, 646, 647
FO_CARD0 = 13
SCORE_CLIP = 2.0  # as ``encoding.SCORE_CLIP``

# Blocks of the Forty-Fives observation, in ``encoding.forty_fives_layout``'s order; the
# caller passes their starts in ``starts``.
(B_HAND, B_TRICK, B_PLAYED, B_PHASE, B_TO_ACT, B_DEALER, B_LEADER, B_TRUMP, B_UP, B_ROBBED,
 B_ROBBER, B_PASSED, B_HELD, B_TOP, B_HIGH_BID, B_HIGH_BIDDER, B_BIDDER, B_BID, B_KITTY,
 B_MY_DISC, B_DISC_COUNTS, B_PACK, B_PACK_ROBBED, B_FACE_UP, B_FACE_UP_HELD, B_CALLED,
 B_CALLED_NONE, B_PARTNER, B_SCORES, B_POINTS, B_GAMES, B_PICKS, B_ASKED, B_ANSWER,
 B_FOLDED) = range(35)
# Forty One's, in ``encoding.forty_one_layout``'s order.
(B1_HAND, B1_TRICK, B1_PLAYED, B1_PHASE, B1_TO_ACT, B1_DEALER, B1_LEADER, B1_BIDS, B1_TAKEN,
 B1_SCORES, B1_GAMES) = range(11)


@jit(refcount=False)
def ladder_index(v: int) -> int:
    if v == 60:
        return 6
    if v == 120:
        return 7
    return v // 5 - 1


@jit(refcount=False)
def put_cards(out: Any, base: int, cards: int) -> None:
    while cards:
        low = cards & -cards
        out[base + k.low_index(low)] = 1.0
        cards ^= low


@jit(refcount=False)
def side_rank(R: Any, me: int, x: int) -> int:
    """Where side ``x`` stands in the observer's list of sides (``encoding.side_order``)."""
    n = R[k.R_N]
    ns = R[k.R_NSIDES]
    best = 1 << 20
    for s in range(n):
        if R[k.R_SIDE_OF + s] == x:
            best = min(best, (s - me) % n)
    rank = 0
    for y in range(ns):
        if y == x:
            continue
        near = 1 << 20
        for s in range(n):
            if R[k.R_SIDE_OF + s] == y:
                near = min(near, (s - me) % n)
        if near < best:
            rank += 1
    return rank


@jit(refcount=False)
def public_points(S: Any, R: Any, t: int, x: int) -> int:
    """Side ``x``'s points as the table sees them (``_public_points``)."""
    if S[t, k.F_PHASE] != k.PLAY:
        return S[t, k.F_POINTS + x]
    pts = 0
    for s in range(R[k.R_N]):
        if R[k.R_SIDE_OF + s] == x:
            pts += 5 * S[t, k.F_TAKEN + s]
    return pts


@jit(refcount=False)
def scaled_score(score: int, R: Any) -> float:
    """A score as observed (``encoding.Encoder.observe``): / target, clipped."""
    return min(max(score / R[k.R_TARGET], -SCORE_CLIP), SCORE_CLIP)


@jit(refcount=False)
def observe(S: Any, R: Any, M: Any, t: int, me: int, starts: Any, out: Any) -> None:
    """Seat ``me``'s observation of table ``t`` into ``out`` (zeroed here)."""
    out[:] = 0.0
    if R[k.R_GAME] == k.G_FORTY_ONE:
        fo_observe(S, R, M, t, me, starts, out)
    else:
        ff_observe(S, R, M, t, me, starts, out)


@jit(refcount=False)
def _common(S: Any, R: Any, M: Any, t: int, me: int, starts: Any, out: Any, b_hand: int,
            b_trick: int, b_played: int, b_phase: int, b_to_act: int, b_dealer: int,
            b_leader: int) -> None:
    n = R[k.R_N]
    put_cards(out, starts[b_hand], S[t, k.F_HANDS + me])
    ph = S[t, k.F_PHASE]
    out[starts[b_phase] + ph] = 1.0
    turn = S[t, k.F_TURN]
    if turn >= 0:
        out[starts[b_to_act] + (turn - me) % n] = 1.0
    out[starts[b_dealer] + (S[t, k.F_DEALER] - me) % n] = 1.0
    current = 0
    if ph == k.PLAY:
        leader = S[t, k.F_LEADER]
        out[starts[b_leader] + (leader - me) % n] = 1.0
        for i in range(S[t, k.F_TRICK_N]):
            c = S[t, k.F_TRICK + i]
            r = (leader + i - me) % n
            out[starts[b_trick] + 52 * r + c] = 1.0
            current |= 1 << c
    for s in range(n):
        put_cards(out, starts[b_played] + 52 * ((s - me) % n), M[t, M_PLAYED + s] & ~current)


@jit(refcount=False)
def fo_observe(S: Any, R: Any, M: Any, t: int, me: int, starts: Any, out: Any) -> None:
    _common(S, R, M, t, me, starts, out, B1_HAND, B1_TRICK, B1_PLAYED, B1_PHASE, B1_TO_ACT,
            B1_DEALER, B1_LEADER)
    for s in range(4):
        r = (s - me) % 4
        out[starts[B1_BIDS] + 14 * r + S[t, k.F_BIDS + s]] = 1.0
        out[starts[B1_TAKEN] + r] = S[t, k.F_TAKEN + s] / 13.0
        out[starts[B1_SCORES] + r] = scaled_score(S[t, k.F_SCORES + s], R)
        out[starts[B1_GAMES] + r] = S[t, k.F_GAMES + s] / 2.0


@jit(refcount=False)
def ff_observe(S: Any, R: Any, M: Any, t: int, me: int, starts: Any, out: Any) -> None:
    _common(S, R, M, t, me, starts, out, B_HAND, B_TRICK, B_PLAYED, B_PHASE, B_TO_ACT,
            B_DEALER, B_LEADER)
    n = R[k.R_N]
    ph = S[t, k.F_PHASE]
    auction = R[k.R_AUCTION] != k.AU_NONE
    for x in range(R[k.R_NSIDES]):
        i = side_rank(R, me, x)
        score = S[t, k.F_SCORES + x]
        if ph == k.PLAY and not auction:
            score = S[t, k.F_START + x] + public_points(S, R, t, x)
        out[starts[B_SCORES] + i] = scaled_score(score, R)
        out[starts[B_POINTS] + i] = public_points(S, R, t, x) / 30.0
        out[starts[B_GAMES] + i] = S[t, k.F_GAMES + x] / 2.0
    trump = S[t, k.F_TRUMP]
    if trump >= 0:
        out[starts[B_TRUMP] + trump] = 1.0
    up = S[t, k.F_UP]
    if up >= 0:
        out[starts[B_UP] + up] = 1.0
    if S[t, k.F_ROBBED]:
        out[starts[B_ROBBED]] = 1.0
        out[starts[B_ROBBER] + (S[t, k.F_ROBBER] - me) % n] = 1.0
    faceup = S[t, k.F_FACEUP]
    for s in range(n):
        r = (s - me) % n
        if S[t, k.F_PASSED] >> s & 1:
            out[starts[B_PASSED] + r] = 1.0
        if M[t, M_HELD] >> s & 1:
            out[starts[B_HELD] + r] = 1.0
        top = M[t, M_TOP + s]
        if top:
            out[starts[B_TOP] + 8 * r + ladder_index(top)] = 1.0
        out[starts[B_DISC_COUNTS] + r] = k.popcount(S[t, k.F_DISCARDED + s]) / 9.0
        put_cards(out, starts[B_FACE_UP_HELD] + 52 * r, faceup & S[t, k.F_HANDS + s])
    high = S[t, k.F_HIGH]
    if high:
        out[starts[B_HIGH_BID] + ladder_index(high)] = 1.0
        out[starts[B_HIGH_BIDDER] + (S[t, k.F_HIGH_BIDDER] - me) % n] = 1.0
    bidder = S[t, k.F_BIDDER]
    if bidder >= 0:
        out[starts[B_BIDDER] + (bidder - me) % n] = 1.0
        out[starts[B_BID] + ladder_index(S[t, k.F_BID])] = 1.0
        if bidder == me and S[t, k.F_KITTY_TAKEN]:
            put_cards(out, starts[B_KITTY], S[t, k.F_KITTY])
    put_cards(out, starts[B_MY_DISC], S[t, k.F_DISCARDED + me])
    if (me == S[t, k.F_DEALER] and R[k.R_ROBS_PACK] and ph != k.AUCTION and ph != k.RAISE
            and ph != k.TRUMP and ph != k.DRAW):
        put_cards(out, starts[B_PACK], S[t, k.F_PILE])
    if S[t, k.F_PACK_TAKEN]:
        out[starts[B_PACK_ROBBED]] = 1.0
    put_cards(out, starts[B_FACE_UP], faceup)
    called = S[t, k.F_CALLED]
    if called == 0:
        out[starts[B_CALLED_NONE]] = 1.0
    elif called > 0:
        put_cards(out, starts[B_CALLED], called)
    partner = S[t, k.F_PARTNER]
    if partner >= 0:
        out[starts[B_PARTNER] + (partner - me) % n] = 1.0
    if me == S[t, k.F_TURN]:
        put_cards(out, starts[B_PICKS], M[t, M_PICKS])
    if R[k.R_BOOKED]:  # public: who was asked, the yes or no, and a fold
        asked = S[t, k.F_ASKED]
        if asked >= 0:
            out[starts[B_ASKED] + (asked - me) % n] = 1.0
        answer = S[t, k.F_ANSWER]
        if answer >= 0:
            out[starts[B_ANSWER] + answer] = 1.0
        out[starts[B_FOLDED]] = S[t, k.F_FOLDED]


# ----- action ids -------------------------------------------------------------------------


@jit(refcount=False)
def slot_mask(hand: int, cards: int) -> int:
    m = 0
    i = 0
    while hand:
        low = hand & -hand
        if cards & low:
            m |= 1 << i
        hand ^= low
        i += 1
    return m


@jit(refcount=False)
def slot_cards(hand: int, slots: int) -> int:
    out = 0
    i = 0
    while hand:
        low = hand & -hand
        if slots >> i & 1:
            out |= low
        hand ^= low
        i += 1
    return out


@jit(refcount=False)
def action_id(S: Any, R: Any, t: int, verb: int, arg: int) -> int:
    """The id of table ``t``'s legal action (verb, arg) (``encoding.action_id``)."""
    if R[k.R_GAME] == k.G_FORTY_ONE:
        if verb == k.V_BID:
            return arg - 1
        return FO_CARD0 + k.low_index(arg)
    if verb == k.V_PLAY or verb == k.V_ROB or (verb == k.V_CALL and arg):
        return CARD0 + k.low_index(arg)
    if verb == k.V_PASS:
        return PASS
    if verb == k.V_BID:
        return BID0 + ladder_index(arg)
    if verb == k.V_HOLD:
        return HOLD
    if verb == k.V_RAISE:
        return RAISE
    if verb == k.V_TRUMP:
        return TRUMP0 + arg
    if verb == k.V_CALL:
        return CALL_NONE
    if verb == k.V_ASK:
        return ASK0 + arg
    if verb == k.V_ANSWER:
        return ANSWER0 + arg
    if verb == k.V_FOLD:
        return FOLD
    if verb == k.V_STAY:
        return STAY
    if S[t, k.F_PHASE] == k.TRUMP or S[t, k.F_PHASE] == k.RAISE:  # going on the kitty
        return GO_ON
    return DISCARD0 + slot_mask(S[t, k.F_HANDS + S[t, k.F_TURN]], arg)


@jit(refcount=False)
def pack_pick_mask(hand: int, pile: int, picks: int) -> int:
    most = min(k.popcount(hand), k.popcount(pile))
    out = 0
    if k.popcount(picks & hand) < most:
        out |= hand & ~picks
    if k.popcount(picks & pile) < most:
        out |= pile & ~picks
    return out


@jit(refcount=False)
def legal_mask(S: Any, R: Any, M: Any, t: int, out: Any) -> None:
    """The legal ids of the seat to act on table ``t`` into ``out`` (zeroed here)."""
    out[:] = 0
    s = S[t, k.F_TURN]
    if s < 0:
        if M[t, M_SEEING]:  # the learner sees the hand just ended: it may only step on
            out[PASS] = 1
        return
    if S[t, k.F_PHASE] == k.PACK and R[k.R_GAME] == k.G_FORTY_FIVES:
        hand = S[t, k.F_HANDS + s]
        pile = S[t, k.F_PILE]
        picks = M[t, M_PICKS]
        if picks == 0:
            out[PASS] = 1
        m = pack_pick_mask(hand, pile, picks)
        while m:
            low = m & -m
            out[PICK0 + k.low_index(low)] = 1
            m ^= low
        give = k.popcount(picks & hand)
        if give > 0 and give == k.popcount(picks & pile):
            out[ROB_PACK] = 1
        return
    if S[t, k.F_PHASE] == k.DRAW and R[k.R_GAME] == k.G_FORTY_FIVES:
        # Every subset of the hand of a size the draw allows, by its slots, without
        # unranking each discard as the engine lists them.
        lo, hi = k.ff_discard_sizes(S, R, t, s)
        for slots in range(1 << k.popcount(S[t, k.F_HANDS + s])):
            size = k.popcount(slots)
            if lo <= size < hi:
                out[DISCARD0 + slots] = 1
        return
    for i in range(k.count(S, R, t)):
        verb, arg = k.nth(S, R, t, i)
        out[action_id(S, R, t, verb, arg)] = 1


# ----- stepping ---------------------------------------------------------------------------


@jit(refcount=False)
def forget_hand(M: Any, t: int) -> None:
    for j in range(MF):
        M[t, j] = 0


@jit(refcount=False)
def record(S: Any, M: Any, t: int, verb: int, arg: int) -> None:
    """Remember what the seat to act does, as its view's history would show it."""
    s = S[t, k.F_TURN]
    if verb == k.V_PLAY:
        M[t, M_PLAYED + s] |= arg
        if S[t, k.F_TRICK_N] > 0:  # (not the lead)
            led = S[t, k.F_TRICK] // 13
            if k.low_index(arg) // 13 != led:
                M[t, M_VOID + s] |= 1 << led
    elif verb == k.V_BID and S[t, k.F_PHASE] == k.AUCTION:
        if arg > M[t, M_TOP + s]:
            M[t, M_TOP + s] = arg
    elif verb == k.V_HOLD:
        M[t, M_HELD] |= 1 << s
    M[t, M_PICKS] = 0


@jit(refcount=False)
def apply_id(S: Any, D: Any, R: Any, M: Any, t: int, i: int) -> int:
    """Apply action id ``i`` (legal: the caller checked its mask) for the seat to act.
    Returns 1 if an action reached the engine, 0 for a pick of robbing the pack or the
    step on from a hand seen ended (the next deal)."""
    if M[t, M_SEEING]:
        k.deal_on(S, D, R, t)
        forget_hand(M, t)
        return 0
    if R[k.R_GAME] == k.G_FORTY_FIVES and S[t, k.F_PHASE] == k.PACK and i != PASS:
        if i != ROB_PACK:
            M[t, M_PICKS] |= 1 << (i - PICK0)
            return 0
        picks = M[t, M_PICKS]
        record(S, M, t, k.V_ROB, picks)
        k.apply(S, D, R, t, k.V_ROB, picks)
        return 1
    if S[t, k.F_PHASE] == k.DRAW and R[k.R_GAME] == k.G_FORTY_FIVES:  # the slots' cards
        cards = slot_cards(S[t, k.F_HANDS + S[t, k.F_TURN]], i - DISCARD0)
        record(S, M, t, k.V_DISCARD, cards)
        k.apply(S, D, R, t, k.V_DISCARD, cards)
        return 1
    for j in range(k.count(S, R, t)):
        verb, arg = k.nth(S, R, t, j)
        if action_id(S, R, t, verb, arg) == i:
            record(S, M, t, verb, arg)
            k.apply(S, D, R, t, verb, arg)
            return 1
    return -1


@jit(refcount=False)
def apply_index(S: Any, D: Any, R: Any, M: Any, t: int, j: int) -> None:
    verb, arg = k.nth(S, R, t, j)
    record(S, M, t, verb, arg)
    k.apply(S, D, R, t, verb, arg)


@jit(refcount=False)
def new_game(S: Any, D: Any, R: Any, M: Any, t: int) -> None:
    """Start a new game on table ``t``, its first dealer one seat on from the last's."""
    k.shuffle(S, D, t)
    k.new_game(S, D, R, t, (S[t, k.F_FIRST_DEALER] + 1) % R[k.R_N])
    forget_hand(M, t)


@jit(refcount=False)
def hand_over(S: Any, D: Any, R: Any, M: Any, t: int, learner: int, game_reward: bool,
              one_hand: bool, max_hands: int, hands: Any, rew: Any, done: Any,
              trunc: Any, starts: Any, final_obs: Any, see: bool, ended: Any) -> None:
    """A hand has ended on table ``t``: the learner's reward, what ended (``ended[t]``),
    the episode's end, and the next deal (with ``see``, a game that goes on waits for
    the learner to see the hand ended and step on, as in the AEC environment)."""
    side = R[k.R_SIDE_OF + learner]
    hands[t] += 1
    over = S[t, k.F_OVER] == 1
    if not game_reward:
        rew[t] += S[t, k.F_SCORES + side] - S[t, k.F_START + side]
    elif over:
        kind = S[t, k.F_WKIND]
        val = S[t, k.F_WVAL]
        won = val == side if kind == k.W_SIDE else (val >> learner & 1) == 1
        rew[t] += 1.0 if won else -1.0
    if over or one_hand or hands[t] >= max_hands:
        done[t] = 1 if (over or one_hand) else 0
        trunc[t] = 0 if (over or one_hand) else 1
        ended[t] = END_GAME if over else END_HAND if one_hand else END_MAX_HANDS
        observe(S, R, M, t, learner, starts, final_obs[t])
        hands[t] = 0
        new_game(S, D, R, M, t)
        return
    ended[t] = END_HAND
    if see:
        M[t, M_SEEING] = 1
        return
    k.deal_on(S, D, R, t)
    forget_hand(M, t)


@jit(refcount=False)
def advance(S: Any, D: Any, R: Any, M: Any, P: Any, learner: int, game_reward: bool,
            one_hand: bool, max_hands: int, hands: Any, rew: Any, done: Any, trunc: Any,
            starts: Any, final_obs: Any, waiting: Any, basic_target: int, see: bool,
            ended: Any) -> None:
    """Play every table's compiled fixed players until the learner is to act (or to see
    a hand ended), or a player given from Python (``waiting[t]``: its seat, else -1)."""
    for t in range(S.shape[0]):
        waiting[t] = -1
        while True:
            s = S[t, k.F_TURN]
            if s < 0:
                if M[t, M_SEEING]:
                    break
                hand_over(S, D, R, M, t, learner, game_reward, one_hand, max_hands, hands,
                          rew, done, trunc, starts, final_obs, see, ended)
                continue
            if s == learner:
                break
            if P[s] == P_EXTERNAL:
                waiting[t] = s
                break
            if P[s] == P_BASIC:
                verb, arg = basic_choice(S, R, M, t, basic_target)
                record(S, M, t, verb, arg)
                k.apply(S, D, R, t, verb, arg)
                continue
            c = k.count(S, R, t)
            apply_index(S, D, R, M, t, k.rand_below(S, t, c))


@jit(refcount=False)
def basic_choice(S: Any, R: Any, M: Any, t: int, target: int) -> tuple[int, int]:
    """``basic``'s action for the seat to act on table ``t`` (``basic_kernel.choice``)."""
    played = 0
    voids = 0  # 4 bits a seat: the suits led it did not follow
    for s in range(R[k.R_N]):
        played |= M[t, M_PLAYED + s]
        if s < 4:
            voids |= M[t, M_VOID + s] << (4 * s)
    return bk.choice(S, R, t, target, played, voids)


@jit(refcount=False)
def apply_ids(S: Any, D: Any, R: Any, M: Any, tables: Any, ids: Any, scratch: Any) -> int:
    """Apply ``ids[i]`` on table ``tables[i]`` for the seat to act; returns the first
    position whose id is not legal (nothing applied from there), or -1."""
    for i in range(tables.shape[0]):
        legal_mask(S, R, M, tables[i], scratch)
        a = ids[i]
        if not 0 <= a < scratch.shape[0] or scratch[a] == 0:
            return i
    for i in range(tables.shape[0]):
        apply_id(S, D, R, M, tables[i], ids[i])
    return -1


@jit(refcount=False)
def observe_all(S: Any, R: Any, M: Any, tables: Any, seat: int, starts: Any, obs: Any,
                masks: Any) -> None:
    for i in range(tables.shape[0]):
        t = tables[i]
        observe(S, R, M, t, seat, starts, obs[i])
        if S[t, k.F_TURN] == seat or M[t, M_SEEING]:
            legal_mask(S, R, M, t, masks[i])
        else:
            masks[i, :] = 0


# ----- a uniform legal draw for the learner -------------------------------------------------


@jit(refcount=False)
def draw_below(state: Any, bound: int) -> int:
    """A uniform draw from 0..bound-1 by the xorshift64* generator whose state is
    ``state[0]`` (never 0)."""
    x = state[0]
    x ^= (x >> 12) & 0xFFFFFFFFFFFFF
    x ^= x << 25
    x ^= (x >> 27) & 0x1FFFFFFFFF
    state[0] = x
    u = ((x * 2685821657736338717) >> 11) & 0x1FFFFFFFFFFFFF  # the top 53 bits
    return min(int(u * (1.0 / 9007199254740992.0) * bound), bound - 1)


@jit(refcount=False)
def sample_legal(S: Any, R: Any, M: Any, state: Any, scratch: Any, out: Any) -> None:
    """``out[t]``: an id drawn uniformly among the legal ids of the seat to act on table
    ``t`` (its mask, ``legal_mask``), by the generator ``state``; -1 where none is."""
    for t in range(S.shape[0]):
        legal_mask(S, R, M, t, scratch)
        n = 0
        for i in range(scratch.shape[0]):
            n += scratch[i]
        if n == 0:
            out[t] = -1
            continue
        j = draw_below(state, n)
        for i in range(scratch.shape[0]):
            if scratch[i]:
                if j == 0:
                    out[t] = i
                    break
                j -= 1
