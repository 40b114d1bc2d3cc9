"""Computer players. They see a game only through the public API: the per-seat view
and the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from ..actions import Action
from ..record import Recorder


class Bot(Protocol):
    name: str

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action: ...


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


LEVELS = ("random", "basic", "expert", "oracle", "ismcts")
# Forty One's players by name, for measuring them against one another: the arena takes
# them, the tables do not offer them. ``expert-score`` is ``expert`` by its Forty One name
# (it searches for Forty One's score); ``expert-tricks`` is the earlier Forty One player
# (team tricks), which it beat in a duplicate match; ``oracle-tricks`` is the earlier
# oracle (team tricks).
# ``expert-infer`` plays 45s cards on imagined deals drawn by how likely each is to have
# produced the others' bids, draw and plays (``bots.infer``) in every preset; ``expert``
# does so only where a duplicate match showed it stronger (Auction 45, ``INFER_PRESETS``
# in ``bots.expert``); ``expert-plain`` never does (the expert as it was before that, but
# for its count of deals a card).
# ``expert-alphamu`` plays the last three cards of a 45s partnership hand keeping one card
# for all the imagined deals it cannot tell apart at its next turn (``bots.alphamu``, a
# relative of alpha-mu); it changed one card in a hundred, for nothing measurable.
# ``expert-bids41`` weighs its Forty One deals by how well the others' cards fit their bids.
# ``expert-wide`` plays its 45s cards on WIDE_WORLDS imagined deals with any number of
# players (less noise in each card's value, for about 2.7 times the time a card): it beat
# the expert of 96 deals a card, and ``expert`` now plays on as many with four players or
# fewer; ``expert-narrow`` is the expert as it was, 96 deals a card.
# ``oracle-blindN`` plays the first N tricks of a 45s hand as ``expert`` (from its own
# view), the rest as ``oracle``: how much of the oracle's edge rests on the early tricks.
# ``expert-policy`` weighs its 45s deals in every preset, reading each card the opponents
# played as ``basic`` would have played it (``bots.infer``); ``expert-types`` reads each
# opponent as one of two kinds of player, one who plays ``basic``'s card nearly always and
# one who plays it about six times in ten (``infer.POLICY_TYPES``); ``expert-pool`` is
# ``expert-policy`` choosing its deals from more drawn (``infer.POOL_OVERSAMPLE``);
# ``expert-partner`` is ``expert-policy`` reading its partner's cards as ``basic``'s too.
# ``expert-wide-bids`` values each 45s choice before the first card (bid, hold, raise,
# trump, discards) on WIDE_DEALS imagined deals instead of the expert's 120.
# ``expert-calib`` weighs its 45s deals in every preset (reading the opponents' cards where
# the default does) by a table of how many top trumps, trumps and off-suit kings each seat
# holds, its own knowledge kept (``infer.calib_features``; ``bench.infer calibration``).
# ``expert-model`` is ``expert-policy`` whose search, in each imagined deal, lets the
# opponents play ``basic``'s card instead of the solver's perfect defence (``bots.model``):
# what ``expert`` does when the table shows both its opponents as ``basic`` computers.
# ``expert-untold`` is ``expert`` told nothing of the seats (the default before it was
# told them): it never searches against ``basic``'s rule.
COMPARISON_LEVELS = ("expert-score", "expert-tricks", "oracle-tricks", "expert-infer",
                     "expert-alphamu", "expert-bids41", "expert-plain", "expert-wide",
                     "expert-narrow", "oracle-blind1", "oracle-blind2", "oracle-blind3",
                     "oracle-blind4", "expert-policy", "expert-types",
                     "expert-pool", "expert-partner", "expert-wide-bids", "expert-calib",
                     "expert-model", "expert-untold")
WIDE_WORLDS = 256
WIDE_DEALS = 480
NARROW_WORLDS = 96


# The seat's own turns that ``expert-alphamu`` searches with one card for all deals.
ALPHAMU_TURNS = 2


def unavailable(level: str) -> str | None:
    """Why ``level`` cannot play on this machine (None: it can)."""
    if level == "ismcts":
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            return "ismcts needs OpenSpiel: pip install 'forties[research]'"
    return None


def make_bot(level: str, rng: random.Random,
             seats: Sequence[str | None] | None = None) -> Bot:
    """A computer player of ``level`` (one of LEVELS).

    ``seats`` is what the table shows of each seat, as the people at it see it: a computer
    player's level, or None for a person. The ``expert`` whose two opponents are both
    ``basic`` computers plays its 45s cards against ``basic``'s rule
    (``ExpertBot.models_basic``); the comparison levels take no account of it."""
    from .basic import BasicBot
    from .expert import ExpertBot

    if level == "random":
        return RandomBot(rng)
    if level == "basic":
        return BasicBot()
    if level == "expert":
        return ExpertBot(rng, seats=seats)
    if level == "expert-untold":
        return ExpertBot(rng)
    if level == "expert-tricks":
        return ExpertBot(rng, forty_one="tricks")
    if level == "expert-score":
        return ExpertBot(rng, forty_one="score")
    if level == "expert-infer":
        return ExpertBot(rng, infer=True, policy=False)
    if level == "expert-policy":
        return ExpertBot(rng, policy=True)
    if level == "expert-types":
        from .infer import POLICY_TYPES

        bot = ExpertBot(rng, policy=True)
        bot.policy_types = POLICY_TYPES
        return bot
    if level == "expert-pool":
        from .infer import POOL_OVERSAMPLE

        bot = ExpertBot(rng, policy=True)
        bot.oversample = POOL_OVERSAMPLE
        return bot
    if level == "expert-partner":
        bot = ExpertBot(rng, policy=True)
        bot.read_partner = True
        return bot
    if level == "expert-calib":
        bot = ExpertBot(rng, infer=True)
        bot.calib = True
        return bot
    if level == "expert-model":
        from .expert import default_judge
        from .model import ModelJudge

        return ExpertBot(rng, policy=True, judge=ModelJudge(default_judge()))
    if level == "expert-plain":
        return ExpertBot(rng, infer=False)
    if level == "expert-bids41":
        from .expert import BID_SIGMA_41

        bot = ExpertBot(rng)
        bot.bid_sigma41 = BID_SIGMA_41
        return bot
    if level == "expert-alphamu":
        return ExpertBot(rng, alphamu=ALPHAMU_TURNS)
    if level == "expert-wide":
        return ExpertBot(rng, worlds=WIDE_WORLDS, policy=False)
    if level == "expert-narrow":
        return ExpertBot(rng, worlds=NARROW_WORLDS, policy=False)
    if level == "expert-wide-bids":
        return ExpertBot(rng, deals=WIDE_DEALS)
    if level.startswith("oracle-blind") and level in COMPARISON_LEVELS:
        from .oracle import BlindOracleBot

        return BlindOracleBot(rng, int(level.removeprefix("oracle-blind")))
    if level in ("oracle", "oracle-tricks"):
        from .oracle import OracleBot

        return OracleBot(rng, forty_one="tricks" if level == "oracle-tricks" else "score")
    if level == "ismcts":
        why = unavailable(level)
        if why:
            raise ValueError(why)
        from ..envs.spiel import IsmctsBot

        return IsmctsBot(rng)
    raise ValueError(f"unknown level {level!r}: {', '.join(LEVELS)}")


def play_out(rec: Recorder, bots: Sequence[Bot], max_hands: int = 500) -> None:
    """Computer players (one per seat) play ``rec``'s game to its end, or ``max_hands``."""
    st = rec.state
    hands = 1
    while True:
        while not st.hand_over:
            seat = st.turn
            assert seat is not None
            rec.apply(bots[seat].choose(st.view(seat), st.legal_actions()))
        if st.over or hands >= max_hands:
            return
        rec.next_hand()
        hands += 1
