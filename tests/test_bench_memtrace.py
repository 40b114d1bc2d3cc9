"""The lab's tracer of a server's memory (``python -m bench.memtrace``): its comparison
names the line whose allocations grew, reads the samples beside it, and refuses a folder
without samples in one line."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from bench import memtrace

KEPT: list[bytes] = []


def _grow(n: int) -> None:
    KEPT.extend(bytes(1000) + bytes([i % 256]) for i in range(n))  # the line that grows


def test_the_comparison_names_the_line_that_grew(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    tracemalloc.start(4)
    try:
        for i in range(3):
            _grow(200 * i)
            tracemalloc.take_snapshot().dump(str(tmp_path / f"snapshot-{i:03d}.bin"))
            (tmp_path / "samples.jsonl").open("a").write(json.dumps(
                {"seconds": 60.0 * i, "traced_mb": 1.0 + i, "rss_mb": 50.0 + i,
                 "gc_objects": 1000 + i, "kinds": {"Task": 3, "dict": 100 + 50 * i}}) + "\n")
    finally:
        tracemalloc.stop()
        KEPT.clear()
    assert memtrace.main(["compare", str(tmp_path), "--top", "5"]) == 0
    out = capsys.readouterr().out
    by_line = out.split("by line:")[1].split("by traceback")[0]
    first = by_line.strip().splitlines()[0]
    assert "test_bench_memtrace.py" in first and "+" in first  # _grow's line, on top
    assert "dict +50" in out and "52.0" in out  # the objects by type, the last RSS


def test_a_folder_without_samples_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert memtrace.main(["compare", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("forties: no samples")
