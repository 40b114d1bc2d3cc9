"""``python -m lab.arena A B ...``: ``forties arena`` with the comparison players too
(``lab.levels``), as the duplicate matches of ``docs/lab-notes.md`` were played."""

from __future__ import annotations

import sys

import lab.levels  # noqa: F401  (the comparison players join PLAYERS)
from forties.cli import arena

if __name__ == "__main__":
    arena.main(sys.argv[1:], prog_name="python -m lab.arena")
