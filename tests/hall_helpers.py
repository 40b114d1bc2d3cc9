"""Evenings for the hall tests, built the way a director would enter them."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from forties.hall import Hall, Settings


def hall_of(couples: int, **settings: object) -> Hall:
    """An evening with ``couples`` couples registered (couple i is "Ai" and "Bi")."""
    h = Hall(Settings(**settings))  # type: ignore[arg-type]
    for i in range(1, couples + 1):
        h.register((f"A{i}", f"B{i}"))
    return h


def play_game(h: Hall, pick: Callable[[int, int, int], int | None]) -> None:
    """Report every table of the game in play (or begin the next): ``pick(table,
    visitors, home)`` names the winner (None: no game)."""
    if h.started and not h.game_complete(h.begun):
        seat = h.seatings[-1]
    else:
        seat = h.begin()
    g = seat.game
    for t, (a, b) in enumerate(seat.tables, 1):
        h.report(g, t, pick(t, a, b))


def random_picker(rng: random.Random, no_game: float = 0.0) -> Callable[[int, int, int],
                                                                        int | None]:
    def pick(t: int, a: int, b: int) -> int | None:
        if rng.random() < no_game:
            return None
        return a if rng.random() < 0.5 else b
    return pick


def steer_to(targets: Sequence[int], games: int, **settings: object) -> Hall:
    """An evening whose couples end on ``targets`` games (couple i on targets[i - 1]),
    if steering each table toward the couple furthest behind its target gets there."""
    h = hall_of(len(targets), games=games, **settings)
    for g in range(1, games + 1):
        won = {s.couple: s.wins for s in h.standings()}
        left = games - g + 1

        def need(c: int, won: dict[int, int] = won, left: int = left) -> tuple[float, int]:
            return (targets[c - 1] - won[c]) / left, -c

        play_game(h, lambda t, a, b: a if need(a) >= need(b) else b)
    return h
