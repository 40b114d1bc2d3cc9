"""A Gymnasium vector environment: one seat of thousands of compiled tables learns
against fixed players.

    >>> import numpy as np
    >>> from forties.envs.vector import FortiesVectorEnv
    >>> env = FortiesVectorEnv("merrimack-valley", tables=512, seat=0, opponents="random")
    >>> obs, info = env.reset(seed=1)
    >>> rng = np.random.default_rng(1)
    >>> for _ in range(50):
    ...     logits = rng.random(obs["action_mask"].shape) + obs["action_mask"]  # a policy
    ...     obs, reward, terminated, truncated, info = env.step(logits.argmax(axis=1))

Each table plays ``forties.vector``'s compiled rules. At every step the learner (seat
``seat`` of every table) gives one action id per table (``forties.envs.encoding``);
the fixed players then play on each table until the learner is to act again, and
``step`` returns the learner's observations and action masks as arrays of
``(tables, size)``, with the rewards the learner earned meanwhile. The fixed players
are ``"random"`` (uniform among the legal actions), ``"basic"`` (``forties.bots.basic``,
compiled: the same choices, at compiled speed), or a callable
``policy(observations, masks) -> ids`` called with the arrays of the tables waiting for
it (a trained policy, for self-play); one for every other seat, or a list by seat.

Episodes, rewards and ids are those of the AEC environment (``forties.envs.aec``):
``episode="game"`` (cut at ``max_hands``) or ``"hand"`` (the first hand of a new game),
``reward="hand"`` (the learner's side's score change at the end of each hand) or
``"game"`` (+1 won, -1 lost). A table whose episode ends starts the next one at once
(Gymnasium's same-step autoreset): the observation returned is the new episode's, and
``info["final_obs"]`` holds the last one where ``info["_final_obs"]`` is set.

Hand boundaries, as in the AEC environment: when a hand ends and the game goes on, the
learner observes the finished hand (phase ``hand-over``, its reward for it with it) and
steps on with id 0, its only legal id there; then the next hand is dealt
(``see_hand_over=False`` deals it in the same step instead). ``info["ended"]`` says,
table by table, what ended in the step (``"hand"``, and at an episode's end ``"game"``,
``"hand"`` for one-hand episodes or ``"max_hands"``; ``""`` for nothing), where
``info["_ended"]`` is set.

Seeds follow Gymnasium's conventions: ``reset(seed=s)`` with an int deals the same
games for the same ``s``, a list of one int per table seeds each table on its own (table
``t`` plays as the one table of an env seeded ``s[t]`` would), and ``reset()`` without
a seed plays on from the generator, to new deals. The constructor's ``seed`` is the
first ``reset()``'s; ``None`` (the default) draws fresh entropy, so that two envs made
without a seed (training and evaluation, one per worker) do not play the same deals.

``step`` before ``reset`` raises ``EpisodeError``; ids that are not whole numbers of
the action space, or not legal on their table, ``ActionIdError`` (both ValueErrors).

The arrays ``reset`` and ``step`` return, ``info["final_obs"]`` included, are fresh
copies (as Gymnasium's ``SyncVectorEnv(copy=True)``): keep them, the next step leaves
them alone. ``copy=False`` hands out the environment's own buffers instead, which the
next ``step`` overwrites in place: faster (the copies cost about a tenth of a step), for
a loop that copies what it keeps itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..actions import Action
from ..rules import Rules
from ..vector import VERBS, VectorGame
from ..vector import kernel as vk
from . import kernels as kk
from .aec import EPISODES, REWARDS, check_choice, is_id, make_rules
from .encoding import ActionIdError, Encoder, EpisodeError

# info["ended"]'s words, by the kernels.END_ codes.
ENDED = np.array(["", "hand", "game", "max_hands"])
Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], Any]
Seed = int | Sequence[int] | None


def _whole(x: object) -> bool:
    return isinstance(x, int | np.integer) and not isinstance(x, bool | np.bool_) \
        and int(x) >= 0


class FortiesVectorEnv(VectorEnv):
    """``tables`` compiled games; seat ``seat`` of each is the learner (see the module)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(self, rules: Rules | str = "merrimack-valley",
                 options: Mapping[str, Any] | None = None, *, tables: int = 1024,
                 seat: int = 0, opponents: str | Policy | Sequence[str | Policy | None] = "random",
                 reward: str = "hand", episode: str = "game", max_hands: int = 200,
                 seed: Seed = None, copy: bool = True, see_hand_over: bool = True) -> None:
        check_choice("reward", reward, REWARDS)
        check_choice("episode", episode, EPISODES)
        if type(tables) is not int or tables < 1:
            raise ValueError(f"tables must be a whole number from 1, not {tables!r}")
        if type(max_hands) is not int or max_hands < 1:
            raise ValueError(f"max_hands must be a whole number from 1, not {max_hands!r}")
        self.rules = make_rules(rules, options)
        n = self.rules.players
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"seat must be a seat, 0..{n - 1}, not {seat!r}")
        self.encoder = Encoder(self.rules)
        self.num_envs = tables
        self.seat = seat
        self.game_reward = reward == "game"
        self.one_hand = episode == "hand"
        self.max_hands = max_hands
        self.copy = bool(copy)
        self.see_hand_over = bool(see_hand_over)
        self.codes = np.zeros(n, dtype=np.int64)
        # the game score as basic reads it from its view's rules
        self.basic_target = int(self.rules.to_json().get("options", {}).get("target", 120))
        self.policies: dict[int, Policy] = {}
        self._set_opponents(opponents)
        low, high = self.encoder.bounds()
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.encoder.actions,), dtype=np.int8),
        })
        self.single_action_space = spaces.Discrete(self.encoder.actions)
        self.observation_space = batch_space(self.single_observation_space, tables)
        self.action_space = batch_space(self.single_action_space, tables)
        layout = self.encoder.layout
        self.starts = np.array([start for _, start, _ in layout.blocks], dtype=np.int64)
        self.obs = np.zeros((tables, layout.size), dtype=np.float32)
        self.masks = np.zeros((tables, self.encoder.actions), dtype=np.int8)
        self.final_obs = np.zeros_like(self.obs)
        self._all = np.arange(tables, dtype=np.int64)
        self._scratch = np.zeros(self.encoder.actions, dtype=np.int8)
        # The tables a callable player is being asked about, in the order of its rows.
        self.asking = np.zeros(0, dtype=np.int64)
        first = self._check_seed(seed)
        if first is None:  # fresh entropy: an env nobody seeded plays deals of its own
            first = int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
        self._seeds = np.random.default_rng(first)
        self._pending: int | list[int] | None = first  # what the first reset() plays
        self._ready = False  # reset() has brought the learner to act on every table
        self._start(first)

    def _set_opponents(self, opponents: str | Policy | Sequence[str | Policy | None]) -> None:
        n = self.rules.players
        if isinstance(opponents, str) or callable(opponents):
            given: list[str | Policy | None] = [opponents] * n
        else:
            given = list(opponents)
            if len(given) != n:
                raise ValueError(f"opponents: give one player for each of the {n} seats "
                                 f"(the learner's is ignored), not {len(given)}")
        for s, p in enumerate(given):
            if s == self.seat:
                self.codes[s] = kk.P_LEARNER
            elif callable(p):
                self.codes[s] = kk.P_EXTERNAL
                self.policies[s] = p
            elif p == "random":
                self.codes[s] = kk.P_RANDOM
            elif p == "basic":
                self.codes[s] = kk.P_BASIC
            else:
                raise ValueError(f"opponents: {p!r} is not a player: random, basic, or a "
                                 "callable policy(observations, masks) -> action ids")

    def _check_seed(self, seed: object) -> int | list[int] | None:
        """``seed`` as ``_start`` takes it; a ValueError for a seed it does not take."""
        if seed is None or _whole(seed):
            return None if seed is None else int(seed)  # type: ignore[call-overload]
        if isinstance(seed, Sequence | np.ndarray) and not isinstance(seed, str | bytes):
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"seed: a list of seeds has one for each of the "
                                 f"{self.num_envs} tables, not {len(seeds)}")
            bad = [x for x in seeds if not _whole(x)]
            if bad:
                raise ValueError(f"seed: each table's seed must be a whole number from 0, "
                                 f"not {bad[0]!r}")
            return [int(x) for x in seeds]
        raise ValueError(f"seed must be a whole number from 0, a list of one for each table, "
                         f"or None, not {seed!r}")

    def _start(self, seed: int | list[int]) -> None:
        """New games on every table: all dealt from one seed, or each from its own."""
        n = self.rules.players
        if isinstance(seed, int):
            self.game = VectorGame(self.rules, self.num_envs, seed=seed, first_dealer=seed % n)
        else:
            # table t as the one table of VectorGame(rules, 1, seed=seed[t]) would be
            self.game = VectorGame(self.rules, self.num_envs, seed=seed[0],
                                   first_dealer=seed[0] % n)
            S, D = self.game.S, self.game.D
            for t, s in enumerate(seed):
                S[t] = 0
                S[t, vk.F_RNG] = np.random.default_rng(s).integers(1, 1 << 62, size=1)[0]
                vk.new_games(S[t:t + 1], D[t:t + 1], self.game.R, s % n, True)
        self.M = np.zeros((self.num_envs, kk.MF), dtype=np.int64)
        # sample_legal's generator: the same draws after the same reset(seed)
        self._draws = np.random.default_rng(seed).integers(1, 1 << 62, size=1)
        self.hands = np.zeros(self.num_envs, dtype=np.int64)
        self.hands_played = 0

    # ----- the cycle ------------------------------------------------------------------

    def reset(self, *, seed: Seed = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """New games on every table. ``seed=None`` plays on from the generator (new deals
        at each reset: the constructor's seed at the first); an int seeds every table
        reproducibly, as a list of one int per table seeds each table on its own."""
        given = self._check_seed(seed)
        if given is not None:
            self._seeds = np.random.default_rng(given)
        elif self._pending is not None:
            given = self._pending
        else:
            given = int(self._seeds.integers(1 << 62))
        self._pending = None
        self._ready = False
        self._start(given)
        rew = np.zeros(self.num_envs)
        done = np.zeros(self.num_envs, dtype=np.bool_)
        trunc = np.zeros(self.num_envs, dtype=np.bool_)
        self._advance(rew, done, trunc)
        self._ready = True
        return self._observation(), {}

    def step(self, actions: Any) -> tuple[dict[str, Any], npt.NDArray[np.float64],
                                          npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                                          dict[str, Any]]:
        if not self._ready:
            raise EpisodeError("call reset() first")
        ids = self._ids(actions, self._all, "the learner")
        self._apply(self._all, ids, "the learner")
        rew = np.zeros(self.num_envs)
        done = np.zeros(self.num_envs, dtype=np.bool_)
        trunc = np.zeros(self.num_envs, dtype=np.bool_)
        codes = self._advance(rew, done, trunc)
        info = {"final_obs": self.final_obs.copy() if self.copy else self.final_obs,
                "_final_obs": done | trunc, "ended": ENDED[codes], "_ended": codes > 0}
        return self._observation(), rew, done, trunc, info

    def _ids(self, actions: Any, tables: npt.NDArray[np.int64],
             who: str) -> npt.NDArray[np.int64]:
        """``actions`` as one id a table of ``tables``; refused in one line if they are
        not whole numbers of the action space, or not one a table."""
        top = self.encoder.actions - 1
        got = np.asarray(actions)
        if got.dtype.kind not in "iu":
            what = "None" if actions is None else \
                "values that are not all action ids" if got.dtype.kind == "O" else \
                f"{got.dtype} values"
            raise ActionIdError(f"{who} gave {what}: action ids are whole numbers, "
                                f"0..{top}, one a table")
        if got.shape != tables.shape:
            if who == "the learner":
                raise ValueError(f"step needs {len(tables)} action ids, not {got.shape}")
            raise ValueError(f"{who} gave {got.shape} ids for {len(tables)} tables")
        out = (got < 0) | (got > top)
        if out.any():
            j = int(np.flatnonzero(out)[0])
            raise ActionIdError(f"table {tables[j]}: action id {got[j]} from {who} is not "
                                f"an action id, 0..{top}")
        return np.ascontiguousarray(got, dtype=np.int64)

    def _apply(self, tables: npt.NDArray[np.int64], ids: npt.NDArray[np.int64],
               who: str) -> None:
        bad = kk.apply_ids(self.game.S, self.game.D, self.game.R, self.M, tables, ids,
                           self._scratch)
        if bad >= 0:
            raise ActionIdError(f"table {tables[bad]}: action id {ids[bad]} from {who} is "
                                "not legal there now")

    def _advance(self, rew: npt.NDArray[np.float64], done: npt.NDArray[np.bool_],
                 trunc: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """Play on to the learner's turn on every table; what ended on each (the
        ``kernels.END_`` codes)."""
        g = self.game
        waiting = np.full(self.num_envs, -1, dtype=np.int64)
        done_i = np.zeros(self.num_envs, dtype=np.int64)
        trunc_i = np.zeros(self.num_envs, dtype=np.int64)
        ended = np.zeros(self.num_envs, dtype=np.int64)
        while True:
            kk.advance(g.S, g.D, g.R, self.M, self.codes, self.seat, self.game_reward,
                       self.one_hand, self.max_hands, self.hands, rew, done_i, trunc_i,
                       self.starts, self.final_obs, waiting, self.basic_target,
                       self.see_hand_over, ended)
            if (waiting < 0).all():
                break
            for s, policy in self.policies.items():
                tables = np.flatnonzero(waiting == s).astype(np.int64)
                if not len(tables):
                    continue
                obs = np.zeros((len(tables), self.obs.shape[1]), dtype=np.float32)
                masks = np.zeros((len(tables), self.masks.shape[1]), dtype=np.int8)
                kk.observe_all(g.S, g.R, self.M, tables, s, self.starts, obs, masks)
                self.asking = tables
                who = f"the policy of seat {s}"
                self._apply(tables, self._ids(policy(obs, masks), tables, who), who)
        done |= done_i.astype(np.bool_)
        trunc |= trunc_i.astype(np.bool_)
        return ended

    def _observation(self) -> dict[str, Any]:
        kk.observe_all(self.game.S, self.game.R, self.M, self._all, self.seat, self.starts,
                       self.obs, self.masks)
        if self.copy:
            return {"observation": self.obs.copy(), "action_mask": self.masks.copy()}
        return {"observation": self.obs, "action_mask": self.masks}

    def sample_legal(self) -> npt.NDArray[np.int64]:
        """One id a table, drawn uniformly among the learner's legal ids there (its
        ``action_mask``), compiled: a random learner's actions for ``step``, without a
        pass over the masks in numpy. The draws come from the environment's own generator,
        seeded by ``reset(seed=...)`` as the deals are."""
        if not self._ready:
            raise EpisodeError("call reset() first")
        out = np.empty(self.num_envs, dtype=np.int64)
        kk.sample_legal(self.game.S, self.game.R, self.M, self._draws, self._scratch, out)
        return out

    # ----- looking at one table -------------------------------------------------------

    def action_of(self, t: int, i: int) -> Action | None:
        """What id ``i`` does on table ``t`` now: its Action (None for a pick of robbing
        the pack, which acts only with the picks that follow it, and for id 0 stepping on
        from a hand seen ended)."""
        if not _whole(t) or t >= self.num_envs:
            raise ValueError(f"no table {t!r}: tables 0..{self.num_envs - 1}")
        if not is_id(i):
            raise ActionIdError(f"action {i!r} is not an action id: a whole number, "
                                f"0..{self.encoder.actions - 1}")
        g = self.game
        S, R = g.S, g.R
        s = int(S[t, vk.F_TURN])
        if self.M[t, kk.M_SEEING] and i == kk.PASS:
            return None
        if R[vk.R_GAME] == vk.G_FORTY_FIVES and S[t, vk.F_PHASE] == vk.PACK and i != kk.PASS:
            if i != kk.ROB_PACK:
                return None
            return Action(s, VERBS[vk.V_ROB], int(self.M[t, kk.M_PICKS]))
        for j in range(vk.count(S, R, t)):
            verb, arg = vk.nth(S, R, t, j)
            if kk.action_id(S, R, t, verb, arg) == i:
                return Action(s, VERBS[verb], int(arg))
        raise ActionIdError(f"table {t}: action id {i} is not legal there now")

    def close_extras(self, **kwargs: Any) -> None:
        pass
