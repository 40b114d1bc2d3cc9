"""``python -m lab.throwins``: the share of Forty One hands thrown in."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from forties.actions import Action, Verb
from forties.bots.basic import BasicBot
from lab import throwins


class Bidder(BasicBot):
    """``basic``'s cards, and always the same bid."""

    def __init__(self, bid: int) -> None:
        self.bid = bid

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if legal[0].verb is Verb.BID:
            return next(a for a in legal if a.arg == self.bid)
        return super().choose(view, legal)


@pytest.mark.parametrize(("bids", "thrown"), [((2, 2, 3, 3), 20), ((2, 3, 3, 3), 0),
                                               ((2, 2, 2, 3), 20), ((1, 3, 3, 4), 0)])
def test_a_hand_is_counted_thrown_in_when_its_bids_total_under_eleven(
        bids: tuple[int, ...], thrown: int) -> None:
    got = throwins.count([Bidder(b) for b in bids], 20)
    assert (got.hands, got.thrown) == (20, thrown)
    if not thrown:
        assert got.games >= 1  # the hands were played, and games ended


def test_the_command_prints_the_share_and_refuses_bad_input(
        capsys: pytest.CaptureFixture[str]) -> None:
    throwins.main(["random,basic,random,basic", "30", "4"])
    out = capsys.readouterr().out
    got = throwins.throw_ins(["random", "basic", "random", "basic"], 30, 4)
    assert out.startswith(f"random,basic,random,basic: {got.thrown} of 30 hands thrown in")
    for argv, says in [(["basic"], "four players"), (["basic,x,basic,basic", "5"], "'x'"),
                       (["basic,basic,basic,basic", "0"], "at least 1"),
                       (["basic,basic,basic,basic", "many"], "many"), ([], "usage")]:
        with pytest.raises(SystemExit) as e:
            throwins.main(argv)
        assert says in str(e.value)
