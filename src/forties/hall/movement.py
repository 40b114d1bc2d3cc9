"""The movement of a 45-Card-Games evening: who sits where, game after game.

Tables of two couples, numbered from 1. After a game the winning couple moves
to the next table (from the last table to table 1) and deals first there; the
losing couple stays. With an odd number of couples one couple sits out each
game, in turn (``choose_sit_out``): the couple coming back takes the place of
the couple going out. Couples who leave free their places, couples who arrive
take free places, and when there are fewer tables the highest-numbered ones
close. Everything here is a pure function of the previous seating and results.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

VISITORS, HOME = 0, 1  # a table's two places: the couple that deals first, and the other


@dataclass(frozen=True)
class Seating:
    """One game's seating: ``tables[t - 1]`` is table t's (visitors, home) couples; the
    visitors deal first. ``sitting_out`` sits this game out (odd numbers)."""

    game: int
    tables: tuple[tuple[int, int], ...]
    sitting_out: int | None = None

    def place_of(self, couple: int) -> tuple[int, int] | None:
        """(table, place) of ``couple``, or None if it does not play this game."""
        for t, pair in enumerate(self.tables, 1):
            if couple in pair:
                return t, pair.index(couple)
        return None

    def table_of(self, couple: int) -> int | None:
        p = self.place_of(couple)
        return None if p is None else p[0]

    def couples(self) -> set[int]:
        """Every couple of this game, seated or sitting out."""
        out = {c for pair in self.tables for c in pair}
        if self.sitting_out is not None:
            out.add(self.sitting_out)
        return out

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game,
                "tables": [{"table": t, "deals_first": a, "other": b}
                           for t, (a, b) in enumerate(self.tables, 1)],
                "sitting_out": self.sitting_out}


def choose_sit_out(active: Iterable[int], sat_out: Mapping[int, int],
                   last: int | None) -> int:
    """The couple to sit out next: one of those that have sat out (or missed) the fewest
    games, the first going down from ``last`` (the previous couple to sit out; at the
    start, the highest number), wrapping round."""
    pool = list(active)
    fewest = min(sat_out.get(c, 0) for c in pool)
    pool = [c for c in pool if sat_out.get(c, 0) == fewest]
    top = max(pool) + 1 if last is None else last
    span = max(max(pool), top) + 1
    return min(pool, key=lambda c: (top - c - 1) % span)


def first_seating(couples: Iterable[int], sit_out: int | None) -> Seating:
    """Game 1: couples in order of number, two to a table; the lower number deals first."""
    order = sorted(c for c in couples if c != sit_out)
    if len(order) % 2:
        raise ValueError("an odd number of couples needs one to sit out")
    return Seating(1, tuple((order[i], order[i + 1]) for i in range(0, len(order), 2)),
                   sit_out)


def next_seating(prev: Seating, winners: Mapping[int, int | None], active: Iterable[int],
                 sit_out: int | None) -> Seating:
    """The seating after ``prev``, given each table's winner (None: no game, and the couple
    that dealt first moves on as a winner would) and the couples playing next game.

    Couples not in ``active`` have left; those in it but not in ``prev`` arrive.
    ``sit_out`` (if any) is taken out of its place. The free places are filled, first
    the visitors' places by table, then the home places, by: winners whose table
    closed, the couple back from sitting out, losers whose table closed, arrivals.
    """
    players = set(active)
    if sit_out is not None:
        players.discard(sit_out)
    if len(players) % 2:
        raise ValueError("an odd number of couples needs one to sit out")
    n = len(players) // 2
    places: dict[tuple[int, int], int] = {}
    moved: list[int] = []
    stayed: list[int] = []
    for t, (visitors, home) in enumerate(prev.tables, 1):
        w = winners.get(t)
        mover, stayer = (visitors, home) if w is None or w == visitors else (home, visitors)
        if t <= n:
            places[(t % n + 1, VISITORS)] = mover
            places[(t, HOME)] = stayer
        else:
            moved.append(mover)
            stayed.append(stayer)
    places = {k: c for k, c in places.items() if c in players}
    seated = set(places.values())
    back = [] if prev.sitting_out is None else [prev.sitting_out]
    floating = [c for c in (*moved, *back, *stayed) if c in players and c not in seated]
    arrivals = sorted(players - seated - set(floating))
    floating += arrivals
    holes = [(t, p) for p in (VISITORS, HOME) for t in range(1, n + 1) if (t, p) not in places]
    assert len(holes) == len(floating)
    places.update(zip(holes, floating, strict=True))
    tables = tuple((places[(t, VISITORS)], places[(t, HOME)]) for t in range(1, n + 1))
    return Seating(prev.game + 1, tables, sit_out)
