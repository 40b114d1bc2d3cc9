"""Getting the compiled search ready before the first game.

The expert player, the hints and the par of a hand search with the double-dummy
solvers (the Forty-Fives', Forty One's for the score, Forty One's par) and, against two
``basic`` computers, with ``basic``'s rule (``bots.model_kernel``), which numba
compiles on their first use (20 to 50 seconds each) and keeps on disk.
``forties warm-up`` (part of ``make run``'s set-up) does that beforehand, so that the
first expert decision of a game takes a second, not a minute.

Where numba keeps the compiled code is decided when the package is imported
(``forties.paths.configure_cache``).
"""

from __future__ import annotations

import sys
import time

WARM_FUNCTIONS = {"forties.solver.kernel": ("_future", "_future_ff"),
                  "forties.solver.score41": ("_value",), "forties.solver.dd41": ("_solve",),
                  "forties.bots.model_kernel": ("search",)}


def is_warm() -> bool:
    """Whether this process has the solvers compiled (or loaded from the disk cache)."""
    for name, functions in WARM_FUNCTIONS.items():
        module = sys.modules.get(name)
        if module is None or not all(getattr(module, f).signatures for f in functions):
            return False
    return True


def warm_up() -> float:
    """Compile the solvers, or load them from the disk cache: one search of each kind the
    players, hints and pars make. The seconds it took."""
    import random

    from .bots import play_hand
    from .bots.model import model_outcomes
    from .fortyfives import FortyFivesState
    from .games import new_game
    from .players import make_bot
    from .rules import build_rules
    from .solver import best_moves, dd41, score41, solve
    from .state import Phase

    start = time.perf_counter()
    bot = make_bot("basic", random.Random(1))
    for preset in ("merrimack-valley", "forty-one"):
        state = new_game(build_rules(preset), seed=1)
        play_hand(state, [bot] * state.n, to_play=True)
        while state.phase is not Phase.PLAY:  # thrown in
            state.next_hand()
            play_hand(state, [bot] * state.n, to_play=True)
        if preset == "forty-one":  # the expert's search for the score, and the par
            score41.best_moves_score(state, exact_tricks=6, depth=1)
            dd41.team_tricks([1, 2, 4, 8], 0, [], 5)
            continue
        best_moves(state)  # the play: every card's value
        solve(state, 0)  # the bids and the draw: a hand's value
        assert isinstance(state, FortyFivesState)
        model_outcomes(state)  # the play against two ``basic`` computers
    return time.perf_counter() - start


def _warm_vector() -> float:
    """Compile (or load) the many-table engine: a few random steps of each game."""
    import numpy as np

    from .rules import build_rules
    from .vector import VectorGame

    start = time.perf_counter()
    for preset in ("merrimack-valley", "forty-one"):
        env = VectorGame(build_rules(preset), tables=4, seed=1)
        rng = np.random.default_rng(1)
        for _ in range(60):
            n = env.legal_counts()
            env.step((rng.random(env.tables) * n).astype(np.int64))
    return time.perf_counter() - start


def _warm_envs() -> float:
    """Compile (or load) the research environments' kernels, where they are installed."""
    import importlib.util

    if importlib.util.find_spec("gymnasium") is None:
        return 0.0
    from .envs.vector import FortiesVectorEnv

    start = time.perf_counter()
    for preset in ("merrimack-valley", "forty-one"):
        env = FortiesVectorEnv(preset, tables=4, seat=0, opponents="basic")
        obs, _ = env.reset(seed=1)
        for _ in range(20):
            obs, *_ = env.step(obs["action_mask"].argmax(axis=1))
    return time.perf_counter() - start


WARM_PARTS = {"search": warm_up, "tables": _warm_vector, "research": _warm_envs}


def warm_all(workers: int = 3) -> dict[str, float]:
    """Every compiled part (the search, the many-table engine, the research environments),
    each in its own process at once, so that a test run or a benchmark that follows only
    loads them. The seconds each took."""
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        futures = {name: pool.submit(fn) for name, fn in WARM_PARTS.items()}
        return {name: f.result() for name, f in futures.items()}
