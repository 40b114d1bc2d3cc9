"""The single-agent Gymnasium environment: Gymnasium's own checker on every preset and
house rules, and what it does with an illegal id and at the end of an episode."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from forties.envs import ActionIdError, EpisodeError, gym_env
from forties.envs.encoding import PHASES
from forties.envs.vector import FortiesVectorEnv
from forties.state import Phase
from forties.vector import kernel as vk

CASES: tuple[tuple[str, dict[str, Any], str], ...] = (
    ("merrimack-valley", {}, "random"),
    ("nova-scotia", {}, "basic"),
    ("auction-45", {}, "basic"),
    ("call-your-partner", {}, "random"),
    ("forty-one", {}, "basic"),
    ("merrimack-valley", {"dealer_robs_pack": True}, "random"),
    ("nova-scotia", {"players": 6}, "basic"),
    ("nova-scotia", {"players": 10}, "basic"),
    ("auction-45", {"players": 7, "kitty": 0}, "random"),
    ("merrimack-valley", {"booked": True}, "basic"),
    ("auction-45", {"booked": True, "players": 10, "kitty": 0}, "random"),
)


@pytest.mark.parametrize(("preset", "options", "opponents"), CASES)
def test_gymnasium_check_env_passes(preset: str, options: dict[str, Any], opponents: str
                                    ) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice to register the env, for render modes
        check_env(gym_env(preset, options, opponents=opponents))
        check_env(gym_env(preset, options, opponents=opponents, render_mode="ansi"))


def test_it_plays_one_table_of_the_vector_env() -> None:
    env = gym_env("auction-45", opponents="basic", seat=2)
    vec = FortiesVectorEnv("auction-45", tables=1, seat=2, opponents="basic")
    obs, _ = env.reset(seed=9)
    vobs, _ = vec.reset(seed=9)
    rng = np.random.default_rng(1)
    for _ in range(300):
        np.testing.assert_array_equal(obs["observation"], vobs["observation"][0])
        np.testing.assert_array_equal(obs["action_mask"], vobs["action_mask"][0])
        legal = np.flatnonzero(obs["action_mask"])
        i = int(rng.choice(legal))
        obs, rew, term, trunc, _ = env.step(i)
        vobs, vrew, vterm, vtrunc, _ = vec.step(np.array([i]))
        assert (rew, term, trunc) == (vrew[0], vterm[0], vtrunc[0])
        if term or trunc:
            break


@pytest.mark.parametrize("see", [True, False], ids=["see-hand-over", "deal-at-once"])
def test_the_steps_that_end_a_hand_say_so(see: bool) -> None:
    """The step in which a hand ends says so; the learner observes the finished hand
    (phase hand-over, id 0 its only legal id, which deals the next), unless
    see_hand_over=False, which deals the next hand in the same step."""
    env = gym_env("merrimack-valley", opponents="basic", max_hands=4, see_hand_over=see)
    env.reset(seed=6)
    ends: list[dict[str, Any]] = []
    dealt = []
    over = []
    hand_over = PHASES.index(Phase.HAND_OVER)
    for _ in range(400):
        obs, _, term, trunc, info = env.step(int(np.flatnonzero(env.action_masks())[-1]))
        hand_index = int(env.vec.game.S[0, vk.F_HAND_INDEX])
        if info.get("ended"):
            ends.append(info)
            dealt.append(hand_index)
            over.append(env.encoder.layout.view(obs["observation"], "phase")[hand_over] == 1)
            if see and not (term or trunc):
                assert np.flatnonzero(env.action_masks()).tolist() == [0]
        if term or trunc:
            break
    assert ends[:3] == [{"ended": "hand", "hands": k} for k in (1, 2, 3)]
    assert ends[3] == {"ended": "game" if term else "max_hands"}
    if see:  # each said with the hand just ended in view, dealt on by the next step
        assert dealt[:3] == [0, 1, 2] and over[:3] == [True] * 3
    else:  # each said as the next hand is dealt
        assert dealt[:3] == [1, 2, 3] and over[:3] == [False] * 3


def test_an_illegal_id_plays_the_lowest_legal_one_or_is_refused() -> None:
    env = gym_env("merrimack-valley")
    obs, _ = env.reset(seed=3)
    assert obs["action_mask"].sum() > 1  # the lowest is not the only legal id
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[-1])
    twin = gym_env("merrimack-valley")
    twin.reset(seed=3)
    got = env.step(illegal)
    want = twin.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert got[4] == {"illegal": True} and want[4] == {}
    np.testing.assert_array_equal(got[0]["observation"], want[0]["observation"])
    strict = gym_env("merrimack-valley", illegal="raise")
    strict.reset(seed=3)
    with pytest.raises(ActionIdError, match="not legal now"):
        strict.step(illegal)
    with pytest.raises(ActionIdError, match="not an action id"):
        strict.step(1.5)


def test_an_episode_ends_with_its_last_observation_and_waits_for_reset() -> None:
    env = gym_env("forty-one", episode="hand")
    with pytest.raises(EpisodeError, match="call reset\\(\\) first"):
        env.step(0)
    obs, _ = env.reset(seed=2)
    for _ in range(100):
        obs, _, term, trunc, _ = env.step(int(env.action_masks().argmax()))
        if term or trunc:
            break
    assert term
    phase = env.encoder.layout.view(obs["observation"], "phase")
    assert phase.argmax() >= 8  # hand-over or game-over: the hand's end, not a new deal
    assert not obs["action_mask"].any() and not env.action_masks().any()
    with pytest.raises(EpisodeError, match="the episode is over"):
        env.step(0)
