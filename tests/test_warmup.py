"""The compiled search made ready before the first game (``forties warm-up``, run by
``make run``), and where numba keeps it: beside the sources when the package folder can be
written, else in the user's cache folder."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from forties import paths, warmup


def no_cache_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    """NUMBA_CACHE_DIR unset for the test, and as it was after it, even when the code under
    test sets it (a ``delenv`` of an unset variable would restore nothing, and the test's
    setting would send later tests' processes to compile into a passing folder)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", "-")
    monkeypatch.delenv("NUMBA_CACHE_DIR")


def test_cache_stays_beside_the_sources_when_the_package_can_be_written(
        monkeypatch: pytest.MonkeyPatch) -> None:
    no_cache_setting(monkeypatch)
    assert paths.configure_cache() is None
    assert "NUMBA_CACHE_DIR" not in os.environ


def test_cache_goes_to_the_user_cache_folder_when_the_package_is_read_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An installed wheel in a folder the user cannot write: numba's cache goes to
    $XDG_CACHE_HOME/forties/numba; a NUMBA_CACHE_DIR the user set is kept."""
    package = tmp_path / "site-packages" / "forties"
    for sub in ("solver", "vector"):
        (package / sub).mkdir(parents=True)
    no_cache_setting(monkeypatch)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    real_access = os.access
    monkeypatch.setattr(paths.os, "access", lambda p, mode: False if str(p).startswith(
        str(package)) else real_access(p, mode))
    if sys.platform.startswith("linux"):
        assert paths.configure_cache(package) == tmp_path / "cache" / "forties" / "numba"
        assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / "cache" / "forties" / "numba")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert paths.configure_cache(package) == tmp_path / "mine"
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / "mine")


def test_a_read_only_install_compiles_into_the_user_cache(tmp_path: Path) -> None:
    """End to end, in a fresh process that cannot write the package folder: importing
    forties points numba at the user cache before numba reads its settings, and a cached
    kernel compiled there lands in that folder (a small one: the real ones take a minute)."""
    module = tmp_path / "tiny_kernel.py"
    module.write_text(textwrap.dedent("""
        from numba import njit

        @njit(cache=True)
        def twice(x):
            return 2 * x
    """), encoding="utf-8")
    script = textwrap.dedent(f"""
        import os, sys
        real = os.access
        package = os.path.dirname(__import__("importlib.util").util.find_spec(
            "forties").origin)
        os.access = lambda p, m, **k: False if str(p).startswith(package) else real(p, m)
        import forties  # configures the cache
        os.access = real
        from numba.core import config
        sys.path.insert(0, {str(tmp_path)!r})
        import tiny_kernel
        assert tiny_kernel.twice(21) == 42
        print(config.CACHE_DIR)
    """)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, timeout=120, check=False)
    assert res.returncode == 0, res.stderr
    where = tmp_path / "cache" / "forties" / "numba"
    assert res.stdout.strip() == str(where)
    assert list(where.rglob("*.nbi")) and list(where.rglob("*.nbc"))
    assert not list(tmp_path.glob("__pycache__/*.nbi"))  # nothing beside the source


def test_is_warm_after_the_warm_up() -> None:
    """After ``warm_up`` this process has the solver's kernels (compiled or loaded)."""
    seconds = warmup.warm_up()
    assert seconds > 0 and warmup.is_warm()


def test_warm_up_command_says_what_it_does() -> None:
    from .helpers_engine import run_forties

    res = run_forties("warm-up")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].startswith("Getting the computer players' search ready")
    assert lines[-1].startswith("Ready in ")


def test_make_run_warms_up_before_the_game() -> None:
    """``make run``'s recipe runs the warm-up, then the game."""
    makefile = (Path(__file__).parents[1] / "Makefile").read_text()
    recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    steps = [ln.strip() for ln in recipe.splitlines()[1:] if ln.startswith("\t")]
    assert steps == ["$(BIN)/forties warm-up", "$(BIN)/forties serve"]


def test_warm_up_all_makes_every_compiled_part(monkeypatch: pytest.MonkeyPatch) -> None:
    """``forties warm-up --all`` (which ``make test`` runs before the tests, so a broken one
    stops the run) makes the search, the many-table engine and the research environments,
    one process each, and names each with its time."""
    from click.testing import CliRunner

    from forties.cli import main

    assert set(warmup.WARM_PARTS) == {"search", "tables", "research"}
    ran: list[int] = []
    monkeypatch.setattr(warmup, "warm_all", lambda: ran.append(1) or {
        "search": 2.5, "tables": 1.25, "research": 3.0})
    res = CliRunner().invoke(main, ["warm-up", "--all"])
    assert res.exit_code == 0, res.output
    assert ran == [1]
    assert "search 2.5 s, tables 1.2 s, research 3.0 s" in res.output
    assert res.output.splitlines()[-1].startswith("Ready in 3.0 s")
    makefile = (Path(__file__).parents[1] / "Makefile").read_text()
    assert "$(BIN)/forties warm-up --all" in makefile.split("\nwarm-all:", 1)[1]
