"""The benchmark's loops count what they say, and its command runs (figures are for
``make bench``, not for tests).

The loops stop on a clock; here the clock is a counter that moves 0.01 s each time it is
read (once at the start, once a batch), so every run does the same work whatever the
machine's load, and its counts can be checked exactly.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from forties import build_rules
from forties.bench import __main__ as bench
from forties.bench import loops
from forties.bench.loops import BATCH, VECTOR_WARM_STEPS, forties_hands, vector_hands
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


def test_bench_command_prints_both_engines(capsys: pytest.CaptureFixture[str]) -> None:
    code = bench.main(["--games", "forty-one", "--rounds", "1", "--seconds", "0.02",
                       "--tables", "4"])
    out = capsys.readouterr().out
    assert code == 0
    rows = [line.split()[0:2] for line in out.splitlines() if line.startswith("forty-one")]
    assert ["forty-one", "[vector]"] in rows
    assert any(r[0] == "forty-one" and r[1][0].isdigit() for r in rows)


def test_bench_command_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--games", "no-such-game", "--rounds", "1"]) == 2
    assert "unknown" in capsys.readouterr().err
    assert bench.main(["--games", "forty-one", "--tables", "0"]) == 2
    assert "--tables" in capsys.readouterr().err
