"""``python -m lab.fusion``: where the expert's card play loses, on the real cards."""

from __future__ import annotations

import pytest

from forties.bots import expert
from lab import fusion


@pytest.fixture(autouse=True)
def _fewer_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """The expert of 96 deals a card, as these tests were sized for (256, the default,
    would make them some 2.7 times dearer for nothing they check)."""
    monkeypatch.setattr(expert, "PLAY_WORLDS", 96)


def test_losses_are_counted_by_trick_and_are_never_negative() -> None:
    rows = fusion.losses("merrimack-valley", 2)
    assert rows
    for (trick, role, side), (n, bad, lost) in rows.items():
        assert 1 <= trick <= 5 and role in ("lead", "follow")
        assert side in ("bidding side", "defence")
        assert n >= 1 and 0 <= bad <= n
        assert lost >= 0 and (lost > 0) == (bad > 0)
    # every card of a hand but the last is a choice or not: at most 4 tricks x 4 seats
    # of choices in each of 2 hands
    assert sum(r[0] for r in rows.values()) <= 2 * 4 * 4


def test_one_turn_kept_never_differs_from_the_average() -> None:
    """With one turn the search is the expert's average: the same card every time."""
    one = fusion.differ("merrimack-valley", 1, cards=5, turns=1)
    assert one["decisions"] > 0
    assert one["differ"] == 0 and one["gain"] == 0
    two = fusion.differ("merrimack-valley", 1, cards=5, turns=2)
    assert two["decisions"] == one["decisions"]


def test_the_same_count_of_deals_differs_only_by_the_draw() -> None:
    """``worlds``: the card on COUNT deals and on a fresh draw of the expert's own count.
    With COUNT the expert's own, both are redraws of the same player."""
    w = fusion.more_worlds("merrimack-valley", 1, 96)
    assert w.decisions > 0
    for k in ("more", "redraw"):
        assert 0 <= w.differ[k] <= w.decisions
        mean, lo, hi = w.gain[k]
        assert lo <= mean <= hi
        assert (w.differ[k] == 0) <= (mean == 0)  # (no other card: nothing gained)


def test_the_bids_screen_asks_about_the_choices_before_the_play() -> None:
    """``bids``: every choice with more than one option before the first card, and no card,
    is asked again on COUNT deals; judged by a reference draw, which it cannot do without."""
    positions = []
    for g, s, bot, legal, _ in fusion._hands("merrimack-valley", 2, 40_000):
        if len(legal) > 1 and g.phase.value != "play":
            positions.append(g.phase.value)
        g.apply(bot.choose(g.view(s), legal))
    w = fusion.more_worlds("merrimack-valley", 2, 12, reference=24, bids=True)
    assert w.decisions == len(positions) > 0
    assert set(positions) <= set(fusion.BEFORE_PLAY)
    for k in ("more", "redraw"):
        mean, lo, hi = w.gain[k]
        assert lo <= mean <= hi
        assert (w.differ[k] == 0) <= (mean == 0)
    with pytest.raises(ValueError, match="reference"):
        fusion.more_worlds("merrimack-valley", 1, 12, bids=True)


def test_the_command_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    fusion.main(["losses", "1"])
    out = capsys.readouterr().out
    assert "points lost a hand" in out and "in all" in out
    fusion.main(["differ", "1", "merrimack-valley", "3"])
    assert "cards with a choice" in capsys.readouterr().out
    fusion.main(["worlds", "1", "auction-45", "24"])
    out = capsys.readouterr().out
    assert "on 24 deals: another choice in" in out and "the control" in out
    assert "on the real deals" in out
    fusion.main(["worlds", "1", "auction-45", "8", "--reference", "48"])
    assert "gained by 48 imagined deals" in capsys.readouterr().out
    fusion.main(["bids", "1", "merrimack-valley", "12", "--reference", "24"])
    out = capsys.readouterr().out
    assert "choices before the play with a choice" in out and "on 12 deals" in out
    for bad in (["losses", "0"], ["losses", "1", "forty-one"], ["differ", "1", "nowhere"],
                ["worlds", "1", "merrimack-valley", "0"],
                ["worlds", "1", "merrimack-valley", "8", "--reference", "-1"],
                ["bids", "1", "merrimack-valley", "12"],
                ["bids", "1", "merrimack-valley", "1", "--reference", "24"]):
        with pytest.raises(SystemExit):
            fusion.main(bad)
        assert "error:" in capsys.readouterr().err
