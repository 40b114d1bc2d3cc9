"""Golden records for the play and the score of the Forty-Fives family: card ranks,
following, reneging, tricks, the bonus, the bidder's score, the lock at 100, the
target, the end of the game, Traditional 45 and Call Your Partner.

Each record in ``golden/ff_play_score`` (``NAME.record.json``) stands next to its
full verdict (``NAME.expected.json``; the record's ``notes`` say what it is about).
Every record is judged twice: through the API (``referee``) and through the command
line (``forties check``).

The stored verdicts were written by the engine and read over by hand when they were
made; they are not an independent oracle. Their tricks, points, scores and results are
checked again without the engine by ``test_golden_scores.py``; their legal lists and
refusal reasons guard against change only, and rest on the named tests below the two
sweeps, which spell out, in code and worked by hand, the rule each record is about, and
walk some positions move by move with ``new_game`` and ``apply``.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from forties import (
    Action,
    Deal,
    GameState,
    IllegalActionError,
    Phase,
    Record,
    build_rules,
    new_game,
    referee,
)
from forties.cards import CARD_NAMES, parse_card

from .helpers_engine import (
    GOLDEN_DIR,
    check_many,
    golden_names,
    play_record,
    run_forties,
    sorted_legal,
)

GOLDEN = GOLDEN_DIR / "ff_play_score"
NAMES = golden_names(GOLDEN)


# ----- helpers ----------------------------------------------------------------------------


def load(name: str, kind: str) -> Any:
    return json.loads((GOLDEN / f"{name}.{kind}.json").read_text(encoding="utf-8"))


@cache
def _judged(name: str) -> tuple[str, int]:
    verdict, status = referee(Record.from_json(load(name, "record")))
    return json.dumps(verdict), status


def verdict(name: str) -> dict[str, Any]:
    """The API verdict on a golden record (a fresh copy)."""
    v: dict[str, Any] = json.loads(_judged(name)[0])
    return v


def status(name: str) -> int:
    return _judged(name)[1]


def winners(v: dict[str, Any], hand: int = 0) -> list[int | None]:
    return [t["winner"] for t in v["hands"][hand]["tricks"]]


def error_reason(name: str) -> str:
    v = verdict(name)
    assert v["ok"] is False and status(name) == 1
    reason: str = v["error"]["reason"]
    return reason


def replay(name: str, hand: int = -1, upto: int | None = None) -> GameState:
    """The game of record ``name`` rebuilt with ``new_game``/``apply``/``next_hand``,
    stopped before action ``upto`` of hand ``hand`` (default: the last hand, all of it)."""
    return play_record(Record.from_json(load(name, "record")), hand, upto)


def until(name: str, action: str, hand: int = -1) -> GameState:
    """The state of record ``name`` just before ``action`` (in ``hand``) is played."""
    rec = load(name, "record")
    return replay(name, hand, rec["hands"][hand]["actions"].index(action))


def phase(state: GameState) -> Phase:
    return state.phase


def legal(state: GameState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def plays(seat: int, cards: str) -> set[str]:
    return {f"{seat} play {c}" for c in cards.split()}


# ----- every record, through the API and through the command line --------------------------


def test_records_and_verdicts_pair_up() -> None:
    """Each record has its expected verdict and the reverse; the set is the one built."""
    expected = sorted(p.name.removesuffix(".expected.json")
                      for p in GOLDEN.glob("*.expected.json"))
    assert expected == NAMES
    assert len(NAMES) >= 50


@pytest.mark.parametrize("name", NAMES)
def test_referee_api(name: str) -> None:
    """``referee`` on the record gives exactly the hand-worked verdict and exit status."""
    expected = load(name, "expected")
    got, code = referee(Record.from_json(load(name, "record")))
    assert sorted_legal(got) == sorted_legal(expected)
    assert code == (0 if expected["ok"] else 1)


@cache
def _checked() -> dict[str, tuple[str, int, str]]:
    """``forties check`` on every record, in one process (see check_many)."""
    return check_many([GOLDEN / f"{name}.record.json" for name in NAMES])


@pytest.mark.parametrize("name", NAMES)
def test_check_command(name: str) -> None:
    """``forties check RECORD`` prints the same verdict as JSON and exits 0 or 1."""
    expected = load(name, "expected")
    stdout, code, stderr = _checked()[str(GOLDEN / f"{name}.record.json")]
    assert code == (0 if expected["ok"] else 1), stderr
    assert sorted_legal(json.loads(stdout)) == sorted_legal(expected)
    assert stderr == ""


@pytest.mark.parametrize("ok", [True, False])
def test_the_installed_script_checks_as_the_batch(ok: bool) -> None:
    """``forties check`` run as its own process prints and exits as the batch saw."""
    name = next(n for n in NAMES if load(n, "expected")["ok"] is ok)
    path = str(GOLDEN / f"{name}.record.json")
    done = run_forties("check", path)
    assert (done.stdout, done.returncode, done.stderr) == _checked()[path]


@pytest.mark.parametrize("name", NAMES)
def test_replay_by_apply_matches(name: str) -> None:
    """Rebuilding the game with ``new_game`` and ``apply`` reaches the verdict's scores,
    turn and legal actions; an illegal last action raises with the verdict's reason."""
    expected = load(name, "expected")
    rec = load(name, "record")
    if expected["ok"]:
        state = replay(name)
    else:
        last = rec["hands"][-1]["actions"]
        state = replay(name, upto=len(last) - 1)
        with pytest.raises(IllegalActionError) as err:
            state.apply(last[-1])
        assert err.value.reason == expected["error"]["reason"]
    assert state.scores == expected["scores"]
    assert state.over == expected["over"]
    assert state.turn == expected["to_act"]
    if expected["legal"] is not None:
        assert sorted(legal(state)) == sorted(expected["legal"])
    w = state.winner
    assert (list(w) if isinstance(w, tuple) else w) == expected["winner"]


# ----- ranks and tricks ---------------------------------------------------------------------


def test_ranks_with_diamonds_trump() -> None:
    """AH led is a trump lead and beats AD; off-suit orders decide the plain tricks."""
    v = verdict("ranks_trump_diamonds")
    # T1 AH>AD>KD>4D; T2 clubs off JC>AC>2C>7C; T3 spades off AS>3S>9S>TS;
    # T4 hearts off KH>9H>5H>2H; T5 JD>2D (the trumps), JD being the bonus card.
    assert winners(v) == [0, 3, 1, 2, 0]
    assert v["hands"][0]["points"] == [20, 10]
    assert v["scores"] == [20, 10]


def test_ranks_with_spades_trump() -> None:
    """Black trumps run 2 above 3 above 10; diamonds off have the ace lowest."""
    v = verdict("ranks_trump_spades")
    # T1 QS>2S>3S>TS; T2 3D>2D>AD; T3 AH trumps hearts; T4 AC>2C>9C>TC; T5 5S>JS.
    assert winners(v) == [3, 2, 0, 3, 1]
    assert v["hands"][0]["points"] == [10, 20]
    assert v["scores"] == [-15, 20]  # bid 15, took 10: set


# ----- following ----------------------------------------------------------------------------


def test_trump_only_off_suit_lead_is_free() -> None:
    """follow=trump-only: on an off-suit lead any card may be played."""
    state = until("follow_trump_only_must_trump", "1 play 2D")
    assert legal(state) == plays(1, "4H 7C 2D 8S 9D")


def test_trump_only_trump_lead_must_be_followed() -> None:
    """follow=trump-only: on a trump lead a player with a trump must play one."""
    assert error_reason("follow_trump_only_must_trump") == "must play a trump: you hold 4H"
    state = until("follow_trump_only_must_trump", "1 play 7C")
    assert legal(state) == {"1 play 4H"}
    with pytest.raises(IllegalActionError) as err:
        state.apply("1 play 7C")
    assert "4H" in err.value.reason
    assert verdict("follow_trump_only_must_trump")["legal"] == ["1 play 4H"]


def test_suit_or_trump_follow_or_trump() -> None:
    """follow=suit-or-trump: holding the suit led, follow it or trump; else anything."""
    state = until("follow_suit_or_trump", "1 play 2C")
    assert legal(state) == plays(1, "4D 2C 6C")  # diamonds or clubs (trump)
    state.apply("1 play 2C")
    assert legal(state) == plays(2, "9H AH 5S 2S QC")  # no diamond: anything
    assert error_reason("follow_suit_or_trump") == "must follow spades or trump: you hold JS"
    assert sorted(verdict("follow_suit_or_trump")["legal"]) == ["1 play 6C", "1 play JS"]


def test_ah_is_never_a_heart_for_following() -> None:
    """Hearts led, clubs trump: a player whose only 'heart' is AH holds no heart."""
    state = until("follow_suit_or_trump", "2 play 5S")
    assert legal(state) == plays(2, "AH 5S 2S QC")


def test_ah_lead_is_a_trump_lead() -> None:
    """AH led with spades trump: a spade must follow, a heart does not."""
    assert error_reason("follow_ah_lead_is_trump_lead") == "must play a trump: you hold 2S"
    state = until("follow_ah_lead_is_trump_lead", "1 play 7H")
    assert legal(state) == {"1 play 2S"}


# ----- reneging -----------------------------------------------------------------------------


def test_jack_led_five_withheld_ah_not() -> None:
    """top3, J led: the 5 may be withheld, AH may not."""
    state = until("renege_top3_jack_led", "1 play 2C")
    assert legal(state) == plays(1, "5H 2C 3C 4C 6C")
    state.apply("1 play 2C")
    assert legal(state) == {"2 play AH"}
    assert winners(verdict("renege_top3_jack_led")) == [0]
    assert error_reason("renege_top3_jack_led_ah_must") == "must play a trump: you hold AH"


def test_five_led_nothing_withheld() -> None:
    """top3, 5 led: neither the J nor AH may be withheld."""
    assert error_reason("renege_top3_five_led") == "must play a trump: you hold JH"
    state = until("renege_top3_five_led", "1 play 2C")
    assert legal(state) == {"1 play JH"}
    state.apply("1 play JH")
    assert legal(state) == {"2 play AH"}


def test_low_lead_privileged_trumps_free() -> None:
    """top3, a low trump led: holders of only 5, J or AH may play any card."""
    state = until("renege_top3_low_led", "1 play 2C")
    assert legal(state) == plays(1, "5H 2C 3C 4C 6C")
    state.apply("1 play 2C")
    assert legal(state) == plays(2, "JH 7D 8D 9D TD")
    state.apply("2 play 7D")
    assert legal(state) == plays(3, "AH KC QC JC TC")
    assert winners(verdict("renege_top3_low_led")) == [0]


def test_privilege_is_against_the_card_led() -> None:
    """The privilege compares with the card led, not the best trump played so far:
    after 9H led and JH played, AH may still be withheld."""
    state = until("renege_top3_low_led", "1 play 2C")
    for a in ("1 play 2C", "2 play JH"):
        state.apply(a)
    assert legal(state) == plays(3, "AH KC QC JC TC")


def test_unprivileged_trump_forces_any_trump() -> None:
    """top3: holding the 5 and a low trump, a low lead must be followed by either trump."""
    assert error_reason("renege_top3_with_low_trump_must") == "must play a trump: you hold 4H 5H"
    state = until("renege_top3_with_low_trump_must", "1 play 3C")
    assert legal(state) == {"1 play 4H", "1 play 5H"}
    v = verdict("renege_top3_with_low_trump_plays_five")
    assert winners(v) == [1]
    assert v["hands"][0]["points"] == [0, 10]  # the 5H trick carries the bonus


def test_ah_led_top_two_withheld() -> None:
    """top3, AH led: the 5 and the J outrank it and may be withheld; the K may not."""
    state = until("renege_top3_ah_led", "1 play 2C")
    assert legal(state) == plays(1, "5H 2C 3C 4C 6C")
    state.apply("1 play 2C")
    assert legal(state) == plays(2, "JH 7D 8D 9D TD")
    assert error_reason("renege_top3_ah_led") == "must play a trump: you hold 2H KH"


def test_jack_led_five_and_ah_must_play_a_trump() -> None:
    """top3, J led, holding 5 and AH: AH is not privileged here, so a trump is due;
    either one."""
    assert error_reason("renege_top3_jack_led_five_and_ah") == \
        "must play a trump: you hold 5H AH"
    state = until("renege_top3_jack_led_five_and_ah", "1 play 2C")
    assert legal(state) == {"1 play 5H", "1 play AH"}


def test_five_only_renege() -> None:
    """renege=five-only: the 5 may be withheld, the J and AH may not."""
    state = until("renege_five_only_jack_must", "1 play 2C")
    assert legal(state) == plays(1, "5H 2C 3C 4C 6C")
    assert error_reason("renege_five_only_jack_must") == "must play a trump: you hold JH"
    state.apply("1 play 2C")
    state.apply("2 play JH")
    assert legal(state) == {"3 play AH"}


def test_no_renege() -> None:
    """renege=none: even the 5 must follow a low trump."""
    assert error_reason("renege_none_five_must") == "must play a trump: you hold 5H"
    assert legal(until("renege_none_five_must", "1 play 2C")) == {"1 play 5H"}


# ----- hearts on hearts ---------------------------------------------------------------------


def test_hearts_on_hearts() -> None:
    """AH led: any trump must be played (no privilege); no trump: a heart; neither: any."""
    v = verdict("hearts_on_hearts_followed")
    assert winners(v) == [1]  # 5D beats AH
    assert v["hands"][0]["points"] == [0, 10] and v["scores"] == [0, 10]
    assert error_reason("hearts_on_hearts_trump_required") == \
        "hearts on hearts: AH was led, play a trump: you hold 5D"
    assert error_reason("hearts_on_hearts_heart_required") == \
        "hearts on hearts: AH was led, play a heart: you hold 4H"
    state = until("hearts_on_hearts_followed", "3 play KC")
    assert legal(state) == plays(3, "KC QC JC 2S 3S")


def test_without_hearts_on_hearts_the_five_is_withheld() -> None:
    """The same deal without the option: 5D withheld from AH, no heart required."""
    state = until("hearts_on_hearts_off", "1 play 2C")
    assert legal(state) == plays(1, "5D 2C 3C 4C 6C")
    state.apply("1 play 2C")
    assert legal(state) == plays(2, "4H 7C 8C 9C TC")
    assert winners(verdict("hearts_on_hearts_off")) == [0]


def test_hearts_on_hearts_with_hearts_trump() -> None:
    """Hearts trump, AH led under hearts on hearts: a player with no trump holds no heart
    either, and may play any card."""
    rules = build_rules("nova-scotia", {"hearts_on_hearts": True})
    d = Deal.from_json({"hands": [["AH", "9S", "8S", "7S", "6S"], ["2C", "3C", "4C", "6C", "7C"],
                                  ["5H", "2D", "3D", "4D", "6D"], ["4H", "KC", "QC", "JC", "TC"]],
                        "stock": ["9H", "2H", "3H", "6H", "7H", "8H", "TH", "JH", "QH", "KH",
                                  "5C", "8C", "9C", "AC", "5D", "7D", "8D", "9D", "TD", "JD",
                                  "QD", "KD", "AD", "2S", "3S", "4S", "5S", "JS", "QS", "KS",
                                  "AS", "TS"]})
    state = new_game(rules, first_dealer=3, deal=d)
    assert state.phase is Phase.ROB and state.turn == 0  # AH is the ace of trumps
    state.apply("0 pass")
    state.apply("0 play AH")
    assert legal(state) == plays(1, "2C 3C 4C 6C 7C")
    state.apply("1 play 2C")
    assert legal(state) == {"2 play 5H"}  # no privilege for the 5 on hearts on hearts


# ----- the bonus ----------------------------------------------------------------------------


def test_no_trump_played_hand_is_worth_25() -> None:
    """best-trump: no trump played, no bonus: 25 points in the hand."""
    v = verdict("bonus_no_trump_played")
    assert sum(v["hands"][0]["points"]) == 25
    assert winners(v) == [0, 0, 0, 0, 0]
    assert v["scores"] == [25, 0]


def test_best_trump_goes_to_the_highest_trump_played() -> None:
    """best-trump: with the 5 undealt, the J's trick earns the bonus (30 in all);
    five-only: the same hand earns none (25)."""
    assert verdict("bonus_best_trump_without_five")["hands"][0]["points"] == [30, 0]
    assert verdict("bonus_five_only_not_dealt")["hands"][0]["points"] == [25, 0]


# Spades trump, 5S undealt: the trumps played are JS (the highest, side 0's third trick)
# and TS (the lowest, side 1's second); both sides take tricks.
BONUS_HANDS = ("KC QC 2D 3D 9H", "4C 7C 5D 6D 8H", "5C 8C JS 7D TH", "6C TS 4D 8D 2H")
BONUS_TRICKS = (
    ("0 play KC", "1 play 4C", "2 play 5C", "3 play 6C"),  # KC, clubs off: seat 0, 5
    ("0 play QC", "1 play 7C", "2 play 8C", "3 play TS"),  # TS trumps: seat 3, 5
    ("3 play 4D", "0 play 2D", "1 play 5D", "2 play JS"),  # JS trumps: seat 2, 5 + bonus
    ("2 play 7D", "3 play 8D", "0 play 3D", "1 play 6D"),  # 8D, diamonds off: seat 3, 5
    ("3 play 2H", "0 play 9H", "1 play 8H", "2 play TH"),  # TH, hearts off: seat 2, 5
)


def bonus_game(bonus: str) -> GameState:
    """The hand above, bid 15 by seat 0, who names spades and throws the kitty back."""
    kitty = ["2C", "3C", "4H"]
    used = {*" ".join(BONUS_HANDS).split(), *kitty}
    deal = Deal.from_json({"hands": [h.split() for h in BONUS_HANDS], "kitty": kitty,
                           "stock": [c for c in CARD_NAMES if c not in used]})
    state = new_game(build_rules("merrimack-valley", {"bonus": bonus}), first_dealer=3,
                     deal=deal)
    for a in ("0 bid 15", "1 pass", "2 pass", "3 pass", "0 trump S", "0 discard 2C 3C 4H",
              "1 discard", "2 discard", "3 discard"):
        state.apply(a)
    return state


def test_best_trump_bonus_goes_to_the_trick_of_the_highest_trump() -> None:
    """best-trump: of the two trumps played, JS (side 0's third trick) is the higher, so
    that trick is worth 10 and TS's (side 1's second) 5; worked out trick by trick."""
    state = bonus_game("best-trump")
    after = []
    for trick in BONUS_TRICKS:
        for a in trick:
            state.apply(a)
        after.append(list(state.points))
    assert [t.winner for t in state.tricks] == [0, 3, 2, 3, 2]
    assert after == [[5, 0], [5, 5], [15, 5], [15, 10], [20, 10]]
    assert state.scores == [20, 10]  # bid 15, took 20


def test_five_only_bonus_with_the_five_undealt() -> None:
    """five-only, the same hand: no 5 of trumps in play, no bonus: 25 in all."""
    state = bonus_game("five-only")
    for trick in BONUS_TRICKS:
        for a in trick:
            state.apply(a)
    assert state.points == [15, 10] and state.scores == [15, 10]


def test_five_only_bonus_when_the_five_is_played() -> None:
    """five-only: the trick holding the 5 of trumps is worth 10."""
    v = verdict("bonus_five_only_played")
    assert winners(v) == [0, 0, 1, 0, 0]
    assert v["hands"][0]["tricks"][2]["cards"][1] == "5H"
    assert v["hands"][0]["points"] == [20, 10]


# ----- the bidder's score -------------------------------------------------------------------


def test_bidder_scores_taken_or_bid() -> None:
    """Bid 20, took 25: 'taken' scores 25, 'bid' scores 20; the others their 5."""
    assert verdict("score_bidder_taken")["scores"] == [25, 5]
    assert verdict("score_bidder_bid")["scores"] == [20, 5]


def test_made_30_scores_60() -> None:
    """made_30_scores_60: a made 30 scores 60 (else 30); a set 30 loses 30."""
    assert verdict("score_30_made_scores_60")["scores"] == [60, 0]
    assert verdict("score_30_made_scores_30")["scores"] == [30, 0]
    assert verdict("score_30_set_loses_30")["scores"] == [-30, 5]


def test_target_120() -> None:
    """Target 120: 60 plays on, 120 wins."""
    v = verdict("target_120")
    assert v["hands"][0]["scores"] == [60, 0]
    assert v["hands"][1]["scores"] == [120, 0]
    assert v["over"] is True and v["winner"] == 0
    state = replay("target_120", hand=0)
    assert state.phase is Phase.HAND_OVER and not state.over


def test_lock_at_100() -> None:
    """A side on 100 or more scores nothing on hands it did not bid, but does on its own."""
    v = verdict("lock_at_100")
    locked = v["hands"][2]
    assert locked["bidder"] == 3 and locked["points"] == [10, 20]
    assert locked["scores"] == [120, 20]  # side 0 took 10 and scored 0
    own = v["hands"][3]
    assert own["bidder"] == 0 and own["points"] == [25, 5]
    assert own["scores"] == [140, 25]  # its bid, 20 (bidder_scores=bid)
    assert v["over"] is False  # target 150


def bonus_hand_from(scores: list[int]) -> GameState:
    """The bonus hand above (seat 0 bids 15 and takes 20, side 1 takes 10) under
    lock_at=100, begun with ``scores``, played to its end."""
    snap = bonus_game("best-trump").to_json()
    snap["rules"] = {"preset": "merrimack-valley", "options": {"lock_at": 100}}
    snap["scores"] = scores
    state = GameState.from_json(snap)
    for trick in BONUS_TRICKS:
        for a in trick:
            state.apply(a)
    return state


@pytest.mark.parametrize(("start", "end"), [
    (99, 109),   # under the lock: side 1 scores its 10
    (100, 100),  # on 100 exactly: locked, the 10 it took is not scored
    (101, 101),  # above: locked too
])
def test_lock_at_100_by_hand(start: int, end: int) -> None:
    """lock_at=100, side 1 not bidding and taking two tricks (10): it scores them from 99,
    not from 100 or 101; the bidders, side 0, score their 20 as ever."""
    state = bonus_hand_from([0, start])
    assert state.points == [20, 10]
    assert state.scores == [20, end]


def test_lock_at_100_spares_the_bidders() -> None:
    """A side on exactly 100 that won the bid scores its hand: 100 + 20 = 120, game."""
    state = bonus_hand_from([100, 0])
    assert state.scores == [120, 10]
    assert state.over and state.winner == 0


# ----- the end of the game ------------------------------------------------------------------


def test_bidder_goes_out() -> None:
    """Both sides pass the target in one hand: the bidders win, even with less."""
    v = verdict("end_bidder_goes_out")
    assert v["hands"][0]["bidder"] == 1
    assert v["scores"] == [20, 10]
    assert v["over"] is True and v["winner"] == 1


def test_highest_wins_when_the_bidder_is_not_out() -> None:
    """Cut-throat: the bidder set, two others past the target: the higher wins."""
    v = verdict("end_highest_when_bidder_not_out")
    assert v["sides"] == [[0], [1], [2]]
    assert v["scores"] == [-15, 15, 10]
    assert v["winner"] == 1


def test_a_tie_plays_on() -> None:
    """Two non-bidders past the target with the same score: nobody wins yet."""
    v = verdict("end_tie_plays_on")
    assert v["scores"] == [-15, 10, 10]
    assert v["over"] is False and v["winner"] is None
    assert v["to_act"] is None and v["legal"] == []


def test_must_bid_on_green() -> None:
    """Both sides on the green before the hand and after it: a side that did not bid
    cannot go out, and play goes on."""
    green = verdict("end_green_nonbidder_cannot_go_out")
    assert [h["scores"] for h in green["hands"]] == [[10, 20], [25, 35], [40, 15]]
    assert green["hands"][2]["bidder"] == 3 and green["hands"][2]["bid"] == "20"
    assert green["over"] is False and green["winner"] is None
    # 10 is exactly 30 from the target of 40: still on the green
    edge = verdict("end_green_on_the_edge_still_on_green")
    assert [h["scores"] for h in edge["hands"]] == [[25, 5], [30, 30], [45, 10]]
    assert edge["hands"][2]["bidder"] == 3
    assert edge["over"] is False and edge["winner"] is None


def test_a_side_that_falls_off_the_green_ends_it() -> None:
    """Jerry Dow's variation 3: play goes on "until either the bidding team goes out or a
    team fall off of the green". The bidders set from 10 to -5 fall off it, so the side
    that passed 40 without bidding wins at once, as under bidder-goes-out."""
    off = verdict("end_green_falls_off_nonbidder_goes_out")
    assert off["hands"][1]["bidder"] == 1
    assert off["scores"] == [45, -5] and off["over"] is True and off["winner"] == 0
    plain = verdict("end_green_same_hands_bidder_goes_out")
    assert plain["scores"] == [45, -5] and plain["over"] is True and plain["winner"] == 0


def test_on_green_the_bidders_go_out() -> None:
    """On the green, a side that bid and passes the target wins."""
    v = verdict("end_green_bidder_goes_out")
    assert v["hands"][1]["bidder"] == 2 and v["scores"] == [45, 15]
    assert v["winner"] == 0


def test_one_side_near_the_target_is_not_green() -> None:
    """Only one side within 30: a side may go out on the other's bid."""
    v = verdict("end_not_green_nonbidder_goes_out")
    assert v["hands"][0]["scores"] == [30, 0]
    assert v["hands"][1]["bidder"] == 1
    assert v["scores"] == [55, -15] and v["winner"] == 0


def test_forty_five_resets_only_exactly() -> None:
    """The 45 rule: landing exactly on 45 goes back to 0; passing over it does not."""
    v = verdict("forty_five_resets_exact")
    assert v["hands"][1]["points"] == [20, 10]
    assert v["scores"] == [0, 15]
    assert verdict("forty_five_resets_only_exact")["scores"] == [50, 10]


# ----- the first lead -----------------------------------------------------------------------


def test_lead_bidder() -> None:
    """Merrimack Valley: the bidder leads."""
    assert error_reason("lead_bidder") == "it is seat 1's turn, not seat 2's"
    assert verdict("lead_bidder")["to_act"] == 1


def test_lead_left_of_bidder() -> None:
    """lead=left-of-bidder (MV option, Auction 45 preset): the bidder's left leads."""
    assert error_reason("lead_left_of_bidder_option") == "it is seat 2's turn, not seat 1's"
    v = verdict("lead_left_of_bidder_auction_45")
    assert v["hands"][0]["bidder"] == 1 and v["to_act"] == 2


def test_lead_left_of_dealer() -> None:
    """Traditional 45: the dealer's left leads."""
    v = verdict("lead_left_of_dealer")
    assert v["hands"][0]["dealer"] == 1 and v["to_act"] == 2
    assert error_reason("lead_left_of_dealer") == "it is seat 2's turn, not seat 1's"


# ----- Traditional 45 -----------------------------------------------------------------------


def test_turned_up_card_is_the_top_of_the_stock() -> None:
    """The first card of the stock is turned up and names trump."""
    rec = load("ns_rob_by_ace_holder", "record")
    v = verdict("ns_rob_by_ace_holder")
    for h in (0, 1):
        assert v["hands"][h]["trump"] == rec["hands"][h]["deal"]["stock"][0][1]
    state = replay("ns_rob_by_ace_holder", hand=0, upto=0)
    assert state.view(None)["up_card"] == "7H"


def test_the_holder_of_the_ace_of_trumps_robs() -> None:
    """7H turned: AH (the ace of trumps for hearts) may rob: pass, or give any one card."""
    state = replay("ns_rob_by_ace_holder", hand=0, upto=0)
    assert state.phase is Phase.ROB and state.turn == 2
    assert legal(state) == {"2 pass"} | {f"2 rob {c}" for c in ("AH", "9C", "KH", "8D", "9D")}
    state.apply("2 rob 9C")
    hand = set(state.view(2)["hand"])
    assert "7H" in hand and "9C" not in hand
    assert phase(state) is Phase.PLAY and state.turn == 0


def test_the_dealer_robs_a_turned_ace() -> None:
    """AS turned: the dealer robs it."""
    state = replay("ns_rob_ace_turned_dealer", hand=0, upto=0)
    assert state.phase is Phase.ROB and state.turn == 3 == state.dealer
    v = verdict("ns_rob_ace_turned_dealer")
    assert v["hands"][0]["tricks"][0]["cards"][3] == "AS" and winners(v) == [3]


def test_ace_of_hearts_does_not_rob_another_suit() -> None:
    """Diamonds turned up, AD in the stock: the holder of AH may not rob; play starts."""
    state = replay("hearts_on_hearts_off", upto=0)
    assert "AH" in state.view(0)["hand"]
    assert state.phase is Phase.PLAY and state.turn == 0


def test_at_most_one_robber() -> None:
    """Once the ace holder has passed, the play begins; nobody else may rob."""
    assert error_reason("ns_rob_only_one") == "it is your turn to play a card"
    state = replay("ns_rob_by_ace_holder", hand=0, upto=1)
    assert all(a.verb.value == "play" for a in state.legal_actions())


def test_game_ends_at_the_trick_reaching_45() -> None:
    """The bonus counts on its trick at once (JD, with 5D undealt); the trick that makes
    45 ends the game; the rest of the hand is not played."""
    v = verdict("ns_game_ends_at_45")
    last = v["hands"][1]
    assert len(last["tricks"]) == 2
    assert last["tricks"][0]["cards"][1] == "JD"
    assert last["points"] == [15, 0] and last["scores"] == [45, 0]
    assert v["over"] is True and v["winner"] == 0 and v["legal"] is None
    state = replay("ns_game_ends_at_45", upto=4)
    assert state.scores == [40, 0]  # after the first trick, bonus included
    assert error_reason("ns_no_play_after_45") == "the game is over"


def test_scores_are_running_totals_mid_hand() -> None:
    """Traditional 45 keeps running totals: mid-hand, scores include the tricks taken."""
    v = verdict("ns_rob_by_ace_holder")
    assert v["hands"][0]["scores"] == [25, 5]
    assert v["hands"][1]["points"] == [0, 15]
    assert v["hands"][1]["scores"] == [25, 20] == v["scores"]


def test_best_of_three() -> None:
    """Best of 3: a game won resets the scores; the match needs two games."""
    one = verdict("ns_match_after_game_one")
    assert one["games"] == [1, 0] and one["over"] is False and one["winner"] is None
    v = verdict("ns_match_best_of_3")
    assert [h["scores"] for h in v["hands"]] == [[30, 0], [45, 0], [0, 30], [0, 45],
                                                [30, 0], [45, 0]]
    assert v["games"] == [2, 1] and v["over"] is True and v["winner"] == 0
    state = replay("ns_match_best_of_3", hand=1)
    assert state.games == [1, 0] and not state.over and state.scores == [45, 0]
    state.next_hand(Deal.from_json(load("ns_match_best_of_3", "record")["hands"][2]["deal"]))
    assert state.scores == [0, 0]


def test_single_game_verdict_has_no_games_key() -> None:
    """The ``games`` key belongs to best-of-3 verdicts only."""
    assert "games" not in verdict("ns_game_ends_at_45")


# ----- Call Your Partner --------------------------------------------------------------------


def test_partners_score_together_and_win_together() -> None:
    """The caller and the holder of the called card go up by the same amount; both past
    120 together, both win (``winner`` lists seats)."""
    v = verdict("cyp_partners_win_together")
    assert v["sides"] == [[0], [1], [2], [3], [4]]
    assert [h["partner"] for h in v["hands"]] == [1, 0]
    assert v["hands"][1]["points"] == [0, 30, 0, 0, 0]
    assert v["scores"] == [120, 120, 0, 0, 0]
    assert v["over"] is True and v["winner"] == [0, 1]


def test_partner_wins_with_the_bidder_whatever_his_score() -> None:
    """Seed 001: when one partner wins, 'the other is considered to have won as well,
    regardless of their score'. Hand 1 of the golden record, played from 100-0-0-0-0:
    the bidder (on 100, scoring on his own bid) reaches 160, his partner 60; both win."""
    first = load("cyp_partners_win_together", "record")["hands"][0]
    state = new_game(build_rules("call-your-partner"), first_dealer=4,
                     deal=Deal.from_json(first["deal"]))
    snapshot = state.to_json()
    snapshot["scores"] = [100, 0, 0, 0, 0]
    state = GameState.from_json(snapshot)
    for a in first["actions"]:
        state.apply(a)
    assert state.scores == [160, 60, 0, 0, 0]
    assert state.over and state.winner == (0, 1)


def test_players_on_100_score_only_as_bidder_or_partner() -> None:
    """Locked at 100: a partner scores, a bystander taking a trick does not."""
    v = verdict("cyp_lock_at_100")
    h = v["hands"][2]
    assert h["called"] == "KD" and h["partner"] == 0
    assert h["points"] == [5, 5, 15, 0, 5]
    assert h["scores"] == [140, 120, 20, 0, 5]


def test_may_not_call_a_trump_above_all_his_trumps() -> None:
    """The bidder may not call a trump outranking every trump he holds (never the 5)."""
    assert error_reason("cyp_call_above_every_trump") == \
        "you may not call 5H: the 5 of trumps is never called"
    calls = set(verdict("cyp_call_above_every_trump")["legal"])
    assert "0 call 5H" not in calls
    assert {"0 call none", "0 call JH", "0 call QH", "0 call 2H", "0 call AS"} <= calls
    assert len(calls) == 52  # 51 cards and none


def test_the_five_of_trumps_is_never_called_even_from_his_own_hand() -> None:
    """Seed and spec: "a player can never call for the five of trump". Calling a card
    of his own hand is going alone, but the 5 may not be called even when he holds it
    (the call would tell the table where it is)."""
    hands = ("5H JH AH KH 9H", "QH 2C 3C 4C 6C", "2D 3D 4D 6D 7D", "2S 3S 4S 6S 7S",
             "7C 8C 9C TC JC")
    kitty = ("8D", "9D", "TD")
    dealt = {parse_card(c) for h in hands for c in h.split()} | {parse_card(c) for c in kitty}
    deal = Deal(tuple(tuple(parse_card(c) for c in h.split()) for h in hands),
                tuple(parse_card(c) for c in kitty),
                tuple(c for c in range(52) if c not in dealt))
    state = new_game(build_rules("call-your-partner"), deal=deal, first_dealer=4)
    for a in ("0 bid 30", "1 pass", "2 pass", "3 pass", "4 pass", "0 trump H",
              "0 discard 8D 9D TD", "1 discard", "2 discard", "3 discard", "4 discard"):
        state.apply(a)
    assert state.phase is Phase.CALL
    calls = legal(state)
    assert "0 call 5H" not in calls
    assert {"0 call none", "0 call JH", "0 call AH", "0 call QH", "0 call 2C"} <= calls
    with pytest.raises(IllegalActionError, match="the 5 of trumps is never called"):
        state.apply("0 call 5H")
    assert len(calls) == 52  # 51 cards and none


def test_holding_no_trump_no_trump_may_be_called() -> None:
    """A bidder with no trump may call no trump at all."""
    assert error_reason("cyp_call_holding_no_trump") == \
        "you may not call 2H: it outranks every trump you hold"
    calls = set(verdict("cyp_call_holding_no_trump")["legal"])
    assert not any(c.endswith("H") for c in calls)
    assert len(calls) == 40  # the 39 cards of clubs, diamonds, spades, and none


def test_called_card_must_be_played_by_the_second_trick() -> None:
    """Free in the first trick; in the second, where legal, it is the only legal card."""
    state = until("cyp_called_card_by_second_trick", "2 play 3C")
    assert legal(state) == plays(2, "3C 4C 6C 7C 9H")
    assert error_reason("cyp_called_card_by_second_trick") == \
        "9H was called: it must be played in the second trick"
    state = until("cyp_called_card_by_second_trick", "2 play 4C")
    assert legal(state) == {"2 play 9H"}
    for a in ("2 play 9H", "3 play 3S", "4 play 2D"):
        state.apply(a)
    assert state.view(None)["partner"] == 2


def test_called_card_not_played_leaves_the_bidder_alone() -> None:
    """Called card in the stock, or discarded: alone. Set partners both go down."""
    v = verdict("cyp_partnership_scoring")
    first, second, third = v["hands"]
    assert first["called"] == "KH" and first["partner"] is None
    assert first["scores"] == [20, 5, 0, 5, 0]  # alone: only the bidder scores the bid
    assert second["partner"] == 3 and second["points"] == [0, 20, 0, 0, 10]
    assert second["scores"] == [20, -20, 0, -20, 10]  # 20 < 25: both down 25
    assert third["called"] == "9D" and third["partner"] is None
    assert third["scores"] == [20, -20, 20, -20, 10]


CYP_DEAL: dict[str, Any] = {
    "hands": [["5H", "JH", "AH", "KH", "QH"], ["2C", "3C", "4C", "6C", "7C"],
              ["KS", "2H", "8C", "9C", "TC"], ["2D", "3D", "4D", "6D", "7D"],
              ["2S", "3S", "4S", "6S", "7S"]],
    "kitty": ["8D", "9D", "TD"],
}
CYP_PRE = ["0 bid 30", "1 pass", "2 pass", "3 pass", "4 pass", "0 trump H",
           "0 discard 8D 9D TD", "1 discard", "2 discard", "3 discard", "4 discard"]


def cyp_game() -> GameState:
    used = {c for h in CYP_DEAL["hands"] for c in h} | set(CYP_DEAL["kitty"])
    stock = [r + s for s in "CDHS" for r in "23456789TJQKA" if r + s not in used]
    state = new_game(build_rules("call-your-partner"), first_dealer=4,
                     deal=Deal.from_json({**CYP_DEAL, "stock": stock}))
    for a in CYP_PRE:
        state.apply(a)
    return state


def play_tricks(state: GameState, tricks: list[tuple[int, str]]) -> None:
    for leader, cards in tricks:
        for i, c in enumerate(cards.split()):
            state.apply(f"{(leader + i) % 5} play {c}")


def test_called_card_not_legal_in_second_trick_is_not_forced() -> None:
    """KS called; on a trump lead its holder must follow with his 2H, so KS is not
    forced; played only in the third trick, it makes no partner: the bidder is alone."""
    state = cyp_game()
    state.apply("0 call KS")
    play_tricks(state, [(1, "2C 8C 2D 2S QH")])  # clubs led: seat 2 follows
    state.apply("0 play 5H")
    state.apply("1 play 3C")
    assert legal(state) == {"2 play 2H"}
    for a in ("2 play 2H", "3 play 3D", "4 play 3S"):
        state.apply(a)
    play_tricks(state, [(0, "JH 4C KS 4D 4S"), (0, "AH 6C 9C 6D 6S"),
                        (0, "KH 7C TC 7D 7S")])
    assert state.view(None)["partner"] is None
    assert state.scores == [60, 0, 0, 0, 0]  # a made 30, alone


def test_calling_none_or_his_own_card_is_going_alone() -> None:
    """``call none``: alone. Calling a card of his own: he must play it by trick 2,
    and he is still alone."""
    state = cyp_game()
    assert "0 call none" in legal(state) and "0 call KH" in legal(state)
    state.apply("0 call none")
    assert state.view(None)["called"] == "none"
    own = cyp_game()
    own.apply("0 call KH")
    play_tricks(own, [(1, "2C 8C 2D 2S QH")])
    assert legal(own) == {"0 play KH"}
    play_tricks(own, [(0, "KH 3C 2H 3D 3S")])
    assert own.view(None)["partner"] is None


def test_action_round_trip_of_the_call() -> None:
    """The call is written as in a record: ``0 call KS``, ``0 call none``."""
    assert str(Action.parse("0 call ks")) == "0 call KS"
    assert str(Action.parse("0 call none")) == "0 call none"
