"""Several server processes over one PostgreSQL database and Redis: a table moved by
another process is brought up to date here (one catch-up at a time per table), and that
process's notes (a rematch made, a seat come or gone) are acted on.
"""

from __future__ import annotations

import time
from typing import Any

from .live import Live, LiveTables
from .presence import Presence
from .rematch import Rematches
from .turns import Turns


class CatchUp:
    """What this process hears of the others' work on its tables."""

    def __init__(self, tables: LiveTables, turns: Turns, presence: Presence,
                 rematches: Rematches) -> None:
        self.tables = tables
        self.turns = turns
        self.presence = presence
        self.rematches = rematches

    async def noted(self, table_id: str, body: dict[str, Any]) -> None:
        """Another process's note about a table (not a move)."""
        if "r" in body:
            await self.rematches.made_elsewhere(table_id, body["r"])
        if "w" in body:  # that process holds connections to the table, which this one runs
            live = self.tables.tables.get(table_id)
            if live is not None and self.tables.runs(live) and not self.tables.closing:
                from .bus import PRESENCE_SECONDS

                live.watched_until = time.monotonic() + PRESENCE_SECONDS
                self.tables.announce(live, always=True)  # (what it may have missed)
        if "p" in body:  # a seat came or went on that process
            live = self.tables.tables.get(table_id)
            if live is not None and not self.tables.closing:
                self.tables.spawn(self.presence.look(live))

    async def moved_elsewhere(self, table_id: str, seq: int) -> None:
        """Another process committed events up to ``seq`` to ``table_id``: if the table is
        in play here, bring it up to date (one catch-up at a time per table)."""
        live = self.tables.tables.get(table_id)
        if live is None or self.tables.closing or live.table.seq >= seq:
            return
        if not live.conns and not self.tables.runs(live):
            # run elsewhere and watched by nobody here (loaded for a page or the API):
            # forgotten rather than kept up to date, loaded again when next asked for
            self.tables.forget(live)
            return
        if live.catching_up:  # a catch-up is on its way: it goes round once more
            live.again = True
            return
        live.catching_up = True
        self.tables.spawn(self._moved(live))

    async def _moved(self, live: Live) -> None:
        try:
            while True:
                live.again = False
                await self.refresh(live, standby=True)
                if not live.again:
                    break
        finally:
            live.catching_up = False

    async def refresh(self, live: Live, standby: bool = False, wake: bool = False) -> None:
        """Bring ``live`` up to date with the database, telling its connections, then set
        up what it waits for (``standby``: the moves came from another process; ``wake``:
        a client came, and the table may have been moved here from a process that died, so
        if nothing is under way here this process stands by to play its computers)."""
        async with live.lock:
            moved = await self.tables.catch_up(live)
        idle = live.task is None or live.task.done()
        if self.tables.owners is None and ((moved and standby) or (wake and idle and not moved)):
            live.standby = True  # (a table's owner runs it at once: it alone runs it)
        if moved or standby or (wake and idle):
            self.turns.after(live)
        if wake:  # (perhaps taken over from a process that died)
            self.presence.rearm(live)


__all__ = ["CatchUp"]
