"""Forty One (rules.md section 6, seed 003): bids, tricks, scoring, the win, ties, records.

The golden records in ``golden/forty_one/`` are built by ``generate.py`` there,
without the engine, from deals in which every trick is decided by construction;
the expected scores were worked out by hand (its comments). Each record is
judged through the API and through ``forties check``, and the rule each one
stands for is asserted again here in code.

Seats: 0 North, 1 East, 2 South, 3 West; North and South play East and West.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib.util
import io
import json
import random
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forties import (
    Action,
    Deal,
    GameState,
    IllegalActionError,
    Phase,
    Record,
    Recorder,
    RecordError,
    RulesError,
    Verb,
    build_rules,
    new_game,
    referee,
)
from forties.cards import CARD_NAMES, parse_card
from forties.show import render

from .helpers_engine import (
    GOLDEN_DIR,
    card_tokens,
    check_many,
    forty_one_follow_cards,
    forty_one_trick_winner,
    golden_names,
    play_record,
    run_forties,
    sorted_legal,
)

GOLDEN = GOLDEN_DIR / "forty_one"
NAMES = golden_names(GOLDEN)
NORTH, EAST, SOUTH, WEST = range(4)
Json = dict[str, Any]


# ----- helpers -------------------------------------------------------------------------------


def golden_record(name: str) -> Json:
    obj: Json = json.loads((GOLDEN / f"{name}.record.json").read_text(encoding="utf-8"))
    return obj


def golden_verdict(name: str) -> Json:
    obj: Json = json.loads((GOLDEN / f"{name}.verdict.json").read_text(encoding="utf-8"))
    return obj


def judge(obj: Json) -> tuple[Json, int]:
    """The referee's verdict on a record given as parsed JSON (the API path)."""
    return referee(Record.from_json(copy.deepcopy(obj)))


def check_cli(path_or_obj: Path | Json) -> tuple[Json | None, int, str]:
    """Run ``forties check`` on a file, or on a record through standard input."""
    if isinstance(path_or_obj, Path):
        proc = run_forties("check", str(path_or_obj))
    else:
        proc = run_forties("check", "-", stdin=json.dumps(path_or_obj))
    out = json.loads(proc.stdout) if proc.stdout.strip() else None
    return out, proc.returncode, proc.stderr


def variant(name: str, hands: int | None = None, options: Json | None = None) -> Json:
    """A golden record cut to its first ``hands`` hands, or played under other options."""
    obj = golden_record(name)
    if hands is not None:
        obj["hands"] = obj["hands"][:hands]
    if options is not None:
        obj["rules"] = {"preset": "forty-one", "options": options} if options else "forty-one"
    return obj


def verdict_of(name: str, hands: int | None = None, options: Json | None = None) -> Json:
    v, status = judge(variant(name, hands, options))
    assert status == (0 if v["ok"] else 1)
    return v


def block_deal() -> Deal:
    """A deal for the API tests: North all clubs, East diamonds, South hearts, West spades."""
    return Deal(tuple(tuple(range(13 * s, 13 * s + 13)) for s in (0, 1, 2, 3)))


def c(name: str) -> int:
    return parse_card(name)


# ----- the golden records --------------------------------------------------------------------


def test_golden_files_are_the_worked_scenarios() -> None:
    """The stored records and verdicts are exactly what generate.py builds (and checks) today."""
    spec = importlib.util.spec_from_file_location("forty_one_golden", GOLDEN / "generate.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = gen
    spec.loader.exec_module(gen)
    built = {sc.name: gen.build(sc) for sc in gen.SCENARIOS}
    assert sorted(built) == NAMES
    for name, (record, verdict) in built.items():
        assert record == golden_record(name), name
        assert verdict == golden_verdict(name), name


@pytest.mark.parametrize("name", NAMES)
def test_golden_verdict_api(name: str) -> None:
    """``referee`` gives the stored verdict and exit status for every golden record."""
    expected = golden_verdict(name)
    verdict, status = judge(golden_record(name))
    assert sorted_legal(verdict) == sorted_legal(expected)
    assert status == (0 if expected["ok"] else 1)
    assert verdict["sides"] == [[0], [1], [2], [3]]
    for hand in verdict["hands"]:
        assert hand["bidder"] is None and hand["bid"] is None and hand["trump"] == "H"


@cache
def _checked() -> dict[str, tuple[str, int, str]]:
    """``forties check`` on every golden record, in one process (see check_many; the
    installed script itself is run by check_cli in the tests below)."""
    return check_many([GOLDEN / f"{name}.record.json" for name in NAMES])


@pytest.mark.parametrize("name", NAMES)
def test_golden_verdict_cli(name: str) -> None:
    """``forties check FILE`` prints the stored verdict as JSON and exits 0 (legal) or 1."""
    expected = golden_verdict(name)
    out, status, stderr = _checked()[str(GOLDEN / f"{name}.record.json")]
    verdict = json.loads(out) if out.strip() else None
    assert verdict is not None, stderr
    assert sorted_legal(verdict) == sorted_legal(expected)
    assert status == (0 if expected["ok"] else 1)


def test_cli_reads_standard_input() -> None:
    """``forties check -`` judges a record piped in, the same as from a file."""
    verdict, status, _ = check_cli(golden_record("long_game"))
    assert status == 0
    assert verdict == golden_verdict("long_game")


# ----- scoring -------------------------------------------------------------------------------


def test_made_missed_and_overtricks() -> None:
    """A made bid scores its value, overtricks add nothing, a missed bid loses its value."""
    hand = verdict_of("made_missed_overtricks")["hands"][0]
    assert hand["dealer"] == NORTH
    assert hand["tricks"][0]["leader"] == EAST  # the dealer's left leads
    for before, after in zip(hand["tricks"], hand["tricks"][1:], strict=False):
        assert after["leader"] == before["winner"]  # the winner leads the next
    assert hand["bids"] == [3, 4, 3, 2]
    assert hand["points"] == [3, 6, 2, 2]
    # North 3 of 3: +3. East 6 of 4: +4, not 6. South 2 of 3: -3. West 2 of 2: +2.
    assert hand["scores"] == [3, 4, -3, 2]


def test_bids_of_seven_or_more_score_double() -> None:
    """7 made scores 14, 7 missed loses 14; 6 made scores 6 (double_from 7)."""
    v = verdict_of("double_at_seven")
    assert v["hands"][0]["bids"] == [1, 7, 1, 2] and v["hands"][0]["points"][EAST] == 7
    assert v["hands"][0]["scores"] == [1, 14, 1, -2]  # East +14
    assert v["hands"][1]["bids"] == [1, 2, 6, 7]
    assert v["hands"][1]["points"][WEST] == 3
    # South 6 of 6: +6 (from 1 to 7); West 3 of 7: -14 (from -2 to -16)
    assert v["hands"][1]["scores"] == [2, 16, 7, -16]


def test_double_from_changed() -> None:
    """double_from 5: 5 made scores 10, 6 missed loses 12; the defaults score the same 5 and 6."""
    v = verdict_of("double_from_five")
    assert v["hands"][0]["scores"] == [1, 10, 4, -1]  # East 5 of 5: +10; South 4 of 4: +4
    assert v["hands"][1]["scores"] == [3, 11, -8, 1]  # South 3 of 6: -12
    plain = verdict_of("double_from_five", options={})
    assert plain["hands"][0]["scores"] == [1, 5, 4, -1]
    assert plain["hands"][1]["scores"] == [3, 6, -2, 1]
    never = verdict_of("double_at_seven", options={"double_from": 14})
    # nothing doubles: East 7 of 7 +7; West 3 of 7 -7
    assert never["hands"][0]["scores"] == [1, 7, 1, -2]
    assert never["hands"][1]["scores"] == [2, 9, 7, -9]


def test_hearts_always_trump_and_aces_high() -> None:
    """2H beats three aces; with no heart the highest of the suit led wins; a void may discard."""
    v = verdict_of("trumps")
    first = v["hands"][0]["tricks"][0]
    assert first == {"leader": EAST, "cards": ["AD", "AS", "2H", "AC"], "winner": WEST}
    assert v["hands"][0]["points"] == [0, 0, 0, 13]
    tricks = v["hands"][1]["tricks"]
    assert tricks[0] == {"leader": SOUTH, "cards": ["2C", "AS", "AD", "3C"], "winner": EAST}
    assert tricks[1]["cards"][:2] == ["AC", "KC"] and tricks[1]["winner"] == EAST
    assert tricks[8] == {"leader": SOUTH, "cards": ["6C", "7S", "6D", "9H"], "winner": EAST}
    # West 13 of 13: +26; East 10 of 10: +20; South 3 of 3: +3
    assert v["scores"] == [-2, 19, 2, 25]


# ----- thrown-in hands ------------------------------------------------------------------------


def test_bids_totalling_ten_are_thrown_in() -> None:
    """Bids totalling 10 throw the hand in, as its own entry; the next dealer deals; 11 plays."""
    v = verdict_of("thrown_in_at_ten")
    thrown, played = v["hands"]
    assert thrown == {"dealer": NORTH, "bidder": None, "bid": None, "trump": "H",
                      "bids": [2, 3, 2, 3], "tricks": [], "points": [0, 0, 0, 0],
                      "scores": [0, 0, 0, 0]}
    assert played["dealer"] == EAST and sum(played["bids"]) == 11
    assert len(played["tricks"]) == 13 and played["tricks"][0]["leader"] == SOUTH
    assert played["scores"] == [3, 2, 3, 3]
    cut = verdict_of("thrown_in_at_ten", hands=1)
    assert cut["to_act"] is None and cut["legal"] == [] and not cut["over"]


def test_thrown_in_through_the_api() -> None:
    """After a throw-in nothing more may be played; next_hand moves the deal to the left."""
    g = new_game("forty-one", deal=block_deal())
    for text in ("1 bid 2", "2 bid 3", "3 bid 2", "0 bid 3"):
        g.apply(text)
    assert g.hand_over and not g.over and g.thrown_in and g.turn is None
    assert g.scores == [0, 0, 0, 0]
    assert g.reason(Action.parse("1 play 2D")) == "the hand is over: a new deal is due"
    g.next_hand(block_deal())
    assert g.dealer == 1 and g.turn == 2 and g.phase is Phase.AUCTION
    ten = new_game(build_rules("forty-one", {"min_total": 10}), deal=block_deal())
    for text in ("1 bid 2", "2 bid 3", "3 bid 2", "0 bid 3"):
        ten.apply(text)
    assert ten.phase is Phase.PLAY and ten.turn == 1  # 10 is enough here; East leads


def test_min_total_changed() -> None:
    """min_total 13: bids of 12 are thrown in and 13 plays; under the default 12 plays."""
    v = verdict_of("min_total_thirteen")
    assert v["hands"][0]["bids"] == [3, 3, 3, 3] and v["hands"][0]["tricks"] == []
    assert v["hands"][1]["bids"] == [3, 3, 4, 3] and len(v["hands"][1]["tricks"]) == 13
    assert v["scores"] == [3, 3, 4, 3]
    default = verdict_of("min_total_thirteen", hands=1, options={})
    assert default["to_act"] == EAST  # the 12 bid stands: East leads the first trick
    assert "1 play AD" in default["legal"]


def test_long_game_with_many_redeals() -> None:
    """Twelve hands, five thrown in: the dealer moves on every hand, scores go far below 0."""
    v = verdict_of("long_game")
    assert [h["dealer"] for h in v["hands"]] == [2, 3, 0, 1] * 3
    assert [i for i, h in enumerate(v["hands"]) if not h["tricks"]] == [0, 1, 3, 6, 9]
    assert v["hands"][4]["scores"] == [3, -13, 3, -27]  # West 5 of 13: -26
    assert v["hands"][10]["scores"] == [-3, -19, 44, -10]  # South on 44, North negative
    assert v["scores"] == [1, -14, 45, -9] and v["winner"] == [0, 2]
    for h in v["hands"]:
        assert h["bidder"] is None and sum(h["points"]) in (0, 13)
    before_last = verdict_of("long_game", hands=11)
    assert not before_last["over"] and before_last["winner"] is None


# ----- the end of the game --------------------------------------------------------------------


def test_win_with_positive_partner() -> None:
    """East on 42 with West on 2 wins for East and West: ``winner`` lists both seats."""
    v = verdict_of("win_positive_partner")
    assert v["scores"] == [2, 42, 0, 2]
    assert v["over"] and v["winner"] == [1, 3]
    assert v["to_act"] is None and v["legal"] is None
    target_20 = verdict_of("win_positive_partner", hands=1, options={"target": 20})
    assert target_20["over"] and target_20["winner"] == [1, 3]  # East 20, West 1
    with pytest.raises(RecordError, match="follows the end of the game"):
        judge(variant("win_positive_partner", options={"target": 20}))


def test_partner_not_above_zero_holds_back_the_win() -> None:
    """East on 42 does not win while West is on -3, nor on 0; he wins once West is above 0."""
    two = verdict_of("partner_negative_waits", hands=2)
    assert two["scores"] == [2, 42, 2, -3]
    assert not two["over"] and two["winner"] is None and two["legal"] == []
    three = verdict_of("partner_negative_waits", hands=3)
    assert three["scores"] == [4, 46, 4, 0] and not three["over"]
    v = verdict_of("partner_negative_waits")
    assert v["scores"] == [6, 49, 6, 4] and v["winner"] == [1, 3]


def test_partner_positive_off() -> None:
    """partner_positive false: East on 42 wins with West on -3."""
    v = verdict_of("partner_positive_off")
    assert v["scores"] == [2, 42, 2, -3] and v["winner"] == [1, 3]


def test_both_qualify_lower_partner() -> None:
    """Both teams qualify: North-South win on the higher lower player (South 4, West 1)."""
    v = verdict_of("tie_lower_partner")
    assert v["hands"][3]["scores"] == [44, 46, -2, -2]  # leaders past 41, partners negative
    assert verdict_of("tie_lower_partner", hands=4)["winner"] is None
    assert v["scores"] == [45, 49, 4, 1] and v["winner"] == [0, 2]


def test_both_qualify_team_total() -> None:
    """tie team-total: the same hands give East-West the game, 50 against 49."""
    v = verdict_of("tie_team_total")
    assert v["scores"] == [45, 49, 4, 1] and v["winner"] == [1, 3]
    assert verdict_of("tie_lower_partner", options={"tie": "team-total"})["winner"] == [1, 3]


def test_level_lower_partners_play_on() -> None:
    """South and West both on 2: no winner, play goes on; the next hand decides."""
    five = verdict_of("tie_lower_partner_plays_on", hands=5)
    assert five["scores"] == [45, 50, 2, 2]
    assert not five["over"] and five["winner"] is None and five["to_act"] is None
    # by team total the same hands are decided: 47 against 52
    assert verdict_of("tie_lower_partner_plays_on", hands=5,
                      options={"tie": "team-total"})["winner"] == [1, 3]
    v = verdict_of("tie_lower_partner_plays_on")
    assert v["scores"] == [48, 53, 5, -1] and v["winner"] == [0, 2]


def test_level_team_totals_play_on() -> None:
    """tie team-total with 49 each: play goes on; by lower partner South's 2 beats West's 1."""
    five = verdict_of("tie_team_total_plays_on", hands=5)
    assert five["scores"] == [47, 48, 2, 1] and not five["over"]
    assert verdict_of("tie_team_total_plays_on", hands=5, options={})["winner"] == [0, 2]
    v = verdict_of("tie_team_total_plays_on")
    assert v["scores"] == [51, 53, 4, -1] and v["winner"] == [0, 2]


def test_no_play_after_the_game() -> None:
    """Once the game is won nothing is legal and no hand may be dealt."""
    g = play_record(Record.from_json(golden_record("win_positive_partner")))
    assert g.over and g.winner == (1, 3) and g.phase is Phase.GAME_OVER
    assert list(g.legal_actions()) == []
    assert g.reason(Action.parse("2 bid 3")) == "the game is over"
    with pytest.raises(ValueError, match="game is over"):
        g.next_hand(block_deal())


# ----- games in progress -----------------------------------------------------------------------


def test_hand_in_progress() -> None:
    """Mid-trick: the open trick has no winner, points count 2 tricks, scores are before it."""
    v = verdict_of("in_progress")
    hand = v["hands"][1]
    assert hand["dealer"] == EAST and hand["bids"] == [3, 3, 3, 3]
    assert hand["tricks"][-1] == {"leader": EAST, "cards": ["KS", "AS"], "winner": None}
    assert hand["points"] == [1, 1, 0, 0]
    assert hand["scores"] == [3, 4, -3, 2] == v["scores"]
    # West must follow spades with what he holds of them: QS 8S 4S
    assert v["to_act"] == WEST and sorted(v["legal"]) == ["3 play 4S", "3 play 8S", "3 play QS"]


def test_bidding_in_progress() -> None:
    """Mid-auction: bids so far per seat, the next bidder to act, any of 1 to 13 legal."""
    v = verdict_of("in_auction")
    assert v["hands"][0]["bids"] == [None, 4, 3, None]
    assert v["to_act"] == WEST
    assert sorted(v["legal"]) == sorted(f"3 bid {k}" for k in range(1, 14))


# ----- illegal actions -------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "hand", "index", "action", "words"), [
    ("illegal_renounce", 1, 5, "3 play 3D", "must follow clubs: you hold 2C 5C 9C QC"),
    ("illegal_bid_zero", 0, 0, "1 bid 0", "1 to 13"),
    ("illegal_bid_fourteen", 0, 1, "2 bid 14", "1 to 13"),
    ("illegal_pass", 0, 2, "3 pass", "no pass"),
])
def test_illegal_actions(name: str, hand: int, index: int, action: str, words: str) -> None:
    """Not following suit, a bid of 0 or 14, a pass: exit 1, the action located, a reason."""
    for verdict, status in (judge(golden_record(name)),
                            check_cli(GOLDEN / f"{name}.record.json")[:2]):
        assert status == 1 and verdict is not None and verdict["ok"] is False
        err = verdict["error"]
        assert (err["hand"], err["index"], err["action"]) == (hand, index, action)
        assert words in err["reason"]
        seat = int(action.split()[0])
        assert verdict["to_act"] == seat


def test_illegal_reasons_through_the_api() -> None:
    """apply() refuses with a player's reason; nothing changes."""
    g = new_game("forty-one", deal=block_deal())  # North clubs, East diamonds, South hearts
    cases = {
        "0 bid 3": "it is seat 1's turn, not seat 0's",
        "1 pass": "there is no pass in Forty One: bid the tricks you will take (1 to 13)",
        "1 bid 0": "a bid is 1 to 13 tricks, not 0",
        "1 bid 14": "a bid is 1 to 13 tricks, not 14",
        "1 bid 30for60": "a bid is 1 to 13 tricks, not 30for60",
        "1 play 2D": "bid the number of tricks you will take (1 to 13)",
    }
    for text, why in cases.items():
        with pytest.raises(IllegalActionError) as e:
            g.apply(text)
        assert e.value.reason == why
    assert g.history == []
    for text in ("1 bid 1", "2 bid 13", "3 bid 1", "0 bid 1"):
        g.apply(text)
    assert g.reason(Action.parse("1 bid 2")) == "it is your turn to play a card"
    assert g.reason(Action.parse("1 play 2C")) == "you do not hold 2C"
    assert g.reason(Action(1, Verb.PLAY, (1 << c("2D")) | (1 << c("3D")))) == "play one card"
    g.apply("1 play AD")
    assert g.reason(Action.parse("2 play 2H")) is None  # void in diamonds: trumping is allowed


def test_must_follow_suit_lists_the_suit_held() -> None:
    """A player holding the suit led must follow it; the reason names the cards he holds."""
    hands = (
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2S",
        "AH 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    )
    g = new_game("forty-one", first_dealer=1, deal=Deal.from_json(
        {"hands": [h.split() for h in hands]}))
    for text in ("2 bid 12", "3 bid 5", "0 bid 1", "1 bid 1"):
        g.apply(text)
    assert g.turn == SOUTH  # the dealer's left leads
    g.apply("2 play 2S")
    why = g.reason(Action.parse("3 play AH"))
    assert why == ("must follow spades: you hold 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")
    assert sorted(str(a) for a in g.legal_actions()) == sorted(
        f"3 play {r}S" for r in "3456789TJQKA")


# ----- options -------------------------------------------------------------------------------


def test_preset_defaults() -> None:
    """The forty-one preset: target 41, min_total 11, double_from 7, positive partner, lower."""
    r = build_rules("forty-one")
    assert (r.target, r.min_total, r.double_from) == (41, 11, 7)  # type: ignore[attr-defined]
    assert r.partner_positive is True and r.tie == "lower-partner"  # type: ignore[attr-defined]
    assert r.players == 4 and r.teams == ((0, 2), (1, 3))  # type: ignore[attr-defined]
    assert build_rules("41") == r


def test_option_overrides() -> None:
    """Every option can be overridden, command-line strings included, and shows in to_json."""
    r = build_rules("forty-one", {"target": 25, "min_total": "13", "double_from": 5,
                                  "partner_positive": "false", "tie": "team-total"})
    assert (r.target, r.min_total, r.double_from) == (25, 13, 5)  # type: ignore[attr-defined]
    assert r.partner_positive is False and r.tie == "team-total"  # type: ignore[attr-defined]
    again = build_rules("forty-one", {"min-total": 12})
    assert again.min_total == 12  # type: ignore[attr-defined]


@pytest.mark.parametrize(("options", "words"), [
    ({"target": 0}, "target"),
    ({"target": "forty"}, "target"),
    ({"min_total": 3}, "min_total"),
    ({"min_total": 53}, "min_total"),
    ({"double_from": 0}, "double_from"),
    ({"double_from": 15}, "double_from"),
    ({"partner_positive": "maybe"}, "partner_positive"),
    ({"tie": "coin-flip"}, "tie"),
    ({"kitty": 3}, "unknown option"),
    ({"trump": "S"}, "unknown option"),
])
def test_bad_options_refused(options: Json, words: str) -> None:
    """Out-of-range values and Forty-Fives options are refused, naming the option."""
    with pytest.raises(RulesError, match=words):
        build_rules("forty-one", options)


def test_bad_option_in_a_record_is_not_a_game() -> None:
    """``forties check`` on a record with a bad option: exit 2, one line on standard error."""
    obj = variant("made_missed_overtricks", options={"double_from": 0})
    verdict, status, stderr = check_cli(obj)
    assert status == 2 and verdict is None
    assert stderr.count("\n") == 1 and "double_from" in stderr


def test_wrong_deal_is_not_a_game() -> None:
    """A Forty One deal with a kitty, or a card twice: exit 2."""
    obj = golden_record("made_missed_overtricks")
    obj["hands"][0]["deal"]["kitty"] = ["2C"]
    assert check_cli(obj)[1] == 2
    obj = golden_record("made_missed_overtricks")
    obj["hands"][0]["deal"]["hands"][0][0] = obj["hands"][0]["deal"]["hands"][1][0]
    _, status, stderr = check_cli(obj)
    assert status == 2 and "twice" in stderr


# ----- forties show ----------------------------------------------------------------------------


def test_show_reads_well() -> None:
    """The hand history names the teams, the bids and their total, each player's bid, tricks
    and score, why a player on 41 has not won, a tie that plays on, and the winners."""
    text = render(Record.from_json(golden_record("tie_lower_partner_plays_on")))
    assert "Teams: North & South  vs  East & West" in text
    assert "  Bids: East 12, South 1, West 1, North 1 (total 15)" in text
    assert re.search(r"East +bid 12, took 12: made \+24", text)
    assert re.search(r"South +bid  1, took  0: down -1", text)
    assert "Scores: North 1, East 24, South -1, West -1" in text
    assert "North has 41 but partner South is not above 0" in text
    assert "Both teams qualify, level by lower-partner: play goes on" in text
    assert text.rstrip().endswith("Game over: North & South win (North 48, South 5): 41 with a "
                                  "partner above 0")
    thrown = render(Record.from_json(golden_record("thrown_in_at_ten")))
    assert "Bids: East 3, South 2, West 3, North 2 (total 10, under 11)\n  Thrown in" in thrown


def test_show_command() -> None:
    """``forties show`` prints the history of a Forty One record, illegal action included
    (and exits 1, as ``check`` does)."""
    proc = run_forties("show", str(GOLDEN / "illegal_renounce.record.json"))
    assert proc.returncode == 1
    assert "is illegal: must follow clubs: you hold 2C 5C 9C QC" in proc.stdout


# ----- properties over random games --------------------------------------------------------------

def random_action(g: GameState, rng: random.Random) -> Action:
    return rng.choice(list(g.legal_actions()))


def play_to_a_played_hand(g: GameState, rng: random.Random) -> None:
    """Bid at random; deal again after a throw-in until a hand is being played."""
    while True:
        while g.phase is Phase.AUCTION:
            g.apply(random_action(g, rng))
        if g.phase is Phase.PLAY:
            return
        g.next_hand()


@settings(deadline=None)  # examples: the profile's (conftest.py)
@given(seed=st.integers(0, 2**31 - 1))
def test_a_played_hand_has_13_tricks_every_card_once(seed: int) -> None:
    """13 tricks of 4, each of the 52 cards once; legal plays are exactly 'follow suit if you
    can'; each trick goes to the highest heart, else the highest of the suit led."""
    rng = random.Random(seed)
    g = new_game("forty-one", seed=seed, first_dealer=seed % 4)
    play_to_a_played_hand(g, rng)
    dealt = [set(h) for h in g.deal.hands]
    start_scores = list(g.scores)
    assert g.turn == (g.dealer + 1) % 4
    while not g.hand_over:
        seat = g.turn
        assert seat is not None
        may_play = forty_one_follow_cards(g.hands[seat], g.trick_cards)
        expected = [i for i in range(52) if may_play >> i & 1]
        assert sorted(a.arg.bit_length() - 1 for a in g.legal_actions()) == expected
        g.apply(random_action(g, rng))
    assert len(g.tricks) == 13
    played = [card for t in g.tricks for card in t.cards]
    assert sorted(played) == list(range(52))
    taken = [0] * 4
    for t in g.tricks:
        assert len(t.cards) == 4
        for k, card in enumerate(t.cards):
            assert card in dealt[(t.leader + k) % 4]
        assert t.winner == (t.leader + forty_one_trick_winner(t.cards)) % 4
        taken[t.winner] += 1
    assert g.taken == taken  # type: ignore[attr-defined]
    for s in range(4):
        bid = g.bids[s]  # type: ignore[attr-defined]
        worth = 2 * bid if bid >= 7 else bid
        assert g.scores[s] - start_scores[s] == (worth if taken[s] >= bid else -worth)


@settings(deadline=None)  # examples: the profile's (conftest.py)
@given(seed=st.integers(0, 2**31 - 1))
def test_views_hide_other_hands(seed: int) -> None:
    """A seat's view shows his own cards and the cards played, never another's unplayed card."""
    rng = random.Random(seed)
    g = new_game("forty-one", seed=seed)
    play_to_a_played_hand(g, rng)
    while not g.hand_over:
        played = {CARD_NAMES[card] for t in g.tricks for card in t.cards}
        played |= {CARD_NAMES[card] for card in g.trick_cards}
        for seat in (None, 0, 1, 2, 3):
            v = g.view(seat)
            own = set() if seat is None else {CARD_NAMES[i] for i in range(52)
                                              if g.hands[seat] >> i & 1}
            assert set(v["hand"]) == own
            assert card_tokens(v) <= own | played
            assert (v["legal"] != []) == (seat == g.turn)
        g.apply(random_action(g, rng))


@settings(deadline=None)  # examples: the profile's (conftest.py)
@given(seed=st.integers(0, 2**31 - 1), hands=st.integers(1, 4))
def test_records_replay_to_the_same_scores(seed: int, hands: int) -> None:
    """A recorded game, written and read back, replays to the same tricks and scores."""
    rng = random.Random(seed)
    g = new_game("forty-one", seed=seed)
    rec = Recorder(g, ["Ann", "Bob", "Cy", "Di"])
    after: list[list[int]] = []
    taken: list[list[int]] = []
    for h in range(hands):
        if h:
            rec.next_hand()
        while not g.hand_over:
            rec.apply(random_action(g, rng))
        after.append(list(g.scores))
        taken.append(list(g.taken))  # type: ignore[attr-defined]
        if g.over:
            break
    verdict, status = referee(Record.loads(rec.record.dumps()))
    assert status == 0 and verdict["ok"]
    assert verdict["scores"] == g.scores
    assert [h["scores"] for h in verdict["hands"]] == after
    assert [h["points"] for h in verdict["hands"]] == taken
    assert verdict["over"] == g.over


@settings(deadline=None)  # examples: the profile's (conftest.py)
@given(seed=st.integers(0, 2**31 - 1), stop=st.integers(0, 56))
def test_json_state_round_trips(seed: int, stop: int) -> None:
    """to_json / from_json at any point gives the same state, and it plays on the same."""
    rng = random.Random(seed)
    g = new_game("forty-one", seed=seed, first_dealer=seed % 4)
    for _ in range(stop):
        if g.hand_over:
            break
        g.apply(random_action(g, rng))
    back = GameState.from_json(json.loads(json.dumps(g.to_json())))
    assert back.to_json() == g.to_json()
    for seat in (None, 0, 1, 2, 3):
        assert back.view(seat) == g.view(seat)
    assert [str(a) for a in back.legal_actions()] == [str(a) for a in g.legal_actions()]
    while not g.hand_over:
        a = random_action(g, rng)
        g.apply(a)
        back.apply(a)
    assert back.scores == g.scores and back.phase is g.phase
    assert back.to_json() == g.to_json()


# ----- the review of 2026-11-28: what the terminal says ----------------------------------


def _finished_game(target: int, seed: int) -> Record:
    """A whole game of four ``basic`` players to ``target``, as its record."""
    from forties.bots import play_out
    from forties.players import make_bot

    rec = Recorder(new_game(build_rules("forty-one", {"target": target}), seed=seed),
                   players=["North", "East", "South", "West"])
    play_out(rec, [make_bot("basic", random.Random(seed)) for _ in range(4)])
    assert rec.state.over
    return rec.record


def test_show_prints_the_hands_as_dealt_by_suit() -> None:
    """``forties show`` (and ``demo``) print each hand as dealt sorted by suit, hearts first,
    as the terminal game and ``replay --plain`` hold them, not in the order dealt."""
    from forties.show import sort_hand

    record = _finished_game(6, 3)
    text = render(record).splitlines()
    lines = [text[i + 1].split() for i, ln in enumerate(text) if ln.startswith("Hand ")]
    assert len(lines) == len(record.hands)
    for words, hand in zip(lines, record.hands, strict=True):
        dealt = [CARD_NAMES[c] for c in hand.deal.hands[0]]
        assert words[1:] == sort_hand(dealt, None, "forty-one"), words


def test_replay_plain_says_who_won() -> None:
    """``forties replay --plain`` ends a finished game with ``show``'s closing line, and
    that line gives the rule that ended it."""
    from forties.tui.replay import replay_plain

    record = _finished_game(6, 3)
    out = io.StringIO()
    assert replay_plain(record, out) == 0
    last = out.getvalue().splitlines()[-1]
    assert last == render(record).splitlines()[-1], last
    assert re.fullmatch(r"Game over: \w+ & \w+ win \(\w+ -?\d+, \w+ -?\d+\): .+", last), last
    assert last.endswith(": 6 with a partner above 0") or "both teams past 6" in last, last


def test_the_terminal_says_why_a_player_on_the_target_plays_on() -> None:
    """A player on the target whose partner is not above 0 has not won: the hand's result
    says so, and the game-over line gives the rule that ended the game."""
    from forties.players import make_bot
    from forties.tui.words import game_result, hand_result

    names = ["You", "West", "North", "East"]
    blocked = ended = 0
    for seed in range(40):
        g = new_game(build_rules("forty-one", {"target": 4}), seed=seed)
        bots = [make_bot("basic", random.Random(seed)) for _ in range(4)]
        while True:
            while not g.hand_over:
                seat = g.turn
                assert seat is not None
                g.apply(bots[seat].choose(g.view(seat), g.legal_actions()))
            v = g.view(None)
            sc = v["scores"]
            waits = [p for p in range(4) if sc[p] >= 4 and sc[(p + 2) % 4] <= 0]
            lines = hand_result(v, names) if v["tricks"] else []
            if not g.over and waits and lines:
                blocked += 1
                p = waits[0]
                assert (f"{names[p]} {'have' if p == 0 else 'has'} {sc[p]} but "
                        f"{'your' if p == 0 else 'his'} partner {names[(p + 2) % 4]} is not "
                        "above 0: play on.") in lines, lines
            if g.over:
                ended += 1
                assert re.fullmatch(r"Game over: \w+ & \w+ win: (4 with a partner above 0|"
                                    r"both teams past 4: the higher lower partner)\.",
                                    game_result(v, names)), game_result(v, names)
                break
            g.next_hand()
    assert blocked >= 3 and ended == 40, (blocked, ended)


def test_hint_names_the_seats_as_show_does(tmp_path: Path, monkeypatch: Any) -> None:
    """``forties hint`` names the seats by the record's names, both in a finished hand's par
    and for the seat to act (it said "seats 2 and 4" beside "Seat 2 (North)")."""
    from click.testing import CliRunner

    import forties.analysis
    from forties.analysis import Par, TeamPar
    from forties.cli import main as cli_main

    record = _finished_game(6, 3)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_json()))
    teams = (TeamPar((1, 3), 8, (3, 3)), TeamPar((0, 2), 5, (5, 1)))
    monkeypatch.setattr(forties.analysis, "par", lambda st, budget=None: Par(
        (1, 3), 8, "numbered", teams, True))
    res = CliRunner().invoke(cli_main, ["hint", str(path)])
    assert res.exit_code == 0, res.output
    assert res.output.strip() == (
        "With every card seen and best play, East and West would take 8 tricks (they bid 3 and "
        "3), North and South would take 5 tricks (they bid 5 and 1).")
    first = Record(record.rules, record.players, record.first_dealer,
                   [dataclasses.replace(record.hands[0], actions=record.hands[0].actions[:5])])
    path.write_text(json.dumps(first.to_json()))
    res = CliRunner().invoke(cli_main, ["hint", "--worlds", "2", str(path)])
    assert res.exit_code == 0, res.output
    head = res.output.splitlines()[0]
    assert re.match(r"(North|East|South|West) to act: ", head), head


def test_the_plain_help_gives_a_legal_forty_one_bid(tmp_path: Path) -> None:
    """The terminal's help shows a bid a Forty One player may make (1 to 13), not 20."""
    from click.testing import CliRunner

    from forties.cli import main as cli_main

    res = CliRunner().invoke(cli_main, ["play", "-p", "forty-one", "--plain", "--delay", "0",
                                        "--seed", "5"], input="help\nquit\n",
                             env={"FORTIES_DATA": str(tmp_path)})
    assert "Bids are numbers: 4." in res.output, res.output
