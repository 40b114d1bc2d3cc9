"""Computer players. They see a game only through the public API: the per-seat view
and the legal actions."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..actions import Action
from .play import Bot, SeesAll, choose, play_hand, play_out

__all__ = ["LEVELS", "PLAYERS", "Bot", "Maker", "RandomBot", "Seats", "SeesAll", "choose",
           "make_bot", "play_hand", "play_out", "unavailable"]


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


LEVELS = ("random", "basic", "expert", "oracle", "ismcts")

# What the table shows of each seat (a computer player's level, None for a person).
Seats = Sequence[str | None] | None
# A player of one level, made from its generator and what the table shows of the seats.
Maker = Callable[[random.Random, Seats], Bot]


def unavailable(level: str) -> str | None:
    """Why ``level`` cannot play on this machine (None: it can)."""
    if level == "ismcts":
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            return "ismcts needs OpenSpiel: pip install 'forties[research]'"
    return None


def _basic(rng: random.Random, seats: Seats) -> Bot:
    from .basic import BasicBot

    return BasicBot()


def _expert(rng: random.Random, seats: Seats) -> Bot:
    from .expert import ExpertBot

    return ExpertBot(rng, seats=seats)


def _oracle(rng: random.Random, seats: Seats) -> Bot:
    from .oracle import OracleBot

    return OracleBot(rng)


def _ismcts(rng: random.Random, seats: Seats) -> Bot:
    why = unavailable("ismcts")
    if why:
        raise ValueError(why)
    from ..envs.spiel import IsmctsBot

    return IsmctsBot(rng)


# Every player by its level's name: LEVELS, which the tables offer, and any that the lab
# adds to measure them against one another (``lab/levels.py``), which the arena then takes.
PLAYERS: dict[str, Maker] = {"random": lambda rng, seats: RandomBot(rng), "basic": _basic,
                             "expert": _expert, "oracle": _oracle, "ismcts": _ismcts}


def make_bot(level: str, rng: random.Random, seats: Seats = None) -> Bot:
    """A computer player of ``level`` (one of LEVELS, or of PLAYERS).

    ``seats`` is what the table shows of each seat, as the people at it see it: a computer
    player's level, or None for a person. The ``expert`` whose two opponents are both
    ``basic`` computers plays its 45s cards against ``basic``'s rule
    (``ExpertBot.models_basic``); the lab's levels take no account of it."""
    maker = PLAYERS.get(level)
    if maker is None:
        raise ValueError(f"unknown level {level!r}: {', '.join(LEVELS)}")
    return maker(rng, seats)
