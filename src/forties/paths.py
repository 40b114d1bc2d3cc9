"""Where forties keeps its files: saved games and the web server's database."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def data_dir() -> Path:
    """Where saved games live: $FORTIES_DATA, else the platform's user data folder."""
    env = os.environ.get("FORTIES_DATA")
    if env:
        return Path(env)
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / "forties"
