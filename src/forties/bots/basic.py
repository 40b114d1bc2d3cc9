"""``basic``: a rule-based player with the conventions of a sound club player.

It sees only its seat's view and the legal actions. Forty-Fives: bid by hand
strength (the 5 alone is worth 15, 5-J-AH about 25), keep trumps and AH in the
draw, lead top trumps to draw them when it can, second hand low, third hand
high, never trump a partner's winner, throw the cheapest card when it cannot
win. Forty One: bid the tricks its high cards and hearts promise, win cheaply
while the bid needs tricks (a partner's trick too, when he has no use for it: each
seat scores its own bid), then keep out of the way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..actions import Action, Verb
from ..cards import HEARTS, SUIT_MASKS, parse_card
from ..cards import cards_of as _bits
from ..cards import mask_of_names as _mask
from ..fortyfives import KEY, TRUMP_ORDER, TRUMPS
from ..fortyone import KEY as KEY41

# What a trump is worth in points by its place in the trump order (5, J, AH, A, K, Q...).
TRUMP_WORTH = (9.0, 7.0, 6.0, 5.0, 4.0, 3.5, 3.0, 3.0, 2.5, 2.5, 2.5, 2.0, 2.0, 2.0)


def strength(hand: int, trump: int) -> float:
    """Points a hand is expected to take itself with ``trump``, before kitty and partner."""
    pts = 0.0
    for i, c in enumerate(TRUMP_ORDER[trump]):
        if hand >> c & 1:
            pts += TRUMP_WORTH[i]
    for s in range(4):
        if s == trump:
            continue
        king = 1 << (s * 13 + 11)
        if hand & king and hand & SUIT_MASKS[s] & ~TRUMPS[trump] & ~king:
            pts += 1.5
    return pts


def card_worth(c: int, trump: int) -> int:
    """Higher for better cards: trumps above every off-suit card."""
    return KEY[trump][c // 13][c]


def discard_count(want: int, legal: Sequence[Action]) -> int:
    """``want`` brought within the numbers of cards ``legal`` lets the seat discard."""
    sizes = sorted({a.arg.bit_count() for a in legal}) if not hasattr(legal, "sizes") \
        else list(legal.sizes)
    return min(max(want, sizes[0]), sizes[-1])


def discard(seat: int, hand: int, trump: int, legal: Sequence[Action]) -> Action:
    """The draw: keep trumps (and kings with few trumps), throw the rest, the cheapest
    first, within the legal counts."""
    keep = hand & TRUMPS[trump]
    if keep.bit_count() <= 2:
        keep |= hand & sum(1 << (s * 13 + 11) for s in range(4) if s != trump)
    order = sorted(_bits(hand), key=lambda c: (bool(keep >> c & 1), card_worth(c, trump)))
    k = discard_count((hand & ~keep).bit_count(), legal)
    return Action(seat, Verb.DISCARD, sum(1 << c for c in order[:k]))


def forty_one_tricks(hand: int) -> float:
    """Tricks a Forty One hand should take: top hearts and long hearts, side aces and
    guarded kings, and ruffs where a side suit is short and hearts are long."""
    hearts = [c % 13 for c in _bits(hand & SUIT_MASKS[HEARTS])]
    tricks = sum(1.0 for r in hearts if r >= 9) + max(0, len(hearts) - 4)
    spare = max(0, len(hearts) - sum(1 for r in hearts if r >= 9))
    for s in range(4):
        if s == HEARTS:
            continue
        ranks = sorted((c % 13 for c in _bits(hand & SUIT_MASKS[s])), reverse=True)
        if 12 in ranks:
            tricks += 1
        if 11 in ranks and len(ranks) >= 2:
            tricks += 0.75 if 12 in ranks else 0.5
        if 10 in ranks and len(ranks) >= 3:
            tricks += 0.25
        if len(ranks) <= 1 and spare >= 2:
            tricks += 0.5 * (2 - len(ranks))
            spare -= 1
    return tricks


def play_card(seat: int, hand: int, played: int, cards: Sequence[int], leader: int, n: int,
              trump: int, sides: Sequence[Sequence[int]], bidding: bool,
              options: Sequence[int]) -> int:
    """``basic``'s card in a 45s trick, from what its seat knows: ``played`` is every card
    played this hand so far (the trick's ``cards`` too, led first by ``leader``),
    ``bidding`` whether its side holds the contract, ``options`` the cards it may play.
    (Inference reads the others' plays by this rule: ``bots.infer``.)"""
    worth = KEY[trump]
    out_trumps = [c for c in TRUMP_ORDER[trump] if not (played | hand) >> c & 1]
    if not cards:
        my_trumps = [c for c in TRUMP_ORDER[trump] if hand >> c & 1]
        top_out = out_trumps[0] if out_trumps else -1
        if my_trumps and (not out_trumps or TRUMP_ORDER[trump].index(my_trumps[0])
                          < TRUMP_ORDER[trump].index(top_out)) and (
                bidding or len(my_trumps) >= 2):
            return my_trumps[0]
        by_worth = sorted(options, key=lambda c: card_worth(c, trump))
        off = [c for c in by_worth if not TRUMPS[trump] >> c & 1]
        kings = [c for c in off if c % 13 == 11]
        return kings[0] if kings else (off[0] if off else by_worth[0])
    led = cards[0]
    ls = trump if TRUMPS[trump] >> led & 1 else led // 13
    key = worth[ls]
    best_i = max(range(len(cards)), key=lambda i: key[cards[i]])
    best_seat = (leader + best_i) % n
    partner_wins = any(seat in s and best_seat in s for s in sides)
    last = len(cards) == n - 1
    winners = sorted((c for c in options if key[c] > key[cards[best_i]]),
                     key=lambda c: key[c])
    cheapest = min(options, key=lambda c: (bool(TRUMPS[trump] >> c & 1),
                                           card_worth(c, trump)))
    if partner_wins and (last or not out_trumps or key[cards[best_i]] >= key[out_trumps[0]]):
        return cheapest
    if winners:
        if len(cards) == 1 and not last and key[winners[0]] < 100:
            return cheapest  # second hand low
        return winners[0] if last else winners[-1] if len(cards) >= 2 else winners[0]
    return cheapest


class BasicBot:
    """A sound rule-based player for every preset of both games."""

    name = "basic"

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if view["game"] == "forty-one":
            return self._forty_one(view, legal)
        phase = view["phase"]
        seat = view["seat"]
        hand = _mask(view["hand"])
        if phase in ("booked", "fold"):  # "booked?": never ask; told yes, stay and play
            return legal[0]
        if phase == "auction":
            return self._bid(view, legal, hand)
        if phase == "raise":
            best = max(strength(hand, t) for t in range(4)) + self._help(view)
            return next((a for a in legal if a.verb is Verb.RAISE and best >= 30), legal[0])
        if phase == "trump":
            trumps = [a for a in legal if a.verb is Verb.TRUMP]
            return max(trumps, key=lambda a: strength(hand, a.arg))
        trump = "CDHS".index(view["trump"])
        if phase == "draw":
            return discard(seat, hand, trump, legal)
        if phase == "rob":
            robs = [a for a in legal if a.verb is Verb.ROB]
            return min(robs, key=lambda a: card_worth(a.arg.bit_length() - 1, trump))
        if phase == "call":
            for c in TRUMP_ORDER[trump]:
                a = Action(seat, Verb.CALL, 1 << c)
                if not hand >> c & 1 and a in legal:
                    return a
            return Action(seat, Verb.CALL, 0)
        if phase == "play":
            return self._play(view, legal, hand, trump)
        return next((a for a in legal if a.verb is Verb.PASS), legal[0])

    # ----- Forty-Fives --------------------------------------------------------------

    def _help(self, view: dict[str, Any]) -> float:
        """Points expected from the kitty, the draw and a partner."""
        sides = view["sides"]
        partnered = any(len(s) > 1 for s in sides)
        return 2.0 + (2.0 if view.get("kitty_size") else 0.0) + (6.0 if partnered else 0.0)

    def _bid(self, view: dict[str, Any], legal: Sequence[Action], hand: int) -> Action:
        seat = view["seat"]
        est = max(strength(hand, t) for t in range(4)) + self._help(view)
        sides = view["sides"]
        mine = next(i for i, s in enumerate(sides) if seat in s)
        target = view["rules"].get("options", {}).get("target", 120)
        theirs = [sc for i, sc in enumerate(view["scores"]) if i != mine]
        if theirs and max(theirs) >= target - 30 > view["scores"][mine]:
            est += 5  # they are on the green: buy the hand rather than let them go out
        high_bidder = view.get("high_bidder")
        if high_bidder is not None and high_bidder in sides[mine]:
            est -= 10  # partner has it: overcall only with a much better hand
        hold = next((a for a in legal if a.verb is Verb.HOLD), None)
        high = int(view["high_bid"].split("for")[0]) if view.get("high_bid") else 0
        if hold is not None and est >= high:
            return hold
        bids = sorted((a for a in legal if a.verb is Verb.BID), key=lambda a: a.arg)
        affordable = [a for a in bids if min(a.arg, 30) <= est]
        passes = [a for a in legal if a.verb is Verb.PASS]
        if affordable:
            return affordable[0]
        return passes[0] if passes else bids[0]

    def _play(self, view: dict[str, Any], legal: Sequence[Action], hand: int,
              trump: int) -> Action:
        seat = view["seat"]
        trick = view["trick"]
        played = _mask(trick["cards"])
        for t in view["tricks"]:
            played |= _mask(t["cards"])
        bidder = view.get("bidder")
        ours = bidder is not None and any(bidder in s and seat in s for s in view["sides"])
        c = play_card(seat, hand, played, [parse_card(c) for c in trick["cards"]],
                      trick["leader"], view["players"], trump, view["sides"], ours,
                      [a.arg.bit_length() - 1 for a in legal])
        return self._act(legal, c)

    @staticmethod
    def _act(legal: Sequence[Action], c: int) -> Action:
        b = 1 << c
        return next(a for a in legal if a.arg == b)

    # ----- Forty One ----------------------------------------------------------------

    @staticmethod
    def _overtake_41(view: dict[str, Any], cards: Sequence[int],
                     winners: Sequence[int]) -> int | None:
        """The card to take the trick the partner is winning with, or None to play low.

        Only when the trick is useless to the partner: he has made his bid, or he needs
        more tricks than are left. Playing last, the cheapest winner takes it for sure.
        Before that, the cheapest winner that is the top card of its suit still out (every
        higher one played or in our hand): a heart then cannot be beaten, and a card of the
        suit led nearly never is (only by a seat still to play trumping it), so it is not
        played when one of those seats has already shown out of the suit."""
        seat = view["seat"]
        partner = (seat + 2) % 4
        p_need = (view["bids"][partner] or 0) - view["taken"][partner]
        left = 13 - len(view["tricks"])
        if not winners or 0 < p_need <= left:
            return None
        if len(cards) == 3:
            return winners[0]
        seen = _mask(view["hand"])
        void = [False] * 4
        led = cards[0] // 13
        for t in [*view["tricks"], view["trick"]]:
            t_cards = [parse_card(c) for c in t["cards"]]
            seen |= sum(1 << c for c in t_cards)
            for i, c in enumerate(t_cards[1:], 1):
                if c // 13 != t_cards[0] // 13 and t_cards[0] // 13 == led:
                    void[(t["leader"] + i) % 4] = True
        later = [(seat + i) % 4 for i in range(1, 4 - len(cards))]
        for c in winners:
            suit_above = SUIT_MASKS[c // 13] & ~((2 << c) - 1)
            if suit_above & ~seen:
                continue  # a higher card of its suit is still out
            if c // 13 == HEARTS or not any(void[s] for s in later):
                return c
        return None

    def _forty_one(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        hand = _mask(view["hand"])
        if view["phase"] == "auction":
            tricks = forty_one_tricks(hand)
            want = max(1, min(13, int(tricks + 0.5)))
            return next(a for a in legal if a.arg == want)
        seat = view["seat"]
        need = (view["bids"][seat] or 0) - view["taken"][seat]
        trick = view["trick"]
        cards = [parse_card(c) for c in trick["cards"]]
        options = [a.arg.bit_length() - 1 for a in legal]
        low = min(options, key=lambda c: (c // 13 == HEARTS, c % 13))
        if not cards:
            if need > 0:
                return self._act(legal, max(options, key=lambda c: (c % 13, c // 13 != HEARTS)))
            return self._act(legal, low)
        key = KEY41[cards[0] // 13]
        best_i = max(range(len(cards)), key=lambda i: key[cards[i]])
        best_seat = (trick["leader"] + best_i) % 4
        winners = sorted((c for c in options if key[c] > key[cards[best_i]]), key=lambda c: key[c])
        if need <= 0:
            return self._act(legal, low)
        if best_seat % 2 == seat % 2:
            # Partner winning. Each seat scores its own bid, so his trick is ours to take
            # when we still need tricks and it is worth nothing to him: he has made his
            # bid, or he could not make it with every trick left. Take it last to play
            # with the cheapest winner; earlier only with a card nobody can beat.
            sure = self._overtake_41(view, cards, winners)
            return self._act(legal, sure if sure is not None else low)
        if winners:
            return self._act(legal, winners[0] if len(cards) == 3 else winners[-1])
        return self._act(legal, low)
