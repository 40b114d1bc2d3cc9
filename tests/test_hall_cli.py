"""``forties hall`` as a user runs it (the README's hall commands run in test_readme.py)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from forties.hall import Hall

from .helpers_engine import run_forties, run_many, same_as_installed

Job = tuple[list[str], bytes, None, None]


def simulate(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_forties("hall", "simulate", *args)


def test_simulate_prints_standings_prizes_and_checks(tmp_path: Path) -> None:
    j, c, cards = tmp_path / "e.json", tmp_path / "s.csv", tmp_path / "cards.html"
    res = simulate(tmp_path, "--couples", "9", "--games", "6", "--players", "basic,random",
                   "--seed", "3", "--booby", "--cookie-jar", "3", "--json", str(j),
                   "--csv", str(c), "--cards", str(cards), "--top", "0")
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "9 couples at 4 tables, 6 games of nova-scotia" in out
    assert "Prizes:" in out and "FAILED" not in out
    assert out.count("  ok: ") == 6
    assert "Cookie jar (games " in out and "Booby prize" in out
    assert len(re.findall(r"^\s+\d+\s+\d+\s+Player", out, re.M)) == 9
    export = json.loads(j.read_text())
    h = Hall.from_json({k: export[k] for k in ("format", "settings", "events")})
    assert h.over and len(h.couples) == 9
    assert [r["couple"] for r in export["standings"]] == [s.couple for s in h.standings()]
    assert len(c.read_text().splitlines()) == 10
    assert (tmp_path / "s-results.csv").exists()
    assert cards.read_text().count('class="punch"') == 9
    again = simulate(tmp_path, "--couples", "9", "--games", "6", "--players", "basic,random",
                     "--seed", "3", "--booby", "--cookie-jar", "3", "--top", "0")

    def steady(text: str) -> str:
        return re.sub(r"played in .*", "", text)  # the time taken and the rate

    assert steady(again.stdout) == steady(out)  # the same seed, the same evening


def test_simulate_duplicate_with_house_rules(tmp_path: Path) -> None:
    res = simulate(tmp_path, "--couples", "6", "--games", "3", "--duplicate", "-p",
                   "auction-45", "-o", "lock_at=null", "-o", "target=60", "--seed", "1",
                   "--jobs", "2")
    assert res.returncode == 0, res.stderr
    assert "(duplicate)" in res.stdout and "Matchpoints" in res.stdout


SIMULATE_REFUSED: list[tuple[list[str], str]] = [
    (["--players", "wizard"], "unknown player 'wizard'"),
    (["--couples", "1"], "'--couples': 1 is not in the range 2<=x<=2000"),
    (["-p", "call-your-partner"], "four players in two pairs"),
    (["-o", "kitty"], "NAME=VALUE"),
    (["-o", "trumps=S"], "unknown option"),
    (["--games", "0"], "'--games': 0 is not in the range 1<=x<=200"),
    (["--cookie-jar", "40"], "cookie_jar must be from 0"),
    (["--jobs", "0"], "'--jobs': 0 is not in the range x>=1"),
    (["--json", ".", "--couples", "2", "--games", "1"], "--json . is a folder"),
]
ANTE_HOME_REFUSED: list[tuple[list[str], str]] = [
    (["ante", "--names", "A,B,C"], "six players"),
    (["ante", "-p", "forty-one"], "not a game of 45s"),
    (["ante", "-o", "kitty"], "NAME=VALUE"),
    (["ante", "--players", "ace"], "unknown player 'ace'"),
    (["home", "--couples", "Ann,Bob"], "two couples"),
    (["home", "--matches", "0"], "'--matches': 0 is not in the range 1<=x<=1000"),
]


@pytest.fixture(scope="module")
def refused() -> dict[tuple[str, ...], tuple[Job, subprocess.CompletedProcess[bytes]]]:
    """``forties hall simulate ARGS`` and ``forties hall ARGS`` of the refusals below, all
    in one process (run_many, each as its own process would run)."""
    jobs: list[Job] = [(["hall", "simulate", *a], b"", None, None) for a, _ in SIMULATE_REFUSED]
    jobs += [(["hall", *a], b"", None, None) for a, _ in ANTE_HOME_REFUSED]
    return {tuple(job[0]): (job, res) for job, res in zip(jobs, run_many(jobs), strict=True)}


def check_refused(refused: dict[tuple[str, ...], Any], args: list[str], words: str) -> None:
    job, done = refused[tuple(args)]
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert words in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err
    if tuple(args) == next(iter(refused)):  # the first, also through the installed script
        same_as_installed(job, done)


@pytest.mark.parametrize(("args", "words"), SIMULATE_REFUSED)
def test_simulate_bad_input_is_one_line(refused: dict[tuple[str, ...], Any], args: list[str],
                                        words: str) -> None:
    check_refused(refused, ["hall", "simulate", *args], words)


def test_a_rules_file_gives_the_preset_and_a_preset_against_it_is_refused(
        tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('preset = "auction-45"\n[options]\ntarget = 150\n', encoding="utf-8")
    res = simulate(tmp_path, "--couples", "2", "--games", "1", "--seed", "1", "--rules",
                   str(house))
    assert res.returncode == 0, res.stderr
    assert "of auction-45, players basic" in res.stdout
    res = simulate(tmp_path, "--couples", "2", "--games", "1", "--rules", str(house), "-p",
                   "nova-scotia")
    assert res.returncode == 2 and res.stdout == ""
    assert "--preset nova-scotia disagrees" in res.stderr and res.stderr.count("\n") == 1


def test_cards_of_a_saved_evening(tmp_path: Path) -> None:
    j = tmp_path / "e.json"
    assert simulate(tmp_path, "--couples", "4", "--games", "2", "--seed", "2", "--json",
                    str(j)).returncode == 0
    res = run_forties("hall", "cards", str(j), "--lang", "fr")
    assert res.returncode == 0 and 'lang="fr"' in res.stdout
    assert res.stdout.count('class="punch"') == 4
    out = tmp_path / "t.html"
    assert run_forties("hall", "cards", str(j), "--tables", "-o", str(out)).returncode == 0
    assert 'class="big"' in out.read_text()
    for bad, words in [(tmp_path / "none.json", "no such file"),
                       (tmp_path / "x.json", "not JSON")]:
        if bad.name == "x.json":
            bad.write_text("{")
        res = run_forties("hall", "cards", str(bad))
        assert res.returncode == 2 and words in res.stderr and "Traceback" not in res.stderr
    broken = json.loads(j.read_text())
    last = max(i for i, e in enumerate(broken["events"]) if e["type"] == "result")
    broken["events"][last]["winner"] = 99
    (tmp_path / "b.json").write_text(json.dumps(broken))
    res = run_forties("hall", "cards", str(tmp_path / "b.json"))
    assert res.returncode == 2 and "couple 99 is not at table" in res.stderr


@pytest.mark.parametrize(("args", "words"), ANTE_HOME_REFUSED)
def test_ante_and_home_bad_input(refused: dict[tuple[str, ...], Any], args: list[str],
                                 words: str) -> None:
    check_refused(refused, ["hall", *args], words)


def test_ante_and_home_print_their_results() -> None:
    res = run_forties("hall", "ante", "--seed", "4", "--stake", "3")
    assert res.returncode == 0 and "18 in the pot" in res.stdout
    assert re.search(r"Cut-throat won by \w+, who takes the 18", res.stdout)
    res = run_forties("hall", "home", "--matches", "2", "--seed", "1")
    assert res.returncode == 0 and res.stdout.count("Match ") == 2


def test_an_export_from_before_the_cut_names_had_their_prefix_still_loads(
        tmp_path: Path) -> None:
    from forties.hall.events import CutDeck, Vote
    from forties.hall.export import export_json

    from .test_hall_prizes import seed_example

    h = seed_example()
    h.apply(Vote("prize-1", 1, "cut"))
    h.apply(Vote("prize-1", 2, "cut"))
    h.apply(CutDeck("prize-1"))
    old = export_json(h)
    assert old["contests"]["prize-1"]["cut"]["draw"] == "cut/prize-1"
    old["contests"]["prize-1"]["cut"]["draw"] = "prize-1"  # as exports used to name it
    j = tmp_path / "old.json"
    j.write_text(json.dumps(old))
    res = run_forties("hall", "cards", str(j))
    assert res.returncode == 0, res.stderr
    assert res.stdout.count('class="punch"') == 7
