"""The games in OpenSpiel: its random simulation test for every preset, information
states from the view alone, imagined worlds that the seat cannot tell apart from the
real one, and the information-set MCTS player in the arena."""

from __future__ import annotations

import itertools
import json
import pickle
import random

import numpy as np
import pyspiel
import pytest

from forties import build_rules
from forties.arena import run_match
from forties.envs import spiel
from forties.envs.encoding import ActionIdError, Encoder, EpisodeError

from .helpers_engine import run_forties

PRESETS = ("merrimack-valley", "nova-scotia", "auction-45", "call-your-partner", "forty-one")


@pytest.mark.parametrize("preset", PRESETS)
def test_openspiel_random_simulation_test_passes(preset: str) -> None:
    hands = 2 if preset == "nova-scotia" else 1
    game = pyspiel.load_game(spiel.short_name(preset), {"hands": hands})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    assert game.num_distinct_actions() == Encoder(build_rules(preset)).actions
    assert game.max_chance_outcomes() == 52


@pytest.mark.parametrize("preset", PRESETS)
def test_games_and_states_pickle_and_serialize(preset: str) -> None:
    """A game and a state mid-hand survive pickle and OpenSpiel's own serialization (to
    save them, or to hand them to another process)."""
    game = pyspiel.load_game(spiel.short_name(preset), {"hands": 2})
    state = play_randomly(game, 4)[7]
    again = pickle.loads(pickle.dumps(game))
    assert again.get_type().short_name == spiel.short_name(preset)
    assert again.get_parameters() == {"hands": 2}
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history() and str(copy) == str(state)
    g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert g2.get_parameters() == {"hands": 2}
    p = state.current_player()
    assert s2.history() == state.history()
    assert s2.information_state_string(p) == state.information_state_string(p)
    assert s2.legal_actions() == state.legal_actions()


def play_randomly(game: object, seed: int) -> list[object]:
    """Every decision node of one random episode."""
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    nodes = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1) < 1e-9
            state.apply_action(rng.choice(outcomes))
            continue
        nodes.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return nodes


@pytest.mark.parametrize("preset", PRESETS)
def test_information_states_are_the_view(preset: str) -> None:
    game = pyspiel.load_game(spiel.short_name(preset))
    for state in play_randomly(game, 3)[::5]:
        p = state.current_player()
        text = state.information_state_string(p)
        view = json.loads(text)
        assert view["seat"] == p and view["hand"] == state.st.view(p)["hand"]
        tensor = np.array(state.information_state_tensor(p), dtype=np.float32)
        np.testing.assert_array_equal(tensor, state.enc.observe(state.st.view(p)))


def assert_perfect_recall(trajectories: list[list[tuple[object, int]]]) -> None:
    """OpenSpiel's perfect recall (its api_test's ``_assert_is_perfect_recall``), over
    the decision nodes of the given episodes rather than the whole tree: every visit to
    an information state of a player has the same sequence of that player's earlier
    information states and actions."""
    seen: dict[tuple[str, int], list[tuple[str, int]]] = {}
    for trajectory in trajectories:
        for k, (state, _) in enumerate(trajectory):
            p = state.current_player()  # type: ignore[attr-defined]
            key = (state.information_state_string(p), p)  # type: ignore[attr-defined]
            before = [(s.information_state_string(p), a)  # type: ignore[attr-defined]
                      for s, a in trajectory[:k] if s.current_player() == p]  # type: ignore[attr-defined]
            assert seen.setdefault(key, before) == before, f"two pasts of {key[0][:200]}"


def two_hands(game: object, first: list[int], second: list[int]
              ) -> list[tuple[object, int]]:
    """The decision nodes of a game of two hands dealt ``first`` and ``second``, every
    seat choosing its lowest legal action, up to the second hand's first decision."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    out: list[tuple[object, int]] = []
    for deck in (first, second):
        for c in deck:
            state.apply_action(c)
        while state.hands_done == 0 and deck is first:
            a = state.legal_actions()[0]
            out.append((state.clone(), a))
            state.apply_action(a)
    out.append((state.clone(), state.legal_actions()[0]))
    return out


def test_information_states_recall_the_earlier_hands() -> None:
    """Two first hands that the seats saw differently, both thrown in (every bid 1), then
    the same second hand: the seats' information states in the second hand differ, as
    they recall the first."""
    game = pyspiel.load_game(spiel.short_name("forty-one"), {"hands": 2})
    a = two_hands(game, list(range(52)), list(range(52)))
    b = two_hands(game, list(range(51, -1, -1)), list(range(52)))
    assert a[-1][0].hands_done == 1 and a[-1][0].totals == b[-1][0].totals  # type: ignore[attr-defined]
    assert_perfect_recall([a, b])
    last_a, last_b = a[-1][0], b[-1][0]
    p = last_a.current_player()  # type: ignore[attr-defined]
    # the observation, unlike the information state, is the hand in play alone
    assert last_a.observation_string(p) == last_b.observation_string(p)  # type: ignore[attr-defined]


@pytest.mark.parametrize("preset", PRESETS)
def test_games_of_several_hands_have_perfect_recall(preset: str) -> None:
    game = pyspiel.load_game(spiel.short_name(preset), {"hands": 3})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    trajectories = []
    for seed in (1, 2):
        nodes = play_randomly(game, seed)
        # each node with the action taken there: the next node's history says it
        trajectories.append([(s, nxt.history()[len(s.history())])
                             for s, nxt in itertools.pairwise(nodes)])
    assert_perfect_recall(trajectories)
    last = nodes[-1]
    p = last.current_player()
    past = json.loads(last.information_state_string(p))["past_hands"]
    assert len(past) == last.hands_done and all(h["seat"] == p for h in past)


@pytest.mark.parametrize("preset", PRESETS)
def test_imagined_worlds_look_the_same_to_the_seat_and_differ_elsewhere(preset: str) -> None:
    game = pyspiel.load_game(spiel.short_name(preset))
    rng = random.Random(1)
    differed = 0
    nodes = play_randomly(game, 9)
    for state in nodes:
        p = state.current_player()
        world = state.resample_from_infostate(p, None, rng)
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.legal_actions() == state.legal_actions()
        others = [s for s in range(state.n) if s != p]
        if any(world.st.hands[s] != state.st.hands[s] for s in others):
            differed += 1
    assert differed > len(nodes) // 2


def test_ismcts_without_openspiel_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    import sys

    from forties.players import make_bot, unavailable

    assert unavailable("ismcts") is None
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if it were not installed
    assert unavailable("ismcts") == "ismcts needs OpenSpiel: pip install 'forties[research]'"
    with pytest.raises(ValueError, match="needs OpenSpiel"):
        make_bot("ismcts", random.Random(0))


def test_unsupported_rules_are_refused_in_one_line() -> None:
    result = run_forties("arena", "ismcts", "basic", "-o", "dealer_robs_pack=true",
                         "--deals", "1", "--games", "0")
    assert result.returncode != 0
    assert "ismcts does not play with the option dealer_robs_pack" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("preset", ("merrimack-valley", "forty-one"))
def test_ismcts_plays_a_match_in_the_arena(preset: str, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    monkeypatch.setattr(spiel, "ISMCTS_SIMULATIONS", 12)
    result = run_match(build_rules(preset), "ismcts", "basic", deals=2, games=0, jobs=1)
    assert result.deals == 2
    assert result.points_per_hand.low <= result.points_per_hand.mean


def test_arena_command_runs_ismcts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORTIES_ISMCTS_SIMULATIONS", "8")
    result = run_forties("arena", "ismcts", "random", "-p", "nova-scotia", "--deals", "1",
                         "--games", "0", "--jobs", "1")
    assert result.returncode == 0, result.stderr
    assert "ismcts vs random" in result.stdout


def test_an_impossible_or_repeated_chance_outcome_is_refused_at_once() -> None:
    game = pyspiel.load_game(spiel.short_name("forty-one"))
    state = game.new_initial_state()
    with pytest.raises(ActionIdError, match=r"^chance outcome 99 is not a card: .*0\.\.51"):
        state.apply_action(99)
    with pytest.raises(ActionIdError, match=r"^chance outcome -2 is not a card"):
        state.apply_action(-2)
    state.apply_action(5)
    with pytest.raises(ActionIdError, match=r"^chance outcome 5 \(7C\) is dealt already"):
        state.apply_action(5)
    assert state.history() == [5] and len(state.chance_outcomes()) == 51  # nothing lost
    for c in range(52):
        if c != 5:
            state.apply_action(c)
    assert not state.is_chance_node()


def test_the_end_of_the_game_is_said_in_one_line() -> None:
    game = pyspiel.load_game(spiel.short_name("forty-one"))
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    with pytest.raises(ValueError, match=r"^not a chance node: player \d is to act"):
        state.chance_outcomes()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    returns = state.returns()
    with pytest.raises(EpisodeError, match=r"^the game is over: no action comes after it"):
        state.apply_action(0)
    with pytest.raises(EpisodeError, match=r"^the game is over: it has no chance outcomes"):
        state.chance_outcomes()
    assert state.legal_actions() == [] and state.returns() == returns
