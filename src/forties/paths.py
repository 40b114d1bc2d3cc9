"""Where forties keeps its files: saved games, the web server's database, and the compiled
search (numba's cache).

The compiled code is kept beside the sources (``__pycache__``), as numba does, when the
package folder can be written (a clone, a virtual environment); otherwise (a package
installed in a system folder) in the user's cache folder, ``$XDG_CACHE_HOME/forties/numba``
(``~/.cache/forties/numba``). ``NUMBA_CACHE_DIR``, when set, is used as it is.

This module is imported with the package, before numba: keep its imports light.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Literal

PACKAGE_DIR = Path(__file__).parent


def user_dir(kind: Literal["data", "cache"]) -> Path:
    """The user's folder for ``kind`` of files, by the platform's convention (on Linux
    ``$XDG_DATA_HOME`` or ``$XDG_CACHE_HOME``, else their defaults under the home folder)."""
    home = Path.home()
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    if sys.platform == "darwin":
        return home / "Library" / ("Caches" if kind == "cache" else "Application Support")
    if kind == "cache":
        return Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache")
    return Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")


def data_dir() -> Path:
    """Where saved games live: $FORTIES_DATA, else the platform's user data folder."""
    env = os.environ.get("FORTIES_DATA")
    if env:
        return Path(env)
    return user_dir("data") / "forties"


def user_cache_dir() -> Path:
    """The user's cache folder for forties' compiled code, by the platform's convention."""
    return user_dir("cache") / "forties" / "numba"


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
