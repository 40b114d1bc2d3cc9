"""Computer players. They see a game only through the public API: the per-seat view
and the legal actions. Which levels there are, and what makes each, is ``forties.players``."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..actions import Action
from .play import Bot, SeesAll, choose, play_hand, play_out

__all__ = ["Bot", "RandomBot", "SeesAll", "choose", "play_hand", "play_out"]


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]
