"""The 45-Card-Games evening: couples, tables, punch cards and prizes.

A hall evening (Cape Breton's 45-Card-Games) as data and rules, knowing nothing
of screens, sockets or storage: ``Hall`` takes the evening's events one at a
time (registrations, the start of each game, each table's result, corrections,
the tie-break steps) and derives everything else from them: the seating and
moves of every game, the punch cards, the standings, the prizes, the cookie
jar and the booby prize. ``Hall.to_json`` / ``Hall.from_json`` store and replay
an evening exactly.
"""

from __future__ import annotations

from .evening import Couple, Hall, Move, Standing
from .events import HallError
from .movement import Seating
from .prizes import BOOBY, Award, Contest, Level
from .settings import Settings

__all__ = ["BOOBY", "Award", "Contest", "Couple", "Hall", "HallError", "Level", "Move",
           "Seating", "Settings", "Standing"]
