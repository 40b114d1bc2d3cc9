"""A single-agent Gymnasium environment: one seat learns, the others are chosen players,
over the compiled engine.

    >>> from forties.envs import gym_env
    >>> env = gym_env("merrimack-valley", opponents="basic")
    >>> obs, info = env.reset(seed=1)
    >>> obs, reward, terminated, truncated, info = env.step(env.action_masks().argmax())

It is one table of ``forties.envs.vector.FortiesVectorEnv``: the same observations,
action ids, players, rewards and episodes (see that module), one table at a time, for
the libraries that take a ``gymnasium.Env`` (Stable-Baselines3 and its MaskablePPO,
which reads ``action_masks()``). An episode ends with the observation of its last
position; ``reset()`` starts the next. A step in which a hand ended says so in its info:
``info["ended"]`` is ``"hand"`` (the game goes on, and ``info["hands"]`` counts the
episode's hands ended so far), or at the episode's end ``"game"`` (won), ``"hand"``
(one-hand episodes) or ``"max_hands"`` (truncated). In a game that goes on, that step's
observation is the finished hand (phase ``hand-over``), its reward the hand's, and the
only legal id 0, which deals the next hand (``see_hand_over=False``: the next hand's
first observation at once, as the vector environment's option).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from ..rules import Rules
from ..state import Phase
from ..vector import kernel as vk
from .aec import check_choice, is_id
from .encoding import ActionIdError, EpisodeError
from .vector import FortiesVectorEnv, Policy

ILLEGAL = ("lowest", "raise")


class FortiesGymEnv(gymnasium.Env[dict[str, npt.NDArray[Any]], int]):
    """Seat ``seat`` of one compiled table against ``opponents`` (see the module)."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(self, rules: Rules | str = "merrimack-valley",
                 options: Mapping[str, Any] | None = None, *, seat: int = 0,
                 opponents: str | Policy | Sequence[str | Policy | None] = "random",
                 reward: str = "hand", episode: str = "game", max_hands: int = 200,
                 illegal: str = "lowest", render_mode: str | None = None,
                 see_hand_over: bool = True) -> None:
        check_choice("illegal", illegal, ILLEGAL)
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not "
                             f"{render_mode!r}")
        self.vec = FortiesVectorEnv(rules, options, tables=1, seat=seat, opponents=opponents,
                                    reward=reward, episode=episode, max_hands=max_hands,
                                    seed=0, see_hand_over=see_hand_over)
        self.rules = self.vec.rules
        self.encoder = self.vec.encoder
        self.illegal = illegal
        self.render_mode = render_mode
        self.observation_space = self.vec.single_observation_space
        self.action_space = self.vec.single_action_space
        self._mask = np.zeros(self.encoder.actions, dtype=np.int8)
        self._live = False
        self._started = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        """A new game (``seed``: the same seed, the same game; none: new deals)."""
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(1 << 62))
        obs, _ = self.vec.reset(seed=seed)
        self._live = self._started = True
        return self._one(obs), {}

    def step(self, action: Any) -> tuple[dict[str, npt.NDArray[Any]], float, bool, bool,
                                         dict[str, Any]]:
        """Play id ``action`` for the learner; the others play until it is to act again
        or the episode ends. An id that is not legal now plays the lowest legal id in its
        place (``info["illegal"]``) or, with ``illegal="raise"``, raises ActionIdError."""
        if not self._live:
            raise EpisodeError("the episode is over: call reset()" if self._started else
                               "call reset() first")
        if not is_id(action):
            raise ActionIdError(f"action {action!r} is not an action id: a whole number, "
                                f"0..{self.encoder.actions - 1}")
        i = int(action)
        info: dict[str, Any] = {}
        if not 0 <= i < len(self._mask) or not self._mask[i]:
            if self.illegal == "raise":
                raise ActionIdError(f"action {i} is not legal now")
            info["illegal"] = True
            i = int(np.flatnonzero(self._mask)[0])
        obs, rew, term, trunc, vinfo = self.vec.step(np.array([i], dtype=np.int64))
        terminated, truncated = bool(term[0]), bool(trunc[0])
        if vinfo["_ended"][0]:
            info["ended"] = str(vinfo["ended"][0])
            if not (terminated or truncated):
                info["hands"] = int(self.vec.hands[0])
        if terminated or truncated:
            self._live = False
            self._mask = np.zeros(self.encoder.actions, dtype=np.int8)
            out = {"observation": vinfo["final_obs"][0], "action_mask": self._mask.copy()}
        else:
            out = self._one(obs)
        if self.render_mode == "human":
            self.render()
        return out, float(rew[0]), terminated, truncated, info

    def _one(self, obs: dict[str, Any]) -> dict[str, npt.NDArray[Any]]:
        self._mask = obs["action_mask"][0].copy()
        return {"observation": obs["observation"][0], "action_mask": obs["action_mask"][0]}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal ids now (what MaskablePPO asks for)."""
        return self._mask.astype(np.bool_)

    def render(self) -> str | None:
        """``"ansi"``: the table in a line; ``"human"``: that line printed."""
        if self.render_mode is None:
            return None
        S = self.vec.game.S
        sides = len(self.rules.sides)
        turn = int(S[0, vk.F_TURN])
        text = (f"hand {int(S[0, vk.F_HAND_INDEX]) + 1}, "
                f"{tuple(Phase)[int(S[0, vk.F_PHASE])].value}, "
                f"to act: {turn if turn >= 0 else None}, "
                f"scores {[int(x) for x in S[0, vk.F_SCORES:vk.F_SCORES + sides]]}")
        if self.render_mode == "human":
            print(text)
            return None
        return text


def gym_env(rules: Rules | str = "merrimack-valley", options: Mapping[str, Any] | None = None,
            **kwargs: Any) -> FortiesGymEnv:
    """The single-agent environment of ``rules`` (a preset name and its options, or built
    rules): ``seat`` (0) learns against ``opponents`` ("random")."""
    return FortiesGymEnv(rules, options, **kwargs)
