"""Views written from what the engine keeps between views (the history's texts per seat,
the rules' record form) and with the draw's discards written at once are the views written
afresh, action by action, through whole hands, copies of the state and new hands, for
every configuration the engine tests play."""

from __future__ import annotations

import random

import pytest

from forties import GameState, Phase, Verb, build_rules, new_game
from forties.lazy import SubsetActions
from tests.helpers_engine import ALL_CONFIGS, Config, config_id


def fresh_view(state: GameState, seat: int | None) -> dict:
    """The view of a state rebuilt from its snapshot (it has kept nothing yet), with the
    history written action by action."""
    again = GameState.from_json(state.to_json())
    again.scores, again.games = list(state.scores), list(state.games)
    view = again.view(seat)
    public = getattr(again, "_public_action", None)
    if public is not None:
        assert view["history"] == [public(a, seat) for a in again.history]
    return view


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=config_id)
def test_views_kept_between_calls_are_the_views_written_afresh(config: Config) -> None:
    preset, options = config
    state = new_game(build_rules(preset, options), seed=11)
    rng = random.Random(5)
    copies: list[GameState] = []
    seats: list[int | None] = [None, *range(state.n)]
    steps = 0
    while state.hand_index < 2 and not state.over:
        if state.phase is Phase.HAND_OVER:
            state.next_hand()
            continue
        for seat in seats:
            got = state.view(seat)
            if seat == state.turn:
                assert got["legal"] == [str(a) for a in state.legal_actions()]
            if steps % 7 == 0:  # the rebuilt state's view, now and then (it is slow)
                assert got == fresh_view(state, seat), (config, steps, seat)
        if rng.random() < 0.15:  # a copy goes its own way; both keep their own texts
            copies.append(state.clone())
        state.apply(rng.choice(list(state.legal_actions())))
        steps += 1
        for c in copies[-2:]:
            if not c.hand_over and not c.over:
                c.apply(rng.choice(list(c.legal_actions())))
                seat = rng.choice(seats)
                assert c.view(seat)["history"] == fresh_view(c, seat)["history"]
    assert steps > 20


def test_discards_written_at_once_are_each_action_written() -> None:
    rng = random.Random(2)
    tried = 0
    while tried < 200:
        mask = rng.getrandbits(52) & rng.getrandbits(52) & rng.getrandbits(52)
        lo = rng.randint(0, 3)
        hi = rng.randint(lo, mask.bit_count() + 2)
        seat = rng.randint(0, 5)
        acts = SubsetActions(seat, Verb.DISCARD, mask, range(lo, hi))
        if len(acts) > 3000:
            continue
        tried += 1
        assert acts.texts() == [str(a) for a in acts], (seat, mask, lo, hi)
    # cards given out of order, and another verb: each action written
    acts = SubsetActions(1, Verb.DISCARD, [7, 3, 40], range(0, 4))
    assert acts.texts() == [str(a) for a in acts]
    acts = SubsetActions(2, Verb.CALL, 0b1011, range(1, 3))
    assert acts.texts() == [str(a) for a in acts]
