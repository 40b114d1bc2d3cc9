"""A hand in play, seen double dummy, in the compact form both search engines use.

Only the cards still to be played (every hand and the trick in progress) take
part. They are renumbered 0..k-1 so that each effective suit is a run of
consecutive numbers in rank order, low to high, with the trump suit (AH
included) on top. Then:

* a trick goes to the highest-numbered trump in it, or else to the
  highest-numbered card of the suit led;
* two cards of one hand are *equivalent* when no other card still in play lies
  between them and they are of one class (suit, privilege); the bonus card,
  the called card and AH under hearts-on-hearts are each a class of their own.
  Whether a card may be played depends only on its suit, on its privilege
  against the card led (which, being in play, cannot lie between the two) and
  on those special cards, and which card wins only on the order; so either card
  of an equivalent pair, played now or kept, leads to the same value.

Values are counted in *units*: a trick is one unit and the bonus is one more
(a Forty-Fives point total is five times its units; in Forty One a unit is a
trick). The side maximised is a set of seats (``maxmask``); in Call Your
Partner the holder of the called card plays with the bidder until it is known
whether he is the partner (``pend``), and his tricks (``pu``) count for the
bidder only if he shows the card by the end of the second trick.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..cards import ACE_OF_HEARTS, AH_BIT, HEARTS, SUIT_MASKS
from ..cards import cards_of as _bits
from ..fortyfives import KEY, PRIVILEGED, TRUMPS, FortyFivesState
from ..fortyone import FortyOneState

# How a hand must answer a lead that is not a trump.
FOLLOW_ANY = 0  # trump-only: any card
FOLLOW_SUIT_OR_TRUMP = 1  # suit-or-trump: follow the suit or play a trump
FOLLOW_SUIT = 2  # Forty One: follow the suit if able

FOLLOW_MODES = {"trump-only": FOLLOW_ANY, "suit-or-trump": FOLLOW_SUIT_OR_TRUMP}

SPECIAL_CLASS = 100  # classes from here up hold one card each


@dataclass
class Position:
    """Everything the search needs, in compact card numbers."""

    n: int  # seats
    cards: tuple[int, ...]  # compact number -> card index 0..51
    hands: list[int]  # compact card set of each seat
    leader: int  # seat that led (or leads) the trick in progress
    trick: list[int]  # compact cards of the trick in progress, in play order
    tno: int  # tricks already finished
    tricks: int  # tricks in a hand (5 or 13)
    seg: tuple[int, ...]  # compact number -> effective suit (trumps: the trump suit)
    segmask: tuple[int, int, int, int]  # effective suit -> compact card set
    tseg: int  # the trumps still in play
    cls: tuple[int, ...]  # compact number -> equivalence class
    priv: int  # trumps that may renege (the 5, J, AH under top3)
    ah: int  # compact number of AH when hearts-on-hearts applies, else -1
    hearts: int  # the hearts that are not trumps (for hearts-on-hearts), else 0
    follow: int  # FOLLOW_ANY, FOLLOW_SUIT_OR_TRUMP or FOLLOW_SUIT
    bonus: int  # compact number of the card whose trick earns the bonus, or -1
    called: int  # compact bit of the called card (second-trick rule), or 0
    maxmask: int  # seats of the side maximised
    pend: int  # the called card's holder while his side is not yet known, or -1
    pu: int  # units the pending holder has taken so far
    base: int  # units the side maximised has already banked
    horizon: int  # trick number where a bounded search stops (``tricks``: exact)

    # ----- facts ------------------------------------------------------------------------

    @property
    def present(self) -> int:
        """Every compact card still in play: the hands and the trick in progress."""
        p = 0
        for h in self.hands:
            p |= h
        for c in self.trick:
            p |= 1 << c
        return p

    @property
    def turn(self) -> int:
        return (self.leader + len(self.trick)) % self.n

    def units_left(self) -> int:
        """Units still to be won: the tricks left (the one in progress included) and the
        bonus if its card is still in play, plus what the pending holder has banked."""
        left = self.tricks - self.tno
        if self.bonus >= 0 and self.present >> self.bonus & 1:
            left += 1
        return left + self.pu

    def legal(self, seat: int) -> int:
        """The compact cards ``seat`` may play now (the engine's legal_play_mask)."""
        return legal_mask(self, self.hands[seat])

    def representatives(self, seat: int) -> dict[int, int]:
        """Each legal card of ``seat`` mapped to the card that stands for its class (the
        highest of a run of equivalent cards)."""
        h = self.hands[seat]
        p = self.present
        legal = self.legal(seat)
        out: dict[int, int] = {}
        for x in sorted(_bits(legal), reverse=True):
            above = p >> (x + 1)
            if above:
                y = x + 1 + ((above & -above).bit_length() - 1)
                if h >> y & 1 and self.cls[y] == self.cls[x] and y in out:
                    out[x] = out[y]
                    continue
            out[x] = x
        return out

    # ----- a card played ----------------------------------------------------------------

    def play(self, c: int) -> Position:
        """The position after the seat to move plays compact card ``c`` (assumed legal)."""
        seat = self.turn
        hands = list(self.hands)
        hands[seat] &= ~(1 << c)
        trick = [*self.trick, c]
        if len(trick) < self.n:
            return replace(self, hands=hands, trick=trick)
        w = trick_winner(self, trick)
        winner = (self.leader + w) % self.n
        units = 1
        if self.bonus >= 0 and self.bonus in trick:
            units = 2
        base, maxmask, pend, pu = self.base, self.maxmask, self.pend, self.pu
        if pend >= 0:
            if self.called and (self.called.bit_length() - 1) in trick:
                base += pu  # the holder showed the card: he is the partner
                pend, pu = -1, 0
                if maxmask >> winner & 1:
                    base += units
            else:
                if winner == pend:
                    pu += units
                elif maxmask >> winner & 1:
                    base += units
                if self.tno + 1 >= 2:  # not shown in two tricks: the bidder is alone
                    maxmask &= ~(1 << pend)
                    pend, pu = -1, 0
        elif maxmask >> winner & 1:
            base += units
        return replace(self, hands=hands, trick=[], leader=winner, tno=self.tno + 1,
                       base=base, maxmask=maxmask, pend=pend, pu=pu)



def legal_mask(pos: Position, hand: int) -> int:
    """The cards of ``hand`` that may be played to ``pos``'s trick."""
    if pos.trick:
        led = pos.trick[0]
        if pos.tseg >> led & 1:
            mine = hand & pos.tseg
            if led == pos.ah:  # hearts on hearts: no renege; no trump, play a heart
                if mine:
                    hand = mine
                elif hand & pos.hearts:
                    hand &= pos.hearts
            elif mine & ~(pos.priv & ~((2 << led) - 1)):
                hand = mine
        elif pos.follow:
            follow = hand & pos.segmask[pos.seg[led]]
            if follow:
                hand = follow | (hand & pos.tseg) if pos.follow == FOLLOW_SUIT_OR_TRUMP \
                    else follow
    if pos.called and pos.tno == 1 and hand & pos.called:
        hand = pos.called
    return hand


def trick_winner(pos: Position, trick: list[int]) -> int:
    """Index in ``trick`` of the card that takes it."""
    t = 0
    for c in trick:
        t |= 1 << c
    best = t & pos.tseg or t & pos.segmask[pos.seg[trick[0]]]
    return trick.index(best.bit_length() - 1)


# ----- building a position from a game --------------------------------------------------

def _compact(order: list[tuple[int, int, int]]) -> tuple[tuple[int, ...], dict[int, int],
                                                          tuple[int, ...]]:
    """Number the cards of ``order`` ((segment position, rank, card) triples)."""
    order.sort()
    cards = tuple(c for _, _, c in order)
    index = {c: i for i, c in enumerate(cards)}
    return cards, index, tuple(s for s, _, _ in order)


def _ff_rank(t: int) -> tuple[int, ...]:
    """Each card's place in the compact order under trump ``t``: the plain suits in suit
    order, each low to high, then the trumps low to high."""
    tm = TRUMPS[t]
    order = []
    for c in range(52):
        es = t if tm >> c & 1 else c // 13
        order.append((4 if es == t else es, KEY[t][es][c], c))
    order.sort()
    place = [0] * 52
    for i, (_, _, c) in enumerate(order):
        place[c] = i
    return tuple(place)


FF_RANK = tuple(_ff_rank(t) for t in range(4))
# FF_SEG[t][c]: the effective suit of card c under trump t
FF_SEG = tuple(tuple(t if TRUMPS[t] >> c & 1 else c // 13 for c in range(52)) for t in range(4))
PLAIN_HEARTS = SUIT_MASKS[HEARTS] & ~AH_BIT


def ff_special_cards(state: FortyFivesState) -> tuple[int, int, int, int]:
    """The raw cards (0..51) the search treats apart under ``state``'s rules and trump:
    the trumps that may renege (a mask), the hearts that are not trumps (a mask), AH when
    hearts-on-hearts applies and the called card (each a card, or -1)."""
    r = state.rules
    t = state.trump
    called = state.called.bit_length() - 1 if r.call_partner and state.called > 0 else -1
    return (PRIVILEGED[r.renege][t], PLAIN_HEARTS if t != HEARTS else 0,
            ACE_OF_HEARTS if r.hearts_on_hearts else -1, called)


def forty_fives_position(state: FortyFivesState, maxmask: int, pend: int, pu: int,
                         base: int) -> Position:
    """The compact position of a Forty-Fives hand in play."""
    r = state.rules
    t = state.trump
    n = state.n
    owner = {}
    for s_, h in enumerate(state.hands):
        for c in _bits(h):
            owner[c] = s_
    for c in state.trick_cards:
        owner[c] = -1
    cards = tuple(sorted(owner, key=FF_RANK[t].__getitem__))
    segof = FF_SEG[t]
    priv_cards, plain_hearts, ah_card, called_card = ff_special_cards(state)
    bonus_card = state.bonus_card
    hands = [0] * n
    seg = []
    cls = []
    segmask = [0, 0, 0, 0]
    index = {}
    priv = hearts = called = 0
    ah = bonus = -1
    for i, c in enumerate(cards):
        b = 1 << i
        index[c] = i
        o = owner[c]
        if o >= 0:
            hands[o] |= b
        es = segof[c]
        seg.append(es)
        segmask[es] |= b
        p = priv_cards >> c & 1
        if p:
            priv |= b
        if plain_hearts >> c & 1:
            hearts |= b
        if c in (bonus_card, called_card, ah_card):
            cls.append(SPECIAL_CLASS + i)
            if c == bonus_card:
                bonus = i
            if c == called_card:
                called = b
            if c == ah_card:
                ah = i
        else:
            cls.append(2 * es + p)
    return Position(
        n=n, cards=cards, hands=hands, leader=state.trick_leader,
        trick=[index[c] for c in state.trick_cards], tno=state.trick_no, tricks=5,
        seg=tuple(seg), segmask=(segmask[0], segmask[1], segmask[2], segmask[3]),
        tseg=segmask[t], cls=tuple(cls), priv=priv, ah=ah, hearts=hearts,
        follow=FOLLOW_MODES[r.follow], bonus=bonus, called=called, maxmask=maxmask,
        pend=pend, pu=pu, base=base, horizon=5)


def forty_one_position(state: FortyOneState, maxmask: int, horizon: int) -> Position:
    """The compact position of a Forty One hand in play (hearts trump, aces high)."""
    held = 0
    for h in state.hands:
        held |= h
    for c in state.trick_cards:
        held |= 1 << c
    order = []
    for c in _bits(held):
        s = c // 13
        order.append((4 if s == HEARTS else s, c % 13, c))
    cards, index, slots = _compact(order)
    seg = tuple(HEARTS if s == 4 else s for s in slots)
    segmask = [0, 0, 0, 0]
    for i, s in enumerate(seg):
        segmask[s] |= 1 << i
    base = sum(state.taken[s] for s in range(4) if maxmask >> s & 1)
    return Position(
        n=4, cards=cards, hands=[_to_compact(h, index) for h in state.hands],
        leader=state.trick_leader, trick=[index[c] for c in state.trick_cards],
        tno=state.trick_no, tricks=13, seg=seg,
        segmask=(segmask[0], segmask[1], segmask[2], segmask[3]), tseg=segmask[HEARTS],
        cls=seg, priv=0, ah=-1, hearts=0, follow=FOLLOW_SUIT, bonus=-1, called=0,
        maxmask=maxmask, pend=-1, pu=0, base=base, horizon=min(horizon, 13))


def _to_compact(mask: int, index: dict[int, int]) -> int:
    out = 0
    for c in _bits(mask):
        out |= 1 << index[c]
    return out
