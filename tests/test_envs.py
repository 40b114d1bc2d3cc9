"""The research environments: PettingZoo's own API and seed tests for every preset, the
action ids, and the compiled vector environment held to the AEC environment's
observations, masks and rewards, blind to the cards its seat cannot see."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from forties import build_rules
from forties.actions import Action, Verb
from forties.bots.basic import BasicBot
from forties.cards import mask_of_names
from forties.envs import aec_env
from forties.envs import kernels as kk
from forties.envs.aec import hand_rewards
from forties.envs.encoding import (
    CARD0,
    DISCARD0,
    FF_ACTIONS,
    FO_ACTIONS,
    GO_ON,
    PHASES,
    PICK0,
    ROB_PACK,
    ActionIdError,
    Encoder,
    EpisodeError,
    action_id,
    slot_cards,
    slot_mask,
)
from forties.envs.vector import FortiesVectorEnv
from forties.games import game_class
from forties.rules import Rules
from forties.state import GameState, Phase
from forties.vector import VERBS
from forties.vector import kernel as vk

PRESETS = ("merrimack-valley", "nova-scotia", "auction-45", "call-your-partner", "forty-one")
# House rules that reach the rare corners: robbing the pack (picks), going on the kitty and
# the top card, four and a flip, a kitty of four, a best-of-3 match, hold-reopens, and
# six, seven and ten players.
VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("merrimack-valley", {"dealer_robs_pack": True}),
    ("merrimack-valley", {"go_on_kitty": True, "go_on_top_card": True, "keep_min": 0}),
    ("merrimack-valley", {"four_and_a_flip": True, "kitty": 0, "keep_min": 0}),
    ("merrimack-valley", {"kitty": 4, "kitty_before_trump": True, "match": "best-of-3",
                          "target": 40}),
    ("auction-45", {"auction": "hold-reopens", "bid_30_for_60": True,
                    "bid_60_for_120": True}),
    ("nova-scotia", {"players": 6}),
    ("merrimack-valley", {"players": 6, "teams": "two-threes"}),
    ("nova-scotia", {"players": 10}),
    ("auction-45", {"players": 7}),
)
# "Booked?": asking an opponent, his answer, and folding or staying.
BOOKED: tuple[tuple[str, dict[str, Any]], ...] = (
    ("merrimack-valley", {"booked": True}),
    ("auction-45", {"booked": True, "players": 6}),
    ("auction-45", {"booked": True, "players": 10, "kitty": 0}),
)


@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_api_and_seed_tests_pass(preset: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's advice on dict observations
        api_test(aec_env(preset), num_cycles=200)
        seed_test(lambda: aec_env(preset), num_cycles=100)


@pytest.mark.parametrize(("preset", "options"), VARIANTS + BOOKED)
def test_pettingzoo_api_and_seed_tests_pass_with_house_rules(preset: str,
                                                              options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(preset, options), num_cycles=100)
        seed_test(lambda: aec_env(preset, options), num_cycles=50)


@pytest.mark.parametrize(("preset", "options"), BOOKED)
def test_booked_is_played_with_ids_and_observations_of_its_own(preset: str,
                                                               options: dict[str, Any]) -> None:
    env = aec_env(preset, options)
    env.reset(seed=1)
    enc, layout = env.encoder, env.encoder.layout
    rng = random.Random(2)
    phases: set[Phase] = set()
    for agent in env.agent_iter(6000):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        st, seat = env.game, env.seat_of(agent)
        if st.phase in (Phase.BOOKED, Phase.ANSWER, Phase.FOLD):
            phases.add(st.phase)
            legal = list(st.legal_actions())
            ids = [action_id(a, st.phase, st.hands[seat], False) for a in legal]
            assert sorted(ids) == np.flatnonzero(obs["action_mask"]).tolist()
            assert [enc.decode(i, seat, st.phase, st.hands[seat]) for i in ids] == legal
        booked = st.view(seat).get("booked") if st.turn is not None else None
        if booked and booked["asked"] is not None:
            asked = layout.view(obs["observation"], "asked")
            assert asked[(booked["asked"] - seat) % st.n] == 1 and asked.sum() == 1
            answer = layout.view(obs["observation"], "answer")
            assert answer.sum() == (booked["answer"] is not None)
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert {Phase.BOOKED, Phase.ANSWER} <= phases
    for a in (Action(1, Verb.ASK, 2), Action(2, Verb.ANSWER, 1), Action(2, Verb.ANSWER, 0),
              Action(1, Verb.FOLD), Action(1, Verb.STAY)):
        assert enc.decode(action_id(a, Phase.FOLD, 0, False), a.seat, Phase.FOLD, 0) == a


@pytest.mark.parametrize(("preset", "options"), BOOKED)
def test_vector_env_equals_the_aec_env_with_booked(preset: str, options: dict[str, Any]
                                                   ) -> None:
    """The compiled environments play "booked?": every seat's observation and mask in
    its phases equal the AEC environment's, and the compiled basic stays and answers as
    BasicBot does."""
    m = play_side_by_side(preset, options, steps=120)
    assert {"booked", "answer"} <= m.phases
    assert FortiesVectorEnv(preset, options, tables=2, seed=1).rules.booked


@pytest.mark.parametrize(("preset", "options"),
                         [(p, {}) for p in PRESETS] + list(VARIANTS) + list(BOOKED))
def test_pettingzoo_render_test_passes(preset: str, options: dict[str, Any],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda **kw: aec_env(preset, options, **kw))
    assert "hand 1," in capsys.readouterr().out  # "human" prints the table


@pytest.mark.parametrize("preset", PRESETS)
def test_every_agent_sees_the_finished_hand_before_the_next_deal(preset: str) -> None:
    env = aec_env(preset, max_hands=3)
    env.reset(seed=2)
    seen: list[tuple[str, int]] = []
    for agent in env.agent_iter(5000):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert info["ended"] == "max_hands" or env.game.over
            env.step(None)
            continue
        if info:
            assert info["ended"] == "hand" and info["scores"] == env.game.scores
            assert env.game.hand_over and not env.game.over
            phase = env.encoder.layout.view(obs["observation"], "phase")
            assert phase[PHASES.index(Phase.HAND_OVER)] == 1
            assert np.flatnonzero(obs["action_mask"]).tolist() == [0]
            seat = env.seat_of(agent)
            assert reward == hand_rewards(env.game, env._before)[seat]
            seen.append((agent, info["hand"]))
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    hands = sorted({h for _, h in seen})
    assert hands == [1, 2] or env.game.over
    assert seen[:len(env.possible_agents)] == [(a, 1) for a in env.possible_agents]


def test_the_state_is_the_whole_table() -> None:
    env = aec_env("auction-45")
    env.reset(seed=4)
    st = env.game
    state = env.state()
    assert env.state_space.contains(state)
    size = env.encoder.layout.size
    for s in range(st.n):
        obs = state[s * size:(s + 1) * size]
        hand = np.flatnonzero(env.encoder.layout.view(obs, "hand"))
        assert sum(1 << int(c) for c in hand) == st.hands[s]
    rest = state[st.n * size:]
    assert sum(1 << int(c) for c in np.flatnonzero(rest[:52])) == st.kitty
    assert sorted(np.flatnonzero(rest[52:]).tolist()) == sorted(st.deal.stock)


@pytest.mark.parametrize("preset", PRESETS)
def test_observation_bounds_are_finite_and_hold_extreme_scores(preset: str) -> None:
    env = aec_env(preset)
    space = env.observation_space("player_0")["observation"]
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    env.reset(seed=1)
    env.game.scores = [-10_000 * (i % 2 * 2 - 1) for i in range(len(env.game.scores))]
    for agent in env.agents:
        assert space.contains(env.observe(agent)["observation"])
    venv = FortiesVectorEnv(preset, tables=2, seed=1)
    venv.reset(seed=1)
    x = len(env.game.scores)
    venv.game.S[:, vk.F_SCORES:vk.F_SCORES + x] = env.game.scores
    venv.game.S[:, vk.F_START:vk.F_START + x] = env.game.scores
    obs = venv._observation()
    assert venv.single_observation_space.contains(
        {"observation": obs["observation"][0], "action_mask": obs["action_mask"][0]})


def test_the_action_spaces_are_fixed_by_game() -> None:
    for preset in PRESETS[:4]:
        assert aec_env(preset).action_space("player_0").n == FF_ACTIONS == 648
    assert aec_env("forty-one").action_space("player_0").n == FO_ACTIONS == 65


def test_a_discard_id_is_the_mask_of_hand_slots() -> None:
    hand = mask_of_names(["2C", "9D", "5H", "AH", "KS"])
    cards = mask_of_names(["9D", "KS"])
    assert slot_mask(hand, cards) == 0b10010
    assert slot_cards(hand, 0b10010) == cards
    a = Action(0, Verb.DISCARD, cards)
    assert action_id(a, Phase.DRAW, hand, False) == DISCARD0 + 0b10010
    assert action_id(Action(0, Verb.DISCARD, hand), Phase.TRUMP, hand, False) == GO_ON
    assert action_id(Action(1, Verb.PLAY, 1 << 38), Phase.PLAY, hand, False) == CARD0 + 38
    enc = Encoder(build_rules("merrimack-valley"))
    assert enc.decode(DISCARD0 + 0b10010, 0, Phase.DRAW, hand) == a
    assert enc.decode(CARD0 + 38, 2, Phase.CALL, hand) == Action(2, Verb.CALL, 1 << 38)


def test_every_legal_action_has_its_own_id() -> None:
    """Over many positions of every preset, the legal actions map to distinct ids, and
    each id decodes back to its action."""
    for preset in PRESETS:
        env = aec_env(preset)
        env.reset(seed=3)
        enc = env.encoder
        for _ in range(400):
            st = env.game
            if st.turn is None:
                break
            seat = st.turn
            legal = list(st.legal_actions())
            if st.phase is not Phase.PACK:
                ids = [action_id(a, st.phase, st.hands[seat], enc.forty_one) for a in legal]
                assert len(set(ids)) == len(ids)
                for i, a in zip(ids, legal, strict=True):
                    assert enc.decode(i, seat, st.phase, st.hands[seat]) == a
            mask = env.legal_mask(seat)
            env.step(int(np.flatnonzero(mask)[random.Random(len(legal)).randrange(
                int(mask.sum()))]))
            if env.terminations[env.agent_selection]:
                break


def test_an_illegal_id_is_refused_in_one_line() -> None:
    env = aec_env("merrimack-valley")
    env.reset(seed=1)
    mask = env.legal_mask(env.game.turn or 0)
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ActionIdError, match="not legal"):
        env.step(bad)


def test_aec_misuse_is_said_in_one_line() -> None:
    """Stepping before reset() or after the end, and naming an agent that is not there,
    each get a one-line refusal that says what to do."""
    env = aec_env("forty-one", episode="hand")
    with pytest.raises(EpisodeError, match=r"^call reset\(\) first$"):
        env.step(0)
    with pytest.raises(EpisodeError, match=r"^call reset\(\) first$"):
        env.last()
    env.reset(seed=3)
    for call in (env.observe, env.observation_space, env.action_space):
        with pytest.raises(ValueError, match=r"^no agent 'player_9': player_0\.\.player_3$"):
            call("player_9")
    legal = int(np.flatnonzero(env.last()[0]["action_mask"])[0])
    for bad in (float(legal), legal + 0.5, str(legal), True, None):
        with pytest.raises(ActionIdError, match=r"is not an action id: a whole number, 0\.\.64$"):
            env.step(bad)  # type: ignore[arg-type]
    rng = np.random.default_rng(0)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.agents == []
    with pytest.raises(EpisodeError, match=r"^the episode is over: call reset\(\)$"):
        env.step(0)
    with pytest.raises(EpisodeError, match=r"^the episode is over: call reset\(\)$"):
        env.last()
    env.reset()
    assert env.agents and env.last()[2] is False  # and it plays on after a reset


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"reward": "points"}, "reward must be one of"),
    ({"episode": "match"}, "episode must be one of"),
    ({"max_hands": 0}, "max_hands"),
])
def test_bad_settings_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        aec_env("merrimack-valley", **kwargs)
    with pytest.raises(ValueError, match=message):
        FortiesVectorEnv("merrimack-valley", tables=2, **kwargs)


def test_vector_env_refuses_bad_players_and_ids() -> None:
    with pytest.raises(ValueError, match="not a player"):
        FortiesVectorEnv("merrimack-valley", tables=2, opponents="genius")
    with pytest.raises(ValueError, match="seat must be"):
        FortiesVectorEnv("merrimack-valley", tables=2, seat=4)
    env = FortiesVectorEnv("merrimack-valley", tables=2)
    obs, _ = env.reset(seed=1)
    bad = np.array([int(np.flatnonzero(m == 0)[0]) for m in obs["action_mask"]])
    with pytest.raises(ActionIdError, match="not legal"):
        env.step(bad)


def test_game_rewards_are_one_for_the_winners() -> None:
    env = aec_env("nova-scotia", reward="game")
    env.reset(seed=5)
    total = {a: 0.0 for a in env.agents}
    for agent in env.agent_iter(5000):
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    st = env.game
    assert st.over
    winners = {f"player_{s}" for s in st.sides[st.winner]}  # type: ignore[index]
    assert total == {a: 1.0 if a in winners else -1.0 for a in total}


# ----- the vector environment, side by side with GameState ----------------------------


class Mirror:
    """GameState copies of the vector environment's tables, checked at every decision."""

    def __init__(self, env: FortiesVectorEnv, rules: Rules) -> None:
        self.env = env
        self.rules = rules
        self.enc = Encoder(rules)
        self.states: list[GameState] = []
        self.picks = [0] * env.num_envs
        self.expected = np.zeros(env.num_envs)
        self.hand_start: list[list[int]] = []
        self.rng = random.Random(7)
        self.checked = 0
        self.basic_checked = 0
        self.phases: set[str] = set()

    def start(self) -> None:
        g = self.env.game
        self.states = [self._new_game(t) for t in range(self.env.num_envs)]
        self.hand_start = [list(st.scores) for st in self.states]
        del g

    def _new_game(self, t: int) -> GameState:
        g = self.env.game
        cls = game_class(self.rules)
        probe = object.__new__(cls)
        probe.n, probe.rules = self.rules.players, self.rules
        deal = cls.deal_from_deck(probe, [int(c) for c in g.D[t]])
        return cls(self.rules, seed=None, first_dealer=int(g.S[t, vk.F_FIRST_DEALER]),
                   deal=deal)

    def sync(self, t: int) -> None:
        st = self.states[t]
        if not st.hand_over:
            return
        if st.over or self.env.one_hand:
            self.states[t] = self._new_game(t)
        else:
            st.next_hand(st.deal_from_deck([int(c) for c in self.env.game.D[t]]))
        self.hand_start[t] = list(self.states[t].scores)

    def check_basic(self, t: int, seat: int) -> None:
        """The compiled basic chooses what BasicBot chooses here."""
        st = self.states[t]
        try:
            want = BasicBot().choose(st.view(seat), st.legal_actions())
        except (StopIteration, ValueError):  # BasicBot has no move here: nothing to compare
            return
        g = self.env.game
        verb, arg = kk.basic_choice(g.S, g.R, self.env.M, t, self.env.basic_target)
        assert Action(seat, VERBS[verb], int(arg)) == want, (st.phase, st.view(seat))
        self.basic_checked += 1

    def decide(self, t: int, seat: int, obs: np.ndarray, mask: np.ndarray) -> int:
        """Check table ``t``'s observation and mask for ``seat``; choose an id; play it on
        the copy as the environment will."""
        if self.env.M[t, kk.M_SEEING]:  # the learner sees the hand just ended, as in aec
            st = self.states[t]
            assert st.hand_over and seat == self.env.seat and not self.picks[t]
            np.testing.assert_array_equal(obs, self.enc.observe(st.view(seat), 0),
                                          err_msg=f"table {t}: the hand seen ended")
            assert np.flatnonzero(mask).tolist() == [0]
            assert self.env.action_of(t, 0) is None
            self.phases.add("hand-seen")
            return 0
        self.sync(t)
        st = self.states[t]
        assert st.turn == seat
        view = st.view(seat)
        want = self.enc.observe(view, self.picks[t])
        np.testing.assert_array_equal(obs, want, err_msg=f"table {t} {st.phase}")
        pile = getattr(st, "pile", 0)
        legal = st.legal_actions() if st.phase is not Phase.PACK else [Action(seat, Verb.PASS)]
        np.testing.assert_array_equal(mask, self.enc.mask(st.phase, legal, st.hands[seat],
                                                          pile, self.picks[t]))
        self.checked += 1
        self.phases.add(st.phase.value)
        if not self.picks[t]:
            self.check_basic(t, seat)
        ids = np.flatnonzero(mask)
        i = int(ids[self.rng.randrange(len(ids))])
        if st.phase is Phase.PACK and i >= PICK0 and i != ROB_PACK:
            self.picks[t] |= 1 << (i - PICK0)
            self.phases.add("pick")
            return i
        action = self.env.action_of(t, i)
        assert action is not None
        self.picks[t] = 0
        st.apply(action)
        if st.hand_over:
            learner = self.env.seat
            if self.env.game_reward:
                if st.over:
                    self.expected[t] += 1.0 if learner in winners(st) else -1.0
            else:
                self.expected[t] += hand_rewards(st, self.hand_start[t])[learner]
        return i


def winners(st: GameState) -> set[int]:
    from forties.envs.aec import winners_of

    return winners_of(st)


def play_side_by_side(preset: str, options: dict[str, Any], reward: str = "hand",
                      episode: str = "game", steps: int = 150, tables: int = 6) -> Mirror:
    rules = build_rules(preset, options)
    holder: dict[str, Mirror] = {}

    def policy_for(seat: int) -> Any:
        def policy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
            m = holder["m"]
            waiting = [int(t) for t in m.env.asking]
            assert all(m.env.game.S[t, vk.F_TURN] == seat for t in waiting)
            return np.array([m.decide(t, seat, obs[i], masks[i])
                             for i, t in enumerate(waiting)])
        return policy

    n = rules.players
    env = FortiesVectorEnv(rules, tables=tables, seat=1 % n, reward=reward, episode=episode,
                           opponents=[policy_for(s) for s in range(n)], seed=11)
    m = Mirror(env, rules)
    holder["m"] = m
    env._start(11)
    m.start()
    obs, _ = env.reset(seed=11)
    got = np.zeros(tables)
    for _ in range(steps):
        ids = np.array([m.decide(t, env.seat, obs["observation"][t], obs["action_mask"][t])
                        for t in range(tables)])
        obs, rew, *_ = env.step(ids)
        got += rew
    np.testing.assert_allclose(got, m.expected)
    return m


@pytest.mark.parametrize("preset", PRESETS)
def test_vector_observations_masks_and_rewards_equal_the_aec_envs(preset: str) -> None:
    m = play_side_by_side(preset, {})
    assert m.checked > 1000
    assert m.basic_checked > 1000
    assert {"play", "hand-seen"} < m.phases  # the finished hand too, as the AEC env shows it


@pytest.mark.parametrize("see", [True, False], ids=["see-hand-over", "deal-at-once"])
def test_vector_env_infos_say_what_ended_and_the_learner_sees_the_hand(see: bool) -> None:
    """info["ended"] names what ended on each table in the step; in a game that goes on
    the learner observes the finished hand (phase hand-over, only id 0 legal), and id 0
    deals the next hand (see_hand_over=False: the next hand at once)."""
    env = FortiesVectorEnv("merrimack-valley", {"target": 20}, tables=16, seed=3, max_hands=3,
                           see_hand_over=see)
    obs, _ = env.reset(seed=3)
    phase = env.encoder.layout.view(obs["observation"], "phase")
    hand_over = PHASES.index(Phase.HAND_OVER)
    rng = np.random.default_rng(1)
    seen: dict[str, int] = {"hand": 0, "game": 0, "max_hands": 0}
    waiting = np.zeros(16, dtype=bool)  # tables left at a finished hand
    for _ in range(600):
        ids = (rng.random(obs["action_mask"].shape) * obs["action_mask"]).argmax(axis=1)
        assert (ids[waiting] == 0).all()
        obs, _, term, trunc, info = env.step(ids)
        phase = env.encoder.layout.view(obs["observation"], "phase")
        ended, marked = info["ended"], info["_ended"]
        assert (marked == (ended != "")).all() and ((term | trunc) <= marked).all()
        assert set(ended[term]) <= {"game"} and set(ended[trunc]) == (
            {"max_hands"} if trunc.any() else set())
        mid = marked & ~(term | trunc)
        assert set(ended[mid]) <= {"hand"}
        waiting = phase[:, hand_over] == 1
        assert (waiting == (mid if see else False)).all()
        assert (obs["action_mask"][waiting].sum(axis=1) == 1).all()
        assert (obs["action_mask"][waiting, 0] == 1).all()
        for word in seen:
            seen[word] += int((ended == word).sum())
    assert all(seen.values()), seen


@pytest.mark.parametrize(("preset", "options"), VARIANTS)
def test_vector_env_equals_the_aec_env_with_house_rules(preset: str, options: dict[str, Any]
                                                        ) -> None:
    m = play_side_by_side(preset, options, steps=120)
    if options.get("dealer_robs_pack"):
        assert "pick" in m.phases and "rob-pack" in m.phases


@pytest.mark.parametrize("preset", ("auction-45", "forty-one"))
def test_vector_game_rewards_and_one_hand_episodes(preset: str) -> None:
    play_side_by_side(preset, {}, reward="game", steps=150)
    m = play_side_by_side(preset, {}, episode="hand", steps=80)
    assert m.expected.any()


def hide_and_shuffle(env: FortiesVectorEnv, t: int, rng: random.Random) -> None:
    """Change what the learner of table ``t`` cannot see: the others' cards (each keeps
    as many, face-up cards stay), the kitty unless it took it, the stock not yet dealt,
    the bonus card and the points it brings, the card given in robbing."""
    S, D, R = env.game.S, env.game.D, env.game.R
    me, n = env.seat, int(R[vk.R_N])
    faceup = int(S[t, vk.F_FACEUP])
    seats = [s for s in range(n) if s != me]
    pool: list[int] = []
    sizes = []
    for s in seats:
        hidden = int(S[t, vk.F_HANDS + s]) & ~faceup
        pool += [c for c in range(52) if hidden >> c & 1]
        sizes.append(hidden)
    rng.shuffle(pool)
    for s, hidden in zip(seats, sizes, strict=True):
        kept = int(S[t, vk.F_HANDS + s]) & ~hidden
        for _ in range(hidden.bit_count()):
            kept |= 1 << pool.pop()
        S[t, vk.F_HANDS + s] = kept
    if R[vk.R_GAME] == vk.G_FORTY_ONE:
        return
    seen_kitty = S[t, vk.F_BIDDER] == me and S[t, vk.F_KITTY_TAKEN]
    if not seen_kitty:
        S[t, vk.F_KITTY] = rng.getrandbits(52)
    start = int(R[vk.R_STOCK0] + S[t, vk.F_STOCK_POS])
    rest = [int(c) for c in D[t, start:]]
    rng.shuffle(rest)
    D[t, start:] = rest
    S[t, vk.F_BONUS] = rng.randrange(52)
    S[t, vk.F_ROB_GIVEN] = 1 << rng.randrange(52)
    if S[t, vk.F_PHASE] == vk.PLAY:
        S[t, vk.F_POINTS] += 5  # a bonus not yet known


@pytest.mark.parametrize(("preset", "options"),
                         [(p, {}) for p in PRESETS] + list(VARIANTS) + list(BOOKED[:1]))
def test_vector_observations_are_blind_to_hidden_cards(preset: str, options: dict[str, Any]
                                                       ) -> None:
    env = FortiesVectorEnv(preset, options, tables=64, seat=0)
    obs, _ = env.reset(seed=2)
    rng = random.Random(5)
    nrng = np.random.default_rng(5)
    compared = 0
    for _ in range(60):
        before = obs["observation"].copy()
        mask = obs["action_mask"].copy()
        saved = env.game.S.copy(), env.game.D.copy()
        for t in range(env.num_envs):
            hide_and_shuffle(env, t, rng)
        after = {"observation": np.zeros_like(before), "action_mask": np.zeros_like(mask)}
        kk.observe_all(env.game.S, env.game.R, env.M, env._all, env.seat, env.starts,
                       after["observation"], after["action_mask"])
        np.testing.assert_array_equal(after["observation"], before)
        compared += len(before)
        env.game.S[:], env.game.D[:] = saved
        ids = (nrng.random(mask.shape) * mask).argmax(axis=1)
        obs, *_ = env.step(ids)
    assert compared == 60 * 64


def test_hiding_test_would_see_a_leak() -> None:
    """The hidden-card test can fail: seat 1's observation, which holds seat 1's hand,
    changes when seat 0's hidden cards are shuffled."""
    env = FortiesVectorEnv("merrimack-valley", tables=16, seat=0)
    env.reset(seed=2)
    rng = random.Random(5)
    size = env.encoder.layout.size
    before = np.zeros((16, size), dtype=np.float32)
    after = np.zeros((16, size), dtype=np.float32)
    masks = np.zeros((16, env.encoder.actions), dtype=np.int8)
    kk.observe_all(env.game.S, env.game.R, env.M, env._all, 1, env.starts, before, masks)
    for t in range(16):
        hide_and_shuffle(env, t, rng)
    kk.observe_all(env.game.S, env.game.R, env.M, env._all, 1, env.starts, after, masks)
    assert (before != after).any(axis=1).all()


def test_vector_env_runs_with_gymnasium_batches() -> None:
    env = FortiesVectorEnv("forty-one", tables=8, opponents="random")
    obs, _ = env.reset(seed=4)
    assert env.observation_space.contains(obs)
    assert obs["observation"].shape == (8, env.encoder.layout.size)
    ids = np.array([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
    obs, rew, term, trunc, info = env.step(ids)
    assert rew.shape == term.shape == trunc.shape == (8,)
    assert info["_final_obs"].shape == (8,)


def test_vector_env_hands_out_fresh_arrays() -> None:
    """What reset() and step() return (and info["final_obs"]) stays as it was when the
    next step comes, as a replay buffer needs; copy=False hands out the env's own
    buffers, which the next step overwrites."""
    env = FortiesVectorEnv("forty-one", tables=8, seed=1, episode="hand")
    obs, _ = env.reset(seed=1)
    kept: list[tuple[dict[str, np.ndarray], dict[str, np.ndarray]]] = []
    finals = []
    for _ in range(70):  # past the end of a hand of Forty One, so final_obs is filled
        saved = {k: v.copy() for k, v in obs.items()}
        kept.append((obs, saved))
        obs, _, _, _, info = env.step(obs["action_mask"].argmax(axis=1))
        finals.append((info["final_obs"], info["final_obs"].copy()))
    for given, saved in kept:
        for k in saved:
            np.testing.assert_array_equal(given[k], saved[k])
    for given, saved in finals:
        np.testing.assert_array_equal(given, saved)
    assert any(f[1].any() for f in finals)
    fast = FortiesVectorEnv("forty-one", tables=8, seed=1, episode="hand", copy=False)
    first, _ = fast.reset(seed=1)
    before = first["observation"].copy()
    second, *_ = fast.step(first["action_mask"].argmax(axis=1))
    assert second["observation"] is first["observation"]
    assert not np.array_equal(first["observation"], before)


def chi_square(env: FortiesVectorEnv, masks: np.ndarray, draws: int,
               sample: Any) -> tuple[float, int]:
    """Pearson's statistic of ``draws`` calls of ``sample()`` against a uniform draw
    among each table's legal ids (summed over the tables), and its degrees of freedom."""
    counts = np.zeros(masks.shape, dtype=np.int64)
    rows = np.arange(masks.shape[0])
    for _ in range(draws):
        counts[rows, sample()] += 1
    stat, df = 0.0, 0
    for m, c in zip(masks, counts, strict=True):
        legal = np.flatnonzero(m)
        expected = draws / len(legal)
        stat += float(((c[legal] - expected) ** 2 / expected).sum())
        df += len(legal) - 1
    return stat, df


@pytest.mark.parametrize("preset", ["merrimack-valley", "forty-one"])
def test_sample_legal_draws_uniformly_among_the_legal_ids(preset: str) -> None:
    """env.sample_legal() gives only legal ids, uniformly among each table's legal ids
    (a chi-square test, fixed seed), the same draws after the same reset(seed), and
    steps the env on; the test would see a draw that favours an id."""
    env = FortiesVectorEnv(preset, tables=32, seed=5, episode="hand")
    obs, _ = env.reset(seed=5)
    rows = np.arange(32)
    for _ in range(40):  # only legal ids, through every stage of a hand
        ids = env.sample_legal()
        assert (obs["action_mask"][rows, ids] == 1).all()
        obs, *_ = env.step(ids)
    stat, df = chi_square(env, obs["action_mask"], 400, env.sample_legal)
    assert df > 20
    bound = df + 5 * np.sqrt(2 * df)  # chi-square's mean plus five standard deviations
    assert stat < bound, (stat, df)
    first = obs["action_mask"].argmax(axis=1)  # a biased draw: the first legal id, often
    rng = np.random.default_rng(1)

    def biased() -> np.ndarray:
        return np.where(rng.random(32) < 0.3, first, env.sample_legal())

    assert chi_square(env, obs["action_mask"], 400, biased)[0] > bound
    again = FortiesVectorEnv(preset, tables=32, episode="hand")
    env.reset(seed=9)
    again.reset(seed=9)
    np.testing.assert_array_equal(env.sample_legal(), again.sample_legal())
    with pytest.raises(ValueError, match="reset"):
        FortiesVectorEnv(preset, tables=2).sample_legal()


def deals(env: FortiesVectorEnv, seed: Any = None) -> np.ndarray:
    env.reset(seed=seed)
    return env.game.D.copy()


def test_vector_env_seeds_as_gymnasium_does() -> None:
    """reset() without a seed plays on to new deals; an int seed is reproducible (the
    constructor's is the first reset's); seed=None draws fresh deals for each env."""
    env = FortiesVectorEnv("forty-one", tables=4, seed=3)
    first, second = deals(env), deals(env)
    assert not np.array_equal(first, second)
    again = FortiesVectorEnv("forty-one", tables=4, seed=3)
    np.testing.assert_array_equal(deals(again), first)
    np.testing.assert_array_equal(deals(again), second)
    np.testing.assert_array_equal(deals(again, 3), first)
    np.testing.assert_array_equal(deals(again), second)
    a, b = FortiesVectorEnv("forty-one", tables=4), FortiesVectorEnv("forty-one", tables=4)
    assert not np.array_equal(deals(a), deals(b))


def test_vector_env_takes_a_seed_for_each_table() -> None:
    """With a list of seeds, table t is dealt and played as a one-table env seeded with
    the t-th seed would be, whatever the other tables' seeds."""
    env = FortiesVectorEnv("merrimack-valley", tables=3)
    obs, _ = env.reset(seed=[5, 6, 7])
    d = env.game.D.copy()
    for t, s in enumerate((5, 6, 7)):
        one = FortiesVectorEnv("merrimack-valley", tables=1)
        alone, _ = one.reset(seed=s)
        np.testing.assert_array_equal(one.game.D[0], d[t])
        np.testing.assert_array_equal(alone["observation"][0], obs["observation"][t])
    env.reset(seed=[9, 6, 8])
    np.testing.assert_array_equal(env.game.D[1], d[1])
    assert not np.array_equal(env.game.D[0], d[0])


@pytest.mark.parametrize(("seed", "message"), [
    (-1, r"^seed must be a whole number from 0, a list of one for each table, or None, "
         r"not -1$"),
    (1.5, "not 1.5$"),
    ("7", "not '7'$"),
    ([1, 2], r"^seed: a list of seeds has one for each of the 4 tables, not 2$"),
    ([1, -2, 3, 4], r"^seed: each table's seed must be a whole number from 0, not -2$"),
])
def test_vector_env_refuses_seeds_it_does_not_take(seed: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FortiesVectorEnv("forty-one", tables=4, seed=seed)
    env = FortiesVectorEnv("forty-one", tables=4, seed=1)
    with pytest.raises(ValueError, match=message):
        env.reset(seed=seed)


def test_vector_env_misuse_is_said_in_one_line() -> None:
    """A step before reset() (which would play the learner's ids for another seat), ids
    that are not whole numbers (floats are not truncated), ids out of range, None, and a
    table out of range in action_of are each refused in one line, where the mistake is."""
    env = FortiesVectorEnv("merrimack-valley", tables=4, seed=1)
    with pytest.raises(EpisodeError, match=r"^call reset\(\) first$"):
        env.step(np.zeros(4, dtype=np.int64))
    obs, _ = env.reset(seed=1)
    legal = obs["action_mask"].argmax(axis=1)
    whole = r": action ids are whole numbers, 0\.\.647, one a table$"
    for bad, what in ((legal + 0.9, "float64 values"), (legal > 0, "bool values"),
                      (None, "None"), ([10**30, *legal[1:]], "values that are not all "
                                                           "action ids")):
        with pytest.raises(ActionIdError, match="^the learner gave " + what + whole):
            env.step(bad)
    with pytest.raises(ActionIdError, match=r"^table 0: action id -1 from the learner is not "
                                            r"an action id, 0\.\.647$"):
        env.step([-1, *legal[1:]])
    for t in (-1, 4, 1.0):
        with pytest.raises(ValueError, match=rf"^no table {t}: tables 0\.\.3$"):
            env.action_of(t, 0)  # type: ignore[arg-type]
    with pytest.raises(ActionIdError, match=r"^action 0\.5 is not an action id"):
        env.action_of(0, 0.5)  # type: ignore[arg-type]
    obs, *_ = env.step(legal)  # nothing was lost: the tables play on
    assert obs["action_mask"].any(axis=1).all()

    def floats(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return masks.argmax(axis=1).astype(float)

    other = FortiesVectorEnv("merrimack-valley", tables=4, seed=1, opponents=floats)
    with pytest.raises(ActionIdError, match=r"^the policy of seat [123] gave float64 values"):
        other.reset(seed=1)
