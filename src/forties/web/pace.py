"""The pace a person follows the table at: slow, normal or fast, chosen on the device and
told to the server (``{"type": "pace", "pace": "slow"}``), so that the computer players
wait for the person to see each card arrive and to read who took the trick.

At a table where every person playing (not away) has told a pace here, the computers
play at the slowest of them; otherwise at the table's own ``bot_delay``. An operator's
``bot_delay`` (``Limits``, the tests' and the lab's quick tables) is the server's own pace
over everyone's. With several processes a person whose connection is on another process
has told nothing here: the table keeps its own pace.

The page holds the finished trick for ``trick - sweep`` seconds with its winner in words
on the felt, then moves it to the winner in ``sweep`` seconds (its own copy of these
figures: static/feel.js); a computer that leads the next trick waits ``trick`` seconds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..table import PERSON, Table, TableError


@dataclass(frozen=True)
class Pace:
    card: float  # seconds a computer waits before its card (or bid) after the last one
    trick: float  # seconds a computer waits before it leads, after a finished trick


PACES: dict[str, Pace] = {
    "slow": Pace(card=1.2, trick=3.2),
    "normal": Pace(card=0.6, trick=2.0),
    "fast": Pace(card=0.3, trick=1.0),
}
ORDER = ("fast", "normal", "slow")  # the slowest of several is the last of them here


def check_pace(value: Any) -> str:
    """The pace a message names; raises TableError("bad", ...) in one line otherwise."""
    if not isinstance(value, str) or value not in PACES:
        raise TableError("bad", 'a pace is "slow", "normal" or "fast"')
    return value


def table_pace(table: Table, told: Iterable[tuple[int | None, str | None]]) -> Pace | None:
    """The pace the computers keep at ``table``: the slowest told by its persons'
    connections (``told``: each connection's seat and pace, None where it told none), if
    every person playing (not away) has told one; else None (the table's own)."""
    paces: dict[int, str] = {}
    for seat, pace in told:
        if seat is None or pace is None:
            continue  # (a spectator's pace is its own: nobody waits for a spectator)
        was = paces.get(seat)
        if was is None or ORDER.index(pace) > ORDER.index(was):
            paces[seat] = pace
    playing = [i for i, s in enumerate(table.seats) if s.kind == PERSON and not s.away]
    if not playing or any(i not in paces for i in playing):
        return None
    return PACES[max((paces[i] for i in paces if table.seats[i].kind == PERSON),
                     key=ORDER.index)]


def after_trick(table: Table) -> bool:
    """Whether the next card leads a trick after a finished one (in the same hand)."""
    state = table.state
    return bool(state.tricks) and not state.trick_cards and not state.over


__all__ = ["ORDER", "PACES", "Pace", "after_trick", "check_pace", "table_pace"]
