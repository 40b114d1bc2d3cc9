"""Views written from what the engine keeps between views (the history's texts per seat,
the rules' record form) are the views written afresh, through whole hands, copies of the
state and new hands, for every configuration the engine tests play."""

from __future__ import annotations

import random

import pytest

from forties import GameState, Phase, build_rules, new_game
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
