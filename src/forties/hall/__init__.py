"""The 45-Card-Games evening: couples, tables, punch cards and prizes.

A hall evening (Cape Breton's 45-Card-Games) as data and rules, knowing nothing
of screens, sockets or storage: ``Hall`` takes the evening's events one at a
time (registrations, the start of each game, each table's result, corrections,
the tie-break steps) and derives everything else from them: the seating and
moves of every game, the punch cards, the standings, the prizes, the cookie
jar and the booby prize. ``Hall.to_json`` / ``Hall.from_json`` store and replay
an evening exactly.

For a director's screens (the web layer stores ``to_json`` and calls these):

- ``register(names)``, ``leave(couple)``: at the door, and couples leaving;
- ``begin()``: start the evening (game 1) or the next game; ``seating(g)``,
  ``moves(g)`` and ``printing.move_lines``: who sits where ("couple 14 to table 8");
- ``report(g, t, winner)``: a table's result, checked against who sits there (the
  first report of a game begins it); ``correct(g, t, winner)``; ``waiting(g)``;
- ``standings()``, ``status()``; ``contests()`` and ``apply(Vote | Answer | CutDeck |
  PlayoffWin)`` to walk the ties through; ``awards()``, ``cookie_jar()``;
- ``export.export_json`` / ``standings_csv`` / ``results_csv``;
  ``printing.punch_cards_html`` / ``table_cards_html`` (English or French);
- ``season.season(rule, evenings, closed)``: a club's evenings between two dates added
  up (``season_json`` / ``season_csv``).

Every refusal is a ``HallError`` with one line for the director, and changes nothing.
"""

from __future__ import annotations

from .evening import Couple, Hall, Move, Standing
from .events import HallError
from .movement import Seating
from .prizes import BOOBY, Award, Contest, Level
from .settings import Settings

__all__ = ["BOOBY", "Award", "Contest", "Couple", "Hall", "HallError", "Level", "Move",
           "Seating", "Settings", "Standing"]
