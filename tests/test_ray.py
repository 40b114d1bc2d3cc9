"""Ray: a match and an evening played on a Ray cluster are the ones played on one machine,
figure for figure; without --ray, Ray is never imported.

One local cluster (two CPUs, loopback only) is started for the whole module, the way
``--ray`` without an address starts one; the commands run in this process join it, and one
run as its own process joins it by its address."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from forties import build_rules
from forties.arena import run_match
from forties.cli import main as cli_main
from forties.cluster import ClusterError, RayPool

from .helpers_engine import run_forties


@pytest.fixture(scope="module")
def cluster() -> Iterator[RayPool]:
    pool = RayPool(None, cpus=2)  # what `--ray` alone starts
    try:
        yield pool
    finally:
        pool.close()


def forties(*args: str) -> Any:
    """``forties ARGS`` run in this process (so that it joins the module's cluster)."""
    return CliRunner().invoke(cli_main, list(args), catch_exceptions=False)


def steady(match: dict[str, Any]) -> dict[str, Any]:
    """A match's JSON without its time."""
    return {k: v for k, v in match.items() if k != "seconds"}


def test_local_cluster_is_bounded_and_on_loopback(cluster: RayPool) -> None:
    import ray

    assert cluster.started and cluster.cpus == 2
    assert ray.cluster_resources()["CPU"] == 2
    assert {n["NodeManagerAddress"] for n in ray.nodes()} == {"127.0.0.1"}
    assert ray.get_runtime_context().gcs_address.startswith("127.0.0.1:")


def test_pool_keeps_the_order_of_the_jobs(cluster: RayPool) -> None:
    # more jobs than the window in flight, so that results come back while others queue
    n = cluster.cpus * 4 * 3 + 1
    assert list(cluster.map(abs, range(-n, 0))) == list(range(n, 0, -1))


def test_match_on_ray_is_the_match_on_one_machine(cluster: RayPool) -> None:
    rules = build_rules("merrimack-valley")
    here = run_match(rules, "basic", "random", deals=9, games=1, seed=5, jobs=1)
    there = run_match(rules, "basic", "random", deals=9, games=1, seed=5, ray=cluster)
    assert steady(there.to_json()) == steady(here.to_json())


def test_arena_command_on_ray(cluster: RayPool, tmp_path: Path) -> None:
    args = ("arena", "basic", "random", "-p", "auction-45", "--deals", "6", "--games", "1",
            "--seed", "2")
    alone = forties(*args, "--jobs", "1", "--out", str(tmp_path / "alone.json"))
    ray_run = forties(*args, "--ray", "--out", str(tmp_path / "ray.json"))
    assert alone.exit_code == 0 and ray_run.exit_code == 0, ray_run.output
    a = json.loads((tmp_path / "alone.json").read_text())
    r = json.loads((tmp_path / "ray.json").read_text())
    assert steady(r) == steady(a) and a["deals"] == 6

    def figures(out: str) -> list[str]:
        return [line for line in out.splitlines() if "played in" not in line]

    assert figures(ray_run.stdout) == figures(alone.stdout)
    assert "7 deals and games played in" in ray_run.stdout
    assert "a second) on Ray (a local cluster, 2 CPUs)" in ray_run.stdout
    assert "on one process" in alone.stdout


def test_hall_evening_on_ray(cluster: RayPool, tmp_path: Path) -> None:
    args = ("hall", "simulate", "--couples", "6", "--games", "3", "--players", "basic,random",
            "--seed", "4", "--top", "0")
    alone = forties(*args, "--json", str(tmp_path / "alone.json"))
    ray_run = forties(*args, "--ray", "--json", str(tmp_path / "ray.json"))
    assert alone.exit_code == 0 and ray_run.exit_code == 0, ray_run.output
    assert (tmp_path / "ray.json").read_text() == (tmp_path / "alone.json").read_text()

    def figures(out: str) -> list[str]:
        return [line for line in out.splitlines() if "played in" not in line]

    assert figures(ray_run.stdout) == figures(alone.stdout)
    assert "on Ray (a local cluster, 2 CPUs)" in ray_run.stdout


def test_arena_joins_a_cluster_by_its_address(cluster: RayPool, tmp_path: Path) -> None:
    """A program of its own joins the running cluster at its address, with the progress bar
    and the throughput, and leaves the cluster running."""
    import ray

    address = ray.get_runtime_context().gcs_address
    out = tmp_path / "m.json"
    res = run_forties("arena", "random", "random", "--deals", "3", "--games", "0",
                      "--ray", address, "--out", str(out))
    assert res.returncode == 0, res.stderr
    assert f"on Ray ({address}, 2 CPUs)" in res.stdout
    assert "random vs random" in res.stderr  # the progress bar
    alone = run_match(build_rules("merrimack-valley"), "random", "random", deals=3, games=0,
                      seed=1, jobs=1)
    assert steady(json.loads(out.read_text())) == steady(alone.to_json())
    assert list(cluster.map(abs, [-1])) == [1]  # still up


@pytest.mark.parametrize(("address", "words"), [
    ("nowhere", "give the cluster's head as HOST:PORT"),
    ("127.0.0.1:x", "give the cluster's head as HOST:PORT"),
    ("127.0.0.1:1", "cannot join the Ray cluster at 127.0.0.1:1: Connection refused"),
])
def test_a_cluster_that_is_not_there_is_one_line(address: str, words: str) -> None:
    res = run_forties("arena", "random", "random", "--deals", "1", "--ray", address)
    assert res.returncode == 2
    assert res.stderr.startswith("forties: ") and res.stderr.count("\n") == 1
    assert words in res.stderr


def test_without_ray_installed_ray_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Ray installed, --ray says how to get it, in one line."""
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    with pytest.raises(ClusterError, match=r"--ray needs Ray: pip install"):
        RayPool(None, cpus=1)


COUNT_RAY = """
import sys
from forties.cli import main
try:
    main(sys.argv[1:], standalone_mode=False)
except SystemExit:
    pass
print("ray imported" if "ray" in sys.modules else "no ray")
"""


@pytest.mark.parametrize("args", [
    ("arena", "random", "random", "--deals", "2", "--games", "0", "--jobs", "2"),
    ("hall", "simulate", "--couples", "4", "--games", "1", "--players", "random", "--seed",
     "1", "--jobs", "2"),
])
def test_without_ray_nothing_imports_ray(args: tuple[str, ...]) -> None:
    def run(script: str) -> str:
        res = subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                             text=True, timeout=120, check=False)
        assert res.returncode == 0, res.stderr
        return res.stdout.strip().splitlines()[-1]

    assert run(COUNT_RAY) == "no ray"
    assert run("import ray\n" + COUNT_RAY) == "ray imported"  # the check can see it
