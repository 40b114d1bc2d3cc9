"""The environments' benchmark runs, measures every row and reports its ratios."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import envs


def test_a_short_run_reports_every_row_and_ratio(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "envs.json"
    envs.main(["--seconds", "0.05", "--rounds", "1", "--tables", "8", "--json", str(out)])
    result = json.loads(out.read_text())
    rows = result["rows"]
    assert set(rows) == {f"vector {p} vs {o}{d}" for p in envs.PRESETS
                         for o in ("random", "basic") for d in ("", ", sample_legal")} \
        | {f"aec {p}" for p in envs.PRESETS} \
        | {f"rlcard {g}" for g in envs.RLCARD_GAMES}
    assert all(r["hands"] > 0 for r in rows.values())
    assert all(v > 0 for v in result["ratios"].values())
    text = capsys.readouterr().out
    assert "| rlcard bridge |" in text and "/ rlcard bridge [steps]" in text


@pytest.mark.parametrize("args", [["--seconds", "0"], ["--rounds", "0"], ["--tables", "0"]])
def test_bad_arguments_are_refused(args: list[str]) -> None:
    with pytest.raises(SystemExit) as e:
        envs.main(args)
    assert e.value.code == 2


def test_a_random_hand_length_is_plausible() -> None:
    assert 20 < envs.random_hand_length("merrimack-valley") < 40
    assert 50 < envs.random_hand_length("forty-one") <= 56  # 4 bids and 52 cards, or thrown in
