"""The computer players by their levels' names: which levels the tables, the arena and the
command line offer (``LEVELS``), what makes each (``PLAYERS``, ``make_bot``) and why one
cannot play on this machine (``unavailable``). It stands above the research environments,
since one level, ``ismcts``, is OpenSpiel's search over the game they define."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .bots import Bot, RandomBot

__all__ = ["LEVELS", "PLAYERS", "Maker", "Seats", "make_bot", "unavailable"]

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
    from .bots.basic import BasicBot

    return BasicBot()


def _expert(rng: random.Random, seats: Seats) -> Bot:
    from .bots.expert import ExpertBot

    return ExpertBot(rng, seats=seats)


def _oracle(rng: random.Random, seats: Seats) -> Bot:
    from .bots.oracle import OracleBot

    return OracleBot(rng)


def _ismcts(rng: random.Random, seats: Seats) -> Bot:
    why = unavailable("ismcts")
    if why:
        raise ValueError(why)
    from .envs.spiel import IsmctsBot

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
