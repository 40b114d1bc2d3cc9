"""Duplicate matches between two computer players.

Every deal is played once per rotation of the teams, so each player holds
every set of cards once (as duplicate bridge does), and luck of the deal
cancels. Hands are played from 0-0 for points per hand; whole games, with the
same seeded deals in each rotation, count games won. Deterministic for a seed;
uses every core given, or a Ray cluster (``forties.cluster``) with the same results.
With the auction fixed (``play_deal_fixed``), every rotation plays the contract one
reference player made at every seat, and the match measures the card play alone.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from .bots import Bot, play_hand, play_out
from .duplicate import arena_teams, team_total
from .games import new_game
from .players import make_bot
from .rules import Rules
from .state import GameState

if TYPE_CHECKING:
    from .cluster import RayPool


def _bots_for(level_a: str, level_b: str, teams: tuple[tuple[int, ...], ...], rotation: int,
              n: int, rng: random.Random) -> list[Bot]:
    a_team = teams[rotation]
    seats = [level_a if s in a_team else level_b for s in range(n)]
    return [make_bot(level, rng, seats=seats) for level in seats]


def _new_deal(rules: Rules, seed: int, deal_no: int) -> GameState:
    """Deal ``deal_no`` of ``seed``, from 0-0 (the dealer moves round with the deal number)."""
    return new_game(rules, seed=seed * 1_000_003 + deal_no, first_dealer=deal_no % rules.players)


def fixed_contract(rules: Rules, seed: int, deal_no: int, auction: str = "basic") -> GameState:
    """Deal ``deal_no`` of ``seed`` with every decision before the first card made by
    ``auction`` players at every seat: bids, trump, calling a partner, discards and the
    draw, robbing, "booked?" (whatever the rules have). The state is at the first card
    (or over, if the hand ended first: thrown in, folded). The ``auction`` players have
    their own seeded generator, so a seed and a deal number decide the contract."""
    st = _new_deal(rules, seed, deal_no)
    rng = random.Random(seed * 6_151 + deal_no * 37 + 17)
    play_hand(st, [make_bot(auction, rng) for _ in range(st.n)], to_play=True, sees_all=True)
    return st


def _duplicate(rules: Rules, a: str, b: str, seed: int, deal_no: int,
               auction: str | None) -> float:
    """``a``'s margin on one deal over the rotations of the teams; with ``auction``, every
    rotation starts from the same fixed contract (``fixed_contract``) and ``a`` and ``b``
    only play the cards."""
    teams = arena_teams(rules)
    start = None if auction is None else fixed_contract(rules, seed, deal_no, auction)
    margins = []
    for rot in range(len(teams)):
        st = _new_deal(rules, seed, deal_no) if start is None else start.clone()
        rng = random.Random(seed * 7919 + deal_no * 31 + rot)
        play_hand(st, _bots_for(a, b, teams, rot, st.n, rng), sees_all=True)
        gains = [team_total(st, t, st.start_scores) for t in teams]
        others = [g for i, g in enumerate(gains) if i != rot]
        margins.append(gains[rot] - sum(others) / len(others))
    return sum(margins) / len(margins)


def play_deal(rules: Rules, a: str, b: str, seed: int, deal_no: int) -> float:
    """Player ``a``'s margin on one deal, averaged over the rotations of the teams.

    The margin of a rotation is what ``a``'s team gained minus the mean of what
    each other team gained, playing one hand from 0-0 on the deal.
    """
    return _duplicate(rules, a, b, seed, deal_no, None)


def play_deal_fixed(rules: Rules, a: str, b: str, seed: int, deal_no: int,
                    auction: str = "basic") -> float:
    """``play_deal`` with the auction fixed: the card play alone.

    Every decision before the first card is made once, by ``auction`` players at
    every seat (``fixed_contract``), and every rotation of the teams plays that same
    contract with the same hands after the draw; ``a`` and ``b`` only play the cards.
    """
    return _duplicate(rules, a, b, seed, deal_no, auction)


def play_game(rules: Rules, a: str, b: str, seed: int, game_no: int,
              max_hands: int = 400,
              on_action: Callable[[GameState], None] | None = None) -> float:
    """Games won by ``a`` on one seeded game played in every rotation (a fraction).
    ``on_action``, if given, sees the state after each action (the last of its history)."""
    teams = arena_teams(rules)
    wins = 0.0
    for rot in range(len(teams)):
        st = new_game(rules, seed=seed * 100_003 + game_no)
        rng = random.Random(seed * 104_729 + game_no * 31 + rot)
        play_out(st, _bots_for(a, b, teams, rot, st.n, rng), max_hands, sees_all=True,
                 on_action=on_action)
        w = st.winner
        seats = set(w) if isinstance(w, tuple) else set(st.sides[w]) if w is not None else set()
        if seats and seats <= set(teams[rot]):
            wins += 1
    return wins / len(teams)


@dataclass(frozen=True)
class Interval:
    mean: float
    low: float
    high: float


def mean_interval(xs: Sequence[float]) -> Interval:
    """The mean with a 95% normal interval."""
    n = len(xs)
    if n == 0:
        return Interval(0.0, 0.0, 0.0)
    m = sum(xs) / n
    if n < 2:
        return Interval(m, m, m)
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    h = 1.96 * math.sqrt(var / n)
    return Interval(m, m - h, m + h)


def share_interval(xs: Sequence[float], ys: Sequence[float]) -> Interval:
    """The share ``mean(xs) / mean(ys)`` of paired margins (``xs[i]`` and ``ys[i]`` on the
    same deal) with a 95% interval by the delta method: the spread of ``x - share * y``
    deal by deal, over the mean of ``ys``. Sound when ``mean(ys)`` is well clear of zero;
    no interval (the share alone, or 0) without two deals and a margin to share."""
    n = len(xs)
    if n != len(ys):
        raise ValueError("the two lists of margins must pair up, deal by deal")
    my = sum(ys) / n if n else 0.0
    if my == 0:
        return Interval(0.0, 0.0, 0.0)
    r = sum(xs) / n / my
    if n < 2:
        return Interval(r, r, r)
    var = sum((x - r * y) ** 2 for x, y in zip(xs, ys, strict=True)) / (n - 1)
    h = 1.96 * math.sqrt(var / n) / abs(my)
    return Interval(r, r - h, r + h)


def wilson_interval(wins: float, n: int) -> Interval:
    """A share of wins with its 95% Wilson interval (sound near 0% and 100%)."""
    if n == 0:
        return Interval(0.0, 0.0, 0.0)
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class MatchResult:
    preset: str
    a: str
    b: str
    seed: int
    deals: int
    games: int
    points_per_hand: Interval
    games_won: Interval
    seconds: float
    play_only: bool = False  # the deals played with the auction fixed (the card play alone)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


# ("deal", "play" (a deal with the auction fixed) or "game", rules, a, b, seed, number)
Job = tuple[str, Rules, str, str, int, int]
_PLAYS: dict[str, Callable[[Rules, str, str, int, int], float]] = {
    "deal": play_deal, "play": play_deal_fixed, "game": play_game}


def _job(job: Job) -> float:
    """One deal's margin or one game's share of wins."""
    kind, rules, a, b, seed, number = job
    return _PLAYS[kind](rules, a, b, seed, number)


def _batch(batch: list[Job]) -> list[float]:
    """A worker process's share: a few jobs of one kind, in order."""
    return [_job(j) for j in batch]


def _batches(work: list[Job], jobs: int) -> list[list[Job]]:
    """The deals in batches (about 16 per worker, each a few deals), then each game alone:
    a game takes as long as many deals, so games are shared out one at a time."""
    deals = [j for j in work if j[0] != "game"]
    size = max(1, len(deals) // (jobs * 16))
    out = [deals[i:i + size] for i in range(0, len(deals), size)]
    return out + [[j] for j in work if j[0] == "game"]


def _run(work: list[Job], jobs: int, ray: RayPool | None = None) -> Iterator[float]:
    """Each job's result, in order: here, in one pool of ``jobs`` worker processes for
    the deals and the games alike (each worker loads the players and numba once), or on
    the Ray cluster ``ray`` (in the same batches, sized for its CPUs)."""
    if ray is not None:
        for results in ray.map(_batch, _batches(work, ray.cpus)):
            yield from results
        return
    if jobs <= 1 or len(work) <= 1:
        yield from map(_job, work)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for results in pool.map(_batch, _batches(work, jobs)):
            yield from results


def run_match(rules: Rules, a: str, b: str, deals: int, games: int, seed: int = 1,
              jobs: int = 2, progress: Callable[[int], None] | None = None,
              ray: RayPool | None = None, play_only: bool = False) -> MatchResult:
    """Play ``deals`` duplicate deals and ``games`` duplicate games between ``a`` and ``b``.

    With ``play_only``, the deals are played with the auction fixed (``play_deal_fixed``:
    the card play alone).

    With ``jobs`` above 1, one pool of ``jobs`` worker processes plays the deals, then the
    games; with ``ray``, the Ray cluster plays them (the same results for the same seed)."""
    start = time.perf_counter()
    kind = "play" if play_only else "deal"
    work: list[Job] = [(kind, rules, a, b, seed, i) for i in range(deals)]
    work += [("game", rules, a, b, seed, i) for i in range(games)]
    margins: list[float] = []
    won: list[float] = []
    for (what, *_), x in zip(work, _run(work, jobs, ray), strict=True):
        (won if what == "game" else margins).append(x)
        if progress:
            progress(1)
    rotations = len(arena_teams(rules))
    return MatchResult(rules.preset, a, b, seed, deals, games, mean_interval(margins),
                       wilson_interval(sum(won) * rotations, len(won) * rotations),
                       round(time.perf_counter() - start, 2), play_only)
