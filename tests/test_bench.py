"""The benchmark's loops count what they say, and its command runs (figures are for
``make bench``, not for tests)."""

from __future__ import annotations

import pytest

from forties.bench import __main__ as bench
from forties.bench.loops import forties_hands, vector_hands


@pytest.mark.parametrize("draw", ["float", "randrange"])
def test_vector_loop_counts_whole_hands(draw: str) -> None:
    hands, thrown, secs = vector_hands("merrimack-valley", 0.05, seed=3, draw=draw, tables=8)
    # 16-step batches on 8 tables; a hand is about 29 steps: at least one batch was played
    assert hands > 0 and 0 <= thrown <= hands and secs >= 0.05


def test_vector_loop_counts_thrown_in_hands() -> None:
    # Forty One throws in a hand whose bids total under min_total: random bids often do
    hands, thrown, _ = vector_hands("forty-one", 0.1, seed=1, tables=16)
    assert 0 < thrown < hands


def test_state_loop_counts_hands() -> None:
    hands, thrown, secs = forties_hands("nova-scotia", 0.02, seed=1)
    assert hands > 0 and thrown == 0 and secs >= 0.02


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
