"""The "booked?" house rule (``booked``), as the Merrimack Valley description has it: "it
is considered appropriate to ask if a player is booked [holding only cards of the trump
suit]; in this case the asking player may then choose to fold or stay".

Decided (docs/rules-decisions.md): after the draw (and the call), before the first lead,
the bidder may ask one opponent, once; the answer is the truth, yes or no, told to the
whole table; told yes he may fold (his side goes down the bid, nobody else scores the
hand) or stay and play.

The fixed hand, dealer seat 3, trump spades: seat 1 holds 5S JS AS KS QS (booked);
seat 3 holds 9S 8D TC 2H JD (not booked); seat 0 bids 15 and throws the kitty back.
"""

from __future__ import annotations

import json
import random
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
    build_rules,
    new_game,
    referee,
)
from forties.cards import CARD_NAMES

HANDS = [["AH", "2S", "KD", "9C", "3H"], ["5S", "JS", "AS", "KS", "QS"],
         ["4D", "5C", "6H", "TD", "7C"], ["9S", "8D", "TC", "2H", "JD"]]
KITTY = ["2C", "3C", "4C"]
TO_THE_QUESTION = ["0 bid 15", "1 pass", "2 pass", "3 pass", "0 trump S",
                   "0 discard 2C 3C 4C", "1 discard", "2 discard", "3 discard"]


def deal_json() -> dict[str, Any]:
    used = {c for h in HANDS for c in h} | set(KITTY)
    return {"hands": HANDS, "kitty": KITTY, "stock": [c for c in CARD_NAMES if c not in used]}


def game(options: dict[str, Any] | None = None, upto: list[str] = TO_THE_QUESTION
         ) -> GameState:
    rules = build_rules("merrimack-valley", {"booked": True, **(options or {})})
    g = new_game(rules, first_dealer=3, deal=Deal.from_json(deal_json()))
    for a in upto:
        g.apply(a)
    return g


def legal(g: GameState) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def test_the_bidder_may_ask_an_opponent_before_the_first_lead() -> None:
    g = game()
    assert g.phase is Phase.BOOKED and g.turn == 0
    assert legal(g) == ["0 pass", "0 ask 1", "0 ask 3"]  # never his partner, seat 2
    assert "opponent" in (g.reason(Action.parse("0 ask 2")) or "")
    assert g.reason(Action.parse("1 ask 3")) is not None  # only the bidder asks


def test_the_answer_is_the_truth() -> None:
    g = game(upto=[*TO_THE_QUESTION, "0 ask 1"])
    assert g.phase is Phase.ANSWER and g.turn == 1 and legal(g) == ["1 answer yes"]
    with pytest.raises(IllegalActionError) as e:
        g.apply("1 answer no")
    assert e.value.reason == "you hold only trumps: answer yes"
    g = game(upto=[*TO_THE_QUESTION, "0 ask 3"])
    assert legal(g) == ["3 answer no"]
    assert "not a trump" in (g.reason(Action.parse("3 answer yes")) or "")


def test_told_no_the_play_begins() -> None:
    g = game(upto=[*TO_THE_QUESTION, "0 ask 3", "3 answer no"])
    assert g.phase is Phase.PLAY and g.turn == 0  # the bidder leads
    assert g.view(None)["booked"] == {"asked": 3, "answer": "no", "folded": False}


def test_passing_the_question_begins_the_play() -> None:
    g = game(upto=[*TO_THE_QUESTION, "0 pass"])
    assert g.phase is Phase.PLAY and g.turn == 0
    assert g.view(2)["booked"] == {"asked": None, "answer": None, "folded": False}


def test_told_yes_the_bidder_folds_or_stays() -> None:
    g = game(upto=[*TO_THE_QUESTION, "0 ask 1", "1 answer yes"])
    assert g.phase is Phase.FOLD and g.turn == 0 and legal(g) == ["0 stay", "0 fold"]
    stay = g.clone()
    stay.apply("0 stay")
    assert stay.phase is Phase.PLAY and stay.turn == 0
    g.apply("0 fold")
    # the bidder's side goes down 15; the other side, whose tricks were never played,
    # scores nothing; the hand is over and the next is dealt as usual
    assert g.phase is Phase.HAND_OVER and g.scores == [-15, 0] and g.tricks == []
    assert g.view(3)["booked"] == {"asked": 1, "answer": "yes", "folded": True}
    g.next_hand(Deal.from_json(deal_json()))
    assert g.dealer == 0 and g.phase is Phase.AUCTION


def test_a_fold_landing_on_45_resets() -> None:
    rules = build_rules("merrimack-valley", {"booked": True, "forty_five_resets": True})
    g = new_game(rules, first_dealer=3, deal=Deal.from_json(deal_json()))
    g.scores = [60, 0]
    g.start_scores = [60, 0]
    for a in [*TO_THE_QUESTION, "0 ask 1", "1 answer yes", "0 fold"]:
        g.apply(a)
    assert g.scores == [0, 0]  # 60 - 15 = 45: back to 0


def test_the_views_tell_the_table_the_yes_and_nothing_else() -> None:
    """Every seat and spectator sees who was asked and the answer; no view but seat 1's
    own names a card of seat 1's hand (the answer says only that it is all trumps)."""
    g = game(upto=[*TO_THE_QUESTION, "0 ask 1", "1 answer yes"])
    secret = set(HANDS[1])
    for seat in (None, 0, 2, 3):
        v = g.view(seat)
        assert v["booked"] == {"asked": 1, "answer": "yes", "folded": False}
        assert v["history"][-2:] == ["0 ask 1", "1 answer yes"]
        words = set(json.dumps(v).replace('"', " ").replace(",", " ").split())
        assert not words & secret, (seat, words & secret)
    assert set(g.view(1)["hand"]) == secret


def test_without_the_option_nobody_asks() -> None:
    g = game({"booked": False})
    assert g.phase is Phase.PLAY and "booked" not in g.view(0)
    assert g.reason(Action.parse("0 ask 1")) is not None


def test_booked_needs_a_bidder() -> None:
    with pytest.raises(RulesError, match="booked needs an auction"):
        build_rules("nova-scotia", {"booked": True})


def test_the_record_verbs_are_a_game_and_snapshots_restore_them() -> None:
    actions = [*TO_THE_QUESTION, "0 ask 1", "1 answer yes", "0 fold"]
    record = {"format": "forties-record/1", "game": "forty-fives",
              "rules": {"preset": "merrimack-valley", "options": {"booked": True}},
              "players": ["Ann", "Bob", "Cy", "Di"], "first_dealer": 3,
              "hands": [{"deal": deal_json(), "actions": actions}]}
    out, status = referee(Record.from_json(record))
    assert status == 0 and out["scores"] == [-15, 0] and out["to_act"] is None
    record["hands"][0]["actions"] = [*TO_THE_QUESTION, "0 ask 1", "1 answer no"]
    out, status = referee(Record.from_json(record))
    assert status == 1 and out["error"]["reason"] == "you hold only trumps: answer yes"
    g = game()
    for a in ["0 ask 1", "1 answer yes", "0 stay"]:
        snap = g.to_json()
        assert GameState.from_json(json.loads(json.dumps(snap))).to_json() == snap
        g.apply(a)
    assert Action.parse("2 ask 10") == Action(2, Action.parse("0 ask 1").verb, 10)
    assert str(Action.parse("3 ANSWER Yes")) == "3 answer yes"


@pytest.mark.parametrize("preset", ["merrimack-valley", "auction-45", "call-your-partner"])
def test_whole_games_with_the_option(preset: str) -> None:
    """Random players, who ask and fold whenever they may, play whole games."""
    rules = build_rules(preset, {"booked": True, "target": 60, "lock_at": None})
    rng = random.Random(preset)
    folds = asks = 0
    for seed in range(6):
        g = new_game(rules, seed=seed)
        hands = 0
        while not g.over and hands < 80:
            if g.hand_over:
                folds += getattr(g, "folded", False)
                g.next_hand()
                hands += 1
                continue
            acts = g.legal_actions()
            if g.phase is Phase.BOOKED:
                asks += 1
                g.apply(acts[-1])
            elif g.phase is Phase.FOLD:
                g.apply(acts[-1])
            else:
                g.apply(acts[rng.randrange(len(acts))])
            snap = g.to_json()
            assert GameState.from_json(snap).to_json() == snap
    assert asks > 0


def test_the_basic_player_never_asks_and_stays() -> None:
    from forties.players import make_bot

    bot = make_bot("basic", random.Random(1))
    g = game()
    assert str(bot.choose(g.view(0), g.legal_actions())) == "0 pass"
    g = game(upto=[*TO_THE_QUESTION, "0 ask 1", "1 answer yes"])
    assert str(bot.choose(g.view(0), g.legal_actions())) == "0 stay"


def test_the_terminal_words() -> None:
    from forties.tui.plain import parse_plain
    from forties.tui.words import choice_label, describe, task

    names = ["Ann", "Bob", "Cy", "Di"]
    g = game()
    v, acts = g.view(0), list(g.legal_actions())
    assert "booked" in task(v, acts, names)
    assert str(parse_plain(v, acts, "ask 3")) == "0 ask 3"
    assert str(parse_plain(v, acts, "pass")) == "0 pass"
    assert choice_label(v, acts[1]) == "Ask seat 1"
    g.apply("0 ask 1")
    v1 = g.view(1)
    assert str(parse_plain(v1, list(g.legal_actions()), "yes")) == "1 answer yes"
    assert describe("0 ask 1", "booked", v1, names, 1) == "Ann asks you: booked?"
    g.apply("1 answer yes")
    v0 = g.view(0)
    assert str(parse_plain(v0, list(g.legal_actions()), "fold")) == "0 fold"
    assert describe("1 answer yes", "answer", v0, names, 0) == \
        "Bob: yes, booked (only trumps)."


def test_the_table_screen_offers_the_choices() -> None:
    """The full-screen table's buttons: at the raise, keep, raise and the suits (naming
    trump keeps the bid); at "booked?", not asking and each opponent."""
    from forties.tui.app import TableApp
    from forties.tui.session import Session

    def labels(g: GameState) -> list[str]:
        session = Session.start(g.rules, seed=1)
        app = TableApp(session, delay=0, par=False, autoplay=False)
        return [c.label for c in app.make_choices(g.view(0), list(g.legal_actions()))]

    g = new_game("auction-45", first_dealer=3, deal=Deal.from_json(deal_json()))
    for a in ("0 bid 20", "1 pass", "2 pass", "3 pass"):
        g.apply(a)
    assert g.phase is Phase.RAISE and g.turn == 0
    shown = labels(g)
    assert shown[:2] == ["Keep 20", "Raise to 30"] and len(shown) > 2
    assert all(str(a).split()[1] in ("pass", "raise", "trump") for a in g.legal_actions())
    assert labels(game()) == ["Don't ask", "Ask seat 1", "Ask seat 3"]
