"""The MaskablePPO example (docs/examples/maskable_ppo.py) without torch: its arguments
are checked first, a venv without the learn extra is told in one line what to install,
and `make bench-envs` installs that extra in a venv of its own and runs the example."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "maskable_ppo.py"


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("args", "says"), [
    (["--steps", "0"], "--steps, --envs and --deals must be at least 1"),
    (["--deals", "-3"], "--steps, --envs and --deals must be at least 1"),
    (["--envs", "0"], "--steps, --envs and --deals must be at least 1"),
    (["--seed", "-1"], "--seed at least 0"),
    (["--steps", "1e5"], "invalid int value"),
    (["--preset", "forty-one"], "a Forty-Fives preset"),
])
def test_bad_arguments_are_refused_in_one_line(args: list[str], says: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        example().main(args)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert says in err[-1]


def test_without_the_learn_extra_it_says_what_to_install(
        capsys: pytest.CaptureFixture[str]) -> None:
    module = example()
    if not module.missing_packages():  # this venv has torch: the message is not reachable
        assert all(importlib.util.find_spec(p) for p in module.LEARN_PACKAGES)
        return
    assert module.main(["--steps", "10"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "pip install 'forties[research,learn]'" in err
    assert "torch" in err


def test_make_bench_envs_installs_the_learn_extra_and_runs_the_example() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    learn = extras["learn"]
    assert {re.split("==", d)[0] for d in learn} == {"torch", "stable-baselines3",
                                                   "sb3-contrib"}
    assert all(re.fullmatch(r"[a-z0-9-]+==[0-9.]+", d) for d in learn), learn
    assert not any("torch" in d for name, ds in extras.items() if name != "learn" for d in ds)
    make = (ROOT / "Makefile").read_text()
    assert re.search(r"^LEARN_VENV := \.venv-learn$", make, re.M)
    assert re.search(r"^LEARN_EXTRAS := research,learn$", make, re.M)
    recipe = re.search(r"^bench-envs: (.*)\n((?:\t.*\n)+)", make, re.M)
    assert recipe is not None and "$(LEARN_VENV)/.installed" in recipe.group(1)
    assert "\t$(LEARN_VENV)/bin/python docs/examples/maskable_ppo.py\n" in recipe.group(2)
    assert ".venv-learn/" in (ROOT / ".gitignore").read_text().splitlines()
