"""The soak benchmark (``python -m bench.soak``) runs: a few tables for a few seconds,
their games ending and new ones starting, the server's memory sampled; and its bounds
refuse in one line. (The long run and its figures are in docs/benchmarks.md.)"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench import soak

ROOT = Path(__file__).resolve().parents[1]


def test_a_short_soak_samples_the_memory_while_games_end_and_start(tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    # its server through the lab's sampler (bench.memtrace), untraced, each second
    env = {**os.environ, "FORTIES_MEMTRACE_FRAMES": "0", "FORTIES_MEMTRACE_EVERY": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "bench.soak", "--tables", "3", "--minutes", "0.2",
         "--think", "0", "--sample", "1", "--warmup", "0", "--target", "5",
         "--json", str(out), "--trace", str(tmp_path / "trace")], cwd=ROOT,
        capture_output=True, text=True, timeout=180, check=False, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(out.read_text())
    assert json.loads(done.stdout.splitlines()[-1]) == \
        {k: v for k, v in result.items() if k != "samples"}
    assert "RSS MB" in done.stdout
    samples = result["samples"]
    assert len(samples) >= 3 and all(s["rss_mb"] > 0 for s in samples)
    assert result["games_ended"] >= 1 and result["games_started"] > 3
    assert result["moves"] > 0 and result["errors"] == 0 and not result["failures"]
    assert result["slope_mb_per_minute"] is not None and result["bytes_per_move"] is not None
    assert all(s["anon_mb"] > 0 and s["load"] >= 0 for s in samples)
    assert len(result["load_average"]) == 3
    inside = [json.loads(x) for x in (tmp_path / "trace" / "samples.jsonl").read_text()
              .splitlines()]
    assert len(inside) >= 2 and inside[0]["traced_mb"] is None
    assert all(s["rss_mb"] > 0 and s["malloc_used_mb"] > 0 and s["sqlite_mb"] >= 0
               and s["py_blocks"] > 0 for s in inside)


@pytest.mark.parametrize("args, says", [
    (["--tables", "0"], "--tables"),
    (["--tables", "5000"], "--tables"),
    (["--minutes", "0"], "--minutes"),
    (["--think", "-1"], "--think"),
    (["--sample", "0"], "--sample"),
    (["--minutes", "1", "--warmup", "2"], "--warmup"),
    (["--target", "1"], "--target"),
])
def test_the_soak_refuses_out_of_bounds_in_one_line(args: list[str], says: str,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    assert soak.main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("forties: ") and says in err


def test_the_slope_is_least_squares() -> None:
    assert soak.slope([(0, 1.0), (1, 3.0), (2, 5.0)]) == pytest.approx(2.0)
    assert soak.slope([(0, 1.0)]) is None


def test_the_slope_interval_holds_the_true_slope_of_noisy_samples() -> None:
    import random

    rng = random.Random(1)
    rising = [(i / 6, 100 + 0.5 * i / 6 + rng.gauss(0, 0.3)) for i in range(360)]
    lo, hi = soak.slope_interval(rising) or (0.0, 0.0)
    assert lo < 0.5 < hi and hi - lo < 0.05
    flat = [(i / 6, 100 + rng.gauss(0, 0.3)) for i in range(360)]
    lo, hi = soak.slope_interval(flat) or (1.0, 1.0)
    assert lo < 0 < hi
    # neighbouring samples are not independent: a slow swing widens the interval
    swing = [(i / 6, 100 + 2 * math.sin(i / 40)) for i in range(360)]
    lo, hi = soak.slope_interval(swing) or (0.0, 0.0)
    assert hi - lo > 0.05
    assert soak.slope_interval(rising[:11]) is None
