"""Properties of random legal games of every preset, every player count and team layout,
and a few house rules: hypothesis draws the seed of the deals and of the choices."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forties import GameState, Phase, Record, Recorder, new_game, referee
from forties.cards import CARD_NAMES, cards_of

from .helpers_engine import (
    ALL_CONFIGS,
    Config,
    Knowledge,
    candidate_actions,
    card_places,
    config_id,
    ff_trick_winner,
    forty_one_trick_winner,
    highest_trump,
    is_forty_fives,
    leaks,
    rules_of,
    trump_order,
)

SEEDS = st.integers(min_value=0, max_value=2**48)
# The number of examples is the profile's (tests/conftest.py): 5 for dev, 30 for make test.
FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
CONFIGS = pytest.mark.parametrize("config", ALL_CONFIGS, ids=[config_id(c) for c in ALL_CONFIGS])


def start(config: Config, seed: int) -> GameState:
    rules = rules_of(config)
    return new_game(rules, seed=seed, first_dealer=seed % rules.players)


def random_step(state: GameState, rng: random.Random) -> None:
    legal = state.legal_actions()
    state.apply(legal[rng.randrange(len(legal))])


def hands_of(state: GameState, rng: random.Random, hands: int) -> Any:
    """Play up to ``hands`` hands at random, yielding the state after every action
    (and once at the start of each hand, with ``None`` for the action)."""
    for h in range(hands):
        yield None
        while not state.hand_over:
            random_step(state, rng)
            yield state.history[-1]
        if state.over or h == hands - 1:
            return
        state.next_hand()


# ----- every card exactly once, and the points of a hand ---------------------------------


def check_cards(state: GameState) -> None:
    places = card_places(state)
    assert sorted(places) == list(range(52)), (
        f"cards twice: {[CARD_NAMES[c] for c in set(places) if places.count(c) > 1]}, "
        f"missing: {[CARD_NAMES[c] for c in range(52) if c not in places]}")


def check_forty_fives_hand(state: Any) -> None:
    """Trick winners by the rank tables; 5 a trick and 5 more to the trick holding the
    bonus card; a full hand totals 30, or 25 without the bonus; Traditional 45 stops at
    the trick where a side reaches the target and nowhere else."""
    r = state.rules
    if state.thrown_in:
        assert r.all_pass == "redeal" and state.high == 0 and not state.tricks
        assert state.points == [0] * len(state.sides) and state.scores == state.start_scores
        return
    played = 0
    for t in state.tricks:
        assert len(t.cards) == state.n
        assert t.winner == (t.leader + ff_trick_winner(t.cards, state.trump)) % state.n
        for c in t.cards:
            played |= 1 << c
    still_held = 0
    for h in state.hands:
        still_held |= h
    dealt_in_play = played | still_held
    if r.bonus == "best-trump":
        bonus = highest_trump(dealt_in_play, state.trump)
    else:
        five = trump_order(state.trump)[0]
        bonus = five if dealt_in_play >> five & 1 else None
    expected = [0] * len(state.sides)
    running = list(state.start_scores)
    reached_at = None
    for i, t in enumerate(state.tricks):
        pts = 10 if bonus in t.cards else 5
        expected[state.side_of[t.winner]] += pts
        running[state.side_of[t.winner]] += pts
        if r.auction == "none" and reached_at is None and max(running) >= r.target:
            reached_at = i
    assert state.points == expected
    if reached_at is not None:
        assert len(state.tricks) == reached_at + 1, "Traditional 45 plays on past the target"
        assert state.over or state.new_game_due
    else:
        assert len(state.tricks) == 5 and not still_held
        assert sum(state.points) == (30 if bonus is not None else 25)
        trump_played = played & sum(1 << c for c in trump_order(state.trump))
        if r.bonus == "best-trump":
            assert (bonus is None) == (trump_played == 0)
    if r.auction == "none":
        assert state.scores == running


def check_forty_one_hand(state: Any) -> None:
    """Bids under the minimum throw the hand in; otherwise 13 tricks, each to the highest
    heart or the highest card of the suit led, and the tricks taken add up."""
    bids = state.bids
    if state.thrown_in:
        assert sum(bids) < state.rules.min_total and not state.tricks
        return
    assert sum(bids) >= state.rules.min_total and len(state.tricks) == 13
    taken = [0] * 4
    for t in state.tricks:
        w = (t.leader + forty_one_trick_winner(t.cards)) % 4
        assert t.winner == w
        taken[w] += 1
    assert state.taken == taken and sum(taken) == 13


@CONFIGS
@FAST
@given(seed=SEEDS, choices=SEEDS)
def test_every_card_once_and_hand_points(config: Config, seed: int, choices: int) -> None:
    """No crash; at every step each card is in exactly one place; every finished hand's
    tricks and points follow the rank tables and total 30 (25 without a bonus)."""
    state = start(config, seed)
    rng = random.Random(choices)
    for _ in hands_of(state, rng, 3):
        check_cards(state)
        if state.hand_over:
            if is_forty_fives(state):
                check_forty_fives_hand(state)
            else:
                check_forty_one_hand(state)


# ----- views -------------------------------------------------------------------------------


@CONFIGS
@FAST
@given(seed=SEEDS, choices=SEEDS)
def test_views_show_only_what_a_seat_may_know(config: Config, seed: int, choices: int) -> None:
    """At every step, no seat's view (nor a spectator's) names a card it may not know:
    others' hands, the kitty (except to the bidder who took it), others' discards, the
    card robbed away; and a seat's own hand is shown whole."""
    state = start(config, seed)
    rng = random.Random(choices)
    know = Knowledge(state)
    for action in hands_of(state, rng, 2):
        if action is None:
            know = Knowledge(state)
        know.update(state)
        for seat in [None, *range(state.n)]:
            view = state.view(seat)
            bad = leaks(view, know.allowed(state, seat))
            assert not bad, f"seat {seat} sees {bad} after {action} in {state.phase}"
            mine = [] if seat is None else [CARD_NAMES[c] for c in cards_of(state.hands[seat])]
            assert sorted(view["hand"]) == sorted(mine)


# ----- legal actions against reason() ------------------------------------------------------


def check_legal_matches_reason(state: GameState) -> None:
    legal = list(state.legal_actions())
    legal_set = set(legal)
    assert len(legal_set) == len(legal), "an action listed twice"
    lazy = state.legal_actions()
    cands, complete = candidate_actions(state)
    accepted = {a for a in cands if state.reason(a) is None}
    for a in legal:
        assert state.reason(a) is None, f"{a} is listed but refused: {state.reason(a)}"
    if complete:
        assert legal_set == accepted, (
            f"{state.phase}: listed but not accepted {sorted(map(str, legal_set - accepted))}; "
            f"accepted but not listed {sorted(map(str, accepted - legal_set))}")
    else:
        assert accepted == legal_set & set(cands)
    if not isinstance(lazy, list):  # a lazy sequence answers membership itself
        for a in cands:
            assert (a in lazy) == (a in accepted)


@CONFIGS
@FAST
@given(seed=SEEDS, choices=SEEDS)
def test_legal_actions_are_exactly_those_reason_accepts(
        config: Config, seed: int, choices: int) -> None:
    """At every step, legal_actions() lists exactly the candidate actions (every verb
    with every card, bid, suit and card set) for which reason() is None."""
    state = start(config, seed)
    rng = random.Random(choices)
    for _ in hands_of(state, rng, 2):
        if state.turn is not None:
            check_legal_matches_reason(state)
        else:
            assert list(state.legal_actions()) == []


def test_a_large_pack_counts_every_even_exchange() -> None:
    """The dealer robbing a pack too big to enumerate: the legal robs are pass plus every
    k cards given for k taken, sum over k of C(hand, k) * C(pack, k)."""
    from math import comb

    state = new_game(rules_of(("merrimack-valley", {"dealer_robs_pack": True, "keep_min": 0,
                                                    "players": 2})), seed=11)
    rng = random.Random(5)
    while state.phase is not Phase.PACK:
        if state.phase is Phase.DRAW:  # everyone throws in all he may
            legal = state.legal_actions()
            state.apply(legal[len(legal) - 1])
        else:
            random_step(state, rng)
    h = state.hands[state.turn].bit_count()  # type: ignore[index]
    p = state.pile.bit_count()  # type: ignore[attr-defined]
    assert p > 10
    expected = 1 + sum(comb(h, k) * comb(p, k) for k in range(1, min(h, p) + 1))
    assert len(state.legal_actions()) == expected
    check_legal_matches_reason(state)


# ----- snapshots ---------------------------------------------------------------------------


@CONFIGS
@FAST
@given(seed=SEEDS, choices=SEEDS)
def test_state_json_round_trips(config: Config, seed: int, choices: int) -> None:
    """At random points a state written to JSON reads back to the same JSON, the same
    legal actions and the same next state, and a serialized state is under 2 KB."""
    state = start(config, seed)
    rng = random.Random(choices)
    for _ in hands_of(state, rng, 3):
        if rng.random() > 0.3:
            continue
        snap = state.to_json()
        text = json.dumps(snap)
        assert len(text) < 2048
        back = GameState.from_json(json.loads(text))
        assert back.to_json() == snap
        assert [str(a) for a in back.legal_actions()] == [str(a) for a in state.legal_actions()]
        assert back.scores == state.scores and back.phase is state.phase
        if state.turn is not None:
            a = state.legal_actions()[0]
            copy = state.clone()
            copy.apply(a)
            back.apply(a)
            assert back.to_json() == copy.to_json()


# ----- records and the referee -------------------------------------------------------------


def summary_of(state: Any) -> dict[str, Any]:
    points = state.points if is_forty_fives(state) else state.taken
    return {"points": list(points), "scores": list(state.scores)}


@CONFIGS
@FAST
@given(seed=SEEDS, choices=SEEDS, hands=st.integers(1, 8), cut=st.booleans())
def test_record_replays_to_the_same_scores(config: Config, seed: int, choices: int,
                                           hands: int, cut: bool) -> None:
    """The record a Recorder writes, read back from JSON and refereed, reproduces every
    hand's points and scores, the game's end, and who is to act with what."""
    state = start(config, seed)
    rec = Recorder(state)
    rng = random.Random(choices)
    seen = []
    for h in range(hands):
        while not state.hand_over:
            if cut and h == hands - 1 and rng.random() < 0.05:
                break
            rec.apply(state.legal_actions()[rng.randrange(len(state.legal_actions()))])
        if not state.hand_over:
            break
        seen.append(summary_of(state))
        if state.over or h == hands - 1:
            break
        rec.next_hand()
    record = Record.from_json(json.loads(rec.record.dumps()))
    verdict, status = referee(record)
    assert status == 0 and verdict["ok"] is True
    finished = [{"points": v["points"], "scores": v["scores"]} for v in verdict["hands"]]
    assert finished[:len(seen)] == seen
    assert verdict["scores"] == state.scores and verdict["over"] == state.over
    assert verdict["winner"] == (list(state.winner) if isinstance(state.winner, tuple)
                                 else state.winner)
    if state.over:
        assert verdict["to_act"] is None and verdict["legal"] is None
    elif state.hand_over:
        assert verdict["to_act"] is None and verdict["legal"] == []
    else:
        assert verdict["to_act"] == state.turn
        assert verdict["legal"] == [str(a) for a in state.legal_actions()]


@CONFIGS
@FAST
@given(seed=SEEDS, choices=SEEDS)
def test_same_seed_same_game(config: Config, seed: int, choices: int) -> None:
    """The same seed and the same choices give the same record, deal for deal."""
    records = []
    for _ in range(2):
        state = start(config, seed)
        rec = Recorder(state)
        rng = random.Random(choices)
        for h in range(3):
            while not state.hand_over:
                legal = state.legal_actions()
                rec.apply(legal[rng.randrange(len(legal))])
            if state.over or h == 2:
                break
            rec.next_hand()
        records.append(rec.record.dumps())
    assert records[0] == records[1]


def test_different_seeds_deal_differently() -> None:
    """The seed decides the deal: two seeds, two deals; one seed, one deal per hand."""
    a, b = new_game("merrimack-valley", seed=1), new_game("merrimack-valley", seed=2)
    assert a.deal != b.deal
    assert a.deal_for(0) == new_game("merrimack-valley", seed=1).deal
    assert a.deal_for(1) != a.deal_for(0)
