"""``expert-alphamu``: one card for all the imagined deals a seat cannot tell apart."""

from __future__ import annotations

import random

import pytest

import lab.levels  # noqa: F401  (the comparison players join PLAYERS)
from forties import build_rules, new_game
from forties.bots import alphamu
from forties.bots.expert import ExpertBot
from forties.bots.judge import utility
from forties.rules import FortyFivesRules
from forties.state import GameState

from .helpers_engine import config_id
from .test_bots import CONFIGS, quick_hands_calls

FF_CONFIGS = [c for c in CONFIGS if c[0] != "forty-one"]


def _positions(seed: int, low: int = 3, high: int = 4) -> list[tuple[GameState, int, ExpertBot]]:
    """Positions of a Merrimack Valley hand (quick experts at every seat) where the seat to
    play holds ``low`` to ``high`` cards and has a choice, each with an expert of 12 deals
    (unweighed deals throughout: what is searched here does not depend on the weighing)."""
    g = new_game("merrimack-valley", seed=seed)
    bots = [ExpertBot(random.Random(s), worlds=8, deals=8, infer=False) for s in range(4)]
    out = []
    while not g.hand_over:
        s = g.turn
        assert s is not None
        view, legal = g.view(s), g.legal_actions()
        if g.phase.value == "play" and len(legal) > 1 and low <= g.hands[s].bit_count() <= high:
            out.append((g.clone(), s, ExpertBot(random.Random(7), worlds=12, infer=False)))
        g.apply(bots[s].choose(view, legal))
    return out


def test_one_turn_is_the_experts_weighted_average() -> None:
    g, seat, e = _positions(0)[0]
    ws = e._weighted_play_worlds(g.view(seat))
    values, solves = alphamu.card_values(ws, seat, e.judge, 1, e.win_bonus, random.Random(1))
    assert solves == len(ws)
    whole = sum(wt for _, wt in ws)
    for a, v in values.items():
        mean = sum(wt * utility(w, seat, e.judge.play_outcomes(w)[a], e.win_bonus)
                   for w, wt in ws) / whole
        assert v == pytest.approx(mean)


def test_with_one_deal_keeping_one_card_changes_nothing() -> None:
    """Seen from one deal there is nothing to tell apart: the value of each card is the
    solver's, whatever the number of turns searched."""
    for g, seat, e in _positions(0)[:3]:
        ws = e._weighted_play_worlds(g.view(seat))[:1]
        one, _ = alphamu.card_values(ws, seat, e.judge, 1, e.win_bonus, random.Random(1))
        two, _ = alphamu.card_values(ws, seat, e.judge, 2, e.win_bonus, random.Random(1))
        assert two == pytest.approx(one)


def test_one_card_for_deals_it_cannot_tell_apart_is_never_worth_more() -> None:
    """Choosing one card for a group of deals is worth at most choosing the best card in
    each: every card's value searching two turns is at most the average's, and in this
    hand, for some card, strictly less (the average's strategy fusion, found)."""
    below = 0
    for g, seat, e in _positions(0):
        ws = e._weighted_play_worlds(g.view(seat))
        one, _ = alphamu.card_values(ws, seat, e.judge, 1, e.win_bonus, random.Random(1))
        two, n = alphamu.card_values(ws, seat, e.judge, 2, e.win_bonus, random.Random(1))
        assert n > len(ws)  # the other seats' cards and the next turn were searched
        assert set(two) == set(one)
        for a in one:
            assert two[a] <= one[a] + 1e-9
        below += any(two[a] < one[a] - 1e-9 for a in one)
    assert below > 0


def test_bad_searches_are_refused_in_one_line() -> None:
    g, seat, e = _positions(0)[0]
    with pytest.raises(ValueError, match="at least one imagined deal"):
        alphamu.card_values([], seat, e.judge, 2, 0.0, random.Random(1))
    ws = e._weighted_play_worlds(g.view(seat))
    with pytest.raises(ValueError, match=f"not seat {(seat + 1) % 4}'s turn"):
        alphamu.card_values(ws, (seat + 1) % 4, e.judge, 2, 0.0, random.Random(1))


def test_it_applies_to_partnerships_of_four_only() -> None:
    assert alphamu.applies(new_game("merrimack-valley", seed=1), 0)
    assert not alphamu.applies(new_game(build_rules("merrimack-valley", {"players": 6}),
                                        seed=1), 0)
    assert not alphamu.applies(new_game("call-your-partner", seed=1), 0)
    assert not alphamu.applies(new_game("forty-one", seed=1), 0)


@pytest.mark.parametrize(("preset", "options"), FF_CONFIGS, ids=map(config_id, FF_CONFIGS))
def test_expert_alphamu_plays_only_legal_actions(preset: str, options: dict) -> None:
    """Every Forty-Fives preset and player count: expert-alphamu (few deals, to stay quick)
    makes only legal choices for a whole hand, searching where it applies."""
    rules = build_rules(preset, options)
    assert isinstance(rules, FortyFivesRules)
    calls = quick_hands_calls(rules, "expert-alphamu", alphamu, "card_values")
    assert (calls > 0) == alphamu.applies(new_game(rules, seed=11), 0)


def test_decision_time_bench_times_expert_alphamu() -> None:
    from bench.expert import decision_times

    by_phase = decision_times("merrimack-valley", 1, "alphamu")
    assert "play" in by_phase and all(t >= 0 for t in by_phase["play"])
