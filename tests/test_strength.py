"""``python -m lab.strength``: many worker processes log the same results as
one, a log is completed with only the deals it lacks, and a match stopped (by
``--stop-after`` or Ctrl-C) keeps a log of whole lines."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from lab import strength

ROOT = Path(__file__).resolve().parents[1]
# the package and the repository root, where the lab is (it is not installed)
PATH = os.pathsep.join([str(ROOT / "src"), str(ROOT)])
MV = ["--preset", "merrimack-valley"]


def rows(log: Path) -> list[dict[str, float]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def by_n(log: Path) -> dict[int, float]:
    """The log's result for each deal number, checking that none is there twice."""
    ns = [int(r["n"]) for r in rows(log)]
    assert len(ns) == len(set(ns)), f"a deal logged twice: {sorted(ns)}"
    return {int(r["n"]): r["x"] for r in rows(log)}


@pytest.mark.parametrize("args", [["basic", "random", *MV, "--count", "6"],
                                  ["basic", "random", *MV, "--kind", "play", "--count", "6"],
                                  ["random", "basic", "--count", "6"]],
                         ids=["deal", "play", "forty-one"])
def test_two_workers_log_what_one_does(tmp_path: Path, args: list[str]) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    strength.main([*args, "--log", str(one)])
    strength.main([*args, "--jobs", "2", "--log", str(two)])
    assert sorted(by_n(one)) == list(range(6))
    assert by_n(two) == by_n(one)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_partial_log_is_completed_with_only_the_deals_it_lacks(tmp_path: Path,
                                                                 jobs: str) -> None:
    """Deals 4 and 1 (in that order) already logged, with results no player could reach:
    kept as they are, and only 0, 2, 3, 5 played, each once."""
    full, log = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    args = ["basic", "random", *MV, "--count", "6"]
    strength.main([*args, "--log", str(full)])
    log.write_text('{"n": 4, "x": 999.0, "s": 0}\n{"n": 1, "x": -999.0, "s": 0}\n')
    strength.main([*args, "--jobs", jobs, "--log", str(log)])
    expected = by_n(full) | {4: 999.0, 1: -999.0}
    assert by_n(log) == expected
    assert [r["n"] for r in rows(log)[:2]] == [4, 1]


def test_a_line_cut_short_is_left_out_and_played_again(tmp_path: Path) -> None:
    """A run killed in the middle of writing a line: the summary leaves the piece out, and
    the next run takes it off and plays that deal again."""
    full, log = tmp_path / "full.jsonl", tmp_path / "cut.jsonl"
    args = ["basic", "random", *MV, "--count", "3"]
    strength.main([*args, "--log", str(full)])
    log.write_text('{"n": 0, "x": 999.0, "s": 0}\n{"n": 1, "x"')
    assert "1 deals" in strength.summary(str(log), "deal")
    strength.main([*args, "--jobs", "2", "--log", str(log)])
    assert by_n(log) == by_n(full) | {0: 999.0}
    assert len(log.read_text().splitlines()) == 3


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_stop_after_ends_the_match_with_a_log_of_whole_lines(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str) -> None:
    """``--stop-after 0`` stops before the match is done, says so, and prints what the log
    holds; the next run plays the rest, so every deal is there once, as one run logs it."""
    full, log = tmp_path / "full.jsonl", tmp_path / "stopped.jsonl"
    args = ["basic", "random", *MV, "--count", "40"]
    strength.main([*args, "--jobs", jobs, "--stop-after", "0", "--log", str(log)])
    out, err = capsys.readouterr()
    assert "stopped after" in err and "left for the next run" in err
    assert "deals: points per hand" in out or not log.exists() or not rows(log)
    assert len(by_n(log) if log.exists() else {}) < 40
    strength.main([*args, "--jobs", jobs, "--log", str(log)])
    strength.main([*args, "--log", str(full)])
    assert by_n(log) == by_n(full)


@pytest.mark.parametrize(("args", "words"), [
    (["--jobs", "0"], "--jobs 0: at least 1 worker"),
    (["--jobs", "two"], "invalid int value: 'two'"),
    (["--preset", "nope"], "unknown preset 'nope'"),
    (["--kind", "play", "--auction", "nobody"], "unknown player 'nobody'"),
    (["--summary", "--share", "no-such.jsonl"], "--share no-such.jsonl: no such log"),
    (["--summary", "--over", "no-such.jsonl"], "--over no-such.jsonl: no such log"),
    (["--summary"], "m.jsonl: no such log"),
    (["--log", "other.jsonl"], "--log named 2 times: a match plays into one log"),
    (["--summary", "--share", "a.jsonl", "--share", "b.jsonl"],
     "--share named 2 times for 1 --log: once per log"),
])
def test_bad_arguments_get_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    args: list[str], words: str) -> None:
    log = tmp_path / "m.jsonl"
    with pytest.raises(SystemExit) as e:
        strength.main(["basic", "random", "--count", "2", *args, "--log", str(log)])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err
    assert not log.exists()


def run(args: list[str], **kw: object) -> subprocess.Popen[str]:
    env = os.environ | {"PYTHONPATH": PATH}
    return subprocess.Popen([sys.executable, "-m", "lab.strength", *args], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            **kw)  # type: ignore[call-overload]


def test_an_unknown_player_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    proc = run(["nobody", "basic", "--log", str(tmp_path / "m.jsonl")])
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert err.startswith("strength: error: unknown player 'nobody'; players: random,")
    assert err.count("\n") == 1


def test_ctrl_c_ends_the_workers_cleanly(tmp_path: Path) -> None:
    """Ctrl-C (to the whole process group, as a terminal sends it) once deals are being
    logged: no traceback from the parent or the workers, every line whole."""
    log = tmp_path / "m.jsonl"
    # Ctrl-C as a terminal's: the match starts with the default handling of SIGINT even
    # where this test runs in a background job, whose children inherit SIGINT ignored
    # (a Python started so never raises KeyboardInterrupt)
    proc = run(["basic", "basic", *MV, "--count", "1000000", "--jobs", "2", "--log", str(log)],
               start_new_session=True,
               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        while not (log.exists() and log.read_text().count("\n") >= 3):
            assert proc.poll() is None, proc.communicate()
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    assert "Traceback" not in err and err.startswith("interrupted: "), err
    assert "deals: points per hand" in out
    assert len(by_n(log)) >= 3
