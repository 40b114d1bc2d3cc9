"""The players kept to measure the product's against (the comparison levels): each by its
name, registered beside the product's levels (``forties.players.PLAYERS``) when this module is
imported, so that the arena, ``lab.strength`` and the tests take them; the tables never
offer them.

``expert-score`` is ``expert`` by its Forty One name (it searches for Forty One's score);
``expert-tricks`` is the earlier Forty One player (team tricks), which it beat in a
duplicate match; ``oracle-tricks`` is the earlier oracle (team tricks).

``expert-infer`` plays 45s cards on imagined deals drawn by how likely each is to have
produced the others' bids, draw and plays (``bots.infer``) in every preset; ``expert``
does so only where a duplicate match showed it stronger (Auction 45, ``INFER_PRESETS``
in ``bots.expert``); ``expert-plain`` never does (the expert as it was before that, but
for its count of deals a card).

``expert-alphamu`` plays the last three cards of a 45s partnership hand keeping one card
for all the imagined deals it cannot tell apart at its next turn (``bots.alphamu``, a
relative of alpha-mu); it changed one card in a hundred, for nothing measurable.
``expert-bids41`` weighs its Forty One deals by how well the others' cards fit their bids.

``expert-wide`` plays its 45s cards on WIDE_WORLDS imagined deals with any number of
players (less noise in each card's value, for about 2.7 times the time a card): it beat
the expert of 96 deals a card, and ``expert`` now plays on as many with four players or
fewer; ``expert-narrow`` is the expert as it was, 96 deals a card.

``oracle-blindN`` plays the first N tricks of a 45s hand as ``expert`` (from its own
view), the rest as ``oracle``: how much of the oracle's edge rests on the early tricks.

``expert-policy`` weighs its 45s deals in every preset, reading each card the opponents
played as ``basic`` would have played it (``bots.infer``); ``expert-types`` reads each
opponent as one of two kinds of player, one who plays ``basic``'s card nearly always and
one who plays it about six times in ten (``infer.POLICY_TYPES``); ``expert-pool`` is
``expert-policy`` choosing its deals from more drawn (``infer.POOL_OVERSAMPLE``);
``expert-partner`` is ``expert-policy`` reading its partner's cards as ``basic``'s too.

``expert-wide-bids`` values each 45s choice before the first card (bid, hold, raise,
trump, discards) on WIDE_DEALS imagined deals instead of the expert's 120.

``expert-calib`` weighs its 45s deals in every preset (reading the opponents' cards where
the default does) by a table of how many top trumps, trumps and off-suit kings each seat
holds, its own knowledge kept (``infer.calib_features``; ``lab.infer calibration``).

``expert-model`` is ``expert-policy`` whose search, in each imagined deal, lets the
opponents play ``basic``'s card instead of the solver's perfect defence (``bots.model``):
what ``expert`` does when the table shows both its opponents as ``basic`` computers.
``expert-untold`` is ``expert`` told nothing of the seats (the default before it was
told them): it never searches against ``basic``'s rule.
"""

from __future__ import annotations

import random

from forties.bots import Bot
from forties.bots.expert import BID_SIGMA_41, ExpertBot, default_judge
from forties.bots.infer import POLICY_TYPES, POOL_OVERSAMPLE
from forties.bots.model import ModelJudge
from forties.bots.oracle import BlindOracleBot, OracleBot
from forties.players import PLAYERS, Maker

WIDE_WORLDS = 256
WIDE_DEALS = 480
NARROW_WORLDS = 96
# The seat's own turns that ``expert-alphamu`` searches with one card for all deals.
ALPHAMU_TURNS = 2


def _types(rng: random.Random) -> Bot:
    bot = ExpertBot(rng, policy=True)
    bot.policy_types = POLICY_TYPES
    return bot


def _pool(rng: random.Random) -> Bot:
    bot = ExpertBot(rng, policy=True)
    bot.oversample = POOL_OVERSAMPLE
    return bot


def _partner(rng: random.Random) -> Bot:
    bot = ExpertBot(rng, policy=True)
    bot.read_partner = True
    return bot


def _calib(rng: random.Random) -> Bot:
    bot = ExpertBot(rng, infer=True)
    bot.calib = True
    return bot


def _bids41(rng: random.Random) -> Bot:
    bot = ExpertBot(rng)
    bot.bid_sigma41 = BID_SIGMA_41
    return bot


def _blind(tricks: int) -> Maker:
    return lambda rng, seats: BlindOracleBot(rng, tricks)


# Not one of them is told the seats: each plays as it did when it was measured.
COMPARISON: dict[str, Maker] = {
    "expert-score": lambda rng, seats: ExpertBot(rng, forty_one="score"),
    "expert-tricks": lambda rng, seats: ExpertBot(rng, forty_one="tricks"),
    "oracle-tricks": lambda rng, seats: OracleBot(rng, forty_one="tricks"),
    "expert-infer": lambda rng, seats: ExpertBot(rng, infer=True, policy=False),
    "expert-alphamu": lambda rng, seats: ExpertBot(rng, alphamu=ALPHAMU_TURNS),
    "expert-bids41": lambda rng, seats: _bids41(rng),
    "expert-plain": lambda rng, seats: ExpertBot(rng, infer=False),
    "expert-wide": lambda rng, seats: ExpertBot(rng, worlds=WIDE_WORLDS, policy=False),
    "expert-narrow": lambda rng, seats: ExpertBot(rng, worlds=NARROW_WORLDS, policy=False),
    "oracle-blind1": _blind(1),
    "oracle-blind2": _blind(2),
    "oracle-blind3": _blind(3),
    "oracle-blind4": _blind(4),
    "expert-policy": lambda rng, seats: ExpertBot(rng, policy=True),
    "expert-types": lambda rng, seats: _types(rng),
    "expert-pool": lambda rng, seats: _pool(rng),
    "expert-partner": lambda rng, seats: _partner(rng),
    "expert-wide-bids": lambda rng, seats: ExpertBot(rng, deals=WIDE_DEALS),
    "expert-calib": lambda rng, seats: _calib(rng),
    "expert-model": lambda rng, seats: ExpertBot(rng, policy=True,
                                                 judge=ModelJudge(default_judge())),
    "expert-untold": lambda rng, seats: ExpertBot(rng),
}
COMPARISON_LEVELS = tuple(COMPARISON)

PLAYERS.update(COMPARISON)
