"""The timed loops: random full hands through forties' public API, and OpenSpiel episodes
through ``pyspiel``, played the same way.

Every decision, a player's or chance's, is a uniform choice among the legal actions,
drawn the same way on both sides: by default ``legal[int(random() * len(legal))]``, the
cheapest draw, so that the figures measure the engines more than the random module; with
``draw="randrange"``, ``legal[randrange(len(legal))]`` as ``random.choice`` draws. Time
is the process's CPU time, so other work on the machine slows the figures less; the
loops run on one core (no threads, no processes).
"""

from __future__ import annotations

import importlib
import json
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from forties import GameState, build_rules, new_game
from forties.state import shuffled_deck

# A rate is measured over whole batches of hands; the clock is read once a batch.
BATCH = 16
DRAWS = ("float", "randrange")
CHANCES = ("legal", "outcomes")

clock: Callable[[], float] = time.process_time


def forties_hands(preset: str, seconds: float, seed: int,
                  draw: str = "float") -> tuple[int, int, float]:
    """Random hands of ``preset`` for about ``seconds`` of CPU time.

    A hand is everything from its deal (``next_hand``, or a new game once one is over)
    to its score. Returns (hands, hands thrown in, seconds).
    """
    rules = build_rules(preset)
    rng = random.Random(seed)
    rnd, randrange, fast = rng.random, rng.randrange, draw == "float"
    game_seed = seed * 1_000_000
    state = new_game(rules, seed=game_seed)
    hands = thrown_in = 0
    start = clock()
    stop = start + seconds
    while True:
        for _ in range(BATCH):
            if fast:
                while not state.hand_over:
                    legal = state.legal_actions()
                    state.apply(legal[int(rnd() * len(legal))])
            else:
                while not state.hand_over:
                    legal = state.legal_actions()
                    state.apply(legal[randrange(len(legal))])
            thrown_in += state.thrown_in
            if state.over:
                game_seed += 1
                state = new_game(rules, seed=game_seed)
            else:
                state.next_hand()
        hands += BATCH
        now = clock()
        if now >= stop:
            return hands, thrown_in, now - start


VECTOR_TABLES = 256
# Steps played before the clock starts, so that the tables are at every stage of a hand
# and hands end at their steady rate.
VECTOR_WARM_STEPS = 200


def vector_hands(preset: str, seconds: float, seed: int, draw: str = "float",
                 tables: int = VECTOR_TABLES) -> tuple[int, int, float]:
    """Random hands of ``preset`` on the compiled engine, ``forties.vector``.

    ``tables`` games go on at once. At each step the loop, in Python, reads every
    table's count of legal actions and draws each table's action as ``int(random() *
    n)`` (numpy's generator; with ``draw="randrange"``, ``integers(n)``), and the engine
    applies them all; a table whose hand ends is dealt the next one (a new game once the
    game is over) by the engine. Returns (hands, hands thrown in, seconds).
    """
    from forties.vector import VectorGame

    env = VectorGame(build_rules(preset), tables, seed=seed)
    rng = np.random.default_rng(seed)
    rnd, integers, fast = rng.random, rng.integers, draw == "float"
    legal_counts, step = env.legal_counts, env.step

    def one_step() -> None:
        n = legal_counts()
        step((rnd(tables) * n).astype(np.int64) if fast else integers(n))

    for _ in range(VECTOR_WARM_STEPS):
        one_step()
    hands0, thrown0 = env.hands_played, env.hands_thrown_in
    start = clock()
    stop = start + seconds
    while True:
        for _ in range(BATCH):
            one_step()
        now = clock()
        if now >= stop:
            return (env.hands_played - hands0, env.hands_thrown_in - thrown0, now - start)


# Steps per call of play_random in compiled_hands: about 70 Merrimack Valley hands.
COMPILED_STEPS = 2048


def compiled_hands(preset: str, seconds: float, seed: int,
                   tables: int = 1) -> tuple[int, int, float]:
    """Random hands of ``preset`` played entirely in compiled code: ``VectorGame.play_random``
    draws every action with each table's own generator and deals on, with no Python
    between the steps (the counterpart of OpenSpiel's C++ random play, ``cpp_hands``).
    One table by default: one game at a time, as OpenSpiel plays one. Returns (hands,
    hands thrown in, seconds)."""
    from forties.vector import VectorGame

    env = VectorGame(build_rules(preset), tables, seed=seed)
    env.play_random(VECTOR_WARM_STEPS)
    hands0, thrown0 = env.hands_played, env.hands_thrown_in
    steps = max(1, COMPILED_STEPS // tables)
    start = clock()
    stop = start + seconds
    while True:
        env.play_random(steps)
        now = clock()
        if now >= stop:
            return (env.hands_played - hands0, env.hands_thrown_in - thrown0, now - start)


def compiled_steps_per_hand(preset: str, steps: int = 20_000, seed: int = 1) -> float:
    """The mean number of actions in a random hand of ``preset`` on the compiled engine (its
    deal is no action: the engine shuffles and deals inside one step). ``play_random`` on
    one table applies one action a round, and deals the next hand in the round that ends
    one, so that ``steps`` rounds are ``steps`` actions."""
    from forties.vector import VectorGame

    env = VectorGame(build_rules(preset), 1, seed=seed)
    env.play_random(VECTOR_WARM_STEPS)
    hands0 = env.hands_played
    env.play_random(steps)
    return steps / max(1, env.hands_played - hands0)


def load_pyspiel() -> Any | None:
    """The ``pyspiel`` module (open_spiel, ``pip install -e '.[bench]'``), or None."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        return None


def spiel_episode(rng: random.Random, draw: str, chance: str) -> Callable[[Any], None]:
    """A function that plays an OpenSpiel state to its end at random.

    With ``chance="legal"`` every node, chance or not, draws among ``legal_actions()``
    (at a chance node, its outcomes): the fewest calls into OpenSpiel. With
    ``chance="outcomes"`` a chance node draws among ``chance_outcomes()`` instead, as a
    loop written from OpenSpiel's documentation does.
    """
    rnd, randrange = rng.random, rng.randrange

    def legal_float(state: Any) -> None:
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rnd() * len(legal))])

    def legal_randrange(state: Any) -> None:
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[randrange(len(legal))])

    def outcomes_float(state: Any) -> None:
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rnd() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rnd() * len(legal))])

    def outcomes_randrange(state: Any) -> None:
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[randrange(len(legal))])

    return {("float", "legal"): legal_float, ("randrange", "legal"): legal_randrange,
            ("float", "outcomes"): outcomes_float,
            ("randrange", "outcomes"): outcomes_randrange}[draw, chance]


def spiel_hands(pyspiel: Any, name: str, seconds: float, seed: int, draw: str = "float",
                chance: str = "legal") -> tuple[int, int, float]:
    """Random episodes of OpenSpiel's ``name`` for about ``seconds`` of CPU time.

    One episode is one hand, the deal included; chance outcomes are drawn uniformly, like a
    player's action (see ``spiel_episode``). Returns (episodes, 0, seconds).
    """
    game = pyspiel.load_game(name)
    play = spiel_episode(random.Random(seed), draw, chance)
    hands = 0
    start = clock()
    stop = start + seconds
    while True:
        for _ in range(BATCH):
            play(game.new_initial_state())
        hands += BATCH
        now = clock()
        if now >= stop:
            return hands, 0, now - start


def cpp_hands(pyspiel: Any, name: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """Random episodes of OpenSpiel's ``name`` played entirely in C++: one call of
    ``pyspiel.evaluate_bots`` an episode, with OpenSpiel's uniform random bots
    (``make_uniform_random_bot``); chance is sampled in C++ too, from the seed given to
    each call. Returns (episodes, 0, seconds)."""
    game = pyspiel.load_game(name)
    bots = [pyspiel.make_uniform_random_bot(p, seed * 1_000 + p)
            for p in range(game.num_players())]
    evaluate, new_state = pyspiel.evaluate_bots, game.new_initial_state
    episode = seed * 1_000_000
    start = clock()
    stop = start + seconds
    while True:
        for _ in range(BATCH):
            evaluate(new_state(), bots, episode)
            episode += 1
        now = clock()
        if now >= stop:
            return episode - seed * 1_000_000, 0, now - start


def spiel_steps_per_episode(pyspiel: Any, name: str, episodes: int = 2_000,
                            seed: int = 1) -> tuple[float, float]:
    """The mean numbers of chance nodes and of players' decisions in a random episode of
    OpenSpiel's ``name`` (played as ``spiel_episode`` plays it): (chance, decisions)."""
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    chance = decisions = 0
    for _ in range(episodes):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                chance += 1
            else:
                decisions += 1
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
    return chance / episodes, decisions / episodes


def check_spiel_chance(pyspiel: Any, name: str, seed: int = 1) -> None:
    """Raise AssertionError unless, in a sample episode of ``name``, every chance node's
    legal actions are its chance outcomes, each equally likely (so drawing among the
    legal actions samples chance exactly)."""
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        legal = state.legal_actions()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sorted(legal) == sorted(a for a, _ in outcomes), name
            probs = {round(p, 12) for _, p in outcomes}
            assert len(probs) == 1, f"{name}: chance outcomes are not equally likely"
        state.apply_action(rng.choice(legal))


def check_seeded_deals(games: int = 200, hands: int = 5) -> int:
    """Raise AssertionError unless the engine's fast shuffle deals what
    ``random.Random(seed * 1_000_003 + hand).shuffle`` deals; returns the decks compared."""
    for seed in range(-games // 2, games - games // 2):
        for hand in range(hands):
            deck = list(range(52))
            random.Random(seed * 1_000_003 + hand).shuffle(deck)
            assert shuffled_deck(seed, hand) == deck, (seed, hand)
    return games * hands


def mid_game_state(preset: str, seed: int = 7) -> GameState:
    """A game of ``preset`` in its third hand, half way through the tricks."""
    rules = build_rules(preset)
    rng = random.Random(seed)
    game_seed = seed
    while True:
        state = new_game(rules, seed=game_seed)
        while not state.over:
            while not state.hand_over:
                if state.hand_index >= 2 and 2 * len(state.tricks) >= state.hand_size:
                    return state
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            if not state.over:
                state.next_hand()
        game_seed += 1  # that game ended too soon: try the next seed


def state_bytes(state: GameState) -> int:
    """The size of ``state.to_json()`` as compact JSON (UTF-8 bytes)."""
    return len(json.dumps(state.to_json(), separators=(",", ":")).encode())
