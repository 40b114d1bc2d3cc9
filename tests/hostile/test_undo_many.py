"""Undo at a table of one person is no endless stream of stored events: a stranger who bids
and takes it back over and over (200 events in 26 s on one connection, each written to the
database and kept) is refused after ``UNDOS_A_HAND`` take-backs in a hand, in one line
(the count is the hand's: each deal starts it again)."""

from __future__ import annotations

import pytest

from forties.table import UNDOS_A_HAND, TableError

from ..test_table_undo import computers_until, first_legal, table


def test_a_hand_allows_a_few_undos_then_refuses_in_one_line() -> None:
    t = table()
    computers_until(t, 0)
    bid = first_legal(t, 0, ("bid",))
    for _ in range(UNDOS_A_HAND):
        for text in (bid, "0 undo"):
            for e in t.act(0, text, t.version):
                t.apply(e)
    for e in t.act(0, bid, t.version):
        t.apply(e)
    with pytest.raises(TableError) as refused:
        t.act(0, "0 undo", t.version)
    assert refused.value.code == "undo" and refused.value.refusal == "undo-many"
    assert "\n" not in refused.value.reason
    assert t.rec.record.hands[-1].actions[-1] == bid  # the bid stands
