"""The research interfaces' fixed action ids and observation arrays.

One action space per game, the same for every preset and house rule of it, so a
policy trained on one preset reads another's positions:

Forty-Fives (``FF_ACTIONS`` = 648 ids):

==========  ==========================================================================
id          meaning
==========  ==========================================================================
0           pass (the auction, the raise, robbing, robbing the pack)
1           hold (the dealer takes the bid)
2           raise to 30
3-10        bid 5, 10, 15, 20, 25, 30, 30-for-60, 60-for-120
11-14       name trump: clubs, diamonds, hearts, spades
15          go on the kitty (or, having gone on it, on the top card): discard the hand
16-67       card ``c`` (0-51): play it; rob the turned-up card giving ``c``; call ``c``
68          call no partner (go alone)
69-580      the draw: discard the cards of hand slots ``m = id - 69``, a 9-bit mask
            over the seat's hand sorted by card index (bit 0 the lowest card); 69 keeps
            every card
581-632     robbing the pack, one card at a time: pick card ``c`` (from the hand to
            give, or from the pack to take)
633         rob the pack: give and take the cards picked (as many of each, one or more)
634-643     "booked?" (the option ``booked``): ask seat ``id - 634``
644, 645    answer "booked?": no, yes (only the truth is legal)
646, 647    told yes: fold, or stay and play
==========  ==========================================================================

Forty One (``FO_ACTIONS`` = 65 ids): 0-12 bid 1 to 13 tricks; 13-64 play card ``c``.

A card ``c`` is ``suit * 13 + rank`` (clubs, diamonds, hearts, spades; two to ace),
as everywhere in forties.

The observation is a float32 vector made from the seat's view alone
(``GameState.view(seat)``); ``Layout`` names its blocks. Seats are relative: block
row ``r`` is the seat ``r`` places to the observer's left (row 0 is the observer), and
the scoring sides are listed by their nearest seat the same way (the observer's side
first). ``observe`` builds it from a view; the compiled environment builds the same
array from its tables (``forties.envs.kernels``), and the tests hold them equal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..actions import BID_30_FOR_60, BID_60_FOR_120, Action, Verb, parse_bid
from ..cards import SUITS, parse_card
from ..cards import cards_of as _cards
from ..errors import FortiesError
from ..rules import FortyFivesRules, Rules
from ..state import Phase

# ----- action ids -------------------------------------------------------------------------

PASS, HOLD, RAISE = 0, 1, 2
BID0 = 3
LADDER = (5, 10, 15, 20, 25, 30, BID_30_FOR_60, BID_60_FOR_120)
TRUMP0 = 11
GO_ON = 15
CARD0 = 16
CALL_NONE = 68
DISCARD0 = 69
DISCARD_SLOTS = 9
PICK0 = DISCARD0 + (1 << DISCARD_SLOTS)  # 581
ROB_PACK = PICK0 + 52  # 633
ASK0 = ROB_PACK + 1  # 634: ask seat id - ASK0 "booked?"
ANSWER0 = ASK0 + 10  # 644: no, 645: yes
FOLD, STAY = ANSWER0 + 2, ANSWER0 + 3  # 646, 647
FF_ACTIONS = STAY + 1  # 648

FO_BID0 = 0
FO_CARD0 = 13
FO_ACTIONS = FO_CARD0 + 52  # 65

PHASES = tuple(Phase)
# A side's score is observed as score / target, clipped to this either way, so that every
# observation lies in finite bounds (a score can fall without limit in principle).
SCORE_CLIP = 2.0
_LADDER_INDEX = {v: i for i, v in enumerate(LADDER)}


class ActionIdError(FortiesError, ValueError):
    """An action id that is not legal now (or not an id at all)."""


class EpisodeError(FortiesError, RuntimeError, ValueError):
    """A call the episode is not ready for: before ``reset()``, or after its end. (A
    RuntimeError, as ``env.game`` raised before ``reset()``, and a ValueError, as the
    environments' other refusals.)"""


def action_count(rules: Rules) -> int:
    """The size of the action space of ``rules``' game."""
    return FF_ACTIONS if isinstance(rules, FortyFivesRules) else FO_ACTIONS


def slot_mask(hand: int, cards: int) -> int:
    """``cards`` (a subset of ``hand``) as a mask over ``hand``'s slots, lowest card first."""
    m = 0
    for i, c in enumerate(_cards(hand)):
        if cards >> c & 1:
            m |= 1 << i
    return m


def slot_cards(hand: int, slots: int) -> int:
    """The cards of ``hand`` in the slots of ``slots``."""
    out = 0
    for i, c in enumerate(_cards(hand)):
        if slots >> i & 1:
            out |= 1 << c
    return out


def action_id(action: Action, phase: Phase, hand: int, forty_one: bool) -> int:
    """The id of a legal ``action`` of a seat holding ``hand`` in ``phase``."""
    v, arg = action.verb, action.arg
    if forty_one:
        return FO_BID0 + arg - 1 if v is Verb.BID else FO_CARD0 + arg.bit_length() - 1
    if v is Verb.PLAY or v is Verb.ROB or (v is Verb.CALL and arg):
        return CARD0 + arg.bit_length() - 1
    if v is Verb.PASS:
        return PASS
    if v is Verb.BID:
        return BID0 + _LADDER_INDEX[arg]
    if v is Verb.HOLD:
        return HOLD
    if v is Verb.RAISE:
        return RAISE
    if v is Verb.TRUMP:
        return TRUMP0 + arg
    if v is Verb.CALL:
        return CALL_NONE
    if v is Verb.ASK:
        return ASK0 + arg
    if v is Verb.ANSWER:
        return ANSWER0 + arg
    if v is Verb.FOLD:
        return FOLD
    if v is Verb.STAY:
        return STAY
    if phase is Phase.TRUMP or phase is Phase.RAISE:  # the whole hand: going on
        return GO_ON
    return DISCARD0 + slot_mask(hand, arg)


def pack_pick_mask(hand: int, pile: int, picks: int) -> int:
    """The cards the dealer may pick next when robbing the pack, having picked ``picks``:
    as many to give (from the hand) as to take (from the pack), at most the smaller of
    the two, so that the picks can always be made even."""
    most = min(hand.bit_count(), pile.bit_count())
    give = (picks & hand).bit_count()
    take = (picks & pile).bit_count()
    out = 0
    if give < most:
        out |= hand & ~picks
    if take < most:
        out |= pile & ~picks
    return out


def pack_may_rob(hand: int, pile: int, picks: int) -> bool:
    give = (picks & hand).bit_count()
    return give > 0 and give == (picks & pile).bit_count()


# ----- the observation --------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """The blocks of one game's observation vector: name -> (start, shape)."""

    blocks: tuple[tuple[str, int, tuple[int, ...]], ...]
    size: int

    def start(self, name: str) -> int:
        for b, start, _ in self.blocks:
            if b == name:
                return start
        raise KeyError(name)

    def shape(self, name: str) -> tuple[int, ...]:
        for b, _, shape in self.blocks:
            if b == name:
                return shape
        raise KeyError(name)

    def view(self, obs: npt.NDArray[np.float32], name: str) -> npt.NDArray[np.float32]:
        """Block ``name`` of ``obs`` (the last axis), in its shape."""
        start, shape = self.start(name), self.shape(name)
        size = int(np.prod(shape))
        return obs[..., start:start + size].reshape(*obs.shape[:-1], *shape)


def _build(blocks: Sequence[tuple[str, tuple[int, ...]]]) -> Layout:
    out = []
    pos = 0
    for name, shape in blocks:
        out.append((name, pos, shape))
        pos += int(np.prod(shape))
    return Layout(tuple(out), pos)


def forty_fives_layout(n: int, sides: int) -> Layout:
    L = len(LADDER)
    return _build([
        ("hand", (52,)), ("trick", (n, 52)), ("played", (n, 52)), ("phase", (len(PHASES),)),
        ("to_act", (n,)), ("dealer", (n,)), ("leader", (n,)), ("trump", (4,)),
        ("up_card", (52,)), ("robbed", (1,)), ("robber", (n,)), ("passed", (n,)),
        ("held", (n,)), ("top_bid", (n, L)), ("high_bid", (L,)), ("high_bidder", (n,)),
        ("bidder", (n,)), ("bid", (L,)), ("kitty", (52,)), ("my_discards", (52,)),
        ("discard_counts", (n,)), ("pack", (52,)), ("pack_robbed", (1,)),
        ("face_up", (52,)), ("face_up_held", (n, 52)), ("called", (52,)),
        ("called_none", (1,)), ("partner", (n,)), ("scores", (sides,)),
        ("points", (sides,)), ("games", (sides,)), ("picks", (52,)),
        ("asked", (n,)), ("answer", (2,)), ("folded", (1,)),
    ])


def forty_one_layout() -> Layout:
    return _build([
        ("hand", (52,)), ("trick", (4, 52)), ("played", (4, 52)), ("phase", (10,)),
        ("to_act", (4,)), ("dealer", (4,)), ("leader", (4,)), ("bids", (4, 14)),
        ("taken", (4,)), ("scores", (4,)), ("games", (4,)),
    ])


def layout_for(rules: Rules) -> Layout:
    if isinstance(rules, FortyFivesRules):
        return forty_fives_layout(rules.players, len(rules.sides))
    return forty_one_layout()


def side_order(sides: Sequence[Sequence[int]], n: int, me: int) -> list[int]:
    """The sides, nearest first: the observer's own, then by their seat nearest his left."""
    return sorted(range(len(sides)), key=lambda x: min((s - me) % n for s in sides[x]))


class Encoder:
    """Action ids and observations for one set of rules (see the module's doc)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.forty_one = not isinstance(rules, FortyFivesRules)
        self.n = rules.players
        self.layout = layout_for(rules)
        self.actions = action_count(rules)
        self.target = rules.target
        self.auction = isinstance(rules, FortyFivesRules) and rules.auction != "none"
        self._starts = {name: start for name, start, _ in self.layout.blocks}

    # ----- actions --------------------------------------------------------------------

    def mask(self, phase: Phase, legal: Sequence[Action], hand: int, pile: int = 0,
             picks: int = 0) -> npt.NDArray[np.int8]:
        """The legal ids (1) of a seat with these ``legal`` actions, holding ``hand``
        (robbing the pack: with the pack ``pile`` and its ``picks`` so far)."""
        out = np.zeros(self.actions, dtype=np.int8)
        if not legal:
            return out
        if phase is Phase.PACK:
            if not picks:
                out[PASS] = 1
            for c in _cards(pack_pick_mask(hand, pile, picks)):
                out[PICK0 + c] = 1
            if pack_may_rob(hand, pile, picks):
                out[ROB_PACK] = 1
            return out
        sizes = getattr(legal, "sizes", None)
        if phase is Phase.DRAW and isinstance(sizes, range):
            # every subset of the hand with a size in ``sizes``: its slot masks, directly
            m = hand.bit_count()
            for slots in range(1 << m):
                if slots.bit_count() in sizes:
                    out[DISCARD0 + slots] = 1
            return out
        for a in legal:
            out[action_id(a, phase, hand, self.forty_one)] = 1
        return out

    def decode(self, i: int, seat: int, phase: Phase, hand: int) -> Action:
        """The action of id ``i`` for ``seat`` holding ``hand`` in ``phase`` (not the
        picks of robbing the pack, which the environments keep); not checked."""
        if self.forty_one:
            if i < FO_CARD0:
                return Action(seat, Verb.BID, i - FO_BID0 + 1)
            return Action(seat, Verb.PLAY, 1 << (i - FO_CARD0))
        if CARD0 <= i < CALL_NONE:
            verb = {Phase.ROB: Verb.ROB, Phase.CALL: Verb.CALL}.get(phase, Verb.PLAY)
            return Action(seat, verb, 1 << (i - CARD0))
        if i == PASS:
            return Action(seat, Verb.PASS)
        if i == HOLD:
            return Action(seat, Verb.HOLD)
        if i == RAISE:
            return Action(seat, Verb.RAISE, 30)
        if BID0 <= i < TRUMP0:
            return Action(seat, Verb.BID, LADDER[i - BID0])
        if TRUMP0 <= i < GO_ON:
            return Action(seat, Verb.TRUMP, i - TRUMP0)
        if i == GO_ON:
            return Action(seat, Verb.DISCARD, hand)
        if i == CALL_NONE:
            return Action(seat, Verb.CALL, 0)
        if ASK0 <= i < ANSWER0:
            return Action(seat, Verb.ASK, i - ASK0)
        if i in (ANSWER0, ANSWER0 + 1):
            return Action(seat, Verb.ANSWER, i - ANSWER0)
        if i == FOLD:
            return Action(seat, Verb.FOLD)
        if i == STAY:
            return Action(seat, Verb.STAY)
        if DISCARD0 <= i < PICK0:
            return Action(seat, Verb.DISCARD, slot_cards(hand, i - DISCARD0))
        raise ActionIdError(f"action id {i} is not an action of its own")

    # ----- the observation ------------------------------------------------------------

    def observe(self, view: dict[str, Any], picks: int = 0) -> npt.NDArray[np.float32]:
        """The observation of the seat whose ``view`` this is (``picks``: the cards it
        has picked so far in robbing the pack)."""
        obs = np.zeros(self.layout.size, dtype=np.float32)
        starts = self._starts
        me, n = view["seat"], self.n

        def rel(s: int) -> int:
            return int((s - me) % n)

        def put_cards(name: str, names: Sequence[str], row: int = 0) -> None:
            base = starts[name] + 52 * row
            for c in names:
                obs[base + parse_card(c)] = 1.0

        put_cards("hand", view["hand"])
        phase = Phase(view["phase"])
        obs[starts["phase"] + PHASES.index(phase)] = 1
        if view["to_act"] is not None:
            obs[starts["to_act"] + rel(view["to_act"])] = 1
        obs[starts["dealer"] + rel(view["dealer"])] = 1
        trick = view["trick"]
        if trick is not None:
            obs[starts["leader"] + rel(trick["leader"])] = 1
            for i, c in enumerate(trick["cards"]):
                obs[starts["trick"] + 52 * rel(trick["leader"] + i) + parse_card(c)] = 1
        for t in view["tricks"]:
            for i, c in enumerate(t["cards"]):
                obs[starts["played"] + 52 * rel(t["leader"] + i) + parse_card(c)] = 1
        order = side_order(view["sides"], n, me)
        for i, x in enumerate(order):
            obs[starts["games"] + i] = view["games"][x] / 2
            obs[starts["scores"] + i] = min(max(view["scores"][x] / self.target, -SCORE_CLIP),
                                            SCORE_CLIP)
        if self.forty_one:
            for s in range(4):
                obs[starts["bids"] + 14 * rel(s) + (view["bids"][s] or 0)] = 1
                obs[starts["taken"] + rel(s)] = view["taken"][s] / 13
            return obs
        for i, x in enumerate(order):
            obs[starts["points"] + i] = view["points"][x] / 30
        if view["trump"] is not None:
            obs[starts["trump"] + SUITS.index(view["trump"])] = 1
        if view["up_card"] is not None:
            obs[starts["up_card"] + parse_card(view["up_card"])] = 1
        if view["robbed"]:
            obs[starts["robbed"]] = 1
            obs[starts["robber"] + rel(view["robber"])] = 1
        bidder = view["bidder"]
        pack_robbed = False
        top = [0] * n
        held = [False] * n
        passed = [False] * n
        for text in view["history"]:
            parts = text.split()
            s, verb = int(parts[0]), parts[1]
            if verb == "bid":
                top[s] = max(top[s], parse_bid(parts[2]))
            elif verb == "hold":
                held[s] = True
            elif verb == "pass" and self.auction and s != bidder:
                passed[s] = True  # the bidder's pass is the raise's, not the auction's
            elif verb == "rob" and self.auction:
                pack_robbed = True
        L = len(LADDER)
        for s in range(n):
            r = rel(s)
            obs[starts["passed"] + r] = passed[s]
            obs[starts["held"] + r] = held[s]
            if top[s]:
                obs[starts["top_bid"] + L * r + _LADDER_INDEX[top[s]]] = 1
            obs[starts["discard_counts"] + r] = view["discard_counts"][s] / 9
            put_cards("face_up_held", view["face_up_held"][s], r)
        if view["high_bid"] is not None:
            obs[starts["high_bid"] + _LADDER_INDEX[parse_bid(view["high_bid"])]] = 1
            obs[starts["high_bidder"] + rel(view["high_bidder"])] = 1
        if bidder is not None:
            obs[starts["bidder"] + rel(bidder)] = 1
            obs[starts["bid"] + _LADDER_INDEX[parse_bid(view["bid"])]] = 1
        if view["kitty"] is not None:
            put_cards("kitty", view["kitty"])
        put_cards("my_discards", view["my_discards"])
        if view["pack"] is not None:
            put_cards("pack", view["pack"])
        obs[starts["pack_robbed"]] = pack_robbed
        put_cards("face_up", view["face_up"])
        called = view["called"]
        if called == "none":
            obs[starts["called_none"]] = 1
        elif called is not None:
            put_cards("called", [called])
        if view["partner"] is not None:
            obs[starts["partner"] + rel(view["partner"])] = 1
        for c in _cards(picks):
            obs[starts["picks"] + c] = 1
        booked = view.get("booked")
        if booked is not None:
            if booked["asked"] is not None:
                obs[starts["asked"] + rel(booked["asked"])] = 1
            if booked["answer"] is not None:
                obs[starts["answer"] + (booked["answer"] == "yes")] = 1
            obs[starts["folded"]] = booked["folded"]
        return obs

    def bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The observation's lowest and highest values: 0 and 1, but for the scores
        (clipped to +-``SCORE_CLIP`` targets) and the discard counts (a dealer who robs
        the pack may have discarded more than nine cards; no seat more than 52)."""
        low = np.zeros(self.layout.size, dtype=np.float32)
        high = np.ones(self.layout.size, dtype=np.float32)
        for name, start, shape in self.layout.blocks:
            size = int(np.prod(shape))
            if name == "scores":
                low[start:start + size] = -SCORE_CLIP
                high[start:start + size] = SCORE_CLIP
            if name == "discard_counts":
                high[start:start + size] = 52 / 9
        return low, high


__all__ = [
    "CARD0",
    "FF_ACTIONS",
    "FO_ACTIONS",
    "LADDER",
    "ActionIdError",
    "Encoder",
    "EpisodeError",
    "Layout",
    "action_count",
    "action_id",
    "layout_for",
]
