"""Two revisions of forties measured in the same run: the engine, the double-dummy solver, the
expert's decision time and the web server's actions, each a same-run ratio (this tree over
the other; above 1 means this tree is faster).

    python -m bench.versus REV [--tree PATH] [--rounds N] [--only engine,solver,expert,web]

REV (a commit, a tag or a branch) is checked out in a temporary worktree, removed at the end
(``--tree PATH``: a checkout of it already there, whose compiled code may be cached).
Each round runs every measurement on both trees one after the other, the order swapped every
round, so that a slow spell on the machine touches both; a ratio is the median of the rounds'
ratios. Each measurement is the tree's own benchmark (``bench.*``, or ``forties.bench.*`` in a
revision from before the benchmarks left the package) at a small size, run in a fresh
process with that tree's sources first on the path.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# (higher is better, the figure) by a figure's name
Figures = dict[str, tuple[bool, float]]


def bench_module(tree: Path) -> str:
    """Where a tree keeps its benchmarks: ``bench`` beside the package, or inside it."""
    return "bench" if (tree / "bench" / "__main__.py").exists() else "forties.bench"


def run(tree: Path, args: Sequence[str]) -> str:
    """The standard output of ``python -m <tree's bench>.ARGS`` run in ``tree``."""
    module, *rest = args
    name = bench_module(tree) + (f".{module}" if module else "")
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    done = subprocess.run([sys.executable, "-m", name, *rest], cwd=tree, env=env, text=True,
                          capture_output=True, timeout=900, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{name} failed in {tree}:\n{done.stderr[-2000:]}")
    return done.stdout


def engine(tree: Path) -> Figures:
    """Random hands a CPU second of Merrimack Valley and Forty One, on every engine."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        run(tree, ["", "--games", "merrimack-valley,forty-one", "--seconds", "1", "--rounds",
                   "3", "--json", out.name])
        medians: dict[str, float] = json.loads(Path(out.name).read_text())["median"]
    return {f"hands a second, {row}": (True, rate) for row, rate in medians.items()}


def number(pattern: str, text: str) -> float:
    found = re.search(pattern, text)
    if found is None:
        raise SystemExit(f"no figure matching {pattern!r} in:\n{text}")
    return float(found.group(1))


def solver(tree: Path) -> Figures:
    """Median CPU milliseconds of a deal solved, compiled and in Python."""
    text = run(tree, ["solver", "--deals", "100"])
    return {f"solver {engine} ms a deal": (False, number(rf"{engine}\s+median ([\d.]+)", text))
            for engine in ("kernel", "python")}


def expert(tree: Path) -> Figures:
    """Median CPU seconds of the expert's decisions over a few Merrimack Valley hands."""
    text = run(tree, ["expert", "8"])
    return {"expert decision s (median)": (False, number(r"median ([\d.]+)", text))}


def web(tree: Path) -> Figures:
    """Actions a second and server CPU an action: 40 tables of four clients, 12 seconds."""
    got = json.loads(run(tree, ["tables", "--tables", "40", "--seconds", "12", "--json"]))
    return {"web actions a second": (True, float(got["actions_per_second"])),
            "web server CPU ms an action": (False, float(got["server_cpu_ms_per_action"]))}


MEASURES: dict[str, Callable[[Path], Figures]] = {
    "engine": engine, "solver": solver, "expert": expert, "web": web}


def speed_ratio(higher_is_better: bool, ours: float, theirs: float) -> float:
    """How many times faster this tree is than the other on one figure."""
    return ours / theirs if higher_is_better else theirs / ours


def compare(other: Path, kinds: Sequence[str], rounds: int) -> dict[str, list[float]]:
    ratios: dict[str, list[float]] = {}
    for r in range(rounds):
        for kind in kinds:
            order = [(ROOT, "this"), (other, "other")]
            if r % 2:
                order.reverse()
            got = {who: MEASURES[kind](tree) for tree, who in order}
            for name, (higher, ours) in got["this"].items():
                if name in got["other"]:
                    ratio = speed_ratio(higher, ours, got["other"][name][1])
                    ratios.setdefault(name, []).append(ratio)
                    print(f"round {r + 1}, {name}: this {ours:g}, other "
                          f"{got['other'][name][1]:g}, speed ratio {ratio:.3f}", flush=True)
    return ratios


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.versus",
                                description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("rev", help="the revision to measure this tree against")
    p.add_argument("--tree", type=Path, default=None,
                   help="a checkout of REV to use instead of a temporary worktree")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--only", default=",".join(MEASURES),
                   help=f"which measurements, comma separated ({', '.join(MEASURES)})")
    args = p.parse_args(argv)
    kinds = [k.strip() for k in args.only.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in MEASURES]
    if unknown or args.rounds < 1:
        print(f"bench.versus: measurements are {', '.join(MEASURES)}; rounds at least 1",
              file=sys.stderr)
        return 2
    if args.tree is not None:
        ratios = compare(args.tree.resolve(), kinds, args.rounds)
        report(args.rev, args.rounds, ratios)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        other = Path(folder) / "other"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(other),
                        args.rev], check=True, capture_output=True)
        try:
            ratios = compare(other, kinds, args.rounds)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(other)], check=False, capture_output=True)
    report(args.rev, args.rounds, ratios)
    return 0


def report(rev: str, rounds: int, ratios: dict[str, list[float]]) -> None:
    print(f"\nspeed of this tree over {rev}, median of {rounds} rounds:")
    for name, rs in ratios.items():
        print(f"  {name:<48} {statistics.median(rs):.3f}  "
              f"(rounds: {', '.join(f'{x:.3f}' for x in rs)})")


if __name__ == "__main__":
    sys.exit(main())
