"""Getting the compiled search ready before the first game.

The expert player, the hints and the par of a hand search with the double-dummy
solver, which numba compiles on its first use (20 to 50 seconds) and keeps on
disk. ``forties warm-up`` (part of ``make run``'s set-up) does that beforehand,
so that the first expert decision of a game takes a second, not a minute.

Where the compiled code is kept: beside the sources (``__pycache__``), as numba
does, when the package folder can be written (a clone, a virtual environment);
otherwise (a package installed in a system folder) in the user's cache folder,
``$XDG_CACHE_HOME/forties/numba`` (``~/.cache/forties/numba``). ``NUMBA_CACHE_DIR``,
when set, is used as it is.

This module is imported with the package, before numba: keep its imports light.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

PACKAGE_DIR = Path(__file__).parent


def user_cache_dir() -> Path:
    """The user's cache folder for forties' compiled code, by the platform's convention."""
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = home / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache")
    return base / "forties" / "numba"


def writable(folder: Path) -> bool:
    """Whether numba could keep its cache in ``folder``'s ``__pycache__``."""
    cache = folder / "__pycache__"
    return os.access(cache if cache.is_dir() else folder, os.W_OK)


def configure_cache(package_dir: Path = PACKAGE_DIR) -> Path | None:
    """Send numba's cache to the user's cache folder when the package folder cannot be
    written; the folder chosen, or None for numba's own place beside the sources. Must run
    before numba is imported (it reads ``NUMBA_CACHE_DIR`` once)."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        return Path(given)
    if all(writable(package_dir / sub) for sub in ("solver", "vector")):
        return None
    folder = user_cache_dir()
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    return folder


def is_warm() -> bool:
    """Whether this process has the solver compiled (or loaded from the disk cache)."""
    kernel = sys.modules.get("forties.solver.kernel")
    if kernel is None:
        return False
    return all(getattr(kernel, name).signatures for name in ("_future", "_future_ff"))


def warm_up() -> float:
    """Compile the solver's kernels, or load them from the disk cache: one search of each
    kind the players and hints make. The seconds it took."""
    import random

    from .bots import make_bot
    from .games import new_game
    from .rules import build_rules
    from .solver import best_moves, solve
    from .state import Phase

    start = time.perf_counter()
    state = new_game(build_rules("merrimack-valley"), seed=1)
    bot = make_bot("basic", random.Random(1))
    while state.phase is not Phase.PLAY:
        seat = state.turn
        assert seat is not None
        state.apply(bot.choose(state.view(seat), state.legal_actions()))
    best_moves(state)  # the play: every card's value
    solve(state, 0)  # the bids and the draw: a hand's value
    return time.perf_counter() - start
