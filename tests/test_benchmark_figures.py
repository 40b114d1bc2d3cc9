"""The strength figures in docs/benchmarks.md and docs/lab-notes.md are the ones their
logs give.

Every ``python -m lab.strength ... --summary`` command that a page shows is run again
here on the kept logs (``docs/bench-logs/``), and each figure it prints (points a hand,
share of the oracle's margin, gain over another log, each with its interval) must stand
in that page's text. A log that grows or a figure typed wrong fails this test.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from lab import strength

ROOT = Path(__file__).resolve().parents[1]
PAGES = {name: (ROOT / "docs" / name).read_text(encoding="utf-8")
         for name in ("benchmarks.md", "lab-notes.md")}
PREFIX = "python -m lab.strength "
LOG_FLAGS = ("--log", "--share", "--over")

NUMBER = r"[+-]?\d+\.\d+"


def summaries() -> list[tuple[str, list[str]]]:
    """Each page's summary commands whose logs are all kept: the page, the arguments."""
    found = []
    for name, page in PAGES.items():
        found += [(name, args) for args in page_summaries(page)]
    return found


def page_summaries(page: str) -> list[list[str]]:
    """The arguments of each summary command in ``page`` whose logs are all kept."""
    found = []
    for line in page.splitlines():
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
FLAT_PAGES = {name: flat(page) for name, page in PAGES.items()}


def test_the_page_shows_summaries_of_kept_logs() -> None:
    # so the test below cannot pass by finding nothing to check
    assert len(SUMMARIES) >= 12
    assert {name for name, _ in SUMMARIES} == set(PAGES)


@pytest.mark.parametrize(("name", "args"), SUMMARIES,
                         ids=lambda x: x if isinstance(x, str) else x[x.index("--log") + 1])
def test_each_summary_figure_stands_in_the_page(
        name: str, args: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    strength.main(args)
    out = capsys.readouterr().out
    pats = figures(out)
    assert pats, out
    missing = [p for p in pats if not re.search(p, FLAT_PAGES[name])]
    assert not missing, f"{out}\nnot in docs/{name}: {missing}"


def test_a_figure_not_in_the_page_is_caught() -> None:
    out = ("merrimack-valley: expert vs basic, seed 1: 10 deals: points per hand "
           "+9.87 (+9.01 .. +9.99), 1 s of play\n  share ...: 98.7% (95%: 97.1% .. 99.9%)")
    pats = figures(out)
    assert len(pats) == 2
    assert not any(re.search(p, page) for p in pats for page in FLAT_PAGES.values())
    share, points = pats
    assert re.search(points, flat("took **+9.87 a hand (+9.01 .. +9.99)**"))
    assert re.search(share, flat("reached **98.7% (97.1% ..\n  99.9%)** of it"))
    assert not re.search(share, flat("reached 98.7% (97.1% .. 99.8%)"))
