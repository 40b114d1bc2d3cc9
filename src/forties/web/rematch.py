"""A rematch: after the game, a new table with the same seats, each person keeping the
key of the seat and told the new table's link with that key. The database holds one
rematch of a table, so two processes asked at the same moment answer with the same one.
A rematch of a rated table is rated too when it can be (``can_rate``: ``web.games`` says
whether the same accounts, active, sit in its people's seats, by the usual rules, beside
computers of published ratings); otherwise it is not rated, as the finished table's
review says beside its Rematch button.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..table import BOARD_REMATCH, COMPUTER, OVER, PERSON, Table, TableError
from .live import Conn, Live, LiveTables
from .seating import Seating


class Rematches:
    """The rematches of the tables in play here."""

    def __init__(self, tables: LiveTables, seating: Seating) -> None:
        self.tables = tables
        self.seating = seating
        # whether a rated table's rematch, of these seats, can be rated (``web.games``)
        self.can_rate: Callable[[Table, list[dict[str, Any]]], Awaitable[bool]] | None = None

    async def ask(self, conn: Conn, live: Live) -> None:
        """A new table with the same seats, each person keeping the key of the seat. The
        database holds one rematch of a table: asked on two processes at the same moment,
        both answer with the same new table. Each person's link goes to that person."""
        seat = conn.seat
        if seat is None:
            raise TableError("seat", "spectators have no seat at the next table")
        store = self.tables.store
        async with live.lock:
            t = live.table
            if t.board is not None:
                raise TableError("board", BOARD_REMATCH)
            if t.status != OVER:
                raise TableError("turn", "a rematch is for after the game")
            if live.rematch is not None:
                self._tell(live, [conn])
                return
            new_id = await store.rematch_of(t.id)
            if new_id is None:
                keys = await store.token_hashes(t.id)
                seats: list[dict[str, Any]] = []
                for i, s in enumerate(t.seats):
                    if s.kind == PERSON and i in keys:
                        seats.append({"kind": PERSON, "name": s.name, "token_hash": keys[i]})
                    else:
                        seats.append({"kind": COMPUTER, "level": s.level or t.settings.level})
                rated = bool(t.settings.rated) and self.can_rate is not None and \
                    await self.can_rate(t, seats)
                made = await self.seating.create_table(
                    t.rules.preset, dict(t.rules.overrides), seats, t.settings.public,
                    start=True, settings={"hints": t.settings.hints,
                                          "turn_seconds": t.settings.turn_seconds,
                                          "level": t.settings.level, "rated": rated},
                    rematch_of=t.id)
                new_id = made["table"]
            live.rematch = new_id
            self._tell(live, list(live.conns))
        if self.tables.bus is not None:  # the other processes tell their own connections
            await self.tables.bus.note(t.id, {"r": new_id})

    def _tell(self, live: Live, conns: list[Conn]) -> None:
        """Each person's link to the rematch, with that person's own key, to that person."""
        t = live.table
        for c in conns:
            if c.seat is not None and c.token and t.seats[c.seat].kind == PERSON:
                c.send_json({"type": "rematch", "url": f"/t/{live.rematch}#token={c.token}"})

    async def made_elsewhere(self, table_id: str, new_id: str) -> None:
        """Another process made the rematch of ``table_id``: tell this one's people."""
        live = self.tables.tables.get(table_id)
        if live is None or live.rematch is not None or not isinstance(new_id, str):
            return
        live.rematch = new_id
        self._tell(live, list(live.conns))


__all__ = ["Rematches"]
