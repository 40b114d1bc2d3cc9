"""The six-player ante and the home evening of best two out of three."""

from __future__ import annotations

import pytest

from forties.hall import HallError
from forties.hall.home import Ante, HomeEvening, Match, play_ante, play_home

SIX = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")


def test_the_ante_is_two_teams_of_three_then_cut_throat() -> None:
    a = Ante(SIX, stake=2)
    assert a.pot == 12
    assert a.team_rules().sides == ((0, 2, 4), (1, 3, 5))  # type: ignore[attr-defined]
    final = a.final_rules()
    assert final.players == 3 and final.sides == ((0,), (1,), (2,))  # type: ignore[attr-defined]
    with pytest.raises(HallError, match="no winner yet"):
        a.report_final(0)
    a.report_teams(1)
    assert a.finalists() == (1, 3, 5)
    with pytest.raises(HallError, match="not in the cut-throat game"):
        a.report_final(2)
    a.report_final(3)
    assert a.names[a.winner] == "Di"  # type: ignore[index]
    with pytest.raises(HallError, match="already reported"):
        a.report_final(5)
    assert Ante.from_json(a.to_json()) == a


def test_the_final_deal_passes_on_from_the_first_dealer() -> None:
    a = Ante(SIX, first_dealer=3)
    a.report_teams(0)
    assert a.final_first_dealer() == 2  # seats 0, 2, 4: seat 4 is the first after seat 3
    b = Ante(SIX, first_dealer=1)
    b.report_teams(1)
    assert b.final_first_dealer() == 0  # seat 1 itself


def test_the_ante_played_out() -> None:
    a = play_ante(Ante(SIX, stake=1), seed=8, levels=("basic", "random"))
    assert a.team_winner in (0, 1) and a.winner in a.finalists()
    again = play_ante(Ante(SIX, stake=1), seed=8, levels=("basic", "random"))
    assert again == a


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"names": SIX[:5]}, "six players"),
    ({"stake": 0}, "stake"),
    ({"preset": "forty-one"}, "not a game of 45s"),
    ({"preset": "nova-scota"}, "unknown preset"),
    ({"first_dealer": 6}, "first dealer"),
])
def test_the_ante_refuses(kwargs: dict[str, object], words: str) -> None:
    args: dict[str, object] = {"names": SIX, **kwargs}
    with pytest.raises(HallError, match=words):
        Ante(**args)  # type: ignore[arg-type]


def test_home_evening_counts_matches_and_games() -> None:
    ev = HomeEvening((("Ann", "Bob"), ("Cy", "Di")))
    assert ev.rules().match == "best-of-3"  # type: ignore[attr-defined]
    assert ev.report((2, 1)) == Match((2, 1))
    ev.report((0, 2))
    ev.report((2, 0))
    assert ev.tally() == {"matches": (2, 1), "games": (4, 3)}
    for bad in ((2, 2), (1, 1), (3, 0), (1, 0)):
        with pytest.raises(HallError, match="2-0 or 2-1"):
            ev.report(bad)


def test_home_evening_played_out_through_the_engine() -> None:
    ev = play_home(HomeEvening((("Ann", "Bob"), ("Cy", "Di"))), 4, seed=6)
    assert len(ev.matches) == 4
    assert all(sorted(m.games) in ([0, 2], [1, 2]) for m in ev.matches)
    with pytest.raises(HallError):
        HomeEvening((("Ann", "Bob"), ("Cy", "Di")), preset="call-your-partner")
