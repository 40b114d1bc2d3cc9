"""The terminal clients: ``forties play`` (a full-screen table, or ``--plain`` lines
for any terminal and screen readers) and ``forties replay``.

Both play through a ``Session``: one person against computer players, the game
written to disk after every action.
"""

from __future__ import annotations

from .session import Session, SessionError, data_dir, default_save_path

__all__ = ["Session", "SessionError", "data_dir", "default_save_path"]
