"""Imagined deals ("worlds") consistent with everything one seat has seen.

Hard facts: the seat's own cards, its discards, the kitty if it took it, the
pack if it robbed it, cards played, face-up and robbed cards and who holds them,
and what the following rules forced (a player who did not follow a trump lead
holds no trump he could not withhold; with suit-or-trump, one who neither
followed nor trumped is void). Every 45s world is replayed through the engine, so
one in which any play would have been illegal is never returned; a Forty One world
after the first is a copy of it with other hidden cards, which the facts alone keep
legal (``_moved``).

Soft facts shape the odds: a player keeps his best cards in the draw (the cards
he kept are more likely trumps and kings than the ones he drew), and a bidder is
more likely to hold high trumps. Forty One: a high bid makes hearts and aces
more likely.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..actions import Action, Verb
from ..cards import FULL_DECK, HEARTS, SUIT_MASKS, parse_card, parse_suit
from ..cards import cards_of as _bits
from ..cards import mask_of_names as _mask
from ..fortyfives import ABOVE, PRIVILEGED, TRUMPS, FortyFivesState
from ..fortyone import FortyOneState
from ..position import forty_fives_position, forty_one_position
from ..rules import FortyFivesRules, FortyOneRules, rules_from_json
from ..state import Deal, GameState, IllegalActionError


@dataclass
class Knowledge:
    """What one seat knows of the cards in play, read from its view."""

    seat: int
    n: int
    mine: int  # my current hand
    plays: list[Action]  # every card played this hand, in order
    played: int  # their mask
    fixed: list[int]  # cards known to be in each seat's hand now
    forbid: list[int]  # cards each seat cannot hold now
    sizes: list[int]  # cards each seat holds now
    unknown: int  # cards whose place is unknown to the seat
    weights: list[dict[int, float]]  # per seat, extra weight of some cards


def _plays(view: dict[str, Any]) -> list[Action]:
    n = view["players"]
    out = []
    tricks = [*view["tricks"], *([view["trick"]] if view.get("trick") else [])]
    for t in tricks:
        for i, name in enumerate(t["cards"]):
            out.append(Action((t["leader"] + i) % n, Verb.PLAY, 1 << parse_card(name)))
    return out


def _follow_forbid(view: dict[str, Any], plays: list[Action], trump: int,
                   rules: FortyFivesRules | None) -> list[int]:
    """Cards each seat cannot hold now, from what it did not follow."""
    n = view["players"]
    forbid = [0] * n
    i = 0
    while i < len(plays):
        trick = plays[i:i + n]
        led = trick[0].arg.bit_length() - 1
        for a in trick[1:]:
            c = a.arg.bit_length() - 1
            if rules is None:  # Forty One: follow suit
                if c // 13 != led // 13:
                    forbid[a.seat] |= SUIT_MASKS[led // 13]
                continue
            tm = TRUMPS[trump]
            if (1 << led) & tm:
                if not (1 << c) & tm:
                    if led == 38 and rules.hearts_on_hearts:
                        forbid[a.seat] |= tm
                        if trump != HEARTS and c // 13 != HEARTS:
                            forbid[a.seat] |= SUIT_MASKS[HEARTS]
                    else:
                        exempt = PRIVILEGED[rules.renege][trump] & ABOVE[trump][led]
                        forbid[a.seat] |= tm & ~exempt
            elif rules.follow == "suit-or-trump":
                suit = SUIT_MASKS[led // 13] & ~tm
                if not (1 << c) & (suit | tm):
                    forbid[a.seat] |= suit
        i += n
    return forbid


# ``kings``: the weight of each off-suit king of a seat that kept cards in the draw
KING_WEIGHT = 4.0


def knowledge(view: dict[str, Any], soft: bool = True, kings: bool = False) -> Knowledge:
    """Read a seat's view into hard and soft facts about the hidden cards (with
    ``soft`` False, the hard facts alone: every card equally likely within them; with
    ``kings``, a seat that kept cards in the draw is dealt off-suit kings more often too,
    as ``basic`` keeps them with few trumps: ``expert-calib``'s proposal)."""
    seat, n = view["seat"], view["players"]
    mine = _mask(view["hand"])
    plays = _plays(view)
    played = 0
    for a in plays:
        played |= a.arg
    counts = [0] * n
    for a in plays:
        counts[a.seat] += 1
    hand_size = 13 if view["game"] == "forty-one" else 5
    sizes = [hand_size - counts[s] for s in range(n)]
    fixed = [0] * n
    fixed[seat] = mine
    weights: list[dict[int, float]] = [{} for _ in range(n)]
    if view["game"] == "forty-one":
        forbid = _follow_forbid(view, plays, HEARTS, None)
        seen = mine | played
        for s in range(n):
            bid = view["bids"][s] or 0
            if s != seat and bid:
                for c in _bits(SUIT_MASKS[HEARTS]):
                    weights[s][c] = 1.0 + 0.25 * bid * (c % 13) / 12
                for su in range(4):
                    weights[s][su * 13 + 12] = 1.0 + 0.3 * bid
    else:
        rules = rules_from_json(view["rules"])
        assert isinstance(rules, FortyFivesRules)
        trump = parse_suit(view["trump"])
        forbid = _follow_forbid(view, plays, trump, rules)
        seen = mine | played | _mask(view["my_discards"])
        if view.get("kitty"):
            seen |= _mask(view["kitty"])
        if view.get("pack"):
            seen |= _mask(view["pack"])
        for s, names in enumerate(view.get("face_up_held") or []):
            if s != seat:
                fixed[s] |= _mask(names)
        up = view.get("up_card")
        if view.get("robbed") and up and view.get("robber") not in (None, seat):
            c = parse_card(up)
            if not (played | mine) >> c & 1:
                fixed[view["robber"]] |= 1 << c
        elif up and view.get("robber") is None:
            seen |= 1 << parse_card(up)  # the turned-up card stays on the stock
        for s in range(n):
            if s == seat:
                continue
            w = 1.0 + 0.4 * _kept(view, s) + (2.0 if view.get("bidder") == s else 0.0)
            if w > 1.0:
                for c in _bits(TRUMPS[trump]):
                    weights[s][c] = w
            if kings and _kept(view, s) > 0:
                for su in range(4):
                    if not TRUMPS[trump] >> (su * 13 + 11) & 1:
                        weights[s][su * 13 + 11] = KING_WEIGHT
    unknown = FULL_DECK & ~seen
    for f in fixed:
        unknown &= ~f
    if not soft:
        weights = [{} for _ in range(n)]
    return Knowledge(seat, n, mine, plays, played, fixed, forbid, sizes, unknown, weights)


def start_knowledge(k: Knowledge) -> Knowledge:
    """What ``k``'s seat knew of the hidden cards when the play began: its own cards then,
    and every card the others have played since back among the unknown ones, with the
    same soft facts and no voids read from the play (``expert-calib`` divides out the
    odds the sampler gave each seat's hand then)."""
    back = [0] * k.n
    for a in k.plays:
        back[a.seat] |= a.arg
    mine = k.mine | back[k.seat]
    unknown = k.unknown
    for s in range(k.n):
        if s != k.seat:
            unknown |= back[s]
    fixed = list(k.fixed)
    fixed[k.seat] = mine
    sizes = [k.sizes[s] + back[s].bit_count() for s in range(k.n)]
    return Knowledge(k.seat, k.n, mine, [], 0, fixed, [0] * k.n, sizes, unknown, k.weights)


def _kept(view: dict[str, Any], s: int) -> int:
    """How many of seat ``s``'s cards it chose to keep in the draw (0 with no draw)."""
    counts = view.get("discard_counts") or []
    if not counts or view.get("up_card"):
        return 0
    extra: int = view["kitty_size"] if view.get("bidder") == s else 0
    kept: int = 5 + extra - counts[s]
    return max(0, min(5, kept))


def deal_world(k: Knowledge, rng: random.Random) -> list[int] | None:
    """Each seat's current hand in one world, or None if this try got stuck."""
    hands = list(k.fixed)
    pool = k.unknown
    order = [s for s in range(k.n) if s != k.seat]
    # The most constrained seats choose first, so a void does not strand cards.
    order.sort(key=lambda s: (bin(k.unknown & ~k.forbid[s]).count("1") - k.sizes[s],
                              rng.random()))
    for s in order:
        need = k.sizes[s] - hands[s].bit_count()
        if need <= 0:
            continue
        allowed = _bits(pool & ~k.forbid[s])
        if len(allowed) < need:
            return None
        w = k.weights[s]
        if w:
            chosen = _weighted_sample(allowed, [w.get(c, 1.0) for c in allowed], need, rng)
        else:
            chosen = rng.sample(allowed, need)
        for c in chosen:
            hands[s] |= 1 << c
            pool &= ~(1 << c)
    return hands


def _weighted_sample(items: list[int], weights: list[float], k: int,
                     rng: random.Random) -> list[int]:
    """``k`` distinct items drawn with probability proportional to weight."""
    rand = rng.random
    keys = [-rand() ** (1.0 / w) for w in weights]  # drawn in order, as sorted's keys were
    keyed = sorted(range(len(items)), key=keys.__getitem__)
    return [items[i] for i in keyed[:k]]


def worlds(view: dict[str, Any], count: int, rng: random.Random,
           tries: int = 20) -> list[GameState]:
    """Up to ``count`` play positions consistent with ``view`` (the seat's own)."""
    k = knowledge(view)
    out: list[GameState] = []
    rules = rules_from_json(view["rules"])
    attempts = 0
    first: FortyOneState | None = None
    while len(out) < count and attempts < count * tries:
        attempts += 1
        hands = deal_world(k, rng)
        if hands is None:
            continue
        start = list(hands)
        for a in k.plays:
            start[a.seat] |= a.arg
        if first is not None:
            out.append(_moved(first, hands, start))
            continue
        try:
            w = _position(view, rules, start, k.plays)
        except IllegalActionError:
            continue
        if isinstance(w, FortyOneState):
            first = w
        out.append(w)
    return out


def _moved(first: FortyOneState, hands: list[int], start: list[int]) -> FortyOneState:
    """The Forty One world of ``first`` with other hidden cards: the same bids and plays
    (so the same tricks, takers and turn, which depend on the cards played alone), dealt
    ``start`` and now holding ``hands``. Replaying it through the engine would accept
    it, as every play was legal: the world's hands hold no card of a suit their seat
    showed out of (``Knowledge.forbid``), and that is all Forty One's one rule, follow
    suit, asks. A deal costs a copy instead of a replay of every bid and card."""
    w = first.clone()
    assert isinstance(w, FortyOneState)
    w.hands = list(hands)
    w.deal = Deal(tuple(tuple(_bits(h)) for h in start))
    return w


def _position(view: dict[str, Any], rules: Any, start: list[int],
              plays: list[Action]) -> GameState:
    scores = view["scores"]
    if isinstance(rules, FortyOneRules):
        bids = [b or 1 for b in view["bids"]]
        p1: FortyOneState = forty_one_position(rules, dealer=view["dealer"], start_hands=start,
                                               bids=bids, scores=scores, plays=plays)
        return p1
    trump = parse_suit(view["trump"])
    called = view.get("called")
    called_bit = -1 if called is None else 0 if called == "none" else 1 << parse_card(called)
    up = view.get("up_card")
    if rules.auction == "none":
        # Traditional 45 keeps running totals: rebuild the totals before the hand.
        scores = list(scores)
        for side, pts in enumerate(view["points"]):
            scores[side] -= pts
    p: FortyFivesState = forty_fives_position(
        rules, dealer=view["dealer"], start_hands=start, trump=trump,
        bidder=-1 if view["bidder"] is None else view["bidder"],
        bid=_bid_value(view["bid"]), scores=scores, plays=plays, called=called_bit,
        up_card=parse_card(up) if up else -1)
    return p


def _bid_value(text: str | None) -> int:
    if not text:
        return 0
    from ..actions import parse_bid

    return parse_bid(text)
