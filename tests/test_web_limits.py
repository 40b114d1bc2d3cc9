"""The server's limits from FORTIES_LIMITS, and the pars' process's priority."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from forties.web.service import Limits, ParPool

from .helpers_engine import FORTIES


def test_limits_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORTIES_LIMITS", raising=False)
    assert Limits.from_env() == Limits()
    monkeypatch.setenv("FORTIES_LIMITS", '{"par_nice": 0, "bot_delay": 1, "par": false, '
                                         '"review_seconds": null, "message_burst": 2.5}')
    got = Limits.from_env()
    assert (got.par_nice, got.bot_delay, got.par, got.review_seconds, got.message_burst) == \
        (0, 1, False, None, 2.5)


@pytest.mark.parametrize("raw, words", [
    ('{"par_nice": "x"}', "par_nice must be a whole number, not 'x'"),
    ('{"par_nice": 1.5}', "par_nice must be a whole number, not 1.5"),
    ('{"workers": true}', "workers must be a whole number, not True"),
    ('{"par": 1}', "par must be true or false, not 1"),
    ('{"par_nice": null}', "par_nice must be a whole number, not None"),
    ('{"bot_delay": "fast"}', "bot_delay must be a number or null, not 'fast'"),
    ('{"par_budget": 2.5}', "par_budget must be a whole number or null, not 2.5"),
    ('{"speed": 1}', "FORTIES_LIMITS must be an object with keys among"),
    ('[1]', "FORTIES_LIMITS must be an object with keys among"),
    ('{', "FORTIES_LIMITS is not JSON"),
])
def test_a_wrong_limit_is_one_line(monkeypatch: pytest.MonkeyPatch, raw: str,
                                   words: str) -> None:
    monkeypatch.setenv("FORTIES_LIMITS", raw)
    with pytest.raises(ValueError) as e:
        Limits.from_env()
    assert words in str(e.value) and "\n" not in str(e.value)


@pytest.mark.asyncio
async def test_the_pars_process_runs_at_the_niceness_asked() -> None:
    here = os.nice(0)
    for nice in (10, 0):
        pars = ParPool(nice)
        try:
            assert await pars.run(os.nice, 0) == min(19, here + nice)
        finally:
            pars.close()
    assert ParPool().nice == Limits().par_nice == 10


def test_serve_with_a_wrong_limit_says_so_in_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "FORTIES_DATA": str(tmp_path),
           "FORTIES_LIMITS": '{"par_nice": "low"}'}
    res = subprocess.run([str(FORTIES), "serve", "--no-browser", "--port", "0"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == ("forties: FORTIES_LIMITS: par_nice must be a whole number, "
                          "not 'low'\n")
