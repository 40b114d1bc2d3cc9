"""Forty One solved for its real score (``forties.solver.score41``).

Exactness is judged against a plain minimax written here over the engine's own
``legal_actions`` and ``apply`` (no pruning, no card numbering, no bounds): each
team plays for its seats' score changes minus the other team's, plus the game's
worth when the hand ends the game, the hand's scores coming from the engine
itself (``score_forty_one``). Positions have few cards left, random bids and
scores near the target, under every tie and partner rule.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from forties import Phase, build_rules, new_game
from forties.fortyone import FortyOneState
from forties.rules import FortyOneRules
from forties.scoring import FortyOneHand, score_forty_one
from forties.solver import score41

WIN = score41.WIN_VALUE


def team_value(g: FortyOneState, team: int) -> int:
    """The hand's value for ``team`` once it is played out, from the engine's score."""
    out = score_forty_one(g.rules, FortyOneHand(tuple(b or 0 for b in g.bids), tuple(g.taken)),
                          g.start_scores)
    mine, theirs = g.rules.teams[team], g.rules.teams[1 - team]
    v = sum(out.deltas[s] for s in mine) - sum(out.deltas[s] for s in theirs)
    if isinstance(out.winner, tuple):
        v += WIN if set(out.winner) == set(mine) else -WIN
    return v


def brute(g: FortyOneState, team: int, memo: dict[Any, int]) -> int:
    """Plain minimax: ``team``'s seats maximise its value, the others minimise it."""
    if g.phase is not Phase.PLAY:
        return team_value(g, team)
    key = (tuple(g.hands), tuple(g.trick_cards), g.trick_leader, tuple(g.taken))
    if key not in memo:
        assert g.turn is not None
        vals = []
        for a in g.legal_actions():
            child = g.clone()
            child.apply(a)
            assert isinstance(child, FortyOneState)
            vals.append(brute(child, team, memo))
        memo[key] = max(vals) if g.turn % 2 == team else min(vals)
    return memo[key]


def endgame(seed: int, options: dict[str, Any], left: int) -> FortyOneState:
    """A hand played at random down to ``left`` cards in hand (and a few into the trick),
    with random bids totalling enough to play, and random scores near the target."""
    rng = random.Random(seed)
    rules = build_rules("forty-one", options)
    assert isinstance(rules, FortyOneRules)
    g = new_game(rules, seed=seed)
    assert isinstance(g, FortyOneState)
    while g.phase is Phase.AUCTION:
        assert g.turn is not None
        bid = rng.choice([1, 2, 3, 4, 5, 7, 8]) if g.turn != g.dealer else 13
        g.apply(g.legal_actions()[bid - 1])
    assert g.phase is Phase.PLAY
    g.bids = [rng.choice([1, 2, 3, 4, 5, 7]) for _ in range(4)]
    target = rules.target
    g.start_scores = [rng.choice([target - 14, target - 8, target - 3, -5, 0, 4, 20])
                      for _ in range(4)]
    g.scores = list(g.start_scores)
    while sum(h.bit_count() for h in g.hands) > left:
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    return g


OPTIONS = [{}, {"tie": "team-total"}, {"partner_positive": False},
           {"double_from": 4, "target": 25}]


@pytest.mark.parametrize("options", OPTIONS,
                         ids=lambda o: ",".join(map(str, o.items())) or "default")
def test_score_solver_matches_plain_minimax(options: dict[str, Any]) -> None:
    """With up to four tricks left, both teams' values, and every legal card's value for
    the team to play, are those of a plain minimax over the engine's plays."""
    checked = 0
    for seed in range(14):
        g = endgame(1000 + seed, options, 9 + seed % 8)
        if g.phase is not Phase.PLAY:
            continue
        for team in (0, 1):
            assert score41.solve_score(g, team) == brute(g, team, {}), (seed, team)
        seat = g.turn
        assert seat is not None
        want = {}
        for a in g.legal_actions():
            child = g.clone()
            child.apply(a)
            assert isinstance(child, FortyOneState)
            want[a] = brute(child, seat % 2, {})
        assert score41.best_moves_score(g) == want
        checked += 1
    assert checked >= 12


def test_the_teams_values_are_opposite() -> None:
    """The search is a two-player zero-sum game: one team's value is minus the other's,
    exact or estimated."""
    for seed in range(10):
        g = endgame(2000 + seed, {}, 24 + seed)
        for exact in (13, 2):
            a = score41.solve_score(g, 0, exact_tricks=exact, depth=1)
            b = score41.solve_score(g, 1, exact_tricks=exact, depth=1)
            assert a == -b


def test_outcome_values_follow_the_scoring() -> None:
    """Worked by hand: bids 4, 3, 7, 2 (the 7 scores 14) from 0-0. Seats 0 and 2 make theirs,
    1 and 3 miss: team 0 gains 4 + 14, team 1 loses 3 + 2, so 18 - (-5) = 23. From 30, 5,
    30, 5 the same hand takes seat 2 to 44 with a partner on 34: team 0 wins the game."""
    rules = build_rules("forty-one")
    assert isinstance(rules, FortyOneRules)
    bids = [4, 3, 7, 2]
    vals = score41.outcome_values(rules, bids, [0, 0, 0, 0], 0)
    assert vals[0b0101] == 23
    assert score41.outcome_values(rules, bids, [0, 0, 0, 0], 1)[0b0101] == -23
    assert vals[0b1111] == 18 - 5
    near = score41.outcome_values(rules, bids, [30, 5, 30, 5], 0)
    assert near[0b0101] == 23 + WIN
    # from -10 seat 0 makes his 4 and is still below zero: seat 2's 44 does not win
    neg = score41.outcome_values(rules, bids, [-10, 5, 30, 5], 0)
    assert neg[0b0101] == 23 and neg[0b0100] == (14 - 4) - (-5)
    # from -3 he reaches 1: the game is won
    assert score41.outcome_values(rules, bids, [-3, 5, 30, 5], 0)[0b0101] == 23 + WIN


def test_the_solver_plays_for_the_bid_not_the_tricks() -> None:
    """The last trick: seat 2 led AD, seat 3 threw 5C; seat 0 holds 2H and 3C. Seat 0 has
    made his bid of 4, seat 2 has 3 of his 4. Ruffing takes the trick for seat 0 (the team
    has it either way, so a team-trick search cannot choose); throwing 3C lets seat 2
    make his bid: team 0 scores 4 + 4 against seat 1's 4 and seat 3's -4, so 8, where
    the ruff gives 4 - 4 against the same, so 0."""
    from forties.cards import parse_card

    g = new_game(build_rules("forty-one"), seed=1)
    assert isinstance(g, FortyOneState)
    while g.phase is Phase.AUCTION:
        g.apply(g.legal_actions()[3])  # everybody bids 4: 16 in all
    names = {0: ["2H", "3C"], 1: ["4C"], 2: [], 3: []}
    for s in range(4):
        g.hands[s] = sum(1 << parse_card(n) for n in names[s])
    g.trick_cards = [parse_card("AD"), parse_card("5C")]
    g.trick_no = 12
    g.trick_leader = 2
    g.turn = 0
    g.taken = [4, 4, 3, 1]
    moves = {str(a).split()[-1]: v for a, v in score41.best_moves_score(g).items()}
    assert moves == {"2H": 0, "3C": 8}
    assert moves == {str(a).split()[-1]: brute(_after(g, a), 0, {}) for a in g.legal_actions()}
    assert score41.solve_score(g, 0) == 8 and score41.solve_score(g, 1) == -8


def _after(g: FortyOneState, a: Any) -> FortyOneState:
    c = g.clone()
    c.apply(a)
    assert isinstance(c, FortyOneState)
    return c
