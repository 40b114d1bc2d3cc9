"""Golden records for the Forty-Fives deal, auction, trump, kitty and draw options.

Each record in ``golden/ff_deal_auction/`` is a small hand-made deal and its
actions, chosen so that one rule decides what happens. It is judged three ways,
which must agree with each other and with the stored ``NAME.expected.json``:
``referee(Record.from_json(...))``, driving ``new_game`` with ``apply``, and
``forties check`` on the command line.

The stored verdicts were written by the engine and read over by hand when they were
made; they are not an independent oracle. Their tricks, points, scores and results are
checked again without the engine by ``test_golden_scores.py``; what they say about
legal actions and refusal reasons guards against change only, and rests on the named
tests further down, which assert the facts each rule implies, worked out by hand from
the rules reference (``docs/rules.md``).

Card order in the engine's output: clubs, diamonds, hearts, spades, each 2..A.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from math import comb
from pathlib import Path
from typing import Any

import pytest

from forties import (
    Action,
    Deal,
    GameState,
    IllegalActionError,
    Phase,
    Record,
    RulesError,
    Verb,
    build_rules,
    new_game,
    referee,
)

from .helpers_engine import GOLDEN_DIR, check_many, golden_names, play_record, run_forties

GOLDEN = GOLDEN_DIR / "ff_deal_auction"
NAMES = golden_names(GOLDEN)
MV = "merrimack-valley"
A45 = "auction-45"

Verdict = dict[str, Any]


# ----- the three ways of judging a record ------------------------------------------------


def record_path(name: str) -> Path:
    return GOLDEN / f"{name}.record.json"


def record_json(name: str) -> Any:
    return json.loads(record_path(name).read_text(encoding="utf-8"))


def expected(name: str) -> Verdict:
    data: Verdict = json.loads((GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8"))
    return data


@cache
def cli_verdicts() -> dict[str, tuple[Verdict, int, str]]:
    """``forties check`` on every golden record (in one process, once per session; the
    installed script gives the same: test_the_installed_script_checks_as_the_batch)."""
    done = check_many([record_path(name) for name in NAMES])
    return {name: (json.loads(o), c, e)
            for name, (o, c, e) in ((n, done[str(record_path(n))]) for n in NAMES)}


@pytest.mark.parametrize("name", [NAMES[0], next(n for n in NAMES if n.endswith("_illegal"))])
def test_the_installed_script_checks_as_the_batch(name: str) -> None:
    """``forties check`` run as its own process prints what the batch of checks saw."""
    p = run_forties("check", str(record_path(name)))
    assert (json.loads(p.stdout), p.returncode, p.stderr) == cli_verdicts()[name]


def api_verdict(name: str) -> tuple[Verdict, int]:
    return referee(Record.from_json(record_json(name)))


def verdict(name: str) -> Verdict:
    """The verdict on ``name`` after checking that the API, the command line and the stored
    expectation agree, with exit status 1 exactly for the ``*_illegal`` records."""
    status = 1 if name.endswith("_illegal") else 0
    api, api_status = api_verdict(name)
    cli, cli_status, err = cli_verdicts()[name]
    assert (api_status, cli_status) == (status, status)
    assert err == ""
    assert api == cli
    assert api == expected(name), f"{name}: the verdict changed from the stored one"
    return api


def drive(name: str, cut: int = 0) -> GameState:
    """The record's game driven with ``new_game`` and ``apply``, every hand, leaving out
    the last ``cut`` actions of the last hand."""
    return play_record(Record.from_json(record_json(name)), upto=-cut if cut else None)


def check_refuses(tmp_path: Path, obj: Any) -> str:
    """``forties check`` on ``obj`` written to a file: exit 2, nothing on standard output
    and one line on standard error, which is returned."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    p = run_forties("check", str(path))
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1
    return p.stderr


def error(v: Verdict) -> dict[str, Any]:
    err: dict[str, Any] = v["error"]
    return err


def acts(texts: Iterable[str]) -> set[Action]:
    """Actions compared as values: a discard's cards in any order."""
    return {Action.parse(t) for t in texts}


def plays(seat: int, text: str) -> set[Action]:
    """``seat play C`` for each card C in ``text``."""
    return acts(f"{seat} play {c}" for c in text.split())


def winners(hand: dict[str, Any]) -> list[int]:
    return [t["winner"] for t in hand["tricks"]]


def hand_of(state: GameState, seat: int) -> set[str]:
    return set(state.view(seat)["hand"])


def cards(text: str) -> set[str]:
    return set(text.split())


# ----- every record, three ways -------------------------------------------------------------


def test_golden_directory_is_complete() -> None:
    """Every record has its stored verdict, and this file asserts something about it."""
    assert len(NAMES) >= 50
    source = Path(__file__).read_text(encoding="utf-8")
    for name in NAMES:
        assert (GOLDEN / f"{name}.expected.json").exists(), name
        assert f'"{name}"' in source, f"{name} has no rule-specific test"


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_api_cli_and_expected_agree(name: str) -> None:
    """referee(), forties check and the stored verdict agree; so does driving new_game."""
    v = verdict(name)
    if name.endswith("_illegal"):
        err = error(v)
        state = drive(name, cut=1)
        bad = Action.parse(err["action"])
        assert err["action"] == record_json(name)["hands"][-1]["actions"][-1]
        assert err["hand"] == len(record_json(name)["hands"]) - 1
        assert err["index"] == len(record_json(name)["hands"][-1]["actions"]) - 1
        assert state.reason(bad) == err["reason"]
        with pytest.raises(IllegalActionError) as info:
            state.apply(bad)
        assert info.value.reason == err["reason"]
    else:
        state = drive(name)
    # to_act and legal describe the state the record stops at (before the bad action)
    assert v["to_act"] == state.turn
    assert v["scores"] == state.scores
    assert v["over"] == state.over
    if state.over:
        assert v["legal"] is None
    else:
        assert v["legal"] == [str(a) for a in state.legal_actions()]


# ----- players and sides ------------------------------------------------------------------


def test_heads_up_two_players_each_his_own_side() -> None:
    """Two players: one seat a side; the dealer (seat 1) bids last, seat 0 opens."""
    v = verdict("players_2_heads_up")
    assert v["sides"] == [[0], [1]]
    (h,) = v["hands"]
    assert (h["dealer"], h["bidder"], h["bid"], h["trump"]) == (1, 0, "20", "H")
    # 5H JH AH KH win four trump tricks (5H carries the bonus: 4*5+5 = 25); 2C loses to KC
    assert winners(h) == [0, 0, 0, 0, 1]
    assert h["points"] == [25, 5]
    # bid 20 made: the bidder scores all he took (bidder_scores taken); seat 1 his 5
    assert v["scores"] == [25, 5]
    assert (v["to_act"], v["legal"]) == (None, [])


def test_cut_throat_three_players() -> None:
    """Three players score alone: seat 1's KC trick is his, seat 2 took nothing."""
    v = verdict("players_3_cut_throat")
    assert v["sides"] == [[0], [1], [2]]
    (h,) = v["hands"]
    assert h["dealer"] == 2 and h["bidder"] == 0
    assert winners(h) == [0, 0, 0, 0, 1]
    assert h["points"] == [25, 5, 0] and v["scores"] == [25, 5, 0]


def test_partners_four_players() -> None:
    """Four players in pairs 0+2 / 1+3; each trick counts for the winner's pair."""
    v = verdict("players_4_pairs")
    assert v["sides"] == [[0, 2], [1, 3]]
    (h,) = v["hands"]
    # trick 4: 2C led, no trump played, KC is the highest club: seat 3 (pair 1+3)
    # trick 5: seat 3 leads 4D; KD is the highest diamond: seat 2 (pair 0+2)
    assert winners(h) == [0, 0, 0, 3, 2]
    assert h["tricks"][4]["leader"] == 3
    assert h["points"] == [25, 5] and v["scores"] == [25, 5]


def test_cut_throat_five_players() -> None:
    """Five players score alone: the last trick is seat 4's own."""
    v = verdict("players_5_cut_throat")
    assert v["sides"] == [[0], [1], [2], [3], [4]]
    (h,) = v["hands"]
    assert h["dealer"] == 4
    assert winners(h) == [0, 0, 0, 0, 4]
    assert h["points"] == [25, 0, 0, 0, 5] and v["scores"] == [25, 0, 0, 0, 5]


def test_six_players_default_to_three_pairs_keeping_two() -> None:
    """Six players: pairs k and k+3, and (002) each must keep two cards."""
    rules = build_rules(MV, {"players": 6})
    assert rules.teams == "three-pairs"  # type: ignore[attr-defined]
    assert rules.keep_min == 2  # type: ignore[attr-defined]
    v = verdict("players_6_three_pairs")
    assert v["sides"] == [[0, 3], [1, 4], [2, 5]]
    (h,) = v["hands"]
    assert h["dealer"] == 5
    # seat 5's KC takes the last trick: side 2 (seats 2 and 5)
    assert winners(h) == [0, 0, 0, 0, 5]
    assert h["points"] == [25, 0, 5] and v["scores"] == [25, 0, 5]


def test_six_players_two_teams_of_three() -> None:
    """Same cards, teams 0,2,4 and 1,3,5: seat 5's trick now counts for side 1."""
    v = verdict("players_6_two_threes")
    assert v["sides"] == [[0, 2, 4], [1, 3, 5]]
    (h,) = v["hands"]
    assert h["tricks"] == verdict("players_6_three_pairs")["hands"][0]["tricks"]
    assert h["points"] == [25, 5] and v["scores"] == [25, 5]


def test_six_players_may_not_discard_four() -> None:
    """keep_min 2 with six: discarding four of five is refused, three is the most."""
    v = verdict("keep_min_2_six_players_illegal")
    err = error(v)
    assert (err["hand"], err["index"], err["action"]) == (0, 8, "1 discard 9D 8D 7D 6D")
    assert "keep at least 2 cards" in err["reason"]
    assert v["to_act"] == 1
    # keep two of five: discard 0..3 cards
    assert len(v["legal"]) == sum(comb(5, k) for k in range(4))
    assert max(Action.parse(a).arg.bit_count() for a in v["legal"]) == 3


# ----- the kitty ----------------------------------------------------------------------------


def test_kitty_three_bidder_must_come_down_to_five() -> None:
    """Kitty 3: the bidder holds eight and must discard 3..7 (keeping at least one)."""
    v = verdict("kitty_3_bidder_comes_down_to_five_illegal")
    err = error(v)
    assert (err["hand"], err["index"], err["action"]) == (0, 5, "0 discard 2S 3S")
    assert "8 cards" in err["reason"] and "at least 3" in err["reason"]
    sizes = {Action.parse(a).arg.bit_count() for a in v["legal"]}
    assert sizes == {3, 4, 5, 6, 7}
    assert len(v["legal"]) == sum(comb(8, k) for k in range(3, 8))
    assert acts(["0 discard 2S 3S 4S"]) <= acts(v["legal"])


def test_kitty_zero_bidder_keeps_his_five() -> None:
    """No kitty: the bidder holds five, may keep them all, and leads from them."""
    rules = build_rules(MV, {"kitty": 0})
    assert rules.stock_size() == 32  # type: ignore[attr-defined]
    v = verdict("kitty_0")
    assert record_json("kitty_0")["hands"][0]["deal"]["kitty"] == []
    assert "0 discard" in record_json("kitty_0")["hands"][0]["actions"]
    assert acts(v["legal"]) == plays(0, "5H JH AH KH QH")
    state = drive("kitty_0")
    assert state.view(0)["kitty_size"] == 0


def test_kitty_four() -> None:
    """Kitty 4: the bidder holds nine at the draw and must throw at least four."""
    v = verdict("kitty_4")
    assert len(record_json("kitty_4")["hands"][0]["deal"]["kitty"]) == 4
    assert acts(v["legal"]) == plays(0, "5H JH AH KH QH")
    state = drive("kitty_4_bidder_discards_three_illegal", cut=1)
    assert state.phase is Phase.DRAW and state.turn == 0
    assert hand_of(state, 0) == cards("5H JH AH KH QH 2S 3S 4S 5S")
    assert state.view(0)["kitty"] == ["2S", "3S", "4S", "5S"]
    v = verdict("kitty_4_bidder_discards_three_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (5, "0 discard 2S 3S 4S")
    assert "9 cards" in err["reason"] and "at least 4" in err["reason"]
    assert len(v["legal"]) == sum(comb(9, k) for k in range(4, 9))


def test_kitty_four_refuses_a_three_card_kitty(tmp_path: Path) -> None:
    """A deal whose kitty does not match the rules is not a game: exit status 2."""
    obj = record_json("kitty_4")
    obj["hands"][0]["deal"]["kitty"] = ["2S", "3S", "4S"]
    obj["hands"][0]["deal"]["stock"].append("5S")
    err = check_refuses(tmp_path, obj)
    assert "hand 1" in err and "kitty has 3 cards, not 4" in err


# ----- the auction --------------------------------------------------------------------------


def test_single_auction_dealer_bids_last_and_ends_it() -> None:
    """Single: 15, 20, pass, and the dealer's 25 ends the auction; seat 3 names trump."""
    v = verdict("auction_single")
    (h,) = v["hands"]
    assert (h["dealer"], h["bidder"], h["bid"], h["trump"]) == (3, 3, "25", None)
    assert v["to_act"] == 3
    assert acts(v["legal"]) == acts(f"3 trump {s}" for s in "CDHS")


def test_single_auction_no_second_bid() -> None:
    """Single: seat 0 had his one bid; once the dealer has spoken it is seat 3's trump."""
    v = verdict("auction_single_no_second_round_illegal")
    err = error(v)
    assert (err["hand"], err["index"], err["action"]) == (0, 4, "0 bid 30")
    assert "seat 3's turn" in err["reason"]
    assert v["hands"][0]["bidder"] == 3


def test_dealer_may_hold_takes_the_bid_at_20() -> None:
    """000 var 4: the dealer holds the 20 without raising; a single auction ends there."""
    state = drive("dealer_may_hold_single", cut=1)
    assert Action.parse("3 hold") in state.legal_actions()
    v = verdict("dealer_may_hold_single")
    (h,) = v["hands"]
    assert (h["bidder"], h["bid"]) == (3, "20")
    assert v["to_act"] == 3 and all(" trump " in a for a in v["legal"])


def test_dealer_may_not_hold_without_the_option() -> None:
    """Merrimack Valley as written has no hold: the dealer must pass or bid higher."""
    v = verdict("dealer_hold_not_allowed_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (3, "3 hold")
    assert "may not hold" in err["reason"]
    assert acts(v["legal"]) == acts(["3 pass", "3 bid 25", "3 bid 30"])


def test_only_the_dealer_may_hold() -> None:
    """A hold is the dealer's privilege only."""
    v = verdict("hold_not_by_other_seat_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (1, "1 hold")
    assert "only the dealer" in err["reason"]
    assert Action.parse("1 hold") not in acts(v["legal"])


def test_hold_reopens_the_bidding() -> None:
    """000 var 6: the hold reopens bidding among 0 and 1 (seat 2 passed); seat 0 goes 25,
    seat 1 passes, the dealer holds again, seat 0 passes: the dealer has it at 25."""
    state = drive("auction_hold_reopens", cut=1)
    v = verdict("auction_hold_reopens")
    (h,) = v["hands"]
    assert (h["bidder"], h["bid"]) == (3, "25")
    assert v["to_act"] == 3 and all(" trump " in a for a in v["legal"])
    # step by step: after the first hold it is seat 0's turn again, not the end
    rules = build_rules(MV, {"auction": "hold-reopens", "dealer_may_hold": True})
    deal = state.deal
    g = new_game(rules, first_dealer=3, deal=deal)
    for a in ("0 bid 15", "1 bid 20", "2 pass", "3 hold"):
        g.apply(a)
    assert g.phase is Phase.AUCTION and g.turn == 0
    assert acts(str(a) for a in g.legal_actions()) == acts(["0 pass", "0 bid 25", "0 bid 30"])
    # a dealer who bids rather than holds ends the auction as in a single auction
    g = new_game(rules, first_dealer=3, deal=deal)
    for a in ("0 bid 15", "1 bid 20", "2 pass", "3 bid 25"):
        g.apply(a)
    assert g.phase is Phase.TRUMP and g.turn == 3


def test_open_auction_seed_001_dealer_takes_it_at_25() -> None:
    """Seed 001: 1 bids 20, 2 passes, 3 bids 25, the dealer holds; 1 passes and 3 gives it
    to the dealer for 25. Auction 45 lets the winner at 25 raise to 30 first."""
    v = verdict("auction_open_seed001_dealer_takes_25")
    (h,) = v["hands"]
    assert (h["dealer"], h["bidder"], h["bid"]) == (0, 0, "25")
    # (or decline it by naming trump: the dealer holds AH, so any suit)
    assert v["to_act"] == 0 and acts(v["legal"]) == acts(["0 pass", "0 raise 30", *(
        f"0 trump {s}" for s in "CDHS")])


def test_open_auction_seed_001_dealer_holds_again_at_30() -> None:
    """Seed 001: after the hold, 1 bids 30, so 3 cannot bid again (pass is all he has); the
    dealer holds again and 1, with nothing higher, passes: the dealer has it at 30."""
    state = drive("auction_open_seed001_dealer_holds_30", cut=1)
    g = new_game(state.rules, first_dealer=0, deal=state.deal)
    for a in ("1 bid 20", "2 pass", "3 bid 25", "0 hold", "1 bid 30"):
        g.apply(a)
    assert g.turn == 3 and [str(a) for a in g.legal_actions()] == ["3 pass"]
    g.apply("3 pass")
    assert g.turn == 0 and Action.parse("0 hold") in g.legal_actions()
    g.apply("0 hold")
    assert g.turn == 1 and [str(a) for a in g.legal_actions()] == ["1 pass"]
    v = verdict("auction_open_seed001_dealer_holds_30")
    (h,) = v["hands"]
    assert (h["bidder"], h["bid"]) == (0, "30")
    # at 30 there is nothing to raise: straight to trump (the dealer holds AH: any suit)
    assert v["to_act"] == 0 and acts(v["legal"]) == acts(f"0 trump {s}" for s in "CDHS")


def test_open_auction_seed_001_dealer_passes() -> None:
    """Seed 001: had the dealer passed, Player 1 could give it to Player 3 at 25."""
    v = verdict("auction_open_seed001_dealer_passes")
    (h,) = v["hands"]
    assert (h["bidder"], h["bid"]) == (3, "25")
    # seat 3 holds KS 4D 3D 2D AD: only diamonds or spades may be named to decline it
    assert v["to_act"] == 3 and acts(v["legal"]) == acts(["3 pass", "3 raise 30",
                                                          "3 trump D", "3 trump S"])


def test_open_auction_passed_seat_stays_out() -> None:
    """Open: a seat that passed is out; after the hold the bidding goes to seat 1."""
    v = verdict("auction_open_passed_seat_stays_out_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (4, "2 bid 30")
    assert "seat 1's turn" in err["reason"]
    assert v["to_act"] == 1 and acts(v["legal"]) == acts(["1 pass", "1 bid 30"])


# ----- minimum bids, 30 for 60, 60 for 120 ----------------------------------------------------


def test_min_bid_15() -> None:
    """Merrimack Valley: 15, 20, 25, 30; 10 is no bid."""
    v = verdict("min_bid_15_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (0, "0 bid 10")
    assert "15, 20, 25, 30" in err["reason"]
    assert acts(v["legal"]) == acts(["0 pass", "0 bid 15", "0 bid 20", "0 bid 25",
                                     "0 bid 30"])


def test_min_bid_20() -> None:
    """Auction 45: bids are 20, 25 or 30 (15 only in old-fashioned circles)."""
    v = verdict("min_bid_20_illegal")
    err = error(v)
    assert (err["hand"], err["index"], err["action"]) == (0, 0, "1 bid 15")
    assert "20, 25, 30" in err["reason"]
    assert acts(v["legal"]) == acts(["1 pass", "1 bid 20", "1 bid 25", "1 bid 30"])


def test_min_bid_5() -> None:
    """000 var 5: a bid of 5 is a real bid, made with 25 taken (scores all it took)."""
    g = new_game(build_rules(MV, {"min_bid": 5}), first_dealer=3,
                 deal=Deal.from_json(record_json("min_bid_5")["hands"][0]["deal"]))
    assert acts(str(a) for a in g.legal_actions()) == acts(
        ["0 pass"] + [f"0 bid {b}" for b in (5, 10, 15, 20, 25, 30)])
    v = verdict("min_bid_5")
    (h,) = v["hands"]
    assert (h["bidder"], h["bid"]) == (0, "5")
    assert h["points"] == [25, 5] and v["scores"] == [25, 5]


def test_bids_go_up_in_fives() -> None:
    """Bids are multiples of five: 12 is refused, naming the steps."""
    v = verdict("bid_not_a_step_of_five_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (1, "1 bid 12")
    assert "5, 10, 15, 20, 25, 30" in err["reason"]


def test_bid_ranking_30_30for60_60for120() -> None:
    """002: 30 < 30for60 < 60for120; after 30 both rank higher, after 30for60 one does."""
    g = drive("bid_ranking_30for60_60for120_illegal", cut=1)
    v = verdict("bid_ranking_30for60_60for120_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (2, "2 bid 30")
    assert "higher than 30for60" in err["reason"]
    assert acts(v["legal"]) == acts(["2 pass", "2 bid 60for120"])
    g = new_game(g.rules, first_dealer=3, deal=g.deal)
    g.apply("0 bid 30")
    assert acts(str(a) for a in g.legal_actions()) == acts(
        ["1 pass", "1 bid 30for60", "1 bid 60for120"])


def test_no_30for60_without_the_option() -> None:
    """Merrimack Valley as written tops out at 30."""
    v = verdict("bid_30for60_not_allowed_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (1, "1 bid 30for60")
    assert "not a bid here" in err["reason"]
    assert v["legal"] == ["1 pass"]


def test_30for60_scores_plus_or_minus_60() -> None:
    """Hand 0: 30for60 with all 30 taken scores 60. Hand 1 (the deal passed to seat 0):
    seat 1 takes only 25 and loses 60, while seat 2's trick gives side 0 its 5."""
    v = verdict("bid_30for60_made_and_set")
    h0, h1 = v["hands"]
    assert (h0["dealer"], h0["bidder"], h0["bid"]) == (3, 0, "30for60")
    assert h0["points"] == [30, 0] and h0["scores"] == [60, 0]
    assert (h1["dealer"], h1["bidder"], h1["bid"]) == (0, 1, "30for60")
    assert winners(h1) == [1, 1, 1, 1, 2]
    assert h1["points"] == [5, 25] and h1["scores"] == [65, -60]
    assert v["scores"] == [65, -60] and not v["over"]


def test_60for120_scores_plus_or_minus_120() -> None:
    """Hand 0: 60for120 set at 25 loses 120 (side 1 scores its 5). Hand 1: seat 1 takes all
    30 for +120: 125 reaches 120 and side 1 wins."""
    v = verdict("bid_60for120_set_and_made")
    h0, h1 = v["hands"]
    assert (h0["bidder"], h0["bid"], h0["points"], h0["scores"]) == (
        0, "60for120", [25, 5], [-120, 5])
    assert (h1["dealer"], h1["bidder"], h1["bid"], h1["points"], h1["scores"]) == (
        0, 1, "60for120", [0, 30], [-120, 125])
    assert v["over"] and v["winner"] == 1
    assert (v["to_act"], v["legal"]) == (None, None)


def test_min_bid_at_100() -> None:
    """000 var 11: side 0 reached 120 (60for120 made, target 200), so in hand 1 seat 2 may
    not bid 15; side 1, on 0, still may."""
    v = verdict("min_bid_at_100_illegal")
    h0, h1 = v["hands"]
    assert h0["scores"] == [120, 0] and h1["dealer"] == 0
    err = error(v)
    assert (err["hand"], err["index"], err["action"]) == (1, 1, "2 bid 15")
    assert "100 or more" in err["reason"] and "20" in err["reason"]
    assert acts(v["legal"]) == acts(["2 pass", "2 bid 20", "2 bid 25", "2 bid 30",
                                     "2 bid 30for60", "2 bid 60for120"])
    g = drive("min_bid_at_100_illegal", cut=2)  # hand 1 before anyone speaks
    assert g.scores == [120, 0] and g.turn == 1 and Action.parse("1 bid 15") in g.legal_actions()


def test_min_bid_at_100_bagged_dealer() -> None:
    """A bagged dealer whose side is on 100+ must bid at least 20."""
    v = verdict("min_bid_at_100_dealer_bagged")
    assert v["hands"][1]["scores"] == [120, 0]
    assert v["to_act"] == 0
    assert acts(v["legal"]) == acts(["0 bid 20", "0 bid 25", "0 bid 30", "0 bid 30for60",
                                     "0 bid 60for120"])


def test_min_bid_at_100_dealer_may_not_hold_below_it() -> None:
    """Decision: a hold takes the bid at the current high, so a dealer on 100+ may not hold
    a bid of 15 either."""
    rec = record_json("min_bid_at_100_dealer_bagged")
    opts = {**rec["rules"]["options"], "dealer_may_hold": True}
    g = new_game(build_rules(MV, opts), first_dealer=3,
                 deal=Deal.from_json(rec["hands"][0]["deal"]))
    for a in rec["hands"][0]["actions"]:
        g.apply(a)
    g.next_hand(Deal.from_json(rec["hands"][1]["deal"]))
    for a in ("1 bid 15", "2 pass", "3 pass"):
        g.apply(a)
    hold = Action.parse("0 hold")
    assert hold not in g.legal_actions()
    assert "100 or more" in (g.reason(hold) or "")


# ----- nobody bids ----------------------------------------------------------------------------


def test_all_pass_dealer_bagged_bids_15() -> None:
    """002: nobody bids, the dealer is bagged at 15."""
    v = verdict("all_pass_dealer_bagged")
    (h,) = v["hands"]
    assert (h["dealer"], h["bidder"], h["bid"]) == (3, 3, "15")


def test_all_pass_bagged_dealer_may_not_pass() -> None:
    """The bagged dealer's choices are the bids, no pass."""
    v = verdict("all_pass_dealer_may_not_pass_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (3, "3 pass")
    assert "bagged" in err["reason"] and "15" in err["reason"]
    assert acts(v["legal"]) == acts(["3 bid 15", "3 bid 20", "3 bid 25", "3 bid 30"])


def test_all_pass_redeal_each_hand_its_own_entry_and_the_deal_passes_left() -> None:
    """Auction 45: two thrown-in hands, each its own entry, dealers 3, 0, 1; in the third
    seat 2 (the new dealer's left) opens and wins at 20."""
    v = verdict("all_pass_redeal_dealer_rotates")
    assert [h["dealer"] for h in v["hands"]] == [3, 0, 1]
    for h in v["hands"][:2]:
        assert (h["bidder"], h["bid"], h["trump"], h["tricks"]) == (None, None, None, [])
        assert h["points"] == [0, 0] and h["scores"] == [0, 0]
    assert (v["hands"][2]["bidder"], v["hands"][2]["bid"]) == (2, "20")
    assert v["scores"] == [0, 0]
    assert v["to_act"] == 2 and acts(v["legal"]) == acts(["2 pass", "2 raise 30", *(
        f"2 trump {s}" for s in "CDHS")])


def test_all_pass_redeal_dealer_may_pass() -> None:
    """With redeal the dealer may pass too; the record stops where a new deal is due."""
    g = drive("all_pass_redeal_thrown_in", cut=1)
    assert g.turn == 3 and Action.parse("3 pass") in g.legal_actions()
    v = verdict("all_pass_redeal_thrown_in")
    assert v["hands"][0]["bidder"] is None
    assert (v["to_act"], v["legal"], v["over"]) == (None, [], False)
    g = drive("all_pass_redeal_thrown_in")
    assert g.hand_over and not g.over and g.phase is Phase.HAND_OVER


def test_all_pass_redeal_next_dealer_is_left() -> None:
    """After the redeal seat 0 deals, so seat 1 opens: seat 0 speaking first is refused."""
    v = verdict("all_pass_redeal_next_dealer_left_illegal")
    err = error(v)
    assert (err["hand"], err["index"], err["action"]) == (1, 0, "0 pass")
    assert "seat 1's turn" in err["reason"]
    assert v["hands"][1]["dealer"] == 0


def test_dealer_rotates_every_hand_including_redeals() -> None:
    """Seeded play: whatever happens in a hand, the next dealer is the next seat."""
    for preset, first in ((A45, 2), (MV, 1)):
        g = new_game(preset, seed=11, first_dealer=first)
        dealers = [g.dealer]
        for _ in range(5):
            while not g.hand_over:
                g.apply(g.legal_actions()[0])  # pass when possible: redeals in Auction 45
            g.next_hand()
            dealers.append(g.dealer)
        assert dealers == [(first + i) % 4 for i in range(6)]
        assert g.turn == (g.dealer + 1) % 4


# ----- winner may raise -----------------------------------------------------------------------


def test_winner_may_raise_to_30() -> None:
    """001: the winner at 20 raises to 30 before naming trump."""
    g = drive("winner_may_raise_30", cut=1)
    assert g.phase is Phase.RAISE and g.turn == 1
    assert acts(str(a) for a in g.legal_actions()) == acts(["1 pass", "1 raise 30",
                                                            "1 trump C", "1 trump D"])
    v = verdict("winner_may_raise_30")
    (h,) = v["hands"]
    assert (h["bidder"], h["bid"]) == (1, "30")
    # seat 1 holds KC 9D 8D 7D 6D: with trump_needs_card only clubs or diamonds
    assert acts(v["legal"]) == acts(["1 trump C", "1 trump D"])


def test_winner_may_decline_to_raise() -> None:
    """Passing the raise keeps the bid at 20."""
    v = verdict("winner_may_raise_pass")
    assert v["hands"][0]["bid"] == "20"
    assert acts(v["legal"]) == acts(["1 trump C", "1 trump D"])


def test_naming_trump_declines_the_raise() -> None:
    """001: the winner "may raise his bid to 30 before calling trump": naming trump at that
    point declines the raise, as writing pass first does. Every trump the winner may name
    is listed beside pass and raise 30, and the bid stays at 20."""
    g = drive("winner_may_raise_30", cut=1)
    assert g.phase is Phase.RAISE
    # seat 1 holds KC 9D 8D 7D 6D: with trump_needs_card only clubs or diamonds
    assert [str(a) for a in g.legal_actions()] == ["1 pass", "1 raise 30", "1 trump C",
                                                   "1 trump D"]
    assert g.view(1)["legal"] == ["1 pass", "1 raise 30", "1 trump C", "1 trump D"]
    assert "hearts" in (g.reason(Action.parse("1 trump H")) or "")  # no heart: refused
    straight = g.clone()
    straight.apply("1 trump D")
    by_pass = g.clone()
    by_pass.apply("1 pass")
    by_pass.apply("1 trump D")
    assert straight.phase is Phase.DRAW and straight.bid == 20 and straight.trump == 1
    assert straight.hands == by_pass.hands and straight.kitty_taken
    assert straight.turn == by_pass.turn
    # the record without the pass is a game, and scores as the one with it
    rec = record_json("winner_may_raise_30")
    rec["hands"][0]["actions"][-1] = "1 trump D"
    out, status = referee(Record.from_json(rec))
    assert status == 0 and out["hands"][0]["bid"] == "20" and out["hands"][0]["trump"] == "D"
    assert out["to_act"] == 1 and all(" discard" in a for a in out["legal"])  # the draw


def test_going_on_the_kitty_declines_the_raise() -> None:
    """With go_on_kitty the winner may throw in his hand at once: that declines the raise."""
    rules = build_rules(A45, {"go_on_kitty": True})
    g = play_record(Record.from_json({**record_json("winner_may_raise_30"),
                                      "rules": rules.to_json()}), upto=-1)
    hand = g.hands[1]
    go = Action(1, Verb.DISCARD, hand)
    assert list(g.legal_actions())[-1] == go
    g.apply(go)
    assert g.phase is Phase.TRUMP and g.bid == 20 and g.went_on_kitty
    assert g.hands[1] == g.kitty


def test_with_the_kitty_seen_first_the_raise_comes_before_it() -> None:
    """kitty_before_trump: the winner sees the kitty only once he has raised or passed,
    so naming trump at the raise (from a hand the kitty would change) is refused."""
    rules = build_rules(A45, {"kitty_before_trump": True})
    g = play_record(Record.from_json({**record_json("winner_may_raise_30"),
                                      "rules": rules.to_json()}), upto=-1)
    assert [str(a) for a in g.legal_actions()] == ["1 pass", "1 raise 30"]
    why = g.reason(Action.parse("1 trump D")) or ""
    assert "kitty" in why and "pass" in why
    g.apply("1 pass")
    assert g.phase is Phase.TRUMP and g.kitty_taken


def test_winner_may_raise_only_to_30() -> None:
    v = verdict("winner_may_raise_only_30_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (4, "1 raise 25")
    assert "raise 30" in err["reason"]
    assert acts(v["legal"]) == acts(["1 pass", "1 raise 30", "1 trump C", "1 trump D"])


@pytest.mark.parametrize(("low", "raises"), [(15, False), (20, True), (25, True)])
def test_only_a_winner_at_20_or_25_may_raise(low: int, raises: bool) -> None:
    """001: "After a bidder who has bid 20 or 25 wins the bid, he may raise his bid to
    30": a winner at 15 (the old-fashioned least bid) names trump at once."""
    g = new_game(build_rules(A45, {"min_bid": 15}), seed=3, first_dealer=0)
    g.apply(f"1 bid {low}")
    for s in (2, 3, 0):
        g.apply(f"{s} pass")
    assert g.bidder == 1 and g.bid == low
    assert (g.phase is Phase.RAISE) is raises
    assert (Action.parse("1 raise 30") in g.legal_actions()) is raises
    if not raises:
        assert g.phase is Phase.TRUMP
        assert g.reason(Action.parse("1 raise 30")) == "name trump"


def test_no_raise_without_the_option() -> None:
    """Merrimack Valley: the winner goes straight to naming trump."""
    v = verdict("winner_may_not_raise_without_option_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (4, "0 raise 30")
    assert "trump" in err["reason"]
    assert acts(v["legal"]) == acts(f"0 trump {s}" for s in "CDHS")


# ----- trump --------------------------------------------------------------------------------


def test_trump_needs_card() -> None:
    """001: seat 1 (5D JD KS 9H 8H) may name diamonds, hearts or spades, not clubs; the
    clubs in the unseen kitty do not count."""
    g = drive("trump_needs_card")
    assert hand_of(g, 1) == cards("5D JD KS 9H 8H") and g.view(1)["kitty"] is None
    v = verdict("trump_needs_card")
    assert v["to_act"] == 1
    assert acts(v["legal"]) == acts(["1 trump D", "1 trump H", "1 trump S"])
    v = verdict("trump_needs_card_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (5, "1 trump C")
    assert "clubs" in err["reason"]


def test_trump_needs_card_ace_of_hearts_counts_for_any_suit() -> None:
    """Seat 2 holds AH and spades only: AH is a trump whatever the suit, so diamonds may be
    named; trump D then stands and the draw begins at the dealer's left."""
    g = drive("trump_needs_card_ah_counts", cut=1)
    assert acts(str(a) for a in g.legal_actions()) == acts(f"2 trump {s}" for s in "CDHS")
    v = verdict("trump_needs_card_ah_counts")
    (h,) = v["hands"]
    assert (h["bidder"], h["trump"]) == (2, "D")
    assert v["to_act"] == 1  # the draw: dealer 0's left


def test_kitty_before_trump() -> None:
    """001 Richmond County: the bidder takes the kitty before naming trump, so 7C and 9C
    from it let him name clubs; only he sees it."""
    g = drive("kitty_before_trump")
    assert g.phase is Phase.TRUMP and g.turn == 1
    assert hand_of(g, 1) == cards("5D JD KS 9H 8H 7C 9C 2S")
    assert g.view(1)["kitty"] == ["7C", "9C", "2S"]
    assert all(g.view(s)["kitty"] is None for s in (None, 0, 2, 3))
    v = verdict("kitty_before_trump")
    assert acts(v["legal"]) == acts(f"1 trump {s}" for s in "CDHS")


def test_go_on_kitty() -> None:
    """001 Cape Breton: seat 1 throws in his whole hand, takes the kitty (7C 9C 2S) and must
    name trump from it: clubs or spades."""
    g = drive("go_on_kitty", cut=1)
    assert hand_of(g, 1) == cards("7C 9C 2S")
    assert acts(str(a) for a in g.legal_actions()) == acts(["1 trump C", "1 trump S"])
    v = verdict("go_on_kitty")
    (h,) = v["hands"]
    assert (h["bidder"], h["trump"]) == (1, "C")
    # the draw from the dealer's left: seat 1 holds three and may keep or throw any
    assert v["to_act"] == 1 and len(v["legal"]) == 2 ** 3


def test_go_on_kitty_illegal_moves() -> None:
    """Trump must come from the kitty; going on it throws the whole hand; going on the top
    card needs its own option."""
    v = verdict("go_on_kitty_suit_not_in_kitty_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (6, "1 trump D")
    assert "diamonds" in err["reason"]
    assert acts(v["legal"]) == acts(["1 trump C", "1 trump S"])
    v = verdict("go_on_kitty_whole_hand_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (5, "1 discard 8H 9H")
    assert "whole hand" in err["reason"]
    assert Action.parse("1 discard 5D JD 8H 9H KS") in acts(v["legal"])
    v = verdict("go_on_top_card_not_allowed_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (6, "1 discard 7C 9C 2S")
    assert acts(v["legal"]) == acts(["1 trump C", "1 trump S"])


def test_go_on_top_card() -> None:
    """001 Cape Breton: rejecting the kitty too, seat 1 is dealt the top card (4D) and
    diamonds are trump. He keeps it; by threes he gets the next four stock cards (6C 5C 4C,
    then 3C), so the top card went to nobody else."""
    g = drive("go_on_top_card", cut=1)
    v = verdict("go_on_top_card")
    (h,) = v["hands"]
    assert (h["bidder"], h["bid"], h["trump"]) == (1, "20", "D")
    assert hand_of(g, 1) == cards("4D 6C 5C 4C 3C")
    # left of the bidder leads a spade; seat 1 has none, so any of his cards may go
    assert h["tricks"][0]["leader"] == 2
    assert v["to_act"] == 1
    assert acts(v["legal"]) == plays(1, "4D 6C 5C 4C 3C")
    v = verdict("go_on_top_card_other_suit_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (7, "1 trump C")
    assert v["legal"] == ["1 trump D"]


# ----- the draw ---------------------------------------------------------------------------


def test_keep_min_1() -> None:
    """Merrimack Valley: keep at least one card (discard 0..4 of five)."""
    v = verdict("keep_min_1_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (6, "1 discard KC 9D 8D 7D 6D")
    assert "keep at least 1 card" in err["reason"]
    assert len(v["legal"]) == 2 ** 5 - 1


def test_keep_min_0() -> None:
    """000 var 7: seat 1 throws all five and is given five from the stock, face down."""
    g = drive("keep_min_0")
    assert hand_of(g, 1) == cards("KD QD JD TD 5D")
    assert all(g.view(s)["face_up"] == [] for s in (None, 0, 1, 2, 3))
    v = verdict("keep_min_0")
    assert v["to_act"] == 1
    assert acts(v["legal"]) == plays(1, "KD QD JD TD 5D")


def test_keep_min_2() -> None:
    """keep_min 2: at most three of five may go."""
    v = verdict("keep_min_2_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (6, "1 discard KC 9D 8D 7D")
    assert "keep at least 2 cards" in err["reason"]
    assert len(v["legal"]) == sum(comb(5, k) for k in range(4))


def test_four_and_a_flip() -> None:
    """002: seat 1 throws all five; replenished all at once he gets KD QD JD TD and the
    fifth, 5D, face up in every view. Seat 2 kept one card: QC JC TC 9C come face down."""
    g = drive("four_and_a_flip")
    assert hand_of(g, 1) == cards("KD QD JD TD 5D")
    assert hand_of(g, 2) == cards("8S QC JC TC 9C")
    for seat in (None, 0, 1, 2, 3):
        assert g.view(seat)["face_up"] == ["5D"]
    v = verdict("four_and_a_flip")
    assert acts(v["legal"]) == plays(1, "KD QD JD TD 5D")


def test_four_and_a_flip_by_threes_flips_the_fifth_card_dealt_to_him() -> None:
    """By threes seat 1 gets KD QD JD, then (second time round) JC TC: TC is his fifth."""
    rec = record_json("four_and_a_flip")
    rules = build_rules(MV, {"four_and_a_flip": True, "replenish": "by-threes"})
    g = new_game(rules, first_dealer=3, deal=Deal.from_json(rec["hands"][0]["deal"]))
    for a in rec["hands"][0]["actions"][:-1]:
        g.apply(a)
    # round one: seat 1 KD QD JD, seat 2 TD 5D QC; round two: seat 1 JC TC, seat 2 9C
    assert hand_of(g, 1) == cards("KD QD JD JC TC")
    assert hand_of(g, 2) == cards("8S TD 5D QC 9C")
    assert all(g.view(s)["face_up"] == ["TC"] for s in (None, 0, 1, 2, 3))


REPLENISHED = {
    # dealer 1, so the dealer restores hands from seat 2: stock QH KD QD JD TD 5D QC JC TC 9C 8C
    # seat 2 needs 1, seat 3 needs 4, seat 0 needs 4, seat 1 (dealer) needs 2
    "replenish_all_at_once": {2: "QH", 3: "KD QD JD TD", 0: "5D QC JC TC", 1: "9C 8C"},
    # at most three a time round: 2 QH, 3 KD QD JD, 0 TD 5D QC, 1 JC TC; then 3 9C, 0 8C
    "replenish_by_threes": {2: "QH", 3: "KD QD JD 9C", 0: "TD 5D QC 8C", 1: "JC TC"},
}
KEPT = {2: "5H JH AH KH", 3: "KC", 0: "QS", 1: "KS 4D AD"}


@pytest.mark.parametrize("name", sorted(REPLENISHED))
def test_replenish_order_from_dealers_left(name: str) -> None:
    """Which stock cards each seat receives: all at once, or at most three a time round."""
    g = drive(name, cut=2)  # the auction and the draw, before the first lead
    assert g.phase is Phase.PLAY
    for seat, got in REPLENISHED[name].items():
        assert hand_of(g, seat) == cards(KEPT[seat]) | cards(got), seat
    v = verdict(name)
    # seat 2 led 5H, seat 3 (no trump) threw his last card received; seat 0's hand is shown
    assert v["to_act"] == 0
    assert acts(v["legal"]) == acts(f"0 play {c}" for c in (cards("QS") | cards(
        REPLENISHED[name][0])))


def test_replenish_by_threes_td_went_to_seat_0() -> None:
    v = verdict("replenish_by_threes_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (10, "3 play TD")
    assert "do not hold TD" in err["reason"]
    assert acts(v["legal"]) == plays(3, "KC KD QD JD 9C")


def test_dealer_robs_the_pack() -> None:
    """000 var 8: after the draw (seat 1 threw 9D, the dealer 2D, the bidder the kitty)
    the dealer sees the discards and swaps his 4D for the 9D."""
    g = drive("dealer_robs_pack", cut=4)  # after the draw, before the robbing
    assert g.phase is Phase.PACK and g.turn == 3
    assert set(g.view(3)["pack"]) == cards("2S 3S 4S 9D 2D")
    assert all(g.view(s)["pack"] is None for s in (None, 0, 1, 2))
    legal = g.legal_actions()
    # pass, or give k of his five for k of the five discards
    assert len(legal) == comb(10, 5)
    assert Action.parse("3 rob 4D 9D") in legal and Action.parse("3 pass") in legal
    for a in legal[1:]:
        taken = a.arg & g.pile  # type: ignore[attr-defined]
        given = a.arg & g.hands[3]
        assert taken.bit_count() == given.bit_count() >= 1 and taken | given == a.arg
    v = verdict("dealer_robs_pack")
    assert v["to_act"] == 3
    assert acts(v["legal"]) == plays(3, "KS 3D AD QD 9D")


def test_dealer_robs_pack_illegal_moves() -> None:
    """Take as many as you give; and without the option there is no robbing at all."""
    v = verdict("dealer_robs_pack_uneven_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (9, "3 rob 4D 2S 3S")
    assert "as many as you give" in err["reason"]
    # five in hand, three discards (the kitty): pass + sum C(5,k)*C(3,k) = C(8,3)
    assert len(v["legal"]) == comb(8, 3)
    v = verdict("dealer_robs_pack_not_allowed_illegal")
    err = error(v)
    assert (err["index"], err["action"]) == (9, "3 rob 4D 9D")
    assert v["to_act"] == 0  # play began: the bidder leads


# ----- rules refused when built -------------------------------------------------------------

CONFLICTS: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
    (MV, {"players": 3, "teams": "pairs"}, ("teams=pairs", "players=4")),
    (MV, {"players": 4, "teams": "three-pairs"}, ("teams=three-pairs", "players=6")),
    (MV, {"players": 5, "teams": "two-threes"}, ("teams=two-threes", "players=6")),
    (MV, {"call_partner": True}, ("call_partner", "players=5", "teams=individual")),
    ("nova-scotia", {"call_partner": True, "players": 5}, ("call_partner", "auction")),
    ("call-your-partner", {"match": "best-of-3"}, ("call_partner", "match=best-of-3")),
    ("nova-scotia", {"kitty": 3}, ("kitty=3", "auction=none")),
    ("nova-scotia", {"lead": "bidder"}, ("lead=bidder", "auction=none")),
    ("nova-scotia", {"dealer_may_hold": True}, ("dealer_may_hold", "auction=none")),
    ("nova-scotia", {"winner_may_raise": True}, ("winner_may_raise", "auction=none")),
    ("nova-scotia", {"trump_needs_card": True}, ("trump_needs_card", "auction=none")),
    ("nova-scotia", {"bid_30_for_60": True}, ("bid_30_for_60", "auction=none")),
    ("nova-scotia", {"dealer_robs_pack": True}, ("dealer_robs_pack", "auction=none")),
    ("nova-scotia", {"four_and_a_flip": True}, ("four_and_a_flip", "auction=none")),
    ("nova-scotia", {"kitty_before_trump": True}, ("kitty_before_trump", "auction=none")),
    ("nova-scotia", {"go_on_kitty": True}, ("go_on_kitty", "auction=none")),
    ("nova-scotia", {"min_bid_at_100": 20}, ("min_bid_at_100", "auction=none")),
    ("nova-scotia", {"lock_at": 100}, ("lock_at", "auction=none")),
    ("nova-scotia", {"end": "must-bid-on-green"}, ("end=must-bid-on-green", "auction=none")),
    (MV, {"robbing": True}, ("robbing", "auction=single")),
    (MV, {"bid_60_for_120": True}, ("bid_60_for_120", "bid_30_for_60")),
    (MV, {"kitty": 0, "kitty_before_trump": True}, ("kitty_before_trump", "kitty=0")),
    (MV, {"kitty": 0, "go_on_kitty": True}, ("go_on_kitty", "kitty=0")),
    (MV, {"go_on_top_card": True}, ("go_on_top_card", "go_on_kitty")),
    (MV, {"go_on_kitty": True, "kitty_before_trump": True},
     ("go_on_kitty", "kitty_before_trump")),
    (MV, {"four_and_a_flip": True, "keep_min": 2}, ("four_and_a_flip", "keep_min=2")),
    (A45, {"target": 100}, ("lock_at=100", "target=100")),
    (MV, {"forty_five_resets": True, "target": 45}, ("forty_five_resets", "target=45")),
    (MV, {"auction": "hold-reopens"}, ("auction=hold-reopens", "dealer_may_hold")),
]


@pytest.mark.parametrize(("preset", "options", "named"), CONFLICTS,
                         ids=[f"{p}-{'-'.join(o)}" for p, o, _ in CONFLICTS])
def test_conflicting_rules_refused_naming_the_options(
        preset: str, options: dict[str, Any], named: tuple[str, ...]) -> None:
    """Rules that cannot work are refused when built, the message naming the options."""
    with pytest.raises(RulesError) as info:
        build_rules(preset, options)
    msg = str(info.value)
    for word in named:
        assert word in msg, (word, msg)


def test_keep_min_is_raised_for_the_stock_only_for_six_and_only_when_not_given() -> None:
    """Six keep two (002: "to ensure cards don't run out": 30 dealt, kitty 3, 19 left
    < 6 x 4); five keep the preset's own, so Auction 45 and Call Your Partner keep none
    (001: "players do not need to keep one card"; "bidding and discarding is done the
    same"), the draw limiting a discard only where the stock runs short. A keep_min that
    is given is never changed, and one that could run the stock dry is played, not
    refused."""
    assert build_rules(MV, {"players": 6}).keep_min == 2  # type: ignore[attr-defined]
    assert build_rules(MV, {"players": 5}).keep_min == 1  # type: ignore[attr-defined]
    assert build_rules(A45).keep_min == 0  # type: ignore[attr-defined]
    assert build_rules(A45, {"players": 5}).keep_min == 0  # type: ignore[attr-defined]
    assert build_rules("call-your-partner").keep_min == 0  # type: ignore[attr-defined]
    for options in ({"players": 6, "keep_min": 1}, {"players": 6, "four_and_a_flip": True},
                    {"players": 5, "kitty": 4, "keep_min": 0}):
        assert build_rules(MV, options).options().items() >= options.items()


def five_discard(rules: Any, seed: int) -> GameState:
    """A five-player hand under ``rules`` at the draw, the first seat having won the
    bid at 20 (and named trump) and the stock at 24 cards."""
    g = new_game(rules, seed=seed, first_dealer=4)
    g.apply("0 bid 20")
    while g.phase is Phase.AUCTION:
        g.apply(f"{g.turn} pass")
    if g.phase is Phase.RAISE:
        g.apply("0 pass")
    g.apply(next(a for a in g.legal_actions() if a.verb is Verb.TRUMP))
    if g.phase is Phase.CALL:  # pragma: no cover - the call comes after the draw
        raise AssertionError("no draw")
    assert g.phase is Phase.DRAW and len(g.stock) - g.stock_pos == 24
    return g


@pytest.mark.parametrize("preset", [A45, "call-your-partner"])
def test_five_players_may_discard_all_five_while_the_stock_lasts(preset: str) -> None:
    """Five players, kitty 3: the stock holds 52 - 25 - 3 = 24. The bidder (8 cards)
    throws all 8 and needs 5; seats 1, 2 and 3 each throw all five (15 more): 20 of the
    24 are spoken for, so the dealer (seat 4), last to discard, may throw at most 4, and
    throwing five is refused saying why. Nobody before him was limited."""
    rules = build_rules(preset, {"players": 5})
    g = five_discard(rules, seed=3)
    for seat in (0, 1, 2, 3):
        assert g.turn == seat
        everything = g.hands[seat]
        assert Action(seat, Verb.DISCARD, everything) in g.legal_actions()
        g.apply(Action(seat, Verb.DISCARD, everything))
    assert g.turn == 4
    sizes = {a.arg.bit_count() for a in g.legal_actions()}
    assert sizes == {0, 1, 2, 3, 4}
    why = g.reason(Action(4, Verb.DISCARD, g.hands[4])) or ""
    assert "stock can replace only 4 more cards" in why and "keep at least 1" in why
    with pytest.raises(IllegalActionError):
        g.apply(Action(4, Verb.DISCARD, g.hands[4]))
    four = next(a for a in g.legal_actions() if a.arg.bit_count() == 4)
    g.apply(four)
    assert g.stock_pos == len(g.stock) and all(h.bit_count() == 5 for h in g.hands)


def test_the_stock_limit_bites_only_when_reached() -> None:
    """Five players who discard little are never limited: the dealer may throw all five
    when the stock still holds enough for him."""
    g = five_discard(build_rules(A45, {"players": 5}), seed=3)
    for seat in (0, 1, 2, 3):
        keep_all = Action(seat, Verb.DISCARD, 0) if seat else Action(
            0, Verb.DISCARD, next(a.arg for a in g.legal_actions() if a.arg.bit_count() == 3))
        g.apply(keep_all)
    assert Action(4, Verb.DISCARD, g.hands[4]) in g.legal_actions()


def test_conflicts_that_the_value_lists_make_unreachable() -> None:
    """Two checks in ``conflicts`` cannot fire: min_bid_at_100 (only 20) is never below
    min_bid (at most 20), and Forty One's double_from below 1 is refused as a value."""
    rules = build_rules(MV, {"min_bid": 20, "min_bid_at_100": 20})
    assert rules.min_bid_at_100 == 20  # type: ignore[attr-defined]
    with pytest.raises(RulesError, match="double_from"):
        build_rules("forty-one", {"double_from": 0})


def test_conflicts_refused_by_the_command_line(tmp_path: Path) -> None:
    """forties rules show and forties check both refuse conflicting rules: exit 2, one line."""
    p = run_forties("rules", "show", MV, "-o", "bid_60_for_120=true")
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1
    assert "bid_60_for_120" in p.stderr and "bid_30_for_60" in p.stderr
    obj = record_json("kitty_0")
    obj["rules"]["options"]["go_on_kitty"] = True
    err = check_refuses(tmp_path, obj)
    assert "go_on_kitty" in err and "kitty=0" in err


# ----- unknown presets, options and values --------------------------------------------------


def test_unknown_preset_message() -> None:
    with pytest.raises(RulesError) as info:
        build_rules("merrimak-valley")
    msg = str(info.value)
    assert "unknown preset 'merrimak-valley'" in msg and "merrimack-valley" in msg
    with pytest.raises(RulesError) as info:
        build_rules("bridge")
    msg = str(info.value)
    assert "unknown preset 'bridge'" in msg
    assert all(p in msg for p in (MV, "nova-scotia", A45))


def test_unknown_option_message() -> None:
    with pytest.raises(RulesError) as info:
        build_rules(MV, {"min_bids": 20})
    msg = str(info.value)
    assert "unknown option 'min_bids'" in msg and MV in msg and "'min_bid'" in msg
    # a Forty One option is no option of the Forty-Fives
    with pytest.raises(RulesError, match="unknown option 'min_total'"):
        build_rules(MV, {"min_total": 11})


@pytest.mark.parametrize(("option", "value", "allowed"), [
    ("min_bid", 10, "15, 20, 5"),
    ("kitty", 5, "3, 0, 4"),
    ("players", 11, "2, 3, 4, 5, 6, 7, 8, 9, 10"),
    ("auction", "double", "single"),
    ("keep_min", 3, "1, 0, 2"),
    ("replenish", "by-twos", "by-threes"),
    ("all_pass", "misdeal", "redeal"),
])
def test_bad_option_value_message(option: str, value: Any, allowed: str) -> None:
    """A value outside an option's list is refused, listing the allowed values."""
    with pytest.raises(RulesError) as info:
        build_rules(MV, {option: value})
    msg = str(info.value)
    assert f"option {option}" in msg and allowed in msg


def test_unknown_option_and_preset_on_the_command_line(tmp_path: Path) -> None:
    """A record with an unknown option or preset is not a game: exit 2, one line."""
    for rules, word in (({"preset": MV, "options": {"min_bids": 20}}, "unknown option"),
                        ({"preset": "merrimak-valley"}, "unknown preset")):
        obj = record_json("auction_single")
        obj["rules"] = rules
        assert word in check_refuses(tmp_path, obj)
    p = run_forties("rules", "show", "merrimak-valley")
    assert p.returncode == 2 and "unknown preset" in p.stderr
