"""The score pad: what each preset's table enters, the rules it applies, the winner and
the rule that decided it, corrections, bad entries (one line each), JSON and CSV."""

from __future__ import annotations

import csv
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forties.actions import BID_30_FOR_60
from forties.pad import Entry, Pad, PadError, new_pad


def ff(bidder: int, bid: int, *points: int, partner: int | None = None) -> Entry:
    return Entry(points=points, bidder=bidder, bid=bid, partner=partner)


# ----- Merrimack Valley ------------------------------------------------------------------


def test_made_and_set_and_the_dealer() -> None:
    pad = new_pad("merrimack-valley", names=["Ann", "Bob", "Cy", "Di"])
    assert pad.side_names() == ["Ann and Cy", "Bob and Di"]
    assert pad.dealer == 0
    row = pad.add(ff(1, 20, 5, 25))  # Bob bids 20 and takes 25: scores what he took
    assert row.scores == (5, 25) and "Bob bid 20: made" in row.text
    assert pad.dealer == 1
    row = pad.add(ff(0, 25, 20, 10))  # Ann bids 25, takes 20: set
    assert row.scores == (-20, 35) and "set" in row.text
    assert pad.dealer == 2


def test_bidder_goes_out() -> None:
    pad = new_pad("merrimack-valley", {"target": 60}, names=["Ann", "Bob", "Cy", "Di"])
    pad.add(ff(0, 15, 25, 5))
    pad.add(ff(1, 15, 5, 25))
    pad.add(ff(0, 15, 15, 15))
    assert pad.scores == (45, 45) and not pad.over
    row = pad.add(ff(1, 15, 15, 15))  # both past 60: the bidders win
    assert pad.over and pad.winner == 1
    assert pad.result_text() == "Bob and Di win: bidder goes out"
    assert row.text.endswith("Bob and Di win: bidder goes out")
    with pytest.raises(PadError, match="the game is over: Bob and Di win"):
        pad.add(ff(0, 15, 15, 15))


def test_first_to_the_target() -> None:
    pad = new_pad("merrimack-valley", {"target": 30})
    pad.add(ff(0, 20, 30, 0))
    assert pad.result_text() == "Ann and Cy win: first to 30"


# ----- Auction 45: bid scores, 30 for 60, lock at 100 -------------------------------------


def test_auction_scores_the_bid_and_30_for_60() -> None:
    pad = new_pad("auction-45")
    assert pad.add(ff(0, 20, 25, 5)).scores == (20, 5)  # the bid, not what was taken
    row = pad.add(ff(1, 30, 0, 30))
    assert row.scores == (20, 65) and "30 made scores 60" in row.text
    assert pad.add(ff(1, 25, 10, 20)).scores == (30, 40)


def test_lock_at_100() -> None:
    pad = new_pad("auction-45")
    pad.add(ff(0, 30, 30, 0))
    pad.add(ff(0, 20, 25, 5))
    pad.add(ff(0, 20, 20, 10))  # 100: locked from now on
    assert pad.scores == (100, 15)
    row = pad.add(ff(1, 20, 10, 20))  # they did not bid: no score
    assert row.scores == (100, 35) and "Ann and Cy locked at 100" in row.text
    with pytest.raises(PadError, match="on 100 or more: their bid is at least"):
        # min_bid_at_100 is not part of Auction 45; with it the bid is checked
        p2 = new_pad("merrimack-valley", {"min_bid_at_100": 20})
        for _ in range(4):
            p2.add(ff(0, 15, 25, 5))
        p2.add(ff(0, 15, 20, 10))
    row = pad.add(ff(0, 20, 20, 10))
    assert pad.over and pad.result_text() == "Ann and Cy win: first to 120"


def test_thrown_in_when_nobody_bids() -> None:
    pad = new_pad("auction-45")
    row = pad.add(Entry(thrown_in=True))
    assert row.scores == (0, 0) and row.text == "nobody bid: thrown in" and pad.dealer == 1
    mv = new_pad("merrimack-valley")
    with pytest.raises(PadError, match="the dealer must bid"):
        mv.add(Entry(thrown_in=True))


# ----- Call Your Partner ------------------------------------------------------------------


def test_call_your_partner_partners_share_the_bid_and_the_win() -> None:
    pad = new_pad("call-your-partner", names=["Ann", "Bob", "Cy", "Di", "Ed"])
    row = pad.add(ff(0, 30, 20, 0, 10, 0, 0, partner=2))
    assert row.scores == (60, 0, 60, 0, 0) and "Ann bid 30 with Cy: made" in row.text
    pad.add(ff(0, 30, 20, 0, 10, 0, 0, partner=2))
    assert pad.over and pad.winner == (0, 2)
    assert pad.result_text() == "Ann and Cy win: first to 120"
    with pytest.raises(PadError, match="only Call Your Partner"):
        new_pad("merrimack-valley").add(ff(0, 20, 20, 10, partner=2))


# ----- Traditional 45 ---------------------------------------------------------------------


def test_traditional_first_round_totals_and_the_end() -> None:
    pad = new_pad("nova-scotia")
    row = pad.add(Entry(points=(25, 5), trump="JD"))
    assert row.scores == (25, 5) and "JD turned up" in row.text
    with pytest.raises(PadError, match="add up to 35"):
        pad.add(Entry(points=(20, 15)))
    with pytest.raises(PadError, match="nobody bids"):
        pad.add(ff(0, 20, 20, 10))
    row = pad.add(Entry(points=(20, 0)))  # 45 reached at the fourth trick: game over
    assert pad.over and pad.result_text() == "Ann and Cy win: first to 45"
    pad2 = new_pad("nova-scotia")
    pad2.add(Entry(points=(30, 0)))
    with pytest.raises(PadError, match="a trick sooner"):
        pad2.add(Entry(points=(30, 0)))


def test_best_of_three() -> None:
    pad = new_pad("nova-scotia", {"match": "best-of-3"})
    pad.add(Entry(points=(30, 0)))
    row = pad.add(Entry(points=(15, 0)))
    assert "Ann and Cy win game 1 (1-0)" in row.text and not pad.over
    assert pad.add(Entry(points=(0, 30))).scores == (0, 30)  # the next game from 0
    pad.add(Entry(points=(0, 15)))
    pad.add(Entry(points=(30, 0)))
    pad.add(Entry(points=(20, 0)))
    assert pad.over and pad.result_text() == "Ann and Cy win the match 2-1: first to 45"


# ----- Forty One --------------------------------------------------------------------------


def test_forty_one() -> None:
    pad = new_pad("forty-one", names=["Ann", "Bob", "Cy", "Di"])
    row = pad.add(Entry(bids=(2, 2, 3, 2)))  # 9: under 11, thrown in, the deal passes
    assert row.scores == (0, 0, 0, 0) and "thrown in" in row.text and pad.dealer == 1
    row = pad.add(Entry(bids=(7, 2, 1, 1), tricks=(7, 2, 1, 3)))
    assert row.scores == (14, 2, 1, 1) and "Ann's bid doubled" in row.text
    row = pad.add(Entry(bids=(13, 1, 1, 1), tricks=(13, 0, 0, 0)))
    assert row.scores == (40, 1, 0, 0)  # Cy on 0: Ann cannot win yet
    row = pad.add(Entry(bids=(3, 3, 3, 3), tricks=(3, 3, 4, 3)))
    assert pad.over and pad.result_text() == "Ann and Cy win: 41 with a partner above 0"
    with pytest.raises(PadError, match="add up to 12, not 13"):
        new_pad("forty-one").add(Entry(bids=(3, 3, 3, 3), tricks=(3, 3, 3, 3)))


def test_forty_one_partner_not_positive() -> None:
    pad = new_pad("forty-one")
    pad.add(Entry(bids=(13, 1, 2, 1), tricks=(13, 0, 0, 0)))  # Ann 26, Cy -2
    row = pad.add(Entry(bids=(8, 1, 1, 1), tricks=(8, 2, 1, 2)))  # Ann 42, Cy -1
    assert row.scores == (42, 0, -1, 0) and not pad.over
    assert "Ann is past 41 but the partner is not above 0" in row.text


# ----- corrections ------------------------------------------------------------------------


def test_correcting_a_hand_scores_the_rest_again() -> None:
    pad = new_pad("merrimack-valley")
    pad.add(ff(0, 20, 20, 10))
    pad.add(ff(1, 20, 10, 20))
    pad.add(ff(0, 15, 25, 5))
    pad.correct(1, ff(0, 20, 15, 15))  # Ann was set, not made
    assert [r.scores for r in pad.rows] == [(-20, 15), (-10, 35), (15, 40)]
    with pytest.raises(PadError, match="no hand 9"):
        pad.correct(9, ff(0, 20, 15, 15))
    with pytest.raises(PadError, match="add up to 35"):
        pad.correct(2, ff(1, 20, 10, 25))
    assert [r.scores for r in pad.rows] == [(-20, 15), (-10, 35), (15, 40)]  # unchanged


def test_a_correction_that_ends_the_game_sooner_is_refused() -> None:
    pad = new_pad("merrimack-valley", {"target": 45, "bid_30_for_60": True})
    pad.add(ff(0, 20, 20, 10))
    pad.add(ff(1, 20, 10, 20))
    with pytest.raises(PadError, match="hand 1 cannot be that: hand 2 would no longer fit"):
        pad.correct(1, ff(0, BID_30_FOR_60, 30, 0))
    pad.remove_last()
    pad.correct(1, ff(0, BID_30_FOR_60, 30, 0))
    assert pad.over and pad.scores == (60, 0)


# ----- bad entries: one line each ---------------------------------------------------------

BAD = [
    ("merrimack-valley", ff(0, 20, 20, 0), "add up to 20: a hand has 30"),
    ("merrimack-valley", ff(0, 20, 23, 7), "points go by fives"),
    ("merrimack-valley", ff(0, 20, 1, 29), "Ann and Cy: 1 point? points go by fives"),
    ("merrimack-valley", ff(0, 20, -1, 31), "Ann and Cy: -1 point? points are never below zero"),
    ("merrimack-valley", ff(0, 20, -5, 35), "Ann and Cy: -5 points? points are never below zero"),
    ("merrimack-valley", ff(0, 20, 30), "2 numbers (Ann and Cy, Bob and Di)"),
    ("merrimack-valley", ff(7, 20, 20, 10), "there is no seat 7"),
    ("merrimack-valley", Entry(points=(20, 10)), "who won the bid?"),
    ("merrimack-valley", ff(0, 35, 20, 10), "35 is not a bid here (bids: 15, 20, 25, 30)"),
    ("auction-45", ff(0, 15, 20, 10), "15 is not a bid here"),
    ("auction-45", ff(0, BID_30_FOR_60, 20, 10), "30for60 is not a bid here"),
    ("forty-one", Entry(bids=(3, 3, 3)), "give the 4 bids"),
    ("forty-one", Entry(bids=(0, 3, 3, 3)), "a bid is 1 to 13 tricks"),
    ("forty-one", Entry(bids=(3, 3, 3, 3)), "give the tricks each seat took"),
    ("forty-one", ff(0, 20, 20, 10), "in Forty One enter each seat's bid and tricks"),
    ("nova-scotia", Entry(points=(20, 10), trump="XX"), "not a suit"),
]


@pytest.mark.parametrize(("preset", "entry", "message"), BAD)
def test_bad_entries(preset: str, entry: Entry, message: str) -> None:
    pad = new_pad(preset)
    with pytest.raises(PadError) as err:
        pad.add(entry)
    assert message in str(err.value) and "\n" not in str(err.value)
    assert not pad.rows


@pytest.mark.parametrize(("obj", "message"), [
    ([1, 2], "a hand must be an object"),
    ({"bidder": 0, "bid": "lots", "points": [20, 10]}, "'lots' is not a bid"),
    ({"bidder": "Ann", "bid": 20, "points": [20, 10]}, "bidder must be a seat number"),
    ({"points": "20-10"}, "points must be a list"),
    ({"points": [20, "x"]}, "'x' is not a whole number"),
    ({"pionts": [20, 10]}, "a hand has no 'pionts'"),
])
def test_bad_json_entries(obj: object, message: str) -> None:
    with pytest.raises(PadError, match=message):
        Entry.from_json(obj)


def test_names_left_out_are_filled_in() -> None:
    assert new_pad("merrimack-valley", names=["Cy", "", "Ann", ""]).names == \
        ["Cy", "Bob", "Ann", "Di"]
    assert new_pad("merrimack-valley").names == ["Ann", "Bob", "Cy", "Di"]


@pytest.mark.parametrize(("preset", "names", "message"), [
    ("auction-45", ["Eve", "Fay", "Di"], "the names give 3 players; auction-45 has 4"),
    ("auction-45", ["Eve"], "the names give 1 player; auction-45 has 4"),
    ("auction-45", ["A", "B", "C", "D", "E"], "the names give 5 players; auction-45 has 4"),
    ("call-your-partner", ["A", "B", "C", "D"], "the names give 4 players; call-your-partner "
     "has 5"),
])
def test_a_name_left_off_the_list_is_refused_not_filled_in(
        preset: str, names: list[str], message: str) -> None:
    # a stranger at the table would move everyone's partner and seat: say so instead
    with pytest.raises(PadError, match=f"^{message}$") as got:
        new_pad(preset, names=names)
    assert got.value.code == "names-count"


def test_bad_pads() -> None:
    with pytest.raises(PadError, match="same name"):
        new_pad("merrimack-valley", names=["Ann", "Ann"])
    with pytest.raises(PadError, match="unknown preset"):
        new_pad("whist")
    with pytest.raises(PadError, match="not a forties score pad"):
        Pad.from_json({"format": "x"})
    good = new_pad("merrimack-valley")
    good.add(ff(0, 20, 20, 10))
    data = good.to_json()
    data["hands"].append({"bidder": 0, "bid": "20", "points": [20, 20]})
    with pytest.raises(PadError, match="hand 2: the points add up to 40"):
        Pad.from_json(data)


# ----- saving and export ------------------------------------------------------------------


def test_json_round_trip_and_csv() -> None:
    pad = new_pad("call-your-partner", {"target": 60, "lock_at": None},
                  names=["Ann", "Bob", "Cy", "Di", "Ed"], first_dealer=3, title="Friday")
    pad.add(ff(0, 25, 20, 0, 10, 0, 0, partner=2))
    pad.add(Entry(thrown_in=True))
    again = Pad.from_json(json.loads(json.dumps(pad.to_json())))
    assert again.to_json() == pad.to_json() and again.scores == pad.scores
    assert again.dealer == 0 and again.title == "Friday"
    rows = list(csv.reader(io.StringIO(pad.to_csv())))
    assert rows[0][:7] == ["hand", "game", "dealer", "bidder", "bid", "partner", "trump"]
    assert rows[1][:6] == ["1", "1", "Di", "Ann", "25", "Cy"]
    assert rows[1][-6:-1] == ["25", "0", "25", "0", "0"]  # the bid, to both partners
    assert rows[2][-1] == "nobody bid: thrown in"
    summary = pad.summary_json()
    assert summary["dealer"] == 0 and summary["rows"][0]["note"] == "made"
    assert summary["bids"] == ["20", "25", "30"]


def test_a_pad_holds_at_most_1000_hands() -> None:
    pad = new_pad("forty-one")
    for _ in range(1000):
        pad.add(Entry(bids=(1, 1, 1, 1)))  # thrown in, again and again
    with pytest.raises(PadError, match="at most 1000 hands"):
        pad.add(Entry(bids=(1, 1, 1, 1)))


# ----- anything at all: a PadError of one line, never another exception ---------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**7, 10**7) | st.text(max_size=8)
    | st.sampled_from(["20", "30for60", "H", "JD", "", "-5"]),
    lambda inner: st.lists(inner, max_size=6)
    | st.dictionaries(st.sampled_from(["points", "bidder", "bid", "partner", "trump",
                                       "thrown_in", "bids", "tricks", "x"]), inner,
                      max_size=5),
    max_leaves=20)


@settings(max_examples=150)
@given(st.sampled_from(["merrimack-valley", "nova-scotia", "auction-45",
                        "call-your-partner", "forty-one"]), st.lists(JSON, max_size=4))
def test_any_hand_is_taken_or_refused_in_one_line(preset: str, hands: list[object]) -> None:
    pad = new_pad(preset)
    for h in hands:
        try:
            pad.add(Entry.from_json(h))
        except PadError as e:
            assert str(e) and "\n" not in str(e)
    data = pad.to_json()
    data["hands"] = hands
    try:
        Pad.from_json(data)
    except PadError as e:
        assert str(e) and "\n" not in str(e)
