"""The Forty One expert's shortcuts give what the engine's own way gives, card for card.

Each shortcut saves the expert's time (a game against ``basic`` costs about half the
CPU it did) and none may change a decision: each is checked here against the plain
way it replaced, on random positions of random games.
"""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from forties import build_rules, new_game
from forties.bots import sampler
from forties.bots.simulate import playout, taken_forty_one
from forties.cards import mask_of
from forties.fortyone import FortyOneState
from forties.position import forty_one_position
from forties.rules import FortyOneRules, rules_from_json
from forties.solver import score41

from .helpers_engine import play_until


def _in_play(seed: int, rng: random.Random, stop: float) -> FortyOneState | None:
    g = play_until("forty-one", seed, rng, stop)
    assert g is None or isinstance(g, FortyOneState)
    return g


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**6), pick=st.integers(0, 10**6),
       stop=st.sampled_from([0.02, 0.1, 0.5, 1.0]))
def test_the_bare_playout_takes_the_tricks_the_engine_playout_takes(
        seed: int, pick: int, stop: float) -> None:
    """From the first lead, mid-trick or late in the hand: the tricks each seat ends with
    are those of the engine played out by ``greedy_card``; the state is left untouched."""
    g = _in_play(seed, random.Random(pick), stop)
    if g is None:
        return
    before = (list(g.hands), list(g.taken), list(g.trick_cards), g.turn, g.trick_no)
    fast = taken_forty_one(g)
    assert (list(g.hands), list(g.taken), list(g.trick_cards), g.turn, g.trick_no) == before
    slow = g.clone()
    playout(slow)
    assert fast == slow.taken
    assert sum(fast) == 13


def test_the_bare_playout_of_a_hand_over_changes_nothing() -> None:
    g = new_game("forty-one", seed=5)
    assert isinstance(g, FortyOneState)
    rng = random.Random(5)
    while not g.hand_over:
        g.apply(rng.choice(list(g.legal_actions())))
    assert taken_forty_one(g) == g.taken


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), pick=st.integers(0, 10**6))
def test_a_moved_world_is_the_world_a_replay_builds(seed: int, pick: int) -> None:
    """Every imagined Forty One deal after the first is a copy with other hidden cards:
    field for field it is the state the engine builds by replaying every bid and card
    from that deal, and the copies share no list with each other."""
    rng = random.Random(pick)
    g = _in_play(seed, rng, 0.15)
    if g is None:
        return
    seat = g.turn
    assert seat is not None
    view = g.view(seat)
    state = rng.getstate()
    ws = sampler.worlds(view, 8, rng)
    assert len(ws) == 8
    # the hands are those the sampler drew, world by world (not the first world's again)
    rng.setstate(state)
    drawn: list[list[int]] = []
    while len(drawn) < 8:
        hands = sampler.deal_world(sampler.knowledge(view), rng)
        if hands is not None:
            drawn.append(hands)
    assert [w.hands for w in ws] == drawn
    rules = rules_from_json(view["rules"])
    assert isinstance(rules, FortyOneRules)
    k = sampler.knowledge(view)
    for w in ws:
        assert isinstance(w, FortyOneState)
        replayed = forty_one_position(rules, dealer=view["dealer"],
                                      start_hands=[mask_of(h) for h in w.deal.hands],
                                      bids=[b or 1 for b in view["bids"]],
                                      scores=view["scores"], plays=k.plays)
        assert vars(w) == vars(replayed)
    for a, b in itertools.pairwise(ws):
        for name, value in vars(a).items():
            if type(value) is list:
                assert value is not getattr(b, name), name


def test_outcome_values_are_worked_out_once_and_handed_out_as_copies() -> None:
    """The values are kept between calls with the same bids and scores; what a caller does
    with its list does not reach the next caller."""
    rules = build_rules("forty-one")
    assert isinstance(rules, FortyOneRules)
    score41._outcome_values.cache_clear()
    first = score41.outcome_values(rules, [4, 3, 7, 2], [0, 0, 0, 0], 0)
    first[0b0101] = -999
    again = score41.outcome_values(rules, (4, 3, 7, 2), (0, 0, 0, 0), 0)
    assert again[0b0101] == 23
    assert again is not first
    assert score41._outcome_values.cache_info().hits == 1  # scored once, handed out twice
    assert score41.outcome_values(rules, [4, 3, 7, 2], [30, 5, 30, 5], 0)[0b0101] == 23 + 200
