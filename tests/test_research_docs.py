"""The README's section for researchers and docs/research.md run as written: their
Python blocks are executed, their commands run at a small size (a shorter training, one
deal of the arena, a short benchmark), so that neither can drift from the code."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
RESEARCH = ROOT / "docs" / "research.md"
BIN = Path(sys.executable).parent

# Commands made small for the test: (what the docs say, what the test runs instead).
SMALLER = (
    ("--minutes 3", "--minutes 0.05 --tables 16 --deals 3"),
    ("--deals 20", "--deals 1 --games 0 --jobs 1"),
    ("make bench-envs", f"{BIN}/python -m bench.envs --seconds 0.05 --rounds 1 "
                        "--tables 8"),
)


def section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start:] if end < 0 else text[start:end]


def blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", text, flags=re.S)


def readme_section() -> str:
    return section(README.read_text(encoding="utf-8"), "## For researchers")


def commands(text: str) -> list[str]:
    out = []
    for block in blocks(text, "sh"):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line:
                out.append(line)
    return out


def run_command(line: str) -> subprocess.CompletedProcess[str]:
    for said, small in SMALLER:
        line = line.replace(said, small)
    argv = shlex.split(line)
    if argv[0].startswith(".venv/bin/"):
        argv[0] = str(BIN / argv[0].removeprefix(".venv/bin/"))
    env = dict(os.environ, FORTIES_ISMCTS_SIMULATIONS="4")
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env=env, check=False)


def test_the_readme_section_has_code_and_commands() -> None:
    text = readme_section()
    assert blocks(text, "python") and commands(text)
    assert "docs/research.md" in text


@pytest.mark.parametrize("index", range(len(blocks(readme_section(), "python"))))
def test_readme_python_runs(index: int) -> None:
    exec(compile(blocks(readme_section(), "python")[index], "README.md", "exec"), {})


def all_commands() -> list[str]:
    """Every command of the README's section and of the research page, each once."""
    out: list[str] = []
    for line in commands(readme_section()) + commands(RESEARCH.read_text(encoding="utf-8")):
        if line not in out:
            out.append(line)
    return out


@pytest.mark.parametrize("line", all_commands())
def test_commands_run(line: str) -> None:
    result = run_command(line)
    assert result.returncode == 0, result.stderr[-2000:]
    if "train_policy" in line:
        assert "duplicate match, 3 deals: the policy" in result.stdout
    if "arena" in line:
        assert "points per hand for ismcts" in result.stdout


@pytest.mark.parametrize("index", range(len(blocks(RESEARCH.read_text(encoding="utf-8"),
                                                   "python"))))
def test_research_page_python_runs(index: int) -> None:
    code = blocks(RESEARCH.read_text(encoding="utf-8"), "python")[index]
    exec(compile(code, "docs/research.md", "exec"), {})


def test_the_pages_say_what_the_openspiel_games_take() -> None:
    """The OpenSpiel games take the presets as they stand and one parameter, hands: the
    research page and the README say so, and promise house rules only to the others."""
    import pyspiel

    from forties.envs import spiel

    for name in spiel.games():
        game = pyspiel.load_game(name)
        assert set(game.get_type().parameter_specification) == {"hands"}
        with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'kitty'"):
            pyspiel.load_game(name, {"kitty": 0})
    page = RESEARCH.read_text(encoding="utf-8")
    intro = page[:page.index("\n## ")]
    assert "the OpenSpiel games\nare the five presets as they stand, their only parameter " \
           "`hands`" in intro
    assert "any house rules" not in intro.split("; the OpenSpiel games")[1]
    openspiel = section(page, "## OpenSpiel")
    assert "house rules are not parameters" in openspiel
    readme = " ".join(readme_section().split())
    assert "PettingZoo and Gymnasium interfaces for every preset and house rule, and Forty " \
           "One, and the five presets as OpenSpiel games" in readme


def test_the_training_verdict_follows_the_interval() -> None:
    """train_policy.py says "beats", "loses to" or "is level with" as the 95% interval of
    the margin lies above 0, below it, or across it."""
    import importlib.util

    from forties.arena import Interval

    spec = importlib.util.spec_from_file_location(
        "train_policy", ROOT / "docs" / "examples" / "train_policy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.verdict(Interval(30.52, 28.75, 32.29)) == \
        "beats random by +30.52 points a hand (95%: +28.75 .. +32.29)"
    assert module.verdict(Interval(-24.25, -26.46, -22.04)) == \
        "loses to random by 24.25 points a hand (95%: -26.46 .. -22.04)"
    assert module.verdict(Interval(-0.5, -1.2, 0.2)) == \
        "is level with random (no clear difference): -0.50 points a hand (95%: -1.20 .. +0.20)"
