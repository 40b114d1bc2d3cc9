"""The pace the computers keep (``forties.web.pace``): the one person's, the slowest where
every person playing has told one, the table's own otherwise or where the operator set
the server's; a longer wait before a computer leads after a finished trick."""

from __future__ import annotations

from forties.table import Settings, Table
from forties.web.limits import Limits
from forties.web.live import Conn, Live, LiveTables
from forties.web.pace import PACES, after_trick, table_pace
from forties.web.turns import Turns

from .test_table import play_one
from .test_table import table as seated


def table(people: int, bot_delay: float = 0.6) -> Table:
    return seated(people=people, settings=Settings(bot_delay=bot_delay))


def conn(seat: int | None, pace: str | None) -> Conn:
    return Conn(seat=seat, bucket=None, pace=pace)  # type: ignore[arg-type]


def test_one_person_sets_the_pace_and_several_wait_for_the_slowest() -> None:
    one = table(1)
    assert table_pace(one, []) is None  # told nothing: the table's own
    assert table_pace(one, [(0, "slow")]) == PACES["slow"]
    assert table_pace(one, [(0, "fast"), (None, "slow")]) == PACES["fast"]  # a spectator
    assert table_pace(one, [(0, "fast"), (0, "normal")]) == PACES["normal"]  # two windows
    two = table(2)
    assert table_pace(two, [(0, "fast")]) is None  # seat 1 has said nothing
    assert table_pace(two, [(0, "fast"), (1, "slow")]) == PACES["slow"]
    assert table_pace(two, [(1, "normal"), (0, "fast"), (1, None)]) == PACES["normal"]
    two.apply({"kind": "away", "seat": 1})  # a computer plays seat 1: seat 0's pace
    assert table_pace(two, [(0, "fast")]) == PACES["fast"]
    assert table_pace(two, [(0, "fast"), (1, "slow")]) == PACES["slow"]  # still watching


def live_of(t: Table, *conns: Conn, bot_delay: float | None = None) -> tuple[Turns, Live]:
    tables = LiveTables(store=None, limits=Limits(bot_delay=bot_delay))  # type: ignore[arg-type]
    live = Live(t)
    live.conns.update(conns)
    return Turns(tables, pools=None), live  # type: ignore[arg-type]


def first_trick_over(t: Table) -> None:
    """Play on (as the basic players would) until the first trick is taken."""
    while not t.state.tricks:
        play_one(t)


def test_a_computer_waits_by_the_pace_and_longer_after_a_trick() -> None:
    t = table(1)
    turns, live = live_of(t, conn(0, "slow"))
    assert not after_trick(t)
    assert turns.computer_delay(live) == PACES["slow"].card == 1.2
    first_trick_over(t)
    assert after_trick(t)
    assert turns.computer_delay(live) == PACES["slow"].trick
    play_one(t)  # the lead: the next cards wait a card's time
    assert not after_trick(t)
    next(iter(live.conns)).pace = "fast"  # told again
    assert turns.computer_delay(live) == PACES["fast"].card


def test_the_table_keeps_its_own_pace_where_nobody_told_one_or_the_operator_set_it() -> None:
    t = table(1, bot_delay=0.25)
    turns, live = live_of(t, conn(0, None))
    assert turns.computer_delay(live) == 0.25
    first_trick_over(t)
    assert turns.computer_delay(live) == 0.25
    t.settings.bot_delay = 0.05  # (the operator's pace, as LiveTables.pace sets it)
    turns, live = live_of(t, conn(0, "slow"), bot_delay=0.05)
    assert turns.computer_delay(live) == 0.05
