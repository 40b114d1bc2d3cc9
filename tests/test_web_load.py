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


def test_the_load_tool_plays_through_caddy_over_https() -> None:
    """``--via-caddy``: the shipped Caddyfile in front (tests/caddy.py), the clients on
    https and wss trusting Caddy's own CA."""
    res = subprocess.run([sys.executable, "-m", "bench.tables", "--tables", "3",
                          "--seconds", "2", "--via-caddy", "--json"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300, check=False)
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads(res.stdout)
    assert out["via"] == "caddy (https, wss)" and out["clients"] == 12
    assert out["actions"] > 0 and out["errors"] == 0 and out["reconnections"] == 0
    assert out["caddy_cpu_ms_per_action"] > 0


def test_the_load_tool_starts_its_own_server_behind_caddy() -> None:
    res = subprocess.run([sys.executable, "-m", "bench.tables", "--url", "http://127.0.0.1:9",
                          "--via-caddy"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, check=False)
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1
