"""The strength figures in docs/benchmarks.md are the ones their logs give.

Every ``python -m lab.strength ... --summary`` command that the page shows is run
again here on the kept logs (``docs/bench-logs/``), and each figure it prints (points a
hand, share of the oracle's margin, gain over another log, each with its interval) must
stand in the page's text. A log that grows or a figure typed wrong fails this test.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from lab import strength

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
PREFIX = "python -m lab.strength "
LOG_FLAGS = ("--log", "--share", "--over")

NUMBER = r"[+-]?\d+\.\d+"


def summaries() -> list[list[str]]:
    """The arguments of each summary command in the page whose logs are all kept."""
    found = []
    for line in PAGE.splitlines():
        line = line.strip()
        if not line.startswith(PREFIX) or "--summary" not in line:
            continue
        args = shlex.split(line.removeprefix(PREFIX))
        logs = [args[i + 1] for i, a in enumerate(args) if a in LOG_FLAGS]
        if logs and all((ROOT / p).is_file() for p in logs):
            found.append(args)
    return found


def figures(out: str) -> list[str]:
    """Each figure a summary printed, as a pattern the page's text must match: the point
    and its interval, with or without "a hand" or "95%:" between them."""
    pats = []
    for point, pct, low, high in re.findall(
            rf"({NUMBER})(%?) (?:a hand )?\(95%: ({NUMBER})%? \.\. ({NUMBER})%?\)", out):
        pats.append(rf"{re.escape(point + pct)} (?:a hand )?\({re.escape(low + pct)} \.\. "
                    rf"{re.escape(high + pct)}\)")
    for point, low, high in re.findall(
            rf"points per hand ({NUMBER}) \(({NUMBER}) \.\. ({NUMBER})\)", out):
        pats.append(rf"{re.escape(point)} (?:a hand )?\({re.escape(low)} \.\. "
                    rf"{re.escape(high)}\)")
    return pats


def flat(text: str) -> str:
    """The page's text with emphasis and line breaks gone."""
    return re.sub(r"\s+", " ", text.replace("**", ""))


SUMMARIES = summaries()
FLAT_PAGE = flat(PAGE)


def test_the_page_shows_summaries_of_kept_logs() -> None:
    # so the test below cannot pass by finding nothing to check
    assert len(SUMMARIES) >= 12


@pytest.mark.parametrize("args", SUMMARIES, ids=lambda a: a[a.index("--log") + 1])
def test_each_summary_figure_stands_in_the_page(
        args: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    strength.main(args)
    out = capsys.readouterr().out
    pats = figures(out)
    assert pats, out
    missing = [p for p in pats if not re.search(p, FLAT_PAGE)]
    assert not missing, f"{out}\nnot in docs/benchmarks.md: {missing}"


def test_a_figure_not_in_the_page_is_caught() -> None:
    out = ("merrimack-valley: expert vs basic, seed 1: 10 deals: points per hand "
           "+9.87 (+9.01 .. +9.99), 1 s of play\n  share ...: 98.7% (95%: 97.1% .. 99.9%)")
    pats = figures(out)
    assert len(pats) == 2
    assert not any(re.search(p, FLAT_PAGE) for p in pats)
    share, points = pats
    assert re.search(points, flat("took **+9.87 a hand (+9.01 .. +9.99)**"))
    assert re.search(share, flat("reached **98.7% (97.1% ..\n  99.9%)** of it"))
    assert not re.search(share, flat("reached 98.7% (97.1% .. 99.8%)"))
