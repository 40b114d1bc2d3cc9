"""``python -m bench.versus``: which benchmarks a tree has, which way a ratio points, and a
whole comparison of a tree with itself (the measurements replaced by counted stand-ins, so
that the test checks the rounds and the ratios, not the machine's speed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import versus


def test_a_tree_keeps_its_benchmarks_beside_the_package_or_inside_it(tmp_path: Path) -> None:
    assert versus.bench_module(versus.ROOT) == "bench"
    assert versus.bench_module(tmp_path) == "forties.bench"


def test_a_ratio_above_one_means_this_tree_is_faster() -> None:
    assert versus.speed_ratio(True, 200.0, 100.0) == 2.0  # twice the actions a second
    assert versus.speed_ratio(False, 0.5, 1.0) == 2.0  # half the time a deal


def test_each_round_measures_both_trees_and_swaps_their_order(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: list[Path] = []

    def measure(tree: Path) -> versus.Figures:
        seen.append(tree)
        return {"a second": (True, 30.0 if tree == versus.ROOT else 10.0),
                "a deal": (False, 1.0 if tree == versus.ROOT else 4.0)}

    monkeypatch.setitem(versus.MEASURES, "stand-in", measure)
    ratios = versus.compare(tmp_path, ["stand-in"], rounds=3)
    assert seen == [versus.ROOT, tmp_path, tmp_path, versus.ROOT, versus.ROOT, tmp_path]
    assert ratios == {"a second": [3.0, 3.0, 3.0], "a deal": [4.0, 4.0, 4.0]}


def test_an_unknown_measurement_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    assert versus.main(["HEAD", "--only", "engine,speed"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
