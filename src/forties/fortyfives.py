"""The Forty-Fives family (Merrimack Valley, Nova Scotia, Auction 45, Call Your
Partner) as one state machine driven by ``FortyFivesRules``.

A hand goes: auction (or a turned-up trump and robbing), an optional raise,
trump, the kitty, the draw, the dealer robbing the pack, calling a partner,
five tricks, scoring. Cards are bitmasks; rank tables are precomputed per trump.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

from .actions import BID_30_FOR_60, BID_60_FOR_120, Action, Verb, bid_text
from .cards import (
    ACE,
    AH_BIT,
    BITS,
    CARD_NAMES,
    DIAMONDS,
    FIVE,
    FULL_DECK,
    HEARTS,
    JACK,
    SUIT_MASKS,
    SUIT_NAMES,
    SUITS,
    card,
    format_mask,
    mask_names,
)
from .cards import cards_of as _bits
from .lazy import SubsetActions
from .rules import FortyFivesRules
from .scoring import (
    FortyFivesHand,
    bid_need,
    bidding_sides,
    on_green,
    score_forty_fives,
)
from .state import Deal, DealError, GameState, Phase, Refusal, card_actions, new_trick, not_held

_new_action = tuple.__new__

# ----- rank tables ------------------------------------------------------------------------

TRUMPS = tuple(SUIT_MASKS[t] | AH_BIT for t in range(4))


def _trump_order(t: int) -> list[int]:
    """The trumps of suit ``t``, highest first."""
    five, jack, ace = card(FIVE, t), card(JACK, t), card(ACE, t)
    if t == HEARTS:
        rest = [12 - i for i in range(1, 13)]  # K..2 by rank index
        rest = [card(r, t) for r in rest if r not in (FIVE, JACK)]
        return [five, jack, card(ACE, HEARTS), *rest]
    if t == DIAMONDS:  # red: high to low
        low = [card(r, t) for r in (11, 10, 8, 7, 6, 5, 4, 2, 1, 0)]  # K Q T 9 8 7 6 4 3 2
    else:  # black: K Q then 2 upwards
        low = [card(r, t) for r in (11, 10, 0, 1, 2, 4, 5, 6, 7, 8)]  # K Q 2 3 4 6 7 8 9 T
    return [five, jack, card(ACE, HEARTS), ace, *low]


def _off_order(s: int) -> list[int]:
    """Cards of suit ``s`` when it is not trump, highest first (AH never included)."""
    if s == HEARTS:
        return [card(r, s) for r in range(11, -1, -1)]  # K..2
    if s == DIAMONDS:
        return [card(r, s) for r in range(11, -1, -1)] + [card(ACE, s)]  # K..2, A
    return [card(r, s) for r in (11, 10, 9, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8)]  # K Q J A 2..T


TRUMP_ORDER = tuple(tuple(_trump_order(t)) for t in range(4))
OFF_ORDER = tuple(tuple(_off_order(s)) for s in range(4))


def _keys(t: int, led: int) -> tuple[int, ...]:
    key = [0] * 52
    order = TRUMP_ORDER[t]
    for i, c in enumerate(order):
        key[c] = 100 + len(order) - i
    if led != t:
        off = OFF_ORDER[led]
        for i, c in enumerate(off):
            key[c] = 1 + len(off) - i
    return tuple(key)


# KEY[trump][led suit][card]: a trick goes to the card with the largest key.
KEY = tuple(tuple(_keys(t, s) for s in range(4)) for t in range(4))


def _above(t: int) -> tuple[int, ...]:
    out = [0] * 52
    m = 0
    for c in TRUMP_ORDER[t]:
        out[c] = m
        m |= 1 << c
    return tuple(out)


# ABOVE[trump][card]: the trumps that outrank trump ``card``.
ABOVE = tuple(_above(t) for t in range(4))

PRIVILEGED = {
    "top3": tuple((1 << card(FIVE, t)) | (1 << card(JACK, t)) | AH_BIT for t in range(4)),
    "five-only": tuple(1 << card(FIVE, t) for t in range(4)),
    "none": (0, 0, 0, 0),
}

# The actions a player may be offered, made once: PLAY_ACTIONS[seat][card] and so on.
MAX_PLAYERS = 10
_SEATS = range(MAX_PLAYERS)
PLAY_ACTIONS = tuple(tuple(Action(s, Verb.PLAY, 1 << c) for c in range(52)) for s in _SEATS)
PASS_ACTIONS = tuple(Action(s, Verb.PASS, 0) for s in _SEATS)
HOLD_ACTIONS = tuple(Action(s, Verb.HOLD, 0) for s in _SEATS)
BID_ACTIONS = tuple({v: Action(s, Verb.BID, v) for v in (*range(5, 31, 5), BID_30_FOR_60,
                                                          BID_60_FOR_120)} for s in _SEATS)
TRUMP_ACTIONS = tuple(tuple(Action(s, Verb.TRUMP, t) for t in range(4)) for s in _SEATS)
CALL_ACTIONS = tuple(tuple(Action(s, Verb.CALL, 1 << c) for c in range(52)) for s in _SEATS)
CALL_NONE_ACTIONS = tuple(Action(s, Verb.CALL, 0) for s in _SEATS)

# Phases and verbs as module constants: the hot paths test them on every action.
_AUCTION, _TRUMP, _DRAW, _PLAY = Phase.AUCTION, Phase.TRUMP, Phase.DRAW, Phase.PLAY
_V_PLAY, _V_DISCARD = Verb.PLAY, Verb.DISCARD
_BOOKED_PHASES = (Phase.BOOKED, Phase.ANSWER, Phase.FOLD)


def follow_mask(hand: int, led: int, trump: int, privileged: int, suit_or_trump: bool,
                hearts_on_hearts: bool) -> int:
    """The cards of ``hand`` that may be played to a trick led with ``led``: a trump led
    must be followed with a trump (but the ``privileged`` trumps above the led one may be
    kept back; AH led asks for hearts on hearts where the rules say so); a side suit led,
    with that suit or a trump (``suit_or_trump``), or with any card."""
    tm = TRUMPS[trump]
    if (1 << led) & tm:
        mine = hand & tm
        if led == 38 and hearts_on_hearts:  # AH led: hearts on hearts
            if mine:
                return mine
            if trump != HEARTS and hand & SUIT_MASKS[HEARTS]:
                return hand & SUIT_MASKS[HEARTS]
        elif mine & ~(privileged & ABOVE[trump][led]):
            return mine
    elif suit_or_trump:
        follow = hand & SUIT_MASKS[led // 13] & ~tm
        if follow:
            return follow | (hand & tm)
    return hand


def trick_winner_index(cards: Sequence[int], trump: int) -> int:
    """Position in ``cards`` (in play order) of the card that wins the trick."""
    led = cards[0]
    ls = trump if (1 << led) & TRUMPS[trump] else led // 13
    keys = list(map(KEY[trump][ls].__getitem__, cards))
    return keys.index(max(keys))  # the led card's key is above 0: the highest is unique


def outranks(a: int, b: int, trump: int) -> bool:
    """Whether trump ``a`` outranks trump ``b``."""
    return bool(ABOVE[trump][b] >> a & 1)


def bid_ladder(rules: FortyFivesRules) -> tuple[int, ...]:
    """Every bid of ``rules``, lowest first."""
    return _ladder(rules.min_bid, rules.bid_30_for_60, rules.bid_60_for_120)


@lru_cache(maxsize=64)
def _ladder(min_bid: int, bid_30_for_60: bool, bid_60_for_120: bool) -> tuple[int, ...]:
    ladder = list(range(min_bid, 31, 5))
    if bid_30_for_60:
        ladder.append(BID_30_FOR_60)
    if bid_60_for_120:
        ladder.append(BID_60_FOR_120)
    return tuple(ladder)


@lru_cache(maxsize=4)
def _pack_robs(s: int, hand_mask: int, pile_mask: int) -> tuple[Action, ...]:
    """The dealer's choices on the pack: pass, or k cards of the hand given for k taken."""
    acts = [PASS_ACTIONS[s]]
    hand, pile = _bits(hand_mask), _bits(pile_mask)
    rob = Verb.ROB
    bit = BITS.__getitem__
    for k in range(1, min(len(hand), len(pile)) + 1):
        takes = [sum(map(bit, take)) for take in combinations(pile, k)]
        for give in combinations(hand, k):
            g = sum(map(bit, give))
            # tens of thousands of Actions: made by tuple's own __new__, without the call
            # to Action's Python-level one (the same Actions)
            acts += [_new_action(Action, (s, rob, g | t)) for t in takes]
    return tuple(acts)


@lru_cache(maxsize=4)
def _pack_texts(s: int, hand_mask: int, pile_mask: int) -> tuple[str, ...]:
    """``_pack_robs`` as record lines, for the views."""
    return tuple(str(a) for a in _pack_robs(s, hand_mask, pile_mask))


class FortyFivesState(GameState):
    """A game of the Forty-Fives family in progress."""

    game = "forty-fives"
    rules: FortyFivesRules

    # ----- dealing ----------------------------------------------------------------------

    def deal_from_deck(self, deck: Sequence[int]) -> Deal:
        n, k = self.n, self.rules.kitty
        hands = tuple(tuple(deck[5 * i:5 * i + 5]) for i in range(n))
        kitty = tuple(deck[5 * n:5 * n + k])
        return Deal(hands, kitty, tuple(deck[5 * n + k:]))

    def check_deal(self, deal: Deal) -> None:
        deal.check(self.n, 5, self.rules.kitty, full_deck=True)

    def _begin(self) -> None:
        r = self.rules
        self.kitty = sum(1 << c for c in self.deal.kitty)
        self.stock = self.deal.stock
        self.stock_pos = 0
        self.trump = -1
        self.bidder = -1
        self.bid = 0
        self.high = 0
        self.high_bidder = -1
        self.passed = 0
        self.reopened = False
        self.kitty_taken = False
        self.went_on_kitty = False
        self.went_on_top = False
        self.discarded = [0] * self.n
        self.has_discarded = [False] * self.n
        self.pile = 0
        self.faceup = 0
        self.up_card = -1
        self.robber = -1
        self.robbed = False
        self.rob_given = 0
        self.pack_taken = 0
        self.asked = -1  # "booked?": the seat the bidder asked, -1 none
        self.answer = -1  # its answer: 1 yes, 0 no, -1 not yet
        self.folded = False
        self.called = -1  # -1 not yet; 0 none; else a card bit
        self.partner = -1
        self.points = [0] * len(self.sides)
        self.taken = [0] * self.n
        self.bonus_card = -1
        self.trick_no = 0
        self.trick_leader = -1
        self.on_green = on_green(r, self.scores)
        self._stock_tight = r.auction != "none" and r.replacements_needed() > r.stock_size()
        self._ladder = bid_ladder(r)
        if r.auction == "none":
            self.up_card = self.stock[0]
            self.stock_pos = 1
            self.trump = self.up_card // 13
            robber = -1
            if r.robbing:
                if self.up_card % 13 == ACE:
                    robber = self.dealer
                else:
                    ace = card(ACE, self.trump)
                    robber = next((s for s in range(self.n) if self.hands[s] >> ace & 1), -1)
            self.robber = robber
            if robber >= 0:
                self.phase, self.turn = Phase.ROB, robber
            else:
                self._start_play()
        else:
            self.phase, self.turn = Phase.AUCTION, (self.dealer + 1) % self.n

    # ----- the auction ------------------------------------------------------------------

    def min_bid_for(self, seat: int) -> int:
        r = self.rules
        if r.min_bid_at_100 is not None and self.scores[self.side_of[seat]] >= 100:
            return max(r.min_bid, r.min_bid_at_100)
        return r.min_bid

    def _dealer_bagged(self, seat: int) -> bool:
        if seat != self.dealer or self.high:
            return False
        others = ((1 << self.n) - 1) & ~(1 << self.dealer)
        return self.rules.all_pass == "dealer-bagged" and self.passed == others

    def _may_hold(self, seat: int) -> bool:
        return (seat == self.dealer and self.rules.dealer_may_hold and self.high > 0
                and self.high_bidder != seat and self.high >= self.min_bid_for(seat))

    def _auction_actions(self, s: int) -> list[Action]:
        acts = [] if self._dealer_bagged(s) else [PASS_ACTIONS[s]]
        lo = max(self.min_bid_for(s), self.high + 1)
        bids = BID_ACTIONS[s]
        acts += [bids[v] for v in self._ladder if v >= lo]
        if self._may_hold(s):
            acts.append(HOLD_ACTIONS[s])
        return acts

    def _auction_reason(self, a: Action) -> str | None:
        s, v = a.seat, a.verb
        if v is Verb.PASS:
            if self._dealer_bagged(s):
                lo = self.min_bid_for(s)
                return Refusal(f"everyone passed: the dealer is bagged and must bid at least "
                               f"{lo}", "bagged", {"bid": bid_text(lo)})
            return None
        if v is Verb.BID:
            if a.arg not in self._ladder:
                steps = ", ".join(bid_text(b) for b in self._ladder)
                return Refusal(f"{bid_text(a.arg)} is not a bid here (bids: {steps})",
                               "not-a-bid", {"bid": bid_text(a.arg),
                                             "bids": [bid_text(b) for b in self._ladder]})
            if a.arg <= self.high:
                return Refusal(f"a bid must be higher than {bid_text(self.high)}", "bid-higher",
                               {"bid": bid_text(self.high)})
            lo = self.min_bid_for(s)
            if a.arg < lo:
                return Refusal(f"your side is on 100 or more: bid at least {lo}", "bid-100",
                               {"bid": bid_text(lo)})
            return None
        if v is Verb.HOLD:
            if not self.rules.dealer_may_hold:
                return Refusal("the dealer may not hold in these rules", "hold-rules")
            if s != self.dealer:
                return Refusal("only the dealer may hold", "hold-dealer")
            if self.high == 0:
                return Refusal("there is no bid to hold", "hold-none")
            if self.high_bidder == s:
                return Refusal("you already hold the high bid", "hold-own")
            if self._may_hold(s):
                return None
            return Refusal(f"your side is on 100 or more: you may not take the bid at "
                           f"{self.high}", "hold-100", {"bid": bid_text(self.high)})
        if self._may_hold(s):
            return Refusal("it is the auction: pass, hold or bid", "auction-hold")
        return Refusal("it is the auction: pass or bid", "auction")

    def _auction_apply(self, a: Action) -> None:
        s, v = a.seat, a.verb
        if v is Verb.PASS:
            self.passed |= 1 << s
        elif v is Verb.BID:
            self.high, self.high_bidder = a.arg, s
        else:
            self.high_bidder = s
        mode = self.rules.auction
        if mode != "open" and not self.reopened:
            if s != self.dealer:
                self.turn = (s + 1) % self.n
                return
            others_in = ((1 << self.n) - 1) & ~self.passed & ~(1 << s)
            if not (mode == "hold-reopens" and v is Verb.HOLD and others_in):
                self._end_auction()
                return
            self.reopened = True
        active = ((1 << self.n) - 1) & ~self.passed
        if active == 0 or (self.high_bidder >= 0 and active == 1 << self.high_bidder):
            self._end_auction()
            return
        nxt = (s + 1) % self.n
        while active >> nxt & 1 == 0 or nxt == self.high_bidder:
            nxt = (nxt + 1) % self.n
        self.turn = nxt

    def _end_auction(self) -> None:
        if self.high == 0:
            self.thrown_in = True
            self.phase, self.turn = Phase.HAND_OVER, None
            return
        self.bidder, self.bid = self.high_bidder, self.high
        if self.rules.winner_may_raise and self.bid in (20, 25):
            self.phase, self.turn = Phase.RAISE, self.bidder
        else:
            self._to_trump()

    def _to_trump(self) -> None:
        if self.rules.kitty_before_trump:
            self._take_kitty()
        self.phase, self.turn = Phase.TRUMP, self.bidder

    def _take_kitty(self) -> None:
        if not self.kitty_taken:
            self.hands[self.bidder] |= self.kitty
            self.kitty_taken = True

    # ----- the raise --------------------------------------------------------------------

    def _raise_actions(self, s: int) -> list[Action]:
        """Raise to 30, or decline: pass, or (the kitty unseen) name trump or go on the
        kitty at once, as the trump phase would offer."""
        acts = [PASS_ACTIONS[s], Action(s, Verb.RAISE, 30)]
        if not self.rules.kitty_before_trump:
            acts += self._trump_actions(s)
        return acts

    def _raise_reason(self, a: Action) -> str | None:
        if a.verb is Verb.PASS or (a.verb is Verb.RAISE and a.arg == 30):
            return None
        if a.verb is Verb.RAISE:
            return Refusal("you may raise only to 30 ('raise 30')", "raise-30")
        if self.rules.kitty_before_trump:
            if a.verb is Verb.TRUMP:
                return Refusal("you see the kitty before naming trump: first raise to 30 "
                               "('raise 30') or pass", "raise-kitty")
            return Refusal("you may raise to 30 ('raise 30') or pass", "raise")
        if a.verb is Verb.TRUMP or (a.verb is Verb.DISCARD and self._may_go_on()):
            return self._trump_reason(a)
        if self._may_go_on():
            return Refusal("you may raise to 30 ('raise 30'), pass, go on the kitty or name "
                           "trump", "raise-go-on")
        return Refusal("you may raise to 30 ('raise 30'), pass or name trump", "raise-trump")

    # ----- trump ------------------------------------------------------------------------

    def _trump_suits(self) -> list[int]:
        h = self.hands[self.bidder]
        if self.rules.trump_needs_card or self.went_on_kitty:
            return [t for t in range(4) if h & TRUMPS[t]]
        return [0, 1, 2, 3]

    def _may_go_on(self) -> bool:
        r = self.rules
        return (r.go_on_kitty and not self.went_on_kitty) or (
            r.go_on_top_card and self.went_on_kitty and not self.went_on_top)

    def _trump_actions(self, s: int) -> list[Action]:
        acts = [TRUMP_ACTIONS[s][t] for t in self._trump_suits()]
        if self._may_go_on():
            acts.append(Action(s, Verb.DISCARD, self.hands[s]))
        return acts

    def _trump_reason(self, a: Action) -> str | None:
        if a.verb is Verb.TRUMP:
            if a.arg in self._trump_suits():
                return None
            if not 0 <= a.arg < 4:
                return Refusal("name a suit: C, D, H or S", "name-suit")
            what = "the cards you went on" if self.went_on_kitty else "your hand"
            return Refusal(f"you may name only a suit of which you hold a trump in {what} "
                           f"({SUIT_NAMES[a.arg]}: none)",
                           "trump-went-on" if self.went_on_kitty else "trump-held",
                           {"suit": SUITS[a.arg]})
        if a.verb is Verb.DISCARD and self._may_go_on():
            if a.arg == self.hands[a.seat]:
                return None
            what = "the kitty" if self.went_on_kitty else "your whole hand"
            return Refusal(f"to go on the {'top card' if self.went_on_kitty else 'kitty'}, "
                           f"discard {what}: {format_mask(self.hands[a.seat])}",
                           "go-on-top" if self.went_on_kitty else "go-on-kitty",
                           {"cards": mask_names(self.hands[a.seat])})
        if self._may_go_on():
            return Refusal("name trump or go on the kitty", "name-trump-go-on")
        return Refusal("name trump", "name-trump")

    def _trump_apply(self, a: Action) -> None:
        b = a.seat
        if a.verb is Verb.DISCARD:
            self.pile |= a.arg
            self.discarded[b] |= a.arg
            if not self.went_on_kitty:
                self.hands[b] = self.kitty
                self.kitty_taken = self.went_on_kitty = True
            else:
                self.hands[b] = 1 << self.stock[self.stock_pos]
                self.stock_pos += 1
                self.went_on_top = True
            return
        self.trump = a.arg
        self._take_kitty()
        self.phase = Phase.DRAW
        self.turn = (self.dealer + 1) % self.n

    # ----- the draw ---------------------------------------------------------------------

    def _discard_sizes(self, s: int) -> range:
        """How many cards seat ``s`` may discard: what keep_min leaves, and no more than
        the stock can still replace (where it could run short)."""
        have = self.hands[s].bit_count()
        r = self.rules
        keep = 0 if r.four_and_a_flip else min(r.keep_min, have)
        most = have - keep
        if self._stock_tight:
            most = min(most, self.stock_room(s) + have - 5)
        return range(max(have - 5, 0), most + 1)

    def stock_room(self, s: int) -> int:
        """The cards the stock can give seat ``s``: what it holds, less what the other
        seats need to come back to five with the cards they hold now."""
        hands = self.hands
        need = sum(max(0, 5 - hands[x].bit_count()) for x in range(self.n) if x != s)
        return len(self.stock) - self.stock_pos - need

    def _draw_actions(self, s: int) -> Sequence[Action]:
        return SubsetActions(s, _V_DISCARD, self.hands[s], self._discard_sizes(s))

    def _draw_reason(self, a: Action) -> str | None:
        if a.verb is not Verb.DISCARD:
            return Refusal("it is the draw: discard (or 'discard' alone to keep every card)",
                           "draw")
        h = self.hands[a.seat]
        if a.arg & ~h:
            return not_held(a.arg & ~h)
        sizes = self._discard_sizes(a.seat)
        k = a.arg.bit_count()
        if k < sizes.start:
            return Refusal(f"you hold {h.bit_count()} cards: discard at least {sizes.start} "
                           f"to come down to five", "discard-down",
                           {"held": h.bit_count(), "count": sizes.start})
        if k >= sizes.stop:
            keep = h.bit_count() - (sizes.stop - 1)
            r = self.rules
            if keep > (0 if r.four_and_a_flip else min(r.keep_min, h.bit_count())):
                room = max(self.stock_room(a.seat), 0)
                return Refusal(f"the stock can replace only {room} more card"
                               f"{'s' if room != 1 else ''}: keep at least {keep}",
                               "stock-room", {"count": room, "keep": keep})
            return Refusal(f"you must keep at least {keep} card{'s' if keep != 1 else ''}",
                           "keep", {"keep": keep})
        return None

    def _draw_apply(self, a: Action) -> None:
        s = a.seat
        self.hands[s] &= ~a.arg
        self.discarded[s] |= a.arg
        self.has_discarded[s] = True
        self.pile |= a.arg
        if s != self.dealer:
            self.turn = (s + 1) % self.n
            return
        self._replenish()
        if self.rules.dealer_robs_pack and self.pile:
            self.phase, self.turn = Phase.PACK, self.dealer
        else:
            self._after_draw()

    def _replenish(self) -> None:
        """The dealer restores every hand to five from the stock, from his left."""
        n, hands, stock, pos = self.n, self.hands, self.stock, self.stock_pos
        flip = self.rules.four_and_a_flip
        empty = [h == 0 for h in hands]
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        for cap in (3, 5) if self.rules.replenish == "by-threes" else (5,):
            for s in order:
                h = hands[s]
                give = min(cap, 5 - h.bit_count())
                if give <= 0:
                    continue
                if not flip:
                    end = pos + give
                    if end > len(stock):
                        raise IndexError("the stock is exhausted")
                    hands[s] = h | sum(map(BITS.__getitem__, stock[pos:end]))
                    pos = end
                    continue
                for _ in range(give):
                    c = stock[pos]
                    pos += 1
                    h |= 1 << c
                    if empty[s] and h.bit_count() == 5:
                        self.faceup |= 1 << c
                hands[s] = h
        self.stock_pos = pos

    def _pack_actions(self, s: int) -> list[Action]:
        return list(_pack_robs(s, self.hands[s], self.pile))

    def _legal_texts(self) -> list[str]:
        s = self.turn
        if s is not None and self.phase is Phase.PACK:  # thousands of robs: written once
            return list(_pack_texts(s, self.hands[s], self.pile))
        return super()._legal_texts()

    def _pack_reason(self, a: Action) -> str | None:
        if a.verb is Verb.PASS:
            return None
        if a.verb is not Verb.ROB:
            return Refusal("the dealer may rob the pack ('rob' the cards given and taken) or "
                           "pass", "pack")
        give, take = a.arg & self.hands[a.seat], a.arg & self.pile
        if a.arg & ~(give | take):
            stray = a.arg & ~(give | take)
            return Refusal(f"{format_mask(stray)} is neither in your hand nor among the "
                           "discards", "pack-stray", {"cards": mask_names(stray)})
        if not a.arg:
            return Refusal("rob at least one card, or pass", "pack-none")
        if give.bit_count() != take.bit_count():
            return Refusal(f"take as many as you give: you give {give.bit_count()} "
                           f"({format_mask(give)}) and take {take.bit_count()} "
                           f"({format_mask(take)})", "pack-even",
                           {"give": mask_names(give), "take": mask_names(take)})
        return None

    def _pack_apply(self, a: Action) -> None:
        if a.verb is Verb.ROB:
            s = a.seat
            give, take = a.arg & self.hands[s], a.arg & self.pile
            self.hands[s] = (self.hands[s] & ~give) | take
            self.pile = (self.pile & ~take) | give
            self.pack_taken = take
            self.discarded[s] |= give
        self._after_draw()

    def _after_draw(self) -> None:
        if self.rules.call_partner:
            self.phase, self.turn = Phase.CALL, self.bidder
        else:
            self._before_play()

    # ----- "booked?" --------------------------------------------------------------------

    def _before_play(self) -> None:
        if self.rules.booked:
            self.phase, self.turn = Phase.BOOKED, self.bidder
        else:
            self._start_play()

    def _opponents(self) -> list[int]:
        mine = self.side_of[self.bidder]
        return [x for x in range(self.n) if self.side_of[x] != mine]

    def is_booked(self, seat: int) -> bool:
        """Whether ``seat`` holds only trumps (AH among them)."""
        return not self.hands[seat] & ~TRUMPS[self.trump]

    def _booked_actions(self, s: int) -> list[Action]:
        ph = self.phase
        if ph is Phase.BOOKED:
            return [PASS_ACTIONS[s], *(Action(s, Verb.ASK, x) for x in self._opponents())]
        if ph is Phase.ANSWER:
            return [Action(s, Verb.ANSWER, int(self.is_booked(s)))]
        return [Action(s, Verb.STAY), Action(s, Verb.FOLD)]

    def _booked_reason(self, a: Action) -> str | None:
        ph, v = self.phase, a.verb
        if ph is Phase.BOOKED:
            if v is Verb.PASS:
                return None
            if v is not Verb.ASK:
                return Refusal("ask an opponent whether he is booked ('ask SEAT'), or pass",
                               "ask")
            if a.arg in self._opponents():
                return None
            return Refusal(f"you may ask only an opponent: seat "
                           f"{', '.join(map(str, self._opponents()))}", "ask-opponent",
                           {"seats": self._opponents()})
        if ph is Phase.ANSWER:
            if v is not Verb.ANSWER:
                return Refusal("answer whether you are booked: yes or no", "answer")
            if a.arg == int(self.is_booked(a.seat)):
                return None
            if self.is_booked(a.seat):
                return Refusal("you hold only trumps: answer yes", "answer-yes")
            return Refusal("you hold a card that is not a trump: answer no", "answer-no")
        if v is Verb.FOLD or v is Verb.STAY:
            return None
        return Refusal("fold (go down your bid, nobody else scores) or stay", "fold")

    def _booked_apply(self, a: Action) -> None:
        ph = self.phase
        if ph is Phase.BOOKED:
            if a.verb is Verb.ASK:
                self.asked = a.arg
                self.phase, self.turn = Phase.ANSWER, a.arg
            else:
                self._start_play()
        elif ph is Phase.ANSWER:
            self.answer = a.arg
            if a.arg:
                self.phase, self.turn = Phase.FOLD, self.bidder
            else:
                self._start_play()
        elif a.verb is Verb.FOLD:
            self._fold()
        else:
            self._start_play()

    def _fold(self) -> None:
        """The bidder folds: his side goes down the bid; nobody else scores the hand."""
        self.folded = True
        side = self.side_of[self.bidder]
        self.scores[side] -= self.bid
        if self.rules.forty_five_resets and self.scores[side] == 45:
            self.scores[side] = 0
        self._close_hand()

    # ----- robbing (traditional) --------------------------------------------------------

    def _rob_actions(self, s: int) -> list[Action]:
        return [PASS_ACTIONS[s]] + [Action(s, Verb.ROB, 1 << b) for b in _bits(self.hands[s])]

    def _rob_reason(self, a: Action) -> str | None:
        if a.verb is Verb.PASS:
            return None
        if a.verb is not Verb.ROB:
            return Refusal(f"you may rob {CARD_NAMES[self.up_card]} (give up one card) or pass",
                           "rob", {"card": CARD_NAMES[self.up_card]})
        if a.arg.bit_count() != 1:
            return Refusal("give up exactly one card to rob", "rob-one")
        if not a.arg & self.hands[a.seat]:
            return not_held(a.arg)
        return None

    def _rob_apply(self, a: Action) -> None:
        if a.verb is Verb.ROB:
            s = a.seat
            self.hands[s] = (self.hands[s] & ~a.arg) | (1 << self.up_card)
            self.rob_given = a.arg
            self.robbed = True
        self._start_play()

    # ----- calling a partner ------------------------------------------------------------

    def may_call(self, c: int) -> bool:
        """Whether the bidder may call card ``c``: not a trump above all his trumps, and
        never the 5 of trumps (even from his own hand: seed and spec say never)."""
        t = self.trump
        if not (1 << c) & TRUMPS[t]:
            return True
        if c == TRUMP_ORDER[t][0]:
            return False
        mine = self.hands[self.bidder] & TRUMPS[t]
        return bool(mine & (ABOVE[t][c] | 1 << c))

    def _call_actions(self, s: int) -> list[Action]:
        # As may_call: every card but the trumps above the bidder's highest trump, and
        # never the 5 of trumps.
        t = self.trump
        tm = TRUMPS[t]
        mine = self.hands[self.bidder] & tm
        ok = FULL_DECK & ~tm
        for c in TRUMP_ORDER[t]:
            if mine >> c & 1:
                ok |= tm & ~ABOVE[t][c]
                break
        ok &= ~(1 << TRUMP_ORDER[t][0])
        acts = CALL_ACTIONS[s]
        return [CALL_NONE_ACTIONS[s], *[acts[c] for c in range(52) if ok >> c & 1]]

    def _call_reason(self, a: Action) -> str | None:
        if a.verb is not Verb.CALL:
            return Refusal("call a card for your partner, or 'call none' to go alone", "call")
        if a.arg.bit_count() > 1:
            return Refusal("call one card, or 'call none' to go alone", "call-one")
        if a.arg and not self.may_call(a.arg.bit_length() - 1):
            card = format_mask(a.arg)
            if a.arg.bit_length() - 1 == TRUMP_ORDER[self.trump][0]:
                return Refusal(f"you may not call {card}: the 5 of trumps is never called",
                               "call-five", {"card": card})
            return Refusal(f"you may not call {card}: it outranks every trump you hold",
                           "call-above", {"card": card})
        return None

    def _call_apply(self, a: Action) -> None:
        self.called = a.arg
        self._before_play()

    # ----- play -------------------------------------------------------------------------

    def _start_play(self) -> None:
        r = self.rules
        if r.lead == "bidder":
            leader = self.bidder
        elif r.lead == "left-of-bidder":
            leader = (self.bidder + 1) % self.n
        else:
            leader = (self.dealer + 1) % self.n
        held = 0
        for h in self.hands:
            held |= h
        t = self.trump
        trumps = held & TRUMPS[t]
        if r.bonus == "five-only":
            five = card(FIVE, t)
            self.bonus_card = five if trumps >> five & 1 else -1
        else:
            self.bonus_card = -1
            for c in TRUMP_ORDER[t]:
                if trumps >> c & 1:
                    self.bonus_card = c
                    break
        # What the play phase looks up on every card, fixed once trump is known.
        self._priv = PRIVILEGED[r.renege][t]
        self._tmask = TRUMPS[t]
        self._above = ABOVE[t]
        self._keys = KEY[t]
        self._suit_or_trump = r.follow == "suit-or-trump"
        self._hearts_on_hearts = r.hearts_on_hearts
        self._scores_each_trick = r.auction == "none"
        self.phase, self.turn, self.trick_leader = Phase.PLAY, leader, leader

    def legal_play_mask(self, s: int) -> int:
        """The cards seat ``s`` may play to the trick in progress."""
        hand = self.hands[s]
        if self.trick_cards:
            hand = follow_mask(hand, self.trick_cards[0], self.trump, self._priv,
                               self._suit_or_trump, self._hearts_on_hearts)
        c = self.called
        if c > 0 and self.trick_no == 1 and hand & c:
            hand = c
        return hand

    def _play_reason(self, a: Action) -> str | None:
        if a.verb is not Verb.PLAY:
            return Refusal("it is your turn to play a card", "play-card")
        if not 0 < a.arg < 1 << 52 or a.arg.bit_count() != 1:
            return Refusal("play one card", "play-one")
        s = a.seat
        if not a.arg & self.hands[s]:
            return not_held(a.arg)
        if a.arg & self.legal_play_mask(s):
            return None
        return self._follow_explanation(s)

    def _follow_explanation(self, s: int) -> Refusal:
        hand, tc, t = self.hands[s], self.trick_cards, self.trump
        tm = TRUMPS[t]
        c = self.called
        if c > 0 and self.trick_no == 1 and self.legal_play_mask(s) == c:
            return Refusal(f"{format_mask(c)} was called: it must be played in the second trick",
                           "called", {"card": format_mask(c)})
        led = tc[0]
        if (1 << led) & tm:
            if led == 38 and self.rules.hearts_on_hearts:
                if hand & tm:
                    return Refusal(f"hearts on hearts: AH was led, play a trump: you hold "
                                   f"{format_mask(hand & tm)}", "hearts-trump",
                                   {"cards": mask_names(hand & tm)})
                hearts = hand & SUIT_MASKS[HEARTS]
                return Refusal(f"hearts on hearts: AH was led, play a heart: you hold "
                               f"{format_mask(hearts)}", "hearts-heart",
                               {"cards": mask_names(hearts)})
            return Refusal(f"must play a trump: you hold {format_mask(hand & tm)}", "trump",
                           {"cards": mask_names(hand & tm)})
        held = hand & SUIT_MASKS[led // 13] & ~tm
        return Refusal(f"must follow {SUIT_NAMES[led // 13]} or trump: you hold "
                       f"{format_mask(held)}", "follow-or-trump",
                       {"suit": SUITS[led // 13], "cards": mask_names(held)})

    def _play_apply(self, a: Action) -> None:
        s, _, arg = a
        self.hands[s] ^= arg
        tc = self.trick_cards
        tc.append(arg.bit_length() - 1)
        if len(tc) < self.n:
            self.turn = (s + 1) % self.n
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        tc, leader, n = self.trick_cards, self.trick_leader, self.n
        led = tc[0]
        keys = list(map(self._keys[self.trump if (1 << led) & self._tmask else led // 13]
                        .__getitem__, tc))
        w = (leader + keys.index(max(keys))) % n  # as trick_winner_index
        side = self.side_of[w]
        pts = 10 if self.bonus_card in tc else 5
        self.points[side] += pts
        self.taken[w] += 1
        self.tricks.append(new_trick(leader, tuple(tc), w))
        called = self.called
        if called > 0 and self.trick_no < 2:
            c = called.bit_length() - 1
            if c in tc:
                holder = (leader + tc.index(c)) % n
                if holder != self.bidder:
                    self.partner = holder
        self.trick_cards = []
        self.trick_no += 1
        if self._scores_each_trick:
            self.scores[side] += pts
            if self.scores[side] >= self.rules.target:  # the game may be won at this trick
                self._score_hand()
                return
        if self.trick_no == 5:
            self._score_hand()
            return
        self.turn = self.trick_leader = w

    # ----- scoring ----------------------------------------------------------------------

    def bidding_sides(self) -> tuple[int, ...]:
        return bidding_sides(self.rules, self.bidder, self.partner)

    def summary(self) -> FortyFivesHand:
        """The hand as the table knows it (see scoring): the bid, the partner, the points."""
        return FortyFivesHand(
            tuple(self.points), self.bidder if self.bidder >= 0 else None, self.bid,
            self.partner if self.partner >= 0 else None, self.thrown_in)

    def hand_deltas(self) -> list[int]:
        """What each side's score moves by for the hand just played (auction games)."""
        return list(score_forty_fives(self.rules, self.summary(), self.start_scores).deltas)

    def made(self) -> bool | None:
        if self.bidder < 0 or self.trick_no < 5:
            return None
        return score_forty_fives(self.rules, self.summary(), self.start_scores).made

    def _score_hand(self) -> None:
        """Score the hand played out (see scoring: the one copy of the scoring rules)."""
        out = score_forty_fives(self.rules, self.summary(), self.start_scores)
        self.scores = list(out.scores)
        if out.winner is not None:
            self._game_won(out.winner)
        self._close_hand()

    def _close_hand(self) -> None:
        self.phase = Phase.GAME_OVER if self.over else Phase.HAND_OVER
        self.turn = None

    # ----- dispatch ---------------------------------------------------------------------

    def legal_actions(self) -> Sequence[Action]:
        s = self.turn
        if s is None:
            return []
        ph = self.phase
        if ph is _PLAY:
            return card_actions(PLAY_ACTIONS[s], self.legal_play_mask(s))
        if ph is _AUCTION:
            return self._auction_actions(s)
        if ph is _DRAW:
            return self._draw_actions(s)
        if ph is _TRUMP:
            return self._trump_actions(s)
        if ph is Phase.RAISE:
            return self._raise_actions(s)
        if ph is Phase.ROB:
            return self._rob_actions(s)
        if ph is Phase.CALL:
            return self._call_actions(s)
        if ph is Phase.PACK:
            return self._pack_actions(s)
        if ph in _BOOKED_PHASES:
            return self._booked_actions(s)
        return []  # pragma: no cover

    def _reason(self, a: Action) -> str | None:
        ph = self.phase
        if ph is _PLAY:
            return self._play_reason(a)
        if ph is _AUCTION:
            return self._auction_reason(a)
        if ph is _DRAW:
            return self._draw_reason(a)
        if ph is _TRUMP:
            return self._trump_reason(a)
        if ph is Phase.RAISE:
            return self._raise_reason(a)
        if ph is Phase.ROB:
            return self._rob_reason(a)
        if ph is Phase.CALL:
            return self._call_reason(a)
        if ph is Phase.PACK:
            return self._pack_reason(a)
        if ph in _BOOKED_PHASES:
            return self._booked_reason(a)
        return "the hand is over"  # pragma: no cover

    def apply(self, action: Action | str) -> None:
        # Plays and discards, the most actions of a hand, are checked here directly; what
        # is not plainly legal goes the long way, through reason().
        ph = self.phase
        if ph is _PLAY and type(action) is Action:
            s, verb, arg = action
            if (verb is _V_PLAY and s == self.turn and type(s) is type(arg) is int and arg > 0
                    and arg.bit_count() == 1
                    and arg & self.legal_play_mask(s)):
                self.history.append(action)
                self.hands[s] ^= arg  # as _play_apply
                tc = self.trick_cards
                tc.append(arg.bit_length() - 1)
                if len(tc) < self.n:
                    self.turn = (s + 1) % self.n
                else:
                    self._finish_trick()
                return
        elif ph is _DRAW and type(action) is Action:
            s, verb, arg = action
            if (verb is _V_DISCARD and s == self.turn and type(s) is type(arg) is int
                    and not arg & ~self.hands[s]):
                sizes = self._discard_sizes(s)
                if sizes.start <= arg.bit_count() < sizes.stop:  # as _draw_reason
                    self.history.append(action)
                    self._draw_apply(action)
                    return
        elif (ph is _AUCTION and type(action) is Action and action.seat == self.turn
              and type(action.seat) is type(action.arg) is int
              and self._auction_reason(action) is None):  # as reason(), for the seat to act
            self.history.append(action)
            self._auction_apply(action)
            return
        super().apply(action)

    def _apply(self, a: Action) -> None:
        ph = self.phase
        if ph is _PLAY:
            self._play_apply(a)
        elif ph is _AUCTION:
            self._auction_apply(a)
        elif ph is _DRAW:
            self._draw_apply(a)
        elif ph is _TRUMP:
            self._trump_apply(a)
        elif ph is Phase.RAISE:
            if a.verb is Verb.RAISE:
                self.bid = 30
            self._to_trump()
            if a.verb is Verb.TRUMP or a.verb is Verb.DISCARD:  # the raise declined
                self._trump_apply(a)
        elif ph is Phase.ROB:
            self._rob_apply(a)
        elif ph is Phase.CALL:
            self._call_apply(a)
        elif ph is Phase.PACK:
            self._pack_apply(a)
        elif ph in _BOOKED_PHASES:
            self._booked_apply(a)

    # ----- views ------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        v = self._common_view(seat)
        if self.phase is Phase.PLAY and self.rules.auction == "none":
            v["scores"] = [a + b for a, b in zip(self.start_scores, self._public_points(),
                                                 strict=True)]
        bidder_sees_kitty = seat is not None and seat == self.bidder and self.kitty_taken
        dealer_saw_pack = (seat is not None and seat == self.dealer
                           and self.rules.dealer_robs_pack
                           and self.phase not in (Phase.AUCTION, Phase.RAISE, Phase.TRUMP,
                                                  Phase.DRAW))
        v.update({
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "up_card": CARD_NAMES[self.up_card] if self.up_card >= 0 else None,
            "bidder": self.bidder if self.bidder >= 0 else None,
            "bid": bid_text(self.bid) if self.bid else None,
            "high_bid": bid_text(self.high) if self.high else None,
            "high_bidder": self.high_bidder if self.high_bidder >= 0 else None,
            "kitty_size": self.rules.kitty,
            "kitty": mask_names(self.kitty) if bidder_sees_kitty else None,
            "discard_counts": [m.bit_count() for m in self.discarded],
            "my_discards": mask_names(self.discarded[seat]) if seat is not None else [],
            "pack": mask_names(self.pile) if dealer_saw_pack else None,
            "face_up": mask_names(self.faceup),
            "face_up_held": [mask_names(self.faceup & h) for h in self.hands],
            "robbed": self.robbed,
            "robber": self.robber if self.robbed else None,
            "called": None if self.called < 0 else (
                "none" if self.called == 0 else format_mask(self.called)),
            "partner": self.partner if self.partner >= 0 else None,
            "points": self._public_points(),
            "history": self._history_texts(seat),
        })
        if self.rules.booked:  # public: who was asked, the yes or no, and a fold
            v["booked"] = {"asked": self.asked if self.asked >= 0 else None,
                           "answer": None if self.answer < 0 else
                           ("yes" if self.answer else "no"),
                           "folded": self.folded}
        return v

    def _public_points(self) -> list[int]:
        """Points as the table sees them: during the play, 5 a trick; the bonus trick is
        known only once every card is down, since it depends on cards still held."""
        if self.phase is not Phase.PLAY:
            return list(self.points)
        out = [0] * len(self.sides)
        for t in self.tricks:
            out[self.side_of[t.winner or 0]] += 5
        return out

    def _history_texts(self, seat: int | None) -> list[str]:
        """The hand's actions as ``seat`` learns of them (``_public_action`` of each).

        Every view writes the whole history, and a hand's history only grows, so the texts
        written are kept per seat and only the new actions are written at the next view.
        The memo belongs to one history list: a copy of the state (``clone``, which copies
        the list) or a new hand starts its own. A rob's text may depend on the up card, so
        it is written afresh each time."""
        hist = self.history
        memo: tuple[list[Action], dict[int | None, list[str | None]]] | None = \
            self.__dict__.get("_history_memo")
        if memo is None or memo[0] is not hist:
            memo = (hist, {})
            self.__dict__["_history_memo"] = memo
        texts = memo[1].get(seat)
        if texts is None or len(texts) > len(hist):
            texts = memo[1][seat] = []
        for i in range(len(texts), len(hist)):
            a = hist[i]
            texts.append(None if a.verb is Verb.ROB else self._public_action(a, seat))
        if None in texts:
            return [t if t is not None else self._public_action(a, seat)
                    for t, a in zip(texts, hist, strict=True)]
        return texts.copy()  # type: ignore[return-value]

    def _public_action(self, a: Action, seat: int | None) -> str:
        if a.seat == seat or a.verb not in (Verb.DISCARD, Verb.ROB):
            return str(a)
        if a.verb is Verb.DISCARD:
            k = a.arg.bit_count()
            return f"{a.seat} discard ({k} card{'s' if k != 1 else ''})"
        if self.rules.auction == "none":
            return f"{a.seat} rob {CARD_NAMES[self.up_card]}"
        return f"{a.seat} rob the pack"



__all__ = ["ABOVE", "KEY", "TRUMPS", "TRUMP_ORDER", "DealError", "FortyFivesState", "bid_need",
           "on_green", "trick_winner_index"]
