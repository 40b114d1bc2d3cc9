"""One reason for a suggested action, in facts the seat itself can see.

``reason(view, action)`` reads only the seat's view (its own cards, the cards played so
far, the trump, the trick on the table) and the action, never the search's imagined
deals: what it says is true whatever the hidden cards are. It answers a code and its
params (cards as written in records, "AH"; suits as letters; counts), which a client says
in the reader's language (the web page's ``hint.why.CODE`` messages); ``words`` says it in
English.

The codes:

- ``top_trump`` {card}: the card is the highest trump not yet played outside the hand, and
  beats the trick so far: nobody can take the trick from it;
- ``takes_trick`` {card}: the last card of the trick, and it wins it;
- ``partner_winning`` {card, seat}: the partner's card is winning the trick, and this one
  leaves it to him;
- ``beats_so_far`` {card}: it beats every card played to the trick so far;
- ``keeps_trumps`` {card, cards, count}: a card that is not a trump, keeping the hand's
  trumps (``cards``: the top two of them) for later tricks;
- ``cannot_win`` {card}: no card the seat may play can take the trick;
- ``discard_keeps`` {cards, count}: the cards kept (trumps first, best first) and how many
  the dealer gives back (to five); ``discard_down`` {cards}: the cards kept, five, none
  given back (the bidder throwing the kitty's worth); ``discard_none``: every card kept;
- ``bid_trumps`` / ``pass_trumps`` / ``trump_cards`` {suit, cards, count}: the suit in
  which the hand holds the most trumps (the ace of hearts counts in every suit), or the
  suit named, and those trumps, best first;
- ``bid41`` {aces, kings, hearts}: Forty One's bid, beside what the hand holds;
- ``searched``: nothing more to say than the search's choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import Action, Verb
from .cards import ACE, HEARTS, KING, SUIT_MASKS, SUITS, cards_of, mask_of_names, parse_card
from .fortyfives import ABOVE, TRUMP_ORDER, TRUMPS, trick_winner_index

Reason = dict[str, Any]
HAND = 5  # the cards of a Forty-Fives hand, which the draw deals back to

CODES = ("top_trump", "takes_trick", "partner_winning", "beats_so_far", "keeps_trumps",
         "cannot_win", "discard_keeps", "discard_down", "discard_none", "bid_trumps",
         "pass_trumps",
         "trump_cards", "bid41", "searched")


def _forty_one(view: dict[str, Any]) -> bool:
    return view.get("game") == "forty-one"


def _winner(view: dict[str, Any], cards: Sequence[int], trump: int) -> int:
    """The position in ``cards`` of the card that takes the trick, by the game's ranks."""
    if not _forty_one(view):
        return trick_winner_index(cards, trump)
    led = cards[0] // 13

    def key(c: int) -> int:
        s, r = divmod(c, 13)
        return 100 + r if s == HEARTS else (1 + r if s == led else 0)

    keys = [key(c) for c in cards]
    return keys.index(max(keys))


def _trumps(view: dict[str, Any], trump: int) -> int:
    return SUIT_MASKS[HEARTS] if _forty_one(view) else TRUMPS[trump]


def _above(view: dict[str, Any], trump: int, c: int) -> int:
    """The trumps that outrank trump ``c``."""
    if not _forty_one(view):
        return ABOVE[trump][c]
    return sum(1 << x for x in range(c + 1, 13 * HEARTS + 13))


def _best_first(view: dict[str, Any], trump: int, mask: int) -> list[str]:
    """The trumps of ``mask``, best first, as records write them."""
    order = (list(range(13 * HEARTS + 12, 13 * HEARTS - 1, -1)) if _forty_one(view)
             else list(TRUMP_ORDER[trump]))
    return [_name(c) for c in order if mask >> c & 1]


def _name(c: int) -> str:
    return "23456789TJQKA"[c % 13] + SUITS[c // 13]


def _played(view: dict[str, Any]) -> int:
    """Every card played this hand, the trick on the table's included."""
    names = [c for tr in view.get("tricks") or [] for c in tr["cards"]]
    names += list((view.get("trick") or {}).get("cards") or [])
    return mask_of_names(names)


def reason(view: dict[str, Any], action: Action) -> Reason:
    """Why ``action`` for the seat whose ``view`` this is, in facts of that view."""
    phase = view.get("phase")
    try:
        if action.verb is Verb.PLAY and phase == "play":
            return _play(view, action)
        if action.verb is Verb.DISCARD and phase == "draw":
            return _discard(view, action)
        if _forty_one(view) and action.verb is Verb.BID:
            return _bid41(view)
        if phase in ("auction", "raise") and action.verb in (Verb.BID, Verb.HOLD, Verb.PASS,
                                                            Verb.RAISE):
            return _auction(view, action)
        if action.verb is Verb.TRUMP:
            suit = int(action.arg)
            mine = mask_of_names(view["hand"]) & TRUMPS[suit]
            return {"code": "trump_cards", "params": {
                "suit": SUITS[suit], "cards": _best_first(view, suit, mine),
                "count": bin(mine).count("1")}}
    except (KeyError, TypeError, ValueError, IndexError):  # a view this does not know
        pass
    return {"code": "searched", "params": {}}


def _play(view: dict[str, Any], action: Action) -> Reason:
    card = action.arg.bit_length() - 1
    trump = SUITS.index(view["trump"])
    tset = _trumps(view, trump)
    hand = mask_of_names(view["hand"])
    trick_view = view.get("trick") or {}
    trick = [parse_card(c) for c in trick_view.get("cards") or []]
    n, seat = view["players"], view["seat"]
    wins = not trick or _winner(view, [*trick, card], trump) == len(trick)
    out = (_played(view) | hand) & ~(1 << card)  # (the cards nobody else may hold)
    name = _name(card)
    if wins and tset >> card & 1 and not _above(view, trump, card) & tset & ~out:
        return {"code": "top_trump", "params": {"card": name}}
    if trick and wins and len(trick) == n - 1:
        return {"code": "takes_trick", "params": {"card": name}}
    if trick and not wins:
        best = (trick_view["leader"] + _winner(view, trick, trump)) % n
        if best != seat and any(best in side and seat in side for side in view["sides"]):
            return {"code": "partner_winning", "params": {"card": name, "seat": best}}
    if trick and wins:
        return {"code": "beats_so_far", "params": {"card": name}}
    kept = hand & tset & ~(1 << card)
    if not tset >> card & 1 and kept:
        return {"code": "keeps_trumps", "params": {
            "card": name, "cards": _best_first(view, trump, kept)[:2],
            "count": bin(kept).count("1")}}
    legal = [parse_card(a.split()[2]) for a in view.get("legal") or []
             if a.split()[1] == "play"]
    if trick and not any(_winner(view, [*trick, c], trump) == len(trick) for c in legal):
        return {"code": "cannot_win", "params": {"card": name}}
    return {"code": "searched", "params": {}}


def _discard(view: dict[str, Any], action: Action) -> Reason:
    hand = mask_of_names(view["hand"])
    thrown = int(action.arg)
    if not thrown:
        return {"code": "discard_none", "params": {}}
    trump = SUITS.index(view["trump"])
    kept = hand & ~thrown
    trumps = _best_first(view, trump, kept & TRUMPS[trump])
    others = sorted((c for c in cards_of(kept & ~TRUMPS[trump])),
                    key=lambda c: (-(c % 13 == ACE), -(c % 13), c // 13))
    cards = trumps + [_name(c) for c in others]
    back = HAND - len(cards)  # what the dealer deals back: a Forty-Fives hand is five
    if back <= 0:
        return {"code": "discard_down", "params": {"cards": cards}}
    return {"code": "discard_keeps", "params": {"cards": cards, "count": back}}


def _auction(view: dict[str, Any], action: Action) -> Reason:
    hand = mask_of_names(view["hand"])

    def weight(s: int) -> tuple[int, list[int]]:
        mine = hand & TRUMPS[s]
        return bin(mine).count("1"), [-TRUMP_ORDER[s].index(c) for c in cards_of(mine)]

    suit = max(range(4), key=lambda s: (weight(s)[0], sorted(weight(s)[1], reverse=True)))
    mine = hand & TRUMPS[suit]
    code = "pass_trumps" if action.verb is Verb.PASS else "bid_trumps"
    return {"code": code, "params": {"suit": SUITS[suit], "cards": _best_first(view, suit, mine),
                                     "count": bin(mine).count("1")}}


def _bid41(view: dict[str, Any]) -> Reason:
    hand = mask_of_names(view["hand"])
    ranks = [c % 13 for c in cards_of(hand)]
    return {"code": "bid41", "params": {
        "aces": ranks.count(ACE), "kings": ranks.count(KING),
        "hearts": bin(hand & SUIT_MASKS[HEARTS]).count("1")}}


def words(got: Reason) -> str:
    """A reason in English, cards as records write them (for logs and the terminal)."""
    p = got["params"]
    cards = ", ".join(p.get("cards") or [])
    return {
        "top_trump": f"the {p.get('card')} is the highest trump still out: nobody can take "
                     "the trick from it",
        "takes_trick": f"the {p.get('card')} takes the trick: you play last",
        "partner_winning": f"your partner is winning the trick: the {p.get('card')} leaves "
                           "it to them",
        "beats_so_far": f"the {p.get('card')} beats every card played so far",
        "keeps_trumps": f"keeps your trumps ({cards}) for the later tricks",
        "cannot_win": "no card you may play can take this trick",
        "discard_keeps": f"keeps {cards} and draws {p.get('count')}",
        "discard_down": f"keeps {cards} and throws the rest",
        "discard_none": "keeps every card",
        "bid_trumps": f"with {p.get('suit')} trump you hold {p.get('count')} trumps: {cards}",
        "pass_trumps": f"your most trumps in one suit: {p.get('count')} in {p.get('suit')}",
        "trump_cards": f"your trumps in {p.get('suit')}: {cards}",
        "bid41": f"aces: {p.get('aces')}, kings: {p.get('kings')}, hearts (trumps): "
                 f"{p.get('hearts')}",
    }.get(got["code"], "the best choice the search found")
