"""The par at each card of a replayed hand (``POST /api/replay``'s steps): what the
bidders (Forty-Fives) or each partnership (Forty One) would take from that position with
every card seen and best play, equal to the solver's own answer on the same live
positions; none for a hand that is not finished."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from forties.analysis import pars_by_card
from forties.games import new_game
from forties.players import make_bot
from forties.record import Record, Recorder, Replay
from forties.rules import build_rules
from forties.solver import solve
from forties.solver.dd41 import team_tricks
from forties.state import GameState, Phase
from forties.web.replays import NotReplayed, replay_json


def played(preset: str, seed: int) -> tuple[dict[str, Any], list[tuple[GameState, Any]]]:
    """A hand played to its end by basic players (dealt again while thrown in): its record
    and the solver's own answer at each position from the first lead on, worked out on the
    live state as it went."""
    rules = build_rules(preset)
    bot = make_bot("basic", random.Random(seed))
    for deal in range(20):
        st = new_game(rules, seed=seed * 100 + deal, first_dealer=3)
        rec = Recorder(st)
        answers: list[Any] = []
        while not st.hand_over:
            if st.phase is Phase.PLAY:
                answers.append(solver_answer(st))
            rec.apply(bot.choose(st.view(st.turn), st.legal_actions()))
        if st.tricks:
            answers.append(solver_answer(st))
            return rec.record.to_json(), answers
    raise AssertionError("no hand played in twenty deals")


def solver_answer(st: Any) -> Any:
    if st.rules.game == "forty-one":
        lead = (st.dealer + 1) % 4
        mine = (lead % 2, lead % 2 + 2)
        got = sum(st.taken[s] for s in mine)
        if st.phase is Phase.PLAY:
            got += team_tricks(list(st.hands), st.trick_leader, list(st.trick_cards),
                               5 << (lead % 2))
        return [list(mine), got]
    who = st.bidder if st.bidder >= 0 else st.trick_leader
    return [list(st.sides[st.side_of[who]]), solve(st, st.side_of[who])]


def card_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    steps = json.loads(replay_json(record, 10, 5_000_000))["steps"]
    return [s for s in steps if "par" in s]


@pytest.mark.parametrize("preset, seed", [("merrimack-valley", 1), ("merrimack-valley", 2),
                                          ("auction-45", 3)])
def test_forty_fives_par_at_each_card_is_the_solvers(preset: str, seed: int) -> None:
    record, answers = played(preset, seed)
    steps = card_steps(record)
    got = [[s["par"]["side"], s["par"]["points"]] for s in steps]
    # (the first lead, then after each card: the step that made the first lead a position
    # is the last bid or discard, itself carrying the par at the first lead)
    assert got == answers, (got, answers)
    assert len({p for _, p in got}) >= 1


@pytest.mark.parametrize("seed", [6, 8])  # (hands whose exact par takes under a second)
def test_forty_one_par_at_each_card_is_the_solvers(seed: int) -> None:
    record, answers = played("forty-one", seed)
    steps = card_steps(record)
    got = [[s["par"]["teams"][0]["seats"], s["par"]["teams"][0]["tricks"]] for s in steps]
    # (bounded searches, the last positions first: a suffix of the positions, most of them)
    assert len(got) >= 40, len(got)
    assert got == answers[len(answers) - len(got):]
    assert all(s["par"]["teams"][0]["tricks"] + s["par"]["teams"][1]["tricks"] == 13
               for s in steps)


def test_forty_one_searches_are_bounded() -> None:
    """Past its budget a position gets no par, never a guess: the last positions (cheap)
    have theirs, the first ones none."""
    record, answers = played("forty-one", 6)
    st = Replay(Record.from_json(record)).run()
    assert st is not None
    got = pars_by_card(st, step_budget=2_000)
    assert got[0] is None and got[-1] is not None
    have = [k for k, p in enumerate(got) if p is not None]
    assert have == list(range(have[0], len(got)))  # (a suffix)
    assert [p["teams"][0]["tricks"] for p in got[have[0]:]] == [a[1] for a in answers[have[0]:]]
    assert pars_by_card(st, hand_budget=0) == [None] * len(got)


def test_no_par_for_a_hand_not_finished() -> None:
    record, _ = played("merrimack-valley", 1)
    record["hands"][0]["actions"] = record["hands"][0]["actions"][:-1]
    with pytest.raises(NotReplayed, match="not over"):
        replay_json(record, 10, 5_000_000)
