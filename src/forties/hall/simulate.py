"""A whole evening played by computer players through the real engine.

Every table's game is a ``forties`` game (``new_game`` and the bots of
``forties.bots``): the couple that deals first holds seats 0 and 2, the dealer
seat 0. The results go to the evening as a director would enter them; the ties
are walked through with the couples' votes drawn at random and play-offs played
by the same players. Deterministic for a seed; games of one round can be played
on several cores, or on a Ray cluster (``forties.cluster``) with the same results.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..bots import play_out
from ..games import new_game
from ..players import LEVELS, make_bot
from ..rules import Rules
from ..state import GameState
from .checks import Check, check_evening
from .draw import derived_seed
from .evening import Hall
from .events import CHOICES, Answer, CutDeck, PlayoffWin, Vote
from .settings import Settings

if TYPE_CHECKING:
    from ..cluster import RayPool

MAX_HANDS = 200  # a game still going after this many hands is stopped ("time!")


@dataclass(frozen=True)
class TableGame:
    """What the engine played at one table: the couple of the first dealer and the
    winning couple (0: the couple in seats 0 and 2, 1: the other; None: no game),
    and each couple's points."""

    dealer_side: int
    winner_side: int | None
    points: tuple[int, int]
    hands: int


def couple_side_points(state: GameState, side: int) -> int:
    """A couple's score: its side's, or (Forty One) its two players' added."""
    seats = (0, 2) if side == 0 else (1, 3)
    return sum(state.scores[x] for x in {state.side_of[s] for s in seats})


def play_table(rules: Rules, seed: int, levels: tuple[str, str],
               max_hands: int = MAX_HANDS) -> TableGame:
    """One game between two couples of computer players (levels of the couple dealing
    first, then the other's). A game not over in ``max_hands`` hands goes to the couple
    ahead, or is no game if they are level."""
    st = new_game(rules, seed=seed, first_dealer=0)
    rng = random.Random(seed)
    seat_levels = [levels[s % 2] for s in range(4)]
    hands = play_out(st, [make_bot(level, rng, seats=seat_levels) for level in seat_levels],
                     max_hands)
    pts = (couple_side_points(st, 0), couple_side_points(st, 1))
    w = st.winner
    if w is None:
        side = None if pts[0] == pts[1] else int(pts[1] > pts[0])
    else:
        seats = w if isinstance(w, tuple) else st.sides[w]
        side = 0 if 0 in seats else 1
    return TableGame(st.first_dealer % 2, side, pts, hands)


def _job(args: tuple[Rules, int, tuple[str, str]]) -> TableGame:
    return play_table(*args)


@dataclass
class Simulation:
    hall: Hall
    levels: dict[int, str]
    seconds: float = 0.0
    games_played: int = 0
    hands_played: int = 0
    dealt_first_ok: bool = True
    where: str = "one process"  # where the games were played
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)


def simulate(couples: int, settings: Settings, players: Sequence[str], jobs: int = 1,
             progress: Callable[[int], None] | None = None,
             ray: RayPool | None = None) -> Simulation:
    """Register ``couples`` couples, play the evening, break the ties, check every rule.

    ``players`` are levels given to the couples in turn (couple 1 the first). The tables of
    a game are played on ``jobs`` worker processes, or on the Ray cluster ``ray``."""
    for level in players:
        if level not in LEVELS:
            raise ValueError(f"unknown player {level!r}; players: {', '.join(LEVELS)}")
    start = time.perf_counter()
    hall = Hall(settings)
    for i in range(1, couples + 1):
        hall.register((f"Player {2 * i - 1}", f"Player {2 * i}"))
    levels = {c: players[(c - 1) % len(players)] for c in hall.couples}
    sim = Simulation(hall, levels)
    if ray is not None:
        sim.where = ray.where()
    elif jobs > 1:
        sim.where = f"{jobs} worker processes"
    pool = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 and ray is None else None

    def run(args: list[tuple[Rules, int, tuple[str, str]]]) -> Iterator[TableGame]:
        if ray is not None:
            return ray.map(_job, args)
        if pool is None:
            return map(_job, args)
        return pool.map(_job, args, chunksize=max(1, len(args) // (jobs * 4)))

    try:
        for g in range(1, settings.games + 1):
            seat = hall.begin(g)
            args = [(settings.rules, hall.deal_seed(g, t), (levels[a], levels[b]))
                    for t, (a, b) in enumerate(seat.tables, 1)]
            for t, ((a, b), tg) in enumerate(zip(seat.tables, run(args), strict=True), 1):
                sim.dealt_first_ok &= tg.dealer_side == 0
                winner = None if tg.winner_side is None else (a, b)[tg.winner_side]
                hall.report(g, t, winner, {a: tg.points[0], b: tg.points[1]})
                sim.games_played += 1
                sim.hands_played += tg.hands
            if progress:
                progress(1)
        _break_ties(hall, levels, random.Random(derived_seed(settings.seed, "votes")))
    finally:
        if pool is not None:
            pool.shutdown()
    sim.seconds = time.perf_counter() - start
    sim.checks = [*check_evening(hall), Check(
        "at every table the couple placed to deal first dealt the first hand",
        sim.dealt_first_ok, f"{sim.games_played} games")]
    return sim


def _break_ties(hall: Hall, levels: dict[int, str], rng: random.Random) -> None:
    """Walk every tie through as couples at a hall might: votes at random, most couples
    agreeing to play off when asked, play-off games played by the same players."""
    for key in list(hall.contests()):
        n = 0
        while True:
            ct = hall.contests()[key]
            if ct.decided:
                break
            if ct.method is None:
                c = next(c for c in ct.couples if c not in ct.votes)
                hall.apply(Vote(key, c, rng.choice(CHOICES)))
            elif ct.method == "cut":
                hall.apply(CutDeck(key))
            elif ct.must_answer():
                hall.apply(Answer(key, ct.must_answer()[0], rng.random() < 0.7))
            else:
                assert ct.playoff is not None
                a, b = ct.playoff.pending[0]
                while True:
                    n += 1
                    tg = play_table(hall.settings.rules,
                                    derived_seed(hall.settings.seed, "play-off", key, n),
                                    (levels[a], levels[b]))
                    if tg.winner_side is not None:
                        break
                hall.apply(PlayoffWin(key, (a, b)[tg.winner_side]))
