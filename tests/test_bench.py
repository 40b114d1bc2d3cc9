"""The benchmark's loops count what they say, and its command runs (figures are for
``make bench``, not for tests).

The loops stop on a clock; here the clock is a counter that moves 0.01 s each time it is
read (once at the start, once a batch), so every run does the same work whatever the
machine's load, and its counts can be checked exactly.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pytest

from bench import __main__ as bench
from bench import loops
from bench.loops import (
    BATCH,
    COMPILED_STEPS,
    VECTOR_WARM_STEPS,
    compiled_hands,
    compiled_steps_per_hand,
    cpp_hands,
    forties_hands,
    spiel_steps_per_episode,
    vector_hands,
)
from forties import build_rules
from forties.vector import VectorGame


@pytest.fixture
def ticks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The loops' clock reads 0.00, 0.01, 0.02...: ``seconds=0.01 * k`` is k batches."""
    counter = itertools.count()
    monkeypatch.setattr(loops, "clock", lambda: next(counter) / 100)


def hands_after(preset: str, tables: int, seed: int, steps: int) -> tuple[int, int]:
    """(hands, thrown in) finished in ``steps`` steps after the warm-up, played again here
    as the loop plays them: the same generator, the same draws."""
    env = VectorGame(build_rules(preset), tables, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(VECTOR_WARM_STEPS):
        env.step((rng.random(tables) * env.legal_counts()).astype(np.int64))
    hands0, thrown0 = env.hands_played, env.hands_thrown_in
    for _ in range(steps):
        env.step((rng.random(tables) * env.legal_counts()).astype(np.int64))
    return env.hands_played - hands0, env.hands_thrown_in - thrown0


@pytest.mark.usefixtures("ticks")
def test_vector_loop_counts_whole_hands() -> None:
    hands, thrown, secs = vector_hands("merrimack-valley", 0.05, seed=3, tables=8)
    assert secs == pytest.approx(0.05)  # five batches
    assert (hands, thrown) == hands_after("merrimack-valley", 8, 3, 5 * BATCH)
    assert hands > 0  # 8 tables, 80 steps, about 29 steps a hand


@pytest.mark.usefixtures("ticks")
def test_vector_loop_draws_by_randrange() -> None:
    hands, thrown, _ = vector_hands("merrimack-valley", 0.05, seed=3, draw="randrange",
                                    tables=8)
    assert hands > 0 and thrown == 0


@pytest.mark.usefixtures("ticks")
def test_vector_loop_counts_thrown_in_hands() -> None:
    # Forty One throws in a hand whose bids total under min_total: random bids sometimes do
    hands, thrown, _ = vector_hands("forty-one", 0.4, seed=1, tables=64)
    assert (hands, thrown) == hands_after("forty-one", 64, 1, 40 * BATCH)
    assert 0 < thrown < hands


@pytest.mark.usefixtures("ticks")
def test_state_loop_counts_hands() -> None:
    hands, thrown, secs = forties_hands("nova-scotia", 0.02, seed=1)
    assert (hands, thrown) == (2 * BATCH, 0) and secs == pytest.approx(0.02)
    hands, thrown, _ = forties_hands("forty-one", 0.3, seed=1)
    assert hands == 30 * BATCH and 0 < thrown < hands


@pytest.mark.usefixtures("ticks")
def test_compiled_loop_counts_hands_played_in_compiled_code() -> None:
    hands, thrown, secs = compiled_hands("forty-one", 0.03, seed=2)
    env = VectorGame(build_rules("forty-one"), 1, seed=2)
    env.play_random(VECTOR_WARM_STEPS)
    hands0, thrown0 = env.hands_played, env.hands_thrown_in
    env.play_random(3 * COMPILED_STEPS)  # three calls, one table
    assert (hands, thrown) == (env.hands_played - hands0, env.hands_thrown_in - thrown0)
    assert hands > 0 and secs == pytest.approx(0.03)


class FakeSpiel:
    """Stands in for pyspiel: records the calls the C++ loop makes."""

    def __init__(self) -> None:
        self.seeds: list[int] = []
        self.bots: list[tuple[int, int]] = []

    def load_game(self, name: str) -> FakeSpiel:
        assert name == "euchre"
        return self

    def num_players(self) -> int:
        return 4

    def new_initial_state(self) -> str:
        return "state"

    def make_uniform_random_bot(self, player: int, seed: int) -> tuple[int, int]:
        self.bots.append((player, seed))
        return player, seed

    def evaluate_bots(self, state: str, bots: list[tuple[int, int]], seed: int) -> list[float]:
        assert state == "state" and bots == self.bots
        self.seeds.append(seed)
        return [0.0] * 4


@pytest.mark.usefixtures("ticks")
def test_cpp_loop_plays_one_episode_a_call_each_with_its_own_seed() -> None:
    spiel = FakeSpiel()
    episodes, thrown, _ = cpp_hands(spiel, "euchre", 0.02, seed=5)
    assert (episodes, thrown) == (2 * BATCH, 0) == (len(spiel.seeds), 0)
    assert len(set(spiel.seeds)) == len(spiel.seeds)  # a fresh deal every episode
    assert [p for p, _ in spiel.bots] == [0, 1, 2, 3]


class StepSpiel:
    """Stands in for pyspiel: episodes of 3 chance nodes then 2 decisions."""

    def load_game(self, name: str) -> StepSpiel:
        return self

    def new_initial_state(self) -> StepSpiel:
        self.moves = 0
        return self

    def is_terminal(self) -> bool:
        return self.moves == 5

    def is_chance_node(self) -> bool:
        return self.moves < 3

    def legal_actions(self) -> list[int]:
        return [0, 1]

    def apply_action(self, action: int) -> None:
        self.moves += 1


def test_steps_a_hand_count_each_side_s_steps() -> None:
    assert spiel_steps_per_episode(StepSpiel(), "euchre", episodes=7) == (3.0, 2.0)
    # Forty One: 4 bids and 52 cards, or the 4 bids alone when the hand is thrown in.
    per_hand = compiled_steps_per_hand("forty-one", steps=3_000)
    assert 40 < per_hand < 56
    assert 20 < compiled_steps_per_hand("merrimack-valley", steps=3_000) < 40


def test_per_step_ratio_is_the_hand_ratio_times_the_steps_a_hand(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(bench, "compiled_steps_per_hand", lambda preset: 29.0)
    monkeypatch.setattr(bench, "spiel_steps_per_episode", lambda spiel, name: (22.0, 21.5))
    key = "merrimack-valley [compiled] / euchre [C++]"
    ratios = {key: 6.0}
    rates = {"merrimack-valley [compiled]": [300_000.0], "euchre [C++]": [50_000.0]}
    steps = bench.per_step(object(), rates, ratios)
    assert ratios[f"{key} per step"] == pytest.approx(6.0 * 29 / 43.5)
    assert ratios[f"{key} per decision"] == pytest.approx(6.0 * 29 / 21.5)
    assert steps["euchre [C++]"] == {"chance": 22.0, "decisions": 21.5}
    out = capsys.readouterr().out
    assert f"{key} per step: 4.00 (target 2: met)" in out
    assert "8.7 million steps a second" in out and "2.2 million" in out


def test_bench_command_prints_both_engines(capsys: pytest.CaptureFixture[str]) -> None:
    code = bench.main(["--games", "forty-one", "--rounds", "1", "--seconds", "0.02",
                       "--tables", "4"])
    out = capsys.readouterr().out
    assert code == 0
    rows = {line.split("  ")[0].strip() for line in out.splitlines()
            if line.startswith("forty-one") and " / " not in line}
    assert {"forty-one", "forty-one [vector]", "forty-one [vector 1]",
            "forty-one [compiled]"} <= rows


def test_bench_command_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--games", "no-such-game", "--rounds", "1"]) == 2
    assert "unknown" in capsys.readouterr().err
    assert bench.main(["--games", "forty-one", "--tables", "0"]) == 2
    assert "--tables" in capsys.readouterr().err


def test_readme_speed_figures_are_those_of_the_benchmarks_page() -> None:
    """Every ratio in the README's summary is one that docs/benchmarks.md records."""
    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    summary = readme.split("## Speed\n", 1)[1].split("\n## ", 1)[0]
    figures = re.findall(r"\| (\d+\.\d\d) \| (\d+\.\d\d) \|", summary)
    page = (root / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    recorded = set(re.findall(r"\b\d+\.\d\d\b", page))
    assert len(figures) == 4
    assert {x for row in figures for x in row} <= recorded
    dates = re.findall(r"\d{4}-\d\d-\d\d", summary)
    assert dates and all(d in page for d in dates)  # the run the figures come from


def test_gamecost_fingerprints_every_decision(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The same games give the same digest; other players, another game or other
    decisions give another; it counts every action of the arena's games."""
    from forties.bots.basic import BasicBot
    from lab import gamecost

    one = gamecost.game_cost("merrimack-valley", "basic", "random", [0])
    assert one.digest == gamecost.game_cost("merrimack-valley", "basic", "random", [0]).digest
    assert one.digest != gamecost.game_cost("merrimack-valley", "random", "basic", [0]).digest
    assert one.digest != gamecost.game_cost("merrimack-valley", "basic", "random", [1]).digest
    two = gamecost.game_cost("merrimack-valley", "basic", "random", [0, 1])
    assert two.actions > one.actions > 100
    assert gamecost.main(["basic", "random", "--preset", "merrimack-valley", "--games",
                          "0"]) == 0
    assert f"{one.actions} actions, digest {one.digest}" in capsys.readouterr().out
    monkeypatch.setattr(BasicBot, "choose", lambda self, view, legal: legal[0])
    assert one.digest != gamecost.game_cost("merrimack-valley", "basic", "random", [0]).digest


@pytest.mark.parametrize(("args", "says"), [
    (["basic", "rand"], "no player 'rand'"),
    (["basic", "random", "--games", "1,x"], "--games takes game numbers"),
    (["basic", "random", "--games=-1,2"], "--games takes game numbers"),
    (["basic", "random", "--preset", "forty-two"], "unknown preset 'forty-two'"),
])
def test_gamecost_refuses_bad_input(args: list[str], says: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    from lab import gamecost

    assert gamecost.main(args) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1
