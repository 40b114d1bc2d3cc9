"""The one-process load tool (``make loadtest-tables``) on a few tables for a few
seconds: it starts the server, plays, reports its figures and leaves nothing running."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # where the benchmarks are (not installed)


def test_the_load_tool_plays_five_tables_and_reports() -> None:
    res = subprocess.run([sys.executable, "-m", "bench.tables", "--tables", "5",
                          "--seconds", "3", "--json"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300, check=False)
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads(res.stdout)
    assert out["tables"] == 5 and out["clients"] == 20
    assert out["actions"] > 0 and out["actions_per_second"] > 0
    assert 0 < out["p50_ms"] <= out["p99_ms"]
    assert out["errors"] == 0 and out["reconnections"] == 0
    assert out["server_rss_per_table_kib"] is not None
    assert out["server_cpu_ms_per_action"] > 0 and out["clients_cpu_ms_per_action"] > 0


def test_the_load_tool_refuses_bad_sizes_in_one_line() -> None:
    res = subprocess.run([sys.executable, "-m", "bench.tables", "--tables", "0"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1


def test_the_load_tool_measures_a_running_server_only_with_its_address() -> None:
    res = subprocess.run([sys.executable, "-m", "bench.tables", "--pid", "1"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1
    assert "--url" in res.stderr


def test_the_load_tool_starts_its_own_server_behind_caddy() -> None:
    res = subprocess.run([sys.executable, "-m", "bench.tables", "--url", "http://127.0.0.1:9",
                          "--via-caddy"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, check=False)
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1


def test_the_load_tool_compares_direct_and_caddy_in_rounds_of_both_orders() -> None:
    """``--compare-caddy --rounds 2``: direct then through Caddy (the shipped Caddyfile in
    front, tests/caddy.py; the clients on https and wss trusting Caddy's own CA), then the
    other way round, each pair with its ratios."""
    res = subprocess.run([sys.executable, "-m", "bench.tables", "--tables", "1",
                          "--seconds", "1", "--think", "0.2", "--compare-caddy", "--rounds", "2",
                          "--json"], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         check=False)
    assert res.returncode == 0, res.stderr[-2000:]
    rounds = json.loads(res.stdout)["rounds"]
    assert len(rounds) == 2
    for r in rounds:
        assert r["direct"]["via"] == "direct (http, ws)"
        assert r["caddy"]["via"] == "caddy (https, wss)"
        for run in (r["direct"], r["caddy"]):
            assert run["actions"] > 0 and run["errors"] == 0 and run["reconnections"] == 0
        assert r["caddy"]["caddy_cpu_ms_per_action"] is not None  # (0.0: under a tick)
        assert r["direct"]["caddy_cpu_ms_per_action"] is None
        assert set(r["ratios (caddy / direct)"]) == {
            "actions_per_second", "p50_ms", "p99_ms", "server_cpu_ms_per_action"}
