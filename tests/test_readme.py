"""The README cannot drift: every command and code example in it is run here.

Shell blocks: each ``.venv/bin/forties ...`` line runs in one folder, in order (the demo
writes the game.json that later lines read), with small sizes where the README's would
take minutes (the substitutions are listed below); interactive ``play`` runs where a
full-screen app cannot (no terminal), so it plays in plain mode and stops at once.
``make`` lines are checked with ``make -n`` (``make test`` cannot run itself). The TOML
block is given to ``rules show --rules``; the Python blocks are run.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from .helpers_engine import FORTIES

ROOT = Path(__file__).parents[1]
FULL_README = (ROOT / "README.md").read_text(encoding="utf-8")


def _without_research(text: str) -> str:
    """The README less its section for researchers, which test_research_docs.py runs
    (with its own small sizes) so that no line is run twice."""
    start = text.index("## For researchers")
    end = text.find("\n## ", start + 1)
    return text[:start] + ("" if end < 0 else text[end + 1:])


README = _without_research(FULL_README)

# What makes a long command short, and nothing else: the same command and options.
SMALLER = {
    "--deals 2000": "--deals 2 --games 0",
    "--couples 100 --games 25": "--couples 12 --games 5",  # its time is in docs/benchmarks.md
}


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.S)


def shell_lines() -> list[str]:
    out = []
    for block in blocks("sh"):
        for line in block.splitlines():
            command = line.split("#", 1)[0].strip()
            if command:
                out.append(command)
    return out


def test_every_shell_line_is_a_command_this_test_knows() -> None:
    """A new kind of line in the README must be taught to this test, not skipped."""
    lines = shell_lines()
    assert lines, "the README has no commands"
    for line in lines:
        assert line.startswith((".venv/bin/forties ", "make ")), line


def test_make_targets_exist() -> None:
    """``make run``, ``make test``, ``make bench``: each is a target of the Makefile (a dry
    run prints its recipe without running it), and ``make run`` warms up first."""
    targets = [ln.split()[1] for ln in shell_lines() if ln.startswith("make ")]
    targets += re.findall(r"`make (\w+)`", README)
    assert {"run", "test", "bench"} <= set(targets)
    for target in sorted(set(targets)):
        res = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True,
                             timeout=60, check=False)
        assert res.returncode == 0, (target, res.stderr)
    dry = subprocess.run(["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, check=False).stdout
    assert dry.index("forties warm-up") < dry.index("forties serve")
    bench = subprocess.run(["make", "-n", "bench"], cwd=ROOT, capture_output=True, text=True,
                           timeout=60, check=False).stdout
    if "pip install" in bench:  # not yet installed: the bench extra brings OpenSpiel
        assert re.search(r"\.\[[a-z,]*bench[a-z,]*\]", bench), bench
    assert 'bench = [\n    "open_spiel' in (ROOT / "pyproject.toml").read_text()


def forties_lines() -> list[list[str]]:
    """The arguments of each ``forties`` line of the README, in order, made small."""
    out = []
    for line in shell_lines():
        if not line.startswith(".venv/bin/forties "):
            continue
        for long, short in SMALLER.items():
            line = line.replace(long, short)
        out.append(shlex.split(line)[1:])
    return out


def files_named(args: list[str]) -> set[str]:
    return {a for a in args if re.fullmatch(r"[\w.-]+\.(json|html|csv|toml|md)", a)}


def chains() -> list[list[list[str]]]:
    """The README's ``forties`` lines in groups that share no file: lines naming the same
    file (the demo's game.json that show and check read, the pad's friday.json) stay
    together in README order; each group runs in a folder of its own, beside the others."""
    lines = forties_lines()
    group = list(range(len(lines)))  # each line's group: the first line of it

    def first(i: int) -> int:
        while group[i] != i:
            i = group[i]
        return i

    for i, a in enumerate(lines):
        for j in range(i):
            if files_named(a) & files_named(lines[j]):
                ri, rj = first(i), first(j)
                group[max(ri, rj)] = min(ri, rj)
    out: dict[int, list[list[str]]] = {}
    for i, a in enumerate(lines):
        out.setdefault(first(i), []).append(a)
    return list(out.values())


def chain_id(lines: list[list[str]]) -> str:
    return " ".join(lines[0]) + (f" (+{len(lines) - 1})" if len(lines) > 1 else "")


# What the lines leave behind, checked in the folder of the group that names the file.
LEFT: dict[str, Callable[[Path], bool]] = {
    "game.json": Path.is_file,  # demo --save game.json, which the others read
    "friday.json": lambda p: '"bidder": 1' in p.read_text(),  # the hand typed, kept
    "evening.json": Path.is_file,  # the hall evening saved...
    "cards.html": Path.is_file,  # ...gets its punch cards printed
}


def test_the_readme_lines_are_all_run_in_their_groups() -> None:
    """The groups hold every ``forties`` line once, each line after the lines before it
    that name one of its files, and the files the README promises."""
    lines = forties_lines()
    assert len(lines) >= 10
    grouped = [a for g in chains() for a in g]
    assert sorted(map(tuple, grouped)) == sorted(map(tuple, lines))
    for g in chains():
        assert [lines.index(a) for a in g] == sorted(lines.index(a) for a in g)
    named = set().union(*map(files_named, lines))
    assert set(LEFT) <= named
    assert ["demo", "-p", "nova-scotia", "--seed", "3", "--save", "game.json"] in \
        next(g for g in chains() if ["show", "game.json"] in g)


@pytest.mark.parametrize("lines", chains(), ids=chain_id)
def test_every_forties_command_in_the_readme_runs(tmp_path: Path, lines: list[list[str]]) -> None:
    """Each ``forties`` line of the README, in order within its group, in one folder: exit
    status 0, no traceback; ``demo --save game.json`` leaves a record the others read, and
    the hall evening saved as evening.json gets its punch cards printed."""
    env = {**os.environ, "FORTIES_DATA": str(tmp_path / "data"), "TERM": "dumb"}
    for args in lines:
        args = list(args)
        line = " ".join(args)
        if args[0] == "serve":
            run_serve(args, tmp_path, env)
            continue
        if args[0] == "odds" and "--deals" not in args:
            args += ["--deals", "2", "-p", "merrimack-valley"]
        # the score pad reads hands from its input: one, as its README line says to type
        typed = "Bob 20 : 10 20\n" if args[0] == "pad" and "--resume" not in args else ""
        res = subprocess.run([str(FORTIES), *args], cwd=tmp_path, env=env, input=typed,
                             capture_output=True, text=True, timeout=600, check=False)
        assert res.returncode == 0, (line, res.stdout[-2000:], res.stderr)
        assert "Traceback" not in res.stdout + res.stderr, line
    for name in set().union(*map(files_named, lines)) & set(LEFT):
        assert LEFT[name](tmp_path / name), name


def run_serve(args: list[str], folder: Path, env: dict[str, str]) -> None:
    """A ``serve`` line runs on any free port without a browser: it must print the
    address, answer /healthz there, and stop cleanly on Ctrl-C (on PostgreSQL and Redis
    started for it, where it names them)."""
    if "--port" in args:
        i = args.index("--port")
        del args[i:i + 2]
    args = [a for a in args if a != "--no-browser"] + ["--port", "0", "--no-browser"]
    if "--db" in args and args[args.index("--db") + 1].startswith("postgresql://"):
        # the README's PostgreSQL and Redis: a throwaway pair of them, started for the line
        from .services import postgres, redis

        with postgres() as pg, redis() as rd:
            args[args.index("--db") + 1] = pg.url
            if "--redis" in args:
                args[args.index("--redis") + 1] = rd.url
            serve_once(args, folder, env)
        return
    serve_once(args, folder, env)


def serve_once(args: list[str], folder: Path, env: dict[str, str]) -> None:
    import json
    import signal
    import urllib.request

    env = {k: v for k, v in env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    proc = subprocess.Popen([str(FORTIES), *args], cwd=folder, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        m = re.fullmatch(r"forties: serving on (http://127\.0\.0\.1:\d+/) \(Ctrl-C to stop\)\n",
                         first)
        assert m, (args, first)
        with urllib.request.urlopen(m.group(1) + "healthz", timeout=30) as r:
            assert json.load(r) == {"ok": True}
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "forties: stopped serving" in out and "Traceback" not in out + err


def test_the_rules_file_example_is_read(tmp_path: Path) -> None:
    """The TOML example, given with --rules (and no preset), sets its options."""
    (toml,) = blocks("toml")
    path = tmp_path / "house.toml"
    path.write_text(toml, encoding="utf-8")
    res = subprocess.run([str(FORTIES), "rules", "show", "--rules", str(path)],
                         capture_output=True, text=True, timeout=60, check=False)
    assert res.returncode == 0, res.stderr
    assert re.search(r"dealer_may_hold\s+(true|True|yes)", res.stdout), res.stdout
    assert re.search(r"min_bid_at_100\s+20", res.stdout), res.stdout


@pytest.mark.parametrize("index", range(len(blocks("python"))))
def test_every_python_example_runs(index: int) -> None:
    """Each Python block of the README runs as it is written."""
    code = blocks("python")[index]
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=600, check=False)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip(), "each example prints what it made"


def test_the_library_example_plays_whole_games() -> None:
    """The library example deals hand after hand with next_hand() until the game is
    over (not one hand alone)."""
    (example,) = [b for b in blocks("python") if "new_game" in b]
    assert "next_hand()" in example and "game.over" in example
