"""A PettingZoo AEC environment for every preset and house rule, and Forty One.

    >>> from forties.envs import aec_env
    >>> env = aec_env("auction-45", reward="hand")
    >>> env.reset(seed=1)
    >>> for agent in env.agent_iter(max_iter=200):
    ...     obs, reward, terminated, truncated, info = env.last()
    ...     action = None if terminated or truncated else \\
    ...         env.action_space(agent).sample(obs["action_mask"])
    ...     env.step(action)

Agents are ``player_0`` .. ``player_{n-1}``, the engine's seats. An observation is
``{"observation": float32 vector, "action_mask": int8 vector}``, built from the
seat's view alone (``forties.envs.encoding`` documents both). The episode is a whole
game (``episode="game"``, cut short after ``max_hands`` hands) or one hand
(``episode="hand"``). ``reward="hand"`` gives every agent, at the end of each hand,
the points its side's score moved by; ``reward="game"`` gives +1 to the winners and -1
to the others when the game is won. A hand that ends in a game that goes on is seen by
every agent before the next deal: each in turn observes the finished hand (its reward
and ``info["ended"] == "hand"``) and steps with id 0, its one legal action. ``state()``
is the whole table, for centralized critics.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ..actions import Action, Verb
from ..games import new_game
from ..rules import Rules, build_rules
from ..state import GameState, Phase
from .encoding import PASS, PICK0, ROB_PACK, ActionIdError, Encoder, EpisodeError

REWARDS = ("hand", "game")
EPISODES = ("game", "hand")


def make_rules(rules: Rules | str, options: Mapping[str, Any] | None = None) -> Rules:
    """``rules`` as a Rules value: a preset name (with ``options``) or rules already built."""
    if isinstance(rules, Rules):
        if options:
            raise ValueError("give options with a preset name, not with built rules")
        return rules
    return build_rules(rules, options)


def is_id(x: object) -> bool:
    """Whether ``x`` is a whole number as an action id must be (a Python or numpy integer,
    or a 0-d integer array; not a bool, a float or a string)."""
    if isinstance(x, np.ndarray):
        return x.ndim == 0 and x.dtype.kind in "iu"
    return isinstance(x, int | np.integer) and not isinstance(x, bool | np.bool_)


def check_choice(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")


def winners_of(state: GameState) -> set[int]:
    """The seats that won the game (none while it goes on)."""
    w = state.winner
    if w is None:
        return set()
    if isinstance(w, tuple):
        return set(w)
    return set(state.sides[w])


def hand_rewards(state: GameState, before: list[int]) -> list[float]:
    """Each seat's reward for the hand just ended: its side's score change."""
    return [float(state.scores[state.side_of[s]] - before[state.side_of[s]])
            for s in range(state.n)]


class FortiesAEC(AECEnv):  # type: ignore[misc]
    """The game as a PettingZoo AEC environment (see the module's doc)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "forties_v0",
                                          "render_modes": ["human", "ansi"],
                                          "is_parallelizable": False}

    def __init__(self, rules: Rules | str = "merrimack-valley",
                 options: Mapping[str, Any] | None = None, *, reward: str = "hand",
                 episode: str = "game", max_hands: int = 200,
                 render_mode: str | None = None) -> None:
        super().__init__()
        check_choice("reward", reward, REWARDS)
        check_choice("episode", episode, EPISODES)
        if type(max_hands) is not int or max_hands < 1:
            raise ValueError(f"max_hands must be a whole number from 1, not {max_hands!r}")
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not "
                             f"{render_mode!r}")
        self.rules = make_rules(rules, options)
        self.encoder = Encoder(self.rules)
        self.reward_mode = reward
        self.episode = episode
        self.max_hands = max_hands
        self.render_mode = render_mode
        n = self.rules.players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        low, high = self.encoder.bounds()
        obs_space = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.encoder.actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.encoder.actions)
                              for a in self.possible_agents}
        deal_low, deal_high = np.zeros(104, np.float32), np.ones(104, np.float32)
        self.state_space = spaces.Box(np.concatenate([np.tile(low, n), deal_low]),
                                      np.concatenate([np.tile(high, n), deal_high]),
                                      dtype=np.float32)
        self.np_random, _ = seeding.np_random(None)
        self.state_: GameState | None = None
        self.picks = 0
        self.seeing: list[str] = []  # the agents still to see the hand just ended
        self._mask_key = -1
        self._version = 0  # counts the changes to the position
        self._mask = np.zeros(self.encoder.actions, dtype=np.int8)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        try:
            return self.observation_spaces[agent]
        except (KeyError, TypeError):
            raise self._no_agent(agent) from None

    def action_space(self, agent: str) -> spaces.Space[Any]:
        try:
            return self.action_spaces[agent]
        except (KeyError, TypeError):
            raise self._no_agent(agent) from None

    def _no_agent(self, agent: object) -> ValueError:
        return ValueError(f"no agent {agent!r}: {self.possible_agents[0]}.."
                          f"{self.possible_agents[-1]}")

    @property
    def game(self) -> GameState:
        """The game in progress (``reset`` first)."""
        if self.state_ is None:
            raise EpisodeError("call reset() first")
        return self.state_

    # ----- the cycle ------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        game_seed = int(self.np_random.integers(1 << 48))
        first = int(self.np_random.integers(self.rules.players))
        self.state_ = new_game(self.rules, seed=game_seed, first_dealer=first)
        self._version += 1
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.hands = 1
        self.picks = 0
        self.seeing = []
        self._before = list(self.state_.scores)
        self._select()

    def _select(self) -> None:
        if self.seeing:
            self.agent_selection = self.seeing[0]
            return
        turn = self.game.turn
        if turn is not None:
            self.agent_selection = self.possible_agents[turn]

    def seat_of(self, agent: str) -> int:
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise self._no_agent(agent) from None

    def _check_live(self) -> None:
        """Refuse a step or a look at the last move before reset() or after the end."""
        if self.state_ is None:
            raise EpisodeError("call reset() first")
        if not self.agents:
            raise EpisodeError("the episode is over: call reset()")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._check_live()
        return super().last(observe)  # type: ignore[no-any-return]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        seat = self.seat_of(agent)
        st = self.game
        view = st.view(seat)
        mine = seat == st.turn
        picks = self.picks if mine else 0
        return {"observation": self.encoder.observe(view, picks),
                "action_mask": self.legal_mask(seat)}

    def legal_mask(self, seat: int) -> npt.NDArray[np.int8]:
        st = self.game
        if self.seeing:  # the hand is over: the agent to see it may only step on (id 0)
            out = np.zeros(self.encoder.actions, dtype=np.int8)
            out[0] = self.seeing[0] == self.possible_agents[seat]
            return out
        if seat != st.turn:
            return np.zeros(self.encoder.actions, dtype=np.int8)
        # observe() and step() both ask for the mask of the same position: make it once
        key = self._version
        if self._mask_key == key:
            return self._mask.copy()
        pile = getattr(st, "pile", 0) if st.phase is Phase.PACK else 0
        legal = st.legal_actions() if st.phase is not Phase.PACK else [Action(seat, Verb.PASS)]
        self._mask = self.encoder.mask(st.phase, legal, st.hands[seat], pile, self.picks)
        self._mask_key = key
        return self._mask.copy()

    def step(self, action: int | None) -> None:
        self._check_live()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.game
        seat = self.seat_of(agent)
        mask = self.legal_mask(seat)
        if not is_id(action):
            raise ActionIdError(f"action {action!r} is not an action id: a whole number, "
                                f"0..{len(mask) - 1}")
        i = int(action)  # type: ignore[arg-type]
        if not 0 <= i < len(mask) or not mask[i]:
            raise ActionIdError(f"action {action!r} is not legal for {agent} now")
        self._version += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if self.seeing:
            self.seeing.pop(0)
            if not self.seeing:
                self._deal_on()
            self._select()
            self._accumulate_rewards()
            return
        if st.phase is Phase.PACK and i != PASS:
            if i != ROB_PACK:
                self.picks |= 1 << (i - PICK0)
                self._accumulate_rewards()
                return
            move = Action(seat, Verb.ROB, self.picks)
        else:
            move = self.encoder.decode(i, seat, st.phase, st.hands[seat])
        self.picks = 0
        st.apply(move)
        if st.hand_over:
            self._end_hand()
        self._select()
        self._accumulate_rewards()

    def _end_hand(self) -> None:
        """The hand is over: its rewards, and the end of the episode or, for a game that
        goes on, every agent in turn to see the hand before the next deal."""
        st = self.game
        if self.reward_mode == "hand":
            for s, r in enumerate(hand_rewards(st, self._before)):
                self.rewards[self.possible_agents[s]] = r
        ended = "hand"
        if st.over:
            ended = "game"
            if self.reward_mode == "game":
                won = winners_of(st)
                for s in range(st.n):
                    self.rewards[self.possible_agents[s]] = 1.0 if s in won else -1.0
            self.terminations = {a: True for a in self.agents}
        elif self.episode == "hand":
            self.terminations = {a: True for a in self.agents}
        elif self.hands >= self.max_hands:
            ended = "max_hands"
            self.truncations = {a: True for a in self.agents}
        else:
            self.seeing = list(self.agents)
        info = {"ended": ended, "hand": self.hands, "scores": list(st.scores)}
        self.infos = {a: dict(info) for a in self.agents}

    def _deal_on(self) -> None:
        """Every agent has seen the hand that ended: deal the next."""
        st = self.game
        st.next_hand()
        self.hands += 1
        self._before = list(st.scores)
        self.infos = {a: {} for a in self.agents}

    # ----- the rest of the API --------------------------------------------------------

    def state(self) -> npt.NDArray[np.float32]:
        """The whole table, for a centralized critic: every seat's observation (seat 0
        first, each from its own seat), then the hand's kitty and stock as dealt
        (52 each)."""
        st = self.game
        out = [self.observe(a)["observation"] for a in self.possible_agents]
        deal = np.zeros(104, dtype=np.float32)
        for c in st.deal.kitty:
            deal[c] = 1
        for c in st.deal.stock:
            deal[52 + c] = 1
        return np.concatenate([*out, deal])

    def render(self) -> str | None:
        """``"ansi"``: the table in a line; ``"human"``: that line printed."""
        if self.render_mode is None or self.state_ is None:
            return None
        st = self.state_
        text = (f"hand {st.hand_index + 1}, {st.phase.value}, to act: {st.turn}, "
                f"scores {st.scores}")
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def aec_env(rules: Rules | str = "merrimack-valley", options: Mapping[str, Any] | None = None,
            **kwargs: Any) -> FortiesAEC:
    """The AEC environment of ``rules`` (a preset name and its options, or built rules)."""
    return FortiesAEC(rules, options, **kwargs)
